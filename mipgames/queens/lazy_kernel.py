"""The lazy level search (lazy.LazySearch) compiled with numba: the same nodes in the same order.

Written like levels_kernel.py (whose survivors bound, closure rows, undo and
level change it shares): the recursion is an explicit stack of frames, a run stops after a
node budget with its state in arrays, and the caller looks at the clock
between budgets.  A token is named by its smaller square; ``mate`` holds the
other square of a two-square token.  Tests compare node counts and answers
with the reference.

The token graph was most of a node's cost, so it holds less than the reference's: edges between tokens of one
level (the matchings of the bound, the partners of a pair), and per token only whether some token of a lower
level can still meet it (``low``: a level that could grow into its own, which is all the bound asks across
levels).  The bound and the options come out the same, so the nodes do.  The scan reads lines of sight as rows
of bits, so a square visits only the live neighbours of its own level and the levels below.  The graph is kept
between nodes instead of being rebuilt (``_update``): a node changes the state of a few squares, only the tokens
holding them are scanned again, and a log of the lists they had undoes it on the way back.  Neither the bound
nor the options depend on the order of a token's list (the partners are sorted by keys that end with the
tie-break, a permutation of the squares: no two tokens share one), so the lists may lose their order.
``check`` compares the kept graph with a rebuilt one at every node (the tests run so).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros  # LLVM's cttz: numba has no public name for it

from mipgames.core.kernel_cache import drop_stale, leaf
from mipgames.queens.lazy import FREE, jump_band
from mipgames.queens.levels_kernel import (
    ALL_SETTLED,
    BUDGET,
    CYCLE,
    ENTER,
    EXHAUSTED,
    FOUND,
    MAX_LEVEL,
    NEXT,
    NONE,
    OK,
    OVERFLOW,
    PAIR,
    RESTART,
    ROOT,
    Engine,
    _undo,
    add_edge,
    child_pending,
    has,
    next_level,
    popcount,
    survivors_bound,
)

drop_stale(__file__)  # before numba loads a cache: see core/kernel_cache.py

DONE = 3
"""Frame phases: 0 pairs, 1 and 2 the token staying on its first or second square, DONE."""


@leaf()
def _rep(i, mate):
    o = mate[i]
    return i if o < 0 or i < o else o


@leaf()
def _standable(x, mate, last, mask, fixed):
    o = mate[x]
    if o < 0:
        return True
    if fixed[o] != FREE and fixed[o] != x:  # o may only move into its fixed parent (STAYS: nowhere)
        return False
    if has(mask, x, o):
        return False
    return last[x] < 0 or not has(mask, o, last[x])


@leaf()
def _pair_ok(x, y, mate, last, mask, root, pid, btw_start, btw, fixed):
    if not (_standable(x, mate, last, mask, fixed) and _standable(y, mate, last, mask, fixed)):
        return False
    return _clear(x, y, mask, root, pid, btw_start, btw)


@leaf()
def _clear(x, y, mask, root, pid, btw_start, btw):
    """Whether every queen between squares x and y can still leave before either of them."""
    b = pid[x, y]
    for z in range(btw_start[b], btw_start[b + 1]):
        k = btw[z]
        if root[k] or has(mask, x, k) or has(mask, y, k):
            return False
    return True


@leaf()
def _stand(x, q, mate, last, parent, mask, after_count, edges_u, edges_v, trail_x, trail_rows, cnt):
    """LazySearch.stand: x's token stands on x."""
    o = mate[x]
    if o < 0:
        return OK
    code = add_edge(o, x, q, mask, after_count, edges_u, edges_v, trail_x, trail_rows, cnt)
    if code != OK:
        return code
    if last[x] >= 0:
        code = add_edge(last[x], o, q, mask, after_count, edges_u, edges_v, trail_x, trail_rows, cnt)
        if code != OK:
            return code
    parent[o] = x
    last[x] = o
    return OK


@leaf()
def _unstand(x, o, before, parent, last):
    if o >= 0:
        parent[o] = -1
    last[x] = before


# graph state scalars (gst)
VALID, LOG, BUF, UPDATE, SCAN, CHECK, DEEPEST, HIGHEST, JUMP_LO, JUMP_HI, JUMPED = range(11)
UNSYNCED, REBUILT = 0, 1
"""Frame row 14 (graph): how the child's graph was made: not yet, rebuilt, or 2 + the log mark of an update."""
MISMATCH = 5
"""run's result when the checking mode finds the kept graph differs from a rebuilt one (a bug)."""


