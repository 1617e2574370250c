"""The samegame Problem object: params, JSON, generator, bundled boards, bad files."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from mipgames.core.errors import InputError, UsageError
from mipgames.core.problem import SolveOptions
from mipgames.run.runner import solve
from mipgames.samegame import simulate
from mipgames.samegame.generate import GENERATOR, random_board
from mipgames.samegame.instance import parse_board
from mipgames.samegame.problem import PROBLEM

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = sorted((ROOT / "instances" / "samegame").glob("*.txt"))


def test_protocol_surface():
    assert PROBLEM.name == "samegame" and PROBLEM.folder == "samegame"
    assert PROBLEM.default_params() == {
        "objective": "min-remaining",
        "origin": "bottom",
        "beam_width": 0,
        "node_budget": 0,
        "level": 0,
    }
    assert PROBLEM.objective({"objective": "min-remaining"}) == ("tiles remaining", "min")
    assert PROBLEM.objective({"objective": "score"}) == ("score (standard rule)", "max")
    assert {f.kind for f in PROBLEM.formulations.values()} == {"mip", "cpsat"}
    for kind, name in PROBLEM.default_formulation.items():
        assert PROBLEM.formulations[name].kind == kind
    assert set(PROBLEM.algorithms) == {"portfolio", "exact", "greedy", "beam", "nmcs", "nrpa"}
    assert PROBLEM.default_solver == "portfolio"
    assert PROBLEM.algorithms["exact"].exact and not PROBLEM.algorithms["beam"].exact


def test_check_params_rejects_bad_values():
    board = random_board(3, 3, 2, 0)
    with pytest.raises(UsageError):
        PROBLEM.check_params(board, {"objective": "most-tiles", "beam_width": 0})
    for bad in ({"beam_width": -1}, {"beam_width": True}, {"node_budget": 10**16}, {"level": 6}, {"origin": "left"}):
        with pytest.raises(UsageError):
            PROBLEM.check_params(board, {"objective": "score", **bad})
    param = {p.name: p for p in PROBLEM.params}
    assert param["node_budget"].read("1000") == 1000
    with pytest.raises(UsageError, match=r"^--level: must be from 0 to 5, got 9$"):
        param["level"].read("9")
    # int()'s own words ("invalid literal for int() with base 10") were the message
    with pytest.raises(UsageError, match=r"^--node-budget: not an integer from 0 to \d+: '1e3'$"):
        param["node_budget"].read("1e3")


def test_json_round_trips():
    board = random_board(4, 5, 3, 2)
    assert PROBLEM.instance_from_json(PROBLEM.instance_to_json(board)) == board
    moves = [[0, 1], [2, 0]]
    assert PROBLEM.solution_from_json(board, PROBLEM.solution_to_json(moves)) == moves


@pytest.mark.parametrize(
    "data",
    [
        None,
        3,
        "12",
        {"x": 1},
        [[0]],
        [[0, 1, 2]],
        [[0, "1"]],
        [[True, 0]],
        [[0.5, 1]],
        [[0, 2**40]],
        [[0, -(2**40)]],
        [[0, 10**5000]],
        [(0, 1)],
        [[0, 1]] * 3000,
    ],
)
def test_solution_json_refuses_malformed_input_with_input_errors(data):
    with pytest.raises(InputError):
        PROBLEM.solution_from_json(random_board(3, 3, 2, 0), data)


@pytest.mark.parametrize("data", [None, "12", [1, 2], ["12", 3], ["12\n21"], ["1.", ".1"], ["1" * 70], ["1"] * 80])
def test_instance_json_refuses_malformed_input_with_input_errors(data):
    with pytest.raises(InputError):
        PROBLEM.instance_from_json(data)


def test_top_origin_solutions_replay_and_come_back_in_that_origin():
    """The formal model's convention (row 0 at the top) is read by the simulator and written by the solvers."""
    board = parse_board("0..\n01.\n110\n")
    bottom = {"objective": "score"}
    top = {"objective": "score", "origin": "top"}
    assert simulate.evaluate(board, bottom, [[0, 0], [1, 0]]).objective == 1002
    assert simulate.evaluate(board, top, [[0, 2], [1, 2]]).objective == 1002
    wrong = simulate.evaluate(board, top, [[2, 2]])  # the lone tile at the bottom right, named as the user did
    assert not wrong.legal and wrong.reason == "move 1 (2,2): single tile (a group needs at least 2 tiles)"
    assert simulate.evaluate(board, top, [[0, 1]]).reason == "game not over: group of 3 at (0,2) left"
    for solver in ("exact", "beam", "cpsat"):
        res = solve(PROBLEM, board, solver=solver, params=top, options=SolveOptions(time_limit=10), isolate=False)
        assert (res.status, res.objective) == ("optimal", 1002), solver
        assert res.solution == simulate.from_bottom(board, simulate.to_bottom(board, res.solution, "top"), "top")
        assert all(y == 2 for _, y in res.solution[:1])  # the first click is on the bottom row, y = 2 from the top


