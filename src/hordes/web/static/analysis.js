// The analysis board: any variant, any position; play lines and variations, let the engine judge them.
//
// The moves live in a tree (movetree.js): playing another move from an earlier position starts a
// variation, and the old line stays. The legal moves of each position come from /api/position (one
// view per node, kept), the engine's best lines from /api/analysis (MultiPV; one search at a time, an
// answer for a position no longer shown is dropped), the graph's evaluations with the judged moves
// from /api/analysis/line or, for a finished game, /api/games/{id}/evaluations.

import { VariantBoard, flash, moveShape, postJSON, scoreText } from './board.js';
import { drawGraph } from './evalgraph.js';
import { renderTree } from './movelist.js';
import { MoveTree } from './movetree.js';

const $ = (id) => document.getElementById(id);
const start = JSON.parse($('analysis-start').textContent);
let info = JSON.parse($('variant-info').textContent);
let tree = new MoveTree(start.fen || info.start_fen);
let cursor = tree.root.id;
let headers = {}; // the imported game's tags, written back on export
let views = new Map(); // node id -> position view
let board = null;
let engineTicket = 0;
let engineTimer = null;
const DERIVED_TAGS = ['Variant', 'FEN', 'SetUp']; // the server writes these from the tree itself

function makeBoard() {
  const el = $('board');
  if (board) {
    board.cg.destroy();
    el.className = 'board';
    el.innerHTML = '';
  }
  board = new VariantBoard(el, info, { onMove: play, chooser: $('chooser'), hint: $('hint') });
}

async function position(ucis) {
  return postJSON('/api/position', { variant: info.slug, fen: tree.startFen, moves: ucis });
}

// A fresh tree for a variant and start position: its main line from `moves` (UCI strings, or the
// server's tree format when `apiTree` is given).
async function load(variant, fen, moves, apiTree = null) {
  const data = await postJSON('/api/position', { variant, fen: fen || undefined, moves: apiTree ? [] : moves });
  if (data.variant.slug !== info.slug || !board) {
    info = data.variant;
    makeBoard();
  }
  if (apiTree) {
    tree = MoveTree.fromApi(data.start_fen, apiTree.comment, apiTree.moves);
  } else {
    tree = new MoveTree(data.start_fen);
    tree.addLine(tree.root.id, data.moves);
  }
  views = new Map();
  const end = tree.mainline().at(-1);
  if (!apiTree) views.set(end.id, data);
  else views.set(tree.root.id, data);
  $('variant').value = info.slug;
  await go(apiTree ? tree.root.id : end.id);
}

async function go(id) {
  const node = tree.get(id);
  if (!node) return;
  if (!views.has(id)) {
    try {
      views.set(id, await position(tree.ucis(id)));
    } catch (e) {
      flash($('flash'), e.message);
      return;
    }
  }
  cursor = id;
  const view = views.get(id);
  const last = node.uci ? node.uci.match(/^([a-z]\d+)([a-z]\d+)/) : null;
  board.set(view, { movable: true, lastMove: last ? (last[1] === last[2] ? [last[1]] : [last[1], last[2]]) : [] });
  board.setShapes([]);
  showTree();
  $('fen').value = view.fen;
  const side = view.turn === 'white' ? 'White' : 'Black';
  $('status').textContent = view.result !== '*' ? `${view.result} — ${view.reason}` : `${side} to move${view.check.length ? ' (check)' : ''}.`;
  showGraph();
  showBar(node);
  askEngine(node, view);
}

function showTree() {
  renderTree($('moves'), tree, cursor, go);
  const inVariation = tree.branchPoint(cursor) !== null;
  $('tree-promote').disabled = !inVariation;
  $('tree-main').disabled = !inVariation;
  $('tree-delete').disabled = cursor === tree.root.id;
}

async function play(uci) {
  const known = tree.child(tree.get(cursor), uci);
  if (known) return go(known.id);
  try {
    const data = await position([...tree.ucis(cursor), uci]);
    const node = tree.add(cursor, data.moves.at(-1));
    views.set(node.id, data);
    await go(node.id);
  } catch (e) {
    flash($('flash'), e.message);
    await go(cursor);
  }
}

// Play an engine line (its first `count` moves) into the tree from the node it was computed for.
async function playLine(fromId, pv, count) {
  try {
    const before = tree.ucis(fromId);
    const data = await position([...before, ...pv.slice(0, count)]);
    const node = tree.addLine(fromId, data.moves.slice(before.length));
    views.set(node.id, data);
    await go(node.id);
  } catch (e) {
    flash($('flash'), e.message);
  }
}

// ----- the evaluation bar ----------------------------------------------------------------------------
// White's share of the bar: lichess's win-probability curve, as judgement.py uses it.
const WIN_SLOPE = 0.00368208;
const CP_CEILING = 1000;

