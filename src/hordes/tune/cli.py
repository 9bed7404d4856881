"""Subcommand `hordes tune`: fit a variant document's evaluation numbers to game results (Texel)."""

from __future__ import annotations

import argparse
import datetime
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hordes.errors import HordesError

DEFAULT_SPRT = (0.0, 10.0, 0.05, 0.05)


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "tune",
        help="fit piece values and evaluation weights to results (Texel)",
        description=(
            "Sample quiet positions from games of VARIANT, label each with its game's result, fit the "
            "evaluation (piece values and the weights of engine.evaluation) to the results with Texel's "
            "method, write a document that inherits from VARIANT with the new numbers, and play a match "
            "tuned against original."
        ),
    )
    p.add_argument("variant", help="variant name or document path")
    p.add_argument("--positions", required=True, help="a PGN file, or a directory of .pgn files")
    p.add_argument("--out", type=Path, help="the tuned document to write (default: SLUG-tuned.md)")
    p.add_argument(
        "--params",
        help="what to tune, comma-separated: all (default), values, weights, plan (the pull-trap-capture "
        "terms), piece letters (Q), terms (centre), or single numbers (Q.mg, tempo)",
    )
    p.add_argument("--workers", type=int, default=1, help="local worker processes (default 1)")
    p.add_argument("--ray", metavar="local|auto|ADDRESS", help="compute on a Ray cluster instead")
    p.add_argument("--max-positions", type=int, help="use at most this many positions (a random sample)")
    p.add_argument("--per-game", type=int, default=10, help="positions sampled per game (default 10)")
    p.add_argument("--skip-plies", type=int, default=8, help="opening plies never sampled (default 8)")
    p.add_argument(
        "--decisive", action="store_true", help="sample won and lost games only (drawn games are skipped)"
    )
    p.add_argument(
        "--ridge",
        type=float,
        default=0.1,
        help="pull towards the document's numbers: a change of one pawn costs as much as one position "
        "mispredicted by a whole point (default 0.1; 0 = plain Texel)",
    )
    p.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="most feature extractions: another at the fitted numbers while the linear model is off "
        "the real evaluation by more than rounding, a safety check (default 3)",
    )
    p.add_argument(
        "--holdout",
        type=float,
        default=0.1,
        metavar="FRACTION",
        help="share of the games (whole games) kept out of the fit to measure the error on unseen "
        "games (default 0.1; 0: no held-out check)",
    )
    p.add_argument(
        "--seed", type=int, default=0, help="seed for sampling, the held-out split and the match (default 0)"
    )
    p.add_argument(
        "--verify-games", type=int, default=200, help="most games of the tuned-vs-original match (0: none)"
    )
    p.add_argument(
        "--tc", default="2+0.02", help="match time control, or 'none' (fixed depth; default 2+0.02)"
    )
    p.add_argument("--verify-depth", type=int, default=2, help="search depth per move with --tc none")
    p.add_argument(
        "--sprt",
        nargs=4,
        type=float,
        metavar=("ELO0", "ELO1", "ALPHA", "BETA"),
        default=list(DEFAULT_SPRT),
        help="stop the match by SPRT (default 0 10 0.05 0.05)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress messages")
    p.set_defaults(func=_cmd_tune)


