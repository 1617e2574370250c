"""The compiled searches against an independent brute force on the simulator, and their contracts:
proofs only when proved, legal games always, determinism given the seed and the node budget."""

from __future__ import annotations

import functools
import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mipgames.core.problem import SolveOptions
from mipgames.run.runner import solve
from mipgames.samegame import kernel as K
from mipgames.samegame import simulate
from mipgames.samegame.beam import Beam, Weights, weights_for, widening
from mipgames.samegame.exact import ExactSearch
from mipgames.samegame.generate import random_board
from mipgames.samegame.instance import Board, parse_board
from mipgames.samegame.nmcs import nmcs_search
from mipgames.samegame.nrpa import nrpa_search
from mipgames.samegame.problem import PROBLEM

OBJECTIVES = ("min-remaining", "score")


def brute_force(board: Board, objective: str) -> int:
    """Best natural objective by trying every game with the simulator (no code shared with the searches)."""
    score = objective == "score"

    @functools.cache
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


def natural(cells: list[int], board: Board, objective: str) -> int:
    """The simulator's verdict on a kernel game (asserting it is legal and complete)."""
    _, shape = K.to_array(board)
    verdict = simulate.evaluate(board, {"objective": objective}, [shape.cell(c) for c in cells])
    assert verdict.legal, verdict.reason
    return verdict.objective


small = st.builds(random_board, st.integers(1, 4), st.integers(1, 5), st.integers(2, 3), st.integers(0, 10**6))


@settings(max_examples=80, deadline=None, derandomize=True)
@given(small, st.sampled_from(OBJECTIVES), st.sampled_from([None, -5, 0, 3]))
def test_exact_search_matches_brute_force(board: Board, objective: str, offset: int | None) -> None:
    """With no incumbent, or one below, at or above the optimum (which it must then confirm, not invent)."""
    truth = brute_force(board, objective)
    root, shape = K.to_array(board)
    score = objective == "score"
    internal = truth if score else -truth
    incumbent = None if offset is None else internal + offset
    out = ExactSearch(shape, 10).solve(root, score, incumbent=incumbent)
    assert out.proved
    if incumbent is not None and incumbent >= internal:
        assert out.value is None and out.bound == incumbent  # nothing strictly better than the incumbent
    else:
        assert out.value == internal == out.bound
        assert natural(out.cells, board, objective) == truth


def test_exact_search_proves_6x6_score_and_is_cut_by_its_node_budget_not_wrong() -> None:
    board = random_board(6, 6, 3, 8)
    root, shape = K.to_array(board)
    out = ExactSearch(shape, 16).solve(root, True)
    assert out.proved and natural(out.cells, board, "score") == out.value == 1200
    cut = ExactSearch(shape, 16).solve(root, True, max_nodes=20, chunk=5)
    assert not cut.proved and cut.value is None and cut.bound >= 1200
    late = ExactSearch(shape, 16).solve(root, True, deadline=time.monotonic() - 1)
    assert not late.proved and late.bound >= 1200


def test_rebuilding_the_optimal_game_stops_at_the_deadline_with_the_value_as_a_bound() -> None:
    """A proof whose game cannot be rebuilt in time is a bound, not a hang (the lossy table may lose the line)."""
    board = random_board(6, 6, 3, 8)
    root, shape = K.to_array(board)
    search = ExactSearch(shape, 10)
    assert search.solve(root, True).value == 1200
    search.keys[:] = 0  # the table forgot everything: the line must be searched again
    assert search.line(root, 1200, deadline=time.monotonic() - 1) is None
    game = search.line(root, 1200)
    assert game is not None and natural(game, board, "score") == 1200


@settings(max_examples=40, deadline=None, derandomize=True)
@given(small, st.sampled_from(OBJECTIVES))
def test_wide_beam_without_tabu_rule_is_exhaustive_and_optimal(board: Board, objective: str) -> None:
    root, shape = K.to_array(board)
    score = objective == "score"
    weights = Weights(forbid=False) if score else weights_for(False, 0)
    out = Beam(shape).run(root, 100_000, weights, score)
    assert out.exhaustive
    assert natural(out.cells, board, objective) == brute_force(board, objective)


square = st.builds(lambda n, seed: random_board(n, n, 3, seed), st.integers(5, 8), st.integers(0, 10**6))


