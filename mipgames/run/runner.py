"""The one runner: instance -> model or algorithm -> solver -> decode -> simulator -> claim.

The solve itself runs in a supervised child (:mod:`mipgames.run.supervisor`)
under one deadline that started when the command did, so reading and building
count against the time limit; the child answers with plain data
(:mod:`mipgames.run.execute`).  The parent then replays the solution in the
problem's simulator and applies the claim rule (:func:`mipgames.core.problem.judge`, which
:mod:`verify <mipgames.core.certificate>` applies to certificates too):
a solution the simulator rejects, or an objective it does not reproduce, is an
``error`` carrying both numbers, and nothing is called optimal without a bound
that proves it.  The runner never reports an unverified answer.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path
from typing import Any

import mipgames
from mipgames.core.certificate import param_fault
from mipgames.core.errors import InputError, MipgamesError, UsageError
from mipgames.core.files import remove_staged, writable_output
from mipgames.core.problem import Problem, SolveOptions, is_own, judge, own_bound
from mipgames.core.result import Result
from mipgames.core.status import Sense, Status, better, same, shown, tighter
from mipgames.run.execute import execute
from mipgames.run.export import check_export
from mipgames.run.plan import Plan, plan
from mipgames.run.scratch import scratch_dir, temporary_files_in
from mipgames.run.supervisor import ChildEnd, Limits, supervise

Progress = Callable[[float, float | None, float | None], None]
log = logging.getLogger(__name__)


OWN_BOUND_GRACE = 0.5
"""Seconds past the time limit the claim waits for the problem's own bound (``_OwnBoundAhead``)."""
TAIL_SHARE = 0.25
"""Most of the time limit the tail (``TAIL_PER_READ``) may take from the solver."""
TAIL_PER_READ = 3.0
"""Seconds ``solve`` keeps after the solver's deadline for each second the instance took to read: replaying the
answer and writing its certificate grow with the instance as reading does (a 2,000 x 2,000 merge map: 2.4 s to
read, and it ended 8 s past a 60 s limit)."""


