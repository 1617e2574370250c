"""Where the level searches' outcome becomes a status."""

from mipgames.core.problem import SolveOptions
from mipgames.core.status import Status
from mipgames.queens.instance import Queens
from mipgames.queens.levels import run_levels

# 3x3, bound (capture graph) 2, exhaustive minimum 4 (brute force: tests.queens.test_models.brute_minimum)
SLACK = Queens(3, 4, ((0, 2, 0), (2, 0, 0), (2, 1, 2)))


class _Search:
    def __init__(self, outcome):
        self.outcome = outcome

    def run(self, deadline):
        return self.outcome


def _honest_but_slow(geo, target, seed):
    """Proves the targets below the minimum (4) unreachable, as a search does; never finds the game of 4 in time."""
    return _Search((None, True) if target < 4 else (None, False))


def test_a_decision_cut_at_the_deadline_after_proving_k_minus_one_is_not_infeasible():
    """K = 4 is reachable (the minimum is 4).  The slack path (K two above the bound) proves 2 and 3 unreachable,
    so the proved bound reaches K, but no game of K was found before the deadline: that is 'unknown', never
    'infeasible'."""
    from mipgames.queens.dfs import run_dfs
    from tests.queens.test_models import brute_minimum

    assert brute_minimum(SLACK) == 4
    result = run_levels(SLACK, {}, SolveOptions(time_limit=0.3), lambda *a: None, restarts=(_honest_but_slow,))
    assert result.status is Status.UNKNOWN, (result.status, result.message)
    # and the real search reaches K
    assert run_levels(SLACK, {}, SolveOptions(time_limit=20), lambda *a: None).status in (
        Status.OPTIMAL,
        Status.FEASIBLE,
    )
    assert run_dfs(SLACK, {}, SolveOptions(time_limit=20), lambda *a: None).status in (Status.OPTIMAL, Status.FEASIBLE)
