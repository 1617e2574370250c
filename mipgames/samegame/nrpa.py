"""Nested rollout policy adaptation (Rosin 2011) on the compiled kernel, with a selective policy.

A policy is a log-weight per *code*; a move has two codes (``FEATURES``), and a
playout draws each move with probability proportional to the exp of the sum of
their log-weights.  The arrays hold exp(log-weight) itself (``adapt``
multiplies it), so the inner loop draws with no ``exp``.
Level 1 runs ``iterations`` playouts, each time moving the policy towards the
best sequence so far (gradient step ``alpha`` on its log-likelihood); level n
does the same with level n-1 searches that start from its current policy.

SameGame refinements from the literature (Cazenave 2016, "NRPA with
selective policies"): the policy only chooses among the moves the tabu-colour
rule allows (the colour that was most numerous at the start is not clicked
while another colour's group exists).  A move's first code names the group
itself (``move_code``: its colour, size, first and last cell), so the policy
learns *which group* to click, and a group that grew by merging is a new
move; its second names only where the group starts and its colour
(``anchor_code``), so what is learnt of a group carries over to the same
group grown or shrunk in other games.
Which colour is tabu is raced rather than fixed (``tabu_candidates``,
``nrpa_search``): the most numerous colour is the wrong one to keep for last
on some boards.

The legal move codes met along each playout are kept with it, so adapting
the policy to the best sequence needs no replay of the board.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
from numba import njit

from mipgames.core.kernel_cache import drop_stale, leaf
from mipgames.samegame.allowance import Allowance
from mipgames.samegame.beam import colour_order
from mipgames.samegame.kernel import Scratch, Shape, copy_board, rand_unit, rng_state
from mipgames.samegame.parallel import tally
from mipgames.samegame.playout import all_groups, final_value, new_book, offer_moves, take_group

drop_stale(__file__)  # before numba loads a cache: see core/kernel_cache.py

ALPHA = 0.5
"""Learning rate: 0.5 beat Rosin's 1.0 by 12 % on the first 8 standard boards at 100k playouts (RESULTS.md)."""

ITERATIONS = 70
"""Iterations of every level: 70 beat Rosin's 100 by 0.4-2.6 % at fixed budgets, 1.9 % at 10 s (RESULTS.md)."""


CODE_BITS = 16
"""Each feature's codes hash to 2^16 values: a random game on a standard board offers 1,250-1,650 groups in all,
so few of the groups a policy learns on share a code."""

FEATURES = 2
"""Codes a move has (``move_code``, then ``anchor_code``): they sit side by side in the code lists, and the
second feature's codes follow the first's in the policy table.  With the anchor as well as the group, NRPA
scored 1.3 % more on the standard boards at a fixed budget (benchmarks/samegame/RESULTS.md)."""


def code_count() -> int:
    """Number of codes of all features (the length of a policy table)."""
    return FEATURES << CODE_BITS


@njit(cache=True)
def move_code(cell, last, size, colour):
    """The policy's code of clicking a group: (first cell, last cell, size, colour) hashed to ``CODE_BITS`` bits.

    Why the whole group and not (first cell, colour), the code used before:
    a group keeps its first cell while it grows by merging, and clicking it
    small or big are different moves under the score rule.  The finer code
    scored 1-3 % more on the standard boards at a fixed playout budget
    (benchmarks/samegame/RESULTS.md).  Fibonacci hashing of the packed key
    (cells and sizes below 2^13 on boards up to 64 x 64, colours below 2^6: no
    two groups pack alike).
    """
    key = np.uint64(cell) | (np.uint64(last) << np.uint64(13)) | (np.uint64(size) << np.uint64(26))
    key |= np.uint64(colour) << np.uint64(39)
    return np.int32((key * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - CODE_BITS))