@contextlib.contextmanager
def output_to(log_path: str | Path) -> Iterator[None]:
    """Send file descriptors 1 and 2 (so solver binaries' and libraries' output too) to a log file."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    saved_py = sys.stdout, sys.stderr
    fd = os.open(str(log_path), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)
    sys.stdout = os.fdopen(os.dup(1), "w", buffering=1)
    sys.stderr = os.fdopen(os.dup(2), "w", buffering=1)
    try:
        yield
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        sys.stdout.close()
        sys.stderr.close()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        os.close(saved[0])
        os.close(saved[1])
        sys.stdout, sys.stderr = saved_py


class _Tail:
    """Reads a growing log file line by line."""

    def __init__(self, path: Path):
        self.path, self.pos, self.rest = path, 0, ""

    def lines(self) -> list[str]:
        try:
            with open(self.path, errors="replace") as fh:
                fh.seek(self.pos)
                chunk = fh.read(1 << 20)
                self.pos = fh.tell()
        except OSError:
            return []
        parts = (self.rest + chunk).split("\n")
        self.rest = parts.pop()[-4096:]
        return parts


class _Watch:
    """The parent's view of a running child: phase, incumbent and bound, the best incumbent solution."""

    def __init__(
        self, run: Plan, log: Path, progress: Progress | None, natural_sense: Sense = "min", origin: float | None = None
    ):
        from mipgames.backends import get_backend

        self.run = run
        self.phase = "starting"
        self.sense = "min"
        self.affine: tuple[float, float] | None = (0.0, 1.0)
        self.incumbent: float | None = None
        self.bound: float | None = None
        self.own_bound: float | None = None
        self.solution: tuple[float | None, float | None, Any] | None = None
        self.natural_sense = natural_sense
        self.detail: str | None = None
        self.notes: list[str] = []
        """What the child will add to its message (an ignored --warm-start, unused params), sent before it
        solves: a child stopped at the deadline cannot say them itself."""
        self.parse = None if run.kind == "algorithm" else get_backend(run.solver).progress
        self.tail = _Tail(log)
        self.progress = progress
        self.start = time.monotonic()
        """When the solver's process began: its own wall time counts from here."""
        self.origin = self.start if origin is None else origin
        """What the progress's elapsed counts from: the time limit's start, before the instance was read (it ran
        behind the limit and the summary by the read time, 0.46 s on a 150,000-hero map)."""

    def version(self) -> str:
        from mipgames.backends import get_backend

        return "mipgames" if self.run.kind == "algorithm" else get_backend(self.run.solver).version()

    def note(self, note: Any) -> None:
        kind = note[0]
        if kind == "phase":
            self.phase = note[1]
        elif kind == "notes":
            self.notes = list(note[1])
        elif kind == "started":
            self.sense = note[1].get("sense", "min")
            self.affine = note[1].get("affine")
        elif kind == "progress":
            self._set(note[1], note[2], natural=True)
            if len(note) > 3 and note[3] is not None:
                self.detail = note[3]
        elif kind == "incumbent":
            self._keep(note[1], note[2], note[3])
            if self.solution is not None:  # shown too: HiGHS's only incumbent may come with no progress after it
                self._set(self.solution[0], note[2], natural=True)

    def _keep(self, objective: float | None, bound: float | None, solution_json: Any) -> None:
        """The incumbent to return if the child is killed: the best so far, not the last.  The model's start
        comes first, and a solver that never saw it (no --warm-start) may then report worse ones: HiGHS's
        first incumbent on a 300x300 merge map destroyed no stone, and it replaced the start's 8,714."""
        held = self.solution
        if held is not None and held[0] is not None and objective is not None:
            if better(held[0], objective, self.natural_sense):
                self.solution = (held[0], bound if bound is not None else held[1], held[2])
                return
        self.solution = (objective, bound, solution_json)

    def _set(self, incumbent: float | None, bound: float | None, natural: bool) -> None:
        if not natural:
            if self.affine is None:
                return
            a, b = self.affine
            incumbent = None if incumbent is None else a + b * incumbent
            bound = None if bound is None else a + b * bound
        if incumbent is not None and (self.incumbent is None or better(incumbent, self.incumbent, self.natural_sense)):
            self.incumbent = incumbent  # the best so far: CBC's log showed 6, then 11, then 7 (the answer was 6)
        if bound is not None:
            self.bound = bound

    def own(self, known: tuple[float, str] | None) -> None:
        """The problem's own bound, once it is known: shown where it is tighter than the solver's (SameGame and
        the merge game showed no bound all run, then answered with the own one)."""
        if known is not None:
            self.own_bound = known[0]

    def shown_bound(self) -> float | None:
        own, solver = self.own_bound, self.bound
        if own is None or (solver is not None and not tighter(own, solver, self.natural_sense)):
            return solver
        return own

    def tick(self) -> None:
        if self.parse is not None:
            for line in self.tail.lines():
                got = self.parse(line, self.sense)
                if got:
                    self._set(got[0], got[1], natural=False)
        if self.progress:
            if self.detail is not None and hasattr(self.progress, "detail"):
                self.progress.detail = self.detail  # the command line's display; a plain callable is not told
            self.progress(time.monotonic() - self.origin, self.incumbent, self.shown_bound())


