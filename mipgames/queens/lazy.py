"""The level search with lazy orientation: a pair's token stands on either of its squares until the next level
pairs it (the reference; ``lazy_kernel.py`` is the same search compiled).

Why: in the level search (levels.py) a pair chooses at once which square its
merged token stands on, and the upper levels then live with squares chosen
without them in view; on large planted positions the dives settle the bottom
and leave a top whose tokens cannot meet (benchmarks/queens/diagnose.md).
Here the pair of squares a, b at level m becomes a token {a, b} of level
m + 1; the pairing at level m + 1 chooses one square of each of its two
tokens (so the other square's queen is the one that moved), which is where
the choice is informed.  Every solution is still found: a solution's merge
at level m + 1 stands its two tokens on two squares in line, and every such
choice is tried.

Precedences (u before v: u departs before v departs) split in two:
- at pairing, every queen z between a and b must leave before either of them
  (whichever moves leaves first, the other later): z → a and z → b;
- at standing the token on a: b moves to a (b → a), after a's earlier
  arrivals (last arrival at a → b).
The graph of captures still possible (the bound) links tokens with a pair of
squares in line whose blockers can still leave first and whose tokens can
each stand there; survivors and matchings are counted over tokens, as in the
level search.  Measured in benchmarks/queens/RESULTS.md: 10-30x faster than the
eager search on planted N = 40 and 48, but much slower to exhaust when many
queens must survive (a two-square token sees more partners, so the bound
bites later: K = 7 on unsolvable_n16_k1_q40_s2 takes it 17 s, the eager
search 10 nodes), which is why the portfolio probes with the eager search
first and minimises with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mipgames.core.problem import Algorithm, Report, SolveOptions
from mipgames.core.result import Result
from mipgames.queens.geometry import Geometry
from mipgames.queens.instance import Queens
from mipgames.queens.levels import (
    INTERPRETED_UP_TO,
    LevelSearch,
    Restart,
    Restarts,
    departure_order,
    run_levels,
    survivors_bound,
)

FREE, STAYS = -1, -2
"""A square's entry in ``fixed``: free, or a survivor (else the square it must move into)."""

JUMP_LEVELS = (4, 5)
"""Levels whose failed tokens send a dive back to the pair that made them (``LazySearch.settle``)."""


def jump_band(run: int, limit: int | None) -> tuple[int, int]:
    """(lowest, highest) level of the tokens whose failure makes restart ``run`` jump; (0, 0): none.

    Odd restarts with a node limit jump; even ones and unlimited searches go back one frame at a time.  A
    dive that jumped skipped subtrees and proves nothing; the even restarts keep the restarts complete, since
    their Luby limits grow without bound too (restart 2^k - 2 has half the limit of restart 2^k - 1), so a
    large enough one exhausts the tree."""
    return JUMP_LEVELS if limit is not None and limit > 0 and run % 2 == 1 else (0, 0)


class Backjump(Exception):
    """Token ``token`` of level ``level`` found no partner in the frame below ``frames`` pairs and survivors: back
    to the pair that made it (``LazySearch.pair``)."""

    def __init__(self, token: int, level: int, frames: int):
        super().__init__(token, level, frames)
        self.token, self.level, self.frames = token, level, frames


