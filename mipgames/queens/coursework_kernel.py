"""The coursework's depth-first search compiled with numba (the reference is coursework.search_reference).

The board is a flat int8 array of exponent + 1 per square (0 = empty).  The
search is iterative so that it can stop after a node budget and resume where
it stopped: the caller looks at the clock between budgets.  Each depth keeps
(position in the queen order, direction); the order itself is recomputed
when the search comes back to a depth (the board is then exactly what it
was), so memory stays O(N^2 + moves).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from mipgames.core.kernel_cache import drop_stale

drop_stale(__file__)  # before numba loads a cache: see core/kernel_cache.py

DR = np.array([0, 1, 1, 1, 0, -1, -1, -1], dtype=np.int64)
DC = np.array([1, 0, 1, -1, -1, 0, -1, 1], dtype=np.int64)
"""geometry.DIRECTIONS, the order in which a mover looks for its targets."""

FOUND, EXHAUSTED, BUDGET = 1, 2, 0


@njit(cache=True)
def first_in_line(board, n, r, c, d):
    """Square index of the first queen from (r, c) in direction d, or -1."""
    rr, cc = r + DR[d], c + DC[d]
    while 0 <= rr < n and 0 <= cc < n:
        if board[rr * n + cc] > 0:
            return rr * n + cc
        rr += DR[d]
        cc += DC[d]
    return -1


MAX_POTENTIAL = 60 + 2 * 8
"""Exponents stay below 60 and a queen sees at most 8 others."""


@njit(cache=True)
def order_of(board, n, order, potential):
    """Queens sorted by potential (exponent + 2 x queens in sight, lowest first; ties row-major) into ``order``.

    A counting sort: potentials are small integers, and it is stable, as the reference's sort is.
    """
    counts = np.zeros(MAX_POTENTIAL + 2, dtype=np.int64)
    m = 0
    for cell in range(n * n):
        if board[cell] > 0:
            seen = 0
            for d in range(8):
                if first_in_line(board, n, cell // n, cell % n, d) >= 0:
                    seen += 1
            p = board[cell] - 1 + 2 * seen
            potential[cell] = p
            counts[p + 1] += 1
            m += 1
    for p in range(1, MAX_POTENTIAL + 2):
        counts[p] += counts[p - 1]
    for cell in range(n * n):
        if board[cell] > 0:
            p = potential[cell]
            order[counts[p]] = cell
            counts[p] += 1
    return m


@njit(cache=True)
def search(board, n, k, state, pos, direction, movers, targets, order, potential, budget, fewest_m, fewest_t):
    """Runs at most ``budget`` more nodes; state = [depth, queens left, nodes, entering, fewest queens left at a
    node so far, its depth], the captures that reached it in ``fewest_m``/``fewest_t``.  FOUND/EXHAUSTED/BUDGET."""
    depth, count, nodes, entering = state[0], state[1], state[2], state[3]
    stop = nodes + budget
    m = 0
    if entering == 0:
        m = order_of(board, n, order, potential)
    while True:
        if entering == 1:
            if nodes >= stop:
                state[0], state[1], state[2], state[3] = depth, count, nodes, 1
                return BUDGET
            nodes += 1
            if count < state[4]:
                state[4], state[5] = count, depth
                fewest_m[:depth] = movers[:depth]
                fewest_t[:depth] = targets[:depth]
            if count <= k:
                state[0], state[1], state[2], state[3] = depth, count, nodes, 1
                return FOUND
            pos[depth] = 0
            direction[depth] = 0
            m = order_of(board, n, order, potential)
            entering = 0
        moved = False
        while pos[depth] < m and not moved:
            cell = order[pos[depth]]
            e = board[cell]
            while direction[depth] < 8:
                d = direction[depth]
                direction[depth] += 1
                other = first_in_line(board, n, cell // n, cell % n, d)
                if other >= 0 and board[other] == e:
                    movers[depth] = cell
                    targets[depth] = other
                    board[cell] = 0
                    board[other] = e + 1
                    count -= 1
                    depth += 1
                    entering = 1
                    moved = True
                    break
            if not moved:
                pos[depth] += 1
                direction[depth] = 0
        if moved:
            continue
        if depth == 0:
            state[0], state[1], state[2], state[3] = depth, count, nodes, 0
            return EXHAUSTED
        depth -= 1
        e = board[targets[depth]] - 1
        board[targets[depth]] = e
        board[movers[depth]] = e
        count += 1
        m = order_of(board, n, order, potential)
