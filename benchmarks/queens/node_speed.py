"""The lazy level search's cost per node: the compiled kernel against its Python reference, same dives, and
optionally against the kernel of another git revision.

    cd <repo> && PYTHONPATH=. .venv/bin/python benchmarks/queens/node_speed.py [--n 64] [--queens 300,400]
        [--seeds 0,1,2] [--dives 40] [--reference-dives 2] [--limit 3000] [--against REV ...]
        [--out benchmarks/queens/node_speed.md]

Deciding K = 2 on the large planted positions is a matter of dives per second (docs/queens.md, "Deciding K
on two cores"), so a node's cost is the figure that moves it.  Each position gets ``--dives`` dives of the
compiled kernel (``lazy_kernel.CompiledLazy``), each with its own shuffled tie-breaks and cut at ``--limit``
nodes, as a restart of that length is; the first ``--reference-dives`` of them are made again by the Python
reference (``lazy.LazySearch``), and the node counts must agree (they make the same nodes in the same
order).  ``--against REV`` loads ``lazy_kernel.py`` and ``levels_kernel.py`` as they are at git revision REV
and runs each dive with both kernels in turn, so the machine's drift falls on both alike; their node counts
must agree too.  One core; read the ratios, not the microseconds, on a shared machine.
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from mipgames.queens.generate import planted
from mipgames.queens.geometry import geometry
from mipgames.queens.lazy import LazySearch
from mipgames.queens.lazy_kernel import CompiledLazy
from mipgames.queens.levels import Restart

REPO = Path(__file__).resolve().parents[2]


def jitters(size: int, dives: int, seed: int) -> list[list[int]]:
    """The tie-breaks of ``dives`` restarts, as ``levels.Restarts`` draws them (seeded)."""
    rng = random.Random(seed)
    out = []
    for _ in range(dives):
        jitter = list(range(size))
        rng.shuffle(jitter)
        out.append(jitter)
    return out


def kernel_at(revision: str, folder: Path) -> ModuleType:
    """The lazy kernel of git ``revision``, with the level kernel it imports from that revision too."""
    tag = "".join(c if c.isalnum() else "_" for c in revision)

    def show(name: str) -> str:
        command = ["git", "show", f"{revision}:mipgames/queens/{name}.py"]
        return subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=True).stdout

    (folder / f"levels_kernel_{tag}.py").write_text(show("levels_kernel"))
    lazy = show("lazy_kernel").replace("mipgames.queens.levels_kernel", f"levels_kernel_{tag}")
    (folder / f"lazy_kernel_{tag}.py").write_text(lazy)
    sys.path.insert(0, str(folder))
    return importlib.import_module(f"lazy_kernel_{tag}")


def compiled_dives(engines: list[Any], tie_breaks: list[list[int]], limit: int) -> list[tuple[list[int], float]]:
    """Per engine, the nodes of each dive and the seconds they took together; the engines take turns."""
    nodes: list[list[int]] = [[] for _ in engines]
    seconds = [0.0 for _ in engines]
    for jitter in tie_breaks:
        for e, engine in enumerate(engines):
            began = time.perf_counter()
            engine.dive(jitter, limit, None)
            seconds[e] += time.perf_counter() - began
            nodes[e].append(int(engine.nodes))
    return list(zip(nodes, seconds, strict=True))


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
    ap.add_argument("--against", nargs="*", default=[], help="git revisions whose kernels run the same dives")
    ap.add_argument("--out", type=Path, default=Path("benchmarks/queens/node_speed.md"))
    args = ap.parse_args()
    k = 2
    scratch = tempfile.TemporaryDirectory(prefix="node_speed_")
    others = [kernel_at(rev, Path(scratch.name)) for rev in args.against]
    makers = [CompiledLazy] + [m.CompiledLazy for m in others]
    load = os.getloadavg()
    against = "".join(f" | {rev} us/node | {rev} / now" for rev in args.against)
    lines = [
        f"# The lazy level search's cost per node, N = {args.n}, K = {k}",
        "",
        "    PYTHONPATH=. .venv/bin/python benchmarks/queens/node_speed.py "
        f"--n {args.n} --queens {args.queens} --seeds {args.seeds} --dives {args.dives} "
        f"--reference-dives {args.reference_dives} --limit {args.limit}"
        + (f" --against {' '.join(args.against)}" if args.against else ""),
        "",
        f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; load average at the start "
        f"{load[0]:.1f} {load[1]:.1f} {load[2]:.1f} (2 shared cores); one core.  Dives cut at {args.limit:,} "
        "nodes; the reference makes the first dives of each position again, and every kernel must count the "
        "same nodes.",
        "",
        f"| queens | seed | dives | nodes | us/node | reference us/node | reference / now{against} |",
        "|---|---|---|---|---|---|---" + "|---|---" * len(args.against) + "|",
    ]
    warm = geometry(planted(16, k, 30, 0).instance)
    for make in makers:  # compile or load every kernel first
        make(warm, k).dive(list(range(warm.size)), 100, None)
    for queens in (int(x) for x in args.queens.split(",")):
        for seed in (int(x) for x in args.seeds.split(",")):
            geo = geometry(planted(args.n, k, queens - k, seed).instance)
            ties = jitters(geo.size, args.dives, seed)
            runs = compiled_dives([make(geo, k) for make in makers], ties, args.limit)
            nodes, seconds = runs[0]
            ref_nodes, ref_seconds = reference_dives(geo, k, ties[: args.reference_dives], args.limit)
            if ref_nodes != nodes[: len(ref_nodes)] or any(other != nodes for other, _ in runs[1:]):
                raise SystemExit(f"node counts differ at {queens} queens, seed {seed}")
            fast = seconds / sum(nodes) * 1e6
            slow = ref_seconds / max(1, sum(ref_nodes)) * 1e6
            cells = "".join(f" | {s / sum(nodes) * 1e6:.1f} | {s / seconds:.2f}x" for _, s in runs[1:])
            lines.append(
                f"| {queens} | {seed} | {len(nodes)} | {sum(nodes):,} | {fast:.1f} | {slow:.0f} | {slow / fast:.0f}x"
                f"{cells} |"
            )
            print(lines[-1], flush=True)
    load = os.getloadavg()
    lines += ["", f"Load average at the end: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}."]
    args.out.write_text("\n".join(lines) + "\n")
    scratch.cleanup()
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
