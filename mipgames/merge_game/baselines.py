"""The thesis's algorithms as solvers, and the registry of every classical algorithm (``ALGORITHMS``).

Here: the polynomial special cases, the SIMPLE greedies (``greedy``) and the
level-capped DP (``dp``).  The exact enumerations (``theorem3``, the thesis's
exhaustive search, and ``exhaustive``, a search over game states) live in
exhaustive.py.  None of them uses the realisability fact the models rely on
except through ``sequence_from_merges``, whose output the simulator replays
anyway.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from mipgames.core.errors import UsageError
from mipgames.core.problem import Algorithm, Report, SolveOptions
from mipgames.core.result import Result
from mipgames.core.status import Status
from mipgames.merge_game.decode import sequence_from_merges
from mipgames.merge_game.exhaustive import deadline_of, run_exhaustive, run_theorem3
from mipgames.merge_game.instance import Instance, Offset, Rules, attack_text, beyond_stones, rules
from mipgames.merge_game.lns import run_lns
from mipgames.merge_game.simple import cover_capacity, simple_reason
from mipgames.merge_game.simulate import hits, max_merges, type_groups


def _one_attack(instance: Instance, rule: Rules, who: str, allowed: Any) -> tuple[str, tuple[Offset, ...]]:
    """The single attack vector (name, offsets) of the map's heroes; UsageError when it is not one of ``allowed``."""
    types = {h.type for h in instance.heroes}
    offsets = rule.single(types)
    if offsets is None:
        raise UsageError(f"{who} needs one attack vector for every hero; this map has {rule.describe(types)}")
    name = attack_text(offsets)
    if name not in allowed:
        raise UsageError(f"{who} handles the attack vectors {', '.join(allowed)}; this instance uses {name}")
    return name, offsets


# ---------------------------------------------------------------- SIMPLE greedies

# Scan order of the stones and, among the heroes hitting the first stone not yet
# hit, the one to take: the one farthest along the scan (it hits a superset of
# the not-yet-hit stones that any other candidate hits, since all stones before
# the scan point are already hit and each line is independent).
_SCANS = {
    "up": (lambda s: (s.x, s.y), lambda hero: 0),
    "vertical": (lambda s: (s.x, -s.y), lambda hero: -hero.y),
    "up3": (lambda s: (s.y, s.x), lambda hero: hero.x),
    "right3": (lambda s: (s.x, s.y), lambda hero: hero.y),
}


def greedy_cover(instance: Instance, params: dict[str, Any]) -> list[int] | None:
    """Fewest heroes hitting every stone under up/vertical/up3/right3 (None: some stone cannot be hit)."""
    rule = rules(instance, params)
    name, _ = _one_attack(instance, rule, "greedy", _SCANS)
    stone_key, hero_key = _SCANS[name]
    h = hits(instance, rule)
    covered = [False] * len(instance.stones)
    chosen: list[int] = []
    for k in sorted(range(len(instance.stones)), key=lambda k: stone_key(instance.stones[k])):
        if covered[k]:
            continue
        if not h.stone_heroes[k]:
            return None
        pick = max(h.stone_heroes[k], key=lambda i: (hero_key(instance.heroes[i]), -i))
        chosen.append(pick)
        for s in h.hero_stones[pick]:
            covered[s] = True
    return chosen


Refusal = Callable[[Instance, dict[str, Any]], "str | None"]


def _greedy_refusal(instance: Instance, params: dict[str, Any]) -> str | None:
    why = simple_reason(instance, params)
    return f"greedy solves MERGE-GAME-SIMPLE only: {why}" if why else None


def _beyond_or_refused(instance: Instance, params: dict[str, Any], refusal: Refusal) -> Result | None:
    """INFEASIBLE when a stone is in no hero's reach (an answer on any map); else UsageError where ``refusal``
    refuses the map."""
    beyond = beyond_stones(instance, rules(instance, params))
    if beyond:
        return Result(Status.INFEASIBLE, message=beyond)
    why = refusal(instance, params)
    if why:
        raise UsageError(why)
    return None


