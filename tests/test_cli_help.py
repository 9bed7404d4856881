"""Issue 16 point 10: `hordes --help` gives every subcommand a one-line summary, each subcommand's
own `--help` starts with a description, and no help text shows argparse's `%%` escape."""

from __future__ import annotations

import argparse
import re

import pytest

from hordes.cli import build_parser


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_p10_every_subcommand_has_a_one_line_summary(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")  # argparse wraps to the terminal's width
    parser = build_parser()
    text = parser.format_help()
    block = text.split("  COMMAND\n", 1)[1].split("\n\n", 1)[0].splitlines()
    names = list(_subcommands(parser))
    assert len(names) >= 12
    # One line per subcommand, in order: its name and its summary, with no line wrapped onto the next.
    assert [line.split()[0] for line in block] == names, block
    for line in block:
        assert re.match(r"^    \S+ +\S", line) and len(line) <= 80, line


def test_p10_every_subcommand_help_starts_with_a_description(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    for name, sub in _subcommands(build_parser()).items():
        assert sub.description, f"hordes {name} has no description"
        text = sub.format_help()
        assert "%%" not in text, f"hordes {name} --help shows an escaped %"
        assert text.split("\n\n")[1].strip(), name


def test_p10_balance_help_shows_a_plain_percent_sign(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # the phrase on one line
    text = _subcommands(build_parser())["balance"].format_help()
    assert "95 % Wilson intervals" in text
