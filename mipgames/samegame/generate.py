"""Seeded random SameGame boards: every cell a uniform colour from 0..k-1."""

from __future__ import annotations

import argparse
import random

from mipgames.core.errors import UsageError
from mipgames.core.problem import Generator
from mipgames.samegame.instance import MAX_COLOURS, Board


def random_board(rows: int, cols: int, colours: int, seed: int = 0) -> Board:
    """A full rows x cols board; the same seed always gives the same board."""
    if rows < 1 or cols < 1:
        raise UsageError(f"the board must be at least 1x1, got {rows}x{cols}")
    if not 1 <= colours <= MAX_COLOURS:
        raise UsageError(f"colours must be 1..{MAX_COLOURS}, got {colours}")
    rng = random.Random(seed)
    return Board(tuple(tuple(rng.randrange(colours) for _ in range(cols)) for _ in range(rows)))


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rows", type=int, default=5, help="rows (default 5)")
    parser.add_argument("--cols", type=int, default=5, help="columns (default 5)")
    parser.add_argument("--colours", "--colors", type=int, default=3, help="number of colours (default 3)")
    try:
        parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    except argparse.ArgumentError:
        pass  # the shared CLI already offers --seed


def _generate(args: argparse.Namespace) -> Board:
    return random_board(args.rows, args.cols, args.colours, args.seed)


GENERATOR = Generator(_add_arguments, _generate)
