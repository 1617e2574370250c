"""Exact SameGame search on the compiled kernel: depth-first branch and bound with a transposition table.

A position's future value does not depend on how it was reached, so the
table stores it per board (two-word Zobrist keys): exact, or an upper bound
when the subtree was cut.  The search is fail-soft: ``search(board, need)``
returns the exact future value when it beats ``need``, else an upper bound
<= ``need``.  Cuts use the colour-count bound: a colour with one tile never
leaves (tiles leave two or more at a time), and under the score rule a
colour scores at most as one group, (n - 2)^2.

The compiled search runs a chunk of nodes at a time and gives up when the
chunk is spent; the table survives between chunks, so the next chunk
replays the finished part from the table in a few nodes.  The Python loop
around it checks the deadline between chunks.  The table is lossy (a slot
keeps the newest entry): a lost entry costs time, never correctness.  The
optimal sequence is rebuilt at the end by walking from the root through
children whose exact values add up, which needs no entry to have survived.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from mipgames.core.kernel_cache import drop_stale, leaf
from mipgames.samegame.kernel import (
    MAX_CODES,
    Scratch,
    Shape,
    board_hash,
    click,
    click_hashed,
    count_colours,
    find_groups,
    zobrist_table,
)
from mipgames.samegame.simulate import CLEAR_BONUS

drop_stale(__file__)  # before numba loads a cache: see core/kernel_cache.py

ABORT = np.int64(-(2**62))
"""Returned when the chunk's node budget is spent (every real value is far above it)."""
MINUS_INF = np.int64(-(2**61))


@leaf()
def colour_bound(counts, score_mode):
    """Best future value reachable from a position with these colour counts."""
    singles = 0
    pot = 0
    for c in range(1, counts.shape[0]):
        n = counts[c]
        if n == 1:
            singles += 1
        elif n > 2:
            pot += (n - 2) * (n - 2)
    if score_mode:
        return pot + (0 if singles else CLEAR_BONUS)
    return -singles


@leaf()
def _probe(keys, h1, h2):
    mask = keys.shape[0] - 1
    return (h1 ^ (h2 >> np.int64(7))) & mask


