"""Candidates: the (tile, turns) each cell may hold, shared by the MILP and CP-SAT models.

Why a module: every model applies frame typing, hints, the symmetry-breaking
rule and decision-mode pruning the same way, so their decoders and warm
starts agree.  (The search kernel has its own typed view in ``search.py``.)
"""

from __future__ import annotations

from collections.abc import Sequence

from mipgames.edge_matching.instance import Instance, Placement
from mipgames.edge_matching.simulate import (
    Edge,
    boundary_sides,
    distinct_turns,
    fits_frame,
    inner_edges,
    turned,
)


def allowed_turns(inst: Instance, r: int, c: int, t: int) -> list[int]:
    """Distinct turns of tile t that cell (r, c) may hold (frame rule and hints applied)."""
    here = {(h.tile, h.turns) for h in inst.hints if (h.row, h.col) == (r, c)}
    if here:
        if len(here) > 1 or next(iter(here))[0] != t:
            return []  # contradictory hints: the model becomes infeasible, as it should
        cands = [next(iter(here))[1]]
    else:
        if any(h.tile == t for h in inst.hints):
            return []
        cands = distinct_turns(inst.tiles[t])
    if inst.frame:
        cands = [a for a in cands if fits_frame(inst, r, c, turned(inst.tiles[t], a))]
    return cands


def symmetry_free(inst: Instance) -> bool:
    """Whole-board turns map solutions to solutions only when no hint pins the board."""
    return not inst.hints


def candidates(inst: Instance, symmetry: bool = True) -> list[list[tuple[int, int]]]:
    """(tile, turns) each cell may hold: frame typing, hints and (optionally) symmetry breaking.

    Symmetry rule (no hints): a square board's quarter turn (a rectangle's half turn) maps
    solutions to solutions, so on a frame board the lowest corner tile is pinned to the
    top-left corner (top-left or top-right on a rectangle); without a frame tile 0 keeps
    turns 0 (0 or 1 on a rectangle).  ``canonical`` turns any placement into this form.
    """
    R, C = inst.rows, inst.cols
    out = _typed(inst)
    if not (symmetry and symmetry_free(inst)) or inst.cells == 1:
        return out
    pin = _pinned_corner(inst)
    if pin is not None:
        corners = {0} if R == C else {0, C - 1}
        others = {0, C - 1, R * C - C, R * C - 1} - corners
        for i in others:
            out[i] = [(t, a) for t, a in out[i] if t != pin]
    elif not inst.frame:
        keep = {0} if R == C else {0, 1}
        for i in range(inst.cells):
            out[i] = [(t, a) for t, a in out[i] if t != 0 or a in keep]
    return out


def _typed(inst: Instance) -> list[list[tuple[int, int]]]:
    """Candidates by frame typing and hints (cells with the same boundary pattern share one list)."""
    hinted = {h.tile for h in inst.hints}
    hint_cells = {(h.row, h.col) for h in inst.hints}
    shapes = [[turned(tile, a) for a in range(4)] for tile in inst.tiles]
    free = [(t, a) for t in range(inst.cells) if t not in hinted for a in distinct_turns(inst.tiles[t])]
    by_pattern: dict[tuple[bool, ...], list[tuple[int, int]]] = {}
    out = []
    for r in range(inst.rows):
        for c in range(inst.cols):
            if (r, c) in hint_cells:
                t = next(h.tile for h in inst.hints if (h.row, h.col) == (r, c))
                out.append([(t, a) for a in allowed_turns(inst, r, c, t)])
                continue
            pattern = boundary_sides(inst, r, c) if inst.frame else ()
            if pattern not in by_pattern:
                by_pattern[pattern] = [
                    (t, a)
                    for t, a in free
                    if not pattern or all((col == 0) == o for col, o in zip(shapes[t][a], pattern))
                ]
            out.append(list(by_pattern[pattern]))
    return out


def _pinned_corner(inst: Instance) -> int | None:
    if not inst.frame or inst.rows < 2 or inst.cols < 2:
        return None
    corner = [
        t
        for t, tile in enumerate(inst.tiles)
        if sum(1 for k in range(4) if tile[k] == 0 and tile[(k + 1) % 4] == 0) == 1
    ]
    return corner[0] if corner else None


