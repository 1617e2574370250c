"""Where the planted N = 64 positions are hard: three measurements that locate the difficulty.

    cd <repo> && PYTHONPATH=. .venv/bin/python benchmarks/queens/diagnose.py [--n 64] [--queens 300]
        [--seeds 0,1,2] [--cut 4] [--time-limit 60] [--out benchmarks/queens/diagnose.md]

For each planted position (N, K = 2, the generator's seed):

- upper alone: the tokens of level >= cut of the planted solution (one queen per token, at the
  square it stands on when it reaches level cut, lower squares empty) form a smaller position; the
  level search solves it through the runner (replayed by the simulator);
- upper given the planted lower levels: the planted captures below level cut are fixed and the
  rest is searched with the level relaxation of the forest (CP-SAT: matchings and levels, no
  departure times) plus lazy cuts: each round, every precedence cycle of the relaxed answer (mover
  before target, squares between before the mover, earlier arrivals first) is forbidden by a
  clause, until an answer has none; that answer is turned into moves and replayed;
- upper given a dive's lower levels: the same, with the lower levels taken from the level search
  (the reference search, with its restarts) stopped when it reaches level cut;
- a dive's tokens alone: the tokens of level >= cut where that dive leaves them, lower squares
  empty, solved like the planted ones in the first column.  Set beside the first column it
  separates the two causes: if the dive's tokens fail alone too, the squares the lower levels
  chose are wrong, whatever the coupling.

The level search alone (`levels`, compiled) finds none of these positions within 60 s
(RESULTS.md); the three rows show whether the upper levels alone, or their coupling with the lower
ones, is what it cannot do.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

from bench import run  # the queens benchmark's runner call (this folder is on sys.path when run as a script)

from mipgames.queens import levels
from mipgames.queens.generate import planted
from mipgames.queens.geometry import Geometry, geometry, initial_state
from mipgames.queens.instance import Queens
from mipgames.queens.levels import ForestSearch, departure_order, luby
from mipgames.queens.prep import captures_possible
from mipgames.queens.simulate import apply, board_of, evaluate

Capture = tuple[int, int, int]
"""(mover, target, level): squares by index, the level both queens hold."""


def lower_of_planted(instance: Queens, geo: Geometry, cut: int) -> dict[int, tuple[int, int]]:
    """mover -> (target, level) for the planted captures below level ``cut``."""
    assert instance.planted is not None
    board, fixed = board_of(instance), {}
    for move in instance.planted:
        level = board[move[0], move[1]].bit_length() - 1
        if level < cut:
            fixed[geo.index[move[0], move[1]]] = (geo.index[move[2], move[3]], level)
        apply(board, move)
    return fixed


def upper_position(instance: Queens, cut: int) -> Queens:
    """One queen per planted token of level >= cut, where it stands on reaching that level."""
    assert instance.planted is not None
    board = board_of(instance)
    tokens = {sq: p for sq, p in board.items() if p >= 1 << cut}
    for move in instance.planted:
        apply(board, move)
        if board[move[2], move[3]] == 1 << cut:
            tokens[move[2], move[3]] = 1 << cut
    rows = tuple(tuple(tokens.get((r, c), 0) for c in range(instance.n)) for r in range(instance.n))
    return Queens(instance.n, instance.k, rows)


def lower_of_dive(geo: Geometry, k: int, cut: int, seed: int, deadline: float) -> dict[int, tuple[int, int]] | None:
    """The lower levels of the first dive of the level search (restarts as in search_forest) that settles them."""

    class Reached(Exception):
        pass

    class Dive(ForestSearch):
        def settle(self, m: int, pending: set[int]) -> bool:
            if m >= cut:
                raise Reached
            return super().settle(m, pending)

    rng = random.Random(seed)
    run = 0
    while time.monotonic() < deadline:
        run += 1
        dive = Dive(geo, k, deadline)
        dive.jitter = list(range(geo.size))
        rng.shuffle(dive.jitter)
        dive.alt, dive.limit = run % 2 == 0, 2000 * luby(run)
        try:
            dive.solve()
        except Reached:
            return {c: (p, dive.level[c]) for c, p in enumerate(dive.parent) if p is not None}
        except levels.Restart:
            continue
        except levels.Stop:
            return None
        return None  # the search ended without reaching the level: none can
    return None


def tokens_after(instance: Queens, geo: Geometry, fixed: dict[int, tuple[int, int]], cut: int) -> Queens:
    """One queen per token of level >= cut where the captures ``fixed`` (all below cut) leave it."""
    level = list(geo.exps)
    for _, (p, v) in fixed.items():
        level[p] = max(level[p], v + 1)
    tokens = {geo.squares[i]: 1 << level[i] for i in range(geo.size) if i not in fixed and level[i] >= cut}
    n = instance.n
    rows = tuple(tuple(tokens.get((r, c), 0) for c in range(n)) for r in range(n))
    return Queens(n, instance.k, rows)


def relaxation(geo: Geometry, k: int, fixed: dict[int, tuple[int, int]], cut: int):
    """The forest's level relaxation with the captures below ``cut`` fixed: (model, capture literals, root literals).

    Not ``cpsat.build_forest(timing=False)``: that model keeps its departure-time variables and the
    binary-counter rows, and with the same fixing and cuts each round took about 10 s there (6 rounds
    and no answer in 60 s on seed 0, where this one finds the top in 20 rounds and 29 s).
    """
    from ortools.sat.python import cp_model

    pairs, hi, _ = captures_possible(geo, initial_state(geo))
    model = cp_model.CpModel()
    x: dict[Capture, object] = {}
    for (c, p), allowed in pairs.items():
        for v in allowed:
            if v >= cut or fixed.get(c) == (p, v):
                x[c, p, v] = model.new_bool_var(f"x_{c}_{p}_{v}")
    leaves: dict[int, dict[int, list]] = defaultdict(lambda: defaultdict(list))
    arrives: dict[int, dict[int, list]] = defaultdict(lambda: defaultdict(list))
    for (c, p, v), var in x.items():
        leaves[c][v].append(var)
        arrives[p][v].append(var)
    root = [model.new_bool_var(f"root_{i}") for i in range(geo.size)]
    for i, e in enumerate(geo.exps):
        top = max(hi[i], e)
        holds = {v: model.new_bool_var(f"h_{i}_{v}") for v in range(e, top + 2)}
        model.add(holds[e] == 1)
        model.add(holds[top + 1] == 0)
        for v in range(e, top + 1):
            stays = model.new_bool_var(f"s_{i}_{v}")
            model.add_implication(holds[v + 1], holds[v])
            model.add(sum(arrives[i][v]) == holds[v + 1])
            model.add(sum(leaves[i][v]) + stays == holds[v] - holds[v + 1])
            model.add_implication(stays, root[i])
        model.add(sum(var for vs in leaves[i].values() for var in vs) + root[i] == 1)
        if i in fixed:
            model.add(root[i] == 0)
    for (c, p, _), var in x.items():
        for between in geo.between[c, p]:
            model.add_implication(var, ~root[between])
    model.add(sum(root) <= k)
    return model, x, root


def precedences(geo: Geometry, chosen: list[Capture]) -> dict[int, list[tuple[int, tuple[Capture, ...]]]]:
    """u -> (v, the captures that make u depart before v)."""
    after: dict[int, list[tuple[int, tuple[Capture, ...]]]] = defaultdict(list)
    arrivals: dict[int, list[tuple[int, int, Capture]]] = defaultdict(list)
    for c, p, v in chosen:
        after[c].append((p, ((c, p, v),)))
        for between in geo.between[c, p]:
            after[between].append((c, ((c, p, v),)))
        arrivals[p].append((v, c, (c, p, v)))
    for group in arrivals.values():
        group.sort()
        for (_, a, first), (_, b, second) in zip(group, group[1:]):
            after[a].append((b, (first, second)))
    return after


def cycles(after: dict[int, list[tuple[int, tuple[Capture, ...]]]], most: int = 30) -> list[set[Capture]]:
    """Up to ``most`` precedence cycles, each as the captures behind its edges (an edge per cycle is dropped)."""
    graph = {u: list(out) for u, out in after.items()}
    found: list[set[Capture]] = []
    while len(found) < most:
        cycle = _one_cycle(graph)
        if cycle is None:
            break
        found.append({key for _, _, keys in cycle for key in keys})
        u, v, keys = cycle[-1]
        graph[u].remove((v, keys))
    return found


def _one_cycle(graph: dict[int, list]) -> list[tuple[int, int, tuple]] | None:
    state: dict[int, int] = {}
    for start in list(graph):
        if start in state:
            continue
        path: list[tuple[int, int, tuple]] = []
        stack = [(start, iter(graph.get(start, ())))]
        state[start] = 1
        while stack:
            u, edges = stack[-1]
            step = next(edges, None)
            if step is None:
                state[u] = 2
                stack.pop()
                if path:
                    path.pop()
                continue
            v, keys = step
            if state.get(v) == 1:
                cycle = [(u, v, keys)]
                for edge in reversed(path):
                    if edge[1] == v:
                        break
                    cycle.append(edge)
                return cycle
            if v not in state:
                state[v] = 1
                path.append((u, v, keys))
                stack.append((v, iter(graph.get(v, ()))))
    return None


def lazy_upper(instance: Queens, geo: Geometry, fixed: dict[int, tuple[int, int]], cut: int, limit: float) -> str:
    """Relaxation plus cycle cuts until an acyclic forest (replayed) or the limit; a line of the table."""
    from ortools.sat.python import cp_model

    start = time.monotonic()
    model, x, root = relaxation(geo, instance.k, fixed, cut)
    rounds = 0
    while True:
        left = limit - (time.monotonic() - start)
        if left <= 0:
            return f"no acyclic answer in {limit:g} s ({rounds} rounds)"
        rounds += 1
        solver = cp_model.CpSolver()
        solver.parameters.max_time_in_seconds = left
        solver.parameters.num_workers = 2
        status = solver.solve(model)
        if status == cp_model.INFEASIBLE:
            return f"relaxation infeasible (proved) in {time.monotonic() - start:.1f} s, round {rounds}"
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return f"no answer in {limit:g} s ({rounds} rounds)"
        chosen = [key for key, var in x.items() if solver.value(var)]
        after = precedences(geo, chosen)
        found = cycles(after)
        if not found:
            parent: list[int | None] = [None] * geo.size
            for c, p, _ in chosen:
                parent[c] = p
            order = departure_order(parent, [[v for v, _ in after.get(u, ())] for u in range(geo.size)])
            moves = [(*geo.squares[c], *geo.squares[p]) for c, p in order]
            verdict = evaluate(instance, {}, moves)
            left_over = verdict.objective if verdict.legal else f"replay refused: {verdict.message}"
            return f"found in {time.monotonic() - start:.1f} s, {rounds} rounds, {left_over} queens left"
        for keys in found:
            model.add_bool_or([~x[key] for key in keys])
        model.clear_hints()
        for key, var in x.items():
            model.add_hint(var, key in set(chosen))


def arguments(doc: str, time_limit: float) -> argparse.ArgumentParser:
    """The options this script and ``dives.py`` share: which planted positions, where to cut, the output."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--n", type=int, default=64)
    parser.add_argument("--queens", type=int, default=300)
    parser.add_argument("--seeds", default="0,1,2")
    parser.add_argument("--cut", type=int, default=4)
    parser.add_argument("--time-limit", type=float, default=time_limit)
    parser.add_argument("--out", type=Path, default=None)
    return parser