function whiteShare(ev) {
  if (!ev) return null;
  if (ev.over) return ev.over === '1-0' ? 1 : ev.over === '0-1' ? 0 : 0.5;
  if (ev.mate !== null && ev.mate !== undefined) return ev.mate > 0 ? 1 : ev.mate < 0 ? 0 : 0.5;
  if (ev.cp === null || ev.cp === undefined) return null;
  const cp = Math.max(-CP_CEILING, Math.min(CP_CEILING, ev.cp));
  return 1 / (1 + Math.exp(-WIN_SLOPE * cp));
}

// The bar's label, written at the end of the side that is ahead: "M3" for a forced mate, else pawns.
function barText(ev) {
  if (ev.over) return ev.over === '1/2-1/2' ? '½' : '#';
  if (ev.mate !== null && ev.mate !== undefined) return `M${Math.abs(ev.mate)}`;
  const v = Math.abs(ev.cp) / 100;
  return v >= 9.95 ? v.toFixed(0) : v.toFixed(1);
}

function barTitle(ev) {
  if (ev.over) return `game over: ${ev.over}`;
  if (ev.mate !== null && ev.mate !== undefined) return `${ev.mate > 0 ? 'White' : 'Black'} mates in ${Math.abs(ev.mate)}`;
  return `${scoreText(ev)} (pawns, White's point of view)`;
}

function showBar(node) {
  const ev = node.engine || node.evaluation;
  const share = whiteShare(ev);
  const bar = $('eval-bar');
  bar.classList.toggle('flipped', board.cg.state.orientation === 'black');
  bar.classList.toggle('unknown', share === null);
  const pct = share === null ? 50 : Math.round(share * 1000) / 10;
  $('eval-fill').style.height = `${pct}%`;
  bar.setAttribute('aria-valuenow', String(pct));
  const text = share === null ? '' : barText(ev);
  $('eval-text').textContent = text;
  $('eval-text').classList.toggle('black-side', share !== null && share < 0.5 && text !== '0.0');
  bar.title = share === null ? 'no evaluation yet' : `${barTitle(ev)}; White's share ${pct}%`;
}

// ----- the engine -------------------------------------------------------------------------------
function lineCount() {
  return Number($('engine-multipv').value) || 3;
}

function askEngine(node, view) {
  const ticket = ++engineTicket;
  clearTimeout(engineTimer);
  $('engine-depth').textContent = '';
  $('engine-lines').innerHTML = '';
  if (!$('engine-on').checked) {
    $('engine-score').textContent = 'off';
    return;
  }
  if (node.engine && node.engine.lines && node.engine.lines.length >= lineCount()) {
    // Already known: no new search. The bar too, since a retry after a busy answer lands here when
    // an older request for this node has filled node.engine meanwhile (go() drew the bar before).
    showEngine(node, node.engine);
    showBar(node);
    return;
  }
  if (view.result !== '*') {
    $('engine-score').textContent = view.result;
    return;
  }
  $('engine-score').textContent = '…';
  engineTimer = setTimeout(async () => {
    try {
      const ev = await postJSON('/api/analysis', {
        variant: info.slug,
        fen: view.fen,
        movetime: 1.0,
        multipv: lineCount(),
      });
      node.engine = ev;
      if (ticket !== engineTicket) return;
      showEngine(node, ev);
      showBar(node);
    } catch (e) {
      if (ticket !== engineTicket) return;
      const busy = [429, 503].includes(e.status);
      $('engine-score').textContent = busy ? 'busy' : '?';
      // The server said when to come back (its engine queue or a rate limit): ask again then, unless
      // another position is shown by then (askEngine clears this timer).
      if (busy && e.retryAfter) engineTimer = setTimeout(() => askEngine(node, view), e.retryAfter * 1000);
    }
  }, 150);
}

function showEngine(node, ev) {
  $('engine-score').textContent = scoreText(ev);
  $('engine-depth').textContent = ev.depth ? `depth ${ev.depth}` : '';
  const list = $('engine-lines');
  list.innerHTML = '';
  const lines = (ev.lines || []).slice(0, lineCount());
  lines.forEach((line) => {
    const li = document.createElement('li');
    li.className = 'pv-line';
    const score = document.createElement('button');
    score.type = 'button';
    score.className = 'pv-score';
    score.textContent = scoreText(line);
    score.title = 'play the first move of this line';
    score.addEventListener('click', () => playLine(node.id, line.pv, 1));
    li.appendChild(score);
    const moves = document.createElement('span');
    moves.className = 'pv-moves';
    (line.pv_sans || []).forEach((text, k) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'pv-move';
      b.textContent = text;
      b.title = 'play the line up to this move';
      b.addEventListener('click', () => playLine(node.id, line.pv, k + 1));
      moves.appendChild(b);
    });
    li.appendChild(moves);
    list.appendChild(li);
  });
  board.setShapes(lines.flatMap((line, i) => moveShape(line.best, i === 0 ? 'green' : 'paleGreen')));
}

