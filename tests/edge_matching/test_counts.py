"""``verify`` reads a certificate's solution count as hostile input and holds it against the replay."""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mipgames.cli import main as cli
from mipgames.core import certificate
from mipgames.core.problem import SolveOptions
from mipgames.edge_matching.counts import HUGE, KEYS
from mipgames.edge_matching.problem import PROBLEM
from mipgames.run.runner import solve

ROOT = Path(__file__).resolve().parents[2]


def _certificate(name: str, **params: object) -> dict:
    inst = PROBLEM.read(ROOT / "instances" / "edge_matching" / name)
    result = solve(
        PROBLEM,
        inst,
        solver="backtrack",
        params={**PROBLEM.default_params(), **params},
        options=SolveOptions(time_limit=60, threads=1),
        isolate=False,
    )
    return certificate.build(PROBLEM, inst, result, instance_path=name)


@pytest.fixture(scope="module")
def counted() -> dict:
    return _certificate("planted_5x5_frame.txt", count=True)


def _with(cert: dict, **stats: object) -> certificate.Check:
    data = copy.deepcopy(cert)
    data["stats"].update(stats)
    return certificate.verify(data, PROBLEM)


def test_a_complete_count_verifies_and_is_named_as_a_claim(counted):
    assert counted["stats"]["solutions"] == 453_888 and counted["stats"]["count_complete"] is True
    check = certificate.verify(counted, PROBLEM)
    assert check.ok, check.reasons
    assert any("claims 453,888 perfect placements" in note for note in check.notes)


@pytest.mark.parametrize(
    ("stats", "reason"),
    [
        ({"solutions": 0}, "no perfect placement exists, yet the replayed solution is one"),
        ({"solutions": -1}, "non-negative integer"),
        ({"solutions": True}, "non-negative integer"),
        ({"solutions": 1.5}, "non-negative integer"),
        ({"solutions": "many"}, "non-negative integer"),
        ({"count_complete": "yes"}, "count_complete must be true or false"),
        ({"count_complete": False}, "solutions is given, but the count is not complete"),
        ({"solutions_found": 3}, "solutions_found is given, but the count is complete"),
        ({"solutions_up_to_board_turns": 453_888}, "does not fit the count"),
        ({"solutions_up_to_board_turns": 0}, "does not fit the count"),
        ({"solutions_up_to_board_turns": 113_473}, "4 turned copies of each"),  # 4 x 113,472 is the count
        ({"solutions": 10**30}, "below 10**30"),
        ({"solutions": "453888"}, "the digits of a larger count"),  # short counts are JSON integers
        ({"solutions": "0" * 31}, "the digits of a larger count"),
        ({"solutions": "more than 10^4000"}, "25 tiles have"),
    ],
)
def test_malformed_or_contradictory_counts_are_rejected(counted, stats, reason):
    check = _with(counted, **stats)
    assert not check.ok
    assert any(reason in r for r in check.reasons), check.reasons


@pytest.mark.parametrize(("side", "recorded", "said"), [(6, str(math.factorial(36)), "3.719e41"), (40, HUGE, HUGE)])
def test_counts_past_the_json_integer_limit_are_written_so_that_they_verify(tmp_path, capsys, side, recorded, said):
    """36 equal tiles have 36! placements (42 digits): the certificate held an integer its own reader refuses
    (more than 30 digits), and 1,600 equal tiles failed the solve with a ValueError (Python turns at most 4,300
    digits into text); an audit found both."""
    path = tmp_path / "equal.txt"
    path.write_text(f"{side} {side}\n" + "1 1 1 1\n" * side * side)
    inst = PROBLEM.read(path)
    options = SolveOptions(time_limit=60, threads=1)
    result = solve(PROBLEM, inst, solver="backtrack", params={"count": True}, options=options, isolate=False)
    assert result.status == "optimal" and said in result.message, result.message
    cert = certificate.build(PROBLEM, inst, result)
    assert cert["stats"]["solutions"] == recorded
    (tmp_path / "c.json").write_text(json.dumps(cert))
    assert cli(["verify", str(tmp_path / "c.json")]) == 0  # through the certificate reader's integer limit
    assert said in capsys.readouterr().out


def test_perfect_placements_counted_beside_no_answer_are_rejected(counted):
    """A complete count of 453,888 with status unknown and no solution passed (an audit found it): a counting
    run holds a placement the moment it counts one."""
    data = copy.deepcopy(counted)
    data.update(status="unknown", reported_status="unknown", solution=None, objective=None, bound=None)
    data.update(proved_by="", verified={"legal": False, "objective": None})
    check = certificate.verify(data, PROBLEM)
    assert not check.ok and any("yet records no answer" in r for r in check.reasons), check.reasons


def test_a_count_on_a_run_that_did_not_count_is_rejected():
    plain = _certificate("planted_5x5_frame.txt")
    assert certificate.verify(plain, PROBLEM).ok
    check = _with(plain, solutions=5, count_complete=True)
    assert not check.ok and "not a counting run" in check.reasons[0]


def test_perfect_placements_beside_a_solution_with_mismatches_are_rejected(counted):
    data = copy.deepcopy(counted)
    placement = data["solution"]
    placement[6], placement[12] = placement[12], placement[6]  # two inner cells: the frame stays whole
    replay = PROBLEM.evaluate(
        PROBLEM.instance_from_json(data["instance"]), data["params"], PROBLEM.solution_from_json(None, placement)
    )
    assert replay.legal and replay.objective > 0
    data["objective"] = data["verified"]["objective"] = replay.objective
    data["bound"], data["status"] = 0.0, "feasible"
    check = certificate.verify(data, PROBLEM)
    assert not check.ok and any("yet records a solution with" in r for r in check.reasons), check.reasons


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    key=st.sampled_from(KEYS),
    value=st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=5),
)
def test_any_value_in_a_count_field_is_judged_without_a_crash(counted, key, value):
    check = _with(counted, **{key: value})
    assert check.ok or check.reasons
    if check.ok:
        assert counted["stats"]["solutions"] and check.notes


def test_a_tile_that_looks_alike_under_a_turn_is_counted_by_the_colours_it_shows():
    """A placement is counted by what it shows: four 1 1 1 1 tiles on 2x2 have 24 (their orders), and the
    certificate says so (the count was 24 with no word of the 4^4 alike-looking turns it leaves out)."""
    from mipgames.edge_matching.instance import Instance

    for tiles, want, notes in (
        (((1, 1, 1, 1),) * 4, 24, True),
        (((1, 2, 1, 2),) * 4, 48, True),  # two looks a tile: (1,2,1,2) and (2,1,2,1)
        (((1, 2, 3, 4), (3, 5, 1, 6), (6, 7, 8, 5), (4, 8, 7, 2)), None, False),
    ):
        inst = Instance(2, 2, tiles)
        result = solve(
            PROBLEM,
            inst,
            solver="backtrack",
            params={**PROBLEM.default_params(), "count": True},
            options=SolveOptions(time_limit=60, threads=1),
            isolate=False,
        )
        if want is not None:
            assert result.stats["solutions"] == want
        assert ("count_turns_note" in result.stats) is notes
