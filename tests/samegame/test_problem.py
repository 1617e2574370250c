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
    assert PROBLEM.default_params() == {"objective": "min-remaining", "beam_width": 0}
    assert PROBLEM.objective({"objective": "min-remaining"}) == ("tiles remaining", "min")
    assert PROBLEM.objective({"objective": "score"}) == ("score (standard rule)", "max")
    assert {f.kind for f in PROBLEM.formulations.values()} == {"mip", "cpsat"}
    for kind, name in PROBLEM.default_formulation.items():
        assert PROBLEM.formulations[name].kind == kind
    assert set(PROBLEM.algorithms) == {"exact", "greedy", "beam"}
    assert PROBLEM.algorithms["exact"].exact and not PROBLEM.algorithms["beam"].exact


def test_check_params_rejects_bad_values():
    board = random_board(3, 3, 2, 0)
    with pytest.raises(UsageError):
        PROBLEM.check_params(board, {"objective": "most-tiles", "beam_width": 0})
    with pytest.raises(UsageError):
        PROBLEM.check_params(board, {"objective": "score", "beam_width": -1})


def test_json_round_trips():
    board = random_board(4, 5, 3, 2)
    assert PROBLEM.instance_from_json(PROBLEM.instance_to_json(board)) == board
    moves = [[0, 1], [2, 0]]
    assert PROBLEM.solution_from_json(board, PROBLEM.solution_to_json(moves)) == moves


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
        r, c, k, seed = (int(v) for v in path.stem.replace("random-", "").replace("x", " ").replace("-k", " ")
                         .replace("-seed", " ").split())
        assert board == random_board(r, c, k, seed)
        assert 3 <= r <= 6 and 2 <= k <= 4
        res = solve(PROBLEM, board, solver="exact", options=SolveOptions(time_limit=30), isolate=False)
        assert res.status == "optimal"


@pytest.mark.parametrize("text, fragment, line", [
    ("112\n12\n", "ragged row", 2),
    ("11\n1?\n", "unknown symbol", 2),
    ("1.\n.1\n", "empty cell below", 2),
])
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
    code = ("import sys; import mipgames.samegame.problem; "
            "print(any(m.split('.')[0] in ('pulp', 'ortools', 'matplotlib') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "False"
