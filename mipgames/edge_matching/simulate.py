"""The exact verifier: true rotations, frame and hints as hard rules.

Pure functions only; every solver's answer is judged here and nowhere else.
"""

from __future__ import annotations

from typing import Any, Sequence

from mipgames.core.problem import Verdict
from mipgames.edge_matching.instance import Instance, boundary_sides, turned

MODES = ("optimize", "decision")


def mode_of(params: dict[str, Any] | None) -> str:
    return (params or {}).get("mode", "optimize")


def shown(inst: Instance, placement: Sequence[Sequence[int]]) -> list[tuple[int, int, int, int]]:
    """Colours each cell shows, row-major."""
    return [turned(inst.tiles[t], a) for t, a in placement]


def mismatched_edges(inst: Instance, placement: Sequence[Sequence[int]]) -> list[tuple[int, int, str]]:
    """Inner edges whose two sides differ: (r, c, 'right'|'bottom') of the upper/left cell."""
    cols = shown(inst, placement)
    R, C = inst.rows, inst.cols
    bad = []
    for r in range(R):
        for c in range(C):
            me = cols[r * C + c]
            if c + 1 < C and me[1] != cols[r * C + c + 1][3]:
                bad.append((r, c, "right"))
            if r + 1 < R and me[2] != cols[(r + 1) * C + c][0]:
                bad.append((r, c, "bottom"))
    return bad


def rule_violation(inst: Instance, placement: Any) -> str:
    """Empty when the placement obeys every hard rule (shape, permutation, hints, frame); else why not."""
    n = inst.cells
    try:
        cells = [(int(t), int(a)) for t, a in placement]
    except (TypeError, ValueError):
        return "a placement is a list of [tile, turns] per cell"
    if len(cells) != n:
        return f"placement has {len(cells)} cells, the board has {n}"
    for i, (t, a) in enumerate(cells):
        if not 0 <= t < n:
            return f"cell {divmod(i, inst.cols)} holds tile {t}, tiles are 0..{n - 1}"
        if not 0 <= a <= 3:
            return f"cell {divmod(i, inst.cols)} has turns {a}, must be 0..3"
    seen: dict[int, int] = {}
    for i, (t, _) in enumerate(cells):
        if t in seen:
            return f"tile {t} is used twice (cells {divmod(seen[t], inst.cols)} and {divmod(i, inst.cols)})"
        seen[t] = i
    for h in inst.hints:
        if cells[h.row * inst.cols + h.col] != (h.tile, h.turns):
            return f"hint broken: cell ({h.row}, {h.col}) must hold tile {h.tile} turned {h.turns}"
    if inst.frame:
        for i, (t, a) in enumerate(cells):
            r, c = divmod(i, inst.cols)
            for side, (col, out) in enumerate(zip(turned(inst.tiles[t], a), boundary_sides(inst, r, c))):
                name = ("top", "right", "bottom", "left")[side]
                if out and col != 0:
                    return f"frame broken: cell ({r}, {c}) shows colour {col} on its outer {name} side, must be 0"
                if not out and col == 0:
                    return f"frame broken: cell ({r}, {c}) shows grey (0) on its inner {name} side"
    return ""


def evaluate(inst: Instance, params: dict[str, Any], placement: Any) -> Verdict:
    """Objective: mismatched inner edges (min).  Decision mode makes any mismatch illegal."""
    why = rule_violation(inst, placement)
    if why:
        return Verdict(False, None, why)
    cells = [(int(t), int(a)) for t, a in placement]
    bad = mismatched_edges(inst, cells)
    measured = {
        "mismatched": len(bad),
        "matched": inst.inner_edges - len(bad),
        "inner_edges": inst.inner_edges,
        "mismatched_edges": [list(e) for e in bad],
    }
    if mode_of(params) == "decision" and bad:
        r, c, side = bad[0]
        return Verdict(False, None, f"decision mode: {len(bad)} mismatched edges, e.g. the {side} side of ({r}, {c})", measured)
    return Verdict(True, float(len(bad)), "", measured)


def colour_count_bound(inst: Instance) -> int:
    """Lower bound on mismatches from colour parity: a colour seen an odd number of times on inner
    sides leaves one side unmatched.  Exact counts need the frame (which sides are inner is known
    then); without a frame the boundary may hide any side, so the bound is 0."""
    if not inst.frame:
        return 0
    counts: dict[int, int] = {}
    for t in inst.tiles:
        for col in t:
            if col:
                counts[col] = counts.get(col, 0) + 1
    odd = sum(v % 2 for v in counts.values())
    return (odd + 1) // 2
