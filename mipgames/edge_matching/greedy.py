"""A row-scan greedy placement, for boards beyond the compiled members (more than ``backtrack.MAX_CELLS`` cells).

Each cell, in row order, takes a free tile turned to show the colours already placed on its left and above it;
else one of them; else only the frame's grey on the cell's boundary sides; else any free tile.  Free tiles are
kept in buckets by (shape, left, top), (shape, left), (shape, top) and shape, each drained lazily, so the whole
pass is linear in the cells: a 300 x 300 board takes seconds, where the compiled members' tables (cells x
turned tiles) would take gigabytes and CP-SAT's model more.  The placement obeys the frame and the hints
whenever the tile counts allow, like ``simulate.plain_placement``, and matches most edges the plain one misses.
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Iterator

from mipgames.edge_matching.instance import Instance
from mipgames.edge_matching.simulate import boundary_sides, distinct_turns, plain_placement, turned

TOP, RIGHT, BOTTOM, LEFT = range(4)
ROWS_BETWEEN_LOOKS = 8
"""Rows placed between two looks at the clock."""


def greedy_placement(inst: Instance, deadline: float | None = None) -> list[list[int]]:
    """A placement ([tile, turns] per cell, row-major).  Past ``deadline`` the remaining cells are fitted to the
    frame's shape alone; already past it, this is ``plain_placement``."""
    if deadline is not None and time.monotonic() > deadline:
        return plain_placement(inst)
    n, cols = inst.cells, inst.cols
    placement: list[list[int] | None] = [None] * n
    free = set(range(n))
    for h in inst.hints:
        i = h.row * cols + h.col
        if 0 <= i < n and placement[i] is None and h.tile in free:
            placement[i] = [h.tile, h.turns]
            free.discard(h.tile)
    buckets: dict[Hashable, list[tuple[int, int]]] = {}
    for t in sorted(free, reverse=True):  # popped from the end: lower tiles first
        for a in reversed(distinct_turns(inst.tiles[t])):
            shown = turned(inst.tiles[t], a)
            shape = tuple(colour == 0 for colour in shown) if inst.frame else ()
            for key in (
                (shape, shown[LEFT], shown[TOP]),
                (shape, "left", shown[LEFT]),
                (shape, "top", shown[TOP]),
                (shape,),
            ):
                buckets.setdefault(key, []).append((t, a))
    hurry = False
    spare = iter(sorted(free))
    shown_at: list[tuple[int, ...] | None] = [None] * n
    for i, cell in enumerate(placement):
        if cell is not None:
            shown_at[i] = turned(inst.tiles[cell[0]], cell[1])
    for i in range(n):
        r, c = divmod(i, cols)
        if c == 0 and r % ROWS_BETWEEN_LOOKS == 0 and deadline is not None:
            hurry = hurry or time.monotonic() > deadline
        if placement[i] is None:
            t, a = _take(buckets, free, spare, inst, i, shown_at, hurry)
            placement[i] = [t, a]
            free.discard(t)
            shown_at[i] = turned(inst.tiles[t], a)
    return [cell for cell in placement if cell is not None]


def _take(
    buckets: dict[Hashable, list[tuple[int, int]]],
    free: set[int],
    spare: Iterator[int],
    inst: Instance,
    i: int,
    shown_at: list[tuple[int, ...] | None],
    hurry: bool,
) -> tuple[int, int]:
    """The first free (tile, turns) of the most specific bucket that has one; any free tile when none has."""
    r, c = divmod(i, inst.cols)
    shape = boundary_sides(inst, r, c) if inst.frame else ()
    left_of, above = shown_at[i - 1] if c > 0 else None, shown_at[i - inst.cols] if r > 0 else None
    left = None if left_of is None else left_of[RIGHT]
    top = None if above is None else above[BOTTOM]
    keys: list[Hashable] = []
    if not hurry:
        if left is not None and top is not None:
            keys.append((shape, left, top))
        if left is not None:
            keys.append((shape, "left", left))
        if top is not None:
            keys.append((shape, "top", top))
    keys.append((shape,))
    for key in keys:
        bucket = buckets.get(key)
        while bucket:
            t, a = bucket[-1]
            if t in free:
                return t, a
            bucket.pop()
    return next(t for t in spare if t in free), 0
