"""Board size x method x median time for min-remaining on random boards (MIP vs CP-SAT vs exact search).

    .venv/bin/python benchmarks/samegame/models.py [--seeds 3] [--time-limit 60] [--colours 3]

Prints a markdown table: per size and method, how many boards were proved
optimal within the limit and the median wall time (a run that hits the limit
counts as the limit).  Timings on a shared machine are noisy: read ratios.
"""

from __future__ import annotations

import argparse
import statistics
import time

from mipgames.core.problem import SolveOptions
from mipgames.run.runner import solve
from mipgames.samegame import cpsat, mip
from mipgames.samegame.generate import random_board
from mipgames.samegame.problem import PROBLEM

PLAN = {  # method -> largest side it is run on by default (beyond, it rarely finishes in the limit)
    "cbc": 4,
    "cpsat": 6,
    "exact": 8,
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--colours", type=int, default=3)
    ap.add_argument("--sizes", default="3,4,5,6,7,8")
    ap.add_argument("--objective", default="min-remaining", choices=("min-remaining", "score"))
    ap.add_argument("--methods", default=",".join(PLAN), help="comma-separated subset of " + ",".join(PLAN))
    ap.add_argument("--no-cap", action="store_true", help="run every method on every size")
    args = ap.parse_args()
    params = {"objective": args.objective}
    options = SolveOptions(time_limit=args.time_limit, threads=1, warm_start=True)
    print(
        f"objective {args.objective}, {args.colours} colours, seeds 0..{args.seeds - 1}, limit {args.time_limit:g} s\n"
    )
    print("| board | method | proved | median s | max s | model vars / cons |")
    print("|---|---|---|---|---|---|")
    for side in (int(s) for s in args.sizes.split(",")):
        boards = [random_board(side, side, args.colours, seed) for seed in range(args.seeds)]
        for method, largest in PLAN.items():
            if (side > largest and not args.no_cap) or method not in args.methods.split(","):
                continue
            times, proved = [], 0
            for board in boards:
                began = time.monotonic()
                res = solve(PROBLEM, board, solver=method, params=params, options=options, isolate=False)
                times.append(min(time.monotonic() - began, args.time_limit))
                proved += res.status == "optimal"
            size = ""
            if method in ("cbc", "cpsat"):
                build = mip.build if method == "cbc" else cpsat.build
                stats = build(boards[0], params, options).stats
                size = f"{stats['variables']} / {stats['constraints']} (T={stats['steps']})"
            print(
                f"| {side}x{side} | {method} | {proved}/{len(boards)} | {statistics.median(times):.2f} "
                f"| {max(times):.2f} | {size} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
