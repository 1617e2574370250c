"""What the compiled kernel searches over, and its pure-Python twin.

``Pieces`` turns an instance into tile types and entries (a type turned one
of its distinct ways), the cells each entry may take (frame typing, hints,
symmetry) and the fixed cells (hints).  ``Search`` drives ``kernel.fill``
over a fill order in resumable slices of nodes.  ``fill_reference`` is the
same search written plainly in Python; the tests hold the kernel to it.

Solutions are counted over placements (tile, colouring): two turns of a
tile that show the same colours are one placement, and copies of a tile are
told apart by their ids (a type-level count times the copies' permutations).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from mipgames.edge_matching.instance import Instance
from mipgames.edge_matching.simulate import (
    boundary_sides,
    distinct_turns,
    hint_conflict,
    hinted_cells,
    neighbour,
    turn_showing,
    turned,
)

NO_LIMIT = 1 << 40
ORDERS = ("rows", "frame", "spiral")
SIDE_PREFERENCE = (0, 3, 1, 2)
"""Key sides are the first two constrained sides in this order: top and left in a row scan."""


@dataclass
class Pieces:
    inst: Instance
    types: list[list[int]]
    """Tile ids per type; the first is the representative whose turns define the entries."""
    ent_type: np.ndarray
    ent_turn: np.ndarray
    ent_col: np.ndarray
    allowed: np.ndarray
    """uint8 [cell, entry]: 1 when the cell may hold the entry (frame typing, hints, symmetry)."""
    avail: np.ndarray
    """Copies of each type left to place once the fixed (hinted) cells are filled."""
    col: np.ndarray
    """Colours shown per cell: set for fixed cells, scratch for the rest."""
    fixed: dict[int, int] = field(default_factory=dict)
    """Hinted cells: cell -> entry."""
    K: int = 1
    conflict: str = ""
    """Why the hints alone make every placement illegal (empty when they do not)."""
    fixed_breaks: int = 0
    """Mismatched edges between two fixed cells: in every placement."""
    symmetry: int = 1
    """Whole-board turns folded away by the allowed sets: every counted solution stands for this many."""
    symmetry_note: str = ""
    pins: int = 1
    """Tiles the fold could pin instead (``prepare(pin=k)`` for k below this): each gives another tree."""

    @property
    def any(self) -> int:
        return self.K - 1

    def copies_factor(self) -> int:
        """Placements per type-level placement: the copies of a type can trade cells."""
        out = 1
        for members in self.types:
            out *= math.factorial(len(members))
        return out


def tile_types(inst: Instance, separate: Sequence[int] = ()) -> list[list[int]]:
    """Tiles equal up to turning share a type (``separate`` tiles, the hinted ones, stay alone)."""
    by_shape: dict[tuple[int, ...], list[int]] = {}
    out: list[list[int]] = []
    alone = set(separate)
    for t, tile in enumerate(inst.tiles):
        if t in alone:
            out.append([t])
            continue
        key = min(turned(tile, a) for a in range(4))
        if key not in by_shape:
            by_shape[key] = []
            out.append(by_shape[key])
        by_shape[key].append(t)
    return out


def prepare(inst: Instance, symmetry: str = "exact", pin: int = 0) -> Pieces:
    """Types, entries, allowed cells and fixed hints of a (frame-normalised) instance.

    ``symmetry``: "none" keeps every whole-board turn; "exact" folds them away
    only where each solution then stands for exactly ``Pieces.symmetry``
    solutions (counting stays exact); "any" also pins a tile type with copies
    (fine for finding a placement, not for counting).  ``pin`` chooses which
    of the ``Pieces.pins`` candidate tiles the fold pins (modulo their number):
    every choice keeps a turned copy of every solution, in a different tree.
    """
    n = inst.cells
    hinted = sorted({h.tile for h in inst.hints})
    types = tile_types(inst, hinted)
    ent_type, ent_turn, ent_col = [], [], []
    for ti, members in enumerate(types):
        for a in distinct_turns(inst.tiles[members[0]]):
            ent_type.append(ti)
            ent_turn.append(a)
            ent_col.append(turned(inst.tiles[members[0]], a))
    E = len(ent_type)
    palette = sorted({c for t in inst.tiles for c in t})  # dense colours; the frame's 0 stays 0
    dense = {c: i for i, c in enumerate(palette)}
    K = len(palette) + 1
    ecol = np.array([[dense[c] for c in sides] for sides in ent_col], dtype=np.int64).reshape(E, 4)
    etype = np.array(ent_type, dtype=np.int64)
    allowed = np.ones((n, E), dtype=np.uint8)
    if inst.frame:
        for i in range(n):
            out = np.array(boundary_sides(inst, *divmod(i, inst.cols)))
            allowed[i] = np.all((ecol == 0) == out, axis=1)
    pieces = Pieces(
        inst,
        types,
        etype,
        np.array(ent_turn, dtype=np.int64),
        ecol,
        allowed,
        np.array([len(m) for m in types], dtype=np.int64),
        np.zeros((n, 4), dtype=np.int64),
        K=K,
    )
    _fix_hints(pieces)
    if not inst.hints and symmetry != "none":
        _fold_symmetry(pieces, exact=symmetry == "exact", pin=pin)
    return pieces


def _fix_hints(p: Pieces) -> None:
    inst = p.inst
    p.conflict = hint_conflict(inst)
    if p.conflict:
        return
    type_of = {t: ti for ti, members in enumerate(p.types) for t in members}
    cells = hinted_cells(inst)
    for i, (t, a) in cells.items():
        shape = turned(inst.tiles[t], a)
        ti = type_of[t]
        rep = inst.tiles[p.types[ti][0]]
        e = next(e for e in range(len(p.ent_type)) if p.ent_type[e] == ti and turned(rep, int(p.ent_turn[e])) == shape)
        p.fixed[i] = e
        p.col[i] = p.ent_col[e]
        p.avail[ti] -= 1
        p.allowed[:, p.ent_type == ti] = 0
    C = inst.cols
    for i in p.fixed:
        r, c = divmod(i, C)
        if c + 1 < C and i + 1 in p.fixed and p.col[i, 1] != p.col[i + 1, 3]:
            p.fixed_breaks += 1
        if r + 1 < inst.rows and i + C in p.fixed and p.col[i, 2] != p.col[i + C, 0]:
            p.fixed_breaks += 1


def _fold_symmetry(p: Pieces, exact: bool, pin: int = 0) -> None:
    """Pin one tile so that only one of the board's turned copies of each solution stays.

    A square board's quarter turn (a rectangle's half turn) maps solutions to
    solutions.  Frame puzzle: the top-left corner holds one chosen corner type
    (a rectangle: a corner tile of one copy stays out of the bottom corners).
    Otherwise: a tile of one copy with four distinct turns keeps turns 0 (0 or
    1 on a rectangle), since a board turn adds a turn to every tile.  A type
    of one copy makes every kept solution stand for exactly ``p.symmetry``
    solutions; a type with copies (only when not ``exact``) still leaves at
    least one turned copy of each solution.
    """
    inst = p.inst
    R, C = inst.rows, inst.cols
    if inst.cells == 1:
        return
    square = R == C
    folds = 4 if square else 2
    single = [ti for ti, members in enumerate(p.types) if len(members) == 1]
    if inst.frame and R >= 2 and C >= 2:
        corner_types = sorted({int(p.ent_type[e]) for e in np.nonzero(p.allowed[0])[0]})
        pick = [ti for ti in corner_types if ti in single]
        if not pick and not exact and square:
            pick = corner_types
        if not pick:
            p.symmetry_note = "no corner tile without copies: every turned copy of a solution is counted"
            return
        p.pins = len(pick)
        chosen = pick[pin % len(pick)]
        mask = p.ent_type == chosen
        if square:
            p.allowed[0, ~mask] = 0
        else:
            for i in (R * C - C, R * C - 1):
                p.allowed[i, mask] = 0
        p.symmetry = folds if chosen in single else 1
        p.symmetry_note = (
            f"tile {p.types[chosen][0]} pinned to the top-left corner"
            + ("" if square else " or top-right")
            + (f": each solution found stands for {folds}" if chosen in single else "")
        )
        return
    four = [ti for ti in single if int(np.count_nonzero(p.ent_type == ti)) == 4]
    if not four:
        p.symmetry_note = "no tile with four distinct turns and no copies: every turned copy of a solution is counted"
        return
    keep_turns = {0} if square else {0, 1}
    p.pins = len(four)
    chosen = four[pin % len(four)]
    for e in np.nonzero(p.ent_type == chosen)[0]:
        if int(p.ent_turn[e]) not in keep_turns:
            p.allowed[:, e] = 0
    p.symmetry = folds
    p.symmetry_note = (
        f"tile {p.types[chosen][0]} kept at turns "
        + ("0" if square else "0 or 1")
        + f": each solution found stands for {folds}"
    )


# ---------------------------------------------------------------- fill orders


def fill_order(inst: Instance, kind: str, skip: Collection[int] = ()) -> list[int]:
    """Cells in the order the search fills them: row scan, frame first (rim clockwise, then rows), or a spiral."""
    R, C = inst.rows, inst.cols
    if kind == "rows" or (kind == "frame" and not inst.frame):
        cells = [(r, c) for r in range(R) for c in range(C)]
    elif kind == "frame":
        rim = [(0, c) for c in range(C)] + [(r, C - 1) for r in range(1, R)]
        rim += [(R - 1, c) for c in range(C - 2, -1, -1)] + [(r, 0) for r in range(R - 2, 0, -1)]
        cells = rim + [(r, c) for r in range(1, R - 1) for c in range(1, C - 1)]
    elif kind == "spiral":
        cells = []
        r0, c0, r1, c1 = 0, 0, R - 1, C - 1
        while r0 <= r1 and c0 <= c1:
            ring = [(r0, c) for c in range(c0, c1 + 1)] + [(r, c1) for r in range(r0 + 1, r1 + 1)]
            ring += [(r1, c) for c in range(c1 - 1, c0 - 1, -1)] if r1 > r0 else []
            ring += [(r, c0) for r in range(r1 - 1, r0, -1)] if c1 > c0 else []
            cells += ring
            r0, c0, r1, c1 = r0 + 1, c0 + 1, r1 - 1, c1 - 1
    else:
        raise ValueError(f"unknown fill order {kind!r}; one of {', '.join(ORDERS)}")
    seen: set[int] = set(skip)
    out = []
    for r, c in cells:
        i = r * C + c
        if i not in seen:
            seen.add(i)
            out.append(i)
    return out


def plan(inst: Instance, order: Sequence[int], fixed: Collection[int]) -> tuple[np.ndarray, ...]:
    """keynb, keyside, chknb, chkside for a fill order: which placed neighbours each position meets."""
    nk = len(order)
    pos = {cell: k for k, cell in enumerate(order)}
    fixed = set(fixed)
    keynb = np.full((nk, 2), -1, dtype=np.int64)
    keyside = np.full((nk, 2), -1, dtype=np.int64)
    chknb = np.full((nk, 2), -1, dtype=np.int64)
    chkside = np.full((nk, 2), -1, dtype=np.int64)
    for k, cell in enumerate(order):
        met = []
        for s in SIDE_PREFERENCE:
            j = neighbour(inst, cell, s)
            if j >= 0 and (j in fixed or pos.get(j, nk) < k):
                met.append((j, s))
        for slot, (j, s) in enumerate(met[:2]):
            keynb[k, slot], keyside[k, slot] = j, s
        for slot, (j, s) in enumerate(met[2:]):
            chknb[k, slot], chkside[k, slot] = j, s
    return keynb, keyside, chknb, chkside


MAX_LOOK_COLOURS = 63
"""The row look-ahead keeps a set of colours in the bits of an int64."""


def row_ahead(
    p: Pieces, order: Sequence[int], keynb: np.ndarray, keyside: np.ndarray, on: bool = True
) -> tuple[np.ndarray, ...]:
    """Where the exact fill looks a row ahead (``kernel.fill_exact``): block, useback, back, then the tile tables.

    ``block[k]`` = C (the row length) when positions k+1..k+C are one whole
    row, left to right, each keyed first by its top neighbour, placed by k;
    ``useback[k]`` when position k is in such a row and not its last (it
    checks ``back[k + 1]``).  All zeros (no look) when ``on`` is False or the
    colours do not fit in the bits of an int64.  Measured on Brendan's sets
    (``benchmarks/edge_matching/bench_look.py``, whole subtrees): 2.3x fewer
    nodes on 6x6, 2.7x on 7x7, 3.0x on 8x8, 3.4x on 9x9, for about 2.4x the
    work per node.
    """
    nk = len(order)
    block = np.zeros(max(nk, 1), dtype=np.int64)
    useback = np.zeros(max(nk, 1), dtype=np.int64)
    C = p.inst.cols
    pos = {int(cell): k for k, cell in enumerate(order)}
    if on and p.K - 1 <= MAX_LOOK_COLOURS and C > 1:
        for k in range(nk - C):
            first = int(order[k + 1])
            row = [first + i for i in range(C)]
            if first % C == 0 and all(
                int(order[k + 1 + i]) == cell
                and keyside[k + 1 + i, 0] == 0
                and keynb[k + 1 + i, 0] == cell - C
                and pos.get(cell - C, nk) <= k
                for i, cell in enumerate(row)
            ):
                block[k] = C
                useback[k + 1 : k + C] = 1
    return (block, useback, np.zeros(max(nk, 1), dtype=np.int64), *_stock_tables(p, order, block))


def _stock_tables(p: Pieces, order: Sequence[int], block: np.ndarray) -> tuple[np.ndarray, ...]:
    """The unused tiles of the looked-at rows by (cell class, top, right): ``mask`` holds the left colours as bits.

    ``cls[k]``: the class (allowed entries) of position k's cell when a look
    reaches it, else -1.  ``cnt`` counts the unused tiles of each (class, top,
    right, left), densely numbered so the counters stay in L1 cache; each
    type lists its counters (tp_start, tp_cnt) with the mask word and bit
    each one keeps alive (tp_mask, tp_bit), so taking or giving back a tile
    is a few updates.
    """
    K = p.K
    nk = len(order)
    cls = np.full(max(nk, 1), -1, dtype=np.int64)
    classes: dict[bytes, int] = {}
    for k in np.nonzero(block)[0]:
        for kk in range(k + 1, k + 1 + int(block[k])):
            cell = int(order[kk])
            cls[kk] = classes.setdefault(p.allowed[cell].tobytes(), len(classes))
    cells = {int(q): int(order[kk]) for kk, q in enumerate(cls) if q >= 0}
    ids: dict[tuple[int, int, int, int], int] = {}
    slots: list[list[tuple[int, int, int]]] = [[] for _ in p.types]
    for q, cell in sorted(cells.items()):
        for e in np.nonzero(p.allowed[cell])[0]:
            top, right, _, left = (int(x) for x in p.ent_col[e])
            c = ids.setdefault((q, top, right, left), len(ids))
            slots[int(p.ent_type[e])].append((c, int((q * K + top) * K + right), 1 << left))
    cnt = np.zeros(max(len(ids), 1), dtype=np.int64)
    mask = np.zeros(max(len(cells), 1) * K * K, dtype=np.int64)
    for t, row in enumerate(slots):
        for c, m, bit in row:
            cnt[c] += int(p.avail[t])
            if cnt[c]:
                mask[m] |= bit
    tp_start = np.zeros(len(slots) + 1, dtype=np.int64)
    tp_start[1:] = np.cumsum([len(row) for row in slots])
    flat = [it for row in slots for it in row]
    tp_cnt, tp_mask, tp_bit = (np.array([it[f] for it in flat], dtype=np.int64) for f in range(3))
    return cls, tp_start, tp_cnt, tp_mask, tp_bit, cnt, mask


# ---------------------------------------------------------------- the driver


class Search:
    """A resumable kernel search over one fill order.

    ``budget[k]``: breaks (mismatched edges) allowed in total once position k
    is placed (zeros: the exact backtracker); ``cap``: the most a complete
    placement may have; ``count``: go on after a solution; ``optimise``: after a
    solution with b breaks, look only for fewer; ``seed``: shuffle the
    candidate buckets (None: entry order, the deterministic reference order);
    ``split`` = (depth, parts, part): keep only every parts-th choice at that
    depth, so ``parts`` searches share one tree; ``look``: the exact search
    looks a row ahead (``row_ahead``; the backtracker's complete search asks
    for it, and so do its guided restarts); ``rare_first``: candidates showing
    rarer colours first (``rare_colours_first``; same tree, same counts).
    """

    def __init__(
        self,
        pieces: Pieces,
        order: Sequence[int],
        budget: Sequence[int] | None = None,
        cap: int = 0,
        count: bool = False,
        optimise: bool = False,
        seed: int | None = None,
        split: tuple[int, int, int] = (-1, 1, 0),
        look: bool = False,
        rare_first: bool = False,
    ):
        from mipgames.edge_matching import kernel

        self.k = kernel
        self.pieces = pieces
        self.order = np.array(order, dtype=np.int64)
        nk = len(order)
        self.keynb, self.keyside, self.chknb, self.chkside = plan(pieces.inst, order, pieces.fixed)
        self.budget = np.array(budget if budget is not None else [0] * nk, dtype=np.int64)
        self.exact = not optimise and not self.budget.any() and cap == 0
        self.avail = pieces.avail.copy()
        self.col = pieces.col.copy()
        self.ptab, cls_cell, cls_keyside = _classes(pieces, order, self.keyside)
        self.tstart, self.tlist, self.ttype = kernel.build_tables(
            cls_cell,
            cls_keyside,
            pieces.allowed,
            pieces.ent_col,
            pieces.ent_type,
            self.avail,
            pieces.K,
        )
        if seed is not None:
            kernel.shuffle_tables(self.tstart, self.tlist, self.ttype, seed)
        if rare_first:
            rare_colours_first(pieces, self.tstart, self.tlist, self.ttype)
        self.state = tuple(np.zeros(max(nk, 1), dtype=np.int64) for _ in range(8)) + (
            np.zeros(kernel.ST_SIZE, dtype=np.int64),
        )
        self.pr = np.zeros(kernel.PR_SIZE, dtype=np.int64)
        self.pr[kernel.COUNT], self.pr[kernel.OPTIMISE] = int(count), int(optimise)
        (
            self.pr[kernel.SPLIT_DEPTH],
            self.pr[kernel.SPLIT_MOD],
            self.pr[kernel.SPLIT_REM],
        ) = split
        kernel.start(
            self.keynb,
            self.keyside,
            self.ptab,
            self.col,
            pieces.K,
            self.budget,
            cap,
            self.tstart,
            self.state,
        )
        self.look = row_ahead(pieces, order, self.keynb, self.keyside, look and self.exact)
        self.status = kernel.RUNNING
        if self.exact and pieces.fixed_breaks:
            # hinted neighbours that mismatch: no placement is perfect, though the kernel, which never compares
            # two fixed cells, would find and count placements around them
            self.status = kernel.EXHAUSTED
        elif not nk:  # every cell hinted: the root is the one placement (its fixed breaks are the driver's), in
            # the first part of a split tree only
            mine = split[1] <= 1 or split[2] == 0
            self.st[kernel.SOLUTIONS], self.st[kernel.BEST] = (1, 0) if mine else (0, -1)
            self.status = kernel.FOUND if mine and not count and not optimise else kernel.EXHAUSTED

    @property
    def st(self) -> np.ndarray:
        return self.state[8]

    @property
    def nodes(self) -> int:
        return int(self.st[self.k.NODES])

    @property
    def solutions(self) -> int:
        return int(self.st[self.k.SOLUTIONS])

    @property
    def best_breaks(self) -> int | None:
        b = int(self.st[self.k.BEST])
        return None if b < 0 else b

    def run(self, nodes: int = NO_LIMIT) -> int:
        """Search on for at most ``nodes`` placements; returns kernel.RUNNING, EXHAUSTED or FOUND."""
        if self.status == self.k.EXHAUSTED or not len(self.order):
            status, self.status = self.status, self.k.EXHAUSTED
            return status
        tables = (
            self.order,
            self.keynb,
            self.keyside,
            self.chknb,
            self.chkside,
            self.ptab,
            self.tstart,
            self.tlist,
        )
        pieces = (self.ttype, self.pieces.K, self.pieces.ent_col, self.avail, self.col)
        if self.exact:  # the specialised loop: no breaks allowed, so no budget to read
            self.status = self.k.fill_exact(*tables, *pieces, self.state, self.pr, nodes, self.look)
        else:
            self.status = self.k.fill(*tables, *pieces, self.budget, self.state, self.pr, nodes)
        return self.status

    def placement(self, best: bool = False) -> list[tuple[int, int]]:
        """The current (FOUND) or best recorded placement as (tile, turns) per cell, row-major."""
        slots = self.state[7 if best else 6][: len(self.order)]
        return decode_entries(self.pieces, self.order, self.tlist[slots])

    def entries(self, best: bool = False) -> list[int]:
        """The entries placed along the order (current or best)."""
        return [int(e) for e in self.tlist[self.state[7 if best else 6][: len(self.order)]]]


def rare_colours_first(p: Pieces, tstart: np.ndarray, tlist: np.ndarray, ttype: np.ndarray) -> None:
    """Order every candidate bucket by the rarity of the colours its entries show, rarest first (stable).

    An entry's rarity is the sum over its four sides of 1 / (sides of that colour over all tiles).  Laying
    the tiles of rare colours early leaves tiles of common colours for the end of the board, where the last
    tiles must fit each other: a first solution comes sooner (the Eternity II solvers' colour heuristic;
    ``benchmarks/edge_matching/bench_values.py``).  Only the order within buckets changes: the tree, its
    node count and its solutions stay the same.
    """
    counts = np.zeros(p.K, dtype=np.float64)
    for t, members in enumerate(p.types):
        first = int(np.nonzero(p.ent_type == t)[0][0])
        np.add.at(counts, p.ent_col[first], len(members))
    rarity = np.round((1.0 / np.maximum(counts, 1.0))[p.ent_col].sum(axis=1), 12)  # equal colours: a tie
    bucket = np.repeat(np.arange(len(tstart) - 1), np.diff(tstart))
    perm = np.lexsort((-rarity[tlist], bucket))  # by bucket, then rarest first; ties keep their order
    tlist[:] = tlist[perm]
    ttype[:] = ttype[perm]


def _classes(p: Pieces, order: Sequence[int], keyside: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Positions with the same allowed entries and key sides share one table (all inner cells of a row scan)."""
    ids: dict[tuple[bytes, int, int], int] = {}
    ptab = np.zeros(len(order), dtype=np.int64)
    cells: list[int] = []
    sides: list[np.ndarray] = []
    for k, cell in enumerate(order):
        key = (p.allowed[cell].tobytes(), int(keyside[k, 0]), int(keyside[k, 1]))
        if key not in ids:
            ids[key] = len(cells)
            cells.append(cell)
            sides.append(keyside[k])
        ptab[k] = ids[key]
    return (
        ptab,
        np.array(cells, dtype=np.int64),
        np.array(sides, dtype=np.int64).reshape(-1, 2),
    )


