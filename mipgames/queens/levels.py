"""Level-by-level search over capture forests: the fast way to find solutions.

The queens standing at the lowest power level m can only ever pair with each
other (nothing else is, or will be, at level m), so level m is settled by a
matching: each pair merges onto one of its two squares (which joins level
m+1), and an unmatched queen stays for good.  Levels are settled in
ascending order; the order in which moves are actually played is left to a
precedence graph (mover before its target leaves, squares between before the
mover, earlier arrivals on a square before later ones), kept acyclic as pairs
are chosen.  An acyclic graph is a legal sequence (any topological order), and
every solution is such a forest, so the search is complete: exhausting it
proves that no solution has at most K queens.

What makes 100-queen planted positions tractable (see benchmarks/queens):
- pruning looks at every level, not only the current one: the graph of
  captures still possible (in line, keeping the precedences acyclic) leaves,
  in each group of same-level queens without a lower partner, as many
  survivors as a maximum matching misses (Edmonds, matching.py); survivors
  must not block any chosen capture;
- partners with fewer squares between come first (each one is a precedence
  edge, and cycles are what kill the deep levels);
- Luby restarts that alternate two survivor rules.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from mipgames.core.problem import Algorithm, Report, SolveOptions
from mipgames.core.rate import every, work_words
from mipgames.core.result import Result
from mipgames.core.status import Status
from mipgames.queens.dfs import counting_refutes, reached, to_moves
from mipgames.queens.geometry import Geometry, geometry, lower_bound, popcount, table_or_refusal
from mipgames.queens.instance import Move, Queens, remain
from mipgames.queens.matching import deficiency
from mipgames.queens.minimise import Maker, Minimum, minimise, minimum_result

INTERPRETED_NODES = 3000
"""Nodes searched in Python before the compiled search takes over (about a second)."""
INTERPRETED_UP_TO = 100
"""Queens above which the compiled search starts at once: Python does about 1,500 nodes a second there, so its
first INTERPRETED_NODES would cost more than loading the kernel."""


class Stop(Exception):
    """The deadline passed (both level searches)."""


class Restart(Exception):
    """The restart's node limit passed (both level searches)."""


class LevelSearch:
    """What both level searches keep (this one and lazy.LazySearch): levels, survivors, the precedence closure,
    the tokens by level and the node count with its deadline and restart limit."""

    def __init__(self, geo: Geometry, k: int, deadline: float | None):
        self.geo, self.k, self.deadline = geo, k, deadline
        q = geo.size
        self.level = list(geo.exps)
        self.root = [False] * q
        self.after: list[list[int]] = [[] for _ in range(q)]  # u -> v: u departs before v
        self.mask = [1 << u for u in range(q)]  # bit v of mask[u]: u departs before v (closure, kept incrementally)
        self.trail: list[tuple[int, int]] = []
        self.tokens: dict[int, list[int]] = {}
        for i, e in enumerate(geo.exps):
            self.tokens.setdefault(e, []).append(i)
        self.roots = 0
        self.left = geo.total  # power not yet fixed in a root
        self.nodes = 0
        self.jitter = list(range(q))
        self.limit: int | None = None

    def add(self, u: int, v: int) -> bool:
        """u → v (u departs before v) with the closure kept incrementally (the rows it changes go on the trail);
        False, and nothing added, when v already departs before u."""
        mask = self.mask
        if mask[v] >> u & 1:
            return False
        self.after[u].append(v)
        if not mask[u] >> v & 1:
            reach = mask[v]  # unchanged in the loop: v does not reach u
            for x in range(len(mask)):
                if mask[x] >> u & 1:
                    self.trail.append((x, mask[x]))
                    mask[x] |= reach
        return True

    def take_back(self, sources: list[int], mark: int) -> None:
        """Takes back the edges whose sources are ``sources`` (in the order added) and the closure rows after
        ``mark``."""
        for u in reversed(sources):
            self.after[u].pop()
        mask, trail = self.mask, self.trail
        while len(trail) > mark:
            x, old = trail.pop()
            mask[x] = old

    def solve(self) -> bool:
        if not self.tokens:
            return True
        first = min(self.tokens)
        return self.settle(first, set(self.tokens[first]))

    def settle(self, m: int, pending: set[int]) -> bool:
        raise NotImplementedError

    def next_level(self, m: int) -> bool:
        """Level m is settled: settles the next level that has tokens; True when there is none."""
        higher = [lvl for lvl in self.tokens if lvl > m and self.tokens[lvl]]
        if not higher:
            return True
        nxt = min(higher)
        return self.settle(nxt, set(self.tokens[nxt]))

    def survive(self, x: int, t: int, m: int, pending: set[int]) -> bool:
        """The level-m queen (or token) t survives on square x for good; settles the rest, or takes it back."""
        self.root[x] = True
        self.roots += 1
        self.left -= 1 << m
        found = False
        try:  # taken back on the way out of a jump too (lazy.Backjump)
            found = self.settle(m, pending - {t})
            return found
        finally:
            if not found:
                self.root[x] = False
                self.roots -= 1
                self.left += 1 << m

    def enter(self) -> bool:
        """Counts a node (Stop at the deadline, Restart past the limit); False when the survivors fixed so far and
        the popcount of the power left already exceed K."""
        self.nodes += 1
        if self.deadline is not None and self.nodes % 64 == 0 and time.monotonic() > self.deadline:
            raise Stop
        if self.limit is not None and self.nodes > self.limit:
            raise Restart
        return self.roots + popcount(self.left) <= self.k


