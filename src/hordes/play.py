"""Play a game in the terminal: against the engine at a level, or two humans at one keyboard.

The board is drawn with Unicode chess symbols on coloured squares when standard output is a terminal
that can show them; with `NO_COLOR` set, on a terminal that cannot encode the symbols, or when output
is piped, it is drawn with plain FEN letters (upper case White, lower case Black) so logs and screen
readers get text that means something. In both styles Black's pieces are also marked `*`, so the
sides differ by more than colour or case, and a legend names the variant's pieces. Every square is
three cells wide in both styles, so a two-character piece (`+R`, a Rook Magnet of Hordes of Change)
and Black's mark keep the columns aligned.

Moves are typed in SAN or UCI and read by hordes.notation.san, so whatever that module accepts works
here too, and its errors (which name the candidates of an ambiguous or illegal move) are shown as
they are, minus the FEN, which the player can ask for. Nothing the player types ends the game by
accident: only `quit` (or end of input) leaves.
"""

from __future__ import annotations

import os
import random
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from hordes.core import movegen
from hordes.core.fen import EMPTY
from hordes.core.position import Board, Move, Outcome, Termination
from hordes.core.rules import BLACK, COLOR_NAMES, WHITE, Color, PieceType
from hordes.errors import AmbiguousMoveError, HordesError, IllegalMoveError
from hordes.notation.pgn import Game, write_game
from hordes.notation.san import parse_san, san

if TYPE_CHECKING:
    from hordes.engine.search import Searcher

# Filled symbols for both sides: the colour of the text tells the sides apart, and the filled shapes
# stay legible on both square colours (the outlined ones vanish on dark squares).
GLYPHS = {"king": "♚", "queen": "♛", "rook": "♜", "bishop": "♝", "knight": "♞", "pawn": "♟"}

# 256-colour palette: wooden squares, the last move in olive, a royal piece in check in red.
_LIGHT, _DARK = 180, 137
_LAST_LIGHT, _LAST_DARK = 186, 143
_CHECK = 167
_WHITE_FG, _BLACK_FG = 231, 16
_RESET = "\x1b[0m"

HELP = """\
Type a move in SAN ({san_examples}) or UCI ({uci_examples}).{extra}
Commands:
  undo        take back your last move{undo_extra}
  hint        ask the engine for a good move
  flip        turn the board around
  fen         print the position as FEN
  moves       list the legal moves
  save FILE   write the game so far to FILE as PGN
  help        show this text
  quit        leave (end of input does the same)"""


@dataclass(frozen=True, slots=True)
class Style:
    """How the board is drawn: `fancy` means ANSI colours and Unicode chess symbols."""

    fancy: bool

    @classmethod
    def detect(cls, stream: TextIO) -> Style:
        """Colours and symbols only for a terminal that wants them (https://no-color.org) and can
        encode them; plain letters for pipes, files, `NO_COLOR` and `TERM=dumb`."""
        if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
            return cls(False)
        try:
            if not stream.isatty():
                return cls(False)
            "".join(GLYPHS.values()).encode(stream.encoding or "ascii")
        except (AttributeError, ValueError, LookupError):
            return cls(False)
        return cls(True)


# Mailbox codes are `kind << 1 | side`, where the core's side index is 0 for White and 1 for Black.
_WHITE_SIDE, _BLACK_SIDE = 0, 1

# Black's pieces carry this mark in the last column of their square, in both styles, so the two
# sides differ by more than colour: on a monochrome screen, for a colour-blind player, in a log and
# for a screen reader (which says "K" and "k" alike).
BLACK_MARK = "*"


def piece_text(piece: PieceType, side: int, style: Style) -> str:
    """One or two characters for a piece on the core's `side` index: a chess symbol if it is a chess
    piece and the style is fancy, else its letter, upper case for White and lower case for Black.
    The mark that also sets Black apart is added by the square's cell."""
    if style.fancy and piece.name.lower() in GLYPHS:
        return GLYPHS[piece.name.lower()]
    return piece.letter if side == _WHITE_SIDE else piece.letter.lower()


def _cell(text: str, black: bool = False) -> str:
    """Three columns for a square: the piece's one or two characters, then Black's mark or a space."""
    mark = BLACK_MARK if black else " "
    return f" {text}{mark}" if len(text) == 1 else f"{text:<2}{mark}"


