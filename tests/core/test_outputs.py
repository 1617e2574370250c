"""What the toolkit writes besides certificates: exported models that other solvers read as the toolkit does,
drawings written like every other output, and outputs that never overwrite each other or the input."""

from __future__ import annotations

import dataclasses
import json
import re
import time
from pathlib import Path

import pytest

from mipgames import __version__
from mipgames.cli import main

ROOT = Path(__file__).resolve().parents[2]
MERGE = str(ROOT / "instances/merge_game/random-10x10.txt")


def _highs_optimum(path: Path) -> float:
    import highspy

    highs = highspy.Highs()
    highs.setOptionValue("output_flag", False)
    highs.readModel(str(path))
    highs.run()
    return highs.getInfo().objective_function_value


def _glpk_optimum(path: Path) -> float:
    import swiglpk as glp

    lp = glp.glp_create_prob()
    try:
        glp.glp_term_out(glp.GLP_OFF)
        read = glp.glp_read_lp if path.suffix == ".lp" else glp.glp_read_mps
        args = (lp, None, str(path)) if path.suffix == ".lp" else (lp, glp.GLP_MPS_FILE, None, str(path))
        assert read(*args) == 0, path
        params = glp.glp_iocp()
        glp.glp_init_iocp(params)
        params.presolve = glp.GLP_ON
        assert glp.glp_intopt(lp, params) == 0
        return glp.glp_mip_obj_val(lp)
    finally:
        glp.glp_delete_prob(lp)


def test_exported_models_give_other_solvers_the_toolkits_optimum(capsys, tmp_path):
    """The .mps of a maximising model had no sense every reader honours: HiGHS, GLPK and CBC minimised it and
    found 0 stones where the optimum destroys 8.  It is now the minimisation of the negated objective."""
    cert = tmp_path / "c.json"
    assert main(["solve", MERGE, "--solver", "highs", "--quiet", "--out", str(cert), "--threads", "1"]) == 0
    optimum = json.loads(cert.read_text())["objective"]
    assert optimum > 0
    assert main(["export", MERGE, "--formulation", "compact", "-d", str(tmp_path)]) == 0
    capsys.readouterr()
    lp, mps = tmp_path / "random-10x10.compact.lp", tmp_path / "random-10x10.compact.mps"
    assert mps.read_text().startswith("* mipgames: the model maximises")
    for read in (_highs_optimum, _glpk_optimum):
        assert read(lp) == pytest.approx(optimum)
        assert read(mps) == pytest.approx(-optimum)


@pytest.mark.parametrize(
    "instance, solver, model",
    [("instances/merge_game/choice.txt", "theorem3", "x.lp"), ("instances/queens/spec_example.txt", None, "x.pb")],
)
def test_an_algorithm_exports_no_model_and_says_so_before_solving(instance, solver, model, capsys, tmp_path):
    """It once printed "model x.lp" and wrote no file."""
    target = tmp_path / model
    extra = ["--solver", solver] if solver else []
    assert main(["solve", str(ROOT / instance), *extra, "--export-model", str(target), "--quiet"]) == 4
    assert "builds no model to export" in capsys.readouterr().err
    assert not target.exists()


def test_drawings_follow_the_output_rules(capsys, tmp_path):
    cert = tmp_path / "c.json"
    instance = str(ROOT / "instances/merge_game/choice.txt")
    base = ["solve", instance, "--solver", "highs", "--quiet", "--threads", "1"]
    # a suffix no renderer writes was found after the solve ("internal error: ValueError")
    assert main([*base, "--out", str(cert), "--render", str(tmp_path / "r.json")]) == 4
    assert "a drawing is written as .png, .pdf, .svg" in capsys.readouterr().err and not cert.exists()
    # a missing directory ("internal error: FileNotFoundError") is made, as for --out
    deep = tmp_path / "new" / "dir" / "r.png"
    assert main([*base, "--out", str(cert), "--render", str(deep)]) == 0
    assert deep.read_bytes().startswith(b"\x89PNG")
    # matplotlib wrote foo.png through a link where --render foo was checked, and render -o never checked
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    (tmp_path / "link.png").symlink_to(victim)
    assert main(["render", str(cert), "-o", str(tmp_path / "link.png")]) == 4
    assert main(["render", str(cert), "-o", str(tmp_path / "foo")]) == 4  # it printed foo and wrote foo.png
    assert victim.read_text() == "keep me" and not (tmp_path / "foo.png").exists()
    for suffix, magic in ((".svg", b"<?xml"), (".pdf", b"%PDF")):
        drawing = tmp_path / f"d{suffix}"
        assert main(["render", str(cert), "-o", str(drawing)]) == 0
        assert drawing.read_bytes().startswith(magic)
    assert not [p for p in tmp_path.rglob("*.tmp*")]


def test_a_certificate_whose_params_are_refused_still_draws_its_instance(capsys, tmp_path):
    """render read the params that verify had rejected: "internal error: ValueError: bad attack vector"."""
    cert = tmp_path / "c.json"
    main(["solve", str(ROOT / "instances/merge_game/choice.txt"), "--quiet", "--out", str(cert), "--threads", "1"])
    data = json.loads(cert.read_text())
    data["params"]["attack"] = "zzz"
    cert.write_text(json.dumps(data))
    drawing = tmp_path / "d.png"
    assert main(["render", str(cert), "-o", str(drawing)]) == 1  # drawn, but the certificate is rejected
    assert "does not verify" in capsys.readouterr().err and drawing.exists()


