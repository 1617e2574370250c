"""``mipgames bench INSTANCES... --solvers ... --db FILE --report DIR`` and ``mipgames bench report --db FILE``.

One subcommand with an optional leading word ``report``: argparse cannot mix
a positional instance list with a nested subcommand, and the CLI's own
parser hands us the arguments already split.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from mipgames.core.errors import UsageError

USAGE = """mipgames bench INSTANCE... --solvers cbc,glpk,highs,cpsat [--formulations F,...] [--time-limit SEC]
                      [--repeat N] [--jobs N | --scheduler tcp://HOST:8786] [--threads N] [--seed S]
                      [--param NAME=VALUE] --db results.sqlite [--report DIR] [--resume]
       mipgames bench report --db results.sqlite [--db other.sqlite] [--compare formulation|version [A B]]
                      --report DIR"""


def _csv(text: str) -> list[str]:
    items = [t.strip() for t in text.split(",") if t.strip()]
    if not items:
        raise argparse.ArgumentTypeError("give at least one name")
    return items


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _positive(text: str) -> float:
    value = float(text)
    if value <= 0:
        raise argparse.ArgumentTypeError("must be positive")
    return value


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "bench", help="benchmark campaign: solvers × formulations × instances into SQLite, with a report",
        usage=USAGE, description="Run every (instance, formulation, solver, repeat) job, each in its own process "
        "with one thread and a hard timeout, store each finished run at once in SQLite, and write a Markdown "
        "report with plots.  `mipgames bench report` rewrites the report from the database alone.")
    p.add_argument("instances", nargs="*", metavar="INSTANCE",
                   help="instance files or directories (or the word `report` to report only)")
    run = p.add_argument_group("campaign")
    run.add_argument("--solvers", type=_csv, help="comma-separated: cbc, glpk, highs, cpsat, or a problem's algorithms")
    run.add_argument("--formulations", type=_csv, help="comma-separated formulations (default: each solver's default)")
    run.add_argument("--time-limit", type=_positive, default=60.0, metavar="SEC",
                     help="per-run solver time limit, the same for every solver (default 60)")
    run.add_argument("--repeat", type=_positive_int, default=1, metavar="N", help="runs per job (default 1)")
    run.add_argument("--jobs", type=_positive_int, default=1, metavar="N",
                     help="parallel job slots: N>1 starts a local Dask cluster of N worker processes (default 1: "
                          "serial, no cluster)")
    run.add_argument("--scheduler", metavar="ADDRESS", help="send the jobs to an existing Dask scheduler instead")
    run.add_argument("--threads", type=_positive_int, default=1, help="solver threads per run (default 1)")
    run.add_argument("--seed", type=int, default=0, help="solver seed, the same for every run (default 0)")
    run.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                     help="a problem parameter for every instance of problems that have it (repeatable)")
    run.add_argument("--problem", help="problem name when the path does not tell it")
    run.add_argument("--problem-module", metavar="MODULE",
                     help="importable module providing PROBLEM (a problem outside mipgames, e.g. a test problem)")
    run.add_argument("--resume", action="store_true", help="run only the jobs not already in the database")
    run.add_argument("--quiet", action="store_true", help="no progress bar")
    rep = p.add_argument_group("report")
    rep.add_argument("--db", action="append", metavar="FILE", help="results database (report: repeatable)")
    rep.add_argument("--report", metavar="DIR", help="write report.md and PNG plots here")
    rep.add_argument("--compare", nargs="+", metavar="KIND",
                     help="`formulation [A B]` or `version [A B]`: put two side by side")
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


def cmd_report(args: argparse.Namespace) -> int:
    from mipgames.bench import report, store

    if len(args.instances) > 1:
        raise UsageError("`mipgames bench report` takes no instances (it reads the database)")
    if not args.db or not args.report:
        raise UsageError("`mipgames bench report` needs --db FILE and --report DIR")
    rows, hosts = store.read_all(args.db)
    path = report.write(rows, hosts, args.report, args.db, compare=args.compare)
    print(path)
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from mipgames.bench import campaign, report
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
    jobs, notes = campaign.plan_jobs(args.instances, args.solvers, args.formulations, _params(args.param),
                                     time_limit=args.time_limit, threads=args.threads, seed=args.seed,
                                     repeat=args.repeat, problem=args.problem, module=args.problem_module)
    for note in notes:
        print(f"mipgames bench: {note}", file=sys.stderr)
    with Store(args.db[0]) as db:
        done = db.done_keys()
        finished = [j for j in jobs if j.key() in done]
        if finished and not args.resume:
            raise UsageError(f"{args.db[0]} already holds {len(finished)} of these {len(jobs)} runs: add --resume "
                             "to run only the missing ones, or use a new --db")
        todo = [j for j in jobs if j.key() not in done]
        print(f"{len(jobs)} runs planned, {len(finished)} already stored, {len(todo)} to run "
              f"({'serial' if args.jobs <= 1 and not args.scheduler else args.scheduler or f'{args.jobs} workers'})",
              file=sys.stderr)
        start = time.perf_counter()
        counts = campaign.run(todo, db, n_jobs=args.jobs, scheduler=args.scheduler, quiet=args.quiet)
        elapsed = time.perf_counter() - start
        print(f"{len(todo)} runs in {elapsed:.1f} s: {counts.solved} solved, {counts.timeout} timeout, "
              f"{counts.error} error" + (f", {counts.failed_verification} FAILED VERIFICATION"
                                         if counts.failed_verification else ""), file=sys.stderr)
        rows, hosts = db.rows(), db.hosts()
    if args.report:
        keys = {j.key() for j in jobs}
        print(report.write([r for r in rows if r["job_key"] in keys], hosts, args.report, args.db))
    return 1 if counts.failed_verification else 0
