import pytest
from PIL import Image

from mipgames.core.errors import UsageError
from mipgames.core.problem import SolveOptions
from mipgames.queens.dfs import run_dfs
from mipgames.queens.generate import planted, unsolvable
from mipgames.queens.prep import prepare
from mipgames.queens.render import render
from mipgames.queens.simulate import coursework_accepts, evaluate


@pytest.mark.parametrize("n, k, moves, seed", [(6, 1, 8, 0), (8, 2, 20, 1), (16, 3, 60, 2)])
def test_planted_solution_replays(n, k, moves, seed):
    case = planted(n, k, moves, seed)
    assert len(case.instance.queens) == k + moves
    verdict = evaluate(case.instance, {}, case.solution)
    assert verdict.legal and verdict.objective == k
    assert coursework_accepts(case.instance, case.solution)
    assert planted(n, k, moves, seed) == case


def test_planted_refuses_what_cannot_fit():
    with pytest.raises(UsageError):
        planted(2, 1, 4, 0)


def test_unsolvable_is_not_trivial_and_exhaustive_search_agrees():
    instance = unsolvable(5, 9, 1, seed=4, time_limit=10)
    assert instance.total.bit_count() <= instance.k
    assert prepare(instance, {}).bound <= instance.k
    out = run_dfs(instance, {"minimise": True}, SolveOptions(time_limit=30), lambda a, b: None)
    assert out.status == "optimal" and out.objective > instance.k


def test_render_writes_png_with_moves(tmp_path):
    case = planted(6, 1, 5, 3)
    path = tmp_path / "board.png"
    render(case.instance, {}, case.solution, path)
    with Image.open(path) as image:
        width, height = image.size
    assert width > 1.5 * height  # start and final panels
    render(case.instance, {}, None, tmp_path / "start.png")
    assert (tmp_path / "start.png").stat().st_size > 1000