def test_an_edited_certificate_never_has_its_solution_drawn(capsys, tmp_path, monkeypatch):
    """render drew a certificate whose claim was edited, solution and all, with a warning and exit 0."""
    from mipgames.edge_matching import render

    cert = tmp_path / "c.json"
    main(["solve", str(ROOT / "instances/edge_matching/coursework_4x4.txt"), "--quiet", "--out", str(cert)])
    data = json.loads(cert.read_text())
    data["objective"] = 3.0
    cert.write_text(json.dumps(data))
    drawn = []
    monkeypatch.setattr(render, "render", lambda instance, params, solution, path: drawn.append(solution))
    assert main(["render", str(cert), "-o", str(tmp_path / "d.png")]) == 1
    assert drawn == [None] and "drawing its instance alone" in capsys.readouterr().err


def test_an_output_named_twice_or_like_the_input_is_refused(capsys, tmp_path):
    """--out X --solver-log X lost the log; --out INSTANCE replaced the instance."""
    instance = tmp_path / "choice.txt"
    instance.write_text((ROOT / "instances/merge_game/choice.txt").read_text())
    kept = instance.read_text()
    same = tmp_path / "same"
    solve = ["solve", str(instance), "--problem", "merge-game", "--quiet"]
    for outputs in (["--out", str(same), "--solver-log", str(same)], ["--out", str(instance)]):
        assert main([*solve, *outputs]) == 4
        assert "name each output once, apart from the input" in capsys.readouterr().err
    assert instance.read_text() == kept and not same.exists()


def test_an_output_that_cannot_be_written_is_refused_before_the_solve(capsys, tmp_path, monkeypatch):
    """--out /proc/x/cert.json solved to the end and only then failed to write its certificate."""
    import mipgames.run.runner as runner

    def no_solve(*args, **kwargs):
        raise AssertionError("solved although the output could not be written")

    monkeypatch.setattr(runner, "solve", no_solve)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n")
    solve = ["solve", MERGE, "--problem", "merge-game", "--quiet"]
    cases = [
        (["--out", str(blocker / "cert.json")], "cannot write here"),
        (["--export-model", str(blocker / "model.lp")], "cannot write here"),
        (["--render", str(blocker / "board.png")], "cannot write here"),
        (["--out", str(tmp_path)], "only a regular file is replaced"),
    ]
    if Path("/proc/self").is_dir():  # a pseudo file system takes no new file, whoever asks
        cases.append((["--out", "/proc/mipgames-test/cert.json"], "cannot write here"))
    if Path("/dev/full").exists():
        cases.append((["--solver-log", "/dev/full"], "only a regular file is replaced"))
    for outputs, says in cases:
        assert main([*solve, *outputs]) == 4, outputs
        assert says in capsys.readouterr().err, outputs
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]  # the trial writes left nothing


def test_a_warm_start_the_solver_cannot_take_is_named(capsys, tmp_path):
    instance = str(ROOT / "instances/samegame/random-4x4-k3-seed4.txt")
    args = ["solve", instance, "--solver", "glpk", "--warm-start", "--time-limit", "3", "--quiet"]
    main([*args, "--out", str(tmp_path / "c.json")])
    assert "glpk takes no warm start: --warm-start was ignored" in capsys.readouterr().out


def test_an_algorithms_solver_log_says_why_it_holds_nothing(capsys, tmp_path):
    """--solver-log with an algorithm left an empty file, read as a lost log."""
    log = tmp_path / "solver.log"
    instance = str(ROOT / "instances/merge_game/choice.txt")
    args = ["solve", instance, "--solver", "theorem3", "--solver-log", str(log), "--quiet"]
    assert main([*args, "--out", str(tmp_path / "c.json")]) == 0
    assert "theorem3 is an algorithm of mipgames: it writes no solver log" in log.read_text()


def test_a_log_named_like_an_input_or_an_output_is_refused_before_it_is_opened(capsys, tmp_path):
    """`render victim.txt --log victim.txt` emptied the instance before reading it (the log is opened first);
    a log in a folder that does not exist printed a Python traceback."""
    victim = tmp_path / "victim.txt"
    victim.write_text((ROOT / "instances/queens/spec_example.txt").read_text())
    kept = victim.read_text()
    for args in (
        ["render", str(victim), "--problem", "queens", "-o", str(tmp_path / "v.png"), "--log", str(victim)],
        ["--log", str(victim), "solve", str(victim), "--problem", "queens", "--quiet"],
        ["solve", str(victim), "--problem", "queens", "--quiet", "--out", str(tmp_path / "c.json"), "--log"]
        + [str(tmp_path / "c.json")],
    ):
        assert main(args) == 4, args
        assert "--log" in capsys.readouterr().err
    assert victim.read_text() == kept
    args = ["render", str(victim), "--problem", "queens", "-o", str(tmp_path / "v.png")]
    assert main([*args, "--log", str(victim / "x.log")]) == 4  # under a file: no folder can be made there
    assert "cannot write here" in capsys.readouterr().err
    assert main([*args, "--log", str(tmp_path / "x.log")]) == 0 and (tmp_path / "x.log").exists()
    made = tmp_path / "no" / "such" / "x.log"  # a folder that does not exist is made, as --out's are
    assert main([*args, "--log", str(made)]) == 0 and made.exists()


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_standard_output_is_an_output_error_not_an_internal_one(tmp_path):
    """`mipgames generate samegame > /dev/full` said "internal error: OSError" and exit 1."""
    import subprocess
    import sys

    for args in (["generate", "samegame", "--seed", "1"], ["problems"]):
        with open("/dev/full", "w") as full:
            done = subprocess.run(
                [sys.executable, "-m", "mipgames", *args], stdout=full, stderr=subprocess.PIPE, text=True, cwd=tmp_path
            )
        assert done.returncode == 4, (args, done.stderr)
        assert done.stderr.strip() == "mipgames: cannot write the output: No space left on device", done.stderr


