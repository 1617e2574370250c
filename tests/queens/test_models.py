"""Models against exhaustive search; every decoded sequence is replayed by the runner."""

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mipgames.core.problem import SolveOptions
from mipgames.queens.instance import Queens, parse, read
from mipgames.queens.problem import PROBLEM
from mipgames.queens.simulate import apply, board_of, coursework_accepts, move_error
from mipgames.run.runner import solve

OPTIONS = SolveOptions(time_limit=20, threads=1)
SPEC = read("instances/queens/spec_example.txt")


def brute_minimum(instance: Queens) -> int:
    """Fewest queens remaining by trying every capture sequence (no bounds, no ordering): the reference."""
    n, seen = instance.n, set()

    def best(board) -> int:
        key = frozenset(board.items())
        if key in seen:
            return len(board)
        seen.add(key)
        result = len(board)
        for a in list(board):
            for b in list(board):
                if not move_error(board, n, (*a, *b)):
                    nxt = dict(board)
                    apply(nxt, (*a, *b))
                    result = min(result, best(nxt))
        return result

    return best(board_of(instance))


def run(instance, solver, formulation=None, minimise=False):
    result = solve(
        PROBLEM,
        instance,
        solver=solver,
        formulation=formulation,
        params={"minimise": minimise},
        options=OPTIONS,
        isolate=False,
    )
    assert result.status != "error", result.message
    return result


METHODS = [
    ("cpsat", "forest"),
    ("cpsat", "time-indexed-cp"),
    ("cbc", "time-indexed"),
    ("dfs", None),
    ("levels", None),
    ("portfolio", None),
]


@pytest.mark.parametrize("solver, formulation", METHODS)
def test_spec_example_solved_and_accepted_by_the_coursework_checker(solver, formulation):
    result = run(SPEC, solver, formulation)
    assert result.status in ("optimal", "feasible")
    assert result.verdict.measured["remaining"] == 1
    assert coursework_accepts(SPEC, result.solution)


HAND_MADE = [
    ("3\n1\n1 2 1\n0 0 0\n0 0 0\n", 3),  # the equal powers are blocked by the 2 for good
    ("3\n1\n1 0 0\n0 0 1\n0 0 0\n", 2),  # equal powers, never in sight (a knight's move apart)
    ("3\n1\n1 1 2\n0 0 0\n0 0 0\n", 1),  # order matters: 1 takes 1, then 2 takes 2
    ("4\n1\n1 1 0 2\n0 0 0 0\n0 0 0 0\n0 0 0 0\n", 1),
    ("3\n1\n2 1 1\n0 0 0\n0 0 0\n", 1),  # 1 takes 1 next to the 2, then 2 takes 2
    ("4\n1\n1 2 1 0\n0 2 0 0\n0 0 0 0\n0 0 0 0\n", 2),  # the blocking 2 must leave first; 4 + 2 remain
    ("4\n1\n1 4 1 0\n0 0 0 0\n0 4 0 0\n0 0 0 8\n", 3),  # the 4s can leave but the 1s, 8 never all meet
]


@pytest.mark.parametrize("solver", ["cbc", "glpk", "highs", "scip"])
@pytest.mark.parametrize("text", ["1\n0\n0\n", "1\n1\n1\n", "2\n2\n1 0\n0 2\n"])
def test_a_position_without_a_capture_is_answered_by_every_mip_backend(solver, text):
    """The time-indexed MIP of a position where nothing can move has no variable of its own (PuLP keeps only its
    dummy): its empty solution is the answer, not "no answer in time" (CBC) or an error (SCIP)."""
    instance = parse(text)
    for minimise in (False, True):
        result = run(instance, solver, "time-indexed", minimise=minimise)
        assert (result.status, result.objective) == ("optimal", len(instance.queens)), result.message


@pytest.mark.parametrize("text, minimum", HAND_MADE)
def test_hand_made_minima(text, minimum):
    instance = parse(text)
    assert brute_minimum(instance) == minimum
    for solver, formulation in [
        ("cpsat", "forest"),
        ("cpsat", "time-indexed-cp"),
        ("cbc", "time-indexed"),
        ("dfs", None),
        ("levels", None),
    ]:
        result = run(instance, solver, formulation, minimise=True)
        assert (result.status, result.objective) == ("optimal", minimum), (solver, formulation)
    decision = run(Queens(instance.n, minimum - 1, instance.board), "cpsat", "forest")
    assert decision.status == "infeasible"


@st.composite
def positions(draw):
    n = draw(st.integers(2, 4))
    cells = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), min_size=1, max_size=7, unique=True))
    powers = draw(st.lists(st.integers(0, 2), min_size=len(cells), max_size=len(cells)))
    k = draw(st.integers(1, 3))
    board = [[0] * n for _ in range(n)]
    for (r, c), e in zip(cells, powers):
        board[r][c] = 1 << e
    return Queens(n, k, tuple(map(tuple, board)))


@settings(max_examples=40, deadline=None, derandomize=True)
@given(positions())
@example(Queens(3, 1, ((1, 2, 0), (0, 0, 0), (2, 0, 0))))  # no capture; the minimum 3 is above the popcount 2
def test_models_prove_the_exhaustive_minimum(instance):
    minimum = brute_minimum(instance)
    for solver, formulation in [
        ("cpsat", "forest"),
        ("cpsat", "time-indexed-cp"),
        ("dfs", None),
        ("levels", None),
        ("lazy-levels", None),
        ("portfolio", None),
    ]:
        result = run(instance, solver, formulation, minimise=True)
        assert (result.status, result.objective) == ("optimal", minimum), (solver, formulation)
    reachable = minimum <= instance.k
    for solver, formulation in [
        ("cpsat", "forest"),
        ("cpsat", "time-indexed-cp"),
        ("dfs", None),
        ("levels", None),
        ("portfolio", None),
    ]:
        result = run(instance, solver, formulation)
        assert (result.status != "infeasible") == reachable, (solver, formulation)
        if reachable:
            assert result.verdict.measured["remaining"] <= instance.k


@settings(max_examples=8, deadline=None, derandomize=True)
@given(positions())
def test_milp_proves_the_exhaustive_minimum(instance):
    result = run(instance, "cbc", "time-indexed", minimise=True)
    assert (result.status, result.objective) == ("optimal", brute_minimum(instance))


def test_level_search_solves_planted_positions_and_proves_a_bundled_unsolvable_one():
    from mipgames.queens.generate import planted

    for seed in range(3):
        result = run(planted(10, 1, 19, seed).instance, "levels")
        assert result.status in ("optimal", "feasible") and result.verdict.measured["remaining"] == 1
    unsolvable = read("instances/queens/unsolvable_n8_k1_q20_s1.txt")
    assert run(unsolvable, "levels").status == "infeasible"
    assert run(unsolvable, "cpsat", "forest").status == "infeasible"


def test_cpsat_on_a_continuous_mip_is_refused_with_the_way_out(capsys):
    """The time-indexed MIP has continuous variables, which CP-SAT cannot take: a usage error (exit 4) that
    says where the native CP-SAT formulations are listed, not a failure."""
    from mipgames.cli import main

    args = ["solve", "instances/queens/spec_example.txt", "--solver", "cpsat", "--formulation", "time-indexed"]
    assert main([*args, "--quiet", "--time-limit", "20"]) == 4
    err = capsys.readouterr().err
    assert "has continuous variables" in err and "mipgames problems" in err and "Traceback" not in err