@njit(cache=True)
def anchor_code(cell, colour):
    """The policy's second code of clicking a group: its first cell and colour, hashed into the table's second
    part (``move_code`` keeps the first).

    Why a second, coarser code: the group a good game clicks is often a
    tile more or less in another game (a merge not made yet, a neighbour
    already gone), which ``move_code`` calls a new move.  The anchor's
    weight is learnt from all of them, the group's own weight tells them
    apart; the sum of the two log-weights decides.  (This was the only code
    before ``move_code``; alone it scored 1-3 % less.)
    """
    key = np.uint64(cell) | (np.uint64(colour) << np.uint64(13)) | (np.uint64(1) << np.uint64(50))
    return np.int32((key * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - CODE_BITS)) + np.int32(1 << CODE_BITS)


@leaf()
def policy_playout(
    board,
    work,
    cols,
    stride,
    score,
    tabu,
    score_mode,
    weights,
    rng,
    label,
    stack,
    gsize,
    gcolour,
    gcell,
    glast,
    moves,
    seq,
    chosen,
    codes,
    offsets,
    book,
):
    """One game drawn from the policy (``weights[code]`` = exp of the code's log-weight; a move's weight is the
    product of its ``FEATURES`` codes' weights); returns (value, moves played).

    ``seq`` gets the click cells, ``chosen`` the codes played (``FEATURES`` a move), ``codes`` those of the
    legal moves of every step (step t's moves are ``offsets[t]`` to ``offsets[t + 1]``, move m's codes
    ``codes[FEATURES * m:FEATURES * (m + 1)]``); ``book`` is the playout's group book (``playout.new_book``).
    """
    copy_board(board, work)
    ng, tiles, ncols = all_groups(work, stride, label, stack, gsize, gcolour, gcell, glast, book, tabu)
    mark = ng
    free = 0
    played = 0
    used = 0
    offsets[0] = 0
    while True:
        n, ng, mark, free = offer_moves(
            work, stride, tabu, ng, mark, free, label, stack, gsize, gcolour, gcell, glast, book, moves
        )
        if n == 0:
            return final_value(tiles, score, score_mode), played
        total = 0.0
        for k in range(n):
            g = moves[k]
            at = FEATURES * (used + k)
            codes[at] = move_code(gcell[g], glast[g], gsize[g], gcolour[g])
            codes[at + 1] = anchor_code(gcell[g], gcolour[g])
            total += weights[codes[at]] * weights[codes[at + 1]]
        r = rand_unit(rng) * total
        pick = n - 1
        acc = 0.0
        for k in range(n):
            at = FEATURES * (used + k)
            acc += weights[codes[at]] * weights[codes[at + 1]]
            if r < acc:
                pick = k
                break
        g = moves[pick]
        s = gsize[g]
        if score_mode:
            score += (s - 2) * (s - 2)
        tiles -= s
        seq[played] = gcell[g]
        for f in range(FEATURES):
            chosen[FEATURES * played + f] = codes[FEATURES * (used + pick) + f]
        used += n
        played += 1
        offsets[played] = used
        ng, mark, ncols, free = take_group(
            work, cols, stride, g, ng, mark, ncols, free, label, stack, gsize, gcolour, gcell, glast, book, tabu
        )


RESCALE_ABOVE = 1e200
"""A weight above this scales the whole policy down (same probabilities), so no weight overflows."""


@njit(cache=True)
def adapt(weights, chosen, codes, offsets, length, alpha):
    """Move the policy one gradient step (``alpha`` on the log-likelihood) towards the game whose steps are
    given, in place.

    In log-weights this is Rosin's update, for every code of a move (a
    move's log-weight is the sum of its codes', so each code has the move's
    gradient): the chosen move's codes gain ``alpha``, every legal move's
    codes lose ``alpha`` times its probability under the old policy.  The
    policy is kept as exp(log-weight), so a playout draws with no ``exp``;
    every probability is taken before any weight changes.
    """
    m = offsets[length]
    factor = np.empty(m, dtype=np.float64)
    for t in range(length):
        a = offsets[t]
        b = offsets[t + 1]
        total = 0.0
        for k in range(a, b):
            total += weights[codes[FEATURES * k]] * weights[codes[FEATURES * k + 1]]
        for k in range(a, b):
            w = weights[codes[FEATURES * k]] * weights[codes[FEATURES * k + 1]]
            factor[k] = np.exp(-alpha * w / total) if total > 0.0 else 1.0
    gain = np.exp(alpha)
    for k in range(m):
        for f in range(FEATURES):
            weights[codes[FEATURES * k + f]] *= factor[k]
    top = 0.0
    for t in range(FEATURES * length):
        weights[chosen[t]] *= gain
        if weights[chosen[t]] > top:
            top = weights[chosen[t]]
    if top > RESCALE_ABOVE:
        weights *= 1.0 / RESCALE_ABOVE


