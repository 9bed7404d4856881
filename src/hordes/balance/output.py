"""The balance report as files: an HTML page and a Markdown page, both next to their PNG plots.

The HTML page needs nothing but its images: the style sheet is inline and there is no script. The
Markdown page carries the same tables, with the images linked, for publishing with the docs.
"""

from __future__ import annotations

import html
import os
from collections.abc import Sequence
from pathlib import Path

from hordes.balance.plots import BLACK_COLOUR, DRAW_COLOUR, WHITE_COLOUR, write_plots
from hordes.balance.report import (
    INTERVAL_NOTE,
    SCORE_NOTE,
    Report,
    VariantReport,
    elo_interval,
    elo_text,
    games_text,
    headline,
    ini_note,
    length_rows,
    percent,
    percent_interval,
    plies_text,
    verdict,
)

Plots = dict[str, dict[str, Path]]  # variant slug -> plot kind -> file
_CAPTIONS = {
    "results": "Results with 95 % Wilson intervals",
    "terminations": "How the games ended, by winner",
    "lengths": "Game length in plies, by result",
    "openings": "White's score by opening",
}
_CSS = """
body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #222; background: #fafaf7;
       margin: 0; }
main { max-width: 860px; margin: 0 auto; padding: 1.5rem; }
h1 { margin-bottom: 0.2rem; }
h2 { border-bottom: 2px solid #ddd; padding-bottom: 0.2rem; margin-top: 2.5rem; }
h3 { margin-top: 1.8rem; }
.note { color: #666; font-size: 0.9rem; }
.verdict { font-weight: 600; }
table { border-collapse: collapse; margin: 0.6rem 0 1rem; font-variant-numeric: tabular-nums; }
th, td { padding: 0.25rem 0.7rem; border-bottom: 1px solid #e2e2dc; }
th { text-align: left; background: #efefe9; }
td.n { text-align: right; }
.swatch { display: inline-block; width: 0.9em; height: 0.9em; margin-right: 0.4em; vertical-align: -0.1em;
          border: 1px solid #555; }
figure { margin: 0.8rem 0 1.5rem; }
figure img { max-width: 100%; height: auto; border: 1px solid #e2e2dc; background: #fff; }
figcaption { color: #666; font-size: 0.9rem; }
"""
_SWATCHES = {"White wins": WHITE_COLOUR, "Black wins": BLACK_COLOUR, "Draws": DRAW_COLOUR}


def write_all_plots(report: Report, out_dir: Path) -> Plots:
    out_dir.mkdir(parents=True, exist_ok=True)
    return {section.slug: write_plots(section, out_dir) for section in report.variants}


def write_report(report: Report, out_dir: str | os.PathLike[str]) -> list[Path]:
    """The plots, index.html and report.md in out_dir (created if need be); returns the files."""
    out = Path(out_dir)
    plots = write_all_plots(report, out)
    pages = [write_html(report, out, plots), write_markdown(report, out, plots)]
    return pages + [p for kinds in plots.values() for p in kinds.values()]


# ----- the rows every rendering shows ----------------------------------------------------------
def _result_rows(section: VariantReport) -> list[list[str]]:
    rates = (("White wins", section.white), ("Black wins", section.black), ("Draws", section.draws))
    return [[label, str(r.count), percent(r.value), percent_interval(r.ci)] for label, r in rates]


def _score_row(section: VariantReport) -> list[str]:
    return [
        "White's score",
        "",
        percent(section.score),
        f"{percent_interval(section.score_ci)} ({elo_text(section.elo)} Elo, {elo_interval(section.elo_ci)})",
    ]


def _termination_rows(section: VariantReport) -> list[list[str]]:
    return [
        [t.name + (" *" if t.inferred else ""), str(t.total), str(t.white), str(t.black), str(t.draws)]
        for t in section.terminations
    ]


def _length_table(section: VariantReport) -> list[list[str]]:
    return [
        [label, str(s.count), str(s.minimum), plies_text(s.q1), plies_text(s.median), plies_text(s.q3),
         f"{s.mean:.1f}", str(s.maximum)]
        for label, s in length_rows(section)
    ]  # fmt: skip


def _opening_rows(section: VariantReport) -> list[list[str]]:
    return [
        [
            o.label,
            str(o.games),
            percent(o.score),
            percent_interval(o.score_ci),
            f"{o.white} / {o.draws} / {o.black}",
        ]
        for o in section.openings
    ]


_RESULT_HEADER = ["", "games", "rate", "95 % CI"]
_TERMINATION_HEADER = ["termination", "games", "White won", "Black won", "drawn"]
_LENGTH_HEADER = ["", "games", "min", "Q1", "median", "Q3", "mean", "max"]
_OPENING_HEADER = ["opening", "games", "White's score", "95 % CI", "W / D / B"]


def _inferred_note(section: VariantReport) -> str:
    n = section.inferred_terminations
    if not n:
        return ""
    return (
        f"Marked *: {games_text(n)} without a Termination tag, whose ending was read from the final position."
    )


def _openings_heading(section: VariantReport) -> str:
    return (
        f"Openings: the {len(section.openings)} most common of {section.distinct_openings} "
        f"(first {section.opening_plies} plies)"
    )


# ----- HTML ------------------------------------------------------------------------------------
def _html_table(header: Sequence[str], rows: Sequence[Sequence[str]], swatches: bool = False) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = []
    for row in rows:
        cells = []
        for i, cell in enumerate(row):
            text = html.escape(cell)
            if i == 0:
                colour = _SWATCHES.get(cell) if swatches else None
                swatch = f'<span class="swatch" style="background:{colour}"></span>' if colour else ""
                cells.append(f"<td>{swatch}{text}</td>")
            else:
                cells.append(f'<td class="n">{text}</td>')
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table>\n<tr>{head}</tr>\n" + "\n".join(body) + "\n</table>"


