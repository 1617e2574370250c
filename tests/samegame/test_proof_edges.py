"""The exact search and the beams that prove, on boards with known optima."""

from mipgames.samegame import kernel as K
from mipgames.samegame.exact import ExactSearch
from mipgames.samegame.instance import Board


def test_an_incumbent_one_below_the_optimum_is_not_declared_optimal():
    """Colour 1 has three tiles (one group: 1 point), colour 0 one tile (no clear bonus): the optimum is 1.
    Given a game worth 0, the search must find the better one, not confirm the incumbent (a colour of exactly
    three tiles still scores (3 - 2)^2 = 1 in the colour-count bound)."""
    board = Board(((1, 1), (0, 1)))
    root, shape = K.to_array(board)
    out = ExactSearch(shape, 10).solve(root, True, incumbent=0)
    assert out.proved and out.value == 1 and out.bound == 1
    assert ExactSearch(shape, 10).solve(root, True, incumbent=1).value is None  # at the optimum: confirmed


def test_incumbents_just_below_the_optimum_on_small_boards():
    """The brute-force test's incumbents (optimum -5, 0, +3) skip the tightest case, optimum - 1."""
    from mipgames.samegame.generate import random_board
    from tests.samegame.test_search import brute_force

    for seed in range(40):
        board = random_board(2 + seed % 3, 2 + seed % 4, 2 + seed % 3, seed)
        for objective in ("score", "min-remaining"):
            truth = brute_force(board, objective)
            internal = truth if objective == "score" else -truth
            root, shape = K.to_array(board)
            out = ExactSearch(shape, 10).solve(root, objective == "score", incumbent=internal - 1)
            assert out.proved and out.value == internal, (board, objective)


def test_greedy_that_cut_a_layer_does_not_claim_optimal():
    """Greedy (a beam of width 1) keeps one of at most two children per layer here, so a check that only sees a
    cut above twice the width misses it: greedy scores 9, the optimum is 13; it may not say 'optimal'."""
    from tests.samegame.test_search import brute_force

    board = Board(((0, 2, 1, 2), (0, 0, 1, 1), (1, 0, 2, 1)))
    truth = brute_force(board, "score")
    assert truth == 13
    for solver, res in _narrow(board, "score"):
        assert res.status != "optimal" or res.objective == truth, (solver, res.status, res.objective)


def test_a_game_one_tile_above_the_colour_count_bound_is_not_proved_by_it():
    """Every colour has 2+ tiles (bound: clear the board) and the board does clear (brute force), but greedy
    leaves one tile: that game is feasible, not optimal, and the colour-count bound does not prove it."""
    from tests.samegame.test_search import brute_force

    board = Board(((1, 0, 1, 1), (0, 0, 1, 1), (1, 1, 0, 1)))
    assert brute_force(board, "min-remaining") == 0
    for solver, res in _narrow(board, "min-remaining"):
        assert (res.status, res.objective, res.bound) == ("feasible", 1, 0), (solver, res.status, res.message)


def _narrow(board: Board, objective: str) -> list:
    """(solver, result) of greedy and of a beam of width 1 through the runner, which may credit them a proof."""
    from mipgames.core.problem import SolveOptions
    from mipgames.run.runner import solve
    from mipgames.samegame.problem import PROBLEM

    runs = (("greedy", {}), ("beam", {"beam_width": 1}))
    options = SolveOptions(time_limit=10)
    return [
        (
            name,
            solve(
                PROBLEM, board, solver=name, params={"objective": objective, **extra}, options=options, isolate=False
            ),
        )
        for name, extra in runs
    ]
