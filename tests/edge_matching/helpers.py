"""Shared test helpers: the coursework instance, an independent scorer and exhaustive optimum."""

from __future__ import annotations

import functools
from pathlib import Path

from mipgames.edge_matching.instance import Instance, read

ROOT = Path(__file__).resolve().parents[2]
INSTANCES = ROOT / "instances" / "edge_matching"
COURSEWORK = INSTANCES / "coursework_4x4.txt"


def coursework() -> Instance:
    return read(COURSEWORK)


def rot(tile, a):
    """Written out independently of the library: a quarter turn clockwise moves left->top, top->right..."""
    t = tuple(tile)
    for _ in range(a):
        t = (t[3], t[0], t[1], t[2])
    return t


def score(inst: Instance, placement, tiles=None) -> int:
    """Mismatched inner edges, computed from scratch (tiles may be swapped for mirrored ones)."""
    tiles = tiles or inst.tiles
    sh = [rot(tiles[t], a) for t, a in placement]
    R, C = inst.rows, inst.cols
    bad = 0
    for r in range(R):
        for c in range(C):
            if c + 1 < C:
                bad += sh[r * C + c][1] != sh[r * C + c + 1][3]
            if r + 1 < R:
                bad += sh[r * C + c][2] != sh[(r + 1) * C + c][0]
    return bad


def hints_kept(inst: Instance, placement) -> bool:
    """Every hinted cell holds its tile turned as the hint says, as the simulator demands (a tile that looks the
    same under some turn, reported with another turn that shows the same colours, had broken its hint)."""
    return all(tuple(placement[h.row * inst.cols + h.col]) == (h.tile, h.turns) for h in inst.hints)


def frame_ok(inst: Instance, placement) -> bool:
    R, C = inst.rows, inst.cols
    for i, (t, a) in enumerate(placement):
        r, c = divmod(i, C)
        out = (r == 0, c == C - 1, r == R - 1, c == 0)
        if any((col == 0) != o for col, o in zip(rot(inst.tiles[t], a), out)):
            return False
    return True


def hint_cells(inst: Instance) -> tuple[dict[int, tuple[int, int]], set[int]]:
    """The hints by cell, as (tile, turns), and the hinted tiles, which no other cell may take."""
    hints = {h.row * inst.cols + h.col: (h.tile, h.turns) for h in inst.hints}
    return hints, {t for t, _ in hints.values()}


def exhaustive_optimum(inst: Instance) -> int | None:
    """Minimum mismatches over every placement obeying the frame rule and the hints (None: no legal
    placement).

    Every tile and turn is tried at every cell in scan order.  The cost of the cells after i depends only
    on which tiles are left and on the colours the filled cells show them (the bottoms of the last row's
    worth of cells, the right side of the last), so the optimum of each such state is kept.  Equal
    unhinted tiles are one kind with a count, so boards of repeated tiles (all 2^9 subsets of nine equal
    tiles are one state each, not 9! orders) stay instant; a plain enumeration ran for hours on them.
    """
    n, C = inst.cells, inst.cols
    frame = any(0 in t for t in inst.tiles)
    hints, hinted = hint_cells(inst)
    kinds = sorted({inst.tiles[t] for t in range(n) if t not in hinted})
    start = tuple(sum(1 for t in range(n) if t not in hinted and inst.tiles[t] == k) for k in kinds)

    @functools.cache
    def go(i, left, bottoms, right):
        """Fewest mismatches of cells i.. given the unhinted tiles left (a count per kind), the bottoms of
        cells i-C..i-1 and the right side of cell i-1; None if they cannot be filled."""
        if i == n:
            return 0
        r, c = divmod(i, C)
        out = (r == 0, c == C - 1, r == inst.rows - 1, c == 0)
        if i in hints:
            t, a = hints[i]
            options = [(None, rot(inst.tiles[t], a))]
        else:
            options = [(k, rot(kind, a)) for k, kind in enumerate(kinds) if left[k] for a in range(4)]
        best = None
        for k, s in dict.fromkeys(options):
            if frame and any((col == 0) != o for col, o in zip(s, out)):
                continue
            rest = left if k is None else left[:k] + (left[k] - 1,) + left[k + 1 :]
            after = go(i + 1, rest, bottoms[1:] + (s[2],), s[1])
            if after is None:
                continue
            cost = after + (r > 0 and bottoms[0] != s[0]) + (c > 0 and right != s[3])
            best = cost if best is None else min(best, cost)
        return best

    return go(0, start, (None,) * C, None)