def decode_entries(p: Pieces, order: Iterable[int], entries: Iterable[int]) -> list[tuple[int, int]]:
    """(tile, turns) per cell from the entries placed along ``order`` and the fixed cells."""
    inst = p.inst
    out: list[tuple[int, int]] = [(-1, 0)] * inst.cells
    left = [list(m) for m in p.types]
    hints = hinted_cells(inst)
    cells = [*p.fixed.items(), *zip((int(c) for c in order), (int(e) for e in entries))]
    for i, e in sorted(cells, key=lambda ce: ce[0] not in p.fixed):
        members = left[int(p.ent_type[e])]
        shape = turned(inst.tiles[p.types[int(p.ent_type[e])][0]], int(p.ent_turn[e]))
        if i in p.fixed:
            t = hints[i][0]
            members.remove(t)
        else:
            t = members.pop(0)
        out[i] = (t, turn_showing(inst.tiles[t], shape, hints.get(i)))
    return out


# ---------------------------------------------------------------- the pure-Python twin


@dataclass
class ReferenceResult:
    solutions: int
    nodes: int
    best_breaks: int | None
    best: list[int] | None
    """Entries along the order of the first solution of least breaks."""
    complete: bool = True
    """False when ``max_nodes`` cut the search: then finding nothing proves nothing."""


