"""Generator, renderer, classical algorithms and warm starts."""

import argparse

import pytest

from mipgames.core.errors import UsageError
from mipgames.core.problem import SolveOptions
from mipgames.edge_matching import candidates as board
from mipgames.edge_matching.generate import add_arguments, generate, planted, shuffle
from mipgames.edge_matching.instance import Instance, read
from mipgames.edge_matching.problem import PROBLEM
from mipgames.edge_matching.simulate import evaluate
from mipgames.run.runner import solve

from .helpers import COURSEWORK, coursework, frame_ok, score


@pytest.mark.parametrize("frame", [True, False])
def test_planted_puzzle_is_shuffled_and_perfect(frame):
    inst, p = planted(5, 6, frame, 2, 4, seed=9)
    assert (inst.rows, inst.cols, inst.frame) == (5, 6, frame)
    assert score(inst, p) == 0 and (not frame or frame_ok(inst, p))
    assert p != [(i, 0) for i in range(30)]  # tiles are not left in solved order
    assert planted(5, 6, frame, 2, 4, seed=9)[0] == inst and planted(5, 6, frame, 2, 4, seed=10)[0] != inst
    if frame:
        rim = {c for t in inst.tiles if 0 in t for c in t} - {0}
        assert rim & {1, 2}


def test_generator_cli_arguments_and_errors():
    ap = argparse.ArgumentParser()
    add_arguments(ap)
    inst = generate(
        ap.parse_args(
            [
                "--rows",
                "4",
                "--frame",
                "--rim-colours",
                "1",
                "--inner-colours",
                "2",
                "--seed",
                "1",
            ]
        )
    )
    assert (inst.rows, inst.cols, inst.frame) == (4, 4, True)
    with pytest.raises(UsageError):
        generate(ap.parse_args(["--rows", "1", "--frame", "--rim-colours", "1", "--inner-colours", "2"]))


def test_shuffle_keeps_the_tiles_up_to_turns():
    inst = coursework()
    sh = shuffle(inst, 3)
    canon = lambda ts: sorted(min(t[k:] + t[:k] for k in range(4)) for t in ts)
    assert canon(sh.tiles) == canon(inst.tiles) and sh.tiles != inst.tiles


def test_render_writes_png(tmp_path):
    inst = coursework()
    PROBLEM.render(inst, {}, [(t, 0) for t in range(16)], tmp_path / "a.png")
    PROBLEM.render(inst, {}, None, tmp_path / "b.png")
    for name in ("a.png", "b.png"):
        assert (tmp_path / name).read_bytes()[:4] == b"\x89PNG"


def test_backtrack_and_anneal():
    inst, _ = planted(4, 4, True, 2, 3, seed=5)
    r = solve(
        PROBLEM,
        inst,
        solver="backtrack",
        params={"mode": "decision"},
        options=SolveOptions(time_limit=20),
        isolate=False,
    )
    assert r.status == "optimal" and score(inst, r.solution) == 0
    r = solve(
        PROBLEM,
        inst,
        solver="anneal",
        options=SolveOptions(time_limit=1, seed=2),
        isolate=False,
    )
    assert r.status in ("optimal", "feasible") and r.objective == score(inst, r.solution)
    assert frame_ok(inst, r.solution)


@pytest.mark.parametrize(
    "formulation,solver",
    [("typed", "cbc"), ("cpsat", "cpsat"), ("cpsat-table", "cpsat")],
)
def test_warm_start_runs_and_verifies(formulation, solver):
    inst, _ = planted(4, 4, True, 2, 3, seed=6)
    opts = SolveOptions(time_limit=10, threads=1, warm_start=True)
    r = solve(
        PROBLEM,
        inst,
        solver=solver,
        formulation=formulation,
        options=opts,
        isolate=False,
    )
    assert r.status == "optimal" and r.objective == 0


def test_canonical_keeps_score_and_meets_symmetry_rule():
    for frame, (R, C) in (
        (True, (4, 4)),
        (False, (3, 3)),
        (True, (3, 5)),
        (False, (2, 4)),
    ):
        inst, p = planted(R, C, frame, 1, 3, seed=R * C)
        allowed = [set(c) for c in board.candidates(inst)]
        for k in (0, 2) if R != C else (0, 1, 2, 3):
            turned_board = board.rotate_board(inst, p, k)
            assert evaluate(inst, {}, turned_board).objective == 0
            can = board.canonical(inst, turned_board)
            assert evaluate(inst, {}, can).objective == 0
            assert all(pair in allowed[i] for i, pair in enumerate(can))


def test_bundled_instances_read():
    folder = COURSEWORK.parent
    names = sorted(p.name for p in folder.glob("*.txt"))
    assert "coursework_4x4.txt" in names and len(names) >= 12
    for p in folder.glob("*.txt"):
        inst = read(p)
        assert isinstance(inst, Instance) and 4 <= inst.rows <= 10
