"""The playout's incremental pieces against their references: the groups kept across a game
(``take_group`` finds again only the groups near the columns a removal touched; singletons skipped) against the
simulator's groups and legal moves under the tabu rule, NRPA's
in-place ``adapt`` on exp-weights against Rosin's update written out on log-weights, and a whole
level-1 NRPA against one written on the simulator."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mipgames.samegame import kernel as K
from mipgames.samegame import simulate
from mipgames.samegame.beam import colour_order
from mipgames.samegame.generate import random_board
from mipgames.samegame.instance import Board
from mipgames.samegame.nrpa import FEATURES, RESCALE_ABOVE, adapt, anchor_code, code_count, move_code, nrpa
from mipgames.samegame.playout import FREE, LABEL, ORDER, all_groups, new_book, offer_moves, take_group


def tabu_moves(board: Board, tabu_colour: int) -> list[tuple[int, int]]:
    """The simulator's legal moves with the tabu rule: the tabu colour only when no other group is left."""
    legal = simulate.legal_moves(board)
    others = [m for m in legal if board.at(*m) != tabu_colour]
    return others or legal


boards = st.builds(random_board, st.integers(1, 9), st.integers(1, 9), st.integers(1, 5), st.integers(0, 10**6))


@settings(max_examples=400, deadline=None, derandomize=True)
@given(boards, st.integers(0, 10**6), st.integers(-1, 4))
def test_groups_kept_across_a_game_agree_with_the_simulator(board: Board, seed: int, tabu_colour: int) -> None:
    """One label array for the whole game, never cleared after the start (stale labels of earlier boards
    are all around); after every removal only the groups near its columns are found again, the others
    keep their slots, and the tabu colour's groups are booked only when the moves offered need them:
    the moves offered, and the order, cells, sizes and labels of every other colour's group, must be the
    simulator's; whatever the book holds of the tabu colour must be groups of the board as it is."""
    rng = random.Random(seed)
    arr, shape = K.to_array(board)
    sc = K.Scratch.of(shape)
    moves = np.zeros(shape.size, dtype=np.int32)
    book = new_book(shape.size)
    skip = tabu_colour + 1  # the kernel's code of the tabu colour; 0 (no tabu colour) skips nothing
    ng, tiles, ncols = all_groups(arr, shape.stride, sc.label, sc.stack, *sc.groups()[2:], book, skip)
    mark, free = ng, 0
    while True:
        n, ng, mark, free = offer_moves(arr, shape.stride, skip, ng, mark, free, *sc.groups(), book, moves)
        expected = tabu_moves(board, tabu_colour)
        found = [shape.cell(int(sc.gcell[moves[k]])) for k in range(n)]
        assert found == expected and tiles == board.tiles()
        assert ncols == sum(board.at(x, 0) != -1 for x in range(board.cols))
        legal = simulate.legal_moves(board)
        order = [int(book[ORDER, k]) for k in range(ng)]
        firsts = [int(sc.gcell[g]) for g in order]
        assert firsts == sorted(firsts)  # scan order
        others = [g for g in order if skip == 0 or int(sc.gcolour[g]) != skip]
        assert [shape.cell(int(sc.gcell[g])) for g in others] == [m for m in legal if board.at(*m) != tabu_colour]
        spare = [int(book[FREE, k]) for k in range(free)]
        assert sorted(order + spare) == list(range(ng + free))  # no slot lost or used twice
        for g in order:
            move = shape.cell(int(sc.gcell[g]))
            assert move in legal
            cells = [shape.index(*c) for c in simulate.group_at(board, *move)]
            assert (int(sc.gsize[g]), int(sc.glast[g])) == (len(cells), max(cells))
            assert all(int(sc.label[i]) == int(book[LABEL, g]) for i in cells)
        if n == 0:
            break
        g = int(moves[rng.randrange(n)])
        cell = shape.cell(int(sc.gcell[g]))
        assert int(sc.gcolour[g]) == board.at(*cell) + 1
        board, removed = simulate.apply_move(board, cell)
        assert int(sc.gsize[g]) == removed
        tiles -= removed
        ng, mark, ncols, free = take_group(
            arr, shape.cols, shape.stride, g, ng, mark, ncols, free, sc.label, sc.stack, *sc.groups()[2:], book, skip
        )
        assert K.to_board(arr, shape) == board


def reference_adapt(logw: np.ndarray, chosen, codes, offsets, length: int, alpha: float) -> np.ndarray:
    """Rosin's adapt on log-weights, with the probabilities of the policy before the step; a move's log-weight
    is the sum of its ``FEATURES`` codes', and each of its codes takes the move's gradient."""
    new = logw.copy()
    moves = codes.reshape(-1, FEATURES)
    for t in range(length):
        step = moves[offsets[t] : offsets[t + 1]]
        score = logw[step].sum(axis=1)
        e = np.exp(score - score.max())
        for move, p in zip(step, e / e.sum()):
            for code in move:
                new[code] -= alpha * p
        for code in chosen[FEATURES * t : FEATURES * (t + 1)]:
            new[code] += alpha
    return new


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.integers(0, 10**6), st.sampled_from([0.25, 0.5, 1.0]))
def test_adapt_in_place_on_weights_is_rosins_update(seed: int, alpha: float) -> None:
    rng = np.random.default_rng(seed)
    ncodes = int(rng.integers(2, 30))
    length = int(rng.integers(1, 12))
    sizes = rng.integers(1, 6, size=length)
    offsets = np.zeros(length + 1, dtype=np.int32)
    offsets[1:] = np.cumsum(sizes)
    # codes repeat within and across moves and steps
    codes = rng.integers(0, ncodes, size=FEATURES * int(offsets[-1])).astype(np.int32)
    picks = [int(rng.integers(offsets[t], offsets[t + 1])) for t in range(length)]
    chosen = np.concatenate([codes[FEATURES * m : FEATURES * (m + 1)] for m in picks]).astype(np.int32)
    logw = rng.normal(0.0, 3.0, size=ncodes)
    weights = np.exp(logw)
    adapt(weights, chosen, codes, offsets, length, alpha)
    expected = reference_adapt(logw, chosen, codes, offsets, length, alpha)
    assert np.allclose(np.log(weights), expected, rtol=0, atol=1e-9)


