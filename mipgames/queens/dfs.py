"""The improved depth-first search (``--solver dfs``): the coursework's search plus memo, bounds and ordering.

Three additions to the coursework's own search (coursework.py): every legal
capture is ranked (weakest mover first, by potential = exponent + 2 × queens
in sight, then strongest target); positions already exhausted are memoised;
and the component popcount and line-of-sight bounds (geometry.lower_bound)
prune.  Memoising makes it complete, so on small instances an exhausted
search is a proof; on larger ones it can only give up.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

from mipgames.core.problem import Algorithm, Report, SolveOptions
from mipgames.core.result import Result
from mipgames.core.status import Status
from mipgames.queens.geometry import Geometry, geometry, initial_state, lower_bound, start_bound, table_or_refusal
from mipgames.queens.instance import Move, Queens, remain

MEMO_LIMIT = 2_000_000


class _Stop(Exception):
    pass


def captures(geo: Geometry, state: bytearray) -> list[tuple[int, int]]:
    """Legal captures (mover, target) in the coursework order: weakest movers first, strongest targets first."""
    sight = [0] * len(state)
    pairs = []
    between = geo.between
    for i, e in enumerate(state):
        if not e:
            continue
        for j in geo.neighbours[i]:
            f = state[j]
            if f and not any(state[k] for k in between[i, j]):
                sight[i] += 1
                if f == e:
                    pairs.append((i, j))
    potential = [2 * s + e for s, e in zip(sight, state)]
    pairs.sort(key=lambda p: (potential[p[0]], -potential[p[1]], p))
    return pairs


def search(
    geo: Geometry,
    target: int,
    minimise: bool,
    deadline: float | None,
    report: Report,
    bound: Callable[[Geometry, bytearray], int] = lower_bound,
):
    """Returns (best remaining, its capture list, exhausted?).  Stops as soon as ``target`` is reached."""
    state = initial_state(geo)
    count = sum(1 for e in state if e)
    best: list[Any] = [count, []]
    path: list[tuple[int, int]] = []
    done: set[bytes] = set()
    nodes = [0]

    def limit() -> int:
        return best[0] - 1 if minimise else target

    def visit(remaining: int) -> None:
        nodes[0] += 1
        if deadline is not None and time.monotonic() > deadline:  # every node: one costs O(queens) or more
            raise _Stop
        if remaining < best[0] and (minimise or remaining <= target):
            best[0], best[1] = remaining, list(path)
            report(remaining, None)
        if best[0] <= target:
            raise _Stop
        key = bytes(state)
        if key in done or bound(geo, state) > limit():
            return
        for i, j in captures(geo, state):
            e = state[i]
            state[i], state[j] = 0, e + 1
            path.append((i, j))
            before = best[0]
            visit(remaining - 1)
            path.pop()
            state[i], state[j] = e, e
            if best[0] != before and bound(geo, state) > limit():
                break
        if len(done) < MEMO_LIMIT:
            done.add(key)

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 4 * count + 1000))
    try:
        visit(count)
        exhausted = True
    except _Stop:
        exhausted = best[0] <= target
    finally:
        sys.setrecursionlimit(old)
    exhausted = exhausted and len(done) < MEMO_LIMIT
    return best[0], best[1], exhausted


def to_moves(geo: Geometry, pairs: list[tuple[int, int]]) -> list[Move]:
    return [(*geo.squares[i], *geo.squares[j]) for i, j in pairs]


def counting_refutes(instance: Queens, minimise: bool) -> Result | None:
    """The decision's answer when the counting bound (O(queens), no table) already rules K out, else None: a
    search that builds its tables first spent its whole limit and gigabytes on a full board to say so."""
    bound = start_bound(instance)
    if minimise or bound <= instance.k:
        return None
    return Result(
        Status.INFEASIBLE, bound=bound, message=f"at least {remain(bound, 'always')} (popcount / line-of-sight bound)"
    )


def reached(instance: Queens, moves: list[Any], remaining: int, bound: int) -> Result:
    """A decision answer: optimal only when it meets the bound, else feasible with a pointer to --minimise."""
    if remaining <= bound:
        return Result(Status.OPTIMAL, moves, remaining, bound)
    return Result(
        Status.FEASIBLE,
        moves,
        remaining,
        bound,
        f"K = {instance.k} reached; --minimise finds and proves the fewest queens that can remain",
    )


def run_dfs(instance: Queens, params: dict[str, Any], options: SolveOptions, report: Report) -> Result:
    minimise = bool(params.get("minimise"))
    refuted = counting_refutes(instance, minimise)
    if refuted is not None:
        return refuted
    table_or_refusal(instance, "dfs")
    geo = geometry(instance)
    root = lower_bound(geo, initial_state(geo))
    deadline = options.deadline()
    target = root if minimise else instance.k
    if not minimise and root > instance.k:
        return Result(
            Status.INFEASIBLE,
            bound=root,
            message=f"at least {remain(root, 'always')} (popcount / line-of-sight bound)",
        )
    best, pairs, exhausted = search(geo, target, minimise, deadline, report)
    moves = to_moves(geo, pairs)
    if minimise:
        status = Status.OPTIMAL if exhausted or best <= root else Status.FEASIBLE
        return Result(status, moves, best, best if status is Status.OPTIMAL else root)
    if best <= instance.k:
        return reached(instance, moves, best, root)
    if exhausted:
        return Result(Status.INFEASIBLE, message=f"search exhausted: K = {instance.k} is unreachable")
    return Result(Status.UNKNOWN, message="time limit reached without reaching K")


DFS = Algorithm(
    "dfs",
    run_dfs,
    "the coursework's depth-first search improved: ranked captures, line-of-sight bound, memoised positions",
    exact=True,
)
