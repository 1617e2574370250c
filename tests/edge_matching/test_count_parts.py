"""benchmarks/edge_matching/count_parts.py: a count split into parts and resumed equals the one-piece count."""

import importlib.util
import json
import subprocess
import sys
import time

import pytest

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


def test_parts_keep_their_solutions_and_a_part_counted_without_them_is_searched_again(tmp_path):
    cp = _script()
    inst = read(PUZZLE)
    db_path = tmp_path / "parts.sqlite"
    done = cp.count(inst, db_path, 40, 3, 2, None, quiet=True)
    db = cp.open_db(db_path)
    key = cp.puzzle_key(inst)
    kept = cp.kept_solutions(inst, db, key, 40, 3, done)
    assert len(kept) == sum(min(s, cp.KEEP) for s, _, _ in done.values()) > 0
    assert cp.replayed(inst, kept) == kept  # every one a perfect placement, no two alike
    rich = max(done, key=lambda p: done[p][0])
    db.execute("DELETE FROM solution WHERE part = ?", (rich,))  # as a part counted before parts kept solutions
    db.commit()
    assert cp.kept_solutions(inst, db, key, 40, 3, done) == kept  # searched again, the same solutions
    assert db.execute("SELECT COUNT(*) FROM solution WHERE part = ?", (rich,)).fetchone()[0] > 0  # and stored
    forged = {**done, rich: (done[rich][0] + 1, *done[rich][1:])}
    with pytest.raises(RuntimeError, match="counted"):  # a count that the search does not repeat is an error
        db.execute("DELETE FROM solution WHERE part = ?", (rich,))
        cp.kept_solutions(inst, db, key, 40, 3, forged)
    with pytest.raises(RuntimeError, match="repeats"):
        cp.replayed(inst, kept + kept[:1])
    bad = [(kept[0][0], [(t, (a + 1) % 4) for t, a in kept[0][1]])]
    with pytest.raises(RuntimeError, match="not a perfect placement"):
        cp.replayed(inst, bad)
    db.close()


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
            "--certificate",
            str(tmp_path / "count.json"),
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
    assert status.returncode == 0 and out.read_text().split("- audit:")[0] in status.stdout  # nothing recounted
    assert "- audit: 10 parts counted again" in out.read_text() and "audit" not in status.stdout
    assert "Type-level solutions kept" in out.read_text()
    cert = json.loads((tmp_path / "count.json").read_text())
    assert cert["status"] == "optimal" and cert["stats"]["solutions"] == whole and cert["stats"]["count_complete"]
    verify = subprocess.run(
        [sys.executable, "-m", "mipgames", "verify", str(tmp_path / "count.json")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert verify.returncode == 0 and f"claims {whole:,} perfect placements" in verify.stdout, verify.stdout


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=300)


def test_a_complete_count_of_zero_certifies_that_no_perfect_placement_exists(tmp_path):
    body = [line.split() for line in PUZZLE.read_text().splitlines() if line and not line.startswith("#")]
    inner = next(i for i, words in enumerate(body) if i and "0" not in words)
    body[inner][0] = str(int(body[inner][0]) % 5 + 1)  # one inner edge recoloured: the planted placement breaks
    broken = tmp_path / "broken.txt"
    broken.write_text("\n".join(" ".join(words) for words in body) + "\n")
    assert exact(read(broken), count=True).solutions == 0  # and so does every other
    count = [str(SCRIPT), str(broken), "--parts", "10", "--db", str(tmp_path / "db"), "--certificate"]
    cut = _run(*count, str(tmp_path / "cut.json"), "--max-parts", "3")
    assert cut.returncode == 0 and "certificate not written: the count is not complete" in cut.stdout
    assert not (tmp_path / "cut.json").exists()
    done = _run(*count, str(tmp_path / "c.json"))
    assert done.returncode == 0 and "(infeasible)" in done.stdout, done.stdout + done.stderr
    cert = json.loads((tmp_path / "c.json").read_text())
    assert cert["status"] == "infeasible" and cert["solution"] is None and cert["stats"]["solutions"] == 0
    verify = _run("-m", "mipgames", "verify", str(tmp_path / "c.json"))
    assert verify.returncode == 0 and "no perfect placement exists" in verify.stdout, verify.stdout


def test_a_ledger_carries_the_count_to_a_new_database_and_a_foreign_ledger_is_refused(tmp_path):
    cp = _script()
    inst = read(PUZZLE)
    ledger = tmp_path / "count.tsv"
    first = cp.count(inst, tmp_path / "a.sqlite", 40, 3, 2, None, quiet=True, max_parts=25, ledger=ledger)
    assert len(first) == 25 and ledger.read_text().count("\n") == 3 + 25  # two comments, a head, a row a part
    done = cp.count(inst, tmp_path / "b.sqlite", 40, 3, 2, None, quiet=True, ledger=ledger)  # a new checkout
    assert set(done) == set(range(40))
    assert all(done[p] == (*first[p][:2], round(first[p][2], 2)) for p in first)  # the 25 read, not redone
    assert sum(s for s, _, _ in done.values()) == exact(inst, count=True).solutions
    db = cp.open_db(tmp_path / "c.sqlite")
    key = cp.puzzle_key(inst)
    assert cp.read_ledger(ledger, db, key, 40, 3) == 40
    assert cp.kept_solutions(inst, db, key, 40, 3, done) == cp.kept_solutions(
        inst, cp.open_db(tmp_path / "b.sqlite"), key, 40, 3, done
    )  # the kept solutions travel too
    checked = cp.audit(inst, done, 40, 3)
    assert sorted(checked) == sorted(set(range(40)))  # 40 parts: all of them re-counted
    rich_parts = sum(1 for p in done if done[p][0])
    assert f"audit: 40 parts counted again ({rich_parts} with solutions, {40 - rich_parts} drawn" in cp.summary(
        inst, PUZZLE.name, done, 40, 3, audited=checked
    )
    rich = max(done, key=lambda p: done[p][0])
    with pytest.raises(RuntimeError, match=f"part {rich} counted again"):
        cp.audit(inst, {**done, rich: (done[rich][0] + 1, *done[rich][1:])}, 40, 3)
    with pytest.raises(cp.LedgerError, match=r"count\.tsv:2: not a ledger of this puzzle split in 50"):
        cp.read_ledger(ledger, db, key, 50, 3)
    lines = ledger.read_text().splitlines()
    lines[5] = lines[5].replace("\t", " ", 1)
    ledger.write_text("\n".join(lines) + "\n")
    with pytest.raises(cp.LedgerError, match=r"count\.tsv:6: expected part"):
        cp.read_ledger(ledger, cp.open_db(tmp_path / "d.sqlite"), key, 40, 3)
    cut = _run(
        str(SCRIPT), str(PUZZLE), "--parts", "40", "--depth", "3", "--db", str(tmp_path / "e"), "--ledger", str(ledger)
    )
    assert cut.returncode == 4 and "count.tsv:6: expected part" in cut.stderr and "Traceback" not in cut.stderr
    db.close()
