"""Queens benchmark: the coursework's own search against the level search and the models, at scale.

    cd <repo> && PYTHONPATH=. .venv/bin/python benchmarks/queens/bench.py [--time-limit 60] [--seeds 3] [--threads 1]
        [--sections public,planted,minimise,unsolvable,program] [--min-n 0] [--max-n 64] [--methods A,B]
        [--out benchmarks/queens/RESULTS.md]
        [--benchmarks ../shared/benchmarks]

Sections:
- public: the coursework's sample inputs (t1, t2, t_other; read from the public benchmark folder);
- planted: planted positions from N=12 (25 queens) to N=64 (400 queens); ``coursework-dfs`` (the
  coursework's search, compiled), ``levels`` (compiled level search), ``lazy-levels`` (the same with lazy
  orientation, compiled) and ``portfolio`` (the default); the ratios are coursework-dfs's median over
  levels' and levels' over lazy-levels' (lower bounds when the slower side times out);
- minimise: the same planted positions with ``--minimise`` (the fewest queens that can remain):
  what each level search and the portfolio leave within the limit, and the bound they prove;
- unsolvable: the bundled unsolvable positions (instances/queens/unsolvable_*), N = 8 to 24: time to
  prove K unreachable;
- program: ``mipgames queens FILE`` end to end (a fresh process: Python start, imports, compiled code
  loaded from numba's cache) on the unsolvable positions.

Every solve goes through the shared runner (isolated child, replay by the simulator, claim rule); a run
without an answer within the limit counts as the limit in the medians.  Times are whole solves.  The
numba kernels are compiled once (``cache=True``) before the tables: compile time is not in them (it is
printed once, below the tables).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/, for scriptkit

from scriptkit import Parser, names, positive_float, positive_int, require_files, run_script

from mipgames.core.problem import SolveOptions
from mipgames.queens.generate import planted
from mipgames.queens.instance import read
from mipgames.queens.problem import PROBLEM
from mipgames.run.runner import solve

ROOT = Path(__file__).resolve().parents[2]
PUBLIC = ("t1.in", "t2.in", "t_other.in")
METHODS = {
    "coursework-dfs": ("coursework-dfs", None),
    "dfs": ("dfs", None),
    "levels": ("levels", None),
    "lazy-levels": ("lazy-levels", None),
    "portfolio": ("portfolio", None),
    "forest (cpsat)": ("cpsat", "forest"),
}
PLANTED = [
    (12, 1, 24),
    (16, 1, 39),
    (24, 1, 69),
    (32, 1, 99),
    (32, 3, 97),
    (40, 2, 148),
    (48, 2, 198),
    (64, 2, 298),
    (64, 2, 398),
]


def run(instance, method: str, limit: float, minimise: bool = False, threads: int = 1) -> tuple[str, float, int | None]:
    """(status, whole wall seconds, queens left) of one solve through the runner."""
    return solve_once(instance, method, limit, minimise, threads)[:3]


def solve_once(
    instance, method: str, limit: float, minimise: bool = False, threads: int = 1
) -> tuple[str, float, int | None, Any]:
    """run's figures and the proved bound."""
    solver, formulation = METHODS[method]
    start = time.perf_counter()
    r = solve(
        PROBLEM,
        instance,
        solver=solver,
        formulation=formulation,
        params={"minimise": minimise},
        options=SolveOptions(time_limit=limit, threads=threads),
        isolate=True,
    )
    wall = time.perf_counter() - start
    left = r.verdict.measured["remaining"] if r.status in ("optimal", "feasible") else None
    print(f"  {method}: {r.status} {left} {r.bound} {wall:.2f} s {r.message[:60]}", file=sys.stderr, flush=True)
    return r.status, wall, left, r.bound


def shown(status: str, wall: float, left: int | None, limit: float) -> str:
    if left is not None:
        return f"{wall:.1f} s ({left} left)"
    if status == "infeasible":
        return f"{wall:.1f} s proved"
    return f"> {limit:g} s" if status == "unknown" else status


