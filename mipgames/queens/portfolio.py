"""The default method: the level searches (80 % of the limit), then the forest CP-SAT model (none above
FOREST_UP_TO queens: the level searches get the whole limit); with --minimise
a short probe of the level searches, then the memoised DFS briefly, its game the level searches' first
incumbent.

The level searches (compiled) answer easy positions in milliseconds, find
solutions of large generated positions and prove unsolvable ones: deciding K,
the eager one (levels.py) gets a short probe and the lazy one (lazy.py) the
rest; the forest model takes over when they run out of time.  When the decision is
infeasible, a short budget goes to the minimum that remains, returned as the
bound of the infeasible outcome.
"""

from __future__ import annotations

import functools
import time
from functools import partial
from typing import Any

from mipgames.core.problem import Report, SolveOptions
from mipgames.core.result import Result
from mipgames.core.status import Status
from mipgames.queens.coursework import Outcome, search_compiled
from mipgames.queens.dfs import reached, run_dfs
from mipgames.queens.geometry import geometry_size, start_bound
from mipgames.queens.instance import Move, Queens, remain
from mipgames.queens.lazy import lazy_restarts
from mipgames.queens.levels import forest_restarts, run_levels

DFS_SHARE, DFS_CAP = 0.05, 2.0
PROBE_SHARE, PROBE_CAP = 0.01, 0.3
LEVELS_SHARE = 0.8
GEOMETRY_UP_TO = 2_000_000
"""Entries of the lines-of-sight table (geometry.geometry_size) above which the level searches, the DFS and the
models are not started.  The level searches' starting bound (prep.captures_possible) takes about a microsecond
an entry in Python, building the table and its arrays 0.3 us; the planted N = 64 positions have 3e4, a 128 x 128
board a quarter full 4.5e6 (4 s for the bound), a full one 2.7e8 (10 GB).  Beyond it the coursework's search,
which works on the board itself, plays."""
FOREST_UP_TO = 200
"""Queens above which the forest model gets no share: at 300 its presolve alone took 27 s (2 workers), more than
the 20 % it would get of a minute, and its build ran past the deadline."""
EAGER_SHARE, EAGER_CAP = 0.01, 0.5
DIVE_SHARE, DIVE_CAP, DIVE_NODES = 0.1, 6.0, 2
"""The first member: the coursework's search on the board for DIVE_NODES nodes a queen (its first dive and a
little backtracking), at most DIVE_SHARE of the limit and DIVE_CAP seconds.  A K far above the bound on a
board of thousands of queens is reached by that dive in a second, where the level searches found none in a
minute (a full 64 x 64 board, K = 2,048); minimising, its game is the first incumbent."""
MINIMUM_SHARE, MINIMUM_CAP = 0.1, 5.0


def solve_forest(
    instance: Queens, minimise: bool, options: SolveOptions, time_limit: float | None, hint: list[Move] | None = None
) -> Result:
    """Builds and solves the forest model in-process; the decoded moves are replayed by the caller (the runner)."""
    from dataclasses import replace

    from ortools.sat.python import cp_model

    from mipgames.backends.cpsat import apply_parameters, version
    from mipgames.queens.cpsat import build_forest
    from mipgames.queens.decode import decode_forest

    params = {"minimise": minimise}
    built = build_forest(instance, params, options)
    if hint:
        add_forest_hint(built, hint)
    solver = cp_model.CpSolver()
    limit = None if time_limit is None else max(0.01, time_limit)
    apply_parameters(solver, replace(options, time_limit=limit), built.cpsat_parameters)
    solver.parameters.log_search_progress = False
    prover = f"cpsat {version()} (forest model)"
    code = solver.solve(built.model)
    if code == cp_model.INFEASIBLE:
        return Result(Status.INFEASIBLE, proved_by=prover)
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Result(Status.UNKNOWN, bound=built.stats["bound"] if minimise else None)
    moves = decode_forest(instance, params, built.handles, solver.value)
    remaining = len(instance.queens) - len(moves)
    if not minimise:
        return Result(Status.FEASIBLE, moves, remaining, built.stats["bound"])
    bound = round(solver.best_objective_bound)
    optimal = code == cp_model.OPTIMAL
    return Result(
        Status.OPTIMAL if optimal else Status.FEASIBLE, moves, remaining, bound, proved_by=prover if optimal else ""
    )


def add_forest_hint(built, moves: list[Move]) -> None:
    """Hints the parent of every square that moves in ``moves`` (everything else a root)."""
    index = built.handles["prep"].geo.index
    parent = {index[m[:2]]: index[m[2:]] for m in moves}
    for (c, p), var in built.handles["z"].items():
        built.model.add_hint(var, parent.get(c) == p)