class _OwnBoundAhead:
    """The problem's own bound (``own_bound``), computed in a thread of the parent while its child solves: the
    parent only waits on the child's pipe meanwhile, and on a 200,000-hero merge map the bound took 2.2 s after
    the child had answered.  Started once the child is forked, never before (a fork beside a running thread can
    copy a lock that thread holds into the child).  At the parent's own priority: a thread at nice 19 that holds
    the interpreter lock on a loaded machine waits for a core with the lock held, and the supervisor's loop waits
    with it (a 12 s CBC solve on that map then took 39.6 s beside three busy processes)."""

    def __init__(self, problem: Problem, instance: Any, params: dict[str, Any], until: float | None = None):
        self.args = (problem, instance, params)
        self.until = until
        """When the time limit ends: the bound is waited for until then (``OWN_BOUND_GRACE`` more), not longer."""
        self.late = False
        """Whether the bound was not ready in time, so the claim did without it."""
        self.thread: threading.Thread | None = None
        self.bound: Future[tuple[float, str] | None] = Future()

    def start(self) -> None:
        if self.thread is None:
            self.thread = threading.Thread(target=self._run, name="own-bound", daemon=True)
            self.thread.start()

    def _run(self) -> None:
        try:
            self.bound.set_result(own_bound(*self.args))
        except BaseException as exc:  # raised where the bound is asked for, as it was computed there before
            self.bound.set_exception(exc)

    def ready(self) -> tuple[float, str] | None:
        """The bound if it is already known (None: not yet, none, or its computation failed)."""
        if not self.bound.done() or self.bound.exception() is not None:
            return None
        return self.bound.result()

    def result(self) -> tuple[float, str] | None:
        """The bound, or None when it is not ready by the end of the time limit (on an 800,000-hero merge map it
        took 3.4 s, begun after a 3 s read: a 3 s solve ended at 9.4 s).  A child that answered before the
        supervisor's first tick (the read had taken the whole limit) left the thread unstarted, and the bound was
        computed here with no limit: it starts now, and the same wait holds."""
        if self.thread is None:
            if self.until is None:
                return own_bound(*self.args)
            self.start()
        wait = None if self.until is None else max(0.0, self.until + OWN_BOUND_GRACE - time.monotonic())
        try:
            return self.bound.result(timeout=wait)
        except FutureTimeout:
            self.late = True
            return None


def _from_end(end: ChildEnd, watch: _Watch, limit: float | None) -> dict[str, Any]:
    """Plain data for a child that did not answer normally: its last incumbent, if any, and why it stopped."""
    if end.kind == "done":
        done: dict[str, Any] = end.value
        return done
    if end.kind == "user-error":
        raise end.user_error()
    data: dict[str, Any] = {
        "status": str(Status.UNKNOWN),
        "objective": None,
        "bound": None,
        "solution_json": None,
        "has_objective": True,
        "stats": {"peak_rss_mb": round(end.peak_rss / 2**20, 1)},
        "wall_time_s": time.monotonic() - watch.start,
        "version": watch.version(),
    }
    if end.kind in ("crash", "died"):
        data.update(status=str(Status.ERROR), message=end.message)
        return data
    if end.kind == "deadline":
        data.update(stop="time limit", message=f"stopped at the {limit:g} s deadline while {watch.phase}")
    else:
        data.update(stop="memory limit", message=f"{end.message} while {watch.phase}")
    data["message"] = "; ".join([data["message"], *watch.notes])
    if watch.solution is not None:
        objective, bound, solution_json = watch.solution
        data.update(objective=objective, bound=bound, solution_json=solution_json)
        data["message"] += "; the last incumbent reported (by the solver, or the model's start) is returned"
    return data


def checked_params(problem: Problem, instance: Any, params: dict[str, Any] | None) -> dict[str, Any]:
    """The problem's defaults with ``params`` over them, each held to the problem's declaration as a certificate
    records it (so what a solve writes can verify) and to its own check against the instance."""
    fault = param_fault(problem, params if params is not None else {})
    if fault:
        raise UsageError(fault)
    merged = {**problem.default_params(), **(params or {})}
    problem.check_params(instance, merged)
    return merged


