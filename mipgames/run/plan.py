"""What will run: an algorithm, or a formulation on a backend, resolved from names before anything is built."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mipgames.backends import BACKENDS
from mipgames.core.errors import UsageError
from mipgames.core.problem import Problem


@dataclass(frozen=True)
class Plan:
    solver: str
    formulation: str | None
    kind: str
    """"algorithm", "mip" or "cpsat"."""
    why: str = ""
    """Why this solver when the problem's usual default gave way to another for this instance."""


def default_solver(problem: Problem, instance: Any = None, params: dict[str, Any] | None = None) -> tuple[str, str]:
    """The solver a solve with no ``--solver`` runs on this instance, and why when it is not the usual one."""
    if instance is not None and problem.default_for is not None:
        chosen = problem.default_for(instance, {**problem.default_params(), **(params or {})})
        if chosen is not None:
            return chosen
    return problem.default_solver, ""


def plan(
    problem: Problem,
    solver: str | None,
    formulation: str | None,
    instance: Any = None,
    params: dict[str, Any] | None = None,
) -> Plan:
    """Resolve solver and formulation names (None: the problem's defaults), refusing combinations that cannot run."""
    because = ""
    if not solver:
        solver, because = default_solver(problem, instance, params)
        if formulation and because:  # a formulation asked for runs on the usual default, whatever the size
            solver, because = problem.default_solver, ""
    if solver in problem.algorithms:
        if formulation:
            raise UsageError(f"--formulation does not apply to algorithm {solver!r}")
        algorithm = problem.algorithms[solver]
        why = None if instance is None else algorithm.applies(instance, params or problem.default_params())
        if why:  # as for a formulation: verify holds a certificate's solver to this too (its rerun would refuse)
            raise UsageError(why)
        return Plan(solver, None, "algorithm", because)
    if solver not in BACKENDS:
        names = ", ".join(list(BACKENDS) + list(problem.algorithms))
        raise UsageError(f"unknown solver {solver!r} for {problem.name}; choose from {names}")
    if formulation is None:
        kind = "cpsat" if solver == "cpsat" and "cpsat" in problem.default_formulation else "mip"
        formulation = problem.default_formulation.get(kind)
        if formulation is None:
            raise UsageError(f"{problem.name} has no {kind} formulation")
    if formulation not in problem.formulations:
        raise UsageError(
            f"unknown formulation {formulation!r} for {problem.name}; choose from {', '.join(problem.formulations)}"
        )
    form = problem.formulations[formulation]
    if form.kind == "cpsat" and solver != "cpsat":
        raise UsageError(f"formulation {formulation!r} is a native CP-SAT model: use --solver cpsat")
    if instance is not None:
        why = form.applies(instance, params or problem.default_params())
        if why:
            raise UsageError(f"formulation {formulation!r} does not apply: {why}")
    return Plan(solver, formulation, form.kind, because)