class ForestSearch(LevelSearch):
    """Depth-first search over level matchings with an incrementally acyclic precedence graph."""

    def __init__(self, geo: Geometry, k: int, deadline: float | None):
        super().__init__(geo, k, deadline)
        q = geo.size
        self.parent: list[int | None] = [None] * q
        self.last_arrival: list[int | None] = [None] * q
        self.bound = lower_bound
        self.every = 1
        self.alt = False  # survivor choice by precedence-aware partners of the next level (alternate restarts)

    def stranded(self) -> int:
        """Lower bound on survivors still to come: a queen with no queen of its level or lower in line can never
        pair (higher ones never come down), so it stays; the rest of the power needs popcount more queens."""
        level, parent, root, between = self.level, self.parent, self.root, self.geo.between
        stuck, power = 0, 0
        for i in range(self.geo.size):
            if parent[i] is not None or root[i]:
                continue
            li = level[i]
            if not any(
                parent[j] is None and not root[j] and level[j] <= li and not any(root[k] for k in between[i, j])
                for j in self.geo.neighbours[i]
            ):
                stuck += 1
                power += 1 << li
        return stuck + popcount(self.left - power)

    def partner_graph(self, mask: list[int]) -> dict[int, list[int]]:
        """For every unsettled queen, the unsettled queens in line that it could still meet in a capture (either
        way, keeping the precedences acyclic).  A relaxation: edges and survivors only accumulate, so a pair
        missing here can never be captured later."""
        parent, root, acyclic = self.parent, self.root, self.acyclic
        adj: dict[int, list[int]] = {i: [] for i in range(self.geo.size) if parent[i] is None and not root[i]}
        for i, out in adj.items():
            for j in self.geo.neighbours[i]:
                if j > i and j in adj and (acyclic(i, j, mask) or acyclic(j, i, mask)):
                    out.append(j)
                    adj[j].append(i)
        return adj

    def survivors_bound(self, adj: dict[int, list[int]]) -> int:
        """Survivors still to come; K + 1 when the position is dead, so that it is cut whatever K (the compiled
        kernels' -1: with the number of squares instead, a K of that many or more kept dead positions)."""
        after = self.after
        return survivors_bound(adj, self.level, lambda u: not after[u], self.left, self.k + 1)

    def survivor_first(self, pair: tuple[int, int]) -> tuple[int, int]:
        """Keep the queen that sees more queens of the next level; the mover with fewer squares to clear."""
        c, p = pair
        nxt = self.level[p] + 1
        sees = sum(
            1 for u in self.geo.neighbours[p] if self.level[u] == nxt and self.parent[u] is None and not self.root[u]
        )
        return (-sees, len(self.geo.between[c, p]))

    def position(self) -> bytearray:
        """Exponent + 1 of every square still in play (neither gone nor fixed as a survivor)."""
        return bytearray(
            0 if self.root[i] or self.parent[i] is not None else self.level[i] + 1 for i in range(self.geo.size)
        )

    def edges_for(self, c: int, p: int) -> tuple[list[tuple[int, int]], int] | None:
        """Adds the precedences of capture c→p (and their closure); (edges, trail mark) for ``undo``, or None
        when a survivor blocks the capture or the edges close a cycle."""
        new = [(c, p)]
        for k in self.geo.between[c, p]:
            if self.root[k]:
                return None
            new.append((k, c))
        last = self.last_arrival[p]
        if last is not None:
            new.append((last, c))
        mark = len(self.trail)
        added: list[tuple[int, int]] = []
        for u, v in new:
            if not self.add(u, v):
                self.undo(added, mark)
                return None
            added.append((u, v))
        return added, mark

    def undo(self, added: list[tuple[int, int]], mark: int) -> None:
        self.take_back([u for u, _ in added], mark)

    def acyclic(self, c: int, p: int, mask: list[int]) -> bool:
        """Whether capture c→p keeps the precedences acyclic (every new edge touches c, so this is exact)."""
        if mask[p] >> c & 1:
            return False
        ahead = mask[c] | mask[p]
        blockers = self.geo.between[c, p]
        if any(self.root[k] or ahead >> k & 1 for k in blockers):
            return False
        last = self.last_arrival[p]
        return last is None or not ahead >> last & 1

    def settle(self, m: int, pending: set[int]) -> bool:
        """Settles the queens of level m still in ``pending``, then the next levels."""
        if not self.enter():
            return False
        mask = self.mask
        adj = self.partner_graph(mask)
        if self.roots + self.survivors_bound(adj) > self.k:
            return False
        if (
            self.bound is not None
            and self.nodes % self.every == 0
            and self.roots + self.bound(self.geo, self.position()) > self.k
        ):
            return False
        if not pending:
            return self.next_level(m)
        options = {t: [u for u in adj[t] if u in pending] for t in pending}  # pending: every unsettled queen of level m
        jitter, between, level = self.jitter, self.geo.between, self.level
        t = min(pending, key=lambda s: (len(options[s]), jitter[s]))

        def partner_first(u: int) -> tuple[int, int, int]:
            """Fewest squares between first: each one is a precedence edge (the cycles that kill deep levels)."""
            return len(between[t, u]), len(options[u]), jitter[u]

        def grown_first(pair: tuple[int, int]) -> tuple[int, int, int]:
            """Keep the queen with more precedence-feasible partners of the next level."""
            c, p = pair
            return -sum(1 for u in adj[p] if level[u] == m + 1), len(between[c, p]), jitter[p]

        survivor = grown_first if self.alt else self.survivor_first
        for u in sorted(options[t], key=partner_first):
            for c, p in sorted(((t, u), (u, t)), key=survivor):
                added = self.edges_for(c, p)
                if added is None:
                    continue
                self.parent[c], before = p, self.last_arrival[p]
                self.last_arrival[p] = c
                self.level[p] = m + 1
                self.tokens.setdefault(m + 1, []).append(p)
                if self.settle(m, pending - {c, p}):
                    return True
                self.tokens[m + 1].pop()
                self.level[p] = m
                self.last_arrival[p] = before
                self.parent[c] = None
                self.undo(*added)
        # a square that must leave (it blocks a capture) cannot stay
        return self.roots < self.k and not self.after[t] and self.survive(t, t, m, pending)

    def restart(self, jitter: list[int], run: int, limit: int) -> None:
        """Sets up restart number ``run`` (see Restarts)."""
        self.jitter, self.alt, self.limit = jitter, alternate(run), limit

    def moves(self) -> list[tuple[int, int]]:
        return departure_order(self.parent, self.after)


