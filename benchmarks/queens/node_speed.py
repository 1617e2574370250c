"""The lazy level search's cost per node: the compiled kernel against its Python reference, same dives.

    cd <repo> && PYTHONPATH=. .venv/bin/python benchmarks/queens/node_speed.py [--n 64] [--queens 300,400]
        [--seeds 0,1,2] [--dives 40] [--reference-dives 2] [--limit 3000] [--out benchmarks/queens/node_speed.md]

Deciding K = 2 on the large planted positions is a matter of dives per second (docs/queens.md, "Deciding K
on two cores"), so a node's cost is the figure that moves it.  Each position gets ``--dives`` dives of the
compiled kernel (``lazy_kernel.CompiledLazy``), each with its own shuffled tie-breaks and cut at ``--limit``
nodes, as a restart of that length is; the first ``--reference-dives`` of them are made again by the Python
reference (``lazy.LazySearch``), and the node counts of the two must agree (they make the same nodes in the
same order).  One core; read the ratio, not the microseconds, on a shared machine.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from pathlib import Path

from mipgames.queens.generate import planted
from mipgames.queens.geometry import geometry
from mipgames.queens.lazy import LazySearch
from mipgames.queens.lazy_kernel import CompiledLazy
from mipgames.queens.levels import Restart


def jitters(size: int, dives: int, seed: int) -> list[list[int]]:
    """The tie-breaks of ``dives`` restarts, as ``levels.Restarts`` draws them (seeded)."""
    rng = random.Random(seed)
    out = []
    for _ in range(dives):
        jitter = list(range(size))
        rng.shuffle(jitter)
        out.append(jitter)
    return out


def compiled_dives(engine: CompiledLazy, tie_breaks: list[list[int]], limit: int) -> tuple[list[int], float]:
    """Nodes of each dive and the seconds they took together."""
    nodes = []
    began = time.perf_counter()
    for jitter in tie_breaks:
        engine.dive(jitter, limit, None)
        nodes.append(int(engine.nodes))
    return nodes, time.perf_counter() - began


def reference_dives(geo, k: int, tie_breaks: list[list[int]], limit: int) -> tuple[list[int], float]:
    nodes = []
    began = time.perf_counter()
    for run, jitter in enumerate(tie_breaks, start=1):
        search = LazySearch(geo, k, None)
        search.restart(jitter, run, limit)
        try:
            search.solve()
        except Restart:
            pass
        nodes.append(int(search.nodes))
    return nodes, time.perf_counter() - began


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=64)
    ap.add_argument("--queens", default="300,400", help="queens of the planted positions (K = 2)")
    ap.add_argument("--seeds", default="0,1,2")
    ap.add_argument("--dives", type=int, default=40)
    ap.add_argument("--reference-dives", type=int, default=2)
    ap.add_argument("--limit", type=int, default=3000, help="nodes a dive may make (a restart's limit)")
    ap.add_argument("--out", type=Path, default=Path("benchmarks/queens/node_speed.md"))
    args = ap.parse_args()
    k = 2
    load = os.getloadavg()
    lines = [
        f"# The lazy level search's cost per node, N = {args.n}, K = {k}",
        "",
        "    PYTHONPATH=. .venv/bin/python benchmarks/queens/node_speed.py "
        f"--n {args.n} --queens {args.queens} --seeds {args.seeds} --dives {args.dives} "
        f"--reference-dives {args.reference_dives} --limit {args.limit}",
        "",
        f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; load average at the start "
        f"{load[0]:.1f} {load[1]:.1f} {load[2]:.1f} (2 shared cores); one core.  Dives cut at {args.limit:,} "
        "nodes; the reference makes the first dives of each position again and must count the same nodes.",
        "",
        "| queens | seed | compiled dives | compiled nodes | compiled us/node | reference dives | reference us/node "
        "| ratio | same nodes |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    warm = geometry(planted(16, k, 30, 0).instance)
    CompiledLazy(warm, k).dive(list(range(warm.size)), 100, None)  # compile or load the kernel first
    for queens in (int(x) for x in args.queens.split(",")):
        for seed in (int(x) for x in args.seeds.split(",")):
            geo = geometry(planted(args.n, k, queens - k, seed).instance)
            ties = jitters(geo.size, args.dives, seed)
            nodes, seconds = compiled_dives(CompiledLazy(geo, k), ties, args.limit)
            ref_nodes, ref_seconds = reference_dives(geo, k, ties[: args.reference_dives], args.limit)
            fast = seconds / sum(nodes) * 1e6
            slow = ref_seconds / max(1, sum(ref_nodes)) * 1e6
            same = ref_nodes == nodes[: len(ref_nodes)]
            lines.append(
                f"| {queens} | {seed} | {len(nodes)} | {sum(nodes):,} | {fast:.1f} | {len(ref_nodes)} | {slow:.0f} "
                f"| {slow / fast:.0f}x | {'yes' if same else 'NO'} |"
            )
            print(lines[-1], flush=True)
            if not same:
                raise SystemExit(f"node counts differ: compiled {nodes[: len(ref_nodes)]}, reference {ref_nodes}")
    load = os.getloadavg()
    lines += ["", f"Load average at the end: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}."]
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
