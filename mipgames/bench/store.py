"""The results database: one SQLite file, one row per finished run, committed the moment it lands.

WAL mode with a commit per row means Ctrl-C or ``kill -9`` of the campaign
loses no finished run; ``done_keys`` is what ``--resume`` skips.  Only the
campaign's client process writes (Dask workers send rows back), and a
campaign holds an exclusive lock on the file while it runs, so a second
campaign started on the same database is refused instead of running the same
jobs again and replacing the first one's rows.  A closing campaign returns the
file to SQLite's default journal, so the finished database is one
self-contained file that reports read without creating anything beside it.

Schema versions: 1 had no ``reported_status``, ``proved_by`` or ``stop``;
opening such a database adds those columns (NULL for its old runs) and marks
it version 2.  A database written by a newer mipgames is refused rather than
guessed at.
"""

from __future__ import annotations

import fcntl
import json
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any, NoReturn

from mipgames.core.errors import InputError

SCHEMA_VERSION = 2
COLUMNS: tuple[tuple[str, str], ...] = (
    ("job_key", "TEXT PRIMARY KEY"),
    ("instance_sha256", "TEXT NOT NULL"),
    ("instance_path", "TEXT"),
    ("problem", "TEXT NOT NULL"),
    ("formulation", "TEXT"),
    ("solver", "TEXT NOT NULL"),
    ("solver_version", "TEXT"),
    ("params", "TEXT"),
    ("options", "TEXT"),
    ("time_limit", "REAL"),
    ("threads", "INTEGER"),
    ("seed", "INTEGER"),
    ("repeat", "INTEGER"),
    ("parallel_jobs", "INTEGER"),
    ("status", "TEXT NOT NULL"),
    ("reported_status", "TEXT"),
    ("outcome", "TEXT NOT NULL"),
    ("objective", "REAL"),
    ("bound", "REAL"),
    ("gap", "REAL"),
    ("sense", "TEXT"),
    ("objective_name", "TEXT"),
    ("wall_time_s", "REAL"),
    ("cpu_time_s", "REAL"),
    ("peak_rss_mb", "REAL"),
    ("build_time_s", "REAL"),
    ("job_time_s", "REAL"),
    ("verified", "INTEGER"),
    ("verification_failed", "INTEGER"),
    ("proved_by", "TEXT"),
    ("stop", "TEXT"),
    ("message", "TEXT"),
    ("host", "TEXT"),
    ("toolkit_version", "TEXT"),
    ("toolkit_commit", "TEXT"),
    ("started_at", "TEXT"),
    ("finished_at", "TEXT"),
)
NAMES = tuple(name for name, _ in COLUMNS)
ADDED_IN_2 = ("reported_status", "proved_by", "stop")
"""Columns version 1 lacked; every other column of COLUMNS was there from the start."""


JSON_COLUMNS = ("params", "options")


def _json_object(text: str) -> bool:
    try:
        return isinstance(json.loads(text), dict)
    except ValueError:
        return False


def _refuse(path: Path, why: str) -> NoReturn:
    raise InputError(why, path)