@leaf()
def _prepare(q, parent, root, level, mate, last, mask, fixed, alive, sok, at_level, below):
    """Per square: alive, standable; per level the standable live squares as bits, and those of the levels
    below."""
    at_level[:, :] = 0
    for i in range(q):
        alive[i] = parent[i] < 0 and not root[i]
        sok[i] = alive[i] and _standable(i, mate, last, mask, fixed)
        if sok[i]:
            at_level[level[i], i >> 6] |= np.uint64(1) << np.uint64(i & 63)
    for w in range(at_level.shape[1]):
        acc = np.uint64(0)
        for lv in range(MAX_LEVEL):
            below[lv, w] = acc
            acc |= at_level[lv, w]


@leaf()
def _find_low(t, lines, tokens, sok, below, low, wit):
    """Whether token t sees a standable square of a lower level with nothing in the way (its witness in wit)."""
    pid, btw_start, btw, sight = lines
    mate, level, mask, root = tokens
    low[t] = False
    wit[t] = -1
    lt = level[t]
    for s in range(1 if mate[t] < 0 else 2):
        i = t if s == 0 else mate[t]
        if not sok[i]:
            continue
        for w in range(sight.shape[1]):
            bits = sight[i, w] & below[lt, w]
            while bits != 0:
                j = w * 64 + trailing_zeros(bits)
                bits &= bits - np.uint64(1)
                if _clear(i, j, mask, root, pid, btw_start, btw):
                    low[t] = True
                    wit[t] = j
                    return


@leaf()
def _scan(t, log_it, lines, tokens, sok, at_level, graph, log, work):
    """Adds token t's edges to the tokens of its level not scanned yet in this pass (marked ``-gst[UPDATE]`` in
    ``done``), logging each list it changes when ``log_it``; False when the log is full."""
    pid, btw_start, btw, sight = lines
    mate, level, mask, root = tokens
    adjm, adj_len, _, _ = graph
    gst = log[0]
    _, done, stamp, _ = work
    upd = gst[UPDATE]
    done[t] = -upd
    gst[SCAN] += 1
    sid = gst[SCAN]
    lt = level[t]
    for s in range(1 if mate[t] < 0 else 2):
        i = t if s == 0 else mate[t]
        if not sok[i]:
            continue
        for w in range(sight.shape[1]):
            bits = sight[i, w] & at_level[lt, w]
            while bits != 0:
                j = w * 64 + trailing_zeros(bits)
                bits &= bits - np.uint64(1)
                u = _rep(j, mate)
                if stamp[u] == sid or done[u] == -upd or not _clear(i, j, mask, root, pid, btw_start, btw):
                    continue
                stamp[u] = sid
                if log_it and not _save(u, graph, log):
                    return False
                adjm[t, adj_len[t]] = u
                adj_len[t] += 1
                adjm[u, adj_len[u]] = t
                adj_len[u] += 1
    return True


@leaf()
def _rebuild(q, lines, tokens, prepared, graph, log, work):
    """The token graph from scratch: edges between tokens of one level, and each token's ``low``."""
    mate = tokens[0]
    sok, at_level, below, alive = prepared
    _, adj_len, low, wit = graph
    for i in range(q):
        adj_len[i] = 0
        low[i] = False
        wit[i] = -1
    log[0][UPDATE] += 1
    for t in range(q):
        if alive[t] and _rep(t, mate) == t:
            _scan(t, False, lines, tokens, sok, at_level, graph, log, work)
            _find_low(t, lines, tokens, sok, below, low, wit)


@leaf()
def _save(r, graph, log):
    """Logs token r's edges, flag and witness, once per update, before they change; False when the log is full."""
    adjm, adj_len, low, wit = graph
    gst, glog, gbuf, logged = log
    if logged[r] == gst[UPDATE]:
        return True
    n, b, ln = gst[LOG], gst[BUF], adj_len[r]
    if n >= glog.shape[1] or b + ln > gbuf.shape[0]:
        return False
    logged[r] = gst[UPDATE]
    glog[0, n], glog[1, n], glog[2, n], glog[3, n], glog[4, n] = r, ln, 1 if low[r] else 0, wit[r], b
    for x in range(ln):
        gbuf[b + x] = adjm[r, x]
    gst[LOG], gst[BUF] = n + 1, b + ln
    return True


@leaf()
def _restore(mark, graph, log):
    """Undoes the logged changes back to ``mark``."""
    adjm, adj_len, low, wit = graph
    gst, glog, gbuf, _ = log
    n = gst[LOG]
    if n <= mark:
        return
    while n > mark:
        n -= 1
        r, ln, b = glog[0, n], glog[1, n], glog[4, n]
        adj_len[r] = ln
        low[r] = glog[2, n] != 0
        wit[r] = glog[3, n]
        for x in range(ln):
            adjm[r, x] = gbuf[b + x]
    gst[LOG], gst[BUF] = mark, glog[4, mark]


