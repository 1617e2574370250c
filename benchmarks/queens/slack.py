"""Deciding K with slack: planted positions asked for more queens than they can be brought to.

    cd <repo> && PYTHONPATH=. .venv/bin/python benchmarks/queens/slack.py [--n 64] [--queens 300]
        [--seeds 0,1,2] [--ks 6,10,20] [--time-limit 30] [--out benchmarks/queens/slack.md]

A level search asked for "at most K" prunes with the survivors bound against K; far above the fewest
queens it can reach, the bound never bites and the search wanders (minimise.py).  Three ways to
decide K, on the same positions in one run:

- ``lazy search of K``: the lazy level search of K alone (compiled, in-process), which was the
  portfolio's decision after its probe until the targets below K got their share;
- ``portfolio``: the default through the shared runner (isolated child, replay, claim rule): with
  K above the bound, the eager search of K and the lazy searches of the bound, bound + 1, + 2, + 4, ...
  share the time in doubling slices (run_levels, minimise.py);
- ``coursework-dfs``: the coursework's own search (compiled) through the runner.

A cell is wall seconds and the queens left, ``> L s`` when no game was found within the limit.
"""

from __future__ import annotations

import time

from bench import run, shown
from diagnose import arguments, heading, write

from mipgames.queens.generate import planted
from mipgames.queens.geometry import geometry
from mipgames.queens.instance import Queens
from mipgames.queens.lazy import lazy_restarts

METHODS = ("lazy search of K", "portfolio", "coursework-dfs")


def lazy_alone(instance: Queens, limit: float) -> str:
    geo = geometry(instance)
    start = time.monotonic()
    found, exhausted = lazy_restarts(geo, instance.k).run(start + limit)
    took = time.monotonic() - start
    if found is not None:
        return f"{took:.1f} s ({geo.size - len(found)} left)"
    return f"{took:.1f} s proved" if exhausted else f"> {limit:g} s"


def main(argv: list[str] | None = None) -> int:
    parser = arguments(__doc__, 30.0)
    parser.add_argument("--ks", default="6,10,20")
    args = parser.parse_args(argv)
    lines = heading(f"Deciding K with slack (N = {args.n}, {args.queens} queens, planted K = 2)", "slack.py", argv)
    lines += [
        f"Limit {args.time_limit:g} s a solve.",
        "",
        "| seed | K | " + " | ".join(METHODS) + " |",
        "|---" * (len(METHODS) + 2) + "|",
    ]
    lazy_alone(planted(12, 1, 10, 0).instance, 5.0)  # numba's cached code loaded before the first timing
    for seed in (int(s) for s in args.seeds.split(",")):
        made = planted(args.n, 2, args.queens - 2, seed).instance
        for k in (int(k) for k in args.ks.split(",")):
            instance = Queens(made.n, k, made.board)
            cells = [lazy_alone(instance, args.time_limit)]
            cells += [shown(*run(instance, m, args.time_limit), args.time_limit) for m in METHODS[1:]]
            lines.append(f"| {seed} | {k} | " + " | ".join(cells) + " |")
            print(lines[-1], flush=True)
    write(lines, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
