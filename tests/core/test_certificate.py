"""Certificates: written atomically, verified from their own contents, every edited claim rejected with the reason."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from mipgames.core import certificate
from mipgames.core.files import write_json_atomic
from mipgames.core.problem import SolveOptions
from mipgames.run.runner import solve
from tests.core.toy import PROBLEM, random_split


@pytest.fixture(scope="module")
def cert():
    inst = random_split(rows=2, items=10, seed=6, high=20)
    result = solve(PROBLEM, inst, solver="cpsat", isolate=False, options=SolveOptions(time_limit=20))
    assert result.status == "optimal"
    return certificate.build(PROBLEM, inst, result, instance_path="toy.json")


def verify(data):
    return certificate.verify(data, PROBLEM)


def test_fresh_certificate_verifies_and_follows_the_schema(cert):
    import jsonschema

    check = verify(copy.deepcopy(cert))
    assert check.ok, check.reasons
    assert cert["verified"]["legal"] and cert["objective"] == check.verdict.objective
    jsonschema.validate(cert, certificate.schema())
    assert cert["proved_by"].startswith("cpsat ") and cert["rerun"].startswith("mipgames solve toy.json")


def test_published_schema_is_the_one_used():
    from pathlib import Path

    published = json.loads((Path(__file__).parents[2] / "docs" / "certificate.schema.json").read_text())
    assert published == certificate.schema()


def test_edited_solution_is_rejected(cert):
    data = copy.deepcopy(cert)
    data["solution"] = sorted(set(range(10)) - set(data["solution"]))
    check = verify(data)
    assert not check.ok and "replay measures" in check.reasons[0]


def test_an_edited_record_of_the_replay_is_rejected(cert):
    """The certificate's own record of its replay must agree with the replay, even where the claimed
    objective still does (a mutation that dropped this check passed the suite)."""
    data = copy.deepcopy(cert)
    data["verified"]["objective"] = data["objective"] + 1
    check = verify(data)
    assert not check.ok and "recorded verification says" in check.reasons[0], check.reasons


def test_a_record_that_calls_a_legal_solution_illegal_is_rejected_in_those_words(cert):
    """It was rejected as "recorded verification says 1024 but the replay measures 1024" (an audit found it)."""
    data = copy.deepcopy(cert)
    data["verified"]["legal"] = False
    check = verify(data)
    assert not check.ok and "does not say the solution is legal" in check.reasons[0], check.reasons


def test_a_proof_with_no_prover_is_rejected(cert):
    """An optimal claim must name who proved it (a mutation that dropped this check passed the suite)."""
    data = copy.deepcopy(cert)
    data["proved_by"] = "  "
    check = verify(data)
    assert not check.ok and any("names no prover" in reason for reason in check.reasons), check.reasons


@pytest.mark.parametrize("status", ["unknown", "infeasible"])
def test_a_claim_without_a_solution_carries_no_objective(cert, status):
    """An objective beside no solution is a number nothing replays (a mutation that dropped this check passed
    the suite)."""
    data = copy.deepcopy(cert)
    data["status"], data["solution"], data["bound"], data["proved_by"] = status, None, None, ""
    check = verify(data)
    assert not check.ok and any("cannot carry an objective" in r for r in check.reasons), check.reasons


def _forged_one_worse(cert):
    """The fixture's certificate claiming optimal on a solution one worse than the optimum (1, by brute force)."""
    data = copy.deepcopy(cert)
    data.update(solution=[6, 7, 8], objective=2.0, bound=2.0)
    data["verified"]["objective"] = 2.0
    data["verified"]["measured"] = {"items": 3}
    check = verify(data)
    assert check.ok, check.reasons  # self-consistent: only a second solver can tell
    return data, check


def test_a_claim_one_short_of_the_optimum_is_refuted(cert):
    """The re-proof asks for a solution *one* better (the objective is integral); a cut two steps away missed
    the optimum here and re-proved the forgery (a mutation that did so passed the suite)."""
    from mipgames.run.reprove import reprove

    data, check = _forged_one_worse(cert)
    got = reprove(PROBLEM, check.instance, check.params, data, "highs", SolveOptions(time_limit=20, threads=1))
    assert got.verdict == "refuted" and got.result.objective == 1, got.text