@leaf()
def _drop(mark, gst, glog):
    """Forgets the log past ``mark`` without undoing it (the graph is rebuilt before it is read again)."""
    if gst[LOG] > mark:
        gst[LOG], gst[BUF] = mark, glog[4, mark]


@leaf()
def _matters(a, old, mask, sight, mate, last):
    """Whether square a's precedence row gained a bit the graph reads: a square in line with a (one that may
    stand between a and a partner), a's mate, or the last arrival on a's mate (``_standable``)."""
    for w in range(sight.shape[1]):
        if (mask[a, w] & ~old[w]) & sight[a, w] != 0:
            return True
    o = mate[a]
    if o < 0:
        return False
    if (mask[a, o >> 6] & ~old[o >> 6]) >> np.uint64(o & 63) & np.uint64(1):
        return True
    b = last[o]
    return b >= 0 and (mask[a, b >> 6] & ~old[b >> 6]) >> np.uint64(b & 63) & np.uint64(1) != 0


@leaf()
def _update(moved, rows, last, q, near, lines, tokens, prepared, graph, log, work):
    """Brings the token graph from the parent's state to this node's, logging what it changes; False when
    rebuilding is cheaper or the log is full (the changes made are then to be dropped: a rebuild follows).

    Only pairs of squares whose state changed can change: the squares of the two tokens paired (or of the token
    that stays), the squares whose precedence row changed (the trail since the parent), for a token that stays
    every square in line with it (pairs across it are blocked now), and the other squares of their tokens.  The
    tokens holding them lose their edges and are scanned again; another token's ``low`` changes only when its
    witness is among them.  ``moved``: what the parent applied (PAIR or ROOT, the squares and their old mates);
    ``rows``: the trail since the parent (squares, their old rows)."""
    app, x, ox, y, oy = moved
    changed, old_rows = rows
    nbr_start, nbr = near
    sok, at_level, below, alive = prepared
    pid, btw_start, btw, sight = lines
    mate, level, mask, root = tokens
    adjm, adj_len, low, wit = graph
    gst = log[0]
    seen, done, _, squares = work
    gst[UPDATE] += 1
    upd = gst[UPDATE]
    n = 0
    for a in (x, ox, y, oy):
        if a >= 0 and seen[a] != upd:
            seen[a] = upd
            squares[n] = a
            n += 1
    for z in range(changed.shape[0]):
        a = changed[z]
        if a >= q:  # a row of predecessors (levels_kernel.add_edge): the graph reads none
            continue
        if seen[a] == upd or not _matters(a, old_rows[z], mask, sight, mate, last):
            continue
        seen[a] = upd
        squares[n] = a
        n += 1
    if app == ROOT:
        for z in range(nbr_start[x], nbr_start[x + 1]):
            a = nbr[z]
            if seen[a] != upd:
                seen[a] = upd
                squares[n] = a
                n += 1
    h = 0
    while h < n:
        o = mate[squares[h]]
        h += 1
        if o >= 0 and seen[o] != upd:
            seen[o] = upd
            squares[n] = o
            n += 1
    if 4 * n > q:
        return False
    # the old tokens of the changed squares lose their edges
    for h in range(n):
        a = squares[h]
        if a == x or a == ox:
            r = x if ox < 0 or x < ox else ox
        elif a == y or a == oy:
            r = y if oy < 0 or y < oy else oy
        elif alive[a]:
            r = _rep(a, mate)
        else:
            continue
        if done[r] == upd:
            continue
        done[r] = upd
        if not _save(r, graph, log):
            return False
        for e in range(adj_len[r]):
            u = adjm[r, e]
            if not _save(u, graph, log):
                return False
            for f in range(adj_len[u]):
                if adjm[u, f] == r:
                    adj_len[u] -= 1
                    adjm[u, f] = adjm[u, adj_len[u]]
                    break
        adj_len[r] = 0
    # a square that is a token's name only now may hold a stale list
    for h in range(n):
        a = squares[h]
        if alive[a]:
            t = _rep(a, mate)
            if done[t] != upd:
                done[t] = upd
                if not _save(t, graph, log):
                    return False
                adj_len[t] = 0
    # the live tokens holding them are scanned again (done: -upd once scanned)
    for h in range(n):
        a = squares[h]
        if not alive[a]:
            continue
        t = _rep(a, mate)
        if done[t] == -upd:
            continue
        if not _scan(t, True, lines, tokens, sok, at_level, graph, log, work):
            return False
        _find_low(t, lines, tokens, sok, below, low, wit)
    # another token's flag changes only when its witness is among them: going down the search a square only
    # loses its standing, a line only gets blocked, and the squares just paired could already stand.  Such a
    # token sees its witness from a standable square of a higher level than the witness had (x and y have just
    # risen one), and its squares kept their standing (else it was scanned above): only those squares are read.
    top = MAX_LEVEL - 1
    for h in range(n):
        a = squares[h]
        was = level[a] - 1 if a == x or a == y else level[a]
        for w in range(sight.shape[1]):
            bits = sight[a, w] & (below[top, w] | at_level[top, w]) & ~below[was + 1, w]
            while bits != 0:
                i = w * 64 + trailing_zeros(bits)
                bits &= bits - np.uint64(1)
                t = _rep(i, mate)
                if done[t] == -upd or not low[t] or wit[t] != a:
                    continue
                if not _save(t, graph, log):
                    return False
                _find_low(t, lines, tokens, sok, below, low, wit)
    return True