@leaf()
def search(
    board,
    h1,
    h2,
    depth,
    need,
    score_mode,
    cols,
    stride,
    zobrist,
    keys,
    values,
    exact_flags,
    best_moves,
    boards,
    counts,
    child_counts,
    order_keys,
    order_cells,
    order_gain,
    order_opt,
    label,
    stack,
    gsize,
    gcolour,
    gcell,
    glast,
    budget,
):
    """Future value of ``boards``-workspace position ``board`` with hash words ``h1, h2`` (fail-soft against
    ``need``), or ABORT."""
    slot = _probe(keys, h1, h2)
    bnd = colour_bound(counts[depth], score_mode)
    hint = -1
    if keys[slot, 0] == h1 and keys[slot, 1] == h2:
        v = values[slot]
        if exact_flags[slot] == 1 or v <= need:
            return v
        if v < bnd:
            bnd = v
        hint = best_moves[slot]
    if bnd <= need:
        return bnd
    budget[0] -= 1
    if budget[0] < 0:
        return ABORT
    ng = find_groups(board, cols, stride, label, stack, gsize, gcolour, gcell, glast)
    nm = 0
    tiles = 0
    for g in range(ng):
        s = gsize[g]
        tiles += s
        if s < 2:
            continue
        c = gcolour[g]
        for k in range(child_counts.shape[0]):
            child_counts[k] = counts[depth, k]
        child_counts[c] -= s
        gain = (s - 2) * (s - 2) if score_mode else 0
        opt = gain + colour_bound(child_counts, score_mode)
        order_keys[depth, nm] = np.int64(2**60) if gcell[g] == hint else opt * 1024 + s
        order_cells[depth, nm] = gcell[g]
        order_gain[depth, nm] = gain
        order_opt[depth, nm] = opt
        nm += 1
    if nm == 0:
        v = np.int64(CLEAR_BONUS if tiles == 0 else 0) if score_mode else np.int64(-tiles)
        keys[slot, 0] = h1
        keys[slot, 1] = h2
        values[slot] = v
        exact_flags[slot] = 1
        best_moves[slot] = -1
        return v
    # best optimistic value first, the table's best move before all (insertion sort: a few dozen moves)
    for i in range(1, nm):
        k = order_keys[depth, i]
        cc = order_cells[depth, i]
        gg = order_gain[depth, i]
        oo = order_opt[depth, i]
        j = i - 1
        while j >= 0 and order_keys[depth, j] < k:
            order_keys[depth, j + 1] = order_keys[depth, j]
            order_cells[depth, j + 1] = order_cells[depth, j]
            order_gain[depth, j + 1] = order_gain[depth, j]
            order_opt[depth, j + 1] = order_opt[depth, j]
            j -= 1
        order_keys[depth, j + 1] = k
        order_cells[depth, j + 1] = cc
        order_gain[depth, j + 1] = gg
        order_opt[depth, j + 1] = oo
    best = MINUS_INF
    best_move = -1
    child = boards[depth + 1]
    for i in range(nm):
        gain = order_gain[depth, i]
        opt = order_opt[depth, i]
        floor = need if best < need else best
        if opt <= floor:
            if opt > best:
                best = opt
            if order_cells[depth, i] == hint:
                continue
            break  # the rest are sorted by their optimistic value
        cell = order_cells[depth, i]
        _, c1, c2 = click_hashed(board, child, cols, stride, cell, label, stack, zobrist, h1, h2)
        count_colours(child, cols, stride, counts[depth + 1])
        v = search(
            child,
            c1,
            c2,
            depth + 1,
            floor - gain,
            score_mode,
            cols,
            stride,
            zobrist,
            keys,
            values,
            exact_flags,
            best_moves,
            boards,
            counts,
            child_counts,
            order_keys,
            order_cells,
            order_gain,
            order_opt,
            label,
            stack,
            gsize,
            gcolour,
            gcell,
            glast,
            budget,
        )
        if v == ABORT:
            return ABORT
        v += gain
        if v > best:
            best = v
            best_move = cell
        if best >= bnd:
            break
    exact = best > need
    keys[slot, 0] = h1
    keys[slot, 1] = h2
    values[slot] = best if exact or best < bnd else bnd
    exact_flags[slot] = 1 if exact else 0
    best_moves[slot] = best_move if exact else -1
    return best


@dataclass
class ExactOutcome:
    value: int | None
    """The optimum (future value from the root: points incl. clear bonus, or minus the tiles left); None if not proved
    or if the incumbent given was already optimal."""
    cells: list[int] | None
    proved: bool
    nodes: int
    bound: int
    """Proved upper bound on the value (the optimum when ``proved``)."""