@settings(max_examples=40, deadline=None, derandomize=True)
@given(square, st.sampled_from([4, 16, 64, 256, 1024]))
def test_a_beam_that_calls_itself_exhaustive_has_the_optimum(board: Board, width: int) -> None:
    """Layers holding more than twice the width, with many transpositions: a layer that kept fewer positions
    than its width after dropping duplicates among the best 2 x width was called exhaustive, though distinct
    positions past those had been dropped (``--solver beam`` claimed wrong optima).  The exact search, itself
    held to brute force above, is the reference on these larger boards."""
    root, shape = K.to_array(board)
    out = Beam(shape).run(root, width, Weights(forbid=False), True)
    assert natural(out.cells, board, "score") == out.value
    if out.exhaustive:
        truth = ExactSearch(shape, 18).solve(root, True, max_nodes=3_000_000)
        assert not truth.proved or out.value == truth.value


@pytest.mark.parametrize(
    "rows, seed, width, optimum",
    [(7, 5, 256, 1379), (7, 35, 1024, 1293), (8, 21, 1024, 1726), (9, 5, 8192, 2317), (9, 5, 20_000, 2317)],
)
def test_the_beam_proves_no_optimum_it_did_not_search_for(rows: int, seed: int, width: int, optimum: int) -> None:
    """Boards where the beam called a worse game optimal (the last two from an audit: `generate samegame --rows 9
    --cols 9 --colours 3 --seed 5`, beams of width 8,192 and 20,000 played 2,255 and 2,279, the exact search
    proves 2,317)."""
    board = random_board(rows, rows, 3, seed)
    root, shape = K.to_array(board)
    out = Beam(shape).run(root, width, Weights(forbid=False), True)
    assert out.value == optimum or not out.exhaustive


mid = st.builds(random_board, st.integers(3, 9), st.integers(3, 9), st.integers(2, 5), st.integers(0, 10**6))


@settings(max_examples=30, deadline=None, derandomize=True)
@given(mid, st.sampled_from(OBJECTIVES), st.sampled_from([1, 3, 16]), st.integers(0, 3))
def test_beams_play_legal_games_worth_what_they_say(board: Board, objective: str, width: int, preset: int) -> None:
    root, shape = K.to_array(board)
    score = objective == "score"
    out = Beam(shape).run(root, width, weights_for(score, preset), score)
    assert out.complete
    assert natural(out.cells, board, objective) == (out.value if score else -out.value)


def test_forbidden_tabu_colour_is_clicked_only_when_nothing_else_is_left() -> None:
    board = random_board(10, 10, 4, 5)
    root, shape = K.to_array(board)
    out = Beam(shape).run(root, 16, Weights(forbid=True), True)
    counts = simulate.colour_counts(simulate.encode(board))
    tabu = max(sorted(counts), key=lambda c: counts[c])
    clicked = False
    current = board
    for cell in out.cells:
        move = shape.cell(cell)
        colours = {current.at(*m) for m in simulate.legal_moves(current)}
        if current.at(*move) == tabu:
            clicked = True
            assert colours == {tabu}, "tabu colour clicked while another colour's group existed"
        current, _ = simulate.apply_move(current, move)
    assert clicked


def test_beam_cut_by_deadline_or_budget_still_returns_a_whole_game() -> None:
    board = random_board(12, 12, 4, 1)
    root, shape = K.to_array(board)
    for kwargs in ({"deadline": time.monotonic() - 1}, {"max_nodes": 50}):
        out = Beam(shape).run(root, 64, weights_for(True, 0), True, **kwargs)
        assert not out.complete and natural(out.cells, board, "score") == out.value


def test_a_beam_the_deadline_cut_ends_its_game_by_a_playout_not_another_beam(monkeypatch) -> None:
    """The game a beam cut at its deadline was finished by a width-1 beam without a deadline: seconds on a 64 x 64
    board, so greedy, beam and the portfolio were killed at the hard deadline with no answer (unknown)."""
    board = random_board(64, 64, 5, 1)
    root, shape = K.to_array(board)
    calls: list[int] = []
    run = Beam.run

    def counted(self, *args, **kwargs):
        calls.append(1)
        return run(self, *args, **kwargs)

    monkeypatch.setattr(Beam, "run", counted)
    out = Beam(shape).run(root, 1, weights_for(False, 0), False, deadline=time.monotonic() - 1)
    assert len(calls) == 1 and not out.complete
    assert natural(out.cells, board, "min-remaining") == -out.value
    calls.clear()
    small = random_board(24, 24, 5, 1)  # a greedy finish of a 64 x 64 score game takes 26 s: the test's cost
    root, shape = K.to_array(small)
    out = Beam(shape).run(root, 8, weights_for(True, 0), True, deadline=time.monotonic() + 600, max_nodes=50)
    assert len(calls) == 2 and natural(out.cells, small, "score") == out.value  # a budget's cut: a greedy finish


