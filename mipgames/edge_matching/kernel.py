"""The compiled search core (numba): one resumable depth-first fill and its candidate tables.

Why one kernel: the exact solver (decision, infeasibility proofs, solution
counts), the score search for Eternity II-sized boards (mismatches allowed by
a per-depth schedule) and the window re-optimisation of the local search are
the same loop over the same tables, with different budgets.  Its pure-Python
twin, which the tests hold it to, is ``search.fill_reference``.

The data, prepared by ``search.py``:

- an *entry* is a tile type (tiles equal up to turning are one type with a
  multiplicity, so copies are never tried twice) turned one of its distinct
  ways, showing ``ent_col[e]`` (top, right, bottom, left);
- ``col[cell]``: the colours a placed or fixed cell shows;
- position ``k`` of the fill order puts a tile on cell ``order[k]``; its two
  *key sides* face neighbours already placed (or fixed), ``keynb[k, j]``, or
  nothing (-1, read as the wildcard colour ``ANY = K - 1``); further placed
  neighbours are *checked* (``chknb``, ``chkside``);
- candidate tables, one per class of positions (same allowed entries, same
  key sides: every inner cell of a row scan shares one): the entries bucketed
  by the colours they show on the two key sides, each also under the wildcard
  (so (a, ANY) lists every entry showing a on key side 1).  An exact match is
  one lookup; a mismatch on a key side is a scan of a wildcard bucket that
  skips the matching entries.  Buckets hold the entry and its type side by
  side, so a candidate whose type is used up costs one sequential load.

Mismatches ("breaks") are tried after every exact candidate of a position and
only while the running count stays within ``min(budget[k], cap)``: a budget
of zeros is the exact backtracker; a cap lowered after every complete board
(``OPTIMISE``) makes it a branch and bound.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from mipgames.core.kernel_cache import drop_stale, leaf

drop_stale(__file__)  # before numba loads a cache: see core/kernel_cache.py

RUNNING, EXHAUSTED, FOUND = 0, 1, 2

# st: the scalars of a resumable search (int64)
DEPTH, NODES, SOLUTIONS, CAP, BEST, SPLIT, STATUS = range(7)
ST_SIZE = 7
# pr: parameters (int64)
COUNT, OPTIMISE, SPLIT_DEPTH, SPLIT_MOD, SPLIT_REM = range(5)
PR_SIZE = 5
DE_BRUIJN = 0x022FDD63CC95386D
"""A single bit times this constant has a distinct pattern in its top 6 bits: the bit's index in one lookup."""
BIT_INDEX = np.zeros(64, np.int64)
for _i in range(64):
    BIT_INDEX[(((1 << _i) * DE_BRUIJN) & ((1 << 64) - 1)) >> 58] = _i
MAX_COLOURS = 1024
"""Tables hold K * K buckets per class: more colours than this are left to the models."""


@njit(cache=True)
def build_tables(cls_cell, cls_keyside, allowed, ent_col, ent_type, avail, K):
    """Per class: the allowed, available entries in buckets (a, b), (ANY, b), (a, ANY), (ANY, ANY).

    Returns tstart (bucket boundaries, class-major) and per slot the entry and its type.
    """
    ncls = cls_cell.shape[0]
    E = ent_col.shape[0]
    ANY = K - 1
    KK = K * K
    count = np.zeros(ncls * KK + 1, np.int64)
    slots = np.empty(4, np.int64)
    for pass_ in range(2):
        if pass_ == 1:
            tstart = np.zeros(ncls * KK + 1, np.int64)
            for i in range(ncls * KK):
                tstart[i + 1] = tstart[i] + count[i]
            at = tstart[:-1].copy()
            n = tstart[ncls * KK]
            tlist = np.empty(n, np.int64)
            ttype = np.empty(n, np.int64)
        for q in range(ncls):
            cell = cls_cell[q]
            base = q * KK
            for e in range(E):
                if allowed[cell, e] == 0 or avail[ent_type[e]] <= 0:
                    continue
                a = ent_col[e, cls_keyside[q, 0]] if cls_keyside[q, 0] >= 0 else ANY
                b = ent_col[e, cls_keyside[q, 1]] if cls_keyside[q, 1] >= 0 else ANY
                slots[0] = base + a * K + b
                slots[1] = base + ANY * K + b if a != ANY else -1
                slots[2] = base + a * K + ANY if b != ANY else -1
                slots[3] = base + ANY * K + ANY if a != ANY and b != ANY else -1
                for j in range(4):
                    s = slots[j]
                    if s < 0:
                        continue
                    if pass_ == 0:
                        count[s] += 1
                    else:
                        i = at[s]
                        tlist[i] = e
                        ttype[i] = ent_type[e]
                        at[s] += 1
    return tstart, tlist, ttype


