"""The plots of a balance report, drawn with matplotlib's Agg renderer (no display, no pyplot state).

Every plot uses the same colours for the same outcome: ivory for White's wins, near-black for Black's,
slate for draws. Figures are a fixed 800 pixels wide; the tables as bars grow in height with their rows.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

import matplotlib
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from hordes.balance.report import RESULT_LABELS, VariantReport

WHITE_COLOUR = "#efe6cc"
BLACK_COLOUR = "#2f2f2f"
DRAW_COLOUR = "#8da4be"
EDGE_COLOUR = "#4a4a4a"
ACCENT_COLOUR = "#c06a2b"
RESULT_COLOURS = {"1-0": WHITE_COLOUR, "0-1": BLACK_COLOUR, "1/2-1/2": DRAW_COLOUR}
DPI = 100
WIDTH_INCHES = 8.0
WIDTH_PX = int(WIDTH_INCHES * DPI)


@contextmanager
def _style() -> Iterator[None]:
    with matplotlib.rc_context(
        {
            "font.size": 11,
            "axes.titlesize": 13,
            "axes.titleweight": "bold",
            "axes.labelsize": 11,
            "legend.fontsize": 10,
            "axes.spines.top": False,
            "axes.spines.right": False,
            "axes.grid": True,
            "grid.color": "#dddddd",
            "grid.linewidth": 0.8,
            "axes.axisbelow": True,
        }
    ):
        yield


def _figure(height_inches: float) -> Figure:
    return Figure(figsize=(WIDTH_INCHES, height_inches), dpi=DPI, layout="constrained")


def _rows_height(rows: int) -> float:
    return max(3.2, 1.6 + 0.42 * rows)


def _short(text: str, limit: int = 44) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def results_figure(section: VariantReport) -> Figure:
    """White wins, Black wins and draws as rates, with their Wilson intervals as error bars."""
    with _style():
        fig = _figure(4.5)
        ax = fig.add_subplot()
        rates = (section.white, section.black, section.draws)
        labels = [RESULT_LABELS[r] for r in RESULT_COLOURS]
        heights = [100 * r.value for r in rates]
        below = [100 * (r.value - r.ci.low) for r in rates]
        above = [100 * (r.ci.high - r.value) for r in rates]
        ax.bar(
            labels,
            heights,
            color=list(RESULT_COLOURS.values()),
            edgecolor=EDGE_COLOUR,
            linewidth=1,
            width=0.6,
            yerr=[below, above],
            capsize=8,
            error_kw={"elinewidth": 1.5, "ecolor": ACCENT_COLOUR},
        )
        for x, (r, top) in enumerate(zip(rates, above, strict=True)):
            ax.annotate(
                f"{100 * r.value:.1f} %\n({r.count})",
                (x, 100 * r.value + top),
                xytext=(0, 4),
                textcoords="offset points",
                ha="center",
                va="bottom",
            )
        ax.set_ylim(0, 100 if max(h + a for h, a in zip(heights, above, strict=True)) < 80 else 118)
        ax.set_ylabel("share of finished games (%)")
        ax.set_title(f"{section.title}: results of {section.games} games")
        ax.grid(axis="x", visible=False)
        ax.set_xlabel("error bars: 95 % Wilson score intervals", fontsize=9, color="#555555")
    return fig


def _stacked_rows(ax: Axes, labels: Sequence[str], counts: Mapping[str, Sequence[int]]) -> None:
    """Horizontal bars, one per label, stacked by result; the first label at the top."""
    y = list(range(len(labels)))[::-1]
    left = [0] * len(labels)
    for result, colour in RESULT_COLOURS.items():
        values = counts[result]
        ax.barh(
            y, values, left=left, color=colour, edgecolor=EDGE_COLOUR, linewidth=0.8, height=0.65,
            label=RESULT_LABELS[result],
        )  # fmt: skip
        left = [a + b for a, b in zip(left, values, strict=True)]
    for row, total in zip(y, left, strict=True):
        ax.annotate(str(total), (total, row), xytext=(4, 0), textcoords="offset points", va="center")
    ax.set_yticks(y, [_short(label) for label in labels])
    ax.set_xlim(0, max(left, default=1) * 1.12 + 0.5)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(axis="y", visible=False)


def terminations_figure(section: VariantReport) -> Figure:
    """How the games ended, each ending's bar split by who won."""
    rows = section.terminations
    with _style():
        fig = _figure(_rows_height(len(rows)))
        ax = fig.add_subplot()
        counts = {
            "1-0": [t.white for t in rows],
            "0-1": [t.black for t in rows],
            "1/2-1/2": [t.draws for t in rows],
        }
        _stacked_rows(ax, [t.name for t in rows], counts)
        ax.set_xlabel("games")
        ax.set_title(f"{section.title}: how the games ended")
        ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
    return fig


