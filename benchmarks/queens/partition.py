"""Does knowing the top split help: planted N = 64 positions searched with their queens split in two groups.

    cd <repo> && PYTHONPATH=. .venv/bin/python benchmarks/queens/partition.py [--n 64] [--queens 300]
        [--seeds 0,1,2] [--time-limit 60] [--dive-time 40] [--out benchmarks/queens/partition.md]

With K = 2 and a total of 2^(e+1), a solution splits the queens into two groups of total 2^e, each
merged into one queen; the two never meet.  A lazy dive that leaves 3-5 queens has one root of total
2^e whose subtree is such a group.  Five measurements per planted position (the lazy search,
compiled, ``--time-limit`` each; the dive asks for K = 4, then 5, then 3, ``--dive-time`` each):

- rest alone: the queens outside the dive's half-total root, with that root's final square as a
  blocker of a power no queen has (K = 2): the rest merged to one queen when the group's queens are
  gone, whatever their moves needed;
- rest and group combined: the group's moves from the dive and the rest's from the row before,
  ordered by their precedences (mover after its arrivals, arrivals by power, squares between
  before the mover) when those have no cycle;
- the dive's split: the whole position, pairs allowed only inside each group (the geometry's
  partner lists cut, every queen still a blocker), K = 2;
- the planted split: the same with the planted solution's two groups;
- half kept: the dive's group may pair only along its own forest's edges (its pairs kept, which
  square survives and when left free), the rest only among itself, every queen a blocker: a
  large-neighbourhood step that keeps one half and re-searches the other with the coupling exact.

The split is the top of the search the level searches cannot see from the bottom (docs/queens.md,
"Where it stops"); if a good split were what is missing, the last row would be solved.
"""

from __future__ import annotations

import time

from diagnose import arguments, heading, write

from mipgames.queens.dfs import to_moves
from mipgames.queens.generate import planted
from mipgames.queens.geometry import Geometry, geometry
from mipgames.queens.instance import Queens
from mipgames.queens.lazy import lazy_restarts, search_lazy
from mipgames.queens.levels import departure_order
from mipgames.queens.simulate import replay

BLOCKER_EXPONENT = 50
"""The power of the stand-in for a merged group: no queen of the position can capture it."""


def indexed(geo: Geometry, moves) -> list[tuple[int, int]]:
    """Moves (r1, c1, r2, c2) as captures (mover, target) of starting squares."""
    return [(geo.index[r1, c1], geo.index[r2, c2]) for r1, c1, r2, c2 in moves]


def row(lines: list[str], cells: list[str]) -> None:
    """A table row, added and printed at once (a long run shows its rows as they come)."""
    lines.append("| " + " | ".join(cells) + " |")
    print(lines[-1], flush=True)


def roots_of(geo: Geometry, captures: list[tuple[int, int]]) -> dict[int, list[int]]:
    """The squares each remaining queen gathered: final square -> starting squares of its subtree."""
    members = {i: [i] for i in range(geo.size)}
    for mover, target in captures:
        members[target] += members.pop(mover)
    return members


def partners_only(geo: Geometry, allowed) -> Geometry:
    """The same position with partner lists cut to ``allowed(i, j)``; the squares between (the blockers) stay."""
    partners = tuple(tuple(j for j in geo.neighbours[i] if allowed(i, j)) for i in range(geo.size))
    return Geometry(geo.squares, geo.exps, geo.between, partners)


def grouped(geo: Geometry, group: list[int]) -> Geometry:
    """Partners only inside a group."""
    return partners_only(geo, lambda i, j: group[i] == group[j])


def kept_half(geo: Geometry, captures: list[tuple[int, int]], group: list[int]) -> Geometry:
    """Partners of group 1 only along its captures (either way), of group 0 only inside group 0."""
    forest: dict[int, set[int]] = {i: set() for i in range(geo.size)}
    for mover, target in captures:
        if group[mover]:
            forest[mover].add(target)
            forest[target].add(mover)
    return partners_only(geo, lambda i, j: j in forest[i] if group[i] else not group[j])


