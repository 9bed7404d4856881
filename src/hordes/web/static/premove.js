// Premoves: while the opponent is to move, the player may set one move of their own (drag or two
// clicks); when their turn comes it is played if it is legal then, and dropped otherwise. A right
// click, or a click on an empty square, cancels it (chessgroundx does both).
//
// Where a piece may premove to is worked out here from its movement as the server describes it
// (variant_info.movement, from the variant document: each step [dx, dy, max steps, moves?, captures?]
// per colour), on an empty board: any of those squares may become legal after the opponent's reply,
// whatever stands in between now. Pawns' double steps and a castling king's landing squares are
// added. Pulls and changes of shape are not premoves. Legality is the server's, when the turn comes:
// the premove is played only if it is among the position's legal moves.

export class Premoves {
  constructor(board) {
    this.board = board;
    const variant = board.variant;
    this.movement = variant.movement || { pieces: {}, pawns: [], double_step: { white: [], black: [] }, castle_files: null };
    this.letters = new Map(variant.pieces.map((p) => [p.role, p.letter]));
    this.royal = new Set(variant.pieces.filter((p) => p.royal).map((p) => p.letter));
    board.cg.set({
      premovable: {
        enabled: true,
        castle: false,
        premoveFunc: (boardState, key) => {
          const piece = boardState.pieces.get(key);
          return piece ? this.dests(piece, key) : [];
        },
        events: { set: () => board._premoveChanged(), unset: () => board._premoveChanged() },
      },
    });
  }

  get current() {
    return this.board.cg.state.premovable.current || null;
  }

  // Squares a piece ({role, color}) on `key` could premove to.
  dests(piece, key) {
    const variant = this.board.variant;
    const letter = this.letters.get(piece.role);
    const steps = (this.movement.pieces[letter] || {})[piece.color] || [];
    const f0 = variant.files.indexOf(key[0]);
    const r0 = parseInt(key.slice(1), 10) - 1;
    const on = (f, r) => f >= 0 && f < variant.cols && r >= 0 && r < variant.rows;
    const name = (f, r) => variant.files[f] + (r + 1);
    const out = new Set();
    for (const [dx, dy, max] of steps) {
      for (let f = f0 + dx, r = r0 + dy, n = 1; on(f, r) && (!max || n <= max); f += dx, r += dy, n++) out.add(name(f, r));
    }
    if (this.movement.pawns.includes(letter) && this.movement.double_step[piece.color].includes(r0)) {
      const r = r0 + (piece.color === 'white' ? 2 : -2);
      if (on(f0, r)) out.add(name(f0, r));
    }
    const home = piece.color === 'white' ? 0 : variant.rows - 1;
    if (this.movement.castle_files && this.royal.has(letter) && r0 === home) {
      for (const f of this.movement.castle_files) if (f !== f0) out.add(name(f, r0));
    }
    out.delete(key);
    return [...out];
  }

  // After the board shows a new position: play the premove when the player may move, keep it while
  // the opponent is to move, drop it otherwise (an earlier position shown, the game over).
  afterSet(movable, premovable) {
    if (!this.current) return;
    if (movable) {
      const [orig, dest] = this.current;
      if (!this.board.cg.playPremove()) this.board.notify(`Premove ${orig}–${dest} dropped: it is not legal now.`);
    } else if (!premovable) {
      this.board.cg.cancelPremove();
    }
  }
}
