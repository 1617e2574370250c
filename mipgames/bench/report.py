"""The campaign report: a Markdown page an OR engineer could publish, its PNG plots and its data as CSV.

Time is the solver wall time the runner measured (model build excluded and
shown apart).  The numbers come from :mod:`mipgames.bench.tables` (see there
for configurations, problems, jobs, median runs and the virtual best), the
pictures from :mod:`mipgames.bench.plots`, the CSV/Parquet files from
:mod:`mipgames.bench.export`.
"""

from __future__ import annotations

import datetime as _dt
import statistics
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mipgames.bench import export, plots, stats
from mipgames.bench.tables import (
    Row,
    Summary,
    Table,
    base_config,
    config_namer,
    disagreements,
    job_records,
    problem_key,
    provenance,
    settings_namer,
    solved,
    summarise,
    summary_records,
    tabulate,
    version_label,
    virtual_best_picks,
)
from mipgames.core.errors import UsageError
from mipgames.core.files import write_text_atomic

DATA_FILES = ("runs.csv", "jobs.csv", "summary.csv")


def _fmt(x: float | None, digits: int = 2) -> str:
    return "—" if x is None else f"{x:.{digits}f}"


def _cell(r: Row | None) -> str:
    if r is None:
        return "·"
    if r.get("verification_failed"):
        return "**FAILED VERIFICATION**"
    if r["outcome"] == "error":
        return "error"
    obj = "" if r["objective"] is None else f" ({r['objective']:g})"
    if solved(r):
        text = f"{r['wall_time_s']:.2f}{obj}" if r["status"] == "optimal" else f"{r['wall_time_s']:.2f} {r['status']}"
    else:
        text = f"{'timeout' if r.get('stop') in (None, 'time limit') else r['stop']}{obj}"
    return text


def _settings(rows: list[Row], shift: float) -> dict[str, str]:
    def values(col: str) -> str:
        found = sorted({r.get(col) for r in rows}, key=lambda v: (v is None, str(v)))
        text = ", ".join("—" if v is None else f"{v:g}" if isinstance(v, float) else str(v) for v in found)
        return text + ("  **(mixed: comparisons across these are not fair)**" if len(found) > 1 else "")

    return {
        "time limit (s)": values("time_limit"),
        "threads per run": values("threads"),
        "seed": values("seed"),
        "runs in parallel on a machine": values("parallel_jobs"),
        "repeats": _repeats(rows),
        "SGM shift (s)": f"{shift:g}",
    }


def _repeats(rows: list[Row]) -> str:
    """The runs per job: one number, or the numbers found and a warning (it said 3 where some jobs ran once)."""
    namer = config_namer(rows)
    jobs = Counter((namer(r), problem_key(r)) for r in rows)
    found = sorted(set(jobs.values()))
    return ", ".join(map(str, found)) + ("  **(mixed: jobs ran different numbers of times)**" if len(found) > 1 else "")


