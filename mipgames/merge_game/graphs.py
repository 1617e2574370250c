"""Planar graphs of maximum degree 3 drawn on the grid, their file format, and vertex cover.

The NP-hardness reduction (reduction.py) starts from PLANAR VERTEX COVER
with maximum degree 3 and needs the graph *drawn*: vertices on integer grid
points, every edge an orthogonal polyline along grid lines, no two drawings
sharing a point except at a common end.  Rather than drawing a given graph
(Tamassia-style orthogonalisation), :func:`random_drawing` grows a random
graph and its drawing together: vertices on random points of a coarse
lattice, then nearby pairs joined by shortest free paths on the grid (maze
routing), so planarity and the drawing hold by construction.  A vertex has
four grid neighbours, one per edge, so the degree stays at most 3 by rule.
Drawings whose graph is bipartite are refused (vertex cover would be
polynomial, by König's theorem): the instances must contain odd cycles.

Graph files are DIMACS (``p edge N M``, ``e u v`` with 1-based vertices) with
the map position of each vertex's hero and each edge's l in comment lines,
so any vertex-cover solver can read them.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mipgames.core import inprocess
from mipgames.core.errors import InputError, UsageError
from mipgames.core.files import parse_int, read_text, text_lines, write_text_atomic

Point = tuple[int, int]
STEPS = ((1, 0), (0, 1), (-1, 0), (0, -1))
MAX_VERTICES = 1_000_000


@dataclass(frozen=True)
class Drawing:
    """A graph drawn on the grid: ``routes[e]`` runs from ``points[u]`` to ``points[v]`` of ``edges[e] = (u, v)``."""

    points: tuple[Point, ...]
    edges: tuple[tuple[int, int], ...]
    routes: tuple[tuple[Point, ...], ...]

    @property
    def n(self) -> int:
        return len(self.points)


def odd_cycle(n: int, edges: Any) -> bool:
    """Whether the graph has an odd cycle (is not bipartite), by 2-colouring."""
    adj: list[list[int]] = [[] for _ in range(n)]
    for u, v in edges:
        adj[u].append(v)
        adj[v].append(u)
    colour = [-1] * n
    for s in range(n):
        if colour[s] >= 0:
            continue
        colour[s] = 0
        queue = deque([s])
        while queue:
            u = queue.popleft()
            for v in adj[u]:
                if colour[v] < 0:
                    colour[v] = 1 - colour[u]
                    queue.append(v)
                elif colour[v] == colour[u]:
                    return True
    return False


class _Plane:
    """The grid while edges are routed: used points, and for each vertex how many free ports (grid neighbours) it
    has left.  A point next to a vertex that needs every free port it has left is closed to other routes."""

    def __init__(self, cells: list[Point], side: int):
        self.cells, self.side = cells, side
        self.index = {p: i for i, p in enumerate(cells)}
        self.used: set[Point] = set(cells)
        self.degree = [0] * len(cells)
        self.owners: dict[Point, list[int]] = {}
        self.free = [0] * len(cells)
        for i, (x, y) in enumerate(cells):
            for dx, dy in STEPS:
                port = (x + dx, y + dy)
                if 0 <= port[0] < side and 0 <= port[1] < side and port not in self.index:
                    self.owners.setdefault(port, []).append(i)
                    self.free[i] += 1

    def closed(self, point: Point, ends: Any) -> bool:
        return point in self.used or any(
            self.free[w] <= 3 - self.degree[w] for w in self.owners.get(point, ()) if w not in ends
        )

    def route(self, start: int, goals: Any, limit: int) -> list[Point] | None:
        """Shortest free path from vertex ``start`` to one of the vertices ``goals`` (breadth first, bounded)."""
        origin = self.cells[start]
        targets = {self.cells[g]: g for g in goals}
        ends = set(goals) | {start}
        previous: dict[Point, Point | None] = {origin: None}
        queue = deque([(origin, 0)])
        while queue:
            point, dist = queue.popleft()
            if dist >= limit:
                continue
            for dx, dy in STEPS:
                nxt = (point[0] + dx, point[1] + dy)
                if nxt in previous or not (0 <= nxt[0] < self.side and 0 <= nxt[1] < self.side):
                    continue
                if nxt in targets and point != origin:
                    path = [nxt, point]
                    while previous[path[-1]] is not None:
                        path.append(previous[path[-1]])  # type: ignore[arg-type]
                    return path[::-1]
                if self.closed(nxt, ends):
                    continue
                previous[nxt] = point
                queue.append((nxt, dist + 1))
        return None

    def join(self, path: list[Point]) -> tuple[int, int]:
        u, v = self.index[path[0]], self.index[path[-1]]
        for point in path[1:-1]:
            self.used.add(point)
            for w in self.owners.get(point, ()):
                self.free[w] -= 1
        self.degree[u] += 1
        self.degree[v] += 1
        return u, v


def random_drawing(n: int, seed: int, edge_factor: float = 1.4, attempts: int = 50) -> Drawing:
    """A random planar graph on n vertices, maximum degree 3, with an odd cycle, drawn orthogonally on the grid.

    ``edge_factor`` is the number of edges wanted per vertex (at most 1.5 at
    degree 3; fewer when routing finds no free path).
    """
    if not 3 <= n <= MAX_VERTICES:
        raise UsageError(f"the graph needs between 3 and {MAX_VERTICES} vertices (an odd cycle needs 3), got {n}")
    if not 0.5 <= edge_factor <= 1.5:
        raise UsageError(f"edge factor must be between 0.5 and 1.5 (degree at most 3), got {edge_factor:g}")
    rng = random.Random(seed)
    for _ in range(attempts):
        drawing = _grow(n, rng, edge_factor)
        if odd_cycle(n, drawing.edges):
            return drawing
    raise UsageError(f"no non-bipartite drawing in {attempts} attempts; raise the edge factor or the vertices")


def _grow(n: int, rng: random.Random, edge_factor: float) -> Drawing:
    """Vertices on random lattice points; nearby pairs joined first, then vertices still short of degree 3
    joined to the nearest such vertex they can reach (near-cubic graphs: low degrees make vertex cover easy)."""
    lattice = max(2, int((n / 0.5) ** 0.5) + 1)
    side = 2 * lattice + 3  # a free ring of two points around the lattice: the outer face can be routed too
    cells = rng.sample([(2 + 2 * a, 2 + 2 * b) for a in range(lattice) for b in range(lattice)], n)
    plane = _Plane(cells, side)
    candidates = []
    for i, (x, y) in enumerate(cells):
        for dx in range(-4, 5, 2):
            for dy in range(-4, 5, 2):
                j = plane.index.get((x + dx, y + dy))
                if j is not None and i < j:
                    candidates.append(((dx * dx + dy * dy) ** 0.5 + 2.5 * rng.random(), i, j))
    candidates.sort()
    edges: list[tuple[int, int]] = []
    routes: list[tuple[Point, ...]] = []
    neighbours: list[set[int]] = [set() for _ in range(n)]
    wanted = int(edge_factor * n)

    def add(path: list[Point] | None) -> bool:
        if path is None:
            return False
        u, v = plane.join(path)
        edges.append((u, v))
        routes.append(tuple(path))
        neighbours[u].add(v)
        neighbours[v].add(u)
        return True

    degree = plane.degree
    for _, u, v in candidates:
        if len(edges) >= wanted:
            break
        if degree[u] < 3 and degree[v] < 3:
            (x, y), (a, b) = cells[u], cells[v]
            add(plane.route(u, {v}, 2 * (abs(x - a) + abs(y - b)) + 4))
    short = [u for u in range(n) if degree[u] < 3]
    rng.shuffle(short)
    for u in short:
        while len(edges) < wanted and degree[u] < 3:
            goals = {v for v in range(n) if v != u and degree[v] < 3 and v not in neighbours[u]}
            if not goals or not add(plane.route(u, goals, side * side)):
                break
    return Drawing(tuple(cells), tuple(edges), tuple(routes))


# ---------------------------------------------------------------- vertex cover


def vertex_cover(n: int, edges: Any, time_limit: float | None = 60.0, threads: int = 1) -> tuple[int, bool]:
    """Size of a minimum vertex cover (CP-SAT: min sum x, x_u + x_v >= 1) and whether it was proved.

    The LP must run at full linearization: with CP-SAT's default a 300-vertex
    graph stays open (bound 106 vs 165) at 60 s; at level 2 it closes in 0.0 s.
    """
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    x = [model.new_bool_var(f"x{i}") for i in range(n)]
    for u, v in edges:
        model.add_bool_or([x[u], x[v]])
    model.minimize(sum(x))
    solver = cp_model.CpSolver()
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.num_workers = max(1, threads)
    solver.parameters.linearization_level = 2
    status = inprocess.solve(solver, model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise UsageError("no vertex cover found in the time given; pass the budget k yourself")
    return round(solver.objective_value), status == cp_model.OPTIMAL


# ---------------------------------------------------------------- files


def graph_path(map_path: str | Path) -> Path:
    """Where the graph of a map is written: beside it, ``.graph`` for the map's extension."""
    return Path(map_path).with_suffix(".graph")