@dataclass
class _Walk:
    """The reference search's running state, shared by its recursive calls."""

    cap: int
    max_nodes: int = 0
    solutions: int = 0
    nodes: int = 0
    best: list[int] | None = None
    best_breaks: int | None = None
    stop: bool = False
    cut: bool = False


def fill_reference(
    p: Pieces,
    order: Sequence[int],
    budget: Sequence[int] | None = None,
    cap: int = 0,
    count: bool = False,
    optimise: bool = False,
    look: bool = False,
    max_nodes: int = 0,
) -> ReferenceResult:
    """The kernel's search, plainly: recursion, candidates filtered from all entries in id order.

    Candidates of a position come in the kernel's order: exact matches, then
    one break on the first key side, one on the second, then both; each
    candidate's checked sides may add breaks; a candidate is taken while the
    running total stays within min(budget[k], cap).  ``look`` (exact search
    only, as in ``Search``): the row look-ahead of ``row_ahead``, recomputed
    here from all entries.  ``max_nodes`` (0: none) stops the search after
    that many nodes, with ``complete`` False.
    """
    inst = p.inst
    nk = len(order)
    budget = list(budget) if budget is not None else [0] * nk
    tables = plan(inst, order, p.fixed)
    exact = not optimise and not any(budget) and cap == 0
    block, useback = (a.tolist() for a in row_ahead(p, order, tables[0], tables[1], look and exact)[:2])
    back: list[set[int]] = [set() for _ in range(nk + 1)]
    keynb, keyside, chknb, chkside = (a.tolist() for a in tables)
    avail = p.avail.tolist()
    col = p.col.tolist()
    ANY = p.any
    cols = p.ent_col.tolist()
    etype = p.ent_type.tolist()
    E = len(etype)
    allowed = p.allowed.tolist()
    place = [0] * nk
    box = _Walk(cap, max_nodes)

    def shows(nb: int, s: int) -> int:
        return col[nb][(s + 2) % 4] if nb >= 0 else ANY

    def next_row(k: int, e: int) -> bool:
        """The kernel's row look-ahead: can positions k+1..k+block[k] be laid (tiles may repeat), right to left?"""
        avail[etype[e]] -= 1
        saved, col[order[k]] = col[order[k]], cols[e]
        right = set(range(ANY))
        for kk in range(k + block[k], k, -1):
            top = col[keynb[kk][0]][2]
            right = back[kk] = {
                cols[f][3]
                for f in range(E)
                if allowed[order[kk]][f] and avail[etype[f]] and cols[f][0] == top and cols[f][1] in right
            }
            if not right:
                break
        col[order[k]] = saved
        avail[etype[e]] += 1
        return bool(right)

    def go(k: int, brk: int) -> None:
        cell = order[k]
        sa, sb = keyside[k]
        a, b = shows(keynb[k][0], sa), shows(keynb[k][1], sb)
        checked = [(chkside[k][j], shows(chknb[k][j], chkside[k][j])) for j in range(2) if chknb[k][j] >= 0]
        phases: list[list[tuple[int, int]]] = [[], [], [], []]
        for e in range(E):  # the state is the same for every candidate of this node: classify each entry once
            if not allowed[cell][e] or not avail[etype[e]]:
                continue
            miss_a = a != ANY and (cols[e][sa] if sa >= 0 else ANY) != a
            miss_b = b != ANY and (cols[e][sb] if sb >= 0 else ANY) != b
            extra = miss_a + miss_b + sum(1 for side, want in checked if cols[e][side] != want)
            phases[miss_a + 2 * miss_b].append((e, extra))
        for phase in phases:
            for e, extra in phase:
                if box.stop:
                    return
                if brk + extra > min(budget[k], box.cap):
                    continue
                if useback[k] and cols[e][1] not in back[k + 1]:
                    continue
                if block[k] and not next_row(k, e):
                    continue
                if box.max_nodes and box.nodes >= box.max_nodes:
                    box.stop = box.cut = True
                    return
                box.nodes += 1
                place[k] = e
                if k == nk - 1:
                    box.solutions += 1
                    if box.best_breaks is None or brk + extra < box.best_breaks:
                        box.best_breaks, box.best = brk + extra, list(place)
                    if optimise:
                        box.cap = brk + extra - 1
                    if not count and not optimise:
                        box.stop = True
                    continue
                avail[etype[e]] -= 1
                saved = col[cell]
                col[cell] = cols[e]
                go(k + 1, brk + extra)
                col[cell] = saved
                avail[etype[e]] += 1

    if exact and p.fixed_breaks:  # hinted neighbours that mismatch: no placement is perfect (as ``Search``)
        return ReferenceResult(0, 0, None, None, True)
    if nk:
        go(0, 0)
    else:  # every cell hinted: the root is the one placement
        box.solutions, box.best_breaks, box.best = 1, 0, []
    return ReferenceResult(box.solutions, box.nodes, box.best_breaks, box.best, not box.cut)