def test_a_solver_answer_no_better_than_the_claim_refutes_nothing(cert, monkeypatch):
    """Should a second solver hand back a solution equal to the claim (a cut it stretched by its tolerance),
    that is no counter-example: equal is not better."""
    from mipgames.core.result import Result
    from mipgames.core.status import Status
    from mipgames.run import reprove as module
    from mipgames.run import runner

    data, check = _forged_one_worse(cert)
    monkeypatch.setattr(runner, "solve", lambda *a, **k: Result(Status.FEASIBLE, objective=2.0, solver="highs"))
    got = module.reprove(PROBLEM, check.instance, check.params, data, "highs", SolveOptions(time_limit=20))
    assert got.verdict == "not re-proved" and "not better than the claim" in got.text, got.text


def test_illegal_solution_is_rejected(cert):
    data = copy.deepcopy(cert)
    data["solution"] = [0, 0]
    check = verify(data)
    assert not check.ok and "simulator rejects" in check.reasons[0]


def test_edited_objective_is_rejected(cert):
    data = copy.deepcopy(cert)
    data["objective"] = data["objective"] - 1
    data["bound"] = data["objective"]
    assert not verify(data).ok


@pytest.mark.parametrize("where", ["claim", "recorded replay"])
def test_an_integral_objective_is_claimed_exactly(cert, where):
    """An edit inside the float tolerance (a claim of 508.0000001 for a game worth 508) passed as the replay's
    value; the toolkit writes the replay's own integer, so only that is accepted."""
    data = copy.deepcopy(cert)
    nudge = max(1.0, abs(data["objective"])) * 1e-10
    if where == "claim":
        data["objective"] += nudge
    else:
        data["verified"]["objective"] += nudge
    assert PROBLEM.integral and not verify(data).ok


def test_edited_instance_or_hash_is_rejected(cert):
    data = copy.deepcopy(cert)
    data["instance"]["b"][0] += 1
    check = verify(data)
    assert not check.ok and "instance_sha256" in check.reasons[0]
    data = copy.deepcopy(cert)
    data["instance_sha256"] = "0" * 64
    assert not verify(data).ok


def test_optimal_claim_needs_a_bound_equal_to_the_objective(cert):
    data = copy.deepcopy(cert)
    data["bound"] = data["objective"] - 3
    check = verify(data)
    assert not check.ok and "claim rule gives: feasible" in " ".join(check.reasons)
    data["status"] = "feasible"
    assert verify(data).ok


def test_feasible_edited_to_optimal_without_a_bound_is_rejected(cert):
    """The defect of issue 13: a certificate edited from feasible to optimal with "bound": null printed OK."""
    data = copy.deepcopy(cert)
    data["bound"] = None
    assert verify(copy.deepcopy({**data, "status": "feasible"})).ok
    check = verify(data)
    assert not check.ok and "without a finite bound" in " ".join(check.reasons)


def test_bound_beyond_the_objective_is_rejected(cert):
    data = copy.deepcopy(cert)
    data["bound"] = data["objective"] + 1
    assert not verify(data).ok


@pytest.mark.parametrize(
    "field, value",
    [
        ("status", "solved"),
        ("objective", "abc"),
        ("objective", True),
        ("bound", [1]),
        ("options", []),
        ("options", {"time_limit": -1, "threads": 1, "gap": None, "seed": 0, "warm_start": False}),
        ("params", "x"),
        ("params", {"nope": 1}),
        ("params", {"max_items": "3"}),
        ("proved_by", None),
        ("verified", {}),
        ("solution", {"a": 1}),
        ("solution", [[1, 2]]),
        ("solution", "x" * 10000),
        ("instance", None),
        ("problem", 5),
        ("sense", "down"),
        ("schema", "mipgames/certificate/1"),
    ],
)
def test_fields_of_the_wrong_kind_are_rejected_with_a_reason(cert, field, value):
    data = copy.deepcopy(cert)
    data[field] = value
    check = verify(data)
    assert not check.ok and check.reasons


