"""Half of the planted game kept: can the lazy search find the other half (N = 64, K = 2)?

    cd <repo> && PYTHONPATH=. .venv/bin/python benchmarks/queens/planted_kept.py [--seeds 0,1,2]
        [--time-limit 60] [--out benchmarks/queens/planted_kept.md]

The planted game splits the queens in two groups, each merged into one queen.  Here one group may pair
only along the planted game's captures (partition.kept_half: which queen of a pair moves, and when,
left free) and the other only among itself, every queen a blocker: the search must find the free
half's game around a half that is known to fit.  Each group is kept in turn.  Alone (the kept half's
queens removed) such a half merges in seconds (partition.md, "rest alone"); if it does not here,
what the level search cannot do is the coupling between the halves, whatever the split.  Each kept half is
tried twice: its pairs kept, and its moves kept too (``fixed``: each of its queens moves into the square
it moved into in the planted game, its last queen stays), so that the search has only the other half to
decide.
"""

from __future__ import annotations

from diagnose import arguments, heading, write
from partition import indexed, kept_half, left_after, roots_of, row, search

from mipgames.queens.generate import planted
from mipgames.queens.geometry import geometry
from mipgames.queens.lazy import FREE, STAYS


def main(argv: list[str] | None = None) -> int:
    args = arguments(__doc__, 60.0).parse_args(argv)
    title = f"Half of the planted game kept (N = {args.n}, {args.queens} queens, K = 2)"
    lines = heading(title, "planted_kept.py", argv)
    lines += [
        f"Lazy search, compiled, {args.time_limit:g} s a search.",
        "",
        "| seed | first group's pairs kept | its moves kept | second group's pairs kept | its moves kept |",
        "|---|---|---|---|---|",
    ]
    for seed in (int(s) for s in args.seeds.split(",")):
        made = planted(args.n, 2, args.queens - 2, seed)
        geo = geometry(made.instance)
        captures = indexed(geo, made.solution)
        groups = list(roots_of(geo, captures).values())
        into = dict(captures)
        cells = [str(seed)]
        for kept, searched in ((0, 1), (1, 0)):
            group = [0] * geo.size
            for i in groups[kept]:
                group[i] = 1
            moves = [into.get(i, STAYS) if group[i] else FREE for i in range(geo.size)]
            for fixed in (None, moves):
                found, said = search(kept_half(geo, captures, group), 2, args.time_limit, fixed)
                where = f"{len(groups[kept])} kept, {len(groups[searched])} searched"
                extra = f", {left_after(made.instance, geo, found)}" if found else ""
                cells.append(f"{said} ({where}){extra}")
        row(lines, cells)
    write(lines, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
