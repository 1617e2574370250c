"""Large-neighbourhood search for large maps: the greedy start, then CP-SAT re-deals merges window by window.

Why: on maps of tens of thousands of heroes the compact models spend a
minute in presolve and the root LP; CP-SAT given the greedy start
(``start.py``) as a hint moved a 300 x 300 map (18,000 heroes) from 8,714 to
8,793 stones in 60 s, with its bound at 9,479.  A window's heroes, though,
form a small model that CP-SAT settles in a fraction of a second.

The neighbourhood: the heroes standing in one square of the map.  Which
merge counts d they hold may be dealt among them anew, as long as each type
keeps the same counts (the same multiset of d per type keeps every type's
N_j, hence realisability: ``decode.py``); every other hero keeps its d.  The
window's model assigns one of its type's values to each hero and maximises
the stones it destroys among those its heroes hit, the other heroes' hits
fixed.  Windows tile the map in a seeded order, shifted by half a window
every other pass; a pass that finds little doubles them (up to ``GROWTH``
times), and the search ends when the largest find nothing or the time is up.  CP-SAT runs
on one worker with a deterministic time limit, so a run with a budget (no
clock) is the same on every machine.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from mipgames.core.problem import Report, SolveOptions
from mipgames.core.result import Result
from mipgames.core.status import Status
from mipgames.merge_game.decode import CompactHandles, merges_from_counts, sequence_from_merges
from mipgames.merge_game.exhaustive import deadline_of
from mipgames.merge_game.instance import Instance, rules
from mipgames.merge_game.mip import prepared

WINDOW_HEROES = 120
"""Heroes a window holds on average: the side of the square is chosen for it."""
WINDOW_DETERMINISTIC_S = 0.5
"""CP-SAT's deterministic time a window of ``WINDOW_HEROES`` (about a fifth of a second of wall time here),
in proportion to the heroes a window holds."""
GROWTH = 8
"""A pass that finds little doubles the windows, up to this many times ``WINDOW_HEROES``, or until one window
holds the whole map and finds nothing."""
SMALL_GAIN = 0.002
"""Little: a pass that adds at most this share of the stones destroyed."""


class _State:
    """Every hero's merge count d and every stone's damage, with what the windows need to look up."""

    def __init__(self, instance: Instance, params: dict[str, Any]):
        st, start = prepared(instance, params)
        n = len(instance.heroes)
        self.instance = instance
        self.hp = [s.hp for s in instance.stones]
        self.reach = st.reachable
        self.d = merges_from_counts(n, CompactHandles(st.groups, start.counts, {}), lambda v: v)
        self.stones_of: list[tuple[int, ...]] = [()] * n
        for g, ids in enumerate(st.groups):
            for i in ids:
                self.stones_of[i] = st.group_stones[g]
        self.damage = [0] * len(self.hp)
        for i in range(n):
            for k in self.stones_of[i]:
                self.damage[k] += self.d[i]
        self.start = start.value

    def redeal(self, heroes: list[int], seconds: float, seed: int, deadline: float = math.inf) -> int:
        """Deal the window's d anew by CP-SAT (``seconds`` of deterministic time, and never past ``deadline``);
        returns how many more stones fall (0: left as it was)."""
        from ortools.sat.python import cp_model

        inst, d = self.instance, self.d
        values: dict[int, dict[int, int]] = {}
        for i in heroes:
            counts = values.setdefault(inst.heroes[i].type, {})
            counts[d[i]] = counts.get(d[i], 0) + 1
        if all(len(c) == 1 for c in values.values()):
            return 0  # every type's heroes here hold the same d: nothing to deal
        stones = sorted({k for i in heroes for k in self.stones_of[i] if self.reach[k]})
        if not stones:
            return 0
        model = cp_model.CpModel()
        x: dict[tuple[int, int], Any] = {}
        for i in heroes:
            choices = values[inst.heroes[i].type]
            if len(choices) == 1:
                continue
            row = []
            for v in choices:
                x[i, v] = model.new_bool_var(f"x{i}_{v}")
                model.add_hint(x[i, v], int(v == d[i]))
                row.append(x[i, v])
            model.add_exactly_one(row)
        for t, counts in values.items():
            if len(counts) > 1:
                for v, c in counts.items():
                    model.add(sum(x[i, v] for i in heroes if inst.heroes[i].type == t) == c)
        fixed = {k: self.damage[k] for k in stones}
        terms: dict[int, list[Any]] = {k: [] for k in stones}
        for i in heroes:
            for k in self.stones_of[i]:
                if k in fixed and (i, d[i]) in x:
                    fixed[k] -= d[i]
                    terms[k] += [v * x[i, v] for v in values[inst.heroes[i].type] if v]
        falls: list[Any] = []
        before = 0
        for k in stones:
            before += self.damage[k] >= self.hp[k]
            if fixed[k] >= self.hp[k]:
                falls.append(1)
            elif terms[k]:
                y = model.new_bool_var(f"y{k}")
                model.add(sum(terms[k]) >= (self.hp[k] - fixed[k]) * y)
                model.add_hint(y, int(self.damage[k] >= self.hp[k]))
                falls.append(y)
        model.maximize(sum(falls))
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.random_seed = seed
        solver.parameters.max_deterministic_time = seconds
        if deadline < math.inf:  # the clock only when there is a deadline: without one a run is reproducible
            solver.parameters.max_time_in_seconds = max(0.01, deadline - time.monotonic())
        if solver.solve(model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return 0
        gain = round(solver.objective_value) - before
        if gain <= 0:
            return 0
        for (i, v), var in x.items():
            if solver.value(var) and d[i] != v:
                for k in self.stones_of[i]:
                    self.damage[k] += v - d[i]
                d[i] = v
        return gain


def windows(instance: Instance, size: int, shift: bool, rng: random.Random) -> list[list[int]]:
    """The heroes of each square of a tiling of the map (squares of about ``size`` heroes), in a seeded order;
    ``shift`` moves the tiling by half a square."""
    heroes = instance.heroes
    side = max(2, round(math.sqrt(size * instance.width * instance.height / max(1, len(heroes)))))
    offset = side // 2 if shift else 0
    cells: dict[tuple[int, int], list[int]] = {}
    for i, h in enumerate(heroes):
        cells.setdefault(((h.x + offset) // side, (h.y + offset) // side), []).append(i)
    order = [cells[key] for key in sorted(cells)]
    rng.shuffle(order)
    return [ids for ids in order if len(ids) > 1]


def run_lns(instance: Instance, params: dict[str, Any], options: SolveOptions, report: Report) -> Result:
    rule = rules(instance, params)
    deadline = deadline_of(options, instance)
    state = _State(instance, params)
    best = state.start
    report(float(best), None)
    rng = random.Random(options.seed)
    ceiling = sum(state.reach)  # every stone in reach: nothing is left to find (the problem's own bound)
    size, largest, passes = WINDOW_HEROES, WINDOW_HEROES, 0
    whole = False  # a pass has dealt every hero in one window: larger windows hold nothing more
    while best < ceiling and size <= WINDOW_HEROES * GROWTH and not whole and time.monotonic() < deadline:
        passes += 1
        largest = size
        gained = 0
        for heroes in windows(instance, size, passes % 2 == 0, rng):
            if best >= ceiling or time.monotonic() >= deadline:
                break
            # CP-SAT's time in proportion to the heroes the window holds: a window larger than the map holds all
            # of them, no more (a 300-hero map's last pass once gave one window 8 times the time of 120 heroes)
            seconds = WINDOW_DETERMINISTIC_S * len(heroes) / WINDOW_HEROES
            gain = state.redeal(heroes, seconds, options.seed, deadline)
            whole = len(heroes) == len(instance.heroes) and not gain  # (a gain: another pass may gain again)
            if gain:
                gained += gain
                best += gain
                report(float(best), None)
        if gained <= SMALL_GAIN * best:
            size *= 2
    what = f"greedy start {state.start:,}"
    if passes:
        what += f", then CP-SAT on windows of {WINDOW_HEROES}-{largest} heroes, {passes} pass{'es' * (passes != 1)}"
    stop = "no window of any size found a better deal"
    if best >= ceiling:
        stop = ""  # every stone in reach falls: the problem's own bound proves it optimal
    elif time.monotonic() >= deadline:
        stop = "time limit"
    if rule.target is not None and best < rule.target:
        return Result(Status.UNKNOWN, message=f"{what}: short of the target {rule.target}", stop=stop)
    return Result(Status.FEASIBLE, sequence_from_merges(instance, state.d), best, None, what, stop=stop)
