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

RUNNING, EXHAUSTED, FOUND = 0, 1, 2

# st: the scalars of a resumable search (int64)
DEPTH, NODES, SOLUTIONS, CAP, BEST, SPLIT, STATUS = range(7)
ST_SIZE = 7
# pr: parameters (int64)
COUNT, OPTIMISE, SPLIT_DEPTH, SPLIT_MOD, SPLIT_REM = range(5)
PR_SIZE = 5
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


@njit(cache=True)
def shuffle_tables(tstart, tlist, ttype, seed):
    """Randomise the order inside every bucket (a restart explores another part of the tree)."""
    np.random.seed(seed)
    for i in range(tstart.shape[0] - 1):
        lo, hi = tstart[i], tstart[i + 1]
        for j in range(hi - 1, lo, -1):
            r = lo + np.random.randint(0, j - lo + 1)
            tlist[j], tlist[r] = tlist[r], tlist[j]
            ttype[j], ttype[r] = ttype[r], ttype[j]


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def _enter(k, keynb, keyside, ptab, col, K, keya, keyb, budget, brk, cap, tstart, cur, end, phase):
    """Read the colours position k must show towards its key neighbours and open its exact bucket."""
    ANY = K - 1
    nb = keynb[k, 0]
    keya[k] = col[nb, (keyside[k, 0] + 2) & 3] if nb >= 0 else ANY
    nb = keynb[k, 1]
    keyb[k] = col[nb, (keyside[k, 1] + 2) & 3] if nb >= 0 else ANY
    _set_phase(k, 0, K, ptab[k] * K * K, keya, keyb, budget, brk, cap, tstart, cur, end, phase)


@njit(cache=True)
def start(keynb, keyside, ptab, col, K, budget, cap, tstart, state):
    """Reset a search to position 0 with no breaks.

    ``state`` = (cur, end, phase, brk, keya, keyb, place, best, st): the
    per-position cursors and the scalars, all int64.
    """
    cur, end, phase, brk, keya, keyb, place, best, st = state
    st[:] = 0
    st[CAP] = cap
    st[BEST] = -1
    if keynb.shape[0] == 0:
        st[DEPTH] = -1
        return
    brk[0] = 0
    st[DEPTH] = 0
    _enter(0, keynb, keyside, ptab, col, K, keya, keyb, budget, brk, cap, tstart, cur, end, phase)


@njit(cache=True)
def fill(order, keynb, keyside, chknb, chkside, ptab, tstart, tlist, ttype, K, ent_col, avail, col, budget, state,
         pr, node_limit):
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
                if ph >= 3 or not _set_phase(k, ph + 1, K, ptab[k] * KK, keya, keyb, budget, brk, cap, tstart, cur,
                                             end, phase):
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
                best[:] = place[:]
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
            _enter(k, keynb, keyside, ptab, col, K, keya, keyb, budget, brk, cap, tstart, cur, end, phase)
        if nodes >= node_limit:
            st[DEPTH] = k
            st[NODES] += nodes
            st[STATUS] = RUNNING
            return RUNNING
