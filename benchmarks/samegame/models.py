"""Board size x method x median time for min-remaining on random boards (MIP vs CP-SAT vs exact search).

    .venv/bin/python benchmarks/samegame/models.py [--seeds 3] [--time-limit 60] [--colours 3]

Prints a markdown table: per size and method, how many boards were proved
optimal within the limit and the median wall time (a run that hits the limit
counts as the limit).  Timings on a shared machine are noisy: read ratios.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/, for scriptkit

from scriptkit import Parser, names, positive_float, positive_int, positive_ints, run_script

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
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=positive_int, default=3)
    ap.add_argument("--time-limit", type=positive_float, default=60.0)
    ap.add_argument("--colours", type=positive_int, default=3)
    ap.add_argument("--sizes", type=positive_ints, default=[3, 4, 5, 6, 7, 8], help="board sides (default 3,...,8)")
    ap.add_argument("--objective", default="min-remaining", choices=("min-remaining", "score"))
    ap.add_argument(
        "--methods", type=names(PLAN, "method"), default=list(PLAN), help="comma-separated subset of " + ",".join(PLAN)
    )
    ap.add_argument("--no-cap", action="store_true", help="run every method on every size")
    args = ap.parse_args()
    params = {"objective": args.objective}
    options = SolveOptions(time_limit=args.time_limit, threads=1, warm_start=True)
    print(
        f"objective {args.objective}, {args.colours} colours, seeds 0..{args.seeds - 1}, limit {args.time_limit:g} s\n"
    )
    print("| board | method | proved | median s | max s | model vars / cons |")
    print("|---|---|---|---|---|---|")
    for side in args.sizes:
        boards = [random_board(side, side, args.colours, seed) for seed in range(args.seeds)]
        for method, largest in PLAN.items():
            if (side > largest and not args.no_cap) or method not in args.methods:
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
    sys.exit(run_script(main))
