"""The compiled search side by side with CP-SAT and the default portfolio, on the public sets.

    .venv/bin/python benchmarks/edge_matching/bench_search.py [--sets brendan,em,planted,count,nps,e2,shuffles]
        [--planted-seeds 2] [--planted 7:3:6,...] [--first-seeds 1,2,3] [--first-time-limit 20]
        [--time-limit 60] [--big-time-limit 600]
        [--em-time-limit 5] [--count-time-limit 300] [--shuffles 40] [--shuffle-time-limit 30] [--shuffle-names ...]
        [--e2-time-limit 3600] [--threads 2] [--seed 1] [--benchmarks DIR] [--out search_results.md]

Sets (read from DIR/edge_matching, DIR = --benchmarks, $MIPGAMES_BENCHMARKS or ../shared/benchmarks
beside the repository; nothing is copied into the repository):

- ``brendan``: Brendan Owen's pieces_04x04..10x10 (--time-limit each, --big-time-limit for 09 and 10)
  with ``backtrack`` (decision), the ``cpsat`` formulation (decision) and ``portfolio`` (the default,
  optimise mode as a user runs it): mismatches of the verified answer, status, seconds.
- ``em``: Heule's em_* puzzles shuffled and turned with --seed, the same three solvers, --em-time-limit.
- ``shuffles``: Heule's em_* puzzles (--shuffle-names, default all) shuffled and turned with seeds
  1..--shuffles, the default solver as a user runs it, --shuffle-time-limit: how many were placed and
  the spread of their times (the goal: every shuffle in < 5 s; not in the default --sets).
- ``planted``: fresh planted frame puzzles (--planted side:rim colours:inner colours, default 7x7..10x10;
  --planted-seeds) with the default solver, --time-limit.
- ``first``: planted frame and free puzzles 7x7..10x10 (--first-seeds), the backtracker and CP-SAT's
  decision model on one thread each, --first-time-limit: which one the portfolio's first phase should run
  (not in the default --sets).
- ``count``: ``backtrack --count`` on the 8x8 sets (pieces_08x08, em_8_4_5).
- ``nps``: nodes per second of the compiled kernel and of its pure-Python twin on the same search
  (a full count of a small planted puzzle, and the first pieces_10x10 nodes); compile/cache-load time
  measured apart and excluded from the rate.
- ``e2``: Eternity II (heule/e2pieces.txt), matched edges of 480 against time (progress of one
  portfolio run, --e2-time-limit), with a plot beside the results file.

Every answer goes through the runner: solved in a child process and replayed by the simulator.
Prints each row as it comes and writes the Markdown results (with the load averages) to --out.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO))  # this checkout's package, whichever venv runs the script

from mipgames.core.problem import SolveOptions  # noqa: E402
from mipgames.edge_matching.generate import planted, shuffle  # noqa: E402
from mipgames.edge_matching.instance import Instance, read  # noqa: E402
from mipgames.edge_matching.problem import PROBLEM  # noqa: E402
from mipgames.run.runner import solve  # noqa: E402

DECISION = {"mode": "decision"}
SOLVERS = (
    ("backtrack", None, DECISION),
    ("cpsat", "cpsat", DECISION),
    ("portfolio", None, {}),
)


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def add_row(lines: list[str], line: str) -> None:
    """A table row of a Markdown report: printed as it comes (long runs show progress) and kept."""
    print(line, flush=True)
    lines.append(line)


def write_report(lines: list[str], out: Path) -> None:
    """Ends a Markdown report with the load average and writes it to ``out``."""
    lines += ["", f"Load at the end: {load()}."]
    out.write_text("\n".join(lines) + "\n")
    print(f"wrote {out}")


def benchmarks_dir(given: Path | None) -> Path:
    """--benchmarks, else $MIPGAMES_BENCHMARKS, else ../shared/benchmarks beside the repository (or beside the
    folder holding it, for a git worktree under <repo>/../wt/)."""
    env = os.environ.get("MIPGAMES_BENCHMARKS")
    chosen = given or env
    if chosen:
        return Path(chosen) / "edge_matching"
    beside = [up / "shared" / "benchmarks" for up in (REPO.parent, REPO.parent.parent)]
    return next((b for b in beside if b.is_dir()), beside[0]) / "edge_matching"


class Table:
    """Rows printed as they come and kept for the Markdown file."""

    def __init__(self, title: str, note: str, columns: list[str]):
        self.title, self.note, self.columns, self.rows = title, note, columns, []
        print(f"\n== {title}\n{' | '.join(columns)}", flush=True)

    def add(self, *cells: Any) -> None:
        row = [
            c if isinstance(c, str) else (f"{c:.2f}" if c < 10 else f"{c:.1f}") if isinstance(c, float) else str(c)
            for c in cells
        ]
        self.rows.append(row)
        print(" | ".join(row), flush=True)

    def markdown(self) -> str:
        lines = [
            f"### {self.title}",
            "",
            self.note,
            "",
            "| " + " | ".join(self.columns) + " |",
            "|" + "---|" * len(self.columns),
        ]
        lines += ["| " + " | ".join(r) + " |" for r in self.rows]
        return "\n".join(lines) + "\n"


def run(
    inst: Instance,
    solver: str,
    formulation: str | None,
    params: dict[str, Any],
    limit: float,
    threads: int,
    seed: int,
    progress: Any = None,
) -> tuple[Any, float]:
    opts = SolveOptions(time_limit=limit, threads=threads, seed=seed)
    start = time.perf_counter()
    r = solve(
        PROBLEM,
        inst,
        solver=solver,
        formulation=formulation,
        params=params,
        options=opts,
        progress=progress,
    )
    return r, time.perf_counter() - start


def mismatches(r: Any) -> str:
    """Mismatched inner edges of the replayed answer ('-' when there is none)."""
    if r.solution is None or not r.verdict.legal:
        return "-"
    return str(r.verdict.measured["mismatched"])


def side_by_side(
    title: str,
    note: str,
    cases: list[tuple[str, Instance, float]],
    threads: int,
    seed: int,
) -> Table:
    cols = ["puzzle", "limit s"] + [f"{s} {w}" for s, _, _ in SOLVERS for w in ("mism.", "status", "s")] + ["load"]
    table = Table(title, note, cols)
    for label, inst, limit in cases:
        cells: list[Any] = [label, f"{limit:g}"]
        for solver, formulation, params in SOLVERS:
            r, wall = run(inst, solver, formulation, params, limit, threads, seed)
            cells += [mismatches(r), str(r.status), wall]
        table.add(*cells, load())
    return table


def brendan(root: Path, args: argparse.Namespace) -> Table:
    cases = []
    for n in range(4, 11):
        path = root / "brendan" / f"pieces_{n:02d}x{n:02d}.txt"
        cases.append((path.stem, read(path), args.big_time_limit if n >= 9 else args.time_limit))
    return side_by_side(
        "Brendan Owen's sets",
        "backtrack and cpsat in decision mode, portfolio as the default "
        f"(optimise); {args.threads} threads; verified mismatches, status, wall seconds.",
        cases,
        args.threads,
        args.seed,
    )


def em(root: Path, args: argparse.Namespace) -> Table:
    cases = [
        (
            f"{p.stem} shuffle{args.seed}",
            shuffle(read(p), args.seed),
            args.em_time_limit,
        )
        for p in sorted((root / "heule").glob("em_*.txt"))
    ]
    return side_by_side(
        "Heule's em_* puzzles, shuffled",
        f"Tiles shuffled and turned with seed {args.seed}; {args.threads} threads.",
        cases,
        args.threads,
        args.seed,
    )


def shuffles(root: Path, args: argparse.Namespace) -> Table:
    wanted = set(args.shuffle_names.split(",")) if args.shuffle_names else None
    table = Table(
        "Heule's em_* puzzles, many shuffles, the default solver",
        f"Each puzzle shuffled and turned with seeds 1-{args.shuffles}; the default solver (portfolio, optimise "
        f"mode, as a user runs it), {args.threads} threads, {args.shuffle_time_limit:g} s limit; wall seconds "
        "of the runner's solve (a child process), perfect placements replayed by the simulator.",
        ["puzzle", "placed", "min s", "median s", "max s", "slowest shuffle", "over 5 s", "load"],
    )
    for p in sorted((root / "heule").glob("em_*.txt")):
        if wanted is not None and p.stem not in wanted:
            continue
        times: list[tuple[float, int]] = []
        for seed in range(1, args.shuffles + 1):
            inst = shuffle(read(p), seed)
            r, wall = run(inst, "portfolio", None, {}, args.shuffle_time_limit, args.threads, args.seed)
            if mismatches(r) == "0":
                times.append((wall, seed))
        ordered = sorted(times)
        spread = [ordered[0][0], ordered[len(ordered) // 2][0], ordered[-1][0]] if ordered else ["-"] * 3
        table.add(
            p.stem,
            f"{len(times)}/{args.shuffles}",
            *spread,
            str(ordered[-1][1]) if ordered else "-",
            str(sum(t > 5 for t, _ in times) + args.shuffles - len(times)),
            load(),
        )
    return table


PLANTED = "7:3:6,8:3:6,9:3:7,10:4:8"
"""The planted set's default: frame puzzles of the bundled instances' sizes and colours, side:rim:inner."""


def planted_frames(root: Path, args: argparse.Namespace) -> Table:
    table = Table(
        "Planted frame puzzles, fresh seeds, default solver",
        f"portfolio (optimise), {args.threads} threads, {args.time_limit:g} s, generator seeds {args.planted_seeds}.",
        ["puzzle", "mism.", "status", "s", "load"],
    )
    for side, rim, inner in (map(int, spec.split(":")) for spec in args.planted.split(",")):
        for seed in map(int, args.planted_seeds.split(",")):
            inst = planted(side, side, True, rim, inner, seed)[0]
            r, wall = run(inst, "portfolio", None, {}, args.time_limit, args.threads, args.seed)
            table.add(
                f"planted {side}x{side} frame {rim}+{inner} seed {seed}",
                mismatches(r),
                str(r.status),
                wall,
                load(),
            )
    return table


FIRST = ((7, 3, 6), (8, 3, 6), (9, 3, 7), (10, 4, 8), (7, 0, 5), (8, 0, 6), (9, 0, 7), (10, 0, 8))
"""Planted puzzles for the race to a first perfect placement (side, rim colours or 0 for no frame, inner)."""


def first(root: Path, args: argparse.Namespace) -> Table:
    """Which member phase 1 of the portfolio should run: the backtracker or CP-SAT's decision model."""
    table = Table(
        "First perfect placement: backtracker against CP-SAT's decision model",
        f"decision mode, 1 thread each, {args.first_time_limit:g} s, generator seeds {args.first_seeds}; "
        "status and wall seconds of each (the backtracker's nodes in brackets).",
        ["puzzle", "backtrack", "cpsat", "load"],
    )
    for side, rim, inner in FIRST:
        for seed in map(int, args.first_seeds.split(",")):
            inst = planted(side, side, rim > 0, max(rim, 1), inner, seed)[0]
            cells = [f"planted {side}x{side} {'frame ' + str(rim) + '+' if rim else 'free '}{inner} seed {seed}"]
            for solver, formulation in (("backtrack", None), ("cpsat", "cpsat")):
                r, wall = run(inst, solver, formulation, DECISION, args.first_time_limit, 1, args.seed)
                nodes = f" ({r.stats['nodes']:,} nodes)" if r.stats and "nodes" in r.stats else ""
                cells.append(f"{r.status} {wall:.1f} s{nodes}")
            table.add(*cells, load())
    return table


