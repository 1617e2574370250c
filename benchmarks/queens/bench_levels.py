"""Level search on planted positions as they grow: median wall time over seeds, solved counts.

Run: .venv/bin/python benchmarks/queens/bench_levels.py [--seeds 5] [--limit 60] [--methods levels portfolio]
     [--sizes 32x1x99]
Every answer goes through the shared runner (isolated child, replay by the simulator); a run
without an answer in the limit counts as the limit in the median (so a median below the limit
means more than half of the seeds were solved).  Shared 2-core machine: read ratios.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from mipgames.core.problem import SolveOptions
from mipgames.run.runner import solve
from mipgames.queens.generate import planted
from mipgames.queens.problem import PROBLEM

SIZES = [(16, 1, 39), (24, 1, 69), (32, 1, 99), (32, 3, 97)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--limit", type=float, default=60.0)
    parser.add_argument("--methods", nargs="+", default=["levels"])
    parser.add_argument("--sizes", nargs="+", default=None, help="NxKxMOVES, e.g. 32x1x99 (default: all)")
    args = parser.parse_args()
    sizes = SIZES if args.sizes is None else [tuple(map(int, text.split("x"))) for text in args.sizes]
    print(f"# level search, planted positions ({time.strftime('%Y-%m-%d %H:%M')} UTC, limit {args.limit:g} s)\n")
    print("| N | K | Q | method | median s | solved | per seed (s) |\n|---|---|---|---|---|---|---|")
    for n, k, moves in sizes:
        for method in args.methods:
            times, solved = [], 0
            for seed in range(args.seeds):
                instance = planted(n, k, moves, seed).instance
                start = time.perf_counter()
                result = solve(PROBLEM, instance, solver=method, options=SolveOptions(time_limit=args.limit, threads=1),
                               isolate=True)
                wall = time.perf_counter() - start
                ok = result.status in ("optimal", "feasible") and result.verdict.measured["remaining"] <= k
                solved += ok
                times.append(wall if ok else args.limit)
                if result.status == "error":
                    print(f"error: seed {seed}: {result.message}", file=sys.stderr)
            cells = " ".join(f"{t:.1f}" if t < args.limit else f">{args.limit:g}" for t in times)
            print(f"| {n} | {k} | {k + moves} | {method} | {statistics.median(times):.1f} | {solved}/{args.seeds} "
                  f"| {cells} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
