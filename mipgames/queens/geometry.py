"""Lines of sight between starting squares, and the lower bounds every solver shares.

Queens only ever stand on squares that held a queen at the start (a move lands
on an occupied square), and a vacated square is never re-occupied.  So
everything is indexed by starting square, and for two starting squares on a
common line only the starting squares strictly between them can block.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import pairwise
from typing import Any

from mipgames.queens.instance import Queens, exponent

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1), (0, -1), (-1, 0), (-1, -1), (-1, 1))


@dataclass(frozen=True)
class Geometry:
    """Starting squares (index i), their exponents, and for each ordered pair on a common line the squares between."""

    squares: tuple[tuple[int, int], ...]
    exps: tuple[int, ...]
    between: dict[tuple[int, int], tuple[int, ...]]
    neighbours: tuple[tuple[int, ...], ...]

    @property
    def size(self) -> int:
        return len(self.squares)

    @cached_property
    def index(self) -> dict[tuple[int, int], int]:
        return {sq: i for i, sq in enumerate(self.squares)}

    @cached_property
    def total(self) -> int:
        return sum(1 << e for e in self.exps)

    @cached_property
    def start_captures(self) -> tuple[dict[tuple[int, int], tuple[int, ...]], list[int], int]:
        """prep.captures_possible of the starting position, once: it takes seconds on a few thousand queens, and
        each level search of a portfolio asks for it."""
        from mipgames.queens.prep import captures_possible

        return captures_possible(self, initial_state(self))

    @cached_property
    def arrays(self) -> tuple[Any, ...]:
        """levels_kernel.static_arrays, once: every restart of a compiled level search reads them, none writes."""
        from mipgames.queens.levels_kernel import static_arrays

        return static_arrays(self)


def geometry(instance: Queens) -> Geometry:
    """The instance's lines of sight; the last two are kept, since every search of a portfolio asks for them."""
    return _geometry(instance.n, instance.board)


@lru_cache(maxsize=2)
def _geometry(n: int, board: tuple[tuple[int, ...], ...]) -> Geometry:
    queens = [(r, c, p) for r, row in enumerate(board) for c, p in enumerate(row) if p]
    squares = tuple((r, c) for r, c, _ in queens)
    exps = tuple(exponent(p) for _, _, p in queens)
    index = {sq: i for i, sq in enumerate(squares)}
    between: dict[tuple[int, int], tuple[int, ...]] = {}
    neighbours = []
    for i, (r, c) in enumerate(squares):
        seen: list[int] = []
        for dr, dc in DIRECTIONS:
            passed: list[int] = []
            rr, cc = r + dr, c + dc
            while 0 <= rr < n and 0 <= cc < n:
                j = index.get((rr, cc))
                if j is not None:
                    between[i, j] = tuple(passed)
                    passed.append(j)
                    seen.append(j)
                rr, cc = rr + dr, cc + dc
        neighbours.append(tuple(sorted(seen)))
    return Geometry(squares, exps, between, tuple(neighbours))


def popcount(value: int) -> int:
    return value.bit_count()


def components(size: int, edges: Iterable[tuple[int, int]]) -> list[int]:
    """Each of ``size`` items' component label (union-find over ``edges``)."""
    parent = list(range(size))

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for i, j in edges:
        a, b = find(i), find(j)
        if a != b:
            parent[a] = b
    return [find(i) for i in range(size)]


def _components_bound(labels: list[int], queens: Iterable[tuple[int, int, int]]) -> int:
    """Sum over components of max(popcount of the total, ceil(total / 2^best reach)); queens as
    (index, exponent, reach)."""
    totals: dict[int, int] = {}
    best: dict[int, int] = {}
    for i, e, reach in queens:
        label = labels[i]
        totals[label] = totals.get(label, 0) + (1 << e)
        best[label] = max(best.get(label, 0), reach)
    return sum(max(popcount(total), -(-total >> best[label])) for label, total in totals.items())


