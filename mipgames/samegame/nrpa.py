"""Nested rollout policy adaptation (Rosin 2011) on the compiled kernel, with a selective policy.

A policy is a weight per move *code*; a playout draws each move with
probability proportional to exp(weight).  Level 1 runs ``iterations``
playouts, each time moving the policy towards the best sequence so far
(gradient step ``alpha`` on its log-likelihood); level n does the same with
level n-1 searches that start from its current policy.

SameGame refinements from the literature (Cazenave 2016, "NRPA with
selective policies"): the policy only chooses among the moves the tabu-colour
rule allows (the colour that was most numerous at the start is not clicked
while another colour's group exists), and a move's code names its colour and
the cell of the group's lowest-leftmost tile, so the policy learns *which
group of which colour* to click when.

The legal move codes met along each playout are kept with it, so adapting
the policy to the best sequence needs no replay of the board.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
from numba import njit

from mipgames.samegame.beam import colour_order
from mipgames.samegame.kernel import (
    MAX_CODES,
    Scratch,
    Shape,
    copy_board,
    rand_unit,
    remove_inplace,
    rng_state,
)
from mipgames.samegame.nmcs import Rate, budget_for
from mipgames.samegame.playout import legal_groups
from mipgames.samegame.simulate import CLEAR_BONUS

ALPHA = 0.5
"""Learning rate: 0.5 beat Rosin's 1.0 by 12 % on the first 8 standard boards at 100k playouts (RESULTS.md)."""


def code_count(size: int) -> int:
    """Number of move codes for boards of ``size`` padded cells: (cell, colour code) pairs."""
    return size * (MAX_CODES + 1)


@njit(cache=True)
def policy_playout(
    board,
    work,
    cols,
    stride,
    score,
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
    seq,
    chosen,
    codes,
    offsets,
    probs,
):
    """One game drawn from the policy ``pol``; returns (value, moves played).

    ``seq`` gets the click cells, ``chosen`` the codes played, ``codes``
    the legal codes of every step (step t's are ``codes[offsets[t]:offsets[t + 1]]``).
    """
    copy_board(board, work)
    ncodes1 = MAX_CODES + 1
    played = 0
    used = 0
    offsets[0] = 0
    while True:
        n, tiles = legal_groups(work, cols, stride, tabu, label, stack, gsize, gcolour, gcell, glast, moves)
        if n == 0:
            if score_mode:
                return score + (CLEAR_BONUS if tiles == 0 else 0), played
            return -tiles, played
        top = -1e300
        for k in range(n):
            g = moves[k]
            c = gcell[g] * ncodes1 + gcolour[g]
            codes[used + k] = c
            if pol[c] > top:
                top = pol[c]
        total = 0.0
        for k in range(n):
            e = np.exp(pol[codes[used + k]] - top)
            probs[k] = e
            total += e
        r = rand_unit(rng) * total
        pick = n - 1
        acc = 0.0
        for k in range(n):
            acc += probs[k]
            if r < acc:
                pick = k
                break
        g = moves[pick]
        s = gsize[g]
        if score_mode:
            score += (s - 2) * (s - 2)
        seq[played] = gcell[g]
        chosen[played] = codes[used + pick]
        used += n
        played += 1
        offsets[played] = used
        remove_inplace(work, cols, stride, label, g, gcell[g], glast[g])


