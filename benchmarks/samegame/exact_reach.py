"""How far the compiled exact search proves optima: board size x colours x objective, seeded random boards.

    .venv/bin/python benchmarks/samegame/exact_reach.py [--seeds 3] [--time-limit 60] [--out PATH]

For each objective and colour count, sizes grow until no board of a size is proved within the limit.
Each solve goes through the runner (``--solver exact``, one core): ``optimal`` is only printed when the
search proved it, and the game is replayed by the simulator.  Prints a Markdown table and writes it
(default: benchmarks/samegame/exact-reach.md).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(0, str(HERE.parent))  # benchmarks/, for scriptkit

from scriptkit import Parser, positive_float, positive_int, run_script  # noqa: E402

from mipgames.core.problem import SolveOptions  # noqa: E402
from mipgames.run.runner import solve  # noqa: E402
from mipgames.samegame.generate import random_board  # noqa: E402
from mipgames.samegame.problem import PROBLEM  # noqa: E402

PLAN = {  # (objective, colours) -> sizes tried, smallest first
    ("score", 3): (6, 7, 8, 9, 10),
    ("score", 4): (5, 6, 7, 8),
    ("score", 5): (5, 6, 7),
    ("min-remaining", 4): (8, 10, 12, 14, 15),
    ("min-remaining", 5): (8, 10, 12, 15),
}


def main() -> None:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=positive_int, default=3, help="boards a size: seeds 0..N-1 (default 3)")
    ap.add_argument("--time-limit", type=positive_float, default=60.0, help="seconds a solve (default 60)")
    ap.add_argument("--out", default=str(HERE / "exact-reach.md"))
    args = ap.parse_args()
    load = os.getloadavg()
    lines = [
        "# How far the exact search proves optima",
        "",
        f"    .venv/bin/python benchmarks/samegame/exact_reach.py --seeds {args.seeds} "
        f"--time-limit {args.time_limit:g}",
        "",
        f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, one core per solve, load averages "
        f"{load[0]:.1f}/{load[1]:.1f}/{load[2]:.1f} at the start; seeded random boards "
        f"(`mipgames generate samegame --rows N --cols N --colours K --seed S`, S = 0..{args.seeds - 1}).",
        "",
        "| objective | colours | board | proved | median s | max s | optimum (median) |",
        "|---|---|---|---|---|---|---|",
    ]
    print("\n".join(lines[-2:]), flush=True)
    for (objective, colours), sizes in PLAN.items():
        for side in sizes:
            times, values, proved = [], [], 0
            for seed in range(args.seeds):
                board = random_board(side, side, colours, seed)
                began = time.monotonic()
                res = solve(
                    PROBLEM,
                    board,
                    solver="exact",
                    params={"objective": objective},
                    options=SolveOptions(time_limit=args.time_limit, threads=1),
                    isolate=False,
                )
                times.append(min(time.monotonic() - began, args.time_limit))
                if res.status == "optimal":
                    proved += 1
                    values.append(res.objective)
            median = statistics.median(values) if values else None
            row = (
                f"| {objective} | {colours} | {side}x{side} | {proved}/{args.seeds} | "
                f"{statistics.median(times):.2f} | {max(times):.2f} | {'' if median is None else f'{median:g}'} |"
            )
            lines.append(row)
            print(row, flush=True)
            if proved == 0:
                break
    Path(args.out).write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    sys.exit(run_script(main))
