"""The default method: compiled search beside CP-SAT, sharing what each finds, answering at every deadline.

Members run in forked processes (one per thread) and send what they find
to this process, which replays every placement in the simulator before it
counts, reports each improvement, and stops everything when the best
verified placement meets the best proved bound.

Phase 1, a perfect placement (decision mode, or when the colour-count bound
allows zero): the exact backtracker (complete search interleaved with
shuffled restarts; it proves that none exists when it exhausts) on every
thread.  In decision mode on boards above ``SMALL`` cells, where it cannot
hope to exhaust, CP-SAT's decision model (scan-order search with clause
learning) joins it a quarter of the way in, as the member that can prove
that none exists.  A proof that none exists raises the bound to 1.

Phase 2, the fewest mismatches: the compiled local search (``lns.py``) and,
once it has a first placement, CP-SAT's optimise model hinted with it; the
local search finds the placements, CP-SAT the bounds, and its proof that the
incumbent is optimal ends the run.

With one thread the members take turns: the backtracker, then CP-SAT's
decision model; then the local search and CP-SAT hinted with its best, in
slices that double.
"""

from __future__ import annotations

import functools
import math
import time
from dataclasses import dataclass, field, replace
from typing import Any

from mipgames.core.alarm import DeadlinePassed, interrupt_at
from mipgames.core.problem import Report, SolveOptions
from mipgames.core.rate import WorkRate
from mipgames.core.result import Result
from mipgames.core.status import Status
from mipgames.edge_matching.instance import Instance
from mipgames.edge_matching.simulate import (
    COLOUR_COUNT_BOUND,
    colour_count_bound,
    evaluate,
    mode_of,
    plain_placement,
)

MARGIN = 0.3
"""Seconds kept at the end to stop the members and answer."""
REPORT_EVERY = 0.2
FIRST_SLICE = 1.0
"""Seconds of the first turn of each member when one thread runs them in turns."""
SMALL = 100
"""Boards of at most this many cells give phase 1 half the time; larger ones a fifth, at most a minute.

Phase 1 is the backtracker's alone, on every thread (its tree split between the workers): on 24
planted puzzles (frame and free, 7x7-10x10, seeds 1-3; one thread each, 20 s) CP-SAT's decision model
solved 15, the backtracker 19, each of the 15 sooner; on Brendan's pieces_04-07 and Heule's em_* too
the backtracker was first.  Larger boards gave CP-SAT one of two threads until the em_* puzzles above
100 cells were shuffled with 40 seeds: em_14_7_3 then took up to 9.0 s (found by the backtracker's one
thread in 1-4 s, else by CP-SAT in 4-5.6 s or by phase 2), against at most 2.5 s with the backtracker
on both threads and its restarts given most of their time (``backtrack.LARGE``;
``benchmarks/edge_matching/RESULTS.md``, 2026-11-28).  Above this size CP-SAT's decision model only
joins in decision mode (``CPSAT_JOINS``)."""
QUICK_CELLS = 25
QUICK_NODES = 10_000
"""Boards of at most ``QUICK_CELLS`` cells are first searched by the backtracker's pure-Python twin, up to
``QUICK_NODES`` nodes (20,000-30,000 a second; Brendan's pieces_05x05 takes 5,948): loading the compiled
members takes about 1.5 s and CP-SAT's import 1 s more, so a 5x5 given 2 s ended "unknown" (2026-11-28)."""
QUICK = "backtrack (mipgames reference search)"
CPSAT_JOINS = 0.25
"""Share of a decision's time after which CP-SAT's decision model joins the backtracker on boards above
``SMALL`` cells (with no time limit, after ``CPSAT_JOINS_S`` seconds): there the backtracker finds
placements but will not exhaust its tree, and CP-SAT can prove that no placement exists."""
CPSAT_JOINS_S = 15.0


