"""The queens portfolio's search on the board itself (the coursework's, with its fewest-queens game kept): the
whole answer on positions too large for the searches over lines of sight, and the first member everywhere.

Before it, a full 80 x 80 board with K = 3,200 ended `unknown` after 23 s of a 20 s limit, and a full 128 x
128 one took 3.3 GB to build its lines of sight; a full 24 x 24 board with K = 288 was `unknown` at 10 s."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings

from mipgames.core.errors import UsageError
from mipgames.core.problem import SolveOptions
from mipgames.queens import portfolio
from mipgames.queens.geometry import geometry, geometry_size, start_bound
from mipgames.queens.instance import Queens
from mipgames.queens.problem import PROBLEM
from mipgames.run.runner import solve
from tests.queens.test_models import brute_minimum, positions


def full_board(n: int, k: int, seed: int) -> Queens:
    """Every square a queen of power 1, 2 or 4."""
    rng = random.Random(seed)
    return Queens(n, k, tuple(tuple(1 << rng.randrange(3) for _ in range(n)) for _ in range(n)))


def run(instance: Queens, minimise: bool, limit: float = 10) -> object:
    return solve(
        PROBLEM,
        instance,
        solver="portfolio",
        params={"minimise": minimise},
        options=SolveOptions(time_limit=limit, threads=1),
        isolate=False,
    )


def test_the_table_size_is_counted_without_building_it():
    for instance in (full_board(5, 1, 0), Queens(4, 1, ((1, 0, 0, 2), (0, 0, 0, 0), (0, 4, 0, 0), (8, 0, 0, 1)))):
        between = geometry(instance).between
        assert geometry_size(instance) == len(between) + sum(map(len, between.values()))


def test_the_full_board_sizes_the_docs_quote_are_the_counts():
    """docs/queens.md gave a full 128 x 128 board 2.9e8 entries where the count is 2.7e8."""
    docs = (Path(__file__).resolve().parents[2] / "docs" / "queens.md").read_text()
    quoted = re.search(r"full 128 x 128\s+board \(16,384 queens, within the spec\) has ([0-9.e]+) entries", docs)
    assert quoted is not None

    def shown(n: int) -> str:
        return f"{geometry_size(full_board(n, 1, 0)):.1e}".replace("e+0", "e")

    assert shown(128) == quoted.group(1) == "2.7e8"
    assert shown(80) == "4.1e7"


@settings(max_examples=40, deadline=None, derandomize=True)
@given(positions())
def test_on_the_board_alone_the_verdicts_are_the_brute_forces(instance):
    """Every position sent down the board route: the search is complete, so on these small positions it proves
    the minimum brute force finds, and decides K by it."""
    minimum = brute_minimum(instance)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(portfolio, "GEOMETRY_UP_TO", -1)
        fewest = run(instance, minimise=True)
        decided = run(instance, minimise=False)
    assert (fewest.status, fewest.objective, fewest.bound) == ("optimal", minimum, minimum), fewest.message
    assert fewest.verified and "too many for the searches over lines of sight" in fewest.message
    if minimum > instance.k:
        assert decided.status == "infeasible" and decided.bound is not None and instance.k < decided.bound <= minimum
    else:
        assert decided.status in ("optimal", "feasible") and decided.verified and decided.objective <= instance.k


def test_a_board_too_large_for_the_lines_of_sight_is_decided_on_the_board():
    instance = full_board(48, 1152, 1)  # 2,304 queens: 5.3e6 entries of the lines-of-sight table
    assert geometry_size(instance) > portfolio.GEOMETRY_UP_TO
    result = run(instance, minimise=False, limit=30)
    assert result.status == "feasible" and result.verified and result.objective <= 1152
    assert "too many for the searches over lines of sight" in result.message


def test_the_first_dive_reaches_a_far_k_on_a_full_board():
    instance = full_board(24, 288, 2)  # 576 queens, within the table's limit: the level searches found no game
    assert geometry_size(instance) <= portfolio.GEOMETRY_UP_TO
    result = run(instance, minimise=False)
    assert result.status == "feasible" and result.verified and result.objective <= 288
    fewest = run(instance, minimise=True, limit=3)
    assert fewest.status in ("feasible", "optimal") and fewest.verified and fewest.objective < 288


def test_a_k_the_counting_bound_rules_out_is_answered_before_any_table_is_built():
    """A full 128 x 128 board with popcount 8 and K = 7: the level searches and the DFS spent their whole limit
    and 2.8 GB building the lines of sight before the runner applied the bound."""
    from mipgames.queens.dfs import run_dfs
    from mipgames.queens.lazy import run_lazy
    from mipgames.queens.levels import run_levels

    board = full_board(128, 1, 2)
    k = start_bound(board) - 1
    instance = Queens(board.n, k, board.board)
    for run_ in (run_dfs, run_levels, run_lazy):
        result = run_(instance, {}, SolveOptions(time_limit=60), lambda *_: None)
        assert result.status == "infeasible" and result.bound == k + 1


@pytest.mark.parametrize("solver", ["dfs", "levels", "lazy-levels", "cpsat"])
def test_a_board_past_the_table_limit_is_refused_by_the_searches_on_lines_of_sight(solver):
    instance = full_board(128, 8000, 1)
    with pytest.raises(UsageError, match="default solver and coursework-dfs search such boards"):
        solve(PROBLEM, instance, solver=solver, options=SolveOptions(time_limit=10, threads=1), isolate=False)


def test_the_summary_lists_at_most_200_moves():
    instance = full_board(48, 1152, 1)
    result = run(instance, minimise=False, limit=30)
    text = PROBLEM.describe(instance, result.params, result.solution, result.verdict)
    assert len(result.solution) == 2304 - 1152 and len(text.splitlines()) == 1 + 200 + 1 + 1
    assert "and 952 more moves" in text


def test_the_command_line_refuses_such_a_board_with_exit_4(tmp_path, capsys):
    from mipgames.cli import main

    board = tmp_path / "full.txt"
    instance = full_board(128, 8000, 1)
    board.write_text("128\n8000\n" + "".join(" ".join(map(str, row)) + "\n" for row in instance.board))
    assert (
        main(
            [
                "solve",
                str(board),
                "--problem",
                "queens",
                "--solver",
                "levels",
                "--quiet",
                "--out",
                str(tmp_path / "c.json"),
            ]
        )
        == 4
    )
    err = capsys.readouterr().err
    assert "the level search: built on the lines of sight" in err and "Traceback" not in err


def test_past_the_table_the_counting_bound_proves_an_unreachable_k_where_verify_can_recompute_it():
    board = full_board(128, 1, 2)
    instance = Queens(board.n, start_bound(board) - 1, board.board)
    result = run(instance, minimise=False)
    assert result.status == "infeasible" and "popcount and line-of-sight bound" in result.proved_by
