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

import numpy as np
from numba import njit

from mipgames.core.kernel_cache import drop_stale, leaf
from mipgames.samegame.kernel import copy_board, fill, flood, rand_below, remove_inplace
from mipgames.samegame.simulate import CLEAR_BONUS

drop_stale(__file__)  # before numba loads a cache: see core/kernel_cache.py

NOT_FINAL = -(2**62)


@leaf()
def final_value(tiles, score, score_mode):
    """The game's value when no move is left: points (+ the clear bonus) or minus the tiles left."""
    if score_mode:
        return score + (CLEAR_BONUS if tiles == 0 else 0)
    return -tiles


LABEL, ORDER, LEFT, FRESH, FREE = range(5)
"""Rows of a playout's group book (``new_book``): per slot its label mark; ``ORDER`` the live slots in
scan order; ``LEFT``, ``FRESH`` and ``FREE`` work lists of ``take_group``."""
BOOK_ROWS = FREE + 1


@njit(cache=True)
def new_book(capacity):
    """The group book of a playout: ``BOOK_ROWS`` rows of ``capacity`` slots (as many as the group arrays)."""
    return np.empty((BOOK_ROWS, capacity), dtype=np.int32)


@leaf()
def _flood_group(board, stride, i, mark, slot, label, stack, gsize, gcolour, gcell, glast, book):
    """Label the group of tile ``i`` with ``mark`` and describe it in ``slot``."""
    size, lo, hi = flood(board, stride, i, label, stack, mark)
    gsize[slot] = size
    gcolour[slot] = board[i]
    gcell[slot] = lo
    glast[slot] = hi
    book[LABEL, slot] = mark


@leaf()
def all_groups(board, stride, label, stack, gsize, gcolour, gcell, glast, book, skip):
    """Every group of >= 2 of ``board`` but those of colour code ``skip`` (0: none skipped), labels reset
    first; the k-th in scan order (x, then y from the bottom) is slot k, with mark k.  Returns (groups, tiles
    on the board, non-empty columns).

    Singletons are never labelled: a tile whose upper and right neighbours
    differ from it (its lower and left ones were scanned already) is a
    group of one.  Why skip a colour: a tabu-colour game clicks its tabu
    colour only when no other group is left, and that colour's groups are the
    largest on the board, flooded again at almost every removal; a playout
    books them only when it needs them (``offer_moves``).
    """
    fill(label, -1)
    ng = 0
    tiles = 0
    ncols = 0
    while board[(ncols + 1) * stride] != 0:
        base = (ncols + 1) * stride
        i = base
        c = board[i]
        while c != 0:
            up = board[i + 1]  # the next tile of the column (0 past its top)
            if c != skip and (up == c or board[i + stride] == c) and label[i] < 0:
                _flood_group(board, stride, i, ng, ng, label, stack, gsize, gcolour, gcell, glast, book)
                book[ORDER, ng] = ng
                ng += 1
            i += 1
            c = up
        tiles += i - base
        ncols += 1
    return ng, tiles, ncols


@leaf()
def select_moves(tabu, ng, gcolour, book, moves):
    """The groups a tabu-colour game may click into ``moves`` (slots, scan order): every group not of the
    tabu colour, or the tabu colour's groups when nothing else is left.  Returns how many."""
    top = moves.shape[0]
    n = 0
    tabu_moves = 0
    for k in range(ng):
        g = book[ORDER, k]
        if gcolour[g] == tabu:
            tabu_moves += 1
            moves[top - tabu_moves] = g  # kept at the far end until we know they are needed
        else:
            moves[n] = g
            n += 1
    if n == 0:
        for k in range(tabu_moves):
            moves[k] = moves[top - 1 - k]
        n = tabu_moves
    return n


@leaf()
def offer_moves(board, stride, tabu, ng, mark, free, label, stack, gsize, gcolour, gcell, glast, book, moves):
    """``select_moves`` on a book kept without the tabu colour's groups (``take_group`` with ``skip`` =
    ``tabu``).  Returns (moves, groups, next mark, free slots).

    Such a book holds every group of the other colours, so while one is left
    it offers what a full book would.  When none is left the tabu colour's
    groups are due, and the book may hold only some of them: it is built
    afresh with every group (a full scan, a few times a game).
    """
    n = select_moves(tabu, ng, gcolour, book, moves)
    if tabu != 0 and (n == 0 or gcolour[moves[0]] == tabu):
        ng, _, _ = all_groups(board, stride, label, stack, gsize, gcolour, gcell, glast, book, 0)
        mark = ng
        free = 0
        n = select_moves(tabu, ng, gcolour, book, moves)
    return n, ng, mark, free


