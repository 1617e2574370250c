"""The one result type: what a backend, an algorithm, a portfolio and the runner return.

A backend or algorithm fills the first group of fields with what it *reports*
(its own status word, objective and best bound).  The runner then decodes,
replays the solution in the simulator, applies the claim rule
(:func:`mipgames.core.status.decide`) and fills the rest: after the runner,
``status`` is a claim and ``objective`` is the replayed value.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mipgames.core.status import Status

Value = Callable[[Any], float]
"""Reads a solved variable: a PuLP variable or a CP-SAT variable/literal, whatever the builder put in its handles."""


@dataclass
class Result:
    status: Status
    solution: Any | None = None
    """A decoded solution (algorithms); backends leave it None and give ``values``."""
    objective: float | None = None
    """Natural units for algorithms and after the runner; a backend reports its model's own units."""
    bound: float | None = None
    """The best bound proved on the objective (same units as ``objective``); None when none is known."""
    message: str = ""
    proved_by: str = ""
    """Who proved the status: the solver or algorithm (with version) whose bound or proof it rests on."""
    stop: str = ""
    """Why the run stopped short of a proof, in the user's words: "time limit", "gap", "memory limit"..."""
    wall_time_s: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)
    values: Value | None = None
    """Backends: reads the model's variables (lives only in the process that solved)."""

    # Filled by the runner.
    problem: str = ""
    solver: str = ""
    solver_version: str = ""
    formulation: str | None = None
    params: dict[str, Any] = field(default_factory=dict)
    options: Any = None
    verdict: Any = None
    """The simulator's Verdict on ``solution``."""
    solution_json: Any = None
    reported: Status | None = None
    """The status the solver reported before the claim rule (``status`` is the claim)."""
    claimed_objective: float | None = None
    """The objective the solver reported before the replay."""
    log_path: str | None = None
    certificate: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        self.status = Status(self.status)

    @property
    def verified(self) -> bool:
        """True when the simulator replayed a legal solution behind an optimal/feasible claim."""
        return self.verdict is not None and bool(self.verdict.legal) and self.status.has_solution