def count(root: Path, args: argparse.Namespace) -> Table:
    table = Table(
        "Solution counts (backtrack --count)",
        f"{args.threads} threads, {args.count_time_limit:g} s "
        "limit; placements of tiles by id, every turned copy of the board included.",
        ["puzzle", "status", "count (message)", "s", "load"],
    )
    for path in (
        root / "brendan" / "pieces_08x08.txt",
        root / "heule" / "em_8_4_5.txt",
    ):
        r, wall = run(
            read(path),
            "backtrack",
            None,
            {"count": True},
            args.count_time_limit,
            args.threads,
            args.seed,
        )
        table.add(path.stem, str(r.status), r.message, wall, load())
    return table


def nps(root: Path, args: argparse.Namespace) -> Table:
    """Nodes per second of kernel and twin on identical searches (same node counts checked)."""
    from mipgames.edge_matching.search import (
        Search,
        fill_order,
        fill_reference,
        prepare,
    )

    table = Table(
        "Nodes per second, compiled kernel vs pure-Python twin",
        "One thread, in this process (a "
        "measure of the search loop, not a solve). Compile or cache load is the first call, excluded.",
        [
            "search",
            "nodes",
            "kernel s",
            "kernel nodes/s",
            "twin s",
            "twin nodes/s",
            "speed-up",
            "load",
        ],
    )
    t = time.perf_counter()
    warm = planted(3, 3, True, 1, 2, seed=0)[0]
    p = prepare(warm)
    Search(p, fill_order(warm, "rows", p.fixed), count=True).run()
    table.add(
        "first call (numba cache load or compile)",
        "-",
        time.perf_counter() - t,
        "-",
        "-",
        "-",
        "-",
        load(),
    )
    inst = read(REPO / "instances" / "edge_matching" / "planted_5x5_frame.txt")
    p = prepare(inst)
    order = fill_order(inst, "rows", p.fixed)
    t = time.perf_counter()
    s = Search(p, order, count=True)
    s.run()
    k = time.perf_counter() - t
    t = time.perf_counter()
    ref = fill_reference(p, order, count=True)
    tw = time.perf_counter() - t
    assert ref.nodes == s.nodes and ref.solutions == s.solutions
    table.add(
        "count, instances/edge_matching/planted_5x5_frame",
        s.nodes,
        k,
        f"{s.nodes / k:,.0f}",
        tw,
        f"{ref.nodes / tw:,.0f}",
        f"{tw / k:.0f}x",
        load(),
    )
    big = read(root / "brendan" / "pieces_10x10.txt")
    p = prepare(big, "any")
    s = Search(p, fill_order(big, "rows", p.fixed))
    t = time.perf_counter()
    s.run(50_000_000)
    k = time.perf_counter() - t
    table.add(
        "pieces_10x10 exact fill, first 5e7 nodes",
        s.nodes,
        k,
        f"{s.nodes / k:,.0f}",
        "-",
        "-",
        "-",
        load(),
    )
    return table


