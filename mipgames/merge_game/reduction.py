"""The thesis's NP-hardness reduction: PLANAR VERTEX COVER (maximum degree 3) -> MERGE-GAME-SIMPLE.

Take a graph drawn on the grid (graphs.py: vertices on grid points, edges
orthogonal polylines).  Refine the grid 8x: a vertex at (x, y) moves to
(8x, 8y) and an edge of r grid steps becomes a polyline of 8r cells.  Its
length must be 2 modulo 4, so each edge gets one small detour (a bump one
cell high and two wide, in its first straight stretch, away from every other
drawing): 8r + 2 = 4l + 2 with l = 2r.  Put a hero on every vertex and
alternate stone, hero, stone, ... along each edge: 2l + 1 stones and 2l inner
heroes, the edge's path ends on the stone next to the far vertex.  Under the
cross attack a stone is hit exactly by the two heroes beside it on its path
(paths are at least two cells apart everywhere, since the refinement leaves
7 or 8 cells between different drawings), so stones are the edges of the
graph G' obtained from G by subdividing edge i with 2 l_i inner vertices, and
hitting every stone with the fewest heroes is a minimum vertex cover of G':
tau(G') = tau(G) + L with L = sum l_i (subdividing an edge twice raises the
vertex cover by exactly one).

MERGE-GAME-SIMPLE asks whether floor(h/2) heroes suffice.  To ask "is
tau(G) <= k", heroes that hit nothing (fodder) and pendant pairs (a hero
above a stone only it hits: one more hero, one more needed) set
floor(h/2) = k + L + pendants exactly: with n vertices, pendants =
max(0, n - 2k) and fodder = 2k + pendants - n.  Then every stone can be
destroyed iff tau(G) <= k.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from mipgames.core.errors import UsageError
from mipgames.merge_game.graphs import Drawing, Point
from mipgames.merge_game.instance import Hero, Instance, Stone, in_reading_order

SCALE = 8
MARGIN = 2


@dataclass(frozen=True)
class Layout:
    """Map cells of the reduction: vertex heroes, and per edge the cells from one vertex to the other."""

    vertices: tuple[Point, ...]
    paths: tuple[tuple[Point, ...], ...]


def refine(drawing: Drawing) -> Layout:
    """The 8x refined drawing with one bump per edge, moved next to the map's corner; every path has 4l + 2 steps."""

    def cell(p: Point) -> Point:
        return (SCALE * p[0] + MARGIN, SCALE * p[1] + MARGIN)

    paths = []
    for route in drawing.routes:
        cells = [cell(route[0])]
        for a, b in itertools.pairwise(route):
            dx, dy = b[0] - a[0], b[1] - a[1]
            start = cell(a)
            cells += [(start[0] + dx * s, start[1] + dy * s) for s in range(1, SCALE + 1)]
        paths.append(tuple(_bump(cells)))
    vertices = [cell(p) for p in drawing.points]
    used = vertices + [c for path in paths for c in path]
    dx = MARGIN - min(x for x, _ in used)
    dy = MARGIN - min(y for _, y in used)
    return Layout(
        tuple((x + dx, y + dy) for x, y in vertices), tuple(tuple((x + dx, y + dy) for x, y in path) for path in paths)
    )


def _bump(cells: list[Point]) -> list[Point]:
    """Replace cells 3..5 of the first stretch by a detour one cell aside: two steps longer."""
    (x0, y0), (x1, y1) = cells[0], cells[1]
    dx, dy = x1 - x0, y1 - y0
    px, py = -dy, dx  # a quarter turn to the left
    a, c = cells[3], cells[5]
    detour = [(a[0] + px, a[1] + py), (cells[4][0] + px, cells[4][1] + py), (c[0] + px, c[1] + py)]
    return cells[:4] + detour + cells[5:]


def build(drawing: Drawing, k: int, name: str, meta: dict[str, Any]) -> Instance:
    """The MERGE-GAME-SIMPLE map asking "has the drawn graph a vertex cover of size at most k?"."""
    if k < 0:
        raise UsageError(f"the vertex-cover budget k must be at least 0, got {k}")
    layout = refine(drawing)
    heroes = [Hero(x, y, 1) for x, y in layout.vertices]
    stones: list[Stone] = []
    lengths = []
    for path in layout.paths:
        steps = len(path) - 1
        assert steps % 4 == 2, steps
        lengths.append((steps - 2) // 4)
        for pos, (x, y) in enumerate(path[1:-1], start=1):
            if pos % 2:
                stones.append(Stone(x, y, 1))
            else:
                heroes.append(Hero(x, y, 1))
    n = drawing.n
    big_l = sum(lengths)
    pendants = max(0, n - 2 * k)
    fodder = 2 * k + pendants - n
    used = [c for p in layout.paths for c in p] + list(layout.vertices)
    width = max(x for x, _ in used) + MARGIN
    top = max(y for _, y in used) + MARGIN
    extra_heroes, extra_stones, height = _extras(width, top + 2, pendants, fodder)
    heroes += extra_heroes
    stones += extra_stones
    graph = {
        "vertices": [list(p) for p in layout.vertices],
        "edges": [[u, v, length] for (u, v), length in zip(drawing.edges, lengths)],
    }
    info = dict(
        meta,
        generator="reduction",
        vertices=n,
        edges=len(drawing.edges),
        L=big_l,
        k=k,
        pendants=pendants,
        fodder=fodder,
        min_heroes_if_cover_k=k + big_l + pendants,
        graph=graph,
    )
    inst = Instance(width, height, tuple(heroes), tuple(stones), "cross", None, True, None, None, name, info)
    assert len(heroes) // 2 == k + big_l + pendants
    return in_reading_order(inst)


def _extras(width: int, base: int, pendants: int, fodder: int) -> tuple[list[Hero], list[Stone], int]:
    """Pendant pairs (hero under its own stone) every other column, then rows of fodder heroes, above the graph."""
    heroes, stones = [], []
    per_row = max(1, (width + 1) // 2)
    y = base
    for g in range(pendants):
        x, row = 1 + 2 * (g % per_row), g // per_row
        heroes.append(Hero(x, y + 3 * row, 1))
        stones.append(Stone(x, y + 3 * row + 1, 1))
    if pendants:
        y += 3 * ((pendants + per_row - 1) // per_row)
    if fodder:
        y += 1  # a blank row: fodder beside a pendant stone would hit it
        for f in range(fodder):
            heroes.append(Hero(1 + f % width, y + f // width, 1))
        y += (fodder + width - 1) // width
    return heroes, stones, max(y - 1, base - 2)