@leaf()
def shuffle_tables(tstart, tlist, ttype, seed):
    """Randomise the order inside every bucket (a restart explores another part of the tree)."""
    np.random.seed(seed)
    for i in range(tstart.shape[0] - 1):
        lo, hi = tstart[i], tstart[i + 1]
        for j in range(hi - 1, lo, -1):
            r = lo + np.random.randint(0, j - lo + 1)
            tlist[j], tlist[r] = tlist[r], tlist[j]
            ttype[j], ttype[r] = ttype[r], ttype[j]


@leaf(inline=True)
def _set_phase(k, ph, K, base, keya, keyb, budget, brk, cap, tstart, cur, end, phase):
    """Move position k to the first usable phase >= ph: 0 exact, 1/2 a break on key side 1/2, 3 both."""
    ANY = K - 1
    a, b = keya[k], keyb[k]
    room = min(budget[k], cap) - brk[k]
    while ph <= 3:
        idx = -1
        if ph == 0:
            idx = base + a * K + b
        elif ph == 1 and a != ANY and room >= 1:
            idx = base + ANY * K + b
        elif ph == 2 and b != ANY and room >= 1:
            idx = base + a * K + ANY
        elif ph == 3 and a != ANY and b != ANY and room >= 2:
            idx = base + ANY * K + ANY
        if idx >= 0:
            phase[k] = ph
            cur[k] = tstart[idx]
            end[k] = tstart[idx + 1]
            return True
        ph += 1
    phase[k] = 4
    return False


@leaf(inline=True)
def _enter(
    k,
    keynb,
    keyside,
    ptab,
    col,
    K,
    keya,
    keyb,
    budget,
    brk,
    cap,
    tstart,
    cur,
    end,
    phase,
):
    """Read the colours position k must show towards its key neighbours and open its exact bucket."""
    ANY = K - 1
    nb = keynb[k, 0]
    keya[k] = col[nb, (keyside[k, 0] + 2) & 3] if nb >= 0 else ANY
    nb = keynb[k, 1]
    keyb[k] = col[nb, (keyside[k, 1] + 2) & 3] if nb >= 0 else ANY
    _set_phase(k, 0, K, ptab[k] * K * K, keya, keyb, budget, brk, cap, tstart, cur, end, phase)


@leaf()
def start(keynb, keyside, ptab, col, K, budget, cap, tstart, state):
    """Reset a search to position 0 with no breaks.

    ``state`` = (cur, end, phase, brk, keya, keyb, place, best, st): the
    per-position cursors and the scalars, all int64.
    """
    cur, end, phase, brk, keya, keyb, _place, _best, st = state
    st[:] = 0
    st[CAP] = cap
    st[BEST] = -1
    if keynb.shape[0] == 0:
        st[DEPTH] = -1
        return
    brk[0] = 0
    st[DEPTH] = 0
    _enter(
        0,
        keynb,
        keyside,
        ptab,
        col,
        K,
        keya,
        keyb,
        budget,
        brk,
        cap,
        tstart,
        cur,
        end,
        phase,
    )


