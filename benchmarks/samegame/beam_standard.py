"""Beam search on the standard SameGame test set under the standard rule.

    .venv/bin/python benchmarks/samegame/beam_standard.py ../shared/benchmarks/samegame/standard_20.txt \
        [--time-limit 60] [--boards 20]

Each board gets ``--time-limit`` seconds of the ``beam`` solver: under the
score rule, half of it is iterated beam search (widths doubling while the
budget lasts), the other half many narrow tabu-colour beams with seeded random
evaluations, half of them restarting from a point of the best game so far
(``mipgames/samegame/beam.py``); the better game is kept.  Every answer is
replayed by the simulator through the runner before it is counted.  Prints one line per board and the
total next to the published totals (NMCS 77,934; SP-MCTS 78,012; NRPA 80,030;
beam search 84,414).
"""

from __future__ import annotations

import argparse
import time

from mipgames.core.problem import SolveOptions
from mipgames.run.runner import solve
from mipgames.samegame.instance import read_standard_set
from mipgames.samegame.problem import PROBLEM


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("standard_set", help="path of standard_20.txt")
    ap.add_argument("--time-limit", type=float, default=60.0, help="seconds per board (default 60)")
    ap.add_argument("--boards", type=int, default=None, help="only the first N boards")
    args = ap.parse_args()
    boards = read_standard_set(args.standard_set)[: args.boards]
    params = {"objective": "score", "beam_width": 0}
    total = 0
    began = time.monotonic()
    for k, board in enumerate(boards, start=1):
        res = solve(PROBLEM, board, solver="beam", params=params,
                    options=SolveOptions(time_limit=args.time_limit), isolate=False)
        if res.status not in ("optimal", "feasible"):
            raise SystemExit(f"board {k}: {res.status} {res.message}")
        left = res.verdict.measured["remaining"]
        total += int(res.objective)
        print(f"board {k:2d}: score {int(res.objective):5d}  tiles left {left:3d}  "
              f"{res.message}  ({res.wall_time_s:.1f} s)", flush=True)
    print(f"total {total} over {len(boards)} boards, {args.time_limit:g} s each "
          f"({time.monotonic() - began:.0f} s wall); published: NMCS 77,934, SP-MCTS 78,012, "
          f"NRPA 80,030, beam 84,414")


if __name__ == "__main__":
    main()