def survivors_bound(
    adj: dict[int, list[int]], level: list[int], can_stay: Callable[[int], bool], left: int, dead: int
) -> int:
    """Lower bound on survivors still to come (``dead`` when none can do).  A queen's first capture is with a
    queen of its own level, so among the vertices of level L that have no partner of a lower level (one that
    could rise to L), a component C leaves |C| − 2·(maximum matching) that never move: they survive at level L
    (and the position is dead when no member can stay).  The rest of the power (``left`` less theirs) needs
    popcount more survivors; survivors never leave, so they must be vertices that block nothing (``can_stay``).
    Vertices are queens in the level search and tokens in the lazy one."""
    seen: set[int] = set()
    stuck, power = 0, 0
    for start in adj:
        if start in seen:
            continue
        lv = level[start]
        seen.add(start)
        members, closed, must_leave = [start], True, True
        for u in members:  # grows while iterating: a breadth-first component
            must_leave = must_leave and not can_stay(u)
            for v in adj[u]:
                lw = level[v]
                if lw < lv:
                    closed = False
                elif lw == lv and v not in seen:
                    seen.add(v)
                    members.append(v)
        if not closed:
            continue
        if len(members) <= 2:
            unpaired = len(members) % 2
        else:
            index = {u: x for x, u in enumerate(members)}
            unpaired = deficiency([[index[v] for v in adj[u] if v in index] for u in members])
        if unpaired:
            if must_leave:
                return dead
            stuck += unpaired
            power += unpaired << lv
    needed = stuck + popcount(left - power)
    if sum(1 for u in adj if can_stay(u)) < needed:
        return dead
    return needed


