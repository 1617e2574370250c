"""The size of the exact search tree, estimated by Knuth's random probes, for fill orders, corner pins and checks.

    .venv/bin/python benchmarks/edge_matching/bench_order.py [--probes 200000] [--seed 1]
        [--puzzles 06x06,07x07,08x08] [--planted 8:3:6:1,8:3:6:2] [--benchmarks DIR] [--out order_results.md]

Why an estimate: the whole pieces_08x08 tree is ~1e12 nodes, hours of search; a probe walks one random
path from the root, multiplying the number of children met at each level, and the mean of those products
over many probes is an unbiased estimate of the nodes per level (Knuth 1975).  Deterministic given the
seed; no wall time is compared.  Brendan Owen's sets (DIR/edge_matching/brendan) and planted frame
puzzles (side:rim:inner:seed) are measured; the corner is pinned as the decision search pins it.

Measures (one table each):

- ``orders``: the plain exact tree (no look-ahead) for the row scan, frame first, spiral inwards, a
  square grown from the top-left corner, anti-diagonals, and bands of two rows filled column by column;
- ``pins``: the row scan and the column scan with each corner tile pinned to the top-left corner (a
  decision search may pin any one: each keeps one turned copy of every solution);
- ``checks`` (row scan): plain; the kernel's row look-ahead (``search.row_ahead``); the look plus an exact
  test that the next row can be laid without repeating tiles; the look plus a check of each tile against
  the cell under it, left to right (tiles may repeat).  Nodes only: what a check costs per node is
  measured on the kernel, not here;
- ``repeats`` (the first puzzle, its whole plain row-scan tree): row ends whose state (tiles used, bottom
  colours) an earlier row end already had, i.e. what caching failed states could save.

The estimator is written here, apart from the solver's kernel, so that it can try checks the kernel does
not have; its plain row-scan and row-look figures agree with the kernel's exact node counts where those
are known (pieces_06x06: 14.5 M and 6.2 M nodes).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO))  # this checkout's package, whichever venv runs the script

from mipgames.edge_matching.generate import planted  # noqa: E402
from mipgames.edge_matching.instance import read  # noqa: E402
from mipgames.edge_matching.kernel import _neighbour  # noqa: E402  (compiled: callable from the probes)
from mipgames.edge_matching.search import fill_order, prepare  # noqa: E402
from mipgames.edge_matching.simulate import framed  # noqa: E402

sys.path.insert(0, str(HERE))
from bench_search import benchmarks_dir, load  # noqa: E402

PLAIN, LOOK, LOOK_EXACT_ROW, LOOK_UNDER = range(4)
CHECKS = ("plain", "row look (kernel)", "look + exact next row", "look + cell under")


@njit
def probe_order(R, C, order, allowed, ent_col, ent_type, avail0, probes, seed):
    """Nodes per depth of the plain exact tree over a fixed fill order (every placed neighbour must match)."""
    np.random.seed(seed)
    N = R * C
    nk = order.shape[0]
    E = ent_col.shape[0]
    level = np.zeros(nk + 1)
    out = np.empty(E, np.int64)
    for _ in range(probes):
        placed = np.zeros(N, np.bool_)
        entry = np.zeros(N, np.int64)
        avail = avail0.copy()
        w = 1.0
        level[0] += 1.0
        for k in range(nk):
            cell = order[k]
            n = 0
            for e in range(E):
                if allowed[cell, e] == 0 or avail[ent_type[e]] == 0:
                    continue
                ok = True
                for s in range(4):
                    j = _neighbour(R, C, cell, s)
                    if j >= 0 and placed[j] and ent_col[entry[j], (s + 2) & 3] != ent_col[e, s]:
                        ok = False
                        break
                if ok:
                    out[n] = e
                    n += 1
            if n == 0:
                break
            w *= n
            level[k + 1] += w
            e = out[np.random.randint(0, n)]
            placed[cell] = True
            entry[cell] = e
            avail[ent_type[e]] -= 1
    return level / probes


@njit
def _row_exists(C, r, c, col, left, allowed, ent_col, ent_type, avail):
    """Can cells (r, c..C-1) be laid, tops from row r - 1, the first left colour given, no tile twice?"""
    if c == C:
        return True
    cell = r * C + c
    for e in range(ent_col.shape[0]):
        if allowed[cell, e] == 0 or avail[ent_type[e]] == 0 or ent_col[e, 0] != col[cell - C, 2]:
            continue
        if c > 0 and ent_col[e, 3] != left:
            continue
        avail[ent_type[e]] -= 1
        ok = _row_exists(C, r, c + 1, col, ent_col[e, 1], allowed, ent_col, ent_type, avail)
        avail[ent_type[e]] += 1
        if ok:
            return True
    return False


@njit
def _relaxed_row(C, r, col, allowed, ent_col, ent_type, avail, back):
    """The kernel's look: row r right to left, tiles may repeat; back[c] = left colours cell c can show."""
    right = np.int64(-1)
    for c in range(C - 1, -1, -1):
        cell = r * C + c
        lefts = np.int64(0)
        for e in range(ent_col.shape[0]):
            if allowed[cell, e] == 0 or avail[ent_type[e]] == 0 or ent_col[e, 0] != col[cell - C, 2]:
                continue
            if (right >> ent_col[e, 1]) & 1:
                lefts |= np.int64(1) << ent_col[e, 3]
        back[c] = lefts
        right = lefts
        if lefts == 0:
            return False
    return True


