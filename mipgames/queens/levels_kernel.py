"""The level search (levels.ForestSearch) compiled with numba: the same nodes in the same order, 30-100x faster.

``ForestSearch`` in levels.py is the reference and says what the search
does; this is the same search written for numba: recursion becomes an
explicit stack of frames, Python sets become arrays, and the precedence
closure (bit v of mask[u]: u departs before v) becomes rows of 64-bit words.
A run stops after a node budget with its whole state in the arrays of
:class:`Arrays`, so the caller can look at the clock and resume it.  Tests
compare node counts and answers with the reference on many positions.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros  # LLVM's cttz: numba has no public name for it

from mipgames.core.kernel_cache import drop_stale, leaf

drop_stale(__file__)  # before numba loads a cache: see core/kernel_cache.py

FOUND, EXHAUSTED, RESTART, BUDGET, OVERFLOW = 1, 2, 3, 0, 4
ENTER, NEXT = 0, 1
NONE, PAIR, ROOT = 0, 1, 2
MAX_LEVEL = 64


@leaf()
def popcount(value):
    count = 0
    while value:
        value &= value - 1
        count += 1
    return count


@leaf()
def has(mask, row, bit):
    return (mask[row, bit >> 6] >> np.uint64(bit & 63)) & np.uint64(1) != 0


# ---------------------------------------------------------------- matching (Edmonds), as matching.py


@leaf()
def _lca(a, b, base, mate, parent, seen):
    seen[:] = 0
    while True:
        a = base[a]
        seen[a] = 1
        if mate[a] == -1:
            break
        a = parent[mate[a]]
    while True:
        b = base[b]
        if seen[b]:
            return b
        b = parent[mate[b]]


@leaf()
def _mark(v, b, child, base, mate, parent, blossom):
    while base[v] != b:
        blossom[base[v]] = 1
        blossom[base[mate[v]]] = 1
        parent[v] = child
        child = mate[v]
        v = parent[mate[v]]


@leaf()
def _augment(root, gadj, glen, mate, n, work):
    used, parent, base, seen, blossom, queue = (
        work[1, :n],
        work[2, :n],
        work[3, :n],
        work[4, :n],
        work[5, :n],
        work[6, :n],
    )
    for i in range(n):
        used[i] = 0
        parent[i] = -1
        base[i] = i
    used[root] = 1
    queue[0] = root
    head, tail = 0, 1
    while head < tail:
        v = queue[head]
        head += 1
        for x in range(glen[v]):
            to = gadj[v, x]
            if base[v] == base[to] or mate[v] == to:
                continue
            if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                b = _lca(v, to, base, mate, parent, seen)
                blossom[:] = 0
                _mark(v, b, to, base, mate, parent, blossom)
                _mark(to, b, v, base, mate, parent, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = b
                        if not used[i]:
                            used[i] = 1
                            queue[tail] = i
                            tail += 1
            elif parent[to] == -1:
                parent[to] = v
                if mate[to] == -1:
                    end = to
                    while end != -1:
                        prev = parent[end]
                        nxt = mate[prev]
                        mate[end] = prev
                        mate[prev] = end
                        end = nxt
                    return
                used[mate[to]] = 1
                queue[tail] = mate[to]
                tail += 1


@leaf()
def deficiency(gadj, glen, n, work):
    """Vertices left unmatched by a maximum matching of the graph given by rows of gadj; ``work``: seven rows of
    at least n integers (scratch)."""
    mate = work[0, :n]
    mate[:] = -1
    for v in range(n):
        if mate[v] == -1:
            for x in range(glen[v]):
                w = gadj[v, x]
                if mate[w] == -1 and w != v:
                    mate[v] = w
                    mate[w] = v
                    break
    for root in range(n):
        if mate[root] == -1:
            _augment(root, gadj, glen, mate, n, work)
    free = 0
    for v in range(n):
        if mate[v] == -1:
            free += 1
    return free


# ---------------------------------------------------------------- the search


OK, CYCLE = 0, 1
"""add_edge's results besides OVERFLOW."""
PENDING, ALL_SETTLED = -1, -2
"""next_level's results besides a level."""


