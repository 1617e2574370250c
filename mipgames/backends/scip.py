"""SCIP in-process through PySCIPOpt (its wheel ships the solver), via PuLP's SCIP_PY translation.

SCIP's status words map directly: "optimal" is a completed search (the claim
rule still compares the dual bound), "gaplimit" and "timelimit" with a
solution are feasible, "infeasible" is a proof, "inforunbd" proves neither.
Progress and incumbents come from an event handler on new best solutions.
SCIP solves on one thread.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from mipgames.backends.base import Backend, Capabilities, Listener, Silent, Stopwatch, import_fault, number
from mipgames.backends.pulp_common import apply_hint, has_values, objective_constant, solved
from mipgames.core.problem import Built, Kind, SolveOptions
from mipgames.core.result import Result
from mipgames.core.status import Status

_STOPS = {
    "timelimit": "time limit",
    "gaplimit": "gap",
    "memlimit": "memory limit",
    "userinterrupt": "interrupted",
    "nodelimit": "node limit",
    "totalnodelimit": "node limit",
    "stallnodelimit": "node limit",
    "sollimit": "solution limit",
    "bestsollimit": "solution limit",
    "restartlimit": "restart limit",
}


def available() -> str | None:
    return import_fault("pyscipopt", "PySCIPOpt")


@functools.cache
def version() -> str:
    try:
        import pyscipopt

        return str(pyscipopt.Model().version())
    except (ImportError, AttributeError):
        return "unknown"


def _solver_class() -> Any:
    import pulp
    import pyscipopt

    class BestSolution(pyscipopt.Eventhdlr):
        """Reports every new best solution (value, dual bound and the solution itself) to the listener."""

        def __init__(self, lp: Any, listener: Listener, constant: float):
            super().__init__()
            self.lp, self.listener, self.constant = lp, listener, constant

        def eventinit(self) -> None:
            self.model.catchEvent(pyscipopt.SCIP_EVENTTYPE.BESTSOLFOUND, self)

        def eventexit(self) -> None:
            self.model.dropEvent(pyscipopt.SCIP_EVENTTYPE.BESTSOLFOUND, self)

        def eventexec(self, event: Any) -> None:
            model = self.model
            best = model.getBestSol()
            objective = number(str(model.getSolObjVal(best)))
            objective = None if objective is None else objective + self.constant
            bound = dual_bound(model, self.constant)
            self.listener.progress(objective, bound)
            self.listener.solution(objective, bound, lambda var: float(model.getSolVal(best, var.solverVar)))

    class ListenedSCIP(pulp.SCIP_PY):
        def __init__(self, listener: Listener, constant: float, seed: int, **kwargs: Any):
            super().__init__(**kwargs)
            self.listener, self.constant, self.seed = listener, constant, seed

        def callSolver(self, lp: Any) -> None:
            model = lp.solverModel
            # SCIP's sub-solvers (rapid learning) add to the shift: near 2^31 it overflowed into an error
            model.setParam("randomization/randomseedshift", self.seed % 2**30)
            if not isinstance(self.listener, Silent):
                model.includeEventhdlr(
                    BestSolution(lp, self.listener, self.constant), "mipgames-best", "reports new best solutions"
                )
            model.optimize()

    return ListenedSCIP


def dual_bound(model: Any, constant: float) -> float | None:
    """SCIP's dual bound, None while it is SCIP's infinity (1e20: no bound yet, which it prints as a number)."""
    value = number(str(model.getDualbound()))
    return None if value is None or model.isInfinity(abs(value)) else value + constant


def solve(built: Built, kind: Kind, options: SolveOptions, log_path: Path, listener: Listener = Silent()) -> Result:
    import pulp

    warm = options.warm_start and apply_hint(built)
    constant = objective_constant(built)
    solver = _solver_class()(
        listener,
        constant,
        options.seed,
        msg=True,
        timeLimit=options.time_limit,
        gapRel=options.gap if options.gap else None,
        warmStart=warm,
    )
    clock = Stopwatch()
    try:
        built.model.solve(solver)
    except (pulp.PulpSolverError, RuntimeError, ValueError) as exc:
        return Result(Status.ERROR, message=f"SCIP failed: {exc}", wall_time_s=clock.elapsed())
    wall = clock.elapsed()
    model = built.model.solverModel
    scip_status = model.getStatus()
    bound = dual_bound(model, constant)
    stop = _STOPS.get(scip_status, "")
    if scip_status == "infeasible":
        return Result(Status.INFEASIBLE, wall_time_s=wall, message=scip_status)
    if scip_status == "unbounded":
        return Result(Status.UNBOUNDED, wall_time_s=wall, message=scip_status)
    if scip_status == "inforunbd":
        return Result(Status.UNKNOWN, wall_time_s=wall, message="SCIP: infeasible or unbounded (not proved which)")
    if model.getNSols() > 0 and has_values(built):
        status = Status.OPTIMAL if scip_status == "optimal" else Status.FEASIBLE
        result = solved(built, status, bound, wall, scip_status)
        result.stop = stop
        return result
    if stop or scip_status == "unknown":
        return Result(Status.UNKNOWN, bound=bound, wall_time_s=wall, message=scip_status, stop=stop)
    return Result(Status.ERROR, wall_time_s=wall, message=f"SCIP: {scip_status}")


BACKEND = Backend(
    name="scip",
    description="SCIP (PySCIPOpt, in-process)",
    capabilities=Capabilities(kinds=("mip",), warm_start=True, progress_callback=True, incumbent_callback=True),
    solve=solve,
    version=version,
    available=available,
    progress=None,
)