def run_portfolio(instance: Queens, params: dict[str, Any], options: SolveOptions, report: Report) -> Result:
    start = time.monotonic()
    minimise = bool(params.get("minimise"))
    size = geometry_size(instance)
    if size > GEOMETRY_UP_TO:
        return _too_large(instance, minimise, options, report, size)
    limit = options.time_limit
    _load_board_kernel()  # about a second in a fresh process: not the dive's time
    dive_for = DIVE_CAP if limit is None else min(DIVE_CAP, DIVE_SHARE * limit)
    quick = _on_the_board(instance, minimise, time.monotonic() + dive_for, report, DIVE_NODES * len(instance.queens))
    if _done(quick, minimise):
        return quick if quick.status != "infeasible" else _with_minimum(instance, options, start, quick)
    if minimise:  # the DFS's best is the minimisation's first incumbent; deciding K, the level search is faster
        probe = PROBE_CAP if limit is None else min(PROBE_CAP, PROBE_SHARE * limit)
        first = _minimum(instance, params, probe, options.seed, report)
        if first.status == "optimal":  # small positions: proved before the DFS has started
            return first
        budget = DFS_CAP if limit is None else min(DFS_CAP, DFS_SHARE * limit)
        dfs = _by("dfs", run_dfs(instance, params, SolveOptions(time_limit=budget, threads=options.threads), report))
        if dfs.status == "optimal":
            return dfs
        quick = _better(quick, dfs) if dfs.solution is not None else quick

    def left() -> float | None:
        return None if limit is None else max(0.01, limit - (time.monotonic() - start))

    found = _levels(instance, params, options, report, start, quick.solution)
    if _done(found, minimise):
        return found if found.status != "infeasible" else _with_minimum(instance, options, start, found)
    if found.solution is not None:
        quick = found
    if len(instance.queens) > FOREST_UP_TO:
        return _better(quick, found) if minimise else found
    out = solve_forest(instance, minimise, options, left(), hint=quick.solution if minimise else None)
    if out.status == "infeasible" and not minimise:
        return _with_minimum(instance, options, start, out)
    if quick.solution is not None and (out.solution is None or (minimise and out.status != "optimal")):
        return _better(quick, out) if minimise else quick
    return out


def _on_the_board(
    instance: Queens,
    minimise: bool,
    deadline: float | None,
    report: Report,
    node_limit: int | None = None,
) -> Result:
    """The coursework's depth-first search, which works on the board itself: it decides K or (minimising) keeps
    its game with the fewest queens left.  It is complete, so a search that runs out of captures proves its
    verdict; the bound is otherwise the counting bound."""
    bound = start_bound(instance)
    if not minimise and bound > instance.k:  # the runner's own bound proves it, and verify recomputes that
        return Result(Status.UNKNOWN, message=f"at least {remain(bound, 'always')}")
    shown = [len(instance.queens) + 1]

    def progress(outcome: Outcome) -> None:
        left = len(instance.queens) - len(outcome.fewest)
        if left < shown[0]:
            shown[0] = left
            if minimise:
                report(left, bound, outcome.fewest)
            else:
                report(None, bound, None, f"fewest left {left:,}")

    case = Queens(instance.n, bound if minimise else instance.k, instance.board)
    found, nodes, exhausted, fewest = search_compiled(case, deadline, node_limit, progress)
    left = len(instance.queens) - len(fewest)
    if minimise and left < shown[0]:  # kept by the runner if a later member overruns the deadline
        report(left, bound, fewest)  # a game that reached the target is the one with the fewest queens
    if found is not None:  # minimising, the target is the bound: reached() calls it optimal
        out = reached(instance, found, left, bound)
    elif exhausted and minimise:
        out = Result(Status.OPTIMAL, fewest, left, left, proved_by=f"{BOARD_MEMBER}: every capture tried")
    elif exhausted:
        out = Result(Status.INFEASIBLE, bound=left, proved_by=f"{BOARD_MEMBER}: every capture tried")
    elif minimise:
        out = Result(Status.FEASIBLE, fewest, left, bound)
    else:
        out = Result(Status.UNKNOWN, bound=bound, message=f"K = {instance.k} not reached in time")
    out.message = "; ".join(filter(None, (out.message, f"{nodes:,} nodes; the fewest left {left:,}")))
    return _by("coursework-dfs", out)


BOARD_MEMBER = "coursework-dfs (portfolio member)"