@pytest.mark.parametrize("name, value", [("objective", "most-tiles"), ("origin", "left")])
def test_a_certificate_with_a_value_outside_a_parameters_choices_is_rejected(name, value):
    """A value of the right type that is no choice of its parameter names rules nobody wrote: verify refuses it
    with the choices named (checked twice, by the declaration and by the problem's own check)."""
    from mipgames.core import certificate

    board = parse_board("0..\n01.\n110\n")
    res = solve(PROBLEM, board, solver="exact", params={"objective": "score"}, isolate=False)
    data = certificate.build(PROBLEM, board, res)
    assert certificate.verify(data, PROBLEM).ok
    data["params"][name] = value
    check = certificate.verify(data, PROBLEM)
    assert not check.ok and any(f"{name} must be one of" in r for r in check.reasons), check.reasons


def test_generator_is_seeded():
    parser = argparse.ArgumentParser()
    GENERATOR.add_arguments(parser)
    args = parser.parse_args(["--rows", "4", "--cols", "6", "--colours", "3", "--seed", "7"])
    board = GENERATOR.generate(args)
    assert (board.rows, board.cols) == (4, 6) and board.colours() <= {0, 1, 2}
    assert board == random_board(4, 6, 3, 7) != random_board(4, 6, 3, 8)
    with pytest.raises(UsageError):
        random_board(0, 3, 2)
    with pytest.raises(UsageError):
        random_board(3, 3, 37)


def test_bundled_boards_are_the_generators_and_exact_search_solves_them():
    assert len(BUNDLED) >= 6
    for path in BUNDLED:
        board = PROBLEM.read(path)
        r, c, k, seed = (
            int(v)
            for v in path.stem.replace("random-", "").replace("x", " ").replace("-k", " ").replace("-seed", " ").split()
        )
        assert board == random_board(r, c, k, seed)
        assert 3 <= r <= 6 and 2 <= k <= 4
        res = solve(PROBLEM, board, solver="exact", options=SolveOptions(time_limit=30), isolate=False)
        assert res.status == "optimal"


@pytest.mark.parametrize(
    "text, fragment, line",
    [
        ("112\n12\n", "ragged row", 2),
        ("11\n1?\n", "unknown symbol", 2),
        ("1.\n.1\n", "empty cell below", 2),
    ],
)
def test_malformed_files_name_file_and_line(tmp_path, text, fragment, line):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(InputError) as info:
        PROBLEM.read(path)
    assert fragment in str(info.value) and info.value.line == line and info.value.path == str(path)


def test_describe_names_the_rule_and_final_board():
    board = parse_board("112\n122\n")
    params = {"objective": "score"}
    res = solve(PROBLEM, board, solver="exact", params=params, isolate=False)
    text = PROBLEM.describe(board, params, res.solution, simulate.evaluate(board, params, res.solution))
    assert "standard rule" in text and "final board" in text and "click" in text


def test_problem_module_imports_no_solver():
    code = (
        "import sys; import mipgames.samegame.problem; "
        "print(any(m.split('.')[0] in ('pulp', 'ortools', 'matplotlib') for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "False"


def test_a_param_of_other_routes_is_noted_as_ignored():
    """--beam-width with highs, --level with exact, --node-budget with cpsat were recorded in the certificate as
    if they had shaped the run, without a word."""
    from mipgames import registry
    from mipgames.run.execute import unused_params

    sg = registry.load("samegame")
    params = {**sg.default_params(), "beam_width": 5, "level": 2}
    assert unused_params(sg, "highs", params) == "--beam-width, --level are not used by highs: ignored"
    assert unused_params(sg, "exact", params) == "--beam-width, --level are not used by exact: ignored"
    assert unused_params(sg, "beam", params) == "--level is not used by beam: ignored"
    assert unused_params(sg, "nrpa", {**params, "beam_width": 0}) == ""
    assert unused_params(sg, "cpsat", {**sg.default_params(), "node_budget": 100}).startswith("--node-budget is")


@pytest.mark.parametrize(
    "solver, params, limit, stop",
    [
        ("nrpa", {"node_budget": 2000}, 60.0, "node budget"),
        ("beam", {"beam_width": 5}, 60.0, ""),  # a beam of a given width ends by itself
        ("portfolio", {}, 2.0, "time limit"),
    ],
)
def test_a_search_that_proves_nothing_names_what_stopped_it(solver, params, limit, stop):
    """SameGame's searches answered "feasible (not proved optimal)" at the time limit where the other problems
    add "stopped: time limit"."""
    board = random_board(15, 15, 4, seed=3)
    result = solve(
        PROBLEM, board, solver=solver, params={"objective": "score", **params}, options=SolveOptions(time_limit=limit)
    )
    assert (result.status, result.stop) == ("feasible", stop), result.message