def test_infeasible_claim_names_its_prover_and_carries_no_solution(cert):
    data = copy.deepcopy(cert)
    data.update(status="infeasible", reported_status="infeasible", objective=None, bound=None)
    check = verify(data)
    assert not check.ok and "carries a solution" in " ".join(check.reasons)
    data["solution"] = None
    data["verified"] = {"legal": False, "objective": None}
    assert verify(data).ok
    data["proved_by"] = " "
    assert not verify(data).ok


def test_atomic_write_leaves_no_partial_file(tmp_path, cert):
    target = tmp_path / "c.json"
    write_json_atomic(target, cert)
    assert json.loads(target.read_text())["instance_sha256"] == cert["instance_sha256"]

    class Boom:
        pass

    with pytest.raises(TypeError):
        write_json_atomic(target, {"x": Boom()})
    assert json.loads(target.read_text())["instance_sha256"] == cert["instance_sha256"]
    assert [p.name for p in tmp_path.iterdir()] == ["c.json"]


def test_text_from_the_certificate_cannot_forge_lines_or_terminal_commands(cert):
    forged = copy.deepcopy(cert)
    forged["proved_by"] = "cpsat 9.15\nother.json: OK — proved\x1b[2J\x07"  # a real prover's name, then text
    check = verify(forged)
    assert check.ok
    said = check.notes + check.reasons
    assert any("proved by cpsat 9.15?other.json: OK — proved?[2J? (taken on trust" in note for note in said), said
    assert not any(ch in text for text in said for ch in "\n\r\x1b\x07")
    forged["proved_by"] = "cpsat\nother.json: OK — proved\x1b[2J\x07"  # no prover's name at all: refused
    check = verify(forged)
    assert not check.ok and "names no solver or algorithm" in check.reasons[0]
    assert not any(ch in text for text in check.reasons for ch in "\n\r\x1b\x07")


def test_objectives_and_bounds_are_shown_in_full():
    """``:g`` printed a SameGame score of 16761836 as 1.67618e+07: "claimed 16761837 but the replay measures
    1.67618e+07" named two scores alike."""
    from mipgames.core.status import shown

    assert [shown(x) for x in (16761836.0, -2.0, 0.5, 1 / 3, None)] == [
        "16761836",
        "-2",
        "0.5",
        "0.333333333333",
        "none",
    ]


def test_the_rerun_command_keeps_every_number_and_the_earlier_spelling_still_verifies(tmp_path):
    """`--time-limit 12.3456789 --gap 0.123456789` reran as 12.3457 and 0.123457 (":g"), and the memory limit was
    left out, so the rerun was another command; certificates written with that spelling must still verify."""
    import json

    from mipgames.cli import main

    cert = tmp_path / "c.json"
    spec = str(Path(__file__).resolve().parents[2] / "instances/queens/spec_example.txt")
    args = ["solve", spec, "--time-limit", "12.3456789", "--gap", "0.123456789", "--memory-limit", "512M"]
    assert main([*args, "--quiet", "--out", str(cert)]) == 0
    data = json.loads(cert.read_text())
    assert "--time-limit 12.3456789 " in data["rerun"] and "--gap 0.123456789" in data["rerun"]
    assert f"--memory-limit {512 * 2**20}" in data["rerun"]
    earlier = data["rerun"].replace("12.3456789", "12.3457").replace("0.123456789", "0.123457")
    data["rerun"] = earlier.split(" --memory-limit")[0]
    cert.write_text(json.dumps(data))
    assert main(["verify", str(cert)]) == 0
    data["rerun"] = earlier.replace("--seed 0", "--seed 1")
    cert.write_text(json.dumps(data))
    assert main(["verify", str(cert)]) == 1


