"""Seeded generators: planted perfect puzzles, and shuffling of stored (solved) benchmark sets."""

from __future__ import annotations

import random
from typing import Any

from mipgames.core.arguments import int_in
from mipgames.core.problem import MAX_SEED
from mipgames.edge_matching.instance import MAX_CELLS, MAX_COLOUR, MAX_SIDE, Instance
from mipgames.edge_matching.simulate import turned


def planted(
    rows: int, cols: int, frame: bool, rim_colours: int, inner_colours: int, seed: int
) -> tuple[Instance, list[tuple[int, int]]]:
    """A puzzle with a known perfect placement: colour every edge, cut tiles, shuffle and turn them.

    Frame puzzles use colours 1..rim_colours on the edges that run along the rim (between two rim cells on
    the same side of the frame, or a corner and its neighbour) and rim_colours+1..rim_colours+inner_colours
    elsewhere, as Eternity II does: on a board two rows deep the edges across it, though between two rim
    cells, face inwards and take inner colours; without a frame,
    every side, boundary included, takes one of the inner colours.  Sizes and colours are bounded by what the
    reader takes (``instance.MAX_SIDE``, ``MAX_CELLS``, ``MAX_COLOUR``): a ValueError otherwise, before any work.
    """
    if rows < 1 or cols < 1:
        raise ValueError("rows and cols must be at least 1")
    if rows > MAX_SIDE or cols > MAX_SIDE or rows * cols > MAX_CELLS:
        raise ValueError(
            f"a {rows}x{cols} board is larger than the reader takes: at most {MAX_SIDE} rows and columns "
            f"and {MAX_CELLS:,} cells"
        )
    if inner_colours < 1 or (frame and rim_colours < 1):
        raise ValueError("need at least one inner colour (and one rim colour for a frame puzzle)")
    if inner_colours + (rim_colours if frame else 0) > MAX_COLOUR or rim_colours > MAX_COLOUR:
        raise ValueError(f"colours are numbered up to {MAX_COLOUR:,}: rim plus inner colours must not exceed it")
    if frame and (rows < 2 or cols < 2):
        raise ValueError("a frame puzzle needs at least 2 rows and 2 columns")
    rng = random.Random(seed)
    first_inner = rim_colours + 1 if frame else 1
    # ranges, not lists: rng.choice draws the same index from either, and a list of 10^9 colours is gigabytes
    inner = range(first_inner, first_inner + inner_colours)
    rim = range(1, rim_colours + 1)

    def on_rim(r: int, c: int) -> bool:
        return r in (0, rows - 1) or c in (0, cols - 1)

    # h[r][c]: colour between (r, c) and (r, c+1); v[r][c]: between (r, c) and (r+1, c)
    h = [[0] * (cols + 1) for _ in range(rows)]
    v = [[0] * cols for _ in range(rows + 1)]
    for r in range(rows):
        for c in range(cols + 1):
            border = c in (0, cols)
            if frame and border:
                continue
            rimmy = frame and on_rim(r, c - 1) and on_rim(r, c) and r in (0, rows - 1)
            h[r][c] = rng.choice(rim if rimmy else inner)
    for r in range(rows + 1):
        for c in range(cols):
            border = r in (0, rows)
            if frame and border:
                continue
            rimmy = frame and on_rim(r - 1, c) and on_rim(r, c) and c in (0, cols - 1)
            v[r][c] = rng.choice(rim if rimmy else inner)
    solved = [(v[r][c], h[r][c + 1], v[r + 1][c], h[r][c]) for r in range(rows) for c in range(cols)]
    order = list(range(rows * cols))
    rng.shuffle(order)  # order[k] = solved cell whose tile becomes tile k
    spins = [rng.randrange(4) for _ in order]
    tiles = tuple(turned(solved[cell], -spins[k]) for k, cell in enumerate(order))
    placement = [(0, 0)] * (rows * cols)
    for k, cell in enumerate(order):
        placement[cell] = (k, spins[k] % 4)
    name = f"planted_{rows}x{cols}_{'frame' if frame else 'free'}_{rim_colours}_{inner_colours}_s{seed}"
    return Instance(rows, cols, tiles, (), name), placement


def shuffle(inst: Instance, seed: int) -> Instance:
    """Tiles in a seeded random order and turns (stored benchmark sets are listed solved)."""
    if inst.hints:
        raise ValueError("shuffling would move hinted tiles; shuffle puzzles without hints")
    rng = random.Random(seed)
    order = list(range(inst.cells))
    rng.shuffle(order)
    tiles = tuple(turned(inst.tiles[k], rng.randrange(4)) for k in order)
    return Instance(inst.rows, inst.cols, tiles, (), f"{inst.name}_shuffled{seed}")


def add_arguments(parser: Any) -> None:
    """Every size is bounded by what the reader takes (exit 4 at parsing); rows x cols is checked in generate."""
    parser.add_argument("--rows", type=int_in(1, MAX_SIDE), required=True, help=f"1 to {MAX_SIDE}")
    parser.add_argument(
        "--cols",
        type=int_in(1, MAX_SIDE),
        default=None,
        help=f"default: same as --rows; rows x cols at most {MAX_CELLS:,}",
    )
    parser.add_argument("--frame", action="store_true", help="grey (colour 0) frame, Eternity II style")
    parser.add_argument(
        "--rim-colours",
        type=int_in(0, MAX_COLOUR),
        default=0,
        help="colours of the edges along the rim, between rim tiles on one side of the frame (frame puzzles)",
    )
    parser.add_argument(
        "--inner-colours",
        type=int_in(1, MAX_COLOUR),
        required=True,
        help=f"colours of all other inner edges (rim plus inner colours at most {MAX_COLOUR:,})",
    )
    parser.add_argument("--seed", type=int_in(0, MAX_SEED), default=0)


def generate(args: Any) -> Instance:
    from mipgames.core.errors import UsageError

    if args.rim_colours and not args.frame:
        raise UsageError("--rim-colours colours the edges between frame tiles: it needs --frame")
    if args.frame and not args.rim_colours:
        raise UsageError("a frame puzzle needs --rim-colours N (N >= 1: the colours between two frame tiles)")
    try:
        inst, _ = planted(
            args.rows,
            args.cols or args.rows,
            args.frame,
            args.rim_colours,
            args.inner_colours,
            args.seed,
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return inst
