"""Compiled random playouts with the tabu-colour rule, and nested Monte-Carlo search on them.

The tabu-colour rule (Schadd et al.'s SP-MCTS, Cazenave's NMCS for SameGame):
a playout never clicks the colour that was most numerous when the search
started while a group of another colour exists.  Random games then leave
that colour together, and it leaves at the end as one big group, which is
where the standard score rule's points are.

Nested Monte-Carlo search (Cazenave 2009): level 0 is a playout; level n
plays the game move by move, trying every move with a level n-1 search from
the child and following the best sequence found so far (the best sequence is
memorised, so the result never gets worse along the way).
"""

from __future__ import annotations

from numba import njit

from mipgames.core.kernel_cache import drop_stale
from mipgames.samegame.kernel import copy_board, flood, rand_below, remove_inplace
from mipgames.samegame.simulate import CLEAR_BONUS

drop_stale(__file__)  # before numba loads a cache: see core/kernel_cache.py

NOT_FINAL = -(2**62)


@njit(cache=True)
def final_value(tiles, score, score_mode):
    """The game's value when no move is left: points (+ the clear bonus) or minus the tiles left."""
    if score_mode:
        return score + (CLEAR_BONUS if tiles == 0 else 0)
    return -tiles


@njit(cache=True)
def playable_groups(board, cols, stride, tabu, epoch, label, stack, gsize, gcolour, gcell, glast, moves):
    """The groups of >= 2 into ``moves`` (ids ``g``; their tiles get label ``epoch + g``), the tabu colour
    only when nothing else is left.  Returns (number of moves, tiles on the board, groups labelled).

    Why an epoch instead of clearing the labels: a playout labels ~60 boards,
    and a label below ``epoch`` means "not seen yet", so no pass clears the
    previous board's labels (the caller fills ``label`` with -1 once, then
    adds the groups labelled to ``epoch`` after each call).  Singletons are
    never labelled: a tile whose upper and right neighbours differ from it
    (its lower and left ones were scanned already) is a group of one.
    Groups come in scan order (x, then y from the bottom), as ``find_groups``
    numbers them and as the simulator lists legal moves.
    """
    top = moves.shape[0]
    ng = 0
    n = 0
    tabu_moves = 0
    tiles = 0
    for x in range(cols):
        base = (x + 1) * stride
        if board[base] == 0:
            break
        i = base
        c = board[i]
        while c != 0:
            up = board[i + 1]  # the next tile of the column (0 past its top)
            if (up == c or board[i + stride] == c) and label[i] < epoch:
                size, _, hi = flood(board, stride, i, label, stack, epoch + ng)
                gsize[ng] = size
                gcolour[ng] = c
                gcell[ng] = i
                glast[ng] = hi
                if c == tabu:
                    tabu_moves += 1
                    moves[top - tabu_moves] = ng  # kept at the far end until we know they are needed
                else:
                    moves[n] = ng
                    n += 1
                ng += 1
            i += 1
            c = up
        tiles += i - base
    if n == 0:
        for k in range(tabu_moves):
            moves[k] = moves[top - 1 - k]
        n = tabu_moves
    return n, tiles, ng


@njit(cache=True)
def legal_groups(board, cols, stride, tabu, label, stack, gsize, gcolour, gcell, glast, moves):
    """``playable_groups`` of one board on its own (labels cleared first, epoch 0: group g's label is g).

    Returns (number of moves, tiles on the board).
    """
    label[:] = -1
    n, tiles, _ = playable_groups(board, cols, stride, tabu, 0, label, stack, gsize, gcolour, gcell, glast, moves)
    return n, tiles


@njit(cache=True)
def playout(
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
    out,
    out_start,
):
    """Play random tabu-colour moves from ``board`` (left untouched; ``work`` is the game board) to the end.

    Writes the click cells into ``out`` from ``out_start``; returns (value, moves played).
    """
    copy_board(board, work)
    label[:] = -1
    epoch = 0
    played = 0
    while True:
        n, tiles, ng = playable_groups(
            work, cols, stride, tabu, epoch, label, stack, gsize, gcolour, gcell, glast, moves
        )
        if n == 0:
            return final_value(tiles, score, score_mode), played
        g = moves[rand_below(rng, n)]
        s = gsize[g]
        if score_mode:
            score += (s - 2) * (s - 2)
        out[out_start + played] = gcell[g]
        played += 1
        remove_inplace(work, cols, stride, label, epoch + g, gcell[g], glast[g])
        epoch += ng
