"""The rules: turning, the board's geometry, the frame, and the exact verifier.

Pure functions only; every solver's answer is judged by ``evaluate`` and
nowhere else, and every model and search takes its geometry from here so
that they all name sides, edges and turns the same way.

The frame colour (``--frame-colour``): by default colour 0 marks the grey
frame of Eternity II-style puzzles.  ``framed`` rewrites an instance so that
the chosen frame colour is 0 (or so that no colour is, for ``none``); a
placement is a list of (tile, turns), which renaming colours leaves
unchanged, so every model and search works on the rewritten instance and its
answers stand for the original one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from mipgames.core.errors import InputError
from mipgames.core.files import excerpt
from mipgames.core.problem import Verdict
from mipgames.edge_matching.instance import Instance, Tile

MODES = ("optimise", "decision")
SIDES = ("top", "right", "bottom", "left")


def mode_of(params: dict[str, Any] | None) -> str:
    """The mode, with the -ize spelling (older certificates, the API) read as the one spelling used here."""
    mode = (params or {}).get("mode", "optimise")
    return "optimise" if mode == "optimize" else mode


# ---------------------------------------------------------------- the frame colour


def frame_colour_of(params: dict[str, Any] | None) -> int | None:
    return (params or {}).get("frame_colour", 0)


NAMED_FRAME = "frame_colour_named"
"""Key of the params ``framed`` returns: the frame colour as the user named it (messages speak of that one)."""


def named_frame(params: dict[str, Any]) -> int:
    """The frame colour as the user numbered it, from params ``framed`` returned (0 when it was 0 or none)."""
    return params.get(NAMED_FRAME) or 0


def framed(inst: Instance, params: dict[str, Any] | None) -> tuple[Instance, dict[str, Any]]:
    """The instance with its frame colour renamed to 0 (``none``: with no colour 0), and params saying so.

    Idempotent: the params returned name colour 0 as the frame, so a second
    call changes nothing.
    """
    params = dict(params or {})
    want = frame_colour_of(params)
    if want is not None and (isinstance(want, bool) or not isinstance(want, int) or want < 0):
        raise InputError(f"frame_colour must be none or a colour number, not {excerpt(repr(want))}")
    params["frame_colour"] = 0
    if want == 0:
        return inst, params
    params.setdefault(NAMED_FRAME, want)  # what messages call the frame colour: the user's number, not 0
    colours = {c for t in inst.tiles for c in t}
    if want is None:
        if 0 not in colours:
            return inst, params
        fresh = max(colours) + 1
        rename = {0: fresh}
    else:
        rename = {want: 0, 0: want}
    tiles = tuple(tuple(rename.get(c, c) for c in t) for t in inst.tiles)
    return replace(inst, tiles=tiles), params  # type: ignore[arg-type]  # a recoloured tile keeps its 4 sides


COUNTING_TILES, HINTS = "counting tiles", "hints"
IMPOSSIBLE_NAMES = (COUNTING_TILES, HINTS)
"""The names of the two proofs that no placement obeys the rules (``backtrack.impossible``): ``verify`` recomputes
both."""


def frame_census(inst: Instance, named: int = 0) -> str:
    """Why the frame alone makes a frame puzzle impossible, by counting tiles (empty when counts fit).

    A frame needs exactly 4 corner tiles (two grey sides meeting), 2(R-2) +
    2(C-2) edge tiles (one grey side) and no other grey side; a puzzle whose
    colours start at 0 without meaning a frame fails this at once.  ``named``: the frame colour as the user
    numbered it (``inst`` has it renamed to 0).
    """
    if not inst.frame:
        return ""
    R, C = inst.rows, inst.cols
    corner = edge = other = 0
    for t in inst.tiles:
        grey = [s for s in range(4) if t[s] == 0]
        if len(grey) == 1:
            edge += 1
        elif len(grey) == 2 and (grey[1] - grey[0]) in (1, 3):
            corner += 1
        else:
            other += 1 if grey else 0
    if R == 1 or C == 1:
        return ""  # a one-cell-wide strip: tiles show three or four grey sides, the simulator judges
    need_edge = 2 * (R - 2) + 2 * (C - 2)
    if (corner, edge, other) == (4, need_edge, 0):
        return ""
    parts = [
        f"{corner} corner tiles (4 needed)",
        f"{edge} edge tiles ({need_edge} needed)",
    ]
    if other:
        parts.append(f"{other} tiles whose grey sides no frame cell can show")
    return (
        f"colour {named} marks a frame here, and a {R}x{C} frame cannot be built from these tiles: "
        + ", ".join(parts)
        + f". If colour {named} is an ordinary colour in this puzzle, solve it with "
        "--frame-colour none (or name the frame colour with --frame-colour N)."
    )


# ---------------------------------------------------------------- turning and geometry


def turned(tile: Sequence[int], turns: int) -> Tile:
    """Colours after ``turns`` clockwise quarter turns: side s shows old side (s - turns) mod 4."""
    return (tile[-turns % 4], tile[(1 - turns) % 4], tile[(2 - turns) % 4], tile[(3 - turns) % 4])


def distinct_turns(tile: Sequence[int]) -> list[int]:
    """Turns giving pairwise different colourings (a symmetric tile needs fewer variables)."""
    seen: dict[Tile, int] = {}
    for a in range(4):
        seen.setdefault(turned(tile, a), a)
    return sorted(seen.values())


def boundary_sides(inst: Instance, r: int, c: int) -> tuple[bool, bool, bool, bool]:
    """Which sides (top, right, bottom, left) of cell (r, c) lie on the outer boundary."""
    return (r == 0, c == inst.cols - 1, r == inst.rows - 1, c == 0)


def fits_frame(inst: Instance, r: int, c: int, colours: Sequence[int]) -> bool:
    """Frame rule for one cell: grey exactly on the boundary sides."""
    return all((col == 0) == out for col, out in zip(colours, boundary_sides(inst, r, c)))


def neighbour(inst: Instance, i: int, s: int) -> int:
    """The cell across side s of cell i (row-major), or -1 at the board's edge."""
    r, c = divmod(i, inst.cols)
    r, c = (r - 1, c) if s == 0 else (r, c + 1) if s == 1 else (r + 1, c) if s == 2 else (r, c - 1)
    return r * inst.cols + c if 0 <= r < inst.rows and 0 <= c < inst.cols else -1


