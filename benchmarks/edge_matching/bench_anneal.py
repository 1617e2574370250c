"""The annealing baseline alone: seconds to a perfect placement, or the mismatches left at the limit.

    .venv/bin/python benchmarks/edge_matching/bench_anneal.py [--puzzles SPEC,...] [--seeds 0,1,2]
        [--time-limit 60] [--root CHECKOUT]

A SPEC is a puzzle file or ``planted:SIDE:RIM:INNER:SEED`` (a frame puzzle from the generator).  Each (puzzle,
seed) runs ``anneal.anneal`` in this process with the colour-count bound as its target, one after the other, so
two checkouts can be compared side by side, one process a core: ``--root`` imports the package from another
checkout (a worktree of an earlier commit).  The annealer is pure Python and seeded, but stops on the clock, so
read the figures as one run's.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--puzzles", default="instances/edge_matching/coursework_4x4.txt,planted:6:2:4:1")
    ap.add_argument("--seeds", default="0,1,2")
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--root", type=Path, default=HERE.parents[1], help="the checkout whose package is measured")
    args = ap.parse_args()
    sys.path.insert(0, str(args.root.resolve()))
    from mipgames.edge_matching import anneal
    from mipgames.edge_matching.generate import planted
    from mipgames.edge_matching.instance import read
    from mipgames.edge_matching.simulate import colour_count_bound, evaluate

    print(f"annealer: {Path(anneal.__file__).resolve()}; limit {args.time_limit:g} s")
    print("| puzzle | seed | mismatches | seconds |")
    print("|---|---|---|---|")
    for spec in args.puzzles.split(","):
        if spec.startswith("planted:"):
            side, rim, inner, gen_seed = (int(x) for x in spec.split(":")[1:])
            inst = planted(side, side, True, rim, inner, seed=gen_seed)[0]
        else:
            inst = read(spec)
        target = colour_count_bound(inst)
        for seed in (int(s) for s in args.seeds.split(",")):
            began = time.monotonic()
            best, placement = anneal.anneal(inst, seed, args.time_limit, target=target)
            took = time.monotonic() - began
            assert placement is None or evaluate(inst, {}, placement).objective == best  # replayed
            print(f"| {Path(spec).name} | {seed} | {best} | {took:.1f} |", flush=True)


if __name__ == "__main__":
    main()
