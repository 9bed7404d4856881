"""The Fairy-Stockfish oracle (PyPI pyffish), taught Orda and Khan's Chess by our export of their
documents (hordes.fsf), plus the hand-written definitions kept as an independent reading of the rules.

The differential suites compare hordes with this oracle. Since the oracle's Orda and Khan's Chess now
come from our own documents, one cheap test (tests/test_fsf_export.py) checks that the hand-written
tests/data/orda.ini, loaded beside them under other names, gives the same perft: so the suites still
rest on a reading of the rules that does not come from our documents.

Load the configuration before any call that names orda or khans: asking pyffish about a variant it
does not know kills the process.
"""

from __future__ import annotations

from pathlib import Path

from hordes.fsf.export import CURRENT, export_variants, ini_id
from hordes.variants import load_variant

DATA = Path(__file__).resolve().parent / "data"
# Hand-written Orda and Khan's Chess for a recent Fairy-Stockfish, and Orda for Debian's 11.1 (which
# reads older key names, see the file): independent checks of the export, nothing else uses them.
HANDWRITTEN_INI = DATA / "orda.ini"
HANDWRITTEN_DEBIAN_INI = DATA / "orda-debian.ini"
HANDWRITTEN_PREFIX = "handwritten-"  # the oracle knows [orda:chess] of orda.ini as handwritten-orda
EXPORTED = ("orda", "khans", "chess")  # chess is exported as hordes-chess; plain "chess" is theirs
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


def oracle_ini() -> str:
    """The exported sections the oracle plays from."""
    return export_variants([load_variant(name) for name in EXPORTED], CURRENT)


def handwritten_ini() -> str:
    """tests/data/orda.ini with its sections renamed (handwritten-orda, handwritten-khans)."""
    return HANDWRITTEN_INI.read_text().replace("[", "[" + HANDWRITTEN_PREFIX)


def oracle_id() -> str:
    """Which ini the oracle uses, for the records of results that come from it."""
    return ini_id(oracle_ini(), CURRENT)


def oracle() -> object:
    """pyffish, with the variant configuration loaded once."""
    import pyffish  # here, so that this module can be imported without the binding (benchmarks/)

    global _loaded
    if not _loaded:
        pyffish.load_variant_config(oracle_ini() + "\n" + handwritten_ini() + EXTRA_INI)
        _loaded = True
    return pyffish


KNOWN = {"chess", "orda", "khans"}
