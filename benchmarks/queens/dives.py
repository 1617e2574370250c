"""How rare are good upper squares: the tokens many dives leave at level >= cut, each solved alone.

    cd <repo> && PYTHONPATH=. .venv/bin/python benchmarks/queens/dives.py [--n 64] [--queens 300]
        [--seeds 0,1,2] [--cut 4] [--dives 12] [--time-limit 5] [--out benchmarks/queens/dives.md]

``diagnose.py`` shows that the tokens one dive of the level search leaves at level cut and up
(lower squares empty) are not solved in 60 s for two seeds of three, where the planted tokens are
solved in about a second.  This script asks whether that dive was unlucky: each of ``--dives``
dives (the reference search's restarts, shuffled by seeds 1000, 1001, ...) settles the levels
below cut; the tokens it leaves are solved alone by the level search through the runner
(replayed), with ``--time-limit`` each.  The planted tokens are solved the same way beside them.
"""

from __future__ import annotations

import time

from bench import run  # the queens benchmark's runner call (this folder is on sys.path when run as a script)
from diagnose import arguments, heading, lower_of_dive, tokens_after, upper_position, write

from mipgames.queens.generate import planted
from mipgames.queens.geometry import geometry

FIRST_DIVE_SEED = 1000


def main(argv: list[str] | None = None) -> int:
    parser = arguments(__doc__, 5.0)
    parser.add_argument("--dives", type=int, default=12)
    args = parser.parse_args(argv)
    title = (
        f"Tokens of level >= {args.cut} left by {args.dives} dives, solved alone (N = {args.n}, {args.queens} queens)"
    )
    lines = heading(title, "dives.py", argv) + [
        f"{args.time_limit:g} s per position.",
        "",
        "| seed | planted tokens alone | dives: solved | proved unsolvable | open at the limit |",
        "|---|---|---|---|---|",
    ]
    for seed in (int(s) for s in args.seeds.split(",")):
        instance = planted(args.n, 2, args.queens - 2, seed).instance
        geo = geometry(instance)
        status, wall, left = run(upper_position(instance, args.cut), "levels", args.time_limit)
        mark = f"{status} in {wall:.1f} s" if left is not None else f"{status} at {wall:.1f} s"
        tally = {"solved": 0, "proved": 0, "open": 0}
        for dive_seed in range(FIRST_DIVE_SEED, FIRST_DIVE_SEED + args.dives):
            fixed = lower_of_dive(geo, instance.k, args.cut, dive_seed, time.monotonic() + 60)
            if fixed is None:
                tally["open"] += 1
                continue
            status, _, left = run(tokens_after(instance, geo, fixed, args.cut), "levels", args.time_limit)
            tally["solved" if left is not None else "proved" if status == "infeasible" else "open"] += 1
        lines.append(f"| {seed} | {mark} | {tally['solved']} | {tally['proved']} | {tally['open']} |")
        print(lines[-1], flush=True)
    write(lines, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