def _html_figure(plots: dict[str, Path], kind: str, section: VariantReport) -> str:
    path = plots.get(kind)
    if path is None:
        return ""
    caption = f"{section.title}: {_CAPTIONS[kind]}"
    src = html.escape(path.name, quote=True)
    return (
        f'<figure><img src="{src}" alt="{html.escape(caption, quote=True)}">'
        f"<figcaption>{html.escape(_CAPTIONS[kind])}</figcaption></figure>"
    )


def render_html(report: Report, plots: Plots) -> str:
    esc = html.escape
    parts = [
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>Balance report</title>\n<style>{_CSS}</style>\n</head>\n<body>\n<main>",
        "<h1>Balance report</h1>",
        f"<p>{esc(games_text(report.games))} from {esc(', '.join(report.sources))}.</p>",
        f'<p class="note">{esc(INTERVAL_NOTE)}. {esc(SCORE_NOTE)}</p>',
    ]
    if report.inis:
        parts.append(f"<p>{esc(ini_note(report))}</p>")
    if report.broken:
        parts.append(f"<p>Broken and left out: {esc(games_text(len(report.broken)))}.</p>\n<ul>")
        parts.extend(f"<li>{esc(str(b))}</li>" for b in report.broken)
        parts.append("</ul>")
    if len(report.variants) > 1:
        links = " · ".join(f'<a href="#{esc(s.slug)}">{esc(s.title)}</a>' for s in report.variants)
        parts.append(f"<nav>Variants: {links}</nav>")
    for section in report.variants:
        shown = plots.get(section.slug, {})
        parts.append(f'<section id="{esc(section.slug)}">\n<h2>{esc(headline(section))}</h2>')
        parts.append(f'<p class="verdict">{esc(verdict(section))}</p>')
        if section.games:
            parts.append("<h3>Results</h3>")
            parts.append(_html_table(_RESULT_HEADER, [*_result_rows(section), _score_row(section)], True))
            parts.append(_html_figure(shown, "results", section))
            parts.append("<h3>Endings</h3>")
            parts.append(_html_table(_TERMINATION_HEADER, _termination_rows(section)))
            if note := _inferred_note(section):
                parts.append(f'<p class="note">{esc(note)}</p>')
            parts.append(_html_figure(shown, "terminations", section))
            parts.append("<h3>Game length (plies)</h3>")
            parts.append(_html_table(_LENGTH_HEADER, _length_table(section), True))
            parts.append(_html_figure(shown, "lengths", section))
            parts.append(f"<h3>{esc(_openings_heading(section))}</h3>")
            parts.append(_html_table(_OPENING_HEADER, _opening_rows(section)))
            parts.append(_html_figure(shown, "openings", section))
        parts.append("</section>")
    parts.append("</main>\n</body>\n</html>\n")
    return "\n".join(p for p in parts if p)


def write_html(report: Report, out_dir: str | os.PathLike[str], plots: Plots | None = None) -> Path:
    """index.html in out_dir, drawing the plots first unless they are given."""
    out = Path(out_dir)
    if plots is None:
        plots = write_all_plots(report, out)
    path = out / "index.html"
    path.write_text(render_html(report, plots), encoding="utf-8")
    return path


# ----- Markdown --------------------------------------------------------------------------------
def _md_cell(text: str) -> str:
    return text.replace("|", "\\|") or " "


def _md_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(_md_cell(h) for h in header) + " |"]
    lines.append("|" + "|".join(":--" if i == 0 else "--:" for i in range(len(header))) + "|")
    lines.extend("| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows)
    return "\n".join(lines)


def _md_figure(plots: dict[str, Path], kind: str) -> str:
    path = plots.get(kind)
    return f"![{_CAPTIONS[kind]}]({path.name})" if path is not None else ""


def render_markdown(report: Report, plots: Plots) -> str:
    parts = [
        "# Balance report",
        f"{games_text(report.games)} from {', '.join(f'`{s}`' for s in report.sources)}.",
        f"{INTERVAL_NOTE}. {SCORE_NOTE}",
    ]
    if report.inis:
        parts.append(ini_note(report))
    if report.broken:
        items = "\n".join(f"- {b}" for b in report.broken)
        parts.append(f"Broken and left out: {games_text(len(report.broken))}.\n\n{items}")
    for section in report.variants:
        shown = plots.get(section.slug, {})
        parts += [f"## {headline(section)}", f"**{verdict(section)}**"]
        if not section.games:
            continue
        parts += [
            "### Results",
            _md_table(_RESULT_HEADER, [*_result_rows(section), _score_row(section)]),
            _md_figure(shown, "results"),
            "### Endings",
            _md_table(_TERMINATION_HEADER, _termination_rows(section)),
            _inferred_note(section),
            _md_figure(shown, "terminations"),
            "### Game length (plies)",
            _md_table(_LENGTH_HEADER, _length_table(section)),
            _md_figure(shown, "lengths"),
            f"### {_openings_heading(section)}",
            _md_table(_OPENING_HEADER, _opening_rows(section)),
            _md_figure(shown, "openings"),
        ]
    return "\n\n".join(p for p in parts if p) + "\n"


def write_markdown(report: Report, out_dir: str | os.PathLike[str], plots: Plots | None = None) -> Path:
    """report.md in out_dir, drawing the plots first unless they are given."""
    out = Path(out_dir)
    if plots is None:
        plots = write_all_plots(report, out)
    path = out / "report.md"
    path.write_text(render_markdown(report, plots), encoding="utf-8")
    return path