@njit(cache=True)
def adapt(pol, chosen, codes, offsets, length, alpha, probs):
    """The policy after one gradient step towards the game whose steps are given (a new array)."""
    new = pol.copy()
    for t in range(length):
        a = offsets[t]
        b = offsets[t + 1]
        top = -1e300
        for k in range(a, b):
            if pol[codes[k]] > top:
                top = pol[codes[k]]
        total = 0.0
        for k in range(a, b):
            e = np.exp(pol[codes[k]] - top)
            probs[k - a] = e
            total += e
        for k in range(a, b):
            new[codes[k]] -= alpha * probs[k - a] / total
        new[chosen[t]] += alpha
    return new


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
    probs,
    best_seq,
    budget,
):
    """Level ``level`` >= 1 NRPA from ``board`` starting with policy ``pol`` (left untouched).

    Writes the best game's clicks into ``best_seq``; returns (value, length).
    ``budget[0]`` counts playouts down; at 0 the search returns its best so far.
    """
    depth_max = best_seq.shape[0]
    chosen = np.zeros(depth_max, dtype=np.int32)
    codes = np.zeros(depth_max * (board.shape[0] // 2 + 1), dtype=np.int32)
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
        probs,
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
    probs,
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
    cur_chosen = np.zeros(depth_max, dtype=np.int32)
    cur_codes = np.zeros(codes.shape[0], dtype=np.int32)
    cur_offsets = np.zeros(depth_max + 1, dtype=np.int32)
    best = np.int64(-(2**62))
    best_len = 0
    pol = pol.copy()
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
                probs,
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
                probs,
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
            chosen[:length] = cur_chosen[:length]
            offsets[: length + 1] = cur_offsets[: length + 1]
            codes[: cur_offsets[length]] = cur_codes[: cur_offsets[length]]
        if budget[0] <= 0:
            break
        pol = adapt(pol, chosen, codes, offsets, best_len, alpha, probs)
    return best, best_len


def nrpa_search(
    root: np.ndarray,
    shape: Shape,
    score_mode: bool,
    level: int,
    seed: int,
    send: Callable[[int, list[int], str], None],
    deadline: float | None = None,
    max_playouts: int | None = None,
    iterations: int = 100,
    alpha: float = ALPHA,
    restarts: bool = True,
    target: int | None = None,
    tabu_rank: int = 0,
) -> int:
    """NRPA of ``level`` >= 1 from ``root``, its top level driven here so that the deadline is checked
    between compiled level-(n-1) searches; restarted from a blank policy while time and budget last.

    Sends every better game; returns the playouts spent.  Stops early when a
    game reaches ``target`` (a proved bound: nothing better exists).
    ``tabu_rank`` picks the tabu colour by tile count (0: the most numerous).
    """
    sc = Scratch.of(shape)
    order = colour_order(root, shape)
    tabu = order[min(tabu_rank, len(order) - 1)] if (score_mode and order) else 0
    rng = rng_state(seed)
    cols, stride = shape.cols, shape.stride
    depth_max = shape.rows * shape.cols // 2 + 2
    ncodes = depth_max * (shape.size // 2 + 1)
    moves = np.zeros(shape.size, dtype=np.int32)
    probs = np.zeros(shape.size, dtype=np.float64)
    seq, chosen = np.zeros(depth_max, dtype=np.int32), np.zeros(depth_max, dtype=np.int32)
    codes, offsets = np.zeros(ncodes, dtype=np.int32), np.zeros(depth_max + 1, dtype=np.int32)
    best_chosen, best_codes = np.zeros(depth_max, dtype=np.int32), np.zeros(ncodes, dtype=np.int32)
    best_offsets = np.zeros(depth_max + 1, dtype=np.int32)
    rate = Rate()
    spent = 0
    best_all = None

    def out_of_time() -> bool:
        return (
            (deadline is not None and time.monotonic() > deadline)
            or (max_playouts is not None and spent >= max_playouts)
            or (target is not None and best_all is not None and best_all >= target)
        )

    while True:
        pol = np.zeros(code_count(shape.size), dtype=np.float64)
        best, best_len = None, 0
        for _ in range(iterations):
            left = None if max_playouts is None else max_playouts - spent
            budget = np.array([budget_for(rate, deadline, left)], dtype=np.int64)
            given = int(budget[0])
            began = time.monotonic()
            if level == 1:
                budget[0] -= 1
                value, length = policy_playout(
                    root,
                    np.zeros(shape.size, dtype=np.int8),
                    cols,
                    stride,
                    0,
                    tabu,
                    score_mode,
                    pol,
                    rng,
                    sc.label,
                    sc.stack,
                    sc.gsize,
                    sc.gcolour,
                    sc.gcell,
                    sc.glast,
                    moves,
                    seq,
                    chosen,
                    codes,
                    offsets,
                    probs,
                )
            else:
                value, length = nrpa_level(
                    level - 1,
                    root,
                    cols,
                    stride,
                    tabu,
                    score_mode,
                    pol,
                    iterations,
                    alpha,
                    rng,
                    sc.label,
                    sc.stack,
                    sc.gsize,
                    sc.gcolour,
                    sc.gcell,
                    sc.glast,
                    moves,
                    probs,
                    seq,
                    chosen,
                    codes,
                    offsets,
                    budget,
                )
            used = given - max(int(budget[0]), 0)
            spent += used
            rate.add(used, time.monotonic() - began)
            if best is None or value >= best:
                best, best_len = int(value), int(length)
                best_chosen[:length] = chosen[:length]
                best_offsets[: length + 1] = offsets[: length + 1]
                best_codes[: offsets[length]] = codes[: offsets[length]]
                if best_all is None or best > best_all:
                    best_all = best
                    send(best, [int(c) for c in seq[:length]], f"NRPA level {level}")
            if out_of_time():
                break
            pol = adapt(pol, best_chosen, best_codes, best_offsets, best_len, alpha, probs)
        if not restarts or out_of_time() or (deadline is None and max_playouts is None):
            return spent
