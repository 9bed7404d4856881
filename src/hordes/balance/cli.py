"""Subcommand `hordes balance` (being written)."""

from __future__ import annotations

from typing import Any


def register(subparsers: Any) -> None:
    """Filled in by the balance module."""