@njit
def probe_rows(R, C, check, allowed, ent_col, ent_type, avail0, probes, seed):
    """Nodes per depth of the row-scan tree with one of the CHECKS."""
    np.random.seed(seed)
    N = R * C
    E = ent_col.shape[0]
    level = np.zeros(N + 1)
    out = np.empty(E, np.int64)
    out_under = np.empty(E, np.int64)
    back = np.zeros(C, np.int64)
    scratch = np.zeros(C, np.int64)
    under = np.zeros(C, np.int64)
    for _ in range(probes):
        col = np.zeros((N, 4), np.int64)
        avail = avail0.copy()
        back[:] = -1
        w = 1.0
        level[0] += 1.0
        for k in range(N):
            r, c = k // C, k % C
            n = 0
            for e in range(E):
                if allowed[k, e] == 0 or avail[ent_type[e]] == 0:
                    continue
                if r > 0 and ent_col[e, 0] != col[k - C, 2]:
                    continue
                if c > 0 and ent_col[e, 3] != col[k - 1, 1]:
                    continue
                if check != PLAIN and r > 0 and c < C - 1 and (back[c + 1] >> ent_col[e, 1]) & 1 == 0:
                    continue
                avail[ent_type[e]] -= 1
                ok = True
                if check == LOOK_UNDER and r < R - 1:
                    rights = np.int64(0)
                    for f in range(E):
                        if allowed[k + C, f] == 0 or avail[ent_type[f]] == 0 or ent_col[f, 0] != ent_col[e, 2]:
                            continue
                        if c == 0 or (under[c - 1] >> ent_col[f, 3]) & 1:
                            rights |= np.int64(1) << ent_col[f, 1]
                    ok = rights != 0
                    out_under[n] = rights
                if ok and check != PLAIN and c == C - 1 and r < R - 1:
                    saved = col[k, 2]
                    col[k, 2] = ent_col[e, 2]
                    ok = _relaxed_row(C, r + 1, col, allowed, ent_col, ent_type, avail, scratch)
                    if ok and check == LOOK_EXACT_ROW:
                        ok = _row_exists(C, r + 1, 0, col, 0, allowed, ent_col, ent_type, avail)
                    col[k, 2] = saved
                avail[ent_type[e]] += 1
                if ok:
                    out[n] = e
                    n += 1
            if n == 0:
                break
            w *= n
            level[k + 1] += w
            pick = np.random.randint(0, n)
            e = out[pick]
            if check == LOOK_UNDER:
                under[c] = out_under[pick]
            for s in range(4):
                col[k, s] = ent_col[e, s]
            avail[ent_type[e]] -= 1
            if check != PLAIN and c == C - 1 and r < R - 1:
                _relaxed_row(C, r + 1, col, allowed, ent_col, ent_type, avail, back)
    return level / probes


