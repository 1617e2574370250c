"""Time-indexed MILP: x[i,e,t] = power 2^e stands on starting square i after t moves.

m[i,j,e,t] = 1 when at step t the queen on i (power 2^e) captures the one on
j.  Square i's state flows: it loses 2^e when its queen leaves or is captured
at e, and gains 2^e when captured at e−1.  A capture needs every starting
square strictly between empty; with one move per step this aggregates into
one constraint per (blocking square, step).  Because a square's power only
grows by one per capture onto it, m[i,j,e,t] exists only when
(e − e_i) + (e − e_j) ≤ t.  Cuts: total moves ≤ Q − bound (component popcount +
line-of-sight), which alone proves "K unreachable" whenever K < bound.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from mipgames.core.problem import Built, SolveOptions
from mipgames.queens.prep import Prep, prepare


def capture_vars(prep: Prep) -> list[tuple[int, int, int, int]]:
    """(i, j, e, t) of every capture the time index allows."""
    exps = prep.geo.exps
    return [
        (i, j, e, t)
        for t in range(prep.steps)
        for (i, j), es in prep.pairs.items()
        for e in es
        if (e - exps[i]) + (e - exps[j]) <= t
    ]


def build_time_indexed(instance, params: dict[str, Any], options: SolveOptions) -> Built:
    import pulp

    prep = prepare(instance, params)
    exps, q, steps = prep.geo.exps, prep.size, prep.steps
    model = pulp.LpProblem("queens_time_indexed", pulp.LpMinimize)
    m = {key: pulp.LpVariable("m_{}_{}_{}_{}".format(*key), cat="Binary") for key in capture_vars(prep)}
    out = defaultdict(list)
    hit = defaultdict(list)
    at_step = defaultdict(list)
    for (i, j, e, t), var in m.items():
        out[i, e, t].append(var)
        hit[j, e, t].append(var)
        at_step[t].append(var)
    x: dict[tuple[int, int, int], Any] = {}

    def state(i: int, e: int, t: int):
        if t == 0:
            return 1 if e == exps[i] else 0
        if not exps[i] <= e <= min(prep.hi[i], exps[i] + t):
            return 0
        if (i, e, t) not in x:
            x[i, e, t] = pulp.LpVariable(f"x_{i}_{e}_{t}", 0, 1)
        return x[i, e, t]

    for t in range(steps):
        for i in range(q):
            for e in range(exps[i], min(prep.hi[i], exps[i] + t + 1) + 1):
                leaving = pulp.lpSum(out[i, e, t]) + pulp.lpSum(hit[i, e, t])
                now = state(i, e, t)
                if out[i, e, t] or hit[i, e, t]:
                    model += leaving <= now, f"busy_{i}_{e}_{t}"
                model += state(i, e, t + 1) == now - leaving + pulp.lpSum(hit[i, e - 1, t]), f"flow_{i}_{e}_{t}"
    blocked = defaultdict(list)
    for (i, j, _e, t), var in m.items():
        for k in prep.between(i, j):
            blocked[k, t].append(var)
    for (k, t), vars_ in blocked.items():
        occupied = pulp.lpSum(state(k, e, t) for e in range(exps[k], prep.hi[k] + 1))
        model += pulp.lpSum(vars_) + occupied <= 1, f"sight_{k}_{t}"
    moves = pulp.lpSum(m.values())
    unit = pulp.LpVariable("unit", 1, 1, cat="Integer")  # keeps constant-only rows (e.g. 0 == 1) from being dropped
    if prep.minimise:
        active = [pulp.LpVariable(f"y_{t}", cat="Binary") for t in range(steps)]
        for t in range(steps):
            model += pulp.lpSum(at_step[t]) == active[t], f"step_{t}"
            if t:
                model += active[t] <= active[t - 1], f"idle_last_{t}"
        model += q * unit - moves
    else:
        for t in range(steps):
            model += pulp.lpSum(at_step[t]) == unit, f"step_{t}"
    model += moves <= (q - prep.bound) * unit, "popcount_bound"
    return Built(
        model,
        {"m": m, "prep": prep},
        has_objective=prep.minimise,
        stats={"captures": len(m), "states": len(x), "steps": steps, "bound": prep.bound},
    )
