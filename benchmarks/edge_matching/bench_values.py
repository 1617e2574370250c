"""Nodes to a first perfect placement: the complete search's candidate order, entry order against rare colours first.

    .venv/bin/python benchmarks/edge_matching/bench_values.py [--seeds 4] [--cap 5e7]
        [--puzzles 05x05,06x06,07x07] [--planted 7:3:6:1,...] [--benchmarks DIR] [--out values_results.md]

One thread, in this process; node counts only (deterministic), no wall time. The kernel's exact search
with the row look over the row scan, corner pinned as the decision search pins it, stopped at the first
solution or at --cap nodes (a capped run counts as --cap). Four orders of the candidates in each bucket:

- ``entry``: entry order (the complete search before ``rare_first``);
- ``rare``: rarest colours first (``search.rare_colours_first``), ties in entry order (the complete
  search now);
- ``shuffled``: the mean over seeds 1..--seeds of shuffled buckets (the restarts' order, with the look);
- ``rare, shuffled ties``: the mean over the same seeds of rarest first with shuffled ties.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO))  # this checkout's package, whichever venv runs the script

from mipgames.edge_matching.generate import planted  # noqa: E402
from mipgames.edge_matching.instance import read  # noqa: E402
from mipgames.edge_matching.search import Search, fill_order, prepare  # noqa: E402
from mipgames.edge_matching.simulate import framed  # noqa: E402

sys.path.insert(0, str(HERE))
from bench_search import add_row, benchmarks_dir, load, write_report  # noqa: E402

PLANTED = "7:3:6:1,7:3:6:2,7:3:6:3,7:3:6:4,7:3:6:5,8:3:6:1,8:3:6:2,8:3:6:3,8:3:6:4,8:3:6:5,9:3:7:3"


def first(inst, cap: int, seed: int | None, rare: bool) -> int:
    pieces = prepare(inst, "any")
    s = Search(pieces, fill_order(inst, "rows", pieces.fixed), seed=seed, look=True, rare_first=rare)
    s.run(cap)
    return s.nodes if s.solutions else cap


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=4)
    ap.add_argument("--cap", type=float, default=5e7)
    ap.add_argument("--puzzles", default="05x05,06x06,07x07")
    ap.add_argument("--planted", default=PLANTED, help="side:rim:inner:seed frame puzzles")
    ap.add_argument("--benchmarks", type=Path, default=None)
    ap.add_argument("--out", type=Path, default=HERE / "values_results.md")
    args = ap.parse_args()
    folder = benchmarks_dir(args.benchmarks)
    cap = int(args.cap)
    cases = [
        (f"pieces_{n}", framed(read(folder / "brendan" / f"pieces_{n}.txt"), {})[0])
        for n in filter(None, args.puzzles.split(","))
    ]
    for spec in filter(None, args.planted.split(",")):
        side, rim, inner, seed = (int(x) for x in spec.split(":"))
        cases.append((f"planted {side}x{side} {rim}+{inner} s{seed}", planted(side, side, True, rim, inner, seed)[0]))
    lines = [
        "# Nodes to a first perfect placement: entry order against rare colours first",
        "",
        f"`bench_values.py --seeds {args.seeds} --cap {args.cap:g} --puzzles {args.puzzles} --planted {args.planted}`, "
        f"one thread, node counts (a run cut at the cap counts as {cap:,}); load at start {load()}.",
        "",
        "| puzzle | entry | rare | entry / rare | shuffled (mean) | rare, shuffled ties (mean) |",
        "|---|---|---|---|---|---|",
    ]
    print("\n".join(lines[-2:]), flush=True)
    seeds = range(1, args.seeds + 1)
    for label, inst in cases:
        entry, rare = first(inst, cap, None, False), first(inst, cap, None, True)
        shuffled = statistics.mean(first(inst, cap, s, False) for s in seeds)
        rare_shuffled = statistics.mean(first(inst, cap, s, True) for s in seeds)
        line = f"| {label} | {entry:,} | {rare:,} | {entry / rare:.1f} | {shuffled:,.0f} | {rare_shuffled:,.0f} |"
        add_row(lines, line)
    write_report(lines, args.out)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/, for scriptkit
    from scriptkit import run_script

    sys.exit(run_script(main))