$('engine-on').addEventListener('change', () => {
  board.setShapes([]);
  go(cursor);
});
$('engine-multipv').addEventListener('change', () => go(cursor));

// ----- the graph and the judged moves ------------------------------------------------------------
function showGraph() {
  const line = tree.mainline();
  const evals = [];
  for (const n of line) {
    if (!n.evaluation) break;
    evals.push(n.evaluation);
  }
  const onLine = line.findIndex((n) => n.id === cursor);
  const here = onLine >= 0 ? onLine : tree.path(cursor).findIndex((n) => !tree.isMainline(n.id));
  drawGraph($('eval-graph'), evals, here, (ply) => line[ply] && go(line[ply].id));
}

// Put evaluations ({ply, cp, mate, judgement}) on the main line's nodes, ply by ply.
function setEvaluations(evaluations) {
  const line = tree.mainline();
  for (const ev of evaluations) if (line[ev.ply]) line[ev.ply].evaluation = ev;
  showTree();
  showGraph();
  showBar(tree.get(cursor));
}

async function evaluateGame(gameId) {
  try {
    const res = await fetch(`/api/games/${gameId}/evaluations`);
    if (!res.ok) return;
    setEvaluations((await res.json()).evaluations);
  } catch (e) {
    // the graph stays empty; the button can still evaluate the line
  }
}

$('graph-run').addEventListener('click', async () => {
  $('eval-graph').textContent = 'Evaluating every position…';
  try {
    const data = await postJSON('/api/analysis/line', {
      variant: info.slug,
      fen: tree.startFen,
      moves: tree.mainline().slice(1).map((n) => n.uci),
    });
    setEvaluations(data.evaluations);
  } catch (e) {
    $('eval-graph').textContent = e.message;
  }
});

// ----- changing the tree ---------------------------------------------------------------------------
$('tree-promote').addEventListener('click', () => tree.promote(cursor) && go(cursor));
$('tree-main').addEventListener('click', () => tree.promote(cursor, true) && go(cursor));
$('tree-delete').addEventListener('click', () => {
  const parent = tree.remove(cursor);
  for (const id of [...views.keys()]) if (!tree.get(id)) views.delete(id);
  go(parent);
});

// ----- import and export ------------------------------------------------------------------------
const failed = (e) => flash($('flash'), e.message);
$('variant').addEventListener('change', () => {
  headers = {};
  load($('variant').value, null, []).catch(failed);
});
$('fen-load').addEventListener('click', () => {
  headers = {};
  load(info.slug, $('fen').value.trim(), []).catch(failed);
});
$('pgn-import').addEventListener('click', async () => {
  try {
    const g = await postJSON('/api/pgn/import', { pgn: $('pgn').value });
    headers = Object.fromEntries(Object.entries(g.headers).filter(([k]) => !DERIVED_TAGS.includes(k)));
    await load(g.variant, g.start_fen, [], g);
  } catch (e) {
    failed(e);
  }
});
$('pgn-export').addEventListener('click', async () => {
  try {
    const data = await postJSON('/api/pgn/export', { variant: info.slug, fen: tree.startFen, headers, ...tree.toApi() });
    $('pgn').value = data.pgn;
    $('pgn').select();
  } catch (e) {
    failed(e);
  }
});

// ----- moving through the tree ----------------------------------------------------------------------
function step(where) {
  const node = tree.get(cursor);
  const target = {
    first: tree.root,
    prev: tree.parentOf(node),
    next: node.children.length ? tree.get(node.children[0]) : null,
    last: tree.continuation(cursor).at(-1),
  }[where];
  if (target) go(target.id);
}
document.querySelectorAll('[data-nav]').forEach((b) => b.addEventListener('click', () => step(b.dataset.nav)));
$('flip').addEventListener('click', () => {
  board.flip();
  showBar(tree.get(cursor));
});
document.addEventListener('keydown', (e) => {
  if (e.target.tagName === 'INPUT' || e.target.tagName === 'TEXTAREA' || e.target.tagName === 'SELECT') return;
  const where = { ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last' }[e.key];
  if (where) step(where);
});

makeBoard();
load(info.slug, start.fen, start.moves)
  .then(() => start.game && start.over && evaluateGame(start.game))
  .catch(failed);
window.hordesAnalysis = {
  get board() {
    return board;
  },
  get tree() {
    return tree;
  },
  get current() {
    return tree.get(cursor);
  },
  // the main line as {start_fen, moves: [{uci, san}]} (what this page kept before it had a tree)
  get line() {
    return { start_fen: tree.startFen, moves: tree.mainline().slice(1).map((n) => ({ uci: n.uci, san: n.san })) };
  },
};
