"""The exact backtracker: perfect placements, infeasibility proofs, solution counts, small optima.

It drives the compiled fill (``kernel.fill`` through ``search.Search``) in
slices of nodes so that it can keep a deadline and report progress.  With
several threads the workers share one search tree: each keeps every
``threads``-th choice at a shallow depth, so together they still search all of
it, and a proof (exhausted) or a count needs every part.

- decision: the first perfect placement (optimal) or a proof that none exists;
- ``count``: every perfect placement, counted (the count goes into the
  certificate's stats with the symmetry it stands for);
- optimise: branch and bound on mismatches, exact-first candidate order, the
  colour-count bound as the floor; exact on small boards, a plain incumbent
  search on large ones (the local search in ``lns.py`` does better there).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mipgames.core.errors import UsageError
from mipgames.core.problem import Report, SolveOptions
from mipgames.core.rate import every, work_words
from mipgames.core.result import Result
from mipgames.core.status import Status
from mipgames.edge_matching.counts import HUGE, in_words, recorded, shown_count
from mipgames.edge_matching.instance import Instance
from mipgames.edge_matching.simulate import (
    COLOUR_COUNT_BOUND,
    COUNTING_TILES,
    HINTS,
    colour_count_bound,
    frame_census,
    hint_conflict,
    hint_mismatch,
    mode_of,
    named_frame,
)

SLICE = 2_000_000
"""Nodes between two looks at the clock (~0.1 s)."""
COUNT_EVERY_S = 1.0
"""A count's progress (perfect placements so far, nodes) goes to the progress line at most this often."""
RESTART_UNIT = 100_000
"""Nodes of the shortest shuffled restart (Luby multiples of it); em_14_7_3 falls in about a second with it."""
PROVER = "backtrack (mipgames kernel)"
MAX_CELLS = 4096
"""The largest board the backtracker and the local search take; the default solver gives larger ones to CP-SAT."""
LARGE = 100
"""Above this many cells a decision's complete search takes one slice for every ``TREE_EVERY`` slices of
its shuffled restarts (elsewhere one for one), and no other pinned tree is searched: the complete search
does not exhaust boards this size, and the em_* puzzles above it, which have many solutions, are found by
restarts.  em_14_7_3 shuffled with 40 seeds, one core: restarts alone found each in at most 1.8-3.1 s, a
worker with half its time on the complete search and a quarter on pins took up to 12 s
(benchmarks/edge_matching/RESULTS.md, 2026-11-28)."""
TREE_EVERY = 4
PINS = 4
"""Trees each worker of a split decision searches: the first pinned tile's (the complete search, half its time,
the only tree whose exhaustion is a proof) and PINS - 1 others (``prepare(pin=k)``), which share the other half
with its restarts.  Where the first placement lies is luck of the tree: on planted 9x9 frame puzzles one pin
finds it in 1-3 s where another needs 12-21 s (RESULTS.md, stop 44).  Stop 44 gave them to the guided worker
only, because em_11_3_4 took up to 1.7x longer when its plain restarts had half their share; boards of its size
(above LARGE cells) search no other tree since stop 45, and with the pins on both workers planted 9x9 seeds 1-40
were placed in 60 s 39 times instead of 37 (RESULTS.md, stop 45)."""


@dataclass
class Outcome:
    """What one exact search found.  ``exhausted``: the whole tree was searched (a proof)."""

    exhausted: bool
    placement: list[tuple[int, int]] | None = None
    breaks: int | None = None
    solutions: int = 0
    """Type-level solutions found (counting mode); see ``count_stats`` for placements."""
    nodes: int = 0
    seconds: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)


def beyond_kernel(inst: Instance) -> str | None:
    """Why the kernel cannot take this board (its tables hold K x K buckets per cell class), or None."""
    from mipgames.edge_matching.kernel import MAX_COLOURS

    if len(inst.colours()) + 1 > MAX_COLOURS:
        count = len(inst.colours())
        return f"the backtracker takes at most {MAX_COLOURS - 1} distinct colours; this puzzle has {count}"
    if inst.cells > MAX_CELLS:
        return f"the backtracker takes boards of at most {MAX_CELLS} cells; this one has {inst.cells}"
    return None


