"""Seeded generators: planted solvable instances (backward splits) and proved-unsolvable ones.

Planted: start from K queens and split a queen of power 2p into two of power p,
the new one on an empty square in clear line of sight; the reversed splits are
a solution.  Unsolvable: take a planted instance and move one queen to another
empty square (the total, hence popcount(S) ≤ K, is unchanged); keep it only if
no cheap bound (capture-graph popcount, line of sight, stranded queens) rules K
out and the forest model proves K unreachable.
"""

from __future__ import annotations

import bisect
import random
import time
from dataclasses import dataclass

from mipgames.core import inprocess
from mipgames.core.arguments import int_in, number_in
from mipgames.core.errors import UsageError
from mipgames.core.problem import MAX_SEED
from mipgames.queens.geometry import DIRECTIONS
from mipgames.queens.instance import MAX_N, MAX_TOTAL, Move, Queens


@dataclass(frozen=True)
class Planted:
    instance: Queens
    """Carries ``solution`` as its ``planted`` moves (written beside the board by ``write``)."""
    solution: list[Move]


def _board(n: int, queens: dict[tuple[int, int], int], k: int, planted: list[Move] | None = None) -> Queens:
    return Queens(
        n,
        k,
        tuple(tuple(queens.get((r, c), 0) for c in range(n)) for r in range(n)),
        None if planted is None else tuple(planted),
    )


def _split_targets(n: int, queens: dict, r: int, c: int) -> list[tuple[int, int]]:
    """Empty squares in clear line of sight of (r, c)."""
    found = []
    for dr, dc in DIRECTIONS:
        rr, cc = r + dr, c + dc
        while 0 <= rr < n and 0 <= cc < n and (rr, cc) not in queens:
            found.append((rr, cc))
            rr, cc = rr + dr, cc + dc
    return found


def _can_split(n: int, queens: dict, empty: set[tuple[int, int]]) -> bool:
    """Whether some queen of power above 1 has an empty square in clear line of sight (a split is possible):
    the first queen each empty square sees along each of the 8 lines, so a crowded board costs little."""
    for r, c in empty:
        for dr, dc in DIRECTIONS:
            rr, cc = r + dr, c + dc
            while 0 <= rr < n and 0 <= cc < n:
                power = queens.get((rr, cc))
                if power is not None:
                    if power > 1:
                        return True
                    break
                rr, cc = rr + dr, cc + dc
    return False


