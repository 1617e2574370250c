"""Every solver on the coursework 4x4, and the typed MILP against the coursework baseline.

    .venv/bin/python benchmarks/edge_matching/bench_mip.py [--time-limit 300] [--solvers cbc,highs]

Each solve runs in its own process through the runner (threads=1); wall times are
noisy on a shared machine, so the script prints every run and the ratio of summed
times over the instances that both formulations solve to proven optimality.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from mipgames.core.problem import SolveOptions
from mipgames.edge_matching.generate import planted
from mipgames.edge_matching.instance import Instance, read
from mipgames.edge_matching.problem import PROBLEM
from mipgames.run.runner import solve

ROOT = Path(__file__).resolve().parents[2]


def _perturbed(n: int, seed: int) -> Instance:
    """A planted frame puzzle with two inner sides recoloured to unique colours: no perfect placement."""
    inst, _ = planted(n, n, True, 2, 3, seed)
    tiles = [list(t) for t in inst.tiles]
    rng = random.Random(seed)
    done = 0
    while done < 2:
        t, s = rng.randrange(len(tiles)), rng.randrange(4)
        if tiles[t][s] and tiles[t][s] < 9:
            tiles[t][s] = 9 + done
            done += 1
    return Instance(n, n, tuple(tuple(t) for t in tiles))


def _random(n: int, colours: int, seed: int) -> Instance:
    rng = random.Random(seed)
    return Instance(
        n,
        n,
        tuple(tuple(rng.randint(1, colours) for _ in range(4)) for _ in range(n * n)),
    )


def instances() -> list[tuple[str, Instance, str]]:
    """(label, instance, mode): the coursework, planted, perturbed (optimum > 0) and random puzzles."""
    cw = read(ROOT / "instances/edge_matching/coursework_4x4.txt")
    out = [("coursework_4x4", cw, "optimise"), ("coursework_4x4", cw, "decision")]
    for seed in (1, 2):
        inst, _ = planted(5, 5, True, 2, 4, seed)
        out += [
            (f"planted_5x5_frame_s{seed}", inst, "optimise"),
            (f"planted_5x5_frame_s{seed}", inst, "decision"),
        ]
        out.append((f"perturbed_5x5_frame_s{seed}", _perturbed(5, seed), "optimise"))
        out.append((f"random_3x3_4col_s{seed}", _random(3, 4, seed), "optimise"))
        out.append((f"random_4x4_6col_s{seed}", _random(4, 6, seed), "optimise"))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--time-limit", type=float, default=300)
    ap.add_argument("--solvers", default="cbc,highs,glpk,cpsat")
    args = ap.parse_args()
    opts = SolveOptions(threads=1, time_limit=args.time_limit)
    print("== coursework 4x4, every formulation x solver (optimise) ==")
    cw = read(ROOT / "instances/edge_matching/coursework_4x4.txt")
    for form in ("baseline", "typed", "cpsat", "cpsat-table"):
        for s in ("cbc", "glpk", "highs", "cpsat") if form in ("baseline", "typed") else ("cpsat",):
            r = solve(
                PROBLEM,
                cw,
                solver=s,
                formulation=form,
                options=SolveOptions(threads=1, time_limit=60),
            )
            print(
                f"{form:12} {s:6} {r.status:9} obj={r.objective} {r.wall_time_s:7.2f}s",
                flush=True,
            )
    print("== baseline vs typed ==")
    for s in args.solvers.split(","):
        tot = {"baseline": 0.0, "typed": 0.0}
        for label, inst, mode in instances():
            res = {}
            for form in ("baseline", "typed"):
                r = solve(
                    PROBLEM,
                    inst,
                    solver=s,
                    formulation=form,
                    params={"mode": mode},
                    options=opts,
                )
                res[form] = r
                print(
                    f"{s:6} {label:24} {mode:9} {form:9} {r.status:9} obj={r.objective} bound={r.bound}"
                    f" {r.wall_time_s:8.2f}s",
                    flush=True,
                )
            if all(r.status == "optimal" for r in res.values()):
                for form, r in res.items():
                    tot[form] += r.wall_time_s
            else:
                print(f"{s:6} {label:24} (not counted: both must finish)")
        if tot["typed"]:
            ratio = tot["baseline"] / tot["typed"]
            print(
                f"{s:6} SUM both-finished: baseline {tot['baseline']:.1f}s typed {tot['typed']:.1f}s"
                f" ratio {ratio:.1f}x",
                flush=True,
            )


if __name__ == "__main__":
    main()
