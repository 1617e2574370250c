"""Classical algorithms: exact backtracking and a greedy + simulated-annealing heuristic.

``backtrack`` is exact (decision: depth-first fill in scan order with a
(top, left)-colour index; optimise: branch and bound on mismatches so far) and is
meant for small boards.  ``anneal`` scales to Eternity II: greedy fill, then
swaps and turns under a cooling temperature; it also provides warm starts.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from mipgames.core.problem import Algorithm, Report, SolveOptions
from mipgames.core.result import Result
from mipgames.edge_matching import board
from mipgames.edge_matching.instance import Instance, turned
from mipgames.edge_matching.simulate import colour_count_bound, evaluate, mode_of

Shown = tuple[int, int, int, int]


class _Clock:
    def __init__(self, limit: float | None):
        self.end = time.monotonic() + limit if limit else math.inf

    def over(self) -> bool:
        return time.monotonic() > self.end


# ---------------------------------------------------------------- exact backtracking


def _indexed(inst: Instance, cands: list[list[tuple[int, int]]]) -> list[dict[tuple, list[tuple[int, int, Shown]]]]:
    """Per cell: candidates keyed by the colours they show towards the top and left neighbours."""
    out = []
    for i, row in enumerate(cands):
        r, c = divmod(i, inst.cols)
        idx: dict[tuple, list[tuple[int, int, Shown]]] = {}
        for t, a in row:
            sh = turned(inst.tiles[t], a)
            idx.setdefault((sh[0] if r else None, sh[3] if c else None), []).append((t, a, sh))
        out.append(idx)
    return out


def backtrack_perfect(inst: Instance, clock: _Clock) -> tuple[str, list[tuple[int, int]] | None]:
    """Depth-first search for a perfect placement: ('optimal', p), ('infeasible', None) or ('unknown', None)."""
    cands = board.prune(inst, board.candidates(inst))
    idx = _indexed(inst, cands)
    n, C = inst.cells, inst.cols
    shown: list[Shown] = [(0, 0, 0, 0)] * n
    placed: list[tuple[int, int]] = [(0, 0)] * n
    used = [False] * n

    def options(i: int) -> list[tuple[int, int, Shown]]:
        r, c = divmod(i, C)
        return idx[i].get((shown[i - C][2] if r else None, shown[i - 1][1] if c else None), [])

    stack = [iter(options(0))]
    nodes = 0
    while stack:
        nodes += 1
        if nodes % 20000 == 0 and clock.over():
            return "unknown", None
        i = len(stack) - 1
        for t, a, sh in stack[-1]:
            if not used[t]:
                break
        else:
            stack.pop()
            if stack:
                used[placed[len(stack) - 1][0]] = False
            continue
        used[t], placed[i], shown[i] = True, (t, a), sh
        if i + 1 == n:
            return "optimal", list(placed)
        stack.append(iter(options(i + 1)))
    return "infeasible", None


def branch_and_bound(inst: Instance, clock: _Clock, best: int, best_p: list[tuple[int, int]] | None, report: Report):
    """Exact minimum mismatches by depth-first branch and bound (small boards)."""
    cands = board.candidates(inst)
    n, C = inst.cells, inst.cols
    lb = colour_count_bound(inst)
    shown: list[Shown] = [(0, 0, 0, 0)] * n
    placed: list[tuple[int, int]] = [(0, 0)] * n
    used = [False] * n
    state = {"best": best, "p": best_p, "timeout": False, "nodes": 0}

    def cost(i: int, sh: Shown) -> int:
        r, c = divmod(i, C)
        return (r > 0 and shown[i - C][2] != sh[0]) + (c > 0 and shown[i - 1][1] != sh[3])

    def go(i: int, so_far: int) -> None:
        if state["best"] <= max(lb, so_far) or state["timeout"]:
            return
        if i == n:
            state["best"], state["p"] = so_far, list(placed)
            report(float(so_far), float(lb))
            return
        state["nodes"] += 1
        if state["nodes"] % 5000 == 0 and clock.over():
            state["timeout"] = True
            return
        opts = sorted((cost(i, turned(inst.tiles[t], a)), t, a) for t, a in cands[i] if not used[t])
        for k, t, a in opts:
            if so_far + k >= state["best"]:
                break
            used[t], placed[i], shown[i] = True, (t, a), turned(inst.tiles[t], a)
            go(i + 1, so_far + k)
            used[t] = False

    go(0, 0)
    return state


def run_backtrack(inst: Instance, params: dict[str, Any], options: SolveOptions, report: Report) -> Result:
    clock = _Clock(options.time_limit)
    if mode_of(params) == "decision":
        status, p = backtrack_perfect(inst, clock)
        return Result(status, p, 0.0 if p else None, 0.0 if p else None)  # type: ignore[arg-type]
    start = heuristic_placement(inst, seed=options.seed, time_limit=min(2.0, options.time_limit or 2.0))
    best = int(evaluate(inst, params, start).objective) if start else inst.inner_edges + 1  # type: ignore[arg-type]
    if start:
        report(float(best), None)
    state = branch_and_bound(inst, clock, best, start, report)
    if state["p"] is None:
        return Result("unknown" if state["timeout"] else "infeasible")
    if state["timeout"] and state["best"] > colour_count_bound(inst):
        return Result("feasible", state["p"], float(state["best"]), float(colour_count_bound(inst)), "time limit")
    return Result("optimal", state["p"], float(state["best"]), float(state["best"]))


# ---------------------------------------------------------------- greedy + simulated annealing


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
            k = (r > 0 and shown[i - C][2] != sh[0]) + (c > 0 and shown[i - 1][1] != sh[3])  # type: ignore[index]
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


def anneal(inst: Instance, seed: int, time_limit: float, report: Report | None = None, target: int = 0):
    """Greedy start, then simulated annealing over swaps (with best turns) and turns; returns (best, placement)."""
    rng = random.Random(seed)
    cands = board.candidates(inst, symmetry=False)
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
    clock = time.monotonic()
    end = clock + time_limit
    t_hot, t_cold = 1.2, 0.08
    shapes = [[turned(tile, a) for a in range(4)] for tile in inst.tiles]
    it = 0
    temp = t_hot
    while best > target and movable:
        it += 1
        if it % 512 == 0:
            now = time.monotonic()
            if now >= end:
                break
            temp = t_hot * (t_cold / t_hot) ** ((now - clock) / max(time_limit, 1e-9))
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
            b.sh[i] = b.sh[j] = (-1, -1, -1, -1)  # the two cells see no neighbour while each picks its turn
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


def heuristic_placement(inst: Instance, seed: int = 0, time_limit: float = 5.0) -> list[tuple[int, int]] | None:
    """Best placement the annealer finds in the time (None when the frame rules leave no placement)."""
    target = colour_count_bound(inst)
    return anneal(inst, seed, time_limit, target=target)[1]


def run_anneal(inst: Instance, params: dict[str, Any], options: SolveOptions, report: Report) -> Result:
    limit = options.time_limit if options.time_limit is not None else 10.0
    lb = colour_count_bound(inst)
    best, p = anneal(inst, options.seed, limit, report, target=lb)
    if p is None:
        return Result("unknown", message="greedy could not fill the board under the frame rules")
    if mode_of(params) == "decision":
        return Result("optimal", p, 0.0, 0.0) if best == 0 else Result("unknown", message=f"best found has {best} mismatches")
    if best == lb:
        return Result("optimal", p, float(best), float(lb))
    return Result("feasible", p, float(best), float(lb))


ALGORITHMS = {
    "backtrack": Algorithm("backtrack", run_backtrack, "exact depth-first search (decision) / branch and bound (optimise); small boards", exact=True),
    "anneal": Algorithm("anneal", run_anneal, "greedy fill + simulated annealing (swaps with best turns); any size, no proof beyond the colour-count bound"),
}