def check_size(inst: Instance, counting: bool = False) -> None:
    """Refuse, with the reason and the solver that takes it, a board the kernel's tables cannot hold."""
    why = beyond_kernel(inst)
    if why:
        other = "the default solver (a row-scan greedy there)" if inst.cells > MAX_CELLS else "--solver cpsat"
        raise UsageError(f"{why}; no other solver counts" if counting else f"{why} (use {other})")


def impossible(inst: Instance, named: int = 0, decision: bool = False) -> tuple[str, str] | None:
    """(name, why) when every placement breaks the rules, found without search (None when none is known): cheap
    enough for every claim ``judge`` makes, on any board the reader takes.  ``named``: the frame colour as the
    user numbered it, for the message.  A ``decision`` asks for a perfect placement, which hinted neighbours
    that mismatch rule out as well."""
    census = frame_census(inst, named)
    if census:
        return COUNTING_TILES, census
    conflict = hint_conflict(inst) or (hint_mismatch(inst) if decision else "")
    return (HINTS, conflict) if conflict else None


def refusal(inst: Instance, params: dict[str, Any]) -> Result | None:
    """The infeasible answer known without search, with what proves it: tile counts against the frame, hints
    that conflict, or (a decision, not a count) colour counts that leave an edge mismatched."""
    proof = impossible(inst, named_frame(params), mode_of(params) == "decision")
    if proof is not None:
        return Result(Status.INFEASIBLE, message=proof[1], proved_by=proof[0])
    if mode_of(params) != "decision" or params.get("count"):
        return None
    floor = colour_count_bound(inst)
    if floor:
        return Result(
            Status.INFEASIBLE,
            bound=float(floor),
            message=f"colour counts leave at least {floor} inner edges mismatched",
            proved_by=COLOUR_COUNT_BOUND,
        )
    return None


def split_depth(nk: int) -> int:
    return min(nk - 1, 4)


