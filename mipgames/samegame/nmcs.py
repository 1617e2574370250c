"""Nested Monte-Carlo search (Cazenave 2009) on the compiled kernel, tabu-colour playouts at level 0.

Level n plays the game move by move: every move of the current position is
tried with a level n-1 search from its child, the best sequence found so far
is memorised, and the game follows it.  So the value never gets worse along
the way, and a level n search that runs out of its playout budget still
returns a complete game (it follows the best sequence to its end).
Levels 1 and 2 are compiled; higher levels are not worth their cost on
15 x 15 boards within minutes (a level 2 search already runs ~10^6 playouts).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit

from mipgames.core.kernel_cache import drop_stale
from mipgames.samegame.allowance import Allowance
from mipgames.samegame.beam import colour_order
from mipgames.samegame.kernel import Scratch, Shape, click, copy_board, rng_state
from mipgames.samegame.parallel import tally
from mipgames.samegame.playout import final_value, legal_groups, new_book, playout

drop_stale(__file__)  # before numba loads a cache: see core/kernel_cache.py


@njit(cache=True)
def _moves_of(board, cols, stride, tabu, label, stack, gsize, gcolour, gcell, glast, moves):
    """(click cells, sizes, tiles) of the legal moves of ``board`` as fresh arrays."""
    n, tiles = legal_groups(board, cols, stride, tabu, label, stack, gsize, gcolour, gcell, glast, moves)
    cells = np.empty(n, dtype=np.int32)
    sizes = np.empty(n, dtype=np.int32)
    for k in range(n):
        cells[k] = gcell[moves[k]]
        sizes[k] = gsize[moves[k]]
    return cells, sizes, tiles


@njit(cache=True)
def nmcs(
    board,
    cols,
    stride,
    score,
    tabu,
    score_mode,
    level,
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
    """Level ``level`` (0, 1 or 2) NMCS from ``board`` with ``score`` points so far.

    Writes the best game's clicks into ``best_seq`` and returns (value,
    length).  ``budget[0]`` counts playouts down; at 0 the search stops
    exploring and finishes along its best sequence.
    """
    size = board.shape[0]
    work = np.zeros(size, dtype=np.int8)
    book = new_book(gsize.shape[0])
    if level == 0:
        budget[0] -= 1
        return playout(
            board,
            work,
            cols,
            stride,
            score,
            tabu,
            score_mode,
            rng,
            label,
            stack,
            gsize,
            gcolour,
            gcell,
            glast,
            moves,
            best_seq,
            0,
            book,
        )
    cur = board.copy()
    child = np.zeros(size, dtype=np.int8)
    sub = np.empty(best_seq.shape[0], dtype=np.int32)
    best = np.int64(-(2**62))
    best_len = 0
    depth = 0
    while True:
        cells, sizes, tiles = _moves_of(cur, cols, stride, tabu, label, stack, gsize, gcolour, gcell, glast, moves)
        n = cells.shape[0]
        if n == 0:
            value = final_value(tiles, score, score_mode)
            if value > best:
                best = value
                best_len = depth
            return best, best_len
        if budget[0] > 0:
            for k in range(n):
                click(cur, child, cols, stride, cells[k], label, stack)
                s = sizes[k]
                cscore = score + ((s - 2) * (s - 2) if score_mode else 0)
                if level == 1:
                    budget[0] -= 1
                    value, length = playout(
                        child,
                        work,
                        cols,
                        stride,
                        cscore,
                        tabu,
                        score_mode,
                        rng,
                        label,
                        stack,
                        gsize,
                        gcolour,
                        gcell,
                        glast,
                        moves,
                        sub,
                        0,
                        book,
                    )
                else:
                    value, length = nmcs(
                        child,
                        cols,
                        stride,
                        cscore,
                        tabu,
                        score_mode,
                        level - 1,
                        rng,
                        label,
                        stack,
                        gsize,
                        gcolour,
                        gcell,
                        glast,
                        moves,
                        sub,
                        budget,
                    )
                if value > best:
                    best = value
                    best_seq[depth] = cells[k]
                    best_seq[depth + 1 : depth + 1 + length] = sub[:length]
                    best_len = depth + 1 + length
                if budget[0] <= 0:
                    break
        if best_len <= depth:
            # nothing tried yet (budget spent before the first child): play a random game from here
            value, length = playout(
                cur,
                work,
                cols,
                stride,
                score,
                tabu,
                score_mode,
                rng,
                label,
                stack,
                gsize,
                gcolour,
                gcell,
                glast,
                moves,
                sub,
                0,
                book,
            )
            best_seq[depth : depth + length] = sub[:length]
            return value, depth + length
        cell = best_seq[depth]
        removed = click(cur, child, cols, stride, cell, label, stack)
        copy_board(child, cur)
        if score_mode:
            score += (removed - 2) * (removed - 2)
        depth += 1


def nmcs_search(
    root: np.ndarray,
    shape: Shape,
    score_mode: bool,
    level: int,
    seed: int,
    send: Callable[[int, list[int], str], None],
    deadline: float | None = None,
    max_playouts: int | None = None,
    restarts: bool = True,
    target: int | None = None,
) -> int:
    """NMCS of ``level`` >= 1 from ``root`` with its top level driven here (deadline checks between
    compiled level-(n-1) searches), restarted with fresh random games while time and budget last.

    Sends every better game; returns the playouts spent.  Stops early when a
    game reaches ``target`` (a proved bound: nothing better exists).
    """
    sc = Scratch.of(shape)
    order = colour_order(root, shape)
    tabu = order[0] if (score_mode and order) else 0
    rng = rng_state(seed)
    cols, stride = shape.cols, shape.stride
    depth_max = shape.rows * shape.cols // 2 + 2
    sub = np.zeros(depth_max, dtype=np.int32)
    moves = np.zeros(shape.size, dtype=np.int32)
    child = np.zeros(shape.size, dtype=np.int8)
    acct = Allowance(deadline, max_playouts, target, shape.rows * shape.cols)

    while True:
        spent_before = acct.spent
        cur = root.copy()
        score, depth = 0, 0
        best: int | None = None
        best_seq: list[int] = []
        while True:
            cells, _, tiles = _moves_of(
                cur, cols, stride, tabu, sc.label, sc.stack, sc.gsize, sc.gcolour, sc.gcell, sc.glast, moves
            )
            if len(cells) == 0:
                value = int(final_value(tiles, score, score_mode))
                if best is None or value > best:
                    best, best_seq = value, best_seq[:depth]
                if acct.improves(best):
                    send(best, best_seq, f"nested Monte-Carlo search level {level}")
                break
            for k in range(len(cells)):
                if best is not None and acct.over():
                    break
                removed = click(cur, child, cols, stride, cells[k], sc.label, sc.stack)
                cscore = score + ((removed - 2) ** 2 if score_mode else 0)
                budget = acct.grant()
                value, length = nmcs(
                    child,
                    cols,
                    stride,
                    cscore,
                    tabu,
                    score_mode,
                    level - 1,
                    rng,
                    sc.label,
                    sc.stack,
                    sc.gsize,
                    sc.gcolour,
                    sc.gcell,
                    sc.glast,
                    moves,
                    sub,
                    budget,
                )
                acct.settle(budget)
                tally(send, acct.spent, "playouts")
                if best is None or value > best:
                    best = int(value)
                    best_seq = best_seq[:depth] + [int(cells[k])] + [int(c) for c in sub[:length]]
                    if acct.improves(best):
                        send(best, best_seq, f"nested Monte-Carlo search level {level}")
            cell = best_seq[depth]
            removed = click(cur, child, cols, stride, cell, sc.label, sc.stack)
            cur[:] = child
            if score_mode:
                score += (removed - 2) ** 2
            depth += 1
        if not restarts or acct.over() or acct.unbounded or acct.spent == spent_before:
            return acct.spent  # (nothing was random in a game without choices: a restart would repeat it)
