"""Report arithmetic on hand-made rows: common problem set, charging, failed verification, the virtual best,
repeats, provenance, --compare, and the data files."""

from __future__ import annotations

import csv
import math

import pytest

from mipgames.bench import export, plots, report, tables
from mipgames.core.errors import UsageError


def row(solver, form, inst, status, t, obj=None, version="0.1.0", failed=0, repeat=0, limit=100.0, **extra):
    outcome = {"optimal": "solved", "infeasible": "solved", "feasible": "timeout", "unknown": "timeout"}.get(
        status, "error"
    )
    r = {
        "job_key": f"{solver}{form}{inst}{version}{repeat}",
        "instance_sha256": inst,
        "instance_path": f"/x/{inst}.txt",
        "problem": "p",
        "formulation": form,
        "solver": solver,
        "solver_version": "1",
        "params": "{}",
        "repeat": repeat,
        "time_limit": limit,
        "threads": 1,
        "seed": 0,
        "parallel_jobs": 1,
        "status": status,
        "outcome": outcome,
        "objective": obj,
        "bound": obj,
        "sense": "min",
        "wall_time_s": t,
        "verified": int(status in ("optimal", "feasible") and not failed),
        "verification_failed": failed,
        "message": "claims 1 but the simulator measures 2" if failed else None,
        "host": "h",
        "toolkit_version": version,
        "toolkit_commit": None,
        "finished_at": f"t{repeat}",
        "job_time_s": None,
    }
    r.update(extra)
    return r


def by_config(rows, **kw):
    return {s.config: s for s in tables.summarise(tables.tabulate(rows), **kw)}


def test_summary_uses_common_problems_and_never_counts_failed_verification():
    rows = [
        row("a", "m", "i1", "optimal", 2, 5),
        row("a", "m", "i2", "unknown", 100),
        row("b", "m", "i1", "optimal", 26, 5),
        row("b", "m", "i2", "error", 1, failed=1),
        row("b", "m", "i3", "optimal", 1, 1),
    ]  # i3: only b ran it, so it is left out of the SGM
    got = by_config(rows)
    assert (got["a/m"].solved, got["a/m"].timeout, got["a/m"].error) == (1, 1, 0)
    assert (got["b/m"].solved, got["b/m"].error, got["b/m"].failed_verification) == (2, 1, 1)
    # a: (12·110)^½ − 10; b: (36·110)^½ − 10 — the failed run is charged the limit
    assert got["a/m"].sgm == pytest.approx((12 * 110) ** 0.5 - 10)
    assert got["b/m"].sgm == pytest.approx((36 * 110) ** 0.5 - 10)
    # the ratio is between the shifted means: (36·110)^½ / (12·110)^½ = √3
    assert got["a/m"].ratio == 1.0 and got["b/m"].ratio == pytest.approx(math.sqrt(3))
    assert (got["a/m"].wins, got["b/m"].wins) == (1, 0)


def test_virtual_best_picks_the_fastest_proof_per_instance():
    # a is fastest on i1, b on i2, c on i3; nobody solves i4; c's 0.5 s "solve" on i2 failed verification
    rows = [
        row("a", None, "i1", "optimal", 2, 5),
        row("b", None, "i1", "optimal", 6, 5),
        row("c", None, "i1", "feasible", 100, 7),
        row("a", None, "i2", "unknown", 100),
        row("b", None, "i2", "optimal", 30, 3),
        row("c", None, "i2", "error", 0.5, failed=1),
        row("a", None, "i3", "optimal", 90, 1),
        row("b", None, "i3", "infeasible", 40),
        row("c", None, "i3", "optimal", 0, 1),
        row("a", None, "i4", "unknown", 100),
        row("b", None, "i4", "feasible", 100, 2),
        row("c", None, "i4", "unknown", 100),
    ]
    # i3: b "proved" infeasible and c optimal — a disagreement, but the VBS only looks at times
    got = by_config(rows)
    vbs = got[tables.VIRTUAL_BEST]
    assert vbs.virtual and (vbs.runs, vbs.solved, vbs.timeout) == (4, 3, 1)
    # VBS times 2, 30, 0 and the limit 100: (12·40·10·110)^¼ − 10
    assert vbs.sgm == pytest.approx((12 * 40 * 10 * 110) ** 0.25 - 10)
    best_real = min(s.sgm for s in got.values() if not s.virtual)
    assert vbs.ratio == pytest.approx((vbs.sgm + 10) / (best_real + 10)) and vbs.ratio < 1
    table = tables.tabulate(rows)
    picks = tables.virtual_best_picks(table, table.configs, table.common())
    assert {p[0]: None if r is None else r["solver"] for p, r in picks.items()} == {
        "i1": "a",
        "i2": "b",
        "i3": "c",
        "i4": None,
    }
    assert (got["a"].wins, got["b"].wins, got["c"].wins) == (1, 1, 1)


