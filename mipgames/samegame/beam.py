"""Beam search on the compiled kernel, with a colour-aware evaluation and a per-layer
transposition table.

Why this shape: under the standard score rule ((n - 2)^2 a move, +1000 for a
cleared board) the points come from one or two huge groups late in the game,
so a beam must rank positions by what they can still become, not by points so
far.  Following the SameGame literature (tabu colour of NMCS/NRPA, SP-MCTS),
the most numerous colour is *kept*: it is expected to leave as one big group
at the end, and with ``forbid`` its groups are not clicked while a group of
another colour exists.  The evaluation of a position (``Weights``) is

    points so far
    + sum over colours  rank weight * (n_c - 2)^2     (the kept colour: weight 1)
    - lonely * tiles of colours not kept that have no same-coloured neighbour
    - split  * (connected pieces of a kept colour - 1), weighted

and under ``min-remaining`` it is minus (tiles + lonely * lonely tiles +
split * colours with a single tile).  Richer evaluations were measured and
did worse (benchmarks/samegame/RESULTS.md): static features do not see the
tabu colour's role as the scaffold that the other tiles fall together on
once it goes, which is why the score portfolio runs NRPA instead.

One layer: every child of every kept position is built and evaluated in
compiled code, finished games are recorded at once, and the best ``width``
distinct children survive.  Children that are the same board (the same
clicks in another order) are merged, keeping the most points (the per-layer
transposition table; boards are compared by two-word Zobrist hashes).  The
Python driver only calls one compiled layer at a time, so deadlines are
checked between layers; if one hits, the best position of the layer is
finished greedily, so a game always comes back.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numba import njit

from mipgames.core.kernel_cache import drop_stale, leaf
from mipgames.samegame.kernel import (
    MAX_CODES,
    Scratch,
    Shape,
    board_hash,
    click,
    count_colours,
    fill,
    find_groups,
    remove_hashed,
    rng_state,
    zobrist_table,
)
from mipgames.samegame.parallel import tally
from mipgames.samegame.simulate import CLEAR_BONUS

drop_stale(__file__)  # before numba loads a cache: see core/kernel_cache.py

NOT_FINAL = -(2**62)
"""The terminal value slot of a position that still has a move."""


@dataclass(frozen=True)
class Weights:
    """The evaluation's knobs (see the module docstring); measured in benchmarks/samegame/RESULTS.md.

    Colours are ranked once, at the root, by tile count; ``rank`` gives the
    weight of (n_c - 2)^2 for the colour of each rank (the last entry serves
    the ranks beyond).  A colour whose weight is at least 0.5 is *kept*: it
    is not charged for lonely tiles but ``split`` per extra piece.
    """

    rank: tuple[float, ...] = (1.0, 0.0)
    lonely: float = 20.0
    split: float = 0.0
    forbid: bool = True
    """Never click the most numerous colour while a group of another colour exists."""

    def array(self) -> np.ndarray:
        return np.array([self.lonely, self.split, 1.0 if self.forbid else 0.0], dtype=np.float64)

    def colour_weights(self, order: list[int]) -> np.ndarray:
        """Per colour code, the weight of its (n - 2)^2 given the codes ranked by tile count."""
        out = np.zeros(MAX_CODES + 1, dtype=np.float64)
        for k, code in enumerate(order):
            out[code] = self.rank[min(k, len(self.rank) - 1)]
        return out


LONELY, SPLIT, FORBID = range(3)
"""Positions in ``Weights.array()``."""

MIN_REMAINING_WEIGHTS = Weights(rank=(0.0,), lonely=2.0, split=10.0, forbid=False)
"""Under min-remaining: minus (tiles + lonely * lonely tiles + split * colours with a single tile)."""

SCORE_PRESETS = (
    Weights(rank=(1.0, 0.0), lonely=20.0, split=10.0, forbid=False),
    Weights(rank=(1.0, 0.0), lonely=20.0, split=0.0, forbid=True),
)
"""The evaluations the beam workers take in turn under the score rule (the two best at width 100 on the
standard boards, RESULTS.md)."""
MIN_REMAINING_PRESETS = (MIN_REMAINING_WEIGHTS, Weights(rank=(0.0,), lonely=1.0, split=5.0, forbid=False))


def weights_for(score_mode: bool, worker: int) -> Weights:
    presets = SCORE_PRESETS if score_mode else MIN_REMAINING_PRESETS
    return presets[worker % len(presets)]


# ------------------------------------------------------------------ compiled layer
@leaf()
def evaluate_position(
    board, cols, stride, score, cw, weights, score_mode, label, stack, gsize, gcolour, gcell, glast, counts, pieces
):
    """(evaluation, terminal value or NOT_FINAL when a move is left) of a position with ``score`` points so far.

    ``cw[code]`` weighs each colour's (n - 2)^2; ``weights`` is ``Weights.array()``.
    """
    ng = find_groups(board, cols, stride, label, stack, gsize, gcolour, gcell, glast)
    fill(counts, 0)
    fill(pieces, 0)
    tiles = 0
    lonely = 0
    moves = 0
    for g in range(ng):
        c = gcolour[g]
        s = gsize[g]
        counts[c] += s
        pieces[c] += 1
        tiles += s
        if s >= 2:
            moves += 1
        elif cw[c] < 0.5:
            lonely += 1
    if moves == 0:
        if score_mode:
            return 0.0, score + (CLEAR_BONUS if tiles == 0 else 0)
        return 0.0, np.int64(-tiles)
    singles = 0
    pot = 0.0
    split = 0.0
    for c in range(1, counts.shape[0]):
        n = counts[c]
        if n == 1:
            singles += 1
        elif n > 2:
            pot += cw[c] * ((n - 2) * (n - 2))
        if cw[c] >= 0.5 and pieces[c] > 1:
            split += cw[c] * (pieces[c] - 1)
    if score_mode:
        return score + pot - weights[LONELY] * lonely - weights[SPLIT] * split, NOT_FINAL
    return -(tiles + weights[LONELY] * lonely + weights[SPLIT] * singles), NOT_FINAL


@leaf()
def expand(
    boards,
    scores,
    start,
    n,
    cols,
    stride,
    zobrist,
    tabu,
    cw,
    weights,
    score_mode,
    label,
    stack,
    gsize,
    gcolour,
    gcell,
    glast,
    clabel,
    cstack,
    cgsize,
    cgcolour,
    cgcell,
    cglast,
    counts,
    pieces,
    child,
    c_eval,
    c_parent,
    c_cell,
    c_hash,
    c_score,
    ncand,
    best,
):
    """Children of positions ``start..n-1`` into the candidate buffer from ``ncand`` on.

    Stops early when the buffer might overflow; returns (candidates, next
    position to expand, children built).  Finished games update ``best``:
    [value, parent, cell] (parent -1 when none yet).
    """
    cap = c_eval.shape[0]
    forbid = weights[FORBID] > 0.5
    built = 0
    p = start
    while p < n:
        board = boards[p]
        ng = find_groups(board, cols, stride, label, stack, gsize, gcolour, gcell, glast)
        if ncand + ng > cap:
            break
        ph, ph2 = board_hash(board, cols, stride, zobrist)
        skip_tabu = False
        if forbid and tabu > 0:
            for g in range(ng):
                if gsize[g] >= 2 and gcolour[g] != tabu:
                    skip_tabu = True
                    break
        for g in range(ng):
            s = gsize[g]
            if s < 2 or (skip_tabu and gcolour[g] == tabu):
                continue
            h, h2 = remove_hashed(board, child, cols, stride, label, g, gcell[g], glast[g], zobrist, ph, ph2)
            built += 1
            cscore = scores[p] + ((s - 2) * (s - 2) if score_mode else 0)
            value, final = evaluate_position(
                child,
                cols,
                stride,
                cscore,
                cw,
                weights,
                score_mode,
                clabel,
                cstack,
                cgsize,
                cgcolour,
                cgcell,
                cglast,
                counts,
                pieces,
            )
            if final != NOT_FINAL:
                if best[1] < 0 or final > best[0]:
                    best[0] = final
                    best[1] = p
                    best[2] = gcell[g]
                continue
            c_eval[ncand] = value
            c_parent[ncand] = p
            c_cell[ncand] = gcell[g]
            c_hash[ncand, 0] = h
            c_hash[ncand, 1] = h2
            c_score[ncand] = cscore
            ncand += 1
        p += 1
    return ncand, p, built


@njit(cache=True)
def select(c_eval, c_hash, ncand, keep, table, order):
    """Indices of the best ``keep`` candidates with distinct hashes, best first, into ``order``; their number.

    Among candidates with one hash the first in evaluation order wins: the
    same board evaluates the same apart from its points, so that is the one
    with the most points.  ``table`` is an open-addressing hash set of
    two-word keys (rows a power of two >= 2 * keep), cleared here.  Fewer
    than ``keep`` are taken only when fewer distinct positions exist: the
    best ``2 * keep`` by evaluation are tried first, and when duplicates
    leave them short of ``keep`` every candidate is (the beam called a layer
    exhaustive when it kept fewer than its width, while distinct positions
    past the first ``2 * keep`` had been dropped, and claimed wrong optima).
    """
    if ncand == 0:
        return 0
    neg = -c_eval[:ncand]
    if ncand > 2 * keep:
        threshold = np.partition(neg.copy(), 2 * keep)[2 * keep]
        m = 0
        for i in range(ncand):
            if neg[i] <= threshold:
                order[m] = i
                m += 1
        cand = order[:m].copy()
        taken = _distinct(cand[np.argsort(neg[cand], kind="mergesort")], c_hash, keep, table, order)
        if taken == keep or m == ncand:
            return taken
    return _distinct(np.argsort(neg, kind="mergesort"), c_hash, keep, table, order)


@leaf()
def _distinct(idx, c_hash, keep, table, order):
    """The first ``keep`` of the candidates ``idx`` with distinct hashes into ``order``; their number."""
    table[:] = 0
    mask = table.shape[0] - 1
    taken = 0
    for i in idx:
        key = c_hash[i, 0] | np.int64(1)
        key2 = c_hash[i, 1]
        slot = key & mask
        dup = False
        while table[slot, 0] != 0:
            if table[slot, 0] == key and table[slot, 1] == key2:
                dup = True
                break
            slot = (slot + 1) & mask
        if dup:
            continue
        table[slot, 0] = key
        table[slot, 1] = key2
        order[taken] = i
        taken += 1
        if taken == keep:
            break
    return taken


@njit(cache=True)
def compact(c_eval, c_parent, c_cell, c_hash, c_score, order, taken):
    """Move the candidates ``order[:taken]`` to the front of the buffer (in that order)."""
    e = c_eval[order[:taken]].copy()
    p = c_parent[order[:taken]].copy()
    c = c_cell[order[:taken]].copy()
    h = c_hash[order[:taken]].copy()
    s = c_score[order[:taken]].copy()
    c_eval[:taken] = e
    c_parent[:taken] = p
    c_cell[:taken] = c
    c_hash[:taken] = h
    c_score[:taken] = s


@njit(cache=True)
def build_layer(
    boards,
    new_boards,
    new_scores,
    order,
    taken,
    c_parent,
    c_cell,
    c_score,
    cols,
    stride,
    label,
    stack,
    par_row,
    cell_row,
):
    """Play the selected candidates into the next layer; records each one's parent and click."""
    for k in range(taken):
        i = order[k]
        p = c_parent[i]
        click(boards[p], new_boards[k], cols, stride, c_cell[i], label, stack)
        new_scores[k] = c_score[i]
        par_row[k] = p
        cell_row[k] = c_cell[i]


