"""PuLP formulations (all coefficients integral, so the cpsat backend can translate them).

``baseline``: the coursework MILP of the spec (x[t, cell, turns] over every tile,
cell and turn; h/v mismatch binaries bounded by per-colour differences of the
true rotation tables).  ``typed`` (default): match literals per inner edge and
colour (``build_typed``'s ``link``) over candidates restricted by frame typing,
hints and symmetry breaking, one variable per distinct colouring, and the
colour-parity bound as a row; in decision mode
one colour per inner edge shared by both sides (equalities), after pruning
candidates whose colours no neighbour can show.
"""

from __future__ import annotations

from typing import Any

from mipgames.core.problem import Built, SolveOptions
from mipgames.edge_matching import candidates
from mipgames.edge_matching.candidates import allowed_turns
from mipgames.edge_matching.instance import Instance
from mipgames.edge_matching.simulate import (
    colour_count_bound,
    inner_edges,
    mode_of,
    turned,
)


def _assignment(prob, inst: Instance, cands: list[list[tuple[int, int]]]):
    """x literals per cell, each cell one (tile, turns), each tile one (cell, turns)."""
    import pulp

    x = [[(t, a, pulp.LpVariable(f"x_{t}_{i}_{a}", cat="Binary")) for t, a in cands[i]] for i in range(inst.cells)]
    by_tile: list[list[Any]] = [[] for _ in range(inst.cells)]
    for i, row in enumerate(x):
        prob += pulp.lpSum(v for _, _, v in row) == 1, f"cell_{i}"
        for t, _, v in row:
            by_tile[t].append(v)
    for t, vs in enumerate(by_tile):
        prob += pulp.lpSum(vs) == 1, f"tile_{t}"
    return x


def _shows(inst: Instance, row, s: int) -> dict[int, list[Any]]:
    out: dict[int, list[Any]] = {}
    for t, a, v in row:
        out.setdefault(turned(inst.tiles[t], a)[s], []).append(v)
    return out


def build_baseline(inst: Instance, params: dict[str, Any], options: SolveOptions) -> Built:
    """The coursework model; frame and hints become fixed-to-zero x (they are hard rules)."""
    import pulp

    decision = mode_of(params) == "decision"
    prob = pulp.LpProblem("edge_matching_baseline", pulp.LpMinimize)
    every = [(t, a) for t in range(inst.cells) for a in range(4)]
    x = _assignment(prob, inst, [every] * inst.cells)
    for i, row in enumerate(x):
        ok = {(t, a) for t in range(inst.cells) for a in _all_equal_turns(inst, *divmod(i, inst.cols), t)}
        banned = [v for t, a, v in row if (t, a) not in ok]
        if banned:
            prob += (
                pulp.lpSum(banned) == 0,
                f"rules_{i}",
            )  # frame and hints (an explicit row: every backend keeps it)
    colours = inst.colours()
    mism = []
    for e in inner_edges(inst):
        d = 0 if decision else pulp.LpVariable(f"{'h' if e.sa == 1 else 'v'}_{e.a}", cat="Binary")
        ya, yb = _shows(inst, x[e.a], e.sa), _shows(inst, x[e.b], e.sb)
        for colour in colours:
            diff = pulp.lpSum(ya.get(colour, [])) - pulp.lpSum(yb.get(colour, []))
            prob += diff <= d, f"e{e.a}_{e.sa}_{colour}_p"
            prob += -diff <= d, f"e{e.a}_{e.sa}_{colour}_m"
        mism.append(d)
    prob += pulp.lpSum(mism) if not decision else _zero_objective(x, inst)
    built = Built(prob, {"model": "x", "x": x})
    _warm(built, inst, options, canonical=False)
    return built


def _all_equal_turns(inst: Instance, r: int, c: int, t: int) -> list[int]:
    """Every turn (not only distinct ones) legal under the frame rule and hints."""
    ok = {turned(inst.tiles[t], a) for a in allowed_turns(inst, r, c, t)}
    pinned = {h.turns for h in inst.hints if (h.row, h.col) == (r, c) and h.tile == t}
    return [a for a in range(4) if turned(inst.tiles[t], a) in ok and (not pinned or a in pinned)]


def build_decision(inst: Instance, params: dict[str, Any], options: SolveOptions) -> Built:
    """Decision mode of ``typed``: one colour per inner edge, both sides' colour sums equal to it
    (the SAT encodings' shared edge colours), over pruned, typed, symmetry-broken candidates."""
    import pulp

    cands = candidates.prune(inst, candidates.candidates(inst))
    prob = pulp.LpProblem("edge_matching_decision", pulp.LpMinimize)
    x = _assignment(prob, inst, cands)
    for k, e in enumerate(inner_edges(inst)):
        ya, yb = _shows(inst, x[e.a], e.sa), _shows(inst, x[e.b], e.sb)
        z = {colour: pulp.LpVariable(f"z_{k}_{colour}", cat="Binary") for colour in sorted(set(ya) & set(yb))}
        prob += pulp.lpSum(z.values()) == 1, f"edge_{k}"
        for tag, side in (("a", ya), ("b", yb)):
            for colour, vs in side.items():
                prob += pulp.lpSum(vs) == (z.get(colour, 0)), f"link_{k}_{tag}_{colour}"
    prob += _zero_objective(x, inst)
    built = Built(prob, {"model": "x", "x": x}, stats={"candidates": sum(map(len, cands))})
    _warm(built, inst, options, canonical=True)
    return built


