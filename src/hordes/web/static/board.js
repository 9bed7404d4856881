// The board of every page: chessgroundx, told by the server which moves are legal.
//
// The browser knows no rules. A position view from the server ({fen, turn, dests, promotions,
// transforms, pulls, check}) says where each piece may go; this module turns user gestures into
// UCI moves and hands them to `onMove`:
//   - a drag or two clicks: from + to (a Hordes of Change pull is the PULLED piece's from + to, so
//     dragging an enemy piece to its pull square works: the board allows moving both colours and
//     the server's dests say which pieces may actually move);
//   - a promotion: a chooser with the variant's pieces (Queen or Kheshig in Orda);
//   - a change of shape: click a selected piece again (or its button in the hint box): a chooser
//     showing the new shape confirms it; the move is the square twice (`c3c3`);
//   - a pull with a magnet: select the magnet, the pieces it can pull are circled with an arrow
//     to where they would land; click one of them.
// With `premoves` (the game page), a move can be set while the opponent is to move (premove.js).
// Marks for rules one cannot see (magnet-held pieces, campmate wins, a change of sides) come from the
// position view (marks.js); a move that loses by repetition is confirmed first if `confirmMove` is
// given (the game page).

import { Chessground } from '/vendor/chessgroundx/chessground.js';
import { BoardMarks } from './marks.js';
import { Premoves } from './premove.js';