def ordered(geo: Geometry, captures: list[tuple[int, int]]) -> list[tuple[int, int]] | None:
    """The captures (mover, target) in an order their precedences allow (levels.departure_order), or None on a
    cycle or a survivor between."""
    parent: list[int | None] = [None] * geo.size
    arrivals: dict[int, list[int]] = {}
    for mover, target in captures:
        parent[mover] = target
        arrivals.setdefault(target, []).append(mover)
    after: list[list[int]] = [[] for _ in range(geo.size)]
    for c, p in captures:
        for a in arrivals.get(c, []):
            after[a].append(c)
        for x in geo.between[c, p]:
            if parent[x] is None:
                return None
            after[x].append(c)
    for movers in arrivals.values():
        movers.sort(key=lambda c: geo.exps[c] + len(arrivals.get(c, [])))
        for a, b in zip(movers, movers[1:], strict=False):
            after[a].append(b)
    order = departure_order(parent, after)
    return order if len(order) == len(captures) else None


def left_after(instance: Queens, geo: Geometry, captures: list[tuple[int, int]] | None) -> str:
    if captures is None:
        return "-"
    board, bad, why = replay(instance, to_moves(geo, captures))
    return f"{len(board)} left" if bad is None else f"move {bad + 1} illegal ({why})"


def search(
    geo: Geometry, k: int, seconds: float, fixed: list[int] | None = None
) -> tuple[list[tuple[int, int]] | None, str]:
    """The lazy search (``fixed``: part of a game kept, LazySearch) and what it did: solved, proved or open."""
    start = time.monotonic()
    found, exhausted = lazy_restarts(geo, k, fixed=fixed).run(start + seconds)
    took = time.monotonic() - start
    return found, ("solved" if found else "proved unsolvable" if exhausted else "open") + f" {took:.1f} s"


def main(argv: list[str] | None = None) -> int:
    parser = arguments(__doc__, 60.0)
    parser.add_argument("--dive-time", type=float, default=40.0)
    args = parser.parse_args(argv)
    lines = heading(f"The top split given (N = {args.n}, {args.queens} queens, K = 2)", "partition.py", argv) + [
        f"Lazy search, compiled, {args.time_limit:g} s a search; the dive {args.dive_time:g} s for each K tried.",
        "",
        "| seed | dive | rest alone | combined | dive's split | planted split | half kept |",
        "|---|---|---|---|---|---|---|",
    ]
    for seed in (int(s) for s in args.seeds.split(",")):
        made = planted(args.n, 2, args.queens - 2, seed)
        instance, geo = made.instance, geometry(made.instance)
        half = geo.total.bit_length() - 2
        dive, k = None, 0
        began = time.monotonic()
        for k in (4, 5, 3):
            dive, _ = search_lazy(geo, k, time.monotonic() + args.dive_time)
            if dive:
                break
        took = time.monotonic() - began
        cells = [str(seed), f"K = {k}: {left_after(instance, geo, dive)}, {took:.1f} s" if dive else "no game"]
        roots = roots_of(geo, dive or [])
        top = next((r for r, m in roots.items() if sum(1 << geo.exps[i] for i in m) == 1 << half), None)
        if dive is None or top is None:
            cells += ["-", "-", "-"]
            kept = "-"
        else:
            group = [0] * geo.size
            for i in roots[top]:
                group[i] = 1
            board = [list(row) for row in instance.board]
            for i in roots[top]:
                board[geo.squares[i][0]][geo.squares[i][1]] = 0
            board[geo.squares[top][0]][geo.squares[top][1]] = 1 << BLOCKER_EXPONENT
            rest = Queens(instance.n, 2, tuple(map(tuple, board)))
            rgeo = geometry(rest)
            found, said = search(rgeo, 2, args.time_limit)
            cells.append(said)
            if found is None:
                cells.append("-")
            else:
                index = geo.index
                mine = [(u, p) for u, p in dive if group[u]]
                theirs = [(index[rgeo.squares[u]], index[rgeo.squares[p]]) for u, p in found]
                both = ordered(geo, mine + theirs)
                cells.append("a precedence cycle" if both is None else left_after(instance, geo, both))
            found, said = search(grouped(geo, group), 2, args.time_limit)
            cells.append(f"{said}, {left_after(instance, geo, found)}" if found else said)
            found, said = search(kept_half(geo, dive, group), 2, args.time_limit)
            kept = f"{said}, {left_after(instance, geo, found)}" if found else said
        planted_roots = roots_of(geo, indexed(geo, made.solution))
        group = [0] * geo.size
        for g, members in enumerate(planted_roots.values()):
            for i in members:
                group[i] = g
        found, said = search(grouped(geo, group), 2, args.time_limit)
        cells.append(f"{said}, {left_after(instance, geo, found)}" if found else said)
        cells.append(kept)
        row(lines, cells)
    write(lines, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
