"""Backends: the registry, warm starts that are really taken, and progress from the solvers' own callbacks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mipgames import registry
from mipgames.backends import BACKENDS, backends_for, get_backend
from mipgames.core.problem import SolveOptions
from mipgames.run.runner import solve

ROOT = Path(__file__).resolve().parents[2]
EDGE = registry.load("edge-matching")


def test_every_registered_backend_is_available_and_says_what_it_can_do():
    assert set(BACKENDS) == {"cbc", "glpk", "highs", "cpsat", "scip"}
    for name in BACKENDS:
        backend = get_backend(name)
        assert backend.name == name and backend.available() is None
        assert backend.version() not in ("", "unknown")
        assert "mip" in backend.kinds
        assert backend.progress is not None or backend.capabilities.progress_callback
    assert backends_for("cpsat") == ["cpsat"]


@pytest.mark.parametrize("solver", ["highs", "cbc", "cpsat", "scip"])
def test_a_warm_start_never_changes_a_proved_result(solver, tmp_path):
    puzzle = EDGE.read(ROOT / "instances/edge_matching/planted_5x5_free.txt")
    runs = []
    for warm in (False, True):
        log = tmp_path / f"{solver}-{warm}.log"
        runs.append(
            solve(
                EDGE,
                puzzle,
                solver=solver,
                formulation="typed",
                log_path=log,
                isolate=False,
                options=SolveOptions(time_limit=120, threads=1, warm_start=warm),
            )
        )
    assert [(r.status, r.objective) for r in runs] == [("optimal", 0.0)] * 2
    if solver == "highs":
        text = (tmp_path / "highs-True.log").read_text()
        assert "MIP start solution is feasible" in text, "HiGHS rejected the warm start"


def test_callback_solvers_report_incumbents_while_solving():
    from mipgames.core.problem import Built
    from mipgames.run.execute import ModelListener

    notes = []
    puzzle = EDGE.read(ROOT / "instances/edge_matching/planted_5x5_free.txt")
    form = EDGE.formulations["typed"]
    for solver in ("highs", "scip", "cpsat"):
        built: Built = form.build(puzzle, EDGE.default_params(), SolveOptions())
        listener = ModelListener(EDGE, puzzle, EDGE.default_params(), built, form.decode, notes.append)
        get_backend(solver).solve(built, "mip", SolveOptions(time_limit=60, threads=1), Path("/dev/null"), listener)
        incumbents = [n for n in notes if n[0] == "incumbent"]
        assert incumbents, solver
        verdict = EDGE.evaluate(puzzle, EDGE.default_params(), EDGE.solution_from_json(puzzle, incumbents[0][3]))
        assert verdict.legal and verdict.objective <= incumbents[0][1]  # a model value may be looser
        notes.clear()


@pytest.mark.parametrize(
    "problem, path",
    [
        ("edge-matching", "instances/edge_matching/planted_4x6_frame.txt"),  # SCIP takes 14 s on coursework_4x4
        ("samegame", "instances/samegame/random-4x4-k3-seed4.txt"),
    ],
)
def test_scip_proves_what_the_others_prove(problem, path):
    prob = registry.load(problem)
    instance = prob.read(ROOT / path)
    results = {
        s: solve(prob, instance, solver=s, isolate=False, options=SolveOptions(time_limit=120, threads=1))
        for s in ("scip", "highs")
    }
    assert results["scip"].status == results["highs"].status == "optimal"
    assert results["scip"].objective == results["highs"].objective
    assert results["scip"].proved_by.startswith("scip ")


def test_highs_runs_with_any_thread_count_in_and_after_a_process_that_used_it():
    """HiGHS sizes one global thread pool at its first solve; a later solve with other threads once failed."""
    from tests.core.toy import PROBLEM, brute_force, random_split

    inst = random_split(rows=2, items=9, seed=2, high=20)
    truth = brute_force(inst, {})
    for threads, isolate in ((1, False), (2, False), (2, True), (1, True)):
        result = solve(
            PROBLEM, inst, solver="highs", isolate=isolate, options=SolveOptions(time_limit=30, threads=threads)
        )
        assert (result.status, result.objective) == ("optimal", truth), (threads, isolate, result.message)


def test_cbc_progress_is_read_in_the_models_sense():
    """A maximisation showed "bound -1121" while it ran and 1121 at the end: Clp's root line is in the model's own
    sense, only CBC's node and solution lines are negated."""
    from mipgames.backends.cbc import progress

    assert progress("Continuous objective value is 148.688 - 0.01 seconds", "max") == (None, 148.688)
    assert progress("Continuous objective value is 12.5 - 0.01 seconds", "min") == (None, 12.5)
    line = "Cbc0012I Integer solution of -148 found by feasibility pump after 0 iterations and 0 nodes (0.03 seconds)"
    assert progress(line, "max") == (148, None) and progress(line, "min") == (-148, None)
    node = "Cbc0010I After 100 nodes, 12 on tree, -147 best solution, best possible -149 (0.50 seconds)"
    assert progress(node, "max") == (147, 149)