@njit
def row_end_repeats(R, C, allowed, ent_col, ent_type, avail, type_bit):
    """The whole plain row-scan tree, depth first: row ends reached, and how many repeat an earlier one's state.

    The state after a row is the set of tiles used and the row's bottom colours: two row ends with the
    same state have the same subtree, so the repeats bound what caching failed states could save.
    """
    N = R * C
    E = ent_col.shape[0]
    cur = np.zeros(N + 1, np.int64)
    place = np.zeros(N, np.int64)
    col = np.zeros((N, 4), np.int64)
    used = np.zeros(N + 1, np.uint64)
    seen = {(np.uint64(0), np.int64(0)): 0}
    repeats = np.zeros(R, np.int64)
    ends = np.zeros(R, np.int64)
    k = 0
    nodes = 0
    while k >= 0:
        r, c = k // C, k % C
        found = -1
        for e in range(cur[k], E):
            if allowed[k, e] and avail[ent_type[e]] > 0:
                if (r == 0 or ent_col[e, 0] == col[k - C, 2]) and (c == 0 or ent_col[e, 3] == col[k - 1, 1]):
                    found = e
                    break
        if found < 0:
            k -= 1
            if k >= 0:
                avail[ent_type[place[k]]] += 1
                cur[k] += 1
            continue
        cur[k] = found
        place[k] = found
        avail[ent_type[found]] -= 1
        for s in range(4):
            col[k, s] = ent_col[found, s]
        used[k + 1] = used[k] | type_bit[ent_type[found]]
        nodes += 1
        if c == C - 1 and r < R - 1:
            h = np.int64(0)
            for cc in range(C):
                h = h * 64 + col[r * C + cc, 2]
            ends[r] += 1
            if (used[k + 1], h) in seen:
                repeats[r] += 1
            else:
                seen[(used[k + 1], h)] = 0
        if k == N - 1:
            avail[ent_type[found]] += 1
            cur[k] += 1
        else:
            k += 1
            cur[k] = 0
    return nodes, ends, repeats


def square_order(R: int, C: int) -> list[int]:
    """Cells of a square growing from the top-left corner: each shell's column down, then its row across."""
    out = []
    for s in range(max(R, C)):
        out += [r * C + s for r in range(min(s, R)) if s < C]
        out += [s * C + c for c in range(min(s + 1, C)) if s < R]
    return out


def orders(inst) -> dict[str, list[int]]:
    R, C = inst.rows, inst.cols
    return {
        "rows": fill_order(inst, "rows"),
        "frame first": fill_order(inst, "frame"),
        "spiral inwards": fill_order(inst, "spiral"),
        "square from a corner": square_order(R, C),
        "anti-diagonals": [r * C + d - r for d in range(R + C - 1) for r in range(R) if 0 <= d - r < C],
        "bands of 2 rows, by column": [
            r * C + c for r0 in range(0, R, 2) for c in range(C) for r in (r0, r0 + 1) if r < R
        ],
    }


