"""The exact kernel with and without the row look-ahead (``Search(look=True)``) on Brendan Owen's sets.

    .venv/bin/python benchmarks/edge_matching/bench_look.py [--seeds 8] [--budget 2e9] [--rate-nodes 1e8]
        [--parts 20000] [--benchmarks DIR] [--out look_results.md]

One thread, in this process (taskset it to one core).  Three measures, each with the look off and on:

- ``count``: the full count of pieces_05x05 and pieces_06x06 (nodes, solutions, seconds): the whole tree;
- ``first``: pieces_07x07, the first solution of the search with shuffled candidate order, seeds
  1..--seeds (the restarts' order), each cut at --budget nodes: nodes and seconds summed over the seeds;
- ``subtree``: pieces_07x07 and pieces_08x08, whole subtrees (count mode, corner pinned): the tree
  split at depth C - 2 into --parts parts, the first three parts searched to the end.  The look cuts
  nothing before the first row is laid, so both settings split the same tree the same way;
- ``rate``: pieces_07..10, nodes per second over the first --rate-nodes nodes (seed 1).

Node counts are deterministic; seconds depend on the load (noted in the output).  Compile and cache
loading are done before timing (a warm-up count of pieces_04x04 with each setting).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO))  # this checkout's package, whichever venv runs the script

from mipgames.edge_matching import kernel  # noqa: E402
from mipgames.edge_matching.instance import read  # noqa: E402
from mipgames.edge_matching.search import NO_LIMIT, Search, fill_order, prepare  # noqa: E402
from mipgames.edge_matching.simulate import framed  # noqa: E402

sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))  # benchmarks/, for scriptkit
from bench_search import add_row, benchmarks_dir, load  # noqa: E402
from scriptkit import Parser, positive_float, positive_int, require_files, run_script  # noqa: E402

PUZZLES = ("04x04", "05x05", "06x06", "07x07", "08x08", "09x09", "10x10")
"""Brendan Owen's puzzles the measures read."""


def puzzle_path(folder: Path, name: str) -> Path:
    return folder / "brendan" / f"pieces_{name}.txt"


def puzzle(folder: Path, name: str):
    inst, _ = framed(read(puzzle_path(folder, name)), {})
    return inst


def run(
    inst, symmetry: str, look: bool, count: bool, seed: int | None, nodes: int, split=(-1, 1, 0)
) -> tuple[int, int, int, float]:
    """(status, nodes, solutions, seconds) of one kernel search over the row scan."""
    pieces = prepare(inst, symmetry)
    s = Search(pieces, fill_order(inst, "rows", pieces.fixed), count=count, seed=seed, split=split, look=look)
    start = time.perf_counter()
    status = s.run(nodes)
    return status, s.nodes, s.solutions, time.perf_counter() - start


def main() -> None:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=positive_int, default=8)
    ap.add_argument("--budget", type=positive_float, default=2e9)
    ap.add_argument("--rate-nodes", type=positive_float, default=1e8)
    ap.add_argument("--parts", type=positive_int, default=20000)
    ap.add_argument("--benchmarks", type=Path, default=None)
    ap.add_argument("--out", type=Path, default=HERE / "look_results.md")
    args = ap.parse_args()
    folder = benchmarks_dir(args.benchmarks)
    require_files([puzzle_path(folder, name) for name in PUZZLES], given=args.benchmarks)
    lines = [
        "# Row look-ahead in the exact kernel: off against on",
        "",
        f"`bench_look.py --seeds {args.seeds} --budget {args.budget:g} --rate-nodes {args.rate_nodes:g} "
        f"--parts {args.parts}`, one thread, "
        f"load at start {load()}.",
        "",
        "| measure | puzzle | look | nodes | solutions / found | seconds | M nodes/s | load |",
        "|---|---|---|---|---|---|---|---|",
    ]

    def row(measure: str, name: str, look: bool, nodes: int, sols: str, secs: float) -> None:
        line = (
            f"| {measure} | {name} | {'on' if look else 'off'} | {nodes:,} | {sols} | {secs:.2f} | "
            f"{nodes / max(secs, 1e-9) / 1e6:.1f} | {load()} |"
        )
        add_row(lines, line)

    for look in (False, True):  # compile / load the cache before timing
        run(puzzle(folder, "04x04"), "exact", look, True, None, NO_LIMIT)
    for name in ("05x05", "06x06"):
        for look in (False, True):
            _, n, sols, secs = run(puzzle(folder, name), "exact", look, True, None, NO_LIMIT)
            row("count", name, look, n, str(sols), secs)
    inst = puzzle(folder, "07x07")
    for look in (False, True):
        total, found, secs = 0, 0, 0.0
        for seed in range(1, args.seeds + 1):
            status, n, _, t = run(inst, "any", look, False, seed, int(args.budget))
            total, found, secs = total + n, found + (status == kernel.FOUND), secs + t
        row("first", "07x07", look, total, f"{found}/{args.seeds}", secs)
    for name in ("07x07", "08x08"):
        inst = puzzle(folder, name)
        for look in (False, True):
            total, sols, secs = 0, 0, 0.0
            for part in range(3):
                _, n, found, t = run(inst, "exact", look, True, None, NO_LIMIT, (inst.cols - 2, args.parts, part))
                total, sols, secs = total + n, sols + found, secs + t
            row(f"subtree 3/{args.parts}", name, look, total, str(sols), secs)
    for name in ("07x07", "08x08", "09x09", "10x10"):
        for look in (False, True):
            _, n, _, secs = run(puzzle(folder, name), "any", look, False, 1, int(args.rate_nodes))
            row("rate", name, look, n, "", secs)
    args.out.write_text("\n".join(lines) + "\n")
    print(f"written {args.out}")


if __name__ == "__main__":
    sys.exit(run_script(main))
