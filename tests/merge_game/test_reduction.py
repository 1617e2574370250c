"""The thesis's reduction: planar drawings, the map it builds, and the toolkit's answer against an
independent vertex cover."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mipgames.core.errors import InputError
from mipgames.core.problem import SolveOptions
from mipgames.merge_game import reduction
from mipgames.merge_game.generate import reduction_map
from mipgames.merge_game.graphs import graph_path, odd_cycle, random_drawing, read_graph
from mipgames.merge_game.instance import read, rules, write
from mipgames.merge_game.problem import PROBLEM
from mipgames.merge_game.simple import reduce
from mipgames.merge_game.simulate import hits
from mipgames.run.runner import solve

OPTS = SolveOptions(threads=1, time_limit=60)


def brute_vertex_cover(n, edges):
    """Smallest vertex set touching every edge, by trying sets in order of size (the reference)."""
    for size in range(n + 1):
        for chosen in itertools.combinations(range(n), size):
            s = set(chosen)
            if all(u in s or v in s for u, v in edges):
                return size
    raise AssertionError


def independent_set_cover(n, edges):
    """tau = n - alpha, alpha by a CP-SAT maximum independent set model (a different model from the toolkit's)."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    x = [model.new_bool_var("") for _ in range(n)]
    for u, v in edges:
        model.add_at_most_one([x[u], x[v]])
    model.maximize(sum(x))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = 60
    assert solver.solve(model) == cp_model.OPTIMAL
    return n - round(solver.objective_value)


def answer(inst, solver="cpsat", formulation=None):
    r = solve(PROBLEM, inst, solver=solver, formulation=formulation, options=OPTS, isolate=False)
    assert r.status in ("optimal", "infeasible"), (solver, formulation, r.status, r.message)
    if r.status == "optimal":
        assert r.objective == len(inst.stones) and r.verdict.legal
    return r.status == "optimal"


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.integers(3, 40), st.integers(0, 10**6), st.sampled_from([1.0, 1.4, 1.5]))
def test_drawings_are_planar_orthogonal_degree_three_with_odd_cycles(n, seed, factor):
    d = random_drawing(n, seed, factor)
    assert odd_cycle(d.n, d.edges)
    degree = [0] * d.n
    seen = set(d.points)
    for (u, v), route in zip(d.edges, d.routes):
        degree[u] += 1
        degree[v] += 1
        assert route[0] == d.points[u] and route[-1] == d.points[v]
        assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in itertools.pairwise(route))
        assert not seen & set(route[1:-1]), "drawings may meet only at their ends"
        seen |= set(route[1:-1])
    assert max(degree) <= 3 and len(set(map(frozenset, d.edges))) == len(d.edges)


@pytest.mark.parametrize("n, seed", [(5, 1), (8, 2), (12, 3)])
def test_stones_are_the_edges_of_the_subdivided_graph(n, seed):
    d = random_drawing(n, seed)
    inst = reduction.build(d, n, "t", {})
    h = hits(inst, rules(inst, {}))
    assert all(len(hitters) == 2 for hitters in h.stone_heroes)
    vertex = {(hero.x, hero.y): i for i, hero in enumerate(inst.heroes)}
    ends = [vertex[tuple(p)] for p in inst.meta["graph"]["vertices"]]
    # from each vertex hero, every neighbour starts a chain of inner heroes of degree 2 that ends on a vertex hero
    graph = {i: set() for i in range(len(inst.heroes))}
    for a, b in h.stone_heroes:
        graph[a].add(b)
        graph[b].add(a)
    end_of = {hero: v for v, hero in enumerate(ends)}
    found = []
    for s in ends:
        for x in graph[s]:
            walk = [s, x]
            while walk[-1] not in end_of:
                nxt = [y for y in graph[walk[-1]] if y != walk[-2]]
                assert len(nxt) == 1
                walk.append(nxt[0])
            found.append((end_of[s], end_of[walk[-1]], len(walk) - 2))
    expected = [(u, v, 2 * length) for u, v, length in inst.meta["graph"]["edges"]]
    assert sorted(found) == sorted(expected + [(v, u, k) for u, v, k in expected])


@pytest.mark.parametrize("n, seed", [(4, 1), (7, 2), (9, 3), (12, 4), (14, 5)])
def test_minimum_hero_count_is_vertex_cover_plus_l_brute_force(n, seed):
    """k = tau: every stone falls; k = tau - 1: not.  So the toolkit's minimum is tau + L (+ pendants)."""
    d = random_drawing(n, seed)
    tau = brute_vertex_cover(d.n, d.edges)
    yes = reduction.build(d, tau, "yes", {})
    no = reduction.build(d, tau - 1, "no", {})
    assert (
        yes.meta["L"] == no.meta["L"]
        and yes.meta["min_heroes_if_cover_k"] == tau + yes.meta["L"] + yes.meta["pendants"]
    )
    for solver, formulation in (("cpsat", None), ("cbc", "set-cover"), ("highs", None)):
        assert answer(yes, solver, formulation) and not answer(no, solver, formulation)


def test_minimum_hero_count_on_a_large_graph_against_an_independent_model():
    inst = reduction_map(250, seed=7)
    n, edges = len(inst.meta["graph"]["vertices"]), [(u, v) for u, v, _ in inst.meta["graph"]["edges"]]
    tau = independent_set_cover(n, edges)
    assert inst.meta["vertex_cover"] == tau and inst.optimum == len(inst.stones)
    assert answer(inst, "cpsat") and answer(inst, "highs")
    no = reduction_map(250, seed=7, answer="no")
    assert no.meta["k"] == tau - 1 and not answer(no, "cpsat") and not answer(no, "cbc")


def test_kernel_unfolds_to_a_cover_of_every_stone():
    inst = reduction_map(60, seed=3)
    kernel = reduce(inst, {})
    assert kernel.budget >= 0 and not kernel.uncoverable
    tau_kernel = (
        brute_vertex_cover(
            len(kernel.vertices), [(kernel.vertices.index(a), kernel.vertices.index(b)) for a, b in kernel.edges]
        )
        if len(kernel.vertices) <= 14
        else None
    )
    if tau_kernel is not None:
        assert tau_kernel == kernel.budget  # the budget is exactly tau: the map is a tight yes


def test_graph_is_written_beside_the_map_and_reads_back(tmp_path):
    inst = reduction_map(20, seed=4, answer="no")
    write(inst, tmp_path / "r.txt")
    n, edges = read_graph(graph_path(tmp_path / "r.txt"))
    assert n == 20 and edges == [(u, v) for u, v, _ in inst.meta["graph"]["edges"]]
    assert brute_vertex_cover(n, edges) == inst.meta["vertex_cover"] == inst.meta["k"] + 1
    back = read(tmp_path / "r.txt")
    assert back.heroes == inst.heroes and back.stones == inst.stones and back.destroy_all
    (tmp_path / "bad.graph").write_text("p edge 3 1\ne 1 4\n")
    with pytest.raises(InputError, match="between 1 and 3"):
        read_graph(tmp_path / "bad.graph")
