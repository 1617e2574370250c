"""CBC through PuLP's bundled binary.

PuLP calls a stopped-on-time run "Optimal"; the status here comes from PuLP's
``sol_status`` and CBC's own "Result -" block, and the bound from that block
("Lower bound"/"Upper bound") or the last "best possible" progress line.  CBC
says "Optimal solution found (within gap tolerance)" after a gap stop: that is
reported as feasible with its real bound, never as optimal.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
from pathlib import Path

from mipgames.backends.base import (
    Backend,
    Capabilities,
    Listener,
    Progress,
    Silent,
    Stopwatch,
    import_fault,
    last_match,
    number,
    read_log,
    sense_of,
)
from mipgames.backends.pulp_common import apply_hint, has_values, objective_constant, solved
from mipgames.core.problem import Built, Kind, SolveOptions
from mipgames.core.result import Result
from mipgames.core.status import Status

_RESULT = re.compile(r"^Result - (.*)$", re.M)
_FINAL_BOUND = re.compile(r"^(?:Lower|Upper) bound:\s+(\S+)", re.M)
_BEST_POSSIBLE = re.compile(r"best possible ([-+]?[0-9][0-9.eE+-]*)")
_PROGRESS = re.compile(r"Cbc0010I After \d+ nodes, \d+ on tree, (\S+) best solution, best possible (\S+)")
_INTEGER = re.compile(r"Cbc0012I Integer solution of (\S+)|Cbc0038I Solution found of (\S+)")
_ROOT_BOUND = re.compile(r"^Continuous objective value is (\S+)", re.M)
_GAP_EXIT = re.compile(r"Exiting as integer gap")
_TIME_EXIT = re.compile(r"Exiting on maximum time")


def _cmd():
    import pulp

    return pulp.PULP_CBC_CMD


def available() -> str | None:
    fault = import_fault("pulp", "PuLP")
    if fault:
        return fault
    return None if _cmd()().available() else "PuLP's bundled CBC binary is missing"


@functools.cache
def version() -> str:
    try:
        path = _cmd()().path
        out = subprocess.run([path, "-quit"], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError, ImportError):
        return "unknown"
    found = re.search(r"Version:\s*(\S+)", out)
    return found.group(1) if found else "unknown"


def progress(line: str, sense: str) -> Progress | None:
    """CBC minimises internally: a maximisation's node and solution lines carry the opposite sign (Clp's root
    line, "Continuous objective value is", is in the model's own sense)."""
    sign = -1.0 if sense == "max" else 1.0
    found = _PROGRESS.search(line)
    if found:
        inc, bound = number(found.group(1)), number(found.group(2))
        return (None if inc is None or abs(inc) > 1e40 else sign * inc, None if bound is None else sign * bound)
    found = _INTEGER.search(line)
    if found:
        inc = number(found.group(1) or found.group(2))
        return (None if inc is None else sign * inc, None)
    found = _ROOT_BOUND.search(line)
    if found:
        bound = number(found.group(1))
        return (None, bound)
    return None


READ_FLOOR_S = 0.1
"""CBC's time limit when writing and reading its model would take all of it."""


def _timed_cmd(clock: Stopwatch) -> type:
    """PuLP's COIN_CMD whose time limit is read when the command line is made, after the MPS file is written
    (it was read before): CBC's clock starts after it has read that file, which takes about as long as writing
    it did, so both are taken off.  CBC still overruns in a root LP it cannot stop; the supervisor ends it."""
    import pulp

    class TimedCbc(pulp.COIN_CMD):
        limit: float | None = None

        @property
        def timeLimit(self) -> float | None:
            if self.limit is None:
                return None
            return max(READ_FLOOR_S, self.limit - 2 * clock.elapsed())

        @timeLimit.setter
        def timeLimit(self, value: float | None) -> None:
            self.limit = value

    return TimedCbc


def solve(built: Built, kind: Kind, options: SolveOptions, log_path: Path, listener: Listener = Silent()) -> Result:
    from mipgames.run.spawn import guarded

    warm = options.warm_start and apply_hint(built)
    cbc_seed = min(options.seed + 1, 2**31 - 1)  # CBC takes 1..2^31-1 (0: its default); 2^31 it ignored, silently
    clock = Stopwatch()
    binary = _cmd()().path
    wrapper = guarded(binary, line_buffered=True)
    try:
        return _solve(built, kind, options, log_path, wrapper, warm, cbc_seed, clock)
    finally:  # in the run's scratch folder it goes with the folder; a backend called directly left it in /tmp
        if wrapper != binary:
            Path(wrapper).unlink(missing_ok=True)


