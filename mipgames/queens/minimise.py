"""Anytime minimisation with the level searches: the fewest queens, a game at every deadline.

A level search asked for "at most T queens" is fast when T is at or just above
the minimum (the survivors bound steers it) and can be slow both below it (it
must exhaust) and far above it (the slack lets it wander: at N = 64 the lazy
search finds 6 queens asked for 7 in 2 s and nothing asked for 8 in 20 s).
Trying targets one after another from the bound, as a proof would, spends all
the time on the first one when it cannot be proved.  So every target gets its
own resumable search (levels.Restarts) and the time goes in rounds: each round
gives a slice to the best game's count minus one (to improve the game in hand),
two to the bound (the likeliest minimum on generated positions) and one to each
target of a window above it, and the next round doubles the slice and the
window.  A game
found lowers the best count and drops the searches above it; an exhausted
search raises the proved bound past its target.  With no deadline the rounds
go on until the two meet, so the answer is then proved.  Deciding "at most K" with K above the bound
runs the same rounds with K as the goal (``goal``): a search of K alone wanders just as much.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mipgames.core.result import Result
from mipgames.core.status import Status
from mipgames.queens.dfs import to_moves
from mipgames.queens.geometry import Geometry
from mipgames.queens.instance import remain

if TYPE_CHECKING:
    from mipgames.queens.levels import Restarts

FIRST_SLICE = 0.1
"""Seconds a search gets on its target in the first round (doubled every round)."""

Maker = Callable[[Geometry, int, int], "Restarts"]
"""(geometry, target, seed) -> a resumable search for a game leaving at most target queens."""


@dataclass
class Minimum:
    pairs: list[tuple[int, int]] | None
    """The best game found (captures in playing order), None when none was."""
    remaining: int
    """Queens it leaves (all of them when no game was found)."""
    bound: int
    """Proved: no game leaves fewer."""

    @property
    def proved(self) -> bool:
        return self.bound >= self.remaining


def minimise(
    geo: Geometry,
    bound: int,
    deadline: float | None,
    seed: int,
    finders: Sequence[Maker],
    provers: Sequence[Maker] = (),
    incumbent: list[tuple[int, int]] | None = None,
    progress: Callable[[Minimum], None] | None = None,
    goal: int | None = None,
) -> Minimum:
    """The fewest queens the searches reach by the deadline, and the bound they prove (from ``bound``).

    ``finders`` search the targets just above the bound, ``provers`` (default: the finders) the bound itself and
    the best count minus one, where a search must exhaust or cope with slack (the eager search does both better
    than the lazy one).  With a ``goal`` (deciding "at most goal queens") no target above it is searched and the
    rounds stop at the first game that reaches it or once the bound passes it: asked for a goal far above the
    minimum, one search of the goal alone wanders (the module's docstring) while the targets below find a game.
    Each round then gives the goal two slices of every search and a ladder of targets from the bound up
    (``_ladder``) a slice of the finders each."""
    provers = tuple(provers) or tuple(finders)
    best = Minimum(incumbent, geo.size - len(incumbent) if incumbent is not None else geo.size, bound)
    searches: dict[tuple[Maker, int], Restarts] = {}
    width, slice_ = 1, FIRST_SLICE

    def top() -> int:
        """One above the highest target worth a search."""
        return best.remaining if goal is None else min(best.remaining, goal + 1)

    while best.bound < top() and (goal is None or best.remaining > goal):
        lo, hi = best.bound, top()
        if goal is None:
            plan = [(hi - 1, provers), (lo, _union(provers, finders))]
            plan += [(target, tuple(finders)) for target in range(lo + 1, min(lo + width, hi - 1))]
        else:
            plan = [(hi - 1, _union(provers, finders))]
            plan += [(target, tuple(finders)) for target in _ladder(lo, min(lo + width, hi - 1))]
        for target, makers in plan:
            for make in makers:
                if not best.bound <= target < top():
                    break
                if deadline is not None and time.monotonic() >= deadline:
                    return best
                search = searches.get((make, target))
                if search is None:
                    search = searches[make, target] = make(geo, target, seed)
                end = time.monotonic() + (2 * slice_ if target == (lo if goal is None else hi - 1) else slice_)
                pairs, exhausted = search.run(end if deadline is None else min(end, deadline))
                if pairs is not None:
                    best.pairs, best.remaining = pairs, geo.size - len(pairs)
                elif exhausted:
                    best.bound = target + 1
                else:
                    continue
                searches = {key: s for key, s in searches.items() if best.bound <= key[1] < top()}
                if progress is not None:
                    progress(best)
                if goal is not None and best.remaining <= goal:
                    return best
        width *= 2
        slice_ *= 2
    return best


def _ladder(lo: int, below: int) -> list[int]:
    """lo, lo + 1, lo + 2, lo + 4, ... under ``below``: a decision's targets, the nearest to the bound densest
    (a game is found fastest at or just above the minimum, which is unknown)."""
    targets, step = [], 1
    if lo < below:
        targets.append(lo)
    while lo + step < below:
        targets.append(lo + step)
        step *= 2
    return targets


def _union(first: Sequence[Maker], second: Sequence[Maker]) -> tuple[Maker, ...]:
    return tuple(first) + tuple(m for m in second if m not in first)


def minimum_result(geo: Geometry, best: Minimum) -> Result:
    """Optimal when the bound meets the best game, else the best game as feasible with the proved bound."""
    if best.proved:
        return Result(Status.OPTIMAL, to_moves(geo, best.pairs or []), best.remaining, best.remaining)
    if best.pairs is not None:
        return Result(
            Status.FEASIBLE,
            to_moves(geo, best.pairs),
            best.remaining,
            best.bound,
            f"time limit reached: {best.remaining} queens is the fewest found, at least {remain(best.bound, 'always')}",
        )
    return Result(Status.UNKNOWN, bound=best.bound, message="time limit reached before any game was found")