@leaf()
def fill(
    order,
    keynb,
    keyside,
    chknb,
    chkside,
    ptab,
    tstart,
    tlist,
    ttype,
    K,
    ent_col,
    avail,
    col,
    budget,
    state,
    pr,
    node_limit,
):
    """Run the depth-first fill for at most ``node_limit`` placements; resumable.

    Returns the status: RUNNING (limit reached, call again), EXHAUSTED (the
    whole tree searched: with COUNT/OPTIMISE the count/best is final, else no
    placement exists within the budget) or FOUND (neither COUNT nor OPTIMISE:
    ``place`` holds a complete placement; calling again goes on to the next).
    """
    cur, end, phase, brk, keya, keyb, place, best, st = state
    nk = order.shape[0]
    KK = K * K
    k = st[DEPTH]
    cap = st[CAP]
    nodes = 0
    split_depth = pr[SPLIT_DEPTH]
    if k < 0:
        st[STATUS] = EXHAUSTED
        return EXHAUSTED
    while True:
        # the next candidate at position k (cursor in locals: arrays may alias, registers do not)
        chosen = -1
        extra = 0
        lim = min(budget[k], cap) - brk[k]
        c = cur[k]
        stop = end[k]
        ka, kb = keya[k], keyb[k]
        sa, sb = keyside[k, 0], keyside[k, 1]
        n0, n1 = chknb[k, 0], chknb[k, 1]
        ph = phase[k]
        while True:
            if c >= stop:
                if ph >= 3 or not _set_phase(
                    k,
                    ph + 1,
                    K,
                    ptab[k] * KK,
                    keya,
                    keyb,
                    budget,
                    brk,
                    cap,
                    tstart,
                    cur,
                    end,
                    phase,
                ):
                    break
                c, stop, ph = cur[k], end[k], phase[k]
                continue
            slot = c
            c += 1
            if avail[ttype[slot]] == 0:
                continue
            e = tlist[slot]
            extra = 0
            if ph != 0:
                if ph != 2:
                    if ent_col[e, sa] == ka:
                        continue
                    extra += 1
                if ph >= 2:
                    if ent_col[e, sb] == kb:
                        continue
                    extra += 1
            if n0 >= 0:
                s0 = chkside[k, 0]
                if ent_col[e, s0] != col[n0, (s0 + 2) & 3]:
                    extra += 1
                if n1 >= 0:
                    s1 = chkside[k, 1]
                    if ent_col[e, s1] != col[n1, (s1 + 2) & 3]:
                        extra += 1
            if extra > lim:
                continue
            if k == split_depth:
                st[SPLIT] += 1
                if (st[SPLIT] - 1) % pr[SPLIT_MOD] != pr[SPLIT_REM]:
                    continue
            chosen = slot
            break
        cur[k] = c
        if chosen < 0:
            # backtrack: take back the tile of position k - 1
            k -= 1
            if k < 0:
                st[DEPTH] = -1
                st[NODES] += nodes
                st[STATUS] = EXHAUSTED
                return EXHAUSTED
            avail[ttype[place[k]]] += 1
            continue
        avail[ttype[chosen]] -= 1
        place[k] = chosen
        e = tlist[chosen]
        cell = order[k]
        for s in range(4):
            col[cell, s] = ent_col[e, s]
        nodes += 1
        total = brk[k] + extra
        if k == nk - 1:
            st[SOLUTIONS] += 1
            if st[BEST] < 0 or total < st[BEST]:
                st[BEST] = total
                for x in range(place.shape[0]):  # not best[:] = place[:], which may allocate
                    best[x] = place[x]
            avail[ttype[chosen]] += 1
            if pr[OPTIMISE]:
                cap = total - 1
                st[CAP] = cap
            if pr[COUNT] == 0 and pr[OPTIMISE] == 0:
                st[DEPTH] = k
                st[NODES] += nodes
                st[STATUS] = FOUND
                return FOUND
        else:
            k += 1
            brk[k] = total
            _enter(
                k,
                keynb,
                keyside,
                ptab,
                col,
                K,
                keya,
                keyb,
                budget,
                brk,
                cap,
                tstart,
                cur,
                end,
                phase,
            )
        if nodes >= node_limit:
            st[DEPTH] = k
            st[NODES] += nodes
            st[STATUS] = RUNNING
            return RUNNING


