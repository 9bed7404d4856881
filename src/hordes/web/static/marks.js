// Marks on the board for rules a player cannot see (web/marks.py sends the facts with each position):
//   - a piece held by an enemy magnet wears a marker (.mark.magnet-held); selecting it draws its
//     closed directions as red arrows and crosses the squares it loses;
//   - squares where a royal step wins at once by campmate are ringed (.mark.campmate-win);
//   - the piece that just changed sides by capturing (Andernach) is marked (.mark.changed-sides),
//     and the page shows a short notice when that move arrives (`sideChangeNotice`);
//   - a move that would lose by repetition asks for confirmation (`confirmRepetition`).
// The marks sit in a layer over the board (pointer events pass through), redrawn with each position
// and whenever chessgroundx rebuilds its DOM (a flip).

export class BoardMarks {
  constructor(board) {
    this.board = board;
    this.layer = null;
    this.view = null;
    this.selected = null;
  }

  // chessgroundx's `insert`: a new container (before the board's `cg` exists on the first call).
  attach(container) {
    if (!container) return;
    this.layer = document.createElement('div');
    this.layer.className = 'board-marks';
    container.appendChild(this.layer);
    this.render(this.view);
  }

  render(view) {
    this.view = view;
    this.selected = null;
    this._draw();
  }

  _heldAt(key) {
    return ((this.view && this.view.held) || []).find((h) => h.square === key) || null;
  }

  // A click on a square: for a held piece, its closed directions (arrows) and a sentence; else nothing.
  select(key) {
    const held = this._heldAt(key);
    this.selected = held ? key : null;
    this._draw();
    const wins = (this.view && this.view.campmate_wins && this.view.campmate_wins[key]) || [];
    if (wins.length) return { shapes: [], text: `A step to ${wins.join(' or ')} wins at once (campmate).` };
    if (!held) return { shapes: [], text: '' };
    const shapes = held.closed.map((c) => ({
      orig: key,
      dest: c.squares.length ? c.squares[c.squares.length - 1] : c.toward,
      brush: 'red',
    }));
    const ways = held.closed.map((c) => `towards ${c.toward}` + (c.squares.length ? ` (it loses ${c.squares.join(', ')})` : ''));
    const by = held.by.join(' and ');
    const text = `Held by the enemy magnet${held.by.length > 1 ? 's' : ''} on ${by}: the way ${ways.join(' and the way ')} ${held.closed.length > 1 ? 'are' : 'is'} closed.`;
    return { shapes, text };
  }

  _draw() {
    if (!this.layer) return;
    this.layer.innerHTML = '';
    const view = this.view;
    if (!view) return;
    for (const h of view.held || []) {
      this._mark(h.square, 'magnet-held', `Held by the enemy magnet on ${h.by.join(' and ')}: some directions are closed (select it to see them)`);
    }
    const wins = new Set(Object.values(view.campmate_wins || {}).flat());
    for (const key of wins) this._mark(key, 'campmate-win', 'A royal step here wins at once (campmate)');
    const facts = view.last_move_facts;
    if (facts && facts.changed_sides) {
      const c = facts.changed_sides;
      this._mark(c.square, 'changed-sides', `This piece captured and changed sides: it is now ${c.color === 'white' ? 'White' : 'Black'}'s`);
    }
    const held = this.selected && this._heldAt(this.selected);
    if (held) for (const c of held.closed) for (const key of c.squares) this._mark(key, 'closed-square', 'Closed by the magnet');
  }

  _mark(key, kind, title) {
    const variant = this.board.variant;
    const file = variant.files.indexOf(key[0]);
    const rank = parseInt(key.slice(1), 10) - 1;
    const white = !this.board.element.classList.contains('orientation-black');
    const col = white ? file : variant.cols - 1 - file;
    const row = white ? variant.rows - 1 - rank : rank;
    const el = document.createElement('div');
    el.className = `mark ${kind}`;
    el.dataset.square = key;
    el.title = title;
    el.style.left = `${(100 * col) / variant.cols}%`;
    el.style.top = `${(100 * row) / variant.rows}%`;
    el.style.width = `${100 / variant.cols}%`;
    el.style.height = `${100 / variant.rows}%`;
    this.layer.appendChild(el);
  }
}

// The notice for a move event whose capturer changed sides, or '' (`msg`: the server's move event).
export function sideChangeNotice(msg, variant) {
  const c = msg.last_move_facts && msg.last_move_facts.changed_sides;
  if (!c) return '';
  const piece = variant.pieces.find((p) => p.letter === c.piece);
  const side = c.color === 'white' ? 'White' : 'Black';
  return `The ${piece ? piece.name : c.piece} that captured on ${c.square} changed sides: it is now ${side}'s.`;
}

// Ask before a move that loses at once by repetition; true to play it.
export function confirmRepetition(uci) {
  return window.confirm(
    `The move ${uci} repeats a position for the third time: in this game that loses at once. Play it anyway?`,
  );
}
