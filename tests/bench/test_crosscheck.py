"""benchmarks/crosscheck.py: the differential check of every exact route finds what it is there to find."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("crosscheck", ROOT / "benchmarks" / "crosscheck.py")
assert _spec is not None and _spec.loader is not None
crosscheck = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(crosscheck)


def row(route: str, status: str, objective: float | None = None, bound: float | None = None, verified: bool = True):
    return {"route": route, "status": status, "objective": objective, "bound": bound, "verified": verified, "error": ""}


def test_each_kind_of_disagreement_is_named_and_agreement_is_silent():
    agree = [row("cbc", "optimal", 2, 2), row("cpsat", "optimal", 2, 2), row("anneal", "feasible", 3, 1)]
    assert crosscheck.disagreements(agree, "min") == []
    cases = [
        ([row("cbc", "optimal", 2, 2), row("cpsat", "optimal", 3, 3)], "min", "proved optima differ"),
        ([row("cbc", "optimal", 2, 2), row("dfs", "feasible", 1)], "min", "beyond the proved optimum 2"),
        ([row("cbc", "optimal", 2, 2), row("highs", "feasible", 4, 3)], "min", "bound 3, past the proved optimum 2"),
        ([row("cbc", "infeasible"), row("dfs", "feasible", 1)], "min", "infeasible by cbc, yet solved by dfs"),
        ([row("cbc", "feasible", 1, verified=False)], "min", "cbc answered without a replay"),
        ([row("cbc", "optimal", 5, 5), row("nrpa", "feasible", 6)], "max", "beyond the proved optimum 5"),
    ]
    for rows, sense, says in cases:
        assert any(says in found for found in crosscheck.disagreements(rows, sense)), (rows, sense)
    # a maximisation's bound above its optimum is a valid bound, not a disagreement
    assert crosscheck.disagreements([row("cbc", "optimal", 5, 5), row("highs", "feasible", 4, 9)], "max") == []


def test_a_short_run_solves_every_route_and_writes_a_line_an_instance(tmp_path, capsys):
    out = tmp_path / "c.jsonl"
    assert (
        crosscheck.main(["--problems", "queens,samegame", "--count", "2", "--time-limit", "10", "--out", str(out)]) == 0
    )
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(d["problem"], d["seed"]) for d in lines] == [
        ("queens", 0),
        ("queens", 1),
        ("samegame", 0),
        ("samegame", 1),
    ]
    assert all(len(d["rows"]) == len(crosscheck.ROUTES[d["problem"]]) and not d["disagreements"] for d in lines)
    assert "4 instances" in capsys.readouterr().out