# ------------------------------------------------------------------ driver
@dataclass
class BeamOutcome:
    value: int
    """Points of the best finished game (score rule, clear bonus included) or minus the tiles it leaves."""
    cells: list[int]
    """The clicks as kernel cell indices (``Shape.cell`` turns them into (x, y))."""
    width: int
    nodes: int
    complete: bool
    """Every layer was searched (not cut by the deadline or the node budget)."""
    exhaustive: bool = False
    """No layer was ever cut to the width and no move forbidden: the value is the optimum."""


def colour_order(arr: np.ndarray, shape: Shape) -> list[int]:
    """Colour codes on the board, most numerous first (ties to the lower code)."""
    counts = np.zeros(MAX_CODES + 1, dtype=np.int32)
    count_colours(arr, shape.cols, shape.stride, counts)
    return sorted((c for c in range(1, MAX_CODES + 1) if counts[c]), key=lambda c: (-counts[c], c))


_tail_loaded = False
"""Whether this process has run ``Beam._playout_tail`` (its kernel is loaded)."""


class Beam:
    """Reusable buffers for beams on one board shape (allocating per beam costs more than a narrow beam)."""

    def __init__(self, shape: Shape, zobrist: np.ndarray | None = None):
        self.shape = shape
        self.zobrist = zobrist_table(shape) if zobrist is None else zobrist
        self.scratch = Scratch.of(shape)
        self.child_scratch = Scratch.of(shape)
        self.child = np.zeros(shape.size, dtype=np.int8)
        self.width = 0
        self.depth = shape.rows * shape.cols // 2 + 2

    def _allocate(self, width: int) -> None:
        if width <= self.width:
            return
        n = self.shape.size
        self.width = width
        self.boards = np.zeros((width, n), dtype=np.int8)
        self.next_boards = np.zeros((width, n), dtype=np.int8)
        self.scores = np.zeros(width, dtype=np.int64)
        self.next_scores = np.zeros(width, dtype=np.int64)
        cap = max(8 * width, 4 * n)
        self.c_eval = np.zeros(cap, dtype=np.float64)
        self.c_parent = np.zeros(cap, dtype=np.int32)
        self.c_cell = np.zeros(cap, dtype=np.int32)
        self.c_hash = np.zeros((cap, 2), dtype=np.int64)
        self.c_score = np.zeros(cap, dtype=np.int64)
        self.order = np.zeros(cap, dtype=np.int64)
        self.table = np.zeros((1 << max(4, int(4 * width - 1).bit_length()), 2), dtype=np.int64)
        self.par = np.zeros((self.depth, width), dtype=np.int32)
        self.cells = np.zeros((self.depth, width), dtype=np.int32)

    def _path(self, depth: int, index: int) -> list[int]:
        """Clicks from the root to node ``index`` of layer ``depth``."""
        out = []
        for d in range(depth, 0, -1):
            out.append(int(self.cells[d, index]))
            index = int(self.par[d, index])
        return out[::-1]

    def _load_tail(self, root: np.ndarray, score_mode: bool, tabu: int, score: int) -> None:
        """Load the playout that finishes a game the deadline cuts, once a process, before the deadline: numba
        loads a kernel at its first call, which took seconds on a loaded machine."""
        global _tail_loaded
        self._playout_tail(root.copy(), score_mode, tabu, score)
        _tail_loaded = True

    def _playout_tail(self, board: np.ndarray, score_mode: bool, tabu: int, score: int) -> tuple[int, list[int]]:
        """The rest of a game the deadline cut, as one tabu-colour random playout (milliseconds even on a 64 x 64
        board, where finishing it with a width-1 beam ran seconds past the limit and the answer was lost)."""
        from mipgames.samegame.playout import new_book, playout

        shape, sc = self.shape, self.scratch
        out = np.zeros(shape.rows * shape.cols // 2 + 2, dtype=np.int32)
        value, length = playout(
            board,
            np.zeros(board.shape[0], dtype=np.int8),
            shape.cols,
            shape.stride,
            score,
            tabu,
            score_mode,
            rng_state(0),
            *sc.groups(),
            np.zeros(shape.size, dtype=np.int32),
            out,
            0,
            new_book(sc.gsize.shape[0]),
        )
        return int(value), [int(c) for c in out[:length]]

    def run(
        self,
        root: np.ndarray,
        width: int,
        weights: Weights,
        score_mode: bool,
        order: list[int] | None = None,
        start_score: int = 0,
        deadline: float | None = None,
        max_nodes: int | None = None,
    ) -> BeamOutcome:
        """One beam of ``width`` from ``root`` (a kernel array).

        ``order`` ranks the colour codes for the weights (default: by the
        root's tile counts; a beam that continues a game passes the order of
        the game's first board).  Stops at ``deadline`` or after about
        ``max_nodes`` children, then finishes the best position greedily.
        """
        shape = self.shape
        cols, stride = shape.cols, shape.stride
        self._allocate(width)
        if order is None:
            order = colour_order(root, shape)
        cw = weights.colour_weights(order) if score_mode else np.zeros(MAX_CODES + 1)
        wts = weights.array()
        tabu = order[0] if (order and score_mode) else 0
        sc, cs = self.scratch, self.child_scratch
        if deadline is not None and not _tail_loaded:
            self._load_tail(root, score_mode, tabu, start_score)
        self.boards[0, :] = root
        self.scores[0] = start_score
        _, final = evaluate_position(
            root,
            cols,
            stride,
            start_score,
            cw,
            wts,
            score_mode,
            sc.label,
            sc.stack,
            sc.gsize,
            sc.gcolour,
            sc.gcell,
            sc.glast,
            sc.counts,
            sc.pieces,
        )
        if final != NOT_FINAL:
            return BeamOutcome(int(final), [], width, 0, True, True)
        best = np.array([0, -1, 0], dtype=np.int64)
        best_path: list[int] = []
        best_value: int | None = None
        n, depth, nodes = 1, 0, 0
        complete = True
        exhaustive = not (weights.forbid and tabu)
        while n:
            if (deadline is not None and time.monotonic() > deadline) or (max_nodes is not None and nodes >= max_nodes):
                complete = False
                break
            ncand, start = 0, 0
            while True:
                ncand, start, built = expand(
                    self.boards,
                    self.scores,
                    start,
                    n,
                    cols,
                    stride,
                    self.zobrist,
                    tabu,
                    cw,
                    wts,
                    score_mode,
                    sc.label,
                    sc.stack,
                    sc.gsize,
                    sc.gcolour,
                    sc.gcell,
                    sc.glast,
                    cs.label,
                    cs.stack,
                    cs.gsize,
                    cs.gcolour,
                    cs.gcell,
                    cs.glast,
                    cs.counts,
                    cs.pieces,
                    self.child,
                    self.c_eval,
                    self.c_parent,
                    self.c_cell,
                    self.c_hash,
                    self.c_score,
                    ncand,
                    best,
                )
                nodes += built
                if start >= n:
                    break
                taken = select(self.c_eval, self.c_hash, ncand, 2 * width, self.table, self.order)
                compact(self.c_eval, self.c_parent, self.c_cell, self.c_hash, self.c_score, self.order, taken)
                ncand = taken
                exhaustive = False
            if best[1] >= 0 and (best_value is None or best[0] > best_value):
                best_value = int(best[0])
                best_path = self._path(depth, int(best[1])) + [int(best[2])]
            taken = select(self.c_eval, self.c_hash, ncand, width, self.table, self.order)
            if taken == width and ncand > width:
                exhaustive = False  # conservative: the others may all have been duplicates
            depth += 1
            build_layer(
                self.boards,
                self.next_boards,
                self.next_scores,
                self.order,
                taken,
                self.c_parent,
                self.c_cell,
                self.c_score,
                cols,
                stride,
                sc.label,
                sc.stack,
                self.par[depth],
                self.cells[depth],
            )
            self.boards, self.next_boards = self.next_boards, self.boards
            self.scores, self.next_scores = self.next_scores, self.scores
            n = taken
        if not complete and n:
            cur, start = self.boards[0].copy(), int(self.scores[0])
            if deadline is not None and time.monotonic() > deadline:
                value, cells = self._playout_tail(cur, score_mode, tabu, start)
            else:  # cut by the node budget: the best position finished greedily, still within the deadline
                tail = Beam(shape, self.zobrist).run(cur, 1, weights, score_mode, order, start, deadline=deadline)
                value, cells = tail.value, tail.cells
            if best_value is None or value > best_value:
                best_value, best_path = value, self._path(depth, 0) + cells
        assert best_value is not None
        return BeamOutcome(best_value, best_path, width, nodes, complete, complete and exhaustive)


def widening(
    beam: Beam,
    root: np.ndarray,
    score_mode: bool,
    weights: Weights,
    send: Callable[[int, list[int], str], None],
    deadline: float | None,
    max_nodes: int | None,
    width: int = 0,
    start_width: int = 1,
    max_width: int = 200_000,
    target: int | None = None,
) -> tuple[BeamOutcome | None, int]:
    """Beams of growing width until the deadline or the node budget; each better game goes to ``send``.

    ``width`` > 0 runs that one beam.  Otherwise widths double from 1 (a
    game within a second even on a 64 x 64 board, where a beam of width 4
    did not end within a 10 s limit) while a
    doubling fits what is left, and the last beam is sized to about 80 % of
    the time left (a beam's cost grows about linearly with its width).
    Returns the best outcome and the children built; stops early when a game
    reaches ``target`` (a proved bound).
    """
    best: BeamOutcome | None = None
    nodes = 0
    w = width if width > 0 else start_width
    while True:
        began = time.monotonic()
        left_nodes = None if max_nodes is None else max_nodes - nodes
        out = beam.run(root, w, weights, score_mode, deadline=deadline, max_nodes=left_nodes)
        took = time.monotonic() - began
        nodes += out.nodes
        tally(send, nodes, "nodes")
        proof = out.exhaustive and not best.exhaustive and out.value >= best.value if best is not None else False
        if best is None or out.value > best.value or proof:  # an exhaustive beam below a game found proves nothing
            best = out
            send(out.value, out.cells, f"beam width {w}" + ("" if out.complete else ", cut at the limit"))
        if width > 0 or out.exhaustive or not out.complete or w >= max_width:
            return best, nodes
        if target is not None and best.value >= target:
            return best, nodes
        if max_nodes is not None and nodes >= max_nodes:
            return best, nodes
        nxt = 2 * w
        if deadline is not None:
            left = deadline - time.monotonic()
            if left < 2.2 * took:
                last = int(w * left / max(took, 1e-3) * 0.8)
                if last <= w:
                    return best, nodes
                nxt = last
        if max_nodes is not None:
            per_width = out.nodes / w
            fits = int((max_nodes - nodes) / max(per_width, 1e-9))
            if fits <= w:
                return best, nodes
            nxt = min(nxt, fits)
        w = min(nxt, max_width)
