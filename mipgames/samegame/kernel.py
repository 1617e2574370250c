"""The compiled SameGame board kernel (numba): groups, removal with gravity and column
closing, Zobrist hashing, colour counts, seeded random numbers.

Why a padded flat array: the searches visit millions of positions, and the
fastest board a flood fill can walk is one whose neighbours are at fixed
offsets with no bounds checks.  A board of R rows and C columns is a flat
``int8`` array of ``(C + 2) * (R + 1)`` cells, column-major with stride
``S = R + 1``: cell (x, y) (column x from the left, row y from the bottom, the
spec's coordinates) is at ``(x + 1) * S + y``.  Column -1, column C and the
cell on top of every column are sentinels that stay 0, so the four
neighbours of any cell are ``i - 1, i + 1, i - S, i + S`` without a test
(the array is padded to a multiple of 8 cells, which stay 0 too, so that a
board copies as 64-bit words).
0 is empty, instance colour c is stored as c + 1.  A settled board keeps its
tiles at the bottom of each column and its non-empty columns on the left, so
scans stop at the first empty cell of a column and at the first empty column.

Every function works on caller-owned scratch arrays (``Scratch``) so the
inner loops never allocate.  ``simulate`` stays the reference: the tests
replay thousands of random games through both.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mipgames.core.kernel_cache import drop_stale, leaf
from mipgames.samegame.instance import EMPTY, MAX_COLOURS, Board

drop_stale(__file__)  # before numba loads a cache: see core/kernel_cache.py

MAX_CODES = MAX_COLOURS + 1
"""Colour codes in kernel boards: 0 empty, 1..36 the instance's colours 0..35."""
HASH_BASE = (np.int64(0x6A09E667F3BCC909), np.int64(0x3C6EF372FE94F82B))
"""Every hash starts from these words, so no board (not even the empty one) hashes to the (0, 0) of an unused
table slot."""
_NO_TABLE = np.zeros((1, 1, 2), dtype=np.int64)
"""Stands for the Zobrist table where no hash is kept."""


# ------------------------------------------------------------------ layout
@dataclass(frozen=True)
class Shape:
    """Geometry of the padded board array of an R x C board."""

    rows: int
    cols: int

    @property
    def stride(self) -> int:
        return self.rows + 1

    @property
    def size(self) -> int:
        """Cells of the padded array, rounded up to a multiple of 8 so that boards copy as 64-bit words."""
        return ((self.cols + 2) * (self.rows + 1) + 7) // 8 * 8

    def index(self, x: int, y: int) -> int:
        return (x + 1) * self.stride + y

    def cell(self, index: int) -> tuple[int, int]:
        x, y = divmod(index, self.stride)
        return x - 1, y


def to_array(board: Board) -> tuple[np.ndarray, Shape]:
    """The board as a padded kernel array (colours + 1, 0 empty) and its shape."""
    shape = Shape(board.rows, board.cols)
    arr = np.zeros(shape.size, dtype=np.int8)
    for x in range(board.cols):
        for y in range(board.rows):
            colour = board.at(x, y)
            if colour != EMPTY:
                arr[shape.index(x, y)] = colour + 1
    return arr, shape


def to_board(arr: np.ndarray, shape: Shape) -> Board:
    """The kernel array back as a Board (rows top first, -1 empty)."""
    return Board(
        tuple(tuple(int(arr[shape.index(x, y)]) - 1 for x in range(shape.cols)) for y in range(shape.rows - 1, -1, -1))
    )


def zobrist_table(shape: Shape, seed: int = 0x5A3E) -> np.ndarray:
    """Random keys per (cell, colour code, word); code 0 (empty) is all zero so empty cells hash to nothing.

    A position's hash is two independent 64-bit words: searches merge
    positions by hash, and exact searches prove optima on those merges, so a
    collision must be out of the question (about n^2 / 2^129 for n positions).
    """
    rng = np.random.default_rng(seed)
    table = rng.integers(1, 2**63 - 1, size=(shape.size, MAX_CODES + 1, 2), dtype=np.int64)
    table[:, 0, :] = 0
    return table