def _cmd_tune(args: argparse.Namespace) -> int:
    import numpy as np

    from hordes.engine.evaluate import Evaluator
    from hordes.tune.document import tuned_document
    from hordes.tune.positions import (
        SampleOptions,
        collect_positions,
        count_games,
        resolve_variant,
        split_by_game,
        variant_spec,
    )
    from hordes.tune.texel import Model, extract_features, fit, mse, select_params
    from hordes.variants import REGISTRY

    def log(text: str) -> None:
        if not args.quiet:
            print(text, file=sys.stderr, flush=True)

    if args.workers < 1:
        raise HordesError("--workers must be at least 1")
    if args.verify_games < 0:
        raise HordesError("--verify-games must not be negative")
    if args.max_positions is not None and args.max_positions < 1:
        raise HordesError("--max-positions must be at least 1")
    if args.rounds < 1:
        raise HordesError("--rounds must be at least 1")
    if args.ridge < 0:
        raise HordesError("--ridge must not be negative")
    if args.per_game < 1 or args.skip_plies < 0:
        raise HordesError("--per-game must be at least 1 and --skip-plies not negative")
    if not 0 <= args.holdout < 0.9:  # also rejects nan
        raise HordesError("--holdout must be at least 0 and below 0.9 (a fraction of the games)")
    sprt = _sprt(args.sprt)
    tc = _tc(args.tc)
    variant = resolve_variant(args.variant)
    spec = variant_spec(variant)
    selected = select_params(variant, args.params)
    out: Path = args.out or Path(f"{variant.slug}-tuned.md")

    options = SampleOptions(
        skip_plies=args.skip_plies, per_game=args.per_game, seed=args.seed, decisive=args.decisive
    )
    positions, stats = collect_positions(
        args.positions, variant, options, args.workers, args.ray, args.max_positions
    )
    log(
        f"read {stats.games} games: {stats.used} of {variant.slug} gave positions"
        + (f", {stats.other_variant} of other variants" if stats.other_variant else "")
        + (f", {stats.broken} broken" if stats.broken else "")
        + (f", {stats.unfinished} unfinished" if stats.unfinished else "")
        + (f", {stats.drawn} drawn left out (--decisive)" if stats.drawn else "")
        + f"; {len(positions)} quiet positions ({stats.loud} candidates were not quiet)"
    )
    if not positions:
        others = f" (games of: {', '.join(sorted(stats.variants))})" if stats.variants else ""
        raise HordesError(
            f"no positions: {args.positions} holds no finished game of {variant.slug} with a position "
            f"to sample{others}"
        )
    # K and the numbers are fitted on `train` only; `held` measures them on games the fit never saw.
    train, held = split_by_game(positions, args.holdout, args.seed)
    if held:
        log(
            f"held out {len(held)} positions of {_games(count_games(held))}; "
            f"fitting on {len(train)} of {_games(count_games(train))}"
        )
    fens = [p.fen for p in train]
    results = np.array([p.result for p in train], dtype=np.float64)
    features = extract_features(spec, fens, args.workers, args.ray)
    model = Model(variant, features)
    base_dev = float(np.max(np.abs(model.evaluate(model.theta0) - features.white)))
    log(f"features of {len(fens)} positions; the model reproduces the evaluation within {base_dev:g}")
    result = fit(model, results, selected, ridge=args.ridge, log=None if args.quiet else log)
    first = result
    original = model.theta0.copy()
    base = out.resolve().parent
    games_text = _games(stats.used)
    # (real error, result, changes, deviation, round, tuned variant)
    best: tuple[float, Any, Any, Any, int, Any] | None = None
    for rounds in range(1, args.rounds + 1):
        changes = [
            (p, int(original[i]), result.new[i])
            for i, p in enumerate(result.params)
            if result.new[i] != int(original[i])
        ]
        tuned = REGISTRY.parse(tuned_document(variant, changes, out, []), str(out), base)
        # The tuned document's own Evaluator on every position: the error it really has, and how far
        # the linear model was from it. The model gates mop-up by the material balance itself, so
        # more than the rounding of mobility terms is unexpected (a lead within rounding of
        # mop_up_margin, or a term that is not linear in the numbers): then features again.
        real = _white_scores(Evaluator(tuned), variant, fens)
        deviation = np.abs(model.evaluate(np.array(result.new, dtype=np.float64)) - real)
        real_error = mse(results, real, first.k)
        if best is None or real_error < best[0]:
            best = (real_error, result, changes, deviation, rounds, tuned)
        rounding = model.f.phase_counts.sum(axis=1) / 2 + 2
        if rounds == args.rounds or np.all(deviation <= rounding):
            break
        log(
            f"the model is up to {float(np.max(deviation)):g} off the tuned evaluation: features again "
            f"at the new numbers (round {rounds + 1})"
        )
        text = tuned_document(variant, changes, out, [])
        model = Model(tuned, extract_features(spec, fens, args.workers, args.ray, document=text, base=base))
        result = fit(
            model,
            results,
            selected,
            k=first.k,
            ridge=args.ridge,
            log=None if args.quiet else log,
            anchor=original,
        )
    assert best is not None
    real_after, result, changes, deviation, kept, tuned = best
    shown = sorted(set(first.tuned) | set(result.tuned))
    check = _held_out_check(args.holdout, train, held, variant, tuned, first.k)
    split_lines, held_lines = check.header_lines()

    # One fact per line, so a long path never splits a figure across lines.
    tuned_names = ", ".join(result.params[i].name for i in shown) or "nothing"
    about = [
        f"Made by `hordes tune` on {datetime.date.today().isoformat()} with Texel's method.",
        f"Parent: {variant.source}",
        f"Games: {args.positions}",
        f"Sample: {len(positions)} quiet positions of {games_text}, from ply {args.skip_plies + 1}, at "
        f"most {args.per_game} per game, seed {args.seed}; each labelled with its game's result"
        + (" (decisive games only)." if args.decisive else "."),
        *split_lines,
        f"Fit: ridge {args.ridge:g}; K = {first.k:.6g}; mean squared error {first.error_before:.6f} before, "
        f"{real_after:.6f} after (in-sample).",
        *held_lines,
        *textwrap.wrap(f"Tuned: {tuned_names}.", 96),
    ]
    text = tuned_document(variant, changes, out, about)
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise HordesError(f"--out: cannot write {out}: {exc.strerror}") from None

    fitted = f"{len(fens)} positions of {_games(check.train_games)} (training set)" if held else None
    print(f"{variant.slug}: {fitted or f'{len(fens)} positions of {games_text}'}, K = {first.k:.6g}")
    print(
        f"mean squared error: {first.error_before:.6f} before, {real_after:.6f} after"
        + (" (in-sample)" if held else "")
    )
    for line in check.printed_lines():
        print(line)
    print(
        f"linear model vs the tuned document's evaluation: max deviation {float(np.max(deviation)):g}"
        + (f" (round {kept} of {rounds}: the lowest real error)" if rounds > 1 else "")
    )
    print(_table(result.params, [int(v) for v in original], result.new, shown))
    for label, indices in (
        ("too few positions depend on", [i for i in first.unsupported if i not in shown]),
        ("not linear in their number, left as they are:", [i for i in first.nonlinear if i not in shown]),
    ):
        if indices:
            print(f"not tuned ({label} {', '.join(result.params[i].name for i in indices)})")
    print(f"wrote {out} ({len(changes)} changed numbers)")

    if args.verify_games > 0:
        _verify(args, spec, out, tc, sprt)
    return 0