def test_no_virtual_best_for_a_single_configuration():
    got = by_config([row("a", "m", "i1", "optimal", 2, 5)])
    assert list(got) == ["a/m"]


def test_repeats_use_the_median_run_and_report_min_median_max(tmp_path):
    # a on i1: 1, 3, 2 s (median run 2 s); on i2: solved in 4 s twice, once unsolved -> median run solved 4 s
    # b on i1: solved in 1 s, unsolved twice -> its median run is unsolved (charged 100)
    rows = [row("a", None, "i1", "optimal", t, 5, repeat=k) for k, t in enumerate((1, 3, 2))]
    rows += [
        row("a", None, "i2", "optimal", 4, 5, repeat=0),
        row("a", None, "i2", "unknown", 100, repeat=1),
        row("a", None, "i2", "optimal", 4.5, 5, repeat=2),
    ]
    rows += [
        row("b", None, "i1", "optimal", 1, 5, repeat=0),
        row("b", None, "i1", "unknown", 100, repeat=1),
        row("b", None, "i1", "unknown", 100, repeat=2),
    ]
    rows += [row("b", None, "i2", "optimal", t, 5, repeat=k) for k, t in enumerate((8, 7))]  # the upper median, 8 s
    table = tables.tabulate(rows)
    assert len(table.common()) == 2  # repeats are runs of one problem, not problems of their own
    assert table.by["a"][("i1", "{}")]["wall_time_s"] == 2
    assert table.by["a"][("i2", "{}")]["wall_time_s"] == 4.5
    assert not tables.solved(table.by["b"][("i1", "{}")])
    got = by_config(rows)
    assert (got["a"].runs, got["a"].solved, got["a"].timeout) == (6, 5, 1)  # counts are over every run
    assert got["a"].sgm == pytest.approx((12 * 14.5) ** 0.5 - 10)
    assert got["b"].sgm == pytest.approx((110 * 18) ** 0.5 - 10)
    jobs = {(j["instance"], j["configuration"]): j for j in tables.job_records(rows)}
    assert (jobs["i1", "a"]["min_s"], jobs["i1", "a"]["median_s"], jobs["i1", "a"]["max_s"]) == (1, 2, 3)
    assert (jobs["i1", "b"]["runs"], jobs["i1", "b"]["solved"], jobs["i1", "b"]["statuses"]) == (
        3,
        1,
        "optimal×1,unknown×2",
    )
    # the median run's time, as the summary counts it (the mean of the two middle runs, 7.5 s, was shown)
    assert jobs["i2", "b"]["median_s"] == 8 and jobs["i1", "b"]["median_run_status"] == "unknown"
    text = report.write(rows, {}, tmp_path, ["x.sqlite"]).read_text()
    assert "| i1 | a | 3 | 3 | 1.00 | 2.00 | 3.00 | optimal×3 |" in text
    assert "- repeats: 2, 3  **(mixed: jobs ran different numbers of times)**" in text and "median run" in text
    with open(tmp_path / "jobs.csv", newline="") as fh:
        assert len(list(csv.DictReader(fh))) == 4