@leaf()
def add_edge(u, v, q, mask, after_count, edges_u, edges_v, trail_x, trail_rows, cnt):
    """Precedence u → v with its closure, kept both ways: rows 0..q-1 of ``mask`` hold each square's successors,
    rows q..2q-1 its predecessors (so the squares before u are read off a row of bits, not found by testing
    every row).  Every square before u gains v's successors, every square after v gains u's predecessors; each
    row changed goes on the trail first (by its row number).  cnt = [edges, trail rows] in use.  OK, CYCLE
    (nothing added) or OVERFLOW."""
    if has(mask, v, u):
        return CYCLE
    if cnt[0] >= edges_u.shape[0]:
        return OVERFLOW
    edges_u[cnt[0]] = u
    edges_v[cnt[0]] = v
    cnt[0] += 1
    after_count[u] += 1
    if has(mask, u, v):
        return OK
    # neither row read below changes on the way: u's predecessors would need v before u, v's successors u
    # before v, and either is the cycle refused above
    code = _spread(q + u, v, v, q, mask, trail_x, trail_rows, cnt)
    if code != OK:
        return code
    return _spread(v, q + u, u, q, mask, trail_x, trail_rows, cnt)


@leaf()
def _spread(members, source, known, q, mask, trail_x, trail_rows, cnt):
    """For every square in row ``members``, its row of the other kind (its successors when ``members`` is a row
    of predecessors, else its predecessors) gains row ``source``; a row that already holds square ``known``
    (the edge's far end) already holds ``source`` (closure) and is left alone."""
    words = mask.shape[1]
    offset = 0 if members >= q else q
    for w in range(words):
        bits = mask[members, w]
        while bits != 0:
            row = offset + w * 64 + trailing_zeros(bits)
            bits &= bits - np.uint64(1)
            if has(mask, row, known):
                continue
            if cnt[1] >= trail_x.shape[0]:
                return OVERFLOW
            trail_x[cnt[1]] = row
            for z in range(words):
                trail_rows[cnt[1], z] = mask[row, z]
            cnt[1] += 1
            for z in range(words):
                mask[row, z] |= mask[source, z]
    return OK


@leaf()
def child_pending(pend, depth, q, a, b):
    """The next frame's pending set: this frame's without a and b (the pair just made, or a survivor twice)."""
    for i in range(q):
        pend[depth + 1, i] = pend[depth, i]
    pend[depth + 1, a] = False
    pend[depth + 1, b] = False


@leaf()
def next_level(depth, m, q, pend, tok, tok_len):
    """PENDING while level m has pending vertices in frame ``depth``; else the next level with tokens, its
    tokens made the frame's pending set, or ALL_SETTLED when there is none."""
    for i in range(q):
        if pend[depth, i]:
            return PENDING
    for lv in range(m + 1, MAX_LEVEL):
        if tok_len[lv] > 0:
            for i in range(q):
                pend[depth, i] = False
            for x in range(tok_len[lv]):
                pend[depth, tok[lv, x]] = True
            return lv
    return ALL_SETTLED