@dataclass(frozen=True)
class Edge:
    """Inner edge between side ``sa`` of cell ``a`` and side ``sb`` of cell ``b`` (cells row-major)."""

    a: int
    sa: int
    b: int
    sb: int


def inner_edges(inst: Instance) -> list[Edge]:
    R, C = inst.rows, inst.cols
    out = []
    for r in range(R):
        for c in range(C):
            i = r * C + c
            if c + 1 < C:
                out.append(Edge(i, 1, i + 1, 3))
            if r + 1 < R:
                out.append(Edge(i, 2, i + C, 0))
    return out


def hint_conflict(inst: Instance) -> str:
    """Why the hints cannot all hold ("" when they can): two for one cell, one tile in two cells, or a hint that
    shows grey off the boundary (or colour on it) in a frame puzzle.  No search and no tables: a rule check."""
    cells: dict[int, tuple[int, int]] = {}
    for h in inst.hints:
        i = h.row * inst.cols + h.col
        if cells.get(i, (h.tile, h.turns)) != (h.tile, h.turns):
            return f"two hints for cell ({h.row}, {h.col})"
        cells[i] = (h.tile, h.turns)
    places: dict[int, int] = {}
    for i, (t, a) in cells.items():
        if t in places:
            return f"tile {t} is hinted into two cells"
        places[t] = i
        if inst.frame and not fits_frame(inst, *divmod(i, inst.cols), turned(inst.tiles[t], a)):
            return f"the hint puts tile {t} turned {a} in cell {divmod(i, inst.cols)}, against the frame rule"
    return ""