def e2(root: Path, args: argparse.Namespace, out: Path) -> Table:
    inst = read(root / "heule" / "e2pieces.txt")
    trace: list[tuple[float, int]] = []

    def progress(elapsed: float, incumbent: float | None, bound: float | None) -> None:
        if incumbent is not None and (not trace or inst.inner_edges - int(incumbent) > trace[-1][1]):
            trace.append((elapsed, inst.inner_edges - int(incumbent)))

    r, wall = run(
        inst,
        "portfolio",
        None,
        {},
        args.e2_time_limit,
        args.threads,
        args.seed,
        progress,
    )
    matched = "-" if mismatches(r) == "-" else str(inst.inner_edges - int(mismatches(r)))
    plot = out.with_suffix(".e2.png")
    _plot(trace, plot, args)
    table = Table(
        "Eternity II, matched edges of 480",
        f"portfolio, {args.threads} threads, {args.e2_time_limit:g} s "
        f"(the goal is stated for 1 h); plot: {plot.name}. Best known 470; CP+LNS 2008: 458.",
        ["at s", "matched (progress)"],
    )
    for at, m in trace:
        table.add(at, m)
    table.add(f"end {wall:.0f}", f"{matched} verified ({r.status}), load {load()}")
    return table


def _plot(trace: list[tuple[float, int]], path: Path, args: argparse.Namespace) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    if trace:
        xs, ys = zip(*trace)
        ax.step(
            list(xs) + [args.e2_time_limit],
            list(ys) + [ys[-1]],
            where="post",
            label="portfolio",
        )
    ax.axhline(458, ls="--", c="grey", label="CP+LNS 2008 (458)")
    ax.axhline(470, ls=":", c="k", label="record (470)")
    ax.set(
        xlabel="seconds",
        ylabel="matched edges of 480",
        title=f"Eternity II, {args.threads} threads",
    )
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


