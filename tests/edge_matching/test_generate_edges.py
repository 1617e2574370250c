"""What the planted generator promises beyond a file its reader reads back: the placement it returns is
perfect, and the colours are the ones asked for, the rim colours only between two rim tiles."""

from __future__ import annotations

import pytest

from mipgames.edge_matching.generate import planted
from mipgames.edge_matching.simulate import evaluate

from .helpers import frame_ok, rot, score


@pytest.mark.parametrize(
    "rows, cols, frame, rim, inner, seed",
    [(5, 6, True, 2, 3, 1), (3, 7, True, 1, 2, 3), (4, 4, False, 0, 3, 2), (6, 5, False, 0, 5, 4)],
)
def test_the_planted_placement_is_perfect(rows, cols, frame, rim, inner, seed):
    """Replayed in the simulator as a decision (any mismatch illegal) and scored from scratch: the placement that
    comes with a planted puzzle is the perfect one, turns included."""
    inst, placement = planted(rows, cols, frame, rim, inner, seed)
    verdict = evaluate(inst, {"mode": "decision"}, placement)
    assert verdict.legal and verdict.objective == 0, verdict.reason
    assert score(inst, placement) == 0 and frame_ok(inst, placement) == frame


def test_colours_are_the_ones_asked_for_and_rim_colours_lie_between_rim_tiles():
    """A 6x7 frame puzzle with 2 rim and 4 inner colours: the edges between two tiles of the frame's sides take
    colours 1-2, every other inner edge 3-6, each of them used; the frame itself is 0."""
    rows, cols, rim, inner = 6, 7, 2, 4
    inst, placement = planted(rows, cols, True, rim, inner, seed=5)
    sides = [rot(inst.tiles[t], a) for t, a in placement]
    on_rim, elsewhere, border = set(), set(), set()
    for r in range(rows):
        for c in range(cols):
            top, right, bottom, left = sides[r * cols + c]
            if c + 1 < cols:  # the edge to the right: between two rim tiles along the top or bottom row
                (on_rim if r in (0, rows - 1) else elsewhere).add(right)
            if r + 1 < rows:  # the edge below: between two rim tiles along the left or right column
                (on_rim if c in (0, cols - 1) else elsewhere).add(bottom)
            border |= {top} if r == 0 else set()
            border |= {left} if c == 0 else set()
    assert on_rim == set(range(1, rim + 1))
    assert elsewhere == set(range(rim + 1, rim + inner + 1))
    assert border == {0}


def test_a_free_puzzle_uses_exactly_its_inner_colours():
    """Without a frame there is no grey and no rim: the colours are 1..inner, each used."""
    inst, _ = planted(5, 5, False, 0, 3, seed=7)
    assert set(inst.colours()) == {1, 2, 3}


def test_rim_colours_without_a_frame_are_refused(capsys):
    """A free puzzle has no rim: --rim-colours was dropped in silence (the file name still said so)."""
    from mipgames.cli import main

    assert main(["generate", "edge-matching", "--rows", "3", "--rim-colours", "2", "--inner-colours", "3"]) == 4
    assert "it needs --frame" in capsys.readouterr().err


def test_a_frame_without_rim_colours_names_the_missing_option(capsys):
    """`--frame --inner-colours 3` was told it needs "at least one inner colour" when --rim-colours was missing."""
    from mipgames.cli import main

    assert main(["generate", "edge-matching", "--rows", "3", "--frame", "--inner-colours", "3"]) == 4
    assert "a frame puzzle needs --rim-colours" in capsys.readouterr().err
