"""CBC through PuLP's bundled binary.

PuLP calls a stopped-on-time run "Optimal"; the status here comes from PuLP's
``sol_status`` and CBC's own "Result -" block, and the bound from that block
("Lower bound"/"Upper bound") or the last "best possible" progress line.
"""

from __future__ import annotations

import contextlib
import functools
import re
import shlex
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

from mipgames.backends.base import Backend, Progress, Stopwatch, last_match, number, read_log, sense_of
from mipgames.core.result import Result
from mipgames.backends.pulp_common import apply_hint, has_values, objective_constant, solved
from mipgames.core.problem import Built, Kind, SolveOptions

_RESULT = re.compile(r"^Result - (.*)$", re.M)
_FINAL_BOUND = re.compile(r"^(?:Lower|Upper) bound:\s+(\S+)", re.M)
_BEST_POSSIBLE = re.compile(r"best possible (\S+)")
_PROGRESS = re.compile(r"Cbc0010I After \d+ nodes, \d+ on tree, (\S+) best solution, best possible (\S+)")
_INTEGER = re.compile(r"Cbc0012I Integer solution of (\S+)|Cbc0038I Solution found of (\S+)")
_ROOT_BOUND = re.compile(r"^Continuous objective value is (\S+)")


def _cmd():
    import pulp

    return pulp.PULP_CBC_CMD


def available() -> str | None:
    try:
        return None if _cmd()().available() else "PuLP's bundled CBC binary is missing"
    except ImportError:
        return "PuLP is not installed"


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
    """CBC minimises internally: a maximisation's progress values carry the opposite sign."""
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
        return (None, None if bound is None else sign * bound)
    return None


@contextlib.contextmanager
def _line_buffered(path: str) -> Iterator[str]:
    """A CBC path whose log reaches the file line by line.

    CBC writes through C stdio, which a file receives in 4 KB blocks, so the
    live display would see the incumbent only at the end; coreutils' stdbuf
    switches it to line buffering.  Without stdbuf the plain binary runs.
    """
    stdbuf = shutil.which("stdbuf")
    if stdbuf is None:
        yield path
        return
    with tempfile.TemporaryDirectory(prefix="mipgames-cbc-") as tmp:
        wrapper = Path(tmp) / "cbc"
        wrapper.write_text(f'#!/bin/sh\nexec {shlex.quote(stdbuf)} -oL -eL {shlex.quote(path)} "$@"\n')
        wrapper.chmod(0o755)
        yield str(wrapper)


def solve(built: Built, kind: Kind, options: SolveOptions, log_path: Path) -> Result:
    import pulp

    warm = options.warm_start and apply_hint(built)
    clock = Stopwatch()
    with _line_buffered(_cmd()().path) as path:
        solver = pulp.COIN_CMD(
            path=path,
            msg=True,
            timeLimit=options.time_limit,
            threads=options.threads if options.threads > 1 else None,
            gapRel=options.gap,
            warmStart=warm,
            timeMode="elapsed",
            options=[f"randomCbcSeed {options.seed + 1}", f"randomSeed {options.seed + 1}"],
        )
        try:
            built.model.solve(solver)
        except pulp.PulpSolverError as exc:
            return Result("error", message=f"CBC failed: {exc}", wall_time_s=clock.elapsed())
    wall = clock.elapsed()
    log = read_log(log_path)
    sense = sense_of(built, kind)
    result_line = last_match(_RESULT, log)
    verdict = result_line.group(1).strip() if result_line else ""
    bound = None
    found = last_match(_FINAL_BOUND, log)
    if verdict.startswith("Optimal"):
        bound = None  # proved: reconcile sets bound = objective
    elif found:
        bound = number(found.group(1))
    else:
        found = last_match(_BEST_POSSIBLE, log)
        if found and number(found.group(1)) is not None:
            bound = (-1.0 if sense == "max" else 1.0) * number(found.group(1))
    if bound is not None:
        bound += objective_constant(built)
    status_code = built.model.status
    sol_status = built.model.sol_status
    if status_code == pulp.LpStatusInfeasible or "infeasible" in verdict.lower():
        return Result("infeasible", wall_time_s=wall, message=verdict)
    if sol_status == pulp.LpSolutionOptimal and verdict.startswith("Optimal"):
        status = "optimal"
    elif sol_status in (pulp.LpSolutionOptimal, pulp.LpSolutionIntegerFeasible) and has_values(built):
        status = "feasible"
    else:
        return Result("unknown", bound=bound, wall_time_s=wall, message=verdict or pulp.LpStatus[status_code])
    return solved(built, status, bound, wall, verdict)


BACKEND = Backend(
    name="cbc",
    kinds=("mip",),
    description="COIN-OR CBC (bundled with PuLP)",
    solve=solve,
    version=version,
    available=available,
    progress=progress,
    warm_start=True,
)
