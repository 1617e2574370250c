"""benchmarks/edge_matching/count_parts.py: a count split into parts and resumed equals the one-piece count."""

import importlib.util
import subprocess
import sys
import time

from mipgames.edge_matching.backtrack import exact
from mipgames.edge_matching.instance import read

from .helpers import INSTANCES, ROOT

SCRIPT = ROOT / "benchmarks" / "edge_matching" / "count_parts.py"
PUZZLE = INSTANCES / "planted_5x5_frame.txt"


def _script():
    spec = importlib.util.spec_from_file_location("count_parts", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_parts_counted_over_two_runs_add_up_to_the_whole_count(tmp_path):
    cp = _script()
    inst = read(PUZZLE)
    whole = exact(inst, count=True)
    db = tmp_path / "parts.sqlite"
    assert cp.count(inst, db, 40, 3, 2, time.monotonic() - 1, quiet=True) == {}  # past its deadline: no part
    first = cp.count(inst, db, 40, 3, 1, None, quiet=True, max_parts=7)
    assert sorted(first) == list(range(7))  # stopped early, each finished part kept
    again = cp.count(inst, db, 40, 3, 2, None, quiet=True)
    assert set(again) == set(range(40)) and all(again[p] == first[p] for p in first)  # resumed, nothing redone
    assert sum(s for s, _, _ in again.values()) == whole.solutions > 0
    text = cp.summary(inst, PUZZLE.name, again, 40, 3)
    assert f"perfect placements: {whole.stats['solutions']:,}" in text and "not complete" not in text


def test_the_script_writes_the_count_it_prints(tmp_path):
    out = tmp_path / "count.md"
    done = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            str(PUZZLE),
            "--parts",
            "10",
            "--workers",
            "2",
            "--db",
            str(tmp_path / "db"),
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    whole = exact(read(PUZZLE), count=True).stats["solutions"]
    assert f"perfect placements: {whole:,}" in out.read_text() and out.read_text() in done.stdout
    status = subprocess.run(
        [sys.executable, str(SCRIPT), str(PUZZLE), "--parts", "10", "--db", str(tmp_path / "db"), "--status"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert status.returncode == 0 and out.read_text() in status.stdout  # read back, nothing counted again