def puzzles(folder: Path, names: str, planted_specs: str):
    out = []
    for name in filter(None, names.split(",")):
        out.append((f"pieces_{name}", framed(read(folder / "brendan" / f"pieces_{name}.txt"), {})[0]))
    for spec in filter(None, planted_specs.split(",")):
        side, rim, inner, seed = (int(x) for x in spec.split(":"))
        inst = planted(side, side, True, rim, inner, seed)[0]
        out.append((f"planted {side}x{side} {rim}+{inner} s{seed}", inst))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--probes", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--puzzles", default="06x06,07x07,08x08")
    ap.add_argument("--planted", default="8:3:6:1,8:3:6:2")
    ap.add_argument("--benchmarks", type=Path, default=None)
    ap.add_argument("--out", type=Path, default=HERE / "order_results.md")
    args = ap.parse_args()
    folder = benchmarks_dir(args.benchmarks)
    started = load()
    lines = [
        "# The exact search tree by Knuth's estimator: fill orders, corner pins, checks",
        "",
        f"`bench_order.py --probes {args.probes} --seed {args.seed} --puzzles {args.puzzles} "
        f"--planted {args.planted}`, load at start {started}. Estimated nodes of the whole tree (decision "
        "search with the corner pinned, no solution stops it); deterministic given the seed.",
        "",
    ]

    def table(title: str, head: list[str], rows: list[list[str]]) -> None:
        block = [f"## {title}", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        block += ["| " + " | ".join(r) + " |" for r in rows]
        print("\n".join(block), flush=True)
        lines.extend(block + [""])

    cases = puzzles(folder, args.puzzles, args.planted)
    names = list(orders(cases[0][1]))
    rows = []
    for label, inst in cases:
        p = prepare(inst, "any")
        cells = [label]
        for order in orders(inst).values():
            level = probe_order(
                inst.rows,
                inst.cols,
                np.array(order, np.int64),
                p.allowed,
                p.ent_col,
                p.ent_type,
                p.avail,
                args.probes,
                args.seed,
            )
            cells.append(f"{level.sum():.2g}")
            if len(cells) == 2:  # the row scan: its estimated solutions (0 when no probe reached one)
                sols = f"{level[-1]:.2g}"
        rows.append([*cells, sols])
    table("Fill orders (plain exact tree)", ["puzzle", *names, "solutions (rows, est.)"], rows)

    rows = []
    for label, inst in cases:
        R, C = inst.rows, inst.cols
        base = prepare(inst, "none")
        corners = sorted({int(base.ent_type[e]) for e in np.nonzero(base.allowed[0])[0]})
        for scan, order in (
            ("rows", [r * C + c for r in range(R) for c in range(C)]),
            ("columns", [r * C + c for c in range(C) for r in range(R)]),
        ):
            cells = [label, scan]
            sizes = []
            for t in corners:
                p = prepare(inst, "none")
                p.allowed[0, p.ent_type != t] = 0
                level = probe_order(
                    R,
                    C,
                    np.array(order, np.int64),
                    p.allowed,
                    p.ent_col,
                    p.ent_type,
                    p.avail,
                    args.probes,
                    args.seed,
                )
                sizes.append(level.sum())
            cells += [" / ".join(f"{x:.2g}" for x in sizes), f"{max(sizes) / min(sizes):.1f}"]
            rows.append(cells)
    table(
        "Corner pinned top-left (plain exact tree), each corner tile type in turn",
        ["puzzle", "scan", "tree per pinned corner", "largest / smallest"],
        rows,
    )

    rows = []
    for label, inst in cases:
        p = prepare(inst, "any")
        cells = [label]
        for check in range(len(CHECKS)):
            level = probe_rows(
                inst.rows, inst.cols, check, p.allowed, p.ent_col, p.ent_type, p.avail, args.probes, args.seed
            )
            C = inst.cols
            per_row = " / ".join(f"{level[r * C + 1 : (r + 1) * C + 1].sum():.1g}" for r in range(inst.rows))
            cells.append(f"{level.sum():.2g} ({per_row})")
        rows.append(cells)
    table("Checks on the row scan: whole tree (nodes per row)", ["puzzle", *CHECKS], rows)
    for label, inst in cases[:1]:  # the whole tree: the smallest puzzle only
        p = prepare(inst, "any")
        if len(p.types) <= 64 and p.K <= 64:
            bits = np.array([1 << t for t in range(len(p.types))], dtype=np.uint64)
            nodes, ends, repeats = row_end_repeats(
                inst.rows, inst.cols, p.allowed, p.ent_col, p.ent_type, p.avail.copy(), bits
            )
            table(
                f"Row ends repeating an earlier state (tiles used, bottom colours): {label}, whole plain tree "
                f"({nodes:,} nodes)",
                ["after row", "row ends", "repeats", "share"],
                [
                    [str(r), f"{ends[r]:,}", f"{repeats[r]:,}", f"{repeats[r] / max(ends[r], 1):.1%}"]
                    for r in range(inst.rows - 1)
                ],
            )
    lines.append(f"Load at the end: {load()}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.")
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/, for scriptkit
    from scriptkit import run_script

    sys.exit(run_script(main))