# ---------------------------------------------------------------- large-neighbourhood search


@leaf()
def _neighbour(rows, cols, i, s):
    r = i // cols
    c = i - r * cols
    if s == 0:
        r -= 1
    elif s == 1:
        c += 1
    elif s == 2:
        r += 1
    else:
        c -= 1
    if r < 0 or r >= rows or c < 0 or c >= cols:
        return -1
    return r * cols + c


@leaf()
def board_breaks(rows, cols, col):
    """Mismatched inner edges of a full board."""
    out = 0
    for i in range(rows * cols):
        for s in (1, 2):
            j = _neighbour(rows, cols, i, s)
            if j >= 0 and col[i, s] != col[j, (s + 2) & 3]:
                out += 1
    return out


@njit(cache=True)
def window_plan(rows, cols, order, inwin):
    """keynb, keyside, chknb, chkside for re-placing ``order`` with every other cell fixed (top, left first)."""
    nk = order.shape[0]
    keynb = np.full((nk, 2), -1, np.int64)
    keyside = np.full((nk, 2), -1, np.int64)
    chknb = np.full((nk, 2), -1, np.int64)
    chkside = np.full((nk, 2), -1, np.int64)
    pos = np.full(rows * cols, -1, np.int64)
    for k in range(nk):
        pos[order[k]] = k
    for k in range(nk):
        met = 0
        for s in (0, 3, 1, 2):
            j = _neighbour(rows, cols, order[k], s)
            if j < 0 or (inwin[j] and pos[j] > k):
                continue
            if met < 2:
                keynb[k, met] = j
                keyside[k, met] = s
            else:
                chknb[k, met - 2] = j
                chkside[k, met - 2] = s
            met += 1
    return keynb, keyside, chknb, chkside


@leaf()
def window_breaks(rows, cols, order, inwin, col):
    """Mismatched edges with at least one end in the window (each counted once)."""
    out = 0
    for k in range(order.shape[0]):
        i = order[k]
        for s in range(4):
            j = _neighbour(rows, cols, i, s)
            if j < 0 or (inwin[j] and j < i):
                continue
            if col[i, s] != col[j, (s + 2) & 3]:
                out += 1
    return out