def _solve(
    built: Built,
    kind: Kind,
    options: SolveOptions,
    log_path: Path,
    wrapper: str,
    warm: bool,
    cbc_seed: int,
    clock: Stopwatch,
) -> Result:
    import pulp

    solver = _timed_cmd(clock)(
        path=wrapper,
        msg=True,
        timeLimit=options.time_limit,
        threads=options.threads if options.threads > 1 else None,
        gapRel=options.gap,
        warmStart=warm,
        timeMode="elapsed",
        options=[f"randomCbcSeed {cbc_seed}", f"randomSeed {cbc_seed}"],
    )
    folder = _unsplit_folder(solver.tmpDir)
    if folder is None:
        return Result(Status.ERROR, message=SPACED_FOLDER, wall_time_s=clock.elapsed())
    try:
        solver.tmpDir = folder[0]
        built.model.solve(solver)
    except pulp.PulpSolverError as exc:
        log = read_log(log_path)
        if not _TIME_EXIT.search(log):
            return Result(Status.ERROR, message=f"CBC failed: {exc}", wall_time_s=clock.elapsed())
        # It stopped on its time limit and then ended before writing its solution (seen with the machine loaded):
        # a time limit is not an error, and without the solution file there is nothing to replay.
        return Result(
            Status.UNKNOWN,
            bound=_log_bound(log, built, kind)[0],
            wall_time_s=clock.elapsed(),
            message="CBC stopped on its time limit and ended before writing its solution",
            stop="time limit",
        )
    finally:
        _close(folder)
    wall = clock.elapsed()
    log = read_log(log_path)
    result_line = last_match(_RESULT, log)
    verdict = result_line.group(1).strip() if result_line else ""
    bound, final = _log_bound(log, built, kind)
    status_code = built.model.status
    sol_status = built.model.sol_status
    stop = _stop_reason(verdict)
    if "infeasible" in verdict.lower() or (not verdict and status_code == pulp.LpStatusInfeasible):
        return Result(Status.INFEASIBLE, wall_time_s=wall, message=verdict)
    if "unbounded" in verdict.lower():  # an unbounded relaxation proves nothing about the integer problem
        return Result(Status.UNKNOWN, wall_time_s=wall, message=verdict)
    if not has_values(built) or sol_status not in (pulp.LpSolutionOptimal, pulp.LpSolutionIntegerFeasible):
        return Result(
            Status.UNKNOWN, bound=bound, wall_time_s=wall, message=verdict or pulp.LpStatus[status_code], stop=stop
        )
    if not verdict and re.search(r"^Optimal - objective value", log, re.M):
        verdict = "Optimal solution found"  # an empty problem (presolve solved it): no "Result -" line is printed
    if verdict == "Optimal solution found" and not (options.gap and _GAP_EXIT.search(log)):
        # The search completed (a gap stop says "Exiting as integer gap" and "... (within gap tolerance)"): its
        # bound is the objective (CBC prints none then), whatever gap was allowed.
        result = solved(built, Status.OPTIMAL, None, wall, verdict)
        result.bound = result.objective if final is None else final + objective_constant(built)
        return result
    if verdict == "Optimal solution found":  # it exited on the gap allowed: optimal only up to it
        verdict = f"{verdict} within the relative gap {options.gap:g}"
    result = solved(built, Status.FEASIBLE, bound, wall, verdict)
    result.stop = stop
    return result


SPACED_FOLDER = (
    "CBC cannot work in a temporary folder whose path holds white space (PuLP splits CBC's command line on it), "
    "and this system has no /proc to name it otherwise: set TMPDIR to a folder without"
)


def _unsplit_folder(folder: str) -> tuple[str, int | None] | None:
    """A name of ``folder`` with no white space, and the descriptor held open for it (None: ``folder`` is fine).

    PuLP hands CBC its files on a command line it splits on white space, so CBC failed whenever TMPDIR held a
    space.  The folder is then named through an open descriptor, /proc/PID/fd/N, so the files stay where the
    run's scratch folder (and its clean-up) has them.  None when the path has a space and there is no /proc.
    """
    if not any(ch.isspace() for ch in folder):
        return folder, None
    fds = f"/proc/{os.getpid()}/fd"
    if not os.path.isdir(fds):
        return None
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    return f"{fds}/{fd}", fd


def _close(folder: tuple[str, int | None]) -> None:
    if folder[1] is not None:
        os.close(folder[1])


def _log_bound(log: str, built: Built, kind: Kind) -> tuple[float | None, float | None]:
    """The bound CBC's log states (its final line, else the last "best possible", else the root relaxation when
    the model has no constant), in the model's sense with its constant; and the final line's value alone."""
    sign = -1.0 if sense_of(built, kind) == "max" else 1.0
    found = last_match(_FINAL_BOUND, log)
    final = number(found.group(1)) if found else None
    found = last_match(_BEST_POSSIBLE, log)
    best = number(found.group(1)) if found else None
    running = None if best is None else sign * best
    bound = final if final is not None else running
    if bound is not None:
        bound += objective_constant(built)
    elif not objective_constant(built):  # solved at the root: Clp's relaxation, in the model's sense, still bounds
        found = last_match(_ROOT_BOUND, log)
        bound = number(found.group(1)) if found else None
    return bound, final


def _stop_reason(verdict: str) -> str:
    """CBC's "Result -" line in the user's words, when it stopped short of a proof."""
    text = verdict.lower()
    if "gap" in text or "tolerance" in text:
        return "gap"
    if "time" in text:
        return "time limit"
    if "stopped" in text:
        return verdict
    return ""


BACKEND = Backend(
    name="cbc",
    description="COIN-OR CBC (bundled with PuLP)",
    capabilities=Capabilities(kinds=("mip",), warm_start=True, threads=True),
    solve=solve,
    version=version,
    available=available,
    progress=progress,
)
