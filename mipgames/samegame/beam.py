"""Beam search for the standard score rule with the "tabu colour" strategy.

Why a separate beam: under the score rule (a move removing n tiles scores
(n - 2)^2, +1000 for a cleared board) the points come from one or two huge
groups late in the game, not from the moves along the way, so the beam must
rank positions by what they can still become.  Following the SP-MCTS / NMCS
literature, one colour (usually the most numerous) is *tabu*: it counts as if
it will leave as one group, (n - 2)^2, and optionally its groups are not
clicked while another move exists, so that it keeps growing.

Every child of a layer is first ranked on colour counts alone, *before* it is
built; only the best are built (``remove``), merged when they are the same
board, and grouped (``find_groups``) once - the groups serve both the second
ranking (lonely tiles, tabu components) and the next layer's expansion.

Narrow beams are very noisy: which evaluation wins changes from board to
board, so ``random_portfolio_beam`` runs many narrow beams with seeded random
settings and keeps the best game (measured in benchmarks/samegame/README.md).
Internal state: the packed ``bytes`` boards of ``baselines``.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Callable

from mipgames.samegame.baselines import CLEAR_BONUS, SEP, columns, find_groups, remove

Path = tuple | None
"""A game as a linked list: (previous path, click cell)."""


def _pot(n: int) -> int:
    return (n - 2) * (n - 2) if n > 2 else 0


def _moves(path: Path) -> list[tuple[int, int]]:
    out = []
    while path is not None:
        path, move = path
        out.append(move)
    return out[::-1]


@dataclass(frozen=True)
class Settings:
    """The knobs of the evaluation (measured in benchmarks/samegame/README.md).

    A child is first ranked, before it is built, by
    ``points + (n_tabu - 2)^2 + beta * sum over other colours (n_c - 2)^2``;
    the ``build_factor * width`` best are built and ranked again by that key
    ``- lonely_cost * lonely - tc * tabu_components (+ cb if no colour has a
    single tile, i.e. a clear is still possible)``.
    """

    tabu: bool = True
    """Pick a tabu colour (its potential counts fully, the others' by ``beta``)."""
    tabu_rank: int = 0
    """Which colour is tabu: 0 the most numerous, 1 the second..."""
    forbid: bool = True
    """Never click the tabu colour while a group of another colour exists."""
    beta: float = 0.2
    lonely_cost: float = 20.0
    """Per tile not of the tabu colour with no same-coloured neighbour now."""
    tc: float = 50.0
    """Per connected component of the tabu colour (fewer = one bigger final group)."""
    cb: float = 0.0
    build_factor: float = 1.5
    """Children built per kept node, before the second (groups-aware) ranking."""


@dataclass
class TabuBeamResult:
    value: int
    moves: list[tuple[int, int]]
    width: int
    nodes: int
    complete: bool


def tabu_beam(
    state: bytes,
    width: int,
    deadline: float | None = None,
    settings: Settings = Settings(),
) -> TabuBeamResult:
    """One beam search of ``width`` positions per move, best finished game returned.

    If the deadline hits, the search stops and returns the best game finished
    so far (``complete`` False); the caller keeps the best over its widths.
    """
    counts = [0] * 256
    for v in state:
        counts[v] += 1
    counts[255] = 0
    ncolour = 1 + max((c for c in range(255) if counts[c]), default=0)
    ranked = sorted(range(ncolour), key=lambda c: (-counts[c], c))
    tabu_colour = ranked[min(settings.tabu_rank, len(ranked) - 1)] if settings.tabu else -1
    counts = tuple(counts[:ncolour])
    lonely_cost = settings.lonely_cost
    build = max(width, int(width * settings.build_factor))

    best_value = -1
    best_path: Path = None
    nodes = 0

    def terminal(value: int, st: bytes, path: Path) -> None:
        nonlocal best_value, best_path
        v = value + (CLEAR_BONUS if not st else 0)
        if v > best_value:
            best_value, best_path = v, path

    groups0 = find_groups(columns(state))
    if not groups0:
        terminal(0, state, None)
        return TabuBeamResult(best_value, [], width, 0, True)
    beta, tc, cb = settings.beta, settings.tc, settings.cb

    def weight(colour: int) -> float:
        return 1.0 if colour == tabu_colour else beta

    # a layer entry: (points, state, colour counts, groups, potential, path)
    layer = [(0, state, counts, groups0, sum(weight(c) * _pot(n) for c, n in enumerate(counts)), None)]
    complete = True
    while layer:
        if deadline is not None and time.monotonic() > deadline:
            complete = False
            break
        cand = []
        for i, (value, st, cnt, groups, base, path) in enumerate(layer):
            skip_tabu = False
            if tabu_colour >= 0 and settings.forbid:
                for colour, cells in groups:
                    if colour != tabu_colour:
                        skip_tabu = True
                        break
            for gi, (colour, cells) in enumerate(groups):
                if skip_tabu and colour == tabu_colour:
                    continue
                n = len(cells)
                c = cnt[colour]
                key = value + (n - 2) * (n - 2) + base + weight(colour) * (_pot(c - n) - _pot(c))
                cand.append((key, i, gi))
        nodes += len(cand)
        cand.sort(reverse=True)
        # the same board has the same potential, so the first copy met has the most points
        seen: set[bytes] = set()
        built = []
        for key, i, gi in cand:
            value, st, cnt, groups, base, path = layer[i]
            colour, cells = groups[gi]
            child = remove(columns(st), cells)
            if child in seen:
                continue
            seen.add(child)
            n = len(cells)
            cv = value + (n - 2) * (n - 2)
            cpath = (path, cells[0])
            cg = find_groups(columns(child))
            if not cg:
                terminal(cv, child, cpath)
                continue
            c = cnt[colour]
            ccnt = cnt[:colour] + (c - n,) + cnt[colour + 1 :]
            grouped = 0
            tabu_grouped = 0
            tabu_groups = 0
            for gc, gcells in cg:
                grouped += len(gcells)
                if gc == tabu_colour:
                    tabu_grouped += len(gcells)
                    tabu_groups += 1
            tabu_single = ccnt[tabu_colour] - tabu_grouped if tabu_colour >= 0 else 0
            lonely = len(child) - child.count(SEP) - grouped - tabu_single
            fine = key - lonely_cost * lonely - tc * (tabu_single + tabu_groups)
            if cb and 1 not in ccnt:
                fine += cb
            built.append((fine, (cv, child, ccnt, cg, key - cv, cpath)))
            if len(built) >= build:
                break
        if len(built) > width:
            built.sort(key=lambda p: p[0], reverse=True)
            del built[width:]
        layer = [entry for _, entry in built]
    return TabuBeamResult(best_value, _moves(best_path), width, nodes, complete)



def random_settings(rng) -> Settings:
    """A random evaluation around the measured ones.  Narrow beams are noisy (which
    setting wins changes from board to board, README), so many different beams find
    better games than one wide beam in the same time."""
    return Settings(
        beta=rng.choice((0.0, 0.0, 0.2, 0.5, 1.0)),
        lonely_cost=rng.uniform(5.0, 60.0),
        tc=rng.choice((0.0, 25.0, 50.0, 100.0)),
        cb=rng.choice((0.0, 1000.0)),
        tabu_rank=rng.choice((0, 0, 0, 1, 1, 2)),
        build_factor=rng.choice((1.5, 3.0)),
        forbid=rng.random() < 0.5,
    )


def _prefix(state: bytes, moves: list[tuple[int, int]], k: int) -> tuple[bytes, int]:
    """The board and points after the first ``k`` moves of a game."""
    points = 0
    for move in moves[:k]:
        cols = columns(state)
        cells = next(cells for _, cells in find_groups(cols) if cells[0] == move)
        points += (len(cells) - 2) * (len(cells) - 2)
        state = remove(cols, cells)
    return state, points


def random_portfolio_beam(
    state: bytes,
    deadline: float,
    width: int = 16,
    seed: int = 0,
    restart: float = 0.0,
    report: Callable[[int], None] | None = None,
) -> TabuBeamResult:
    """Beams of ``width`` with seeded random settings until ``deadline``; the best game wins.

    With probability ``restart`` a beam starts not from the board but from a random
    point (20-80% of the moves) of the best game so far, keeping its prefix.
    The first beam ignores the deadline (it is narrow), so a game always comes back."""
    rng = random.Random(seed)
    best: TabuBeamResult | None = None
    while True:
        start, points, prefix = state, 0, []
        if best is not None and len(best.moves) > 4 and rng.random() < restart:
            k = int(len(best.moves) * rng.uniform(0.2, 0.8))
            prefix = best.moves[:k]
            start, points = _prefix(state, best.moves, k)
        res = tabu_beam(start, width, deadline if best is not None else None, random_settings(rng))
        if res.value >= 0 and (best is None or points + res.value > best.value):
            best = TabuBeamResult(points + res.value, prefix + res.moves, res.width, res.nodes, res.complete)
            if report is not None:
                report(best.value)
        if not res.complete or time.monotonic() >= deadline:
            assert best is not None
            return best
