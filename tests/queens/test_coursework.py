"""The coursework's own search: compiled = reference, the described order, and the verdicts of the improved DFS."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mipgames.core.errors import UsageError
from mipgames.core.problem import SolveOptions
from mipgames.queens.coursework import search_compiled, search_reference
from mipgames.queens.generate import planted
from mipgames.queens.instance import Queens, parse
from mipgames.queens.problem import PROBLEM
from mipgames.queens.simulate import evaluate
from mipgames.run.runner import solve
from tests.queens.test_models import positions


@settings(max_examples=60, deadline=None, derandomize=True)
@given(positions(), st.sampled_from([None, 3, 40]))
def test_compiled_search_makes_the_reference_nodes(instance, limit):
    for k in range(4):
        case = Queens(instance.n, k, instance.board)
        assert search_compiled(case, None, limit) == search_reference(case, limit)


@pytest.mark.parametrize("n, k, moves, seed", [(6, 1, 8, 0), (8, 1, 12, 1), (8, 2, 20, 1), (12, 1, 24, 0)])
def test_compiled_search_on_planted_positions(n, k, moves, seed):
    instance = planted(n, k, moves, seed).instance
    outcome = search_compiled(instance, None, 3_000)
    assert outcome == search_reference(instance, 3_000)
    if outcome.found is not None:
        assert evaluate(instance, {}, outcome.found).objective <= k
        assert outcome.fewest == outcome.found


@settings(max_examples=40, deadline=None, derandomize=True)
@given(positions(), st.sampled_from([5, 60]))
def test_the_fewest_queens_game_is_the_first_node_with_the_fewest(instance, limit):
    """The game kept for the fewest queens replays to that many, and no node of the same run left fewer."""
    case = Queens(instance.n, 1, instance.board)
    anything = Queens(instance.n, len(instance.queens), instance.board)  # every legal game reaches its K
    outcome = search_compiled(case, None, limit)
    left = evaluate(anything, {}, outcome.fewest).objective
    assert left == len(instance.queens) - len(outcome.fewest)
    for nodes in range(1, outcome.nodes + 1):
        assert evaluate(anything, {}, search_reference(case, nodes).fewest).objective >= left
    assert search_reference(case, limit).fewest == outcome.fewest


def test_the_weakest_queen_moves_first_along_the_first_direction():
    # potentials (exponent + 2 x queens in sight): the 1s at (0, 0) and (2, 0) see two queens each (4), the 2 at
    # (0, 2) too (5).  Board order puts (0, 0) first; its first direction (0, 1) meets the 2, the second (1, 0)
    # meets the other 1: (0, 0) takes (2, 0).
    instance = parse("3\n1\n1 0 2\n0 0 0\n1 0 0\n")
    moves = search_reference(instance).found
    assert moves == [(0, 0, 2, 0)] + moves[1:] and moves[0] == search_compiled(instance, None)[0][0]


@settings(max_examples=60, deadline=None, derandomize=True)
@given(positions())
def test_same_verdicts_as_the_improved_dfs(instance):
    """Both searches are complete on positions this small: they agree on solvable or not."""
    options = SolveOptions(time_limit=30, threads=1)
    ours = solve(PROBLEM, instance, solver="coursework-dfs", options=options, isolate=False)
    improved = solve(PROBLEM, instance, solver="dfs", options=options, isolate=False)
    assert ours.status in ("optimal", "feasible", "infeasible")
    assert (ours.status == "infeasible") == (improved.status == "infeasible")
    if ours.status != "infeasible":
        assert ours.verdict.measured["remaining"] <= instance.k


def test_it_decides_k_only():
    with pytest.raises(UsageError, match="decides K"):
        solve(
            PROBLEM,
            parse("2\n1\n1 1\n0 0\n"),
            solver="coursework-dfs",
            params={"minimise": True},
            options=SolveOptions(time_limit=5),
            isolate=False,
        )
