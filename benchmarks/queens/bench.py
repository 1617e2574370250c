"""Queens benchmark: DFS vs level search vs models as size grows, and proofs of unsolvability.

Run: .venv/bin/python benchmarks/queens/bench.py [--quick] [--out benchmarks/queens/RESULTS.md]
Every answer goes through the shared runner (isolated child process, replay by the simulator).
Timings are wall seconds on a shared 2-core machine: read ratios, not absolutes.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from mipgames.core.problem import SolveOptions
from mipgames.run.runner import solve
from mipgames.queens.generate import planted, unsolvable
from mipgames.queens.instance import read
from mipgames.queens.problem import PROBLEM

PUBLIC = Path("/work/shared/benchmarks/queens")
METHODS = {
    "dfs": ("dfs", None),
    "levels": ("levels", None),
    "forest (cpsat)": ("cpsat", "forest"),
    "time-indexed-cp (cpsat)": ("cpsat", "time-indexed-cp"),
    "time-indexed (cbc)": ("cbc", "time-indexed"),
    "portfolio": ("portfolio", None),
}


def run(instance, method: str, limit: float, minimise: bool = False) -> str:
    solver, formulation = METHODS[method]
    start = time.perf_counter()
    result = solve(PROBLEM, instance, solver=solver, formulation=formulation, params={"minimise": minimise},
                   options=SolveOptions(time_limit=limit, threads=1), isolate=True)
    wall = time.perf_counter() - start
    if result.status in ("optimal", "feasible"):
        return f"{wall:.1f} s ({result.verdict.measured['remaining']} left)"
    if result.status == "infeasible":
        return f"{wall:.1f} s proved"
    return f"> {limit:g} s" if result.status == "unknown" else f"error: {result.message[:40]}"


def table(title: str, rows: list[tuple[str, dict[str, str]]], methods: list[str]) -> str:
    lines = [f"### {title}", "", "| instance | " + " | ".join(methods) + " |", "|---" * (len(methods) + 1) + "|"]
    lines += [f"| {name} | " + " | ".join(cells.get(m, "–") for m in methods) + " |" for name, cells in rows]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="one seed per size, shorter limits")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    seeds = [0] if args.quick else [0, 1, 2]
    out = [f"# queens benchmark ({time.strftime('%Y-%m-%d %H:%M')} UTC, limits per run)\n"]

    rows = []
    for name in ("t1.in", "t2.in", "t_other.in"):
        instance = read(PUBLIC / name)
        rows.append((f"{name} (Q={len(instance.queens)})", {m: run(instance, m, 30) for m in METHODS}))
    out.append(table("Public coursework inputs (decision, limit 30 s)", rows, list(METHODS)))
    print(out[-1], flush=True)

    sizes = [(8, 1, 12, 20), (12, 1, 24, 30), (16, 1, 39, 30), (24, 1, 69, 60), (32, 1, 99, 60), (32, 3, 97, 60)]
    rows = []
    for n, k, moves, limit in sizes:
        for seed in seeds:
            instance = planted(n, k, moves, seed).instance
            methods = [m for m in METHODS if not (m.startswith("time-indexed") and n > 12)]
            rows.append((f"N={n} K={k} Q={k + moves} seed {seed} (limit {limit} s)",
                         {m: run(instance, m, limit) for m in methods}))
            print(rows[-1], flush=True)
    out.append(table("Generated solvable (planted) instances, decision", rows, list(METHODS)))

    rows = []
    for n, seed in [(8, 1), (10, 2), (12, 3), (16, 4)][: 2 if args.quick else 4]:
        instance = unsolvable(n, 20, 1, seed, 60)
        cells = {m: run(instance, m, 60) for m in ("forest (cpsat)", "levels", "portfolio")}
        cells["dfs"] = run(instance, "dfs", 120)
        rows.append((f"N={n} Q=20 K=1 seed {seed}", cells))
        print(rows[-1], flush=True)
    out.append(table("Generated unsolvable instances (popcount(S) = 1 = K), proof of K unreachable", rows,
                     ["forest (cpsat)", "levels", "portfolio", "dfs"]))
    text = "\n".join(out)
    print(text)
    if args.out:
        Path(args.out).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
