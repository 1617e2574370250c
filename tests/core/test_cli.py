"""The command line on the toy problem: exit codes, certificates, verify, errors without tracebacks."""

from __future__ import annotations

import json
from pathlib import Path

from mipgames import registry
from mipgames.cli import main
from tests.core.toy import PROBLEM, random_split, write

registry.register(PROBLEM)


def _instance(tmp_path, **kw):
    path = tmp_path / "split.json"
    write(random_split(**kw), path)
    return path


def test_solve_then_verify(tmp_path, capsys):
    inst = _instance(tmp_path, rows=2, items=9, seed=1, high=20)
    cert = tmp_path / "c.json"
    code = main(["solve", str(inst), "--problem", "toy-split", "--solver", "cbc", "--out", str(cert), "--quiet"])
    out = capsys.readouterr().out
    assert code == 0 and "optimal (proved by cbc" in out and "yes: replayed" in out
    capsys.readouterr()
    assert main(["verify", str(cert)]) == 0
    data = json.loads(cert.read_text())
    assert f"OK — toy-split instance {data['instance_sha256'][:12]}, status optimal" in capsys.readouterr().out
    assert main(["verify", str(cert), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["instance_sha256"] == data["instance_sha256"]
    data["objective"] += 1
    cert.write_text(json.dumps(data))
    assert main(["verify", str(cert)]) == 1
    assert "REJECTED" in capsys.readouterr().err


def test_time_limited_run_exits_0_as_feasible_or_3_as_unknown(tmp_path, capsys):
    inst = _instance(tmp_path, rows=4, items=34, seed=11)
    code = main(
        [
            "solve",
            str(inst),
            "--problem",
            "toy-split",
            "--solver",
            "glpk",
            "--time-limit",
            "1",
            "--threads",
            "1",
            "--out",
            str(tmp_path / "c.json"),
            "--quiet",
        ]
    )
    status_line = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("status"))
    word = status_line.split()[1]
    assert (code, word) in ((0, "feasible"), (3, "unknown"))


def test_infeasible_exits_2(tmp_path, capsys):
    inst = _instance(tmp_path, rows=1, items=4, seed=2)
    code = main(
        [
            "solve",
            str(inst),
            "--problem",
            "toy-split",
            "--solver",
            "highs",
            "--max-items",
            "-1",
            "--out",
            str(tmp_path / "c.json"),
            "--quiet",
        ]
    )
    assert code == 2 and "infeasible" in capsys.readouterr().out


def test_bad_input_is_one_message_and_exit_4(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["solve", str(bad), "--problem", "toy-split"]) == 4
    err = capsys.readouterr().err
    assert err.startswith("mipgames: ") and str(bad) in err and "Traceback" not in err
    assert main(["verify", str(bad)]) == 4
    assert f"{bad}:1: not valid JSON" in capsys.readouterr().err


def test_unknown_problem_and_solver_are_usage_errors(tmp_path, capsys):
    inst = _instance(tmp_path, rows=1, items=3, seed=0)
    assert main(["solve", str(inst)]) == 4
    assert "cannot tell the problem" in capsys.readouterr().err
    board = tmp_path / "board.txt"  # a generated instance outside instances/: the message names its problem
    assert main(["generate", "queens", "--n", "6", "--k", "1", "--moves", "7", "-o", str(board)]) == 0
    capsys.readouterr()
    assert main(["solve", str(board)]) == 4
    assert capsys.readouterr().err == (
        f"mipgames: {board}: cannot tell the problem from the path; it reads as a queens instance: "
        "add --problem queens\n"
    )
    assert main(["bench", str(board), "--solvers", "cbc", "--db", str(tmp_path / "r.sqlite")]) == 4
    assert "it reads as a queens instance: add --problem queens" in capsys.readouterr().err
    assert main(["solve", str(inst), "--problem", "toy-split", "--solver", "gurobi"]) == 4
    assert "unknown solver" in capsys.readouterr().err


def test_solvers_lists_four_backends(capsys):
    assert main(["solvers"]) == 0
    out = capsys.readouterr().out
    for name in ("cbc", "glpk", "highs", "cpsat"):
        assert f"\n{name} " in out and "MISSING" not in out


def test_memory_sizes_read_as_written():
    """8GiB was refused ("not a size") while 8gb and 8G were taken: the i was matched before upper-casing."""
    from mipgames.cli import _memory

    for text in ("8G", "8g", "8GB", "8gb", "8GiB", "8gib", " 8 GiB "):
        assert _memory(text) == 8 * 2**30, text
    assert _memory("512MiB") == 512 * 2**20


def test_an_infeasible_answer_prints_no_bound(tmp_path, capsys):
    """ "infeasible" above "bound 0" (the mismatch bound of the optimisation) read as a contradiction."""
    puzzle = tmp_path / "p.txt"
    puzzle.write_text("2 2\n0 1 1 0\n0 0 1 1\n1 1 0 0\n1 1 1 1\n")  # three corners and no fourth: no frame
    code = main(
        [
            "solve",
            str(puzzle),
            "--problem",
            "edge-matching",
            "--mode",
            "decision",
            "--quiet",
            "--out",
            str(tmp_path / "c.json"),
        ]
    )
    out = capsys.readouterr().out
    assert code == 2 and "status      infeasible" in out and "\nbound" not in out


def test_the_time_row_reads_aloud():
    """ "of a 8 s limit": the article follows the number as it is spoken."""
    from mipgames.cli import article

    assert [article(n) for n in ("8", "11", "18", "80", "800", "11000", "8.5")] == ["an"] * 7
    assert [article(n) for n in ("1", "60", "110", "180", "0.5")] == ["a"] * 5


def test_one_of_an_objective_is_named_in_the_singular():
    """ "objective 1 queens remaining"."""
    from mipgames.core.status import amount

    assert amount(1.0, "queens remaining") == "1 queen remaining"
    assert amount(1, "mismatched inner edges") == "1 mismatched inner edge"
    assert amount(3, "stones destroyed") == "3 stones destroyed"
    assert amount(1, "score (standard rule)") == "1 score (standard rule)"


def test_audit_messages_name_what_is_wrong(tmp_path, capsys, monkeypatch):
    """A hostile-user audit's findings: a missing file was "cannot tell the problem from the path"; `generate
    -o ""` wrote to standard output and `export -d ""` into the current folder; --k 0 was refused as "0 + 0 queens
    do not fit on a 8x8 board"; a board too large to draw was refused without its file's name."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    monkeypatch.chdir(tmp_path)
    cases = [
        (["solve", "nowhere.txt"], "nowhere.txt: no such instance"),
        (["export", "nowhere.txt"], "nowhere.txt: no such instance"),
        (["render", "nowhere.txt", "-o", "x.png"], "nowhere.txt: no such instance"),
        (["generate", "queens", "-o", ""], "an output's name is empty"),
        (["export", str(root / "instances/queens/spec_example.txt"), "-d", ""], "the folder's name is empty"),
        (["generate", "queens", "--k", "0"], "argument --k: must be from 1 to"),
    ]
    for argv, said in cases:
        try:
            code = main(argv)
        except SystemExit as exit_:  # argparse's refusals
            code = exit_.code
        err = capsys.readouterr().err
        assert code == 4 and said in err, (argv, code, err)
    assert not any(tmp_path.iterdir())
    big = tmp_path / "big.txt"
    assert main(["generate", "edge-matching", "--rows", "120", "--inner-colours", "9", "-o", str(big)]) == 0
    capsys.readouterr()
    assert main(["render", str(big), "--problem", "edge-matching", "-o", str(tmp_path / "x.png")]) == 4
    assert f"{big}: a 120x120 board is too large to draw" in capsys.readouterr().err


def test_json_output_is_one_object_for_refused_input_too(tmp_path, capsys):
    """`solve bad.txt --json` printed nothing on standard output, where the README promises one JSON object."""
    bad = tmp_path / "bad.txt"
    bad.write_text("3\n1\nnot a board\n")
    assert main(["solve", str(bad), "--problem", "queens", "--json"]) == 4
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert data["exit_code"] == 4 and data["error"] in err and str(bad) in data["error"]


def test_json_output_is_one_object_for_refused_options_and_logs_too(tmp_path, capsys):
    """Options the parser refused (`--time-limit nan`, a missing instance, an unknown option) and a --log that
    cannot be written printed nothing on standard output under --json."""
    spec = str(Path(__file__).resolve().parents[2] / "instances/queens/spec_example.txt")
    for argv, said in (
        (["solve", spec, "--time-limit", "nan", "--json"], "--time-limit: must be a positive finite number"),
        (["solve", "--json"], "the following arguments are required: instance"),
        (["solvers", "--json", "--bogus"], "unrecognized arguments: --bogus"),
        (["solve", spec, "--json", "--log", str(tmp_path / "x.txt" / "log")], "cannot write here"),
    ):
        if "--log" in argv:
            (tmp_path / "x.txt").write_text("")
        assert main(argv) == 4, argv
        out, err = capsys.readouterr()
        data = json.loads(out)
        assert data["exit_code"] == 4 and said in data["error"] and said in err, (argv, out, err)
    assert main(["solve", spec, "--time-limit", "nan"]) == 4
    assert capsys.readouterr().out == ""


def test_json_output_is_one_object_when_interrupted(capsys, monkeypatch):
    from mipgames import cli

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "cmd_solvers", interrupted)
    assert main(["solvers", "--json"]) == 130
    out, err = capsys.readouterr()
    assert json.loads(out) == {"error": "interrupted", "exit_code": 130} and "interrupted" in err