def rotate_board(inst: Instance, placement: Sequence[tuple[int, int]], quarter: int) -> Placement:
    """The placement turned clockwise by ``quarter`` quarter turns (1 or 3 need a square board)."""
    R, C = inst.rows, inst.cols
    cells = list(placement)
    for _ in range(quarter % 4):
        # a quarter turn clockwise: (r, c) -> (c, n-1-r), every tile one more turn
        new = list(cells)  # every cell is overwritten: a turn permutes the cells
        for i, (t, a) in enumerate(cells):
            r, c = divmod(i, C)
            new[c * R + (R - 1 - r)] = (t, (a + 1) % 4)
        cells = new
        R, C = C, R
    return tuple(cells)


def canonical(inst: Instance, placement: Sequence[tuple[int, int]]) -> Placement:
    """Same score, turned so that it obeys ``candidates``' symmetry rule (for warm starts)."""
    allowed = [set(c) for c in candidates(inst)]
    steps = (0,) if not symmetry_free(inst) else (0, 1, 2, 3) if inst.rows == inst.cols else (0, 2)
    first = None
    for k in steps:
        cand = tuple(_snap(inst, allowed[i], t, a) for i, (t, a) in enumerate(rotate_board(inst, placement, k)))
        if all(pair in allowed[i] for i, pair in enumerate(cand)):
            return cand
        first = first or cand
    return first  # type: ignore[return-value]  # steps is never empty, so first is set


def _snap(inst: Instance, allowed: set[tuple[int, int]], t: int, a: int) -> tuple[int, int]:
    """The allowed turn of tile t with the same colouring (models keep one turn per distinct colouring)."""
    shape = turned(inst.tiles[t], a)
    return next(
        ((t, b) for b in range(4) if (t, b) in allowed and turned(inst.tiles[t], b) == shape),
        (t, a),
    )


def side_colours(inst: Instance, cands: list[list[tuple[int, int]]]) -> list[list[set[int]]]:
    """Colours each cell side can show given its candidates."""
    return [[{turned(inst.tiles[t], a)[s] for t, a in cands[i]} for s in range(4)] for i in range(inst.cells)]


def prune(inst: Instance, cands: list[list[tuple[int, int]]]) -> list[list[tuple[int, int]]]:
    """Decision mode only: drop (tile, turns) that show a colour the neighbouring cell can never show.

    This is the SAT encodings' 'colours that cannot meet' rule applied to a fixpoint before any
    model is built, so every model (MILP, CP-SAT, search) starts from smaller domains.
    """
    cands = [list(c) for c in cands]
    edges = inner_edges(inst)
    by_cell: dict[int, list[Edge]] = {}
    for e in edges:
        by_cell.setdefault(e.a, []).append(e)
        by_cell.setdefault(e.b, []).append(e)
    colours = side_colours(inst, cands)
    queue = set(range(inst.cells))
    while queue:
        i = queue.pop()
        for e in by_cell.get(i, []):
            j, sj, si = (e.b, e.sb, e.sa) if e.a == i else (e.a, e.sa, e.sb)
            ok = colours[i][si]
            keep = [(t, a) for t, a in cands[j] if turned(inst.tiles[t], a)[sj] in ok]
            if len(keep) != len(cands[j]):
                cands[j] = keep
                colours[j] = [{turned(inst.tiles[t], a)[s] for t, a in keep} for s in range(4)]
                queue.add(j)
    return cands


def tile_types(inst: Instance) -> dict[int, list[int]]:
    """Tiles equal up to turning, keyed by their lowest id: copies are interchangeable, so a model
    over types with multiplicities drops the copies' permutation symmetry (huge with few colours)."""
    out: dict[tuple, list[int]] = {}
    for t, tile in enumerate(inst.tiles):
        key = min(turned(tile, a) for a in range(4))
        out.setdefault(key, []).append(t)
    return {ts[0]: ts for ts in out.values()}


def pinned_corner(inst: Instance) -> int | None:
    """The corner tile the symmetry rule pins (None when the rule pins a turn or nothing)."""
    return _pinned_corner(inst) if symmetry_free(inst) else None