@leaf()
def take_group(board, cols, stride, g, ng, mark, ncols, free, label, stack, gsize, gcolour, gcell, glast, book, skip):
    """Remove the group in slot ``g`` from ``board`` in place and bring the book up to date (groups of colour
    code ``skip`` are not found again: ``offer_moves``).

    Returns (groups, next mark, non-empty columns, free slots).  Why not
    label the whole board again: a removal changes only the group's columns
    (and, when one of them empties, every column to their right), so a group
    with no tile in those columns or the two beside them is the same group
    afterwards, and no group found again reaches it (its neighbours did not
    change).  Only the tiles of that band are scanned (a flood follows a
    group out of it): in random games on the standard boards a quarter of
    the tiles, a third of the grouped tiles flooded again.  The order is
    merged back into scan order, so a playout offers its moves in the
    simulator's order, as a full scan would, and plays the same games.  (An
    earlier version kept only whole column prefixes of groups and was slower
    than a full scan: benchmarks/samegame/RESULTS.md.)
    """
    slots = ng + free  # slots ever used: the live ones and the free list
    x0 = gcell[g] // stride - 1
    x1 = glast[g] // stride - 1
    remove_inplace(board, cols, stride, label, book[LABEL, g], gcell[g], glast[g])
    emptied = board[ncols * stride] == 0  # the last column is empty when any column closed
    while ncols > 0 and board[ncols * stride] == 0:
        ncols -= 1
    lo = x0 - 1
    hi = cols if emptied else x1 + 1
    # scan order puts the groups that start right of the band last; the others are kept or found again
    # (cells compared with column starts: no division in the loop)
    left_end = (lo + 1) * stride
    right_start = (hi + 2) * stride
    nl = 0
    right = 0
    while right < ng:
        h = book[ORDER, right]
        if gcell[h] >= right_start:
            break
        if glast[h] < left_end:
            book[LEFT, nl] = h
            nl += 1
        else:
            book[FREE, free] = h
            free += 1
        right += 1
    nf = 0
    base = mark
    xa = max(lo, 0)
    xb = min(hi, ncols - 1)
    for x in range(xa, xb + 1):
        i = (x + 1) * stride
        c = board[i]
        while c != 0:
            up = board[i + 1]
            near = up == c or board[i + stride] == c or (x == xa and board[i - stride] == c)
            if near and c != skip and label[i] < base:
                if free > 0:
                    free -= 1
                    slot = book[FREE, free]
                else:
                    slot = slots
                    slots += 1
                _flood_group(board, stride, i, mark, slot, label, stack, gsize, gcolour, gcell, glast, book)
                mark += 1
                j = nf  # insertion by first cell: a flood may start right of its group's first cell
                while j > 0 and gcell[book[FRESH, j - 1]] > gcell[slot]:
                    book[FRESH, j] = book[FRESH, j - 1]
                    j -= 1
                book[FRESH, j] = slot
                nf += 1
            i += 1
            c = up
    nr = ng - right
    at = nl + nf
    if at > right:
        for k in range(nr - 1, -1, -1):
            book[ORDER, at + k] = book[ORDER, right + k]
    elif at < right:
        for k in range(nr):
            book[ORDER, at + k] = book[ORDER, right + k]
    a = 0
    b = 0
    for k in range(at):
        if b == nf or (a < nl and gcell[book[LEFT, a]] < gcell[book[FRESH, b]]):
            book[ORDER, k] = book[LEFT, a]
            a += 1
        else:
            book[ORDER, k] = book[FRESH, b]
            b += 1
    return at + nr, mark, ncols, free


@njit(cache=True)
def legal_groups(board, cols, stride, tabu, label, stack, gsize, gcolour, gcell, glast, moves):
    """The moves a tabu-colour game may play on ``board`` (slots of the group arrays, scan order).

    Returns (number of moves, tiles on the board).
    """
    book = new_book(gsize.shape[0])
    ng, tiles, _ = all_groups(board, stride, label, stack, gsize, gcolour, gcell, glast, book, 0)
    return select_moves(tabu, ng, gcolour, book, moves), tiles


@leaf()
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
    book,
):
    """Play random tabu-colour moves from ``board`` (left untouched; ``work`` is the game board) to the end.

    Writes the click cells into ``out`` from ``out_start``; returns (value, moves played).  ``book`` is the
    playout's group book (``new_book``), handed in so that the playout allocates nothing.
    """
    copy_board(board, work)
    ng, tiles, ncols = all_groups(work, stride, label, stack, gsize, gcolour, gcell, glast, book, tabu)
    mark = ng
    free = 0
    played = 0
    while True:
        n, ng, mark, free = offer_moves(
            work, stride, tabu, ng, mark, free, label, stack, gsize, gcolour, gcell, glast, book, moves
        )
        if n == 0:
            return final_value(tiles, score, score_mode), played
        g = moves[rand_below(rng, n)]
        s = gsize[g]
        if score_mode:
            score += (s - 2) * (s - 2)
        tiles -= s
        out[out_start + played] = gcell[g]
        played += 1
        ng, mark, ncols, free = take_group(
            work, cols, stride, g, ng, mark, ncols, free, label, stack, gsize, gcolour, gcell, glast, book, tabu
        )
