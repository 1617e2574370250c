"""The one runner: instance -> model or algorithm -> solver -> decode -> simulator -> result.

Build, solve and decode happen in a child process (``isolate=True``) with the
solver's own time limit and a hard outer deadline, so a crashed or hung solver
becomes ``error``/``unknown`` instead of a hung CLI.  The parent then replays
the decoded solution in the problem's simulator: a solution the simulator
rejects, or an objective it does not reproduce, makes the run an ``error``
carrying both numbers — the runner never reports an unverified answer.
"""

from __future__ import annotations

import math
import re
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from mipgames.core.errors import MipgamesError, UsageError
from mipgames.core.isolate import output_to, run_isolated
from mipgames.core.problem import Problem, SolveOptions, Verdict

MODEL_SOLVERS = ("cbc", "glpk", "highs", "cpsat")
_ALGO_PROGRESS = re.compile(r"^mipgames-progress incumbent=(\S+) bound=(\S+)")


@dataclass
class RunResult:
    """A finished run, verified by the simulator wherever it carries a solution."""

    problem: str
    solver: str
    formulation: str | None
    status: str
    objective: float | None
    bound: float | None
    solution: Any | None
    solution_json: Any | None
    verdict: Verdict | None
    wall_time_s: float
    solver_version: str
    message: str
    params: dict[str, Any]
    options: SolveOptions
    claimed_objective: float | None = None
    stats: dict[str, Any] = field(default_factory=dict)
    log_path: str | None = None

    @property
    def verified(self) -> bool:
        return self.verdict is not None and self.verdict.legal and self.status in ("optimal", "feasible")


@dataclass(frozen=True)
class Plan:
    """What will run: an algorithm, or a formulation on a backend."""

    solver: str
    formulation: str | None
    kind: str  # "algorithm", "mip" or "cpsat"


def plan(problem: Problem, solver: str | None, formulation: str | None, instance: Any = None,
         params: dict[str, Any] | None = None) -> Plan:
    """Resolve solver and formulation names (None: the problem's defaults), refusing combinations that cannot run."""
    solver = solver or problem.default_solver
    if solver in problem.algorithms:
        if formulation:
            raise UsageError(f"--formulation does not apply to algorithm {solver!r}")
        return Plan(solver, None, "algorithm")
    if solver not in MODEL_SOLVERS:
        names = ", ".join(list(MODEL_SOLVERS) + list(problem.algorithms))
        raise UsageError(f"unknown solver {solver!r} for {problem.name}; choose from {names}")
    if formulation is None:
        kind = "cpsat" if solver == "cpsat" and "cpsat" in problem.default_formulation else "mip"
        formulation = problem.default_formulation.get(kind)
        if formulation is None:
            raise UsageError(f"{problem.name} has no {kind} formulation")
    if formulation not in problem.formulations:
        raise UsageError(f"unknown formulation {formulation!r} for {problem.name}; "
                         f"choose from {', '.join(problem.formulations)}")
    form = problem.formulations[formulation]
    if form.kind == "cpsat" and solver != "cpsat":
        raise UsageError(f"formulation {formulation!r} is a native CP-SAT model: use --solver cpsat")
    if instance is not None:
        why = form.applies(instance, params or problem.default_params())
        if why:
            raise UsageError(f"formulation {formulation!r} does not apply: {why}")
    return Plan(solver, formulation, form.kind)


def export_model(built: Any, kind: str, path: str | Path) -> None:
    """Write the model for other solvers (LP/MPS from PuLP, a CP-SAT proto), via a temporary file and a rename."""
    path = Path(path)
    suffix = path.suffix.lower()
    tmp = path.with_name(f".{path.name}.tmp{suffix}")
    if kind == "mip":
        if suffix == ".lp":
            built.model.writeLP(str(tmp))
        elif suffix == ".mps":
            built.model.writeMPS(str(tmp))
        else:
            raise UsageError(f"{path}: a MIP model is written as .lp or .mps")
    else:
        if suffix not in (".pb", ".txt", ".pbtxt"):
            raise UsageError(f"{path}: a CP-SAT model is written as .pb (binary) or .pbtxt/.txt (text proto)")
        if not built.model.export_to_file(str(tmp)):
            raise UsageError(f"{path}: CP-SAT could not write the model")
    tmp.replace(path)


def _usage() -> dict[str, float]:
    """CPU time and peak memory of this process and the solver binaries it waited for."""
    import resource

    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"cpu_time_s": round(me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime, 4),
            "peak_rss_mb": round(max(me.ru_maxrss, kids.ru_maxrss) / 1024.0, 1)}


def _execute(problem: Problem, instance: Any, run: Plan, params: dict[str, Any], options: SolveOptions,
             log_path: str, export: str | None, notify: Callable[[Any], None]) -> dict[str, Any]:
    """Build/solve/decode (or run the algorithm); returns plain data so it can cross a process boundary."""
    data = _execute_plan(problem, instance, run, params, options, log_path, export, notify)
    data["stats"].update(_usage())
    return data


