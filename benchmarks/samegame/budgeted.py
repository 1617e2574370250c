"""The standard 20 SameGame boards at a fixed node budget: a deterministic, load-independent total.

    .venv/bin/python benchmarks/samegame/budgeted.py [SET] [--node-budget 70000] [--threads 2]
        [--solver portfolio] [--boards 1,7,10] [--seed 0] [--level 0] [--out FILE.md]

Timed runs (``standard.py``) measure what a user gets in a minute, but they
move with the machine's load; comparing two versions of a search needs the
same work for both.  Each board gets ``--node-budget`` playouts (NRPA, NMCS)
or nodes (beam) split over ``--threads`` workers, no time limit, so the
result depends only on the code, the seed and the budget.  Every game is
replayed by the simulator.  Prints one line a board and the total; with
``--out`` also writes them as Markdown.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(0, str(HERE.parent))  # benchmarks/, for scriptkit

from scriptkit import Parser, positive_int, positive_ints, require_files, run_script  # noqa: E402
from standard import PUBLISHED, PUBLISHED_BOARDS, SET_HINT, default_set  # noqa: E402

from mipgames.core.errors import UsageError  # noqa: E402
from mipgames.core.problem import SolveOptions  # noqa: E402
from mipgames.run.runner import solve  # noqa: E402
from mipgames.samegame import simulate  # noqa: E402
from mipgames.samegame.instance import read_standard_set  # noqa: E402
from mipgames.samegame.problem import PROBLEM  # noqa: E402


def main() -> None:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("standard_set", nargs="?", default=None, help="standard_20.txt (default: as standard.py)")
    ap.add_argument("--node-budget", type=positive_int, default=70_000, help="playouts/nodes a board (default 70000)")
    ap.add_argument("--threads", type=positive_int, default=2, help="workers a board (default 2)")
    ap.add_argument("--solver", default="portfolio", help="samegame solver (default portfolio)")
    ap.add_argument("--boards", type=positive_ints, default=None, help="comma-separated board numbers (default all)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--level", type=int, default=0, help="NRPA/NMCS nesting level (default: the solver's)")
    ap.add_argument("--out", default=None, help="also write the table as Markdown here")
    args = ap.parse_args()
    path = Path(args.standard_set) if args.standard_set else default_set()
    require_files([path], SET_HINT, args.standard_set)
    boards = read_standard_set(path)
    chosen = args.boards or list(range(1, len(boards) + 1))
    beyond = [k for k in chosen if k > len(boards)]
    if beyond:
        raise UsageError(f"--boards: no board {beyond[0]} in {path.name} (boards 1 to {len(boards)})")

    load_before = os.getloadavg()
    began = time.monotonic()
    rows = []
    for k in chosen:
        res = solve(
            PROBLEM,
            boards[k - 1],
            solver=args.solver,
            params={"objective": "score", "node_budget": args.node_budget, "level": args.level},
            options=SolveOptions(time_limit=None, threads=args.threads, seed=args.seed),
            isolate=False,
        )
        verdict = simulate.evaluate(boards[k - 1], {"objective": "score"}, res.solution)
        if not verdict.legal or verdict.objective != res.objective:
            raise SystemExit(f"board {k}: {res.status} {res.message}")
        rows.append((k, int(res.objective), verdict.measured["remaining"], res.message))
        print(f"board {k:2d}: score {int(res.objective):5d}  tiles left {verdict.measured['remaining']:3d}", flush=True)
    total = sum(r[1] for r in rows)
    wall = time.monotonic() - began
    load_after = os.getloadavg()
    print(f"total {total} over {len(rows)} boards at {args.node_budget} a board, {args.threads} workers ({wall:.0f} s)")
    if args.out:
        lines = [
            f"# Standard boards at a node budget of {args.node_budget:,} a board, {args.threads} workers, "
            f"solver `{args.solver}`, seed {args.seed}" + (f", level {args.level}" if args.level else ""),
            "",
            f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {wall:.0f} s wall, load averages "
            f"before {load_before[0]:.1f}, after {load_after[0]:.1f} (the scores do not depend on it).",
            "",
            "| board | score | tiles left | how |",
            "|---|---|---|---|",
        ]
        lines += [f"| {k} | {score:,} | {left} | {message} |" for k, score, left, message in rows]
        lines += ["", f"**Total {total:,}** over {len(rows)} boards."]
        if len(boards) == PUBLISHED_BOARDS and sorted(chosen) == list(range(1, len(boards) + 1)):
            lines += [""] + [f"- / {name} {value:,}: {total / value:.3f}" for name, value in PUBLISHED.items()]
        Path(args.out).write_text("\n".join(lines) + "\n")
        print(f"wrote {args.out}")


if __name__ == "__main__":
    sys.exit(run_script(main))