@functools.cache
def _load_board_kernel() -> None:
    """Load the coursework search's compiled kernel (numba's cache) once, on a two-queen board."""
    search_compiled(Queens(2, 1, ((1, 1), (0, 0))), None)


def _too_large(instance: Queens, minimise: bool, options: SolveOptions, report: Report, size: int) -> Result:
    """A position whose lines-of-sight table would not fit (GEOMETRY_UP_TO): the board search alone."""
    out = _on_the_board(instance, minimise, options.deadline(), report)
    out.message = (
        f"{len(instance.queens):,} queens are too many for the searches over lines of sight ({size:,} entries, "
        f"more than {GEOMETRY_UP_TO:,}): the coursework's depth-first search played on the board; {out.message}"
    )
    return out


def _better(kept: Result, out: Result) -> Result:
    """Minimising: the game that leaves fewer queens of two results, with the stronger of their proved bounds."""
    best = kept if out.objective is None or (kept.objective is not None and kept.objective <= out.objective) else out
    bounds = [b for b in (kept.bound, out.bound) if b is not None]
    best.bound = max(bounds) if bounds else None
    return best


def _done(result: Result, minimise: bool) -> bool:
    return result.status in ("optimal", "infeasible") or (result.status == "feasible" and not minimise)


def _levels(
    instance: Queens,
    params: dict[str, Any],
    options: SolveOptions,
    report: Report,
    start: float,
    incumbent: list[Move] | None = None,
) -> Result:
    """The level searches' share of the limit (LEVELS_SHARE).  Deciding K: the eager level search for a short
    probe in Python (EAGER_SHARE of the limit, at most EAGER_CAP: it refutes an unreachable K with many
    survivors in a few nodes, where the lazy one can take seconds), then the lazy one (it finds large planted
    solutions fastest); when K is two or more above the bound, the eager one searches K itself and the lazy
    one the targets from the bound up (run_levels: a lazy search of K alone wanders in the slack).
    Minimising: both (``_minimum``), from ``incumbent``."""
    limit = options.time_limit
    minimise = bool(params.get("minimise"))
    share = None if limit is None else (LEVELS_SHARE if len(instance.queens) <= FOREST_UP_TO else 1.0) * limit
    if minimise:
        budget = None if share is None else max(0.01, share - (time.monotonic() - start))
        return _minimum(instance, params, budget, options.seed, report, incumbent)
    probe = EAGER_CAP if limit is None else min(EAGER_CAP, EAGER_SHARE * limit)
    quick = SolveOptions(time_limit=probe, seed=options.seed)
    found = _by("levels", run_levels(instance, params, quick, report, (partial(forest_restarts, compiled=False),)))
    if _done(found, minimise=False):
        return found
    rest = None if share is None else max(0.01, share - (time.monotonic() - start))
    within = SolveOptions(time_limit=rest, seed=options.seed, threads=options.threads)
    return _by("lazy-levels", run_levels(instance, params, within, report, (lazy_restarts,), None, (forest_restarts,)))


def _minimum(
    instance: Queens,
    params: dict[str, Any],
    seconds: float | None,
    seed: int,
    report: Report,
    incumbent: list[Move] | None = None,
) -> Result:
    """The level searches minimising in slices (minimise.py): the lazy one finds, the eager one proves and
    descends from the best game."""
    within = SolveOptions(time_limit=seconds, seed=seed)
    return _by(  # named for an algorithm that proves: the runner drops a bound credited to a name it does not know
        "lazy-levels", run_levels(instance, params, within, report, (lazy_restarts,), incumbent, (forest_restarts,))
    )


def _by(member: str, result: Result) -> Result:
    """Names the member that proved a claim, so the certificate says which search it was."""
    if result.status in (Status.OPTIMAL, Status.INFEASIBLE) and not result.proved_by:
        result.proved_by = f"{member} (portfolio member)"
    return result


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
        return Result(
            Status.INFEASIBLE, bound=proof.bound, message=f"K = {k} is unreachable (proved)", proved_by=proof.proved_by
        )
    best = run_levels(instance, {"minimise": True}, SolveOptions(time_limit=budget, seed=options.seed), lambda *_: None)
    if best.status == "optimal" and best.objective is not None:
        return Result(
            Status.INFEASIBLE,
            bound=best.objective,
            proved_by=proof.proved_by,
            message=f"K = {k} is unreachable (proved): at least {remain(best.objective, 'always')}",
        )
    floor = int(max(k + 1, best.bound or 0, proof.bound or 0))
    return Result(
        Status.INFEASIBLE,
        bound=floor,
        proved_by=proof.proved_by,
        message=f"K = {k} is unreachable (proved): at least {remain(floor, 'always')}",
    )