@leaf()
def _same_graph(q, mate, alive, adjm, adj_len, low, adj2, len2, low2, mark):
    """Whether two token graphs have the same edges and flags (the checking mode)."""
    for t in range(q):
        if not alive[t] or _rep(t, mate) != t:
            continue
        if adj_len[t] != len2[t] or low[t] != low2[t]:
            return False
        for e in range(adj_len[t]):
            mark[adjm[t, e]] = t
        for e in range(len2[t]):
            if mark[adj2[t, e]] != t:
                return False
        for e in range(adj_len[t]):
            mark[adjm[t, e]] = -1
    return True


@leaf()
def _jump_target(depth, f_t, f_m, f_app, f_x, f_y, gst):
    """The frame to go back to when frame ``depth`` failed: its parent, or, when the dive jumps and the frame's
    token (of a level in gst's jump band) was made by a pair of this dive, the frame that made it
    (lazy.LazySearch.settle says why)."""
    t, m = f_t[depth], f_m[depth]
    if gst[JUMP_LO] <= 0 or t < 0 or m < gst[JUMP_LO] or m > gst[JUMP_HI]:
        return depth - 1
    for p in range(depth - 1, -1, -1):
        if f_app[p] == PAIR and f_m[p] == m - 1 and min(f_x[p], f_y[p]) == t:
            if p < depth - 1:
                gst[JUMPED] = 1
            return p
    return depth - 1