def _execute_plan(problem: Problem, instance: Any, run: Plan, params: dict[str, Any], options: SolveOptions,
                  log_path: str, export: str | None, notify: Callable[[Any], None]) -> dict[str, Any]:
    if run.kind == "algorithm":
        algo = problem.algorithms[run.solver]

        def report(incumbent: float | None, bound: float | None) -> None:
            print(f"mipgames-progress incumbent={incumbent} bound={bound}", flush=True)

        notify(("started", {"sense": problem.objective(params)[1]}))
        start = time.perf_counter()
        out = algo.run(instance, params, options, report)
        wall = time.perf_counter() - start
        sj = None if out.solution is None else problem.solution_to_json(out.solution)
        return {"status": out.status, "objective": out.objective, "bound": out.bound, "solution_json": sj,
                "wall_time_s": wall, "version": "mipgames", "message": out.message, "has_objective": True,
                "stats": {}}
    from mipgames.backends import get_backend
    from mipgames.backends.base import reconcile, sense_of

    form = problem.formulations[run.formulation]
    backend = get_backend(run.solver)
    why = backend.available()
    if why:
        raise UsageError(f"solver {run.solver} is not available: {why}")
    start = time.perf_counter()
    built = form.build(instance, params, options)
    build_time = time.perf_counter() - start
    sense = sense_of(built, form.kind)
    base = built.natural(0.0)
    notify(("started", {"sense": sense, "build_time_s": build_time,
                        "affine": (base, built.natural(1.0) - base) if built.has_objective else None}))
    if export:
        export_model(built, form.kind, export)
    res = backend.solve(built, form.kind, options, Path(log_path))
    res = reconcile(res, sense, built.has_objective)
    sj = None
    if res.values is not None and res.status in ("optimal", "feasible"):
        sj = problem.solution_to_json(form.decode(instance, params, built.handles, res.values))
    stats = dict(built.stats)
    stats.update(res.stats)
    stats["build_time_s"] = round(build_time, 4)
    return {"status": res.status, "objective": built.natural(res.objective), "bound": built.natural(res.bound),
            "solution_json": sj, "wall_time_s": res.wall_time_s, "version": backend.version(),
            "message": res.message, "has_objective": built.has_objective, "stats": stats}


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-6 * max(1.0, abs(a), abs(b))


def _round_bound(bound: float | None, sense: str, integral: bool) -> float | None:
    """An integral objective's bound can be rounded inwards: a proved bound stays proved."""
    if bound is None or not integral:
        return bound
    return float(math.ceil(bound - 1e-6) if sense == "min" else math.floor(bound + 1e-6))


def verify_claim(problem: Problem, instance: Any, params: dict[str, Any], data: dict[str, Any]) -> tuple[
        str, float | None, float | None, Any, Verdict | None, str]:
    """Replay a claimed solution; returns (status, objective, bound, solution, verdict, message)."""
    status, message = data["status"], data.get("message", "")
    claimed, bound = data.get("objective"), data.get("bound")
    sense = problem.objective(params)[1]
    sj = data.get("solution_json")
    if status not in ("optimal", "feasible") or sj is None:
        if status in ("optimal", "feasible"):
            return "error", None, bound, None, None, "solver reported a solution but none was decoded"
        return status, None, _round_bound(bound, sense, problem.integral), None, None, message
    solution = problem.solution_from_json(instance, sj)
    verdict = problem.evaluate(instance, params, solution)
    if not verdict.legal:
        return "error", None, bound, solution, verdict, f"the simulator rejects the solution: {verdict.reason}"
    if data.get("has_objective", True) and claimed is not None and not _close(claimed, verdict.objective):
        better = verdict.objective < claimed if sense == "min" else verdict.objective > claimed
        if status != "feasible" or not better:
            return ("error", None, bound, solution, verdict,
                    f"solver claims objective {claimed:g} but the simulator measures {verdict.objective:g}")
        # An unproven incumbent may leave indicator variables looser than they
        # need be (they are bounded from one side only); the solution itself is
        # better than its model value, and the measured value is what we report.
        message = (message + "; " if message else "") + (
            f"model value {claimed:g} is looser than the measured {verdict.objective:g}")
    objective = verdict.objective
    bound = _round_bound(bound, sense, problem.integral)
    if not data.get("has_objective", True):
        bound = None
    elif bound is not None:
        beyond = objective - bound if sense == "min" else bound - objective
        if beyond < -1e-6 * max(1.0, abs(objective)):
            return ("error", objective, bound, solution, verdict,
                    f"solver bound {bound:g} is better than its own verified objective {objective:g}")
        if status == "feasible" and _close(objective, bound):
            status, message = "optimal", (message + "; " if message else "") + "incumbent meets the integral bound"
        elif status == "optimal" and not _close(objective, bound):
            status = "feasible"
    elif status == "optimal":
        bound = objective
    return status, objective, bound, solution, verdict, message