def test_glpk_progress_reads_every_better_solution_it_logs():
    """GLPK's progress read only its `mip =` lines, every few seconds: a 6x6 puzzle showed the model's start (10)
    for 9 s while GLPK had logged 6, 5, 4 and 2 on `>>>>>` lines, and a merge map 71 while its heuristic had 77."""
    from mipgames.backends.glpk import progress

    assert progress("+   747: mip =     not found yet >=              -inf        (1; 0)", "min") == (None, None)
    assert progress("+  4967: >>>>>   6.000000000e+00 >=   0.000000000e+00 100.0% (42; 0)", "min") == (6.0, 0.0)
    assert progress("+ 49467: mip =   7.700000000e+01 <=   7.800000000e+01   1.3% (2364; 6862)", "max") == (77, 78)
    assert progress("Solution found by heuristic: 72", "max") == (72.0, None)
    assert progress("Integer optimization begins...", "max") is None


def test_scips_infinity_is_no_bound():
    """SCIP's dual bound before it has one is its infinity, -1e20: it was certified as a proved bound."""
    import pyscipopt

    from mipgames.backends.scip import dual_bound

    real = pyscipopt.Model()

    class Stopped:
        def __init__(self, value: float):
            self.value = value

        def getDualbound(self) -> float:
            return self.value

        def isInfinity(self, value: float) -> bool:
            return real.isInfinity(value)

    assert dual_bound(Stopped(-1e20), 0.0) is None and dual_bound(Stopped(1e20), 5.0) is None
    assert dual_bound(Stopped(-12.0), 5.0) == -7.0


def test_cbc_is_given_the_time_left_after_its_model_file_is_written():
    """CBC's clock starts after it has read the MPS file PuLP writes, so the time spent writing it is taken off
    twice (writing, and reading about as long); the limit was read before the file was written."""
    from mipgames.backends.base import Stopwatch
    from mipgames.backends.cbc import READ_FLOOR_S, _timed_cmd

    clock = Stopwatch()
    command = _timed_cmd(clock)(timeLimit=30.0)
    clock.start -= 5.0  # five seconds went into writing the file
    assert command.timeLimit == pytest.approx(20.0, abs=0.1)
    clock.start -= 100.0
    assert command.timeLimit == READ_FLOOR_S
    assert _timed_cmd(clock)(timeLimit=None).timeLimit is None


def test_cbc_that_stops_on_time_and_ends_without_its_solution_is_unknown_not_an_error(tmp_path, monkeypatch):
    """With the machine loaded, CBC logged "Exiting on maximum time" and ended before writing its solution; PuLP
    raised and the run was an error (exit 1), where a time limit is no error.  Any other failure stays one."""
    import pulp

    from mipgames.backends import cbc

    merge = registry.load("merge-game")
    puzzle = merge.read(ROOT / "instances/merge_game/choice.txt")
    built = merge.formulations["compact"].build(puzzle, merge.default_params(), SolveOptions())
    log = tmp_path / "cbc.log"

    def cut_off(solver):
        log.write_text(
            "Cbc0010I After 0 nodes, 1 on tree, 1 best solution, best possible -5 (0.01 seconds)\n"
            "Cbc0020I Exiting on maximum time\nPartial search - best objective -3 (best possible -5)\n"
        )
        raise pulp.PulpSolverError("Pulp: Error while trying to execute cbc")

    monkeypatch.setattr(built.model, "solve", cut_off)
    result = cbc.solve(built, "mip", SolveOptions(time_limit=1), log)
    assert (str(result.status), result.stop, result.bound) == ("unknown", "time limit", 5.0)
    assert "ended before writing its solution" in result.message

    def broken(solver):
        log.write_text("Cbc0000I some failure\n")
        raise pulp.PulpSolverError("Pulp: Error while trying to execute cbc")

    monkeypatch.setattr(built.model, "solve", broken)
    assert str(cbc.solve(built, "mip", SolveOptions(time_limit=1), log).status) == "error"


def test_cbc_called_directly_leaves_no_wrapper_behind(tmp_path, monkeypatch):
    """The wrapper that ties CBC to its parent was left in the temporary folder (two dozen in /tmp after a day):
    only a run's scratch folder, removed with the run, had hidden it."""
    import tempfile

    from mipgames.backends import cbc

    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    merge = registry.load("merge-game")
    puzzle = merge.read(ROOT / "instances/merge_game/choice.txt")
    built = merge.formulations["compact"].build(puzzle, merge.default_params(), SolveOptions())
    result = cbc.solve(built, "mip", SolveOptions(time_limit=20, threads=1), tmp_path / "cbc.log")
    assert result.status.has_solution and not list(folder.iterdir()), list(folder.iterdir())


