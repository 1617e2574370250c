"""Where the branch and bound turns its outcome into a claim: a search cut by its deadline."""

import time

from mipgames.core.problem import SolveOptions
from mipgames.edge_matching import backtrack
from mipgames.edge_matching.generate import planted


def test_branch_and_bound_cut_one_above_the_floor_is_feasible_not_optimal(monkeypatch):
    """A planted 3x3 (a perfect placement exists: optimum 0).  The deadline has passed, so the search runs one
    slice (50 nodes here) and stops with a placement of 1 mismatch: that is feasible with bound 0, not optimal."""
    inst = planted(3, 3, False, 1, 2, 0)[0]
    whole = backtrack._optimise(inst, SolveOptions(threads=1), lambda *a: None, None, 1, 0)
    assert (whole.status, whole.objective) == ("optimal", 0)
    monkeypatch.setattr(backtrack, "SLICE", 50)
    cut = backtrack._optimise(inst, SolveOptions(threads=1), lambda *a: None, time.monotonic() - 1, 1, 0)
    assert cut.objective == 1  # what one slice of 50 nodes finds (deterministic: no shuffling in branch and bound)
    assert (cut.status, cut.bound) == ("feasible", 0)
