"""Report arithmetic on hand-made rows: common problem set, charging, failed verification, --compare."""

from __future__ import annotations

import pytest

from mipgames.bench import report
from mipgames.core.errors import UsageError


def row(solver, form, inst, status, t, obj=None, version="0.1.0", failed=0):
    outcome = {"optimal": "solved", "infeasible": "solved", "feasible": "timeout", "unknown": "timeout"}.get(
        status, "error")
    return {"job_key": f"{solver}{form}{inst}{version}", "instance_sha256": inst, "instance_path": f"/x/{inst}.txt",
            "problem": "p", "formulation": form, "solver": solver, "solver_version": "1", "params": "{}",
            "repeat": 0, "time_limit": 100.0, "threads": 1, "seed": 0, "parallel_jobs": 1, "status": status,
            "outcome": outcome, "objective": obj, "bound": obj, "sense": "min", "wall_time_s": t,
            "verified": int(status in ("optimal", "feasible") and not failed), "verification_failed": failed,
            "message": "claims 1 but the simulator measures 2" if failed else "", "host": "h",
            "toolkit_version": version, "toolkit_commit": "", "finished_at": "t", "job_time_s": None}


def test_summary_uses_common_problems_and_never_counts_failed_verification():
    rows = [row("a", "m", "i1", "optimal", 2, 5), row("a", "m", "i2", "unknown", 100),
            row("b", "m", "i1", "optimal", 26, 5), row("b", "m", "i2", "error", 1, failed=1),
            row("b", "m", "i3", "optimal", 1, 1)]  # i3: only b ran it, so it is left out of the SGM
    got = {s.config: s for s in report.summarise(report.tabulate(rows))}
    assert (got["a/m"].solved, got["a/m"].timeout, got["a/m"].error) == (1, 1, 0)
    assert (got["b/m"].solved, got["b/m"].error, got["b/m"].failed_verification) == (2, 1, 1)
    # a: (12·110)^½ − 10; b: (36·110)^½ − 10 — the failed run is charged the limit
    assert got["a/m"].sgm == pytest.approx((12 * 110) ** 0.5 - 10)
    assert got["b/m"].sgm == pytest.approx((36 * 110) ** 0.5 - 10)
    assert got["a/m"].ratio == 1.0 and got["b/m"].ratio == pytest.approx(got["b/m"].sgm / got["a/m"].sgm)


def test_disagreeing_optima_are_reported():
    rows = [row("a", "m", "i1", "optimal", 1, 5), row("b", "m", "i1", "optimal", 1, 4)]
    (found,) = report.disagreements(rows)
    assert "different proved optima" in found


def test_compare_versions_side_by_side(tmp_path):
    rows = [row("a", "m", "i1", "optimal", 6, 5, "0.1"), row("a", "m", "i1", "optimal", 26, 5, "0.2"),
            row("a", "m", "i2", "optimal", 6, 5, "0.1"), row("a", "m", "i2", "optimal", 26, 5, "0.2")]
    path = report.write(rows, {}, tmp_path, ["x.sqlite"], compare=["version", "0.1", "0.2"])
    text = path.read_text()
    assert "| a/m | 2 | 2 | 2 | 6.00 | 26.00 | 4.33 |" in text
    assert "a/m @0.1" in text  # the main table keeps the versions apart too
    with pytest.raises(UsageError):
        report.write(rows, {}, tmp_path, ["x.sqlite"], compare=["version", "0.1", "0.9"])
