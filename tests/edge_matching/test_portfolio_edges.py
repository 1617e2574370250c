"""Where the portfolio turns what its members send into an answer: the best verified placement and the best
proved bound, in whatever order they arrive.

The members are replaced by scripted ones (one thread: they take turns in this process, no fork), so each
test says exactly what was found and what was proved, and the answer is checked against the exhaustive
optimum of a board small enough to enumerate.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import pytest

from mipgames.backends.cpsat import version
from mipgames.core.problem import SolveOptions
from mipgames.core.result import Result
from mipgames.edge_matching import portfolio
from mipgames.edge_matching.backtrack import PROVER
from mipgames.edge_matching.instance import Instance
from mipgames.edge_matching.problem import PROBLEM
from mipgames.edge_matching.simulate import colour_count_bound
from mipgames.run.runner import solve

from .helpers import exhaustive_optimum, score

# Six tiles, no frame: the colour counts allow a perfect placement (bound 0), yet none exists; the optimum is 1.
NEAR = Instance(2, 3, ((3, 1, 3, 2), (3, 3, 2, 2), (1, 1, 1, 1), (2, 3, 3, 2), (2, 3, 3, 2), (3, 3, 3, 3)))
ONE = [(0, 1), (1, 2), (3, 0), (2, 0), (4, 3), (5, 0)]
TWO = [(0, 2), (1, 0), (2, 0), (3, 2), (4, 0), (5, 0)]
THREE = [(0, 0), (1, 0), (2, 0), (3, 2), (4, 0), (5, 0)]

Turns = Sequence[list[tuple[str, Any]]]
CPSAT = f"cpsat {version()}"
"""The names the real members prove by: the runner drops a bound credited to a name it does not know."""


def test_the_board_and_its_placements_are_what_the_tests_say():
    assert colour_count_bound(NEAR) == 0 and exhaustive_optimum(NEAR) == 1
    assert [score(NEAR, p) for p in (ONE, TWO, THREE)] == [1, 2, 3]


def scripted(monkeypatch: pytest.MonkeyPatch, kernel: Turns = (), lns: Turns = (), cpsat: Turns = ()) -> None:
    """Members that send, on their n-th turn, the n-th list of messages (as the real members send them), then
    nothing: the backtracker of phase 1, the local search and CP-SAT of phase 2.  Members that return at once
    are called again and again until the deadline or until the answer is closed."""
    calls = {"kernel": 0, "lns": 0, "cpsat": 0}

    def member(name: str, script: Turns):
        def run(out: Any, *args: Any, **kwargs: Any) -> None:
            turn = calls[name]
            calls[name] += 1
            for kind, payload in script[turn] if turn < len(script) else []:
                out.send(kind, payload)

        return run

    monkeypatch.setattr(portfolio, "_kernel_decision", member("kernel", list(kernel)))
    monkeypatch.setattr(portfolio, "_lns", member("lns", list(lns)))
    monkeypatch.setattr(portfolio, "_cpsat", member("cpsat", list(cpsat)))
    monkeypatch.setattr(portfolio, "_warm_kernel", lambda: None)  # no compiled member runs: nothing to load
    monkeypatch.setattr(portfolio, "_quick", lambda best, inst: False)  # nor the quick search of tiny boards


def run(seconds: float = 1.0) -> Result:
    return solve(PROBLEM, NEAR, solver="portfolio", options=SolveOptions(threads=1, time_limit=seconds), isolate=False)


def placement(p: list[tuple[int, int]]) -> tuple[str, Any]:
    return "placement", (p, "scripted local search")


def test_a_worse_placement_sent_later_does_not_replace_the_better_one(monkeypatch):
    """The answer is the best placement any member found, not the last one: a local search restarting from
    scratch sends worse placements after better ones."""
    scripted(monkeypatch, lns=[[placement(ONE), placement(THREE)]])
    r = run()
    assert (r.status, r.objective, r.bound) == ("feasible", 1, 0)
    assert score(NEAR, r.solution) == 1


def test_a_bound_of_exactly_one_proves_one_mismatch_not_two(monkeypatch):
    """CP-SAT's bound 1.0 beside a placement of 2 mismatches: feasible with bound 1.  Rounding the bound up
    past 1 (or giving the incumbent's value as its bound) would print "optimal" for 2, and the optimum is 1."""
    scripted(monkeypatch, lns=[[placement(TWO)]], cpsat=[[("bound", (1.0, CPSAT))]])
    r = run()
    assert (r.status, r.objective, r.bound) == ("feasible", 2, 1)
    assert score(NEAR, r.solution) == 2 > exhaustive_optimum(NEAR)


def test_a_weaker_bound_sent_later_does_not_lower_the_proved_one(monkeypatch):
    """With one thread CP-SAT runs in slices, each a new solve whose first bounds are weak: the bound proved in
    an earlier slice stands, so the optimum the local search finds later is proved optimal."""
    scripted(
        monkeypatch,
        lns=[[placement(TWO)], [], [placement(ONE)]],
        cpsat=[[("bound", (1.0, CPSAT))], [("bound", (0.0, CPSAT))]],
    )
    r = run(5.0)
    assert (r.status, r.objective, r.bound) == ("optimal", 1, 1)
    assert score(NEAR, r.solution) == 1


def test_a_proof_that_nothing_is_perfect_proves_a_placement_of_one_optimal(monkeypatch):
    """Phase 1's backtracker exhausts (no perfect placement): the bound becomes 1, and phase 2's placement of 1
    mismatch is optimal by that proof alone (CP-SAT proves nothing here)."""
    scripted(monkeypatch, kernel=[[("no_perfect", PROVER)]], lns=[[placement(ONE)]])
    r = run(5.0)
    assert (r.status, r.objective, r.bound) == ("optimal", 1, 1)
    assert r.proved_by == PROVER


def test_a_placement_that_meets_the_bound_closes_the_run():
    """``closed`` ends the members and makes the answer optimal: an incumbent equal to the bound is closed."""
    best = portfolio.Best({"mode": "optimise"}, 0, lambda *a, **k: None)
    best.offer(NEAR, ONE, "scripted local search")
    assert not best.closed
    best.raise_bound(1.0, CPSAT)
    assert best.closed and (best.objective, best.bound) == (1, 1)


class Outbox:
    """What a member sends, kept in order."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, Any]] = []

    def send(self, kind: str, payload: Any = None) -> None:
        self.sent.append((kind, payload))


def test_a_backtracker_cut_by_its_deadline_proves_nothing():
    """A planted 10x10 (a perfect placement exists) and a deadline already passed: the backtracker stops after
    its first slice without a placement and without exhausting its tree.  That is no proof: sending "no
    perfect placement" would make a decision print "infeasible (proved)" for a solvable puzzle."""
    from mipgames.edge_matching.generate import planted

    inst, _ = planted(10, 10, True, 3, 6, seed=1)
    out = Outbox()
    portfolio._kernel_decision(out, inst, time.monotonic() - 1, 0)
    # found nothing in one slice (deterministic: a node count), and claims nothing; it tells its nodes only
    assert [kind for kind, _ in out.sent] == ["nodes"]


def test_cpsat_proving_that_no_placement_obeys_the_rules_is_an_infeasible_answer():
    """Phase 2's CP-SAT proves its optimise model infeasible (the frame and hints admit no placement): the
    answer is infeasible, with CP-SAT as its prover, not "no placement in time"."""
    best = portfolio.Best({"mode": "optimise"}, 0, lambda *a, **k: None)
    portfolio._take(best, NEAR, "infeasible", CPSAT, decision=False)
    r = portfolio._answer(best, decision=False)
    assert (r.status, r.proved_by) == ("infeasible", CPSAT)


def test_no_placement_in_time_still_gives_the_bound_proved(monkeypatch):
    """No member placed the tiles before the deadline, but CP-SAT proved 1: the answer carries bound 1 (above
    the colour-count bound 0), and the better of the placement made without search and the greedy one, which the
    portfolio holds from its start (on a 60x60 board a member's set-up outlived the deadline and the answer was
    unknown)."""
    scripted(monkeypatch, cpsat=[[("bound", (1.0, CPSAT))]])
    r = run()
    assert (r.status, r.bound) == ("feasible", 1) and r.solution is not None and r.verified
    assert "a placement made without search" in r.message or portfolio.GREEDY in r.message  # the better start


def test_cpsat_joins_a_large_decision_with_the_decision_model(monkeypatch, tmp_path):
    """On boards above SMALL cells CP-SAT joins phase 1 to prove that no perfect placement exists: only its
    decision model proves that (the optimise model's bound 1 is never taken as that proof in phase 1)."""
    from mipgames.edge_matching.generate import planted

    log = tmp_path / "modes.txt"

    def kernel(out: Any, inst: Instance, deadline: float, seed: int, threads: int = 1) -> None:
        time.sleep(max(0.0, deadline - time.monotonic()))  # finds nothing, like a backtracker on a hard board

    def cpsat(out: Any, inst: Instance, params: dict, deadline: float, seed: int, threads: int, hint: Any) -> None:
        log.write_text(params["mode"])  # in a forked member: the file tells the conductor's test

    monkeypatch.setattr(portfolio, "_kernel_decision", kernel)
    monkeypatch.setattr(portfolio, "_cpsat", cpsat)
    inst, _ = planted(11, 11, True, 2, 3, seed=1)
    assert inst.cells > portfolio.SMALL
    best = portfolio.Best({"mode": "optimise"}, 0, lambda *a, **k: None)
    portfolio._phase(best, inst, {"mode": "optimise"}, 2, 0, time.monotonic() + 0.8, decision=True, prove=True)
    assert log.read_text() == "decision"


def test_cpsat_proving_the_optimum_sends_it_as_a_bound():
    """On this board CP-SAT's bounds during the search stay below 0 (its presolved objective), and each solution's
    bound below 1: its proof that 1 is optimal comes only with the OPTIMAL status, and must be sent, or the
    portfolio never learns it and runs to the deadline to answer "feasible"."""
    out = Outbox()
    portfolio._cpsat(out, NEAR, {"mode": "optimise"}, None, 0, 1, None)
    bounds = [payload[0] for kind, payload in out.sent if kind == "bound"]
    found = [score(NEAR, payload[0]) for kind, payload in out.sent if kind == "placement"]
    assert max(bounds) == 1 == min(found) == exhaustive_optimum(NEAR)


def test_a_tiny_board_is_settled_before_any_compiled_member_loads(monkeypatch):
    """Loading the compiled members takes about 2 s, so a 5x5 given 2 s ended "unknown": boards of at most
    QUICK_CELLS cells are decided by the backtracker's pure-Python twin first, a placement or a proof."""
    from mipgames.edge_matching.generate import planted

    def never() -> None:
        raise AssertionError("the compiled members were loaded for a board the quick search settles")

    monkeypatch.setattr(portfolio, "_warm_kernel", never)
    inst, _ = planted(5, 5, True, 2, 4, seed=3)
    for mode in ("decision", "optimise"):
        r = solve(PROBLEM, inst, solver="portfolio", params={"mode": mode}, options=SolveOptions(time_limit=1))
        assert (r.status, r.objective, r.proved_by) == ("optimal", 0, portfolio.QUICK), r.message
        assert score(inst, r.solution) == 0
    r = solve(PROBLEM, NEAR, params={"mode": "decision"}, options=SolveOptions(time_limit=1), isolate=False)
    assert (r.status, r.proved_by) == ("infeasible", portfolio.QUICK)


def test_the_quick_search_proves_nothing_when_its_node_cap_cuts_it(monkeypatch):
    """A cut search found nothing, which proves nothing: the compiled members go on and settle the board."""
    monkeypatch.setattr(portfolio, "QUICK_NODES", 3)
    r = solve(PROBLEM, NEAR, params={"mode": "decision"}, options=SolveOptions(time_limit=5), isolate=False)
    assert (r.status, r.proved_by) == ("infeasible", PROVER)
    best = portfolio.Best({"mode": "decision"}, 0, lambda *a, **k: None)
    assert not portfolio._quick(best, NEAR) and not best.infeasible_by


def test_a_proof_of_infeasibility_beside_a_verified_placement_is_an_error(monkeypatch):
    """A member that "proves" no placement obeys the rules while another's placement replays cleanly is wrong:
    the answer is an error naming both, not "infeasible" (which dropped the placement) nor "optimal"."""
    scripted(monkeypatch, lns=[[placement(TWO)]], cpsat=[[("infeasible", CPSAT)]])
    r = run()
    assert r.status == "error" and r.solution is None
    assert CPSAT in r.message and "scripted local search" in r.message


@pytest.mark.parametrize(
    "inst",
    [Instance(1, 2, ((0, 0, 0, 0), (0, 0, 0, 0))), Instance(2, 1, ((1, 2, 0, 1), (1, 0, 0, 2)))],
)
def test_a_strip_with_no_legal_placement_is_proved_so_before_the_limit(inst):
    """The local search ends at once where no placement obeys the frame, and CP-SAT, due to join later, never
    started: the default solver answered "unknown; stopped: time limit" in 0.8 s of 5 s (an audit found it)."""
    r = solve(PROBLEM, inst, options=SolveOptions(time_limit=20, threads=2), isolate=False)
    assert r.status == "infeasible" and r.proved_by.startswith("cpsat") and r.wall_time_s < 15, r.message


def test_members_that_all_give_up_early_are_not_called_a_time_limit():
    """A 1 x 500 frame strip: too many cells for CP-SAT's member, and the local search finds no legal placement.
    The answer is unknown, and it says why, not "stopped: time limit" a second into a 20 s limit."""
    inst = Instance(1, 500, tuple((0, 0, 0, 0) for _ in range(500)))
    r = solve(PROBLEM, inst, options=SolveOptions(time_limit=20, threads=2), isolate=False)
    assert r.status == "unknown" and not r.stop and "stopped before the time limit" in r.message, r.message


def test_an_answer_cut_short_is_no_worse_than_the_greedy_placement():
    """At a 1 s limit the planted 10x10 answered with the plain placement's 150 mismatches: the greedy the models
    start from (32, in about 2 ms) was not among the portfolio's answers.  Here the limit is shorter than the
    members' start-up, so the greedy is what the answer can be."""
    from pathlib import Path

    from mipgames.edge_matching.greedy import greedy_placement
    from mipgames.edge_matching.simulate import evaluate

    inst = PROBLEM.read(Path(__file__).resolve().parents[2] / "instances/edge_matching/planted_10x10_frame.txt")
    greedy = evaluate(inst, {"mode": "optimise"}, greedy_placement(inst)).objective
    r = portfolio.run_portfolio(inst, PROBLEM.default_params(), SolveOptions(time_limit=0.3), lambda *a, **k: None)
    assert r.status == "feasible" and r.objective is not None and r.objective <= greedy < 150
