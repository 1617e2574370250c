"""PNG of a SameGame board, a strip of boards (one per move) or an animated GIF of a game."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

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


def _draw(ax: Any, board: Board, highlight: frozenset[Move] = frozenset(), title: str | None = None) -> None:
    from matplotlib.patches import Rectangle

    ax.set_xlim(0, max(board.cols, 1))
    ax.set_ylim(0, max(board.rows, 1))
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_facecolor(BACKGROUND)
    for x in range(board.cols):
        for y in range(board.rows):
            colour = board.at(x, y)
            if colour == EMPTY:
                continue
            marked = (x, y) in highlight
            ax.add_patch(
                Rectangle(
                    (x + 0.05, y + 0.05),
                    0.9,
                    0.9,
                    facecolor=PALETTE[colour],
                    edgecolor="black" if marked else "white",
                    linewidth=2.0 if marked else 0.5,
                )
            )
            if marked:
                ax.plot([x + 0.25, x + 0.75], [y + 0.25, y + 0.75], color="black", linewidth=1.5)
    if title:
        ax.set_title(title, fontsize=8)


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
    frames = _frames(board, moves, labels)
    if gif:
        _render_gif(frames, path)
        return
    plt = pyplot()

    ncols = min(per_row, len(frames))
    nrows = -(-len(frames) // ncols)
    size = 0.22
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
    fig.tight_layout()
    save_figure(fig, path, dpi=90)


def _render_gif(frames: list[tuple[Board, frozenset[Move], str]], path: str | Path, cell: int = 24) -> None:
    from PIL import Image, ImageDraw

    board = frames[0][0]
    width, height = board.cols * cell, board.rows * cell + 16
    images = []
    for frame, group, caption in frames:
        image = Image.new("RGB", (max(width, 1), max(height, 1)), BACKGROUND)
        draw = ImageDraw.Draw(image)
        for x in range(frame.cols):
            for y in range(frame.rows):
                colour = frame.at(x, y)
                if colour == EMPTY:
                    continue
                top = 16 + (frame.rows - 1 - y) * cell
                box = (x * cell + 1, top + 1, (x + 1) * cell - 2, top + cell - 2)
                marked = (x, y) in group
                draw.rectangle(box, fill=PALETTE[colour], outline="black" if marked else None, width=3 if marked else 1)
        draw.text((2, 2), caption, fill="black")
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
