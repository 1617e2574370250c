"""The compiled kernel against the Python simulator (the reference): thousands of random games
replayed through both must give the same groups, boards, removed tiles and scores."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mipgames.samegame import kernel as K
from mipgames.samegame import simulate
from mipgames.samegame.generate import random_board
from mipgames.samegame.instance import Board, parse_board


def kernel_moves(arr: np.ndarray, shape: K.Shape, sc: K.Scratch) -> list[tuple[tuple[int, int], int]]:
    ng = K.find_groups(arr, shape.cols, shape.stride, sc.label, sc.stack, sc.gsize, sc.gcolour, sc.gcell, sc.glast)
    return [(shape.cell(int(sc.gcell[g])), int(sc.gsize[g])) for g in range(ng) if sc.gsize[g] >= 2]


def play_both(board: Board, seed: int) -> int:
    """Play one random game through both; assert they agree at every step; the number of moves played."""
    rng = random.Random(seed)
    arr, shape = K.to_array(board)
    sc = K.Scratch.of(shape)
    zobrist = K.zobrist_table(shape)
    out = np.zeros_like(arr)
    moves, score = [], 0
    while True:
        legal = simulate.legal_moves(board)
        found = kernel_moves(arr, shape, sc)
        assert [cell for cell, _ in found] == legal
        assert K.has_move(arr, shape.cols, shape.stride) == bool(legal)
        if not legal:
            break
        cell, size = rng.choice(found)
        click = rng.choice(sorted(simulate.group_at(board, *cell)))  # any tile of the group is a click
        board, removed = simulate.apply_move(board, click)
        got = K.click(arr, out, shape.cols, shape.stride, shape.index(*click), sc.label, sc.stack)
        assert (got, removed) == (size, size)
        assert K.to_board(out, shape) == board
        # the same removal through the incremental paths: in place, and with the hash kept up to date
        ng = K.find_groups(arr, shape.cols, shape.stride, sc.label, sc.stack, sc.gsize, sc.gcolour, sc.gcell, sc.glast)
        g = next(g for g in range(ng) if shape.cell(int(sc.gcell[g])) == cell)
        parent = K.board_hash(arr, shape.cols, shape.stride, zobrist)
        hashed = np.zeros_like(arr)
        h1, h2 = K.remove_hashed(
            arr, hashed, shape.cols, shape.stride, sc.label, g, sc.gcell[g], sc.glast[g], zobrist, *parent
        )
        assert np.array_equal(hashed, out) and (h1, h2) == K.board_hash(out, shape.cols, shape.stride, zobrist)
        inplace = arr.copy()
        K.remove_inplace(inplace, shape.cols, shape.stride, sc.label, g, sc.gcell[g], sc.glast[g])
        assert np.array_equal(inplace, out)
        arr, out = out, arr
        moves.append(click)
        score += (removed - 2) ** 2
    counts = np.zeros(K.MAX_CODES + 1, dtype=np.int32)
    assert K.count_colours(arr, shape.cols, shape.stride, counts) == board.tiles()
    assert sorted(int(c) - 1 for c in np.nonzero(counts)[0]) == sorted(board.colours())
    return len(moves)


boards = st.builds(random_board, st.integers(1, 8), st.integers(1, 8), st.integers(1, 5), st.integers(0, 10**6))


@settings(max_examples=1200, deadline=None, derandomize=True)
@given(boards, st.integers(0, 10**6))
def test_random_games_agree_with_the_simulator(board: Board, seed: int) -> None:
    play_both(board, seed)


@settings(max_examples=100, deadline=None, derandomize=True)
@given(st.integers(0, 10**6))
def test_standard_size_games_agree_and_score_the_same(seed: int) -> None:
    """15 x 15, 5 colours: the kernel's removed sizes give the simulator's score for the same clicks."""
    board = random_board(15, 15, 5, seed)
    rng = random.Random(seed)
    arr, shape = K.to_array(board)
    sc = K.Scratch.of(shape)
    out = np.zeros_like(arr)
    clicks, score = [], 0
    while True:
        found = kernel_moves(arr, shape, sc)
        if not found:
            break
        cell, _ = rng.choice(found)
        removed = K.click(arr, out, shape.cols, shape.stride, shape.index(*cell), sc.label, sc.stack)
        score += (removed - 2) ** 2
        clicks.append(cell)
        arr, out = out, arr
    left = K.count_colours(arr, shape.cols, shape.stride, np.zeros(K.MAX_CODES + 1, dtype=np.int32))
    replay = simulate.replay(board, clicks)
    assert replay.terminal and replay.final == K.to_board(arr, shape)
    assert replay.score == score + (1000 if left == 0 else 0) and replay.remaining == left


def test_layout_round_trip_and_sentinels() -> None:
    board = parse_board("z...\n0a9.\n1122\n")
    arr, shape = K.to_array(board)
    assert K.to_board(arr, shape) == board
    assert (shape.stride, shape.size) == (4, 24)
    assert arr[shape.index(0, 0)] == 2 and arr[shape.index(0, 2)] == 36 and shape.cell(shape.index(3, 1)) == (3, 1)
    sentinels = [i for i in range(shape.size) if not (0 <= shape.cell(i)[0] < 4 and 0 <= shape.cell(i)[1] < 3)]
    assert all(arr[i] == 0 for i in sentinels)


def test_transpositions_hash_alike_and_the_empty_board_is_not_an_unused_slot() -> None:
    board = parse_board("1133\n1133\n")
    arr, shape = K.to_array(board)
    sc, z = K.Scratch.of(shape), K.zobrist_table(shape)
    a, b, c = (np.zeros_like(arr) for _ in range(3))
    K.click(arr, a, shape.cols, shape.stride, shape.index(0, 0), sc.label, sc.stack)
    K.click(a, b, shape.cols, shape.stride, shape.index(0, 0), sc.label, sc.stack)
    K.click(arr, a, shape.cols, shape.stride, shape.index(2, 0), sc.label, sc.stack)
    middle = K.board_hash(a, shape.cols, shape.stride, z)
    K.click(a, c, shape.cols, shape.stride, shape.index(0, 0), sc.label, sc.stack)
    h_ab, h_ba = (K.board_hash(x, shape.cols, shape.stride, z) for x in (b, c))
    assert h_ab == h_ba and not b.any() and not c.any()
    assert h_ab != (0, 0)  # the empty board does not hash like an unused table slot
    full = K.board_hash(arr, shape.cols, shape.stride, z)
    assert len({full, middle, h_ab}) == 3


def test_random_numbers_are_seeded_and_uniform_enough() -> None:
    a, b = K.rng_state(7), K.rng_state(7)
    draws = [int(K.rand_below(a, 10)) for _ in range(2000)]
    assert draws == [int(K.rand_below(b, 10)) for _ in range(2000)]
    assert draws != [int(K.rand_below(K.rng_state(8), 10)) for _ in range(2000)]
    assert all(150 < draws.count(v) < 250 for v in range(10))
    assert all(0.0 <= K.rand_unit(a) < 1.0 for _ in range(1000))
