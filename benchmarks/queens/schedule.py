"""Where the minimiser's time goes on large planted positions, and how long each target takes alone.

    PYTHONPATH=. .venv/bin/python benchmarks/queens/schedule.py [--n 64] [--queens 300] [--seeds 0,1,2]
        [--time-limit 30] [--targets 3,4,5,6,7,8] [--cap 10] [--out benchmarks/queens/schedule.md]

Two tables, one run each (timings: read them with the load beside them):

- ``trace``: ``minimise`` (the portfolio's finders and provers: lazy and eager, no incumbent) given
  --time-limit seconds; the seconds each (search, target) got, the restarts it made, and every game
  found (when, by which search, how many queens left).  Why: at N = 64 the answer varies from run to
  run, and a schedule can only be judged by where its time goes.
- ``alone``: the lazy search of each of --targets on its own, --cap seconds each: the seconds to its
  first game, '-' when none.  Why: the minimiser's targets share the time, so a target is found within
  a deadline only if its share reaches what it takes alone.
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from mipgames.queens.generate import planted  # noqa: E402
from mipgames.queens.geometry import geometry  # noqa: E402
from mipgames.queens.lazy import lazy_restarts  # noqa: E402
from mipgames.queens.levels import forest_restarts  # noqa: E402
from mipgames.queens.minimise import minimise  # noqa: E402
from mipgames.queens.prep import captures_possible  # noqa: E402


def trace(geo, seed: int, limit: float) -> tuple[list[str], dict, list]:
    """minimise with every search's run timed: (games found, seconds per (search, target), the searches)."""
    spent: dict[tuple[str, int], float] = collections.Counter()
    made: list = []
    found: list[str] = []
    began = time.monotonic()

    def timed(make, name):
        def maker(geo, target, s):
            search = make(geo, target, s)
            run = search.run

            def run_timed(deadline):
                t = time.monotonic()
                out = run(deadline)
                spent[name, target] += time.monotonic() - t
                if out[0] is not None:
                    left = geo.size - len(out[0])
                    found.append(f"{time.monotonic() - began:.1f} s: {name} search of {target}, {left} left")
                return out

            search.run = run_timed
            made.append((name, target, search))
            return search

        return maker

    bound = captures_possible(geo, bytearray(e + 1 for e in geo.exps))[2]
    finders, provers = (timed(lazy_restarts, "lazy"),), (timed(forest_restarts, "eager"),)
    best = minimise(geo, bound, began + limit, seed, finders, provers)
    found.append(f"end at {time.monotonic() - began:.1f} s: {best.remaining} left, bound {best.bound}")
    return found, spent, made


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=64)
    ap.add_argument("--queens", type=int, default=300)
    ap.add_argument("--seeds", default="0,1,2")
    ap.add_argument("--time-limit", type=float, default=30.0)
    ap.add_argument("--targets", default="3,4,5,6,7,8")
    ap.add_argument("--cap", type=float, default=10.0)
    ap.add_argument("--out", type=Path, default=HERE / "schedule.md")
    args = ap.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    targets = [int(t) for t in args.targets.split(",")]
    lines = [
        f"# The minimiser's time at N = {args.n}, {args.queens} queens (planted K = 2)",
        "",
        "    PYTHONPATH=. .venv/bin/python benchmarks/queens/schedule.py " + " ".join(sys.argv[1:]),
        "",
        f"Started {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load {os.getloadavg()[0]:.1f}.",
        "",
        f"## trace: `minimise` for {args.time_limit:g} s (lazy finders, eager provers, no incumbent)",
        "",
    ]
    for seed in seeds:
        geo = geometry(planted(args.n, 2, args.queens - 2, seed).instance)
        found, spent, made = trace(geo, seed, args.time_limit)
        restarts = {(name, target): s.run_number for name, target, s in made}
        lines += [f"Seed {seed}:", ""] + [f"- {f}" for f in found] + ["", "| search | target | seconds | restarts |"]
        lines.append("|---|---|---|---|")
        for (name, target), secs in sorted(spent.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            lines.append(f"| {name} | {target} | {secs:.1f} | {restarts[name, target]} |")
        lines.append("")
        print("\n".join(lines[-len(spent) - len(found) - 5 :]), flush=True)
    lines += [
        f"## alone: the lazy search of each target, {args.cap:g} s each (seconds to its first game)",
        "",
        "| seed | " + " | ".join(f"target {t}" for t in targets) + " |",
        "|---" * (len(targets) + 1) + "|",
    ]
    for seed in seeds:
        geo = geometry(planted(args.n, 2, args.queens - 2, seed).instance)
        cells = []
        for target in targets:
            t = time.monotonic()
            pairs, _ = lazy_restarts(geo, target, seed).run(t + args.cap)
            cells.append(f"{time.monotonic() - t:.1f}" if pairs is not None else "-")
        lines.append(f"| {seed} | " + " | ".join(cells) + " |")
        print(lines[-1], flush=True)
    lines += ["", f"Load at the end {os.getloadavg()[0]:.1f}."]
    args.out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