def test_cbc_works_in_a_temporary_folder_whose_path_has_a_space(tmp_path):
    """PuLP splits CBC's command line on white space, and its files sit in the temporary folder: with
    TMPDIR="/tmp/space dir" every CBC solve (solve, bench, queens, verify --reprove) was an error."""
    import os
    import subprocess
    import sys

    spaced = tmp_path / "space dir"
    spaced.mkdir()
    cert = tmp_path / "c.json"
    done = subprocess.run(
        [sys.executable, "-m", "mipgames", "solve", str(ROOT / "instances/merge_game/choice.txt"), "--solver", "cbc"]
        + ["--quiet", "--time-limit", "30", "--out", str(cert)],
        env={**os.environ, "TMPDIR": str(spaced)},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(cert.read_text())["status"] == "optimal" and not list(spaced.iterdir())


@pytest.mark.parametrize("solver", ["scip", "cbc"])
def test_the_largest_seed_is_taken_by_scip_and_cbc(solver, tmp_path, capsys):
    """--seed 2147483647 made SCIP fail (its rapid learning added to the seed shift and overflowed) and CBC drop
    the seed for its default without a word (it was passed as 2^31)."""
    from mipgames.cli import main

    log = tmp_path / "solver.log"
    args = ["solve", str(ROOT / "instances/merge_game/random-20x20.txt"), "--solver", solver, "--seed", "2147483647"]
    assert main([*args, "--quiet", "--solver-log", str(log), "--out", str(tmp_path / "c.json")]) == 0
    assert "status      optimal" in capsys.readouterr().out
    assert "valid range" not in log.read_text()


def test_options_that_reach_no_solver_say_so(tmp_path, capsys):
    """--warm-start passed unseen where the formulation builds no start and on algorithms, --threads passed
    unseen by solvers that run on one, and --threads 64 forked 64 SameGame workers on 2 cores (a 1 s board
    ended 'unknown' past the deadline's grace)."""
    from mipgames.cli import main
    from mipgames.run.execute import NO_START_BUILT, worker_threads

    def note(*args: str) -> str:
        assert main(["solve", *args, "--quiet", "--out", str(tmp_path / "c.json")]) == 0
        return capsys.readouterr().out

    merge = str(ROOT / "instances/merge_game/choice.txt")
    simple_map = str(ROOT / "instances/merge_game/vertical-simple.txt")  # the vertex-cover kernel: no start
    board = str(ROOT / "instances/samegame/random-4x4-k4-seed5.txt")
    assert NO_START_BUILT in note(simple_map, "--solver", "cbc", "--warm-start")
    assert "--warm-start was ignored" not in note(merge, "--solver", "cbc", "--warm-start")
    assert "exact takes no warm start: --warm-start was ignored" in note(board, "--solver", "exact", "--warm-start")
    assert "--warm-start was ignored" not in note(board, "--solver", "highs", "--warm-start")
    assert "glpk runs on one thread: --threads 3 was not used" in note(merge, "--solver", "glpk", "--threads", "3")
    assert "one thread" not in note(merge, "--solver", "scip", "--threads", "1")
    assert "one thread" not in note(merge, "--solver", "highs", "--threads", "3")
    cores = worker_threads(10**6)
    assert worker_threads(cores + 62) == cores and worker_threads(1) == 1
    assert "status      optimal" in note(board, "--threads", str(cores + 62), "--time-limit", "20")


@pytest.mark.parametrize("solver", ["cpsat", "lns"])
def test_count_is_refused_by_solvers_that_find_one_solution(solver, capsys):
    """--count on a model solver or a search that does not enumerate was ignored, the certificate saying count."""
    from mipgames.cli import main

    puzzle = str(ROOT / "instances/edge_matching/coursework_4x4.txt")
    assert main(["solve", puzzle, "--solver", solver, "--count", "--quiet"]) == 4
    assert (
        f"--count is counted by --solver portfolio or backtrack; {solver} finds one solution" in capsys.readouterr().err
    )


def test_a_solver_library_that_fails_to_load_is_not_called_missing(tmp_path, monkeypatch):
    """Under `ulimit -v` the solvers table and `solve --solver cpsat` said "ortools is not installed" when its
    library could not be mapped."""
    import sys

    from mipgames.backends.base import import_fault

    (tmp_path / "broken_solver_lib.py").write_text(
        "raise ImportError('libfoo.so: failed to map segment from shared object')\n"
    )
    (tmp_path / "needs_absent_lib.py").write_text("import no_such_dependency_xyz\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert import_fault("no_such_solver_xyz", "Xyz") == "Xyz is not installed"
    assert import_fault("json", "json") is None
    broken = import_fault("broken_solver_lib", "Broken")
    assert (
        broken is not None and broken.startswith("Broken is installed but cannot be loaded") and "map segment" in broken
    )
    absent = import_fault("needs_absent_lib", "Needs")
    assert absent is not None and absent.startswith("Needs is installed but cannot be loaded")
    sys.modules.pop("broken_solver_lib", None)
    sys.modules.pop("needs_absent_lib", None)