class LazySearch(LevelSearch):
    """Depth-first search over level matchings of tokens (one or two squares each), precedences kept acyclic."""

    def __init__(self, geo: Geometry, k: int, deadline: float | None, fixed: Sequence[int] | None = None):
        super().__init__(geo, k, deadline)
        q = geo.size
        self.fixed = list(fixed) if fixed is not None else [FREE] * q
        """Per square: FREE, STAYS (a survivor), or the square it must move into: part of a game kept whole."""
        self.parent = [-1] * q
        self.last = [-1] * q  # last arrival on the square
        self.mate = [-1] * q  # the other square of a two-square token
        self.jumps = (0, 0)  # jump_band of the dive
        self.jumped = False  # the dive skipped frames
        self.frames = 0  # pairs and survivors applied (the compiled kernel's frame depth)

    # tokens ------------------------------------------------------------------------------------------------------
    def alive(self, i: int) -> bool:
        return self.parent[i] < 0 and not self.root[i]

    def rep(self, i: int) -> int:
        """A token is named by its smaller square."""
        o = self.mate[i]
        return i if o < 0 or i < o else o

    def squares(self, t: int) -> tuple[int, ...]:
        o = self.mate[t]
        return (t,) if o < 0 else (t, o)

    def can_stay(self, t: int) -> bool:
        return any(not self.after[s] for s in self.squares(t))

    # precedences -------------------------------------------------------------------------------------------------
    def standable(self, x: int) -> bool:
        """Whether x's token can stand on x: its other square moving to x closes no cycle."""
        o = self.mate[x]
        if o < 0:
            return True
        if self.fixed[o] != FREE and self.fixed[o] != x:
            return False
        mask, last = self.mask, self.last[x]
        return not mask[x] >> o & 1 and (last < 0 or not mask[o] >> last & 1)

    def pair_ok(self, x: int, y: int) -> bool:
        """Whether squares x and y (of two tokens) can still be paired: both standable, blockers can leave first."""
        if not (self.standable(x) and self.standable(y)):
            return False
        mask = self.mask[x] | self.mask[y]
        return not any(self.root[b] or mask >> b & 1 for b in self.geo.between[x, y])

    # bounds ------------------------------------------------------------------------------------------------------
    def token_graph(self) -> dict[int, list[int]]:
        """Tokens that could still pair (a relaxation: edges only disappear as the search goes down)."""
        stamp = [-1] * self.geo.size
        reps = [t for t in range(self.geo.size) if self.alive(t) and self.rep(t) == t]
        adj: dict[int, list[int]] = {t: [] for t in reps}
        for t in reps:
            for i in self.squares(t):
                for j in self.geo.neighbours[i]:
                    if not self.alive(j):
                        continue
                    u = self.rep(j)
                    if u <= t or stamp[u] == t or not self.pair_ok(i, j):
                        continue
                    stamp[u] = t
                    adj[t].append(u)
                    adj[u].append(t)
        return adj

    def survivors_bound(self, adj: dict[int, list[int]]) -> int:
        """As ForestSearch.survivors_bound: K + 1 when the position is dead."""
        return survivors_bound(adj, self.level, self.can_stay, self.left, self.k + 1)

    # moves -------------------------------------------------------------------------------------------------------
    def stand(self, x: int, edges: list[int]) -> bool:
        """Stands x's token on x (its other square moves there); False when that closes a cycle."""
        o = self.mate[x]
        if o < 0:
            return True
        if not self.add(o, x):
            return False
        edges.append(o)
        last = self.last[x]
        if last >= 0:
            if not self.add(last, o):
                return False
            edges.append(last)
        self.parent[o] = x
        self.last[x] = o
        return True

    def unstand(self, x: int, o: int, last: int) -> None:
        """Undoes ``stand`` (whether or not it got as far as moving o)."""
        if o >= 0:
            self.parent[o] = -1
        self.last[x] = last

    def options(self, t: int, adj: dict[int, list[int]], pending: set[int]) -> list[tuple[int, int]]:
        """(x, y): t stands on x, its partner's token on y.  Partners with fewest squares between first."""
        between, jitter = self.geo.between, self.jitter
        count = {u: sum(1 for v in adj[u] if v in pending) for u in adj[t] if u in pending}
        ranked = []
        for u in adj[t]:
            if u not in pending:
                continue
            combos = sorted(
                ((len(between[x, y]), x, y) for x in self.squares(t) for y in self.squares(u) if (x, y) in between),
                key=lambda c: c[0],
            )
            combos = [c for c in combos if self.pair_ok(c[1], c[2])]
            if combos:
                ranked.append(((combos[0][0], count[u], jitter[u]), [(x, y) for _, x, y in combos]))
        ranked.sort(key=lambda r: r[0])
        return [option for _, combos in ranked for option in combos]

    # search ------------------------------------------------------------------------------------------------------
    def settle(self, m: int, pending: set[int]) -> bool:
        """Settles the tokens of level m still in ``pending``, then the next levels."""
        if not self.enter():
            return False
        adj = self.token_graph()
        if self.roots + self.survivors_bound(adj) > self.k:
            return False
        if not pending:
            return self.next_level(m)
        jitter = self.jitter
        count = {t: sum(1 for u in adj[t] if u in pending) for t in pending}
        t = min(sorted(pending), key=lambda s: (count[s], jitter[s]))
        for x, y in self.options(t, adj, pending):
            if self.pair(t, x, y, m, pending):
                return True
        if self.roots < self.k:
            for x in self.squares(t):
                if not self.after[x] and self.stay(t, x, m, pending):
                    return True
        lo, hi = self.jumps
        if lo <= m <= hi and lo > 0 and self.geo.exps[t] < m:
            # Why jump: on large positions the tokens of the upper levels are placed by the lower levels' pairs,
            # and when one of them finds no partner the pairs made since it (its level's last pairs) are
            # rarely the cause; going back one frame at a time spends a dive's nodes re-pairing them
            # (benchmarks/queens/RESULTS.md).  The jump skips subtrees, so a dive that jumped proves nothing.
            raise Backjump(t, m, self.frames)
        return False

    def solve(self) -> bool:
        """LevelSearch.solve; a dive that jumped and found nothing is cut short, not exhausted (a Restart)."""
        self.jumped = False
        if super().solve():
            return True
        if self.jumped:
            raise Restart
        return False

    def pair(self, t: int, x: int, y: int, m: int, pending: set[int]) -> bool:
        u = self.rep(y)
        ox, oy, lx, ly, mark = self.mate[x], self.mate[y], self.last[x], self.last[y], len(self.trail)
        edges: list[int] = []
        ok = self.stand(x, edges)
        ok = ok and self.stand(y, edges)
        for b in self.geo.between[x, y] if ok else ():
            if self.root[b] or not self.add(b, x):
                ok = False
                break
            edges.append(b)
            if not self.add(b, y):
                ok = False
                break
            edges.append(b)
        passing: Backjump | None = None
        if ok:
            self.mate[x], self.mate[y] = y, x
            self.level[x] = self.level[y] = m + 1
            new = min(x, y)
            self.tokens.setdefault(m + 1, []).append(new)
            self.frames += 1
            try:
                if self.settle(m, pending - {t, u}):
                    return True
            except Backjump as jump:  # ours ends here (this pair made the token): the next option is tried
                passing = None if (jump.token, jump.level) == (new, m + 1) else jump
                self.jumped = self.jumped or (passing is None and jump.frames > self.frames)
            finally:
                self.frames -= 1
            self.tokens[m + 1].pop()
            self.level[x] = self.level[y] = m
            self.mate[x], self.mate[y] = ox, oy
        self.unstand(y, oy, ly)
        self.unstand(x, ox, lx)
        self.take_back(edges, mark)
        if passing is not None:
            raise passing
        return False

    def stay(self, t: int, x: int, m: int, pending: set[int]) -> bool:
        """Token t survives on x (a root: it never leaves)."""
        if self.fixed[x] >= 0 or not self.standable(x):
            return False
        o, last, mark = self.mate[x], self.last[x], len(self.trail)
        edges: list[int] = []
        found = applied = False
        try:  # taken back on the way out of a jump too
            if self.stand(x, edges):
                applied = True
                self.frames += 1
                found = self.survive(x, t, m, pending)
            return found
        finally:
            if applied:
                self.frames -= 1
            if not found:
                self.unstand(x, o, last)
                self.take_back(edges, mark)

    def restart(self, jitter: list[int], run: int, limit: int) -> None:
        """Sets up a restart (levels.Restarts); every restart searches the same way, the odd ones jumping
        (``jump_band``)."""
        self.jitter, self.limit, self.jumps = jitter, limit, jump_band(run, limit)

    def moves(self) -> list[tuple[int, int]]:
        return departure_order([p if p >= 0 else None for p in self.parent], self.after)


