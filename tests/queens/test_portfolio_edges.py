"""Where the queens portfolio picks its answer among its members' results: the game that leaves fewest queens,
with the strongest bound any of them proved, whichever member found it.

The members are replaced by scripted results on a board whose minimum is known (3, by brute force in
``test_models``), so each test says exactly what was found and what was proved."""

from __future__ import annotations

from typing import Any

import pytest

from mipgames.core.problem import SolveOptions
from mipgames.core.result import Result
from mipgames.core.status import Status
from mipgames.queens import portfolio
from mipgames.queens.instance import Queens, parse
from mipgames.queens.problem import PROBLEM
from mipgames.queens.simulate import evaluate
from mipgames.run.runner import solve

# The 4s can meet, then the 1s; the 2 they make and the two 8s never do: at least 3 queens remain.
BOARD = parse("4\n1\n1 4 1 0\n0 0 0 0\n0 4 0 0\n0 0 0 8\n")
FOUR = [(0, 1, 2, 1)]  # the top 4 takes the other: 4 queens remain
THREE = [(0, 1, 2, 1), (0, 0, 0, 2)]  # then the two 1s meet: 3 remain, the minimum


def test_the_scripted_games_leave_what_the_tests_say():
    from tests.queens.test_models import brute_minimum

    assert brute_minimum(BOARD) == 3
    assert [evaluate(BOARD, {"minimise": True}, g).objective for g in ([], FOUR, THREE)] == [5, 4, 3]


def scripted(monkeypatch: pytest.MonkeyPatch, dfs: Result, forest: Result | None = None) -> None:
    """The board search and the level searches find nothing; the DFS and the forest model return ``dfs`` and
    ``forest``."""
    monkeypatch.setattr(portfolio, "_on_the_board", lambda *args, **kwargs: Result(Status.UNKNOWN))
    monkeypatch.setattr(portfolio, "_minimum", lambda *args, **kwargs: Result(Status.UNKNOWN))
    monkeypatch.setattr(portfolio, "run_dfs", lambda *args, **kwargs: dfs)
    if forest is not None:
        monkeypatch.setattr(portfolio, "solve_forest", lambda *args, **kwargs: forest)


def minimise() -> Any:
    return solve(
        PROBLEM,
        BOARD,
        solver="portfolio",
        params={"minimise": True},
        options=SolveOptions(time_limit=5, threads=1),
        isolate=False,
    )


def test_the_fewer_queens_and_the_stronger_bound_of_two_members(monkeypatch):
    """The DFS leaves 4 queens (its bound 2, the popcount); the forest model, stopped, holds the empty game (5
    queens) with bound 3.  The answer is the DFS's game with the forest's bound: feasible, 4, bound 3."""
    scripted(
        monkeypatch,
        dfs=Result(Status.FEASIBLE, FOUR, 4, 2),
        forest=Result(Status.FEASIBLE, [], 5, 3),
    )
    r = minimise()
    assert (r.status, r.objective, r.bound) == ("feasible", 4, 3)
    assert r.solution == FOUR


def test_above_the_forest_size_the_dfs_game_is_kept(monkeypatch):
    """Above FOREST_UP_TO queens the forest model does not run: when the level searches found nothing, the
    DFS's game is the answer, not "unknown"."""
    monkeypatch.setattr(portfolio, "FOREST_UP_TO", 4)
    scripted(monkeypatch, dfs=Result(Status.FEASIBLE, FOUR, 4, 2))
    r = minimise()
    assert (r.status, r.objective) == ("feasible", 4) and r.solution == FOUR


def test_an_unreachable_k_leaves_at_least_k_plus_one_queens(monkeypatch):
    """K = 2 is proved unreachable and the short minimisation that follows finds nothing: what is known is that
    at least K + 1 = 3 queens remain (here also the true minimum), not K."""
    monkeypatch.setattr(portfolio, "run_levels", lambda *args, **kwargs: Result(Status.UNKNOWN))
    proof = Result(Status.INFEASIBLE, proved_by="cpsat (forest model)")
    r = portfolio._with_minimum(Queens(BOARD.n, 2, BOARD.board), SolveOptions(time_limit=None), 0.0, proof)
    assert (r.status, r.bound) == ("infeasible", 3)
    assert "at least 3 queens always remain" in r.message