def test_closed_streams_and_a_narrow_encoding_are_not_faults(tmp_path):
    """With stdout closed (`>&-`) a solve wrote its certificate and ended in a traceback (exit 1); with stderr
    closed it said "internal error" and solved nothing; with an ASCII output `verify` could not print its dash and
    exited 1, which says "rejected"; `queens -` with stdin closed was an internal error."""
    import os
    import subprocess
    import sys

    spec = str(ROOT / "instances/queens/spec_example.txt")
    cert = tmp_path / "c.json"

    def run(args, **kw):
        return subprocess.run([sys.executable, "-m", "mipgames", *args], cwd=tmp_path, text=True, **kw)

    closed = run(
        ["solve", spec, "--out", str(cert)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        pass_fds=(),
        preexec_fn=lambda: os.close(1),
    )
    assert closed.returncode == 0 and closed.stderr == "" and json.loads(cert.read_text())["status"] == "optimal"
    cert.unlink()
    closed = run(
        ["solve", spec, "--out", str(cert)],
        capture_output=False,
        stdout=subprocess.PIPE,
        preexec_fn=lambda: os.close(2),
    )
    assert closed.returncode == 0 and "status      optimal" in closed.stdout, closed.stdout
    ascii_env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    done = run(["verify", str(cert)], capture_output=True, env=ascii_env)
    assert done.returncode == 0 and ": OK \\u2014 queens instance" in done.stdout, (done.stdout, done.stderr)
    done = run(["--help"], capture_output=True, env=ascii_env)
    assert done.returncode == 0 and "\\xd7" in done.stdout and done.stderr == ""
    done = run(["queens", "-"], capture_output=True, preexec_fn=lambda: os.close(0))
    assert done.returncode == 4 and "empty input" in done.stderr and "Traceback" not in done.stderr


def test_file_names_are_printed_without_their_control_characters(capsys, tmp_path):
    """A file named "x\\nstatus      infeasible\\x1b[31m.txt" forged a status line and a terminal escape in the
    solve's summary, verify's line and every input error; a 5,000-character name was quoted whole."""
    forged = tmp_path / "x\nstatus      infeasible\x1b[31m.txt"
    forged.write_text((ROOT / "instances/queens/spec_example.txt").read_text())
    cert = tmp_path / "c\x1b[2J.json"
    assert main(["solve", str(forged), "--problem", "queens", "--quiet", "--out", str(cert)]) == 0
    assert main(["verify", str(cert)]) == 0
    bad = tmp_path / ("b\x1b[31m" + "y" * 200 + ".txt")
    bad.write_text("8\nx\n")
    assert main(["solve", str(bad), "--problem", "queens"]) == 4
    out, err = capsys.readouterr()
    for text in (out, err):
        assert "\x1b" not in text
    statuses = [line for line in out.splitlines() if line.startswith("status")]
    assert len(statuses) == 1 and statuses[0].startswith("status      optimal"), statuses
    message = err.strip().splitlines()[-1]
    assert message.endswith(".txt:2: K must be an integer, got 'x'") and len(message) < 250, message


def test_outputs_are_checked_before_the_solve_and_a_folder_name_is_no_file(capsys, tmp_path, monkeypatch):
    """`--out afile/` replaced the file afile (Path drops the slash); with no --out, an unwritable working folder
    was found after the whole solve ("certificate NOT WRITTEN"); a MemoryError while reading blamed the input."""
    from mipgames import cli
    from mipgames.core.errors import MipgamesError

    spec = str(ROOT / "instances/queens/spec_example.txt")
    kept = tmp_path / "afile"
    kept.write_text("mine")
    assert main(["solve", spec, "--quiet", "--out", f"{kept}/"]) == 4
    assert "names a folder" in capsys.readouterr().err and kept.read_text() == "mine"
    assert main(["solve", spec, "--quiet", "--export-model", ""]) == 4  # it named "." a directory
    assert "an output's name is empty" in capsys.readouterr().err
    (tmp_path / "out").write_text("a file where the default folder goes")
    monkeypatch.chdir(tmp_path)
    began = time.monotonic()
    assert main(["solve", spec, "--quiet", "--solver", "cpsat", "--time-limit", "30"]) == 4
    assert time.monotonic() - began < 10 and "certificates go there unless --out" in capsys.readouterr().err

    def exhausted(path):
        raise MemoryError

    problem = dataclasses.replace(cli.registry.load("queens"), read=exhausted)
    try:
        cli.read_instance(problem, spec)
    except MipgamesError as exc:
        assert exc.exit_code == 1 and "out of memory while reading" in str(exc), str(exc)
    else:
        raise AssertionError("a MemoryError passed")


def test_a_reproofs_limits_are_refused_before_the_certificate_is_called_ok(capsys, tmp_path):
    """`verify CERT --reprove --time-limit 1e30` printed "OK" and then refused the limit; a memory limit too
    large was named in bytes (1.15292e+18 against 10995115178248372224)."""
    cert = tmp_path / "c.json"
    assert main(["solve", str(ROOT / "instances/queens/spec_example.txt"), "--quiet", "--out", str(cert)]) == 0
    capsys.readouterr()
    assert main(["verify", str(cert), "--reprove", "--time-limit", "1e30"]) == 4
    out, err = capsys.readouterr()
    assert out == "" and "time limit must be at most" in err
    assert main(["verify", str(cert), "--reprove", "--memory-limit", "9999999T"]) == 4
    assert "must be at most 1,048,576 TiB, got 9,999,999 TiB" in capsys.readouterr().err
    # without --reprove the limits bound nothing: they were accepted silently
    assert main(["verify", str(cert), "--time-limit", "5"]) == 4
    out, err = capsys.readouterr()
    assert out == "" and "--time-limit only applies to a re-proof" in err
    assert main(["verify", str(cert), "--threads", "1", "--memory-limit", "1G"]) == 4
    assert "--threads and --memory-limit only apply to a re-proof" in capsys.readouterr().err
    assert main(["verify", str(cert)]) == 0
    capsys.readouterr()
    # `none` is solve's spelling of no limit, and a re-proof takes it too
    assert main(["verify", str(cert), "--reprove", "--quiet", "--time-limit", "none"]) == 0
    assert "re-proved by" in capsys.readouterr().out


def test_export_checks_every_target_before_it_writes_one(capsys, tmp_path):
    """A folder at the last model's path stopped `export` after three of four models were written."""
    spec = str(ROOT / "instances/queens/spec_example.txt")
    folder = tmp_path / "models"
    (folder / "spec_example.forest.pb").mkdir(parents=True)
    assert main(["export", spec, "-d", str(folder)]) == 4
    assert "only a regular file is replaced" in capsys.readouterr().err
    assert [p.name for p in folder.iterdir()] == ["spec_example.forest.pb"]
    assert main(["export", spec, "-d", str(folder), "--max-size", "0"]) == 4
    assert "positive finite number of megabytes" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("instance", "option"),
    [
        ("instances/edge_matching/coursework_4x4.txt", ["--count"]),
        ("instances/samegame/random-3x3-k2-seed1.txt", ["--beam-width", "5"]),
        ("instances/samegame/random-3x3-k2-seed1.txt", ["--node-budget", "7"]),
        ("instances/samegame/random-3x3-k2-seed1.txt", ["--level", "3"]),
    ],
)
def test_export_refuses_the_options_only_algorithms_read(instance, option, capsys, tmp_path):
    """`export --count` wrote the same models and named the switch in their headers, as if it had shaped them."""
    assert main(["export", str(ROOT / instance), "-d", str(tmp_path), *option]) == 4
    assert f"unrecognized arguments: {' '.join(option)}" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())
    assert main(["export", str(ROOT / instance), "-d", str(tmp_path), "--formulation", "cpsat"]) == 0