@njit(cache=True)
def nrpa(
    level,
    board,
    cols,
    stride,
    tabu,
    score_mode,
    pol,
    iterations,
    alpha,
    rng,
    label,
    stack,
    gsize,
    gcolour,
    gcell,
    glast,
    moves,
    best_seq,
    budget,
):
    """Level ``level`` >= 1 NRPA from ``board`` starting with policy ``pol`` (weights, left untouched).

    Writes the best game's clicks into ``best_seq``; returns (value, length).
    ``budget[0]`` counts playouts down; at 0 the search returns its best so far.
    """
    depth_max = best_seq.shape[0]
    chosen = np.zeros(FEATURES * depth_max, dtype=np.int32)
    codes = np.zeros(FEATURES * depth_max * (board.shape[0] // 2 + 1), dtype=np.int32)
    offsets = np.zeros(depth_max + 1, dtype=np.int32)
    return nrpa_level(
        level,
        board,
        cols,
        stride,
        tabu,
        score_mode,
        pol,
        iterations,
        alpha,
        rng,
        label,
        stack,
        gsize,
        gcolour,
        gcell,
        glast,
        moves,
        best_seq,
        chosen,
        codes,
        offsets,
        budget,
    )


@njit(cache=True)
def nrpa_level(
    level,
    board,
    cols,
    stride,
    tabu,
    score_mode,
    pol,
    iterations,
    alpha,
    rng,
    label,
    stack,
    gsize,
    gcolour,
    gcell,
    glast,
    moves,
    seq,
    chosen,
    codes,
    offsets,
    budget,
):
    """``nrpa`` that also hands back the best game's chosen and legal codes (for the level above's adapt)."""
    size = board.shape[0]
    depth_max = seq.shape[0]
    work = np.zeros(size, dtype=np.int8)
    cur_seq = np.zeros(depth_max, dtype=np.int32)
    cur_chosen = np.zeros(chosen.shape[0], dtype=np.int32)
    cur_codes = np.zeros(codes.shape[0], dtype=np.int32)
    cur_offsets = np.zeros(depth_max + 1, dtype=np.int32)
    book = new_book(gsize.shape[0])
    best = np.int64(-(2**62))
    best_len = 0
    pol = pol.copy()  # this level's own policy, adapted in place
    for _ in range(iterations):
        if level == 1:
            budget[0] -= 1
            value, length = policy_playout(
                board,
                work,
                cols,
                stride,
                0,
                tabu,
                score_mode,
                pol,
                rng,
                label,
                stack,
                gsize,
                gcolour,
                gcell,
                glast,
                moves,
                cur_seq,
                cur_chosen,
                cur_codes,
                cur_offsets,
                book,
            )
        else:
            value, length = nrpa_level(
                level - 1,
                board,
                cols,
                stride,
                tabu,
                score_mode,
                pol,
                iterations,
                alpha,
                rng,
                label,
                stack,
                gsize,
                gcolour,
                gcell,
                glast,
                moves,
                cur_seq,
                cur_chosen,
                cur_codes,
                cur_offsets,
                budget,
            )
        if value >= best:
            best = value
            best_len = length
            seq[:length] = cur_seq[:length]
            chosen[: FEATURES * length] = cur_chosen[: FEATURES * length]
            offsets[: length + 1] = cur_offsets[: length + 1]
            codes[: FEATURES * cur_offsets[length]] = cur_codes[: FEATURES * cur_offsets[length]]
        if budget[0] <= 0:
            break
        adapt(pol, chosen, codes, offsets, best_len, alpha)
    return best, best_len


RACE_COLOURS = 6
"""At most this many tabu colours (the most numerous) take part in the race of ``nrpa_search``."""
RACE_SHARE = 0.25
"""The race may take at most this share of a search's budget: with less, fewer colours race (one: no race)."""


def tabu_candidates(root: np.ndarray, shape: Shape, score_mode: bool, worker: int = 0, workers: int = 1) -> list[int]:
    """The tabu colours (colour codes) worker ``worker`` of ``workers`` races, in race order.

    Only the score rule has a tabu colour (min-remaining gets ``[0]``: none).
    The literature keeps the most numerous colour for last, and on most
    boards that is right; on standard boards 7 and 10 it is not (no game
    keeping it for last clears them).  So worker 0 keeps the literature's
    choice alone, and the other workers split the next ``RACE_COLOURS`` - 1
    colours (every (n-1)-th) and race them, with the most numerous colour
    last in every race: where all the others lose (boards 17 and 20, one
    colour 65 tiles against 40), that worker goes on with it too, as a
    second seed on the right colour.  A lone worker races them all.
    """
    order = colour_order(root, shape)[:RACE_COLOURS] if score_mode else []
    if not order:
        return [0]
    if workers <= 1:
        return order
    if worker % workers == 0 or len(order) == 1:
        return order[:1]
    rest = order[1:]
    return (rest[(worker % workers - 1) % len(rest) :: workers - 1] or rest[:1]) + order[:1]


class _TopLevel:
    """The top level of one NRPA (its policy and best game) for one tabu colour, stepped from Python."""

    def __init__(self, search: _Search, tabu: int):
        n = search.ncodes
        self.search, self.tabu = search, tabu
        self.pol = np.ones(code_count(), dtype=np.float64)  # weights: exp(0) for every code
        self.best: int | None = None
        self.length = 0
        self.iterations = 0
        self.seq = np.zeros(search.depth_max, dtype=np.int32)
        self.chosen = np.zeros(FEATURES * search.depth_max, dtype=np.int32)
        self.codes = np.zeros(n, dtype=np.int32)
        self.offsets = np.zeros(search.depth_max + 1, dtype=np.int32)

    def step(self) -> None:
        """One iteration: a level-(n-1) search (a playout at level 1) from the policy, then adapt to the best."""
        s = self.search
        groups = s.scratch.groups()
        budget = s.acct.grant()
        # argument lists: mypy refuses a compiled call with a starred tuple among positional arguments
        if s.level == 1:
            budget[0] -= 1
            args = [
                s.root,
                s.work,
                s.shape.cols,
                s.shape.stride,
                0,
                self.tabu,
                s.score_mode,
                self.pol,
                s.rng,
                *groups,
                s.moves,
                s.seq,
                s.chosen,
                s.codes,
                s.offsets,
                s.book,
            ]
            value, length = policy_playout(*args)
        else:
            args = [
                s.level - 1,
                s.root,
                s.shape.cols,
                s.shape.stride,
                self.tabu,
                s.score_mode,
                self.pol,
                s.iterations,
                s.alpha,
                s.rng,
                *groups,
                s.moves,
                s.seq,
                s.chosen,
                s.codes,
                s.offsets,
                budget,
            ]
            value, length = nrpa_level(*args)
        s.acct.settle(budget)
        tally(s.send, s.acct.spent, "playouts")
        self.iterations += 1
        if self.best is None or value >= self.best:
            self.best, self.length = int(value), int(length)
            self.seq[:length] = s.seq[:length]
            self.chosen[: FEATURES * length] = s.chosen[: FEATURES * length]
            self.offsets[: length + 1] = s.offsets[: length + 1]
            self.codes[: FEATURES * s.offsets[length]] = s.codes[: FEATURES * s.offsets[length]]
            if s.acct.improves(self.best):
                s.send(self.best, [int(c) for c in self.seq[:length]], s.note)
        if not s.acct.over():
            adapt(self.pol, self.chosen, self.codes, self.offsets, self.length, s.alpha)


class _Search:
    """Buffers and settings shared by the top levels of one ``nrpa_search``."""

    def __init__(self, root, shape, score_mode, level, seed, send, acct, iterations, alpha):
        self.root, self.shape, self.score_mode, self.level = root, shape, score_mode, level
        self.send, self.acct, self.iterations, self.alpha = send, acct, iterations, alpha
        self.rng = rng_state(seed)
        self.scratch = Scratch.of(shape)
        self.depth_max = shape.rows * shape.cols // 2 + 2
        self.ncodes = FEATURES * self.depth_max * (shape.size // 2 + 1)
        self.work = np.zeros(shape.size, dtype=np.int8)
        self.moves = np.zeros(shape.size, dtype=np.int32)
        self.seq = np.zeros(self.depth_max, dtype=np.int32)
        self.chosen = np.zeros(FEATURES * self.depth_max, dtype=np.int32)
        self.codes = np.zeros(self.ncodes, dtype=np.int32)
        self.offsets = np.zeros(self.depth_max + 1, dtype=np.int32)
        self.book = new_book(shape.size)
        self.note = f"NRPA level {level}"


def nrpa_search(
    root: np.ndarray,
    shape: Shape,
    score_mode: bool,
    level: int,
    seed: int,
    send: Callable[[int, list[int], str], None],
    deadline: float | None = None,
    max_playouts: int | None = None,
    iterations: int = ITERATIONS,
    alpha: float = ALPHA,
    restarts: bool = True,
    target: int | None = None,
    tabus: list[int] | None = None,
) -> int:
    """NRPA of ``level`` >= 1 from ``root``, its top level driven here so that the deadline is checked
    between compiled level-(n-1) searches; restarted from a blank policy while time and budget last.

    ``tabus`` are the candidate tabu colour codes (default: the most numerous
    colour under the score rule, none otherwise).  With several, each start
    races them: every candidate's top level runs its first iteration (one
    level-(n-1) search), and the best game's colour goes on alone for the
    remaining iterations.  The race takes at most ``RACE_SHARE`` of the
    budget (or of the time, at the measured playout rate), so a short
    search races fewer colours; each restart goes on with the candidates the
    previous one left out.  Sends every better game; returns the playouts
    spent.  Stops early when a game reaches ``target`` (a proved bound:
    nothing better exists).
    """
    if tabus is None:
        tabus = tabu_candidates(root, shape, score_mode)[:1]
    acct = Allowance(deadline, max_playouts, target, shape.rows * shape.cols)
    search = _Search(root, shape, score_mode, level, seed, send, acct, iterations, alpha)
    began = time.monotonic()
    first = 0
    while True:
        before = acct.spent
        runs = [_TopLevel(search, tabus[first % len(tabus)])]
        runs[0].step()
        step = max(1, acct.spent - before)
        while len(runs) < len(tabus) and not acct.over() and _room_for(len(runs) + 1, step, acct, began):
            runs.append(_TopLevel(search, tabus[(first + len(runs)) % len(tabus)]))
            runs[-1].step()
        first += len(runs)
        winner = runs[0]
        for run in runs[1:]:
            if run.best is not None and (winner.best is None or run.best > winner.best):
                winner = run
        while winner.iterations < iterations and not acct.over():
            winner.step()
        if not restarts or acct.over() or acct.unbounded:
            return acct.spent


def _room_for(entrants: int, step: int, acct: Allowance, began: float) -> bool:
    """Whether a race of ``entrants`` first iterations of ``step`` playouts each fits in ``RACE_SHARE``
    of what the whole search may spend (its budget, or its time at the measured playout rate)."""
    if acct.unbounded:
        return True
    if acct.max_playouts is not None:  # a budget alone decides, so that the race is the same on any machine
        return entrants * step <= RACE_SHARE * acct.max_playouts
    total = acct.rate.per_second() * (acct.deadline - began) if acct.deadline is not None else float("inf")
    return entrants * step <= RACE_SHARE * total