def test_adapt_rescales_huge_weights_without_changing_probabilities() -> None:
    assert FEATURES == 2  # the moves below are pairs of codes
    codes = np.array([0, 4, 1, 4, 2, 5, 0, 4, 2, 5], dtype=np.int32)
    offsets = np.array([0, 3, 5], dtype=np.int32)
    chosen = np.array([0, 4, 0, 4], dtype=np.int32)
    weights = np.array([RESCALE_ABOVE, RESCALE_ABOVE / 10, 1.0, 5.0, 1.0, 2.0])
    plain = np.log(weights)
    adapt(weights, chosen, codes, offsets, 2, 0.5)
    assert weights.max() <= RESCALE_ABOVE and np.isfinite(weights).all()
    expected = reference_adapt(plain, chosen, codes, offsets, 2, 0.5)
    got = np.log(weights)
    assert np.allclose(got - got[3], expected - expected[3], atol=1e-9)  # the same policy up to a constant


def reference_codes(board: Board, shape: K.Shape, move: tuple[int, int]) -> tuple[int, int]:
    """The codes of clicking ``move``'s group, from the simulator's group: (first and last cell, size, colour)
    and (first cell, colour)."""
    cells = [shape.index(*c) for c in simulate.group_at(board, *move)]
    assert shape.index(*move) == min(cells)  # the simulator's legal move is the group's first cell
    colour = board.at(*move) + 1
    return int(move_code(min(cells), max(cells), len(cells), colour)), int(anchor_code(min(cells), colour))


def reference_nrpa_level1(board: Board, shape: K.Shape, tabu_colour: int, iterations: int, alpha: float, rng):
    """Level-1 NRPA written out on the simulator, log-weights and Rosin's update, drawing from the kernel's
    random stream in the same way (one uniform a move): (best value, its clicks).  A move's log-weight is the
    sum of its codes'."""
    logw: dict[int, float] = {}
    Codes = tuple[int, int]
    best: tuple[int, list[tuple[int, int]], list[tuple[list[Codes], Codes]]] | None = None
    for _ in range(iterations):
        position, score, clicks, steps = board, 0, [], []
        while legal := tabu_moves(position, tabu_colour):
            codes = [reference_codes(position, shape, m) for m in legal]
            weights = [np.exp(sum(logw.get(c, 0.0) for c in move)) for move in codes]
            r = K.rand_unit(rng) * sum(weights)
            pick = next((k for k, acc in enumerate(np.cumsum(weights)) if r < acc), len(legal) - 1)
            steps.append((codes, codes[pick]))
            clicks.append(legal[pick])
            position, removed = simulate.apply_move(position, legal[pick])
            score += (removed - 2) ** 2
        value = score + (1000 if position.tiles() == 0 else 0)
        if best is None or value >= best[0]:
            best = (value, clicks, steps)
        old = dict(logw)
        for codes, chosen in best[2]:
            e = np.exp([sum(old.get(c, 0.0) for c in move) for move in codes])
            for move, p in zip(codes, e / e.sum()):
                for code in move:
                    logw[code] = logw.get(code, 0.0) - alpha * p
            for code in chosen:
                logw[code] = logw.get(code, 0.0) + alpha
    assert best is not None
    return best[0], best[1]


@settings(max_examples=12, deadline=None, derandomize=True)
@given(st.integers(3, 6), st.integers(3, 6), st.integers(2, 4), st.integers(0, 10**6))
def test_compiled_nrpa_level_1_plays_the_reference_games(rows: int, cols: int, colours: int, seed: int) -> None:
    """Draw, selective policy, memory of the best game and in-place update together: the compiled level 1
    ends on the very game of the reference fed the same random numbers."""
    board = random_board(rows, cols, colours, seed)
    arr, shape = K.to_array(board)
    order = colour_order(arr, shape)
    tabu = order[0] if order else 0
    sc = K.Scratch.of(shape)
    seq = np.zeros(shape.rows * shape.cols // 2 + 2, dtype=np.int32)
    budget = np.array([10**6], dtype=np.int64)
    weights = np.ones(code_count(), dtype=np.float64)
    moves = np.zeros(shape.size, dtype=np.int32)
    value, length = nrpa(
        1,
        arr,
        shape.cols,
        shape.stride,
        tabu,
        True,
        weights,
        30,
        0.5,
        K.rng_state(seed),
        *sc.groups(),
        moves,
        seq,
        budget,
    )
    expected_value, expected_clicks = reference_nrpa_level1(board, shape, tabu - 1, 30, 0.5, K.rng_state(seed))
    assert (int(value), [shape.cell(int(c)) for c in seq[:length]]) == (expected_value, expected_clicks)
    assert int(budget[0]) == 10**6 - 30
