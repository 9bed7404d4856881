// The analysis board's move list: the main line in numbered rows, and, where the tree branches or a
// move has a comment, a block under that move with the comment and the variations, as lichess shows
// them. The first level of variations gets one indented line each; deeper ones are in parentheses.
// Each move is a button that goes to its node; the current one is highlighted.

const NAG_GLYPHS = { 1: '!', 2: '?', 3: '!!', 4: '??', 5: '!?', 6: '?!' };
// The engine's verdicts (judgement.py), shown like the NAGs a person would write.
export const JUDGEMENT_GLYPHS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

function moveNumber(startFen, ply) {
  // (move number, White to move) before the move that makes `ply`
  const parts = startFen.split(' ');
  const first = parseInt(parts[5] || '1', 10) || 1;
  const blackFirst = parts[1] === 'b';
  const half = ply - 1 + (blackFirst ? 1 : 0);
  return [first + Math.floor(half / 2), half % 2 === 0];
}

function glyphs(node) {
  const marks = node.nags.map((n) => NAG_GLYPHS[n]).filter(Boolean);
  if (node.evaluation && node.evaluation.judgement && !marks.length) marks.push(JUDGEMENT_GLYPHS[node.evaluation.judgement]);
  return marks.join('');
}

function moveButton(node, current, onClick, label = '') {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'move' + (node.id === current ? ' current' : '');
  const judged = node.evaluation && node.evaluation.judgement;
  if (judged) b.classList.add('judged', judged);
  b.dataset.node = node.id;
  b.dataset.ply = node.ply;
  b.textContent = label + node.san;
  const marks = glyphs(node);
  if (marks) {
    const g = document.createElement('span');
    g.className = 'glyph';
    g.textContent = marks;
    b.appendChild(g);
  }
  if (judged) b.title = judged;
  b.addEventListener('click', () => onClick(node.id));
  return b;
}

function commentSpan(text) {
  const c = document.createElement('span');
  c.className = 'comment';
  c.textContent = text;
  return c;
}

// A variation starting at `first`, written inline into `el` (nested ones in parentheses).
function writeLine(el, tree, first, current, onClick, startFen) {
  let numbered = true; // the first move gets its number, Black's as "3..."
  for (let n = first; n; n = n.children.length ? tree.get(n.children[0]) : null) {
    if (n.startingComment) el.appendChild(commentSpan(n.startingComment));
    const [number, white] = moveNumber(startFen, n.ply);
    const label = white ? `${number}. ` : numbered ? `${number}… ` : '';
    el.appendChild(moveButton(n, current, onClick, label));
    numbered = false;
    if (n.comment) {
      el.appendChild(commentSpan(n.comment));
      numbered = true;
    }
    const parent = tree.get(n.parent);
    if (n !== first && parent.children.length > 1) {
      for (const alt of parent.children.slice(1)) {
        const sub = document.createElement('span');
        sub.className = 'sub';
        writeLine(sub, tree, tree.get(alt), current, onClick, startFen);
        el.appendChild(sub);
      }
      numbered = true;
    }
  }
}

function interrupt(list, tree, node, current, onClick) {
  const li = document.createElement('li');
  li.className = 'interrupt';
  if (node.comment) li.appendChild(commentSpan(node.comment));
  const parent = tree.get(node.parent);
  for (const alt of parent.children.slice(1)) {
    const line = document.createElement('div');
    line.className = 'line';
    writeLine(line, tree, tree.get(alt), current, onClick, tree.startFen);
    li.appendChild(line);
  }
  list.appendChild(li);
}

export function renderTree(list, tree, current, onClick) {
  list.innerHTML = '';
  if (tree.root.comment) {
    const li = document.createElement('li');
    li.className = 'interrupt';
    li.appendChild(commentSpan(tree.root.comment));
    list.appendChild(li);
  }
  let row = null;
  for (const node of tree.mainline().slice(1)) {
    const [number, white] = moveNumber(tree.startFen, node.ply);
    if (white || !row) {
      row = document.createElement('li');
      row.value = number;
      list.appendChild(row);
      if (!white) row.appendChild(placeholder());
    }
    row.appendChild(moveButton(node, current, onClick));
    const branches = tree.get(node.parent).children.length > 1;
    if (branches || node.comment) {
      if (white) row.appendChild(placeholder());
      interrupt(list, tree, node, current, onClick);
      row = null;
    } else if (!white) {
      row = null;
    }
  }
  const cur = list.querySelector('.current');
  if (cur) cur.scrollIntoView({ block: 'nearest' });
}

function placeholder() {
  const dots = document.createElement('span');
  dots.className = 'move empty';
  dots.textContent = '…';
  return dots;
}