def heading(title: str, script: str, argv: list[str] | None) -> list[str]:
    """A report's first lines: its title, the command that wrote it and the load it ran under."""
    given = sys.argv[1:] if argv is None else argv
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    return [
        f"# {title}",
        "",
        f"    PYTHONPATH=. .venv/bin/python benchmarks/queens/{script} " + " ".join(given),
        "",
        f"Load average at the start: {load} (2 shared cores).",
    ]


def write(lines: list[str], out: Path | None) -> None:
    text = "\n".join(lines) + "\n"
    if out:
        out.write_text(text)
    else:
        print(text)


def main(argv: list[str] | None = None) -> int:
    args = arguments(__doc__, 60.0).parse_args(argv)
    lines = heading(
        f"Where planted N = {args.n}, {args.queens} queens (K = 2) is hard (cut at level {args.cut})",
        "diagnose.py",
        argv,
    ) + [
        "",
        "| seed | tokens >= cut | upper alone (levels) | upper, planted lower fixed (relaxation + cuts) "
        "| upper, a dive's lower fixed (relaxation + cuts) | a dive's tokens alone (levels) |",
        "|---|---|---|---|---|---|",
    ]
    for seed in (int(s) for s in args.seeds.split(",")):
        instance = planted(args.n, 2, args.queens - 2, seed).instance
        geo = geometry(instance)
        upper = upper_position(instance, args.cut)
        status, wall, left = run(upper, "levels", args.time_limit)
        alone = f"{status}, {left} left, {wall:.1f} s"
        given = lazy_upper(instance, geo, lower_of_planted(instance, geo, args.cut), args.cut, args.time_limit)
        dive = lower_of_dive(geo, instance.k, args.cut, seed, time.monotonic() + args.time_limit)
        if dive is None:
            ours = dive_alone = "no dive reached the level"
        else:
            ours = lazy_upper(instance, geo, dive, args.cut, args.time_limit)
            status, wall, left = run(tokens_after(instance, geo, dive, args.cut), "levels", args.time_limit)
            dive_alone = f"{status}, {left} left, {wall:.1f} s" if left is not None else f"{status} at {wall:.1f} s"
        lines.append(f"| {seed} | {len(upper.queens)} | {alone} | {given} | {ours} | {dive_alone} |")
        print(lines[-1], flush=True)
    write(lines, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