def test_who_proved_what_and_why_the_others_stopped(tmp_path):
    rows = [
        row("a", None, "i1", "optimal", 2, 5, proved_by="cpsat 9.15", reported_status="optimal"),
        row("a", None, "i2", "optimal", 3, 6, proved_by="mipgames: area bound", reported_status="feasible"),
        row("a", None, "i3", "feasible", 100, 4, stop="time limit", reported_status="optimal"),
        row("a", None, "i4", "feasible", 50, 4, stop="memory limit", reported_status="feasible"),
        row("a", None, "i5", "optimal", 1, 2),
    ]  # a schema 1 row: nothing recorded
    provers, stops, changed = tables.provenance(rows)
    assert provers == {"optimal by cpsat 9.15": 1, "optimal by mipgames: area bound": 1, "optimal by unrecorded": 1}
    assert stops == {"time limit": 1, "memory limit": 1}
    assert changed == {"feasible → optimal": 1, "optimal → feasible": 1}
    text = report.write(rows, {}, tmp_path, ["x.sqlite"]).read_text()
    assert (
        "| a | optimal by cpsat 9.15 ×1, optimal by mipgames: area bound ×1, optimal by unrecorded ×1 "
        "| memory limit ×1, time limit ×1 | feasible → optimal ×1, optimal → feasible ×1 |" in text
    )
    assert "| i4 | memory limit (4) |" in text


def test_disagreeing_optima_are_reported():
    rows = [row("a", "m", "i1", "optimal", 1, 5), row("b", "m", "i1", "optimal", 1, 4)]
    (found,) = tables.disagreements(rows)
    assert "different proved optima" in found


def test_compare_versions_side_by_side(tmp_path):
    rows = [
        row("a", "m", "i1", "optimal", 6, 5, "0.1"),
        row("a", "m", "i1", "optimal", 26, 5, "0.2"),
        row("a", "m", "i2", "optimal", 6, 5, "0.1"),
        row("a", "m", "i2", "optimal", 26, 5, "0.2"),
    ]
    path = report.write(rows, {}, tmp_path, ["x.sqlite"], compare=["version", "0.1", "0.2"])
    text = path.read_text()
    assert "| a/m | 2 | 2 | 2 | 6.00 | 26.00 | 2.25 |" in text  # (26+10)/(6+10), not 26/6
    assert "a/m @0.1" in text  # the main table keeps the versions apart too
    with pytest.raises(UsageError):
        report.write(rows, {}, tmp_path, ["x.sqlite"], compare=["version", "0.1", "0.9"])
    fresh = tmp_path / "fresh"  # refused before anything is written: no folder of half a report
    with pytest.raises(UsageError, match="takes two of"):
        report.write(rows, {}, fresh, ["x.sqlite"], compare=["version", "0.1", "0.9"])
    assert not fresh.exists()


def test_shift_is_stated_and_used(tmp_path):
    rows = [row("a", None, "i1", "optimal", 6, 5), row("b", None, "i1", "optimal", 26, 5)]
    text = report.write(rows, {}, tmp_path, ["x.sqlite"], shift=2).read_text()
    assert "shift s = 2 s" in text and "- SGM shift (s): 2" in text
    assert "| b | 1 | 1 | 0 | 0 | 0 | 0 | 26.00 | 3.50 |" in text  # (26+2)/(6+2)
    with open(tmp_path / "summary.csv", newline="") as fh:
        lines = {r["configuration"]: r for r in csv.DictReader(fh)}
    assert float(lines["b"]["ratio_to_best"]) == pytest.approx(3.5) and lines["b"]["sgm_shift_s"] == "2"
    assert lines[tables.VIRTUAL_BEST]["virtual_best"] == "1"