def turn_showing(tile: Sequence[int], shape: Sequence[int], hint: tuple[int, int] | None = None) -> int:
    """The turn of ``tile`` that shows ``shape``: a hint's own turn when the cell is hinted (``hint`` = its
    (tile, turns)), since a tile that looks the same under some turn shows the shape in several and the rules
    hold a hinted cell to the hint's turn; else the first."""
    if hint is not None and turned(tile, hint[1]) == tuple(shape):
        return hint[1]
    return next(b for b in range(4) if turned(tile, b) == tuple(shape))


def hinted_cells(inst: Instance) -> dict[int, tuple[int, int]]:
    """(tile, turns) of every hinted cell, by cell index."""
    return {h.row * inst.cols + h.col: (h.tile, h.turns) for h in inst.hints}


def hint_mismatch(inst: Instance) -> str:
    """Why no placement can match every inner edge because of the hints alone ("" when none is seen): two
    hinted neighbours that show different colours on their shared edge.  Such a placement is legal (a
    mismatch is allowed), so this is no conflict; it rules out perfect placements only."""
    cells = {i: turned(inst.tiles[t], a) for i, (t, a) in hinted_cells(inst).items()}
    for e in inner_edges(inst):
        if e.a in cells and e.b in cells and cells[e.a][e.sa] != cells[e.b][e.sb]:
            (ra, ca), (rb, cb) = divmod(e.a, inst.cols), divmod(e.b, inst.cols)
            return (
                f"the hints of cells ({ra}, {ca}) and ({rb}, {cb}) show colours {cells[e.a][e.sa]} and "
                f"{cells[e.b][e.sb]} on their shared edge"
            )
    return ""


def plain_placement(inst: Instance) -> list[list[int]]:
    """A placement made without search that obeys the frame and the hints when tile counts allow: the hinted
    tiles where the hints put them, then each cell the first free tile that some turn shows grey exactly on the
    cell's boundary sides (any tile when none does).  In optimise mode it is a legal answer whenever the puzzle
    has one, so no claim of ``infeasible`` can stand beside it, nor a bound above its mismatches."""
    n, C = inst.cells, inst.cols
    placement: list[list[int] | None] = [None] * n
    free = dict.fromkeys(range(n))
    for h in inst.hints:
        i = h.row * C + h.col
        if 0 <= i < n and placement[i] is None and h.tile in free:
            placement[i] = [h.tile, h.turns]
            del free[h.tile]
    by_shape: dict[tuple[bool, ...], list[tuple[int, int]]] = {}
    for t in free:
        for a in distinct_turns(inst.tiles[t]):
            by_shape.setdefault(tuple(col == 0 for col in turned(inst.tiles[t], a)), []).append((t, a))
    spare = iter(list(free))  # the free tiles in order, walked once (next(iter(free)) walks past every deleted one)
    for i in range(n):
        if placement[i] is not None:
            continue
        wanted = by_shape.get(boundary_sides(inst, *divmod(i, C)) if inst.frame else (), [])
        while wanted and wanted[-1][0] not in free:
            wanted.pop()
        t, a = wanted.pop() if wanted else (next(tile for tile in spare if tile in free), 0)
        placement[i] = [t, a]
        del free[t]
    return [cell for cell in placement if cell is not None]


# ---------------------------------------------------------------- the verifier


def shown(inst: Instance, placement: Sequence[Sequence[int]]) -> list[Tile]:
    """Colours each cell shows, row-major."""
    return [turned(inst.tiles[t], a) for t, a in placement]


