"""Greedy fill and simulated annealing: the classical heuristic, kept as the baseline of the score side.

Swaps (each tile taking its best turn) and turns under a cooling temperature,
half the swaps within distance 2 (accepted far more often).  The temperature
falls in cycles: the first lasts ``CYCLE_PER_CELL3`` x cells^3 moves, each next
one twice as long and started again warm from the best placement, and a cycle
the deadline would cut cools by the clock instead, so the last one ends cold.
(Cooled once over the whole time limit, the default minute, it took 10-30 s to
place 4x4 to 6x6 boards that it now places in 0.1-3.6 s; benchmarks/edge_matching/RESULTS.md.)
Pure Python: the compiled local search of ``lns.py`` supersedes it; it stays
as the reference point the benchmarks measure that one against.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from mipgames.core.problem import Report, SolveOptions
from mipgames.core.result import Result
from mipgames.core.status import Status
from mipgames.edge_matching import candidates
from mipgames.edge_matching.instance import Instance
from mipgames.edge_matching.simulate import COLOUR_COUNT_BOUND, colour_count_bound, mode_of, turned

Shown = tuple[int, int, int, int]

T_HOT, T_COLD = 1.2, 0.08
"""Start and end temperature of the first cooling cycle (in mismatches: a move costing one more is taken with
probability e^(-1/T))."""
T_REHEAT = 0.5
"""Start temperature of the later cycles: hot enough to leave the best placement's basin on small boards, cool
enough to keep most of a large board's."""
CYCLE_PER_CELL3 = 2
"""Moves of the first cycle per (movable cell)^3: 8,192 on a 4x4 board (a tenth of a second), 93,312 on 6x6, 2
million on 10x10 (about 16 s), 33.5 million on Eternity II's 256 cells (about 4.5 minutes at 125,000 moves a
second): large boards need long cooling."""


def temperature(moves_done: float, time_done: float, hot: float = T_HOT) -> float:
    """The cycle's temperature, cooling geometrically from ``hot`` with the larger of its share of moves and of the
    time left when it began: a cycle the deadline would cut still ends cold."""
    return hot * (T_COLD / hot) ** min(1.0, max(moves_done, time_done))


class _Board:
    """Mutable placement with O(1) local mismatch counts for the annealer."""

    def __init__(self, inst: Instance, placement: list[tuple[int, int]]):
        self.inst = inst
        self.p = list(placement)
        self.sh = [turned(inst.tiles[t], a) for t, a in placement]
        C, R = inst.cols, inst.rows
        self.nb: list[list[tuple[int, int, int]]] = []
        for i in range(inst.cells):
            r, c = divmod(i, C)
            out = []
            if r > 0:
                out.append((0, i - C, 2))
            if c + 1 < C:
                out.append((1, i + 1, 3))
            if r + 1 < R:
                out.append((2, i + C, 0))
            if c > 0:
                out.append((3, i - 1, 1))
            self.nb.append(out)

    def cell_cost(self, i: int, sh: Shown, skip: int = -1) -> int:
        k = 0
        other = self.sh
        for s, j, sj in self.nb[i]:
            if other[j][sj] != sh[s] and j != skip:
                k += 1
        return k

    def total(self) -> int:
        return sum(self.cell_cost(i, self.sh[i]) for i in range(len(self.p))) // 2


def greedy(inst: Instance, rng: random.Random, cands: list[list[tuple[int, int]]]) -> list[tuple[int, int]] | None:
    """Scan-order fill choosing the fewest mismatches with placed neighbours (random ties)."""
    n, C = inst.cells, inst.cols
    used = [False] * n
    shown: list[Shown | None] = [None] * n
    out = []
    for i in range(n):
        r, c = divmod(i, C)
        best, pick = 99, []
        for t, a in cands[i]:
            if used[t]:
                continue
            sh = turned(inst.tiles[t], a)
            k = (r > 0 and shown[i - C][2] != sh[0]) + (c > 0 and shown[i - 1][1] != sh[3])  # type: ignore[index]  # cells before i in scan order are filled
            if k < best:
                best, pick = k, [(t, a, sh)]
            elif k == best:
                pick.append((t, a, sh))
        if not pick:
            return None
        t, a, sh = rng.choice(pick)
        used[t], shown[i] = True, sh
        out.append((t, a))
    return out


