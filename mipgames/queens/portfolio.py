"""The default method: the level search (80 % of the limit), then the forest CP-SAT model; with --minimise the
memoised DFS briefly first.

The level search (compiled) answers easy positions in milliseconds, finds
solutions of large generated positions and proves unsolvable ones; the
forest model takes over when it runs out of time.  When the decision is
infeasible, a short budget goes to the minimum that remains, returned as the
bound of the infeasible outcome.
"""

from __future__ import annotations

import time
from typing import Any

from mipgames.core.problem import Report, SolveOptions
from mipgames.core.result import Result
from mipgames.core.status import Status
from mipgames.queens.dfs import run_dfs
from mipgames.queens.instance import Move, Queens
from mipgames.queens.levels import run_levels

DFS_SHARE, DFS_CAP = 0.05, 2.0
LEVELS_SHARE = 0.8
MINIMUM_SHARE, MINIMUM_CAP = 0.1, 5.0


def solve_forest(instance: Queens, minimise: bool, options: SolveOptions, time_limit: float | None,
                 hint: list[Move] | None = None) -> Result:
    """Builds and solves the forest model in-process; the decoded moves are replayed by the caller (the runner)."""
    from ortools.sat.python import cp_model

    from mipgames.queens.cpsat import build_forest
    from mipgames.queens.decode import decode_forest

    params = {"minimise": minimise}
    built = build_forest(instance, params, options)
    if hint:
        add_forest_hint(built, hint)
    solver = cp_model.CpSolver()
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = max(0.01, time_limit)
    solver.parameters.num_workers = max(1, options.threads)
    solver.parameters.random_seed = options.seed
    code = solver.solve(built.model)
    if code == cp_model.INFEASIBLE:
        return Result(Status.INFEASIBLE)
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Result(Status.UNKNOWN, bound=built.stats["bound"] if minimise else None)
    moves = decode_forest(instance, params, built.handles, solver.value)
    remaining = len(instance.queens) - len(moves)
    if not minimise:
        return Result(Status.FEASIBLE, moves, remaining, built.stats["bound"])
    bound = round(solver.best_objective_bound)
    return Result(Status.OPTIMAL if code == cp_model.OPTIMAL else Status.FEASIBLE, moves, remaining, bound)


def add_forest_hint(built, moves: list[Move]) -> None:
    """Hints the parent of every square that moves in ``moves`` (everything else a root)."""
    index = built.handles["prep"].geo.index
    parent = {index[m[:2]]: index[m[2:]] for m in moves}
    for (c, p), var in built.handles["z"].items():
        built.model.add_hint(var, parent.get(c) == p)


def run_portfolio(instance: Queens, params: dict[str, Any], options: SolveOptions, report: Report) -> Result:
    start = time.monotonic()
    minimise = bool(params.get("minimise"))
    limit = options.time_limit
    quick = Result(Status.UNKNOWN)
    if minimise:  # the DFS's best is the minimisation's first incumbent; deciding K, the level search is faster
        budget = DFS_CAP if limit is None else min(DFS_CAP, DFS_SHARE * limit)
        quick = run_dfs(instance, params, SolveOptions(time_limit=budget, threads=options.threads), report)
        if quick.status == "optimal":
            return quick

    def left() -> float | None:
        return None if limit is None else max(0.01, limit - (time.monotonic() - start))

    share = None if limit is None else LEVELS_SHARE * limit
    found = run_levels(instance, params, SolveOptions(time_limit=share, seed=options.seed), report)
    if found.status in ("optimal", "infeasible") or (found.status == "feasible" and not minimise):
        return found if found.status != "infeasible" else _with_minimum(instance, options, start, found)
    if found.solution is not None:
        quick = found
    out = solve_forest(instance, minimise, options, left(), hint=quick.solution if minimise else None)
    if out.status == "infeasible" and not minimise:
        return _with_minimum(instance, options, start, out)
    if out.solution is None and quick.solution is not None:
        return quick
    return out


def _with_minimum(instance: Queens, options: SolveOptions, start: float, proof: Result) -> Result:
    """Adds the minimum (proved, or what is known of it) to an infeasible decision.

    The decision is what was asked and it is already proved, so the minimum
    only gets a short budget (MINIMUM_SHARE of the limit, at most
    MINIMUM_CAP seconds) of the level search, which proves small minima
    fastest; the coursework program (``mipgames queens``) prints it.
    """
    limit = options.time_limit
    left = None if limit is None else limit - (time.monotonic() - start)
    k = instance.k
    budget = MINIMUM_CAP if limit is None else min(MINIMUM_CAP, MINIMUM_SHARE * limit, max(0.0, left or 0.0))
    if budget <= 0.05:
        return Result(Status.INFEASIBLE, bound=proof.bound, message=f"K = {k} is unreachable (proved)")
    best = run_levels(instance, {"minimise": True}, SolveOptions(time_limit=budget, seed=options.seed),
                      lambda *_: None)
    if best.status == "optimal":
        return Result(Status.INFEASIBLE, bound=best.objective,
                      message=f"K = {k} is unreachable (proved): at least {best.objective:g} queens always remain")
    floor = int(max(k + 1, best.bound or 0, proof.bound or 0))
    return Result(Status.INFEASIBLE, bound=floor,
                  message=f"K = {k} is unreachable (proved): at least {floor} queens always remain")
