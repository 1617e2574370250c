"""HiGHS in-process through PuLP's highspy interface.

The status comes from HiGHS's model status (time limit with an incumbent is
``feasible``), the bound from ``mip_dual_bound``; PuLP hands HiGHS a minimisation
of the negated objective for a maximisation, so the bound is turned back.
HiGHS's default relative gap (1e-4) would let it stop short of optimal, so the
gap is 0 unless the user sets one.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from mipgames.backends.base import Backend, Progress, Stopwatch, number, sense_of
from mipgames.core.result import Result
from mipgames.core.status import Status
from mipgames.backends.pulp_common import objective_constant, solved
from mipgames.core.problem import Built, Kind, SolveOptions

# HiGHS B&B table rows: "   B  12  0  3  0.00%  -1002.47  -981  2.19%  ..." (src, nodes, queue, leaves, expl, dual bd, primal bd, gap)
_ROW = re.compile(r"^\s*[A-Za-z]?\s+\d+\s+\d+\s+\d+\s+\S+%\s+(\S+)\s+(\S+)\s+\S+")


def available() -> str | None:
    try:
        import highspy  # noqa: F401
    except ImportError:
        return "highspy is not installed"
    return None


@functools.cache
def version() -> str:
    try:
        import highspy

        return highspy.Highs().version()
    except (ImportError, AttributeError):
        return "unknown"


def progress(line: str, sense: str) -> Progress | None:
    found = _ROW.match(line)
    if not found:
        return None
    sign = -1.0 if sense == "max" else 1.0
    bound, inc = number(found.group(1)), number(found.group(2))
    return (None if inc is None else sign * inc, None if bound is None else sign * bound)


def _solver_class():
    import highspy
    import pulp

    class WarmHiGHS(pulp.HiGHS):
        """PuLP's HiGHS plus a MIP start taken from the variables' initial values."""

        def __init__(self, start: list[float] | None = None, **kwargs):
            super().__init__(**kwargs)
            self.start = start

        def callSolver(self, lp):
            if self.start is not None:
                sol = highspy.HighsSolution()
                sol.col_value = self.start
                sol.value_valid = True
                lp.solverModel.setSolution(sol)
            super().callSolver(lp)

    return WarmHiGHS


def solve(built: Built, kind: Kind, options: SolveOptions, log_path: Path) -> Result:
    import highspy
    import pulp

    start = None
    if options.warm_start and built.hint:
        hint = {var.name: val for var, val in built.hint.items()}
        start = [float(hint.get(v.name, 0.0)) for v in built.model.variables()]
    solver = _solver_class()(
        start=start,
        msg=True,
        timeLimit=options.time_limit,
        threads=options.threads,
        gapRel=options.gap if options.gap is not None else 0.0,
        random_seed=options.seed,
    )
    clock = Stopwatch()
    try:
        built.model.solve(solver)
    except (pulp.PulpSolverError, RuntimeError) as exc:
        return Result("error", message=f"HiGHS failed: {exc}", wall_time_s=clock.elapsed())
    wall = clock.elapsed()
    h = built.model.solverModel
    model_status = h.getModelStatus()
    info = h.getInfo()
    sense = sense_of(built, kind)
    sign = -1.0 if sense == "max" else 1.0
    bound = number(str(info.mip_dual_bound))
    bound = None if bound is None else sign * bound + objective_constant(built)
    status_name = h.modelStatusToString(model_status)
    S = highspy.HighsModelStatus
    if model_status == S.kInfeasible:
        return Result(Status.INFEASIBLE, wall_time_s=wall, message=status_name)
    if model_status == S.kUnbounded:
        return Result(Status.UNBOUNDED, wall_time_s=wall, message=status_name)
    if model_status == S.kUnboundedOrInfeasible:
        return Result(Status.UNKNOWN, wall_time_s=wall, message=f"HiGHS: {status_name} (not proved which)")
    stop = {S.kTimeLimit: "time limit", S.kInterrupt: "interrupted", S.kIterationLimit: "iteration limit",
            S.kSolutionLimit: "solution limit", S.kMemoryLimit: "memory limit"}.get(model_status, "")
    has_solution = info.primal_solution_status == 2  # kSolutionStatusFeasible
    if has_solution:
        # kOptimal also means "within the gap": the claim rule compares the dual bound with the objective.
        status = Status.OPTIMAL if model_status == S.kOptimal else Status.FEASIBLE
        result = solved(built, status, bound, wall, status_name)
        result.stop = stop or ("gap" if options.gap else "")
        return result
    if stop or model_status in (S.kObjectiveBound, S.kObjectiveTarget, S.kUnknown):
        return Result(Status.UNKNOWN, bound=bound, wall_time_s=wall, message=status_name, stop=stop)
    return Result(Status.ERROR, wall_time_s=wall, message=f"HiGHS: {status_name}")


BACKEND = Backend(
    name="highs",
    kinds=("mip",),
    description="HiGHS (highspy, in-process)",
    solve=solve,
    version=version,
    available=available,
    progress=progress,
    warm_start=True,
)
