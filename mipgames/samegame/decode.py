"""Tile geometry shared by the SameGame models, and their decoder.

Both models carry ``alive[t, tile]`` over the *original* tiles: gravity and
column closing never reorder tiles, so a tile's cell at time t follows from
counts (its row = alive tiles below it in its original column, its column =
non-empty original columns to its left).  ``Geometry`` lists the tiles and
the same-coloured pairs that can ever touch; ``trajectory`` and
``click_cells`` convert between click sequences and per-step removed sets.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from mipgames.samegame.simulate import colour_counts, encode, from_bottom


@dataclass(frozen=True)
class VPair:
    """Same-coloured tiles i (lower) and j in one column, touching once all tiles ``between`` are gone."""

    i: int
    j: int
    between: tuple[int, ...]
    need: int = 0
    """Moves needed before they can touch: the colours among the tiles between (a move removes one colour)."""


@dataclass(frozen=True)
class HPair:
    """Same-coloured tiles i (column ci) and j (column cj > ci); they touch when their rows
    agree (some row r in ``rows``) and every original column in ``between`` is empty."""

    i: int
    j: int
    between: tuple[int, ...]
    rows: tuple[int, ...]
    need: int = 0
    """Moves needed before they can touch: the colours in the columns between."""


@dataclass
class Geometry:
    colour: list[int]  # per tile
    column: list[int]  # original (packed) column per tile
    height: list[int]  # original row per tile
    columns: list[list[int]]  # tile ids per column, bottom first
    vpairs: list[VPair]
    hpairs: list[HPair]
    counts: dict[int, int]  # tiles per colour
    stuck: frozenset[int] = field(default_factory=frozenset)
    """Tiles whose colour has a single tile: they never leave."""

    @property
    def n(self) -> int:
        return len(self.colour)

    def steps(self) -> int:
        """Moves in any game: each removes >= 2 tiles of one colour."""
        return sum(n // 2 for n in self.counts.values() if n >= 2)

    @property
    def pairs(self) -> list[VPair | HPair]:
        """Every pair, the vertical ones first."""
        return [*self.vpairs, *self.hpairs]

    def pairs_of(self, tile: int) -> list[VPair | HPair]:
        return [p for p in self.pairs if tile in (p.i, p.j)]


def geometry(board) -> Geometry:
    """Tiles of a settled board, in column order, bottom first."""
    state = encode(board)
    colour: list[int] = []
    column: list[int] = []
    height: list[int] = []
    cols: list[list[int]] = []
    for x, col in enumerate(state.split(b"\xff") if state else []):
        ids = []
        for y, v in enumerate(col):
            ids.append(len(colour))
            colour.append(v)
            column.append(x)
            height.append(y)
        cols.append(ids)
    vpairs = [
        VPair(ids[a], ids[b], tuple(ids[a + 1 : b]), len({colour[t] for t in ids[a + 1 : b]}))
        for ids in cols
        for a in range(len(ids))
        for b in range(a + 1, len(ids))
        if colour[ids[a]] == colour[ids[b]]
    ]
    hpairs = []
    for ci in range(len(cols)):
        for cj in range(ci + 1, len(cols)):
            for i in cols[ci]:
                for j in cols[cj]:
                    if colour[i] == colour[j]:
                        rows = tuple(range(min(height[i], height[j]) + 1))
                        need = len({colour[t] for c in range(ci + 1, cj) for t in cols[c]})
                        hpairs.append(HPair(i, j, tuple(range(ci + 1, cj)), rows, need))
    counts = colour_counts(state)
    stuck = frozenset(t for t in range(len(colour)) if counts[colour[t]] == 1)
    return Geometry(colour, column, height, cols, vpairs, hpairs, counts, stuck)


def cells_at(geo: Geometry, alive: Sequence[bool]) -> dict[int, tuple[int, int]]:
    """Cell (x, y) of every alive tile, given which tiles are alive."""
    out: dict[int, tuple[int, int]] = {}
    x = 0
    for ids in geo.columns:
        y = 0
        for t in ids:
            if alive[t]:
                out[t] = (x, y)
                y += 1
        if y:
            x += 1
    return out


def click_cells(geo: Geometry, removed: Sequence[Sequence[int]]) -> list[list[int]]:
    """Per-step removed tile sets -> the click sequence (each group's min (x, y) cell)."""
    alive = [True] * geo.n
    moves = []
    for group in removed:
        where = cells_at(geo, alive)
        moves.append(list(min(where[t] for t in group)))
        for t in group:
            alive[t] = False
    return moves


def trajectory(geo: Geometry, moves: Sequence[Sequence[int]]) -> list[list[int]]:
    """A click sequence -> the tile ids each click removes (flood fill on tile cells)."""
    alive = [True] * geo.n
    out = []
    for mx, my in moves:
        where = cells_at(geo, alive)
        at = {cell: t for t, cell in where.items()}
        start = at[(mx, my)]
        group = {start}
        stack = [start]
        while stack:
            cx, cy = where[stack.pop()]
            for nb in ((cx - 1, cy), (cx + 1, cy), (cx, cy - 1), (cx, cy + 1)):
                t = at.get(nb)
                if t is not None and t not in group and geo.colour[t] == geo.colour[start]:
                    group.add(t)
                    stack.append(t)
        out.append(sorted(group))
        for t in group:
            alive[t] = False
    return out


def decode_alive(instance, params: dict[str, Any], handles: dict[str, Any], value) -> list[list[int]]:
    """Decoder of both models: the tiles that die at each step form that step's group.

    The clicks come out in the coordinates of the ``origin`` param.
    """
    geo: Geometry = handles["geometry"]
    alive = handles["alive"]  # (t, tile) -> variable or constant, t = 0..T

    def on(t: int, i: int) -> bool:
        v = alive[t, i]
        return (v if isinstance(v, (int, float)) else value(v)) > 0.5

    removed = []
    for t in range(1, handles["steps"] + 1):
        group = [i for i in range(geo.n) if on(t - 1, i) and not on(t, i)]
        if group:
            removed.append(group)
    return from_bottom(instance, [tuple(m) for m in click_cells(geo, removed)], params.get("origin", "bottom"))