@njit(cache=True)
def reoptimise(
    rows,
    cols,
    order,
    inwin,
    cell_e,
    col,
    allowed,
    ent_col,
    ent_type,
    ntypes,
    K,
    node_limit,
    seed,
    slack,
    first,
):
    """Re-place the window ``order`` against the fixed rest of the board, within ``before + slack`` mismatches.

    ``slack`` -1 asks for an improvement, 0 also accepts a different
    arrangement as good (drifting on plateaus), > 0 a worse one (a kick).
    ``first``: take the first arrangement the shuffled search meets (a random
    one within the cap); else the best within ``node_limit`` nodes (branch
    and bound).  Returns (change in the board's mismatches, nodes); the board
    is unchanged when nothing was found.
    """
    nk = order.shape[0]
    before = window_breaks(rows, cols, order, inwin, col)
    cap = before + slack
    if cap < 0:
        return 0, 0
    avail = np.zeros(ntypes, np.int64)
    for k in range(nk):
        avail[ent_type[cell_e[order[k]]]] += 1
    keynb, keyside, chknb, chkside = window_plan(rows, cols, order, inwin)
    tstart, tlist, ttype = build_tables(order, keyside, allowed, ent_col, ent_type, avail, K)
    shuffle_tables(tstart, tlist, ttype, seed)
    ptab = np.arange(nk)
    budget = np.full(nk, cap, np.int64)
    state = (
        np.zeros(nk, np.int64),
        np.zeros(nk, np.int64),
        np.zeros(nk, np.int64),
        np.zeros(nk, np.int64),
        np.zeros(nk, np.int64),
        np.zeros(nk, np.int64),
        np.zeros(nk, np.int64),
        np.zeros(nk, np.int64),
        np.zeros(ST_SIZE, np.int64),
    )
    pr = np.zeros(PR_SIZE, np.int64)
    pr[OPTIMISE] = 0 if first else 1
    pr[SPLIT_DEPTH] = -1
    pr[SPLIT_MOD] = 1
    saved = np.empty((nk, 4), np.int64)
    for k in range(nk):
        saved[k] = col[order[k]]
    start(keynb, keyside, ptab, col, K, budget, cap, tstart, state)
    fill(
        order,
        keynb,
        keyside,
        chknb,
        chkside,
        ptab,
        tstart,
        tlist,
        ttype,
        K,
        ent_col,
        avail,
        col,
        budget,
        state,
        pr,
        node_limit,
    )
    st = state[8]
    if st[BEST] < 0:
        for k in range(nk):
            col[order[k]] = saved[k]
        return 0, st[NODES]
    best = state[7]
    for k in range(nk):
        e = tlist[best[k]]
        cell_e[order[k]] = e
        col[order[k]] = ent_col[e]
    return st[BEST] - before, st[NODES]


