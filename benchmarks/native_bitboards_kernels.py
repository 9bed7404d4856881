"""Kernels for benchmarks/native_bitboards.py: the same bitboard work written twice, once on Python ints
(what the core does today; mypyc keeps an int unboxed only up to 62 bits, so a chess bitboard with a
piece on g8 or h8 is a heap object) and once on mypyc's native signed 64-bit `i64`, where bit 63 is
the sign bit and a right shift must mask off the copied sign. Compiled by the benchmark into a
temporary directory; not part of the package.
"""

from typing import Final

from mypy_extensions import i64

FULL: Final = (1 << 64) - 1
NOT_A: Final[i64] = -0x0101010101010102  # 0xFEFEFEFEFEFEFEFE as a signed word
NOT_AB: Final[i64] = -0x0303030303030304  # 0xFCFCFCFCFCFCFCFC
NOT_H: Final[i64] = 0x7F7F7F7F7F7F7F7F
NOT_GH: Final[i64] = 0x3F3F3F3F3F3F3F3F


def as_word(bb: int) -> i64:
    """A 64-bit bitboard as the signed word with the same bits."""
    return i64(bb - (1 << 64) if bb >= 1 << 63 else bb)


def as_bitboard(word: i64) -> int:
    return int(word) & FULL


# ----- knight attacks of a set of knights (shifts and masks) -------------------------------------
def knights_int(bb: int) -> int:
    l1 = (bb >> 1) & 0x7F7F7F7F7F7F7F7F
    l2 = (bb >> 2) & 0x3F3F3F3F3F3F3F3F
    r1 = (bb << 1) & 0xFEFEFEFEFEFEFEFE
    r2 = (bb << 2) & 0xFCFCFCFCFCFCFCFC
    h1 = l1 | r1
    h2 = l2 | r2
    return ((h1 << 16) | (h1 >> 16) | (h2 << 8) | (h2 >> 8)) & FULL


def knights_i64(bb: i64) -> i64:
    l1 = (bb >> 1) & NOT_H
    l2 = (bb >> 2) & NOT_GH
    r1 = (bb << 1) & NOT_A
    r2 = (bb << 2) & NOT_AB
    h1 = l1 | r1
    h2 = l2 | r2
    down16 = (h1 >> 16) & i64(0x0000FFFFFFFFFFFF)
    down8 = (h2 >> 8) & i64(0x00FFFFFFFFFFFFFF)
    return (h1 << 16) | down16 | (h2 << 8) | down8


# ----- rook attacks from a square through occupancy (a ray walk, four directions) ----------------
def rook_int(sq: int, occ: int) -> int:
    out = 0
    f, r = sq & 7, sq >> 3
    for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        x, y = f + df, r + dr
        while 0 <= x < 8 and 0 <= y < 8:
            bit = 1 << (y * 8 + x)
            out |= bit
            if occ & bit:
                break
            x += df
            y += dr
    return out


_DF: Final = [1, -1, 0, 0]
_DR: Final = [0, 0, 1, -1]


def rook_i64(sq: i64, occ: i64) -> i64:
    out: i64 = 0
    # A 1 that the compiler cannot fold: `i64(1) << n` came out wrong for n >= 32 with mypyc 2.4.1
    # (bit n - 32 set), as if the literal were shifted as a 32-bit C int.
    one: i64 = occ | 1
    one &= 1
    f: i64 = sq & 7
    r: i64 = sq >> 3
    d = 0
    while d < 4:
        df: i64 = _DF[d]
        dr: i64 = _DR[d]
        x: i64 = f + df
        y: i64 = r + dr
        while x >= 0 and x < 8 and y >= 0 and y < 8:
            bit: i64 = one << (y * 8 + x)
            out |= bit
            if occ & bit != 0:
                break
            x += df
            y += dr
        d += 1
    return out


# ----- loops over the set bits (what a move generator does with every target set) ----------------
def squares_int(bb: int) -> int:
    total = 0
    while bb:
        low = bb & -bb
        total += low.bit_length() - 1
        bb ^= low
    return total


# 2**k mod 67 differs for every k below 64, so a table of 67 gives the index of a lone bit.
_BY_MOD67: Final = [0] * 67
for _k in range(64):
    _BY_MOD67[(1 << _k) % 67] = _k


def squares_i64(bb: i64) -> i64:
    total: i64 = 0
    while bb != 0:
        low = bb & -bb
        total += 63 if low < 0 else i64(_BY_MOD67[int(low % 67)])  # bit 63 is the sign bit
        bb ^= low
    return total


# ----- drivers: each runs one kernel over a list of inputs in compiled code ------------------------
def run_knights_int(boards: list[int]) -> int:
    acc = 0
    for bb in boards:
        acc ^= knights_int(bb)
    return acc


def run_knights_i64(boards: list[i64]) -> i64:
    acc: i64 = 0
    for bb in boards:
        acc ^= knights_i64(bb)
    return acc


def run_rook_int(boards: list[int]) -> int:
    acc = 0
    for occ in boards:
        for sq in range(64):
            acc ^= rook_int(sq, occ)
    return acc


def run_rook_i64(boards: list[i64]) -> i64:
    acc: i64 = 0
    for occ in boards:
        sq: i64 = 0
        while sq < 64:
            acc ^= rook_i64(sq, occ)
            sq += 1
    return acc


def run_squares_int(boards: list[int]) -> int:
    acc = 0
    for bb in boards:
        acc += squares_int(bb)
    return acc


def run_squares_i64(boards: list[i64]) -> i64:
    acc: i64 = 0
    for bb in boards:
        acc += squares_i64(bb)
    return acc
