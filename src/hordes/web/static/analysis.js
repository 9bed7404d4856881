// The analysis board: any variant, any position; play a line, let the engine judge it.
//
// The line is kept here as the server described it (start FEN, moves with SAN and FEN); the legal
// moves of each position come from /api/position, the engine's view from /api/analysis (one search
// at a time; an answer for a position no longer shown is dropped).

import { VariantBoard, flash, moveShape, postJSON, renderMoves, scoreText } from './board.js';
import { drawGraph } from './evalgraph.js';

const $ = (id) => document.getElementById(id);
const start = JSON.parse($('analysis-start').textContent);
let info = JSON.parse($('variant-info').textContent);
let line = { start_fen: start.fen || info.start_fen, moves: [] };
let cursor = 0;
let views = new Map(); // ply -> position view
let board = null;
let evaluations = null;
let engineTicket = 0;
let engineTimer = null;

function makeBoard() {
  const el = $('board');
  if (board) {
    board.cg.destroy();
    el.className = 'board';
    el.innerHTML = '';
  }
  board = new VariantBoard(el, info, { onMove: play, chooser: $('chooser'), hint: $('hint') });
}

async function position(moves) {
  return postJSON('/api/position', { variant: info.slug, fen: line.start_fen, moves });
}

// Load a whole line (from the page's start, a FEN, or a PGN).
async function load(variant, fen, moves) {
  const data = await postJSON('/api/position', { variant, fen: fen || undefined, moves });
  if (data.variant.slug !== info.slug || !board) {
    info = data.variant;
    makeBoard();
  }
  line = { start_fen: data.start_fen, moves: data.moves };
  views = new Map([[moves.length, data]]);
  evaluations = null;
  drawGraph($('eval-graph'), [], null, go);
  $('variant').value = info.slug;
  await go(moves.length);
}

async function go(ply) {
  ply = Math.max(0, Math.min(line.moves.length, ply));
  if (!views.has(ply)) {
    try {
      views.set(ply, await position(line.moves.slice(0, ply).map((m) => m.uci)));
    } catch (e) {
      flash($('flash'), e.message);
      return;
    }
  }
  cursor = ply;
  const view = views.get(ply);
  const last = ply ? line.moves[ply - 1].uci.match(/^([a-z]\d+)([a-z]\d+)/) : null;
  board.set(view, { movable: true, lastMove: last ? (last[1] === last[2] ? [last[1]] : [last[1], last[2]]) : [] });
  board.setShapes([]);
  renderMoves($('moves'), line.moves, cursor, line.start_fen, go);
  $('fen').value = view.fen;
  const side = view.turn === 'white' ? 'White' : 'Black';
  $('status').textContent = view.result !== '*' ? `${view.result} — ${view.reason}` : `${side} to move${view.check.length ? ' (check)' : ''}.`;
  if (evaluations) drawGraph($('eval-graph'), evaluations, cursor, go);
  askEngine(view);
}

async function play(uci) {
  const moves = [...line.moves.slice(0, cursor).map((m) => m.uci), uci];
  try {
    const data = await position(moves);
    const kept = line.moves.slice(0, cursor);
    const same = line.moves[cursor] && line.moves[cursor].uci === data.moves[cursor].uci;
    line.moves = same ? line.moves : [...kept, data.moves[cursor]];
    if (!same) {
      for (const k of [...views.keys()]) if (k > cursor) views.delete(k);
      evaluations = null;
      drawGraph($('eval-graph'), [], null, go);
    }
    views.set(cursor + 1, data);
    await go(cursor + 1);
  } catch (e) {
    flash($('flash'), e.message);
    await go(cursor);
  }
}

// ----- the engine -------------------------------------------------------------------------------
function askEngine(view) {
  const ticket = ++engineTicket;
  clearTimeout(engineTimer);
  $('engine-pv').textContent = '';
  $('engine-depth').textContent = '';
  if (!$('engine-on').checked) {
    $('engine-score').textContent = 'off';
    return;
  }
  if (view.result !== '*') {
    $('engine-score').textContent = view.result;
    return;
  }
  $('engine-score').textContent = '…';
  engineTimer = setTimeout(async () => {
    try {
      const ev = await postJSON('/api/analysis', { variant: info.slug, fen: view.fen, movetime: 1.0 });
      if (ticket !== engineTicket) return;
      $('engine-score').textContent = scoreText(ev);
      $('engine-depth').textContent = `depth ${ev.depth}`;
      $('engine-pv').textContent = ev.pv_san;
      board.setShapes(moveShape(ev.best));
    } catch (e) {
      if (ticket !== engineTicket) return;
      const busy = [429, 503].includes(e.status);
      $('engine-score').textContent = busy ? 'busy' : '?';
      // The server said when to come back (its engine queue or a rate limit): ask again then, unless
      // another position is shown by then (askEngine clears this timer).
      if (busy && e.retryAfter) engineTimer = setTimeout(() => askEngine(view), e.retryAfter * 1000);
    }
  }, 150);
}

$('engine-on').addEventListener('change', () => {
  board.setShapes([]);
  askEngine(views.get(cursor));
});

$('graph-run').addEventListener('click', async () => {
  $('eval-graph').textContent = 'Evaluating every position…';
  try {
    const data = await postJSON('/api/analysis/line', {
      variant: info.slug,
      fen: line.start_fen,
      moves: line.moves.map((m) => m.uci),
    });
    evaluations = data.evaluations;
    drawGraph($('eval-graph'), evaluations, cursor, go);
  } catch (e) {
    $('eval-graph').textContent = e.message;
  }
});

// ----- import and export ------------------------------------------------------------------------
$('variant').addEventListener('change', () => load($('variant').value, null, []).catch((e) => flash($('flash'), e.message)));
$('fen-load').addEventListener('click', () =>
  load(info.slug, $('fen').value.trim(), []).catch((e) => flash($('flash'), e.message)),
);
$('pgn-import').addEventListener('click', async () => {
  try {
    const g = await postJSON('/api/pgn/import', { pgn: $('pgn').value });
    await load(g.variant, g.start_fen, g.moves.map((m) => m.uci));
  } catch (e) {
    flash($('flash'), e.message);
  }
});
$('pgn-export').addEventListener('click', async () => {
  try {
    const data = await postJSON('/api/pgn/export', {
      variant: info.slug,
      fen: line.start_fen,
      moves: line.moves.map((m) => m.uci),
    });
    $('pgn').value = data.pgn;
    $('pgn').select();
  } catch (e) {
    flash($('flash'), e.message);
  }
});
document.querySelectorAll('[data-nav]').forEach((b) =>
  b.addEventListener('click', () => go({ first: 0, prev: cursor - 1, next: cursor + 1, last: line.moves.length }[b.dataset.nav])),
);
$('flip').addEventListener('click', () => board.flip());
document.addEventListener('keydown', (e) => {
  if (e.target.tagName === 'INPUT' || e.target.tagName === 'TEXTAREA' || e.target.tagName === 'SELECT') return;
  if (e.key === 'ArrowLeft') go(cursor - 1);
  if (e.key === 'ArrowRight') go(cursor + 1);
});

makeBoard();
load(info.slug, start.fen, start.moves).catch((e) => flash($('flash'), e.message));
window.hordesAnalysis = { get board() { return board; }, get line() { return line; } };