NEEDS = {
    "brendan": [f"brendan/pieces_{n:02d}x{n:02d}.txt" for n in range(4, 11)],
    "em": ["heule/em_8_4_5.txt"],
    "shuffles": ["heule/em_8_4_5.txt"],
    "planted": [],
    "first": [],
    "count": ["brendan/pieces_08x08.txt", "heule/em_8_4_5.txt"],
    "nps": ["brendan/pieces_10x10.txt"],
    "e2": ["heule/e2pieces.txt"],
}
"""The public files each set reads (beside the benchmark folder's edge_matching/), checked before any run."""


def main() -> None:
    from scriptkit import Parser, names, positive_float, positive_int, require_files

    ap = Parser(description=__doc__.split("\n")[0])
    ap.add_argument("--sets", type=names(NEEDS, "set"), default="brendan,em,planted,count,nps,e2")
    ap.add_argument(
        "--time-limit",
        type=positive_float,
        default=60,
        help="seconds per Brendan puzzle up to 8x8",
    )
    ap.add_argument(
        "--big-time-limit",
        type=positive_float,
        default=600,
        help="seconds for pieces_09x09 and 10x10",
    )
    ap.add_argument("--em-time-limit", type=positive_float, default=5)
    ap.add_argument("--shuffles", type=positive_int, default=40, help="shuffle seeds 1..N of the shuffles set")
    ap.add_argument("--shuffle-time-limit", type=positive_float, default=30)
    ap.add_argument("--shuffle-names", default="", help="em_* puzzles of the shuffles set (default: all)")
    ap.add_argument("--count-time-limit", type=positive_float, default=300)
    ap.add_argument("--e2-time-limit", type=positive_float, default=3600)
    ap.add_argument("--threads", type=positive_int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--planted-seeds", default="2", help="generator seeds of the planted set")
    ap.add_argument("--planted", default=PLANTED, help="puzzles of the planted set, side:rim:inner,...")
    ap.add_argument("--first-seeds", default="1,2,3", help="generator seeds of the first set")
    ap.add_argument("--first-time-limit", type=positive_float, default=20)
    ap.add_argument("--benchmarks", type=Path, default=None)
    ap.add_argument("--out", type=Path, default=HERE / "search_results.md")
    args = ap.parse_args()
    root = benchmarks_dir(args.benchmarks)
    require_files([root / name for chosen in args.sets for name in NEEDS[chosen]], given=args.benchmarks)
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    head = (
        f"# Edge matching search benchmark\n\n{started}, `bench_search.py {' '.join(sys.argv[1:])}`, "
        f"{os.cpu_count()} cores, load averages (1/5/15 min) beside each timed row.\n\n"
    )
    sections = []
    for name in args.sets:
        if name == "e2":
            sections.append(e2(root, args, args.out))
        else:
            sections.append(
                {
                    "brendan": brendan,
                    "em": em,
                    "shuffles": shuffles,
                    "planted": planted_frames,
                    "first": first,
                    "count": count,
                    "nps": nps,
                }[name](root, args)
            )
        args.out.write_text(
            head + "\n".join(t.markdown() for t in sections)
        )  # after each set: a cut run keeps its rows
    print(f"\nwrote {args.out}")


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parent))  # benchmarks/, for scriptkit
    from scriptkit import run_script

    sys.exit(run_script(main))
