// The game page: a live game over its websocket.
//
// The server sends the whole game on connect ("game") and then each stored move ("move") or change
// of status ("status"), numbered by ply; a gap in the numbering makes the page ask for the whole game
// again ("sync"). A lost connection is retried with a growing pause, and the reconnect brings the
// whole game, so nothing is missed.

import { VariantBoard, flash, givesCheck, moveShape, renderMoves } from './board.js';
import { drawGraph } from './evalgraph.js';
import { Clocks, muted, setMuted } from './clock.js';
import { confirmRepetition, sideChangeNotice } from './marks.js';
import { Offers } from './offers.js';
import { play, playMove } from './sounds.js';

const $ = (id) => document.getElementById(id);
let game = JSON.parse($('game-state').textContent);
let viewing = game.ply; // the ply shown on the board; game.ply is the latest
let socket = null;
let synced = false; // the socket is open and has sent the whole game: a move made now reaches the server
let pending = false; // a move of ours is on its way
let ref = 0;
let retry = 500;
let evaluations = null;

const board = new VariantBoard($('board'), game.variant, {
  orientation: game.seat || 'white',
  onMove: sendMove,
  chooser: $('chooser'),
  hint: $('hint'),
  premoves: true,
  confirmMove: confirmRepetition,
  notify: (text) => flash($('flash'), text, 'info'),
});
const clocks = new Clocks({ top: $('clock-top'), bottom: $('clock-bottom') }, game.seat);
const offers = new Offers($, () => game, send); // takeback, rematch, abort
let presence = game.presence || null; // each seat's connection (clock games), for abandonment claims
let serverOffset = 0; // server time - this browser's time, from the latest event

function canMove() {
  return game.status === 'playing' && !!game.seat && game.seat === game.turn && !pending && viewing === game.ply;
}

// An earlier position: its FEN, and check read from its move's SAN ("+" or "#", which the server
// writes exactly when the side to move is in check); the board then marks that side's royal pieces,
// as the server's `check` does for the latest position.
function positionAt(ply) {
  if (ply === game.ply) return game;
  const fen = ply === 0 ? game.start_fen : game.moves[ply - 1].fen;
  const check = ply > 0 && givesCheck(game.moves[ply - 1].san);
  return { fen, turn: fen.split(' ')[1] === 'b' ? 'black' : 'white', dests: {}, check };
}

function lastMoveAt(ply) {
  if (ply === 0) return [];
  const uci = game.moves[ply - 1].uci;
  const m = uci.match(/^([a-z]\d+)([a-z]\d+)/);
  return m ? (m[1] === m[2] ? [m[1]] : [m[1], m[2]]) : [];
}

function show(ply) {
  viewing = Math.max(0, Math.min(game.ply, ply));
  const premovable = game.status === 'playing' && viewing === game.ply ? game.seat : null; // premove.js
  board.set(positionAt(viewing), { movable: canMove(), lastMove: lastMoveAt(viewing), premovable });
  renderMoves($('moves'), game.moves, viewing, game.start_fen, show);
  $('fen').value = positionAt(viewing).fen;
  if (evaluations) {
    drawGraph($('eval-graph'), evaluations, viewing, show);
    // a finished game: the engine's best move in the position shown
    const ev = evaluations.find((e) => e.ply === viewing);
    board.setShapes(ev && game.status === 'over' ? moveShape(ev.best) : []);
  }
}

function playerLabel(color) {
  const p = game.players[color];
  let name = p.kind === 'engine' ? `Engine · level ${p.level}` : 'Human';
  if (p.kind === 'human') name = game.seat === color ? 'You' : game.seat ? 'Your friend' : 'Player';
  if (p.user) {
    // An account: its name (usernames are letters, digits, _ and -) and its rating, "?" if provisional.
    let rating = p.user.rating_text ? ` <span class="rating">${p.user.rating_text}</span>` : '';
    if (p.user.diff_text) {
      const way = p.user.rating_diff > 0 ? 'up' : p.user.rating_diff < 0 ? 'down' : 'even';
      rating += ` <span class="diff ${way}">${p.user.diff_text}</span>`;
    }
    name = `<a class="name" href="/@/${encodeURIComponent(p.user.name)}">${p.user.name}</a>${rating}`;
    if (game.seat === color) name += ' (you)';
  }
  if (game.rated && color === 'white') name += ' <span class="tag">rated</span>';
  const dot = `<span class="side-dot ${color}"></span>`;
  const turn = game.status === 'playing' && game.turn === color ? ' <span class="to-move">to move</span>' : '';
  return `${dot}<strong>${color === 'white' ? 'White' : 'Black'}</strong> · ${name}${turn}`;
}