def _length_bins(lengths: Sequence[int]) -> list[float]:
    """Bin edges on whole plies, at most about 30 bins; each bin is centred on whole numbers."""
    low, high = min(lengths), max(lengths)
    width = max(1, math.ceil((high - low + 1) / 30))
    count = (high - low) // width + 1
    return [low - 0.5 + i * width for i in range(count + 1)]


def lengths_figure(section: VariantReport) -> Figure:
    """Histogram of game lengths in plies, stacked by result, with the median marked."""
    with _style():
        fig = _figure(4.5)
        ax = fig.add_subplot()
        results = [r for r in RESULT_COLOURS if section.plies[r]]
        ax.hist(
            [section.plies[r] for r in results],
            bins=_length_bins(section.plies["all"]),
            stacked=True,
            color=[RESULT_COLOURS[r] for r in results],
            edgecolor=EDGE_COLOUR,
            linewidth=0.6,
            label=[RESULT_LABELS[r] for r in results],
        )
        overall = section.lengths["all"]
        if overall is not None:
            ax.axvline(overall.median, color=ACCENT_COLOUR, linestyle="--", linewidth=1.5)
            ax.annotate(
                f"median {overall.median:g}", (overall.median, 1.0), xycoords=("data", "axes fraction"),
                xytext=(4, -4), textcoords="offset points", va="top", color=ACCENT_COLOUR,
            )  # fmt: skip
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("game length (plies)")
        ax.set_ylabel("games")
        ax.set_title(f"{section.title}: game length by result")
        ax.grid(axis="x", visible=False)
        ax.legend(frameon=False)
    return fig


def openings_figure(section: VariantReport) -> Figure:
    """White's score after each of the most common openings, with the number of games played."""
    rows = section.openings
    with _style():
        fig = _figure(_rows_height(len(rows)))
        ax = fig.add_subplot()
        y = list(range(len(rows)))[::-1]
        scores = [100 * o.score for o in rows]
        # Each opening's 95 % interval as an error bar: with a few games per opening it is wide.
        below = [value - 100 * o.score_ci.low for o, value in zip(rows, scores, strict=True)]
        above = [100 * o.score_ci.high - value for o, value in zip(rows, scores, strict=True)]
        ax.barh(y, scores, color=ACCENT_COLOUR, alpha=0.85, height=0.65)
        ax.errorbar(scores, y, xerr=[below, above], fmt="none", ecolor=EDGE_COLOUR, capsize=3, linewidth=1)
        for row, o, value in zip(y, rows, scores, strict=True):
            games = f"{o.games} {'game' if o.games == 1 else 'games'}"
            ax.annotate(  # beyond the error bar, so the two do not overlap
                f"{value:.0f} %  ({games})", (100 * o.score_ci.high, row),
                xytext=(4, 0), textcoords="offset points", va="center", fontsize=9,
            )  # fmt: skip
        ax.axvline(50, color=EDGE_COLOUR, linewidth=1)
        ax.axvline(100 * section.score, color=ACCENT_COLOUR, linestyle=":", linewidth=1.5)
        ax.set_yticks(y, [_short(o.label) for o in rows])
        ax.set_xlim(0, 135)
        ax.set_xticks([0, 25, 50, 75, 100])
        ax.set_xlabel(
            f"White's score (%) with 95 % intervals; dotted line: all games ({100 * section.score:.0f} %)"
        )
        ax.set_title(f"{section.title}: White's score by opening")
        ax.grid(axis="y", visible=False)
    return fig


_FIGURES = {
    "results": results_figure,
    "terminations": terminations_figure,
    "lengths": lengths_figure,
    "openings": openings_figure,
}
PLOT_KINDS = tuple(_FIGURES)


def plot_name(section: VariantReport, kind: str) -> str:
    return f"{section.slug}-{kind}.png"


def write_plots(section: VariantReport, out_dir: Path) -> dict[str, Path]:
    """Draw the section's plots as PNG files in out_dir; returns them by kind (none without games)."""
    if section.games == 0:
        return {}
    paths: dict[str, Path] = {}
    for kind, draw in _FIGURES.items():
        if kind == "openings" and not section.openings:
            continue
        path = out_dir / plot_name(section, kind)
        draw(section).savefig(path, dpi=DPI)
        paths[kind] = path
    return paths
