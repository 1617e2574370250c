"""Native CP-SAT models: time-indexed, and a capture-forest model without time steps.

Time-indexed: m[i,j,t] = the queen on i captures the one on j at step t;
occ[i,t] and lvl[i,t] (captures received so far) give the state, since a
square's power is its starting power × 2^lvl while occupied and a vacated
square stays empty.  Power equality and clear lines are enforced literals.

Forest: every square either survives (a root) or leaves once, into a parent.
Children arrive at a parent in increasing power order, the k-th at the
parent's power e_p + k, so the children's final powers are exactly
e_p, e_p+1, ..., e_p + (children − 1).  Departure times d only need to be a
partial order (child before parent, siblings by power, squares between before
the mover); any linear extension is a legal sequence.  No step index means far
less symmetry, which is what proofs of "K unreachable" need.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from mipgames.core.problem import Built, SolveOptions
from mipgames.queens.mip import capture_vars
from mipgames.queens.prep import prepare


def build_time_indexed(instance, params: dict[str, Any], options: SolveOptions) -> Built:
    from ortools.sat.python import cp_model

    prep = prepare(instance, params)
    exps, q, steps = prep.geo.exps, prep.size, prep.steps
    model = cp_model.CpModel()
    allowed: dict[tuple[int, int, int], list[int]] = defaultdict(list)
    for i, j, e, t in capture_vars(prep):
        allowed[i, j, t].append(e)
    m = {key: model.new_bool_var("m_{}_{}_{}".format(*key)) for key in allowed}
    occ = [[model.new_bool_var(f"occ_{i}_{t}") for t in range(steps + 1)] for i in range(q)]
    lvl = [[model.new_int_var(0, prep.hi[i] - exps[i], f"lvl_{i}_{t}") for t in range(steps + 1)] for i in range(q)]
    out = defaultdict(list)
    hit = defaultdict(list)
    at_step = defaultdict(list)
    for (i, j, t), var in m.items():
        out[i, t].append(var)
        hit[j, t].append(var)
        at_step[t].append(var)
        model.add(exps[i] + lvl[i][t] == exps[j] + lvl[j][t]).only_enforce_if(var)
        model.add_linear_expression_in_domain(
            lvl[i][t] + exps[i], cp_model.Domain.from_values(allowed[i, j, t])
        ).only_enforce_if(var)
        for k in prep.between(i, j):
            model.add_implication(var, ~occ[k][t])
    for i in range(q):
        model.add(occ[i][0] == 1)
        model.add(lvl[i][0] == 0)
        for t in range(steps):
            model.add(occ[i][t + 1] == occ[i][t] - sum(out[i, t]))
            model.add(lvl[i][t + 1] == lvl[i][t] + sum(hit[i, t]))
            model.add(sum(out[i, t]) + sum(hit[i, t]) <= occ[i][t])
    moves = sum(m.values())
    if prep.minimise:
        active = [model.new_bool_var(f"y_{t}") for t in range(steps)]
        for t in range(steps):
            model.add(sum(at_step[t]) == active[t])
            if t:
                model.add_implication(active[t], active[t - 1])
        model.minimize(q - moves)
    else:
        for t in range(steps):
            model.add(sum(at_step[t]) == 1)
    model.add(moves <= q - prep.bound)
    return Built(
        model,
        {"m": m, "prep": prep},
        has_objective=prep.minimise,
        stats={"captures": len(m), "steps": steps, "bound": prep.bound},
    )


def build_forest(instance, params: dict[str, Any], options: SolveOptions, timing: bool = True) -> Built:
    """``timing=False`` drops every departure-time constraint: a relaxation (used to study where the difficulty is)."""
    from ortools.sat.python import cp_model

    prep = prepare(instance, params)
    exps, q, hi = prep.geo.exps, prep.size, prep.hi
    model = cp_model.CpModel()
    horizon = q + max((h - e for h, e in zip(hi, exps)), default=0) + 1
    z = {(c, p): model.new_bool_var(f"z_{c}_{p}") for c, p in prep.pairs}
    root = [model.new_bool_var(f"root_{i}") for i in range(q)]
    grown = [[model.new_bool_var(f"g_{i}_{k}") for k in range(hi[i] - exps[i])] for i in range(q)]
    depart = [model.new_int_var(0, horizon, f"d_{i}") for i in range(q)]
    arrival = [[model.new_int_var(0, horizon, f"s_{i}_{k}") for k in range(hi[i] - exps[i])] for i in range(q)]
    parents = defaultdict(list)
    children = defaultdict(list)
    at_level = defaultdict(list)
    leaving = defaultdict(list)
    for (c, p), var in z.items():
        parents[c].append(var)
        children[p].append(var)
        as_power = []
        for v in prep.pairs[c, p]:
            a = model.new_bool_var(f"a_{c}_{p}_{v}")
            as_power.append(a)
            leaving[c, v].append(a)
            at_level[p, v - exps[p]].append(a)
            level = v - exps[c]
            if level > 0:
                model.add_implication(a, grown[c][level - 1])
            if level < len(grown[c]):
                model.add_implication(a, ~grown[c][level])
            if timing:
                model.add(depart[c] == arrival[p][v - exps[p]]).only_enforce_if(a)
        model.add(sum(as_power) == var)
        if timing:
            model.add(depart[c] < depart[p]).only_enforce_if(var)
            for k in prep.between(c, p):
                model.add(depart[k] < depart[c]).only_enforce_if(var)
    for i in range(q):
        model.add_exactly_one([root[i], *parents[i]])
        model.add(depart[i] == horizon).only_enforce_if(root[i])
        model.add(depart[i] < horizon).only_enforce_if(~root[i])
        model.add(sum(grown[i]) == sum(children[i]))
        for k in range(len(grown[i])):
            model.add(sum(at_level[i, k]) == grown[i][k])
            if k:
                model.add_implication(grown[i][k], grown[i][k - 1])
                model.add(arrival[i][k - 1] < arrival[i][k])
    _level_counts(model, prep, root, grown, leaving)
    if params.get("_strategy"):
        order = sorted(leaving.items(), key=lambda item: (item[0][1], item[0][0]))
        model.add_decision_strategy(
            [a for _, group in order for a in group], cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE
        )
    remaining = sum(root)
    model.add(remaining >= prep.bound)
    if prep.minimise:
        model.minimize(remaining)
    else:
        model.add(remaining <= prep.k)
    return Built(
        model,
        {"z": z, "depart": depart, "prep": prep},
        has_objective=prep.minimise,
        stats={"captures": len(z), "bound": prep.bound},
    )


def _level_counts(model, prep, root, grown, leaving) -> None:
    """Redundant binary-counter constraints that give the LP the arithmetic of powers.

    Each square ends at one level (one-hot: it leaves at that level or survives
    there).  Per component of the capture graph, level-v queens are the starting
    ones plus one per capture at level v−1; each capture at level v uses two of
    them and each survivor one: start_v + X_{v−1} = 2 X_v + R_v.
    """
    from mipgames.queens.geometry import components

    exps, hi, q = prep.geo.exps, prep.hi, prep.size
    comp = components(q, prep.pairs)
    captures = defaultdict(list)
    survivors = defaultdict(list)
    start: defaultdict[tuple[int, int], int] = defaultdict(int)
    for i in range(q):
        start[comp[i], exps[i]] += 1
        g = grown[i]
        levels = []
        for v in range(exps[i], hi[i] + 1):
            k = v - exps[i]
            stays = model.new_bool_var(f"r_{i}_{v}")
            levels.append(stays)
            survivors[comp[i], v].append(stays)
            captures[comp[i], v].extend(leaving[i, v])
            below = 1 if k == 0 else g[k - 1]
            above = g[k] if k < len(g) else 0
            model.add(sum(leaving[i, v]) + stays == below - above)
        model.add(sum(levels) == root[i])
    for c in set(comp):
        members = [i for i in range(q) if comp[i] == c]
        for v in range(min(exps[i] for i in members), max(hi[i] for i in members) + 1):
            model.add(start[c, v] + sum(captures[c, v - 1]) == 2 * sum(captures[c, v]) + sum(survivors[c, v]))
