"""SameGame's classical algorithms as solvers: the ``ALGORITHMS`` registry.

The searches live in their own modules on the compiled kernel (``kernel``):
``exact`` (branch and bound that proves optima), ``beam`` (beam search with a
colour-aware evaluation), ``nmcs`` (nested Monte-Carlo search), ``nrpa``
(nested rollout policy adaptation); ``parallel`` runs them on several cores.
This module turns params and options into searches and their games into
verified ``Result``s: every game is replayed by ``simulate.evaluate`` before
it leaves, and only the exact search (or a beam that cut nothing, or a game
meeting the colour-count bound) may say ``optimal``.

Node budgets (param ``node_budget``) make every search deterministic given
the seed: children built (beam), playouts (NMCS, NRPA), nodes (exact), split
evenly between workers.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mipgames.core.problem import Algorithm, Report, SolveOptions
from mipgames.core.result import Result
from mipgames.core.status import Status
from mipgames.samegame import simulate
from mipgames.samegame.instance import Board

EXACT_TILES = {"score": 64, "min-remaining": 144}
"""Boards up to this many tiles get an exact search in the portfolio (score: 8x8 with 3 colours proves in
seconds; min-remaining: 12x12 with 4 colours mostly clears, which the colour-count bound proves at once)."""
DEFAULT_TIME_S = 10.0
"""Time given to an anytime search when neither a time limit nor a node budget is set."""


@dataclass
class Setup:
    """What every algorithm derives from (board, params, options) first."""

    board: Board
    params: dict[str, Any]
    options: SolveOptions
    report: Report
    rules: simulate.Rules
    root: Any
    shape: Any
    deadline: float | None
    budget: int | None
    began: float
    reserve: float = 0.0
    """Seconds kept at the end for ``exact.polish``: the searches stop ``reserve`` before the deadline."""

    @property
    def work_deadline(self) -> float | None:
        return None if self.deadline is None else self.deadline - self.reserve

    @property
    def score_mode(self) -> bool:
        return self.rules.score

    @property
    def workers(self) -> int:
        return max(1, int(self.options.threads or 1))

    def share(self, workers: int) -> int | None:
        """Each worker's part of the node budget."""
        return None if self.budget is None else max(1, self.budget // workers)

    def seed(self, worker: int) -> int:
        return int(self.options.seed) * 1000 + worker

    def moves(self, cells: list[int]) -> list[list[int]]:
        """Kernel cells as [x, y] clicks in the params' coordinate origin."""
        bottom = [self.shape.cell(c) for c in cells]
        return simulate.from_bottom(self.board, bottom, self.params.get("origin", "bottom"))

    def natural(self, value: int | None) -> int | None:
        return None if value is None else self.rules.natural(value)

    @functools.cached_property
    def own(self) -> tuple[int, str]:
        """The board's own bound and its name (``simulate.own_bound``): the colour-count bound, or the board's
        value when it has no move (then every search stops at once with the empty game)."""
        return simulate.own_bound(self.board, self.rules)

    def verified(
        self, cells: list[int], status: Status, bound: int | None, message: str, stats: dict[str, Any] | None = None
    ) -> Result:
        """The game replayed by the simulator as a Result (``error`` if a search ever produced an illegal game)."""
        solution = self.moves(cells)
        verdict = simulate.evaluate(self.board, self.params, solution)
        if not verdict.legal:
            return Result(
                Status.ERROR, solution, None, None, f"internal search produced an illegal game: {verdict.reason}"
            )
        return Result(status, solution, verdict.objective, self.natural(bound), message, stats=dict(stats or {}))

    def on_game(self) -> Callable[[Any], None]:
        """The ``parallel`` improvement hook: report each better game to the runner, with its solution
        (so that a run cut at its deadline keeps it), when the runner's hook takes one."""
        with_solution = _takes_solution(self.report)

        def hook(found: Any) -> None:
            if with_solution:
                self.report(self.natural(found.value), None, self.moves(found.cells))
            else:
                self.report(self.natural(found.value), None)

        return hook

    def on_work(self) -> Callable[[dict[str, int]], None] | None:
        """The ``parallel`` work hook: the playouts or nodes so far and their rate, for the progress line
        (issue 14: best score, nodes a second, elapsed); None when the runner's hook takes no ``detail``."""
        if not _takes_detail(self.report):
            return None
        from mipgames.core.rate import WorkRate

        rate = WorkRate()
        return lambda totals: self.report(None, None, detail=rate.words(totals))


def _takes_detail(report: Report) -> bool:
    """Whether ``report`` takes the ``detail`` keyword of the ``Report`` protocol (a caller's plain hook may not)."""
    import inspect

    try:
        params = inspect.signature(report).parameters
    except (TypeError, ValueError):
        return False
    return "detail" in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


def _takes_solution(report: Report) -> bool:
    """Whether ``report`` accepts the solution argument of the ``Report`` protocol (older runners did not)."""
    import inspect

    try:
        params = inspect.signature(report).parameters.values()
    except (TypeError, ValueError):
        return True
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(positional) >= 3 or any(p.kind is p.VAR_POSITIONAL for p in params)


def setup(
    board: Board,
    params: dict[str, Any],
    options: SolveOptions,
    report: Report,
    default_time: float | None = DEFAULT_TIME_S,
) -> Setup:
    from mipgames.samegame.kernel import to_array

    began = time.monotonic()
    budget = int(params.get("node_budget", 0) or 0) or None
    limit = options.time_limit
    if limit is None and budget is None and default_time is not None:
        limit = default_time
    root, shape = to_array(board)
    return Setup(
        board,
        params,
        options,
        report,
        simulate.rules_of(params),
        root,
        shape,
        None if limit is None else began + limit,
        budget,
        began,
    )


# ---------------------------------------------------------------- tasks (what one worker runs)
def beam_task(s: Setup, worker: int, workers: int, width: int = 0) -> Callable:
    from mipgames.samegame.beam import Beam, weights_for, widening

    def task(send: Callable) -> dict[str, Any]:
        beam = Beam(s.shape)
        out, nodes = widening(
            beam,
            s.root,
            s.score_mode,
            weights_for(s.score_mode, worker),
            send,
            s.work_deadline,
            s.share(workers),
            width=width,
            target=s.own[0],
        )
        return {
            "nodes": nodes,
            "exhaustive": bool(out and out.exhaustive),
            "proved": bool(out and out.exhaustive),
            "value": None if out is None else out.value,
        }

    return task


def nmcs_task(s: Setup, worker: int, workers: int, level: int) -> Callable:
    from mipgames.samegame.nmcs import nmcs_search

    def task(send: Callable) -> dict[str, Any]:
        return {
            "playouts": nmcs_search(
                s.root,
                s.shape,
                s.score_mode,
                level,
                s.seed(worker),
                send,
                s.work_deadline,
                s.share(workers),
                target=s.own[0],
            )
        }

    return task


WARM_BEAM_WIDTH = 32
"""Width of the beam a portfolio worker plays before its NRPA, for a game within a second."""


def nrpa_task(
    s: Setup, worker: int, workers: int, level: int, warm_beam: bool = False, part: int = 0, parts: int = 1
) -> Callable:
    """NRPA racing share ``part`` of ``parts`` of the candidate tabu colours (``nrpa.tabu_candidates``)."""
    from mipgames.samegame.nrpa import nrpa_search, tabu_candidates

    def task(send: Callable) -> dict[str, Any]:
        if warm_beam:
            from mipgames.samegame.beam import Beam, weights_for
            from mipgames.samegame.nmcs import nmcs_search

            # A game at once: one tabu-colour playout (45 ms on a 64 x 64 board, where even the width-1 beam took
            # about 8 s and a 10 s limit sometimes ended with no game), then the beams for a better one.
            nmcs_search(s.root, s.shape, s.score_mode, 1, s.seed(worker), send, s.work_deadline, 1)
            beam, weights = Beam(s.shape), weights_for(s.score_mode, 0)
            for width in (1, WARM_BEAM_WIDTH):  # one beam's buffers for both, as widening runs its widths
                quick = beam.run(s.root, width, weights, s.score_mode, deadline=s.work_deadline)
                send(quick.value, quick.cells, f"beam width {width}")  # the runner keeps the better
        return {
            "playouts": nrpa_search(
                s.root,
                s.shape,
                s.score_mode,
                level,
                s.seed(worker),
                send,
                s.work_deadline,
                s.share(workers),
                target=s.own[0],
                tabus=tabu_candidates(s.root, s.shape, s.score_mode, part, parts),
            )
        }

    return task


def exact_task(s: Setup, workers: int) -> Callable:
    from mipgames.samegame.beam import Beam, weights_for
    from mipgames.samegame.exact import ExactSearch

    def task(send: Callable) -> dict[str, Any]:
        # at most a third of the time: on a 64x64 board the beam alone outlived a 60 s limit, and no game came.
        # Under a node budget the deadline alone (a safety): a third of the time made its incumbent, and so the
        # run, depend on the machine's speed.
        cut = s.work_deadline
        if s.work_deadline is not None and s.budget is None:
            cut = time.monotonic() + (s.work_deadline - time.monotonic()) / 3
        quick = Beam(s.shape).run(s.root, 16, weights_for(s.score_mode, 0), s.score_mode, deadline=cut)
        send(quick.value, quick.cells, "beam width 16 (incumbent of the exact search)")
        tiles = s.board.tiles()
        search = ExactSearch(s.shape, table_bits=max(12, min(21, 2 * tiles.bit_length() + 4)))
        out = search.solve(
            s.root, s.score_mode, incumbent=quick.value, deadline=s.work_deadline, max_nodes=s.share(workers)
        )
        if out.cells is not None:
            send(out.value, out.cells, "exact search")
        return {"proved": out.proved, "bound": out.bound, "nodes": out.nodes}

    return task


# ---------------------------------------------------------------- running tasks
POLISH_SHARE = 0.05
"""Share of the time limit (at most ``POLISH_MAX_S``) kept for ``exact.polish`` after a heuristic search."""
POLISH_MAX_S = 2.0
POLISH_NODES = 2_000_000
"""Node cap of the polish (a tenth of the node budget when one is set, for determinism)."""


def finish(s: Setup, tasks: list[Callable], name: str, note: str = "", polish: bool = False) -> Result:
    """Run the tasks, polish the best game's end exactly (``polish``), replay it, and say what was proved
    (nothing, unless an exact method did)."""
    from mipgames.samegame import parallel

    meanwhile = None
    if polish:
        from mipgames.samegame.exact import load_polish

        meanwhile = functools.partial(load_polish, s.shape, s.root, s.score_mode)
        if s.deadline is not None:
            s.reserve = min(POLISH_MAX_S, POLISH_SHARE * (s.deadline - s.began))
    out = parallel.run(tasks, s.work_deadline, s.on_game(), meanwhile, s.on_work())
    if out.best is None:
        reason = "; ".join(out.errors) or "no game found"
        return Result(Status.ERROR if out.errors else Status.UNKNOWN, None, None, None, f"{name}: {reason}")
    if len(tasks) > 1:  # which member found it: worth knowing when comparing the members of a portfolio
        out.best.note = f"{out.best.note}, found by worker {out.best.worker + 1} of {len(tasks)}"
    if polish and not out.proved:
        from mipgames.samegame.exact import polish as polish_game

        if s.budget is not None or s.deadline is None:  # under a budget its node cap decides, the deadline is
            deadline = s.deadline  # a safety: as for the searches before it
        else:
            deadline = min(s.deadline, time.monotonic() + max(s.reserve, 0.2))
        nodes = POLISH_NODES if s.budget is None else max(1000, s.budget // 10)
        gain, cells, _ = polish_game(s.shape, s.root, out.best.cells, s.score_mode, deadline, nodes)
        if gain > 0:
            out.best = parallel.Found(
                out.best.value + gain,
                cells,
                out.best.worker,
                f"{out.best.note}, end improved by {gain} by exact search",
            )
            s.on_game()(out.best)
    stats = {"workers": len(tasks)}
    for key in ("nodes", "playouts"):
        total = sum(int(st.get(key, 0)) for st in out.stats if isinstance(st, dict))
        if total:
            stats[key] = total
    bounds = [int(st["bound"]) for st in out.stats if isinstance(st, dict) and st.get("bound") is not None]
    bound = min(bounds) if bounds else None
    proved = out.proved or out.best.value >= s.own[0]
    if proved:
        bound = out.best.value
    elif out.errors:
        note = (note + "; " if note else "") + f"{len(out.errors)} worker(s) failed"
    message = ", ".join(p for p in (note, out.best.note, _counts(stats)) if p)
    result = s.verified(out.best.cells, Status.OPTIMAL if proved else Status.FEASIBLE, bound, message, stats)
    if proved and not out.proved:  # the own bound reached: whichever search found the game, that proves it
        result.proved_by = s.own[1]
    elif proved and name == "portfolio":
        result.proved_by = "exact (portfolio member)"
    elif not proved:
        result.stop = _stopped_by(s)
    return result


STOPPED_NEAR_S = 0.5
"""A search that ended this close to its deadline (or later) was stopped by it."""


def _stopped_by(s: Setup) -> str:
    """What ended a search that proved nothing, as the other problems name it: its node budget, the time limit
    (the searches run until it, less the polish's reserve), or nothing (a beam of a given width ends by itself)."""
    if s.budget is not None:
        return "node budget"
    work = s.work_deadline
    return "time limit" if work is not None and time.monotonic() >= work - STOPPED_NEAR_S else ""


def _counts(stats: dict[str, Any]) -> str:
    parts = [f"{stats['workers']} worker{'s' if stats['workers'] > 1 else ''}"]
    if "nodes" in stats:
        parts.append(f"{stats['nodes']:,} nodes")
    if "playouts" in stats:
        parts.append(f"{stats['playouts']:,} playouts")
    return ", ".join(parts)


def _level(params: dict[str, Any], default: int) -> int:
    return int(params.get("level", 0) or 0) or default


# ---------------------------------------------------------------- algorithms
def run_exact(board: Board, params: dict, options: SolveOptions, report: Report) -> Result:
    s = setup(board, params, options, report, default_time=None)
    return finish(s, [exact_task(s, 1)], "exact")


def run_greedy(board: Board, params: dict, options: SolveOptions, report: Report) -> Result:
    s = setup(board, params, options, report)
    return finish(s, [beam_task(s, 0, 1, width=1)], "greedy", "greedy (beam width 1)")


def run_beam(board: Board, params: dict, options: SolveOptions, report: Report) -> Result:
    s = setup(board, params, options, report)
    width = int(params.get("beam_width", 0) or 0)
    n = s.workers
    return finish(s, [beam_task(s, k, n, width) for k in range(n)], "beam", polish=width == 0)


def run_nmcs(board: Board, params: dict, options: SolveOptions, report: Report) -> Result:
    s = setup(board, params, options, report)
    n, level = s.workers, _level(params, 2)
    return finish(s, [nmcs_task(s, k, n, level) for k in range(n)], "nmcs", polish=True)


def run_nrpa(board: Board, params: dict, options: SolveOptions, report: Report) -> Result:
    s = setup(board, params, options, report)
    n, level = s.workers, _level(params, 3)
    return finish(s, [nrpa_task(s, k, n, level, part=k, parts=n) for k in range(n)], "nrpa", polish=True)


def run_portfolio(board: Board, params: dict, options: SolveOptions, report: Report) -> Result:
    """Exact search where a proof is in reach, the compiled heuristics on every other core (and on all of them
    when the board is too large for a proof, which the message says)."""
    s = setup(board, params, options, report)
    objective = params.get("objective", "min-remaining")
    tiles, limit = board.tiles(), EXACT_TILES[objective]
    n = s.workers
    if tiles <= limit:
        tasks = [exact_task(s, n)] + heuristic_tasks(s, n - 1, offset=1, total=n)
        note = "exact search" + (" with heuristics on the other cores" if n > 1 else "")
    else:
        tasks = heuristic_tasks(s, n, offset=0, total=n)
        note = (
            f"board too large for an exact proof ({tiles} tiles > {limit}): compiled heuristic search, "
            "bounded by colour counts only"
        )
    return finish(s, tasks, "portfolio", note, polish=tiles > limit)


def heuristic_tasks(s: Setup, count: int, offset: int, total: int) -> list[Callable]:
    """The heuristic workers of the portfolio.

    Score rule: NRPA (level 3, or the ``level`` param) on every core, each seeded apart; the first
    keeps the most numerous colour tabu, the others race the next ones
    (``nrpa.tabu_candidates``); the first also plays a narrow beam first,
    so that a game exists within a second.
    NRPA is the strongest of the searches here at a minute a board
    (benchmarks/samegame/RESULTS.md).  Min-remaining: beams with the
    evaluations taken in turn (a cleared board proves itself optimal).
    """
    tasks: list[Callable] = []
    for k in range(count):
        worker = offset + k
        if not s.score_mode:
            tasks.append(beam_task(s, worker, total))
        else:
            tasks.append(nrpa_task(s, worker, total, _level(s.params, 3), warm_beam=k == 0, part=k, parts=count))
    return tasks


ALGORITHMS = {
    "portfolio": Algorithm(
        "portfolio",
        run_portfolio,
        "exact search when the board is small enough for a proof; compiled NRPA (score) or beam search "
        "(min-remaining) on the other cores, and on all cores on larger boards; the end of the best game "
        "re-solved exactly",
    ),
    "exact": Algorithm(
        "exact",
        run_exact,
        "compiled depth-first branch and bound with a transposition table and the colour-count bound "
        "(proves optima on small boards)",
        exact=True,
    ),
    "beam": Algorithm(
        "beam",
        run_beam,
        "compiled beam search with a colour-aware (tabu-colour) evaluation, merging transpositions; "
        "--beam-width W fixes the width, 0 widens it while the time limit lasts; one beam per core",
        proves=True,  # optimal when no layer was cut and no move forbidden: the search was exhaustive
    ),
    "nmcs": Algorithm(
        "nmcs",
        run_nmcs,
        "compiled nested Monte-Carlo search with tabu-colour playouts (--level, default 2), restarted per core",
    ),
    "nrpa": Algorithm(
        "nrpa",
        run_nrpa,
        "compiled nested rollout policy adaptation with the tabu-colour selective policy (--level, default 3)",
    ),
    "greedy": Algorithm(
        "greedy", run_greedy, "one move at a time, the one the beam evaluation likes best", proves=True
    ),
}