def _games(count: int) -> str:
    return "1 game" if count == 1 else f"{count} games"


@dataclass(frozen=True)
class HeldOut:
    """The out-of-sample check: the error of the original and the tuned numbers on held-out games."""

    fraction: float  # --holdout; 0: no check, and no line about it
    positions: int = 0  # held out (0: nothing could be held out)
    games: int = 0
    train_positions: int = 0
    train_games: int = 0
    before: float = 0.0  # mean squared error with the document's numbers
    after: float = 0.0  # with the tuned numbers

    @property
    def improved(self) -> bool:
        return self.after < self.before

    def header_lines(self) -> tuple[list[str], list[str]]:
        """(lines before the Fit line, lines after it)."""
        if self.fraction == 0:
            return [], []
        if not self.positions:
            return [], ["Held out: nothing (fewer than 2 games); the errors above are in-sample only."]
        split = (
            f"Split: {self.train_positions} positions of {_games(self.train_games)} to fit, "
            f"{self.positions} of {_games(self.games)} held out (--holdout {self.fraction:g}, whole games)."
        )
        held = (
            f"Held out: mean squared error {self.before:.6f} with the original numbers, {self.after:.6f} "
            f"with the tuned ones, on {self.positions} positions of {_games(self.games)}."
        )
        warning = ["Warning: the held-out error did not improve: the fit did not generalise."]
        return [split], [held, *([] if self.improved else warning)]

    def printed_lines(self) -> list[str]:
        if self.fraction == 0:
            return []
        if not self.positions:
            return ["held out: nothing (fewer than 2 games to split); no out-of-sample check"]
        lines = [
            f"held out: {self.positions} positions of {_games(self.games)}; mean squared error "
            f"{self.before:.6f} with the original numbers, {self.after:.6f} tuned"
        ]
        if not self.improved:
            lines.append(
                "warning: the fit did not generalise: the held-out error did not improve "
                f"({self.before:.6f} original, {self.after:.6f} tuned)"
            )
        return lines


