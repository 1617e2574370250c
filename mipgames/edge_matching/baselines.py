"""The algorithms edge matching runs as solvers (``--solver NAME``): the ALGORITHMS registry.

Each lives in its own module and is imported only when it runs, so that
reading the registry (``mipgames --help``, ``problems``) loads neither numba
nor OR-Tools.  Every ``run`` receives the instance with its frame colour
already renamed to 0 (``simulate.framed``; problem.py does it).
"""

from __future__ import annotations

import math
from typing import Any

from mipgames.core.problem import Algorithm, Report, SolveOptions
from mipgames.core.result import Result
from mipgames.edge_matching.instance import Instance


def _backtrack(inst: Instance, params: dict[str, Any], options: SolveOptions, report: Report) -> Result:
    from mipgames.edge_matching.backtrack import run_backtrack

    return run_backtrack(inst, params, options, report)


def _lns(inst: Instance, params: dict[str, Any], options: SolveOptions, report: Report) -> Result:
    from mipgames.edge_matching.lns import run_lns

    return run_lns(inst, params, options, report)


def _anneal(inst: Instance, params: dict[str, Any], options: SolveOptions, report: Report) -> Result:
    from mipgames.edge_matching.anneal import run_anneal

    return run_anneal(inst, params, options, report)


def _portfolio(inst: Instance, params: dict[str, Any], options: SolveOptions, report: Report) -> Result:
    from mipgames.edge_matching.portfolio import run_portfolio

    return run_portfolio(inst, params, options, report)


ALGORITHMS = {
    "portfolio": Algorithm(
        "portfolio",
        _portfolio,
        "the default: compiled backtracker and local search beside CP-SAT, sharing incumbents and bounds; "
        "returns the best verified placement at the deadline",
        exact=True,
        counts=True,
    ),
    "backtrack": Algorithm(
        "backtrack",
        _backtrack,
        "compiled exact backtracker (row scan, (top, left)-indexed candidates): perfect placements, "
        "infeasibility proofs, --count; branch and bound for the optimum of small boards",
        exact=True,
        counts=True,
    ),
    "lns": Algorithm(
        "lns",
        _lns,
        "compiled score search: backtracking with a schedule of allowed mismatches, then windows of the "
        "board re-placed by branch and bound; any size, no proof beyond the colour-count bound",
    ),
    "anneal": Algorithm(
        "anneal",
        _anneal,
        "greedy fill + simulated annealing in Python (swaps with best turns): the classical baseline",
    ),
}


def compile_kernels() -> None:
    """Compile (or load from numba's cache) the backtracker's and the local search's kernels: every kernel
    path runs once on small planted puzzles (decision, count, branch and bound, score search)."""
    from mipgames.edge_matching import kernel
    from mipgames.edge_matching.generate import planted
    from mipgames.edge_matching.lns import score_search

    inst, _ = planted(3, 3, True, 2, 3, 0)
    quiet = SolveOptions(threads=1, time_limit=30)
    for params in ({"mode": "decision"}, {"mode": "decision", "count": True}, {"mode": "optimise"}):
        _backtrack(inst, params, quiet, lambda *a: None)
    # a puzzle its first construction leaves imperfect, searched until the local search's kernel has run (not
    # for a time: on a cold cache the construction's compile alone outlasted any short limit)
    imperfect, _ = planted(7, 7, True, 3, 6, 0)
    score_search(imperfect, math.inf, 0, stop=lambda: bool(kernel.ils.signatures))
