"""The tabu-colour race of NRPA and the search allowance: every raced colour's games follow the tabu rule
(checked move by move on the simulator), the candidates split over workers, the race stays in its share."""

from __future__ import annotations

import time

from hypothesis import given, settings
from hypothesis import strategies as st

from mipgames.samegame import kernel as K
from mipgames.samegame import simulate
from mipgames.samegame.allowance import Allowance
from mipgames.samegame.beam import colour_order
from mipgames.samegame.generate import random_board
from mipgames.samegame.instance import Board
from mipgames.samegame.nrpa import RACE_COLOURS, RACE_SHARE, _room_for, nrpa_search, tabu_candidates


def follows_tabu(board: Board, moves: list[tuple[int, int]], tabu_colour: int) -> bool:
    """Whether the game clicks ``tabu_colour`` only when no group of another colour is left (simulator only)."""
    for move in moves:
        colour = board.at(*move)
        if colour == tabu_colour and any(board.at(*m) != tabu_colour for m in simulate.legal_moves(board)):
            return False
        board, _ = simulate.apply_move(board, move)
    return True


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.integers(4, 9), st.integers(4, 9), st.integers(3, 5), st.integers(0, 10**6), st.integers(0, 4))
def test_nrpa_games_keep_the_tabu_colour_they_were_given(
    rows: int, cols: int, colours: int, seed: int, rank: int
) -> None:
    board = random_board(rows, cols, colours, seed)
    root, shape = K.to_array(board)
    order = colour_order(root, shape)
    tabu = order[rank % len(order)]
    games: list[tuple[int, list[int]]] = []
    nrpa_search(root, shape, True, 1, seed, lambda v, c, n: games.append((v, c)), max_playouts=40, tabus=[tabu])
    assert games
    for value, cells in games:
        moves = [shape.cell(c) for c in cells]
        assert simulate.evaluate(board, {"objective": "score"}, moves).objective == value
        assert follows_tabu(board, moves, tabu - 1)


def test_a_wrong_tabu_colour_is_caught_by_the_check() -> None:
    """The checker above can fail: a game that clicks the tabu colour first, with others left, is refused."""
    board = Board(((0, 1), (0, 1)))
    assert not follows_tabu(board, [(0, 0)], 0)
    assert follows_tabu(board, [(1, 0), (0, 0)], 0)


def test_tabu_candidates_keep_the_most_numerous_on_worker_0_and_split_the_rest_among_the_others() -> None:
    board = random_board(10, 10, 5, 7)
    root, shape = K.to_array(board)
    order = colour_order(root, shape)
    assert len(order) == 5
    assert tabu_candidates(root, shape, True) == order  # a lone worker races every colour
    # the racing workers race the most numerous colour too (last), so that a race lost by all others goes on with it
    first = order[:1]
    assert [tabu_candidates(root, shape, True, k, 2) for k in range(2)] == [first, order[1:] + first]
    assert [tabu_candidates(root, shape, True, k, 3) for k in range(3)] == [
        first,
        order[1::2] + first,
        order[2::2] + first,
    ]
    assert tabu_candidates(root, shape, False, 1, 2) == [0]  # min-remaining has no tabu colour
    root, shape = K.to_array(random_board(12, 12, 9, 1))
    assert len(tabu_candidates(root, shape, True)) == RACE_COLOURS
    # more workers than colours: every worker still gets one
    root, shape = K.to_array(random_board(6, 6, 3, 2))
    order = colour_order(root, shape)
    assert [tabu_candidates(root, shape, True, k, 5) for k in range(5)] == [
        [order[i]] + ([order[0]] if i else []) for i in (0, 1, 2, 1, 2)
    ]


def test_the_race_stays_within_its_share_of_the_budget() -> None:
    acct = Allowance(None, 1000, None)
    step = 100
    fits = [n for n in range(1, 6) if _room_for(n, step, acct, time.monotonic())]
    assert fits == [n for n in range(1, 6) if n * step <= RACE_SHARE * 1000] == [1, 2]
    assert _room_for(50, step, Allowance(None, None, None), time.monotonic())  # no limit: every colour races


def test_nrpa_with_a_race_is_deterministic_and_plays_legal_games() -> None:
    board = random_board(8, 8, 4, 5)
    root, shape = K.to_array(board)
    tabus = colour_order(root, shape)

    def run(seed: int) -> list[tuple[int, list[int]]]:
        games: list[tuple[int, list[int]]] = []
        spent = nrpa_search(
            root,
            shape,
            True,
            2,
            seed,
            lambda v, c, n: games.append((v, c)),
            max_playouts=3000,
            iterations=10,
            tabus=tabus,
        )
        assert spent <= 3000 + 64 * 10
        return games

    first = run(1)
    assert first == run(1) and first != run(2)
    for value, cells in first:
        assert simulate.evaluate(board, {"objective": "score"}, [shape.cell(c) for c in cells]).objective == value


def test_allowance_books_what_compiled_calls_spend_and_stops_on_target() -> None:
    acct = Allowance(None, 100, 50)
    budget = acct.grant()
    assert int(budget[0]) == 100
    budget[0] = 70  # the call spent 30
    acct.settle(budget)
    assert acct.spent == 30 and int(acct.grant()[0]) == 70 and not acct.over()
    assert acct.improves(10) and not acct.improves(10) and acct.improves(49) and not acct.over()
    assert acct.improves(50) and acct.over()
    spent = Allowance(None, 10, None)
    budget = spent.grant()
    budget[0] = -3  # a call may overrun its budget by the playout it was in; never booked as negative
    spent.settle(budget)
    assert spent.spent == 10 and spent.over()
    assert Allowance(time.monotonic() - 1, None, None).over() and Allowance(None, None, None).unbounded
