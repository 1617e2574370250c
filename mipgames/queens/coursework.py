"""The coursework's own depth-first search (``--solver coursework-dfs``), exactly as described, nothing added.

At each position: sort the queens by potential (exponent + 2 × queens in
sight, lowest first: a weak queen should be absorbed early; ties in board
order), and for each queen in that order try each capture it can make (the
first queen in each of the 8 directions, in a fixed direction order, when its
power is equal), recurse, undo; stop as soon as at most K queens remain.  No
memo, no bound, no other ordering: the baseline every ratio in the benchmarks
is taken against.  The search is complete, so if it ever runs out of
captures, K is unreachable (it rarely lives that long).

The search runs compiled (coursework_kernel.py, numba): the coursework's program is C++,
and a ratio against an interpreted copy would flatter everything else.
:func:`search_reference` is the same search in plain Python, the reference
the kernel is tested against (same nodes, same answer).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from mipgames.core.errors import UsageError
from mipgames.core.problem import Report, SolveOptions
from mipgames.core.result import Result
from mipgames.core.status import Status
from mipgames.queens.dfs import reached
from mipgames.queens.geometry import DIRECTIONS, popcount
from mipgames.queens.instance import Move, Queens, exponent

NODE_BUDGET = 50_000
"""Nodes between two looks at the clock, at most (about 0.05 s compiled on a 40x40 board)."""
PROGRESS_EVERY_S = 1.0
"""Seconds between two calls of a search's progress hook (each copies the game with the fewest queens)."""
LOOK_EVERY_S = 0.05
"""Seconds between looks at the clock the node budget is sized for: a node sorts every queen by potential, so
its cost grows with the board (about 1 ms on a full 128 x 128 one), and the budget is halved or doubled to suit."""


def _cells(instance: Queens) -> list[int]:
    """Exponent + 1 per square, row-major (0 = empty)."""
    return [exponent(p) + 1 if p else 0 for row in instance.board for p in row]


def _first(board: list[int], n: int, r: int, c: int, dr: int, dc: int) -> int:
    rr, cc = r + dr, c + dc
    while 0 <= rr < n and 0 <= cc < n:
        if board[rr * n + cc]:
            return rr * n + cc
        rr, cc = rr + dr, cc + dc
    return -1


def _order(board: list[int], n: int) -> list[int]:
    queens = [cell for cell in range(n * n) if board[cell]]
    potential = {
        cell: board[cell] - 1 + 2 * sum(_first(board, n, cell // n, cell % n, dr, dc) >= 0 for dr, dc in DIRECTIONS)
        for cell in queens
    }
    return sorted(queens, key=lambda cell: potential[cell])


class Outcome(NamedTuple):
    """What a run of the search found: the moves reaching K (None if not reached), the nodes it made, whether it
    exhausted the tree, and the game of its node with the fewest queens left (the first such node)."""

    found: list[Move] | None
    nodes: int
    exhausted: bool
    fewest: list[Move]


def _moves(n: int, pairs: Iterable[tuple[int, int]]) -> list[Move]:
    return [(int(a) // n, int(a) % n, int(b) // n, int(b) % n) for a, b in pairs]


def search_reference(instance: Queens, node_limit: int | None = None) -> Outcome:
    """The plain-Python search the kernel must match."""
    n, board = instance.n, _cells(instance)
    path: list[tuple[int, int]] = []
    fewest: list[tuple[int, int]] = []
    least = n * n + 1
    nodes = 0

    class Stop(Exception):
        pass

    def visit(count: int) -> bool:
        nonlocal nodes, fewest, least
        if node_limit is not None and nodes >= node_limit:
            raise Stop
        nodes += 1
        if count < least:
            least, fewest = count, list(path)
        if count <= instance.k:
            return True
        for cell in _order(board, n):
            e = board[cell]
            for dr, dc in DIRECTIONS:
                other = _first(board, n, cell // n, cell % n, dr, dc)
                if other >= 0 and board[other] == e:
                    board[cell], board[other] = 0, e + 1
                    path.append((cell, other))
                    if visit(count - 1):
                        return True
                    path.pop()
                    board[cell], board[other] = e, e
        return False

    import sys

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 4 * n * n + 1000))
    try:
        found = visit(sum(1 for v in board if v))
    except Stop:
        return Outcome(None, nodes, False, _moves(n, fewest))
    finally:
        sys.setrecursionlimit(old)
    return Outcome(_moves(n, path) if found else None, nodes, not found, _moves(n, fewest))


def search_compiled(
    instance: Queens,
    deadline: float | None,
    node_limit: int | None = None,
    progress: Callable[[Outcome], None] | None = None,
) -> Outcome:
    """The same search through the numba kernel, in node budgets between looks at the clock (and at ``progress``,
    given the outcome so far)."""
    import numpy as np

    from mipgames.queens import coursework_kernel as kernel

    n = instance.n
    board = np.array(_cells(instance), dtype=np.int8)
    queens = int(np.count_nonzero(board))
    depth = max(1, queens)
    state = np.array([0, queens, 0, 1, n * n + 1, 0], dtype=np.int64)
    pos, direction = np.zeros(depth, np.int64), np.zeros(depth, np.int64)
    movers, targets = np.zeros(depth, np.int64), np.zeros(depth, np.int64)
    fewest_m, fewest_t = np.zeros(depth, np.int64), np.zeros(depth, np.int64)
    order, potential = np.zeros(n * n, np.int64), np.zeros(n * n, np.int64)

    def outcome(found: bool, exhausted: bool) -> Outcome:
        steps, least = int(state[0]), int(state[5])
        made = _moves(n, zip(movers[:steps], targets[:steps])) if found else None
        return Outcome(made, int(state[2]), exhausted, _moves(n, zip(fewest_m[:least], fewest_t[:least])))

    every, shown = 64, time.monotonic()
    while True:
        budget = every if node_limit is None else min(every, node_limit - int(state[2]))
        began = time.monotonic()
        code = kernel.search(
            board, n, instance.k, state, pos, direction, movers, targets, order, potential, budget, fewest_m, fewest_t
        )
        took = time.monotonic() - began
        if took < LOOK_EVERY_S / 2:
            every = min(NODE_BUDGET, 2 * every)
        elif took > 2 * LOOK_EVERY_S:
            every = max(1, every // 2)
        if code in (kernel.FOUND, kernel.EXHAUSTED):
            return outcome(code == kernel.FOUND, code == kernel.EXHAUSTED)
        if progress is not None and time.monotonic() >= shown + PROGRESS_EVERY_S:
            shown = time.monotonic()
            progress(outcome(False, False))
        if (node_limit is not None and state[2] >= node_limit) or (
            deadline is not None and time.monotonic() > deadline
        ):
            return outcome(False, False)


def run_coursework(instance: Queens, params: dict[str, Any], options: SolveOptions, report: Report) -> Result:
    if params.get("minimise"):
        raise UsageError("coursework-dfs decides K as the coursework did; use dfs or levels with --minimise")
    deadline = options.deadline()
    moves, nodes, exhausted, _ = search_compiled(instance, deadline)
    stats = {"nodes": nodes}
    if moves is not None:
        out = reached(instance, moves, len(instance.queens) - len(moves), popcount(instance.total))
    elif exhausted:
        out = Result(
            Status.INFEASIBLE,
            message=f"coursework search exhausted after {nodes:,} nodes: K = {instance.k} is unreachable",
        )
    else:
        out = Result(Status.UNKNOWN, message=f"time limit after {nodes:,} nodes without reaching K")
    out.stats.update(stats)
    return out
