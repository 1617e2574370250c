"""Seeded random SameGame boards: every cell a uniform colour from 0..k-1."""

from __future__ import annotations

import argparse
import random

from mipgames.core.arguments import int_in
from mipgames.core.errors import UsageError
from mipgames.core.problem import MAX_SEED, Generator
from mipgames.samegame.instance import MAX_COLOURS, MAX_SIDE, Board


def random_board(rows: int, cols: int, colours: int, seed: int = 0) -> Board:
    """A full rows x cols board (at most what the reader takes, MAX_SIDE a side); the same seed, the same board."""
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise UsageError(f"the board must be from 1x1 to {MAX_SIDE}x{MAX_SIDE}, got {rows}x{cols}")
    if not 1 <= colours <= MAX_COLOURS:
        raise UsageError(f"colours must be 1..{MAX_COLOURS}, got {colours}")
    rng = random.Random(seed)
    return Board(tuple(tuple(rng.randrange(colours) for _ in range(cols)) for _ in range(rows)))


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    """Sizes bounded by what the reader takes (MAX_SIDE rows and columns, MAX_COLOURS colours): exit 4 at parsing."""
    side = int_in(1, MAX_SIDE)
    parser.add_argument("--rows", type=side, default=5, help=f"rows, 1 to {MAX_SIDE} (default 5)")
    parser.add_argument("--cols", type=side, default=5, help=f"columns, 1 to {MAX_SIDE} (default 5)")
    parser.add_argument(
        "--colours",
        "--colors",
        type=int_in(1, MAX_COLOURS),
        default=3,
        help=f"number of colours, 1 to {MAX_COLOURS} (default 3)",
    )
    try:
        parser.add_argument("--seed", type=int_in(0, MAX_SEED), default=0, help="random seed (default 0)")
    except argparse.ArgumentError:
        pass  # the shared CLI already offers --seed


def _generate(args: argparse.Namespace) -> Board:
    return random_board(args.rows, args.cols, args.colours, args.seed)


GENERATOR = Generator(_add_arguments, _generate)
