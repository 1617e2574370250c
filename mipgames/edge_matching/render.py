"""PNG of a placement: each tile as four coloured triangles, mismatched edges in red, score in the title."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mipgames.core.figures import check_drawable, pyplot, save_figure
from mipgames.edge_matching.instance import Instance
from mipgames.edge_matching.simulate import evaluate, mode_of, turned

_HUES = list(range(0, 20, 2)) + list(range(1, 20, 2))
"""tab20 holds light/dark pairs: neighbouring colour numbers get different hues first."""


MAX_DRAWN_CELLS = 10_000
"""The largest board drawn (100 x 100): four triangles a tile, and a 1000 x 250 board had not finished in a minute."""


def drawable(inst: Instance) -> None:
    """Refuse a board with more cells than a drawing takes (``MAX_DRAWN_CELLS``)."""
    check_drawable(inst.cells, MAX_DRAWN_CELLS, f"a {inst.rows}x{inst.cols} board", "cells")


def render(inst: Instance, params: dict[str, Any], placement: Any | None, path: str | Path) -> None:
    drawable(inst)
    plt = pyplot()
    from matplotlib.patches import Polygon

    R, C = inst.rows, inst.cols
    cmap = plt.get_cmap("tab20")
    fig, ax = plt.subplots(figsize=(max(3, 0.6 * C + 1), max(3, 0.6 * R + 1.2)))
    if placement is None:
        title = f"{inst.name or 'edge matching'}: {R}x{C}, {len(inst.tiles)} tiles (unsolved)"
        cells = [(t, 0) for t in range(inst.cells)]
        bad: list = []
    else:
        v = evaluate(inst, params, placement)
        cells = list(placement)
        bad = v.measured.get("mismatched_edges", [])
        if v.legal or "mismatched" in v.measured:
            n = v.measured["mismatched"]
            title = f"{inst.name or 'edge matching'}: {inst.inner_edges - n}/{inst.inner_edges} matched, {n} mismatched"
            if mode_of(params) == "decision" and n:
                title += " (not perfect)"
        else:
            title = f"illegal: {v.reason}"
            cells = [(t, a) if 0 <= t < inst.cells and 0 <= a < 4 else (0, 0) for t, a in cells]
    for i, (t, a) in enumerate(cells):
        r, c = divmod(i, C)
        x0, y0 = c, R - 1 - r  # y grows upwards in matplotlib
        mid = (x0 + 0.5, y0 + 0.5)
        corners = [
            (x0, y0 + 1),
            (x0 + 1, y0 + 1),
            (x0 + 1, y0),
            (x0, y0),
        ]  # tl, tr, br, bl
        for s, col in enumerate(turned(inst.tiles[t], a)):
            tri = [corners[s], corners[(s + 1) % 4], mid]
            face = (0.55, 0.55, 0.55) if col == 0 and inst.frame else cmap(_HUES[col % 20])
            ax.add_patch(Polygon(tri, closed=True, facecolor=face, edgecolor="white", linewidth=0.6))
        if C <= 12:
            ax.text(
                mid[0],
                mid[1],
                str(t),
                ha="center",
                va="center",
                fontsize=7,
                color="black",
            )
    for r, c, side in bad:
        x0, y0 = c, R - 1 - r
        if side == "right":
            ax.plot([x0 + 1, x0 + 1], [y0, y0 + 1], color="red", linewidth=3)
        else:
            ax.plot([x0, x0 + 1], [y0, y0], color="red", linewidth=3)
    ax.set_xlim(-0.05, C + 0.05)
    ax.set_ylim(-0.05, R + 0.05)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    save_figure(fig, path, dpi=110)