def solve(
    problem: Problem,
    instance: Any,
    *,
    solver: str | None = None,
    formulation: str | None = None,
    params: dict[str, Any] | None = None,
    options: SolveOptions = SolveOptions(),
    isolate: bool = True,
    log_path: str | Path | None = None,
    export: str | Path | None = None,
    progress: Progress | None = None,
    started: float | None = None,
    cut: tuple[str, float] | None = None,
    read_seconds: float = 0.0,
) -> Result:
    """Solve, decode, replay and claim (see the module docstring).

    ``started`` is the time.monotonic() value the time limit counts from
    (default: now).  ``progress(elapsed, incumbent, bound)`` is called while
    an isolated solve runs; an object with a ``detail`` attribute also gets the
    algorithm's progress in words there (``Report``'s ``detail``).  ``cut`` ("<=" or ">=", value) adds a bound on the
    natural objective to the model (``verify --reprove``).  ``isolate=False``
    solves in this process, without the deadline kill or the memory limit.  ``read_seconds`` is how long the
    caller took to read the instance: what follows the solve (the replay here, then the certificate) grows as
    reading does, so the solver's deadline comes ``TAIL_PER_READ`` times that earlier (at most ``TAIL_SHARE``
    of the limit), and the command ends near its limit.
    """
    options.validate()
    merged = checked_params(problem, instance, params)
    run = plan(problem, solver, formulation, instance, merged)
    log.info(
        "%s: %s%s, time limit %s, threads %d",
        problem.name,
        run.solver,
        f" / {run.formulation}" if run.formulation else "",
        options.time_limit,
        options.threads,
    )
    deadline = limit_end = None
    if options.time_limit is not None:
        tail = min(TAIL_PER_READ * read_seconds, TAIL_SHARE * options.time_limit)
        limit_end = (started or time.monotonic()) + options.time_limit
        deadline = limit_end - tail
    if export is not None:
        check_export(run.kind, export)
        writable_output(export)
    if log_path is not None:
        writable_output(log_path)
    with scratch_dir() as scratch:
        log_file = Path(log_path) if log_path is not None else scratch / "solver.log"
        try:
            log_file.write_text("")
        except OSError as exc:
            raise InputError(f"cannot write the log: {exc.strerror or exc}", log_file) from None
        args = (
            problem,
            instance,
            run,
            merged,
            options,
            deadline,
            str(log_file),
            None if export is None else str(export),
            cut,
        )
        ahead = _OwnBoundAhead(problem, instance, merged, limit_end)
        if isolate:
            watch = _Watch(run, log_file, progress, problem.objective(merged)[1], origin=started)

            def tick() -> None:
                ahead.start()  # the supervisor ticks only after the fork
                watch.own(ahead.ready())
                watch.tick()

            end = supervise(
                execute,
                args,
                log_file,
                scratch,
                Limits(deadline, options.memory_limit),
                on_note=watch.note,
                on_tick=tick,
                on_end=None if export is None else functools.partial(remove_staged, export),
            )
            log.debug("solver process ended: %s %s (peak %.0f MiB)", end.kind, end.message, end.peak_rss / 2**20)
            data = _from_end(end, watch, options.time_limit)
        else:
            with output_to(log_file), temporary_files_in(scratch):
                data = execute(*args, notify=lambda note: None)
        result = finish(problem, instance, run, merged, options, data, cut, ahead.result)
        if ahead.late:
            late = "the problem's own bound was not ready within the time limit: the claim does without it"
            result.message = _join(result.message, late)
        if run.why:
            result.message = "; ".join(part for part in (run.why, result.message) if part)
        if log_path is not None and run.kind == "algorithm" and log_file.stat().st_size == 0:
            with log_file.open("a") as fh:  # an empty file read as a lost log
                fh.write(f"{run.solver} is an algorithm of mipgames: it writes no solver log; see the certificate\n")
    result.log_path = None if log_path is None else str(log_path)
    return result


def prover_name(run: Plan, data: dict[str, Any]) -> str:
    if data.get("proved_by"):
        return str(data["proved_by"])
    if run.kind == "algorithm":
        return f"{run.solver} (mipgames {mipgames.__version__})"
    return f"{run.solver} {data.get('version', 'unknown')}"