def luby(i: int) -> int:
    """The Luby sequence 1, 1, 2, 1, 1, 2, 4, ... (i from 1): restart lengths with a log-optimal worst case."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    return 1 << (k - 1) if i == (1 << k) - 1 else luby(i - (1 << (k - 1)) + 1)


class Restarts:
    """Searches with shuffled candidate order, cut after RESTART_UNIT x luby(i) nodes each.

    Puzzles with many solutions (few colours, many copies: em_14_7_3) defeat
    one fixed order: its first wrong choice near the root is never revisited.
    Short shuffled runs find a perfect placement in a second there; on
    puzzles with few solutions they cost the complete search half its speed.

    ``guided`` gives the kind of each restart in turn (cycled): False, a
    plain shuffle; True, rarest colours first with ties shuffled and the row
    look, as the complete search orders.  The two kinds pay on different
    puzzles: on four of eight planted 9x9 frame puzzles the guided ones
    needed 4-65x fewer nodes, and on em_11_3_4 (four inner colours of very
    uneven counts) the plain ones needed 5x fewer nodes, up to 17x less time
    (``benchmarks/edge_matching/bench_restarts.py``, RESULTS.md).
    """

    def __init__(self, pieces: Any, cells: list[int], seed: int, guided: tuple[bool, ...] = (False,)):
        self.pieces, self.cells, self.seed, self.guided = pieces, cells, seed, guided
        self.i = 0
        self.current: Any = None
        self.left = 0
        self.nodes = 0

    def run(self, nodes: int) -> list[tuple[int, int]] | None:
        from mipgames.edge_matching import kernel
        from mipgames.edge_matching.search import Search

        while nodes > 0:
            if self.current is None or self.left <= 0:
                self.i += 1
                g = self.guided[(self.i - 1) % len(self.guided)]
                self.current = Search(
                    self.pieces, self.cells, seed=self.seed * 1_000_003 + self.i, look=g, rare_first=g
                )
                self.left = RESTART_UNIT * luby(self.i)
            step = min(nodes, self.left)
            before = self.current.nodes
            status = self.current.run(step)
            used = self.current.nodes - before
            self.nodes += used
            self.left -= max(used, 1)
            nodes -= max(used, 1)
            if status == kernel.FOUND:
                return self.current.placement()
            if status == kernel.EXHAUSTED:
                self.current = None
        return None


def _search(
    inst: Instance,
    *,
    count: bool,
    optimise: bool,
    cap: int,
    symmetry: str,
    order: str,
    split: tuple[int, int, int],
    deadline: float | None,
    on_found: Any = None,
    seed: int = 0,
    restarts: bool = True,
    look: bool = True,
    on_count: Callable[[int, int], None] | None = None,
    pieces: Any = None,
    guided: tuple[bool, ...] = (False,),
    pins: int = 1,
    on_nodes: Callable[[int], None] | None = None,
) -> Outcome:
    """One (part of an) exact search in this process, sliced against the deadline.

    A plain decision search interleaves its complete search with shuffled
    restarts (equal node shares): the first finds placements of puzzles with
    few solutions and proves that none exists, the second finds placements of
    puzzles with many.  The complete search of a decision tries the
    candidates showing rare colours first (``search.rare_colours_first``).
    ``on_count(solutions, nodes)`` hears a count's progress after every slice, ``on_nodes(nodes)`` the nodes
    of every tree and restart so far.
    ``pieces``: ``prepare(inst, symmetry)`` when the caller has it already;
    ``guided``: the kinds of the shuffled restarts in turn (``Restarts``).
    A decision with ``pins`` > 1 also searches the trees of up to ``pins`` - 1
    other pinned tiles, taking turns with the restarts; only the first tree's
    exhaustion is a proof (so a split search's workers prove on the same
    tree), and a tree whose part is exhausted leaves the turns.
    """
    from mipgames.edge_matching import kernel
    from mipgames.edge_matching.search import Search, fill_order, prepare

    start = time.monotonic()
    pieces = pieces if pieces is not None else prepare(inst, symmetry)
    cells = fill_order(inst, order, pieces.fixed)
    budget = [cap] * len(cells) if optimise else None
    decide = not count and not optimise
    s = Search(pieces, cells, budget, cap, count=count, optimise=optimise, split=split, look=look, rare_first=decide)
    large = len(cells) > LARGE
    pins = min(pins, pieces.pins) if decide and cells and not large else 1
    others = [
        Search(prepare(inst, symmetry, pin=k), cells, split=split, look=look, rare_first=True) for k in range(1, pins)
    ]
    shuffled = Restarts(pieces, cells, seed, guided) if restarts and decide and cells else None
    every = TREE_EVERY if shuffled is not None and large else 1
    trees = [s, *others]

    def searched() -> int:
        """Nodes of every tree and of the restarts so far."""
        return sum(t.nodes for t in trees) + (shuffled.nodes if shuffled is not None else 0)

    best_seen = None
    turn = pin_turn = 0
    while True:
        status = s.run(SLICE) if turn % every == 0 else kernel.RUNNING
        if on_count is not None:
            on_count(s.solutions, s.nodes)
        if on_nodes is not None:
            on_nodes(searched())
        if optimise and s.best_breaks is not None and s.best_breaks != best_seen:
            best_seen = s.best_breaks
            if on_found is not None:
                on_found(s.best_breaks + pieces.fixed_breaks, s.placement(best=True))
        if status == kernel.FOUND:
            return Outcome(
                False,
                s.placement(),
                pieces.fixed_breaks,
                1,
                searched(),
                time.monotonic() - start,
            )
        if status != kernel.EXHAUSTED:
            # the rest of the time (half; above LARGE cells TREE_EVERY slices in TREE_EVERY + 1): shuffled
            # restarts and the other pins' trees take turns
            turn += 1
            found = None
            if others and (shuffled is None or turn % 2 == 0):
                other = others[pin_turn % len(others)]
                pin_turn += 1
                state = other.run(SLICE)
                if state == kernel.FOUND:
                    found = other.placement()
                elif state == kernel.EXHAUSTED:
                    others.remove(other)  # no placement in this pin's part; proofs stay with the first tree
            elif shuffled is not None:
                found = shuffled.run(SLICE)
            if found is not None:
                return Outcome(
                    False,
                    found,
                    pieces.fixed_breaks,
                    1,
                    searched(),
                    time.monotonic() - start,
                )
        if status == kernel.EXHAUSTED or (deadline is not None and time.monotonic() >= deadline):
            done = status == kernel.EXHAUSTED
            best_breaks = s.best_breaks
            nodes = searched()
            return Outcome(
                done,
                s.placement(best=True) if best_breaks is not None else None,
                None if best_breaks is None else best_breaks + pieces.fixed_breaks,
                s.solutions,
                nodes,
                time.monotonic() - start,
                count_stats(pieces, s.solutions, done) if count else {},
            )


def count_stats(pieces: Any, type_level: int, complete: bool) -> dict[str, Any]:
    """Placements a type-level count stands for, with the whole-board symmetry said in words."""
    total = type_level * pieces.symmetry * pieces.copies_factor()
    inst = pieces.inst
    out: dict[str, Any] = {
        "solutions": recorded(total) if complete else None,
        "solutions_found": None if complete else recorded(total),
        "count_complete": complete,
    }
    if pieces.copies_factor() > 1:
        out["count_copies_note"] = (
            "copies of equal tiles trade places: each arrangement of tile types counts "
            f"{in_words(recorded(pieces.copies_factor()) or 1)} times"
        )
    symmetric = sum(len({tuple(t[(k + j) % 4] for j in range(4)) for k in range(4)}) < 4 for t in inst.tiles)
    if symmetric:
        out["count_turns_note"] = (
            f"{symmetric} tile{'s look' if symmetric > 1 else ' looks'} the same under some turn: a placement is "
            "counted by the colours it shows, so such turns of a tile count once"
        )
    if not inst.hints and inst.cells > 1:
        turns = 4 if inst.rows == inst.cols else 2
        up = recorded(total // turns) if complete and pieces.symmetry == turns else None
        out["solutions_up_to_board_turns"] = None if HUGE in (up, out["solutions"]) else up
        out["symmetry_note"] = (
            f"turning the whole board by {'a quarter' if turns == 4 else 'a half'} turn maps "
            f"solutions to solutions: the count includes all {turns} turned copies of each; "
            + (pieces.symmetry_note or "no tile pins the turn")
        )
    return out


def exact(
    inst: Instance,
    *,
    count: bool = False,
    optimise: bool = False,
    cap: int = 0,
    threads: int = 1,
    deadline: float | None = None,
    order: str = "rows",
    report: Report | None = None,
    seed: int = 0,
    look: bool = True,
    on_nodes: Callable[[int], None] | None = None,
) -> Outcome:
    """The exact search on ``threads`` cores (the tree split between forked workers).

    ``on_nodes(nodes)`` hears the nodes of all workers so far (for the progress line), at most every
    ``COUNT_EVERY_S`` from each worker.

    ``look``: the complete search looks a row ahead (``Search``): on
    Brendan's and planted frame puzzles 2.3-3.4x fewer nodes and 1.2-1.5x
    less time from 7x7 up (``bench_look.py``), the same counts.  A decision's
    shuffled restarts are plain ones on one thread and on even workers,
    guided ones on odd workers (``Restarts``); every worker also searches
    the trees of ``PINS`` - 1 other pinned tiles in turn with its restarts.
    One thread keeps the plain ones and one tree: guided restarts cost puzzles
    such as em_11_3_4, which plain ones find in seconds (the portfolio's
    one-thread turns on boards above ``portfolio.SMALL`` cells meet such
    puzzles).
    """
    from mipgames.edge_matching.search import fill_order, prepare

    symmetry = "exact" if count else "any"
    on_found = None
    if report is not None and optimise:

        def on_found(breaks: int, placement: Any) -> None:
            report(float(breaks), None, placement)

    pieces = prepare(inst, symmetry) if count or threads > 1 else None
    so_far: dict[int, tuple[int, int]] = {}
    """Counting: each worker's latest (type-level solutions, nodes), summed for the progress line."""
    shown = [0.0]

    def tell(worker: int, solutions: int, nodes: int) -> None:
        so_far[worker] = (solutions, nodes)
        if report is None or pieces is None or time.monotonic() - shown[0] < COUNT_EVERY_S:
            return
        shown[0] = time.monotonic()
        placements = sum(s for s, _ in so_far.values()) * pieces.symmetry * pieces.copies_factor()
        nodes = sum(n for _, n in so_far.values())
        found = 0.0 if placements else None  # a perfect placement counted is an answer with no mismatch
        report(found, None, None, f"{shown_count(placements)} perfect placements so far, {nodes:.3g} nodes")

    if threads <= 1:
        return _search(
            inst,
            count=count,
            optimise=optimise,
            cap=cap,
            symmetry=symmetry,
            order=order,
            split=(-1, 1, 0),
            deadline=deadline,
            on_found=on_found,
            seed=seed,
            look=look,
            on_count=(lambda solutions, nodes: tell(0, solutions, nodes)) if count else None,
            pieces=pieces,
            on_nodes=None if on_nodes is None else every(COUNT_EVERY_S, on_nodes),
        )
    from mipgames.run.workers import Workers

    assert pieces is not None
    nk = len(fill_order(inst, order, pieces.fixed))
    depth = split_depth(nk)
    start = time.monotonic()
    merged = Outcome(True)
    with Workers() as pool:
        for part in range(threads):
            pool.start(
                _part,
                inst,
                count,
                optimise,
                cap,
                symmetry,
                order,
                (depth, threads, part),
                deadline,
                seed * 1000 + part,
                look,
                (part % 2 == 1,),
                PINS,
                on_nodes is not None,
            )
        nodes_so_far: dict[int, int] = {}
        for worker, kind, payload in pool.messages(deadline + 1.0 if deadline is not None else None):
            if kind == "error":
                raise RuntimeError(f"a backtracking worker failed: {payload}")
            if kind == "found" and optimise and report is not None:
                report(float(payload[0]), None, payload[1])
            if kind == "count":
                tell(worker, *payload)
            if kind == "nodes" and on_nodes is not None:
                nodes_so_far[worker] = payload
                on_nodes(sum(nodes_so_far.values()))
            if kind != "done":
                continue
            out: Outcome = payload
            merged.exhausted &= out.exhausted
            merged.solutions += out.solutions
            merged.nodes += out.nodes
            if out.placement is not None and (
                merged.breaks is None or (out.breaks is not None and out.breaks < merged.breaks)
            ):
                merged.placement, merged.breaks = out.placement, out.breaks
            if not count and not optimise and out.placement is not None:
                merged.exhausted = False
                break
        if pool.running:
            merged.exhausted = False
    merged.seconds = time.monotonic() - start
    if count:
        merged.stats = count_stats(pieces, merged.solutions, merged.exhausted)
    return merged


