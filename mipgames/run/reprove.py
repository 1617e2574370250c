"""Independent re-proof of a certificate's claim by a second solver.

For ``optimal``: rebuild a model of the embedded instance, add "the objective
is strictly better than the claim" and ask another solver to prove the result
infeasible; a ``feasible`` or ``unknown`` certificate's bound is re-checked the
same way.  For ``infeasible``: ask it to prove the model itself infeasible.
A solution it finds instead is replayed by the simulator: a legal one that
beats the claim refutes the certificate.

A refutation needs no independence (a better solution the simulator replays
is a fact, whoever finds it), so the problem's default solver, usually the
strongest, first looks for one on a share of the time.  Otherwise a forger
could name the strongest solver as the claim's prover and leave the re-proof
to a weaker one, which ends "not re-proved" where the claim is false.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from mipgames.backends import BACKENDS, get_backend
from mipgames.core.errors import UsageError
from mipgames.core.problem import OWN_BOUND, Built, Problem, SolveOptions, prover_head
from mipgames.core.result import Result
from mipgames.core.status import Sense, Status, better, finite, shown

Cut = tuple[str, float]


def strictly_better(objective: float, sense: str, integral: bool) -> Cut:
    """The cut "natural objective strictly better than ``objective``" as (operator, value)."""
    step = 1.0 if integral else 1e-6 * max(1.0, abs(objective))
    return ("<=", objective - step) if sense == "min" else (">=", objective + step)


def _cpsat_objective(model: Any) -> tuple[Any, float, float]:
    """(Σ c·x, offset, scaling) of a CP-SAT model's objective: value = scaling · (Σ c·x + offset)."""
    from ortools.sat.python import cp_model

    proto = model.proto.objective
    terms: list[Any] = []
    offset = float(proto.offset)
    for index, coef in zip(proto.vars, proto.coeffs):
        if index >= 0:
            terms.append(coef * model.get_int_var_from_proto_index(index))
        else:  # a negated literal: not(x) = 1 - x
            terms.append(-coef * model.get_int_var_from_proto_index(-index - 1))
            offset += coef
    scaling = float(proto.scaling_factor) or 1.0
    return cp_model.LinearExpr.sum(terms), offset, scaling


def add_cut(built: Built, kind: str, cut: Cut) -> None:
    """Add ``natural objective <op> value`` to the model and drop its objective (a pure feasibility question)."""
    op, value = cut
    if built.has_objective:
        a, slope = built.affine()
        if kind == "mip":
            expr = built.model.objective
            natural = slope * expr + a
            built.model += (natural <= value) if op == "<=" else (natural >= value)
            import pulp

            built.model.setObjective(pulp.LpAffineExpression())
        else:
            total, offset, scaling = _cpsat_objective(built.model)
            k = slope * scaling  # natural = a + k · (Σ + offset)
            limit = (value - a) / k - offset
            upper = (op == "<=") == (k > 0)
            built.model.add(total <= math.floor(limit + 1e-9)) if upper else built.model.add(
                total >= math.ceil(limit - 1e-9)
            )
            built.model.clear_objective()
    else:
        raise UsageError("this formulation has no objective to bound (a decision model)")
    built.has_objective = False
    built.objective = None
    built.hint = None


@dataclass
class Reproof:
    verdict: str
    """re-proved, refuted or not re-proved."""
    solver: str
    text: str
    result: Result | None = None

    @property
    def exit_code(self) -> int:
        return {"re-proved": 0, "refuted": 1}.get(self.verdict, 3)


def choose_solver(data: dict[str, Any], requested: str | None) -> str:
    """A solver other than the one whose proof is being checked (any, when the toolkit's own bound proved it)."""
    proved_by = str(data.get("proved_by", ""))
    claimer = proved_by.lower() if proved_by.startswith(OWN_BOUND) else f"{data.get('solver', '')} {proved_by}".lower()
    if requested:
        if requested not in BACKENDS:
            raise UsageError(f"--reprove needs a model solver ({', '.join(BACKENDS)}), not {requested!r}")
        if requested in claimer.split() or claimer.startswith(requested):
            raise UsageError(f"{requested} made this claim; an independent re-proof needs another solver")
        why = get_backend(requested).available()
        if why:
            raise UsageError(f"solver {requested} is not available: {why}")
        return requested
    for name in ("cpsat", "highs", "scip", "cbc", "glpk"):
        if name in BACKENDS and name not in claimer and get_backend(name).available() is None:
            return name
    raise UsageError("no other solver is available to re-prove this claim")


def _formulations(problem: Problem, solver: str, params: dict[str, Any], instance: Any) -> list[str]:
    kinds = ("cpsat", "mip") if solver == "cpsat" else ("mip",)
    names = []
    for kind in kinds:
        default = problem.default_formulation.get(kind)
        ordered = ([default] if default else []) + [
            n for n, f in problem.formulations.items() if f.kind == kind and n != default
        ]
        names += [n for n in ordered if problem.formulations[n].applies(instance, params) is None]
    return names


