"""The default method: look for a perfect placement first, then for the fewest mismatches.

In the optimise model a mismatch is only a cost, so nothing propagates from a placed tile to
its neighbours and the search drifts: on the bundled planted 7x7 frame puzzle CP-SAT's
optimise model still has 9 mismatches after 60 s.  The decision model (colours of touching
sides equal, the scan order followed strictly) finds perfect placements of such puzzles in
seconds (benchmarks/edge_matching/RESULTS.md).  So, when the colour-count bound allows zero,
the decision model gets ``DECISION_SHARE`` of the time: a placement it finds is optimal,
and a proof that none exists raises the bound to 1.  The time left goes to the optimise
model, hinted with the annealer's placement.  In decision mode the decision model gets it all.
"""

from __future__ import annotations

import math
import time
from dataclasses import replace
from typing import Any

from mipgames.core.problem import Report, SolveOptions
from mipgames.core.result import Result
from mipgames.edge_matching import cpsat
from mipgames.edge_matching.decode import decode
from mipgames.edge_matching.instance import Instance
from mipgames.edge_matching.simulate import colour_count_bound, mode_of

DECISION_SHARE = 0.5


def _solve(inst: Instance, params: dict[str, Any], options: SolveOptions, report: Report) -> Result:
    """One in-process CP-SAT solve of the ``cpsat`` formulation (a decision model's objective is 0)."""
    from ortools.sat.python import cp_model

    from mipgames.backends.cpsat import apply_parameters

    start = time.monotonic()
    built = cpsat.build(inst, params, options)  # a warm start spends a tenth of the limit annealing
    model = built.model
    for var, val in (built.hint or {}).items():
        model.add_hint(var, int(val))
    solver = cp_model.CpSolver()
    if options.time_limit is not None:
        options = replace(options, time_limit=max(0.1, options.time_limit - (time.monotonic() - start)))
    apply_parameters(solver, options, built.cpsat_parameters)
    solver.parameters.log_search_progress = False

    class Progress(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            if built.has_objective:
                report(self.objective_value, self.best_objective_bound)

    code = solver.solve(model, Progress())
    bound = solver.best_objective_bound if built.has_objective else None
    if code == cp_model.INFEASIBLE:
        return Result("infeasible")
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Result("unknown", bound=bound)
    placement = decode(inst, params, built.handles, solver.value)
    objective = solver.objective_value if built.has_objective else 0.0
    return Result("optimal" if code == cp_model.OPTIMAL else "feasible", placement, objective, bound)


def run_portfolio(inst: Instance, params: dict[str, Any], options: SolveOptions, report: Report) -> Result:
    start = time.monotonic()
    limit = options.time_limit
    decision = {**params, "mode": "decision"}
    if mode_of(params) == "decision":
        out = _solve(inst, decision, options, report)
        if out.status == "infeasible":
            return Result("infeasible", message="no placement matches every inner edge (proved)")
        return replace(out, status="optimal") if out.solution is not None else out
    floor = float(colour_count_bound(inst))
    report(None, floor)
    if floor == 0:
        share = None if limit is None else DECISION_SHARE * limit
        first = _solve(inst, decision, replace(options, time_limit=share), report)
        if first.solution is not None:
            report(0.0, 0.0)
            return Result("optimal", first.solution, 0.0, 0.0, "a perfect placement (decision model)")
        if first.status == "infeasible":
            floor = 1.0
    left = None if limit is None else max(0.1, limit - (time.monotonic() - start))
    out = _solve(inst, params, replace(options, time_limit=left, warm_start=True), report)
    bound = max(floor, float(math.ceil(out.bound - 1e-6))) if out.bound is not None else floor
    if out.status == "infeasible":
        return Result("infeasible", message="no placement obeys the frame and the hints (proved)")
    if out.solution is None:
        return Result("unknown", bound=bound, message="no placement in time")
    status = "optimal" if out.status == "optimal" or out.objective <= bound else "feasible"
    return Result(status, out.solution, out.objective, min(bound, out.objective))