def _part(
    out: Any,
    inst: Instance,
    count: bool,
    optimise: bool,
    cap: int,
    symmetry: str,
    order: str,
    split: tuple[int, int, int],
    deadline: float | None,
    seed: int,
    look: bool = True,
    guided: tuple[bool, ...] = (False,),
    pins: int = 1,
    tell_nodes: bool = False,
) -> None:
    def found(breaks: int, placement: Any) -> None:
        out.send("found", (breaks, placement))

    counted = every(COUNT_EVERY_S, lambda solutions, nodes: out.send("count", (solutions, nodes)))

    out.send(
        "done",
        _search(
            inst,
            count=count,
            optimise=optimise,
            cap=cap,
            symmetry=symmetry,
            order=order,
            split=split,
            deadline=deadline,
            on_found=found,
            seed=seed,
            look=look,
            on_count=counted if count else None,
            guided=guided,
            pins=pins,
            on_nodes=every(COUNT_EVERY_S, lambda nodes: out.send("nodes", nodes)) if tell_nodes else None,
        ),
    )


def node_words(report: Report) -> Callable[[int], None]:
    """An ``on_nodes`` hook that shows the nodes so far and their rate on the progress line (``detail``)."""
    words = work_words(report)
    return lambda nodes: words(nodes, "nodes")


