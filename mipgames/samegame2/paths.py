"""Path queries ``o`` and ``c`` with the spec's deterministic tie-break.

Both searches start at a, look at neighbours in the order x-1, x+1, y-1, y+1,
give a cell the first predecessor that reached it with its final key and stop
as soon as b is reached, so their cost is proportional to the balls visited.
"""

from __future__ import annotations

from collections import deque
from heapq import heappop, heappush

from mipgames.samegame2.plane import Cell, Colour

Path = tuple[int, list[Cell]]
"""(variability, cells from a to b)."""


def _trace(parent: dict[Cell, Cell | None], end: Cell) -> list[Cell]:
    cells = [end]
    step = parent[end]
    while step is not None:
        cells.append(step)
        step = parent[step]
    cells.reverse()
    return cells


def homogeneous_path(balls: dict[Cell, Colour], a: Cell, b: Cell) -> Path | None:
    """A shortest path from a to b through balls of a's colour (BFS, FIFO), or None."""
    colour = balls.get(a)
    if colour is None or balls.get(b) != colour:
        return None
    if a == b:
        return 0, [a]
    get = balls.get
    parent: dict[Cell, Cell | None] = {a: None}
    queue = deque([a])
    while queue:
        cell = queue.popleft()
        x, y = cell
        for nb in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
            if nb not in parent and get(nb) == colour:
                parent[nb] = cell
                if nb == b:
                    return 0, _trace(parent, b)
                queue.append(nb)
    return None


def variability_path(balls: dict[Cell, Colour], a: Cell, b: Cell) -> Path | None:
    """A path from a to b of least variability, then least length (Dijkstra with an insertion counter), or None."""
    if a not in balls or b not in balls:
        return None
    get = balls.get
    best: dict[Cell, tuple[int, int]] = {a: (0, 1)}
    parent: dict[Cell, Cell | None] = {a: None}
    done: set[Cell] = set()
    heap: list[tuple[int, int, int, Cell]] = [(0, 1, 0, a)]
    counter = 1
    while heap:
        var, length, _, cell = heappop(heap)
        if cell in done:
            continue
        done.add(cell)
        if cell == b:
            return var, _trace(parent, b)
        colour = get(cell)
        x, y = cell
        for nb in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
            other = get(nb)
            if other is None or nb in done:
                continue
            key = (var + (other != colour), length + 1)
            old = best.get(nb)
            if old is None or key < old:
                best[nb] = key
                parent[nb] = cell
                heappush(heap, (key[0], key[1], counter, nb))
                counter += 1
    return None
