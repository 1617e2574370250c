"""How far the lazy search's dives get on the large planted positions: the highest level each dive settles.

    cd <repo> && PYTHONPATH=. .venv/bin/python benchmarks/queens/reach.py [--n 64] [--queens 300,400]
        [--seeds 0,1,2,3,4,5,6,7,8,9] [--dives 400] [--limit 3000] [--out benchmarks/queens/reach.md]

Deciding K = 2 at N = 64 waits on a rare dive (docs/queens.md), so this asks where the others stop.  The
planted positions' powers add up to one power of two, so with K = 2 no token below the top two levels may
survive: every level up to there must be matched perfectly, and the level sizes are fixed by the position
(its queens of the level plus half of the level below).  Each dive is one restart of the compiled kernel
(``lazy_kernel.CompiledLazy``) with its own shuffled tie-breaks (``node_speed.jitters``), cut at ``--limit``
nodes; ``CompiledLazy.reach`` gives the highest level it entered.  One core.
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

from node_speed import jitters  # this folder is on sys.path when run as a script

from mipgames.core.files import write_text_atomic
from mipgames.queens.generate import planted
from mipgames.queens.geometry import geometry
from mipgames.queens.lazy_kernel import CompiledLazy


def level_sizes(exps: list[int]) -> list[int]:
    """Tokens each level has when every level below is matched perfectly: its queens plus half the level below."""
    queens = collections.Counter(exps)
    sizes: list[int] = []
    level, carried = 0, 0
    while level <= max(exps) or carried:
        sizes.append(queens[level] + carried)
        carried = sizes[-1] // 2
        level += 1
    return sizes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=64)
    parser.add_argument("--queens", default="300,400")
    parser.add_argument("--seeds", default="0,1,2,3,4,5,6,7,8,9")
    parser.add_argument("--dives", type=int, default=400)
    parser.add_argument("--limit", type=int, default=3000)
    parser.add_argument("--jitter-seed", type=int, default=0)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    lines = [
        f"# How far the lazy search's dives get (N = {args.n}, K = 2, {args.dives} dives of {args.limit} nodes)",
        "",
        "    PYTHONPATH=. .venv/bin/python benchmarks/queens/reach.py "
        + " ".join(sys.argv[1:] if argv is None else argv),
        "",
        f"Started {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.  Level sizes: the tokens of each level when",
        "every level below is matched perfectly.  Highest level: how many dives entered it at most.",
        "",
        "| queens | seed | power sum | level sizes | highest level reached: dives | games found | seconds |",
        "|---|---|---|---|---|---|---|",
    ]
    for queens in (int(x) for x in args.queens.split(",")):
        for seed in (int(x) for x in args.seeds.split(",")):
            geo = geometry(planted(args.n, 2, queens - 2, seed).instance)
            engine = CompiledLazy(geo, 2)
            engine.dive(list(range(geo.size)), 10, None)  # compiled code loaded before the clock starts
            highest: collections.Counter[int] = collections.Counter()
            found = 0
            start = time.monotonic()
            for jitter in jitters(geo.size, args.dives, args.jitter_seed * 7919 + seed):
                found += engine.dive(jitter, args.limit, None) == "found"
                highest[engine.reach()[1]] += 1
            seconds = time.monotonic() - start
            total = sum(1 << e for e in geo.exps)
            sizes = level_sizes(list(geo.exps))
            reached = ", ".join(f"{level}: {count}" for level, count in sorted(highest.items()))
            row = f"| {queens} | {seed} | 2^{total.bit_length() - 1}" + ("" if total & (total - 1) == 0 else " + ...")
            lines.append(f"{row} | {' '.join(map(str, sizes))} | {reached} | {found} | {seconds:.1f} |")
            print(lines[-1], flush=True)
    text = "\n".join(lines) + "\n"
    if args.out:
        write_text_atomic(args.out, text)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
