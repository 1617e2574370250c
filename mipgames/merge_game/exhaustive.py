"""Exact enumerations: the thesis's Theorem 3 (``--solver theorem3``) and a search over game states (``exhaustive``).

Theorem 3 (O*(4^h); O*(2^h) with ONE-HP).  More merges never destroy fewer
stones, so per hero type merges are made maximally: of the h heroes,
floor(h/2) reach level 2 by absorbing the other half, floor(h/2/2) of those
reach level 3 by absorbing the other half of them, and so on (up to a level
cap).  Which heroes rise at each level is the only choice, so the structures
of one type number at most C(h, h/2) C(h/2, h/4) ... <= 4^h; with every stone
at hp 1 only the first choice matters (2^h).  Types are enumerated
independently: types that never hit a common stone form separate components
whose best counts add up, and the types of one component are combined (every
choice of each).  Every combination is simulated -- a stone takes one hit per
level its attackers rise, in any order -- and the best is kept, turned into
a merge sequence and replayed by the runner.

The state search walks the merge graph itself: each reachable vector of
(levels, heroes still on the map) once, with no insight from the thesis.
It stays as an independent check of everything else.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable
from typing import Any

from mipgames.core.problem import Report, SolveOptions
from mipgames.core.result import Result
from mipgames.core.status import Status
from mipgames.merge_game.decode import NEAREST_UP_TO, sequence_from_merges
from mipgames.merge_game.instance import Instance, Rules, rules
from mipgames.merge_game.simulate import Hits, hits, in_reach, max_merges, type_groups

CHECK_WORK = 1 << 16
"""Stones touched (plus one a move) between two looks at the clock: some 10 ms of the enumeration."""
ANSWER_S_PER_HERO_PAIR = 1.5e-9
"""Seconds the best structure takes to become a replayed answer after the enumeration stops, per hero squared
while ``sequence_from_merges`` pairs every taker with its nearest donor: 0.8 s to decode and 0.4 s to replay on a
map of 27,000 heroes."""
ANSWER_S_PER_HERO = 5e-6
"""The same per hero where the decoder pairs along its curve instead (``decode.NEAREST_UP_TO``): 1.2 s to decode
and 2.0 s to replay 800,000 heroes."""


def deadline_of(options: SolveOptions, instance: Instance) -> float:
    """When a search must stop: the time limit less the time its answer takes to decode and replay, so that the
    answer is in before the supervisor's kill.  On a large map at a short limit it may have passed already; the
    searches then answer with their first structure.  (Capped at half the limit, it let Theorem 3 search a 200,000
    hero map at 3 s until its answer, found, was killed while being decoded.)"""
    if options.time_limit is None:
        return float("inf")
    heroes = len(instance.heroes)
    answer = ANSWER_S_PER_HERO_PAIR * min(heroes**2, 4 * NEAREST_UP_TO) + ANSWER_S_PER_HERO * heroes
    return time.monotonic() + options.time_limit - answer


def close(target: int | None, best: int, solution: Any, complete: bool, bound: int, what: str) -> Result:
    """Turns a search's best into a Result, honest about targets and time limits."""
    if target is not None and best < target:
        if complete:
            return Result(Status.INFEASIBLE, message=f"{what}: at most {best} stones can be destroyed, target {target}")
        return Result(Status.UNKNOWN, bound=bound, message=f"{what}: time limit before reaching the target {target}")
    if complete:
        return Result(Status.OPTIMAL, solution, best, best, f"{what}: complete")
    return Result(Status.FEASIBLE, solution, best, bound, f"{what}: time limit, best so far")


def reachable_stones(instance: Instance, rule: Rules, h: Hits) -> int:
    """The stones in reach (``simulate.in_reach``: their attackers can deliver their hp at all), the problem's
    own bound; the searches once bounded by the stones hit at all, which is weaker wherever hp exceeds what
    the hitters' merges can deliver."""
    return sum(in_reach(instance, rule, h))


