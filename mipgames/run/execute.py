"""What the solver process does: build, solve and decode (or run an algorithm), then hand back plain data.

Everything returned crosses a process boundary, so it is plain data: the
status the solver *reported*, its objective and bound in natural units, the
solution as JSON, and who would prove what.  Nothing here decides a claim;
the runner does, after the simulator has replayed the solution.
"""

from __future__ import annotations

import os
import resource
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from mipgames.core.alarm import DeadlinePassed, interrupt_at
from mipgames.core.errors import UsageError
from mipgames.core.problem import Built, Problem, SolveOptions
from mipgames.core.status import Status, better
from mipgames.run.export import describe, export_model
from mipgames.run.plan import Plan

Notify = Callable[[Any], None]

SOLVER_RESERVE_S = 0.2
"""Time kept back from the solver's own limit for decoding and answering before the deadline."""
INCUMBENT_EVERY_S = 0.5
"""At most this often an incumbent solution crosses to the parent (the last one always does, at the end)."""


def remaining(deadline: float | None, reserve: float = 0.0) -> float | None:
    """Seconds left before ``deadline`` (a time.monotonic() value), minus ``reserve``; at least a token amount."""
    if deadline is None:
        return None
    return max(0.05, deadline - time.monotonic() - reserve)


def usage() -> dict[str, float]:
    """CPU time and peak memory of this process and the solver binaries it waited for."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return {
        "cpu_time_s": round(me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime, 4),
        "peak_rss_mb": round(max(me.ru_maxrss, kids.ru_maxrss) / 1024.0, 1),
    }


class Reporter:
    """The ``report(incumbent, bound, solution)`` hook handed to algorithms: progress and incumbents to the parent."""

    def __init__(self, problem: Problem, notify: Notify):
        self.problem, self.notify = problem, notify
        self.last_sent = 0.0
        self.pending: tuple[float | None, float | None, Any] | None = None

    def __call__(
        self, incumbent: float | None, bound: float | None, solution: Any = None, detail: str | None = None
    ) -> None:
        self.notify(("progress", incumbent, bound, detail))
        if solution is None:
            return
        self.pending = (incumbent, bound, solution)
        if time.monotonic() - self.last_sent >= INCUMBENT_EVERY_S:
            self.flush()

    def flush(self) -> None:
        if self.pending is None:
            return
        incumbent, bound, solution = self.pending
        self.pending = None
        self.last_sent = time.monotonic()
        self.notify(("incumbent", incumbent, bound, self.problem.solution_to_json(solution)))


class ModelListener:
    """A backend's listener: progress in natural units to the parent, incumbents decoded now and then."""

    def __init__(
        self, problem: Problem, instance: Any, params: dict[str, Any], built: Built, decode: Any, notify: Notify
    ):
        self.problem, self.instance, self.params, self.built = problem, instance, params, built
        self.decode, self.notify = decode, notify
        self.last_sent = 0.0

    def _natural(self, value: float | None) -> float | None:
        return self.built.natural(value) if self.built.has_objective else None

    def progress(self, incumbent: float | None, bound: float | None) -> None:
        self.notify(("progress", self._natural(incumbent), self._natural(bound)))

    def solution(self, objective: float | None, bound: float | None, values: Any) -> None:
        if time.monotonic() - self.last_sent < INCUMBENT_EVERY_S:
            return
        self.last_sent = time.monotonic()
        solution = self.decode(self.instance, self.params, self.built.handles, values)
        self.notify(
            ("incumbent", self._natural(objective), self._natural(bound), self.problem.solution_to_json(solution))
        )


def execute(
    problem: Problem,
    instance: Any,
    run: Plan,
    params: dict[str, Any],
    options: SolveOptions,
    deadline: float | None,
    log_path: str,
    export: str | None,
    cut: tuple[str, float] | None,
    notify: Notify,
) -> dict[str, Any]:
    """Run the plan; returns plain data (see the module docstring)."""
    data = (
        _run_algorithm(problem, instance, run, params, options, deadline, notify)
        if run.kind == "algorithm"
        else _run_model(problem, instance, run, params, options, deadline, log_path, export, cut, notify)
    )
    data.setdefault("stats", {}).update(usage())
    return data


