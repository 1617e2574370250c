"""The lazy level search against brute force and the eager level search; its kernel against its reference."""

import random
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mipgames.queens.dfs import to_moves
from mipgames.queens.generate import planted
from mipgames.queens.geometry import geometry
from mipgames.queens.instance import Queens, read
from mipgames.queens.lazy import FREE, STAYS, LazySearch, search_lazy
from mipgames.queens.levels import Restart, search_forest
from mipgames.queens.simulate import evaluate, replay
from tests.queens.test_models import brute_minimum, positions


@settings(max_examples=60, deadline=None, derandomize=True)
@given(positions())
def test_lazy_search_reaches_the_exhaustive_minimum_and_proves_one_less_unreachable(instance):
    """Complete: with K = minimum it finds a game that replays; with K − 1 it exhausts without one."""
    minimum = brute_minimum(instance)
    geo = geometry(instance)
    search = LazySearch(geo, minimum, None)
    assert search.survivors_bound(search.token_graph()) <= minimum
    for compiled in (False, True):
        pairs, exhausted = search_lazy(geo, minimum, None, seed=3, first_limit=1, compiled=compiled)
        assert pairs is not None and exhausted
        verdict = evaluate(Queens(instance.n, minimum, instance.board), {}, to_moves(geo, pairs))
        assert verdict.legal and verdict.objective <= minimum
        if minimum > 1:
            assert search_lazy(geo, minimum - 1, None, seed=3, first_limit=1, compiled=compiled) == (None, True)


def dive_both(instance, k, jitter, limit, fixed=None, run=1):
    """One dive (restart ``run``: the odd ones jump) of the lazy search in Python (the reference) and compiled:
    (outcome, nodes, moves) of each."""
    from mipgames.queens.lazy_kernel import CompiledLazy

    geo = geometry(instance)
    search = LazySearch(geo, k, None, fixed)
    search.restart(list(jitter), run, limit)
    try:
        outcome = "found" if search.solve() else "exhausted"
    except Restart:
        outcome = "restart"
    compiled = CompiledLazy(geo, k, fixed, check=True)
    got = compiled.restart(list(jitter), run, limit or 0, None)
    return (
        (outcome, search.nodes, search.moves() if outcome == "found" else None),
        (got, compiled.nodes, compiled.moves() if got == "found" else None),
    )


@settings(max_examples=80, deadline=None, derandomize=True)
@given(positions(), st.integers(0, 10**6), st.sampled_from([None, 5, 50]))
@example(Queens(3, 1, ((1, 4, 1), (0, 0, 0), (0, 0, 0))), 0, None)  # K = 3 queens: a dead position cut all the same
def test_compiled_lazy_search_makes_the_reference_nodes(instance, seed, limit):
    jitter = list(range(len(instance.queens)))
    random.Random(seed).shuffle(jitter)
    for k in range(1, 4):
        python, compiled = dive_both(instance, k, jitter, limit)
        assert python == compiled


@pytest.mark.parametrize("run", [1, 2])
@pytest.mark.parametrize("n, k, moves, seed", [(8, 2, 20, 1), (12, 1, 24, 0), (16, 1, 39, 5), (24, 2, 60, 3)])
def test_compiled_lazy_search_on_planted_positions(n, k, moves, seed, run):
    instance = planted(n, k, moves, seed).instance
    jitter = list(range(len(instance.queens)))
    random.Random(seed).shuffle(jitter)
    python, compiled = dive_both(instance, k, jitter, 3000, run=run)
    assert python == compiled
    assert compiled[0] == "found"
    assert evaluate(instance, {}, to_moves(geometry(instance), compiled[2])).legal


def test_a_dive_that_jumped_proves_nothing_and_the_restarts_still_prove():
    """On this unsolvable position a jumping dive (odd restart) skips subtrees and ends as a restart, never
    "exhausted"; the even restarts go back one frame at a time and exhaust the tree; reference and kernel agree
    node for node on both, and the restarts prove K unreachable."""
    from mipgames.queens.lazy_kernel import JUMPED, CompiledLazy

    instance = read(Path(__file__).resolve().parents[2] / "instances/queens/unsolvable_n12_k1_q20_s3.txt")
    jitter = list(range(len(instance.queens)))
    jumping, plain = dive_both(instance, 1, jitter, 3000, run=1), dive_both(instance, 1, jitter, 3000, run=2)
    assert jumping[0] == jumping[1] and jumping[0][0] == "restart" and jumping[0][1] < 3000
    assert plain[0] == plain[1] and plain[0][0] == "exhausted"
    engine = CompiledLazy(geometry(instance), 1)
    assert engine.restart(jitter, 1, 3000, None) == "restart" and engine.gst[JUMPED] == 1
    assert engine.restart(jitter, 1, 0, None) == "exhausted" and engine.gst[JUMPED] == 0  # no limit: no jumps
    for compiled in (False, True):
        assert search_lazy(geometry(instance), 1, None, seed=3, first_limit=100, compiled=compiled) == (None, True)


@pytest.mark.parametrize("n, moves, seed", [(32, 128, 1), (40, 148, 0)])
def test_compiled_lazy_search_makes_the_reference_nodes_beyond_one_word_of_squares(n, moves, seed):
    """130 and 150 queens: the kernel's rows of bits (lines of sight, squares by level) span several 64-bit
    words, and the dive must still make the reference's nodes."""
    instance = planted(n, 2, moves, seed).instance
    assert len(instance.queens) > 128
    jitter = list(range(len(instance.queens)))
    random.Random(seed).shuffle(jitter)
    python, compiled = dive_both(instance, 2, jitter, 600)
    assert python == compiled
    assert compiled[1] > 100


