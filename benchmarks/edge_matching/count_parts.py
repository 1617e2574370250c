"""Count every perfect placement of a puzzle too big to count in one sitting: the tree in parts, resumable.

    .venv/bin/python benchmarks/edge_matching/count_parts.py PUZZLE [--parts 20000] [--depth D]
        [--workers 2] [--db count_parts.sqlite] [--time-limit SECONDS] [--max-parts M] [--out FILE.md]
        [--certificate FILE.json] [--ledger FILE.tsv] [--status]

`mipgames solve PUZZLE --count` counts in one process tree and keeps nothing when it is stopped; the
exhaustive count of pieces_08x08 is ~4e11 nodes (RESULTS.md), hours on this machine.  Here the
compiled exact search (row scan, corner pinned as `--count` pins it, row look-ahead) is split at
depth D (default: columns - 2) into --parts parts (`Search(split=...)`: every parts-th choice at that
depth); each part is counted to the end by one worker and its solutions, nodes and seconds are
written to SQLite as soon as it ends.  A stopped run (Ctrl-C, kill, --time-limit) resumes where it
left off when started again with the same puzzle, parts and depth; finished parts are never redone.
`--status` prints what the database holds (while a run goes on, too) and counts nothing.

The database lives beside the run and dies with the checkout; `--ledger FILE` keeps the same rows as
text that can be committed: it is read into the database when the run starts (a count carried over
from another machine or session) and rewritten, atomically, every LEDGER_EVERY seconds and when the
run stops.  A complete count audits itself before it reports: every part with solutions and a
seeded sample of the others are counted again and must give the rows' solutions and nodes.

Each part also keeps the solutions it finds (at most KEEP a part), so the end lists them, every one
replayed by the simulator.  When every part is counted the total is the whole-board count
(type-level solutions times the symmetry and copies factors, as `--count` reports it) and is
written to --out; --certificate writes the certificate `mipgames solve --solver backtrack --count`
would (a perfect placement, replayed, with the count in its stats), which `mipgames verify` checks.
The parts are those of one tree, so the total equals `--count`'s on puzzles small enough for both
(pieces_06x06: 260 both ways; tests/edge_matching/test_count_parts.py checks a bundled planted 5x5
over two runs).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import random
import signal
import sqlite3
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO))  # this checkout's package, whichever venv runs the script

import mipgames  # noqa: E402
from mipgames.cli import read_instance  # noqa: E402
from mipgames.core import certificate  # noqa: E402
from mipgames.core.certificate import sha256  # noqa: E402
from mipgames.core.files import write_text_atomic  # noqa: E402
from mipgames.core.problem import SolveOptions  # noqa: E402
from mipgames.edge_matching.backtrack import count_stats  # noqa: E402
from mipgames.edge_matching.instance import Instance  # noqa: E402
from mipgames.edge_matching.kernel import FOUND  # noqa: E402
from mipgames.edge_matching.problem import PROBLEM  # noqa: E402
from mipgames.edge_matching.search import Search, fill_order, prepare  # noqa: E402
from mipgames.edge_matching.simulate import framed  # noqa: E402
from mipgames.run.plan import Plan  # noqa: E402
from mipgames.run.runner import finish  # noqa: E402
from mipgames.run.workers import Outbox, Workers  # noqa: E402

KEEP = 8
"""Solutions kept a part: enough to list every one of a puzzle with few (pieces_08x08: 13 or 24 with the
corner pinned), bounded for a puzzle with millions."""
LIST = 100
"""Solutions written out in the summary; the rest stay in the database."""
LEDGER_EVERY = 120.0
"""Seconds between rewrites of the ledger while a run goes on: a killed session loses at most this much."""
AUDIT = 20
"""Parts without solutions counted again when the count completes (those with solutions all are)."""
LEDGER_HEAD = "part\tsolutions\tnodes\tseconds\tkept"

SCHEMA = """
CREATE TABLE IF NOT EXISTS part (
    puzzle TEXT NOT NULL, parts INTEGER NOT NULL, depth INTEGER NOT NULL, part INTEGER NOT NULL,
    solutions INTEGER NOT NULL, nodes INTEGER NOT NULL, seconds REAL NOT NULL,
    PRIMARY KEY (puzzle, parts, depth, part)
);
CREATE TABLE IF NOT EXISTS solution (
    puzzle TEXT NOT NULL, parts INTEGER NOT NULL, depth INTEGER NOT NULL, part INTEGER NOT NULL,
    rank INTEGER NOT NULL, placement TEXT NOT NULL,
    PRIMARY KEY (puzzle, parts, depth, part, rank)
)
"""
Placement = list[tuple[int, int]]
"""(tile, turns) per cell, row-major: the edge-matching solution."""


def puzzle_key(inst: Instance) -> str:
    """The puzzle's identity in the database: its content hash, as `mipgames bench` keys instances."""
    return sha256(PROBLEM.instance_to_json(inst))