# ---------------------------------------------------------------- Theorem 3


def components(instance: Instance, h: Hits) -> list[list[int]]:
    """Hero types grouped so that no stone is hit by heroes of two groups (types that share a stone are joined)."""
    parent = {hero.type: hero.type for hero in instance.heroes}

    def find(t: int) -> int:
        while parent[t] != t:
            parent[t] = parent[parent[t]]
            t = parent[t]
        return t

    for hitters in h.stone_heroes:
        for a, b in itertools.pairwise(hitters):
            ta, tb = find(instance.heroes[a].type), find(instance.heroes[b].type)
            if ta != tb:
                parent[ta] = tb
    groups: dict[int, list[int]] = {}
    for t in sorted(parent):
        groups.setdefault(find(t), []).append(t)
    return sorted(groups.values())


class _Enumeration:
    """The combinations of one component's maximal merge structures, with stone damage kept incrementally."""

    def __init__(
        self,
        instance: Instance,
        h: Hits,
        types: list[int],
        max_level: int | None,
        deadline: float,
        improved: Callable[[int], None],
    ):
        groups = type_groups(instance)
        self.hp = [s.hp for s in instance.stones]
        self.hero_stones = h.hero_stones
        stones = {k for t in types for i in groups[t] for k in h.hero_stones[i]}
        one_hp = all(self.hp[k] == 1 for k in stones)
        self.slots: list[tuple[int, int]] = []
        for t in types:
            depth = max_merges(len(groups[t]), max_level)
            self.slots += [(t, j) for j in range(1, (min(depth, 1) if one_hp else depth) + 1)]
        self.groups = groups
        self.damage = [0] * len(self.hp)
        self.destroyed = 0
        self.best = -1
        self.best_d: dict[int, int] = {}
        self.level: dict[int, int] = {i: 0 for t in types for i in groups[t]}
        self.deadline, self.improved = deadline, improved
        self.leaves = 0
        self.work = 0
        self.complete = True

    def run(self) -> None:
        try:
            self._walk()
        except TimeoutError:
            self.complete = False

    def hit(self, i: int, step: int) -> None:
        hp, damage, stones = self.hp, self.damage, self.hero_stones[i]
        self.work += len(stones) + 1
        if self.work >= CHECK_WORK:  # by stones touched, not leaves: a leaf on a large map touched thousands
            self.work = 0
            if time.monotonic() > self.deadline:
                raise TimeoutError
        for k in stones:
            before = damage[k]
            damage[k] = before + step
            if step > 0 and before + 1 == hp[k]:
                self.destroyed += 1
            elif step < 0 and before == hp[k]:
                self.destroyed -= 1

    def _leaf(self) -> None:
        self.leaves += 1
        if self.destroyed > self.best:
            self.best, self.best_d = self.destroyed, dict(self.level)
            self.improved(self.best)

    def first(self) -> None:
        """Only the first structure (every slot's first half rises), whatever the clock says: a component the
        deadline reached before its first structure still answers, in one pass over its heroes."""
        self.deadline = math.inf
        self._open([], [], [])
        self._leaf()
        self.complete = False

    def _open(self, pools: list[list[int]], poses: list[list[int]], risers: list[list[int]]) -> None:
        """Open the slots after the last open one, each with its first choice (the first half of its pool)."""
        level, hit = self.level, self.hit
        while len(pools) < len(self.slots):
            t, j = self.slots[len(pools)]
            pool = self.groups[t] if j == 1 else risers[-1]
            chosen = pool[: len(pool) // 2]
            for x in chosen:
                level[x] += 1
                hit(x, 1)
            pools.append(pool)
            poses.append(list(range(len(chosen))))
            risers.append(chosen)

    def _walk(self) -> None:
        """Every combination, slot by slot: each slot chooses half of its pool to rise, in lexicographic order
        of positions, and only the positions that change are undone and redone.  Iterative, since a slot of
        h heroes picks h/2 of them and a 2,000-hero map would nest thousands of calls deep.  A type's slots
        are consecutive, so slot (t, j)'s pool is the risers chosen by the slot before it."""
        level, hit, leaf = self.level, self.hit, self._leaf
        pools: list[list[int]] = []  # per open slot: its pool,
        poses: list[list[int]] = []  # the positions chosen in it,
        risers: list[list[int]] = []  # and the heroes at those positions (the next slot's pool)
        while True:
            self._open(pools, poses, risers)
            leaf()
            if poses and poses[-1]:  # the last position of the deepest slot, in a tight loop
                pool, pos, chosen = pools[-1], poses[-1], risers[-1]
                x = chosen[-1]
                for v in range(pos[-1] + 1, len(pool)):
                    level[x] -= 1
                    hit(x, -1)
                    x = pool[v]
                    level[x] += 1
                    hit(x, 1)
                    leaf()
                pos[-1] = len(pool) - 1
                chosen[-1] = x
            while pools:  # the deepest slot with a next choice takes it; exhausted slots close
                pool, pos, chosen = pools[-1], poses[-1], risers[-1]
                i = len(pos) - 1
                top = len(pool) - 1
                while i >= 0 and pos[i] == top:
                    level[chosen[i]] -= 1
                    hit(chosen[i], -1)
                    i, top = i - 1, top - 1
                if i >= 0:
                    level[chosen[i]] -= 1
                    hit(chosen[i], -1)
                    v = pos[i]
                    for m in range(i, len(pos)):
                        v += 1
                        x = pool[v]
                        pos[m], chosen[m] = v, x
                        level[x] += 1
                        hit(x, 1)
                    break
                pools.pop()
                poses.pop()
                risers.pop()
            else:
                return


def structure_count(instance: Instance, rule: Rules, h: Hits) -> int:
    """How many combinations the enumeration simulates (its work, without running it): per component the product
    over its types of C(h, h/2) C(h/2, h/4) ... (one factor with ONE-HP), summed over the components."""
    groups = type_groups(instance)
    total = 0
    for types in components(instance, h):
        one_hp = all(instance.stones[k].hp == 1 for t in types for i in groups[t] for k in h.hero_stones[i])
        count = 1
        for t in types:
            size = len(groups[t])
            depth = max_merges(size, rule.max_level)
            for _ in range(min(depth, 1) if one_hp else depth):
                count *= math.comb(size, size // 2)
                size //= 2
        total += count
    return total


def theorem3(
    instance: Instance, rule: Rules, h: Hits, deadline: float, report: Report
) -> tuple[int, list[int], bool, int]:
    """(stones destroyed, merges survived per hero, every structure tried?, structures simulated) of the best one."""
    d = [0] * len(instance.heroes)
    total, complete, leaves = 0, True, 0
    for types in components(instance, h):
        done = total

        def improved(best: int, done: int = done) -> None:
            report(done + best, None)

        enum = _Enumeration(instance, h, types, rule.max_level, deadline, improved)
        if complete:
            enum.run()
        if enum.best < 0:  # the deadline came before this component's first structure: take that one
            enum = _Enumeration(instance, h, types, rule.max_level, deadline, improved)
            enum.first()
        total += enum.best
        for i, levels in enum.best_d.items():
            d[i] = levels
        complete = complete and enum.complete
        leaves += enum.leaves
    return total, d, complete, leaves


def run_theorem3(instance: Instance, params: dict[str, Any], options: SolveOptions, report: Report) -> Result:
    rule = rules(instance, params)
    h = hits(instance, rule)
    best, d, complete, leaves = theorem3(instance, rule, h, deadline_of(options, instance), report)
    out = close(
        rule.target,
        best,
        sequence_from_merges(instance, d),
        complete,
        reachable_stones(instance, rule, h),
        f"Theorem 3 enumeration of {leaves:,} maximal merge structures",
    )
    out.stats["structures"] = leaves
    return out


# ---------------------------------------------------------------- state search


def _exhaustive_one_hp(instance: Instance, rule: Rules, h: Hits, deadline: float, report: Report):
    """ONE-HP: only *which* heroes merge at least once matters, O*(2^h) subsets (at most half of each type)."""
    groups = type_groups(instance)
    can_merge = rule.max_level is None or rule.max_level >= 2
    useful = [i for i in range(len(instance.heroes)) if h.hero_stones[i]] if can_merge else []
    best, complete = 0, True  # no merge destroys nothing: the answer even when the deadline has passed
    best_set: tuple[int, ...] = ()
    for size in range(len(useful) + 1):
        for chosen in itertools.combinations(useful, size):
            if time.monotonic() > deadline:
                complete = False
                break
            per_type: dict[int, int] = {}
            for i in chosen:
                per_type[instance.heroes[i].type] = per_type.get(instance.heroes[i].type, 0) + 1
            if any(2 * n > len(groups[t]) for t, n in per_type.items()):
                continue
            count = len({k for i in chosen for k in h.hero_stones[i]})
            if count > best:
                best, best_set = count, chosen
                report(best, None)
        if not complete:
            break
    d = [0] * len(instance.heroes)
    for i in best_set:
        d[i] = 1
    return best, sequence_from_merges(instance, d), complete


def _exhaustive_states(instance: Instance, rule: Rules, h: Hits, deadline: float, report: Report):
    """General case: depth-first over game states (levels, alive), each visited once.

    A state is the vector of hero levels plus which heroes are still on the
    map; the stones' damage is a function of it, so distinct merge orders
    reaching one state are explored once.  Exponential (the thesis's O*(4^h)).
    """
    n = len(instance.heroes)
    types = [hero.type for hero in instance.heroes]
    hp = [s.hp for s in instance.stones]

    def count(levels: tuple[int, ...]) -> int:
        return sum(1 for k in range(len(hp)) if sum(levels[i] - 1 for i in h.stone_heroes[k]) >= hp[k])

    start = (tuple([1] * n), tuple([True] * n))
    parent: dict[Any, Any] = {start: None}
    stack = [start]
    best, best_state, complete = count(start[0]), start, True
    while stack and complete:
        levels, alive = stack.pop()
        for a in range(n):
            # the clock is read for every merging hero: one state's children cost O(n^2) counts (9 s on a
            # 300-hero map), and a check every 512 states let a 5 s limit run until the supervisor's kill
            if time.monotonic() > deadline:
                complete = False
                break
            if not alive[a]:
                continue
            for b in range(n):
                if b == a or not alive[b] or types[a] != types[b] or levels[a] != levels[b]:
                    continue
                if rule.max_level is not None and levels[b] + 1 > rule.max_level:
                    continue
                nl = list(levels)
                nl[b] += 1
                na = list(alive)
                na[a] = False
                state = (tuple(nl), tuple(na))
                if state in parent:
                    continue
                if time.monotonic() > deadline:  # and for every child: a count reads every stone (27,000)
                    complete = False
                    break
                parent[state] = ((levels, alive), (a, b))
                stack.append(state)
                value = count(state[0])
                if value > best:
                    best, best_state = value, state
                    report(best, None)
            if not complete:
                break
    merges = []
    state = best_state
    while parent[state] is not None:
        state, merge = parent[state]
        merges.append(merge)
    return best, tuple(reversed(merges)), complete


def run_exhaustive(instance: Instance, params: dict[str, Any], options: SolveOptions, report: Report) -> Result:
    rule = rules(instance, params)
    h = hits(instance, rule)
    one_hp = all(s.hp == 1 for s in instance.stones)
    search = _exhaustive_one_hp if one_hp else _exhaustive_states
    best, solution, complete = search(instance, rule, h, deadline_of(options, instance), report)
    what = "exhaustive search over hero subsets (ONE-HP)" if one_hp else "exhaustive search over merge states"
    return close(rule.target, best, solution, complete, reachable_stones(instance, rule, h), what)