def legend(board: Board, style: Style) -> list[str]:
    """The variant's piece kinds with their letters (as SAN writes them) and names, then how the sides
    are told apart, in lines of at most 78 characters that never split a piece's entry."""
    pieces = board.variant.pieces
    entries = []
    for piece in pieces:
        glyph = GLYPHS.get(piece.name.lower()) if style.fancy else None
        entries.append(" ".join(([glyph] if glyph else []) + [piece.letter, piece.name]))
    sample = next((p for p in pieces if p.royal), pieces[0])
    white = piece_text(sample, _WHITE_SIDE, style)
    black = piece_text(sample, _BLACK_SIDE, style) + BLACK_MARK
    if style.fancy:
        sides = f"White's pieces are light ({white}), Black's dark and marked {BLACK_MARK} ({black}); "
        sides += "letters are capitals for White, lower case for Black."
    else:
        sides = f"White's pieces are in capitals ({white}), Black's in lower case and marked "
        sides += f"{BLACK_MARK} ({black})."
    # No-break spaces inside an entry keep "A Horse Archer" on one line; they are put back after.
    text = "Pieces: " + ", ".join(e.replace(" ", "\xa0") for e in entries) + "."
    lines = textwrap.wrap(text, 78, break_long_words=False) + textwrap.wrap(sides, 78)
    return [line.replace("\xa0", " ") for line in lines]


def render(board: Board, style: Style, *, flipped: bool = False, lastmove: Move | None = None) -> str:
    """The board as text, White at the bottom unless `flipped`, with file and rank labels."""
    geo = board.geometry
    cols, rows = geo.cols, geo.rows
    pieces = board.variant.pieces
    marked = set()
    if lastmove is not None:
        marked = {lastmove.from_square, lastmove.to_square}
    in_check = _royals_in_check(board)
    files = [chr(97 + f) for f in range(cols)]
    rank_order = range(rows) if flipped else range(rows - 1, -1, -1)
    if flipped:
        files.reverse()
    width = len(str(rows))
    lines = []
    for r in rank_order:
        cells = []
        for f in range(cols - 1, -1, -1) if flipped else range(cols):
            sq = r * cols + f
            code = board.mailbox[sq]
            side = code & 1
            text = piece_text(pieces[code >> 1], side, style) if code != EMPTY else ""
            cell = _cell(text or ("" if style.fancy else "."), black=code != EMPTY and side != _WHITE_SIDE)
            if not style.fancy:
                cells.append(cell)
                continue
            light = (f + r) % 2 == 1
            if sq in in_check:
                bg = _CHECK
            elif sq in marked:
                bg = _LAST_LIGHT if light else _LAST_DARK
            else:
                bg = _LIGHT if light else _DARK
            fg = _WHITE_FG if side == _WHITE_SIDE else _BLACK_FG
            cells.append(f"\x1b[48;5;{bg}m\x1b[38;5;{fg};1m{cell}")
        row = "".join(cells) + (_RESET if style.fancy else "")
        label = str(r + 1).rjust(width)
        lines.append(f"{label} {row} {label}")
    footer = (" " * (width + 1) + "".join(_cell(f) for f in files)).rstrip()
    return "\n".join([footer, *lines, footer])


def _royals_in_check(board: Board) -> set[int]:
    """Squares of the side to move's royal pieces that the opponent attacks."""
    occupied = board.occ[0] | board.occ[1]
    royals = movegen.royal_squares(board, board.side)
    out = set()
    while royals:
        low = royals & -royals
        royals ^= low
        sq = low.bit_length() - 1
        if movegen.attacked_by(board, board.side ^ 1, sq, occupied):
            out.add(sq)
    return out


def describe_outcome(outcome: Outcome, board: Board) -> str:
    """`checkmate — White wins (1-0)`: the reason in words, then the result."""
    t = outcome.termination
    winner = outcome.winner
    loser = COLOR_NAMES[not winner].capitalize() if winner is not None else ""
    title = board.variant.title
    reasons = {
        Termination.CHECKMATE: "checkmate",
        Termination.CAMPMATE: "campmate: a king reached the far side",
        Termination.THREEFOLD_REPETITION: "threefold repetition",
        Termination.REPETITION_LOSS: f"repetition loss: {loser} brought about the same position a third time",
        Termination.INSUFFICIENT_MATERIAL: "insufficient material",
        Termination.N_MOVE_RULE: f"the {board.variant.rules.n_move_rule}-move rule",
        Termination.VARIANT_WIN: f"a win by the rules of {title}",
        Termination.VARIANT_LOSS: f"a loss by the rules of {title}",
    }
    if t == Termination.STALEMATE:
        reason = (
            "stalemate" if winner is None else f"stalemate: {loser} has no legal move, which loses in {title}"
        )
    else:
        reason = reasons[t]
    verdict = "draw" if winner is None else f"{COLOR_NAMES[winner].capitalize()} wins"
    return f"{reason} — {verdict} ({outcome.result()})"