def _held_out_check(
    fraction: float, train: list[Any], held: list[Any], variant: Any, tuned: Any, k: float
) -> HeldOut:
    """Both documents' own Evaluators on the held-out positions, with the K fitted on the training set."""
    import numpy as np

    from hordes.engine.evaluate import Evaluator
    from hordes.tune.positions import count_games
    from hordes.tune.texel import mse

    if not held:
        return HeldOut(fraction)
    fens = [p.fen for p in held]
    results = np.array([p.result for p in held], dtype=np.float64)
    before = mse(results, _white_scores(Evaluator(variant), variant, fens), k)
    after = mse(results, _white_scores(Evaluator(tuned), variant, fens), k)
    return HeldOut(fraction, len(held), count_games(held), len(train), count_games(train), before, after)


def _white_scores(ev: Any, variant: Any, fens: list[str]) -> Any:
    import numpy as np

    from hordes.core.position import Board

    out = np.empty(len(fens))
    for i, fen in enumerate(fens):
        board = Board(variant, fen)
        score = ev.evaluate(board)
        out[i] = score if board.side == 0 else -score
    return out


def _table(params: list[Any], old: list[int], new: list[int], tuned: list[int]) -> str:
    rows = [("parameter", "old", "new", "change")]
    for i in tuned:
        change = new[i] - old[i]
        rows.append((params[i].name, str(old[i]), str(new[i]), f"{change:+d}" if change else "="))
    widths = [max(len(r[c]) for r in rows) for c in range(4)]
    lines = []
    for n, r in enumerate(rows):
        lines.append(
            f"{r[0]:<{widths[0]}}  {r[1]:>{widths[1]}}  {r[2]:>{widths[2]}}  {r[3]:>{widths[3]}}".rstrip()
        )
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _sprt(values: list[float]) -> Any:
    from hordes.engine.match import Sprt

    elo0, elo1, alpha, beta = values
    if not (0 < alpha < 1 and 0 < beta < 1) or elo0 >= elo1:
        raise HordesError("--sprt: need ELO0 < ELO1 and 0 < ALPHA, BETA < 1")
    return Sprt(elo0, elo1, alpha, beta)


def _tc(text: str) -> Any:
    from hordes.engine.match import TimeControl

    return None if text.strip().lower() == "none" else TimeControl.parse(text)


def _verify(args: argparse.Namespace, spec: str, out: Path, tc: Any, sprt: Any) -> None:
    from hordes.engine.match import MatchConfig, elo_interval, print_progress, run_match, summary

    if args.verify_depth < 1:
        raise HordesError("--verify-depth must be at least 1")
    fixed = f",depth={args.verify_depth}" if tc is None else ""
    config = MatchConfig(
        player1=f"hordes:name=tuned,evalfile={out.resolve()}{fixed}",
        player2=f"hordes:name=original{fixed}",
        variant=spec,
        games=args.verify_games,
        tc=tc,
        concurrency=args.workers,
        sprt=sprt,
        seed=args.seed,
    )
    result = run_match(config, None if args.quiet else print_progress(config))
    if not args.quiet and sys.stderr.isatty():
        sys.stderr.write("\n")
    print()
    print(summary(config, result))
    t = result.tally
    decision = result.sprt_decision or f"no decision after {t.games} games"
    if t.wins + t.losses + t.draws and 0 < t.score < 1:
        lo, hi = elo_interval(t.wins, t.draws, t.losses)
        elo = f"{result.elo:+.1f} ± {result.error:.1f} (95 %: {lo:+.0f} to {hi:+.0f})"
    else:
        elo = "no estimate (every game won or every game lost)"
    print(f"tuned vs original: Elo {elo}; SPRT: {decision}")