def test_performance_profile_is_drawn_on_a_log_axis_with_the_virtual_best():
    rows = [
        row("a", None, "i1", "optimal", 1, 5),
        row("b", None, "i1", "optimal", 8, 5),
        row("a", None, "i2", "unknown", 100),
        row("b", None, "i2", "optimal", 2, 5),
    ]
    table = tables.tabulate(rows)
    fig = plots.profile_figure(table, table.configs, table.common(), "t")
    (ax,) = fig.axes
    assert ax.get_xscale() == "log"
    lines = {line.get_label(): line for line in ax.get_lines()}
    assert set(lines) == {"a", "b", tables.VIRTUAL_BEST}
    # a: ρ(1) = ½ and never more; b: ½ until τ = 8, then 1; the virtual best solves both at τ = 1
    assert list(lines["a"].get_ydata()) == [0.5, 0.5]
    assert list(lines["b"].get_xdata())[:2] == [1.0, 8.0] and list(lines["b"].get_ydata())[:2] == [0.5, 1.0]
    assert list(lines[tables.VIRTUAL_BEST].get_ydata()) == [1.0, 1.0]
    import matplotlib.pyplot as plt

    plt.close(fig)


HOSTILE = ["comma, inside", 'a "quoted" word', "two\nlines", "ünïcödé ✓", None]


def test_csv_round_trips_the_rows_exactly(tmp_path):
    rows = []
    for k, message in enumerate(HOSTILE):
        r = row(
            "a",
            "m" if k % 2 else None,
            f"i{k}",
            ["optimal", "feasible", "error", "unknown", "optimal"][k],
            [0.1 + 0.2, 1e-300, 123456789.123456789, 0.0, 2.5][k],
            [5, None, None, None, -3.0][k],
            repeat=k,
            message=message,
            gap=[0.0, None, 1 / 3, None, 0.5][k],
        )
        r["objective"] = None if r["objective"] is None else float(r["objective"])
        rows.append({name: r.get(name) for name in export.NAMES})
    path = export.write_runs_csv(rows, tmp_path / "runs.csv")
    assert export.read_runs_csv(path) == rows
    with open(path, newline="") as fh:
        assert next(csv.reader(fh)) == list(export.NAMES)


def test_pandas_reads_the_csv(tmp_path):
    pd = pytest.importorskip("pandas")
    rows = [{name: row("a", "m", "i1", "optimal", 0.1 + 0.2, 5.0).get(name) for name in export.NAMES}]
    frame = pd.read_csv(export.write_runs_csv(rows, tmp_path / "runs.csv"))
    assert list(frame.columns) == list(export.NAMES) and len(frame) == 1
    assert frame["wall_time_s"][0] == 0.1 + 0.2 and frame["solver"][0] == "a"


def test_parquet_round_trips_when_an_engine_is_installed(tmp_path):
    if export.parquet_engine() is None:
        pytest.skip("pandas with pyarrow or fastparquet is not installed")
    import pandas as pd

    rows = [
        {name: row("a", "m", f"i{k}", "optimal", 1.5, None if k else 5.0).get(name) for name in export.NAMES}
        for k in range(2)
    ]
    frame = pd.read_parquet(export.write_runs_parquet(rows, tmp_path / "runs.parquet"))
    assert list(frame.columns) == list(export.NAMES)
    assert frame["objective"][0] == 5.0 and pd.isna(frame["objective"][1]) and frame["repeat"].dtype == "Int64"


def test_parquet_without_an_engine_is_a_clear_usage_error(tmp_path):
    if export.parquet_engine() is not None:
        pytest.skip("a Parquet engine is installed")
    with pytest.raises(UsageError, match="pyarrow"):
        export.write_runs_parquet([], tmp_path / "runs.parquet")
    assert not (tmp_path / "runs.parquet").exists()


