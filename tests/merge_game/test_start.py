"""The compact models' start: a feasible point of both models that replays to what it claims."""

from hypothesis import given, settings
from hypothesis import strategies as st

from mipgames.core.problem import SolveOptions
from mipgames.merge_game import cpsat, mip
from mipgames.merge_game.decode import CompactHandles
from mipgames.merge_game.generate import random_map
from mipgames.merge_game.problem import PROBLEM
from mipgames.merge_game.simulate import evaluate
from mipgames.run.execute import _start_solution
from mipgames.run.runner import solve

ATTACKS = ("cross", "up3", "right3", "1,1;-1,-1;0,2")


@st.composite
def maps(draw):
    """Maps with several types and hp above 1, so the compact model (not SIMPLE's vertex cover) is built."""
    width, height = draw(st.integers(3, 9)), draw(st.integers(3, 9))
    heroes = draw(st.integers(2, min(30, width * height // 2)))
    stones = draw(st.integers(1, min(20, width * height - heroes)))
    inst = random_map(
        width, height, heroes, stones, types=draw(st.integers(1, 3)), hp=(1, 4), seed=draw(st.integers(0, 10**6))
    )
    return inst, {"attack": draw(st.sampled_from(ATTACKS)), "max_level": draw(st.sampled_from([None, 2, 3]))}


@settings(max_examples=40, deadline=None, derandomize=True)
@given(maps())
def test_the_start_satisfies_both_models_and_replays_to_its_value(game):
    """Every row of the PuLP model holds at the start, CP-SAT finds the model feasible with every hinted variable
    fixed to its hint, and the decoded merge sequence destroys exactly the stones the start says, no more than
    the proved optimum."""
    from ortools.sat.python import cp_model

    inst, params = game
    params = {**PROBLEM.default_params(), **params}
    options = SolveOptions(threads=1, time_limit=20)
    built = mip.build_compact(inst, params, options)
    if not isinstance(built.handles, CompactHandles):  # a SIMPLE map: the vertex-cover kernel has no start
        assert mip.start_solution(inst, params) is None
        return
    for var in built.model.variables():  # a variable the start leaves out is 0, as the runner reads it
        var.varValue = built.hint.get(var, 0.0)
    broken = [name for name, row in built.model.constraints.items() if not row.valid(1e-9)]
    assert not broken, broken[:5]

    model_cp = cpsat.build_compact(inst, params, options)
    for var, value in model_cp.hint.items():
        model_cp.model.add(var == int(value))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    assert solver.solve(model_cp.model) in (cp_model.OPTIMAL, cp_model.FEASIBLE)

    form = PROBLEM.formulations["compact"]
    value, solution_json = _start_solution(PROBLEM, inst, params, built, form)
    assert value == built.stats["start"] == model_cp.stats["start"]
    assert evaluate(inst, params, PROBLEM.solution_from_json(inst, solution_json)).objective == value
    early = mip.start_solution(inst, params)  # what the runner answers with when the build is cut
    assert early == PROBLEM.solution_from_json(inst, solution_json)
    best = solve(PROBLEM, inst, solver="cpsat", params=params, options=options, isolate=False)
    assert best.status == "optimal" and value <= best.objective


def test_a_large_map_starts_from_a_good_answer():
    """On a 60x60 map with 3 types and hp 1-4 (720 heroes) the greedy start destroys at least 90 % of what CP-SAT
    proves optimal: a start that destroyed nothing would also pass the test above."""
    inst = random_map(60, 60, 720, 720, types=3, hp=(1, 4), seed=3)
    params = PROBLEM.default_params()
    options = SolveOptions(threads=2, time_limit=60)
    start = cpsat.build_compact(inst, params, options).stats["start"]
    best = solve(PROBLEM, inst, solver="cpsat", params=params, options=options, isolate=False)
    assert best.status == "optimal", best.message
    assert 0.9 * best.objective <= start <= best.objective, (start, best.objective)


@settings(max_examples=15, deadline=None, derandomize=True)
@given(maps(), st.integers(0, 3))
def test_lns_deals_each_type_s_merges_anew_and_keeps_the_damage_true(game, seed):
    """A window's re-deal keeps every type's multiset of merge counts (so the counts stay realisable) and the
    damage it keeps incrementally equals the damage recomputed from the counts; it never loses a stone."""
    import random

    from mipgames.merge_game.lns import _State, windows

    inst, params = game
    params = {**PROBLEM.default_params(), **params}
    state = _State(inst, params)

    def per_type():
        return sorted((inst.heroes[i].type, v) for i, v in enumerate(state.d))

    def destroyed():
        return sum(1 for k, hp in enumerate(state.hp) if state.reach[k] and state.damage[k] >= hp)

    before, value = per_type(), destroyed()
    assert value == state.start
    for heroes in windows(inst, 12, seed % 2 == 1, random.Random(seed)) + [list(range(len(inst.heroes)))]:
        gain = state.redeal(heroes, 0.2, seed)
        assert gain >= 0
        value += gain
        assert per_type() == before
        damage = [0] * len(state.hp)
        for i, v in enumerate(state.d):
            for k in state.stones_of[i]:
                damage[k] += v
        assert damage == state.damage and destroyed() == value


def test_lns_improves_on_its_start_the_same_way_every_run():
    """On a 30x30 map (160 heroes) the search ends above its greedy start, at most the proved optimum, and two
    runs with the same seed and no clock give the same game.  (Each run took 15 s here, its windows of up to
    960 heroes each given CP-SAT time for 960; now in proportion to the heroes they hold: 3 s.)"""
    inst = random_map(30, 30, 160, 160, types=3, hp=(1, 4), seed=3)
    options = SolveOptions(threads=1, time_limit=None, seed=1)
    runs = [solve(PROBLEM, inst, solver="lns", options=options, isolate=False) for _ in range(2)]
    start = cpsat.build_compact(inst, PROBLEM.default_params(), options).stats["start"]
    best = solve(PROBLEM, inst, solver="cpsat", options=SolveOptions(threads=2, time_limit=60), isolate=False)
    assert best.status == "optimal"
    assert runs[0].status == "feasible" and start < runs[0].objective <= best.objective, (start, runs[0].objective)
    assert runs[0].solution_json == runs[1].solution_json


def test_the_default_is_lns_above_its_size_and_says_so():
    """Above ``LNS_ABOVE`` heroes the models do not improve on their start within a minute, so a solve with no
    --solver runs lns and its note says why; below, and with a formulation named, the default stays cpsat."""
    from mipgames.merge_game.problem import LNS_ABOVE
    from mipgames.run.plan import plan

    params = PROBLEM.default_params()
    big = random_map(300, 300, LNS_ABOVE + 1, 2000, types=3, hp=(1, 4), seed=1)
    small = random_map(100, 100, 2000, 2000, types=3, hp=(1, 4), seed=1)
    chosen = plan(PROBLEM, None, None, big, params)
    assert (chosen.solver, chosen.kind) == ("lns", "algorithm") and f"{LNS_ABOVE + 1:,}" in chosen.why
    assert plan(PROBLEM, None, None, small, params).solver == "cpsat"
    assert plan(PROBLEM, None, "compact", big, params).solver == "cpsat"
    assert plan(PROBLEM, "highs", None, big, params).solver == "highs"
    result = solve(PROBLEM, big, options=SolveOptions(threads=1, time_limit=5), isolate=True)
    assert result.solver == "lns" and result.status in ("feasible", "optimal") and result.verified
    assert "lns is the default above" in result.message


def test_the_bound_counts_the_stones_in_reach_and_old_certificates_still_verify():
    """A stone whose attackers cannot deliver its hp is never destroyed, so the own bound counts the stones in
    reach (a 500x500 map: 29,336 of 50,000, where the start destroys all of them and is then optimal).  A
    certificate of 0.2.0 credits the old bound, the map's stone count, by its old name: still true, still OK."""
    import copy

    from mipgames.core import certificate
    from mipgames.merge_game.instance import Hero, Instance, Stone
    from mipgames.merge_game.problem import OLD_BOUND

    # two heroes of one type: one merge, one hit; the stone of hp 2 beside them is out of reach
    inst = Instance(5, 1, (Hero(1, 1, 1), Hero(2, 1, 1)), (Stone(3, 1, 1), Stone(4, 1, 2)))
    params = PROBLEM.default_params()
    assert PROBLEM.bound(inst, params)[0] == 1
    result = solve(PROBLEM, inst, solver="lns", options=SolveOptions(threads=1, time_limit=10), isolate=False)
    assert (result.status, result.objective, result.bound) == ("optimal", 1, 1), result.message
    assert "can reach" in result.proved_by
    cert = certificate.build(PROBLEM, inst, result, instance_path="two.txt")
    assert certificate.verify(copy.deepcopy(cert), PROBLEM).ok
    old = copy.deepcopy(cert)
    old.update(status="feasible", bound=2.0, proved_by="mipgames: " + OLD_BOUND)
    check = certificate.verify(old, PROBLEM)
    assert check.ok, check.reasons
    forged = copy.deepcopy(old)
    forged["proved_by"] = "mipgames: no more stones than anyone would think"
    assert not certificate.verify(forged, PROBLEM).ok


def test_the_summary_lists_at_most_64_destroyed_stones_and_says_how_many_more():
    """A 1,000 x 1,000 map's answer (97,374 stones destroyed) printed every stone on one line of 1 MB."""
    from mipgames.core.status import SHOWN_INLINE

    inst = random_map(60, 60, 700, 700, types=1, hp=(1, 1), seed=2)
    params = PROBLEM.default_params()
    solution = mip.start_solution(inst, params) or ()
    verdict = evaluate(inst, params, solution)
    destroyed = len(verdict.measured["destroyed"])
    assert destroyed > SHOWN_INLINE
    line = PROBLEM.describe(inst, params, solution, verdict).splitlines()[-1]
    assert line.startswith(f"{destroyed} of 700 stones destroyed: (")
    assert line.count("(") == SHOWN_INLINE + 1  # the stones shown and the closing remark
    assert line.endswith(f", and {destroyed - SHOWN_INLINE:,} more (the certificate lists them all)")
