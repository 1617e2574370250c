from mipgames.edge_matching.generate import planted
from mipgames.edge_matching.instance import Hint, Instance
from mipgames.edge_matching.simulate import colour_count_bound, evaluate, turned

from .helpers import coursework, rot, score

IDENTITY = [(t, 0) for t in range(16)]  # the coursework tiles are listed in solved order

# A placement that is perfect only if tiles are mirrored (read (T, L, B, R)): found once by search
# on the mirrored tiles; under true rotations it has 16 mismatches.
MIRRORED = [
    (0, 0),
    (1, 3),
    (3, 1),
    (4, 2),
    (9, 3),
    (6, 1),
    (2, 1),
    (11, 0),
    (14, 1),
    (5, 1),
    (12, 0),
    (13, 3),
    (8, 1),
    (15, 3),
    (10, 3),
    (7, 2),
]


def test_turn_semantics_match_spec():
    assert turned((1, 2, 3, 4), 1) == (4, 1, 2, 3)  # (T, R, B, L) -> (L, T, R, B)
    for a in range(4):
        assert turned((1, 2, 3, 4), a) == rot((1, 2, 3, 4), a)


def test_coursework_identity_is_perfect():
    v = evaluate(coursework(), {}, IDENTITY)
    assert v.legal and v.objective == 0 and v.measured["matched"] == 24


def test_mirrored_tile_trap_has_16_mismatches():
    inst = coursework()
    mirrored_tiles = [(t[0], t[3], t[2], t[1]) for t in inst.tiles]
    assert score(inst, MIRRORED, mirrored_tiles) == 0  # what a mirrored-table model would claim
    v = evaluate(inst, {}, MIRRORED)
    assert v.legal and v.objective == 16 == score(inst, MIRRORED)
    assert not evaluate(inst, {"mode": "decision"}, MIRRORED).legal


def test_hand_made_counts():
    inst = coursework()
    swapped = list(IDENTITY)
    swapped[0], swapped[15] = swapped[15], swapped[0]
    assert evaluate(inst, {}, swapped).objective == score(inst, swapped) == 4
    turned_one = list(IDENTITY)
    turned_one[5] = (5, 2)
    v = evaluate(inst, {}, turned_one)
    assert v.objective == score(inst, turned_one) and v.objective > 0
    assert {tuple(e) for e in v.measured["mismatched_edges"]} <= {
        (1, 0, "right"),
        (1, 1, "right"),
        (0, 1, "bottom"),
        (1, 1, "bottom"),
    }


def test_illegal_placements_have_reasons():
    inst = coursework()
    cases = {
        "used twice": [(0, 0)] * 16,
        "cells": IDENTITY[:-1],
        "turns": IDENTITY[:-1] + [(15, 4)],
        "tiles are": IDENTITY[:-1] + [(16, 0)],
        "list of": [1, 2, 3],
    }
    for why, p in cases.items():
        v = evaluate(inst, {}, p)
        assert not v.legal and v.objective is None and why in v.reason, (why, v.reason)


def test_hints_and_frame_are_hard_rules():
    inst, p = planted(3, 3, True, 1, 2, seed=4)
    assert evaluate(inst, {}, p).objective == 0
    t0, a0 = p[0]
    bad_turn = [(t0, (a0 + 1) % 4)] + list(p[1:])
    v = evaluate(inst, {}, bad_turn)
    assert not v.legal and "frame" in v.reason
    swap = list(p)
    swap[0], swap[4] = swap[4], swap[0]
    assert "frame" in evaluate(inst, {}, swap).reason
    hinted = Instance(inst.rows, inst.cols, inst.tiles, (Hint(1, 1, p[4][0], (p[4][1] + 1) % 4),))
    v = evaluate(hinted, {}, p)
    assert not v.legal and "hint" in v.reason


def test_colour_count_bound():
    inst = Instance(1, 2, ((0, 1, 0, 0), (0, 0, 0, 2)))
    assert colour_count_bound(inst) == 1
    assert evaluate(inst, {}, [(0, 0), (1, 0)]).objective == 1
    assert colour_count_bound(coursework()) == 0


def test_each_frame_rule_is_checked_on_its_own():
    """Each rule alone: a tile with no grey showing colour outwards (every inner side fine), and an all-grey
    tile showing grey inwards (every outer side fine).  The turned and swapped tiles above break both rules at
    once, so either check alone passed them."""
    corners = [(0, 1, 2, 0), (0, 0, 3, 1), (2, 4, 0, 0), (3, 0, 0, 4)]  # a perfect 2x2 frame, scan order
    perfect = [(t, 0) for t in range(4)]
    assert evaluate(Instance(2, 2, tuple(corners)), {}, perfect).objective == 0
    outwards = Instance(2, 2, ((5, 1, 2, 5), *corners[1:]))
    v = evaluate(outwards, {}, perfect)
    assert not v.legal and "outer top side, must be 0" in v.reason, v.reason
    inwards = Instance(2, 2, ((0, 0, 0, 0), *corners[1:]))
    v = evaluate(inwards, {}, perfect)
    assert not v.legal and "grey (0) on its inner right side" in v.reason, v.reason


def test_another_frame_colour_swaps_with_zero_so_zero_stays_a_colour():
    """--frame-colour 5 on a puzzle that also uses 0 inside: 5 becomes the frame and 0 an ordinary colour.
    Renaming 5 to 0 without giving 0 a new name merged the two (a mutation that did so passed the suite), so
    the 0-0 join below was called grey on an inner side."""
    inst = Instance(1, 2, ((5, 0, 5, 5), (5, 5, 5, 0)))  # (top, right, bottom, left): 5 all round, 0 inside
    v = evaluate(inst, {"frame_colour": 5}, [(0, 0), (1, 0)])
    assert v.legal and v.objective == 0, v.reason
    greyed = Instance(1, 2, ((5, 5, 5, 5), (5, 5, 5, 0)))
    v = evaluate(greyed, {"frame_colour": 5}, [(0, 0), (1, 0)])
    assert not v.legal and "inner right side" in v.reason, v.reason


def test_a_placement_longer_than_the_board_is_refused():
    """A certificate may list more cells than the board holds; the extra cells are no part of any placement."""
    v = evaluate(coursework(), {}, IDENTITY + [(0, 0)])
    assert not v.legal and "17 cells, the board has 16" in v.reason, v.reason