def departure_order(parent: list[int | None], after: list[list[int]]) -> list[tuple[int, int]]:
    """A topological order of the departures (u before v for every v in after[u]): each square moves into its parent."""
    target = {c: p for c, p in enumerate(parent) if p is not None}
    movers = list(target)
    indegree = {c: 0 for c in movers}
    for u in movers:
        for v in after[u]:
            if v in indegree:
                indegree[v] += 1
    ready = sorted(c for c in movers if indegree[c] == 0)
    order = []
    while ready:
        u = ready.pop()
        order.append((u, target[u]))
        for v in after[u]:
            if v in indegree:
                indegree[v] -= 1
                if indegree[v] == 0:
                    ready.append(v)
    return order


def luby(i: int) -> int:
    """The i-th term (from 1) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ...: restart lengths that are
    within a log factor of the best fixed cutoff whatever the run-time distribution."""
    while True:
        k = i.bit_length()
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1


def alternate(run: int) -> bool:
    """Every other restart after the first keeps survivors by the partner graph (ForestSearch.alt)."""
    return run > 1 and run % 2 == 0


class Restarts:
    """The restart loop of both level searches (search_forest says why it looks like this), resumable: ``run``
    searches until a deadline and a later call goes on where it stopped, so a search can be given its time in
    slices.  A restart the deadline cut in the compiled engine goes on from the node where it stopped (the
    engine keeps its state in arrays between budgets): sliced or not, a search visits the same nodes.  One
    cut in Python (the first INTERPRETED_NODES nodes) is run again from its start, with the same tie-breaks.

    ``reference(deadline)`` makes a fresh Python search, ``kernel`` (None: Python only) the compiled engine, taken
    once INTERPRETED_NODES nodes were searched in Python, or at once above ``interpreted_up_to`` queens; each has
    ``restart(jitter, run, limit)`` (the engine also the deadline) and ``moves()``."""

    def __init__(
        self,
        reference: Callable[[float | None], Any],
        kernel: Callable[[], Any] | None,
        size: int,
        seed: int,
        first_limit: int,
        interpreted_up_to: int | None = None,
        kind: str = "eager",
    ):
        self.reference, self.kernel, self.size, self.first_limit = reference, kernel, size, first_limit
        self.kind = kind
        """Which level search restarts ("eager", "lazy"): the progress line names its dives so."""
        self.at_once = interpreted_up_to is not None and size > interpreted_up_to
        self.rng = random.Random(seed)
        self.engine: Any = None
        self.interpreted = 0
        self.run_number = 0
        self.cut: tuple[list[int], int] | None = None  # (jitter, limit) of the restart the deadline cut
        self.paused = False  # the engine holds the cut restart where it stopped
        self.resumed = 0  # restarts gone on from where a deadline cut them (for the tests)
        self.outcome: tuple[list[tuple[int, int]] | None, bool] | None = None
        self.on_dive: Callable[[int, str], None] | None = None
        """Hears the restarts (dives) begun so far and ``kind``, after each one (the progress line)."""

    def run(self, deadline: float | None, restarts: int | None = None) -> tuple[list[tuple[int, int]] | None, bool]:
        """(captures, exhausted) once the search ended (found or exhausted; it stays ended), else (None, False)
        at the deadline or once ``restarts`` restarts are done (a budget whose end the clock does not move)."""
        while self.outcome is None:
            if self.cut is not None:
                (jitter, limit), self.cut = self.cut, None
            else:
                if restarts is not None and self.run_number >= restarts:
                    return None, False
                self.run_number += 1
                jitter = list(range(self.size))
                if self.run_number > 1:
                    self.rng.shuffle(jitter)
                limit = self.first_limit * luby(self.run_number)
            if deadline is not None and time.monotonic() > deadline:
                self.cut = (jitter, limit)
                return None, False
            self.outcome = self.restart(jitter, limit, deadline)
            if self.on_dive is not None:
                self.on_dive(self.run_number, self.kind)
        return self.outcome

    def restart(
        self, jitter: list[int], limit: int, deadline: float | None
    ) -> tuple[list[tuple[int, int]] | None, bool] | None:
        """One restart: the outcome when the search ended, None when it goes on (``cut`` set at the deadline)."""
        run = self.run_number
        if self.engine is None and self.kernel is not None and (self.interpreted >= INTERPRETED_NODES or self.at_once):
            self.engine = self.kernel()
        if self.engine is not None:
            if self.paused:
                self.paused = False
                self.resumed += 1
                outcome = self.engine.loop(limit, deadline)
            else:
                outcome = self.engine.restart(jitter, run, limit, deadline)
            if outcome == "restart":
                return None
            if outcome == "stop":
                self.cut, self.paused = (jitter, limit), True
                return None
            if outcome is not None:
                return (self.engine.moves() if outcome == "found" else None), True
        search = self.reference(deadline)
        search.restart(jitter, run, limit)
        try:
            found = search.solve()
        except Stop:
            self.cut = (jitter, limit)
            return None
        except Restart:
            self.interpreted += search.nodes
            return None
        return (search.moves() if found else None), True


