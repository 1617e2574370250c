"""Maximum-cardinality matching in a general graph (Edmonds' blossoms), for the level search's bound.

Queens of one power level that can only ever pair among themselves leave at
least |C| − 2·ν(C) of them unpaired for good, where ν is the size of a maximum
matching of their "could capture" graph; odd components only see the parity.
Graphs here have at most a few dozen vertices, so the O(V³) textbook version
with a greedy start is enough.
"""

from __future__ import annotations


def max_matching(graph: list[list[int]]) -> list[int]:
    """mate[v] (−1 when unmatched) of a maximum matching of the undirected graph given by adjacency lists."""
    n = len(graph)
    mate = [-1] * n
    for v in range(n):
        if mate[v] == -1:
            for w in graph[v]:
                if mate[w] == -1 and w != v:
                    mate[v], mate[w] = w, v
                    break
    for root in range(n):
        if mate[root] == -1:
            end, parent = _augmenting_path(graph, mate, root)
            while end != -1:
                prev = parent[end]
                nxt = mate[prev]
                mate[end], mate[prev] = prev, end
                end = nxt
    return mate


def deficiency(graph: list[list[int]]) -> int:
    """Vertices left unmatched by a maximum matching."""
    return sum(1 for m in max_matching(graph) if m == -1)


def _augmenting_path(graph: list[list[int]], mate: list[int], root: int) -> tuple[int, list[int]]:
    """BFS over alternating paths from ``root``, contracting blossoms; (free end or −1, parent links)."""
    n = len(graph)
    used = [False] * n
    parent = [-1] * n
    base = list(range(n))
    used[root] = True
    queue = [root]
    head = 0

    def lca(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[mate[b]]

    def mark(v: int, b: int, child: int, blossom: list[bool]) -> None:
        while base[v] != b:
            blossom[base[v]] = blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    while head < len(queue):
        v = queue[head]
        head += 1
        for to in graph[v]:
            if base[v] == base[to] or mate[v] == to:
                continue
            if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                b = lca(v, to)
                blossom = [False] * n
                mark(v, b, to, blossom)
                mark(to, b, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = b
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if mate[to] == -1:
                    return to, parent
                used[mate[to]] = True
                queue.append(mate[to])
    return -1, parent
