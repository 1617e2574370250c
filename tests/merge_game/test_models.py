"""The compact models against the exhaustive search, every answer replayed by the simulator."""

from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mipgames.core.problem import SolveOptions
from mipgames.merge_game import decode
from mipgames.merge_game.decode import sequence_from_merges
from mipgames.merge_game.generate import random_map
from mipgames.merge_game.instance import Hero, Instance, Stone
from mipgames.merge_game.problem import PROBLEM
from mipgames.merge_game.simulate import evaluate, replay, rules
from mipgames.run.runner import solve

OPTS = SolveOptions(threads=1, time_limit=20)
ATTACKS = ("cross", "up", "vertical", "up3", "right3", "1,1;-1,-1;0,2")


def run(inst, solver, params, formulation=None):
    return solve(PROBLEM, inst, solver=solver, formulation=formulation, params=params, options=OPTS, isolate=False)


@st.composite
def small_games(draw):
    width, height = draw(st.integers(2, 5)), draw(st.integers(2, 5))
    heroes = draw(st.integers(1, min(8, width * height - 1)))
    stones = draw(st.integers(1, min(6, width * height - heroes)))
    inst = random_map(
        width,
        height,
        heroes,
        stones,
        types=draw(st.integers(1, 3)),
        hp=(1, draw(st.integers(1, 4))),
        seed=draw(st.integers(0, 10**6)),
    )
    params = {"attack": draw(st.sampled_from(ATTACKS)), "max_level": draw(st.sampled_from([None, 2, 3]))}
    return inst, params


@settings(max_examples=40, deadline=None, derandomize=True)
@given(small_games())
def test_milp_cpsat_and_exhaustive_agree(game):
    inst, params = game
    results = [run(inst, "cbc", params), run(inst, "cpsat", params), run(inst, "exhaustive", params)]
    for r in results:
        assert r.status == "optimal", (r.solver, r.message)
        # the runner replays the decoded sequence; check it once more here
        assert evaluate(inst, r.params, r.solution).objective == r.objective
    assert len({r.objective for r in results}) == 1, [(r.solver, r.objective) for r in results]


@settings(max_examples=15, deadline=None, derandomize=True)
@given(small_games(), st.integers(0, 6))
@example(  # a SIMPLE map: the vertex-cover kernel answered "destroy every stone" to a target of one more
    (Instance(2, 2, (Hero(1, 2, 1), Hero(2, 2, 1)), (Stone(1, 1, 1),)), {"attack": "cross", "max_level": None}), 2
)
def test_decision_version_never_says_a_wrong_yes(game, target):
    inst, params = game
    best = run(inst, "exhaustive", params).objective
    params = dict(params, target=target)
    for solver in ("cbc", "cpsat", "exhaustive"):
        r = run(inst, solver, params)
        if target <= best:
            assert r.status == "optimal" and r.objective == best and r.verdict.legal
        else:
            assert r.status == "infeasible" and r.solution is None


@pytest.mark.parametrize("solver", ["cbc", "glpk", "highs", "cpsat", "scip", *PROBLEM.algorithms])
def test_a_target_beyond_the_stones_is_infeasible_for_every_solver(solver):
    """The DESTROY-ALL searches (the vertex-cover kernel, greedy, dp) read target >= stones as "destroy every
    stone"; a target above the stone count has to be a no, not that answer refused by the simulator."""
    inst = PROBLEM.read(Path(__file__).resolve().parents[2] / "instances" / "merge_game" / "up3-dp.txt")
    r = run(inst, solver, {"target": len(inst.stones) + 1})
    assert r.status == "infeasible" and r.solution is None, r.message


@pytest.mark.parametrize("nearest_up_to", [decode.NEAREST_UP_TO, 0])
@settings(max_examples=60, deadline=None, derandomize=True)
@given(d=st.lists(st.integers(0, 3), min_size=1, max_size=16), seed=st.integers(0, 10**6))
def test_decoder_realises_every_realisable_merge_vector(nearest_up_to, d, seed):
    """Constructive half of the realisability fact: N_j >= 2 N_j+1 gives a legal sequence with exactly these d,
    whether donors are taken nearest first or paired along the curve (the large maps' way: 0 forces it)."""
    import random

    n = len(d)
    count = [sum(1 for v in d if v >= j) for j in range(5)]
    cells = random.Random(seed).sample([(x, y) for x in range(1, 7) for y in range(1, 7)], n)
    inst = Instance(6, 6, tuple(Hero(x, y, 1) for x, y in cells), ())
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(decode, "NEAREST_UP_TO", nearest_up_to)
        result = replay(inst, rules(inst, {}), sequence_from_merges(inst, d))
    if all(count[j] >= 2 * count[j + 1] for j in range(4)):
        assert [lvl - 1 for lvl in result.levels] == d
    else:
        assert [lvl - 1 for lvl in result.levels] != d


def test_level_cap_and_types_matter():
    # Four heroes of type 1 under a hp-2 stone need one to reach level 3; type 2 heroes cannot help.
    heroes = (Hero(1, 1, 1), Hero(2, 1, 1), Hero(3, 1, 1), Hero(4, 1, 1), Hero(5, 1, 2), Hero(5, 2, 2))
    inst = Instance(5, 3, heroes, (Stone(2, 2, 2), Stone(5, 3, 1)), attack="up")
    assert {run(inst, s, {}).objective for s in ("cbc", "cpsat", "exhaustive")} == {2}
    capped = {"max_level": 2}
    assert {run(inst, s, capped).objective for s in ("cbc", "cpsat", "exhaustive")} == {1}
    assert run(inst, "highs", {"destroy_all": True}).status == "optimal"
    assert run(inst, "glpk", dict(capped, destroy_all=True)).status == "infeasible"


def test_bundled_instances_reach_their_optimum():
    from pathlib import Path

    from mipgames.merge_game.instance import read

    folder = Path(__file__).resolve().parents[2] / "instances" / "merge_game"
    files = sorted(p for p in folder.iterdir() if p.suffix in (".txt", ".json"))
    assert len(files) >= 10
    for path in files:
        inst = read(path)
        r = run(inst, "highs", {})
        if inst.optimum is None:
            assert r.status == "infeasible" and path.stem.endswith("-no"), path
        else:
            assert r.status == "optimal" and r.objective == inst.optimum, path
        if len(inst.heroes) <= 8:
            assert run(inst, "exhaustive", {}).objective == inst.optimum, path