def finish(
    problem: Problem,
    instance: Any,
    run: Plan,
    params: dict[str, Any],
    options: SolveOptions,
    data: dict[str, Any],
    cut: tuple[str, float] | None = None,
    own_of: Callable[[], tuple[float, str] | None] | None = None,
) -> Result:
    """Replay the reported solution and turn the report into a claim (``cut``: the bound ``--reprove`` added;
    ``own_of``: the problem's own bound, as ``judge`` takes it)."""
    reported = Status(data.get("status", Status.ERROR))
    name, sense = problem.objective(params)
    prover = prover_name(run, data)
    result = Result(
        reported,
        message=data.get("message") or "",
        wall_time_s=float(data.get("wall_time_s") or 0.0),
        stats=dict(data.get("stats") or {}),
        stop=data.get("stop") or "",
        problem=problem.name,
        solver=run.solver,
        solver_version=data.get("version", "unknown"),
        formulation=run.formulation,
        params=params,
        options=options,
        reported=reported,
        claimed_objective=data.get("objective"),
    )
    solution_json = data.get("solution_json")
    objective = None
    if solution_json is not None:
        try:
            solution = problem.solution_from_json(instance, solution_json)
        except MipgamesError as exc:
            return _error(result, f"the solver's solution cannot be read back: {exc}")
        verdict = problem.evaluate(instance, params, solution)
        result.solution, result.solution_json, result.verdict = solution, solution_json, verdict
        if not verdict.legal:
            return _error(result, f"the simulator rejects the solution: {verdict.reason}")
        objective = verdict.objective
        if objective is None:
            return _error(result, "the simulator accepts the solution but measures no objective")
        claimed = data.get("objective")
        if data.get("has_objective", True) and claimed is not None and not same(float(claimed), float(objective)):
            solver_bound = data.get("bound")
            # A solver's "optimal" means its bound meets its objective; one whose bound does not (HiGHS and CP-SAT
            # stopped by --gap say optimal) holds an incumbent like any other, which may be looser than measured.
            closed = reported is Status.OPTIMAL and (solver_bound is None or same(float(solver_bound), float(claimed)))
            if closed or not better(objective, claimed, sense):
                said = f"solver claims objective {shown(claimed)} but the simulator measures {shown(objective)}"
                return _error(result, said)
            # An unproven incumbent may leave indicator variables looser than they
            # need be (bounded from one side only): the solution is better than its
            # model value, and the measured value is what is reported.
            looser = f"model value {shown(claimed)} is looser than the measured {shown(objective)}"
            result.message = _join(result.message, looser)
    bound = data.get("bound") if data.get("has_objective", True) else None
    judged = judge(problem, instance, params, reported, objective, bound, prover, cut, own_of=own_of)
    claim = judged.claim
    # The toolkit's own bound, named as an algorithm names it ("the colour-count bound"), is credited as the
    # runner credits it ("mipgames: the colour-count bound"): one spelling in certificates and summaries.
    own = judged.own
    proved_by = own[1] if own is not None and is_own(claim.proved_by, own, problem.bound_aliases) else claim.proved_by
    result.status, result.objective, result.bound, result.proved_by = (
        claim.status,
        claim.objective,
        claim.bound,
        proved_by,
    )
    if claim.reason:
        result.message = _join(result.message, claim.reason)
    if claim.status is Status.OPTIMAL and result.stop != "time limit":
        # proved: nothing stopped it short (a solver given --gap names the gap even then).  A solver stopped by
        # its time limit keeps saying so: its proof was made by joining its bound to an answer it did not find
        # better than (the warm start's), or by rounding, and the route took all its time to make it.
        result.stop = ""
    log.info(
        "reported %s, claimed %s (objective %s, bound %s, proved by %s)%s",
        reported,
        claim.status,
        claim.objective,
        claim.bound,
        claim.proved_by or "-",
        f": {claim.reason}" if claim.reason else "",
    )
    if claim.status is Status.ERROR:
        return _error(result, result.message)
    return result


def _error(result: Result, message: str) -> Result:
    """An error claims nothing, so it carries no solution either: nothing downstream (a drawing, the API) can
    take the solver's rejected answer for one; the verdict stays, with the simulator's reason."""
    result.status, result.objective, result.bound, result.proved_by = Status.ERROR, None, None, ""
    result.solution = result.solution_json = None
    result.message = message
    return result


def _join(a: str, b: str) -> str:
    return f"{a}; {b}" if a else b