@njit(cache=True)
def run(
    q,
    k,
    nbr_start,
    nbr,
    pid,
    btw_start,
    btw,
    jitter,
    limit,
    budget,
    st,
    mask,
    trail_x,
    trail_rows,
    edges_u,
    edges_v,
    tok,
    tok_len,
    pend,
    fr,
    opt_x,
    opt_y,
    scalars,
    adjm,
    adj_len,
    fixed,
    sight,
    low,
    wit,
    gst,
    glog,
    gbuf,
):
    """Runs the lazy search from the state in the arrays for at most ``budget`` more nodes.

    st rows: level, root, parent, last, mate, after_count.  fr rows (per frame): m, t, phase, options,
    next option, applied, x, y, mate of x, mate of y, last of x, last of y, edge mark, trail mark, how the
    child's graph was made (UNSYNCED, REBUILT or 2 + a log mark).
    scalars = [depth, nodes, roots, left, n_edges, n_trail, mode].  sight: lines of sight as bit rows.  fixed:
    per square FREE, STAYS or the square it must move into (lazy.LazySearch).
    """
    level, root, parent, last, mate, after_count = st[0], st[1], st[2], st[3], st[4], st[5]
    f_m, f_t, f_phase, f_len, f_idx, f_app = fr[0], fr[1], fr[2], fr[3], fr[4], fr[5]
    f_x, f_y, f_ox, f_oy, f_lx, f_ly, f_e, f_tr = fr[6], fr[7], fr[8], fr[9], fr[10], fr[11], fr[12], fr[13]
    f_g = fr[14]
    depth, nodes, roots, left = scalars[0], scalars[1], scalars[2], scalars[3]
    mode = scalars[6]
    cnt = np.empty(2, np.int64)
    cnt[0], cnt[1] = scalars[4], scalars[5]
    stop = nodes + budget
    width = adjm.shape[1]
    alive = np.zeros(q, np.bool_)
    vertex = np.zeros(q, np.bool_)
    stay = np.zeros(q, np.bool_)
    sok = np.zeros(q, np.bool_)
    logged = np.zeros(q, np.int64)
    seen_sq = np.zeros(q, np.int64)
    done = np.zeros(q, np.int64)
    stamp = np.zeros(q, np.int64)
    squares = np.empty(q, np.int64)
    checking = gst[CHECK] != 0
    adj2 = np.empty((q if checking else 1, width), np.int64)
    len2 = np.empty(q, np.int64)
    low2 = np.zeros(q, np.bool_)
    wit2 = np.empty(q, np.int64)
    cmp_mark = np.full(q, -1, np.int64)
    lines = (pid, btw_start, btw, sight)
    tokens = (mate, level, mask, root)
    graph = (adjm, adj_len, low, wit)
    log = (gst, glog, gbuf, logged)
    work = (seen_sq, done, stamp, squares)
    near = (nbr_start, nbr)
    words = sight.shape[1]
    at_level = np.zeros((MAX_LEVEL, words), np.uint64)
    below = np.zeros((MAX_LEVEL, words), np.uint64)
    prepared = (sok, at_level, below, alive)  # _prepare fills them at every node
    options = np.zeros(q, np.int64)
    seen = np.zeros(q, np.bool_)
    members = np.empty(q, np.int64)
    index = np.full(q, -1, np.int64)
    gadj = np.empty((q, width), np.int64)
    glen = np.zeros(q, np.int64)
    match = np.empty((7, q), np.int64)
    cand = np.empty(width, np.int64)
    keys = np.empty((width, 3), np.int64)
    comb = np.empty((width, 4, 3), np.int64)
    ncomb = np.zeros(width, np.int64)
    result = BUDGET
    while True:
        if mode == ENTER:
            if nodes >= stop:
                result = BUDGET
                break
            nodes += 1
            if limit > 0 and nodes > limit:
                result = RESTART
                break
            m = f_m[depth]
            if depth > gst[DEEPEST]:
                gst[DEEPEST] = depth
            fail = roots + popcount(left) > k
            if not fail:
                _prepare(q, parent, root, level, mate, last, mask, fixed, alive, sok, at_level, below)
                p = depth - 1
                if gst[VALID] == 0 or (p >= 0 and f_g[p] == UNSYNCED):
                    rebuild = gst[VALID] == 0
                    if not rebuild:
                        mark, bmark = gst[LOG], gst[BUF]
                        y, oy = (f_y[p], f_oy[p]) if f_app[p] == PAIR else (-1, -1)
                        moved = (f_app[p], f_x[p], f_ox[p], y, oy)
                        rows = (trail_x[f_tr[p] : cnt[1]], trail_rows[f_tr[p] : cnt[1]])
                        if _update(moved, rows, last, q, near, lines, tokens, prepared, graph, log, work):
                            f_g[p] = mark + 2
                        else:
                            gst[LOG], gst[BUF] = mark, bmark
                            rebuild = True
                    if rebuild:
                        _rebuild(q, lines, tokens, prepared, graph, log, work)
                        gst[VALID] = 1
                        if p >= 0:
                            f_g[p] = REBUILT
                    if checking:
                        _rebuild(q, lines, tokens, prepared, (adj2, len2, low2, wit2), log, work)
                        if not _same_graph(q, mate, alive, adjm, adj_len, low, adj2, len2, low2, cmp_mark):
                            result = MISMATCH
                            break
                for i in range(q):
                    vertex[i] = alive[i] and _rep(i, mate) == i
                    stay[i] = after_count[i] == 0 or (mate[i] >= 0 and after_count[mate[i]] == 0)
                needed = survivors_bound(
                    q, vertex, stay, level, adjm, adj_len, low, left, seen, members, index, gadj, glen, match
                )
                if needed < 0 or roots + needed > k:
                    fail = True
            if fail:
                f_t[depth] = -1  # no token chosen: nothing to jump back for
                mode = NEXT
                f_phase[depth] = DONE
                f_len[depth] = 0
                f_idx[depth] = 0
                continue
            nxt = next_level(depth, m, q, pend, tok, tok_len)
            if nxt == ALL_SETTLED:
                result = FOUND
                break
            if nxt >= 0:
                f_m[depth] = nxt
                if nxt > gst[HIGHEST]:
                    gst[HIGHEST] = nxt
                continue  # enter the same frame again, at the next level
            t = -1
            for i in range(q):
                if pend[depth, i]:
                    c = 0
                    for x in range(adj_len[i]):
                        if pend[depth, adjm[i, x]]:
                            c += 1
                    options[i] = c
                    if t < 0 or c < options[t] or (c == options[t] and jitter[i] < jitter[t]):
                        t = i
            ncand = 0
            for a in range(adj_len[t]):
                u = adjm[t, a]
                if not pend[depth, u]:
                    continue
                nc = 0
                for s in range(1 if mate[t] < 0 else 2):
                    x = t if s == 0 else mate[t]
                    for r in range(1 if mate[u] < 0 else 2):
                        y = u if r == 0 else mate[u]
                        b = pid[x, y]
                        if b < 0 or not _pair_ok(x, y, mate, last, mask, root, pid, btw_start, btw, fixed):
                            continue
                        length = btw_start[b + 1] - btw_start[b]
                        z = nc  # insertion, stable by squares between
                        while z > 0 and comb[ncand, z - 1, 0] > length:
                            comb[ncand, z, 0] = comb[ncand, z - 1, 0]
                            comb[ncand, z, 1] = comb[ncand, z - 1, 1]
                            comb[ncand, z, 2] = comb[ncand, z - 1, 2]
                            z -= 1
                        comb[ncand, z, 0], comb[ncand, z, 1], comb[ncand, z, 2] = length, x, y
                        nc += 1
                if nc == 0:
                    continue
                ncomb[ncand] = nc
                keys[ncand, 0], keys[ncand, 1], keys[ncand, 2] = comb[ncand, 0, 0], options[u], jitter[u]
                cand[ncand] = ncand
                ncand += 1
            for a in range(1, ncand):  # stable insertion sort of the partners by their keys
                b = a
                while b > 0:
                    p, r = cand[b - 1], cand[b]
                    less = keys[r, 0] < keys[p, 0] or (
                        keys[r, 0] == keys[p, 0]
                        and (keys[r, 1] < keys[p, 1] or (keys[r, 1] == keys[p, 1] and keys[r, 2] < keys[p, 2]))
                    )
                    if not less:
                        break
                    cand[b - 1], cand[b] = r, p
                    b -= 1
            nopt = 0
            for a in range(ncand):
                r = cand[a]
                for z in range(ncomb[r]):
                    opt_x[depth, nopt] = comb[r, z, 1]
                    opt_y[depth, nopt] = comb[r, z, 2]
                    nopt += 1
            f_len[depth] = nopt
            f_idx[depth] = 0
            f_t[depth] = t
            f_phase[depth] = 0
            mode = NEXT
            continue
        # mode NEXT: the next option of frame ``depth``
        m = f_m[depth]
        t = f_t[depth]
        pushed = False
        while f_phase[depth] == 0 and f_idx[depth] < f_len[depth]:
            x, y = opt_x[depth, f_idx[depth]], opt_y[depth, f_idx[depth]]
            f_idx[depth] += 1
            ox, oy, lx, ly = mate[x], mate[y], last[x], last[y]
            u = _rep(y, mate)
            mark_e, mark_t = cnt[0], cnt[1]
            code = _stand(x, q, mate, last, parent, mask, after_count, edges_u, edges_v, trail_x, trail_rows, cnt)
            if code == OK:
                code = _stand(y, q, mate, last, parent, mask, after_count, edges_u, edges_v, trail_x, trail_rows, cnt)
            if code == OK:
                b = pid[x, y]
                for z in range(btw_start[b], btw_start[b + 1]):
                    w = btw[z]
                    if root[w]:
                        code = CYCLE
                        break
                    code = add_edge(w, x, q, mask, after_count, edges_u, edges_v, trail_x, trail_rows, cnt)
                    if code != OK:
                        break
                    code = add_edge(w, y, q, mask, after_count, edges_u, edges_v, trail_x, trail_rows, cnt)
                    if code != OK:
                        break
            if code == OVERFLOW:
                result = OVERFLOW
                break
            if code != OK:
                _unstand(y, oy, ly, parent, last)
                _unstand(x, ox, lx, parent, last)
                cnt[0], cnt[1] = _undo(mark_e, mark_t, cnt[0], cnt[1], edges_u, after_count, mask, trail_x, trail_rows)
                continue
            f_app[depth] = PAIR
            f_x[depth], f_y[depth], f_ox[depth], f_oy[depth] = x, y, ox, oy
            f_lx[depth], f_ly[depth], f_e[depth], f_tr[depth] = lx, ly, mark_e, mark_t
            mate[x], mate[y] = y, x
            level[x] = m + 1
            level[y] = m + 1
            tok[m + 1, tok_len[m + 1]] = min(x, y)
            tok_len[m + 1] += 1
            child_pending(pend, depth, q, t, u)
            f_m[depth + 1] = m
            depth += 1
            pushed = True
            break
        if result == OVERFLOW:
            break
        if pushed:
            mode = ENTER
            continue
        while f_phase[depth] < DONE:  # the token stays on its first, then its second square
            if f_phase[depth] == 0:
                f_phase[depth] = 1
                if roots >= k:
                    f_phase[depth] = DONE
                    break
            s = f_phase[depth] - 1
            f_phase[depth] += 1
            if s == 1 and mate[t] < 0:
                continue
            x = t if s == 0 else mate[t]
            if after_count[x] != 0 or fixed[x] >= 0 or not _standable(x, mate, last, mask, fixed):
                continue
            ox, lx = mate[x], last[x]
            mark_e, mark_t = cnt[0], cnt[1]
            code = _stand(x, q, mate, last, parent, mask, after_count, edges_u, edges_v, trail_x, trail_rows, cnt)
            if code == OVERFLOW:
                result = OVERFLOW
                break
            if code != OK:
                _unstand(x, ox, lx, parent, last)
                cnt[0], cnt[1] = _undo(mark_e, mark_t, cnt[0], cnt[1], edges_u, after_count, mask, trail_x, trail_rows)
                continue
            f_app[depth] = ROOT
            f_x[depth], f_ox[depth], f_lx[depth], f_e[depth], f_tr[depth] = x, ox, lx, mark_e, mark_t
            root[x] = True
            roots += 1
            left -= np.int64(1) << m
            child_pending(pend, depth, q, t, t)
            f_m[depth + 1] = m
            depth += 1
            pushed = True
            break
        if result == OVERFLOW:
            break
        if pushed:
            mode = ENTER
            continue
        # frame ``depth`` failed: back to its parent (or, jumping, to the frame that made its token), undoing
        # what each frame on the way applied
        if depth == 0:
            result = RESTART if gst[JUMPED] != 0 else EXHAUSTED  # a dive that jumped proves nothing
            break
        target = _jump_target(depth, f_t, f_m, f_app, f_x, f_y, gst)
        while depth > target:
            depth -= 1
            m = f_m[depth]
            x = f_x[depth]
            if f_app[depth] == PAIR:
                y = f_y[depth]
                tok_len[m + 1] -= 1
                level[x] = m
                level[y] = m
                mate[x], mate[y] = f_ox[depth], f_oy[depth]
                _unstand(y, f_oy[depth], f_ly[depth], parent, last)
                _unstand(x, f_ox[depth], f_lx[depth], parent, last)
            elif f_app[depth] == ROOT:
                root[x] = False
                roots -= 1
                left += np.int64(1) << m
                _unstand(x, f_ox[depth], f_lx[depth], parent, last)
            cnt[0], cnt[1] = _undo(
                f_e[depth], f_tr[depth], cnt[0], cnt[1], edges_u, after_count, mask, trail_x, trail_rows
            )
            g = f_g[depth]
            if g >= 2 and gst[VALID] != 0:
                _restore(g - 2, graph, log)
            elif g >= 2:
                _drop(g - 2, gst, glog)
            elif g == REBUILT:
                gst[VALID] = 0
            f_g[depth] = UNSYNCED
            f_app[depth] = NONE
        mode = NEXT
    scalars[0], scalars[1], scalars[2], scalars[3] = depth, nodes, roots, left
    scalars[4], scalars[5], scalars[6] = cnt[0], cnt[1], mode
    return result