const roleOf = (letter) => letter.toLowerCase().replace('+', 'p') + '-piece';
// Whether a move's SAN says that it gives check (or mate).
export const givesCheck = (san) => /[+#]$/.test(san || '');
export const uciSuffix = (letter) => (letter ? letter.toLowerCase().replace('+', '') : '');

export class VariantBoard {
  constructor(element, variant, { orientation = 'white', onMove = () => {}, chooser, hint, premoves = false, confirmMove = null, notify = null } = {}) {
    this.element = element;
    this.variant = variant;
    this.onMove = onMove;
    this.confirmMove = confirmMove;
    this.notify = notify || ((text) => this._hint({ text }));
    this.marks = new BoardMarks(this);
    this.markShapes = [];
    this.lastMove = null;
    this.chooserEl = chooser;
    this.hintEl = hint;
    this.view = null;
    this.movable = false;
    this.extraShapes = [];
    this.pullShapes = [];
    this.lastClicked = null;
    element.classList.add('v-' + variant.slug);
    element.style.setProperty('--cols', variant.cols);
    element.style.setProperty('--rows', variant.rows);
    this.cg = Chessground(element, {
      orientation,
      coordinates: true,
      dimensions: { width: variant.cols, height: variant.rows },
      kingRoles: variant.royal_roles,
      autoCastle: true,
      movable: { free: false, color: undefined, showDests: true, events: { after: (o, d, meta) => this._after(o, d, meta) } },
      premovable: { enabled: false },
      draggable: { enabled: true, showGhost: true },
      highlight: { lastMove: true, check: true },
      animation: { enabled: true, duration: 180 },
      drawable: { enabled: true, visible: true },
      // chessgroundx rebuilds the board's DOM on a full redraw (a flip; formerly every window resize),
      // which threw away the campmate bands drawn into it: `insert` runs after each rebuild.
      events: {
        select: (key) => this._select(key),
        insert: (elements) => {
          this._markCampmate(elements.container);
          this.marks.attach(elements.container);
        },
      },
    });
    this.premoves = premoves ? new Premoves(this) : null;
    // No redrawAll on window resize: chessgroundx watches the board's size itself (a ResizeObserver)
    // and only recomputes its bounds, keeping the DOM (and the bands) in place.
  }

  // Show a position; `movable` lets the user move the side to move's pieces (and, for pulls, any piece);
  // `premovable` (a colour) lets that side set a premove while it is not to move (`premoves` option).
  set(view, { movable = false, lastMove = null, premovable = false } = {}) {
    this.view = view;
    this.lastMove = lastMove;
    this.movable = movable && Object.keys(view.dests || {}).length + Object.keys(view.transforms || {}).length > 0;
    const dests = new Map();
    if (this.movable) for (const [from, tos] of Object.entries(view.dests)) dests.set(from, tos);
    this.closeChooser();
    this.pullShapes = [];
    this.markShapes = [];
    this.lastClicked = null;
    // the side that may premove: the player's colour while the opponent is to move
    const waiting = !this.movable && premovable && this.premoves ? premovable : undefined;
    this.cg.set({
      fen: view.fen,
      turnColor: view.turn,
      // the server's royal squares, or `true`: chessgroundx marks the side to move's royal pieces
      check: view.check === true || (view.check && view.check.length ? view.check : false),
      lastMove: lastMove && lastMove.length ? lastMove : undefined,
      movable: { color: this.movable ? 'both' : waiting, dests },
    });
    this.cg.selectSquare(null);
    // A piece being dragged that the new position took from its square (an opponent's pull, a
    // takeback): end the drag, which chessgroundx would otherwise go on with (and throw).
    const dragged = this.cg.state.draggable.current;
    if (dragged && !this.cg.state.boardState.pieces.get(dragged.orig)) this.cg.cancelMove();
    this.marks.render(view);
    this._shapes();
    this._hint(null);
    if (this.premoves) this.premoves.afterSet(this.movable, !!waiting);
  }

  // A move made on the board goes to `onMove`, unless it loses by repetition and the player (asked
  // by `confirmMove`) does not want it; a premove that would lose so is dropped without asking.
  _emit(uci, premove = false) {
    const view = this.view;
    if (this.confirmMove && (view.repetition_losing || []).includes(uci)) {
      if (premove || !this.confirmMove(uci)) {
        if (premove) this.notify(`Premove ${uci} dropped: it would lose by repetition.`);
        this.set(view, { movable: true, lastMove: this.lastMove });
        return;
      }
    }
    this.onMove(uci);
    // the mover may premove at once, before the server's answer arrives (premove.js)
    if (this.premoves) this.cg.set({ movable: { color: view.turn, dests: new Map() } });
  }

  _premoveChanged() {
    this.cg.state.dom.redraw();
  }

  setOrientation(color) {
    if (this.cg.state.orientation !== color) this.cg.toggleOrientation();
  }

  flip() {
    this.cg.toggleOrientation();
  }

  // Arrows and circles drawn by the page (the engine's best move), beside the pull hints.
  setShapes(shapes) {
    this.extraShapes = shapes || [];
    this._shapes();
  }

  _shapes() {
    this.cg.setAutoShapes([...this.extraShapes, ...this.pullShapes, ...this.markShapes]);
  }

  _after(orig, dest, meta = {}) {
    const view = this.view;
    const choices = view && view.promotions ? view.promotions[orig + dest] : null;
    if (choices && choices.length && meta.premove) {
      // a premove promotes to the first choice (as lichess's auto-queen)
      const letter = choices.find((c) => c) || '';
      this._emit(orig + dest + uciSuffix(letter), true);
      return;
    }
    if (choices && choices.length) {
      this.choose(
        choices.map((letter) => ({ letter, color: view.turn, label: letter ? this._name(letter) : 'no promotion' })),
        dest,
        (letter) => this._emit(orig + dest + uciSuffix(letter)),
        () => this.set(view, { movable: true, lastMove: this.cg.state.lastMove }),
      );
      return;
    }
    this._emit(orig + dest, !!meta.premove);
  }

  _select(key) {
    const view = this.view;
    if (!view) return;
    // A piece held by an enemy magnet: its closed directions, for anyone who clicks it.
    const held = this.marks.select(key);
    this.markShapes = held.shapes;
    this._shapes();
    if (!this.movable) {
      this._hint(held.text ? { text: held.text } : null);
      return;
    }
    // chessgroundx calls `select` a moment after it has handled the click (the selection is already
    // updated then), so the square clicked before is remembered here.
    const previous = this.lastClicked;
    this.lastClicked = key;
    // A pull: the magnet was selected and now one of the pieces it pulls is clicked.
    const pull = (view.pulls || []).find((p) => p.magnet === previous && p.from === key);
    if (pull) {
      // The press on the pulled piece has started a drag of it as well: cancel it with the selection,
      // or chessgroundx goes on dragging a piece that has left its square (and throws).
      this.cg.cancelMove();
      this.cg.move(pull.from, pull.to);
      this.pullShapes = [];
      this._shapes();
      this._emit(pull.from + pull.to);
      return;
    }
    // Clicking the selected piece again: change its shape, if it can.
    if (previous === key && view.transforms && view.transforms[key]) {
      this.lastClicked = null; // a third click starts over
      this.askTransform(key);
      return;
    }
    // Selecting a magnet: show what it can pull.
    const pulls = (view.pulls || []).filter((p) => p.magnet === key);
    this.pullShapes = pulls.flatMap((p) => [
      { orig: p.from, brush: 'blue' },
      { orig: p.from, dest: p.to, brush: 'paleBlue' },
    ]);
    this._shapes();
    const parts = held.text ? [held.text] : [];
    if (pulls.length) parts.push(`Magnet: click a circled piece to pull it (${pulls.length} possible).`);
    if (view.transforms && view.transforms[key]) {
      parts.push(`Click the piece again to change it into a ${this._name(view.transforms[key])}.`);
    }
    this._hint(parts.length ? { text: parts.join(' '), transform: view.transforms && view.transforms[key] ? key : null } : null);
  }

  askTransform(key) {
    const view = this.view;
    const letter = view.transforms[key];
    const piece = this.cg.state.boardState.pieces.get(key);
    const color = piece ? piece.color : view.turn;
    this.choose(
      [{ letter, color, label: `change into ${this._name(letter)}` }],
      key,
      () => this._emit(key + key),
      () => this.cg.selectSquare(null),
    );
  }

  _name(letter) {
    const p = this.variant.pieces.find((q) => q.letter === letter);
    return p ? p.name : letter;
  }

  _hint(info) {
    if (!this.hintEl) return;
    if (!info) {
      this.hintEl.hidden = true;
      this.hintEl.textContent = '';
      return;
    }
    this.hintEl.hidden = false;
    this.hintEl.textContent = info.text + ' ';
    if (info.transform) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'small';
      b.textContent = 'Change shape';
      b.addEventListener('click', () => this.askTransform(info.transform));
      this.hintEl.appendChild(b);
    }
  }

  // A row of piece pictures over the board near `square`; `pick(letter)` or `cancel()`.
  choose(options, square, pick, cancel) {
    const el = this.chooserEl;
    if (!el) {
      pick(options[0].letter);
      return;
    }
    el.innerHTML = '';
    el.className = 'chooser v-' + this.variant.slug;
    const box = document.createElement('div');
    box.className = 'chooser-box';
    for (const opt of options) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'choice';
      b.dataset.letter = opt.letter;
      b.title = opt.label;
      b.setAttribute('aria-label', opt.label);
      const icon = document.createElement('span');
      if (opt.letter) icon.className = `piece-icon ${roleOf(opt.letter)} ${opt.color}`;
      else icon.textContent = '✕';
      b.appendChild(icon);
      const label = document.createElement('span');
      label.className = 'choice-label';
      label.textContent = opt.label;
      b.appendChild(label);
      b.addEventListener('click', (e) => {
        e.stopPropagation();
        this.closeChooser();
        pick(opt.letter);
      });
      box.appendChild(b);
    }
    el.appendChild(box);
    el.hidden = false;
    // Place the box over the square; a click anywhere else cancels.
    const rect = this.element.getBoundingClientRect();
    const [fx, ry] = this._squareXY(square);
    const size = rect.width / this.variant.cols;
    box.style.left = `${Math.min(window.innerWidth - 260, Math.max(8, rect.left + window.scrollX + fx * size - size / 2))}px`;
    box.style.top = `${rect.top + window.scrollY + ry * size + size}px`;
    this._cancelChooser = () => {
      this.closeChooser();
      cancel();
    };
    // Cancel on a new press outside the box: the click that ends the gesture which opened the chooser
    // lands on the overlay and must not close it at once.
    el.onpointerdown = (e) => {
      if (e.target === el) this._cancelChooser();
    };
  }

  closeChooser() {
    if (this.chooserEl) {
      this.chooserEl.hidden = true;
      this.chooserEl.innerHTML = '';
    }
  }

  _squareXY(key) {
    const file = this.variant.files.indexOf(key[0]);
    const rank = parseInt(key.slice(1), 10) - 1;
    const white = this.cg.state.orientation === 'white';
    return [white ? file : this.variant.cols - 1 - file, white ? this.variant.rows - 1 - rank : rank];
  }

  // Shade the ranks where a royal piece wins by campmate (Orda: rank 8 for White, rank 1 for Black).
  // Called by chessgroundx (`insert`) with the new container, before the constructor has `this.cg`:
  // the orientation is read from the wrap's class, which chessgroundx sets on each rebuild.
  _markCampmate(container) {
    const camp = this.variant.campmate;
    if (!camp || !container) return;
    container.querySelectorAll('.campmate-rank').forEach((n) => n.remove());
    const white = !this.element.classList.contains('orientation-black');
    for (const color of ['white', 'black']) {
      for (const rank of camp[color]) {
        const band = document.createElement('div');
        band.className = `campmate-rank for-${color}`;
        const row = white ? this.variant.rows - 1 - rank : rank;
        band.style.top = `${(100 * row) / this.variant.rows}%`;
        band.style.height = `${100 / this.variant.rows}%`;
        band.title = `${color === 'white' ? 'White' : 'Black'}'s king wins by reaching this rank (campmate)`;
        container.appendChild(band);
      }
    }
  }
}

