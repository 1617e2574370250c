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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from mipgames.core.problem import Built, Kind, SolveOptions
from mipgames.core.result import Result

Progress = tuple[float | None, float | None]


@dataclass(frozen=True)
class Backend:
    """A solver: which model kinds it takes, how to run it and read its log."""

    name: str
    kinds: tuple[Kind, ...]
    description: str
    solve: Callable[[Built, Kind, SolveOptions, Path], Result]
    version: Callable[[], str]
    available: Callable[[], str | None]
    """None when usable, else why not."""
    progress: Callable[[str, str], Progress | None]
    """Parses one log line (given the sense 'min'/'max') into (incumbent, bound), natural sense."""
    warm_start: bool = False


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
    found = None
    for found in pattern.finditer(text):
        pass
    return found


def read_log(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError:
        return ""
