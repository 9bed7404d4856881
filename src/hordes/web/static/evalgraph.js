// The evaluation graph: White's advantage over the moves of a game, as an inline SVG.
//
// Centipawns are squashed into -1..1 (a win probability shape), so a mate or a won game sits at the
// edge and small advantages stay visible. Clicking the graph jumps to that move. A move the server
// judged (judgement.py: inaccuracy, mistake, blunder) gets a dot of its colour at its position.

const NS = 'http://www.w3.org/2000/svg';

export function squash(ev) {
  if (!ev) return 0;
  if (ev.mate !== null && ev.mate !== undefined) return ev.mate > 0 ? 1 : ev.mate < 0 ? -1 : 0;
  if (ev.cp === null || ev.cp === undefined) return 0;
  return 2 / (1 + Math.exp(-0.004 * ev.cp)) - 1;
}

// evals: [{ply, cp, mate}] for plies 0..n; current: the ply shown on the board.
export function drawGraph(container, evals, current, onClick) {
  container.innerHTML = '';
  if (!evals || evals.length < 2) {
    container.textContent = evals && evals.length ? 'Not enough moves for a graph.' : '';
    return;
  }
  const width = 320;
  const height = 110;
  const last = evals[evals.length - 1].ply || evals.length - 1;
  const x = (ply) => (width * ply) / Math.max(1, last);
  const y = (v) => height / 2 - (v * (height / 2 - 4));
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('class', 'eval-svg');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', 'Evaluation graph (White above the line)');
  const bg = document.createElementNS(NS, 'rect');
  bg.setAttribute('width', width);
  bg.setAttribute('height', height);
  bg.setAttribute('class', 'eval-bg');
  svg.appendChild(bg);
  const pts = evals.map((e) => [x(e.ply), y(squash(e))]);
  const area = document.createElementNS(NS, 'path');
  area.setAttribute(
    'd',
    `M0 ${height} ` + pts.map(([px, py]) => `L${px.toFixed(1)} ${py.toFixed(1)}`).join(' ') + ` L${width} ${height} Z`,
  );
  area.setAttribute('class', 'eval-area');
  svg.appendChild(area);
  const mid = document.createElementNS(NS, 'line');
  mid.setAttribute('x1', 0);
  mid.setAttribute('x2', width);
  mid.setAttribute('y1', height / 2);
  mid.setAttribute('y2', height / 2);
  mid.setAttribute('class', 'eval-mid');
  svg.appendChild(mid);
  const line = document.createElementNS(NS, 'polyline');
  line.setAttribute('points', pts.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(' '));
  line.setAttribute('class', 'eval-line');
  svg.appendChild(line);
  for (const e of evals) {
    if (!e.judgement) continue;
    const dot = document.createElementNS(NS, 'circle');
    dot.setAttribute('cx', x(e.ply).toFixed(1));
    dot.setAttribute('cy', y(squash(e)).toFixed(1));
    dot.setAttribute('r', e.judgement === 'blunder' ? 3.6 : 3);
    dot.setAttribute('class', `eval-mark ${e.judgement}`);
    const title = document.createElementNS(NS, 'title');
    title.textContent = `${e.judgement} (move ${e.ply})`;
    dot.appendChild(title);
    svg.appendChild(dot);
  }
  if (current !== null && current !== undefined) {
    const cur = document.createElementNS(NS, 'line');
    cur.setAttribute('x1', x(current));
    cur.setAttribute('x2', x(current));
    cur.setAttribute('y1', 0);
    cur.setAttribute('y2', height);
    cur.setAttribute('class', 'eval-cursor');
    svg.appendChild(cur);
  }
  svg.addEventListener('click', (e) => {
    const r = svg.getBoundingClientRect();
    const ply = Math.round(((e.clientX - r.left) / r.width) * last);
    onClick(Math.max(0, Math.min(last, ply)));
  });
  container.appendChild(svg);
}