function render() {
  const bottom = board.cg.state.orientation;
  const top = bottom === 'white' ? 'black' : 'white';
  $('player-top').innerHTML = playerLabel(top);
  $('player-bottom').innerHTML = playerLabel(bottom);
  const status = $('status');
  const ended = game.status === 'over' || game.status === 'aborted';
  status.classList.toggle('over', ended);
  clocks.seat = game.seat;
  clocks.setOrientation(bottom);
  clocks.update(game.clock, game.status === 'playing');
  if (game.clock && game.clock.server_time) serverOffset = game.clock.server_time - Date.now();
  $('time-control').textContent = game.clock ? game.clock.control.label : '';
  if (game.status === 'aborted') {
    status.textContent = game.reason;
  } else if (game.status === 'waiting') {
    status.textContent = game.seat ? 'Waiting for your opponent to join…' : 'Waiting for an opponent to join.';
  } else if (game.status === 'over') {
    status.innerHTML = `<span class="result">${game.result}</span> ${game.reason}`;
  } else if (game.engine_to_move) {
    status.textContent = 'The engine is thinking…';
  } else if (game.seat === game.turn) {
    status.textContent = game.check.length ? 'Your move — you are in check.' : 'Your move.';
  } else {
    const side = game.turn === 'white' ? 'White' : 'Black';
    status.textContent = `${side} to move${game.check.length ? ' (in check)' : ''}.` + (game.seat ? ' Waiting for your opponent…' : '');
  }
  // Draw offers and controls: players only, while the game goes on.
  const playing = game.status === 'playing' && !!game.seat;
  const engineGame = game.players.white.kind === 'engine' || game.players.black.kind === 'engine';
  $('controls').hidden = !playing;
  $('offer-draw').hidden = engineGame;
  const offer = $('draw-offer');
  const theirs = playing && game.draw_offer && game.draw_offer !== game.seat;
  offer.hidden = !theirs;
  $('draw-text').textContent = theirs ? 'Your opponent offers a draw.' : '';
  $('offer-draw').disabled = game.draw_offer === game.seat;
  $('offer-draw').textContent = game.draw_offer === game.seat ? 'Draw offered' : 'Offer draw';
  // The invitation is shown only while its seat is free.
  const invite = $('invite');
  if (invite) invite.hidden = game.status !== 'waiting';
  const join = $('join');
  if (join && !join.hidden && game.status !== 'waiting') {
    join.hidden = true;
    flash($('flash'), 'The seat of this invitation has been taken: you are watching the game.');
  }
  if (game.status === 'over' && !evaluations) loadEvaluations();
  renderClaim();
  offers.render();
}

// The opponent has left a running clock game: after a while the player may claim the game.
function renderClaim() {
  const card = $('claim');
  const other = game.seat === 'white' ? 'black' : 'white';
  const away = presence && presence[other] && !presence[other].online ? presence[other] : null;
  const claimable = game.status === 'playing' && !!game.seat && game.clock && !game.clock.control.days
    && game.ply >= 2 && game.players[other].kind === 'human' && away;
  card.hidden = !claimable;
  if (!claimable) return;
  const wait = Math.ceil((away.claim_at - (Date.now() + serverOffset)) / 1000);
  $('claim-text').textContent = wait > 0
    ? `Your opponent left the game. You can claim victory in ${wait} s.`
    : 'Your opponent left the game. You can claim victory, call it a draw, or wait.';
  $('claim-win').disabled = wait > 0;
  $('claim-draw').disabled = wait > 0;
}
setInterval(() => { if (!$('claim').hidden || presence) renderClaim(); }, 1000);

async function loadEvaluations() {
  evaluations = [];
  $('eval-card').hidden = false;
  $('eval-graph').textContent = 'The engine is evaluating the game…';
  try {
    const res = await fetch(`/api/games/${game.id}/evaluations`);
    const data = await res.json();
    if (!res.ok) throw new Error(data.message);
    evaluations = data.evaluations;
    show(viewing);
  } catch (e) {
    $('eval-graph').textContent = `No evaluation: ${e.message}`;
  }
}

// ----- the websocket ----------------------------------------------------------------------------
function connect() {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  socket = new WebSocket(`${scheme}://${location.host}/ws/game/${game.id}`);
  socket.addEventListener('open', () => {
    retry = 500;
    document.body.classList.remove('offline');
  });
  socket.addEventListener('message', (e) => receive(JSON.parse(e.data)));
  socket.addEventListener('close', () => {
    synced = false;
    document.body.classList.add('offline');
    pending = false;
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 10000);
  });
}

function send(msg) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    flash($('flash'), 'Not connected to the server; reconnecting…');
    return false;
  }
  socket.send(JSON.stringify({ ...msg, ref: ++ref }));
  return true;
}

