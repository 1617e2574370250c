"""PNG of a SameGame board, a strip of boards (one per move) or an animated GIF of a game."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PIL import ImageColor

from mipgames.core.figures import pyplot, save_figure
from mipgames.core.files import staged_output
from mipgames.samegame.instance import EMPTY, Board
from mipgames.samegame.simulate import SCORE_RULES, Move, apply_move, group_at

# Ten well-separated colours first (the standard set uses 5), then more for up to 36.
PALETTE = (
    "#e6194b",
    "#3cb44b",
    "#4363d8",
    "#ffe119",
    "#f58231",
    "#911eb4",
    "#42d4f4",
    "#f032e6",
    "#bfef45",
    "#469990",
    "#9a6324",
    "#800000",
    "#aaffc3",
    "#808000",
    "#000075",
    "#a9a9a9",
    "#fabed4",
    "#ffd8b1",
    "#fffac8",
    "#dcbeff",
    "#7f7f7f",
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#bcbd22",
    "#17becf",
    "#393b79",
    "#637939",
    "#8c6d31",
    "#843c39",
    "#7b4173",
    "#3182bd",
)
BACKGROUND = "#f4f4f4"


def _frames(
    board: Board, moves: Sequence[Move], labels: Sequence[Move] | None = None
) -> list[tuple[Board, frozenset[Move], str]]:
    """(board, group about to be clicked, caption) before each move, then the final board; captions name the
    clicks as ``labels`` (the user's coordinates) when given."""
    frames = []
    current = board
    total = 0
    for i, move in enumerate(moves, 1):
        group = group_at(current, *move)
        after, removed = apply_move(current, move)
        x, y = labels[i - 1] if labels is not None else move
        frames.append((current, group, f"move {i}: ({x},{y}) removes {removed}"))
        total += SCORE_RULES["standard"].move_score(removed)
        current = after
    frames.append((current, frozenset(), f"end: {current.tiles()} left, moves score {total}"))
    return frames


CELL_PIXELS = 10
"""Pixels a cell in the drawn board image (the outer one the gap between cells)."""
MAX_PANELS = 60
"""A strip draws at most this many boards: longer games show evenly spaced moves and the end (a 64x64 board's
552 moves as 552 panels took minutes and an image of 120,000 pixels in height)."""
MAX_GIF_FRAMES = 400
GIF_SIDE = 768
"""A GIF frame's longer side in pixels at most (cells of 2-24 pixels)."""


TABLE = [ImageColor.getrgb(c) for c in (*PALETTE, BACKGROUND, "#000000")]
"""Every colour drawn, by index: the tile colours, then the background (gaps, empty cells), then black."""
GAP, BLACK = len(PALETTE), len(PALETTE) + 1


def _indices(board: Board, cell: int) -> Any:
    """The board as an image of colour indices (``TABLE``), row 0 at the bottom, ``cell`` pixels a cell with a
    one-pixel gap around it."""
    import numpy as np

    grid = np.array(
        [[board.at(x, y) for x in range(board.cols)] for y in reversed(range(board.rows))], dtype=np.int64
    ).reshape(board.rows, board.cols)
    grid[grid == EMPTY] = GAP
    image = np.repeat(np.repeat(grid.astype(np.uint8), cell, axis=0), cell, axis=1)
    gap = np.zeros(cell, dtype=bool)
    gap[[0, -1]] = True
    image[np.tile(gap, board.rows), :] = GAP
    image[:, np.tile(gap, board.cols)] = GAP
    return image


def _pixels(board: Board, cell: int = CELL_PIXELS) -> Any:
    """The board as an RGB image (``_indices`` in colour)."""
    import numpy as np

    return np.array(TABLE, dtype=np.uint8)[_indices(board, cell)]


def _draw(ax: Any, board: Board, highlight: frozenset[Move] = frozenset(), title: str | None = None) -> None:
    from matplotlib.collections import LineCollection, PatchCollection
    from matplotlib.patches import Rectangle

    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_facecolor(BACKGROUND)
    if board.rows and board.cols:
        ax.imshow(_pixels(board), extent=(0, board.cols, 0, board.rows), interpolation="nearest")
    ax.set_xlim(0, max(board.cols, 1))
    ax.set_ylim(0, max(board.rows, 1))
    ax.set_aspect("equal")
    if highlight:
        boxes = [Rectangle((x + 0.05, y + 0.05), 0.9, 0.9) for x, y in highlight]
        ax.add_collection(PatchCollection(boxes, facecolor="none", edgecolor="black", linewidth=2.0))
        strokes = [((x + 0.25, y + 0.25), (x + 0.75, y + 0.75)) for x, y in highlight]
        ax.add_collection(LineCollection(strokes, colors="black", linewidths=1.5))
    if title:
        ax.set_title(title, fontsize=8)


def _sample(frames: list[Any], most: int) -> list[Any]:
    """At most ``most`` frames: the first, evenly spaced ones, and the last (the end of the game) always."""
    if len(frames) <= most:
        return frames
    step = (len(frames) - 1) / (most - 1)
    return [frames[round(i * step)] for i in range(most - 1)] + [frames[-1]]


def render_board(board: Board, path: str | Path, title: str | None = None) -> None:
    plt = pyplot()

    fig, ax = plt.subplots(figsize=(max(2.0, board.cols * 0.35), max(2.0, board.rows * 0.35)))
    _draw(ax, board, title=title)
    save_figure(fig, path, dpi=100, bbox_inches="tight")


def render_game(
    board: Board,
    moves: Sequence[Move],
    path: str | Path,
    gif: bool = False,
    per_row: int = 6,
    labels: Sequence[Move] | None = None,
) -> None:
    """One frame per move (the clicked group outlined) and the final board; a grid PNG or an animated GIF.

    ``moves`` are bottom-origin; ``labels`` the same clicks as the captions should name them."""
    every = _frames(board, moves, labels)
    if gif:
        _render_gif(_sample(every, MAX_GIF_FRAMES), path)
        return
    plt = pyplot()

    frames = _sample(every, MAX_PANELS)
    ncols = min(per_row, len(frames))
    nrows = -(-len(frames) // ncols)
    size = min(0.22, 4.0 / max(board.rows, board.cols, 1))  # inches a cell: a panel at most 4 inches wide
    fig, axes = plt.subplots(
        nrows,
        ncols,
        squeeze=False,
        figsize=(ncols * max(1.8, board.cols * size), nrows * max(1.8, board.rows * size + 0.3)),
    )
    for ax in axes.flat:
        ax.axis("off")
    for ax, (frame, group, caption) in zip(axes.flat, frames):
        ax.axis("on")
        _draw(ax, frame, group, caption)
    if len(frames) < len(every):
        height = fig.get_figheight()  # the title in the top 0.4 inch, whatever the strip's height (at 0.98 of a
        # 43-inch strip it sat on the first row's captions)
        fig.suptitle(
            f"{len(frames) - 1} of the {len(moves)} moves shown (evenly spaced), then the end",
            fontsize=10,
            y=1 - 0.1 / height,
            va="top",
        )
        fig.tight_layout(rect=(0, 0, 1, 1 - 0.45 / height))
    else:
        fig.tight_layout()
    save_figure(fig, path, dpi=90)


def _render_gif(frames: list[tuple[Board, frozenset[Move], str]], path: str | Path) -> None:
    from PIL import Image, ImageDraw

    board = frames[0][0]
    cell = max(2, min(24, GIF_SIDE // max(board.rows, board.cols, 1)))
    width, height = board.cols * cell, board.rows * cell + 16
    palette = [channel for colour in TABLE for channel in colour]
    images = []
    for frame, group, caption in frames:
        image = Image.new("P", (max(width, 1), max(height, 1)), GAP)
        image.putpalette(palette)
        if frame.rows and frame.cols:
            image.paste(Image.fromarray(_indices(frame, cell), mode="P"), (0, 16))
        draw = ImageDraw.Draw(image)
        for x, y in group:
            top = 16 + (frame.rows - 1 - y) * cell
            draw.rectangle((x * cell, top, (x + 1) * cell - 1, top + cell - 1), outline=BLACK, width=max(1, cell // 8))
        draw.text((2, 2), caption, fill=BLACK)
        images.append(image)
    with staged_output(path) as tmp:
        images[0].save(tmp, format="GIF", save_all=True, append_images=images[1:], duration=700, loop=0)


def render(instance: Board, params: dict[str, Any], solution: Sequence[Move] | None, path: str | Path) -> None:
    """The protocol's render: the board alone, or the game as a strip (a ``.gif`` path makes an animation).

    The solution's clicks are in the coordinates the ``origin`` param names, as the simulator reads them."""
    from mipgames.samegame.simulate import to_bottom

    gif = str(path).lower().endswith(".gif")
    if solution is None and gif:
        render_game(instance, [], path, gif=True)  # one frame: the board
    elif solution is None:
        render_board(instance, path)
    else:
        moves = to_bottom(instance, solution, params.get("origin", "bottom"))
        render_game(instance, moves, path, gif=gif, labels=list(solution))
