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

from mipgames.samegame.kernel import copy_board, find_groups, rand_below, remove_inplace
from mipgames.samegame.simulate import CLEAR_BONUS

NOT_FINAL = -(2**62)


@njit(cache=True)
def final_value(tiles, score, score_mode):
    """The game's value when no move is left: points (+ the clear bonus) or minus the tiles left."""
    if score_mode:
        return score + (CLEAR_BONUS if tiles == 0 else 0)
    return -tiles


@njit(cache=True)
def legal_groups(board, cols, stride, tabu, label, stack, gsize, gcolour, gcell, glast, moves):
    """Groups of >= 2 into ``moves`` (group ids), the tabu colour only when nothing else is left.

    Returns (number of moves, tiles on the board).
    """
    ng = find_groups(board, cols, stride, label, stack, gsize, gcolour, gcell, glast)
    n = 0
    tiles = 0
    tabu_moves = 0
    for g in range(ng):
        tiles += gsize[g]
        if gsize[g] >= 2:
            if gcolour[g] == tabu:
                tabu_moves += 1
            else:
                moves[n] = g
                n += 1
    if n == 0 and tabu_moves > 0:
        for g in range(ng):
            if gsize[g] >= 2:
                moves[n] = g
                n += 1
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
    played = 0
    while True:
        n, tiles = legal_groups(work, cols, stride, tabu, label, stack, gsize, gcolour, gcell, glast, moves)
        if n == 0:
            return final_value(tiles, score, score_mode), played
        g = moves[rand_below(rng, n)]
        s = gsize[g]
        if score_mode:
            score += (s - 2) * (s - 2)
        out[out_start + played] = gcell[g]
        played += 1
        remove_inplace(work, cols, stride, label, g, gcell[g], glast[g])