def test_count_given_to_a_solver_that_does_not_count_is_noted_by_the_api():
    from mipgames import api

    result = api.solve(str(ROOT / "instances/edge_matching/coursework_4x4.txt"), solver="cpsat", params={"count": True})
    assert "--count is not used by cpsat: ignored" in result.message


def test_huge_boards_are_drawn_in_part_or_refused_not_run_away(capsys, tmp_path):
    """A 100,000 x 100,000 merge map with three heroes (solved in 0.7 s) drew a figure of 18,000 inches and never
    finished; a 200 x 100 edge-matching board drew 80,000 triangles for minutes."""
    import matplotlib.image

    big = tmp_path / "big.json"
    big.write_text(
        json.dumps({"width": 100000, "height": 100000, "heroes": [[1, 1, 1], [2, 1, 1]], "stones": [[1, 2, 1]]})
    )
    assert main(["render", str(big), "--problem", "merge-game", "-o", str(tmp_path / "big.png")]) == 0
    assert max(matplotlib.image.imread(tmp_path / "big.png").shape[:2]) < 2000  # the corner that holds the pieces
    board = tmp_path / "em.txt"
    assert (
        main(["generate", "edge-matching", "--rows", "200", "--cols", "100", "--inner-colours", "5", "-o", str(board)])
        == 0
    )
    capsys.readouterr()
    assert main(["render", str(board), "--problem", "edge-matching", "-o", str(tmp_path / "em.png")]) == 4
    assert "too large to draw" in capsys.readouterr().err and not (tmp_path / "em.png").exists()


def test_render_tells_a_json_instance_from_a_certificate(capsys, tmp_path):
    """A merge map written as JSON was read as a certificate ("names no problem"), and a certificate given with
    --problem was read as a board ("N must be an integer, got '{'")."""
    game = tmp_path / "map.json"
    assert main(["generate", "merge-game", "--seed", "1", "-o", str(game)]) == 0
    assert main(["render", str(game), "--problem", "merge-game", "-o", str(tmp_path / "m.png")]) == 0
    cert = tmp_path / "c.json"
    assert main(["solve", MERGE, "--problem", "merge-game", "--quiet", "--out", str(cert)]) == 0
    capsys.readouterr()
    assert main(["render", str(cert), "--problem", "queens", "-o", str(tmp_path / "q.png")]) == 4
    assert "is a certificate of merge-game, not of queens" in capsys.readouterr().err
    assert main(["render", str(cert), "--problem", "merge-game", "-o", str(tmp_path / "c.png")]) == 0
    assert (
        main(
            ["export", MERGE.replace("merge_game/random-10x10", "edge_matching/coursework_4x4"), "-d"]
            + [str(tmp_path), "--frame-colour", "nan"]
        )
        == 4
    )
    assert "give none or a colour number" in capsys.readouterr().err


