"""The Fairy-Stockfish oracle (PyPI pyffish) with the project's Orda and Khan's Chess definitions.

Load the configuration before any call that names orda or khans: asking pyffish about a variant it
does not know kills the process.
"""

from __future__ import annotations

from pathlib import Path

import pyffish

ORACLE_INI = Path(__file__).resolve().parents[2] / "shared" / "oracle" / "orda.ini"
_LOCAL_INI = Path(__file__).parent / "data" / "orda.ini"
_loaded = False
# A small board, for the tests of documents that are not 8x8 (tests/test_variant_documents.py).
EXTRA_INI = """
[minitest:chess]
maxRank = 6
maxFile = f
startFen = rnbqkr/pppppp/6/6/PPPPPP/RNBQKR w - - 0 1
castling = false
doubleStep = false
promotionRegionWhite = *6
promotionRegionBlack = *1
"""


def oracle() -> object:
    """pyffish, with the variant configuration loaded once."""
    global _loaded
    if not _loaded:
        path = ORACLE_INI if ORACLE_INI.is_file() else _LOCAL_INI
        pyffish.load_variant_config(path.read_text() + EXTRA_INI)
        _loaded = True
    return pyffish


KNOWN = {"chess", "orda", "khans"}
