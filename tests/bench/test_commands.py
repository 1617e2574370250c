"""The command line of `mipgames bench`: --json, public:PATH instances, exports, and the Makefile's campaign."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from mipgames.bench import export, sets
from mipgames.bench.store import Store
from mipgames.cli import build_parser, main
from mipgames.core.errors import UsageError
from tests.bench.stub import write_instances

ROOT = Path(__file__).resolve().parents[2]
STUB = ["--problem-module", "tests.bench.stub"]


def test_json_is_the_only_thing_on_stdout_and_matches_the_database(tmp_path):
    paths = write_instances(tmp_path / "inst")
    db = tmp_path / "r.sqlite"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "mipgames",
            "bench",
            *paths,
            *STUB,
            "--solvers",
            "exact,boom",
            "--repeats",
            "2",
            "--time-limit",
            "10",
            "--db",
            str(db),
            "--report",
            str(tmp_path / "rep"),
            "--csv",
            str(tmp_path / "runs.csv"),
            "--json",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)  # the whole of stdout is one JSON object
    assert "runs planned" in proc.stderr and "bench ━" in proc.stderr  # progress went to stderr
    assert out["campaign"] == {
        "planned": 8,
        "already_stored": 0,
        "ran": 8,
        "elapsed_s": out["campaign"]["elapsed_s"],
        "solved": 4,
        "timeout": 0,
        "error": 4,
        "failed_verification": 0,
    }
    assert out["counts"] == {"runs": 8, "solved": 4, "timeout": 0, "error": 4, "failed_verification": 0}
    lines = {s["configuration"]: s for s in out["summary"]}
    assert set(lines) == {"exact", "boom", "virtual best"}
    assert (lines["exact"]["runs"], lines["exact"]["solved"], lines["exact"]["wins"]) == (4, 4, 2)
    assert (lines["boom"]["error"], lines["virtual best"]["solved"], lines["virtual best"]["runs"]) == (4, 2, 2)
    assert lines["exact"]["ratio_to_best"] == 1.0 and out["sgm_shift_s"] == 10.0
    assert out["files"] == {"report": str(tmp_path / "rep" / "report.md"), "csv": str(tmp_path / "runs.csv")}
    assert export.read_runs_csv(tmp_path / "runs.csv") == Store(db, readonly=True).rows()


def test_bench_report_json_and_exports_without_a_report_folder(tmp_path, capsys):
    paths = write_instances(tmp_path / "inst", seeds=(1,))
    db = str(tmp_path / "r.sqlite")
    assert main(["bench", *paths, *STUB, "--solvers", "exact,cbc", "--time-limit", "10", "--db", db, "--quiet"]) == 0
    capsys.readouterr()
    assert main(["bench", "report", "--db", db, "--json", "--shift", "1", "--csv", str(tmp_path / "x.csv")]) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert out["counts"]["solved"] == 2 and out["sgm_shift_s"] == 1.0 and out["disagreements"] == []
    assert {s["configuration"] for s in out["summary"]} == {"exact", "cbc/mip", "virtual best"}
    assert all(s["sgm_shift_s"] == 1.0 for s in out["summary"])
    assert len(export.read_runs_csv(tmp_path / "x.csv")) == 2
    if export.parquet_engine() is None:
        assert main(["bench", "report", "--db", db, "--parquet", str(tmp_path / "x.parquet")]) == 4
        assert "pyarrow" in capsys.readouterr().err


def test_an_export_or_report_file_never_replaces_the_database_or_an_instance(tmp_path, capsys):
    """`bench report --db r.sqlite --csv r.sqlite` replaced the results database with its own CSV export."""
    paths = write_instances(tmp_path / "inst", seeds=(1,))
    db = tmp_path / "r.sqlite"
    assert main(["bench", *paths, *STUB, "--solvers", "exact", "--time-limit", "10", "--db", str(db), "--quiet"]) == 0
    stored = db.read_bytes()
    capsys.readouterr()
    runs_csv = tmp_path / "runs.csv"
    runs_csv.write_bytes(stored)
    for args, says in (
        (["bench", "report", "--db", str(db), "--csv", str(db)], "the same file as"),
        (
            ["bench", "report", "--db", str(db), "--db", str(tmp_path / ".." / tmp_path.name / "r.sqlite"), "--json"],
            "twice",
        ),
        (["bench", "report", "--db", str(runs_csv), "--report", str(tmp_path)], "the report in"),
        (["bench", "report", "--db", str(db), "--report", str(tmp_path), "--csv", str(runs_csv)], "the report in"),
        (["bench", *paths, *STUB, "--solvers", "exact", "--db", str(tmp_path / "n.sqlite"), "--csv", paths[0]], "same"),
    ):
        assert main(args) == 4
        assert says in capsys.readouterr().err
    inside = Path(paths[0]).parent  # an instance inside a folder argument
    args = ["bench", str(inside), *STUB, "--solvers", "exact", "--db", str(tmp_path / "n.sqlite"), "--csv", paths[0]]
    assert main(args) == 4 and "the same file as" in capsys.readouterr().err
    assert db.read_bytes() == stored and runs_csv.read_bytes() == stored
    assert not (tmp_path / "n.sqlite").exists()  # refused before the campaign opened its database
    assert main(["bench", "report", "--db", str(db), "--csv", str(tmp_path / "x.csv")]) == 0
    assert len(export.read_runs_csv(tmp_path / "x.csv")) == 1


def test_an_export_or_report_that_cannot_be_written_is_refused_before_the_runs(tmp_path, capsys):
    """`--csv /dev/full` and `--report /proc/x` were found unwritable only after every run had been spent."""
    paths = write_instances(tmp_path / "inst", seeds=(1,))
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n")
    db = tmp_path / "n.sqlite"
    run = ["bench", *paths, *STUB, "--solvers", "exact", "--db", str(db), "--quiet"]
    cases = [
        (["--csv", str(blocker / "runs.csv")], "cannot write here"),
        (["--csv", str(tmp_path)], "only a regular file is replaced"),
        (["--report", str(blocker)], "a report is written into a folder"),
        (["--report", str(blocker / "report")], "is not a folder"),
        (["--report", str(tmp_path / "rz")], "report.md: the report writes this file, and it is not a file"),
    ]
    (tmp_path / "rz" / "report.md").mkdir(parents=True)
    if Path("/proc/self").is_dir():
        cases.append((["--report", "/proc/mipgames-test"], "cannot write here"))
    if Path("/dev/full").exists():
        cases.append((["--csv", "/dev/full"], "only a regular file is replaced"))
    for outputs, says in cases:
        assert main([*run, *outputs]) == 4, outputs
        assert says in capsys.readouterr().err, outputs
    assert not db.exists()  # refused before the campaign opened its database


def test_public_instances_come_from_the_argument_or_the_environment(tmp_path, monkeypatch, capsys):
    public = tmp_path / "shared-sets"
    write_instances(public / "stubs", seeds=(1, 2))
    monkeypatch.setenv(sets.ENV, str(public))
    assert sets.benchmarks_dir() == public
    assert sets.resolve("public:stubs/small1.json") == str(public / "stubs" / "small1.json")
    assert sets.resolve("relative/path.txt") == "relative/path.txt"
    db = tmp_path / "r.sqlite"
    assert (
        main(["bench", "public:stubs", *STUB, "--solvers", "exact", "--time-limit", "10", "--db", str(db), "--quiet"])
        == 0
    )
    assert sorted(Path(r["instance_path"]).name for r in Store(db, readonly=True).rows()) == [
        "small1.json",
        "small2.json",
    ]

    other = tmp_path / "elsewhere"
    write_instances(other / "stubs", seeds=(3,))
    assert sets.benchmarks_dir(other) == other  # the argument beats the environment
    assert (
        main(
            [
                "bench",
                "public:stubs",
                *STUB,
                "--solvers",
                "exact",
                "--time-limit",
                "10",
                "--benchmarks",
                str(other),
                "--db",
                str(tmp_path / "r2.sqlite"),
                "--quiet",
            ]
        )
        == 0
    )
    assert [Path(r["instance_path"]).name for r in Store(tmp_path / "r2.sqlite", readonly=True).rows()] == [
        "small3.json"
    ]

    with pytest.raises(UsageError, match="inside the public-set folder"):
        sets.resolve("public:../elsewhere/stubs")
    monkeypatch.setenv(sets.ENV, str(tmp_path / "missing"))
    assert main(["bench", "public:stubs", *STUB, "--solvers", "exact", "--db", str(db)]) == 4
    assert f"{tmp_path / 'missing'} (from ${sets.ENV}) is not a folder" in capsys.readouterr().err
    monkeypatch.delenv(sets.ENV)
    assert sets.DEFAULT == ROOT.parent / "shared" / "benchmarks"
    if not sets.DEFAULT.is_dir():
        with pytest.raises(UsageError, match="the default"):
            sets.benchmarks_dir()


def test_the_makefile_campaign_is_a_valid_command_line():
    """`make bench` must keep working: its command line parses and every instance it names exists."""
    makefile = (ROOT / "Makefile").read_text().replace("\\\n", " ")
    (small,) = re.findall(r"^SMALL := (.*)$", makefile, flags=re.M)
    (recipe,) = re.findall(r"^\t\$\(BIN\)/mipgames (bench .*)$", makefile, flags=re.M)
    recipe = recipe.replace("$(SMALL)", small)
    argv = shlex.split(recipe)
    args = build_parser().parse_args(argv)
    assert args.func.__module__ == "mipgames.bench.commands" and args.resume and args.time_limit == 10
    assert args.instances and all((ROOT / p).is_file() for p in args.instances)
    assert args.db == ["bench-results/results.sqlite"] and args.report == "bench-results/report"
