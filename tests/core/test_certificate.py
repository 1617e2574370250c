"""Certificates: written atomically, verified from their own contents, tampering rejected with the reason."""

from __future__ import annotations

import copy
import json

import pytest

from mipgames.core import certificate, registry
from mipgames.core.problem import SolveOptions
from mipgames.core.runner import solve
from tests.core.toy import PROBLEM, random_split

registry.register(PROBLEM)


@pytest.fixture(scope="module")
def cert():
    inst = random_split(rows=2, items=10, seed=6, high=20)
    result = solve(PROBLEM, inst, solver="cpsat", isolate=False, options=SolveOptions(time_limit=20))
    assert result.status == "optimal"
    return certificate.build(PROBLEM, inst, result, instance_path="toy.json")


def test_fresh_certificate_verifies(cert):
    check = certificate.verify(copy.deepcopy(cert))
    assert check.ok, check.reasons
    assert cert["verified"]["legal"] and cert["objective"] == check.verdict.objective
    for key in certificate.REQUIRED:
        assert key in cert


def test_edited_solution_is_rejected(cert):
    data = copy.deepcopy(cert)
    chosen = set(data["solution"])
    data["solution"] = sorted(set(range(10)) - chosen)
    check = certificate.verify(data)
    assert not check.ok and "replay measures" in check.reasons[0]


def test_illegal_solution_is_rejected(cert):
    data = copy.deepcopy(cert)
    data["solution"] = [0, 0]
    check = certificate.verify(data)
    assert not check.ok and "simulator rejects" in check.reasons[0]


def test_edited_objective_is_rejected(cert):
    data = copy.deepcopy(cert)
    data["objective"] = data["objective"] - 1
    data["bound"] = data["objective"]
    assert not certificate.verify(data).ok


def test_edited_instance_or_hash_is_rejected(cert):
    data = copy.deepcopy(cert)
    data["instance"]["b"][0] += 1
    check = certificate.verify(data)
    assert not check.ok and "instance_sha256" in check.reasons[0]
    data = copy.deepcopy(cert)
    data["instance_sha256"] = "0" * 64
    assert not certificate.verify(data).ok


def test_optimal_claim_needs_matching_bound(cert):
    data = copy.deepcopy(cert)
    data["bound"] = data["objective"] - 3
    check = certificate.verify(data)
    assert not check.ok and "status optimal" in " ".join(check.reasons)
    data["status"] = "feasible"
    assert certificate.verify(data).ok


def test_unknown_schema_and_missing_fields(cert):
    data = copy.deepcopy(cert)
    data["schema"] = "other/9"
    assert "unknown schema" in certificate.verify(data).reasons[0]
    data = copy.deepcopy(cert)
    del data["solution"]
    assert "missing fields" in certificate.verify(data).reasons[0]


def test_atomic_write_leaves_no_partial_file(tmp_path, cert):
    target = tmp_path / "c.json"
    certificate.write_json_atomic(target, cert)
    assert json.loads(target.read_text())["instance_sha256"] == cert["instance_sha256"]

    class Boom:
        pass

    with pytest.raises(TypeError):
        certificate.write_json_atomic(target, {"x": Boom()})
    assert json.loads(target.read_text())["instance_sha256"] == cert["instance_sha256"]
    assert [p.name for p in tmp_path.iterdir()] == ["c.json"]
