// The analysis board's move tree: plain objects, one per position, linked by ids.
//
// node = { id, parent (id, null at the root), children: [ids, main continuation first], ply (moves
//          from the start), uci, san, fen (after the move), comment, startingComment, nags: [ints],
//          evaluation (the graph's, with its judgement), engine (the last engine answer) }
//
// Playing a move that is already a child goes to it; another move becomes a new child (a variation),
// never replacing the line there. The server's tree format (analysis_tree.py: a line is a list of
// moves, each with the `variations` that replace it) is read by `fromApi` and written by `toApi`.

export class MoveTree {
  constructor(startFen, comment = '') {
    this.startFen = startFen;
    this.nextId = 0;
    this.nodes = new Map();
    this.root = this._make(null, { fen: startFen, comment });
  }

  _make(parent, { uci = null, san = null, fen = null, comment = '', startingComment = '', nags = [] } = {}) {
    const id = this.nextId++;
    const node = {
      id,
      parent: parent ? parent.id : null,
      children: [],
      ply: parent ? parent.ply + 1 : 0,
      uci,
      san,
      fen,
      comment,
      startingComment,
      nags: [...nags],
      evaluation: null,
      engine: null,
    };
    this.nodes.set(id, node);
    if (parent) parent.children.push(id);
    return node;
  }

  get(id) {
    return this.nodes.get(id);
  }

  parentOf(node) {
    return node.parent === null ? null : this.nodes.get(node.parent);
  }

  child(node, uci) {
    return node.children.map((c) => this.nodes.get(c)).find((c) => c.uci === uci) || null;
  }

  // The node after `parentId` for this move ({uci, san, fen}): the existing one, or a new variation.
  add(parentId, move) {
    const parent = this.nodes.get(parentId);
    return this.child(parent, move.uci) || this._make(parent, move);
  }

  // Moves one after another from `parentId`; the last node.
  addLine(parentId, moves) {
    let node = this.nodes.get(parentId);
    for (const m of moves) node = this.add(node.id, m);
    return node;
  }

  // The nodes from the first move to `id` (the root excluded).
  path(id) {
    const out = [];
    for (let n = this.nodes.get(id); n && n.parent !== null; n = this.nodes.get(n.parent)) out.push(n);
    return out.reverse();
  }

  ucis(id) {
    return this.path(id).map((n) => n.uci);
  }

  // The main continuation from a node to the end of its line (the node included).
  continuation(id) {
    const out = [];
    for (let n = this.nodes.get(id); n; n = n.children.length ? this.nodes.get(n.children[0]) : null) out.push(n);
    return out;
  }

  mainline() {
    return this.continuation(this.root.id);
  }

  isMainline(id) {
    for (let n = this.nodes.get(id); n.parent !== null; n = this.nodes.get(n.parent)) {
      if (this.nodes.get(n.parent).children[0] !== n.id) return false;
    }
    return true;
  }

  // The nearest node from `id` up that is not its parent's main continuation (null on the main line).
  branchPoint(id) {
    for (let n = this.nodes.get(id); n.parent !== null; n = this.nodes.get(n.parent)) {
      if (this.nodes.get(n.parent).children[0] !== n.id) return n;
    }
    return null;
  }

  // Promote the variation holding `id` one level: at its branch point it becomes the main continuation.
  // With `toMain`, repeat until `id` is on the main line. Returns whether anything changed.
  promote(id, toMain = false) {
    let changed = false;
    for (let n = this.branchPoint(id); n; n = toMain ? this.branchPoint(id) : null) {
      const siblings = this.nodes.get(n.parent).children;
      siblings.splice(siblings.indexOf(n.id), 1);
      siblings.unshift(n.id);
      changed = true;
    }
    return changed;
  }

  // Delete a node and everything after it; returns its parent's id.
  remove(id) {
    const node = this.nodes.get(id);
    if (!node || node.parent === null) return this.root.id;
    const parent = this.nodes.get(node.parent);
    parent.children.splice(parent.children.indexOf(id), 1);
    const stack = [id];
    while (stack.length) {
      const n = this.nodes.get(stack.pop());
      stack.push(...n.children);
      this.nodes.delete(n.id);
    }
    return parent.id;
  }

  // ----- the server's format -----
  static fromApi(startFen, comment, moves) {
    const tree = new MoveTree(startFen, comment || '');
    tree._readLine(tree.root, moves || []);
    return tree;
  }

  _readLine(parent, items) {
    let before = parent;
    for (const item of items) {
      const m = typeof item === 'string' ? { uci: item } : item;
      const node = this._make(before, {
        uci: m.uci,
        san: m.san,
        fen: m.fen,
        comment: m.comment || '',
        startingComment: m.starting_comment || '',
        nags: m.nags || [],
      });
      for (const alt of m.variations || []) this._readLine(before, alt);
      before = node;
    }
  }

  toApi() {
    return { comment: this.root.comment || '', moves: this._writeLine(this.root.children[0]) };
  }

  // The line from node `id` along main continuations; each main move lists its alternatives.
  _writeLine(id) {
    const out = [];
    for (let n = this.nodes.get(id); n; n = n.children.length ? this.nodes.get(n.children[0]) : null) {
      const item = { uci: n.uci };
      if (n.comment) item.comment = n.comment;
      if (n.startingComment) item.starting_comment = n.startingComment;
      if (n.nags.length) item.nags = [...n.nags];
      const parent = this.nodes.get(n.parent);
      if (parent.children[0] === n.id && parent.children.length > 1) {
        item.variations = parent.children.slice(1).map((alt) => this._writeLine(alt));
      }
      out.push(item);
    }
    return out;
  }
}
