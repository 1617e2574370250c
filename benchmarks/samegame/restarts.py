"""How NRPA's restarts could be scheduled, judged offline from recorded fresh starts.

    .venv/bin/python benchmarks/samegame/restarts.py [SET] [--boards 1,2,3] [--starts 6] [--seed 5]
        [--budgets 175,87] [--save FILE.json] [--load A.json,B.json]

A worker's NRPA (level 3, worker 0's tabu colour) runs fresh starts of 70
top-level iterations one after the other; at 60 s a board it has room for
about 175 iterations (2.5 starts).  This script records ``--starts`` fresh
starts per board (the best game after every top-level iteration; about 25 s
a start) and then, for each budget in top-level iterations, the expected
best game of two schedules over every order of the recorded starts:

- one start after the other (what ``nrpa_search`` does);
- a race: m fresh starts run k iterations each, the best goes on to 70, and
  again while the budget lasts (what the colour race does for colours).

It also says how often a start's best after k iterations ranks two starts
as their last games do.  The expectation assumes starts are independent
draws, which is what seeding them apart makes them.  ``--save`` keeps the
trajectories so ``--load`` can judge other schedules without searching again
(several files: their boards together).  Each board's starts draw from one
generator seeded with ``--seed``.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from standard import default_set  # noqa: E402

from mipgames.samegame import kernel  # noqa: E402
from mipgames.samegame.allowance import Allowance  # noqa: E402
from mipgames.samegame.instance import Board, read_standard_set  # noqa: E402
from mipgames.samegame.nrpa import ALPHA, ITERATIONS, _Search, _TopLevel, tabu_candidates  # noqa: E402

Trajectory = list[int]
"""The best game of one start after each of its top-level iterations."""


def record(board: Board, starts: int, seed: int) -> list[Trajectory]:
    """``starts`` fresh level-3 starts of ``ITERATIONS`` top-level iterations on one board (one generator)."""
    root, shape = kernel.to_array(board)
    tabu = tabu_candidates(root, shape, True)[0]
    # the top level stepped by hand (nrpa_search's own loop, without its restarts), to see every iteration
    search = _Search(root, shape, True, 3, seed, lambda v, c, n: None, Allowance(None, None, None), ITERATIONS, ALPHA)
    out = []
    for _ in range(starts):
        top = _TopLevel(search, tabu)
        trajectory = []
        for _ in range(ITERATIONS):
            top.step()
            trajectory.append(int(top.best or 0))
        out.append(trajectory)
    return out


def one_after_another(starts: list[Trajectory], budget: int) -> int:
    best, left = 0, budget
    for t in starts:
        if left <= 0:
            break
        use = min(len(t), left)
        best, left = max(best, t[use - 1]), left - use
    return best


def race(starts: list[Trajectory], budget: int, laps: int, entrants: int) -> int:
    best, left, j = 0, budget, 0
    while left > 0 and j < len(starts):
        group = starts[j : j + entrants]
        j += len(group)
        k = min(laps, left // len(group))
        if k == 0:
            break
        left -= k * len(group)
        early = [t[k - 1] for t in group]
        winner = group[early.index(max(early))]
        more = min(len(winner) - k, left)
        left -= more
        best = max(best, winner[k + more - 1])  # a start's best never falls, so it beats every early one
    return best


def expected(runs: list[list[Trajectory]], schedule: Callable[[list[Trajectory]], int]) -> float:
    """Sum over boards of the schedule's best game, averaged over every order of each board's starts."""
    total = 0.0
    for starts in runs:
        orders = list(itertools.permutations(starts))
        total += sum(schedule(list(o)) for o in orders) / len(orders)
    return total


def ranking(runs: list[list[Trajectory]], k: int) -> tuple[int, int]:
    """Pairs of starts (last games differ) whose bests after k iterations rank them as their last games do."""
    agree = pairs = 0
    for starts in runs:
        for a, b in itertools.combinations(starts, 2):
            if a[-1] != b[-1]:
                pairs += 1
                agree += a[k - 1] != b[k - 1] and (a[k - 1] > b[k - 1]) == (a[-1] > b[-1])
    return agree, pairs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("standard_set", nargs="?", default=None, help="standard_20.txt (default: as standard.py)")
    ap.add_argument("--boards", default="1,2,3,4,5,6,7,8,9,10,11,12", help="comma-separated board numbers")
    ap.add_argument("--starts", type=int, default=6, help="fresh starts recorded a board (default 6)")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--budgets", default="175,87", help="top-level iterations a worker may run (default 175,87)")
    ap.add_argument("--save", default=None, help="write the trajectories here (JSON)")
    ap.add_argument("--load", default=None, help="judge trajectories saved before (comma-separated files)")
    args = ap.parse_args()
    if args.load:
        runs = [board for f in args.load.split(",") for board in json.loads(Path(f).read_text())]
    else:
        boards = read_standard_set(Path(args.standard_set) if args.standard_set else default_set())
        runs = []
        for b in [int(x) for x in args.boards.split(",")]:
            runs.append(record(boards[b - 1], args.starts, args.seed))
            print(f"board {b}: last games {[t[-1] for t in runs[-1]]}", flush=True)
        if args.save:
            Path(args.save).write_text(json.dumps(runs))
    for budget in [int(x) for x in args.budgets.split(",")]:
        base = expected(runs, functools.partial(one_after_another, budget=budget))
        print(f"\nbudget {budget} top-level iterations, {len(runs)} boards")
        print(f"  one start after another      {base:10.1f}  1.000")
        for entrants, laps in itertools.product((2, 3), (1, 3, 5, 10)):
            value = expected(runs, functools.partial(race, budget=budget, laps=laps, entrants=entrants))
            print(f"  race of {entrants}, {laps:2d} iterations each {value:10.1f}  {value / base:.3f}")
    for k in (1, 5, 10, 20):
        agree, pairs = ranking(runs, k)
        print(f"after {k:2d} iterations a start's best ranks {agree} of {pairs} pairs as their last games do")


if __name__ == "__main__":
    main()
