"""Resumable searches and the anytime minimisation against exhaustive answers."""

import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mipgames.queens import levels
from mipgames.queens.dfs import to_moves
from mipgames.queens.geometry import geometry
from mipgames.queens.instance import moves_path, read, read_moves
from mipgames.queens.lazy import lazy_restarts
from mipgames.queens.levels import forest_restarts
from mipgames.queens.levels_kernel import Engine
from mipgames.queens.minimise import _ladder, minimise, minimum_result
from mipgames.queens.prep import captures_possible
from mipgames.queens.simulate import replay
from tests.queens.test_models import brute_minimum, positions

QUEENS = Path(__file__).resolve().parents[2] / "instances" / "queens"


def bound_of(geo) -> int:
    return captures_possible(geo, bytearray(e + 1 for e in geo.exps))[2]


@pytest.mark.parametrize(
    "maker, compiled, name, first_limit",
    [
        (forest_restarts, False, "planted_n24_k1_q70_s5.txt", 50),
        (forest_restarts, True, "planted_n24_k1_q70_s5.txt", 50),
        (lazy_restarts, False, "planted_n16_k1_q40_s3.txt", 5),  # 62 restarts in Python (n24: 5 s)
        (lazy_restarts, True, "planted_n24_k1_q70_s5.txt", 50),
    ],
)
def test_a_search_cut_into_slices_ends_as_one_run(maker, compiled, name, first_limit, monkeypatch):
    """Wherever the deadlines cut it, a resumed search makes the same restarts and returns the same game (the
    compiled searches also across the switch from Python to the engine, taken after 300 nodes here)."""
    monkeypatch.setattr(levels, "INTERPRETED_NODES", 300)
    geo = geometry(read(QUEENS / name))
    whole = maker(geo, 1, seed=2, first_limit=first_limit, compiled=compiled).run(None)
    assert whole[0] is not None
    sliced = maker(geo, 1, seed=2, first_limit=first_limit, compiled=compiled)
    slice_, cuts = 0.0005, 0
    while True:
        outcome = sliced.run(time.monotonic() + slice_)
        if outcome != (None, False):
            break
        cuts += 1
        slice_ *= 1.5
    assert cuts > 0 and (sliced.engine is not None) == compiled
    assert outcome == whole
    assert sliced.run(time.monotonic()) == whole  # an ended search stays ended


@pytest.mark.parametrize("maker", [forest_restarts, lazy_restarts])
def test_a_compiled_restart_cut_by_a_slice_goes_on_where_it_stopped(maker, monkeypatch):
    """Slices too short for a whole restart still end the search: a cut restart resumes, it is not run again
    from its start (which would never end here), and the game is the uncut run's."""
    monkeypatch.setattr(Engine, "BUDGET", 10)  # the clock is read every 10 nodes
    geo = geometry(read(QUEENS / "planted_n24_k1_q70_s5.txt"))
    whole = maker(geo, 1, seed=2, first_limit=400).run(None)
    sliced = maker(geo, 1, seed=2, first_limit=400)
    sliced.at_once = True  # the compiled engine from the first node
    for _ in range(200_000):
        outcome = sliced.run(time.monotonic() + 0.0002)
        if outcome != (None, False):
            break
    assert outcome == whole and whole[0] is not None
    assert sliced.resumed > 0


@settings(max_examples=40, deadline=None, derandomize=True)
@given(positions())
def test_minimise_proves_the_exhaustive_minimum(instance):
    geo = geometry(instance)
    best = minimise(geo, bound_of(geo), None, 0, (lazy_restarts,), (forest_restarts,))
    assert best.proved and best.remaining == brute_minimum(instance)
    board, bad, _ = replay(instance, to_moves(geo, best.pairs or []))
    assert bad is None and len(board) == best.remaining


@settings(max_examples=40, deadline=None, derandomize=True)
@given(positions(), st.integers(0, 7), st.sampled_from([lazy_restarts, forest_restarts]))
def test_a_goal_is_reached_exactly_when_the_exhaustive_minimum_allows_it(instance, goal, maker):
    """Deciding "at most goal queens" (run_levels with slack): a game within the goal, or the goal proved
    unreachable, as the brute force says."""
    geo = geometry(instance)
    bound = bound_of(geo)
    best = minimise(geo, bound, None, 0, (maker,), goal=max(goal, bound))
    if brute_minimum(instance) <= max(goal, bound):
        board, bad, _ = replay(instance, to_moves(geo, best.pairs or []))
        assert bad is None and len(board) == best.remaining <= max(goal, bound)
    else:
        assert best.pairs is None and best.bound > max(goal, bound)


def test_the_ladder_of_targets_is_densest_at_the_bound():
    assert _ladder(2, 20) == [2, 3, 4, 6, 10, 18]
    assert (_ladder(5, 6), _ladder(5, 5)) == ([5], [])


def test_minimise_proves_an_unsolvable_positions_minimum():
    """`mipgames queens` says at least 8 queens always remain here; the minimisation proves the same alone."""
    geo = geometry(read(QUEENS / "unsolvable_n16_k1_q40_s2.txt"))
    best = minimise(geo, bound_of(geo), time.monotonic() + 60, 0, (lazy_restarts,), (forest_restarts,))
    assert (best.proved, best.remaining) == (True, 8)


def test_at_the_deadline_the_best_game_is_kept_with_the_bound_proved():
    path = QUEENS / "planted_n32_k1_q100_s6.txt"
    instance = read(path)
    geo = geometry(instance)
    first = [(geo.index[m[:2]], geo.index[m[2:]]) for _, m in read_moves(moves_path(path))[:10]]
    stopped = minimise(geo, bound_of(geo), time.monotonic() - 1, 0, (lazy_restarts,), incumbent=first)
    assert (stopped.pairs, stopped.remaining, stopped.bound) == (first, geo.size - 10, bound_of(geo))
    result = minimum_result(geo, stopped)
    assert (result.status, result.objective, result.bound) == ("feasible", geo.size - 10, bound_of(geo))
    assert "fewest found" in result.message
    # a goal ends it at the first better game: a 5 s deadline failed on a loaded machine
    improved = minimise(
        geo, bound_of(geo), time.monotonic() + 120, 0, (lazy_restarts,), incumbent=first, goal=geo.size - 11
    )
    assert improved.bound <= improved.remaining < geo.size - 10
    board, bad, _ = replay(instance, to_moves(geo, improved.pairs))
    assert bad is None and len(board) == improved.remaining
