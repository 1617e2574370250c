"""Model variants kept for benchmarking: every MILP link and scan order is a correct model, and
decision models carry the CP-SAT search they were measured with."""

from dataclasses import replace
from functools import partial

import pytest

from mipgames.core.problem import Formulation, SolveOptions
from mipgames.edge_matching import cpsat, mip
from mipgames.edge_matching.decode import decode
from mipgames.edge_matching.generate import planted
from mipgames.edge_matching.instance import Instance
from mipgames.edge_matching.problem import PROBLEM
from mipgames.run.runner import solve

from .helpers import exhaustive_optimum, score

SMALL = [
    planted(3, 3, True, 1, 2, seed=5)[0],
    Instance(2, 2, ((1, 2, 1, 2), (2, 2, 1, 1), (1, 1, 1, 2), (2, 1, 2, 2))),
    Instance(
        2,
        3,
        (
            (1, 2, 3, 1),
            (3, 3, 1, 2),
            (2, 1, 1, 3),
            (1, 1, 2, 2),
            (3, 2, 1, 1),
            (2, 3, 3, 1),
        ),
    ),
]


@pytest.mark.parametrize("link", mip.LINKS)
@pytest.mark.parametrize("sides", [False, True])
def test_every_milp_link_finds_the_optimum(link, sides):
    form = Formulation("v", "mip", partial(mip.build_typed, link=link, sides=sides), decode)
    problem = replace(PROBLEM, formulations={"v": form})
    for inst in SMALL:
        r = solve(
            problem,
            inst,
            solver="cpsat",
            formulation="v",
            options=SolveOptions(time_limit=30),
            isolate=False,
        )
        assert r.status == "optimal", r.message
        assert r.objective == exhaustive_optimum(inst) == score(inst, r.solution)


@pytest.mark.parametrize("order", ["rim", "rows", "spiral"])
def test_scan_orders_visit_every_cell_once(order):
    for rows, cols in ((1, 1), (2, 5), (4, 4), (5, 3)):
        inst = planted(rows, cols, rows > 1 and cols > 1, 1, 2, seed=1)[0]
        assert sorted(cpsat._scan_order(inst, order)) == list(range(rows * cols))


def test_decision_model_carries_fixed_search_on_every_thread():
    inst, _ = planted(4, 4, True, 2, 2, seed=3)
    one = cpsat.build(inst, {"mode": "decision"}, SolveOptions(threads=1)).cpsat_parameters
    two = cpsat.build(inst, {"mode": "decision"}, SolveOptions(threads=2)).cpsat_parameters
    assert one["linearization_level"] == 0 and "num_full_subsolvers" not in one
    assert two["num_full_subsolvers"] == 2 and len(two["subsolvers"]) == 2
    assert cpsat.build(inst, {"mode": "optimise"}, SolveOptions()).cpsat_parameters is None
    for threads in (1, 2):
        r = solve(
            PROBLEM,
            inst,
            solver="cpsat",
            formulation="cpsat",
            params={"mode": "decision"},
            options=SolveOptions(threads=threads, time_limit=30),
            isolate=False,
        )
        assert r.status == "optimal" and score(inst, r.solution) == 0