def run_backtrack(inst: Instance, params: dict[str, Any], options: SolveOptions, report: Report) -> Result:
    check_size(inst, counting=bool(params.get("count")))
    known = refusal(inst, params)
    if known is not None:
        return known
    deadline = options.deadline()
    threads = max(1, options.threads)
    decision = mode_of(params) == "decision"
    if params.get("count"):
        out = exact(inst, count=True, threads=threads, deadline=deadline, report=report)
        stats = {**out.stats, "nodes": out.nodes}
        words = _count_words(out)
        if out.placement is not None:
            report(0.0, 0.0, out.placement)
            return Result(Status.OPTIMAL, out.placement, 0.0, 0.0, words, stats=stats)
        if out.exhausted:
            if decision:
                return Result(Status.INFEASIBLE, message=words, stats=stats)
            floor = max(1, colour_count_bound(inst))
            rest = _optimise(inst, options, report, deadline, threads, floor)
            rest.stats.update(stats)
            rest.message = f"{words}; {rest.message}"
            return rest
        return Result(Status.UNKNOWN, message=words, stop="time limit", stats=stats)
    if decision:
        out = exact(inst, threads=threads, deadline=deadline, seed=options.seed, on_nodes=node_words(report))
        stats = {"nodes": out.nodes}
        if out.placement is not None:
            return Result(Status.OPTIMAL, out.placement, 0.0, 0.0, "a perfect placement", stats=stats)
        if out.exhausted:
            return Result(
                Status.INFEASIBLE,
                message="no placement matches every inner edge (search exhausted)",
                stats=stats,
            )
        return Result(
            Status.UNKNOWN,
            message="no perfect placement found in time",
            stop="time limit",
            stats=stats,
        )
    return _optimise(inst, options, report, deadline, threads, colour_count_bound(inst))


