"""Subcommand `hordes selfplay` (being written)."""

from __future__ import annotations

from typing import Any


def register(subparsers: Any) -> None:
    """Filled in by the selfplay module."""
