"""One result vocabulary for four solvers, and the pieces every backend shares.

Solvers disagree on what "optimal" means after a time limit or a gap stop
(PuLP reports a time-limited CBC, HiGHS or GLPK run as "Optimal"; CBC, HiGHS
and CP-SAT say optimal when the gap limit is met), so each backend reports the
status from the solver's own record (solution status, model status, log) with
the solver's real bound, never a bound made up from a status word.  What may
be *claimed* is decided once, by :func:`mipgames.core.status.decide`.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from mipgames.core.problem import Built, Kind, SolveOptions
from mipgames.core.result import Result, Value
from mipgames.core.status import Status

Progress = tuple[float | None, float | None]


class Listener(Protocol):
    """What a backend tells the runner while it solves, in the model's own objective units."""

    def progress(self, incumbent: float | None, bound: float | None) -> None:
        """A new incumbent value and/or bound."""

    def solution(self, objective: float | None, bound: float | None, values: Value) -> None:
        """A new incumbent; ``values`` reads its variables and is valid only during this call."""


class Silent:
    """A listener that ignores everything (solves outside the runner, tests)."""

    def progress(self, incumbent: float | None, bound: float | None) -> None:
        pass

    def solution(self, objective: float | None, bound: float | None, values: Value) -> None:
        pass


@dataclass(frozen=True)
class Capabilities:
    """What a solver can do, so the runner and the docs never guess."""

    kinds: tuple[Kind, ...]
    """Model kinds it solves: "mip" (PuLP models), "cpsat" (native CP-SAT models)."""
    warm_start: bool = False
    """Takes ``Built.hint`` as a start (``--warm-start``)."""
    threads: bool = False
    """Uses more than one thread when asked."""
    time_limit: bool = True
    progress_callback: bool = False
    """Reports incumbent and bound through the API while solving (else the runner reads its log)."""
    incumbent_callback: bool = False
    """Hands over incumbent solutions while solving (kept if the run is cut at the deadline)."""

    def describe(self) -> str:
        flags = [
            ("warm start", self.warm_start),
            ("threads", self.threads),
            ("time limit", self.time_limit),
            ("progress callback", self.progress_callback),
            ("incumbent callback", self.incumbent_callback),
        ]
        return ", ".join(name for name, on in flags if on)


@dataclass(frozen=True)
class Backend:
    """A solver behind the one interface: how to run it, what it can do, how to read its log."""

    name: str
    description: str
    capabilities: Capabilities
    solve: Callable[[Built, Kind, SolveOptions, Path, Listener], Result]
    """solve(built, kind, options, log_path, listener) -> Result (status as reported, model units)."""
    version: Callable[[], str]
    available: Callable[[], str | None]
    """None when usable, else why not."""
    progress: Callable[[str, str], Progress | None] | None = None
    """Parses one log line (given the sense 'min'/'max') into (incumbent, bound), for solvers without callbacks."""

    @property
    def kinds(self) -> tuple[Kind, ...]:
        return self.capabilities.kinds


def import_fault(module: str, package: str) -> str | None:
    """None when ``module`` imports; else why not, for the solvers table and the message of a solve that names
    the solver: not installed, or installed but failing to load.  Under ``ulimit -v`` a library that could not
    be mapped was reported as "not installed"."""
    import importlib

    try:
        importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name is None or module.split(".")[0] == exc.name.split(".")[0]:
            return f"{package} is not installed"
        return f"{package} is installed but cannot be loaded: {exc}"
    except (ImportError, OSError, MemoryError) as exc:
        return f"{package} is installed but cannot be loaded ({type(exc).__name__}: {str(exc)[:120]})"
    return None


def sense_of(built: Built, kind: Kind) -> str:
    """'min' or 'max' of the model itself."""
    if kind == "mip":
        import pulp

        return "max" if built.model.sense == pulp.LpMaximize else "min"
    model = built.model
    if model.has_objective() and model.proto.objective.scaling_factor < 0:
        return "max"
    return "min"


def number(text: str) -> float | None:
    """A float from solver text, None for 'not found', inf and the like."""
    try:
        x = float(text)
    except ValueError:
        return None
    return x if math.isfinite(x) else None


class Stopwatch:
    """Wall time of one solve."""

    def __init__(self) -> None:
        self.start = time.perf_counter()

    def elapsed(self) -> float:
        return time.perf_counter() - self.start


def last_match(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """The last match of ``pattern`` in ``text`` (solver logs state their final figures last)."""
    last = None
    for last in pattern.finditer(text):  # noqa: B007 - the loop variable is the answer
        pass
    return last


def read_log(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError:
        return ""


def loading_ran_out(solver: str, wall: float) -> Result:
    """The answer when the limit passed while the model was being handed to an in-process solver."""
    return Result(
        Status.UNKNOWN,
        wall_time_s=wall,
        message=f"the time limit passed while {solver} was given the model",
        stop="time limit",
    )
