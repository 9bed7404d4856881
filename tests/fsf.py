"""The Fairy-Stockfish oracle (PyPI pyffish) with the project's Orda and Khan's Chess definitions,
and the Orda definition for Debian's fairy-stockfish 11.1 program.

Load the configuration before any call that names orda or khans: asking pyffish about a variant it
does not know kills the process.
"""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
# Orda and Khan's Chess for pyffish (a recent Fairy-Stockfish).
ORACLE_INI = DATA / "orda.ini"
# Orda for Debian's /usr/games/fairy-stockfish 11.1, which reads older key names (see the file).
DEBIAN_INI = DATA / "orda-debian.ini"
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
    import pyffish  # here, so that DEBIAN_INI can be imported without the binding (benchmarks/)

    global _loaded
    if not _loaded:
        pyffish.load_variant_config(ORACLE_INI.read_text() + EXTRA_INI)
        _loaded = True
    return pyffish


KNOWN = {"chess", "orda", "khans"}