@leaf()
def survivors_bound(q, vertex, stay, level, adjm, adj_len, low, left, seen, members, index, gadj, glen, work):
    """levels.survivors_bound over the vertices marked in ``vertex`` (queens here, tokens in lazy_kernel.py),
    ``stay`` marking those that block nothing; -1 when the position is dead.  A vertex sees a lower level
    when a neighbour in ``adjm`` is of one, or when ``low`` says so (lazy_kernel.py keeps only same-level
    edges in ``adjm``).  The other arrays are scratch."""
    stuck, power = 0, np.int64(0)
    for i in range(q):
        seen[i] = False
    for start in range(q):
        if not vertex[start] or seen[start]:
            continue
        lv = level[start]
        seen[start] = True
        members[0] = start
        count = 1
        head = 0
        closed = True
        must_leave = True
        while head < count:
            u = members[head]
            head += 1
            must_leave = must_leave and not stay[u]
            if low[u]:
                closed = False
            for x in range(adj_len[u]):
                v = adjm[u, x]
                lw = level[v]
                if lw < lv:
                    closed = False
                elif lw == lv and not seen[v]:
                    seen[v] = True
                    members[count] = v
                    count += 1
        if not closed:
            continue
        if count <= 2:
            unpaired = count % 2
        else:
            for x in range(count):
                index[members[x]] = x
            for x in range(count):
                u = members[x]
                glen[x] = 0
                for y in range(adj_len[u]):
                    v = adjm[u, y]
                    if index[v] >= 0:
                        gadj[x, glen[x]] = index[v]
                        glen[x] += 1
            unpaired = deficiency(gadj, glen, count, work)
            for x in range(count):
                index[members[x]] = -1
        if unpaired:
            if must_leave:
                return -1
            stuck += unpaired
            power += np.int64(unpaired) << lv
    needed = stuck + popcount(left - power)
    free = 0
    for i in range(q):
        if vertex[i] and stay[i]:
            free += 1
    return -1 if free < needed else needed


def static_arrays(geo) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, int]:
    """Lines of sight as arrays: neighbours (CSR), pair ids, the squares between each pair (CSR); the largest
    degree and the longest run of squares between."""
    q = geo.size
    degree = [len(nb) for nb in geo.neighbours]
    nbr_start = np.zeros(q + 1, np.int64)
    nbr_start[1:] = np.cumsum(degree)
    nbr = np.array([j for nb in geo.neighbours for j in nb], dtype=np.int64)
    pid = np.full((q, q), -1, np.int64)
    starts, flat = [0], []
    for b, ((i, j), squares) in enumerate(geo.between.items()):
        pid[i, j] = b
        flat.extend(squares)
        starts.append(len(flat))
    longest = max((len(v) for v in geo.between.values()), default=0)
    return (
        nbr_start,
        nbr,
        pid,
        np.array(starts, dtype=np.int64),
        np.array(flat, dtype=np.int64),
        max(degree, default=1),
        longest,
    )


@leaf()
def _acyclic(c, p, mask, root, last_arrival, pid, btw_start, btw):
    """Whether capture c->p keeps the precedences acyclic (ForestSearch.acyclic)."""
    if has(mask, p, c):
        return False
    b = pid[c, p]
    last = last_arrival[p]
    for x in range(btw_start[b], btw_start[b + 1]):
        k = btw[x]
        if root[k] or has(mask, c, k) or has(mask, p, k):
            return False
    return not (last >= 0 and (has(mask, c, last) or has(mask, p, last)))


@leaf()
def _lower_bound(q, level, settled, nbr_start, nbr, uf, reach, total, best):
    """geometry.lower_bound on the unsettled queens (component popcount and line-of-sight reach)."""
    for i in range(q):
        uf[i] = i
    for i in range(q):
        if settled[i]:
            continue
        seen = 0
        for x in range(nbr_start[i], nbr_start[i + 1]):
            j = nbr[x]
            if not settled[j]:
                seen += 1
                a = i
                while uf[a] != a:
                    uf[a] = uf[uf[a]]
                    a = uf[a]
                b = j
                while uf[b] != b:
                    uf[b] = uf[uf[b]]
                    b = uf[b]
                if a != b:
                    uf[a] = b
        reach[i] = level[i] + seen
    for i in range(q):
        total[i] = 0
        best[i] = 0
    for i in range(q):
        if not settled[i]:
            a = i
            while uf[a] != a:
                uf[a] = uf[uf[a]]
                a = uf[a]
            total[a] += np.int64(1) << level[i]
            best[a] = max(best[a], reach[i])
    bound = 0
    for a in range(q):
        if total[a] > 0:
            t = total[a]
            shift = min(62, best[a])  # totals stay below 2^60: beyond, the quotient is 1
            ceil = -((-t) >> shift)
            pc = popcount(t)
            bound += max(ceil, pc)
    return bound