class CompiledLazy(Engine):
    """Static arrays of one position and the state of one dive of the compiled lazy search."""

    def __init__(self, geo, k: int, fixed=None, check: bool = False):
        """``check``: compare the kept token graph with a rebuilt one at every node (tests; slow)."""
        super().__init__(geo, k)
        q = geo.size
        self.fixed = np.full(q, FREE, np.int64) if fixed is None else np.array(fixed, dtype=np.int64)
        width = 2 * max(1, self.degree)  # a token has up to two squares
        self.edge_cap = q * (4 + 2 * self.longest) + 8
        trail_cap = max(4096, min(1 << 20, (64 << 20) // (8 * self.words)))
        frames = q + 2
        self.st = np.zeros((6, q), np.int64)
        self.mask = np.zeros((2 * q, self.words), np.uint64)  # successors, then predecessors (add_edge)
        self.trail_x = np.zeros(trail_cap, np.int64)
        self.trail_rows = np.zeros((trail_cap, self.words), np.uint64)
        self.edges_u = np.zeros(self.edge_cap, np.int64)
        self.edges_v = np.zeros(self.edge_cap, np.int64)
        self.tok = np.zeros((MAX_LEVEL, q), np.int64)
        self.tok_len = np.zeros(MAX_LEVEL, np.int64)
        self.pend = np.zeros((frames, q), np.bool_)
        self.fr = np.zeros((15, frames), np.int64)
        self.opt_x = np.zeros((frames, 4 * width), np.int64)
        self.opt_y = np.zeros((frames, 4 * width), np.int64)
        self.adjm = np.zeros((q, width), np.int64)
        self.adj_len = np.zeros(q, np.int64)
        self.jit = np.zeros(q, np.int64)
        self.sight = np.zeros((q, self.words), np.uint64)
        """Lines of sight as bit rows: bit j of row i when squares i and j share a line."""
        self.low = np.zeros(q, np.bool_)
        self.wit = np.zeros(q, np.int64)
        self.gst = np.zeros(11, np.int64)
        """The kept token graph: valid, log entries and words in use, update and scan counters, checking mode;
        then how far the dive got: its deepest frame and the highest level it settled tokens of (``reach``); last
        the dive's jump band (``lazy.jump_band``) and whether it jumped."""
        self.glog = np.zeros((5, 64 * q + 4096), np.int64)
        self.gbuf = np.zeros(8 * (64 * q + 4096), np.int64)
        self.gst[CHECK] = int(check)
        rows = np.repeat(np.arange(q), np.diff(self.nbr_start))
        bits = np.left_shift(np.uint64(1), (self.nbr & 63).astype(np.uint64))
        np.bitwise_or.at(self.sight, (rows, self.nbr >> 6), bits)  # a Python loop took half the set-up

    def reset(self) -> None:
        """The state at the root of a dive: every queen a token of its starting level, nothing settled."""
        self.st[0] = self.exps
        self.st[1] = 0
        self.st[2:5] = -1
        self.st[5] = 0
        self.identity_mask(self.mask)
        self.tok_len[:] = 0
        for e, members in self.tokens.items():
            self.tok[e, : len(members)] = members
            self.tok_len[e] = len(members)
        first = min(self.tokens)
        self.pend[0, :] = False
        self.pend[0, self.tokens[first]] = True
        self.fr[:] = 0
        self.fr[0, 0] = first
        self.gst[VALID] = self.gst[LOG] = self.gst[BUF] = self.gst[DEEPEST] = 0
        self.gst[HIGHEST] = first  # raised where a dive enters the next level
        self.gst[JUMPED] = 0
        self.scalars[:] = (0, 0, 0, self.total, 0, 0, ENTER)

    def restart(self, jitter, run: int, limit: int, deadline: float | None) -> str | None:
        """A restart of levels.Restarts (every restart searches the same way, the odd ones jumping)."""
        return self.dive(jitter, limit, deadline, jump_band(run, limit))

    def dive(self, jitter, limit: int, deadline: float | None, jumps: tuple[int, int] = (0, 0)) -> str | None:
        """One restart: "found", "exhausted", "restart", "stop" (deadline) or None (overflow).  ``jitter`` is a
        permutation of the squares (the kept token graph relies on it: see the module's docstring); ``jumps``
        the levels whose failed tokens send the dive back to the pair that made them (``lazy.jump_band``)."""
        if len(jitter) != self.q or len(set(jitter)) != self.q:
            raise ValueError("the tie-breaks must be a permutation of the squares")
        self.reset()
        self.gst[JUMP_LO], self.gst[JUMP_HI] = jumps
        self.jit = np.array(jitter, dtype=np.int64)
        return self.loop(limit, deadline)

    def reach(self) -> tuple[int, int]:
        """(deepest frame, highest level entered) of the dive so far: how far a failed dive got
        (benchmarks/queens/reach.py)."""
        return int(self.gst[DEEPEST]), int(self.gst[HIGHEST])

    def run_budget(self, limit: int, budget: int) -> int:
        code = run(
            self.q,
            self.k,
            self.nbr_start,
            self.nbr,
            self.pid,
            self.btw_start,
            self.btw,
            self.jit,
            limit,
            budget,
            self.st,
            self.mask,
            self.trail_x,
            self.trail_rows,
            self.edges_u,
            self.edges_v,
            self.tok,
            self.tok_len,
            self.pend,
            self.fr,
            self.opt_x,
            self.opt_y,
            self.scalars,
            self.adjm,
            self.adj_len,
            self.fixed,
            self.sight,
            self.low,
            self.wit,
            self.gst,
            self.glog,
            self.gbuf,
        )
        if code == MISMATCH:
            raise AssertionError("the kept token graph differs from the rebuilt one")
        return code

    def parents(self) -> np.ndarray:
        return self.st[2]