def public(args) -> list[str]:
    folder = Path(args.benchmarks) / "queens"
    methods = chosen(args, list(METHODS))
    lines = [
        f"## Public coursework inputs (decision, limit {args.time_limit:g} s)",
        "",
        "| instance | " + " | ".join(methods) + " |",
        "|---" * (len(methods) + 1) + "|",
    ]
    for name in PUBLIC:
        instance = read(folder / name)
        cells = [shown(*run(instance, m, args.time_limit, threads=args.threads), args.time_limit) for m in methods]
        lines.append(f"| {name} (N={instance.n}, {len(instance.queens)} queens) | " + " | ".join(cells) + " |")
    return lines + [""]


def chosen(args, methods: list[str]) -> list[str]:
    """The table's methods that --methods keeps (all when it is not given)."""
    return [m for m in methods if not args.methods or m in args.methods]


def planted_table(args) -> list[str]:
    methods = chosen(args, ["coursework-dfs", "levels", "lazy-levels", "portfolio"])
    seeds = range(args.seeds)
    lines = [
        f"## Planted positions (decision: reach K), seeds {list(seeds)}, limit {args.time_limit:g} s",
        "",
        "| N | K | queens | method | median s | solved | per seed (s) |",
        "|---|---|---|---|---|---|---|",
    ]
    ratios = []
    for n, k, moves in PLANTED:
        if not args.min_n <= n <= args.max_n:
            continue
        instances = [planted(n, k, moves, seed).instance for seed in seeds]
        medians = {}
        for method in methods:
            if method == "coursework-dfs" and n > args.coursework_up_to:
                continue
            times, solved = [], 0
            for instance in instances:
                _, wall, left = run(instance, method, args.time_limit, threads=args.threads)
                ok = left is not None and left <= k
                solved += ok
                times.append(wall if ok else args.time_limit)
            medians[method] = statistics.median(times), solved
            per = " ".join(f"{t:.1f}" if t < args.time_limit else f">{args.time_limit:g}" for t in times)
            lines.append(
                f"| {n} | {k} | {k + moves} | {method} | {statistics.median(times):.1f} | "
                f"{solved}/{len(instances)} | {per} |"
            )
        for slow, fast in (("coursework-dfs", "levels"), ("levels", "lazy-levels")):
            if slow in medians and fast in medians and medians[fast][1]:
                (t_slow, slow_solved), (t_fast, _) = medians[slow], medians[fast]
                bound = "" if slow_solved == len(instances) else "> "
                ratio = t_slow / max(t_fast, 0.01)
                shown_ratio = f"{ratio:.1f}" if ratio < 10 else f"{ratio:.0f}"
                ratios.append(f"{slow} / {fast}, N={n}, K={k} ({k + moves} queens): {bound}{shown_ratio}x")
    lines += ["", "Median times ('>' when the slower side hit the limit): " + "; ".join(ratios) + ".", ""]
    return lines


def minimise_table(args) -> list[str]:
    """--minimise on the planted positions: the fewest queens each method leaves within the limit."""
    methods = chosen(args, ["levels", "lazy-levels", "portfolio"])
    seeds = range(args.seeds)
    lines = [
        f"## Planted positions, --minimise (fewest queens), seeds {list(seeds)}, limit {args.time_limit:g} s",
        "",
        "Each cell: queens left / proved bound (* = proved optimal), seconds; '-' = no game.",
        "",
        "| N | queens | method | per seed |",
        "|---|---|---|---|",
    ]
    for n, k, moves in PLANTED:
        if not args.min_n <= n <= args.max_n:
            continue
        instances = [planted(n, k, moves, seed).instance for seed in seeds]
        for method in methods:
            cells = []
            for instance in instances:
                status, wall, left, bound = solve_once(
                    instance, method, args.time_limit, minimise=True, threads=args.threads
                )
                shown_bound = "?" if bound is None else f"{bound:g}"
                star = "*" if status == "optimal" else ""
                cells.append(f"{'-' if left is None else left}/{shown_bound}{star} {wall:.1f} s")
            lines.append(f"| {n} | {k + moves} | {method} | " + "; ".join(cells) + " |")
    return lines + [""]


