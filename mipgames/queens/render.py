"""PNG of a queens board: powers on their squares, and the captures as numbered arrows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mipgames.core.figures import pyplot, save_figure
from mipgames.queens.instance import Move, Queens


def render(instance: Queens, params: dict[str, Any], moves: list[Move] | None, path: str | Path) -> None:
    """Left panel: the start with captures as arrows (1 = first); right panel: the final board."""
    import numpy as np
    from matplotlib.colors import ListedColormap

    from mipgames.queens.simulate import board_of, replay

    plt = pyplot()

    panels = [("start", board_of(instance))]
    if moves is not None:
        final, bad, error = replay(instance, moves)
        title = f"after {len(moves)} moves: {len(final)} left" if bad is None else f"move {bad + 1} illegal: {error}"
        panels.append((title, final))
    n = instance.n
    size = max(4.0, min(12.0, 0.35 * n))
    fig, axes = plt.subplots(1, len(panels), figsize=(size * len(panels), size), squeeze=False)
    top = max((p for row in instance.board for p in row), default=1)
    font = max(4.0, min(11.0, 160.0 / n))
    for ax, (title, board) in zip(axes[0], panels):
        ax.set_xticks(range(n))
        ax.set_yticks(range(n))
        ax.tick_params(labelsize=max(4, font - 2))
        squares = ListedColormap(["white", "#eeeeee"])  # one image, not a patch a square (16,384 at N = 128)
        ax.imshow(np.indices((n, n)).sum(axis=0) % 2, cmap=squares, extent=(-0.5, n - 0.5, n - 0.5, -0.5), zorder=0)
        ax.set_xlim(-0.5, n - 0.5)
        ax.set_ylim(n - 0.5, -0.5)
        ax.set_aspect("equal")
        for (r, c), p in board.items():
            shade = plt.cm.viridis(0.15 + 0.8 * p.bit_length() / max(1, top.bit_length() + len(board)))
            ax.add_patch(plt.Circle((c, r), 0.36, color=shade, zorder=6))  # queens above arrows and labels
            ax.text(c, r, str(p), ha="center", va="center", color="white", fontsize=font, zorder=7)
        ax.set_title(f"{title} (K = {instance.k})")
    if moves:
        ax = axes[0][0]
        gap = 0.38 * size * 72 * 0.8 / n  # a queen's radius in points: arrows end at the circle, heads visible
        for step, (r1, c1, r2, c2) in enumerate(moves, start=1):
            ax.annotate(
                "",
                xy=(c2, r2),
                xytext=(c1, r1),
                zorder=4,
                arrowprops={"arrowstyle": "->", "color": "crimson", "lw": 1.2, "shrinkA": gap, "shrinkB": gap},
            )
            # The step number sits beside the arrow's middle, off the line, where no queen's value is.
            length = max(1e-9, ((c2 - c1) ** 2 + (r2 - r1) ** 2) ** 0.5)
            side_c, side_r = -(r2 - r1) / length * 0.3, (c2 - c1) / length * 0.3
            ax.text(
                (c1 + c2) / 2 + side_c,
                (r1 + r2) / 2 + side_r,
                str(step),
                color="crimson",
                fontsize=max(4, font - 3),
                zorder=5,
                ha="center",
                va="center",
                bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.8},
            )
    fig.tight_layout()
    save_figure(fig, path, dpi=100)