def _run_algorithm(
    problem: Problem,
    instance: Any,
    run: Plan,
    params: dict[str, Any],
    options: SolveOptions,
    deadline: float | None,
    notify: Notify,
) -> dict[str, Any]:
    algo = problem.algorithms[run.solver]
    notify(("phase", "solving"))
    notify(("started", {"sense": problem.objective(params)[1], "affine": (0.0, 1.0)}))
    reporter = Reporter(problem, notify)
    threads = worker_threads(options.threads)
    notes = [
        f"{run.solver} takes no warm start: --warm-start was ignored" if options.warm_start else "",
        unused_params(problem, run.solver, params),
    ]
    notify(("notes", [n for n in notes if n]))
    start = time.perf_counter()
    within = replace(options, time_limit=remaining(deadline, SOLVER_RESERVE_S), threads=threads)
    out = algo.run(instance, params, within, reporter)
    wall = time.perf_counter() - start
    reporter.pending = None
    solution_json = None if out.solution is None else problem.solution_to_json(out.solution)
    return {
        "status": str(out.status),
        "objective": out.objective,
        "bound": out.bound,
        "solution_json": solution_json,
        "wall_time_s": wall,
        "version": "mipgames",
        "message": _with_notes(out.message, *notes),
        "has_objective": True,
        "stats": dict(out.stats),
        "proved_by": out.proved_by,
        "stop": out.stop or _ran_out(out.status, wall, within.time_limit),
    }


def _ran_out(status: Status, wall: float, limit: float | None) -> str:
    """The stop reason of an algorithm that used its time without a proof and named none itself."""
    used = limit is not None and wall >= 0.95 * limit
    return "time limit" if used and status in (Status.FEASIBLE, Status.UNKNOWN) else ""


def unused_params(problem: Problem, solver: str, params: dict[str, Any]) -> str:
    """Say so when a param set away from its default belongs to other routes (``--beam-width`` with highs):
    the certificate records it, and a reader would take it to have shaped the run."""
    unused = [
        "--" + p.name.replace("_", "-")
        for p in problem.params
        if p.used_by is not None and solver not in p.used_by and params.get(p.name, p.default) != p.default
    ]
    if not unused:
        return ""
    return f"{', '.join(unused)} {'is' if len(unused) == 1 else 'are'} not used by {solver}: ignored"


def _with_notes(message: str, *notes: str) -> str:
    return "; ".join(part for part in (message, *notes) if part)


def _start_solution(
    problem: Problem, instance: Any, params: dict[str, Any], built: Built, form: Any
) -> tuple[float, Any] | None:
    """The warm start's own solution (objective, JSON) when it replays as legal (None: no start, or not legal)."""
    if not built.hint:
        return None
    hint = built.hint
    try:
        solution = form.decode(instance, params, built.handles, lambda var: float(hint.get(var, 0.0)))
    except (KeyError, ValueError, TypeError, IndexError):  # a start the decoder cannot read: the solver's answer stands
        return None
    return _replayed(problem, instance, params, solution)


def _replayed(problem: Problem, instance: Any, params: dict[str, Any], solution: Any) -> tuple[float, Any] | None:
    """(objective, JSON) of a start that replays as legal with a value; None otherwise."""
    try:
        verdict = problem.evaluate(instance, params, solution)
    except (KeyError, ValueError, TypeError, IndexError):
        return None
    if not verdict.legal or verdict.objective is None:
        return None
    return float(verdict.objective), problem.solution_to_json(solution)