@dataclass
class Best:
    """What the run knows: the best verified placement and the best proved bound, with their sources."""

    params: dict[str, Any]
    floor: int
    report: Report
    objective: int | None = None
    placement: Any = None
    found_by: str = ""
    bound: int = 0
    bound_by: str = COLOUR_COUNT_BOUND
    infeasible_by: str = ""
    last_report: float = 0.0
    detail: str | None = None
    """The backtracker's nodes so far and their rate, for the progress line."""
    rate: WorkRate = field(default_factory=WorkRate)
    ended_early: bool = False
    """Every member of the last phase stopped before its time with nothing proved (not a time limit)."""

    def offer(self, inst: Instance, placement: Any, by: str) -> None:
        verdict = evaluate(inst, {**self.params, "mode": "optimise"}, placement)
        if not verdict.legal or verdict.objective is None:
            return  # a member's slip: never counted (the runner would catch it too)
        value = int(verdict.objective)
        if self.objective is None or value < self.objective:
            self.objective, self.placement, self.found_by = value, list(placement), by
            self.tell(force=value <= self.bound)

    def raise_bound(self, value: float, by: str) -> None:
        import math

        rounded = math.ceil(value - 1e-6)
        if rounded > self.bound:
            self.bound, self.bound_by = rounded, by
            self.tell()

    def searched(self, nodes: int) -> None:
        self.detail = self.rate.words({"nodes": nodes})
        self.tell()

    def tell(self, force: bool = False) -> None:
        now = time.monotonic()
        if force or now - self.last_report >= REPORT_EVERY:
            self.last_report = now
            self.report(
                None if self.objective is None else float(self.objective),
                float(self.bound),
                self.placement,
                self.detail,
            )

    @property
    def closed(self) -> bool:
        return self.objective is not None and self.objective <= self.bound


# ---------------------------------------------------------------- members (each in its own process)


def _quick(best: Best, inst: Instance) -> bool:
    """Settle a tiny board's decision with the backtracker's pure-Python twin before any compiled code loads:
    True when it found a perfect placement or proved that none exists (``infeasible_by``), False when its node
    cap cut it (then the compiled members go on)."""
    from mipgames.edge_matching.search import decode_entries, fill_order, fill_reference, prepare

    pieces = prepare(inst, "any")
    if pieces.conflict:
        return False
    order = fill_order(inst, "rows", pieces.fixed)
    got = fill_reference(pieces, order, look=True, max_nodes=QUICK_NODES)
    if got.best is not None:
        best.offer(inst, decode_entries(pieces, order, got.best), QUICK)
        return best.objective == 0
    if got.complete:
        best.infeasible_by = QUICK
        return True
    return False


def _kernel_decision(out: Any, inst: Instance, deadline: float | None, seed: int, threads: int = 1) -> None:
    from mipgames.edge_matching.backtrack import PROVER, exact

    got = exact(inst, threads=threads, deadline=deadline, seed=seed, on_nodes=lambda nodes: out.send("nodes", nodes))
    if got.placement is not None:
        out.send("placement", (got.placement, PROVER))
    elif got.exhausted:
        out.send("no_perfect", PROVER)


def _lns(out: Any, inst: Instance, deadline: float | None, seed: int, target: int) -> None:
    from mipgames.edge_matching.lns import score_search

    def send(total: int, placement: Any) -> None:
        out.send("placement", (placement, "lns (mipgames kernel)"))

    score_search(inst, math.inf if deadline is None else deadline, seed, target, send)