class ExactSearch:
    """Workspace and table of exact searches on one board shape."""

    def __init__(self, shape: Shape, table_bits: int = 20):
        self.shape = shape
        self.zobrist = zobrist_table(shape)
        size = 1 << table_bits
        self.keys = np.zeros((size, 2), dtype=np.int64)
        self.values = np.zeros(size, dtype=np.int64)
        self.exact = np.zeros(size, dtype=np.int8)
        self.moves = np.full(size, -1, dtype=np.int32)
        depth = shape.rows * shape.cols // 2 + 2
        self.boards = np.zeros((depth + 1, shape.size), dtype=np.int8)
        self.counts = np.zeros((depth + 1, MAX_CODES + 1), dtype=np.int32)
        self.child_counts = np.zeros(MAX_CODES + 1, dtype=np.int32)
        most = shape.rows * shape.cols // 2 + 1
        self.order_keys = np.zeros((depth + 1, most), dtype=np.int64)
        self.order_cells = np.zeros((depth + 1, most), dtype=np.int32)
        self.order_gain = np.zeros((depth + 1, most), dtype=np.int64)
        self.order_opt = np.zeros((depth + 1, most), dtype=np.int64)
        self.scratch = Scratch.of(shape)

    def value(self, root: np.ndarray, need: int, budget: int) -> int | None:
        """Fail-soft future value of ``root`` against ``need``; None when ``budget`` nodes did not suffice."""
        sc = self.scratch
        self.boards[0, :] = root
        count_colours(self.boards[0], self.shape.cols, self.shape.stride, self.counts[0])
        left = np.array([budget], dtype=np.int64)
        h1, h2 = board_hash(self.boards[0], self.shape.cols, self.shape.stride, self.zobrist)
        v = search(
            self.boards[0],
            h1,
            h2,
            0,
            need,
            self.score_mode,
            self.shape.cols,
            self.shape.stride,
            self.zobrist,
            self.keys,
            self.values,
            self.exact,
            self.moves,
            self.boards,
            self.counts,
            self.child_counts,
            self.order_keys,
            self.order_cells,
            self.order_gain,
            self.order_opt,
            sc.label,
            sc.stack,
            sc.gsize,
            sc.gcolour,
            sc.gcell,
            sc.glast,
            left,
        )
        self.nodes += budget - max(int(left[0]), 0)
        return None if v == ABORT else int(v)

    def solve(
        self,
        root: np.ndarray,
        score_mode: bool,
        incumbent: int | None = None,
        deadline: float | None = None,
        max_nodes: int | None = None,
        chunk: int = 20_000,
    ) -> ExactOutcome:
        """The optimum from ``root``, or the best proved bound when the deadline or node budget comes first.

        ``incumbent`` (the value of a game the caller holds) lets the search
        look only for something strictly better; when nothing is, the
        incumbent is optimal (``proved`` with ``value`` None and ``bound`` =
        incumbent).
        """
        self.score_mode = score_mode
        self.nodes = 0
        counts = np.zeros(MAX_CODES + 1, dtype=np.int32)
        count_colours(root, self.shape.cols, self.shape.stride, counts)
        root_bound = int(colour_bound(counts, score_mode))
        need = int(MINUS_INF) if incumbent is None else incumbent
        while True:
            left = None if max_nodes is None else max_nodes - self.nodes
            if (deadline is not None and time.monotonic() > deadline) or (left is not None and left <= 0):
                return ExactOutcome(None, None, False, self.nodes, self.best_bound(root, root_bound))
            v = self.value(root, need, chunk if left is None else min(chunk, left))
            if v is not None:
                break
        if v <= need:
            return ExactOutcome(None, None, True, self.nodes, v if incumbent is None else incumbent)
        cells = self.line(root, v, deadline, chunk)
        if cells is None:  # the value is proved, but the game reaching it was not rebuilt in time: a bound only
            return ExactOutcome(None, None, False, self.nodes, v)
        return ExactOutcome(v, cells, True, self.nodes, v)

    def best_bound(self, root: np.ndarray, root_bound: int) -> int:
        """The root's bound from the table when it holds one (tighter than the colour count), else the colour count."""
        h1, h2 = board_hash(root, self.shape.cols, self.shape.stride, self.zobrist)
        slot = int(_probe(self.keys, h1, h2))
        if self.keys[slot, 0] == h1 and self.keys[slot, 1] == h2:
            return min(root_bound, int(self.values[slot]))
        return root_bound

    def _best_move(self, board: np.ndarray) -> int:
        """The move the table stored for ``board`` (-1 when none): the search's own choice, tried first."""
        h1, h2 = board_hash(board, self.shape.cols, self.shape.stride, self.zobrist)
        slot = int(_probe(self.keys, h1, h2))
        if self.keys[slot, 0] == h1 and self.keys[slot, 1] == h2:
            return int(self.moves[slot])
        return -1

    def line(
        self, root: np.ndarray, value: int, deadline: float | None = None, chunk: int = 20_000
    ) -> list[int] | None:
        """A move sequence achieving the exact future ``value`` from ``root`` (children re-searched from the table,
        the table's best move first), or None when the deadline comes first: the lossy table may have lost
        entries, and re-proving a child can take as long as the search did."""
        shape, sc = self.shape, self.scratch
        board = root.copy()
        child = np.zeros_like(board)
        cells: list[int] = []
        while True:
            ng = find_groups(
                board, shape.cols, shape.stride, sc.label, sc.stack, sc.gsize, sc.gcolour, sc.gcell, sc.glast
            )
            moves = [(int(sc.gcell[g]), int(sc.gsize[g])) for g in range(ng) if sc.gsize[g] >= 2]
            if not moves:
                return cells
            hint = self._best_move(board)
            moves.sort(key=lambda move: move[0] != hint)
            for cell, size in moves:
                gain = (size - 2) ** 2 if self.score_mode else 0
                click(board, child, shape.cols, shape.stride, cell, sc.label, sc.stack)
                sub = None
                while sub is None:
                    if deadline is not None and time.monotonic() > deadline:
                        return None
                    sub = self.value(child, value - gain - 1, chunk)
                if sub + gain == value:
                    cells.append(cell)
                    value -= gain
                    board[:] = child
                    break
            else:  # pragma: no cover - the table proved ``value``, so some child reaches it
                raise AssertionError("no move reaches the proved value")


