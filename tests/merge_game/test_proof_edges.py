"""The SIMPLE greedy, credited with proofs, on a hand-made map with a known answer."""

from mipgames.core.problem import SolveOptions
from mipgames.merge_game.baselines import greedy_cover
from mipgames.merge_game.instance import Hero, Instance, Stone
from mipgames.merge_game.problem import PROBLEM
from mipgames.run.runner import solve


def test_greedy_takes_the_hero_farthest_along_the_scan():
    """up3: the hero at x=3 hits all three stones (x = 2, 3, 4 one row up); the one at x=2 only two.  Two heroes
    may merge once (floor(2/2) = 1 merging hero), so only the right choice destroys every stone: optimal, not
    infeasible."""
    up3 = Instance(
        4,
        2,
        (Hero(2, 1, 1), Hero(3, 1, 1)),
        (Stone(2, 2, 1), Stone(3, 2, 1), Stone(4, 2, 1)),
        attack="up3",
        destroy_all=True,
    )
    right3 = Instance(  # the same map turned: heroes in column 1, stones in column 2
        2,
        4,
        (Hero(1, 2, 1), Hero(1, 3, 1)),
        (Stone(2, 2, 1), Stone(2, 3, 1), Stone(2, 4, 1)),
        attack="right3",
        destroy_all=True,
    )
    for inst in (up3, right3):
        res = solve(PROBLEM, inst, solver="greedy", params={}, options=SolveOptions(time_limit=10), isolate=False)
        assert (res.status, res.objective) == ("optimal", 3), (inst.attack, res.status, res.message)
        assert greedy_cover(inst, {}) == [1]