// Shared helpers for the pages.

// The shape of a suggested move: an arrow, or a circle for a change of shape in place.
export function moveShape(uci, brush = 'green') {
  const m = uci && uci.match(/^([a-z]\d+)([a-z]\d+)/);
  if (!m) return [];
  return m[1] === m[2] ? [{ orig: m[1], brush }] : [{ orig: m[1], dest: m[2], brush }];
}

export function scoreText(ev) {
  if (!ev) return '…';
  if (ev.over) return ev.over;
  if (ev.mate !== null && ev.mate !== undefined) return `#${ev.mate}`;
  if (ev.cp === null || ev.cp === undefined) return '…';
  const v = ev.cp / 100;
  return (v > 0 ? '+' : '') + v.toFixed(2);
}

export function flash(el, text, kind = 'error') {
  if (!el) return;
  el.textContent = text;
  el.className = `flash ${kind}`;
  el.hidden = false;
  clearTimeout(el._timer);
  el._timer = setTimeout(() => {
    el.hidden = true;
  }, 6000);
}

// The move list: "1. e4 e5 2. Nf3 …" with each move clickable; `current` is highlighted.
export function renderMoves(list, moves, current, startFen, onClick) {
  list.innerHTML = '';
  const parts = startFen.split(' ');
  let number = parseInt(parts[5] || '1', 10) || 1;
  let black = parts[1] === 'b';
  let li = null;
  moves.forEach((m, i) => {
    if (!li || !black) {
      li = document.createElement('li');
      li.value = number;
      list.appendChild(li);
      if (black) {
        const dots = document.createElement('span');
        dots.className = 'move empty';
        dots.textContent = '…';
        li.appendChild(dots);
      }
    }
    const span = document.createElement('button');
    span.type = 'button';
    span.className = 'move' + (i + 1 === current ? ' current' : '');
    span.textContent = m.san;
    span.dataset.ply = i + 1;
    span.addEventListener('click', () => onClick(i + 1));
    li.appendChild(span);
    if (black) number += 1;
    black = !black;
  });
  const cur = list.querySelector('.current');
  if (cur) cur.scrollIntoView({ block: 'nearest' });
}

export async function postJSON(url, body) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({ error: 'bad_response', message: `HTTP ${res.status}` }));
  if (!res.ok) {
    const retryAfter = Number(res.headers.get('Retry-After')) || 0; // seconds, on 429 and 503
    throw Object.assign(new Error(data.message || `HTTP ${res.status}`), { data, status: res.status, retryAfter });
  }
  return data;
}
