"""The benchmark scripts refuse bad arguments and missing benchmark sets with one line and exit 4, no traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "benchmarks"


def script(name: str, *args: str, tmp_path: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(BENCH / name), *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, **(env or {})},
        timeout=120,
        check=False,
    )


BAD = [
    ("queens/bench.py", "--sections", "bogus"),
    ("merge_game/bench.py", "--sections", "bogus"),
    ("queens/bench.py", "--time-limit", "-1", "--sections", "planted"),
    ("queens/bench.py", "--methods", "bogus", "--sections", "planted"),
    ("samegame/standard.py", "--time-limit", "0", "--boards", "1"),
    ("samegame/budgeted.py", "--boards", "x"),
    ("samegame/models.py", "--sizes", "x"),
    ("samegame/models.py", "--methods", "bogus"),
    ("samegame/exact_reach.py", "--seeds", "-1", "--time-limit", "1"),
    ("crosscheck.py", "--count", "-1"),
    ("crosscheck.py", "--problems", "bogus"),
    ("edge_matching/bench_restarts.py", "--seeds", "x", "--em="),
    ("edge_matching/bench_search.py", "--sets", "bogus"),
]


@pytest.mark.parametrize("argv", BAD, ids=[" ".join(a) for a in BAD])
def test_a_bad_argument_is_a_usage_error(argv, tmp_path):
    done = script(*argv, "--out", str(tmp_path / "out.md"), tmp_path=tmp_path)
    assert done.returncode == 4, done.stderr
    assert "Traceback" not in done.stderr and done.stderr.strip()
    assert not (tmp_path / "out.md").exists()


def test_an_unknown_name_lists_the_valid_ones(tmp_path):
    done = script("samegame/models.py", "--methods", "bogus", tmp_path=tmp_path)
    assert done.returncode == 4 and "cbc, cpsat, exact" in done.stderr


MISSING = [
    ("queens/bench.py", "--sections", "public"),
    ("samegame/standard.py", "--boards", "1", "--time-limit", "1"),
    ("samegame/budgeted.py", "--boards", "1", "--node-budget", "10"),
    ("edge_matching/bench_look.py",),
    ("edge_matching/bench_restarts.py", "--planted="),
    ("edge_matching/bench_search.py", "--sets", "brendan"),
]


@pytest.mark.parametrize("where", ["empty", "absent"])
@pytest.mark.parametrize("argv", MISSING, ids=[a[0] for a in MISSING])
def test_a_missing_benchmark_set_is_one_line_naming_it(argv, where, tmp_path):
    folder = tmp_path / where
    if where == "empty":
        folder.mkdir()
    out = tmp_path / "out.md"
    done = script(*argv, "--out", str(out), tmp_path=tmp_path, env={"MIPGAMES_BENCHMARKS": str(folder)})
    assert done.returncode == 4, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and str(folder) in lines[0] and "MIPGAMES_BENCHMARKS" in lines[0]
    assert not out.exists()


def test_budgeted_refuses_a_board_outside_the_set(tmp_path):
    standard = Path(os.environ.get("MIPGAMES_BENCHMARKS", ROOT.parent / "shared" / "benchmarks"))
    if not (standard / "samegame" / "standard_20.txt").is_file():
        pytest.skip("no standard_20.txt")
    done = script(
        "samegame/budgeted.py",
        "--boards",
        "99",
        "--node-budget",
        "10",
        tmp_path=tmp_path,
        env={"MIPGAMES_BENCHMARKS": str(standard)},
    )
    assert done.returncode == 4 and "no board 99" in done.stderr and "Traceback" not in done.stderr


def test_a_partial_standard_run_gives_no_ratio_to_the_20_board_totals(tmp_path):
    standard = Path(os.environ.get("MIPGAMES_BENCHMARKS", ROOT.parent / "shared" / "benchmarks"))
    if not (standard / "samegame" / "standard_20.txt").is_file():
        pytest.skip("no standard_20.txt")
    out = tmp_path / "partial.md"
    done = script(
        "samegame/standard.py",
        "--boards",
        "1",
        "--time-limit",
        "1",
        "--threads",
        "1",
        "--out",
        str(out),
        tmp_path=tmp_path,
        env={"MIPGAMES_BENCHMARKS": str(standard)},
    )
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    assert "No ratio to the published totals" in text and "| published |" not in text
    assert "no ratio" in done.stdout and (tmp_path / "partial.png").is_file()