def _optimise(
    inst: Instance,
    options: SolveOptions,
    report: Report,
    deadline: float | None,
    threads: int,
    floor: int,
) -> Result:
    """Branch and bound from a quick incumbent; exhausted = optimal."""
    report(None, float(floor))
    cap = inst.inner_edges
    out = exact(inst, optimise=True, cap=cap, threads=threads, deadline=deadline, report=report)
    stats = {"nodes": out.nodes}
    if out.placement is None or out.breaks is None:  # a placement always comes with its breaks
        if out.exhausted:
            return Result(
                Status.INFEASIBLE,
                message="no placement obeys the frame and the hints (search exhausted)",
                stats=stats,
            )
        return Result(
            Status.UNKNOWN,
            bound=float(floor),
            message="no placement in time",
            stop="time limit",
            stats=stats,
        )
    best = float(out.breaks)
    if out.exhausted or best <= floor:
        return Result(
            Status.OPTIMAL,
            out.placement,
            best,
            best,
            "branch and bound exhausted",
            stats=stats,
        )
    return Result(
        Status.FEASIBLE,
        out.placement,
        best,
        float(floor),
        "time limit",
        stop="time limit",
        stats=stats,
    )


def _count_words(out: Outcome) -> str:
    if out.stats.get("count_complete"):
        n = out.stats["solutions"]
        up = out.stats.get("solutions_up_to_board_turns")
        return f"{in_words(n)} perfect placement{'' if n == 1 else 's'}" + (
            f" ({in_words(up)} up to turning the whole board)" if up is not None else ""
        )
    found = out.stats.get("solutions_found")
    return f"at least {in_words(found or 0)} perfect placements (count cut by the time limit)"
