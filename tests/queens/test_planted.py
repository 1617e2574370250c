"""Planted instances keep the solution they were built from; every answer is compared with it."""

from pathlib import Path

import pytest

from mipgames.core.problem import SolveOptions
from mipgames.queens.codec import instance_from_json, instance_to_json
from mipgames.queens.generate import planted
from mipgames.queens.instance import moves_path, read, read_moves, write
from mipgames.queens.problem import PROBLEM
from mipgames.queens.simulate import coursework_accepts, evaluate
from mipgames.run.runner import solve

FOLDER = Path(__file__).resolve().parents[2] / "instances" / "queens"
PLANTED = sorted(FOLDER.glob("planted_*.txt")) + [FOLDER / "spec_example.txt"]


@pytest.mark.parametrize("path", PLANTED, ids=lambda p: p.stem)
def test_bundled_answers_match_the_planted_solution(path):
    instance = read(path)
    planted_moves = [m for _, m in read_moves(moves_path(path))]
    known = evaluate(instance, {}, planted_moves)
    assert known.legal and known.objective <= instance.k and coursework_accepts(instance, planted_moves)
    result = solve(PROBLEM, instance, solver="levels", options=SolveOptions(time_limit=60), isolate=False)
    assert result.status in ("optimal", "feasible") and result.verdict.legal
    assert result.objective <= known.objective  # never worse than the planted answer
    assert len(result.solution) == len(planted_moves) - (known.objective - result.objective)


def test_generator_writes_the_planted_solution_beside_the_board(tmp_path):
    from mipgames.cli import main as cli

    out = tmp_path / "p.txt"
    assert cli(["generate", "queens", "--n", "10", "--k", "2", "--moves", "25", "--seed", "4", "-o", str(out)]) == 0
    instance = read(out)
    moves = [m for _, m in read_moves(moves_path(out))]
    assert evaluate(instance, {}, moves).objective == 2 and len(instance.queens) == 27
    assert tuple(moves) == planted(10, 2, 25, 4).instance.planted
    back = instance_from_json(instance_to_json(planted(10, 2, 25, 4).instance))
    assert back == instance and back.planted == tuple(moves)
    write(back, tmp_path / "again.txt")
    assert (tmp_path / "again.moves").read_text() == moves_path(out).read_text()
