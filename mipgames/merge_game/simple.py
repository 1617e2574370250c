"""MERGE-GAME-SIMPLE: what it is, how many heroes may merge, and the vertex cover it is, reduced.

On a SIMPLE map (one type, hp 1, DESTROY-ALL) where no stone has more than
two attackers, the heroes are the vertices of a graph whose edges are the
stones, and the question is whether floor(h/2) vertices cover every edge.
The classical reductions for vertex cover then shrink it without loss:

- a stone with one attacker forces that hero;
- a hero of degree 1 is never needed: its neighbour is taken instead;
- a hero v of degree 2 whose neighbours u, w are adjacent: take u and w;
- a hero v of degree 2 with non-adjacent neighbours u, w is *folded*: u, v, w
  become one vertex z adjacent to N(u) u N(w) - {v}, and
  tau(G) = tau(G_folded) + 1 (z in a cover means u and w, else v).

Folding undoes exactly what the thesis's reduction builds (every edge of the
graph drawn as a path of heroes and stones), so a map generated from a
1,000-vertex graph comes back to a graph about as large as the original one.
What remains (the kernel) goes to the models; unfolding a cover of the
kernel in reverse order gives a cover of the hero graph, hence a merge
sequence, and the simulator replays it as always.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mipgames.merge_game.instance import Instance, beyond_stones, rules
from mipgames.merge_game.simulate import hits


def simple_reason(instance: Instance, params: dict[str, Any]) -> str | None:
    """Why the instance is not MERGE-GAME-SIMPLE (None when it is)."""
    rule = rules(instance, params)
    if len({h.type for h in instance.heroes}) > 1:
        return "MERGE-GAME-SIMPLE needs one hero type (EQUAL-TYPE)"
    if any(s.hp != 1 for s in instance.stones):
        return "MERGE-GAME-SIMPLE needs every stone at hp 1 (ONE-HP)"
    if rule.target is None or rule.target < len(instance.stones):
        return "MERGE-GAME-SIMPLE is the DESTROY-ALL question: pass --destroy-all"
    return beyond_stones(instance, rule)


def cover_capacity(instance: Instance, params: dict[str, Any]) -> int:
    """How many heroes may merge once: floor(h/2), or 0 under a level cap of 1."""
    cap = rules(instance, params).max_level
    return 0 if cap is not None and cap < 2 else len(instance.heroes) // 2


@dataclass(frozen=True)
class Kernel:
    """What the reductions leave: kernel vertices and edges, and how to map a kernel cover back to heroes."""

    heroes: int
    taken: tuple[int, ...]
    """Vertices the reductions chose (folded ones among them stand for their u and w)."""
    folds: tuple[tuple[int, int, int, int], ...]
    """(v, u, w, z) in the order folded; ids >= ``heroes`` are folded vertices."""
    vertices: tuple[int, ...]
    edges: tuple[tuple[int, int], ...]
    budget: int
    """Kernel vertices that may still be chosen: floor(h/2) - taken - folds (negative: infeasible)."""
    uncoverable: bool
    """Some stone has no attacker at all."""

    def unfold(self, chosen: Any) -> list[int]:
        """Hero ids of the cover of the hero graph that a cover ``chosen`` of the kernel stands for."""
        cover = set(chosen) | set(self.taken)
        for v, u, w, z in reversed(self.folds):
            if z in cover:
                cover.discard(z)
                cover.update((u, w))
            else:
                cover.add(v)
        return sorted(cover)

    @property
    def stats(self) -> dict[str, int]:
        return {
            "kernel_vertices": len(self.vertices),
            "kernel_edges": len(self.edges),
            "taken": len(self.taken),
            "folds": len(self.folds),
            "kernel_budget": self.budget,
        }


def reason(instance: Instance, params: dict[str, Any]) -> str | None:
    """Why the map is not a vertex cover question (None when it is)."""
    why = simple_reason(instance, params)
    if why:
        return why
    h = hits(instance, rules(instance, params))
    if any(len(hitters) > 2 for hitters in h.stone_heroes):
        return "some stone has more than two attackers (a set cover, not a vertex cover)"
    return None


def reduce(instance: Instance, params: dict[str, Any]) -> Kernel:
    """Applies the reductions of the module docstring until none applies."""
    n = len(instance.heroes)
    h = hits(instance, rules(instance, params))
    capacity = cover_capacity(instance, params)
    adj: dict[int, set[int]] = {i: set() for i in range(n)}
    taken: list[int] = []
    forced = set()
    uncoverable = False
    for hitters in h.stone_heroes:
        if not hitters:
            uncoverable = True
        elif len(hitters) == 1:
            forced.add(hitters[0])
        else:
            a, b = hitters
            adj[a].add(b)
            adj[b].add(a)
    work = list(range(n))

    def take(u: int) -> None:
        taken.append(u)
        for x in adj.pop(u):
            adj[x].discard(u)
            work.append(x)

    for u in sorted(forced):
        take(u)
    folds: list[tuple[int, int, int, int]] = []
    fresh = n
    while work:
        v = work.pop()
        if v not in adj:
            continue
        degree = len(adj[v])
        if degree == 0:
            del adj[v]
        elif degree == 1:
            (u,) = adj[v]
            take(u)
            work.append(v)
        elif degree == 2:
            u, w = sorted(adj[v])
            if w in adj[u]:
                take(u)
                take(w)
                work.append(v)
                continue
            z, fresh = fresh, fresh + 1
            around = (adj[u] | adj[w]) - {v, u, w}
            for x in (u, v, w):
                for y in adj.pop(x):
                    if y in adj:
                        adj[y].discard(x)
            adj[z] = set(around)
            for y in around:
                adj[y].add(z)
                work.append(y)
            work.append(z)
            folds.append((v, u, w, z))
    vertices = tuple(sorted(adj))
    edges = tuple(sorted((a, b) for a in adj for b in adj[a] if a < b))
    return Kernel(n, tuple(taken), tuple(folds), vertices, edges, capacity - len(taken) - len(folds), uncoverable)