def anneal(
    inst: Instance,
    seed: int,
    time_limit: float,
    report: Report | None = None,
    target: int = 0,
):
    """Greedy start, then simulated annealing over swaps (with best turns) and turns; returns (best, placement)."""
    rng = random.Random(seed)
    cands = candidates.candidates(inst, symmetry=False)
    start = greedy(inst, rng, cands)
    if start is None:
        return None, None
    turns_at = [dict[int, list[int]]() for _ in range(inst.cells)]
    for i, row in enumerate(cands):
        for t, a in row:
            turns_at[i].setdefault(t, []).append(a)
    movable = [i for i in range(inst.cells) if not any((h.row, h.col) == divmod(i, inst.cols) for h in inst.hints)]
    near = _neighbourhoods(inst, movable, radius=2)  # half the swaps stay local: they are accepted far more often
    b = _Board(inst, start)
    cur = b.total()
    best, best_p = cur, list(b.p)
    if report:
        report(float(best), None)
    end = time.monotonic() + time_limit
    shapes = [[turned(tile, a) for a in range(4)] for tile in inst.tiles]
    it = 0
    temp = hot = T_HOT
    length, step, began = CYCLE_PER_CELL3 * len(movable) ** 3, 0, time.monotonic()
    while best > target and movable:
        it += 1
        step += 1
        if it % 512 == 0:
            now = time.monotonic()
            if now >= end:
                break
            if step >= length:  # the cycle has cooled: reheat from the best placement, the next cycle twice as long
                b = _Board(inst, best_p)
                cur, step, length, began, hot = best, 0, 2 * length, now, T_REHEAT
            temp = temperature(step / length, (now - began) / max(end - began, 1e-9), hot)
        i = rng.choice(movable)
        if rng.random() < 0.2:
            t = b.p[i][0]
            a = rng.choice(turns_at[i][t])
            sh = shapes[t][a]
            delta = b.cell_cost(i, sh) - b.cell_cost(i, b.sh[i])
            if delta <= 0 or rng.random() < math.exp(-delta / temp):
                b.p[i], b.sh[i] = (t, a), sh
                cur += delta
        else:
            j = rng.choice(near[i]) if near[i] and rng.random() < 0.5 else rng.choice(movable)
            ti, tj = b.p[i][0], b.p[j][0]
            ai, aj = turns_at[j].get(ti), turns_at[i].get(tj)
            if i == j or not ai or not aj:
                continue
            old = b.cell_cost(i, b.sh[i]) + b.cell_cost(j, b.sh[j], skip=i)
            shi, shj = b.sh[i], b.sh[j]
            b.sh[i] = b.sh[j] = (
                -1,
                -1,
                -1,
                -1,
            )  # the two cells see no neighbour while each picks its turn
            new_i = min((b.cell_cost(i, shapes[tj][a]), a) for a in aj) if len(aj) > 1 else (0, aj[0])
            b.sh[i] = shapes[tj][new_i[1]]
            new_j = min((b.cell_cost(j, shapes[ti][a]), a) for a in ai) if len(ai) > 1 else (0, ai[0])
            b.sh[j] = shapes[ti][new_j[1]]
            new = b.cell_cost(i, b.sh[i]) + b.cell_cost(j, b.sh[j], skip=i)
            delta = new - old
            if delta <= 0 or rng.random() < math.exp(-delta / temp):
                b.p[i], b.p[j] = (tj, new_i[1]), (ti, new_j[1])
                cur += delta
            else:
                b.sh[i], b.sh[j] = shi, shj
        if cur < best:
            best, best_p = cur, list(b.p)
            if report:
                report(float(best), None)
    return best, best_p


def _neighbourhoods(inst: Instance, movable: list[int], radius: int) -> dict[int, list[int]]:
    C = inst.cols
    ok = set(movable)
    return {
        i: [j for j in movable if j != i and max(abs(j // C - i // C), abs(j % C - i % C)) <= radius and j in ok]
        for i in movable
    }


MAX_CELLS = 1024
"""The largest board the baseline takes: its candidate lists hold every (tile, turn) a cell allows, cells
squared times four on a board without a frame (a 70x70 board: 96 million, killed at the deadline unbuilt)."""


def run_anneal(inst: Instance, params: dict[str, Any], options: SolveOptions, report: Report) -> Result:
    from mipgames.core.errors import UsageError
    from mipgames.edge_matching.backtrack import refusal

    if inst.cells > MAX_CELLS:
        raise UsageError(
            f"anneal, the pure-Python baseline, takes boards of at most {MAX_CELLS:,} cells; this one has "
            f"{inst.cells:,} (the default solver takes it)"
        )

    known = refusal(inst, params)
    if known is not None:
        return known
    limit = options.time_limit if options.time_limit is not None else 10.0
    lb = colour_count_bound(inst)
    best, p = anneal(inst, options.seed, limit, report, target=lb)
    if p is None:
        return Result(Status.UNKNOWN, message="greedy could not fill the board under the frame rules")
    if mode_of(params) == "decision":
        return (
            Result(Status.OPTIMAL, p, 0.0, 0.0, proved_by=COLOUR_COUNT_BOUND)
            if best == 0
            else Result(Status.UNKNOWN, message=f"best found has {best} mismatches")
        )
    if best == lb:
        return Result(Status.OPTIMAL, p, float(best), float(lb), proved_by=COLOUR_COUNT_BOUND)
    return Result(Status.FEASIBLE, p, float(best), float(lb), proved_by=COLOUR_COUNT_BOUND)