@njit(cache=True)
def run(
    q,
    k,
    exps,
    nbr_start,
    nbr,
    pid,
    btw_start,
    btw,
    jitter,
    alt,
    limit,
    budget,
    level,
    root,
    parent,
    last_arrival,
    after_count,
    mask,
    trail_x,
    trail_rows,
    edges_u,
    edges_v,
    tok,
    tok_len,
    pend,
    frame_m,
    frame_t,
    frame_phase,
    opt_c,
    opt_p,
    opt_len,
    opt_idx,
    applied,
    applied_c,
    applied_p,
    applied_before,
    applied_edges,
    applied_trail,
    scalars,
    adjm,
    adj_len,
):
    """Runs the level search from the state in the arrays for at most ``budget`` more nodes.

    scalars = [depth, nodes, roots, left, n_edges, n_trail, mode]; mode ENTER: frame ``depth``
    is to be entered (counted, pruned, expanded), NEXT: its next option is to be tried.
    """
    depth, nodes, roots, left = scalars[0], scalars[1], scalars[2], scalars[3]
    n_edges, n_trail, mode = scalars[4], scalars[5], scalars[6]
    stop = nodes + budget
    cnt = np.empty(2, np.int64)
    settled = np.zeros(q, np.bool_)
    vertex = np.zeros(q, np.bool_)
    stay = np.zeros(q, np.bool_)
    uf = np.empty(q, np.int64)
    reach = np.empty(q, np.int64)
    total = np.empty(q, np.int64)
    best = np.empty(q, np.int64)
    options = np.zeros(q, np.int64)
    inpend = np.zeros(q, np.bool_)
    low = np.zeros(q, np.bool_)  # the partner graph keeps its edges across levels: nothing to add
    seen = np.zeros(q, np.bool_)
    members = np.empty(q, np.int64)
    index = np.full(q, -1, np.int64)
    gadj = np.empty((q, adjm.shape[1]), np.int64)
    glen = np.zeros(q, np.int64)
    match = np.empty((7, q), np.int64)
    keys = np.empty((adjm.shape[1], 3), np.int64)
    cand = np.empty(adjm.shape[1], np.int64)
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
            m = frame_m[depth]
            fail = roots + popcount(left) > k
            if not fail:
                # partner graph over unsettled queens
                for i in range(q):
                    settled[i] = root[i] or parent[i] >= 0
                    adj_len[i] = 0
                for i in range(q):
                    if settled[i]:
                        continue
                    for x in range(nbr_start[i], nbr_start[i + 1]):
                        j = nbr[x]
                        if (
                            j > i
                            and not settled[j]
                            and (
                                _acyclic(i, j, mask, root, last_arrival, pid, btw_start, btw)
                                or _acyclic(j, i, mask, root, last_arrival, pid, btw_start, btw)
                            )
                        ):
                            adjm[i, adj_len[i]] = j
                            adj_len[i] += 1
                            adjm[j, adj_len[j]] = i
                            adj_len[j] += 1
                for i in range(q):
                    vertex[i] = not settled[i]
                    stay[i] = after_count[i] == 0
                needed = survivors_bound(
                    q, vertex, stay, level, adjm, adj_len, low, left, seen, members, index, gadj, glen, match
                )
                if needed < 0 or roots + needed > k:
                    fail = True
            if not fail and roots + _lower_bound(q, level, settled, nbr_start, nbr, uf, reach, total, best) > k:
                fail = True
            if fail:
                mode = NEXT
                frame_phase[depth] = 2
                opt_len[depth] = 0
                opt_idx[depth] = 0
            else:
                nxt = next_level(depth, m, q, pend, tok, tok_len)
                if nxt == ALL_SETTLED:
                    result = FOUND
                    break
                if nxt >= 0:
                    frame_m[depth] = nxt
                    continue  # a tail call: enter the same frame again, at the next level
                # options: pending partners in the partner graph
                t = -1
                for i in range(q):
                    inpend[i] = pend[depth, i]
                for i in range(q):
                    if inpend[i]:
                        c = 0
                        for x in range(adj_len[i]):
                            if inpend[adjm[i, x]]:
                                c += 1
                        options[i] = c
                        if t < 0 or c < options[t] or (c == options[t] and jitter[i] < jitter[t]):
                            t = i
                ncand = 0
                for x in range(adj_len[t]):
                    u = adjm[t, x]
                    if inpend[u]:
                        cand[ncand] = u
                        keys[ncand, 0] = btw_start[pid[t, u] + 1] - btw_start[pid[t, u]]
                        keys[ncand, 1] = options[u]
                        keys[ncand, 2] = jitter[u]
                        ncand += 1
                # insertion sort of the partners by (squares between, options, jitter)
                for a in range(1, ncand):
                    b = a
                    while b > 0 and (
                        keys[b, 0] < keys[b - 1, 0]
                        or (
                            keys[b, 0] == keys[b - 1, 0]
                            and (
                                keys[b, 1] < keys[b - 1, 1]
                                or (keys[b, 1] == keys[b - 1, 1] and keys[b, 2] < keys[b - 1, 2])
                            )
                        )
                    ):
                        for z in range(3):
                            keys[b, z], keys[b - 1, z] = keys[b - 1, z], keys[b, z]
                        cand[b], cand[b - 1] = cand[b - 1], cand[b]
                        b -= 1
                nopt = 0
                for a in range(ncand):
                    u = cand[a]
                    # survivor order of (t, u) and (u, t)
                    k1 = _survivor_key(
                        t, u, m, alt, level, parent, root, nbr_start, nbr, adjm, adj_len, pid, btw_start, jitter
                    )
                    k2 = _survivor_key(
                        u, t, m, alt, level, parent, root, nbr_start, nbr, adjm, adj_len, pid, btw_start, jitter
                    )
                    first_tu = not (
                        k2[0] < k1[0] or (k2[0] == k1[0] and (k2[1] < k1[1] or (k2[1] == k1[1] and k2[2] < k1[2])))
                    )
                    if first_tu:
                        opt_c[depth, nopt], opt_p[depth, nopt] = t, u
                        opt_c[depth, nopt + 1], opt_p[depth, nopt + 1] = u, t
                    else:
                        opt_c[depth, nopt], opt_p[depth, nopt] = u, t
                        opt_c[depth, nopt + 1], opt_p[depth, nopt + 1] = t, u
                    nopt += 2
                opt_len[depth] = nopt
                opt_idx[depth] = 0
                frame_t[depth] = t
                frame_phase[depth] = 0
                mode = NEXT
            continue
        # mode NEXT: try the next option of frame ``depth``
        m = frame_m[depth]
        pushed = False
        while frame_phase[depth] == 0 and opt_idx[depth] < opt_len[depth]:
            x = opt_idx[depth]
            opt_idx[depth] += 1
            c, p = opt_c[depth, x], opt_p[depth, x]
            # edges_for(c, p)
            mark_e, mark_t = n_edges, n_trail
            ok = True
            b = pid[c, p]
            for y in range(btw_start[b], btw_start[b + 1]):
                if root[btw[y]]:
                    ok = False
                    break
            if ok:
                last = last_arrival[p]
                nb = btw_start[b + 1] - btw_start[b]
                cnt[0], cnt[1] = n_edges, n_trail
                code = OK
                for z in range(1 + nb + (1 if last >= 0 else 0)):
                    if z == 0:
                        u, v = c, p
                    elif z <= nb:
                        u, v = btw[btw_start[b] + z - 1], c
                    else:
                        u, v = last, c
                    code = add_edge(u, v, q, mask, after_count, edges_u, edges_v, trail_x, trail_rows, cnt)
                    if code != OK:
                        break
                n_edges, n_trail = cnt[0], cnt[1]
                if code == OVERFLOW:
                    result = OVERFLOW
                    break
                if code != OK:
                    ok = False
                    n_edges, n_trail = _undo(
                        mark_e, mark_t, n_edges, n_trail, edges_u, after_count, mask, trail_x, trail_rows
                    )
            if not ok:
                continue
            applied[depth] = PAIR
            applied_c[depth], applied_p[depth] = c, p
            applied_before[depth] = last_arrival[p]
            applied_edges[depth], applied_trail[depth] = mark_e, mark_t
            parent[c] = p
            last_arrival[p] = c
            level[p] = m + 1
            tok[m + 1, tok_len[m + 1]] = p
            tok_len[m + 1] += 1
            child_pending(pend, depth, q, c, p)
            frame_m[depth + 1] = m
            depth += 1
            pushed = True
            break
        if result == OVERFLOW:
            break
        if pushed:
            mode = ENTER
            continue
        if frame_phase[depth] == 0:
            frame_phase[depth] = 1
            t = frame_t[depth]
            if roots < k and after_count[t] == 0:
                applied[depth] = ROOT
                applied_c[depth] = t
                root[t] = True
                roots += 1
                left -= np.int64(1) << m
                child_pending(pend, depth, q, t, t)
                frame_m[depth + 1] = m
                depth += 1
                mode = ENTER
                continue
        # frame ``depth`` failed: back to its parent, undoing what the parent applied
        if depth == 0:
            result = EXHAUSTED
            break
        depth -= 1
        m = frame_m[depth]
        if applied[depth] == PAIR:
            c, p = applied_c[depth], applied_p[depth]
            tok_len[m + 1] -= 1
            level[p] = m
            last_arrival[p] = applied_before[depth]
            parent[c] = -1
            n_edges, n_trail = _undo(
                applied_edges[depth],
                applied_trail[depth],
                n_edges,
                n_trail,
                edges_u,
                after_count,
                mask,
                trail_x,
                trail_rows,
            )
        elif applied[depth] == ROOT:
            t = applied_c[depth]
            root[t] = False
            roots -= 1
            left += np.int64(1) << m
        applied[depth] = NONE
        mode = NEXT
    scalars[0], scalars[1], scalars[2], scalars[3] = depth, nodes, roots, left
    scalars[4], scalars[5], scalars[6] = n_edges, n_trail, mode
    return result