function sendMove(uci) {
  pending = true;
  board.cg.set({ movable: { dests: new Map() } });
  if (!send({ type: 'move', uci, ply: game.ply })) {
    pending = false;
    show(game.ply);
  }
}

function receive(msg) {
  const changed = offers.receive(msg);
  if (changed) {
    render();
    show(changed === 'rewound' ? game.ply : viewing);
  } else if (msg.type === 'game') {
    const seat = game.seat;
    // The whole game comes on every (re)connection, perhaps after the page has been read: an earlier
    // ply under review stays on the board, and a viewer of the latest ply follows the game.
    const reviewed = viewing < game.ply ? viewing : null;
    game = msg;
    synced = true;
    presence = msg.presence || presence;
    if (!seat && game.seat) board.setOrientation(game.seat);
    pending = false;
    render();
    show(reviewed === null ? game.ply : reviewed);
  } else if (msg.type === 'move') {
    if (msg.ply <= game.ply) return;
    if (msg.ply !== game.ply + 1) {
      send({ type: 'sync' });
      return;
    }
    const atEnd = viewing === game.ply;
    game.moves.push({ uci: msg.uci, san: msg.san, fen: msg.fen });
    const { type, uci, san, id, ...rest } = msg;
    Object.assign(game, rest);
    pending = false;
    render();
    show(atEnd ? game.ply : viewing);
    playMove(msg);
    if (sideChangeNotice(msg, game.variant)) flash($('flash'), sideChangeNotice(msg, game.variant), 'info');
  } else if (msg.type === 'presence') {
    presence = presence || {};
    presence[msg.seat] = { online: msg.online, claim_at: msg.claim_at };
    renderClaim();
  } else if (msg.type === 'status') {
    const wasPlaying = game.status === 'playing';
    const { type, id, ...rest } = msg;
    Object.assign(game, rest);
    if (wasPlaying && game.status !== 'playing') play('end');
    render();
    show(viewing === game.ply ? game.ply : viewing);
  } else if (msg.type === 'error') {
    pending = false;
    flash($('flash'), msg.message);
    show(game.ply);
  }
}

// ----- controls ----------------------------------------------------------------------------------
$('resign').addEventListener('click', () => {
  if (confirm('Resign this game?')) send({ type: 'resign' });
});
$('offer-draw').addEventListener('click', () => send({ type: 'draw', action: 'offer' }));
$('draw-accept').addEventListener('click', () => send({ type: 'draw', action: 'accept' }));
$('draw-decline').addEventListener('click', () => send({ type: 'draw', action: 'decline' }));
$('claim-win').addEventListener('click', () => send({ type: 'claim', outcome: 'win' }));
$('claim-draw').addEventListener('click', () => send({ type: 'claim', outcome: 'draw' }));
function renderMute() {
  $('mute').textContent = muted() ? 'Sound off' : 'Sound on';
  $('mute').setAttribute('aria-pressed', String(muted()));
}
$('mute').addEventListener('click', () => {
  setMuted(!muted());
  renderMute();
});
renderMute();
$('flip').addEventListener('click', () => {
  board.flip();
  render();
});
document.querySelectorAll('[data-copy]').forEach((button) =>
  button.addEventListener('click', async () => {
    const input = $(button.dataset.copy);
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
      button.textContent = 'Copied';
    } catch {
      document.execCommand('copy');
    }
  }),
);
const joinButton = $('join-game');
if (joinButton) {
  joinButton.addEventListener('click', async () => {
    joinButton.disabled = true;
    try {
      const res = await fetch(`/api/games/${game.id}/join`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ invite: $('join').dataset.invite }),
      });
      const data = await res.json();
      if (!res.ok) throw new Error(data.message);
      location.replace(`/game/${game.id}`); // the seat is in this browser's cookie now
    } catch (e) {
      $('join').hidden = true;
      flash($('flash'), e.message);
    }
  });
}
document.querySelectorAll('[data-nav]').forEach((b) =>
  b.addEventListener('click', () => {
    const to = { first: 0, prev: viewing - 1, next: viewing + 1, last: game.ply }[b.dataset.nav];
    show(to);
  }),
);
document.addEventListener('keydown', (e) => {
  if (e.target.tagName === 'INPUT' || e.target.tagName === 'TEXTAREA') return;
  if (e.key === 'ArrowLeft') show(viewing - 1);
  if (e.key === 'ArrowRight') show(viewing + 1);
});

render();
show(game.ply);
connect();
window.hordesGame = { get state() { return game; }, get synced() { return synced; }, board, clocks }; // for tests and the curious