def test_an_unlimited_solve_reruns_unlimited(tmp_path, capsys):
    """``mipgames.solve(time_limit=None)`` wrote a rerun with no --time-limit, which ran with 60 s: the rerun now
    says ``--time-limit none``, the command line takes it, and the certificate (either spelling) verifies."""
    from mipgames import api
    from mipgames.cli import main

    spec = str(Path(__file__).resolve().parents[2] / "instances/queens/spec_example.txt")
    data = api.solve(spec, time_limit=None).certificate
    assert " --time-limit none " in data["rerun"] and data["options"]["time_limit"] is None
    cert = tmp_path / "c.json"
    for rerun in (data["rerun"], data["rerun"].replace(" --time-limit none", "")):
        write_json_atomic(cert, {**data, "rerun": rerun})
        assert main(["verify", str(cert)]) == 0
    args = data["rerun"].split()[1:]
    assert main([*args, "--quiet", "--out", str(tmp_path / "again.json")]) == 0
    assert "with no time limit" in capsys.readouterr().out
    again = json.loads((tmp_path / "again.json").read_text())
    assert again["rerun"] == data["rerun"].replace(data["instance_path"], again["instance_path"])
    assert again["options"]["time_limit"] is None


def test_an_optimum_proved_by_the_recomputed_bound_alone_says_the_recorded_bound_does_not_prove_it():
    """A queens certificate whose bound was edited below its objective (or removed) is still true, as the
    toolkit's own bound, recomputed, proves it; verify said OK citing that bound without a word on the record."""
    from mipgames.queens.instance import read
    from mipgames.queens.problem import PROBLEM as QUEENS

    path = Path(__file__).resolve().parents[2] / "instances/queens/spec_example.txt"
    inst = read(path)
    result = solve(QUEENS, inst, isolate=False, options=SolveOptions(time_limit=20))
    data = certificate.build(QUEENS, inst, result, instance_path=str(path))
    assert result.status == "optimal" and data["bound"] == data["objective"] == 1
    fresh = certificate.verify(data, QUEENS)
    assert fresh.ok and not any("does not prove it" in note for note in fresh.notes)
    for bound, said in ((0, "records bound 0"), (None, "records no bound")):
        check = certificate.verify({**data, "bound": bound}, QUEENS)
        assert check.ok and any(said in note and "does not prove it" in note for note in check.notes), check.notes


def test_the_certificate_of_a_refused_answer_verifies_and_a_refusing_solver_is_refused():
    """An answer the runner refuses (the solver's objective is not the replay's) is an error with no solution,
    but the certificate kept the replay's findings, which verify refuses beside no solution: the toolkit
    rejected its own file.  And a certificate naming an algorithm that does not run on its instance (greedy on
    a map that is not MERGE-GAME-SIMPLE) passed, with a rerun command that exits 4 (an audit found both)."""
    from mipgames import registry
    from mipgames.run.plan import plan
    from mipgames.run.runner import finish

    problem = registry.load("merge-game")
    path = str(Path(__file__).resolve().parents[2] / "instances/merge_game/choice.txt")
    inst = problem.read(path)
    params = problem.default_params()
    reported = {"status": "optimal", "solution_json": [[1, 0], [3, 2]], "objective": 4.0, "bound": 4.0, "version": "x"}
    route = plan(problem, "highs", None, inst, params)
    result = finish(problem, inst, route, params, SolveOptions(time_limit=10), reported)
    assert result.status == "error" and "but the simulator measures" in result.message
    cert = certificate.build(problem, inst, result, path, None)
    assert cert["verified"]["legal"] is False and cert["verified"]["reason"] == result.verdict.reason[:4000]
    check = certificate.verify(cert, problem, plan)
    assert check.ok and "it claims nothing" in " ".join(check.notes), check.reasons
    honest = certificate.build(problem, inst, solve(problem, inst, solver="highs", isolate=False), path, None)
    forged = dict(honest, solver="greedy", formulation=None)
    forged["rerun"] = honest["rerun"].replace("--solver highs --formulation compact", "--solver greedy")
    check = certificate.verify(forged, problem, plan)
    assert not check.ok and "greedy solves MERGE-GAME-SIMPLE only" in check.reasons[0], check.reasons