@leaf()
def _window(rows, cols, hmin, hmax, movable, col, order, inwin, near_bad):
    """A random rectangle (around a random mismatched edge when ``near_bad`` and there is one); returns its size."""
    n = rows * cols
    h = min(np.random.randint(hmin, hmax + 1), rows)
    w = min(np.random.randint(hmin, hmax + 1), cols)
    pick = -1
    if near_bad:
        seen = 0
        for i in range(n):
            for s in (1, 2):
                j = _neighbour(rows, cols, i, s)
                if j >= 0 and col[i, s] != col[j, (s + 2) & 3]:
                    seen += 1
                    if np.random.randint(0, seen) == 0:  # reservoir sampling
                        pick = i
    if pick >= 0:
        r0 = min(max(pick // cols - np.random.randint(0, h), 0), rows - h)
        c0 = min(max(pick % cols - np.random.randint(0, w), 0), cols - w)
    else:
        r0 = np.random.randint(0, rows - h + 1)
        c0 = np.random.randint(0, cols - w + 1)
    nk = 0
    for r in range(r0, r0 + h):
        for c in range(c0, c0 + w):
            i = r * cols + c
            if movable[i]:
                order[nk] = i
                inwin[i] = True
                nk += 1
    return nk


@njit(cache=True)
def hungarian(cost):
    """Minimum-cost perfect assignment of a square matrix (shortest augmenting paths with potentials, O(n^3)).

    Returns assign[row] = column.
    """
    n = cost.shape[0]
    INF = 1 << 60
    u = np.zeros(n + 1, np.int64)
    v = np.zeros(n + 1, np.int64)
    p = np.zeros(n + 1, np.int64)  # p[col] = row matched to col (1-based, 0 = none)
    way = np.zeros(n + 1, np.int64)
    minv = np.empty(n + 1, np.int64)
    used = np.empty(n + 1, np.bool_)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv[:] = INF
        used[:] = False
        while True:
            used[j0] = True
            i0 = p[j0]
            delta = INF
            j1 = 0
            for j in range(1, n + 1):
                if not used[j]:
                    cur = cost[i0 - 1, j - 1] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j] = cur
                        way[j] = j0
                    if minv[j] < delta:
                        delta = minv[j]
                        j1 = j
            for j in range(n + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while True:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
            if j0 == 0:
                break
    assign = np.empty(n, np.int64)
    for j in range(1, n + 1):
        assign[p[j] - 1] = j - 1
    return assign


@leaf()
def _cell_cost(rows, cols, col, cell, e, ent_col):
    out = 0
    for s in range(4):
        j = _neighbour(rows, cols, cell, s)
        if j >= 0 and col[j, (s + 2) & 3] != ent_col[e, s]:
            out += 1
    return out


@njit(cache=True)
def assign_move(
    rows,
    cols,
    cell_e,
    col,
    allowed,
    ent_col,
    ent_type,
    type_first,
    type_count,
    movable,
    m,
    seed,
):
    """Re-deal the tiles of up to ``m`` pairwise non-adjacent cells optimally (an assignment problem).

    No two chosen cells touch, so each tile's cost in each cell (its best
    allowed turn against the fixed neighbours) is independent of the others;
    the Hungarian method gives the best re-dealing.  Cells next to a mismatch
    are chosen first, then random ones, in random order, so that ties land
    differently each time (moves across plateaus).  Returns the change in
    mismatches (<= 0).
    """
    np.random.seed(seed)
    n = rows * cols
    perm = np.random.permutation(n)
    taken = np.zeros(n, np.bool_)
    blocked = np.zeros(n, np.bool_)
    chosen = np.empty(n, np.int64)
    k = 0
    for first in range(2):
        for idx in range(n):
            if k >= m:
                break
            i = perm[idx]
            if taken[i] or blocked[i] or not movable[i]:
                continue
            if first == 0:
                near = False
                for s in range(4):
                    j = _neighbour(rows, cols, i, s)
                    if j >= 0 and col[i, s] != col[j, (s + 2) & 3]:
                        near = True
                        break
                if not near:
                    continue
            taken[i] = True
            chosen[k] = i
            k += 1
            for s in range(4):
                j = _neighbour(rows, cols, i, s)
                if j >= 0:
                    blocked[j] = True
    if k < 2:
        return 0
    BIG = 1 << 20
    cost = np.full((k, k), BIG, np.int64)
    best_e = np.full((k, k), -1, np.int64)
    before = 0
    for a in range(k):
        before += _cell_cost(rows, cols, col, chosen[a], cell_e[chosen[a]], ent_col)
    for a in range(k):
        t = ent_type[cell_e[chosen[a]]]
        for b in range(k):
            cell = chosen[b]
            for e in range(type_first[t], type_first[t] + type_count[t]):
                if allowed[cell, e]:
                    c = _cell_cost(rows, cols, col, cell, e, ent_col)
                    if c < cost[a, b]:
                        cost[a, b] = c
                        best_e[a, b] = e
    assign = hungarian(cost)
    after = 0
    for a in range(k):
        after += cost[a, assign[a]]
    if after > before:
        return 0
    for a in range(k):
        cell = chosen[assign[a]]
        e = best_e[a, assign[a]]
        cell_e[cell] = e
        for s in range(4):
            col[cell, s] = ent_col[e, s]
    return after - before


@njit(cache=True)
def ils(
    rows,
    cols,
    cell_e,
    col,
    best_e,
    best_total,
    allowed,
    ent_col,
    ent_type,
    type_first,
    type_count,
    K,
    movable,
    rounds,
    seed,
    stall_moves,
    wmax,
    window_nodes,
    kick_size,
    kick_slack,
    accept,
    target,
):
    """Iterated local search: descent by assignment and window moves, then a kick; ``rounds`` kicks.

    Descent alternates an assignment move (up to 16-96 non-adjacent cells) and
    a window move (a 2..wmax rectangle near a mismatch, best arrangement within
    ``window_nodes`` nodes, plateaus accepted) until ``stall_moves`` moves in a
    row brought nothing.  The kick re-places a kick_size-square region with a
    random arrangement at most ``kick_slack`` mismatches worse.  The walk
    restarts from the best board whenever it drifts more than ``accept`` above
    it.  ``best_e``/``best_total`` hold the best board (updated in place);
    returns (best total, nodes).
    """
    np.random.seed(seed)
    n = rows * cols
    ntypes = type_first.shape[0]
    total = board_breaks(rows, cols, col)
    nodes = 0
    inwin = np.zeros(n, np.bool_)
    order = np.empty(n, np.int64)
    for _ in range(rounds):
        stall = 0
        while stall < stall_moves and best_total > target:
            gain = assign_move(
                rows,
                cols,
                cell_e,
                col,
                allowed,
                ent_col,
                ent_type,
                type_first,
                type_count,
                movable,
                np.random.randint(16, 97),
                np.random.randint(0, 1 << 30),
            )
            nk = _window(rows, cols, 2, wmax, movable, col, order, inwin, True)
            if nk > 1:
                d, used = reoptimise(
                    rows,
                    cols,
                    order[:nk].copy(),
                    inwin,
                    cell_e,
                    col,
                    allowed,
                    ent_col,
                    ent_type,
                    ntypes,
                    K,
                    window_nodes,
                    np.random.randint(0, 1 << 30),
                    0,
                    False,
                )
                gain += d
                nodes += used
            for k in range(nk):
                inwin[order[k]] = False
            total += gain
            stall = 0 if gain < 0 else stall + 1
            if total < best_total:
                best_total = total
                best_e[:] = cell_e
                stall = 0
        if best_total <= target:
            break
        if total > best_total + accept:
            cell_e[:] = best_e
            for i in range(n):
                col[i] = ent_col[cell_e[i]]
            total = best_total
        nk = _window(rows, cols, kick_size, kick_size, movable, col, order, inwin, True)
        if nk > 1:
            d, used = reoptimise(
                rows,
                cols,
                order[:nk].copy(),
                inwin,
                cell_e,
                col,
                allowed,
                ent_col,
                ent_type,
                ntypes,
                K,
                window_nodes,
                np.random.randint(0, 1 << 30),
                kick_slack,
                True,
            )
            total += d
            nodes += used
        for k in range(nk):
            inwin[order[k]] = False
    return best_total, nodes


@leaf()
def fill_exact(
    order,
    keynb,
    keyside,
    chknb,
    chkside,
    ptab,
    tstart,
    tlist,
    ttype,
    K,
    ent_col,
    avail,
    col,
    state,
    pr,
    node_limit,
    look,
):
    """``fill`` with no mismatch allowed, trimmed to the exact search's needs (decision, proofs, counts).

    Same state, same tables, same order of candidates and the same solutions as
    ``fill`` with a zero budget (the same nodes too, look off); about twice as fast, because a position's
    candidates are one bucket and its key colours are read once.

    ``look`` (``search.row_ahead``; all zeros: off): at the end of a row the
    next row is laid right to left in a relaxation (unused tiles, repeats
    allowed, tops set): ``back[kk]``, the colours the left side of position
    kk's cell can show with everything to its right laid, from the unused
    tiles' left colours by (class, top, right) in ``mask``.  The tile that
    ends a row is refused when some ``back`` is empty, a tile in the next row
    when its right side is not in ``back`` of the position after it.  The
    relaxation only loses impossible boards, so counts stay exact; a refused
    tile is not a node.
    """
    cur, end, _phase, _brk, _keya, _keyb, place, best, st = state
    block, useback, back, cls, tp_start, tp_cnt, tp_mask, tp_bit, cnt, mask = look
    looking = False  # any position has a class (a loop: numba's max() allocates, and this function may not)
    for c in cls:
        looking = looking or c >= 0
    nk = order.shape[0]
    KK = K * K
    ANY = K - 1
    k = st[DEPTH]
    nodes = 0
    split_depth = pr[SPLIT_DEPTH]
    count = pr[COUNT]
    if k < 0:
        st[STATUS] = EXHAUSTED
        return EXHAUSTED
    while True:
        c = cur[k]
        stop = end[k]
        chosen = -1
        n0 = chknb[k, 0]
        while c < stop:
            slot = c
            c += 1
            if avail[ttype[slot]] == 0:
                continue
            if n0 >= 0:
                e = tlist[slot]
                s0 = chkside[k, 0]
                if ent_col[e, s0] != col[n0, (s0 + 2) & 3]:
                    continue
                n1 = chknb[k, 1]
                if n1 >= 0:
                    s1 = chkside[k, 1]
                    if ent_col[e, s1] != col[n1, (s1 + 2) & 3]:
                        continue
            if k == split_depth:
                st[SPLIT] += 1
                if (st[SPLIT] - 1) % pr[SPLIT_MOD] != pr[SPLIT_REM]:
                    continue
            chosen = slot
            break
        cur[k] = c
        if chosen < 0:
            k -= 1
            if k < 0:
                st[DEPTH] = -1
                st[NODES] += nodes
                st[STATUS] = EXHAUSTED
                return EXHAUSTED
            t = ttype[place[k]]
            avail[t] += 1
            if looking:  # give the tile back to the look's tables
                for i in range(tp_start[t], tp_start[t + 1]):
                    cnt[tp_cnt[i]] += 1
                    mask[tp_mask[i]] |= tp_bit[i]
            continue
        if useback[k] and not (back[k + 1] >> ent_col[tlist[chosen], 1]) & 1:
            continue  # the rest of this row cannot be laid right of this tile
        if looking and k < nk - 1:
            t = ttype[chosen]
            for i in range(tp_start[t], tp_start[t + 1]):  # take the tile from the look's tables
                j = tp_cnt[i]
                n = cnt[j] - 1
                cnt[j] = n
                mask[tp_mask[i]] &= ~(tp_bit[i] * (n == 0))  # branch-free: clear the bit when no tile shows it
            if block[k]:  # the next row, right to left
                e = tlist[chosen]
                cell = order[k]
                saved = col[cell, 2]
                col[cell, 2] = ent_col[e, 2]
                right = (1 << ANY) - 1
                for kk in range(k + block[k], k, -1):
                    base = (cls[kk] * K + col[keynb[kk, 0], 2]) * K
                    lefts = 0
                    while right:
                        low = right & -right
                        lefts |= mask[base + BIT_INDEX[((low * DE_BRUIJN) >> 58) & 63]]
                        right ^= low
                    back[kk] = lefts
                    right = lefts
                    if lefts == 0:
                        break
                col[cell, 2] = saved
                if right == 0:
                    for i in range(tp_start[t], tp_start[t + 1]):
                        cnt[tp_cnt[i]] += 1
                        mask[tp_mask[i]] |= tp_bit[i]
                    continue  # the next row cannot be laid under this one
        nodes += 1
        place[k] = chosen
        if k == nk - 1:
            st[SOLUTIONS] += 1
            if st[BEST] < 0:
                st[BEST] = 0
                for x in range(place.shape[0]):  # not best[:] = place[:], which may allocate
                    best[x] = place[x]
            if count == 0:
                st[DEPTH] = k
                st[NODES] += nodes
                st[STATUS] = FOUND
                return FOUND
        else:
            avail[ttype[chosen]] -= 1
            e = tlist[chosen]
            cell = order[k]
            col[cell, 0] = ent_col[e, 0]
            col[cell, 1] = ent_col[e, 1]
            col[cell, 2] = ent_col[e, 2]
            col[cell, 3] = ent_col[e, 3]
            k += 1
            nb = keynb[k, 0]
            a = col[nb, (keyside[k, 0] + 2) & 3] if nb >= 0 else ANY
            nb = keynb[k, 1]
            b = col[nb, (keyside[k, 1] + 2) & 3] if nb >= 0 else ANY
            idx = ptab[k] * KK + a * K + b
            cur[k] = tstart[idx]
            end[k] = tstart[idx + 1]
        if nodes >= node_limit:
            st[DEPTH] = k
            st[NODES] += nodes
            st[STATUS] = RUNNING
            return RUNNING