def lower_bound(geo: Geometry, state: bytes | bytearray | list[int]) -> int:
    """Fewest queens that can remain from ``state`` (exponent + 1 per square, 0 = empty).

    Queens in different components of the "share a line" graph never interact,
    so each component keeps at least popcount of its total power; and no queen
    can grow beyond power × 2^(queens on its lines) (the line-of-sight bound), so a
    component of total S with best such reach R keeps at least ceil(S / R).
    """
    edges: list[tuple[int, int]] = []
    live: list[tuple[int, int, int]] = []
    for i, e in enumerate(state):
        if e:
            near = [j for j in geo.neighbours[i] if state[j]]
            edges += ((i, j) for j in near)
            live.append((i, e - 1, e - 1 + len(near)))
    return _components_bound(components(len(state), edges), live)


def start_bound(instance: Queens) -> int:
    """``lower_bound`` of the starting position, read off its lines in O(queens) without a ``Geometry``.

    At the start every square of a queen's four lines that holds a queen is on
    its lines of sight count, and two queens on a common line are in one
    component; counting the queens of each row, column and diagonal gives both.
    The geometry's table of squares between pairs grows as queens x N^2
    (gigabytes for a full 128 x 128 board), too much for a bound the runner
    checks every answer against.
    """
    queens = instance.queens
    lines, members = _lines(instance)
    labels = components(len(queens), (pair for group in members.values() for pair in pairwise(group)))
    live = (
        (i, exponent(power), exponent(power) + sum(len(members[key]) - 1 for key in lines[i]))
        for i, (_, _, power) in enumerate(queens)
    )
    return _components_bound(labels, live)


Line = tuple[str, int]
"""A row, column, diagonal or antidiagonal: ("r" | "c" | "d" | "a", its number)."""


def _lines(instance: Queens) -> tuple[list[tuple[Line, Line, Line, Line]], dict[Line, list[int]]]:
    """Each queen's four lines (row, column, diagonal, antidiagonal), and each line's queens in board order."""
    lines = [(("r", r), ("c", c), ("d", r - c), ("a", r + c)) for r, c, _ in instance.queens]
    members: dict[Line, list[int]] = {}
    for i, keys in enumerate(lines):
        for key in keys:
            members.setdefault(key, []).append(i)
    return lines, members


def geometry_size(instance: Queens) -> int:
    """The entries of a ``Geometry``'s table of squares between, counted in O(queens) without building it.

    A line of m queens has m(m - 1) ordered pairs and m(m - 1)(m - 2)/3 squares between them in all; the
    table and the kernels' copies of it take about 60 bytes an entry (a full 128 x 128 board: 2.7e8 entries,
    20 s and 3 GB to build in Python, 10 GB with the kernels' arrays)."""
    _, members = _lines(instance)
    return sum(m * (m - 1) * (m - 2) // 3 + m * (m - 1) for m in map(len, members.values()))


TABLE_LIMIT = 20_000_000
"""Entries of the lines-of-sight table above which the searches and models built on it refuse a board: a full 80
x 80 board has 4.1e7 (1.7 GB with the kernels' arrays), a full 128 x 128 one 2.7e8 (10 GB).  The default
portfolio searches such boards on the board itself."""


def table_or_refusal(instance: Queens, who: str) -> None:
    """Refuse, with the reason and the solver that takes the board, a board whose lines-of-sight table would
    exceed TABLE_LIMIT entries."""
    from mipgames.core.errors import UsageError

    size = geometry_size(instance)
    if size > TABLE_LIMIT:
        raise UsageError(
            f"{who}: built on the lines of sight between the queens, {size:,} entries here (at most "
            f"{TABLE_LIMIT:,}); the default solver and coursework-dfs search such boards on the board itself"
        )


def initial_state(geo: Geometry) -> bytearray:
    return bytearray(e + 1 for e in geo.exps)