def write_graph(graph: Mapping[str, Any], path: str | Path, instance: Any = None) -> None:
    """DIMACS edge format; vertex heroes and edge lengths l in comment lines."""
    vertices, edges = graph["vertices"], graph["edges"]
    lines = ["c planar graph of maximum degree 3 behind a merge-game map (thesis reduction, see docs/merge_game.md)"]
    if instance is not None:
        meta = instance.meta
        lines.append(f"c map {instance.name}: {len(instance.heroes)} heroes, {len(instance.stones)} stones")
        for key in ("L", "k", "pendants", "fodder", "vertex_cover"):
            if key in meta:
                lines.append(f"c {key} {meta[key]}")
    lines.append(f"p edge {len(vertices)} {len(edges)}")
    lines += [f"e {u + 1} {v + 1}" for u, v, _ in edges]
    lines += [f"c vertex {i + 1} {x} {y}" for i, (x, y) in enumerate(vertices)]
    lines += [f"c length {u + 1} {v + 1} {length}" for u, v, length in edges]
    write_text_atomic(path, "\n".join(lines) + "\n")


def read_graph(path: str | Path) -> tuple[int, list[tuple[int, int]]]:
    """(vertices, 0-based edges) of a DIMACS edge file; comment lines are skipped."""
    text = read_text(path, "graph file")
    n: int | None = None
    edges: list[tuple[int, int]] = []
    for number, line in enumerate(text_lines(text), start=1):
        tokens = line.split()
        if not tokens or tokens[0] == "c":
            continue
        if tokens[0] == "p":
            if n is not None or len(tokens) != 4 or tokens[1] != "edge":
                raise InputError("the problem line is 'p edge N M', once", path, number)
            n = parse_int(tokens[2], path, number, "vertex count", 0, MAX_VERTICES)
            parse_int(tokens[3], path, number, "edge count", 0, 3 * MAX_VERTICES)
        elif tokens[0] == "e":
            if n is None or len(tokens) != 3:
                raise InputError("an edge line is 'e u v', after the 'p edge N M' line", path, number)
            edges.append(
                (
                    parse_int(tokens[1], path, number, "vertex", 1, n) - 1,
                    parse_int(tokens[2], path, number, "vertex", 1, n) - 1,
                )
            )
        else:
            raise InputError("lines start with c, p or e (DIMACS edge format)", path, number)
    if n is None:
        raise InputError("no 'p edge N M' line", path, None)
    return n, edges