POLISH_TILES = (90, 100, 110, 120, 135, 150)
"""Tiles left at the positions from which ``polish`` re-solves a game's end exactly, smallest first."""


def load_polish(shape: Shape, root: np.ndarray, score_mode: bool) -> None:
    """Load the compiled search ``polish`` runs (about 0.4 s from numba's cache, more on a loaded machine).

    A heuristic run keeps only a short reserve for ``polish`` (0.5 s of a
    10 s limit); loading inside it left no time to search, so a 6x6 board
    NRPA had stranded at 43 points stayed there although a 0.1 s search
    clears it for 1,024.  The runner calls this while its workers search.
    """
    ExactSearch(shape, table_bits=12).solve(root, score_mode, max_nodes=1)


def polish(
    shape: Shape,
    root: np.ndarray,
    cells: list[int],
    score_mode: bool,
    deadline: float | None = None,
    max_nodes: int = 1_000_000,
) -> tuple[int, list[int], int]:
    """Improve the end of a game by exact search: from the last position with at most 90, 100, ... tiles,
    search for a better continuation than the game's own (its value is the incumbent), while time lasts.

    Heuristic games are usually decided in their first moves and optimal after ~100 tiles are left
    (measured in benchmarks/samegame/RESULTS.md), so a few exact searches near the end are cheap and
    sometimes gain a few points.  ``max_nodes`` caps all the searches together (so that a run with a node
    budget stays deterministic).  Returns (gain, clicks, nodes); the clicks are the original ones when
    nothing better was found.
    """
    sc = Scratch.of(shape)
    positions: list[tuple[int, int, np.ndarray, int]] = []
    board, child = root.copy(), np.zeros_like(root)
    points = 0
    for k, cell in enumerate(cells):
        positions.append(
            (count_colours(board, shape.cols, shape.stride, np.zeros(MAX_CODES + 1, np.int32)), k, board.copy(), points)
        )
        removed = click(board, child, shape.cols, shape.stride, cell, sc.label, sc.stack)
        board, child = child, board
        if score_mode:
            points += (removed - 2) ** 2
    tiles = count_colours(board, shape.cols, shape.stride, np.zeros(MAX_CODES + 1, np.int32))
    total = points + (CLEAR_BONUS if tiles == 0 else 0) if score_mode else -tiles
    gain, nodes, best = 0, 0, list(cells)
    search = ExactSearch(shape, table_bits=20)
    for limit in POLISH_TILES:
        if (deadline is not None and time.monotonic() > deadline) or nodes >= max_nodes:
            break
        at = [p for p in positions if p[0] <= limit]
        if not at:
            continue
        _, k, start, before = at[0]
        suffix = total + gain - before
        out = search.solve(start, score_mode, incumbent=suffix, deadline=deadline, max_nodes=max_nodes - nodes)
        nodes += out.nodes
        if out.value is not None and out.value > suffix and out.cells is not None:
            gain += out.value - suffix
            best = best[:k] + out.cells
            positions = positions[: k + 1]
    return gain, best, nodes
