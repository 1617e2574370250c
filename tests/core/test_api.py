"""The Python API: its documentation runs as doctests, and it shares the command line's defaults and claims."""

from __future__ import annotations

import doctest
import json
import re
from pathlib import Path

import pytest

import mipgames
from mipgames import registry
from mipgames.cli import main
from mipgames.core.errors import UsageError

ROOT = Path(__file__).resolve().parents[2]


def test_the_api_documentation_runs(monkeypatch):
    monkeypatch.chdir(ROOT)
    failed, attempted = doctest.testfile(str(ROOT / "docs/api.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert attempted > 5 and failed == 0


def test_api_defaults_are_the_command_lines(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    result = mipgames.solve("instances/queens/spec_example.txt")
    assert result.options.threads == 2 and result.options.time_limit == 60
    assert main(["solve", "instances/queens/spec_example.txt", "--json", "--out", str(tmp_path / "c.json")]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert (shown["status"], shown["objective"], shown["time_limit"]) == (result.status, result.objective, 60)
    assert shown["solver"] == result.solver == "portfolio"
    cert = json.loads((tmp_path / "c.json").read_text())
    assert result.options.memory_limit == cert["options"]["memory_limit"] > 0  # the API ran without one


def test_json_outputs_are_one_object_and_nothing_else(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    for argv in (["solvers", "--json"], ["problems", "--json"]):
        assert main(argv) == 0
        data = json.loads(capsys.readouterr().out)
        assert isinstance(data, dict) and data
    cert = tmp_path / "c.json"
    assert (
        main(["solve", "instances/edge_matching/coursework_4x4.txt", "--solver", "cpsat", "--json", "--out", str(cert)])
        == 0
    )
    assert json.loads(capsys.readouterr().out)["verified"] is True
    assert main(["verify", str(cert), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True


def test_logging_reaches_the_log_file_and_the_solver_log_is_kept_on_request(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    cert, log = tmp_path / "c.json", tmp_path / "toolkit.log"
    assert (
        main(
            [
                "solve",
                "instances/edge_matching/coursework_4x4.txt",
                "--solver",
                "cbc",
                "--quiet",
                "--keep-log",
                "--log",
                str(log),
                "--out",
                str(cert),
            ]
        )
        == 0
    )
    assert "reported optimal, claimed optimal" in log.read_text()
    assert "Result - Optimal solution found" in (tmp_path / "c.log").read_text()


def test_api_names_a_missing_file_and_a_certificate_that_is_no_object(tmp_path):
    """load() of a missing file said "cannot tell the problem from the path"; verify() of a list said "unknown
    problem 'None'"."""
    from mipgames import api
    from mipgames.core.errors import InputError, UsageError

    for call in (api.load, api.solve):
        with pytest.raises(InputError, match="no such instance"):
            call(tmp_path / "gone.txt")
    for limits in ({"time_limit": 1e300}, {"time_limit": 10**400}, {"memory_limit": 10**30}):
        with pytest.raises(UsageError):  # an OverflowError of the clock or of setrlimit, and a traceback, before
            api.solve(ROOT / "instances/queens/spec_example.txt", solver="cpsat", **limits)
    for limits, says in (  # 3e9 + 0.5 bytes ran, and its certificate failed verify (memory_limit not an integer)
        ({"memory_limit": 3e9 + 0.5}, "memory limit must be a whole number of bytes, got 3000000000.5"),
        ({"time_limit": "5"}, "time limit must be a finite number, got '5'"),  # was "got 5"
    ):
        with pytest.raises(UsageError, match=re.escape(says)):
            api.solve(ROOT / "instances/queens/spec_example.txt", solver="levels", **limits)
    result = api.solve(ROOT / "instances/queens/spec_example.txt", solver="levels", memory_limit=3e9)
    assert result.certificate["options"]["memory_limit"] == 3_000_000_000 and api.verify(result.certificate).ok
    for junk in ([1, 2], None, 3.5):
        check = api.verify(junk)  # type: ignore[arg-type]
        assert not check.ok and check.reasons == [f"a certificate is a JSON object, not {type(junk).__name__}"]
    for fields, reason in (  # a dict without a problem said "unknown problem 'None'"
        ({"a": 1}, "the certificate names no problem (field problem)"),
        ({"problem": 7}, "the certificate names no problem (field problem)"),
        ({"problem": "chess"}, "unknown problem 'chess'"),
    ):
        assert api.verify(fields).reasons == [reason]


def test_api_params_are_checked_as_a_certificate_records_them():
    """params={"destroy_all": "false"} solved as destroy_all on, and a misspelt name was dropped; the certificate
    returned then failed verify.  Both are refused before the solve now."""
    from mipgames import api
    from mipgames.core.errors import UsageError

    choice = ROOT / "instances/merge_game/choice.txt"
    for params, says in (
        ({"destroy_all": "false"}, "destroy_all has a value of the wrong type"),
        ({"destroy_al": True}, "'destroy_al' is not a parameter of merge-game"),
        ("destroy_all", "params are a mapping"),
    ):
        with pytest.raises(UsageError, match=says):
            api.solve(choice, solver="cpsat", params=params)  # type: ignore[arg-type]
    result = api.solve(choice, solver="cpsat", params={"destroy_all": False})
    assert result.status.value == "optimal" and api.verify(result.certificate).ok


def test_api_params_take_the_command_lines_spelling():
    """{"frame_colour": "none"}, as docs/edge_matching.md spells --frame-colour none, was refused as the wrong
    type: a string given to a parameter that is no switch is now read as its flag's text is."""
    from mipgames import api
    from mipgames.core.errors import UsageError

    puzzle = ROOT / "instances/edge_matching/coursework_4x4.txt"
    for spelt in ("none", None):
        result = api.solve(puzzle, solver="backtrack", threads=1, params={"frame_colour": spelt, "mode": "optimize"})
        params = result.certificate["params"]
        assert params["frame_colour"] is None and params["mode"] == "optimise"
        assert api.verify(result.certificate).ok
    board = ROOT / "instances/samegame/random-3x3-k2-seed1.txt"
    result = api.solve(board, solver="nrpa", threads=1, params={"node_budget": "500"})
    assert result.certificate["params"]["node_budget"] == 500
    with pytest.raises(UsageError, match=r"^params: node_budget: not an integer from 0 to \d+: 'many'$"):
        api.solve(board, solver="nrpa", params={"node_budget": "many"})


def test_an_instance_object_gets_the_checks_its_file_would():
    """solve() of a Queens object with K = -3 answered "infeasible"; a board of 3s or of None reached the
    solver.  An object is read back through its JSON form (what verify reads) before the solve."""
    import dataclasses

    from mipgames import api
    from mipgames.core.errors import InputError

    queens = api.load(ROOT / "instances/queens/spec_example.txt")
    merge = api.load(ROOT / "instances/merge_game/choice.txt")
    for bad, says in (
        (dataclasses.replace(queens, k=-3), "k must be between 0"),
        (dataclasses.replace(queens, board=[[3] * 8] * 8), "neither 0 nor a power of two"),
        (dataclasses.replace(queens, board=None), "not a queens instance"),
        (dataclasses.replace(merge, width=-1), "width must be between"),
        (dataclasses.replace(merge, attack="sideways"), "bad attack vector"),
    ):
        with pytest.raises(InputError, match=says):
            api.solve(bad, solver="cpsat", time_limit=10)
    result = api.solve(queens, solver="cpsat", time_limit=30)
    assert result.status.value == "optimal" and result.objective == 1 and api.verify(result.certificate).ok


SMALL = {
    "edge-matching": "instances/edge_matching/coursework_4x4.txt",
    "samegame": "instances/samegame/random-3x3-k2-seed1.txt",
    "merge-game": "instances/merge_game/vertical-simple.txt",  # set-cover models MERGE-GAME-SIMPLE only
    "queens": "instances/queens/planted_n8_k1_q13_s1.txt",
}


@pytest.mark.parametrize(
    "problem, formulation",
    [(p, f) for p in SMALL for f in registry.load(p).formulations],
)
def test_a_built_model_solved_outside_the_toolkit_decodes_to_the_optimum_the_toolkit_proves(problem, formulation):
    """build() hands a researcher the model the runner solves: solved by PuLP's HiGHS or by a CP-SAT solver of
    their own, decoded and replayed, it reaches the optimum the problem's default solver proves."""
    import pulp
    from ortools.sat.python import cp_model

    path = ROOT / SMALL[problem]
    model = mipgames.build(path, formulation=formulation, params={"minimise": True} if problem == "queens" else {})
    if model.kind == "mip":
        assert isinstance(model.model, pulp.LpProblem)
        assert model.model.solve(pulp.HiGHS(msg=False, threads=1)) == pulp.LpStatusOptimal
        solution = model.decode()
    else:
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        assert solver.solve(model.model) == cp_model.OPTIMAL
        solution = model.decode(solver.value)
    verdict = model.replay(solution)
    proved = mipgames.solve(path, threads=1, params=model.params)
    assert proved.status.value == "optimal"
    assert verdict.legal and verdict.objective == proved.objective
    if model.optimises:
        value = pulp.value(model.model.objective) if model.kind == "mip" else solver.objective_value
        assert model.objective(value) == pytest.approx(proved.objective)


def test_build_refuses_what_solve_refuses_and_a_cpsat_model_needs_its_solver():
    with pytest.raises(UsageError, match="unknown formulation 'nope'"):
        mipgames.build(ROOT / SMALL["merge-game"], formulation="nope")
    with pytest.raises(UsageError, match="'x' is not a parameter of merge-game"):
        mipgames.build(ROOT / SMALL["merge-game"], params={"x": 1})
    model = mipgames.build(ROOT / SMALL["queens"], formulation="forest")
    with pytest.raises(UsageError, match=r"decode\(solver.value\)"):
        model.decode()


def test_render_draws_a_result_a_certificate_or_an_instance_and_never_an_unverified_solution(tmp_path):
    """mipgames.render is the command line's render: a solution is drawn only after verify accepts it."""
    from mipgames.core.errors import InputError

    result = mipgames.solve(ROOT / "instances/queens/spec_example.txt", solver="levels", threads=1, isolate=False)
    cert = tmp_path / "c.json"
    cert.write_text(json.dumps(result.certificate))
    board = ROOT / "instances/samegame/random-3x3-k2-seed1.txt"
    for what, name in (
        (result, "result.png"),
        (result.certificate, "dict.svg"),
        (cert, "file.pdf"),
        (board, "board.png"),
        (mipgames.load(board), "object.png"),
    ):
        drawn = mipgames.render(what, tmp_path / name)
        assert drawn == tmp_path / name and drawn.stat().st_size > 500
    assert (tmp_path / "result.png").read_bytes()[:4] == b"\x89PNG"
    with pytest.raises(InputError, match="does not verify: claimed objective 5 but the replay measures 1"):
        mipgames.render(dict(result.certificate, objective=5), tmp_path / "forged.png")
    with pytest.raises(UsageError, match="a drawing is written as"):
        mipgames.render(result, tmp_path / "x.txt")
    assert not (tmp_path / "forged.png").exists() and not (tmp_path / "x.txt").exists()


def test_generate_takes_the_command_lines_options_as_keywords_and_checks_them_alike(tmp_path, capsys):
    """mipgames.generate is `mipgames generate`: the same instance for the same options and seed."""
    planted = mipgames.generate("queens", n=12, k=2, moves=23, seed=4)
    assert (
        main(
            [
                "generate",
                "queens",
                "--n",
                "12",
                "--k",
                "2",
                "--moves",
                "23",
                "--seed",
                "4",
                "-o",
                str(tmp_path / "q.txt"),
            ]
        )
        == 0
    )
    capsys.readouterr()
    assert mipgames.load(tmp_path / "q.txt", "queens").board == planted.board and len(planted.planted) == 23
    framed = mipgames.generate("edge-matching", rows=4, frame=True, rim_colours=2, inner_colours=3, seed=2)
    assert framed.frame and mipgames.solve(framed, solver="backtrack", threads=1, isolate=False).objective == 0
    for options, says in (
        ({"n": 0}, "generate queens: argument --n: must be from 1 to 128, got 0"),
        ({"size": 3}, "generate queens: unrecognized arguments: --size 3"),
        ({"n": 8, "moves": 400}, "do not fit on a 8x8 board"),
    ):
        with pytest.raises(UsageError, match=re.escape(says)):
            mipgames.generate("queens", **options)
    # a map returned, not written: any types and hp (it was refused for "standard output", which the API lacks)
    many = mipgames.generate("merge-game", size=10, heroes=60, types=30, hp_min=12, hp_max=20, seed=1)
    assert max(h.type for h in many.heroes) > 26 and min(s.hp for s in many.stones) >= 12
    assert main(["generate", "merge-game", "--size", "6", "--types", "30", "--seed", "1"]) == 4  # an ASCII map
    assert "write -o FILE.json instead" in capsys.readouterr().err


def test_a_problem_is_named_in_any_capitals_but_a_certificate_names_it_exactly():
    """--problem SameGame was "unknown problem"; a certificate's problem field stays exact (verify rejects it)."""
    assert registry.load("SameGame").name == "samegame"
    with pytest.raises(UsageError, match="a problem is named by a string"):  # problem=3 raised AttributeError
        mipgames.solve(ROOT / SMALL["samegame"], problem=3)  # type: ignore[arg-type]
    assert registry.load(" Edge-Matching ").name == registry.load("EDGE_MATCHING").name == "edge-matching"
    result = mipgames.solve(ROOT / SMALL["samegame"], problem="SAMEGAME", solver="exact", threads=1, isolate=False)
    assert result.certificate["problem"] == "samegame"
    assert mipgames.verify(dict(result.certificate, problem="SameGame")).reasons == ["unknown problem 'SameGame'"]


def test_progress_reaches_a_python_callback_and_a_failing_one_leaves_no_solver_behind(tmp_path):
    """The command line showed incumbent, bound and elapsed time while a solve ran; Python saw nothing until the
    end.  A callback that raises stops the solve with its exception, and no solver process outlives it."""
    import psutil

    board = tmp_path / "b.txt"
    assert (
        main(
            ["generate", "samegame", "--rows", "12", "--cols", "12", "--colours", "4", "--seed", "3", "-o", str(board)]
        )
        == 0
    )
    seen: list[tuple[float, float | None, float | None]] = []
    options = dict(problem="samegame", solver="nrpa", threads=1, params={"objective": "score"})
    result = mipgames.solve(board, time_limit=3, progress=lambda *report: seen.append(report), **options)
    assert result.status.value == "feasible" and len(seen) >= 3
    assert [t for t, _, _ in seen] == sorted(t for t, _, _ in seen)
    assert any(incumbent is not None and 0 < incumbent <= result.objective for _, incumbent, _ in seen)

    def failing(elapsed: float, incumbent: float | None, bound: float | None) -> None:
        if elapsed > 0.5:
            raise KeyboardInterrupt

    before = {child.pid for child in psutil.Process().children(recursive=True)}  # the suite's own helpers
    with pytest.raises(KeyboardInterrupt):
        mipgames.solve(board, time_limit=30, progress=failing, **options)
    left = [child for child in psutil.Process().children(recursive=True) if child.pid not in before]
    assert not psutil.wait_procs(left, timeout=5)[1]


def test_hostile_python_values_get_the_toolkit_s_own_answers(tmp_path):
    """An audit of the API: malformed solutions reached the merge-game and SameGame simulators (raw TypeError,
    KeyError); a SameGame cell of -5 and a set in a merge map's meta passed the instance check and failed later, a
    queens board of lists failed in the solver; progress=3 and render(..., None) were raw TypeErrors; a
    certificate nested 1,000 deep was a RecursionError."""
    from dataclasses import replace

    from mipgames.core.errors import InputError

    merge = mipgames.build(str(ROOT / "instances/merge_game/choice.txt"))
    same = mipgames.build(str(ROOT / "instances/samegame/random-3x3-k2-seed1.txt"))
    for model, junk in ((merge, None), (merge, "x"), (merge, [(1.5, 0)]), (same, 1), (same, {"a": 1})):
        verdict = model.replay(junk)
        assert not verdict.legal and verdict.reason.startswith("not a solution"), (junk, verdict)
    assert merge.replay([(0, 1)]).legal

    board = mipgames.load(str(ROOT / "instances/samegame/random-3x3-k2-seed1.txt"))
    queens = mipgames.load(str(ROOT / "instances/queens/spec_example.txt"))
    mapped = mipgames.load(str(ROOT / "instances/merge_game/choice.txt"))
    mapped.meta["note"] = {1, 2}
    for bad, said in (
        (replace(board, cells=((0, 0, -5), (0, 1, 1), (1, 1, 0))), "a cell holds"),
        (mapped, "not JSON serializable"),
    ):
        with pytest.raises(InputError, match=said):
            mipgames.solve(bad, time_limit=5)
    listed = mipgames.solve(replace(queens, board=[list(row) for row in queens.board]), time_limit=10)
    assert listed.status == "optimal" and listed.verified  # rows as lists are taken as tuples
    with pytest.raises(UsageError, match="progress must be a function"):
        mipgames.solve(queens, time_limit=5, progress=3)
    with pytest.raises(UsageError, match="output must be a path"):
        mipgames.render(queens, None)

    cert = mipgames.solve(queens, time_limit=10).certificate
    deep: list = []
    for _ in range(1000):
        deep = [deep]
    check = mipgames.verify({**cert, "stats": deep})
    assert not check.ok and "nested too deeply" in check.reasons[0]
    assert mipgames.verify(cert).ok


def test_a_solver_that_cannot_re_prove_is_refused_before_the_verdict(tmp_path, capsys):
    cert = tmp_path / "c.json"
    assert main(["solve", str(ROOT / "instances/queens/spec_example.txt"), "--quiet", "--out", str(cert)]) == 0
    capsys.readouterr()
    assert main(["verify", str(cert), "--reprove", "theorem3"]) == 4
    out, err = capsys.readouterr()
    assert out == "" and "--reprove needs a model solver" in err


def test_decode_holds_the_values_it_reads_to_finite_numbers():
    """decode(lambda v: None) and NaN reached the merge-game decoder as raw TypeError and ValueError."""
    import numpy as np

    from mipgames.core.errors import InputError

    model = mipgames.build(str(ROOT / "instances/merge_game/choice.txt"))
    for reader in (lambda v: None, lambda v: float("nan"), lambda v: "1"):
        with pytest.raises(InputError, match="must be a finite number"):
            model.decode(reader)
    with pytest.raises(UsageError, match="values must be a function"):
        model.decode(3)
    assert model.replay(model.decode(lambda v: np.int64(0))).legal  # numpy's numbers are numbers