def test_a_model_cut_by_the_deadline_is_not_named_as_written(capsys, tmp_path):
    """A build the time limit stopped exported nothing, but the summary printed "model FILE" all the same."""
    instance, target = tmp_path / "q.txt", tmp_path / "q.mps"
    target.write_text("another model")  # written just before: the summary once took a fresh file for its own
    assert (
        main(["generate", "queens", "--n", "40", "--k", "2", "--moves", "148", "--seed", "1", "-o", str(instance)]) == 0
    )
    code = main(
        ["solve", str(instance), "--problem", "queens", "--solver", "cbc", "--time-limit", "1"]
        + ["--export-model", str(target), "--quiet", "--out", str(tmp_path / "c.json")]
    )
    out = capsys.readouterr().out
    # the child's alarm ends the build, or (an alarm lost in a garbage-collector callback that hypothesis installs
    # in this test process) the supervisor does, a grace later
    building = "while the model was being built" in out or "deadline while building the model" in out
    assert code == 3 and "model       NOT WRITTEN" in out and building, out
    assert target.read_text() == "another model"


def test_exported_models_read_as_the_toolkit_solves_them(capsys, tmp_path):
    """A decision model's LP/MPS read 16 on a 4x4 board (PuLP's writers drop the objective's constant), and a
    merge map with no stone in reach wrote an LP whose empty Subject To GLPK refuses."""
    edge = str(ROOT / "instances/edge_matching/coursework_4x4.txt")
    assert main(["export", edge, "--mode", "decision", "--formulation", "typed", "-d", str(tmp_path)]) == 0
    for suffix in (".lp", ".mps"):
        model = tmp_path / f"coursework_4x4.typed{suffix}"
        assert _highs_optimum(model) == pytest.approx(0) and _glpk_optimum(model) == pytest.approx(0)
    merge = str(ROOT / "instances/merge_game/two-types.txt")
    assert main(["export", merge, "--max-level", "1", "--formulation", "compact", "-d", str(tmp_path)]) == 0
    assert _glpk_optimum(tmp_path / "two-types.compact.lp") == pytest.approx(0)
    capsys.readouterr()
    for instance, extra in (
        (merge, ["--max-level", "1"]),
        (str(ROOT / "instances/merge_game/reduction-n12-yes.txt"), []),
    ):
        formulation = "compact" if extra else "set-cover"  # their rows' fixed variable is integer: CP-SAT takes them
        limit = ["--time-limit", "5"]  # an answer after 3 s here; CP-SAT proves the set cover itself after a minute
        limit += ["--out", str(tmp_path / "c.json")]  # not the checkout's out/
        code = main(["solve", instance, *extra, "--formulation", formulation, "--solver", "cpsat", "--quiet", *limit])
        out = capsys.readouterr().out
        taken = "status      optimal" in out or "status      feasible" in out
        assert code == 0 and taken and "verified    yes" in out, out


def test_a_model_files_header_maps_its_objective_to_the_toolkits_value(tmp_path):
    """On a SameGame board with tiles no move can take, the time-indexed model's objective has a constant, which
    PuLP's writers drop; the header still said "tiles remaining = this file's objective", and every solver of the
    file found one tile too few (5 where 6 remain)."""
    import re

    board = tmp_path / "lone.txt"
    board.write_text("12\n21\n13\n")  # no two alike side by side: all 6 tiles remain
    assert (
        main(["export", str(board), "--problem", "samegame", "--formulation", "time-indexed", "-d", str(tmp_path)]) == 0
    )
    for suffix in (".lp", ".mps"):
        model = tmp_path / f"lone.time-indexed{suffix}"
        line = next(text for text in model.read_text().splitlines() if "objective: tiles remaining" in text)
        found = re.search(r"= (?:(\S+) \+ )?this file's objective", line)
        assert found is not None, line
        assert float(found.group(1) or 0) + _highs_optimum(model) == pytest.approx(6), line
    log = tmp_path / "lone.time-indexed.lp"  # export took a --log named like a model it writes (solve refuses it)
    before = log.read_bytes()
    assert main(["export", str(board), "--problem", "samegame", "-d", str(tmp_path), "--log", str(log)]) == 4
    assert log.read_bytes() == before  # refused before the log was opened, which emptied the model


def test_models_readme_loads_a_cpsat_model_as_it_says(tmp_path):
    """models/README.md said a .pb was "for ortools.sat.python.cp_model", whose obvious calls fail on OR-Tools
    9.15: its Python block is run here on both forms of a model whose objective has an offset."""
    import re
    import textwrap

    board = tmp_path / "lone.txt"
    board.write_text("12\n21\n13\n")  # all 6 tiles remain
    assert main(["export", str(board), "--problem", "samegame", "--formulation", "cpsat", "-d", str(tmp_path)]) == 0
    pb = tmp_path / "lone.cpsat.pb"
    cert = str(tmp_path / "c.json")
    text = tmp_path / "lone.pbtxt"
    assert (
        main(
            ["solve", str(board), "--problem", "samegame", "--solver", "cpsat", "--export-model", str(text)]
            + ["--quiet", "--out", cert]
        )
        == 0
    )
    block = re.search(r"```python\n(.*?)```", (ROOT / "models/README.md").read_text(), re.S)
    assert block is not None
    code = textwrap.dedent(block.group(1)).replace('"x.pbtxt"', repr(str(text))).replace('"x.pb"', repr(str(pb)))
    scope: dict = {}
    exec(compile(code, "models/README.md", "exec"), scope)
    assert scope["solver"].objective_value == 6 and len(scope["model"].proto.variables) > 0