@pytest.mark.parametrize("entries, words", [(0, 0), (3, 8), (40, 400)])
def test_the_kept_token_graph_falls_back_to_rebuilding_when_its_log_is_full(entries, words):
    """A log too small for a node's update (none at all, a few lists, some nodes' worth) makes the kernel rebuild
    the graph there and again after backtracking past it: still the reference's nodes, and the kept graph equal
    to a rebuilt one at every node."""
    import numpy as np

    from mipgames.queens.lazy_kernel import CompiledLazy

    instance = planted(24, 2, 60, 3).instance
    geo = geometry(instance)
    jitter = list(range(geo.size))
    random.Random(3).shuffle(jitter)
    search = LazySearch(geo, 2, None)
    search.jitter, search.limit = list(jitter), 3000
    assert search.solve()
    compiled = CompiledLazy(geo, 2, check=True)
    compiled.glog = np.zeros((5, entries), np.int64)
    compiled.gbuf = np.zeros(words, np.int64)
    assert compiled.dive(list(jitter), 3000, None) == "found"
    assert (compiled.nodes, compiled.moves()) == (search.nodes, search.moves())


@pytest.mark.parametrize("n, k, moves, seed", [(12, 1, 24, 0), (16, 1, 39, 5), (24, 2, 60, 3)])
def test_the_reach_of_a_dive_is_how_far_it_got(n, k, moves, seed):
    """A dive that finds a game made one frame per queen (each pairs once or survives) and entered the level of
    its highest survivor; a dive cut after a few nodes is still at the bottom, and the next dive starts afresh."""
    from mipgames.queens.lazy_kernel import CompiledLazy

    geo = geometry(planted(n, k, moves, seed).instance)
    engine = CompiledLazy(geo, k)
    jitter = list(range(geo.size))
    random.Random(seed).shuffle(jitter)
    assert engine.dive(jitter, 6, None) == "restart"
    deepest, highest = engine.reach()
    assert deepest <= 5 and highest == min(geo.exps)
    assert engine.dive(jitter, 3000, None) == "found"
    level, root = engine.st[0], engine.st[1]
    assert engine.reach() == (geo.size, max(level[root != 0]))
    if k == 1:
        assert 1 << engine.reach()[1] == sum(1 << e for e in geo.exps)
    assert engine.dive(jitter, 6, None) == "restart" and engine.reach() == (deepest, highest)


def test_the_compiled_lazy_search_refuses_tie_breaks_that_are_not_a_permutation():
    from mipgames.queens.lazy_kernel import CompiledLazy

    geo = geometry(planted(8, 2, 20, 1).instance)
    with pytest.raises(ValueError, match="permutation"):
        CompiledLazy(geo, 2).dive([0] * geo.size, 100, None)


def kept(instance, moves, share: float, rng: random.Random) -> list[int]:
    """``fixed`` for LazySearch: a random share of the squares keep their move in ``moves`` (or stay)."""
    geo = geometry(instance)
    into = {geo.index[m[:2]]: geo.index[m[2:]] for m in moves}
    return [into.get(i, STAYS) if rng.random() < share else FREE for i in range(geo.size)]


@settings(max_examples=60, deadline=None, derandomize=True)
@given(positions(), st.integers(0, 10**6), st.sampled_from([0.3, 0.7, 1.0]))
def test_a_kept_part_of_a_game_is_kept_and_the_kernel_makes_the_reference_nodes(instance, seed, share):
    """Squares fixed from a game of K queens (each moves where it moved, or stays) do so in any game found, a
    game exists (the one they came from), and the compiled search makes the reference's nodes."""
    geo = geometry(instance)
    minimum = brute_minimum(instance)
    pairs, _ = search_lazy(geo, minimum, None, seed=seed % 7, first_limit=1, compiled=False)
    rng = random.Random(seed)
    fixed = kept(instance, to_moves(geo, pairs), share, rng)
    jitter = list(range(geo.size))
    rng.shuffle(jitter)
    python, compiled = dive_both(instance, minimum, jitter, None, fixed)
    assert python == compiled and python[0] == "found"
    board, bad, _ = replay(instance, to_moves(geo, python[2]))
    assert bad is None and len(board) <= minimum
    into = dict(python[2])
    for i, f in enumerate(fixed):
        assert f == FREE or into.get(i, STAYS) == f


@pytest.mark.parametrize(
    "name",
    ["unsolvable_n8_k1_q20_s1", "unsolvable_n12_k1_q20_s3", "unsolvable_n16_k1_q40_s1", "planted_n32_k3_q100_s7"],
)
def test_same_verdicts_as_the_eager_level_search(name):
    """Both searches are complete, so on the bundled positions they agree on solvable or not."""
    instance = read(f"instances/queens/{name}.txt")
    geo = geometry(instance)
    eager, eager_done = search_forest(geo, instance.k, None, seed=1)
    lazy, lazy_done = search_lazy(geo, instance.k, None, seed=1)
    assert eager_done and lazy_done
    assert (eager is None) == (lazy is None) == name.startswith("unsolvable")
    if lazy is not None:
        assert evaluate(instance, {}, to_moves(geo, lazy)).legal
