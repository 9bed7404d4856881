// Takeback, rematch and abort on the game page; the server's state machines are in web/offers.py.
//
// Every game event carries the offers' state (takeback_offer, rematch_offer, rematch, can_abort, ...),
// so the buttons and the opponent's prompt are drawn from the game alone. "offer" events say who did
// what; that news is told in a line under the status, declines and withdrawals included. An accepted
// takeback's event has a lower ply: the moves after it are dropped here. An accepted rematch's event
// names the new game: each player's page reads its seat there from the old game (GET
// /api/games/{id}/rematch, which also sets the new seat's cookie) and goes to it.

const DONE = {
  takeback: { offer: 'asked to take back a move', accept: 'accepted the takeback', decline: 'declined the takeback', cancel: 'withdrew the takeback request' },
  rematch: { offer: 'offered a rematch', accept: 'accepted the rematch', decline: 'declined the rematch', cancel: 'withdrew the rematch offer' },
};
const ASKED = { takeback: 'Your opponent asks to take back a move.', rematch: 'Your opponent offers a rematch.' };

function ended(game) {
  return game.status === 'over' || game.status === 'aborted';
}

// Whether `seat` has made a move in the game (sides alternate from the start position's side).
function hasMoved(game, seat) {
  const first = game.start_fen.split(' ')[1] === 'b' ? 'black' : 'white';
  return game.ply >= 2 || (game.ply === 1 && first === seat);
}

export class Offers {
  // `$`: the page's getElementById; `game()`: the current game state; `send(msg)`: to the websocket.
  constructor($, game, send) {
    this.$ = $;
    this.game = game;
    this.send = send;
    this.news = null; // {text, ply, status}: the last request or answer, while the game is where it was
    this.prompt = null; // the kind of the opponent's request the prompt answers
    $('takeback').addEventListener('click', () => this.toggle('takeback', this.game().takeback_offer));
    $('rematch').addEventListener('click', () => this.toggle('rematch', this.game().rematch_offer));
    $('abort').addEventListener('click', () => this.send({ type: 'abort' }));
    $('offer-accept').addEventListener('click', () => this.answer('accept'));
    $('offer-decline').addEventListener('click', () => this.answer('decline'));
    $('rematch-link').addEventListener('click', (e) => {
      if (!this.game().seat) return; // spectators just follow the link
      e.preventDefault();
      this.follow();
    });
  }

  toggle(kind, pending) {
    this.send({ type: kind, action: pending === this.game().seat ? 'cancel' : 'offer' });
  }

  answer(action) {
    if (this.prompt) this.send({ type: this.prompt, action });
  }

  // An "offer" event: update the game; 'rewound' after a takeback, 'changed' otherwise, null if the
  // message is not an offer's.
  receive(msg) {
    if (msg.type !== 'offer') return null;
    const game = this.game();
    const { type, id, kind, action, by, plies, ...rest } = msg;
    const rewound = kind === 'takeback' && action === 'accept';
    if (rewound) game.moves.length = Math.min(game.moves.length, msg.ply);
    Object.assign(game, rest);
    let text = `${this.who(by)} ${DONE[kind][action]}`;
    if (rewound) text += ` (${plies} ${plies === 1 ? 'move' : 'moves'} taken back)`;
    this.news = { text: `${text}.`, ply: game.ply, status: game.status };
    if (kind === 'rematch' && action === 'accept' && game.seat) this.follow();
    return rewound ? 'rewound' : 'changed';
  }

  who(color) {
    const game = this.game();
    if (game.players[color] && game.players[color].kind === 'engine') return 'The engine';
    if (game.seat) return color === game.seat ? 'You' : 'Your opponent';
    return color === 'white' ? 'White' : 'Black';
  }

  // The new game of an accepted rematch: this browser's seat there, then the page.
  async follow() {
    const game = this.game();
    try {
      const res = await fetch(`/api/games/${game.id}/rematch`);
      const data = await res.json();
      if (res.ok && data.rematch) location.assign(`/game/${data.rematch}`);
    } catch {
      this.$('rematch-link').hidden = false; // the link is there to try again
    }
  }

  render() {
    const $ = this.$;
    const game = this.game();
    const seat = game.seat;
    const playing = game.status === 'playing' && !!seat;
    const over = ended(game);
    const other = seat === 'white' ? 'black' : 'white';
    // during the game: takeback (casual games, once this seat has moved), abort instead of resign
    const takeback = $('takeback');
    const asking = game.takeback_offer === seat;
    takeback.hidden = !playing || !game.takebacks_allowed || !hasMoved(game, seat);
    takeback.textContent = asking ? 'Cancel takeback' : 'Takeback';
    takeback.disabled = !asking && (game.takeback_declined || game.takeback_offer === other);
    $('abort').hidden = !(playing && game.can_abort);
    $('resign').hidden = playing && game.can_abort;
    // after it: rematch, or the way to the rematch once it exists
    const offering = game.rematch_offer === seat;
    $('rematch-card').hidden = !over || (!seat && !game.rematch);
    const rematch = $('rematch');
    rematch.hidden = !seat || !!game.rematch;
    rematch.textContent = offering ? 'Cancel rematch' : game.rematch_declined ? 'Rematch declined' : 'Rematch';
    rematch.disabled = game.rematch_declined || game.rematch_offer === other;
    const link = $('rematch-link');
    link.hidden = !game.rematch;
    if (game.rematch) link.href = `/game/${game.rematch}`;
    // the opponent's request, to answer
    this.prompt = playing && game.takeback_offer === other ? 'takeback'
      : over && seat && !game.rematch && game.rematch_offer === other ? 'rematch' : null;
    $('offer-prompt').hidden = !this.prompt;
    $('offer-text').textContent = this.prompt ? ASKED[this.prompt] : '';
    // the news: the last event while the game is where it was, else what the state still says (the
    // prompt tells of a request to answer by itself)
    const news = this.news;
    let text = news && news.ply === game.ply && news.status === game.status && !this.prompt ? news.text : '';
    if (!text && playing && game.takeback_declined) text = 'The takeback was declined.';
    if (!text && over && game.rematch_declined) text = 'The rematch was declined.';
    $('offer-line').hidden = !text;
    $('offer-line').textContent = text;
  }
}
