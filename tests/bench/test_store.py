"""The results database: schema 1 files are migrated and resumed, anything else is refused with a clear message."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from mipgames.bench import campaign, jobs
from mipgames.bench.store import ADDED_IN_2, NAMES, SCHEMA_VERSION, Store, read_all
from mipgames.cli import main
from mipgames.core.errors import InputError
from tests.bench.stub import write_instances

STUB = ["--problem-module", "tests.bench.stub"]
V1_COLUMNS = (
    "job_key TEXT PRIMARY KEY, instance_sha256 TEXT NOT NULL, instance_path TEXT, problem TEXT NOT NULL, "
    "formulation TEXT, solver TEXT NOT NULL, solver_version TEXT, params TEXT, options TEXT, time_limit REAL, "
    "threads INTEGER, seed INTEGER, repeat INTEGER, parallel_jobs INTEGER, status TEXT NOT NULL, "
    "outcome TEXT NOT NULL, objective REAL, bound REAL, gap REAL, sense TEXT, objective_name TEXT, "
    "wall_time_s REAL, cpu_time_s REAL, peak_rss_mb REAL, build_time_s REAL, job_time_s REAL, verified INTEGER, "
    "verification_failed INTEGER, message TEXT, host TEXT, toolkit_version TEXT, toolkit_commit TEXT, "
    "started_at TEXT, finished_at TEXT"
)
"""The runs table as mipgames wrote it before proved_by, stop and reported_status were stored (schema 1)."""


def v1_database(path, rows=()):
    with sqlite3.connect(path) as db:
        db.execute(f"CREATE TABLE runs ({V1_COLUMNS})")
        db.execute("CREATE TABLE hosts (host TEXT PRIMARY KEY, info TEXT NOT NULL)")
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.execute("INSERT INTO meta VALUES ('schema_version', '1')")
        for row in rows:
            names = [n for n in NAMES if n not in ADDED_IN_2]
            db.execute(
                f"INSERT INTO runs ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})",
                [row.get(n) for n in names],
            )
    db.close()


def test_a_schema_1_database_is_migrated_and_resumed(tmp_path):
    paths = write_instances(tmp_path / "inst")
    planned, _ = campaign.plan_jobs(paths, ["exact"], time_limit=10, module="tests.bench.stub")
    old = jobs.execute(planned[0])
    db = tmp_path / "v1.sqlite"
    v1_database(db, [old])
    assert (
        main(["bench", *paths, *STUB, "--solvers", "exact", "--time-limit", "10", "--db", str(db), "--quiet"]) == 4
    )  # the old run belongs to this campaign: --resume is needed
    assert (
        main(
            [
                "bench",
                *paths,
                *STUB,
                "--solvers",
                "exact",
                "--time-limit",
                "10",
                "--db",
                str(db),
                "--quiet",
                "--resume",
                "--report",
                str(tmp_path / "report"),
            ]
        )
        == 0
    )
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == "2"
        columns = [r[1] for r in conn.execute("PRAGMA table_info(runs)")]
    assert set(columns) == set(NAMES)
    rows = {r["job_key"]: r for r in Store(db, readonly=True).rows()}
    assert set(rows) == {j.key() for j in planned}
    kept = rows[planned[0].key()]
    assert kept["finished_at"] == old["finished_at"]  # not run again
    assert (kept["proved_by"], kept["stop"], kept["reported_status"]) == (None, None, None)
    fresh = rows[planned[1].key()]
    assert fresh["proved_by"].startswith("exact") and fresh["reported_status"] == "optimal"
    text = (tmp_path / "report" / "report.md").read_text()
    assert "optimal by unrecorded ×1" in text and "optimal by exact (mipgames" in text


def test_migration_is_all_or_nothing_and_idempotent(tmp_path):
    db = tmp_path / "v1.sqlite"
    v1_database(db)
    for _ in range(2):
        Store(db).close()
    with sqlite3.connect(db) as conn:
        columns = [r[1] for r in conn.execute("PRAGMA table_info(runs)")]
    assert sorted(columns) == sorted(NAMES) and SCHEMA_VERSION == 2


def test_databases_this_version_cannot_read_are_refused_with_a_reason(tmp_path, capsys):
    newer = tmp_path / "newer.sqlite"
    Store(newer).close()
    with sqlite3.connect(newer) as conn:
        conn.execute("UPDATE meta SET value = '9' WHERE key = 'schema_version'")
    conn.close()
    with pytest.raises(InputError, match="schema version 9, written by a newer mipgames"):
        Store(newer)

    foreign = tmp_path / "foreign.sqlite"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE runs (id INTEGER, name TEXT)")
    conn.close()
    with pytest.raises(InputError, match="someone else's"):
        read_all([foreign])

    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(b"not a database at all\n" * 100)
    assert main(["bench", "report", "--db", str(garbage), "--json"]) == 4
    assert "not a results database" in capsys.readouterr().err
    paths = write_instances(tmp_path / "inst", seeds=(1,))
    assert main(["bench", *paths, *STUB, "--solvers", "exact", "--db", str(tmp_path)]) == 4
    assert "not a regular file" in capsys.readouterr().err
    assert garbage.read_bytes().startswith(b"not a database")  # refused, not overwritten


def test_a_report_reads_without_writing(tmp_path, capsys):
    """`bench report` leaves every database as it found it: a schema-1 file unmigrated, a foreign one unconverted."""
    paths = write_instances(tmp_path / "inst", seeds=(1,))
    planned, _ = campaign.plan_jobs(paths, ["exact"], time_limit=10, module="tests.bench.stub")
    folder = tmp_path / "dbs"
    folder.mkdir()
    old = folder / "v1.sqlite"
    v1_database(old, [jobs.execute(planned[0])])
    before = old.read_bytes()
    old.chmod(0o444)
    folder.chmod(0o555)  # read-only storage (root may write anyway: then the bytes below still tell)
    try:
        assert main(["bench", "report", "--db", str(old), "--json"]) == 0
        report = json.loads(capsys.readouterr().out)
        assert report["instances"] == 1 and report["counts"]["runs"] == report["counts"]["solved"] == 1
        assert old.read_bytes() == before and sorted(p.name for p in folder.iterdir()) == ["v1.sqlite"]
    finally:
        folder.chmod(0o755)
        old.chmod(0o644)

    for table, says in (
        ("runs (id INTEGER, name TEXT)", "someone else's"),
        ("notes (id INTEGER)", "other tables (notes)"),
    ):
        foreign = tmp_path / f"{table.split()[0]}.sqlite"
        with sqlite3.connect(foreign) as conn:
            conn.execute(f"CREATE TABLE {table}")
        conn.close()
        untouched = foreign.read_bytes()
        assert main(["bench", "report", "--db", str(foreign), "--json"]) == 4
        assert says in capsys.readouterr().err
        assert main(["bench", *paths, *STUB, "--solvers", "exact", "--db", str(foreign), "--quiet"]) == 4
        assert says in capsys.readouterr().err
        assert foreign.read_bytes() == untouched  # not even switched to WAL
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    assert main(["bench", "report", "--db", str(empty), "--json"]) == 4
    assert "holds no runs" in capsys.readouterr().err and empty.stat().st_size == 0


def test_a_finished_campaign_is_one_file_and_a_second_writer_is_refused(tmp_path, capsys):
    """A report of a campaign's database left -wal and -shm beside it (so read-only storage could not be reported);
    two campaigns on one database both ran every job and replaced each other's rows."""
    paths = write_instances(tmp_path / "inst", seeds=(1,))
    db = tmp_path / "dbs" / "r.sqlite"
    args = ["bench", *paths, *STUB, "--solvers", "exact", "--time-limit", "10", "--quiet", "--db", str(db)]
    assert main(args) == 0
    assert sorted(p.name for p in db.parent.iterdir()) == ["r.sqlite"]
    with sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    capsys.readouterr()
    assert main(["bench", "report", "--db", str(db), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["counts"]["runs"] == 1
    assert sorted(p.name for p in db.parent.iterdir()) == ["r.sqlite"]

    with Store(db):  # a campaign in progress
        assert main([*args, "--resume"]) == 4
        assert "another campaign is writing to this database" in capsys.readouterr().err
        with Store(db, readonly=True) as reader:  # reading is never refused
            assert len(reader.rows()) == 1
    assert main([*args, "--resume"]) == 0  # once it ends


def test_foreign_or_damaged_databases_are_refused_before_a_byte_is_written(tmp_path, capsys):
    """An audit found a file holding only a `meta` (or `hosts`) table taken over: the campaign added its tables
    and rewrote the user's schema_version row; a results database with damaged pages gave "internal error:
    DatabaseError" (exit 1) after 4 bytes of it were written; --report naming the --db file failed only after the
    whole campaign had run."""
    paths = write_instances(tmp_path / "inst", seeds=(1,))
    for table in ("meta (key TEXT PRIMARY KEY, value TEXT)", "hosts (name TEXT)"):
        app = tmp_path / "app.sqlite"
        app.unlink(missing_ok=True)
        with sqlite3.connect(app) as conn:
            conn.execute(f"CREATE TABLE {table}")
        conn.close()
        before = app.read_bytes()
        assert main(["bench", *paths, *STUB, "--solvers", "exact", "--db", str(app), "--resume"]) == 4
        assert "a SQLite database of other tables" in capsys.readouterr().err
        assert app.read_bytes() == before

    good = tmp_path / "good.sqlite"
    assert main(["bench", *paths, *STUB, "--solvers", "exact", "--db", str(good)]) == 0
    capsys.readouterr()
    damaged = bytearray(good.read_bytes())
    page = 4096  # the second page holds the runs table's first rows
    damaged[page + 8 : page + 40] = b"\xff" * 32
    good.write_bytes(bytes(damaged))
    assert main(["bench", *paths, *STUB, "--solvers", "exact", "--db", str(good), "--resume"]) == 4
    err = capsys.readouterr().err
    assert ("damaged" in err or "not a results database" in err) and "internal error" not in err, err
    assert good.read_bytes() == bytes(damaged)

    same = tmp_path / "same.sqlite"
    assert main(["bench", *paths, *STUB, "--solvers", "exact", "--db", str(same), "--report", str(same)]) == 4
    assert "name each output once" in capsys.readouterr().err and not same.exists()


@pytest.mark.parametrize(("column", "value"), [("params", "{not json"), ("wall_time_s", "abc"), ("options", "[1]")])
def test_an_edited_row_is_refused_with_its_column_not_an_internal_error(tmp_path, capsys, column, value):
    """A row with a damaged params or time gave 'internal error: JSONDecodeError / TypeError' (exit 1)."""
    paths = write_instances(tmp_path / "inst", seeds=(1,))
    db = tmp_path / "r.sqlite"
    assert main(["bench", *paths, *STUB, "--solvers", "exact", "--db", str(db)]) == 0
    with sqlite3.connect(db) as conn:
        conn.execute(f"UPDATE runs SET {column} = ? WHERE rowid = 1", (value,))
    conn.close()
    capsys.readouterr()
    for argv in (
        ["bench", "report", "--db", str(db), "--report", str(tmp_path / "rep")],
        ["bench", *paths, *STUB, "--solvers", "exact", "--db", str(db), "--resume"],
    ):
        assert main(argv) == 4
        err = capsys.readouterr().err
        assert f"{column} holds" in err and "edited or damaged" in err and "internal error" not in err, err
    assert not (tmp_path / "rep").exists()


def test_a_folder_of_instances_skips_the_certificates_beside_them(tmp_path):
    """The README's tour writes puzzle.cert.json beside puzzle.txt; `bench FOLDER` read it as an instance."""
    paths = write_instances(tmp_path / "inst", seeds=(1,))
    (tmp_path / "inst" / "x.cert.json").write_text("{}\n")
    assert campaign.instance_files([str(tmp_path / "inst")]) == sorted(paths)


def test_a_job_stored_in_two_databases_counts_once(tmp_path, capsys):
    """A database read with its copy counted 78 runs where there were 39 (the header, the counts, runs.csv and
    the lists), while the summaries kept one of each: every part of the report now reads the same runs."""
    import shutil

    db = tmp_path / "a.sqlite"
    spec = str(Path(__file__).resolve().parents[2] / "instances" / "queens" / "spec_example.txt")
    assert main(["bench", spec, "--solvers", "levels,dfs", "--db", str(db), "--quiet", "--time-limit", "5"]) == 0
    shutil.copy(db, tmp_path / "b.sqlite")
    rows, _, replaced = read_all([db, tmp_path / "b.sqlite"])
    assert (len(rows), replaced) == (2, 2)
    capsys.readouterr()
    assert main(["bench", "report", "--db", str(db), "--db", str(tmp_path / "b.sqlite"), "--json"]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)["counts"]["runs"] == 2
    assert "2 run(s) of jobs stored in more than one database: the latest of each is used" in out.err
