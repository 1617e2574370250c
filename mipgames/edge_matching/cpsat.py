"""Native CP-SAT models.

``cpsat`` (default): the SAT-style encoding (literals per cell, tile type and turn;
exactly-one per cell, each type as often as it has copies; colour literals per edge
linked by equalities; Heule's colour-pair clauses), with frame typing, symmetry
breaking and a scan-order strategy.  ``cpsat-table``: per-cell table over (tile,
turns, colours of the inner sides) with shared colour variables and all-different.
In decision mode a model carries ``search_parameters``: the scan order followed
strictly (FIXED_SEARCH) with clause learning and no LP, every worker on the full
problem.  Feature switches exist so that benchmarks/edge_matching can measure each
ingredient.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from mipgames.core.problem import Built, SolveOptions
from mipgames.edge_matching import candidates
from mipgames.edge_matching.instance import Instance
from mipgames.edge_matching.simulate import boundary_sides, inner_edges, mode_of, turned


@dataclass(frozen=True)
class Features:
    table: bool = False  # table model (else the boolean SAT-style model)
    typing: bool = True  # frame typing in the domains (else the frame as side constraints)
    symmetry: bool = True  # pin a corner tile / tile 0's turn
    prune: bool = True  # decision mode: drop candidates whose colours cannot meet a neighbour
    counts: bool = False  # decision mode: each colour fills exactly (its side count / 2) edges
    strategy: bool = True  # branch on cells in scan order
    types: bool = True  # boolean model: tiles equal up to turning become one type with a multiplicity
    pairs: bool = True  # decision mode: clauses forbidding colour pairs no candidate shows on two sides of a cell
    order: str = "rim"  # scan order of the search strategy: rim (frame first), rows (row by row), spiral


FULL = Features()
TABLE = Features(table=True)
PLAIN = Features(table=True, typing=False, symmetry=False, prune=False, strategy=False)


def cell_candidates(inst: Instance, params: dict[str, Any], f: Features) -> list[list[tuple[int, int]]]:
    cands = candidates.candidates(inst, symmetry=f.symmetry)
    if not f.typing and inst.frame and not inst.hints:
        # untyped: every tile, every distinct turn; the frame is enforced by the colour domains
        from mipgames.edge_matching.simulate import distinct_turns

        cands = [[(t, a) for t in range(inst.cells) for a in distinct_turns(inst.tiles[t])] for _ in range(inst.cells)]
    if f.prune and mode_of(params) == "decision":
        cands = candidates.prune(inst, cands)
    return cands


def build(inst: Instance, params: dict[str, Any], options: SolveOptions, f: Features = FULL) -> Built:
    from ortools.sat.python import cp_model

    m = cp_model.CpModel()
    decision = mode_of(params) == "decision"
    edges = inner_edges(inst)
    typed = f.types and not f.table and not inst.hints
    if typed:
        members = candidates.tile_types(inst)
        cands = cell_candidates(inst, params, replace(f, symmetry=False))
        cands = [[(t, a) for t, a in row if t in members] for row in cands]
    else:
        members = {t: [t] for t in range(inst.cells)}
        cands = cell_candidates(inst, params, f)
    if f.table:
        handles, mism = _table(m, inst, cands, edges, decision, f)
    else:
        handles, mism = _bool(m, inst, cands, edges, decision, members)
    if typed and f.symmetry:
        _pin_type(m, inst, handles, members)
    if f.pairs and decision and not f.table:
        _pairs(m, inst, cands, handles, edges)
    if f.counts and decision and inst.frame:
        _counts(m, inst, handles, edges)
    if not decision:
        m.minimize(sum(mism))
    if f.strategy:
        order = _scan_order(inst, f.order)
        if f.table:
            m.add_decision_strategy(
                [handles["tile"][i] for i in order],
                cp_model.CHOOSE_FIRST,
                cp_model.SELECT_MIN_VALUE,
            )
        else:
            lits = [lit for i in order for _, _, lit in handles["x"][i]]
            m.add_decision_strategy(lits, cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE)
    built = Built(
        m,
        handles,
        has_objective=not decision,
        stats={"candidates": sum(map(len, cands))},
        cpsat_parameters=search_parameters(options) if decision and f.strategy else None,
    )
    if options.warm_start:
        from mipgames.edge_matching.lns import heuristic_placement

        found = heuristic_placement(inst, seed=options.seed, time_limit=_warm_time(options))
        start = candidates.canonical(inst, found) if found and not typed else found
        built.hint = hint(inst, handles, start, f.table) if start else None
    return built


def search_parameters(options: SolveOptions) -> dict[str, Any]:
    """Decision mode: follow the scan-order strategy strictly (FIXED_SEARCH) with clause learning and
    no LP, i.e. a backtracker that learns; measured 0/6 -> 4/6 solved on em_7_4_8 and planted 7x7s
    (benchmarks/edge_matching/RESULTS.md).  With several threads every worker searches the full
    problem (by default CP-SAT gives the second one to feasibility jump, useless here): one fixed
    search and quick-restart portfolios for diversity."""
    from ortools.sat.python import cp_model_helper

    out: dict[str, Any] = {
        "search_branching": cp_model_helper.SatParameters.FIXED_SEARCH,
        "linearization_level": 0,
    }
    if options.threads > 1:
        out["num_full_subsolvers"] = options.threads
        out["subsolvers"] = [
            "fixed",
            "quick_restart_no_lp",
            "no_lp",
            "quick_restart",
            "default_lp",
        ][: options.threads]
        out["use_feasibility_jump"] = False
    return out


def _warm_time(options: SolveOptions) -> float:
    return 0.1 * options.time_limit if options.time_limit else 5.0


def _table(m, inst, cands, edges, decision, f):
    """Per-cell table; colour variables shared by neighbours (decision) or per side (optimise)."""
    n = inst.cells
    ncol = max(max(t) for t in inst.tiles) + 1
    side_var: dict[tuple[int, int], Any] = {}
    mism = []
    for e in edges:
        if decision:
            v = m.new_int_var(0, ncol - 1, f"e{e.a}_{e.sa}")
            side_var[e.a, e.sa] = side_var[e.b, e.sb] = v
        else:
            va = m.new_int_var(0, ncol - 1, f"s{e.a}_{e.sa}")
            vb = m.new_int_var(0, ncol - 1, f"s{e.b}_{e.sb}")
            side_var[e.a, e.sa], side_var[e.b, e.sb] = va, vb
            bad = m.new_bool_var(f"m{e.a}_{e.sa}")
            m.add(va == vb).only_enforce_if(~bad)
            m.add(va != vb).only_enforce_if(bad)
            mism.append(bad)
    tiles, turns = [], []
    for i in range(n):
        tv = m.new_int_var_from_domain(cp_model_domain({t for t, _ in cands[i]}), f"t{i}")
        av = m.new_int_var(0, 3, f"a{i}")
        if not f.typing and inst.frame:
            for s, out in enumerate(boundary_sides(inst, *divmod(i, inst.cols))):
                if out:
                    side_var[i, s] = m.new_constant(0)
        sides = [s for s in range(4) if (i, s) in side_var]
        rows = sorted({(t, a, *(turned(inst.tiles[t], a)[s] for s in sides)) for t, a in cands[i]})
        if not rows:
            m.add_bool_or([])  # no candidate: infeasible, said plainly
        m.add_allowed_assignments([tv, av, *(side_var[i, s] for s in sides)], rows)
        if not f.typing and inst.frame:
            for s, out in enumerate(boundary_sides(inst, *divmod(i, inst.cols))):
                if not out:
                    m.add(side_var[i, s] != 0)  # no grey inside
        tiles.append(tv)
        turns.append(av)
    m.add_all_different(tiles)
    return {"model": "table", "tile": tiles, "turn": turns}, mism


def cp_model_domain(values):
    from ortools.sat.python import cp_model

    return cp_model.Domain.from_values(sorted(values or {0}))  # an empty cell is made infeasible by its table


def _bool(m, inst, cands, edges, decision, members):
    """SAT-style: literal per (cell, tile type, turns); exactly one per cell, each type as often as
    it has copies (exactly one per tile when all tiles differ); colour literals per edge."""
    n = inst.cells
    x = [[(t, a, m.new_bool_var(f"x{i}_{t}_{a}")) for t, a in cands[i]] for i in range(n)]
    by_tile: dict[int, list[Any]] = {t: [] for t in members}
    for i in range(n):
        m.add_exactly_one([lit for _, _, lit in x[i]])
        for t, _, lit in x[i]:
            by_tile[t].append(lit)
    for t, lits in by_tile.items():
        if len(members[t]) == 1:
            m.add_exactly_one(lits)
        else:
            m.add(sum(lits) == len(members[t]))

    def shows(i, s):
        out: dict[int, list[Any]] = {}
        for t, a, lit in x[i]:
            out.setdefault(turned(inst.tiles[t], a)[s], []).append(lit)
        return out

    mism = []
    colour_lits = []
    for e in edges:
        ya, yb = shows(e.a, e.sa), shows(e.b, e.sb)
        common = sorted(set(ya) & set(yb))
        if decision:
            lits = {colour: m.new_bool_var(f"c{e.a}_{e.sa}_{colour}") for colour in common}
            m.add_exactly_one(list(lits.values()))
            for side in (ya, yb):
                for colour, group in side.items():
                    m.add(sum(group) == (lits.get(colour, 0)))
            colour_lits.append(lits)
        else:
            z = []
            for colour in common:
                zl = m.new_bool_var(f"z{e.a}_{e.sa}_{colour}")
                m.add(zl <= sum(ya[colour]))
                m.add(zl <= sum(yb[colour]))
                m.add(zl >= sum(ya[colour]) + sum(yb[colour]) - 1)
                z.append(zl)
            bad = m.new_bool_var(f"m{e.a}_{e.sa}")
            m.add(bad + sum(z) == 1)  # an explicit 0/1 term: the objective's trivial bound is then 0
            mism.append(bad)
    return {"model": "x", "x": x, "colour": colour_lits, "members": members}, mism


def _pin_type(m, inst, handles, members):
    """Symmetry with types: some copy of the pinned corner tile's type sits top-left (top-left or
    top-right on a rectangle), which any solution satisfies after a whole-board turn."""
    pin = candidates.pinned_corner(inst)
    if pin is None:
        return
    rep = next(r for r, ts in members.items() if pin in ts)
    corners = (0,) if inst.rows == inst.cols else (0, inst.cols - 1)
    m.add_bool_or([lit for i in corners for t, _, lit in handles["x"][i] if t == rep])


def _pairs(m, inst, cands, handles, edges):
    """Heule's 'colours that cannot meet' clauses: not (side s shows a and side s' shows b) when no
    candidate of the cell shows that pair; they let unit propagation work between edges directly."""
    lits_of = {}
    for e, lits in zip(edges, handles["colour"]):
        lits_of[e.a, e.sa] = lits_of[e.b, e.sb] = lits
    for i in range(inst.cells):
        shapes = {turned(inst.tiles[t], a) for t, a in cands[i]}
        for s in range(4):
            for s2 in range(s + 1, 4):
                if (i, s) not in lits_of or (i, s2) not in lits_of:
                    continue
                seen = {(sh[s], sh[s2]) for sh in shapes}
                for ca, la in lits_of[i, s].items():
                    for cb, lb in lits_of[i, s2].items():
                        if (ca, cb) not in seen:
                            m.add_bool_or([~la, ~lb])


def _counts(m, inst, handles, edges):
    """Each inner colour fills exactly half of its side count (frame puzzles: every non-grey side is inner)."""
    total: dict[int, int] = {}
    for t in inst.tiles:
        for c in t:
            if c:
                total[c] = total.get(c, 0) + 1
    if handles["model"] == "x":
        for col, cnt in total.items():
            lits = [lits[col] for lits in handles["colour"] if col in lits]
            m.add(sum(lits) == cnt // 2)


def _scan_order(inst: Instance, kind: str = "rim") -> list[int]:
    """Frame first (rim cells clockwise from the top-left), then the inside row by row:
    the rim's few colours prune early."""
    R, C = inst.rows, inst.cols
    if kind == "spiral":
        out, seen = [], set()
        r0, c0, r1, c1 = 0, 0, R - 1, C - 1
        while r0 <= r1 and c0 <= c1:
            ring = [(r0, c) for c in range(c0, c1 + 1)] + [(r, c1) for r in range(r0 + 1, r1 + 1)]
            ring += [(r1, c) for c in range(c1 - 1, c0 - 1, -1)] + [(r, c0) for r in range(r1 - 1, r0, -1)]
            for rc in ring:
                if rc not in seen:
                    seen.add(rc)
                    out.append(rc[0] * C + rc[1])
            r0, c0, r1, c1 = r0 + 1, c0 + 1, r1 - 1, c1 - 1
        return out
    if not inst.frame or kind == "rows":
        return list(range(R * C))
    rim = [(0, c) for c in range(C)] + [(r, C - 1) for r in range(1, R)]
    rim += [(R - 1, c) for c in range(C - 2, -1, -1)] + [(r, 0) for r in range(R - 2, 0, -1)]
    seen, order = set(), []
    for r, c in rim + [(r, c) for r in range(R) for c in range(C)]:
        if (r, c) not in seen:
            seen.add((r, c))
            order.append(r * C + c)
    return order


def hint(inst, handles, placement, table: bool):
    """Hint values of a model's handles for a placement (typed models: by tile type and colouring)."""
    if table:
        out = {}
        for i, (t, a) in enumerate(placement):
            out[handles["tile"][i]] = t
            out[handles["turn"][i]] = a
        return out
    rep = {u: r for r, ts in handles["members"].items() for u in ts}
    want = [(rep[t], turned(inst.tiles[t], a)) for t, a in placement]
    return {
        lit: int((t, turned(inst.tiles[t], a)) == want[i]) for i, row in enumerate(handles["x"]) for t, a, lit in row
    }
