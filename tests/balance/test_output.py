"""The report as files: index.html and report.md referencing PNG plots that really show something."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from matplotlib import image
from matplotlib.colors import to_rgb

from hordes.balance.collect import collect
from hordes.balance.output import write_report
from hordes.balance.plots import BLACK_COLOUR, DRAW_COLOUR, PLOT_KINDS, WHITE_COLOUR, WIDTH_PX
from hordes.balance.report import summarise

DATA = Path(__file__).parent / "data"
PLOTS = [f"{slug}-{kind}.png" for slug in ("chess", "orda") for kind in PLOT_KINDS]


@pytest.fixture(scope="module")
def out_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("balance") / "report"  # not there yet: write_report creates it
    files = write_report(summarise(collect([DATA])), out)
    assert [f.name for f in files[:2]] == ["index.html", "report.md"]
    assert sorted(f.name for f in files[2:]) == sorted(PLOTS)
    return out


def _pixels(path: Path) -> np.ndarray:
    pixels = np.asarray(image.imread(path))
    assert pixels.ndim == 3 and pixels.shape[2] in (3, 4), path.name
    return pixels[:, :, :3]


def _has_colour(pixels: np.ndarray, colour: str) -> bool:
    target = np.array(to_rgb(colour))
    return bool((np.abs(pixels - target).max(axis=2) < 0.02).sum() > 200)


def test_html_page_references_every_plot(out_dir: Path) -> None:
    page = (out_dir / "index.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert "<script" not in page and "<link" not in page  # self-contained: inline CSS, no JS
    sources = re.findall(r'<img src="([^"]+)"', page)
    assert sorted(sources) == sorted(PLOTS)
    for name in sources:
        assert (out_dir / name).is_file()
    assert "Wilson score intervals" in page
    assert '<section id="chess">' in page and '<section id="orda">' in page
    assert "<td>1. e4 e5 2. Nf3 Nc6</td>" in page
    assert "chess.pgn, game 10: illegal move" in page


def test_markdown_links_every_plot(out_dir: Path) -> None:
    text = (out_dir / "report.md").read_text(encoding="utf-8")
    assert text.startswith("# Balance report\n")
    assert sorted(re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)) == sorted(PLOTS)
    assert "## Chess: 8 games (and 1 unfinished, not counted)" in text
    assert "| White wins | 2 | 25.0 % | 7.1–59.1 % |" in text
    assert "| checkmate * | 2 | 1 | 1 | 0 |" in text


@pytest.mark.parametrize("name", PLOTS)
def test_plot_is_a_real_picture(out_dir: Path, name: str) -> None:
    path = out_dir / name
    assert path.stat().st_size > 5000
    pixels = _pixels(path)
    height, width = pixels.shape[:2]
    assert width == WIDTH_PX
    if name.endswith(("-results.png", "-lengths.png")):
        assert height == 450
    else:  # one bar per row: the height grows with the rows
        assert 320 <= height <= 1000
    assert float(pixels.std()) > 0.05, "a flat picture"
    rgb = np.round(pixels * 255).astype(np.uint32)
    packed = rgb[:, :, 0] << 16 | rgb[:, :, 1] << 8 | rgb[:, :, 2]
    assert len(np.unique(packed)) > 50, "hardly any colours: no text or anti-aliasing"


@pytest.mark.parametrize("slug", ["chess", "orda"])
def test_results_plots_use_the_result_colours(out_dir: Path, slug: str) -> None:
    for kind in ("results", "terminations", "lengths"):
        pixels = _pixels(out_dir / f"{slug}-{kind}.png")
        for colour in (WHITE_COLOUR, BLACK_COLOUR, DRAW_COLOUR):
            assert _has_colour(pixels, colour), (kind, colour)
