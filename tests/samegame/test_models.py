"""The time-indexed MIP (CBC) and the CP-SAT model against exact search."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from mipgames.core.problem import SolveOptions
from mipgames.run.runner import solve
from mipgames.samegame import cpsat, decode, mip, simulate
from mipgames.samegame.exact import ExactSearch
from mipgames.samegame.generate import random_board
from mipgames.samegame.instance import parse_board
from mipgames.samegame.kernel import to_array
from mipgames.samegame.problem import PROBLEM

OBJECTIVES = ("min-remaining", "score")
OPTIONS = SolveOptions(time_limit=60, threads=1, warm_start=True)


def exact(board, objective):
    """The optimum by the compiled exact search (itself checked against brute force in test_search)."""
    rules = simulate.rules_of({"objective": objective})
    root, shape = to_array(board)
    res = ExactSearch(shape, 12).solve(root, rules.score)
    assert res.proved
    return rules.natural(res.value)


def check_model(board, objective, solver):
    params = {"objective": objective}
    res = solve(PROBLEM, board, solver=solver, params=params, options=OPTIONS, isolate=False)
    assert res.status == "optimal", (res.status, res.message)
    assert res.objective == exact(board, objective)
    verdict = simulate.evaluate(board, params, res.solution)
    assert verdict.legal and verdict.objective == res.objective


@settings(max_examples=14, deadline=None, derandomize=True)
@given(st.integers(2, 4), st.integers(2, 4), st.integers(2, 3), st.integers(0, 10**6), st.sampled_from(OBJECTIVES))
def test_cpsat_agrees_with_exact_search(rows, cols, colours, seed, objective):
    check_model(random_board(rows, cols, colours, seed), objective, "cpsat")


@settings(max_examples=8, deadline=None, derandomize=True)
@given(st.integers(2, 3), st.integers(2, 3), st.integers(2, 3), st.integers(0, 10**6), st.sampled_from(OBJECTIVES))
def test_cbc_agrees_with_exact_search(rows, cols, colours, seed, objective):
    check_model(random_board(rows, cols, colours, seed), objective, "cbc")


def test_cbc_on_a_4x4_board():
    check_model(random_board(4, 4, 2, 0), "min-remaining", "cbc")


def violated(prob):
    bad = []
    for name, c in prob.constraints.items():
        v = c.value()
        if (c.sense == 0 and abs(v) > 1e-6) or (c.sense == -1 and v > 1e-6) or (c.sense == 1 and v < -1e-6):
            bad.append(name)
    return bad


@settings(max_examples=12, deadline=None, derandomize=True)
@given(st.integers(2, 4), st.integers(2, 4), st.integers(2, 4), st.integers(0, 10**6), st.sampled_from(OBJECTIVES))
@example(2, 2, 4, 4, "min-remaining")  # no move at all: a model without variables
def test_mip_hint_is_a_feasible_point(rows, cols, colours, seed, objective):
    """The warm start (a real game) satisfies every MIP constraint: the model admits every game."""
    board = random_board(rows, cols, colours, seed)
    built = mip.build(board, {"objective": objective}, OPTIONS)
    for var in built.model.variables():
        assert var in built.hint, var.name
        var.varValue = built.hint[var]
    assert violated(built.model) == []
    assert round(built.model.objective.value()) == built.stats["incumbent"]
    # the game the runner answers with when the build is cut (taken before it) is the hinted one
    params = {**PROBLEM.default_params(), "objective": objective, "origin": "top"}
    hinted = PROBLEM.formulations["time-indexed"].decode(board, params, built.handles, built.hint.__getitem__)
    early = mip.start_solution(board, params)
    same = [PROBLEM.evaluate(board, params, game).measured for game in (hinted, early)]
    assert same[0] == same[1] and PROBLEM.evaluate(board, params, early).objective == built.stats["incumbent"]


@settings(max_examples=10, deadline=None, derandomize=True)
@given(st.integers(2, 4), st.integers(2, 4), st.integers(2, 4), st.integers(0, 10**6), st.sampled_from(OBJECTIVES))
def test_cpsat_hint_extends_to_a_solution(rows, cols, colours, seed, objective):
    from ortools.sat.python import cp_model

    board = random_board(rows, cols, colours, seed)
    built = cpsat.build(board, {"objective": objective}, OPTIONS)
    for var, val in built.hint.items():
        built.model.add_hint(var, val)
    solver = cp_model.CpSolver()
    solver.parameters.fix_variables_to_their_hinted_value = True
    solver.parameters.num_workers = 1
    assert solver.solve(built.model) in (cp_model.OPTIMAL, cp_model.FEASIBLE)


def steps_used(built, value):
    geo, alive, T = built.handles["geometry"], built.handles["alive"], built.handles["steps"]

    def on(t, i):
        v = alive[t, i]
        return (v if isinstance(v, int) else value(v)) > 0.5

    return [any(on(t - 1, i) and not on(t, i) for i in range(geo.n)) for t in range(1, T + 1)]


def test_idle_steps_only_at_the_end():
    import pulp
    from ortools.sat.python import cp_model

    for seed in range(3):
        board = random_board(3, 4, 3, seed)
        built = mip.build(board, {}, OPTIONS)
        built.model.solve(pulp.PULP_CBC_CMD(msg=False, threads=1))
        used = steps_used(built, lambda v: v.value())
        assert used == sorted(used, reverse=True) and not all(used)
        built = cpsat.build(board, {}, OPTIONS)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        assert solver.solve(built.model) == cp_model.OPTIMAL
        used = steps_used(built, solver.value)
        assert used == sorted(used, reverse=True)
        moves = decode.decode_alive(board, {}, built.handles, solver.value)
        assert len(moves) == sum(used)


def test_edge_boards_with_both_models():
    """Every MIP backend too: on a board with no move the MIP has no variable and a constant objective, which
    CBC's PuLP reading gave as 0 (the constant's __dummy has no value)."""
    cases = {"12\n21\n": (4, 0), "111\n111\n": (0, 1016), "1\n": (1, 0), "112\n": (1, 0)}
    for text, (left, score) in cases.items():
        board = parse_board(text)
        for solver in ("cbc", "glpk", "highs", "scip", "cpsat"):
            for objective, want in (("min-remaining", left), ("score", score)):
                res = solve(
                    PROBLEM, board, solver=solver, params={"objective": objective}, options=OPTIONS, isolate=False
                )
                assert (res.status, res.objective) == ("optimal", want), (text, solver, objective, res.message)


def test_stuck_tiles_keep_their_column():
    """A colour with one tile never leaves, so its column never empties (a bug once made this infeasible)."""
    board = parse_board("110\n121\n111\n")
    for solver in ("cbc", "cpsat"):
        res = solve(PROBLEM, board, solver=solver, params={}, options=OPTIONS, isolate=False)
        assert (res.status, res.objective) == ("optimal", 2)


def test_geometry_pairs_and_trajectory_round_trip():
    board = parse_board("12\n11\n")
    geo = decode.geometry(board)
    assert geo.colour == [1, 1, 1, 2] and geo.steps() == 1
    assert [(p.i, p.j) for p in geo.vpairs] == [(0, 1)]
    assert [(p.i, p.j, p.rows) for p in geo.hpairs] == [(0, 2, (0,)), (1, 2, (0,))]
    assert decode.trajectory(geo, [[0, 0]]) == [[0, 1, 2]]
    assert decode.click_cells(geo, [[0, 1, 2]]) == [[0, 0]]


def test_model_sizes_are_reported():
    board = random_board(4, 4, 3, 0)
    for build in (mip.build, cpsat.build):
        stats = build(board, {}, OPTIONS).stats
        assert stats["steps"] == decode.geometry(board).steps()
        assert stats["variables"] > 0 and stats["constraints"] > 0


def test_mip_is_integral_and_runs_on_cpsat_by_translation():
    board = random_board(3, 4, 3, 2)
    for objective in OBJECTIVES:
        res = solve(
            PROBLEM,
            board,
            solver="cpsat",
            formulation="time-indexed",
            params={"objective": objective},
            options=OPTIONS,
            isolate=False,
        )
        assert (res.status, res.objective) == ("optimal", exact(board, objective))