def search_forest(
    geo: Geometry,
    k: int,
    deadline: float | None,
    seed: int = 0,
    first_limit: int = 1000,
    compiled: bool = True,
    restarts: int | None = None,
) -> tuple[list[tuple[int, int]] | None, bool]:
    """(captures, exhausted): captures reaching at most k queens, or None; exhausted = the search space was covered.

    Randomised restarts with node limits first_limit × Luby (heavy-tailed dives: an
    early bad matching is otherwise never revisited).  Every restart after the
    first shuffles the tie-breaks, and every other one keeps survivors by the
    partner graph instead of raw lines of sight: the two orders fail on
    different planted positions.  The limits grow without bound, so a run
    eventually covers the whole space and the search stays complete.

    ``compiled`` runs the dives in the numba kernel (levels_kernel.py): the
    same nodes in the same order as ForestSearch, which stays the reference.  ``restarts`` caps the restarts
    (each of a fixed node limit), a budget that ends the same way on any machine.
    The first INTERPRETED_NODES nodes are searched in Python all the same:
    loading the compiled code costs a second or two, more than small
    positions need in all; above INTERPRETED_UP_TO queens none.
    """
    return forest_restarts(geo, k, seed, first_limit, compiled).run(deadline, restarts)


def forest_restarts(geo: Geometry, k: int, seed: int = 0, first_limit: int = 1000, compiled: bool = True) -> Restarts:
    """search_forest as a resumable search (Restarts), for searches given their time in slices."""

    def kernel() -> Any:
        from mipgames.queens.levels_kernel import Compiled

        return Compiled(geo, k)

    return Restarts(
        lambda limit: ForestSearch(geo, k, limit),
        kernel if compiled else None,
        geo.size,
        seed,
        first_limit,
        INTERPRETED_UP_TO,
    )


RACE_GRACE_S = 1.0
"""How long after the deadline the racing searches may take to report (the engine reads the clock between
node budgets) before they are killed."""