@dataclass
class Scratch:
    """Work arrays of one search thread for boards of one shape (never shared between processes' searches)."""

    label: np.ndarray
    stack: np.ndarray
    gsize: np.ndarray
    gcolour: np.ndarray
    gcell: np.ndarray
    glast: np.ndarray
    counts: np.ndarray
    pieces: np.ndarray

    @classmethod
    def of(cls, shape: Shape) -> Scratch:
        n = shape.size
        return cls(
            label=np.full(n, -1, dtype=np.int32),
            stack=np.zeros(n, dtype=np.int32),
            gsize=np.zeros(n, dtype=np.int32),
            gcolour=np.zeros(n, dtype=np.int8),
            gcell=np.zeros(n, dtype=np.int32),
            glast=np.zeros(n, dtype=np.int32),
            counts=np.zeros(MAX_CODES + 1, dtype=np.int32),
            pieces=np.zeros(MAX_CODES + 1, dtype=np.int32),
        )

    def groups(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The arrays ``find_groups`` fills, in its argument order (label, stack, gsize, gcolour, gcell, glast)."""
        return self.label, self.stack, self.gsize, self.gcolour, self.gcell, self.glast


# ------------------------------------------------------------------ kernels
@leaf()
def fill(array, value):
    """``array[:] = value`` in a loop: a slice assignment may allocate, which a ``leaf`` cannot."""
    for i in range(array.shape[0]):
        array[i] = value


@leaf()
def clear_labels(board, cols, stride, label):
    """Set the label of every tile to -1 (other cells are never read)."""
    for x in range(cols):
        base = (x + 1) * stride
        if board[base] == 0:
            break
        i = base
        while board[i] != 0:
            label[i] = -1
            i += 1


@leaf()
def flood(board, stride, start, label, stack, mark):
    """Label the group of ``start`` with ``mark`` (its tiles must not hold ``mark``).

    Returns (size, smallest cell index, largest cell index).
    """
    c = board[start]
    label[start] = mark
    stack[0] = start
    sp = 1
    size = 0
    lo = start
    hi = start
    while sp > 0:
        sp -= 1
        j = stack[sp]
        size += 1
        if j > hi:
            hi = j
        if j < lo:
            lo = j
        k = j + 1
        if board[k] == c and label[k] != mark:
            label[k] = mark
            stack[sp] = k
            sp += 1
        k = j - 1
        if board[k] == c and label[k] != mark:
            label[k] = mark
            stack[sp] = k
            sp += 1
        k = j + stride
        if board[k] == c and label[k] != mark:
            label[k] = mark
            stack[sp] = k
            sp += 1
        k = j - stride
        if board[k] == c and label[k] != mark:
            label[k] = mark
            stack[sp] = k
            sp += 1
    return size, lo, hi


@leaf()
def find_groups(board, cols, stride, label, stack, gsize, gcolour, gcell, glast):
    """Label every tile with its group (singletons included); returns the number of groups.

    Groups are numbered in scan order (x, then y from the bottom), so
    ``gcell[g]`` is the group's minimum (x, y) cell, the click cell the
    Python simulator's ``legal_moves`` lists, in the same order; ``glast[g]``
    is its largest cell index (so its columns are those of ``gcell`` to
    ``glast``).  Labels of empty cells are left stale: read them only for tiles.
    """
    clear_labels(board, cols, stride, label)
    ng = 0
    for x in range(cols):
        base = (x + 1) * stride
        if board[base] == 0:
            break
        i = base
        while board[i] != 0:
            if label[i] < 0:
                c = board[i]
                if board[i + 1] == c or board[i + stride] == c:
                    size, _, hi = flood(board, stride, i, label, stack, ng)
                else:  # lower and left neighbours were scanned: a group of one, no flood needed
                    label[i] = ng
                    size, hi = 1, i
                gsize[ng] = size
                gcolour[ng] = c
                gcell[ng] = i
                glast[ng] = hi
                ng += 1
            i += 1
    return ng


@leaf()
def has_move(board, cols, stride):
    """True when some tile has a same-coloured neighbour (right or above suffices)."""
    for x in range(cols):
        base = (x + 1) * stride
        if board[base] == 0:
            return False
        i = base
        while board[i] != 0:
            c = board[i]
            if board[i + 1] == c or board[i + stride] == c:
                return True
            i += 1
    return False


@leaf()
def _compact(board, out, cols, stride, label, group, first, last, zobrist, h1, h2, hashing):
    """Remove the tiles labelled ``group`` from ``out`` (a copy of ``board``, or ``board`` itself).

    Only the group's columns (those of cells ``first`` to ``last``) are
    compacted, and columns move left only when one of them empties; with
    ``hashing`` the hash words ``h1, h2`` of ``board`` are updated for just
    the tiles that leave or move.  Returns the hash words.
    """
    x0 = first // stride - 1
    x1 = last // stride - 1
    emptied = 0
    for x in range(x0, x1 + 1):
        base = (x + 1) * stride
        w = base
        i = base
        while board[i] != 0:
            c = board[i]
            if label[i] == group:
                if hashing:
                    h1 ^= zobrist[i, c, 0]
                    h2 ^= zobrist[i, c, 1]
            else:
                if w != i:
                    out[w] = c
                    if hashing:
                        h1 ^= zobrist[i, c, 0] ^ zobrist[w, c, 0]
                        h2 ^= zobrist[i, c, 1] ^ zobrist[w, c, 1]
                w += 1
            i += 1
        while w < i:
            out[w] = 0
            w += 1
        if out[base] == 0:
            emptied += 1
    if emptied:
        ox = x0
        x = x0
        while x < cols:
            base = (x + 1) * stride
            if out[base] == 0:
                if x > x1:
                    break  # past the group's columns the first empty column ends the board
                x += 1
                continue
            if ox != x:
                obase = (ox + 1) * stride
                for r in range(stride - 1):
                    v = out[base + r]
                    out[obase + r] = v
                    if v != 0 and hashing:
                        h1 ^= zobrist[base + r, v, 0] ^ zobrist[obase + r, v, 0]
                        h2 ^= zobrist[base + r, v, 1] ^ zobrist[obase + r, v, 1]
            ox += 1
            x += 1
        for xx in range(ox, x):
            base = (xx + 1) * stride
            for r in range(stride - 1):
                out[base + r] = 0
    return h1, h2


@leaf()
def copy_board(board, out):
    """``out[:] = board`` as 64-bit words (eight times fewer moves than bytes), in a loop: a slice
    assignment may allocate, which a ``leaf`` cannot."""
    dst = out.view(np.int64)
    src = board.view(np.int64)
    for i in range(dst.shape[0]):
        dst[i] = src[i]


@leaf()
def remove(board, out, cols, stride, label, group, first, last):
    """Write into ``out`` the board without the tiles labelled ``group`` (gravity, then columns close left).

    ``first``/``last`` are the group's smallest and largest cell indices
    (``gcell``/``glast`` of ``find_groups``).  ``out`` must have zero
    sentinels (any array that only ever received boards of this shape does).
    """
    copy_board(board, out)
    _compact(board, out, cols, stride, label, group, first, last, _NO_TABLE, np.int64(0), np.int64(0), False)


@leaf()
def remove_inplace(board, cols, stride, label, group, first, last):
    """``remove`` with the board as its own output (playouts need no copy and no hash)."""
    _compact(board, board, cols, stride, label, group, first, last, _NO_TABLE, np.int64(0), np.int64(0), False)


@leaf()
def remove_hashed(board, out, cols, stride, label, group, first, last, zobrist, h1, h2):
    """``remove`` that also turns the hash words ``h1, h2`` of ``board`` into those of ``out``."""
    copy_board(board, out)
    return _compact(board, out, cols, stride, label, group, first, last, zobrist, h1, h2, True)


@leaf()
def board_hash(board, cols, stride, zobrist):
    """The two hash words of a board (as ``remove_hashed`` keeps them up to date)."""
    h = HASH_BASE[0]
    h2 = HASH_BASE[1]
    for x in range(cols):
        base = (x + 1) * stride
        if board[base] == 0:
            break
        i = base
        while board[i] != 0:
            h ^= zobrist[i, board[i], 0]
            h2 ^= zobrist[i, board[i], 1]
            i += 1
    return h, h2


@leaf()
def count_colours(board, cols, stride, counts):
    """Fill ``counts[code]`` with the tiles of each colour code; returns the number of tiles."""
    fill(counts, 0)
    n = 0
    for x in range(cols):
        base = (x + 1) * stride
        if board[base] == 0:
            break
        i = base
        while board[i] != 0:
            counts[board[i]] += 1
            n += 1
            i += 1
    return n


@leaf()
def click_hashed(board, out, cols, stride, cell, label, stack, zobrist, h1, h2):
    """``click`` that also turns the hash words ``h1, h2`` of ``board`` into those of ``out``: (size, h1, h2)."""
    clear_labels(board, cols, stride, label)
    size, lo, hi = flood(board, stride, cell, label, stack, -2)
    h1, h2 = remove_hashed(board, out, cols, stride, label, -2, lo, hi, zobrist, h1, h2)
    return size, h1, h2


@leaf()
def click(board, out, cols, stride, cell, label, stack):
    """Play the click on ``cell`` (any tile of a group of >= 2) into ``out``; the tiles removed.

    The label array is used as scratch (its content is left stale).
    """
    clear_labels(board, cols, stride, label)
    size, lo, hi = flood(board, stride, cell, label, stack, -2)
    remove(board, out, cols, stride, label, -2, lo, hi)
    return size


# ------------------------------------------------------------------ random numbers
@leaf()
def rand_next(state):
    """xorshift64*: the next 64-bit value of the generator whose state is ``state[0]`` (never 0)."""
    x = state[0]
    x ^= (x >> np.int64(12)) & np.int64(0x000FFFFFFFFFFFFF)
    x ^= x << np.int64(25)
    x ^= (x >> np.int64(27)) & np.int64(0x0000001FFFFFFFFF)
    state[0] = x
    return x * np.int64(0x2545F4914F6CDD1D)


@leaf()
def rand_bits53(state):
    """The top 53 bits of the next value, as a non-negative integer (a logical shift of the signed word)."""
    return (rand_next(state) >> np.int64(11)) & np.int64(0x1FFFFFFFFFFFFF)


@leaf()
def rand_below(state, n):
    """A uniform integer in [0, n) (bias below 2^-40 for the n a board has)."""
    return rand_bits53(state) % n


@leaf()
def rand_unit(state):
    """A uniform float in [0, 1)."""
    return rand_bits53(state) * (1.0 / 9007199254740992.0)


def rng_state(seed: int) -> np.ndarray:
    """A generator state for ``rand_*`` from any integer seed (splitmix64 of it, never 0)."""
    z = (seed * 0x9E3779B97F4A7C15 + 0x9E3779B97F4A7C15) & (2**64 - 1)
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & (2**64 - 1)
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & (2**64 - 1)
    z ^= z >> 31
    z &= 2**63 - 1
    return np.array([z or 1], dtype=np.int64)
