"""Nodes to a first perfect placement by the decision search's shuffled restarts alone: plain, guided, in turn.

    .venv/bin/python benchmarks/edge_matching/bench_restarts.py [--cap 5e7] [--seeds 0,1]
        [--planted 9:3:7:1,...] [--em em_11_3_4:1,...] [--out restarts_results.md]

One thread, in this process.  ``backtrack.Restarts`` of each kind, Luby lengths of ``RESTART_UNIT``
nodes, stopped at the first perfect placement (replayed by the simulator) or at --cap nodes (a capped
run counts as --cap); node counts are deterministic given the restart seed, seconds are this machine's.
Kinds: ``plain`` (shuffled buckets, no look: the restarts before guided ones existed), ``guided``
(rarest colours first, ties shuffled, the row look), ``in turn`` (plain and guided alternate).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO))  # this checkout's package, whichever venv runs the script

from mipgames.core.errors import UsageError  # noqa: E402
from mipgames.edge_matching.backtrack import RESTART_UNIT, Restarts  # noqa: E402
from mipgames.edge_matching.generate import planted, shuffle  # noqa: E402
from mipgames.edge_matching.instance import read  # noqa: E402
from mipgames.edge_matching.search import fill_order, prepare  # noqa: E402
from mipgames.edge_matching.simulate import evaluate, framed  # noqa: E402

sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))  # benchmarks/, for scriptkit
from bench_search import add_row, benchmarks_dir, load, write_report  # noqa: E402
from scriptkit import Parser, positive_float, require_files, run_script  # noqa: E402

PLANTED = ",".join(f"9:3:7:{s}" for s in range(1, 9)) + ",10:4:8:1,10:4:8:2"
EM = "em_11_3_4:1,em_11_3_4:2,em_11_3_4:3,em_11_3_4:4,em_14_7_3:1,em_14_7_3:2,em_12_2_4:1"
KINDS = {"plain": (False,), "guided": (True,), "in turn": (False, True)}


def first(inst, cap: int, seed: int, guided: tuple[bool, ...]) -> tuple[int, float]:
    """(nodes, seconds) to a first perfect placement, or (cap, seconds) when none came."""
    pieces = prepare(inst, "any")
    runs = Restarts(pieces, fill_order(inst, "rows", pieces.fixed), seed, guided)
    start = time.perf_counter()
    while runs.nodes < cap:
        found = runs.run(min(2_000_000, cap - runs.nodes))
        if found is not None:
            assert evaluate(inst, {"mode": "decision"}, found).objective == 0, "not a perfect placement"
            return runs.nodes, time.perf_counter() - start
    return cap, time.perf_counter() - start


def whole_numbers(option: str, text: str, example: str) -> list[int]:
    """The comma-separated whole numbers of ``text``, or a usage error naming the option."""
    try:
        return [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise UsageError(f"{option}: {text[:40]!r} is not whole numbers (e.g. {example})") from None


def main() -> None:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--cap", type=positive_float, default=5e7)
    ap.add_argument("--seeds", default="0,1", help="restart seeds; each cell is the mean over them")
    ap.add_argument("--planted", default=PLANTED, help="side:rim:inner:seed frame puzzles")
    ap.add_argument("--em", default=EM, help="Heule's puzzles as name:shuffle seed")
    ap.add_argument("--benchmarks", type=Path, default=None)
    ap.add_argument("--out", type=Path, default=HERE / "restarts_results.md")
    args = ap.parse_args()
    cap = max(1, int(args.cap))
    seeds = whole_numbers("--seeds", args.seeds, "0,1")
    folder = benchmarks_dir(args.benchmarks)
    ems = [spec.partition(":") for spec in filter(None, args.em.split(","))]
    for _name, _, seed in ems:
        whole_numbers("--em", seed or "0", "em_11_3_4:1")
    require_files([folder / "heule" / f"{name}.txt" for name, _, _ in ems], given=args.benchmarks)
    cases = []
    for spec in filter(None, args.planted.split(",")):
        numbers = whole_numbers("--planted", spec.replace(":", ","), "9:3:7:1")
        if len(numbers) != 4:
            raise UsageError(f"--planted: {spec!r} is not side:rim:inner:seed (e.g. 9:3:7:1)")
        side, rim, inner, seed = numbers
        cases.append((f"planted {side}x{side} {rim}+{inner} s{seed}", planted(side, side, True, rim, inner, seed)[0]))
    for name, _, seed in ems:
        inst = framed(read(folder / "heule" / f"{name}.txt"), {})[0]
        cases.append((f"{name} shuffled {seed}", shuffle(inst, int(seed)) if seed else inst))
    if not cases or not seeds:
        raise UsageError("nothing to run: give --planted or --em puzzles and --seeds")
    lines = [
        "# Nodes to a first perfect placement: plain against guided shuffled restarts",
        "",
        f"`bench_restarts.py --cap {args.cap:g} --seeds {args.seeds}`, one thread, restarts of "
        f"{RESTART_UNIT:,} x Luby nodes; mean nodes over the restart seeds (a run cut at the cap counts as "
        f"{cap:,}) and mean seconds; load at start {load()}.",
        "",
        "| puzzle | " + " | ".join(f"{k} nodes | {k} s" for k in KINDS) + " | plain / guided (nodes) |",
        "|---|" + "---|---|" * len(KINDS) + "---|",
    ]
    print("\n".join(lines[-2:]), flush=True)
    for label, inst in cases:
        cells, means = [], {}
        for kind, guided in KINDS.items():
            runs = [first(inst, cap, s, guided) for s in seeds]
            means[kind] = statistics.mean(n for n, _ in runs)
            capped = sum(n >= cap for n, _ in runs)
            cells += [
                f"{means[kind]:,.0f}" + (f" ({capped} capped)" if capped else ""),
                f"{statistics.mean(t for _, t in runs):.1f}",
            ]
        line = f"| {label} | " + " | ".join(cells) + f" | {means['plain'] / means['guided']:.1f} |"
        add_row(lines, line)
    write_report(lines, args.out)


if __name__ == "__main__":
    sys.exit(run_script(main))