def _cpsat(
    out: Any,
    inst: Instance,
    params: dict[str, Any],
    deadline: float | None,
    seed: int,
    threads: int,
    hint: Any,
) -> None:
    """CP-SAT's ``cpsat`` model (decision or optimise), sending placements, bounds and proofs."""
    from ortools.sat.python import cp_model

    from mipgames.backends.cpsat import apply_parameters, version
    from mipgames.edge_matching import candidates, cpsat
    from mipgames.edge_matching.decode import decode

    def left() -> float | None:
        return None if deadline is None else max(0.1, deadline - time.monotonic())

    who = f"cpsat {version()}"
    options = SolveOptions(time_limit=left(), threads=threads, seed=seed)
    try:
        with interrupt_at(deadline):  # a large board's model can outlive the deadline: then this member ends quietly
            built = cpsat.build(inst, params, options)
    except DeadlinePassed:
        return
    if hint is not None:
        start = candidates.canonical(inst, hint)
        for var, val in cpsat.hint(inst, built.handles, start, built.handles["model"] == "table").items():
            built.model.add_hint(var, int(val))
    solver = cp_model.CpSolver()
    apply_parameters(
        solver,
        replace(options, time_limit=left()),
        built.cpsat_parameters,
    )
    solver.parameters.log_search_progress = False
    decision = not built.has_objective
    if not decision:
        solver.best_bound_callback = lambda bound: out.send("bound", (bound, who))

    class Progress(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            out.send("placement", (decode(inst, params, built.handles, self.value), who))
            if not decision:
                out.send("bound", (self.best_objective_bound, who))

    code = solver.solve(built.model, Progress())
    if code == cp_model.INFEASIBLE:
        out.send("no_perfect" if decision else "infeasible", who)
    elif code == cp_model.OPTIMAL and not decision:
        out.send("bound", (solver.objective_value, who))


# ---------------------------------------------------------------- the conductor


def run_portfolio(inst: Instance, params: dict[str, Any], options: SolveOptions, report: Report) -> Result:
    from mipgames.edge_matching.backtrack import MAX_CELLS, beyond_kernel, refusal, run_backtrack

    if params.get("count"):
        return run_backtrack(inst, params, options, report)
    known = refusal(inst, params)
    if known is not None:
        return known
    start = time.monotonic()
    limit = options.time_limit
    deadline = None if limit is None else start + max(0.1, limit - MARGIN)
    decision = mode_of(params) == "decision"
    floor = colour_count_bound(inst)
    best = Best(params, floor, report, bound=floor)
    beyond = beyond_kernel(inst)
    if beyond and inst.cells > MAX_CELLS:  # the greedy obeys the frame wherever the plain placement does
        return _greedy_alone(best, inst, deadline, decision, beyond)
    if not decision:  # an answer from the start: a member's set-up on a large board (60x60) outlived the deadline
        from mipgames.edge_matching.greedy import greedy_placement

        best.offer(inst, plain_placement(inst), "a placement made without search")
        # the row-scan greedy, for a tenth of the time (50 ms at least, from now: the first replay above can
        # take 0.2 s): at 1 s the planted 10x10 answered with the plain placement's 150 mismatches, where the
        # models' start, this greedy, has 32 (2 ms)
        until = None if deadline is None else time.monotonic() + max(0.05, 0.1 * (deadline - start))
        best.offer(inst, greedy_placement(inst, until), GREEDY)
    best.tell(force=True)
    threads = max(1, options.threads)
    if beyond:
        return _cpsat_alone(best, inst, params, options, deadline, decision, beyond)
    if decision or floor == 0:
        if not (inst.cells <= QUICK_CELLS and _quick(best, inst)):
            share = None
            if deadline is not None:
                total = deadline - start
                share = total if decision else (0.5 * total if inst.cells <= SMALL else min(0.2 * total, 60.0))
            _phase(
                best,
                inst,
                params,
                threads,
                options.seed,
                None if share is None else start + share,
                decision=True,
                prove=decision,
            )
        if decision or best.objective == 0:
            return _answer(best, decision)
        if best.infeasible_by:
            best.raise_bound(1, best.infeasible_by)
        if best.detail:
            best.detail = ""  # the backtracker's nodes are over: not shown beside the local search's answers
            best.tell(force=True)
    _phase(best, inst, params, threads, options.seed, deadline, decision=False)
    return _answer(best, decision)


def _cpsat_alone(
    best: Best,
    inst: Instance,
    params: dict[str, Any],
    options: SolveOptions,
    deadline: float | None,
    decision: bool,
    why: str,
) -> Result:
    """A board the compiled members cannot take: CP-SAT's model on every thread, in this process, after the
    placement made without search (``run_portfolio``: kept if CP-SAT's build outlives the deadline)."""
    if not best.closed:
        _cpsat(_Inbox(best, inst, decision), inst, params, deadline, options.seed, max(1, options.threads), None)
    answer = _answer(best, decision)
    return replace(answer, message=f"{answer.message}; CP-SAT alone, since {why}")


GREEDY = "a row-scan greedy placement (mipgames)"


def _greedy_alone(best: Best, inst: Instance, deadline: float | None, decision: bool, why: str) -> Result:
    """A board too large for the compiled members and for CP-SAT's model (cells x turned tiles variables): the
    row-scan greedy placement alone.  On a 300 x 300 board it leaves 124
    mismatches of 179,400 inner edges, where CP-SAT took 3.9 GB and placed nothing in 20 s."""
    from mipgames.edge_matching.greedy import greedy_placement

    until = None if deadline is None else deadline - FINISH_S_PER_CELL * inst.cells
    best.offer(inst, greedy_placement(inst, until), GREEDY)
    best.tell(force=True)
    answer = _answer(best, decision)
    late = deadline is not None and time.monotonic() >= deadline
    return replace(
        answer,
        message=f"{answer.message}; the row-scan greedy alone, since {why}",
        stop=answer.stop if late else "" if answer.status != Status.UNKNOWN else NO_SEARCH_HERE,
    )  # it ends when the board is full, not at the limit


FINISH_S_PER_CELL = 1e-5
"""Seconds a cell kept after the greedy for what follows it (the placement replayed here and by the runner, its
JSON): about 2.5 s on a 500 x 500 board."""
NO_SEARCH_HERE = "no member searches a board this large for a perfect placement"


@functools.cache
def _warm_kernel() -> None:
    """Load the compiled kernel here, once, so that forked members share it instead of each loading it."""
    from mipgames.edge_matching import kernel, lns, search  # noqa: F401
    from mipgames.edge_matching.generate import planted

    tiny, _ = planted(3, 3, True, 1, 2, seed=0)
    lns.score_search(tiny, time.monotonic() + 0.2, 0, 0)


def _phase(
    best: Best,
    inst: Instance,
    params: dict[str, Any],
    threads: int,
    seed: int,
    until: float | None,
    decision: bool,
    prove: bool = False,
) -> None:
    """Run one phase's members until ``until``, the bound meets the incumbent, or every member is done.

    ``prove``: the user asked for a decision, so a proof that no placement exists is an answer too."""
    from mipgames.run.workers import Workers

    _warm_kernel()  # before the members fork (once: cached)
    params = {**params, "mode": "decision" if decision else "optimise"}
    target = 0 if decision else best.bound
    use_cpsat = inst.cells <= 400
    if decision and inst.cells <= SMALL:
        use_cpsat = False  # the backtracker alone, on every thread (see SMALL)
    if threads == 1:
        _turns(best, inst, params, seed, until, decision, target, use_cpsat)
        return
    if use_cpsat:
        from ortools.sat.python import cp_model  # noqa: F401 - imported once, before its member forks
    with Workers() as pool:
        if decision:  # the backtracker on every thread (see SMALL); CP-SAT later, beside it (CPSAT_JOINS)
            pool.start(_kernel_decision, inst, until, seed, threads)
            use_cpsat = use_cpsat and prove
        else:
            for w in range(threads - 1 if use_cpsat else threads):
                pool.start(_lns, inst, until, seed * 1000 + w, target)
        started_cpsat = not use_cpsat
        now = time.monotonic()
        if until is not None:
            first_wait: float | None = now + (CPSAT_JOINS if decision else 0.1) * (until - now)
        else:
            first_wait = now + CPSAT_JOINS_S if decision else None

        def settled() -> bool:
            return best.closed or bool(decision and best.infeasible_by)

        while True:
            for kind, payload, wait_over in _listen(pool, until):
                if kind is not None:
                    _take(best, inst, kind, payload, decision)
                if settled():
                    break
                if not started_cpsat and (best.placement is not None or wait_over(first_wait)):
                    pool.start(_cpsat, inst, params, until, seed, 1, best.placement)
                    started_cpsat = True
            if started_cpsat or settled() or (until is not None and time.monotonic() >= until):
                break
            # every member ended before CP-SAT was due (the local search on a strip with no legal placement):
            # it starts now, or the phase would end with nothing proved long before its time
            pool.start(_cpsat, inst, params, until, seed, 1, best.placement)
            started_cpsat = True
        best.ended_early = not pool.running and until is not None and time.monotonic() < until


def _listen(pool: Any, until: float | None):
    """Messages of the pool, and a tick at least every 0.2 s (kind None) so the conductor can act on time."""

    def over(t: float | None) -> bool:
        return t is not None and time.monotonic() >= t

    while pool.running and not over(until):
        got = False
        for _, kind, payload in pool.messages(
            time.monotonic() + 0.2 if until is None else min(until, time.monotonic() + 0.2)
        ):
            got = True
            yield kind, payload, over
        if not got:
            yield None, None, over


def _take(best: Best, inst: Instance, kind: str, payload: Any, decision: bool) -> None:
    if kind == "placement":
        placement, by = payload
        best.offer(inst, placement, by)
    elif kind == "bound":
        value, by = payload
        best.raise_bound(value, by)
    elif kind == "nodes":
        best.searched(payload)
    elif kind in ("no_perfect", "infeasible"):
        best.infeasible_by = payload
        if kind == "infeasible":
            best.bound = 10**9
    elif kind == "error":
        raise RuntimeError(f"a portfolio member failed: {payload}")


@dataclass
class _Inbox:
    """A member's outbox when it runs in this process: what it sends is taken at once."""

    best: Best
    inst: Instance
    decision: bool

    def send(self, kind: str, payload: Any = None) -> None:
        _take(self.best, self.inst, kind, payload, self.decision)


def _turns(
    best: Best,
    inst: Instance,
    params: dict[str, Any],
    seed: int,
    until: float | None,
    decision: bool,
    target: int,
    use_cpsat: bool,
) -> None:
    """One thread: the members one after the other in this process (no fork needed)."""
    box = _Inbox(best, inst, decision)
    now = time.monotonic()
    if decision:
        mid = until if until is None or not use_cpsat else now + 0.5 * (until - now)
        _kernel_decision(box, inst, mid, seed)
        if best.objective == 0 or best.infeasible_by or not use_cpsat:
            return
        _cpsat(box, inst, params, until, seed, 1, None)
        return
    end = until if until is not None else now + 365 * 86400.0
    if not use_cpsat:
        _lns(box, inst, end, seed, target)
        return
    # Alternate slices that double (1 s, 2 s, 4 s...): CP-SAT, hinted with the best board, proves small
    # optima in its first slice instead of waiting for the local search to use half the time; on larger
    # boards each member still gets about half the time, and its longest run at least half of that.
    length = FIRST_SLICE
    while not best.closed and time.monotonic() < end:
        _lns(box, inst, min(end, time.monotonic() + length), seed, best.bound)
        if best.closed or time.monotonic() >= end:
            break
        _cpsat(
            box,
            inst,
            params,
            min(end, time.monotonic() + length),
            seed,
            1,
            best.placement,
        )
        length, seed = 2 * length, seed + 1


def _answer(best: Best, decision: bool) -> Result:
    if best.bound >= 10**9:
        if best.placement is not None:  # a verified placement refutes the member's proof
            return Result(
                Status.ERROR,
                message=f"{best.infeasible_by} proved that no placement obeys the frame and the hints, "
                f"but {best.found_by} found one and the simulator accepted it",
            )
        return Result(
            Status.INFEASIBLE,
            message="no placement obeys the frame and the hints (proved)",
            proved_by=best.infeasible_by,
        )
    if decision and best.infeasible_by and best.objective != 0:
        return Result(
            Status.INFEASIBLE,
            message="no placement matches every inner edge (proved)",
            proved_by=best.infeasible_by,
        )
    if best.placement is None or best.objective is None:  # offer() sets both together
        early = "no placement found: every member stopped before the time limit without one"
        return Result(
            Status.UNKNOWN,
            bound=float(best.bound),
            message=early if best.ended_early else "no placement in time",
            stop="" if best.ended_early else "time limit",
            proved_by=best.bound_by,
        )
    value = float(best.objective)
    if best.objective == 0:
        return Result(
            Status.OPTIMAL,
            best.placement,
            0.0,
            0.0,
            f"a perfect placement, found by {best.found_by}",
            proved_by=best.found_by,
        )
    if decision:
        return Result(
            Status.UNKNOWN,
            message=f"best placement found has {best.objective} mismatches",
            stop="time limit",
        )
    if best.closed:
        return Result(
            Status.OPTIMAL,
            best.placement,
            value,
            value,
            f"found by {best.found_by}, proved optimal by {best.bound_by}",
            proved_by=best.bound_by,
        )
    return Result(
        Status.FEASIBLE,
        best.placement,
        value,
        float(best.bound),
        f"found by {best.found_by}; bound {best.bound} by {best.bound_by}",
        stop="time limit",
        proved_by=best.bound_by,
    )
