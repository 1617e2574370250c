"""Decoders: solver values -> placement (list of (tile, turns) per cell, row-major)."""

from __future__ import annotations

from typing import Any

from mipgames.core.result import Value
from mipgames.edge_matching.instance import Instance
from mipgames.edge_matching.simulate import hinted_cells, turn_showing, turned


def decode(inst: Instance, params: dict[str, Any], handles: Any, value: Value) -> list[tuple[int, int]]:
    """Works for every model: literal lists per cell ("x", possibly over tile types) or tile/turn integers ("table")."""
    if handles["model"] == "table":
        return [(round(value(t)), round(value(a))) for t, a in zip(handles["tile"], handles["turn"])]
    chosen = [next(((t, a) for t, a, v in row if value(v) > 0.5), (-1, -1)) for row in handles["x"]]
    members = handles.get("members")
    if not members:
        return chosen
    # a type stands for interchangeable copies: hand them out, each turned to show the chosen colours
    left = {rep: list(ts) for rep, ts in members.items()}
    hints = hinted_cells(inst)
    out = []
    for i, (rep, a) in enumerate(chosen):
        if rep not in left or not left[rep]:
            out.append((-1, -1))
            continue
        tile = left[rep].pop(0)
        out.append((tile, turn_showing(inst.tiles[tile], turned(inst.tiles[rep], a), hints.get(i))))
    return out
