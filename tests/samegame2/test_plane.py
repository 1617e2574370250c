"""Plane internals: the incremental block count against a full recount, both ways of loading a
table, and the column index staying in step with the balls."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from mipgames.samegame2.plane import Plane, count_blocks


def check_index(plane: Plane) -> None:
    by_column: dict[int, list[int]] = {}
    for x, y in sorted(plane.balls):
        by_column.setdefault(x, []).append(y)
    assert {x: plane.column(x) for x in plane.columns()} == by_column


@settings(max_examples=120, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**9), steps=st.integers(1, 40), colours=st.integers(1, 3))
def test_incremental_count_matches_recount(seed: int, steps: int, colours: int) -> None:
    rng = random.Random(seed)
    plane = Plane()
    palette = "abc"[:colours]
    for _ in range(steps):
        kind = rng.random()
        if kind < 0.3:
            rows, cols = rng.randint(1, 4), rng.randint(1, 4)
            x, y = rng.randint(-6, 6), rng.randint(-6, 6)
            words = [rng.choice(palette + "0") for _ in range(rows * cols)]
            plane.put_table(x, y, rows, cols, [None if w == "0" else w for w in words])
        elif kind < 0.6:
            plane.put(rng.randint(-6, 6), rng.randint(-6, 6), rng.choice(palette))
        else:
            x0, y0 = rng.randint(-7, 5), rng.randint(-7, 5)
            plane.move(rng.randint(-7, 7), rng.randint(-7, 7), x0, x0 + rng.randint(0, 6), y0, y0 + rng.randint(0, 6))
        if rng.random() < 0.5:
            assert plane.block_count() == count_blocks(plane.balls)
    assert plane.block_count() == count_blocks(plane.balls)
    check_index(plane)


def test_isolated_table_is_labelled_at_once() -> None:
    plane = Plane()
    plane.put(0, 100, "a")
    assert plane.block_count() == 1
    plane.put_table(0, 0, 2, 3, ["a", "a", "b", None, "b", "b"])
    assert not plane._seeds  # labelled by the array flood, nothing left for block_count
    assert plane.block_count() == 3 == count_blocks(plane.balls)
    plane.put_table(3, 0, 1, 1, ["b"])  # touches the first table: the lazy path
    assert plane._seeds and plane.block_count() == 3
    check_index(plane)


def test_move_leaves_other_columns_alone() -> None:
    plane = Plane()
    for y in range(50):
        plane.put(0, y, "a")
        plane.put(5, y, "b")
    plane.put(2, 7, "a")
    removed = plane.move(2, 7, 1, 3, 0, 10)
    assert removed == 1 and plane.column(0) == list(range(50)) and plane.column(5) == list(range(50))
    plane.put(3, 9, "c")
    plane.move(0, 60, 1, 4, 5, 20)  # empty cell: only the base's balls restack, to (1, 5)
    assert plane.balls[(1, 5)] == "c" and len(plane.balls) == 101
    check_index(plane)
