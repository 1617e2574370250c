"""PNG of a map: heroes coloured by type with their final level, stones with hp, merges as arrows."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from mipgames.core.figures import check_drawable, pyplot, save_figure
from mipgames.merge_game.instance import Instance, rules
from mipgames.merge_game.simulate import IllegalMerge, replay

MAX_GRID = 200
"""Cells a side beyond which the drawing shows the part of the map that holds heroes and stones, without a grid
(a 100,000 x 100,000 map drew a figure of 18,000 inches and never finished)."""


def _window(instance: Instance) -> tuple[tuple[int, int], tuple[int, int]]:
    """The columns and rows drawn: the whole map when it is small, else the box around every hero and stone."""
    if max(instance.width, instance.height) <= MAX_GRID:
        return (1, instance.width), (1, instance.height)
    xs = [h.x for h in instance.heroes] + [s.x for s in instance.stones] or [1]
    ys = [h.y for h in instance.heroes] + [s.y for s in instance.stones] or [1]
    return (max(1, min(xs) - 1), min(instance.width, max(xs) + 1)), (
        max(1, min(ys) - 1),
        min(instance.height, max(ys) + 1),
    )


MAX_DRAWN_PIECES = 100_000
"""Heroes and stones (a mark each): a 300 x 300 map (36,000) draws in about 15 s; a 2,000 x 2,000 one (1.6
million, what `generate` makes) took minutes and 3 GB.  Empty map is free: only the corner holding pieces is drawn."""


def drawable(instance: Instance) -> None:
    """Refuse a map with more pieces than a drawing takes (``MAX_DRAWN_PIECES``)."""
    pieces = len(instance.heroes) + len(instance.stones)
    check_drawable(pieces, MAX_DRAWN_PIECES, f"a map of {pieces:,} heroes and stones", "pieces")


def render(instance: Instance, params: dict[str, Any], solution: Any | None, path: str | Path) -> None:
    from matplotlib.collections import LineCollection, PatchCollection
    from matplotlib.patches import Circle, Rectangle

    drawable(instance)
    plt = pyplot()

    rule = rules(instance, params)
    levels = [1] * len(instance.heroes)
    destroyed: set[int] = set()
    merges = list(solution or ())
    note = ""
    if merges:
        try:
            result = replay(instance, rule, merges)
            levels, destroyed = list(result.levels), set(result.destroyed)
        except IllegalMerge as exc:
            note, merges = f"illegal: {exc}", merges[: exc.number - 1]
    (x0, x1), (y0, y1) = _window(instance)
    width, height = x1 - x0 + 1, y1 - y0 + 1
    side = max(width, height)
    cell = max(0.18, min(0.6, 9.0 / side)) if side <= MAX_GRID else 36.0 / side  # at most 37 inches a side
    fig, ax = plt.subplots(figsize=(max(3.0, width * cell + 1), max(3.0, height * cell + 1)))
    ax.set_xlim(x0 - 0.5, x1 + 0.5)
    ax.set_ylim(y0 - 0.5, y1 + 0.5)
    ax.set_aspect("equal")
    if side <= MAX_GRID:
        ax.set_xticks(range(x0, x1 + 1))
        ax.set_yticks(range(y0, y1 + 1))
        ax.set_xticks([x - 0.5 for x in range(x0, x1 + 2)], minor=True)
        ax.set_yticks([y - 0.5 for y in range(y0, y1 + 2)], minor=True)
        ax.grid(which="minor", color="#dddddd", linewidth=0.5)
    ax.tick_params(labelsize=6)
    if (width, height) != (instance.width, instance.height):
        note = (note + "; " if note else "") + f"x {x0}-{x1}, y {y0}-{y1} of the {instance.width}x{instance.height} map"
    small = width * height <= 900
    colours = plt.get_cmap("tab10")
    # One collection a kind of mark, not a patch or an arrow each: a 2,000-hero map took 15 s as patches.
    ax.add_collection(
        PatchCollection(
            [Rectangle((s.x - 0.4, s.y - 0.4), 0.8, 0.8) for s in instance.stones],
            facecolor="#8c8c8c",
            edgecolor="none",
        )
    )
    crosses = []
    for k, s in enumerate(instance.stones):
        if small:
            ax.text(s.x, s.y, str(s.hp), ha="center", va="center", fontsize=7, color="white")
        if k in destroyed:
            crosses += [
                ((s.x - 0.45, s.y - 0.45), (s.x + 0.45, s.y + 0.45)),
                ((s.x - 0.45, s.y + 0.45), (s.x + 0.45, s.y - 0.45)),
            ]
    ax.add_collection(LineCollection(crosses, colors="red", linewidths=1.2))
    gone = {a for a, _ in merges}
    faces = [(*colours((h.type - 1) % 10)[:3], 0.35 if i in gone else 1.0) for i, h in enumerate(instance.heroes)]
    ax.add_collection(
        PatchCollection(
            [Circle((h.x, h.y), 0.38) for h in instance.heroes], facecolors=faces, edgecolors="black", linewidths=0.4
        )
    )
    if small:
        for i, h in enumerate(instance.heroes):
            if levels[i] > 1 and i not in gone:
                ax.text(h.x, h.y, str(levels[i]), ha="center", va="center", fontsize=7, color="white", weight="bold")
    if merges:  # from the merging hero's centre to the edge of the other's circle, above the circles
        xs, ys, dxs, dys = [], [], [], []
        for a, b in merges:
            ha, hb = instance.heroes[a], instance.heroes[b]
            length = max(1e-9, math.hypot(hb.x - ha.x, hb.y - ha.y))
            xs.append(ha.x)
            ys.append(ha.y)
            dxs.append((hb.x - ha.x) * (1 - 0.38 / length))
            dys.append((hb.y - ha.y) * (1 - 0.38 / length))
        ax.quiver(
            xs,
            ys,
            dxs,
            dys,
            angles="xy",
            scale_units="xy",
            scale=1,
            width=0.003,
            headwidth=4,
            headlength=5,
            color="black",
            zorder=3,
        )
    title = instance.name or "merge game"
    if solution is not None:
        title += f": {len(destroyed)}/{len(instance.stones)} stones destroyed, {len(merges)} merges"
    ax.set_title(title + (f"\n{note}" if note else ""), fontsize=8)
    fig.tight_layout()
    save_figure(fig, path, dpi=120)


def attack_figure(path: str | Path) -> None:
    """The attack-vector presets side by side: a hero (circle) and the cells its merges hit (shaded)."""
    plt = pyplot()

    from mipgames.merge_game.instance import PRESETS

    fig, axes = plt.subplots(1, len(PRESETS), figsize=(2.2 * len(PRESETS), 2.5))
    for ax, (name, offsets) in zip(axes, PRESETS.items()):
        ax.set_xlim(-2.5, 2.5)
        ax.set_ylim(-2.5, 2.5)
        ax.set_aspect("equal")
        ax.set_xticks([])
        ax.set_yticks([])
        for v in range(-2, 3):
            ax.axhline(v + 0.5, color="#dddddd", linewidth=0.6)
            ax.axvline(v + 0.5, color="#dddddd", linewidth=0.6)
        for dx, dy in ((0, 0),) + tuple(offsets):
            ax.add_patch(plt.Rectangle((dx - 0.45, dy - 0.45), 0.9, 0.9, color="#f4a582"))
        ax.add_patch(plt.Circle((0, 0), 0.33, facecolor="#4393c3", edgecolor="black", linewidth=0.5))
        ax.set_title(f"{name}\n{' '.join(f'({dx},{dy})' for dx, dy in offsets)}", fontsize=7)
    fig.suptitle("attack cells of a hero at (0, 0) after a merge (y grows upwards)", fontsize=8)
    fig.tight_layout()
    save_figure(fig, path, dpi=110)
