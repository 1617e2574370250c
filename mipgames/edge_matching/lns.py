"""The score side: as many matched edges as possible on boards too large to prove (Eternity II).

Two compiled phases, repeated until the deadline:

1. *Construction*: the kernel's fill in row scan with no mismatch allowed on
   the first ``depth`` cells and any number after them (exact-first
   candidates, so the tail is a greedy completion).  A perfect prefix of 200
   of Eternity II's 256 cells takes about 0.1 s; every further row costs far
   more, so the depth adapts: deeper after a quick success, shallower after a
   miss.
2. *Iterated local search* (``kernel.ils``): descent by two large moves, an
   assignment move (the tiles of up to 96 pairwise non-adjacent cells
   re-dealt optimally by the Hungarian method: the neighbourhood of the 2008
   CP+LNS result) and a window move (a small rectangle next to a mismatch
   re-placed by branch and bound), then a kick (a region re-placed at random,
   a few mismatches worse); the walk returns to the best board when it drifts
   too far.

Each worker (one per thread) runs its own seeds; the best board is reported.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from mipgames.core.problem import Report, SolveOptions
from mipgames.core.result import Result
from mipgames.core.status import Status
from mipgames.edge_matching.instance import Instance
from mipgames.edge_matching.simulate import COLOUR_COUNT_BOUND, colour_count_bound, evaluate, mode_of

CONSTRUCT_NODES = 20_000_000
"""Node budget of one construction attempt (about a second)."""


@dataclass(frozen=True)
class Settings:
    """Tuned on Eternity II and Brendan's sets with node budgets (benchmarks/edge_matching/RESULTS.md)."""

    rounds: int = 20
    """Kicks per kernel call (between two looks at the clock)."""
    stall_moves: int = 30
    window_max: int = 3
    window_nodes: int = 3000
    kick_size: int = 4
    kick_slack: int = 3
    accept: int = 4
    restart_calls: int = 60
    """Kernel calls without a new best before a fresh construction."""


TUNED = Settings()


class Board:
    """A full placement as kernel arrays: the entry on each cell and the colours it shows."""

    def __init__(self, pieces: Any):
        from mipgames.edge_matching.search import fill_order

        self.pieces = pieces
        inst = pieces.inst
        self.order = fill_order(inst, "rows", pieces.fixed)
        self.movable = np.ones(inst.cells, dtype=np.int64)
        self.cell_e = np.zeros(inst.cells, dtype=np.int64)
        for cell, e in pieces.fixed.items():
            self.movable[cell] = 0
            self.cell_e[cell] = e
        types = len(pieces.types)
        self.type_first = np.zeros(types, dtype=np.int64)
        self.type_count = np.zeros(types, dtype=np.int64)
        for e, t in enumerate(pieces.ent_type):
            if self.type_count[t] == 0:
                self.type_first[t] = e
            self.type_count[t] += 1

    def construct(self, depth: int, seed: int, nodes: int) -> int | None:
        """A complete board with a perfect prefix of ``depth`` positions; its mismatches (None: not in ``nodes``)."""
        from mipgames.edge_matching.search import Search

        nk = len(self.order)
        edges = 4 * self.pieces.inst.cells
        budget = [0 if k < depth else edges for k in range(nk)]
        s = Search(self.pieces, self.order, budget, edges, optimise=True, seed=seed)
        while s.best_breaks is None and s.nodes < nodes:
            if s.run(min(2_000_000, nodes - s.nodes)) != 0:
                break
        if s.best_breaks is None:
            return None
        for cell, e in zip(self.order, s.entries(best=True)):
            self.cell_e[cell] = e
        return s.best_breaks + self.pieces.fixed_breaks

    def colours(self) -> np.ndarray:
        return self.pieces.ent_col[self.cell_e].copy()

    def placement(self, cell_e: np.ndarray) -> list[tuple[int, int]]:
        from mipgames.edge_matching.search import decode_entries

        movable = [int(c) for c in range(len(cell_e)) if self.movable[c]]
        return decode_entries(self.pieces, movable, [int(cell_e[c]) for c in movable])


