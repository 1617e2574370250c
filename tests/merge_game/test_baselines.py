"""The thesis's algorithms against the MILP; generators with known answers; refusals; rendering."""

from pathlib import Path

import pulp
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mipgames.core.errors import UsageError
from mipgames.core.problem import SolveOptions
from mipgames.merge_game.baselines import destroy_all_dp, greedy_cover
from mipgames.merge_game.exhaustive import (
    _exhaustive_one_hp,
    _exhaustive_states,
    run_exhaustive,
)
from mipgames.merge_game.generate import random_map
from mipgames.merge_game.instance import rules
from mipgames.merge_game.problem import PROBLEM
from mipgames.merge_game.simulate import hits
from mipgames.run.runner import solve

OPTS = SolveOptions(threads=1, time_limit=20)
PRESETS = ("up", "vertical", "up3", "right3")


def run(inst, solver, params, formulation=None):
    return solve(PROBLEM, inst, solver=solver, formulation=formulation, params=params, options=OPTS, isolate=False)


def min_cover_milp(inst, params):
    """Fewest heroes hitting every stone, by a plain set-cover MILP (no floor(h/2) cap)."""
    h = hits(inst, rules(inst, params))
    if any(not hs for hs in h.stone_heroes):
        return None
    model = pulp.LpProblem("cover", pulp.LpMinimize)
    z = [pulp.LpVariable(f"z{i}", cat=pulp.LpBinary) for i in range(len(inst.heroes))]
    for hs in h.stone_heroes:
        model += pulp.lpSum(z[i] for i in hs) >= 1
    model += pulp.lpSum(z)
    model.solve(pulp.PULP_CBC_CMD(msg=False))
    return round(pulp.value(model.objective))


@st.composite
def simple_games(draw):
    width, height = draw(st.integers(2, 9)), draw(st.integers(2, 9))
    heroes = draw(st.integers(1, width * height // 2))
    stones = draw(st.integers(1, width * height - heroes))
    return random_map(width, height, heroes, stones, seed=draw(st.integers(0, 10**6)))


@pytest.mark.parametrize("attack", PRESETS)
@settings(max_examples=25, deadline=None, derandomize=True)
@given(inst=simple_games())
def test_greedy_is_the_minimum_cover(attack, inst):
    params = {"attack": attack, "destroy_all": True}
    chosen = greedy_cover(inst, params)
    best = min_cover_milp(inst, params)
    assert (None if chosen is None else len(chosen)) == best
    greedy = run(inst, "greedy", params)
    milp = run(inst, "cbc", params, "set-cover")
    compact = run(inst, "highs", params)  # compact: the vertex-cover kernel on up/vertical
    assert greedy.status == milp.status == compact.status
    assert greedy.status == ("optimal" if best is not None and best <= len(inst.heroes) // 2 else "infeasible")


@st.composite
def dp_games(draw):
    width, height = draw(st.integers(2, 6)), draw(st.integers(2, 5))
    heroes = draw(st.integers(2, min(10, width * height - 1)))
    stones = draw(st.integers(1, min(5, width * height - heroes)))
    inst = random_map(width, height, heroes, stones, hp=(1, draw(st.integers(1, 4))), seed=draw(st.integers(0, 10**6)))
    return inst, {
        "attack": draw(st.sampled_from(("up3", "right3"))),
        "destroy_all": True,
        "max_level": draw(st.sampled_from([2, 3, 4, None])),
    }


@settings(max_examples=60, deadline=None, derandomize=True)
@given(dp_games())
def test_dp_matches_milp_on_destroy_all(game):
    inst, params = game
    dp, milp = run(inst, "dp", params), run(inst, "highs", params)
    assert dp.status == milp.status and dp.status in ("optimal", "infeasible")
    assert (destroy_all_dp(inst, params) is None) == (milp.status == "infeasible")


def test_dp_needs_fodder_to_merge_up():
    # One hero under a hp-2 stone must reach level 3: it needs 3 more heroes of its type, one of them at d=1.
    from mipgames.merge_game.instance import Hero, Instance, Stone

    inst = Instance(
        6,
        3,
        (Hero(1, 1, 1), Hero(3, 1, 1), Hero(5, 1, 1), Hero(6, 1, 1)),
        (Stone(1, 2, 2),),
        attack="up3",
        destroy_all=True,
    )
    assert run(inst, "dp", {}).status == "optimal"
    assert sorted(destroy_all_dp(inst, {})) == [0, 0, 1, 2]
    assert run(inst, "dp", {"max_level": 2}).status == "infeasible"


@settings(max_examples=30, deadline=None, derandomize=True)
@given(simple_games(), st.sampled_from(("cross", "up3")), st.integers(1, 3))
def test_one_hp_subset_search_agrees_with_state_search(inst, attack, types):
    inst = random_map(
        inst.width,
        inst.height,
        min(len(inst.heroes), 7),
        min(len(inst.stones), 6),
        types=types,
        seed=len(inst.heroes) * 31 + len(inst.stones),
    )
    rule = rules(inst, {"attack": attack})
    h = hits(inst, rule)
    a = _exhaustive_one_hp(inst, rule, h, float("inf"), lambda *_: None)
    b = _exhaustive_states(inst, rule, h, float("inf"), lambda *_: None)
    assert a[0] == b[0] and a[2] and b[2]


def test_exhaustive_time_limit_is_not_an_error():
    inst = random_map(8, 8, 40, 20, types=1, hp=(1, 3), seed=5)
    out = run_exhaustive(inst, {}, SolveOptions(time_limit=0.2), lambda *_: None)
    assert out.status == "feasible" and out.bound is not None and out.objective <= out.bound


def test_exhaustive_keeps_its_deadline_on_a_map_whose_every_state_is_expensive():
    """The clock was read when the count of states met a multiple of 512, which a 300-hero map (30,000 children a
    state, 9 s each) skipped: a 5 s limit ran on until the supervisor killed the search and its best game."""
    import time

    inst = PROBLEM.read(Path(__file__).resolve().parents[2] / "instances/merge_game/random-40x40.txt")
    start = time.monotonic()
    out = run_exhaustive(inst, {}, SolveOptions(time_limit=1.0), lambda *_: None)
    assert out.status == "feasible" and time.monotonic() - start < 2.0  # one hero's children past the limit


@pytest.mark.parametrize(
    "solver, params, words",
    [
        ("greedy", {"destroy_all": True}, "attack vectors"),
        ("greedy", {"attack": "up"}, "--destroy-all"),
        ("dp", {"destroy_all": True}, "up3 or right3"),
        ("dp", {"attack": "up3"}, "--destroy-all"),
    ],
)
def test_algorithms_refuse_clearly(solver, params, words):
    inst = random_map(5, 5, 6, 6, seed=1)
    with pytest.raises(UsageError, match=words):
        run(inst, solver, params)
    typed = random_map(5, 5, 6, 6, types=2, hp=(1, 2), seed=1)
    with pytest.raises(UsageError, match="one hero type|EQUAL-TYPE"):
        run(typed, solver, {"attack": "up3", "destroy_all": True})


def test_render_writes_png(tmp_path):
    inst = random_map(8, 6, 10, 8, types=3, hp=(1, 2), seed=2)
    r = run(inst, "cbc", {})
    out = tmp_path / "map.png"
    PROBLEM.render(inst, {}, r.solution, out)
    PROBLEM.render(inst, {}, None, tmp_path / "bare.png")
    assert out.read_bytes()[:4] == b"\x89PNG" and (tmp_path / "bare.png").stat().st_size > 1000