def mismatched_edges(inst: Instance, placement: Sequence[Sequence[int]]) -> list[tuple[int, int, str]]:
    """Inner edges whose two sides differ: (r, c, 'right'|'bottom') of the upper/left cell."""
    cols = shown(inst, placement)
    R, C = inst.rows, inst.cols
    out = []
    for i, sides in enumerate(cols):  # inner_edges' order, without an Edge object each (a 500x500 board: 1.4 s)
        r, c = divmod(i, C)
        if c + 1 < C and sides[1] != cols[i + 1][3]:
            out.append((r, c, SIDES[1]))
        if r + 1 < R and sides[2] != cols[i + C][0]:
            out.append((r, c, SIDES[2]))
    return out


def rule_violation(inst: Instance, placement: Any) -> str:
    """Empty when the placement obeys every hard rule (shape, permutation, hints, frame); else why not."""
    n = inst.cells
    try:
        cells = [(int(t), int(a)) for t, a in placement]
    except (TypeError, ValueError):
        return "a placement is a list of [tile, turns] per cell"
    if len(cells) != n:
        return f"placement has {len(cells)} cells, the board has {n}"
    for i, (t, a) in enumerate(cells):
        if not 0 <= t < n:
            return f"cell {divmod(i, inst.cols)} holds tile {t}, tiles are 0..{n - 1}"
        if not 0 <= a <= 3:
            return f"cell {divmod(i, inst.cols)} has turns {a}, must be 0..3"
    seen: dict[int, int] = {}
    for i, (t, _) in enumerate(cells):
        if t in seen:
            return f"tile {t} is used twice (cells {divmod(seen[t], inst.cols)} and {divmod(i, inst.cols)})"
        seen[t] = i
    for h in inst.hints:
        if cells[h.row * inst.cols + h.col] != (h.tile, h.turns):
            return f"hint broken: cell ({h.row}, {h.col}) must hold tile {h.tile} turned {h.turns}"
    if inst.frame:
        for i, (t, a) in enumerate(cells):
            r, c = divmod(i, inst.cols)
            for side, (col, out) in enumerate(zip(turned(inst.tiles[t], a), boundary_sides(inst, r, c))):
                if out and col != 0:
                    return (
                        f"frame broken: cell ({r}, {c}) shows colour {col} on its outer {SIDES[side]} side, must be 0"
                    )
                if not out and col == 0:
                    return f"frame broken: cell ({r}, {c}) shows grey (0) on its inner {SIDES[side]} side"
    return ""


def evaluate(inst: Instance, params: dict[str, Any], placement: Any) -> Verdict:
    """Objective: mismatched inner edges (min).  Decision mode makes any mismatch illegal."""
    inst, params = framed(inst, params)
    why = rule_violation(inst, placement)
    if why:
        return Verdict(False, None, why)
    cells = [(int(t), int(a)) for t, a in placement]
    bad = mismatched_edges(inst, cells)
    measured = {
        "mismatched": len(bad),
        "matched": inst.inner_edges - len(bad),
        "inner_edges": inst.inner_edges,
        "mismatched_edges": [list(e) for e in bad],
    }
    if mode_of(params) == "decision" and bad:
        r, c, side = bad[0]
        return Verdict(
            False,
            None,
            f"decision mode: {len(bad)} mismatched edges, e.g. the {side} side of ({r}, {c})",
            measured,
        )
    return Verdict(True, float(len(bad)), "", measured)


COLOUR_COUNT_BOUND = "colour-count bound on mismatched edges"
"""The bound's name wherever it is credited, so that ``verify`` recognises the toolkit's own bound and recomputes it."""


def colour_count_bound(inst: Instance) -> int:
    """Lower bound on mismatches from colour parity: a colour seen an odd number of times on inner
    sides leaves one side unmatched.  Exact counts need the frame (which sides are inner is known
    then); without a frame the boundary may hide any side, so the bound is 0."""
    if not inst.frame:
        return 0
    counts: dict[int, int] = {}
    for t in inst.tiles:
        for col in t:
            if col:
                counts[col] = counts.get(col, 0) + 1
    odd = sum(v % 2 for v in counts.values())
    return (odd + 1) // 2