class _Tail:
    """Reads a growing log file line by line."""

    def __init__(self, path: Path):
        self.path, self.pos, self.rest = path, 0, ""

    def lines(self) -> list[str]:
        try:
            with open(self.path, errors="replace") as fh:
                fh.seek(self.pos)
                chunk = fh.read()
                self.pos = fh.tell()
        except OSError:
            return []
        text = self.rest + chunk
        parts = text.split("\n")
        self.rest = parts.pop()
        return parts


def solve(problem: Problem, instance: Any, *, solver: str | None = None, formulation: str | None = None,
          params: dict[str, Any] | None = None, options: SolveOptions = SolveOptions(), isolate: bool = True,
          quiet: bool = True, log_path: str | Path | None = None, export: str | Path | None = None,
          progress: Callable[[float, float | None, float | None], None] | None = None) -> RunResult:
    """Solve, decode and verify one instance; see the module docstring.

    ``progress(elapsed, incumbent, bound)`` is called while an isolated solve
    runs (the CLI draws it); ``quiet`` only silences the default drawing.
    """
    merged = problem.default_params()
    merged.update(params or {})
    problem.check_params(instance, merged)
    run = plan(problem, solver, formulation, instance, merged)
    tmpdir = None
    if log_path is None:
        tmpdir = tempfile.TemporaryDirectory(prefix="mipgames-")
        log_path = Path(tmpdir.name) / "solver.log"
    log_path = Path(log_path)
    log_path.write_text("")
    export_path = None if export is None else str(export)
    started = time.perf_counter()
    try:
        if isolate:
            data = _run_child(problem, instance, run, merged, options, log_path, export_path, progress)
        else:
            with output_to(log_path):
                data = _execute(problem, instance, run, merged, options, str(log_path), export_path, lambda m: None)
        wall = data.get("wall_time_s") or (time.perf_counter() - started)
        status, objective, bound, solution, verdict, message = verify_claim(problem, instance, merged, data)
        return RunResult(problem=problem.name, solver=run.solver, formulation=run.formulation, status=status,
                         objective=objective, bound=bound, solution=solution,
                         solution_json=data.get("solution_json") if solution is not None else None,
                         verdict=verdict, wall_time_s=wall, solver_version=data.get("version", "unknown"),
                         message=message, params=merged, options=options, claimed_objective=data.get("objective"),
                         stats=data.get("stats", {}), log_path=None if tmpdir else str(log_path))
    finally:
        if tmpdir is not None:
            tmpdir.cleanup()


def _run_child(problem: Problem, instance: Any, run: Plan, params: dict[str, Any], options: SolveOptions,
               log_path: Path, export: str | None,
               progress: Callable[[float, float | None, float | None], None] | None) -> dict[str, Any]:
    from mipgames.backends import get_backend

    state: dict[str, Any] = {"deadline": None, "sense": "min", "incumbent": None, "bound": None,
                             "affine": (0.0, 1.0)}
    limit = options.time_limit
    parse = None if run.kind == "algorithm" else get_backend(run.solver).progress
    tail = _Tail(log_path)

    def on_note(note: Any) -> None:
        kind, info = note
        if kind == "started":
            state["sense"] = info.get("sense", "min")
            state["affine"] = info.get("affine", (0.0, 1.0))
            if limit is not None:
                state["deadline"] = time.perf_counter() + limit + max(10.0, 0.5 * limit)

    def on_tick(elapsed: float) -> None:
        for line in tail.lines():
            got = None
            if parse is not None:
                got = parse(line, state["sense"])
            else:
                found = _ALGO_PROGRESS.match(line)
                if found:
                    got = tuple(None if x == "None" else float(x) for x in found.groups())
            if got and state["affine"] is not None:
                a, b = state["affine"]
                if got[0] is not None:
                    state["incumbent"] = a + b * got[0]
                if got[1] is not None:
                    state["bound"] = a + b * got[1]
        if progress:
            progress(elapsed, state["incumbent"], state["bound"])

    build_allowance = None if limit is None else time.perf_counter() + 10 * limit + 300
    outcome = run_isolated(_execute, (problem, instance, run, params, options, str(log_path), export),
                           log_path, deadline=lambda: state["deadline"] or build_allowance,
                           on_tick=on_tick, on_note=on_note)
    if outcome.interrupted:
        raise KeyboardInterrupt
    if outcome.ok:
        return outcome.value
    if outcome.timed_out:
        return {"status": "unknown", "objective": None, "bound": state["bound"], "solution_json": None,
                "message": f"solver did not stop at its time limit: {outcome.error}", "version": "unknown"}
    if outcome.user_error is not None:
        error = MipgamesError(outcome.user_error[0])
        error.exit_code = outcome.user_error[1]
        raise error
    return {"status": "error", "objective": None, "bound": None, "solution_json": None,
            "message": outcome.error, "version": "unknown"}