def test_widening_sends_improving_games_and_respects_its_budget() -> None:
    board = random_board(10, 10, 4, 3)
    root, shape = K.to_array(board)
    sent: list[int] = []
    notes: list[str] = []
    best, nodes = widening(
        Beam(shape),
        root,
        True,
        weights_for(True, 0),
        lambda v, c, n: (sent.append(v), notes.append(n)),
        None,
        max_nodes=40_000,
    )
    assert sent == sorted(sent) and len(set(sent)) == len(sent) and sent[-1] == best.value
    assert notes[0] == "beam width 1"  # a game at once, however large the board (a 64 x 64 one had none in 10 s)
    assert nodes <= 40_000 + 10 * 10 * 64  # a layer's children past the budget at most
    again, _ = widening(Beam(shape), root, True, weights_for(True, 0), lambda v, c, n: None, None, max_nodes=40_000)
    assert (again.value, again.cells) == (best.value, best.cells)


def runs(search, board: Board, seed: int, budget: int, **kw) -> tuple[list[tuple[int, list[int]]], int]:
    root, shape = K.to_array(board)
    games: list[tuple[int, list[int]]] = []
    spent = search(
        root, shape, True, kw.pop("level"), seed, lambda v, c, n: games.append((v, c)), max_playouts=budget, **kw
    )
    return games, spent


def test_nmcs_and_nrpa_are_deterministic_given_seed_and_budget_and_play_legal_games() -> None:
    board = random_board(8, 8, 4, 2)
    for search, level in ((nmcs_search, 2), (nmcs_search, 1), (nrpa_search, 2), (nrpa_search, 1)):
        first, spent = runs(search, board, 3, 3000, level=level)
        second, _ = runs(search, board, 3, 3000, level=level)
        other, _ = runs(search, board, 4, 3000, level=level)
        assert first == second and first != other
        assert spent <= 3000 + 64 * 100  # one compiled call may finish its playout budget share
        values = [v for v, _ in first]
        assert values == sorted(values)
        for value, cells in first:
            assert natural(cells, board, "score") == value


def test_a_budgeted_run_under_a_deadline_is_the_same_on_a_slow_machine(monkeypatch) -> None:
    """With a node budget and a deadline, each compiled call was sized by the measured playout rate as well: on a
    40x40 board three identical commands gave three games.  Here the machine is made to look 1,000 times slower
    (the rate read) and the deadline nearer: the games must not change."""
    from mipgames.samegame import allowance

    board = random_board(10, 10, 4, 5)
    far = time.monotonic() + 3600
    for search, level in ((nrpa_search, 3), (nmcs_search, 3)):
        fast, _ = runs(search, board, 7, 3000, level=level, deadline=far)
        with monkeypatch.context() as slow:
            slow.setattr(allowance.Rate, "per_second", lambda self: 2.0)
            slowed, _ = runs(search, board, 7, 3000, level=level, deadline=time.monotonic() + 600)
        assert fast == slowed, search.__name__


def test_nrpa_learns_on_a_standard_size_board() -> None:
    """More playouts never give a worse game (the best is memorised) and do beat a single playout."""
    board = random_board(15, 15, 5, 0)
    games, _ = runs(nrpa_search, board, 1, 2500, level=2)
    assert games[-1][0] > games[0][0]


CASES = {
    "no legal move": ("12\n21\n", 4, 0),
    "one colour": ("111\n111\n", 0, 1000 + 16),
    "one tile": ("1\n", 1, 0),
    "two tiles": ("11\n", 0, 1000),
}


def test_edge_boards_through_the_runner() -> None:
    """Every solver finds the optimum; those that can prove it (exhaustive or exact searches) say so."""
    provers = {"exact", "portfolio", "beam", "greedy"}
    for name, (text, left, score) in CASES.items():
        board = parse_board(text)
        for solver in PROBLEM.algorithms:
            for objective, want in (("min-remaining", left), ("score", score)):
                res = solve(
                    PROBLEM,
                    board,
                    solver=solver,
                    params={"objective": objective, "node_budget": 500},
                    options=SolveOptions(time_limit=5),
                    isolate=False,
                )
                assert res.objective == want, (name, solver, objective, res.message)
                if solver in provers:
                    assert res.status == "optimal", (name, solver, objective, res.message)


