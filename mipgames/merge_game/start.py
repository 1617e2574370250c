"""A quick merge structure the compact models are built with, as their start.

Why: on large maps (a 500 x 500 map has 50,000 heroes) CP-SAT and the MIP
solvers may spend a whole short limit in presolve or the root LP and end
with no answer at all.  A model built with a start ends no worse than it
(the runner replays the start and keeps it when the solver returns nothing
as good), and a solver given ``--warm-start`` starts from it.

The structure is greedy and maximal: per type, level by level, half of the
heroes still rising rise again (more merges never destroy fewer stones), and
which ones is chosen one hero at a time by the damage it adds, a hit on a
stone that needs r more counting 1/r.  Heroes of one group (same type, same
stones) are interchangeable, so the greedy counts heroes per group, as the
models do.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mipgames.merge_game.instance import Instance

if TYPE_CHECKING:  # mip.py builds with this module's start
    from mipgames.merge_game.mip import Structure


@dataclass(frozen=True)
class Start:
    """``counts[g][j - 1]`` = heroes of group g that survive at least j merges; ``destroyed[k]``: stone k falls."""

    counts: tuple[tuple[int, ...], ...]
    destroyed: tuple[bool, ...]

    @property
    def value(self) -> int:
        return sum(self.destroyed)


def greedy_start(instance: Instance, st: Structure) -> Start:
    """The greedy maximal structure (see the module's docstring); exact arithmetic, no randomness."""
    hp = [s.hp for s in instance.stones]
    damage = [0] * len(hp)
    counts = [[0] * st.depth[st.group_type[g]] for g in range(len(st.groups))]
    by_type: dict[int, list[int]] = {}
    for g, t in enumerate(st.group_type):
        by_type.setdefault(t, []).append(g)

    def gain(g: int) -> float:
        return sum(1.0 / (hp[k] - damage[k]) for k in st.group_stones[g] if st.reachable[k] and damage[k] < hp[k])

    for t in sorted(by_type):
        pool = {g: len(st.groups[g]) for g in by_type[t]}
        for j in range(st.depth[t]):
            left = sum(pool.values()) // 2
            heap = [(-gain(g), g) for g, n in pool.items() if n > 0]
            heapq.heapify(heap)
            taken = dict.fromkeys(pool, 0)
            while left > 0 and heap:
                _, g = heapq.heappop(heap)
                now = gain(g)
                if heap and now < -heap[0][0]:  # stale: another group adds more now
                    heapq.heappush(heap, (-now, g))
                    continue
                taken[g] += 1
                left -= 1
                for k in st.group_stones[g]:
                    damage[k] += 1
                if taken[g] < pool[g]:
                    heapq.heappush(heap, (-gain(g), g))
            for g, n in taken.items():
                counts[g][j] = n
            pool = {g: n for g, n in taken.items() if n > 0}
            if not pool:
                break
    destroyed = tuple(st.reachable[k] and damage[k] >= hp[k] for k in range(len(hp)))
    return Start(tuple(tuple(c) for c in counts), destroyed)


def start_hint(start: Start, counts: Sequence[Sequence[Any]], destroyed: Mapping[int, Any]) -> dict[Any, float]:
    """The start as values of a compact model's variables (PuLP's or CP-SAT's: the same handles)."""
    hint: dict[Any, float] = {}
    for variables, values in zip(counts, start.counts):
        for var, n in zip(variables, values):
            hint[var] = float(n)
    for k, var in destroyed.items():
        hint[var] = float(start.destroyed[k])
    return hint