def search_lazy(
    geo: Geometry, k: int, deadline: float | None, seed: int = 0, first_limit: int = 1000, compiled: bool = True
) -> tuple[list[tuple[int, int]] | None, bool]:
    """(captures, exhausted), as levels.search_forest: Luby restarts, each after the first with shuffled
    tie-breaks; the first INTERPRETED_NODES nodes in Python (loading the compiled code costs more than small
    positions need; above INTERPRETED_UP_TO queens none), then the compiled kernel (``lazy_kernel.py``), the
    same nodes in the same order."""
    return lazy_restarts(geo, k, seed, first_limit, compiled).run(deadline)


def lazy_restarts(
    geo: Geometry,
    k: int,
    seed: int = 0,
    first_limit: int = 1000,
    compiled: bool = True,
    fixed: Sequence[int] | None = None,
) -> Restarts:
    """search_lazy as a resumable search (levels.Restarts); ``fixed`` keeps part of a game (LazySearch)."""

    def kernel() -> Any:
        from mipgames.queens.lazy_kernel import CompiledLazy

        return CompiledLazy(geo, k, fixed)

    return Restarts(
        lambda limit: LazySearch(geo, k, limit, fixed),
        kernel if compiled else None,
        geo.size,
        seed,
        first_limit,
        INTERPRETED_UP_TO,
        kind="lazy",
    )


def run_lazy(instance: Queens, params: dict[str, Any], options: SolveOptions, report: Report) -> Result:
    return run_levels(instance, params, options, report, restarts=(lazy_restarts,))


LAZY = Algorithm(
    "lazy-levels",
    run_lazy,
    "the level search with lazy orientation: a pair's token stands on either square until the next level pairs it",
    exact=True,
)