def _zero_objective(x, inst: Instance):
    """Decision mode: an objective that is identically 0 (every cell holds one tile) but names real
    variables; an empty objective makes PuLP add '__dummy', which GLPK leaves without a value.  The cell
    count stands as a variable fixed to it, not a constant: PuLP's LP and MPS writers drop constants, and
    an exported decision model's optimum read 16 on a 4x4 board."""
    import pulp

    cells = pulp.LpVariable("cells", inst.cells, inst.cells, cat="Integer")
    return pulp.lpSum(v for row in x for _, _, v in row) - cells


def _warm(built: Built, inst: Instance, options: SolveOptions, canonical: bool) -> None:
    if not options.warm_start:
        return
    from mipgames.edge_matching.lns import heuristic_placement

    found = heuristic_placement(
        inst,
        seed=options.seed,
        time_limit=0.1 * options.time_limit if options.time_limit else 5.0,
    )
    if found is None:
        return  # none found in its time (or none obeys the frame and the hints): nothing to start from
    start = candidates.canonical(inst, found) if canonical else found
    built.hint = {v: float((t, a) == start[i]) for i, row in enumerate(built.handles["x"]) for t, a, v in row}


LINKS = ("diff", "match", "tight")


def _side_vars(prob, tag: str, side: dict[int, list[Any]]) -> dict[int, list[Any]]:
    """Explicit binary 'side shows colour l' variables (equal to the x sums): branching candidates."""
    import pulp

    out = {}
    for colour, vs in side.items():
        y = pulp.LpVariable(f"y_{tag}_{colour}", cat="Binary")
        prob += y == pulp.lpSum(vs), f"y_{tag}_{colour}"
        out[colour] = [y]
    return out


def build_typed(
    inst: Instance,
    params: dict[str, Any],
    options: SolveOptions,
    link: str = "match",
    sides: bool = False,
) -> Built:
    """Typed, symmetry-broken candidates with the colour-parity bound as a row; ``link`` ties the
    mismatch indicator m to the two sides' colour sums ya_l, yb_l of each inner edge:

    - ``diff``: the baseline's rows  ±(ya_l − yb_l) ≤ m;
    - ``match`` (default): match literals z_l ≤ ya_l, z_l ≤ yb_l, m + Σ z_l = 1, and ya_l ≤ m for a
      colour l the other side can never show (LP: m ≥ 1 − Σ min(ya_l, yb_l), the total-variation
      distance, never weaker than the largest difference); fastest to prove the coursework on CBC
      and HiGHS (benchmarks/edge_matching/RESULTS.md);
    - ``tight``: ``match`` plus ya_l ≤ z_l + m and yb_l ≤ z_l + m, so m is bounded from both sides
      (once m = 0 the LP has ya = z = yb); measured slower on HiGHS.

    ``sides`` adds explicit binary side-colour variables (branching candidates; measured no gain).
    """
    import pulp

    decision = mode_of(params) == "decision"
    if decision:
        return build_decision(inst, params, options)
    cands = candidates.candidates(inst)
    prob = pulp.LpProblem("edge_matching_typed", pulp.LpMinimize)
    x = _assignment(prob, inst, cands)
    mism = []
    for k, e in enumerate(inner_edges(inst)):
        ya, yb = _shows(inst, x[e.a], e.sa), _shows(inst, x[e.b], e.sb)
        if sides:
            ya, yb = _side_vars(prob, f"{k}a", ya), _side_vars(prob, f"{k}b", yb)
        bad = pulp.LpVariable(f"m_{k}", cat="Binary")
        if link == "diff":
            for colour in sorted(set(ya) | set(yb)):
                diff = pulp.lpSum(ya.get(colour, [])) - pulp.lpSum(yb.get(colour, []))
                prob += diff <= bad, f"e{k}_{colour}_p"
                prob += -diff <= bad, f"e{k}_{colour}_m"
        else:
            z = {colour: pulp.LpVariable(f"z_{k}_{colour}", cat="Binary") for colour in sorted(set(ya) & set(yb))}
            prob += bad + pulp.lpSum(z.values()) == 1, f"e{k}_one"
            for tag, side in (("a", ya), ("b", yb)):
                for colour, vs in side.items():
                    if colour in z:
                        prob += z[colour] <= pulp.lpSum(vs), f"e{k}_{tag}{colour}_z"
                    if link == "tight" or colour not in z:
                        prob += (
                            pulp.lpSum(vs) <= (z.get(colour, 0)) + bad,
                            f"e{k}_{tag}{colour}_m",
                        )
        mism.append(bad)
    lb = colour_count_bound(inst)
    if lb:
        prob += pulp.lpSum(mism) >= lb, "parity"
    prob += pulp.lpSum(mism)
    built = Built(prob, {"model": "x", "x": x}, stats={"candidates": sum(map(len, cands))})
    _warm(built, inst, options, canonical=True)
    return built