def test_a_board_with_no_move_is_settled_at_once_by_every_solver() -> None:
    """The empty game is the only one, yet NRPA and NMCS played it until the time limit and called it feasible:
    the own bound of such a board is its value (``simulate.own_bound``), which every search stops at."""
    for text in ("1212\n", "12\n21\n"):
        board = parse_board(text)
        for solver in PROBLEM.algorithms:
            for objective in ("min-remaining", "score"):
                began = time.monotonic()
                params = {"objective": objective}
                res = solve(PROBLEM, board, solver=solver, params=params, options=SolveOptions(time_limit=60))
                assert res.status == "optimal" and res.solution == [], (text, solver, objective, res.message)
                assert res.objective == (0 if objective == "score" else 4)
                assert time.monotonic() - began < 30, (text, solver, objective)  # not the 60 s limit


def test_solvers_say_optimal_only_with_a_proof() -> None:
    """A heuristic proves nothing: its bound is the toolkit's colour-count bound, which verify recomputes."""
    from mipgames.core.problem import own_bound

    board = random_board(7, 7, 4, 3)
    params = {"objective": "score", "node_budget": 5000}
    colour = own_bound(PROBLEM, board, params)
    assert colour is not None and colour[0] > 1000  # 4 colours of about 12 tiles: far above any game's score
    for solver in ("beam", "nmcs", "nrpa", "greedy"):
        res = solve(PROBLEM, board, solver=solver, params=params, options=SolveOptions(time_limit=20), isolate=False)
        assert (res.status, res.bound, res.proved_by) == ("feasible", *colour), (solver, res.status, res.bound)
        assert simulate.evaluate(board, params, res.solution).objective == res.objective


def test_exact_under_a_time_limit_returns_the_incumbent_with_a_bound() -> None:
    board = random_board(15, 15, 5, 0)
    res = solve(
        PROBLEM,
        board,
        solver="exact",
        params={"objective": "score"},
        options=SolveOptions(time_limit=1.0),
        isolate=False,
    )
    assert res.status == "feasible" and res.objective is not None
    assert res.bound is not None and res.bound >= res.objective


def test_exact_proves_min_remaining_on_a_12x12_four_colour_board() -> None:
    board = random_board(12, 12, 4, 2)
    res = solve(
        PROBLEM,
        board,
        solver="exact",
        params={"objective": "min-remaining"},
        options=SolveOptions(time_limit=60),
        isolate=False,
    )
    assert (res.status, res.objective) == ("optimal", 0)


def test_portfolio_on_two_cores_is_deterministic_with_a_node_budget() -> None:
    board = random_board(15, 15, 5, 4)
    params = {"objective": "score", "node_budget": 60_000}
    first, second = (
        solve(
            PROBLEM,
            board,
            solver="portfolio",
            params=params,
            options=SolveOptions(time_limit=60, threads=2, seed=5),
            isolate=False,
        )
        for _ in range(2)
    )
    assert first.status == "feasible" and first.solution == second.solution and first.objective == second.objective
    assert "too large for an exact proof" in first.message
    assert re.search(r"NRPA level 3, found by worker [12] of 2", first.message), first.message


def test_the_summary_lists_at_most_200_clicks_and_says_how_many_more():
    """A 40x40 board's game ran to hundreds of clicks on the terminal (1,293 lines at 64x64)."""
    from mipgames.core.status import SHOWN_ITEMS
    from mipgames.samegame.generate import random_board
    from mipgames.samegame.problem import PROBLEM as SAMEGAME

    board = random_board(40, 40, 5, seed=1)
    result = solve(SAMEGAME, board, solver="greedy", options=SolveOptions(time_limit=20, threads=1), isolate=False)
    text = SAMEGAME.describe(board, result.params, result.solution, result.verdict).splitlines()
    clicks = len(result.solution)
    assert clicks > SHOWN_ITEMS
    assert f"... and {clicks - SHOWN_ITEMS:,} more clicks (the certificate has them all)" in "\n".join(text)
    assert sum("click (" in line for line in text) == SHOWN_ITEMS