def _early_start(
    problem: Problem, instance: Any, params: dict[str, Any], form: Any, deadline: float | None, notify: Notify
) -> tuple[float, Any] | None:
    """The formulation's start taken before its build (``Formulation.start``), replayed and handed to the parent
    at once; None when it has none or it is not legal.  Raises DeadlinePassed when the deadline comes first."""
    if form.start is None:
        return None
    notify(("phase", "taking the model's start"))
    with interrupt_at(deadline):
        solution = form.start(instance, params)
        early = None if solution is None else _replayed(problem, instance, params, solution)
    if early is not None:
        notify(("incumbent", early[0], None, early[1]))
    return early


def _start_instead(data: dict[str, Any], start: tuple[float, Any] | None) -> dict[str, Any]:
    """An out-of-time report answered with the model's start (its value as the simulator measured it), if any."""
    if start is None:
        return data
    data.update(
        status=str(Status.FEASIBLE),
        objective=start[0],
        solution_json=start[1],
        message=data["message"] + "; the model's start (the heuristic answer it is built with) is returned",
    )
    return data


def _better_start(
    problem: Problem,
    params: dict[str, Any],
    built: Built,
    start: tuple[float, Any] | None,
    status: Status,
    objective: float | None,
) -> tuple[float, Any] | None:
    """The warm start's solution when it beats what the solver returned (or it returned none): --warm-start never
    ends worse than the heuristic it started from.  CP-SAT given a start that hints only the placement (not the
    mismatch variables) ended with none at all."""
    if start is None or status is Status.OPTIMAL or (status.has_solution and not built.has_objective):
        return None
    if status.has_solution and objective is not None and not better(start[0], objective, problem.objective(params)[1]):
        return None
    return start


def _ignored_start(solver: str, options: SolveOptions, backend: Any, built: Built, kind: str) -> str:
    """Say so when --warm-start was asked and no start reached the solver (it takes none, or the formulation
    builds none), rather than let it pass unseen: the certificate records the flag either way."""
    if not options.warm_start:
        return ""
    if not backend.capabilities.warm_start:
        return f"{solver} takes no warm start: --warm-start was ignored"
    given = len(built.model.proto.solution_hint.vars) if kind == "cpsat" else bool(built.hint)
    return "" if given else NO_START_BUILT


NO_START_BUILT = (
    "no warm start was built (the formulation builds none, or found none in its time): --warm-start was ignored"
)
"""Why a model asked for a start has none: the merge game's vertex-cover kernel builds none, and the edge-matching
models' placement heuristic, given a tenth of the limit, may find none in it (it said "builds no warm start")."""


def _one_thread(solver: str, options: SolveOptions, backend: Any) -> str:
    """Say so when more threads were asked of a solver that runs on one (GLPK, SCIP here): a comparison of
    solvers at --threads 2 is otherwise read as a fair one."""
    if options.threads <= 1 or backend.capabilities.threads:
        return ""
    return f"{solver} runs on one thread: --threads {options.threads} was not used"