@leaf()
def _undo(mark_e, mark_t, n_edges, n_trail, edges_u, after_count, mask, trail_x, trail_rows):
    while n_edges > mark_e:
        n_edges -= 1
        after_count[edges_u[n_edges]] -= 1
    words = mask.shape[1]
    while n_trail > mark_t:
        n_trail -= 1
        x = trail_x[n_trail]
        for w in range(words):
            mask[x, w] = trail_rows[n_trail, w]
    return n_edges, n_trail


@leaf()
def _survivor_key(c, p, m, alt, level, parent, root, nbr_start, nbr, adjm, adj_len, pid, btw_start, jitter):
    """ForestSearch.survivor_first (alt: grown_first) as a 3-tuple."""
    between = btw_start[pid[c, p] + 1] - btw_start[pid[c, p]]
    sees = 0
    if alt:
        for x in range(adj_len[p]):
            if level[adjm[p, x]] == m + 1:
                sees += 1
        return (-sees, between, jitter[p])
    nxt = level[p] + 1
    for x in range(nbr_start[p], nbr_start[p + 1]):
        u = nbr[x]
        if level[u] == nxt and parent[u] < 0 and not root[u]:
            sees += 1
    return (-sees, between, 0)


# ---------------------------------------------------------------- the Python side


class Engine:
    """What both compiled level searches share on the Python side: the tokens by level, the dive loop (a node
    budget at a time, the clock looked at between budgets), the outcome codes, and the moves of a solution."""

    BUDGET = 20_000
    """Nodes between two looks at the clock, at most: fewer where nodes are slow (``loop``)."""
    CALL_S = 0.05
    """About this long a kernel call: a node on a 2,000-queen 128x128 board cost a millisecond, so 20,000 of them
    ran 18 s past a 20 s limit before the clock was looked at."""

    def __init__(self, geo, k: int):
        self.q, self.k = geo.size, k
        self.exps = np.array(geo.exps, dtype=np.int64)
        self.nbr_start, self.nbr, self.pid, self.btw_start, self.btw, self.degree, self.longest = geo.arrays
        self.words = (self.q + 63) // 64
        self.total = int(sum(1 << int(e) for e in self.exps))
        self.tokens: dict[int, list[int]] = {}
        for i, e in enumerate(self.exps):
            self.tokens.setdefault(int(e), []).append(i)
        self.scalars = np.zeros(7, np.int64)
        self.edges_u = np.zeros(0, np.int64)
        self.edges_v = np.zeros(0, np.int64)

    def identity_mask(self, mask: np.ndarray) -> None:
        """Every square departs before itself, nothing else known (both halves: successors and predecessors)."""
        mask[:] = 0
        for u in range(self.q):
            mask[u, u >> 6] = mask[self.q + u, u >> 6] = np.uint64(1) << np.uint64(u & 63)

    def run_budget(self, limit: int, budget: int) -> int:
        """One call of the kernel for at most ``budget`` nodes; its result code."""
        raise NotImplementedError

    def parents(self) -> np.ndarray:
        raise NotImplementedError

    def loop(self, limit: int, deadline: float | None) -> str | None:
        """Runs the dive set up by ``reset``: "found", "exhausted", "restart", "stop" (deadline) or None
        (overflow)."""
        import time

        step = min(10, self.BUDGET)  # doubled while calls are quick: 20,000 within a dozen calls
        while True:
            budget = step if limit <= 0 else min(step, limit + 1 - int(self.scalars[1]))
            began = time.monotonic()
            code = self.run_budget(limit, max(1, budget))
            took = time.monotonic() - began
            if took < self.CALL_S / 2:  # the same nodes whatever the step: it only spaces the looks at the clock
                step = min(self.BUDGET, 2 * step)
            elif took > 2 * self.CALL_S:
                step = max(1, step // 2)
            if code == FOUND:
                return "found"
            if code == EXHAUSTED:
                return "exhausted"
            if code == RESTART:
                return "restart"
            if code == OVERFLOW:
                return None
            if deadline is not None and time.monotonic() > deadline:
                return "stop"

    @property
    def nodes(self) -> int:
        return int(self.scalars[1])

    def moves(self) -> list[tuple[int, int]]:
        from mipgames.queens.levels import departure_order

        after: list[list[int]] = [[] for _ in range(self.q)]
        for u, v in zip(self.edges_u[: self.scalars[4]], self.edges_v[: self.scalars[4]]):
            after[int(u)].append(int(v))
        parent = [int(p) if p >= 0 else None for p in self.parents()]
        return departure_order(parent, after)


class Compiled(Engine):
    """Static arrays of one position (geometry) and the state of one dive of the compiled level search."""

    def __init__(self, geo, k: int):
        super().__init__(geo, k)
        q = geo.size
        width = max(1, self.degree)
        self.edge_cap = q * (2 + self.longest) + 8
        self.trail_cap = max(4096, min(1 << 20, (64 << 20) // (8 * self.words)))
        self.width = width
        frames = q + 2
        self.level = np.zeros(q, np.int64)
        self.root = np.zeros(q, np.bool_)
        self.parent = np.zeros(q, np.int64)
        self.last_arrival = np.zeros(q, np.int64)
        self.after_count = np.zeros(q, np.int64)
        self.mask = np.zeros((2 * q, self.words), np.uint64)  # successors, then predecessors (add_edge)
        self.trail_x = np.zeros(self.trail_cap, np.int64)
        self.trail_rows = np.zeros((self.trail_cap, self.words), np.uint64)
        self.edges_u = np.zeros(self.edge_cap, np.int64)
        self.edges_v = np.zeros(self.edge_cap, np.int64)
        self.tok = np.zeros((MAX_LEVEL, q), np.int64)
        self.tok_len = np.zeros(MAX_LEVEL, np.int64)
        self.pend = np.zeros((frames, q), np.bool_)
        self.frame_m = np.zeros(frames, np.int64)
        self.frame_t = np.zeros(frames, np.int64)
        self.frame_phase = np.zeros(frames, np.int64)
        self.opt_c = np.zeros((frames, 2 * width), np.int64)
        self.opt_p = np.zeros((frames, 2 * width), np.int64)
        self.opt_len = np.zeros(frames, np.int64)
        self.opt_idx = np.zeros(frames, np.int64)
        self.applied = np.zeros(frames, np.int64)
        self.applied_c = np.zeros(frames, np.int64)
        self.applied_p = np.zeros(frames, np.int64)
        self.applied_before = np.zeros(frames, np.int64)
        self.applied_edges = np.zeros(frames, np.int64)
        self.applied_trail = np.zeros(frames, np.int64)
        self.adjm = np.zeros((q, width), np.int64)
        self.adj_len = np.zeros(q, np.int64)
        self.jit = np.zeros(q, np.int64)
        self.alt = False

    def reset(self) -> None:
        """The state at the root of a dive: every queen at its starting level, nothing settled."""
        self.level[:] = self.exps
        self.root[:] = False
        self.parent[:] = -1
        self.last_arrival[:] = -1
        self.after_count[:] = 0
        self.identity_mask(self.mask)
        self.tok_len[:] = 0
        for e, members in self.tokens.items():
            self.tok[e, : len(members)] = members
            self.tok_len[e] = len(members)
        first = min(self.tokens)
        self.pend[0, :] = False
        self.pend[0, self.tokens[first]] = True
        self.frame_m[0] = first
        self.applied[:] = NONE
        self.scalars[:] = (0, 0, 0, self.total, 0, 0, ENTER)

    def restart(self, jitter, run: int, limit: int, deadline: float | None) -> str | None:
        """Restart number ``run`` of levels.Restarts."""
        from mipgames.queens.levels import alternate

        return self.dive(jitter, alternate(run), limit, deadline)

    def dive(self, jitter, alt: bool, limit: int, deadline: float | None) -> str | None:
        """One restart of search_forest: "found", "exhausted", "restart", "stop" (deadline) or None (overflow)."""
        self.reset()
        self.jit, self.alt = np.array(jitter, dtype=np.int64), alt
        return self.loop(limit, deadline)

    def run_budget(self, limit: int, budget: int) -> int:
        return run(
            self.q,
            self.k,
            self.exps,
            self.nbr_start,
            self.nbr,
            self.pid,
            self.btw_start,
            self.btw,
            self.jit,
            self.alt,
            limit,
            budget,
            self.level,
            self.root,
            self.parent,
            self.last_arrival,
            self.after_count,
            self.mask,
            self.trail_x,
            self.trail_rows,
            self.edges_u,
            self.edges_v,
            self.tok,
            self.tok_len,
            self.pend,
            self.frame_m,
            self.frame_t,
            self.frame_phase,
            self.opt_c,
            self.opt_p,
            self.opt_len,
            self.opt_idx,
            self.applied,
            self.applied_c,
            self.applied_p,
            self.applied_before,
            self.applied_edges,
            self.applied_trail,
            self.scalars,
            self.adjm,
            self.adj_len,
        )

    def parents(self) -> np.ndarray:
        return self.parent
