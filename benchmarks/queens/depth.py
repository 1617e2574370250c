"""How deep the dives of the eager and the lazy level search get on large planted positions.

    cd <repo> && PYTHONPATH=. .venv/bin/python benchmarks/queens/depth.py [--n 64] [--queens 300]
        [--seeds 0,1,2] [--time-limit 60] [--out benchmarks/queens/depth.md]

Neither search solves N = 64 with 300 queens in 60 s (RESULTS.md), so their times say nothing about which
one is nearer.  This runs each search's Python reference (the compiled kernels make the same nodes but do
not report where a dive is) with the restarts of ``search_forest`` for ``--time-limit`` seconds and records,
per restart, the deepest point a dive reached: the highest level being settled and, at that level, the
fewest queens (eager) or tokens (lazy) still unsettled.  A solution is settling the last level.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from mipgames.queens import lazy, levels
from mipgames.queens.generate import planted
from mipgames.queens.geometry import geometry


class EagerProbe(levels.ForestSearch):
    deepest = (0, 0)

    def settle(self, m: int, pending: set[int]) -> bool:
        alive = sum(1 for i in range(self.geo.size) if self.parent[i] is None and not self.root[i])
        self.deepest = max(self.deepest, (m, -alive))
        return super().settle(m, pending)


class LazyProbe(lazy.LazySearch):
    deepest = (0, 0)

    def settle(self, m: int, pending: set[int]) -> bool:
        alive = sum(1 for t in range(self.geo.size) if self.alive(t) and self.rep(t) == t)
        self.deepest = max(self.deepest, (m, -alive))
        return super().settle(m, pending)


def dives(kind: str, geo, k: int, seconds: float) -> tuple[list[tuple[int, int]], bool]:
    """Deepest (level, unsettled) of each restart within ``seconds``; and whether one solved the position."""
    rng = random.Random(0)
    deadline = time.monotonic() + seconds
    out: list[tuple[int, int]] = []
    run = 0
    while time.monotonic() < deadline:
        run += 1
        jitter = list(range(geo.size))
        if run > 1:
            rng.shuffle(jitter)
        probe = EagerProbe(geo, k, deadline) if kind == "levels" else LazyProbe(geo, k, deadline)
        probe.restart(jitter, run, 1000 * levels.luby(run))
        try:
            if probe.solve():
                return out, True
        except (levels.Stop, levels.Restart):
            pass
        out.append((probe.deepest[0], -probe.deepest[1]))
    return out, False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=64)
    parser.add_argument("--queens", type=int, default=300)
    parser.add_argument("--seeds", default="0,1,2")
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    lines = [
        f"# Dive depth, N = {args.n}, {args.queens} queens, K = 2 ({stamp})",
        "",
        f"Python references, {args.time_limit:g} s per search and seed (`depth.py`).  Per restart: the highest level",
        "being settled, and the unsettled queens (eager) or tokens (lazy) at that level.",
        "",
        "| seed | search | restarts | solved | deepest level: median / max | unsettled at the deepest: min |",
        "|---|---|---|---|---|---|",
    ]
    for seed in (int(s) for s in args.seeds.split(",")):
        instance = planted(args.n, 2, args.queens - 2, seed).instance
        geo = geometry(instance)
        for kind in ("levels", "lazy-levels"):
            found, solved = dives(kind, geo, instance.k, args.time_limit)
            top = max(level for level, _ in found) if found else 0
            fewest = min((left for level, left in found if level == top), default=0)
            median = statistics.median(level for level, _ in found) if found else 0
            lines.append(
                f"| {seed} | {kind} | {len(found)} | {'yes' if solved else 'no'} | {median:g} / {top} | {fewest} |"
            )
            print(lines[-1], flush=True)
    text = "\n".join(lines) + "\n"
    if args.out:
        args.out.write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