def unsolvable_table(args) -> list[str]:
    methods = chosen(args, ["levels", "lazy-levels", "portfolio", "forest (cpsat)", "coursework-dfs"])
    files = sorted((ROOT / "instances" / "queens").glob("unsolvable_*.txt"), key=lambda p: (read(p).n, p.name))
    lines = [
        f"## Unsolvable positions: proof that K is unreachable (limit {args.time_limit:g} s)",
        "",
        "| instance | N | queens | " + " | ".join(methods) + " |",
        "|---|---|---" + "|---" * len(methods) + "|",
    ]
    for path in files:
        instance = read(path)
        cells = [shown(*run(instance, m, args.time_limit, threads=args.threads), args.time_limit) for m in methods]
        lines.append(f"| {path.name} | {instance.n} | {len(instance.queens)} | " + " | ".join(cells) + " |")
    return lines + [""]


def program(args) -> list[str]:
    files = sorted((ROOT / "instances" / "queens").glob("unsolvable_*.txt"), key=lambda p: (read(p).n, p.name))
    lines = [
        "## The coursework program, end to end: `mipgames queens FILE` (default portfolio, limit 60 s)",
        "",
        "| instance | exit | seconds | message |",
        "|---|---|---|---|",
    ]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for path in files:
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "mipgames", "queens", str(path)],
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
            timeout=600,
            check=False,
        )
        wall = time.perf_counter() - start
        lines.append(f"| {path.name} | {done.returncode} | {wall:.1f} | {done.stderr.strip()[:90]} |")
        print(lines[-1], file=sys.stderr, flush=True)
    return lines + [""]


SECTIONS = {
    "public": public,
    "planted": planted_table,
    "minimise": minimise_table,
    "unsolvable": unsolvable_table,
    "program": program,
}


def warm_up() -> float:
    """Compiles (or loads from numba's cache) the kernels once, so that no table pays for it."""
    from mipgames.queens.baselines import compile_kernels

    start = time.perf_counter()
    compile_kernels()
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=positive_float, default=60.0)
    parser.add_argument("--seeds", type=positive_int, default=3)
    parser.add_argument("--threads", type=positive_int, default=1, help="threads a solve (default 1: one core each)")
    parser.add_argument(
        "--sections",
        type=names(SECTIONS, "section"),
        default="public,planted,unsolvable,program",
        help="comma-separated, of: " + ", ".join(SECTIONS) + " (default public,planted,unsolvable,program)",
    )
    parser.add_argument("--min-n", type=int, default=0)
    parser.add_argument("--max-n", type=int, default=64)
    parser.add_argument(
        "--methods",
        type=names(METHODS, "method"),
        default=None,
        help="comma-separated: only these methods (default: all), of: " + ", ".join(METHODS),
    )
    parser.add_argument("--coursework-up-to", type=int, default=32, help="largest N the coursework search runs on")
    parser.add_argument(
        "--benchmarks",
        default=None,
        help="the public benchmark sets (default $MIPGAMES_BENCHMARKS, else ../shared/benchmarks)",
    )
    parser.add_argument("--out", default=str(Path(__file__).with_name("RESULTS.md")))
    args = parser.parse_args(argv)
    given = args.benchmarks
    if not args.benchmarks:
        args.benchmarks = os.environ.get("MIPGAMES_BENCHMARKS") or str(ROOT.parent / "shared" / "benchmarks")
    if "public" in args.sections:
        require_files([Path(args.benchmarks) / "queens" / name for name in PUBLIC], given=given)
    compile_s = warm_up()
    load = os.getloadavg()
    out = [
        f"# Queens benchmark ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())})",
        "",
        (
            f"{args.threads} thread(s) per solve (`--threads {args.threads}`); whole wall times through the runner.  "
            f"Load average at the start: {load[0]:.1f} "
            f"{load[1]:.1f} {load[2]:.1f} (2 shared cores)."
        ),
        "",
    ]
    for name in args.sections:
        out += SECTIONS[name](args)
        print("\n".join(out), flush=True)
    load = os.getloadavg()
    out.append(
        f"Kernels compiled or loaded from cache before the tables in {compile_s:.1f} s.  Load average at the "
        f"end: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}."
    )
    text = "\n".join(out) + "\n"
    Path(args.out).write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(run_script(main))