def explain(exc: HordesError) -> str:
    """An error about typed input in words for the player: the FEN the exception carries is left out
    (the player sees the board), the candidates of an ambiguous move are listed."""
    if isinstance(exc, AmbiguousMoveError):
        return f"{exc.move!r} is ambiguous: it could be {', '.join(exc.candidates)}."
    if isinstance(exc, IllegalMoveError):
        text = str(exc).replace(f" in {exc.fen!r}", "", 1)
        return text[:1].upper() + text[1:] + "."
    return f"{exc}. Type 'help' for the commands and how to write moves."


class TerminalGame:
    """One game at the terminal. `humans` holds the colours typed at the keyboard; the engine (a
    hordes.engine Searcher at `level`) plays the others. `read` is input(); tests and other front
    ends can pass their own."""

    def __init__(
        self,
        board: Board,
        *,
        humans: frozenset[Color],
        level: int = 3,
        movetime: float = 5.0,
        hint_time: float = 1.0,
        seed: int | None = None,
        out: TextIO | None = None,
        read: Callable[[str], str] = input,
        style: Style | None = None,
    ) -> None:
        self.board = board
        self.humans = humans
        self.level = level
        self.movetime = movetime
        self.hint_time = hint_time
        self.out = out or sys.stdout
        self.read = read
        self.style = style or Style.detect(self.out)
        self.rng = random.Random(seed)
        # White at the bottom, unless the only human plays Black.
        self.flipped = humans == frozenset({BLACK})
        self.start_turn = board.turn
        self.start_ply = len(board._stack)
        self._searcher: Searcher | None = None  # made on first use: two humans never import the engine
        self._announced = -1  # the ply count at which the end of the game was last announced

    # ----- output --------------------------------------------------------------------------------
    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def show(self) -> None:
        """Draw the board and say whose move it is."""
        board = self.board
        last = board.peek() if len(board._stack) > self.start_ply else None
        self.say()
        self.say(render(board, self.style, flipped=self.flipped, lastmove=last))
        status = f"{COLOR_NAMES[board.turn].capitalize()} to move"
        if board.outcome() is None and board.is_check():
            status += " — check!"
        self.say(status)

    def _name(self, color: Color) -> str:
        if color in self.humans:
            return "You" if len(self.humans) == 1 else COLOR_NAMES[color].capitalize()
        return f"hordes (level {self.level})"

    def _player(self, color: Color) -> str:
        """The name of a side in a saved game."""
        return "Human" if color in self.humans else f"hordes level {self.level}"

    def _numbered(self, san_text: str) -> str:
        """`12. Nf3` or `12... Nf6` for the move about to be played from the current position."""
        sep = "." if self.board.turn else "..."
        return f"{self.board.fullmove}{sep} {san_text}"

    # ----- the game loop -------------------------------------------------------------------------
    def run(self) -> int:
        """Play until `quit` or end of input; returns the exit status (0)."""
        self.say(f"{self.board.variant.title}. Type 'help' for commands; moves in SAN or UCI.")
        for line in legend(self.board, self.style):
            self.say(line)
        self.show()
        while True:
            outcome = self.board.outcome()
            if outcome is not None:
                if self._announced != len(self.board._stack):
                    self._announced = len(self.board._stack)
                    self.say(f"Game over: {describe_outcome(outcome, self.board)}.")
                    self.say("You can still undo, save FILE.pgn or quit.")
            elif self.board.turn not in self.humans:
                self._engine_move()
                continue
            try:
                line = self.read(self._prompt(outcome is not None)).strip()
            except EOFError:
                self.say()
                return 0
            if line and not self.handle(line):
                return 0

    def _prompt(self, over: bool) -> str:
        if over:
            return "game over> "
        sep = "." if self.board.turn else "..."
        return f"{self.board.fullmove}{sep} {COLOR_NAMES[self.board.turn]}> "

    def handle(self, line: str) -> bool:
        """Carry out one line of input; False means leave."""
        word, _, rest = line.partition(" ")
        command = word.lower()
        if command in ("quit", "exit", "q"):
            return False
        actions: dict[str, Callable[[], None]] = {
            "help": self._help,
            "?": self._help,
            "undo": self._undo,
            "hint": self._hint,
            "flip": self._flip,
            "fen": lambda: self.say(self.board.fen()),
            "moves": self._moves,
        }
        if command in actions:
            actions[command]()
        elif command == "save":
            self._save(rest.strip())
        else:
            self._human_move(line)
        return True

    def _human_move(self, text: str) -> None:
        board = self.board
        outcome = board.outcome()
        if outcome is not None:
            self.say(f"The game is over ({describe_outcome(outcome, board)}): undo, save FILE.pgn or quit.")
            return
        try:
            move = parse_san(board, text)
        except HordesError as exc:
            self.say(explain(exc))
            return
        verb = "play" if self._name(board.turn) == "You" else "plays"
        self.say(f"{self._name(board.turn)} {verb} {self._numbered(san(board, move))}")
        board.push(move)
        self.show()

    def _engine_move(self) -> None:
        from hordes.engine.levels import level, think
        from hordes.engine.limits import Limits

        board = self.board
        self.say(f"{self._name(board.turn)} is thinking…")
        move, _ = think(
            self._engine(), board, level(self.level), Limits(movetime=self.movetime), rng=self.rng
        )
        if move is None:  # the engine found no move in a position the rules call unfinished
            raise HordesError(f"the engine found no move in {board.fen()}")
        self.say(f"{self._name(board.turn)} plays {self._numbered(san(board, move))}")
        board.push(move)
        self.show()

    def _engine(self) -> Searcher:
        from hordes.engine.search import Searcher

        if self._searcher is None:
            self._searcher = Searcher()
        return self._searcher

    # ----- commands ------------------------------------------------------------------------------
    def _help(self) -> None:
        board = self.board
        variant = board.variant
        extra = ""
        from hordes.notation import san_mechanisms

        if san_mechanisms.applies(board):
            extra = (
                f"\n{variant.title}: change shape with Rc3=+R or Kd1=N (UCI c3c3); "
                "pull with the magnet, its square and the pulled piece's squares, +Re1:e5-e2 (UCI e5e2)."
            )
        pawns = any(p.pawn for p in variant.pieces)
        san_examples = "Nf3, exd5, O-O, e8=Q" if pawns else "Rd4, Bxf6, Ke2"
        uci_examples = "g1f3, e7e8q" if pawns else "d1d4"
        undo_extra = "" if len(self.humans) == 2 else " and the engine's reply"
        self.say(
            HELP.format(
                san_examples=san_examples, uci_examples=uci_examples, extra=extra, undo_extra=undo_extra
            )
        )
        for line in legend(board, self.style):
            self.say(line)

    def _undo(self) -> None:
        """Take back the last move of a human, and the engine's replies after it."""
        board = self.board
        plies = len(board._stack)
        target = -1
        for ply in range(plies - 1, self.start_ply - 1, -1):
            mover = self.start_turn if (ply - self.start_ply) % 2 == 0 else not self.start_turn
            if mover in self.humans:
                target = ply
                break
        if target < 0:
            self.say("Nothing to take back.")
            return
        self._announced = -1
        taken = []
        while len(board._stack) > target:
            move = board.pop()
            taken.append(san(board, move))
        self.say("Took back " + ", ".join(reversed(taken)) + ".")
        self.show()

    def _hint(self) -> None:
        from hordes.engine.levels import level, think
        from hordes.engine.limits import Limits

        board = self.board
        if board.outcome() is not None:
            self.say("The game is over: there is nothing to suggest.")
            return
        move, info = think(self._engine(), board, level(8), Limits(movetime=self.hint_time), rng=self.rng)
        if move is None:
            self.say("No suggestion.")
            return
        score = ""
        if info is not None:
            mate = info.mate
            score = f" (mate in {mate})" if mate and mate > 0 else f" (score {info.cp / 100:+.2f})"
        self.say(f"Hint: {self._numbered(san(board, move))}{score}")

    def _flip(self) -> None:
        self.flipped = not self.flipped
        self.show()

    def _moves(self) -> None:
        board = self.board
        texts = sorted(san(board, m) for m in board.legal_moves)
        self.say(f"{len(texts)} legal moves: " + " ".join(texts) if texts else "No legal moves.")

    def _save(self, name: str) -> None:
        if not name:
            self.say("Usage: save FILE.pgn")
            return
        board = self.board
        headers = {
            "Event": f"hordes play: {board.variant.title}",
            "Site": "terminal",
            "Date": date.today().strftime("%Y.%m.%d"),
            "White": self._player(WHITE),
            "Black": self._player(BLACK),
        }
        outcome = board.outcome()
        game = Game.from_board(board, headers)
        if outcome is not None and game.variations:
            game.end().comment = describe_outcome(outcome, board)
        path = Path(name).expanduser()
        try:
            path.write_text(write_game(game), encoding="utf-8")
        except OSError as exc:
            self.say(f"Cannot save to {name}: {exc.strerror or exc}.")
            return
        plies = len(game.mainline_moves())
        self.say(f"Saved {plies} {'ply' if plies == 1 else 'plies'} to {path}.")
