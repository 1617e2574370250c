"""Exact search, beam and greedy against an independent brute force on the simulator."""

from __future__ import annotations

import functools

from hypothesis import given, settings
from hypothesis import strategies as st

from mipgames.core.problem import SolveOptions
from mipgames.run.runner import solve
from mipgames.samegame import baselines as B
from mipgames.samegame import simulate
from mipgames.samegame.generate import random_board
from mipgames.samegame.instance import Board, parse_board
from mipgames.samegame.problem import PROBLEM

OBJECTIVES = ("min-remaining", "score")


def brute_force(board: Board, objective: str) -> int:
    """Best natural objective by trying every game with the simulator (no shared code with baselines)."""
    score = objective == "score"

    @functools.lru_cache(maxsize=None)
    def best(b: Board) -> int:
        moves = simulate.legal_moves(b)
        if not moves:
            if score:
                return 1000 if b.tiles() == 0 else 0
            return -b.tiles()
        out = None
        for m in moves:
            nxt, removed = simulate.apply_move(b, m)
            v = ((removed - 2) ** 2 if score else 0) + best(nxt)
            out = v if out is None else max(out, v)
        return out

    v = best(board)
    return v if score else -v


boards = st.builds(
    random_board,
    st.integers(1, 4), st.integers(1, 4), st.integers(2, 3), st.integers(0, 10**6),
)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(boards, st.sampled_from(OBJECTIVES))
def test_exact_search_matches_brute_force(board, objective):
    params = {"objective": objective}
    rules = B.rules_of(params)
    res = B.exact_search(B.encode(board), rules)
    truth = brute_force(board, objective)
    assert res.proved and rules.natural(res.value) == truth
    verdict = simulate.evaluate(board, params, res.moves)
    assert verdict.legal and verdict.objective == truth


@settings(max_examples=25, deadline=None, derandomize=True)
@given(boards, st.sampled_from(OBJECTIVES))
def test_wide_beam_is_exhaustive_and_optimal(board, objective):
    params = {"objective": objective}
    rules = B.rules_of(params)
    res = B.beam_search(B.encode(board), rules, width=10**6)
    assert res.exhaustive
    assert rules.natural(res.value) == brute_force(board, objective)


@settings(max_examples=25, deadline=None, derandomize=True)
@given(boards, st.sampled_from(OBJECTIVES))
def test_greedy_and_narrow_beam_play_legal_complete_games(board, objective):
    params = {"objective": objective}
    rules = B.rules_of(params)
    for res in (B.greedy(B.encode(board), rules), B.beam_search(B.encode(board), rules, 2)):
        verdict = simulate.evaluate(board, params, [list(m) for m in res.moves])
        assert verdict.legal, verdict.reason
        assert verdict.objective == rules.natural(res.value)
        if objective == "min-remaining":
            assert verdict.objective >= brute_force(board, objective)
        else:
            assert verdict.objective <= brute_force(board, objective)


def test_exact_search_is_cut_by_its_node_budget_not_wrong():
    board = random_board(8, 8, 4, 1)
    res = B.exact_search(B.encode(board), B.Rules(score=True), max_nodes=100)
    assert not res.proved and res.value is None
    assert res.bound == B.Rules(True).bound(B.colour_counts(B.encode(board)))


def test_exact_search_solves_6x6_three_colours():
    board = random_board(6, 6, 3, 8)
    res = B.exact_search(B.encode(board), B.Rules(score=False))
    assert res.proved
    assert simulate.evaluate(board, {}, res.moves).objective == -res.value


def test_colour_count_bound():
    rules = B.Rules(score=False)
    assert rules.bound({0: 1, 1: 5, 2: 1}) == -2
    score = B.Rules(score=True)
    assert score.bound({0: 4, 1: 3}) == 4 + 1 + 1000
    assert score.bound({0: 4, 1: 1}) == 4


def test_state_encoding_drops_empty_columns_and_keeps_order():
    board = parse_board("1..\n12.\n")
    state = B.encode(board)
    assert B.columns(state) == [bytes([1, 1]), bytes([2])]
    groups = B.find_groups(B.columns(state))
    assert groups == [(1, [(0, 0), (0, 1)])]
    assert B.remove(B.columns(state), groups[0][1]) == bytes([2])


CASES = {
    "no legal move": ("12\n21\n", 4, 0),
    "one colour": ("111\n111\n", 0, 1000 + 16),
    "one tile": ("1\n", 1, 0),
    "two tiles": ("11\n", 0, 1000),
}


def test_edge_boards_through_the_runner():
    for name, (text, left, score) in CASES.items():
        board = parse_board(text)
        for solver in ("exact", "beam", "greedy"):
            for objective, want in (("min-remaining", left), ("score", score)):
                res = solve(PROBLEM, board, solver=solver, params={"objective": objective},
                            options=SolveOptions(time_limit=5), isolate=False)
                assert res.objective == want, (name, solver, objective, res.message)
                if solver != "greedy":
                    assert res.status == "optimal", (name, solver, res.status)


def test_runner_beam_reports_proof_only_when_exhaustive():
    board = random_board(7, 7, 4, 3)
    res = solve(PROBLEM, board, solver="beam", params={"objective": "score", "beam_width": 2},
                options=SolveOptions(time_limit=5), isolate=False)
    assert res.status == "feasible" and res.objective is not None
    assert simulate.evaluate(board, {"objective": "score"}, res.solution).objective == res.objective


def test_exact_under_a_time_limit_returns_the_incumbent_with_a_bound():
    board = random_board(15, 15, 5, 0)
    res = solve(PROBLEM, board, solver="exact", params={"objective": "score"},
                options=SolveOptions(time_limit=0.5), isolate=False)
    assert res.status == "feasible" and res.objective is not None
    assert res.bound is not None and res.bound >= res.objective