def claimed_limit(status: Status, data: dict[str, Any]) -> float | None:
    """What a certificate claims no solution beats: an optimum its objective, a feasible or unknown answer its
    bound (None: no bound, or an infeasible claim, which is re-checked as "no solution at all")."""
    if status is Status.OPTIMAL:
        return float(data["objective"])
    if status in (Status.FEASIBLE, Status.UNKNOWN):
        return finite(data.get("bound"))
    return None


REFUTE_SHARE = 0.25
"""Of --reprove's time limit, what the default solver gets to look for a solution that beats the claim."""
REFUTE_CAP_S = 10.0
"""And at most this (also the share when --reprove has no time limit)."""


def _beats(got: float | None, claimed: float | None, sense: Sense) -> bool:
    """A solution's objective against a claim (None: an infeasible claim, which any solution beats)."""
    return claimed is None or (got is not None and better(got, claimed, sense))


def _refute(
    problem: Problem,
    instance: Any,
    params: dict[str, Any],
    claimed: float | None,
    options: SolveOptions,
    progress: Callable[[float, float | None, float | None], None] | None,
) -> Reproof | None:
    """The default solver's search for a solution beating the claim (any solution against an infeasible one)."""
    from mipgames.run.runner import solve

    limit = REFUTE_CAP_S if options.time_limit is None else min(REFUTE_CAP_S, REFUTE_SHARE * options.time_limit)
    result = solve(problem, instance, params=params, options=replace(options, time_limit=limit), progress=progress)
    name_of, sense = problem.objective(params)
    if not result.status.has_solution or not _beats(result.objective, claimed, sense):
        return None
    what = f"a solution with {shown(result.objective)} {name_of}" if claimed is not None else "a solution"
    label = f"{result.solver} {result.solver_version}".strip()
    return Reproof("refuted", result.solver, f"REFUTED by {label}: the simulator replays {what}", result)


def _name_phase(progress: Any, label: str) -> None:
    """Name the phase on a live progress line: the first quarter of a re-proof is the default solver's search
    for a better answer, and it was shown as the named solver's."""
    if hasattr(progress, "label"):
        progress.label = label


def reprove(
    problem: Problem,
    instance: Any,
    params: dict[str, Any],
    data: dict[str, Any],
    solver: str | None,
    options: SolveOptions,
    progress: Callable[[float, float | None, float | None], None] | None = None,
) -> Reproof:
    """Ask another solver to prove the certificate's optimum, infeasibility or bound again."""
    from mipgames.run.runner import solve

    status = Status(data["status"])
    claimed = claimed_limit(status, data)
    if status is not Status.INFEASIBLE and claimed is None:
        raise UsageError(
            f"--reprove re-checks what rests on a solver's proof (an optimum, infeasibility or a bound); this {status} "
            "certificate claims no bound"
        )
    name = choose_solver(data, solver)
    name_of, sense = problem.objective(params)
    cut = None
    if claimed is not None:
        # Under the optimising params the models cover every solution the claim's params allow (and more), so
        # "nothing strictly better" proved there holds for the claim.
        params = problem.optimise_params(params)
        cut = strictly_better(claimed, sense, problem.integral)
    started = time.monotonic()
    _name_phase(progress, f"re-proof, a better answer sought by {problem.default_solver}")
    refuted = _refute(problem, instance, params, claimed, options, progress)
    if refuted is not None:
        return refuted
    _name_phase(progress, f"re-proof: {name}")
    last: Result | None = None
    for formulation in _formulations(problem, name, params, instance):
        try:
            result = solve(
                problem,
                instance,
                solver=name,
                formulation=formulation,
                params=params,
                options=options,
                cut=cut,
                progress=progress,
                started=started,
            )
        except UsageError:
            continue  # this formulation cannot state the cut; try the next one
        last = result
        label = f"{name} {result.solver_version} ({formulation})"
        took = f"{time.monotonic() - started:.1f} s"
        if result.status is Status.INFEASIBLE:
            what = f"no solution better than {shown(claimed)}" if claimed is not None else "no solution exists"
            if prover_head(result.proved_by) != name:  # the toolkit's own bound proved it, not the solver
                took += f", not by {label}"
                label = result.proved_by
            return Reproof("re-proved", name, f"re-proved by {label} in {took}: {what}", result)
        if result.status.has_solution:
            if _beats(result.objective, claimed, sense):
                what = f"a solution with {shown(result.objective)} {name_of}" if cut else "a solution"
                return Reproof("refuted", name, f"REFUTED by {label}: the simulator replays {what}", result)
            return Reproof(
                "not re-proved",
                name,
                f"not re-proved: {label} found a solution the simulator measures "
                f"at {shown(result.objective)}, not better than the claim",
                result,
            )
        reason = result.stop or result.message or str(result.status)
        return Reproof(
            "not re-proved", name, f"not re-proved ({result.status} at the limit: {reason}) by {label}", result
        )
    if last is None:
        return Reproof(
            "not re-proved",
            name,
            f"not re-proved: no {name} formulation of {problem.name} can state the question under these params",
        )
    return Reproof("not re-proved", name, "not re-proved", last)
