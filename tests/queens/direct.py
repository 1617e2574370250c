"""Solves a formulation in-process (build, solve, decode, replay) without the shared runner's isolation."""

from __future__ import annotations

from mipgames.core.problem import SolveOptions
from mipgames.queens.problem import PROBLEM


def solve_direct(instance, formulation: str, minimise: bool = False, time_limit: float = 20.0):
    """Returns (status, moves or None, verdict or None); status is optimal/feasible/infeasible/unknown."""
    params = {"minimise": minimise}
    form = PROBLEM.formulations[formulation]
    built = form.build(instance, params, SolveOptions(time_limit=time_limit))
    if form.kind == "mip":
        import pulp

        built.model.solve(pulp.PULP_CBC_CMD(msg=False, timeLimit=time_limit, threads=1))
        status = {1: "optimal", -1: "infeasible"}.get(built.model.status, "unknown")
        if status == "optimal" and built.model.sol_status == 2:
            status = "feasible"
        value = pulp.value
    else:
        from ortools.sat.python import cp_model

        solver = cp_model.CpSolver()
        solver.parameters.max_time_in_seconds = time_limit
        solver.parameters.num_workers = 1
        code = solver.solve(built.model)
        status = {cp_model.OPTIMAL: "optimal", cp_model.FEASIBLE: "feasible", cp_model.INFEASIBLE: "infeasible"}.get(
            code, "unknown"
        )
        value = solver.value
    if status not in ("optimal", "feasible"):
        return status, None, None
    moves = form.decode(instance, params, built.handles, value)
    return status, moves, PROBLEM.evaluate(instance, params, moves)
