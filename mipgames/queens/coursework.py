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
from typing import Any

from mipgames.core.errors import UsageError
from mipgames.core.problem import Report, SolveOptions
from mipgames.core.result import Result
from mipgames.core.status import Status
from mipgames.queens.dfs import reached
from mipgames.queens.geometry import DIRECTIONS, popcount
from mipgames.queens.instance import Move, Queens, exponent

NODE_BUDGET = 50_000
"""Nodes between two looks at the clock (about 0.05 s compiled on a 40x40 board)."""


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


def search_reference(instance: Queens, node_limit: int | None = None) -> tuple[list[Move] | None, int, bool]:
    """(moves reaching K or None, nodes, exhausted?): the plain-Python search the kernel must match."""
    n, board = instance.n, _cells(instance)
    path: list[tuple[int, int]] = []
    nodes = 0

    class Stop(Exception):
        pass

    def visit(count: int) -> bool:
        nonlocal nodes
        if node_limit is not None and nodes >= node_limit:
            raise Stop
        nodes += 1
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
        return None, nodes, False
    finally:
        sys.setrecursionlimit(old)
    if not found:
        return None, nodes, True
    return [(a // n, a % n, b // n, b % n) for a, b in path], nodes, False


def search_compiled(
    instance: Queens, deadline: float | None, node_limit: int | None = None
) -> tuple[list[Move] | None, int, bool]:
    """The same search through the numba kernel, in node budgets between looks at the clock."""
    import numpy as np

    from mipgames.queens import coursework_kernel as kernel

    n = instance.n
    board = np.array(_cells(instance), dtype=np.int8)
    queens = int(np.count_nonzero(board))
    depth = max(1, queens)
    state = np.array([0, queens, 0, 1], dtype=np.int64)
    pos, direction = np.zeros(depth, np.int64), np.zeros(depth, np.int64)
    movers, targets = np.zeros(depth, np.int64), np.zeros(depth, np.int64)
    order, potential = np.zeros(n * n, np.int64), np.zeros(n * n, np.int64)
    while True:
        budget = NODE_BUDGET if node_limit is None else min(NODE_BUDGET, node_limit - int(state[2]))
        code = kernel.search(board, n, instance.k, state, pos, direction, movers, targets, order, potential, budget)
        if code == kernel.FOUND:
            steps = int(state[0])
            return (
                [(int(a) // n, int(a) % n, int(b) // n, int(b) % n) for a, b in zip(movers[:steps], targets[:steps])],
                int(state[2]),
                False,
            )
        if code == kernel.EXHAUSTED:
            return None, int(state[2]), True
        if (node_limit is not None and state[2] >= node_limit) or (
            deadline is not None and time.monotonic() > deadline
        ):
            return None, int(state[2]), False


def run_coursework(instance: Queens, params: dict[str, Any], options: SolveOptions, report: Report) -> Result:
    if params.get("minimise"):
        raise UsageError("coursework-dfs decides K as the coursework did; use dfs or levels with --minimise")
    deadline = options.deadline()
    moves, nodes, exhausted = search_compiled(instance, deadline)
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
