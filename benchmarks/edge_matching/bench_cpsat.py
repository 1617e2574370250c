"""CP-SAT in decision mode on Heule's em_* puzzles (shuffled and turned with a seed) and on
planted 7x7 frame puzzles (3 rim + 6 inner colours), with feature ablations.

    .venv/bin/python benchmarks/edge_matching/bench_cpsat.py HEULE_DIR [--seeds 1] [--planted-seeds 1,2,3,4,5]
        [--variants full,strategy=False,...] [--time-limit 60] [--threads 2] [--only em_11_3_4,...]

A variant is 'full' (the shipped ``cpsat`` formulation), 'plain' (per-cell table, no typing,
symmetry, pruning or strategy), or 'full' with Features fields switched, e.g.
'types=False' or 'table=True'.  Every answer is checked by the simulator.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from dataclasses import replace
from pathlib import Path

from mipgames.core.problem import SolveOptions
from mipgames.edge_matching import cpsat
from mipgames.edge_matching.decode import decode
from mipgames.edge_matching.generate import planted, shuffle
from mipgames.edge_matching.instance import read
from mipgames.edge_matching.simulate import evaluate

DECISION = {"mode": "decision"}


def features(variant: str) -> cpsat.Features:
    if variant == "full":
        return cpsat.FULL
    if variant == "plain":
        return cpsat.PLAIN
    changes = {}
    for part in variant.split("+"):
        key, value = part.split("=")
        changes[key] = value == "True" if value in ("True", "False") else value
    return replace(cpsat.FULL, **changes)


def run(
    inst,
    variant: str,
    time_limit: float,
    threads: int,
    seed: int = 0,
    extra: dict | None = None,
) -> tuple[str, float]:
    """Build and solve as the cpsat backend does: the model's own parameters first, then ``extra``
    (experiments), then threads, seed and time limit."""
    from ortools.sat.python import cp_model

    start = time.perf_counter()
    built = cpsat.build(inst, DECISION, SolveOptions(threads=threads), features(variant))
    solver = cp_model.CpSolver()
    for name, value in {**(built.cpsat_parameters or {}), **(extra or {})}.items():
        if isinstance(value, (list, tuple)):
            getattr(solver.parameters, name).extend(value)
        elif isinstance(value, str):  # an enum given by name on the command line
            from ortools.sat.python import cp_model_helper

            setattr(solver.parameters, name, getattr(cp_model_helper.SatParameters, value))
        else:
            setattr(solver.parameters, name, value)
    solver.parameters.num_workers = threads
    solver.parameters.random_seed = seed
    solver.parameters.max_time_in_seconds = max(0.1, time_limit - (time.perf_counter() - start))
    code = solver.solve(built.model)
    wall = time.perf_counter() - start
    if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        v = evaluate(inst, DECISION, decode(inst, DECISION, built.handles, solver.value))
        return ("solved" if v.legal and v.objective == 0 else f"WRONG {v.reason}"), wall
    return solver.status_name(code).lower(), wall


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("heule_dir", type=Path)
    ap.add_argument("--seeds", default="1")
    ap.add_argument("--planted-seeds", default="1,2,3,4,5")
    ap.add_argument("--variants", default="full")
    ap.add_argument("--time-limit", type=float, default=60)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--only", default="")
    ap.add_argument(
        "--params",
        default="{}",
        help="extra SatParameters as JSON, e.g. '{\"linearization_level\": 0}'",
    )
    args = ap.parse_args()
    cases = []
    for path in sorted(args.heule_dir.glob("em_*.txt")):
        if args.only and path.stem not in args.only.split(","):
            continue
        for s in map(int, args.seeds.split(",")):
            cases.append((f"{path.stem} shuffle{s}", shuffle(read(path), s)))
    for s in [int(x) for x in args.planted_seeds.split(",") if x]:
        cases.append((f"planted_7x7_3_6 seed{s}", planted(7, 7, True, 3, 6, s)[0]))
    for variant in args.variants.split(","):
        times = []
        for label, inst in cases:
            status, wall = run(
                inst,
                variant,
                args.time_limit,
                args.threads,
                extra=json.loads(args.params),
            )
            times.append(wall if status == "solved" else float("inf"))
            print(f"{variant:28} {label:26} {status:10} {wall:7.1f}s", flush=True)
        solved = sum(t < float("inf") for t in times)
        print(
            f"{variant:28} SUMMARY solved {solved}/{len(cases)}, median {statistics.median(times):.1f}s",
            flush=True,
        )


if __name__ == "__main__":
    main()
