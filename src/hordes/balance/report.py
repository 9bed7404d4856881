"""The balance report: what `summarise` computes from the games, and its rendering as terminal text.

One section per variant. Only finished games (1-0, 0-1, 1/2-1/2) enter the statistics; unfinished
ones (`*`) are counted apart, and broken ones are listed by the reader and left out.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from hordes.balance.collect import FINISHED, BalanceData, BrokenGame, GameRecord, count_by_result
from hordes.balance.stats import (
    Interval,
    LengthStats,
    Rate,
    elo_from_score,
    length_stats,
    rate,
    score_interval,
)

RESULT_LABELS = {"1-0": "White wins", "0-1": "Black wins", "1/2-1/2": "Draws"}
INTERVAL_NOTE = "95 % confidence intervals: Wilson score intervals"
SCORE_NOTE = (
    "White's score counts a draw as half a point; its interval is the Wilson interval with the "
    "variance of a game that can be drawn, and the Elo figures convert score and bounds with "
    "400·log10(s/(1-s))."
)


@dataclass(frozen=True, slots=True)
class TerminationRow:
    """How many games ended this way, by winner; `inferred` of them had no Termination tag."""

    name: str
    white: int
    black: int
    draws: int
    inferred: int

    @property
    def total(self) -> int:
        return self.white + self.black + self.draws


@dataclass(frozen=True, slots=True)
class OpeningRow:
    """The games that began with `line` (from `start_fen` when that is not the variant's start)."""

    line: str
    start_fen: str | None
    white: int
    black: int
    draws: int

    @property
    def games(self) -> int:
        return self.white + self.black + self.draws

    @property
    def score(self) -> float:
        return (self.white + self.draws / 2) / self.games if self.games else 0.0

    @property
    def score_ci(self) -> Interval:
        """White's score's 95 % interval over these games (wide: most openings have few games)."""
        return score_interval(self.white, self.draws, self.black)

    @property
    def label(self) -> str:
        line = self.line or "(no moves)"
        return f"[{self.start_fen}] {line}" if self.start_fen else line


@dataclass(frozen=True, slots=True)
class VariantReport:
    """The statistics of one variant's finished games. `lengths` and `plies` are keyed by "all" and
    by result; `openings` holds the `top` most common of `distinct_openings` openings."""

    slug: str
    title: str
    games: int
    unfinished: int
    white: Rate
    black: Rate
    draws: Rate
    score: float
    score_ci: Interval
    elo: float
    elo_ci: Interval
    terminations: tuple[TerminationRow, ...]
    inferred_terminations: int
    lengths: dict[str, LengthStats | None]
    plies: dict[str, tuple[int, ...]]
    openings: tuple[OpeningRow, ...]
    distinct_openings: int
    opening_plies: int


@dataclass(frozen=True, slots=True)
class Report:
    sources: tuple[str, ...]
    broken: tuple[BrokenGame, ...]
    variants: tuple[VariantReport, ...]
    opening_plies: int
    top: int
    inis: tuple[str, ...] = ()  # the Fairy-Stockfish inis the games were played from (their tags)

    @property
    def games(self) -> int:
        return sum(v.games + v.unfinished for v in self.variants)


def _wdb(o: OpeningRow) -> str:
    return f"{o.white}/{o.draws}/{o.black}"


def summarise(data: BalanceData, top: int = 10) -> Report:
    """The report on the collected games: one section per variant, most games first."""
    by_variant: dict[str, list[GameRecord]] = defaultdict(list)
    for game in data.games:
        by_variant[game.variant].append(game)
    sections = tuple(
        summarise_variant(slug, data.titles.get(slug, slug), by_variant[slug], data.opening_plies, top)
        for slug in data.variants()
    )
    inis = tuple(sorted(data.inis))
    return Report(tuple(data.sources), tuple(data.broken), sections, data.opening_plies, top, inis)


def summarise_variant(
    slug: str, title: str, records: Sequence[GameRecord], opening_plies: int, top: int
) -> VariantReport:
    finished = [g for g in records if g.finished]
    n = len(finished)
    white, draws, black = count_by_result(finished)
    score = (white + draws / 2) / n if n else 0.5
    score_ci = score_interval(white, draws, black)
    plies: dict[str, tuple[int, ...]] = {"all": tuple(g.plies for g in finished)}
    for result in FINISHED:
        plies[result] = tuple(g.plies for g in finished if g.result == result)
    openings = _openings(finished)
    return VariantReport(
        slug=slug,
        title=title,
        games=n,
        unfinished=len(records) - n,
        white=rate(white, n),
        black=rate(black, n),
        draws=rate(draws, n),
        score=score,
        score_ci=score_ci,
        elo=elo_from_score(score),
        elo_ci=Interval(elo_from_score(score_ci.low), elo_from_score(score_ci.high)),
        terminations=_terminations(finished),
        inferred_terminations=sum(1 for g in finished if g.termination_inferred),
        lengths={key: length_stats(values) for key, values in plies.items()},
        plies=plies,
        openings=tuple(openings[:top]),
        distinct_openings=len(openings),
        opening_plies=opening_plies,
    )


def _terminations(finished: Sequence[GameRecord]) -> tuple[TerminationRow, ...]:
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    inferred: Counter[str] = Counter()
    for g in finished:
        counts[g.termination][g.result] += 1
        inferred[g.termination] += g.termination_inferred
    rows = [
        TerminationRow(name, c["1-0"], c["0-1"], c["1/2-1/2"], inferred[name]) for name, c in counts.items()
    ]
    rows.sort(key=lambda r: (-r.total, r.name))
    return tuple(rows)


def _openings(finished: Sequence[GameRecord]) -> list[OpeningRow]:
    """Every opening, most played first (ties: White's best score first, then alphabetically)."""
    counts: dict[tuple[str | None, str], Counter[str]] = defaultdict(Counter)
    for g in finished:
        counts[g.start_fen, g.opening][g.result] += 1
    rows = [OpeningRow(line, fen, c["1-0"], c["0-1"], c["1/2-1/2"]) for (fen, line), c in counts.items()]
    rows.sort(key=lambda r: (-r.games, -r.score, r.start_fen or "", r.line))
    return rows


# ----- formatting shared by the text, HTML and Markdown renderings -------------------------------
def percent(value: float) -> str:
    return f"{100 * value:.1f} %"


def percent_interval(ci: Interval) -> str:
    return f"{100 * ci.low:.1f}–{100 * ci.high:.1f} %"


def elo_text(value: float) -> str:
    if math.isinf(value):
        return "+∞" if value > 0 else "-∞"
    return f"{value:+.0f}"


def elo_interval(ci: Interval) -> str:
    return f"{elo_text(ci.low)} to {elo_text(ci.high)}"


def plies_text(value: float) -> str:
    """A length: whole numbers as such, interpolated quartiles with the decimals they need (at most 2)."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def games_text(n: int) -> str:
    return f"{n} game" if n == 1 else f"{n} games"


def headline(section: VariantReport) -> str:
    extra = f" (and {section.unfinished} unfinished, not counted)" if section.unfinished else ""
    return f"{section.title}: {games_text(section.games)}{extra}"


def verdict(section: VariantReport) -> str:
    """One sentence on the first-move advantage, saying whether 50 % lies inside the interval."""
    if section.games == 0:
        return "No finished games: nothing to say about balance."
    ci = section.score_ci
    if ci.low > 0.5:
        side = "White is favoured"
    elif ci.high < 0.5:
        side = "Black is favoured"
    else:
        side = "No significant first-move advantage"
    return (
        f"{side}: White scores {percent(section.score)} (95 % CI {percent_interval(ci)}), "
        f"worth {elo_text(section.elo)} Elo (CI {elo_interval(section.elo_ci)})."
    )


def length_rows(section: VariantReport) -> list[tuple[str, LengthStats]]:
    labels = {"all": "All games", **RESULT_LABELS}
    return [(labels[key], stats) for key, stats in section.lengths.items() if stats is not None]


# ----- text --------------------------------------------------------------------------------------
def _table(header: Sequence[str], rows: Sequence[Sequence[str]], left: int = 1, indent: str = "  ") -> str:
    """Columns padded to their widest cell: the first `left` columns left-aligned, the rest right."""
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        parts = [
            c.ljust(w) if i < left else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return (indent + "  ".join(parts)).rstrip()

    return "\n".join([line(header), *(line(r) for r in rows)])


def ini_note(report: Report) -> str:
    return "Fairy-Stockfish played from ini " + ", ".join(report.inis) + "."


def render_text(report: Report) -> str:
    """The report for a terminal: plain text, columns aligned."""
    out: list[str] = []
    sources = ", ".join(report.sources)
    out.append(f"Balance report on {sources}: {games_text(report.games)}")
    if report.broken:
        # The CLI lists them on standard error, where they do not mix with the report.
        n = len(report.broken)
        out.append(f"{games_text(n)} could not be read and {'is' if n == 1 else 'are'} left out.")
    if report.inis:
        out.append(ini_note(report))
    out.append(INTERVAL_NOTE + ".")
    for section in report.variants:
        out.append("")
        out.extend(_section_text(section))
    return "\n".join(out) + "\n"


def _section_text(section: VariantReport) -> list[str]:
    title = headline(section)
    out = [title, "=" * len(title)]
    if section.games == 0:
        out.append(verdict(section))
        return out
    results = [
        (label, str(r.count), percent(r.value), percent_interval(r.ci))
        for label, r in (
            ("White wins", section.white),
            ("Black wins", section.black),
            ("Draws", section.draws),
        )
    ]
    out += ["", "Results"]
    out.append(_table(("", "games", "rate", "95 % CI"), results))
    out.append("  " + verdict(section))

    out += ["", "Endings"]
    endings = [
        (t.name + ("*" if t.inferred else ""), str(t.total), str(t.white), str(t.black), str(t.draws))
        for t in section.terminations
    ]
    out.append(_table(("termination", "games", "White won", "Black won", "drawn"), endings))
    if section.inferred_terminations:
        out.append(
            f"  marked *: {games_text(section.inferred_terminations)} without a Termination tag, "
            "whose ending was read from the final position"
        )

    out += ["", "Game length in plies"]
    lengths = [
        (
            label,
            str(s.count),
            str(s.minimum),
            plies_text(s.q1),
            plies_text(s.median),
            plies_text(s.q3),
            f"{s.mean:.1f}",
            str(s.maximum),
        )
        for label, s in length_rows(section)
    ]
    out.append(_table(("", "games", "min", "Q1", "median", "Q3", "mean", "max"), lengths))

    shown = len(section.openings)
    heading = f"Openings: the {shown} most common of {section.distinct_openings}"
    out += ["", f"{heading}, first {section.opening_plies} plies"]
    openings = [
        (
            o.label,
            str(o.games),
            percent(o.score),
            percent_interval(o.score_ci),
            f"{o.white}/{o.draws}/{o.black}",
        )
        for o in section.openings
    ]
    out.append(_table(("opening", "games", "White's score", "95 % CI", "W/D/B"), openings))
    return out