def _applies(refusal: Refusal) -> Refusal:
    """``Algorithm.applies`` of a run that starts with ``_beyond_or_refused``: what it refuses, unless a stone is
    in no hero's reach (then it answers on any map)."""

    def applies(instance: Instance, params: dict[str, Any]) -> str | None:
        return None if beyond_stones(instance, rules(instance, params)) else refusal(instance, params)

    return applies


def run_greedy(instance: Instance, params: dict[str, Any], options: SolveOptions, report: Report) -> Result:
    early = _beyond_or_refused(instance, params, _greedy_refusal)
    if early is not None:
        return early
    chosen = greedy_cover(instance, params)
    capacity = cover_capacity(instance, params)
    if chosen is None:
        return Result(Status.INFEASIBLE, message="some stone is in no hero's attack cells")
    if len(chosen) > capacity:
        return Result(
            Status.INFEASIBLE, message=f"hitting every stone needs {len(chosen)} heroes, at most {capacity} can merge"
        )
    d = [0] * len(instance.heroes)
    for i in chosen:
        d[i] = 1
    n = len(instance.stones)
    return Result(
        Status.OPTIMAL,
        sequence_from_merges(instance, d),
        n,
        n,
        f"greedy: {len(chosen)} heroes hit every stone (at most {capacity} may merge)",
    )


# ---------------------------------------------------------------- DP


def _lines(instance: Instance, name: str) -> dict[int, tuple[dict[int, int], dict[int, int]]]:
    """Two-line structure of up3/right3: line -> (position -> hero id, position -> stone hp).

    Under up3 the heroes of row y hit only stones of row y + 1 at columns
    x - 1..x + 1; right3 is the same after swapping x and y.  A stone at
    position p of a line is hit exactly by the line's heroes at p - 1, p, p + 1.
    """
    swap = name == "right3"
    lines: dict[int, tuple[dict[int, int], dict[int, int]]] = {}
    for i, hero in enumerate(instance.heroes):
        line, pos = (hero.x, hero.y) if swap else (hero.y, hero.x)
        lines.setdefault(line, ({}, {}))[0][pos] = i
    for s in instance.stones:
        line, pos = (s.x - 1, s.y) if swap else (s.y - 1, s.x)
        lines.setdefault(line, ({}, {}))[1][pos] = s.hp
    return lines


def destroy_all_dp(
    instance: Instance, params: dict[str, Any], deadline: float = float("inf")
) -> list[int] | None | str:
    """Merge counts d destroying every stone (None if impossible; "timeout").

    DESTROY-ALL + EQUAL-TYPE + LIMITED-LEVEL k on up3/right3.  With
    D = min(k - 1, floor(log2 h)), a choice of d_i in 0..D is realisable iff
    N_j >= 2 N_{j+1} (N_j = #heroes with d >= j, N_0 = h), so it depends on
    the counts vector c = (#d=1, ..., #d=D) only.  Lines are scanned one after
    the other, positions p = 1..P+2 in each (P+1, P+2 are virtual, heroless):

        state after position p:  (d_{p-1}, d_p, c)
        step to p + 1 choosing e = d_{p+1} (0 if no hero there):
            allowed iff the stone at p (if any) gets d_{p-1} + d_p + e >= hp_p
            new state (d_p, e, c + unit(e))
        start of a line: (0, 0, c);  two virtual steps close it at (0, 0, c).

    Reachable c after the last line that satisfy the chain are exactly the
    count vectors of covering, realisable d; states are pruned by
    N_j <= floor(h / 2^j), which every realisable final vector obeys.  The
    state space is O(P * L * (D+1)^2 * (h+1)^D): polynomial for fixed k.
    """
    rule = rules(instance, params)
    n = len(instance.heroes)
    depth = max_merges(n, rule.max_level)
    lines = _lines(instance, _one_attack(instance, rule, "dp", ("up3", "right3"))[0])
    limit = [n >> j for j in range(depth + 1)]

    def suffix(c: tuple[int, ...]) -> list[int]:
        out = [0] * (depth + 2)
        for j in range(depth, 0, -1):
            out[j] = out[j + 1] + c[j - 1]
        out[0] = n
        return out

    Frontier = dict[tuple[int, int, tuple[int, ...]], Any]
    frontier: Frontier = {(0, 0, (0,) * depth): None}
    history: list[Frontier] = []
    steps: list[int | None] = []
    for line in sorted(lines):
        heroes, stones = lines[line]
        top = max(list(heroes) + list(stones))
        for p in range(1, top + 3):
            if time.monotonic() > deadline:
                return "timeout"
            hero = heroes.get(p)
            need = stones.get(p - 1)
            choices = range(depth + 1) if hero is not None else (0,)
            nxt: Frontier = {}
            for state in frontier:
                a, b, c = state
                for e in choices:
                    if need is not None and a + b + e < need:
                        continue
                    if e:
                        c2 = list(c)
                        c2[e - 1] += 1
                        n_j = suffix(tuple(c2))
                        if any(n_j[j] > limit[j] for j in range(1, depth + 1)):
                            continue
                        key = (b, e, tuple(c2))
                    else:
                        key = (b, 0, c)
                    if key not in nxt:
                        nxt[key] = (state, e)
            history.append(nxt)
            steps.append(hero)
            frontier = nxt
    for state in frontier:
        n_j = suffix(state[2])
        if all(n_j[j] >= 2 * n_j[j + 1] for j in range(depth)):
            d = [0] * n
            for nxt, hero in zip(reversed(history), reversed(steps)):
                state, e = nxt[state]
                if hero is not None:
                    d[hero] = e
            return d
    return None