class Store:
    """The results database, opened to run a campaign (created or migrated) or, with ``readonly``, to report.

    A report never writes: the file, its journal mode and its schema stay as they were, so a
    database on read-only storage can be reported and someone else's SQLite file is refused untouched.
    """

    def __init__(self, path: str | Path, *, readonly: bool = False):
        self.path = Path(path)
        self.missing: tuple[str, ...] = ()
        self.created = False
        self.closed = False
        self._lock: IO[bytes] | None = None
        if self.path.exists() and not self.path.is_file():
            _refuse(self.path, "not a results database (not a regular file)")
        if not readonly:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                _refuse(self.path, f"cannot create its folder: {exc.strerror or exc}")
            self._take_lock()
        try:
            if readonly:
                self.db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True, timeout=60)
            else:
                self.db = sqlite3.connect(str(self.path), timeout=60)
        except sqlite3.Error as exc:
            _refuse(self.path, f"cannot open the results database: {exc}")
        try:
            self.db.row_factory = sqlite3.Row
            self.missing = self._check()  # before anything is written: a foreign file stays as it was
            if readonly and "runs" not in self._tables():
                _refuse(self.path, "holds no runs: not a results database")
            if not readonly:
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=FULL")
                self.db.execute("BEGIN IMMEDIATE")  # created or migrated whole, or not at all
                try:
                    self._create_or_migrate()
                except BaseException:
                    self.db.rollback()
                    raise
                self.db.commit()
                self.missing = ()
        except sqlite3.OperationalError as exc:  # locked, read-only, disk full: a usable file we cannot use now
            self.db.close()
            self._release()
            _refuse(self.path, f"cannot use the results database: {exc}")
        except sqlite3.DatabaseError as exc:
            self.db.close()
            self._release()
            _refuse(self.path, f"not a results database: {exc}")
        except InputError:
            self.db.close()
            self._release()
            raise

    def _take_lock(self) -> None:
        """Hold an exclusive ``flock`` on the file for the campaign (SQLite's own locks are POSIX ones: separate)."""
        self.created = not self.path.exists()
        try:
            lock = open(self.path, "ab")
        except OSError as exc:
            _refuse(self.path, f"cannot open the results database: {exc.strerror or exc}")
        try:
            fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.close()
            _refuse(self.path, "another campaign is writing to this database; wait for it to end, or use another --db")
        except OSError:
            pass  # a file system without flock: campaigns there are not guarded, as before
        self._lock = lock

    def _release(self) -> None:
        if self._lock is not None:
            self._lock.close()  # after SQLite's connection: closing a descriptor drops the process's POSIX locks
            self._lock = None
            if self.created and self.path.exists() and self.path.stat().st_size == 0:
                self.path.unlink()  # refused before SQLite wrote a byte: leave nothing behind

    def _tables(self) -> set[str]:
        return {r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}

    def _check(self) -> tuple[str, ...]:
        """The columns a readable results database lacks (those schema 1 lacked); refuse any other file."""
        tables = self._tables()
        if "runs" not in tables:
            if tables:  # a results database is made whole in one transaction: its tables never come without `runs`
                _refuse(
                    self.path,
                    f"a SQLite database of other tables ({', '.join(sorted(tables))}), not a results database",
                )
            return NAMES
        damage = self.db.execute("PRAGMA quick_check").fetchone()[0]  # before anything is written to it
        if damage != "ok":
            said = " ".join(str(damage).split())[:120]
            _refuse(self.path, f"the results database is damaged ({said}); restore it or use another --db")
        have = {r[1] for r in self.db.execute("PRAGMA table_info(runs)")}
        version = self._version() if "meta" in tables else None
        if version is None or not {"job_key", "status", "outcome", "solver"} <= have:
            _refuse(self.path, "not a mipgames results database (its `runs` table is someone else's)")
        if version > SCHEMA_VERSION:
            _refuse(
                self.path,
                f"results database of schema version {version}, written by a newer mipgames "
                f"(this one reads versions 1 to {SCHEMA_VERSION}): upgrade mipgames",
            )
        missing = tuple(n for n in NAMES if n not in have)
        if any(n not in ADDED_IN_2 for n in missing):
            _refuse(
                self.path,
                f"results database lacks column(s) {', '.join(missing)}: not a schema this mipgames knows",
            )
        return missing

    def _create_or_migrate(self) -> None:
        missing = self._check()  # again, inside the transaction: another campaign may have created it meanwhile
        if "runs" in self._tables():
            for name, kind in COLUMNS:
                if name in missing:
                    self.db.execute(f"ALTER TABLE runs ADD COLUMN {name} {kind}")
        else:
            self.db.execute(f"CREATE TABLE runs ({', '.join(f'{n} {t}' for n, t in COLUMNS)})")
        self.db.execute("CREATE TABLE IF NOT EXISTS hosts (host TEXT PRIMARY KEY, info TEXT NOT NULL)")
        self.db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        self.db.execute("INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))

    def _version(self) -> int | None:
        found = self.db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        try:
            return int(found[0]) if found else None
        except ValueError:
            return None

    def done_keys(self) -> set[str]:
        return {r[0] for r in self.db.execute("SELECT job_key FROM runs")}

    def toolkit_versions(self, keys: set[str]) -> set[str]:
        """The mipgames versions that made the stored runs of ``keys``."""
        rows = self.db.execute("SELECT job_key, toolkit_version FROM runs")
        return {str(version) for key, version in rows if key in keys}

    def insert(self, row: dict[str, Any]) -> None:
        """Store one finished run (replacing an older run of the same job) and commit at once."""
        machine = row.get("machine")
        if machine:
            self.db.execute(
                "INSERT OR REPLACE INTO hosts VALUES (?, ?)", (machine["host"], json.dumps(machine, sort_keys=True))
            )
        # "" and None both mean "nothing to say": one of them, so the row survives a CSV round trip
        values = [None if row.get(name) == "" else row.get(name) for name in NAMES]
        self.db.execute(
            f"INSERT OR REPLACE INTO runs ({', '.join(NAMES)}) VALUES ({', '.join('?' * len(NAMES))})", values
        )
        self.db.commit()

    def rows(self) -> list[dict[str, Any]]:
        """Every run, with the columns an unmigrated schema-1 database lacks read as None, each value checked
        against its column (SQLite stores any value in any column: an edited row failed deep in the report)."""
        blank = dict.fromkeys(self.missing)
        rows = [{**blank, **dict(r)} for r in self.db.execute("SELECT * FROM runs ORDER BY finished_at, job_key")]
        for row in rows:
            self._check_row(row)
        return rows

    def _check_row(self, row: dict[str, Any]) -> None:
        for name, kind in COLUMNS:
            value = row.get(name)
            if value is None:
                fits = "NOT NULL" not in kind
            elif kind.startswith("REAL"):
                fits = isinstance(value, (int, float))
            elif kind.startswith("INTEGER"):
                fits = isinstance(value, int)
            else:
                fits = isinstance(value, str) and (name not in JSON_COLUMNS or _json_object(value))
            if not fits:
                want = "a JSON object" if name in JSON_COLUMNS else kind.split()[0].lower()
                _refuse(
                    self.path,
                    f"run {str(row.get('job_key'))[:16]!r}: {name} holds {str(value)[:40]!r}, not {want} "
                    "(the file was edited or damaged)",
                )

    def hosts(self) -> dict[str, dict[str, Any]]:
        if "hosts" not in self._tables():
            return {}
        hosts = {}
        for host, info in self.db.execute("SELECT host, info FROM hosts"):
            try:
                hosts[host] = json.loads(info)
            except (TypeError, ValueError):
                _refuse(self.path, f"the machine record of host {str(host)[:40]!r} is not JSON")
        return hosts

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        if self._lock is not None:
            try:
                self.db.execute("PRAGMA busy_timeout = 2000")
                self.db.execute("PRAGMA journal_mode = DELETE")  # one self-contained file again
            except sqlite3.Error:
                pass  # a reader holds it open: the WAL files stay, and SQLite folds them in later
        self.db.close()
        self._release()

    def discard_if_empty(self) -> None:
        """Remove a database this campaign created and never wrote a run to (it failed or was stopped first)."""
        if self.closed or not self.created or self._lock is None:
            return
        if not self.db.execute("SELECT 1 FROM runs LIMIT 1").fetchone():
            self.closed = True
            self.db.close()
            for side in ("", "-wal", "-shm", "-journal"):
                Path(f"{self.path}{side}").unlink(missing_ok=True)
            self._release()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_all(paths: Iterable[str | Path]) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]], int]:
    """Rows and hosts of one or more databases (``--compare version`` reads one per toolkit version), and how
    many runs a later run of the same job (and toolkit version) in another database replaced.

    One database holds one run per job; several held the same job twice (a copy, or one campaign run twice
    into two files), and the counts, exports and lists took both while the summaries kept the later one."""
    rows: list[dict[str, Any]] = []
    hosts: dict[str, dict[str, Any]] = {}
    paths = list(paths)
    seen: set[Path] = set()
    for path in paths:
        if not Path(path).exists():
            raise InputError("no such results database", path)
        where = Path(path).resolve()
        if where in seen:  # its runs would count twice in every table
            raise InputError("named twice with --db; each database is read once", path)
        seen.add(where)
    for path in paths:
        try:
            with Store(path, readonly=True) as store:
                rows.extend(store.rows())
                hosts.update(store.hosts())
        except sqlite3.DatabaseError as exc:
            raise InputError(f"not a results database: {exc}", path) from None
    latest: dict[tuple[Any, ...], dict[str, Any]] = {}
    for row in sorted(rows, key=lambda r: r.get("finished_at") or ""):
        latest[(row["job_key"], row.get("toolkit_version"), row.get("toolkit_commit"))] = row
    kept = sorted(latest.values(), key=lambda r: (r.get("finished_at") or "", r["job_key"]))
    return kept, hosts, len(rows) - len(kept)