def test_runs_under_other_limits_threads_or_seeds_are_configurations_of_their_own():
    """Runs differing only in time limit (or threads, seed) were keyed alike and the latest hid the others: the
    summary counted 6 of 8 runs."""
    rows = [row("a", "m", "i1", "optimal", 2, 5, limit=3.0), row("b", "m", "i1", "optimal", 1, 5, limit=3.0)]
    rows += [dict(r, job_key=r["job_key"] + "4", time_limit=4.0, finished_at="t9") for r in rows]
    got = {name: s for name, s in by_config(rows).items() if not s.virtual}
    assert sorted(got) == ["a/m (3 s)", "a/m (4 s)", "b/m (3 s)", "b/m (4 s)"]
    assert sum(s.runs for s in got.values()) == len(rows)
    seeds = [dict(r, seed=s, job_key=r["job_key"] + str(s)) for r in rows[:2] for s in (0, 1)]
    assert sorted(by_config(seeds))[:4] == ["a/m (seed 0)", "a/m (seed 1)", "b/m (seed 0)", "b/m (seed 1)"]
    assert sorted(by_config(rows[:2])) == ["a/m", "b/m", "virtual best"]  # one setting throughout: nothing added


def test_compare_keeps_runs_under_two_time_limits_apart(tmp_path):
    """`--compare formulation` keyed pairs by solver alone: the 0.3 s campaign hid the 5 s one (or, interleaved,
    one run of each made a pair: SGM 9.49 where the two limits give 5.49 and 13.87)."""
    rows = []
    for limit, (ta, tb) in ((5.0, (3.5, 0.2)), (0.3, (0.25, 0.1))):
        for form, t in (("m1", ta), ("m2", tb)):
            rows.append(
                row("s", form, "i1", "optimal", t, 5, limit=limit, job_key=f"{form}{limit}", finished_at=f"{limit}")
            )
    text = report.write(rows, {}, tmp_path, ["x.sqlite"], compare=["formulation", "m1", "m2"]).read_text()
    assert "| s (5 s) | 1 | 1 | 1 | 3.50 | 0.20 | 0.76 |" in text
    assert "| s (0.3 s) | 1 | 1 | 1 | 0.25 | 0.10 | 0.99 |" in text


def test_unsolved_repeats_show_the_median_wall_and_the_virtual_best_is_never_slower():
    """The repeats' median was the wall of an early repeat among the unsolved runs (0.10 s of 2.0 / 0.1 / 10.3);
    under mixed limits the virtual best charged a problem nobody solved the longest limit, and came out slower
    than a configuration (SGM 10.98 against 4.83)."""
    rows = [
        row("a", None, "i1", "optimal", 2.0, 5, repeat=0, limit=10.0),
        row("a", None, "i1", "error", 0.1, repeat=1, limit=10.0),
        row("a", None, "i1", "unknown", 10.3, repeat=2, limit=10.0),
    ]
    rows += [row("b", None, "i1", "unknown", w, repeat=k, limit=10.0) for k, w in enumerate((10.2, 10.1, 10.3))]
    jobs = {(j["instance"], j["configuration"]): j for j in tables.job_records(rows)}
    assert jobs["i1", "a"]["median_s"] == 2.0 and jobs["i1", "b"]["median_s"] == 10.2
    mixed = [row("a", None, "i1", "unknown", 10.1, limit=10.0), row("b", None, "i1", "unknown", 30.2, limit=30.0)]
    mixed += [row("a", None, "i2", "optimal", 1.0, 5, limit=10.0), row("b", None, "i2", "optimal", 3.0, 5, limit=30.0)]
    got = by_config(mixed)
    a, b = got["a (10 s)"].sgm, got["b (30 s)"].sgm
    assert got[tables.VIRTUAL_BEST].sgm == pytest.approx(a) and a < b


def test_a_zero_shift_and_a_zero_time_are_a_mean_of_zero():
    """`bench report --shift 0` failed with an internal ValueError (log of 0) when a time was 0.0."""
    from mipgames.bench import stats

    assert stats.shifted_geometric_mean([0.0, 4.0], 0.0) == 0.0
    assert stats.shifted_geometric_mean([1.0, 4.0], 0.0) == pytest.approx(2.0)