def _dp_refusal(instance: Instance, params: dict[str, Any]) -> str | None:
    rule = rules(instance, params)
    types = {h.type for h in instance.heroes}
    name = rule.describe(types)
    problems = []
    if name not in ("up3", "right3"):
        problems.append(f"the attack vector must be up3 or right3 (got {name})")
    if len(type_groups(instance)) > 1:
        problems.append("all heroes must share one type (EQUAL-TYPE)")
    if rule.target is None or rule.target < len(instance.stones):
        problems.append("it answers DESTROY-ALL: pass --destroy-all")
    if problems:
        return "dp solves DESTROY-ALL + EQUAL-TYPE + LIMITED-LEVEL on up3/right3 maps: " + "; ".join(problems)
    return None


def run_dp(instance: Instance, params: dict[str, Any], options: SolveOptions, report: Report) -> Result:
    early = _beyond_or_refused(instance, params, _dp_refusal)
    if early is not None:
        return early
    d = destroy_all_dp(instance, params, deadline_of(options, instance))
    if isinstance(d, str):
        return Result(Status.UNKNOWN, message="dp: time limit")
    if d is None:
        return Result(Status.INFEASIBLE, message="dp: no realisable merge counts destroy every stone")
    count = len(instance.stones)
    return Result(Status.OPTIMAL, sequence_from_merges(instance, d), count, count, "dp: every stone destroyed")


ALGORITHMS = {
    "theorem3": Algorithm(
        "theorem3",
        run_theorem3,
        "the thesis's Theorem 3: every maximal merge structure per type, O*(4^h) (O*(2^h) ONE-HP)",
        exact=True,
    ),
    "exhaustive": Algorithm(
        "exhaustive", run_exhaustive, "exact search over game states (tiny maps; hero subsets when ONE-HP)", exact=True
    ),
    "greedy": Algorithm(
        "greedy",
        run_greedy,
        "thesis greedy for MERGE-GAME-SIMPLE under up/vertical/up3/right3",
        exact=True,
        applies=_applies(_greedy_refusal),
    ),
    "lns": Algorithm(
        "lns",
        run_lns,
        "large maps: the models' greedy start, then CP-SAT re-deals the merges of one window of heroes at a time",
        proves=False,
    ),
    "dp": Algorithm(
        "dp",
        run_dp,
        "thesis DP for DESTROY-ALL + EQUAL-TYPE + LIMITED-LEVEL on up3/right3",
        exact=True,
        applies=_applies(_dp_refusal),
    ),
}
