"""Merge-game benchmark: map size x solver x median time, and what the model buys over exhaustive search.

    .venv/bin/python benchmarks/merge_game/bench.py [--seeds 3] [--time-limit 60] [--out benchmarks/merge_game/RESULTS.md]

Maps are generated on the fly (seeded): n x n with n^2 * 3/16 heroes of 3 types
and as many stones with hp 1-4 (40x40: 300 and 300, the issue's target).
Every run goes through the shared runner (isolated process, simulator
verification).  Timings on a shared 2-core machine are noisy: read medians,
and the ratios to within a factor of two.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from mipgames.core.problem import SolveOptions
from mipgames.run.runner import solve
from mipgames.merge_game.generate import random_map
from mipgames.merge_game.problem import PROBLEM

MODEL_SOLVERS = ("cbc", "glpk", "highs", "cpsat")
SIZES = ((10, 20), (20, 75), (30, 170), (40, 300))
TINY = (6, 8, 10, 12, 14, 16)


def _run(inst, solver: str, limit: float, threads: int):
    r = solve(PROBLEM, inst, solver=solver, options=SolveOptions(time_limit=limit, threads=threads), isolate=True)
    return r.status, r.objective, r.wall_time_s


def _cell(runs: list[tuple[str, float | None, float]], limit: float) -> str:
    proved = sum(1 for s, _, _ in runs if s in ("optimal", "infeasible"))
    times = [t if s in ("optimal", "infeasible") else limit for s, _, t in runs]
    med = statistics.median(times)
    return f"{med:.2f} s" + ("" if proved == len(runs) else f" ({proved}/{len(runs)} proved)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", default=str(Path(__file__).with_name("RESULTS.md")))
    args = ap.parse_args(argv)
    seeds = range(1, args.seeds + 1)
    lines = [f"# Merge-game benchmark ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())})", "",
             f"{args.threads} threads per run, time limit {args.time_limit:g} s, seeds {list(seeds)}; "
             "median wall time (a run that does not prove counts as the limit).", "",
             "## Map size x solver", "",
             "| map | heroes | stones | optimum (seeds) | " + " | ".join(MODEL_SOLVERS) + " |",
             "|---|---|---|---|" + "---|" * len(MODEL_SOLVERS)]
    for side, count in SIZES:
        insts = [random_map(side, side, count, count, types=3, hp=(1, 4), seed=s) for s in seeds]
        cells, optima = [], set()
        for solver in MODEL_SOLVERS:
            runs = [_run(inst, solver, args.time_limit, args.threads) for inst in insts]
            optima |= {tuple(o for s, o, _ in runs if s == "optimal")}
            cells.append(_cell(runs, args.time_limit))
            print(side, solver, runs, file=sys.stderr, flush=True)
        best = max(optima, key=len)
        lines.append(f"| {side}x{side} | {count} | {count} | {', '.join(f'{o:g}' for o in best)} | " + " | ".join(cells) + " |")
    lines += ["", "## Exhaustive search vs the best model", "",
              "Tiny maps (h heroes of 3 types, h stones, hp 1-4, side 4 + h/3).", "",
              "| heroes | exhaustive | cbc | cpsat | exhaustive / best model |", "|---|---|---|---|---|"]
    for h in TINY:
        side = 4 + h // 3
        insts = [random_map(side, side, h, h, types=3, hp=(1, 4), seed=s) for s in seeds]
        row = {}
        for solver in ("exhaustive", "cbc", "cpsat"):
            row[solver] = [_run(inst, solver, args.time_limit, args.threads) for inst in insts]
            print(h, solver, row[solver], file=sys.stderr, flush=True)
        for a, b in zip(row["exhaustive"], row["cbc"]):
            if a[0] == "optimal" and b[0] == "optimal":
                assert a[1] == b[1], f"exhaustive {a[1]} != cbc {b[1]} at h={h}"
        med = {k: statistics.median(t if s == "optimal" else args.time_limit for s, _, t in v) for k, v in row.items()}
        done = all(s == "optimal" for s, _, _ in row["exhaustive"])
        ratio = med["exhaustive"] / min(med["cbc"], med["cpsat"])
        lines.append(f"| {h} | {_cell(row['exhaustive'], args.time_limit)} | {_cell(row['cbc'], args.time_limit)} | "
                     f"{_cell(row['cpsat'], args.time_limit)} | {'' if done else '> '}{ratio:.2g}x |")
    text = "\n".join(lines) + "\n"
    Path(args.out).write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