def _summary_table(summaries: list[Summary]) -> list[str]:
    lines = [
        "| configuration | runs | solved | timeout | error | failed verification | wins | SGM time (s) "
        "| ratio to best | median build (s) | max peak RSS (MB) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    real = sorted((s for s in summaries if not s.virtual), key=lambda s: (s.sgm is None, s.sgm or 0, s.config))
    for s in real:
        flag = f"**{s.failed_verification}**" if s.failed_verification else "0"
        lines.append(
            f"| {s.config} | {s.runs} | {s.solved} | {s.timeout} | {s.error} | {flag} "
            f"| {'—' if s.wins is None else s.wins} | {_fmt(s.sgm)} | {_fmt(s.ratio)} | {_fmt(s.build_s, 3)} "
            f"| {_fmt(s.peak_mb, 0)} |"
        )
    for s in summaries:
        if s.virtual:
            lines.append(
                f"| *{s.config}* | {s.runs} problems | {s.solved} | {s.timeout} | — | — | — "
                f"| {_fmt(s.sgm)} | {_fmt(s.ratio)} | — | — |"
            )
    return lines


def _counted(counter: Any) -> str:
    return ", ".join(f"{what} ×{n}" for what, n in sorted(counter.items())) or "—"


def _provenance_table(table: Table) -> list[str]:
    lines = [
        "| configuration | proved (by whom) | stopped without proof (why) | claims the rule changed |",
        "|---|---|---|---|",
    ]
    for c in table.configs:
        runs = [r for repeats in table.runs[c].values() for r in repeats]
        provers, stops, changed = provenance(runs)
        lines.append(f"| {c} | {_counted(provers)} | {_counted(stops)} | {_counted(changed)} |")
    return lines


def _repeats_table(table: Table, namer: Callable[[Row], str]) -> list[str]:
    every = [r for runs in table.runs.values() for rs in runs.values() for r in rs]
    records = [j for j in job_records(every, namer) if j["runs"] > 1]
    if not records:
        return []
    lines = [
        "| instance | configuration | runs | solved | min (s) | median (s) | max (s) | statuses |",
        "|---|---|---:|---:|---:|---:|---:|---|",
    ]
    for j in records:
        lines.append(
            f"| {j['instance']} | {j['configuration']} | {j['runs']} | {j['solved']} | {_fmt(j['min_s'])} "
            f"| {_fmt(j['median_s'])} | {_fmt(j['max_s'])} | {j['statuses']} |"
        )
    return lines


def _grouped(rows: list[Row]) -> list[str]:
    """One line per (configuration, instance, message), with how many runs (repeats) it stands for."""
    seen = Counter(
        (base_config(r), Path(r["instance_path"] or r["instance_sha256"]).name, (r.get("message") or "")[:200])
        for r in rows
    )
    return [
        f"- {config} on {name}{f' (×{n})' if n > 1 else ''}: {message}"
        for (config, name, message), n in sorted(seen.items())
    ]


def problem_summaries(rows: list[Row], shift: float) -> dict[str, list[Summary]]:
    """The summary lines of each problem (configurations compare within a problem), virtual best included."""
    namer = config_namer(rows)
    return {
        name: summarise(tabulate([r for r in rows if r["problem"] == name], namer), shift=shift)
        for name in sorted({r["problem"] for r in rows})
    }


def problem_section(
    rows: list[Row], summaries: list[Summary], out_dir: Path, suffix: str, heading: str, namer: Callable[[Row], str]
) -> list[str]:
    """Summary table, plots, provenance and per-instance runs of one problem."""
    table = tabulate(rows, namer)
    configs, problems, everything = table.configs, table.common(), table.all_problems()
    lines = ["", f"## Summary{heading}", ""]
    if len(problems) < len(everything):
        lines += [
            f"SGM, wins, the virtual best and the profile use the {len(problems)} problems every configuration "
            f"ran; {len(everything) - len(problems)} are left out (missing runs: incomplete campaign or a "
            "formulation that does not apply).",
            "",
        ]
    lines += _summary_table(summaries)
    if len(configs) > 1 and problems:
        lines += [
            "",
            "*Virtual best*: on each problem the fastest configuration that proved its claim, as a "
            "perfect portfolio of these configurations would run; its ratio below 1 is what such a "
            "portfolio would gain over the best single configuration.",
        ]
    if problems:
        profile, runtime = f"performance_profile{suffix}.png", f"runtime{suffix}.png"
        plots.plot_profile(
            table,
            configs,
            problems,
            out_dir / profile,
            f"Performance profile{heading} ({len(problems)} problem{'s' if len(problems) != 1 else ''})",
        )
        plots.plot_runtimes(table, configs, problems, out_dir / runtime)
        lines += ["", f"![Dolan–Moré performance profile]({profile})", "", f"![runtime per instance]({runtime})"]
    lines += ["", f"### Who proved what{heading}", ""] + _provenance_table(table)
    repeats = _repeats_table(table, namer)
    if repeats:
        lines += [
            "",
            f"### Repeats{heading}",
            "",
            "Wall time of every repeat of a job; the summaries and the profile use each job's median run.",
            "",
        ] + repeats
    picks = virtual_best_picks(table, configs, problems) if len(configs) > 1 else {}
    vbs = ["virtual best"] if picks else []
    lines += [
        "",
        f"### Runs per instance{heading}",
        "",
        (
            "Solver seconds (objective) when solved; `timeout` or the reason it stopped (best verified objective); "
            "`·` not run" + ("; with repeats, each job's median run." if repeats else ".")
        ),
        "",
        "| instance | " + " | ".join(configs + vbs) + " |",
        "|---|" + "---:|" * len(configs + vbs),
    ]
    for p in everything:
        cells = [_cell(table.by[c].get(p)) for c in configs]
        if picks:
            best = picks.get(p)
            cells.append(
                "·"
                if p not in picks
                else "none solved"
                if best is None
                else f"{best['wall_time_s']:.2f} ({base_config(best)})"
            )
        lines.append(f"| {table.labels[p]} | " + " | ".join(cells) + " |")
    return lines


def compare_sides(
    rows: list[Row], kind: str, values: list[str]
) -> tuple[Callable[[Row], str], Callable[[Row], str], str, str]:
    """How ``--compare kind [A B]`` splits the runs: (side of a run, what pairs it, A, B); refused when the
    results do not hold exactly the two sides named (checked before the report writes anything)."""
    side_of: Callable[[Row], str]
    pair_of: Callable[[Row], str]
    if kind == "formulation":
        side_of, pair_of = (lambda r: r.get("formulation") or ""), (lambda r: r["solver"])
    elif kind == "version":
        side_of, pair_of = version_label, base_config
    else:
        raise UsageError(f"--compare takes formulation or version, not {kind!r}")
    present = list(dict.fromkeys(side_of(r) for r in rows if side_of(r)))
    if not values:
        if len(present) != 2:
            raise UsageError(f"--compare {kind}: name the two to compare; the results hold {', '.join(present)}")
        values = present
    if len(values) != 2 or any(v not in present for v in values):
        raise UsageError(f"--compare {kind} takes two of: {', '.join(present)}")
    return side_of, pair_of, values[0], values[1]


def compare_section(rows: list[Row], kind: str, values: list[str], out_dir: Path, shift: float) -> list[str]:
    """Two formulations (per solver) or two toolkit versions (per solver/formulation), side by side,
    each pair on the problems both sides ran."""
    side_of, paired, a, b = compare_sides(rows, kind, values)
    chosen = [r for r in rows if side_of(r) in (a, b)]
    settings = settings_namer(chosen)  # runs under two time limits (or seeds) are two pairs, not one

    def pair_of(r: Row) -> str:
        return paired(r) + settings(r)

    table = tabulate(chosen, config_of=lambda r: f"{pair_of(r)} [{side_of(r)}]")
    lines = [
        f"## Comparison of {kind}s: {a} vs {b}",
        "",
        f"Each line compares the two on the problems both ran; ratio = (SGM({b}) + {shift:g}) / "
        f"(SGM({a}) + {shift:g}) (below 1: {b} is faster).",
        "",
        f"| {'solver' if kind == 'formulation' else 'configuration'} | problems | solved {a} | solved {b} "
        f"| SGM {a} (s) | SGM {b} (s) | ratio |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    configs: list[str] = []
    for pair in sorted({pair_of(r) for r in chosen}):
        ca, cb = f"{pair} [{a}]", f"{pair} [{b}]"
        if ca not in table.by or cb not in table.by:
            continue
        common = table.common([ca, cb])
        if not common:
            continue
        sa, sb = summarise(table, [ca, cb], common, shift=shift, virtual_best=False)
        solved_a = sum(solved(table.by[ca][p]) for p in common)
        solved_b = sum(solved(table.by[cb][p]) for p in common)
        if sa.sgm is None or sb.sgm is None:
            continue
        ratio = stats.sgm_ratio(sb.sgm, sa.sgm, shift)
        lines.append(
            f"| {pair} | {len(common)} | {solved_a} | {solved_b} | {_fmt(sa.sgm)} | {_fmt(sb.sgm)} | {_fmt(ratio)} |"
        )
        configs += [ca, cb]
    if not configs:
        return lines + ["", f"No solver ran both {a} and {b} on a common problem."]
    problems = table.common(configs)
    if problems:
        plots.plot_profile(table, configs, problems, out_dir / "compare_profile.png", f"{a} vs {b}")
        lines += ["", "![performance profile of the comparison](compare_profile.png)"]
    return lines


def write_data(rows: list[Row], summaries: dict[str, list[Summary]], out_dir: Path, shift: float) -> list[str]:
    """runs.csv, jobs.csv and summary.csv (and runs.parquet when an engine is importable); the names written."""
    export.write_runs_csv(rows, out_dir / "runs.csv")
    export.write_csv(job_records(rows, config_namer(rows)), out_dir / "jobs.csv")
    export.write_csv(summary_records(summaries, shift), out_dir / "summary.csv")
    written = list(DATA_FILES)
    if export.parquet_engine() is not None:
        export.write_runs_parquet(rows, out_dir / "runs.parquet")
        written.append("runs.parquet")
    return written


def _plot_names(problems: set[str]) -> list[str]:
    """Every plot a report of these or the registry's problems can write (the names it owns in its folder)."""
    from mipgames.registry import PROBLEMS

    suffixes = ["", *(f"_{name}" for name in sorted(problems | set(PROBLEMS)))]
    return ["compare_profile.png", *(f"{kind}{s}.png" for kind in ("performance_profile", "runtime") for s in suffixes)]


def write(
    rows: list[Row],
    hosts: dict[str, dict[str, Any]],
    out_dir: str | Path,
    sources: list[str],
    compare: list[str] | None = None,
    shift: float = stats.SHIFT_S,
    summaries: dict[str, list[Summary]] | None = None,
) -> Path:
    """Write report.md, its PNGs and its data files into out_dir; returns the Markdown path."""
    out_dir = Path(out_dir)
    if not rows:
        raise UsageError(f"no runs in {', '.join(sources)}")
    if compare:
        compare_sides(rows, compare[0], compare[1:])
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"--report {out_dir}: cannot create the folder: {exc.strerror or exc}") from None
    for stale in _plot_names({r["problem"] for r in rows}):
        (out_dir / stale).unlink(missing_ok=True)  # an earlier report's plots, of problems this one may not have
    summaries = summaries if summaries is not None else problem_summaries(rows, shift)
    configs = set(map(config_namer(rows), rows))
    lines = [
        "# Benchmark report",
        "",
        f"Generated {_dt.datetime.now(_dt.UTC).isoformat(timespec='seconds')} from "
        f"{', '.join(f'`{s}`' for s in sources)}: {len(rows)} runs, {len(configs)} configurations, "
        f"{len({r['instance_sha256'] for r in rows})} instances.",
        "",
        "## Settings",
        "",
    ]
    lines += [f"- {k}: {v}" for k, v in _settings(rows, shift).items()]
    params = sorted({r.get("params") or "{}" for r in rows})
    lines.append(f"- problem params: {'; '.join(f'`{p}`' for p in params)}")
    lines += [
        "- time: solver wall time measured by the runner (model build excluded, shown apart); "
        "unsolved runs are charged the time limit; with repeats, each job counts with its median run",
        f"- SGM: shifted geometric mean (Π(t + s))^(1/n) − s with shift s = {shift:g} s; the ratio to the best "
        f"is (SGM + s) / (SGM_best + s), the ratio of the shifted means (the geometric mean of the per-problem "
        f"ratios (t + s) / (t_best + s)), so sub-second noise is not magnified",
        "- solved = proved optimal or infeasible, answers replayed by the exact simulator; wins = problems "
        f"solved fastest (times under {stats.TIME_FLOOR_S:g} s tie)",
        "",
        "## Machine and versions",
        "",
    ]
    for host in sorted({r["host"] for r in rows if r.get("host")}):
        m = hosts.get(host, {})
        lines.append(
            f"- {host}: {m.get('cpu', '?')}, {m.get('cores', '?')} cores, {m.get('memory_gb', '?')} GB, "
            f"{m.get('os', '?')}, Python {m.get('python', '?')}"
        )
    lines.append(f"- mipgames {', '.join(sorted({version_label(r) for r in rows}))}")
    for solver in sorted({r["solver"] for r in rows}):
        versions = sorted({r.get("solver_version") or "unknown" for r in rows if r["solver"] == solver})
        lines.append(f"- {solver} {', '.join(versions)}")
    overheads = [
        r["job_time_s"] - r["wall_time_s"] - (r.get("build_time_s") or 0.0)
        for r in rows
        if r.get("job_time_s") is not None and r.get("wall_time_s") is not None
    ]
    if overheads:
        lines += [
            "",
            f"Harness overhead per run (job time in the worker minus solver and build time: "
            f"reading, fork, verification): median {statistics.median(overheads):.3f} s, "
            f"max {max(overheads):.3f} s.",
        ]
    names = sorted(summaries)
    for name in names:
        suffix = "" if len(names) == 1 else f"_{name}"
        lines += problem_section(
            [r for r in rows if r["problem"] == name],
            summaries[name],
            out_dir,
            suffix,
            "" if len(names) == 1 else f": {name}",
            config_namer(rows),
        )
    failed = [r for r in rows if r.get("verification_failed")]
    if failed:
        lines += ["", "## Failed verification (counted as errors, never as solved)", ""] + _grouped(failed)
    conflicts = disagreements(rows)
    if conflicts:
        lines += ["", "## Disagreements between runs", ""] + [f"- {c}" for c in conflicts]
    errors = [r for r in rows if r["outcome"] == "error" and not r.get("verification_failed")]
    if errors:
        lines += ["", "## Errors", ""] + _grouped(errors)
    if compare:
        lines += [""] + compare_section(rows, compare[0], compare[1:], out_dir, shift)
    written = write_data(rows, summaries, out_dir, shift)
    lines += [
        "",
        "## Data",
        "",
        "Every run (the database's columns), one line per job with min/median/max over its "
        "repeats, and the summary lines above, for pandas, R or a spreadsheet: "
        + ", ".join(f"[{f}]({f})" for f in written)
        + ".",
    ]
    return write_text_atomic(out_dir / "report.md", "\n".join(lines) + "\n")
