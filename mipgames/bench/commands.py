"""``mipgames bench INSTANCES... --solvers ... --db FILE --report DIR`` and ``mipgames bench report --db FILE``.

One subcommand with an optional leading word ``report``: argparse cannot mix
a positional instance list with a nested subcommand, and the CLI's own
parser hands us the arguments already split.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable
from typing import Any

from mipgames.bench import sets, stats
from mipgames.core.arguments import SWITCHES_SHOWN
from mipgames.core.errors import UsageError
from mipgames.core.problem import BACKEND_NAMES, MAX_SEED, MAX_THREADS

USAGE = """mipgames bench INSTANCE... --solvers cbc,glpk,highs,cpsat [--formulations F,...] [--time-limit SEC]
                      [--repeats N] [--jobs N | --scheduler tcp://HOST:8786] [--threads N] [--seed S]
                      [--param NAME=VALUE] [--benchmarks DIR] --db results.sqlite [--report DIR] [--resume]
                      [--csv FILE] [--parquet FILE] [--shift SEC] [--json]
       mipgames bench report --db results.sqlite [--db other.sqlite] [--compare formulation|version [A B]]
                      [--report DIR] [--csv FILE] [--parquet FILE] [--shift SEC] [--json]

An INSTANCE written public:PATH is PATH inside the public benchmark sets' folder
(--benchmarks DIR, else $MIPGAMES_BENCHMARKS, else ../shared/benchmarks beside the repository)."""


def _csv(text: str) -> list[str]:
    items = [t.strip() for t in text.split(",") if t.strip()]
    if not items:
        raise argparse.ArgumentTypeError("give at least one name")
    return items


MAX_SHIFT_S = 3600.0
"""The largest shift of the shifted geometric means: past it every mean is the shift itself (1e17 gave 96.0 s
for runs of milliseconds, through rounding)."""


def _int_in(lo: int, hi: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text[:30])
        except ValueError:
            raise argparse.ArgumentTypeError(f"not an integer: {text[:30]!r}") from None
        if not lo <= value <= hi or len(text) > 30:
            raise argparse.ArgumentTypeError(f"must be from {lo} to {hi}")
        return value

    return parse


def _seconds(zero_ok: bool, most: float = math.inf) -> Callable[[str], float]:
    def parse(text: str) -> float:
        try:
            value = float(text[:30])
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text[:30]!r}") from None
        if not math.isfinite(value) or value < 0 or (value == 0 and not zero_ok):
            raise argparse.ArgumentTypeError(f"must be a finite number of seconds {'>= 0' if zero_ok else '> 0'}")
        if value > most:
            raise argparse.ArgumentTypeError(f"must be at most {most:,g} seconds, got {text[:30]}")
        return value

    return parse


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "bench",
        help="benchmark campaign: solvers × formulations × instances into SQLite, with a report",
        usage=USAGE,
        description="Run every (instance, formulation, solver, repeat) job, each in its own process "
        "with one thread and a hard timeout, store each finished run at once in SQLite, and write a Markdown "
        "report with plots.  `mipgames bench report` rewrites the report from the database alone.",
    )
    p.add_argument(
        "instances",
        nargs="*",
        metavar="INSTANCE",
        help="instance files or directories (or the word `report` to report only)",
    )
    run = p.add_argument_group("campaign")
    run.add_argument(
        "--solvers", type=_csv, help=f"comma-separated: {', '.join(BACKEND_NAMES)}, or a problem's algorithms"
    )
    run.add_argument("--formulations", type=_csv, help="comma-separated formulations (default: each solver's default)")
    run.add_argument(
        "--time-limit",
        type=_seconds(zero_ok=False),
        default=60.0,
        metavar="SEC",
        help="per-run time limit (reading and building included), the same for every solver (default 60)",
    )
    run.add_argument(
        "--repeats",
        "--repeat",
        dest="repeats",
        type=_int_in(1, 1000),
        default=1,
        metavar="N",
        help="runs per job; summaries use each job's median run, the report gives min/median/max (default 1)",
    )
    run.add_argument(
        "--jobs",
        type=_int_in(1, 1024),
        default=1,
        metavar="N",
        help="parallel job slots: N>1 starts a local Dask cluster of N worker processes (default 1: "
        "serial, no cluster)",
    )
    run.add_argument("--scheduler", metavar="ADDRESS", help="send the jobs to an existing Dask scheduler instead")
    run.add_argument("--threads", type=_int_in(1, MAX_THREADS), default=1, help="solver threads per run (default 1)")
    run.add_argument(
        "--seed", type=_int_in(0, MAX_SEED), default=0, help="solver seed, the same for every run (default 0)"
    )
    run.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a problem parameter for every instance of problems that have it (repeatable; NAME in either "
        f"spelling, minimise or minimize; switches: {SWITCHES_SHOWN})",
    )
    run.add_argument("--problem", help="problem name when the path does not tell it")
    run.add_argument(
        "--problem-module",
        metavar="MODULE",
        help="importable module providing PROBLEM (a problem outside mipgames, e.g. a test problem)",
    )
    run.add_argument(
        "--benchmarks",
        metavar="DIR",
        help=f"the public benchmark sets' folder that public:PATH instances are in (default "
        f"${sets.ENV}, else ../shared/benchmarks beside the repository)",
    )
    run.add_argument("--resume", action="store_true", help="run only the jobs not already in the database")
    run.add_argument("--quiet", action="store_true", help="no progress bar (progress goes to standard error)")
    rep = p.add_argument_group("report")
    rep.add_argument("--db", action="append", metavar="FILE", help="results database (report: repeatable)")
    rep.add_argument(
        "--report",
        metavar="DIR",
        help="write report.md, PNG plots and runs.csv/jobs.csv/summary.csv (runs.parquet when pandas "
        "and pyarrow are installed) here",
    )
    rep.add_argument(
        "--compare", nargs="+", metavar="KIND", help="`formulation [A B]` or `version [A B]`: put two side by side"
    )
    rep.add_argument("--csv", metavar="FILE", help="also write every run as CSV here")
    rep.add_argument(
        "--parquet", metavar="FILE", help="also write every run as Parquet here (needs pandas and pyarrow)"
    )
    rep.add_argument(
        "--shift",
        type=_seconds(zero_ok=True, most=MAX_SHIFT_S),
        default=stats.SHIFT_S,
        metavar="SEC",
        help=f"shift of the shifted geometric means (default {stats.SHIFT_S:g})",
    )
    rep.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object (counts and summary lines) on standard output, nothing else",
    )
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    if args.instances[:1] == ["report"]:
        return cmd_report(args)
    return cmd_run(args)


def _params(items: list[str]) -> dict[str, str]:
    out = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise UsageError(f"--param {item!r}: write NAME=VALUE")
        out[name.strip().replace("-", "_")] = value.strip()
    return out


def _outputs(
    args: argparse.Namespace,
    rows: list[dict[str, Any]],
    hosts: dict[str, dict[str, Any]],
    extra: dict[str, Any] | None = None,
) -> None:
    """The report folder, the exports and the JSON object (or the report's path) for these rows."""
    from mipgames.bench import export, report, tables

    if not rows:
        raise UsageError(f"no runs in {', '.join(args.db)}")
    summaries = report.problem_summaries(rows, args.shift)
    written: dict[str, str] = {}
    if args.report:
        written["report"] = str(
            report.write(rows, hosts, args.report, args.db, compare=args.compare, shift=args.shift, summaries=summaries)
        )
    if args.csv:
        written["csv"] = str(export.write_runs_csv(rows, args.csv))
    if args.parquet:
        written["parquet"] = str(export.write_runs_parquet(rows, args.parquet))
    if not args.json:
        if "report" in written:
            print(written["report"])
        return
    out = {
        "databases": args.db,
        **(extra or {}),
        "counts": tables.counts(rows),
        "instances": len({r["instance_sha256"] for r in rows}),
        "sgm_shift_s": args.shift,
        "summary": tables.summary_records(summaries, args.shift),
        "disagreements": tables.disagreements(rows),
        "files": written,
    }
    print(json.dumps(out, indent=2, allow_nan=False))


def _check_outputs(args: argparse.Namespace, inputs: list[Any]) -> None:
    """Refuse, before any run, an export or a report file that would replace a results database, an instance
    file or another output (``--csv results.sqlite`` replaced the database with its own export)."""
    from pathlib import Path

    from mipgames.bench.campaign import instance_files
    from mipgames.bench.report import DATA_FILES
    from mipgames.core.files import distinct_outputs, writable_folder, writable_output

    sources = [*args.db, *instance_files(inputs)] if inputs else list(args.db)
    distinct_outputs(sources, args.csv, args.parquet)
    for export in (args.csv, args.parquet):
        if export is not None:
            writable_output(export)
    if args.report:
        folder = Path(args.report).resolve()
        for named in [*sources, args.csv, args.parquet]:  # before a campaign runs: --report X --db X failed after it
            if named is not None and Path(named).resolve() == folder:
                raise UsageError(f"--report {args.report}: the same path as {named}; name each output once")
        writable_folder(args.report)
        report_files = (*DATA_FILES, "report.md", "runs.parquet")
        for name in report_files:
            if (folder / name).exists() and not (folder / name).is_file():
                raise UsageError(f"{folder / name}: the report writes this file, and it is not a file")
        for named in [*sources, args.csv, args.parquet]:
            where = None if named is None else Path(named).resolve()
            if where is not None and where.parent == folder and (where.name in report_files or where.suffix == ".png"):
                raise UsageError(f"{named}: the report in {args.report} writes a file of that name; move one of them")


def cmd_report(args: argparse.Namespace) -> int:
    from mipgames.bench import store

    if len(args.instances) > 1:
        raise UsageError("`mipgames bench report` takes no instances (it reads the database)")
    if not args.db:
        raise UsageError("`mipgames bench report` needs --db FILE")
    if not (args.report or args.csv or args.parquet or args.json):
        raise UsageError(
            "`mipgames bench report` needs something to write: --report DIR, --csv FILE, --parquet FILE or --json"
        )
    if args.compare and not args.report:
        raise UsageError("--compare needs --report DIR (it adds a section and a plot to the report)")
    if args.parquet:
        _check_parquet()
    _check_outputs(args, [])
    rows, hosts, replaced = store.read_all(args.db)
    if replaced:
        print(
            f"mipgames bench: {replaced} run(s) of jobs stored in more than one database: the latest of each is used",
            file=sys.stderr,
        )
    _outputs(args, rows, hosts)
    return 0


def _check_parquet() -> None:
    """Refuse --parquet before any work when no engine can write it."""
    from mipgames.bench import export

    if export.parquet_engine() is None:
        raise UsageError(
            "--parquet needs pandas and pyarrow (or fastparquet): pip install pandas pyarrow; --csv needs nothing"
        )


def cmd_run(args: argparse.Namespace) -> int:
    from mipgames.bench import campaign, sets
    from mipgames.bench.store import Store

    if not args.instances:
        raise UsageError("give instance files (or `mipgames bench report ...`)")
    if not args.solvers:
        raise UsageError("--solvers is required, e.g. --solvers cbc,glpk,highs,cpsat")
    if not args.db or len(args.db) > 1:
        raise UsageError("a campaign writes one --db FILE")
    if args.compare:
        raise UsageError("--compare belongs to `mipgames bench report`")
    if args.scheduler and args.jobs > 1:
        raise UsageError("--jobs starts a local cluster; --scheduler uses yours: give one of them")
    if args.parquet:
        _check_parquet()
    paths = [sets.resolve(p, args.benchmarks) for p in args.instances]
    _check_outputs(args, paths)
    jobs, notes = campaign.plan_jobs(
        paths,
        args.solvers,
        args.formulations,
        _params(args.param),
        time_limit=args.time_limit,
        threads=args.threads,
        seed=args.seed,
        repeats=args.repeats,
        problem=args.problem,
        module=args.problem_module,
    )
    for note in notes:
        print(f"mipgames bench: {note}", file=sys.stderr)
    with Store(args.db[0]) as db:
        db.rows()  # a damaged stored row is refused before any run, not after the campaign
        done = db.done_keys()
        finished = [j for j in jobs if j.key() in done]
        if finished and not args.resume:
            raise UsageError(
                f"{args.db[0]} already holds {len(finished)} of these {len(jobs)} runs: add --resume "
                "to run only the missing ones, or use a new --db"
            )
        todo = [j for j in jobs if j.key() not in done]
        from mipgames import __version__

        older = db.toolkit_versions({j.key() for j in finished}) - {__version__}
        if older:  # a job's key names what it runs, not which toolkit ran it: `make bench` reported old runs
            print(
                f"mipgames bench: {len(finished)} of these runs are kept from before, made by mipgames "
                f"{', '.join(sorted(older))} (this is {__version__}): to measure this version, use a new --db",
                file=sys.stderr,
            )
        print(
            f"{len(jobs)} runs planned, {len(finished)} already stored, {len(todo)} to run "
            f"({'serial' if args.jobs <= 1 and not args.scheduler else args.scheduler or f'{args.jobs} workers'})",
            file=sys.stderr,
        )
        start = time.perf_counter()
        try:
            counts = campaign.run(todo, db, n_jobs=args.jobs, scheduler=args.scheduler, quiet=args.quiet)
        except BaseException:
            db.discard_if_empty()  # a scheduler that never answered, Ctrl-C before the first run: no empty file left
            raise
        elapsed = time.perf_counter() - start
        print(
            f"{len(todo)} runs in {elapsed:.1f} s: {counts.solved} solved, {counts.timeout} timeout, "
            f"{counts.error} error"
            + (f", {counts.failed_verification} FAILED VERIFICATION" if counts.failed_verification else ""),
            file=sys.stderr,
        )
        rows, hosts = db.rows(), db.hosts()
    keys = {j.key() for j in jobs}
    campaign_rows = [r for r in rows if r["job_key"] in keys]
    session = {
        "planned": len(jobs),
        "already_stored": len(finished),
        "ran": len(todo),
        "elapsed_s": round(elapsed, 3),
        **counts.as_dict(),
    }
    _outputs(args, campaign_rows, hosts, {"campaign": session, "skipped": notes})
    failed = sum(bool(r.get("verification_failed")) for r in campaign_rows)
    return 1 if counts.failed_verification or failed else 0