def test_an_export_cut_by_the_deadline_leaves_nothing_and_says_so(capsys, tmp_path, monkeypatch):
    """The export ran outside the deadline's alarm: the supervisor's kill left a 19 MB half-written hidden file
    beside the target, and the summary blamed the build."""
    import time as clock

    from mipgames.core.files import staged_output
    from mipgames.run import execute

    def slow_export(built, kind, path, max_bytes=None, header=()):
        with staged_output(path) as tmp:
            tmp.write_text("\\* half a model")
            clock.sleep(30)

    monkeypatch.setattr(execute, "export_model", slow_export)
    target = tmp_path / "m.lp"
    code = main(
        ["solve", MERGE, "--solver", "highs", "--time-limit", "2", "--export-model", str(target), "--quiet"]
        + ["--out", str(tmp_path / "c.json")]
    )
    out = capsys.readouterr().out
    assert "the time limit passed while the model was being exported" in out, out
    # the model's start, taken before the build, is the answer (it was `unknown`, exit 3, before starts were)
    assert code == 0 and "feasible" in out and "the model's start" in out, out
    assert "model       NOT WRITTEN" in out and sorted(p.name for p in tmp_path.iterdir()) == ["c.json"]


def test_a_model_written_before_the_solver_was_killed_is_named(capsys, tmp_path, monkeypatch):
    """A solver killed at the deadline (CBC in its root LP) took the child's word that the export had happened
    with it: "model NOT WRITTEN" stood beside the complete file."""
    import dataclasses
    import time as clock

    from mipgames.backends import highs

    def hang(*args):
        clock.sleep(60)

    monkeypatch.setattr(highs, "BACKEND", dataclasses.replace(highs.BACKEND, solve=hang))
    target = tmp_path / "m.lp"
    code = main(
        ["solve", MERGE, "--solver", "highs", "--time-limit", "1", "--export-model", str(target), "--quiet"]
        + ["--out", str(tmp_path / "c.json")]
    )
    out = capsys.readouterr().out
    assert "stopped at the 1 s deadline while solving" in out and f"model       {target}" in out, out
    assert code == 0 and "status      feasible" in out, out  # the model's start, which the parent holds
    assert target.read_text().rstrip().endswith("End")


def test_a_solver_killed_at_the_deadline_still_says_which_options_it_ignored(capsys, tmp_path, monkeypatch):
    """The child adds "--warm-start was ignored" to its own message, so a child the parent stopped at the
    deadline said nothing of it (CBC on a queens board; an audit found it): the notes are sent before solving."""
    import dataclasses
    import time as clock

    from mipgames.backends import glpk

    def hang(*args):
        clock.sleep(60)

    monkeypatch.setattr(glpk, "BACKEND", dataclasses.replace(glpk.BACKEND, solve=hang))
    args = ["solve", MERGE, "--solver", "glpk", "--time-limit", "1", "--warm-start", "--threads", "2", "--quiet"]
    assert main([*args, "--out", str(tmp_path / "c.json")]) == 0
    out = capsys.readouterr().out
    assert "stopped at the 1 s deadline while solving" in out, out
    assert "glpk takes no warm start: --warm-start was ignored" in out and "glpk runs on one thread" in out, out


