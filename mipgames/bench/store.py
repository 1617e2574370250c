"""The results database: one SQLite file, one row per finished run, committed the moment it lands.

WAL mode with a commit per row means Ctrl-C or ``kill -9`` of the campaign
loses no finished run; ``done_keys`` is what ``--resume`` skips.  Only the
campaign's client process writes (Dask workers send rows back), so there is
never a second writer to coordinate.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any, Iterable

SCHEMA_VERSION = 1
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
    ("message", "TEXT"),
    ("host", "TEXT"),
    ("toolkit_version", "TEXT"),
    ("toolkit_commit", "TEXT"),
    ("started_at", "TEXT"),
    ("finished_at", "TEXT"),
)
NAMES = tuple(name for name, _ in COLUMNS)


class Store:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(self.path), timeout=60)
        self.db.row_factory = sqlite3.Row
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute(f"CREATE TABLE IF NOT EXISTS runs ({', '.join(f'{n} {t}' for n, t in COLUMNS)})")
        self.db.execute("CREATE TABLE IF NOT EXISTS hosts (host TEXT PRIMARY KEY, info TEXT NOT NULL)")
        self.db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        self.db.execute("INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
        self.db.commit()

    def done_keys(self) -> set[str]:
        return {r[0] for r in self.db.execute("SELECT job_key FROM runs")}

    def insert(self, row: dict[str, Any]) -> None:
        """Store one finished run (replacing an older run of the same job) and commit at once."""
        machine = row.get("machine")
        if machine:
            self.db.execute("INSERT OR REPLACE INTO hosts VALUES (?, ?)",
                            (machine["host"], json.dumps(machine, sort_keys=True)))
        values = [row.get(name) for name in NAMES]
        self.db.execute(f"INSERT OR REPLACE INTO runs ({', '.join(NAMES)}) VALUES ({', '.join('?' * len(NAMES))})",
                        values)
        self.db.commit()

    def rows(self) -> list[dict[str, Any]]:
        return [dict(r) for r in self.db.execute("SELECT * FROM runs ORDER BY finished_at, job_key")]

    def hosts(self) -> dict[str, dict[str, Any]]:
        return {r[0]: json.loads(r[1]) for r in self.db.execute("SELECT host, info FROM hosts")}

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_all(paths: Iterable[str | Path]) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    """Rows and hosts of one or more databases (``--compare version`` reads one per toolkit version)."""
    rows: list[dict[str, Any]] = []
    hosts: dict[str, dict[str, Any]] = {}
    for path in paths:
        if not Path(path).exists():
            from mipgames.core.errors import InputError

            raise InputError("no such results database", path)
        try:
            with Store(path) as store:
                rows.extend(store.rows())
                hosts.update(store.hosts())
        except sqlite3.DatabaseError as exc:
            from mipgames.core.errors import InputError

            raise InputError(f"not a results database: {exc}", path) from None
    return rows, hosts