def planted(n: int, k: int, moves: int, seed: int, exponent: int | None = None) -> Planted:
    """K queens of power 2^exponent split ``moves`` times; raises UsageError when they cannot fit, or when the
    splits get stuck (no queen that can still be split sees an empty square)."""
    if k < 1 or k + moves > n * n:
        raise UsageError(f"{k} + {moves} queens do not fit on a {n}x{n} board (and K must be at least 1)")
    rng = random.Random(seed)
    need = max(1, (moves // k + 1).bit_length())
    exponent = need + 1 if exponent is None else exponent
    if k << exponent >= MAX_TOTAL:
        raise UsageError(f"exponent {exponent} is too large: {k} queens of power 2^{exponent} reach the total 2^60")
    if k << exponent < k + moves:
        raise UsageError(
            f"exponent {exponent} is too small: {k} queens of power 2^{exponent} split into at most {k << exponent} "
            f"queens, not {k + moves}"
        )
    squares = rng.sample([(r, c) for r in range(n) for c in range(n)], k)
    queens = {sq: 1 << exponent for sq in squares}
    empty = {(r, c) for r in range(n) for c in range(n)} - queens.keys()
    splits: list[Move] = []
    movable = sorted(sq for sq, p in queens.items() if p > 1)  # kept sorted as queens split, not sorted each draw
    checked = -1  # the split count at which a split was last proved possible
    while len(splits) < moves:
        if not movable:
            raise UsageError("ran out of powers to split: raise the exponent")
        r, c = rng.choice(movable)
        targets = _split_targets(n, queens, r, c)
        if not targets:
            # The draw is retried on the unchanged board (the same random stream as ever), which ends once a
            # splittable queen is drawn; when there is none it would never end, so that is checked, once a board.
            if checked != len(splits):
                if not _can_split(n, queens, empty):
                    raise UsageError(
                        f"stuck after {len(splits)} of {moves} splits: no empty square is in line of sight of a "
                        "queen that can still be split; ask for fewer moves, a larger board or exponent, "
                        "or another seed"
                    )
                checked = len(splits)
            continue
        rr, cc = rng.choice(targets)
        queens[r, c] //= 2
        queens[rr, cc] = queens[r, c]
        empty.discard((rr, cc))
        if queens[r, c] == 1:
            del movable[bisect.bisect_left(movable, (r, c))]
        else:
            bisect.insort(movable, (rr, cc))
        splits.append((rr, cc, r, c))
    return Planted(_board(n, queens, k, splits[::-1]), splits[::-1])


QUICK_RESTARTS = 15
"""Restarts of the level search that decide whether a candidate is solved "quickly" (about 32,000 nodes).  They
were a second of the clock, so the board kept depended on the machine's load."""
PROOF_RESTARTS = 63
"""Restarts of the level search in ``prove_unsolvable`` before the forest model is asked (about 192,000 nodes)."""


def unsolvable(
    n: int, queens: int, k: int, seed: int, time_limit: float = 60.0, tries: int = 200, relocations: int = 40
) -> Queens:
    """A position with popcount(S) ≤ K that the cheap bounds do not refute but an exact method proves unsolvable.

    Start from a planted position and move queens, one at a time, to random
    empty squares (the total, hence popcount(S) ≤ K, stays) until the level
    search can no longer solve it quickly; keep the position once an exact
    method proves K unreachable (prove_unsolvable).  A move that makes a
    cheap bound refute K (capture-graph popcount, line of sight, stranded
    queens) is undone: those positions need no search.  Past N = 16 a single
    move almost never breaks a planted position, hence the sequence.
    """
    from mipgames.core.problem import SolveOptions
    from mipgames.queens.geometry import geometry
    from mipgames.queens.levels import search_forest

    if queens >= n * n:
        raise UsageError(
            f"{queens} queens fill a {n}x{n} board: an unsolvable position is made by moving queens to empty "
            "squares, so ask for fewer queens (K + moves) or a larger board"
        )
    rng = random.Random(seed)
    for _ in range(tries):
        stones = {(r, c): p for r, c, p in planted(n, k, queens - k, rng.randrange(1 << 30)).instance.queens}
        for _ in range(relocations):
            (r, c), power = rng.choice(sorted(stones.items()))
            empty = [(a, b) for a in range(n) for b in range(n) if (a, b) not in stones]
            target = rng.choice(empty)
            del stones[r, c]
            stones[target] = power
            candidate = _board(n, stones, k)
            if obvious(candidate):
                del stones[target]
                stones[r, c] = power
                continue
            deadline = time.monotonic() + time_limit / 10  # a safety: the restarts decide (QUICK_RESTARTS)
            found, _ = search_forest(geometry(candidate), k, deadline, seed, restarts=QUICK_RESTARTS)
            if found is not None:
                continue
            if prove_unsolvable(candidate, SolveOptions(time_limit=time_limit)):
                return candidate
    raise UsageError(f"no unsolvable instance found in {tries} tries; change the seed or sizes")


def stuck(instance: Queens) -> bool:
    """Whether no first capture is legal (no two queens of one power see each other past every blocker): such a
    board keeps all its queens, which the bounds of ``obvious``, blind to blockers, rated reachable (N = 4, K = 2,
    seed 2 gave one)."""
    from mipgames.queens.dfs import captures
    from mipgames.queens.geometry import geometry, initial_state

    geo = geometry(instance)
    return not captures(geo, initial_state(geo))


def obvious(instance: Queens) -> bool:
    """Whether a cheap test already refutes K (no legal capture at all, capture-graph popcount, line of sight,
    stranded queens)."""
    from mipgames.queens.geometry import geometry
    from mipgames.queens.levels import ForestSearch
    from mipgames.queens.prep import prepare

    if len(instance.queens) > instance.k and stuck(instance):
        return True
    if prepare(instance, {}).bound > instance.k:
        return True
    search = ForestSearch(geometry(instance), instance.k, None)
    return search.stranded() > instance.k


def prove_unsolvable(instance: Queens, options) -> bool:
    """True only when an exact method proves that K cannot be reached: the level search exhausted (half the time),
    else the forest model infeasible.  A candidate neither proves is dropped, not guessed."""
    from ortools.sat.python import cp_model

    from mipgames.queens.cpsat import build_forest
    from mipgames.queens.geometry import geometry
    from mipgames.queens.levels import search_forest

    start = time.monotonic()
    share = None if options.time_limit is None else options.time_limit / 2
    found, exhausted = search_forest(
        geometry(instance),
        instance.k,
        None if share is None else start + share,
        options.seed,
        restarts=PROOF_RESTARTS,
    )
    if found is not None:
        return False
    if exhausted:
        return True
    built = build_forest(instance, {}, options)
    solver = cp_model.CpSolver()
    if options.time_limit is not None:  # deterministic time decides, the clock is a safety
        solver.parameters.max_deterministic_time = max(0.1, options.time_limit / 2)
        solver.parameters.max_time_in_seconds = max(0.1, options.time_limit - (time.monotonic() - start))
    solver.parameters.num_workers = 1  # one worker: several make CP-SAT's search depend on their timing
    solver.parameters.random_seed = options.seed
    return inprocess.solve(solver, built.model) == cp_model.INFEASIBLE


def add_arguments(parser) -> None:
    parser.add_argument("--n", type=int_in(1, MAX_N), default=8, help="board size N")
    parser.add_argument("--k", type=int_in(1, MAX_N * MAX_N), default=1, help="K: at most K queens may remain")
    parser.add_argument(
        "--moves", type=int_in(0, MAX_N * MAX_N), default=10, help="splits (= moves of the planted solution)"
    )
    parser.add_argument(
        "--exponent",
        type=int_in(0, MAX_TOTAL.bit_length() - 2),
        default=None,
        help="starting queens' exponent (planted)",
    )
    parser.add_argument("--seed", type=int_in(0, MAX_SEED), default=0)
    parser.add_argument(
        "--unsolvable",
        action="store_true",
        help="K + moves queens whose K is proved unreachable (popcount(S) <= K all the same)",
    )
    parser.add_argument(
        "--proof-time",
        type=number_in(0, 86400, open_low=True),
        default=None,
        help="seconds per unsolvability proof (--unsolvable; default 60); candidates are tried until one is "
        "proved (on N >= 16 that can take "
        "minutes: each candidate first gets a quick search for a solution, a fixed number of restarts and at most "
        "a tenth of this)",
    )


PROOF_TIME_S = 60.0
"""Seconds per unsolvability proof of ``--unsolvable`` unless ``--proof-time`` says otherwise."""


def from_args(args) -> Queens:
    output = getattr(args, "output", None)
    if output:  # the board and its moves file, refused before the work rather than after it (instance.write)
        from mipgames.queens.instance import output_paths

        output_paths(output, planted=not args.unsolvable, probe=True)
    if args.unsolvable and args.exponent is not None:
        raise UsageError("--exponent sets the planted queens' power; --unsolvable chooses its own")
    if args.unsolvable and args.moves == 0:  # it searched 200 tries before saying "change the seed or sizes"
        raise UsageError(
            "--unsolvable --moves 0 asks for K queens, which are never more than K: give --moves 1 or more"
        )
    if args.proof_time is not None and not args.unsolvable:  # a planted board was written as if it had been used
        raise UsageError("--proof-time sets the unsolvability proofs of --unsolvable boards; a planted board has none")
    if args.unsolvable:
        proof_time = PROOF_TIME_S if args.proof_time is None else args.proof_time
        return unsolvable(args.n, args.k + args.moves, args.k, args.seed, proof_time)
    return planted(args.n, args.k, args.moves, args.seed, args.exponent).instance