def race(
    maker: Maker,
    geo: Geometry,
    k: int,
    seed: int,
    threads: int,
    deadline: float | None,
    on_dives: Callable[[int, str], None] | None = None,
) -> tuple[list[tuple[int, int]] | None, bool]:
    """(captures, exhausted) of the one search of K, as ``maker(geo, k, seed).run(deadline)``; above
    INTERPRETED_UP_TO queens with ``threads`` >= 2, that many searches seeded seed, seed + 1, ... race on their own
    cores and the first to find a game or exhaust wins.  ``on_dives(dives, kind)`` hears the dives of all of
    them so far.

    Why a race: on the large planted positions a game comes from a rare restart (K = 2 at N = 64: about one
    dive in 3,600 reaches it), so independent restart streams add up, and two of them side by side keep most
    of their speed (benchmarks/queens/RESULTS.md).  Either search exhausting is a proof.  Small positions
    keep one search: they end in milliseconds, before a fork pays off.
    """
    if threads <= 1 or geo.size <= INTERPRETED_UP_TO:
        search = maker(geo, k, seed)
        search.on_dive = None if on_dives is None else every(DIVES_EVERY_S, on_dives)
        return search.run(deadline)
    from mipgames.run.workers import Outbox, Workers

    def work(out: Outbox, own_seed: int) -> None:
        search = maker(geo, k, own_seed)
        if on_dives is not None:
            search.on_dive = every(DIVES_EVERY_S, lambda dives, kind: out.send("dives", (dives, kind)))
        out.send("outcome", search.run(deadline))

    dives: dict[int, tuple[int, str]] = {}
    with Workers() as workers:
        for w in range(threads):
            workers.start(work, seed + w)
        for worker, kind, payload in workers.messages(None if deadline is None else deadline + RACE_GRACE_S):
            if kind == "error":
                raise RuntimeError(f"a racing search failed: {payload}")
            if kind == "dives" and on_dives is not None:
                dives[worker] = payload
                on_dives(sum(n for n, _ in dives.values()), payload[1])
            if kind == "outcome" and (payload[0] is not None or payload[1]):
                return payload
    return None, False


DIVES_EVERY_S = 1.0
"""A race's dives go to the progress line at most this often from each search."""


def run_levels(
    instance: Queens,
    params: dict[str, Any],
    options: SolveOptions,
    report: Report,
    restarts: Sequence[Maker] = (),
    incumbent: Sequence[Move] | None = None,
    provers: Sequence[Maker] = (),
) -> Result:
    """Decides K with the first of ``restarts`` (default: forest_restarts; lazy.py passes its own), or, with
    ``minimise``, minimises with them as finders and ``provers`` (minimise.py), from the game ``incumbent``.
    With K two or more above the bound, deciding is minimising towards the goal K (``provers``, default the
    first of ``restarts``, also search K itself): a search of K alone wanders in the slack."""
    refuted = counting_refutes(instance, bool(params.get("minimise")))
    if refuted is not None:
        return refuted
    table_or_refusal(instance, "the level search")
    makers = tuple(restarts) or (forest_restarts,)
    geo = geometry(instance)
    deadline = options.deadline()
    bound = geo.start_captures[2]
    if params.get("minimise"):
        start = None if incumbent is None else [(geo.index[m[:2]], geo.index[m[2:]]) for m in incumbent]

        def progress(best: Minimum) -> None:
            moves = None if best.pairs is None else to_moves(geo, best.pairs)
            report(None if moves is None else best.remaining, best.bound, moves)

        return minimum_result(geo, minimise(geo, bound, deadline, options.seed, makers, provers, start, progress))
    if bound > instance.k:
        return Result(Status.INFEASIBLE, bound=bound, message=f"at least {remain(bound, 'always')}")
    if instance.k - bound <= 1:  # no target between the bound and K: the one search of K, its time uncut
        dives = work_words(report)
        pairs, exhausted = race(
            makers[0],
            geo,
            instance.k,
            options.seed,
            options.threads,
            deadline,
            lambda n, kind: dives(n, f"{kind} dives"),
        )
    else:  # slack lets a search of K wander; the targets from the bound up share the time (minimise.py)
        best = minimise(geo, bound, deadline, options.seed, makers[:1], provers, goal=instance.k)
        pairs = (best.pairs or []) if best.remaining <= instance.k else None  # no capture at all may do
        exhausted = best.bound > instance.k
    if pairs is not None:
        remaining = geo.size - len(pairs)
        return reached(instance, to_moves(geo, pairs), remaining, bound)
    if exhausted:
        return Result(Status.INFEASIBLE, message=f"search exhausted: K = {instance.k} is unreachable")
    return Result(Status.UNKNOWN, message="time limit reached without reaching K")


LEVELS = Algorithm(
    "levels",
    run_levels,
    "exact search over capture forests, lowest power level first (matchings), with an acyclic move order",
    exact=True,
)