def score_search(
    inst: Instance,
    deadline: float,
    seed: int,
    target: int = 0,
    on_best: Callable[[int, list[tuple[int, int]]], None] | None = None,
    settings: Settings = TUNED,
    stop: Callable[[], bool] | None = None,
) -> tuple[int | None, Any]:
    """Constructions and iterated local search until ``deadline`` or ``target``; returns (mismatches, placement)."""
    from mipgames.edge_matching import kernel
    from mipgames.edge_matching.search import prepare

    pieces = prepare(inst, "none")
    if pieces.conflict:
        return None, None
    board = Board(pieces)
    rows, cols = inst.rows, inst.cols
    rng = np.random.default_rng(seed)
    nk = len(board.order)
    depth = int(0.7 * nk)
    best_total: int | None = None
    best_e = board.cell_e.copy()
    while time.monotonic() < deadline and (best_total is None or best_total > target):
        if stop is not None and stop():
            break
        got = board.construct(depth, int(rng.integers(1 << 30)), CONSTRUCT_NODES)
        if got is None:
            if depth == 0:
                return best_total, None if best_total is None else board.placement(best_e)
            depth = max(0, depth - max(1, nk // 40))
            continue
        depth = min(nk, depth + max(1, nk // 100))
        col = board.colours()
        cell_e = board.cell_e.copy()
        run_best = kernel.board_breaks(rows, cols, col)
        run_e = cell_e.copy()
        if best_total is None or run_best < best_total:
            best_total, best_e = run_best, run_e.copy()
            if on_best is not None:
                on_best(best_total, board.placement(best_e))
        calls_without = 0
        while time.monotonic() < deadline and calls_without < settings.restart_calls and best_total > target:
            if stop is not None and stop():
                break
            got_best, _ = kernel.ils(
                rows,
                cols,
                cell_e,
                col,
                run_e,
                run_best,
                pieces.allowed,
                pieces.ent_col,
                pieces.ent_type,
                board.type_first,
                board.type_count,
                pieces.K,
                board.movable,
                settings.rounds,
                int(rng.integers(1 << 30)),
                settings.stall_moves,
                settings.window_max,
                settings.window_nodes,
                settings.kick_size,
                settings.kick_slack,
                settings.accept,
                target,
            )
            calls_without = 0 if got_best < run_best else calls_without + 1
            run_best = got_best
            if run_best < best_total:
                best_total, best_e = run_best, run_e.copy()
                if on_best is not None:
                    on_best(best_total, board.placement(best_e))
    return best_total, None if best_total is None else board.placement(best_e)


def run_lns(inst: Instance, params: dict[str, Any], options: SolveOptions, report: Report) -> Result:
    from mipgames.edge_matching.backtrack import check_size, refusal

    check_size(inst)
    known = refusal(inst, params)
    if known is not None:
        return known
    limit = options.time_limit if options.time_limit is not None else 60.0
    deadline = time.monotonic() + limit
    floor = colour_count_bound(inst)
    target = 0 if mode_of(params) == "decision" else floor
    report(None, float(floor))
    best: list[Any] = [None, None]

    def on_best(total: int, placement: list[tuple[int, int]]) -> None:
        if best[0] is None or total < best[0]:
            best[0], best[1] = total, placement
            report(float(total), float(floor), placement)

    threads = max(1, options.threads)
    if threads == 1:
        score_search(inst, deadline, options.seed, target, on_best)
    else:
        from mipgames.run.workers import Workers

        with Workers() as pool:
            for w in range(threads):
                pool.start(_worker, inst, deadline, options.seed * 1000 + w, target)
            for _, kind, payload in pool.messages(deadline + 1.0):
                if kind == "best":
                    on_best(*payload)
                    if best[0] is not None and best[0] <= target:
                        break
                elif kind == "error":
                    raise RuntimeError(f"a local-search worker failed: {payload}")
    total, placement = best
    if placement is None:
        return Result(
            Status.UNKNOWN,
            bound=float(floor),
            message="no complete placement in time",
            stop="time limit",
            proved_by=COLOUR_COUNT_BOUND,
        )
    verdict = evaluate(inst, params, placement)
    if mode_of(params) == "decision":
        if total == 0:
            return Result(Status.OPTIMAL, placement, 0.0, 0.0, "a perfect placement", proved_by=COLOUR_COUNT_BOUND)
        return Result(
            Status.UNKNOWN,
            message=f"best placement found has {total} mismatches",
            stop="time limit",
        )
    if verdict.objective is not None and verdict.objective <= floor:
        return Result(
            Status.OPTIMAL,
            placement,
            float(total),
            float(floor),
            "meets the colour-count bound",
            proved_by=COLOUR_COUNT_BOUND,
        )
    return Result(
        Status.FEASIBLE,
        placement,
        float(total),
        float(floor),
        "time limit",
        stop="time limit",
        proved_by=COLOUR_COUNT_BOUND,
    )


def _worker(out: Any, inst: Instance, deadline: float, seed: int, target: int) -> None:
    def send(total: int, placement: list[tuple[int, int]]) -> None:
        out.send("best", (total, placement))

    score_search(inst, deadline, seed, target, send)


def heuristic_placement(inst: Instance, seed: int = 0, time_limit: float = 5.0) -> list[tuple[int, int]] | None:
    """The best placement the local search finds in ``time_limit`` seconds (warm starts of the models)."""
    from mipgames.edge_matching.backtrack import impossible

    if impossible(inst):
        return None
    return score_search(inst, time.monotonic() + time_limit, seed, colour_count_bound(inst))[1]
