"""The level search's parts against brute force: matching, the survivors bound, restarts, whole searches."""

import itertools
import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mipgames.queens.dfs import to_moves
from mipgames.queens.generate import planted
from mipgames.queens.geometry import geometry, initial_state, lower_bound, start_bound
from mipgames.queens.instance import Queens
from mipgames.queens.levels import ForestSearch, luby, search_forest
from mipgames.queens.matching import deficiency, max_matching
from mipgames.queens.simulate import evaluate
from tests.queens.test_models import brute_minimum, positions


def brute_matching(n: int, edges: list[tuple[int, int]]) -> int:
    """Largest set of pairwise disjoint edges, by trying every subset (the reference)."""
    for size in range(n // 2, 0, -1):
        for chosen in itertools.combinations(edges, size):
            if len({v for e in chosen for v in e}) == 2 * size:
                return size
    return 0


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.integers(1, 9), st.floats(0.1, 0.9), st.integers(0, 10**6))
def test_matching_is_maximum(n, density, seed):
    rng = random.Random(seed)
    edges = [(a, b) for a in range(n) for b in range(a + 1, n) if rng.random() < density]
    graph = [[] for _ in range(n)]
    for a, b in edges:
        graph[a].append(b)
        graph[b].append(a)
    mate = max_matching(graph)
    assert all(m == -1 or (mate[m] == v and m in graph[v]) for v, m in enumerate(mate))
    assert deficiency(graph) == n - 2 * brute_matching(n, edges)


def test_matching_needs_blossoms():
    # two triangles joined by an edge, plus a pendant: greedy from the wrong side leaves an odd cycle
    edges = [(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 5), (5, 3), (5, 6)]
    graph = [[] for _ in range(7)]
    for a, b in edges:
        graph[a].append(b)
        graph[b].append(a)
    assert deficiency(graph) == 1


def test_luby():
    assert [luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


@settings(max_examples=60, deadline=None, derandomize=True)
@given(positions())
def test_root_bound_never_exceeds_the_exhaustive_minimum_and_search_reaches_it(instance):
    """The survivors bound at the root is a lower bound, and the search with K = minimum succeeds, with K − 1 not."""
    minimum = brute_minimum(instance)
    geo = geometry(instance)
    search = ForestSearch(geo, minimum, None)
    assert search.survivors_bound(search.partner_graph(search.mask)) <= minimum
    pairs, exhausted = search_forest(geo, minimum, None, seed=3, first_limit=1)
    assert pairs is not None and exhausted
    verdict = evaluate(Queens(instance.n, minimum, instance.board), {}, to_moves(geo, pairs))
    assert verdict.legal and verdict.objective <= minimum
    if minimum > 1:
        assert search_forest(geo, minimum - 1, None, seed=3, first_limit=1) == (None, True)


@settings(max_examples=80, deadline=None, derandomize=True)
@given(st.integers(1, 12), st.floats(0.05, 1.0), st.integers(0, 3), st.integers(0, 10**6))
def test_the_start_bound_read_off_the_lines_is_the_geometrys(n, density, top, seed):
    """start_bound (O(queens), what the runner checks answers against) equals lower_bound over the geometry."""
    rng = random.Random(seed)
    cell = lambda: (1 << rng.randint(0, top)) if rng.random() < density else 0
    board = tuple(tuple(cell() for _ in range(n)) for _ in range(n))
    instance = Queens(n, 1, board)
    if not instance.queens:
        return
    geo = geometry(instance)
    assert start_bound(instance) == lower_bound(geo, initial_state(geo))


def test_the_start_bound_of_a_full_128_board_needs_no_geometry():
    """16,384 queens of power 1: one component of total 2^14 whose queens each see 2^8 and more: bound 1.
    (Its geometry would hold gigabytes of squares-between; the bound reads rows, columns and diagonals.)"""
    full = Queens(128, 1, tuple(tuple([1] * 128) for _ in range(128)))
    assert start_bound(full) == 1
    odd = Queens(128, 1, tuple(tuple([1] * 128) if r else tuple([0] + [1] * 127) for r in range(128)))
    assert start_bound(odd) == bin(128 * 128 - 1).count("1")  # 2^14 - 1 queens: popcount 14


def test_planted_positions_with_many_levels_are_solved_and_replay():
    for n, k, moves, seed in [(12, 1, 24, 0), (16, 2, 38, 1), (16, 1, 39, 5)]:
        instance = planted(n, k, moves, seed).instance
        geo = geometry(instance)
        pairs, _ = search_forest(geo, k, None, seed=0)
        assert pairs is not None
        verdict = evaluate(instance, {}, to_moves(geo, pairs))
        assert verdict.legal and verdict.objective <= k


def dive_both(instance, k, jitter, alt, limit):
    """One dive of the level search in Python (the reference) and compiled: (outcome, nodes, moves) of each."""
    from mipgames.queens.levels import ForestSearch, Restart
    from mipgames.queens.levels_kernel import Compiled

    geo = geometry(instance)
    search = ForestSearch(geo, k, None)
    search.jitter, search.alt, search.limit = list(jitter), alt, limit
    try:
        outcome = "found" if search.solve() else "exhausted"
    except Restart:
        outcome = "restart"
    compiled = Compiled(geo, k)
    got = compiled.dive(list(jitter), alt, limit or 0, None)
    return (
        (outcome, search.nodes, search.moves() if outcome == "found" else None),
        (got, compiled.nodes, compiled.moves() if got == "found" else None),
    )


@settings(max_examples=80, deadline=None, derandomize=True)
@given(positions(), st.integers(0, 10**6), st.booleans(), st.sampled_from([None, 5, 50]))
@example(Queens(3, 1, ((1, 4, 1), (0, 0, 0), (0, 0, 0))), 0, False, None)  # K = 3: a dead position cut all the same
def test_compiled_level_search_makes_the_reference_nodes(instance, seed, alt, limit):
    jitter = list(range(len(instance.queens)))
    random.Random(seed).shuffle(jitter)
    for k in range(1, 4):
        python, compiled = dive_both(instance, k, jitter, alt, limit)
        assert python == compiled


@pytest.mark.parametrize("n, k, moves, seed", [(8, 2, 20, 1), (12, 1, 24, 0), (16, 1, 39, 5), (16, 3, 45, 2)])
def test_compiled_level_search_on_planted_positions(n, k, moves, seed):
    instance = planted(n, k, moves, seed).instance
    jitter = list(range(len(instance.queens)))
    random.Random(seed).shuffle(jitter)
    for alt in (False, True):
        python, compiled = dive_both(instance, k, jitter, alt, 3000)
        assert python == compiled
        if compiled[0] == "found":
            geo = geometry(instance)
            assert evaluate(instance, {}, to_moves(geo, compiled[2])).legal
