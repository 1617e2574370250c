"""Best score on Eternity II's 256 pieces within a time budget (best known: 470/480 matched).

    .venv/bin/python benchmarks/edge_matching/bench_e2.py E2PIECES [--solver anneal|cpsat] [--time-limit 600]
        [--threads 2] [--warm-start] [--cert OUT.json]

Goes through the runner (isolated, verified); prints matched inner edges of the verified answer.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from mipgames.core.problem import SolveOptions
from mipgames.edge_matching.instance import read
from mipgames.edge_matching.problem import PROBLEM
from mipgames.run.runner import solve


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("pieces", type=Path)
    ap.add_argument("--solver", default="anneal")
    ap.add_argument("--time-limit", type=float, default=600)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--warm-start", action="store_true")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    inst = read(args.pieces)
    opts = SolveOptions(
        time_limit=args.time_limit,
        threads=args.threads,
        warm_start=args.warm_start,
        seed=args.seed,
    )
    r = solve(PROBLEM, inst, solver=args.solver, options=opts)
    matched = None if r.objective is None else inst.inner_edges - int(r.objective)
    print(
        f"{args.solver}: status={r.status} mismatched={r.objective} matched={matched}/{inst.inner_edges} "
        f"bound={r.bound} wall={r.wall_time_s:.0f}s {r.message}"
    )


if __name__ == "__main__":
    main()