def perfect_placements(inst: Instance) -> int:
    """Every perfect placement, counted by brute force: (tile id, turn) per cell, turns that show the
    same colours counted once, frame and hints obeyed.  Written without the library's search.

    Cells are filled in row order; the placements of the cells after i depend only on the tiles used and
    on the colours the filled cells show them (the bottoms of the last row's worth of cells, the right
    side of the last), so the count of each such state is kept (instances with 10^5 placements count in
    milliseconds, not one placement at a time)."""
    n, C = inst.cells, inst.cols
    frame = any(0 in t for t in inst.tiles)
    hints, hinted = hint_cells(inst)

    def turns(t):
        seen, out = set(), []
        for a in range(4):
            s = rot(inst.tiles[t], a)
            if s not in seen:
                seen.add(s)
                out.append((a, s))
        return out

    shapes = [turns(t) for t in range(n)]

    @functools.cache
    def go(i, used, bottoms, right):
        """Placements of cells i.. given the tiles used (bits), the bottoms of cells i-C..i-1 and the
        right side of cell i-1."""
        if i == n:
            return 1
        r, c = divmod(i, C)
        out = (r == 0, c == C - 1, r == inst.rows - 1, c == 0)
        total = 0
        for t in range(n):
            if used >> t & 1 or (i in hints and hints[i][0] != t) or (i not in hints and t in hinted):
                continue
            for _, s in shapes[t]:
                if i in hints and rot(inst.tiles[t], hints[i][1]) != s:
                    continue
                if frame and any((col == 0) != o for col, o in zip(s, out)):
                    continue
                if (r and bottoms[0] != s[0]) or (c and right != s[3]):
                    continue
                total += go(i + 1, used | 1 << t, bottoms[1:] + (s[2],), s[1])
        return total

    return go(0, 0, (None,) * C, None)


def cpsat_type_count(inst: Instance, limit: float = 60.0) -> int | None:
    """Perfect placements of tile *types* (tiles equal up to turning, a hinted tile on its own), counted by
    CP-SAT enumeration: a model of its own, independent of the library's search and models."""
    from ortools.sat.python import cp_model

    n, C = inst.cells, inst.cols
    frame = any(0 in t for t in inst.tiles)
    hinted = {h.tile: h for h in inst.hints}
    types: dict = {}
    for t, tile in enumerate(inst.tiles):
        key = ("hint", t) if t in hinted else min(rot(tile, a) for a in range(4))
        types.setdefault(key, []).append(t)
    m = cp_model.CpModel()
    x: dict = {}
    for i in range(n):
        r, c = divmod(i, C)
        out = (r == 0, c == C - 1, r == inst.rows - 1, c == 0)
        here = [h for h in inst.hints if h.row * C + h.col == i]
        for key, members in types.items():
            rep = inst.tiles[members[0]]
            shapes = {rot(rep, a) for a in range(4)}
            if here:
                if key != ("hint", here[0].tile):
                    continue
                shapes = {rot(rep, here[0].turns)}
            elif key[0] == "hint":
                continue
            for s in shapes:
                if frame and any((col == 0) != o for col, o in zip(s, out)):
                    continue
                x[i, key, s] = m.new_bool_var("")
    for i in range(n):
        m.add_exactly_one([v for (j, _, _), v in x.items() if j == i])
    for key, members in types.items():
        m.add(sum(v for (_, k, _), v in x.items() if k == key) == len(members))
    top = max(col for t in inst.tiles for col in t)
    for i in range(n):
        r, c = divmod(i, C)
        for j, sa, sb in [(i + 1, 1, 3)] * (c + 1 < C) + [(i + C, 2, 0)] * (r + 1 < inst.rows):
            edge = m.new_int_var(0, top, "")  # the colour both sides of this edge show
            for (k, _, s), v in x.items():
                if k in (i, j):
                    m.add(edge == s[sa if k == i else sb]).only_enforce_if(v)

    class Count(cp_model.CpSolverSolutionCallback):
        def __init__(self):
            super().__init__()
            self.n = 0

        def on_solution_callback(self):
            self.n += 1

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = limit
    count = Count()
    status = solver.solve(m, count)
    return count.n if status in (cp_model.OPTIMAL, cp_model.INFEASIBLE) else None