def worker_threads(threads: int) -> int:
    """The threads an algorithm gets: at most one a core this process may use.  Its workers are forked
    processes, and 64 of them on 2 cores turned a 1 s SameGame solve into 'unknown', past the deadline's grace."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(threads, cores))


def _out_of_time(
    build_time: float, version: str, stats: dict[str, Any], when: str = "while the model was being built"
) -> dict[str, Any]:
    """The report of a solve whose time ran out before the solver started: no answer, no bound."""
    return {
        "status": str(Status.UNKNOWN),
        "objective": None,
        "bound": None,
        "solution_json": None,
        "wall_time_s": build_time,
        "version": version,
        "message": f"the time limit passed {when}",
        "stop": "time limit",
        "stats": stats,
    }


def _run_model(
    problem: Problem,
    instance: Any,
    run: Plan,
    params: dict[str, Any],
    options: SolveOptions,
    deadline: float | None,
    log_path: str,
    export: str | None,
    cut: tuple[str, float] | None,
    notify: Notify,
) -> dict[str, Any]:
    from mipgames.backends import get_backend
    from mipgames.backends.base import sense_of

    assert run.formulation is not None
    form = problem.formulations[run.formulation]
    backend = get_backend(run.solver)
    why = backend.available()
    if why:
        raise UsageError(f"solver {run.solver} is not available: {why}")
    start = time.perf_counter()
    try:  # not under --reprove's cut: there the start is a solution of the uncut model, no answer to the question
        early = _early_start(problem, instance, params, form, deadline, notify) if cut is None else None
    except DeadlinePassed:
        return _out_of_time(time.perf_counter() - start, backend.version(), {}, "while the model's start was taken")
    notify(("phase", "building the model"))
    try:
        with interrupt_at(deadline):
            built = form.build(instance, params, replace(options, time_limit=remaining(deadline)))
    except DeadlinePassed:
        return _start_instead(_out_of_time(time.perf_counter() - start, backend.version(), {}), early)
    build_time = time.perf_counter() - start
    sense = sense_of(built, form.kind)
    affine = built.affine() if built.has_objective else None
    notify(
        (
            "started",
            {"sense": sense, "build_time_s": build_time, "affine": affine},
        )
    )
    stats = dict(built.stats)
    stats["build_time_s"] = round(build_time, 4)
    if export:
        notify(("phase", "exporting the model"))
        try:
            with interrupt_at(deadline):  # stopped here, the staged file is removed (a kill would leave it)
                export_model(
                    built, form.kind, export, header=describe(problem, instance, params, run.formulation, built)
                )
        except DeadlinePassed:
            stopped = _out_of_time(build_time, backend.version(), stats, "while the model was being exported")
            return _start_instead(stopped, early)
    if cut is not None:
        from mipgames.run.reprove import add_cut

        add_cut(built, form.kind, cut)
    if deadline is not None and time.monotonic() >= deadline - SOLVER_RESERVE_S:
        stopped = _out_of_time(build_time, backend.version(), stats, "before the solver could start")
        return _start_instead(stopped, early)
    warm = early
    if warm is None and cut is None:
        warm = _start_solution(problem, instance, params, built, form)
        if warm is not None:  # the parent holds it: a solver killed at the deadline still ends no worse than its start
            notify(("incumbent", warm[0] if built.has_objective else None, None, warm[1]))
    notes = (
        _ignored_start(run.solver, options, backend, built, form.kind),
        _one_thread(run.solver, options, backend),
        unused_params(problem, run.solver, params),
    )
    notify(("notes", [n for n in notes if n]))  # the parent says them too if it has to stop the child
    notify(("phase", "solving"))
    listener = ModelListener(problem, instance, params, built, form.decode, notify)
    res = backend.solve(
        built, form.kind, replace(options, time_limit=remaining(deadline, SOLVER_RESERVE_S)), Path(log_path), listener
    )
    solution_json = None
    if res.values is not None and res.status.has_solution:
        notify(("phase", "decoding"))
        solution_json = problem.solution_to_json(form.decode(instance, params, built.handles, res.values))
    stats.update(res.stats)
    has_objective = built.has_objective
    objective = built.natural(res.objective) if has_objective else None
    kept = _better_start(problem, params, built, warm, res.status, objective)
    if kept is not None:
        said = f" ({res.message})" if res.message else ""
        res.status, solution_json = Status.FEASIBLE, kept[1]
        objective = kept[0] if has_objective else None
        whose = (
            "the warm start's solution"
            if options.warm_start
            else "the model's start (the heuristic answer it is built with)"
        )
        res.message = f"{whose}: {run.solver} ended with none as good{said}"
    return {
        "status": str(res.status),
        "objective": objective,
        "bound": built.natural(res.bound) if has_objective else None,
        "solution_json": solution_json,
        "wall_time_s": res.wall_time_s,
        "version": backend.version(),
        "message": _with_notes(res.message, *notes),
        "has_objective": has_objective,
        "stats": stats,
        "proved_by": res.proved_by,
        "stop": res.stop,
    }