def test_max_size_holds_for_the_file_as_written_and_text_protos_are_text(capsys, tmp_path):
    """The estimate (24 bytes a nonzero) let a 9.4 MB MPS through --max-size 5; a .TXT target got binary."""
    edge = str(ROOT / "instances/edge_matching/planted_5x5_frame.txt")
    assert main(["export", edge, "--formulation", "baseline", "--max-size", "1", "-d", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert "skipped planted_5x5_frame.baseline.mps" in err
    assert [p.name for p in tmp_path.iterdir()] == ["planted_5x5_frame.baseline.lp"]
    assert (tmp_path / "planted_5x5_frame.baseline.lp").stat().st_size <= 2**20
    proto = tmp_path / "m.TXT"
    instance = str(ROOT / "instances/merge_game/choice.txt")
    base = ["solve", instance, "--solver", "cpsat", "--formulation", "compact-cp", "--quiet"]
    assert main([*base, "--out", str(tmp_path / "c.json"), "--export-model", str(proto)]) == 0
    assert proto.read_text().lstrip().startswith("variables")


def test_a_model_file_says_what_it_is(capsys, tmp_path):
    """Files of one instance built with other parameters shared a name and said nothing of them, and set-cover's
    optimum (heroes) was not the toolkit's value (stones): the header names both."""
    from mipgames.core.certificate import sha256
    from mipgames.merge_game.problem import PROBLEM as MERGE_GAME

    reduction = ROOT / "instances/merge_game/reduction-n12-yes.txt"
    assert main(["export", str(reduction), "--formulation", "set-cover", "--target", "248", "-d", str(tmp_path)]) == 0
    capsys.readouterr()
    digest = sha256(MERGE_GAME.instance_to_json(MERGE_GAME.read(reduction)))
    for suffix, mark in ((".lp", "\\* "), (".mps", "* ")):
        head = (tmp_path / f"reduction-n12-yes.set-cover{suffix}").read_text().splitlines()[:4]
        assert head[0] == f"{mark}mipgames {__version__}: merge-game, formulation set-cover" + (
            " *\\" if suffix == ".lp" else ""
        )
        assert f"instance sha256 {digest}" in head[1] and "takes them: --target 248" in head[2]
        assert "stones destroyed (max) = 248 for every feasible solution" in head[3]
    edge = str(ROOT / "instances/edge_matching/coursework_4x4.txt")
    for given, said in (("0", "--mode optimise"), ("none", "--frame-colour none --mode optimise")):
        # 'frame_colour=None' was said to leave the instance's own setting: it is the puzzle without a frame
        out = tmp_path / given
        assert main(["export", edge, "--formulation", "typed", "--frame-colour", given, "-d", str(out)]) == 0
        assert (out / "coursework_4x4.typed.lp").read_text().splitlines()[2].endswith(f"takes them: {said} *\\")


def test_a_drawing_shows_only_a_verified_solution_and_says_what_it_shows(capsys, tmp_path):
    """--render asked beside a proof that no solution exists drew nothing and said nothing; it draws the
    instance and names it, and where a solution was replayed it draws that."""
    drawing = tmp_path / "d.png"
    unsolvable = str(ROOT / "instances/queens/unsolvable_n8_k1_q20_s1.txt")
    args = ["solve", unsolvable, "--solver", "levels", "--threads", "1", "--out", str(tmp_path / "c.json")]
    assert main([*args, "--render", str(drawing)]) == 2
    out = capsys.readouterr().out
    assert f"drawing     {drawing} (the instance: no verified solution to draw) in " in out, out
    assert "s, after the solve" in out  # timed apart: the limit covers the solve, not the drawing
    assert drawing.read_bytes().startswith(b"\x89PNG")
    assert main([*args, "--json", "--render", str(drawing)]) == 2
    assert json.loads(capsys.readouterr().out)["drawing"] == str(drawing)  # a path, with no prose in it
    solvable = str(ROOT / "instances/merge_game/choice.txt")
    args = ["solve", solvable, "--solver", "highs", "--threads", "1", "--out", str(tmp_path / "c.json"), "--json"]
    assert main([*args, "--render", str(drawing)]) == 0
    assert json.loads(capsys.readouterr().out)["drawing"] == str(drawing)


def test_a_map_too_large_to_draw_is_refused_at_once(capsys, tmp_path):
    """A 2,000 x 2,000 merge-game map (what `generate` makes) ran for minutes and took 3 GB before it was killed."""
    big = tmp_path / "big.txt"
    assert (
        main(["generate", "merge-game", "--size", "400", "--heroes", "50001", "--stones", "50000", "-o", str(big)]) == 0
    )
    assert main(["render", str(big), "--problem", "merge-game", "-o", str(tmp_path / "big.png")]) == 4
    assert "a map of 100,001 heroes and stones is too large to draw (at most 100,000 pieces)" in capsys.readouterr().err
    assert not (tmp_path / "big.png").exists()
    # `solve --render` refused it only after the solve (7.7 s on a 1000 x 1000 map), with its certificate written
    cert = tmp_path / "c.json"
    args = ["solve", str(big), "--problem", "merge-game", "--render", str(tmp_path / "big.png"), "--out", str(cert)]
    assert main(args) == 4
    assert "too large to draw (at most 100,000 pieces); nothing was solved" in capsys.readouterr().err
    assert not cert.exists() and not (tmp_path / "big.png").exists()
    board = tmp_path / "wide.txt"
    board.write_text("11 1000\n" + "1 1 1 1\n" * 11000)
    cert_args = ["--out", str(cert), "--render", str(tmp_path / "w.png")]
    assert main(["solve", str(board), "--problem", "edge-matching", *cert_args]) == 4
    assert "a 11x1000 board is too large to draw" in capsys.readouterr().err and not cert.exists()


def test_the_json_summary_carries_the_options_and_one_log_option_is_taken(capsys, tmp_path):
    """--json had the time limit but not threads, gap, seed, warm start or memory limit (the certificate has them);
    --keep-log beside --solver-log FILE was dropped without a word."""
    choice = str(ROOT / "instances/merge_game/choice.txt")
    args = ["solve", choice, "--threads", "1", "--seed", "3", "--gap", "0.5", "--out", str(tmp_path / "c.json")]
    assert main([*args, "--json"]) == 0
    options = json.loads(capsys.readouterr().out)["options"]
    assert options == json.loads((tmp_path / "c.json").read_text())["options"]
    assert (options["threads"], options["seed"], options["gap"]) == (1, 3, 0.5)
    assert main([*args, "--keep-log", "--solver-log", str(tmp_path / "s.log")]) == 4
    assert "give one" in capsys.readouterr().err and not (tmp_path / "s.log").exists()


def test_a_reader_closing_the_pipe_leaves_the_exit_code_the_verdicts(tmp_path):
    """`verify --json forged.json | head -1` exited 0, the code of an accepted certificate, when the pipe closed
    before the output was written; it must stay 1 whenever the reader goes."""
    import subprocess
    import sys

    spec = str(ROOT / "instances/queens/spec_example.txt")
    cert = tmp_path / "c.json"
    assert main(["solve", spec, "--out", str(cert), "--quiet"]) == 0
    data = json.loads(cert.read_text())
    data["objective"] = 0  # one queen remains
    cert.write_text(json.dumps(data))
    done = subprocess.Popen(
        [sys.executable, "-m", "mipgames", "verify", "--json", str(cert)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert done.stdout is not None
    done.stdout.close()  # the reader is gone before the first line
    assert done.wait(timeout=60) == 1


def test_a_loop_of_links_as_a_path_is_a_usage_error(capsys, tmp_path):
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    spec = str(ROOT / "instances/queens/spec_example.txt")
    for argv in (
        ["solve", str(tmp_path / "a"), "--problem", "queens", "--out", str(tmp_path / "c.json")],
        ["solve", spec, "--out", str(tmp_path / "a")],
    ):
        assert main(argv) == 4
        err = capsys.readouterr().err
        assert "a loop of symbolic links" in err and "internal error" not in err, err


def test_an_export_past_its_memory_limit_is_skipped_and_leaves_nothing(capsys, tmp_path):
    """`export` built every model in its own process with no limit: a 12 x 12 SameGame board's time-indexed model
    took 11.5 GB, and a 20 x 20 one grew past that.  Each model is now built in a supervised child under
    --memory-limit; one past it is skipped with the reason, and no half-written file stays."""
    board = tmp_path / "b.txt"
    board.write_text("\n".join("1234" * 3 for _ in range(12)) + "\n")
    folder = tmp_path / "models"
    code = main(["export", str(board), "--problem", "samegame", "-d", str(folder), "--memory-limit", "200M"])
    err = capsys.readouterr().err
    assert code == 4 and err.count("memory limit reached") == 2 and "--memory-limit SIZE allows more" in err, err
    assert not folder.exists() or not any(folder.iterdir())


def test_a_skipped_file_s_size_is_given_in_bytes_beside_the_limit(capsys, tmp_path):
    """At --max-size 0.01 a 10,624-byte file was "0.0 MB or more, over --max-size 0.01 MB"."""
    spec = str(ROOT / "instances/edge_matching/coursework_4x4.txt")
    assert main(["export", spec, "--formulation", "typed", "-d", str(tmp_path), "--max-size", "0.01"]) == 4
    err = capsys.readouterr().err
    assert re.search(
        r"skipped coursework_4x4\.typed\.lp: [\d,]+ bytes or more, over --max-size 0\.01 MB \(10,485 bytes\)", err
    ), err


@pytest.mark.parametrize(
    "instance",
    [
        "edge_matching/coursework_4x4.txt",
        "samegame/random-3x3-k2-seed1.txt",
        "merge_game/vertical-simple.txt",
        "merge_game/reduction-n12-no.txt",
        "merge_game/choice.txt",
        "queens/spec_example.txt",
    ],
)
def test_the_size_estimate_never_exceeds_the_file_written(instance, tmp_path):
    """--max-size skips a model unwritten on the estimate alone: a 13-byte proto was estimated at 16 and refused."""
    from mipgames import registry
    from mipgames.core.problem import SolveOptions
    from mipgames.run.export import export_model, model_size

    problem = registry.load(registry.infer(instance))
    inst = problem.read(ROOT / "instances" / instance)
    for name, form in problem.formulations.items():
        built = form.build(inst, {}, SolveOptions())
        suffixes = (".lp", ".mps") if form.kind == "mip" else (".pb", ".pbtxt")
        for suffix in suffixes:
            path = tmp_path / f"{name}{suffix}"
            export_model(built, form.kind, path)
            assert 0 < model_size(built, form.kind, suffix) <= path.stat().st_size, (name, suffix)


def test_an_export_that_keeps_nothing_leaves_no_folder_it_made(capsys, tmp_path):
    """A proto written, measured and dropped left the -d folders its staging had made (empty, exit 4)."""
    choice = str(ROOT / "instances/merge_game/choice.txt")
    target = tmp_path / "a" / "b"
    args = ["export", choice, "--formulation", "compact-cp", "--max-size", "0.00019", "-d", str(target)]
    assert main(args) == 4
    assert "skipped choice.compact-cp.pb" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_a_killed_writers_half_written_file_is_removed_by_the_next_write(tmp_path):
    """A solve killed with SIGKILL while its child exported the model left ``.m.lp.<pid>.*.tmp.lp`` beside the
    target, and later exports to it never removed it; a writer still alive keeps its file."""
    import os

    from mipgames.core.files import write_text_atomic

    dead = tmp_path / ".m.lp.999999999.x1.tmp.lp"  # above any pid the kernel hands out
    alive = tmp_path / f".m.lp.{os.getppid()}.x2.tmp.lp"
    other = tmp_path / ".n.lp.999999999.x3.tmp.lp"  # another target's
    for path in (dead, alive, other):
        path.write_text("half")
    write_text_atomic(tmp_path / "m.lp", "\\* model *\\\n")
    assert (tmp_path / "m.lp").read_text().startswith("\\* model")
    assert not dead.exists() and alive.exists() and other.exists()


def test_an_export_stopped_by_a_signal_leaves_no_folder_it_made(capsys, tmp_path, monkeypatch):
    """SIGTERM or Ctrl-C during `export -d models` left the empty folder the command had made."""
    from mipgames import cli

    def interrupted(problem, instance, params, name, files, limit, memory):
        files[0].parent.mkdir(parents=True, exist_ok=True)  # as the child's staged output does
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_export_contained", interrupted)
    folder = tmp_path / "made" / "models"
    assert main(["export", str(ROOT / "instances/queens/spec_example.txt"), "-d", str(folder)]) == 130
    assert not (tmp_path / "made").exists()
    kept = tmp_path / "kept"
    (kept / "other").mkdir(parents=True)
    assert main(["export", str(ROOT / "instances/queens/spec_example.txt"), "-d", str(kept)]) == 130
    assert sorted(p.name for p in kept.iterdir()) == ["other"]  # a folder that was there stays
