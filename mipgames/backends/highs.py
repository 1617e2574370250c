"""HiGHS in-process through PuLP's highspy interface.

The status comes from HiGHS's model status (time limit with an incumbent is
``feasible``), the bound from ``mip_dual_bound``; PuLP hands HiGHS a minimisation
of the negated objective for a maximisation, so values are turned back.
HiGHS's default relative gap (1e-4) would let it stop short of optimal, so the
gap is 0 unless the user sets one.  Progress and incumbents come from HiGHS's
callbacks.  A warm start is given sparsely (only the hinted variables): HiGHS
completes a partial start by solving a sub-MIP, where a dense vector with
made-up zeros would simply be rejected as infeasible.
"""

from __future__ import annotations

import functools
import time
from pathlib import Path
from typing import Any

from mipgames.backends.base import (
    Backend,
    Capabilities,
    Listener,
    Silent,
    Stopwatch,
    import_fault,
    loading_ran_out,
    number,
    sense_of,
)
from mipgames.backends.pulp_common import objective_constant, solved
from mipgames.core.alarm import DeadlinePassed, interrupt_at
from mipgames.core.problem import Built, Kind, SolveOptions
from mipgames.core.result import Result
from mipgames.core.status import Status


def available() -> str | None:
    return import_fault("highspy", "highspy")


@functools.cache
def version() -> str:
    try:
        import highspy

        return str(highspy.Highs().version())
    except (ImportError, AttributeError):
        return "unknown"


@functools.cache
def _scheduler_hygiene() -> None:
    """HiGHS keeps one global thread pool per process, sized by the first solve's ``threads``.

    A later solve asking for another thread count fails ("Not Set"), and a
    forked solver process inherits a pool whose threads do not exist.  So the
    pool is dropped in every forked child (without waiting: its threads are
    not there) and rebuilt before every solve.
    """
    import os

    import highspy

    os.register_at_fork(after_in_child=lambda: highspy.Highs.resetGlobalScheduler(False))


def _solver_class() -> Any:
    import numpy as np
    import pulp

    class ListenedHiGHS(pulp.HiGHS):
        """PuLP's HiGHS plus a sparse MIP start and callbacks that report progress and incumbents."""

        def __init__(
            self,
            built: Built,
            start: dict[str, float] | None,
            listener: Listener,
            sign: float,
            constant: float,
            deadline: float | None,
            **kwargs: Any,
        ):
            super().__init__(**kwargs)
            self.built, self.start, self.listener = built, start, listener
            self.sign, self.constant, self.deadline = sign, constant, deadline

        def buildSolverModel(self, lp: Any) -> None:
            with interrupt_at(self.deadline):  # Python loops over short HiGHS calls: safe to stop between them
                super().buildSolverModel(lp)

        def callSolver(self, lp: Any) -> None:
            h = lp.solverModel
            if self.deadline is not None:  # what loading left of the limit
                h.setOptionValue("time_limit", max(0.01, self.deadline - time.monotonic()))
            columns = {v.name: v.index for v in lp.variables()}
            if self.start:
                index = np.array([columns[name] for name in self.start if name in columns], dtype=np.int32)
                value = np.array([self.start[name] for name in self.start if name in columns], dtype=np.float64)
                h.setSolution(len(index), index, value)
            if not isinstance(self.listener, Silent):
                h.cbMipImprovingSolution.subscribe(self._improved)
                h.cbMipInterrupt.subscribe(self._tick)
            super().callSolver(lp)

        def _natural(self, value: float) -> float | None:
            parsed = number(str(value))
            return None if parsed is None else self.sign * parsed + self.constant

        def _improved(self, event: Any) -> None:
            out = event.data_out
            solution = list(out.mip_solution)

            def values(var: Any) -> float:
                return float(solution[var.index])

            self.listener.solution(
                self._natural(out.objective_function_value), self._natural(out.mip_dual_bound), values
            )

        def _tick(self, event: Any) -> None:
            out = event.data_out
            self.listener.progress(self._natural(out.mip_primal_bound), self._natural(out.mip_dual_bound))

    return ListenedHiGHS


def solve(built: Built, kind: Kind, options: SolveOptions, log_path: Path, listener: Listener = Silent()) -> Result:
    import highspy
    import pulp

    _scheduler_hygiene()
    highspy.Highs.resetGlobalScheduler(True)
    start = None
    if options.warm_start and built.hint:
        start = {var.name: float(val) for var, val in built.hint.items()}
    sense = sense_of(built, kind)
    sign = -1.0 if sense == "max" else 1.0
    solver = _solver_class()(
        built,
        start,
        listener,
        sign,
        objective_constant(built),
        options.deadline(),
        msg=True,
        timeLimit=options.time_limit,
        threads=options.threads,
        gapRel=options.gap if options.gap is not None else 0.0,
        random_seed=options.seed,
    )
    clock = Stopwatch()
    try:
        built.model.solve(solver)
    except DeadlinePassed:
        return loading_ran_out("HiGHS", clock.elapsed())
    except (pulp.PulpSolverError, RuntimeError) as exc:
        return Result(Status.ERROR, message=f"HiGHS failed: {exc}", wall_time_s=clock.elapsed())
    wall = clock.elapsed()
    h = built.model.solverModel
    model_status = h.getModelStatus()
    info = h.getInfo()
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
    stop = {
        S.kTimeLimit: "time limit",
        S.kInterrupt: "interrupted",
        S.kIterationLimit: "iteration limit",
        S.kSolutionLimit: "solution limit",
        S.kMemoryLimit: "memory limit",
    }.get(model_status, "")
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
    description="HiGHS (highspy, in-process)",
    capabilities=Capabilities(
        kinds=("mip",), warm_start=True, threads=True, progress_callback=True, incumbent_callback=True
    ),
    solve=solve,
    version=version,
    available=available,
    progress=None,
)