def count_part(inst: Instance, depth: int, parts: int, part: int) -> tuple[int, int, int, float, list[Placement]]:
    """(part, type-level solutions, nodes, seconds, the first KEEP solutions) of one part counted to the end.

    The search stops at each solution and goes on from there: the same tree, nodes and count as a
    counting search, which keeps only its first solution."""
    pieces = prepare(inst, "exact")
    search = Search(pieces, fill_order(inst, "rows", pieces.fixed), split=(depth, parts, part), look=True)
    start = time.perf_counter()
    kept: list[Placement] = []
    while search.run() == FOUND:
        if len(kept) < KEEP:
            kept.append(search.placement())
    return part, search.solutions, search.nodes, time.perf_counter() - start, kept


def _count_parts(out: Outbox, inst: Instance, depth: int, parts: int, mine: list[int], deadline: float | None) -> None:
    """One worker: its share of the parts, each sent as soon as it is counted; none begun after the deadline."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group: the parent stops the workers
    for part in mine:
        if deadline is not None and time.monotonic() >= deadline:
            return
        out.send("part", count_part(inst, depth, parts, part))


def open_db(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(str(path), timeout=60)
    db.executescript(SCHEMA)
    return db


def save_part(
    db: sqlite3.Connection, key: str, parts: int, depth: int, part: int, sols: int, nodes: int, secs: float, kept: list
) -> None:
    """One part's count and solutions, in one transaction: a stop never leaves a count without its solutions."""
    with db:
        db.execute(
            "INSERT OR REPLACE INTO part VALUES (?, ?, ?, ?, ?, ?, ?)", (key, parts, depth, part, sols, nodes, secs)
        )
        db.executemany(
            "INSERT OR REPLACE INTO solution VALUES (?, ?, ?, ?, ?, ?)",
            [(key, parts, depth, part, rank, json.dumps(p)) for rank, p in enumerate(kept)],
        )


def kept_solutions(
    inst: Instance, db: sqlite3.Connection, key: str, parts: int, depth: int, done: dict[int, tuple[int, int, float]]
) -> list[tuple[int, Placement]]:
    """(part, placement) of every kept solution, part by part.  A part with solutions and none kept (counted
    before parts kept them) is searched again here, once: parts with solutions are few."""
    rows = db.execute(
        "SELECT part, placement FROM solution WHERE puzzle = ? AND parts = ? AND depth = ? ORDER BY part, rank",
        (key, parts, depth),
    ).fetchall()
    have = {p for p, _ in rows}
    for part, (sols, _, _) in sorted(done.items()):
        if sols and part not in have:
            _, again, nodes, secs, kept = count_part(inst, depth, parts, part)
            if again != sols:
                raise RuntimeError(f"part {part} counted {again} solutions again, {sols} before")
            save_part(db, key, parts, depth, part, sols, nodes, secs, kept)
            rows += [(part, json.dumps(p)) for p in kept]
    return [(p, [(int(t), int(a)) for t, a in json.loads(text)]) for p, text in sorted(rows, key=lambda row: row[0])]


def write_ledger(path: Path, db: sqlite3.Connection, key: str, parts: int, depth: int) -> None:
    """Every counted part of this split, with its kept solutions, as tab-separated text (rewritten atomically)."""
    kept: dict[int, list] = {}
    for part, text in db.execute(
        "SELECT part, placement FROM solution WHERE puzzle = ? AND parts = ? AND depth = ? ORDER BY part, rank",
        (key, parts, depth),
    ):
        kept.setdefault(part, []).append(json.loads(text))
    lines = [
        "# count_parts.py ledger: one row a counted part; kept = its first solutions, (tile, turns) a cell",
        f"# puzzle {key} parts {parts} depth {depth}",
        LEDGER_HEAD,
    ]
    for part, (sols, nodes, secs) in sorted(done_parts(db, key, parts, depth).items()):
        extra = json.dumps(kept[part], separators=(",", ":")) if part in kept else ""
        lines.append(f"{part}\t{sols}\t{nodes}\t{secs:.2f}\t{extra}")
    write_text_atomic(path, "\n".join(lines) + "\n")


def read_ledger(path: Path, db: sqlite3.Connection, key: str, parts: int, depth: int) -> int:
    """Rows of a ledger not yet in the database, added to it; returns how many.  A ledger of another
    puzzle or split, or a malformed row, is a LedgerError naming the file and line: nothing is added then."""
    if not path.exists():
        return 0
    rows, sols_rows = [], []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        bad = functools.partial(_bad_row, path, number, line)
        if number == 2 and line != f"# puzzle {key} parts {parts} depth {depth}":
            raise bad(f"not a ledger of this puzzle split in {parts} parts at depth {depth}")
        if line.startswith("#") or line == LEDGER_HEAD or not line:
            continue
        fields = line.split("\t")
        try:
            part, sols, nodes, secs = int(fields[0]), int(fields[1]), int(fields[2]), float(fields[3])
            kept = json.loads(fields[4]) if len(fields) == 5 and fields[4] else []
        except (ValueError, IndexError):
            raise bad("expected part, solutions, nodes, seconds and kept solutions") from None
        if not (0 <= part < parts and sols >= 0 and nodes > 0 and secs >= 0 and len(fields) == 5):
            raise bad("a value out of range")
        if not isinstance(kept, list) or len(kept) > min(sols, KEEP):
            raise bad("more kept solutions than the part has")
        rows.append((key, parts, depth, part, sols, nodes, secs))
        sols_rows += [(key, parts, depth, part, rank, json.dumps(p)) for rank, p in enumerate(kept)]
    with db:
        before = db.total_changes
        db.executemany("INSERT OR IGNORE INTO part VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
        added = db.total_changes - before
        db.executemany("INSERT OR IGNORE INTO solution VALUES (?, ?, ?, ?, ?, ?)", sols_rows)
    return added


class LedgerError(ValueError):
    """A ledger that is not this count's, or a malformed row: bad input (exit 4), not a failure of the count."""


def _bad_row(path: Path, number: int, line: str, what: str) -> LedgerError:
    return LedgerError(f"{path}:{number}: {what}: {line[:60]!r}")


def audit(inst: Instance, done: dict[int, tuple[int, int, float]], parts: int, depth: int, seed: int = 0) -> list[int]:
    """Count again every part with solutions and AUDIT others (seeded): each must repeat its row's
    solutions and nodes, or the count is not trusted.  Returns the parts checked."""
    rich = sorted(p for p, (s, _, _) in done.items() if s)
    rest = sorted(set(done) - set(rich))
    sample = sorted(random.Random(seed).sample(rest, min(AUDIT, len(rest))))
    for part in rich + sample:
        _, sols, nodes, _, _ = count_part(inst, depth, parts, part)
        if (sols, nodes) != done[part][:2]:
            raise RuntimeError(
                f"part {part} counted again gives {sols} solutions in {nodes} nodes; "
                f"its row says {done[part][0]} in {done[part][1]}"
            )
    return rich + sample


def done_parts(db: sqlite3.Connection, key: str, parts: int, depth: int) -> dict[int, tuple[int, int, float]]:
    rows = db.execute(
        "SELECT part, solutions, nodes, seconds FROM part WHERE puzzle = ? AND parts = ? AND depth = ?",
        (key, parts, depth),
    )
    return {p: (s, n, t) for p, s, n, t in rows}


def count(
    inst: Instance,
    db_path: Path,
    parts: int,
    depth: int,
    workers: int,
    deadline: float | None,
    quiet: bool = False,
    max_parts: int | None = None,
    ledger: Path | None = None,
) -> dict[int, tuple[int, int, float]]:
    """Count the parts not yet in the database (at most ``max_parts`` of them, none begun after
    ``deadline``); returns every part counted so far.  With a ``ledger``, its rows are read into the
    database first and it is rewritten every LEDGER_EVERY seconds and when the run stops.

    The workers are forked (`run.workers.Workers`): they die with this process and are
    killed and reaped when it returns or raises, so a part still counting is lost, not waited for,
    and is counted again on resume.  Worker w takes every workers-th part left: parts are many and
    alike (RESULTS.md), so a static share keeps both cores busy to the end.
    """
    key = puzzle_key(inst)
    db = open_db(db_path)
    if ledger is not None:
        read_ledger(ledger, db, key, parts, depth)
    done = done_parts(db, key, parts, depth)
    todo = [p for p in range(parts) if p not in done][:max_parts]
    began, before = time.monotonic(), len(done)
    written = began
    try:
        with Workers() as pool:
            for w in range(min(workers, len(todo))):
                pool.start(_count_parts, inst, depth, parts, todo[w::workers], deadline)
            for _, kind, payload in pool.messages(None):
                if kind == "error":
                    raise RuntimeError(f"a counting worker failed: {payload}")
                part, sols, nodes, secs, kept = payload
                save_part(db, key, parts, depth, part, sols, nodes, secs, kept)
                done[part] = (sols, nodes, secs)
                if ledger is not None and time.monotonic() - written >= LEDGER_EVERY:
                    write_ledger(ledger, db, key, parts, depth)
                    written = time.monotonic()
                if not quiet:
                    _progress(done, parts, before, began)
    finally:
        if ledger is not None:
            write_ledger(ledger, db, key, parts, depth)
        db.close()
    return done


def _progress(done: dict[int, tuple[int, int, float]], parts: int, before: int, began: float) -> None:
    sols = sum(s for s, _, _ in done.values())
    nodes = sum(n for _, n, _ in done.values())
    now = len(done) - before
    elapsed = time.monotonic() - began
    eta = elapsed / now * (parts - len(done)) if now else float("nan")
    print(
        f"\r{len(done):,}/{parts:,} parts  {sols:,} solutions  {nodes:.3e} nodes  "
        f"{elapsed:,.0f} s this run, about {eta:,.0f} s to go ",
        end="",
        file=sys.stderr,
        flush=True,
    )


def replayed(inst: Instance, solutions: list[tuple[int, Placement]]) -> list[tuple[int, Placement]]:
    """The kept solutions, each replayed by the simulator: perfect and all different, or an error."""
    seen: set[str] = set()
    for part, placement in solutions:
        verdict = PROBLEM.evaluate(inst, {}, placement)
        if not verdict.legal or verdict.objective != 0:
            raise RuntimeError(
                f"a solution of part {part} is not a perfect placement: {verdict.reason or verdict.objective}"
            )
        text = json.dumps(placement)
        if text in seen:
            raise RuntimeError(f"part {part} repeats a solution of an earlier part")
        seen.add(text)
    return solutions


def summary(
    inst: Instance,
    name: str,
    done: dict[int, tuple[int, int, float]],
    parts: int,
    depth: int,
    solutions: list[tuple[int, Placement]] | None = None,
    audited: list[int] | None = None,
) -> str:
    """The count in words (markdown); with ``solutions``, each kept solution as its rows of tile/turns;
    ``audited``: the parts ``audit`` counted again (each repeated its row)."""
    sols = sum(s for s, _, _ in done.values())
    nodes = sum(n for _, n, _ in done.values())
    cpu = sum(t for _, _, t in done.values())
    complete = len(done) == parts
    stats = count_stats(prepare(inst, "exact"), sols, complete)
    lines = [
        f"# {name}: perfect placements counted in {parts:,} parts (split at depth {depth})",
        "",
        f"    .venv/bin/python benchmarks/edge_matching/count_parts.py {name} --parts {parts} --depth {depth}",
        "",
        f"- parts counted: {len(done):,} of {parts:,}{'' if complete else ' (count not complete)'}",
        f"- type-level solutions (corner pinned): {sols:,}",
        f"- perfect placements: {stats['solutions']:,}"
        if complete
        else f"- perfect placements: at least {stats['solutions_found']:,}",
        f"- nodes: {nodes:,} ({cpu:,.0f} s of one core, {nodes / max(cpu, 1e-9) / 1e6:.1f} M nodes/s)",
    ]
    if done and not complete:
        left = cpu / len(done) * (parts - len(done))
        lines.append(f"- left, at the mean part so far: about {left / 3600:,.1f} h of one core")
    if stats.get("solutions_up_to_board_turns") is not None:
        lines.append(f"- up to turns of the whole board: {stats['solutions_up_to_board_turns']:,}")
    for field in ("symmetry_note", "count_copies_note"):
        if stats.get(field):
            lines.append(f"- {stats[field]}")
    if audited:
        rich = sum(1 for p in audited if done[p][0])
        lines.append(
            f"- audit: {len(audited):,} parts counted again ({rich:,} with solutions, {len(audited) - rich:,} "
            "drawn at random, seeded), each repeated its solutions and nodes"
        )
    if solutions:
        lines += [
            "",
            f"## Type-level solutions kept: {len(solutions):,}, each replayed (tile/turns, row by row)",
            "",
        ]
        for i, (part, placement) in enumerate(solutions[:LIST], 1):
            lines += [f"{i}. part {part}:", ""]
            for r in range(inst.rows):
                row = placement[r * inst.cols : (r + 1) * inst.cols]
                lines.append("       " + " ".join(f"{t:>3}/{a}" for t, a in row))
            lines.append("")
        if len(solutions) > LIST:
            lines.append(f"... and {len(solutions) - LIST:,} more in the database (table `solution`)")
    return "\n".join(lines) + "\n"


def count_certificate(
    raw: Instance,
    inst: Instance,
    path: Path,
    text_sha: str,
    done: dict[int, tuple[int, int, float]],
    parts: int,
    depth: int,
    first: Placement | None,
) -> dict:
    """The certificate `mipgames solve PUZZLE --solver backtrack --count` writes, for a complete count in parts.

    With solutions, ``first`` is replayed as the solution (objective 0, bound 0: a perfect placement)
    and the count is in the stats; with none, the exhausted tree proves that no perfect placement
    exists (status infeasible, in decision mode, as `--mode decision --count` says it).  The runner's
    own claim rule (`finish`) judges it; the time is the parts' seconds on one core.  ``raw`` is the
    puzzle as read (the certificate's instance), ``inst`` the same with its frame marked (what was counted)."""
    sols = sum(s for s, _, _ in done.values())
    stats = count_stats(prepare(inst, "exact"), sols, len(done) == parts)
    stats.update(
        nodes=sum(n for _, n, _ in done.values()),
        parts=parts,
        split_depth=depth,
        counted_by="benchmarks/edge_matching/count_parts.py",
    )
    params = {**PROBLEM.default_params(), "count": True}
    data: dict = {"stats": stats, "wall_time_s": sum(t for _, _, t in done.values()), "version": mipgames.__version__}
    if first is None:
        params["mode"] = "decision"
        data.update(status="infeasible", message="no placement matches every inner edge (count complete: 0)")
    else:
        data.update(
            status="optimal",
            objective=0.0,
            bound=0.0,
            solution_json=PROBLEM.solution_to_json(first),
            message=f"{stats['solutions']:,} perfect placements, counted in {parts:,} parts",
        )
    result = finish(PROBLEM, raw, Plan("backtrack", None, "algorithm"), params, SolveOptions(), data)
    return certificate.build(PROBLEM, raw, result, instance_path=str(path), instance_text_sha256=text_sha)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("puzzle", type=Path)
    ap.add_argument("--parts", type=int, default=20000)
    ap.add_argument("--depth", type=int, default=None, help="split depth (default: columns - 2)")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--db", type=Path, default=HERE / "count_parts.sqlite")
    ap.add_argument("--time-limit", type=float, default=None, help="start no part after this many seconds")
    ap.add_argument("--max-parts", type=int, default=None, help="count at most this many parts in this run")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--certificate", type=Path, default=None, help="write the count's certificate here when complete")
    ap.add_argument(
        "--ledger", type=Path, default=None, help="the count as text to commit: read first, kept up to date"
    )
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--status", action="store_true", help="print what the database holds and count nothing")
    args = ap.parse_args()
    raw, text_sha = read_instance(PROBLEM, str(args.puzzle))
    inst, _ = framed(raw, {})  # colour 0 marks the frame, as `mipgames solve` reads it
    depth = args.depth if args.depth is not None else max(0, inst.cols - 2)
    deadline = time.monotonic() + args.time_limit if args.time_limit is not None else None
    signal.signal(signal.SIGTERM, _interrupt)  # kill: stop as Ctrl-C does, the workers with it
    try:
        if args.status:
            db = open_db(args.db)
            try:
                if args.ledger is not None:
                    read_ledger(args.ledger, db, puzzle_key(inst), args.parts, depth)
                done = done_parts(db, puzzle_key(inst), args.parts, depth)
            finally:
                db.close()
            print(summary(inst, args.puzzle.name, done, args.parts, depth))
            return
        done = count(inst, args.db, args.parts, depth, args.workers, deadline, args.quiet, args.max_parts, args.ledger)
        solutions = None
        audited = None
        if len(done) == args.parts:
            audited = audit(inst, done, args.parts, depth)
            db = open_db(args.db)
            try:
                solutions = replayed(inst, kept_solutions(inst, db, puzzle_key(inst), args.parts, depth, done))
            finally:
                db.close()
    except KeyboardInterrupt:
        print("\nstopped; run again to resume", file=sys.stderr)
        sys.exit(130)
    except LedgerError as exc:
        print(f"count_parts.py: {exc}", file=sys.stderr)
        sys.exit(4)
    text = summary(inst, args.puzzle.name, done, args.parts, depth, solutions, audited)
    print("\n" + text)
    if args.out is not None:
        write_text_atomic(args.out, text)
    if args.certificate is not None and solutions is None:
        print(f"certificate not written: the count is not complete ({len(done):,} of {args.parts:,} parts)")
    elif args.certificate is not None:
        first = solutions[0][1] if solutions else None
        cert = count_certificate(raw, inst, args.puzzle, text_sha, done, args.parts, depth, first)
        certificate.write_json_atomic(args.certificate, cert)
        print(f"certificate: {args.certificate} ({cert['status']})")


if __name__ == "__main__":
    main()
