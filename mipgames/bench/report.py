"""The campaign report: a Markdown page an OR engineer could publish, plus PNG plots.

Time is the solver wall time the runner measured (model build excluded and
shown apart).  A configuration is (solver, formulation), with the toolkit
version added when the rows hold more than one.  A "problem" for the
summaries is (instance, params, repeat).  Solved means proved optimal or
proved infeasible; a run whose answer the simulator rejected is an error and
is flagged, never solved.  Summaries run over the problems every
configuration ran, so no configuration is judged on a different set.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import statistics
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from mipgames.bench import stats
from mipgames.bench.jobs import SOLVED
from mipgames.core.errors import UsageError

Row = dict[str, Any]
ProblemKey = tuple[str, str, int]


def version_label(row: Row) -> str:
    commit = row.get("toolkit_commit") or ""
    return f"{row.get('toolkit_version')}" + (f"+{commit}" if commit else "")


def base_config(row: Row) -> str:
    return row["solver"] if not row.get("formulation") else f"{row['solver']}/{row['formulation']}"


def problem_key(row: Row) -> ProblemKey:
    return row["instance_sha256"], row.get("params") or "{}", int(row.get("repeat") or 0)


def solved(row: Row) -> bool:
    return row["outcome"] == SOLVED and not row.get("verification_failed")


def charged(row: Row) -> float:
    return stats.charged_time(row.get("wall_time_s"), solved(row), float(row["time_limit"]))


@dataclass
class Table:
    """Rows indexed by configuration and problem (latest run wins when a job appears twice)."""

    by: dict[str, dict[ProblemKey, Row]] = field(default_factory=dict)
    labels: dict[ProblemKey, str] = field(default_factory=dict)

    @property
    def configs(self) -> list[str]:
        return sorted(self.by)

    def common(self, configs: Iterable[str] | None = None) -> list[ProblemKey]:
        chosen = [self.by[c] for c in (configs if configs is not None else self.by)]
        if not chosen:
            return []
        keys = set(chosen[0]).intersection(*chosen[1:])
        return sorted(keys, key=lambda k: (self.labels[k], k))

    def all_problems(self) -> list[ProblemKey]:
        keys = {k for runs in self.by.values() for k in runs}
        return sorted(keys, key=lambda k: (self.labels[k], k))


def tabulate(rows: list[Row], config_of=None) -> Table:
    if config_of is None:
        versions = {version_label(r) for r in rows}
        config_of = base_config if len(versions) <= 1 else (lambda r: f"{base_config(r)} @{version_label(r)}")
    table = Table()
    repeats = max((int(r.get("repeat") or 0) for r in rows), default=0)
    stems: dict[str, set[str]] = defaultdict(set)
    for r in rows:
        stems[Path(r["instance_path"] or r["instance_sha256"]).stem].add(r.get("params") or "{}")
    for r in sorted(rows, key=lambda r: r.get("finished_at") or ""):
        key = problem_key(r)
        table.by.setdefault(config_of(r), {})[key] = r
        stem = Path(r["instance_path"] or r["instance_sha256"]).stem
        label = stem + (f" {_short_params(key[1])}" if len(stems[stem]) > 1 else "")
        table.labels[key] = label + (f" #{key[2]}" if repeats else "")
    return table


def _short_params(params: str) -> str:
    data = json.loads(params)
    return ",".join(f"{k}={v}" for k, v in sorted(data.items()) if v is not None) or "default"


@dataclass
class Summary:
    config: str
    runs: int
    solved: int
    timeout: int
    error: int
    failed_verification: int
    sgm: float | None
    ratio: float | None = None
    build_s: float | None = None
    peak_mb: float | None = None


def summarise(table: Table, configs: list[str] | None = None, problems: list[ProblemKey] | None = None) -> list[Summary]:
    """Counts over every run of each configuration; SGM (and its ratio to the best) over the common problems."""
    configs = configs if configs is not None else table.configs
    problems = problems if problems is not None else table.common(configs)
    out = []
    for c in configs:
        runs = list(table.by[c].values())
        charged_times = [charged(table.by[c][p]) for p in problems]
        builds = [r["build_time_s"] for r in runs if r.get("build_time_s") is not None]
        peaks = [r["peak_rss_mb"] for r in runs if r.get("peak_rss_mb") is not None]
        out.append(Summary(
            config=c, runs=len(runs), solved=sum(solved(r) for r in runs),
            timeout=sum(r["outcome"] == "timeout" for r in runs),
            error=sum(r["outcome"] == "error" for r in runs),
            failed_verification=sum(bool(r.get("verification_failed")) for r in runs),
            sgm=stats.shifted_geometric_mean(charged_times) if charged_times else None,
            build_s=statistics.median(builds) if builds else None, peak_mb=max(peaks) if peaks else None))
    best = min((s.sgm for s in out if s.sgm is not None), default=None)
    for s in out:
        if s.sgm is not None and best is not None:
            s.ratio = _ratio(s.sgm, best)
    return out


def _ratio(x: float, base: float) -> float:
    if base > 0:
        return x / base
    return 1.0 if x == 0 else math.inf


def disagreements(rows: list[Row]) -> list[str]:
    """Claims that cannot all be true: two different proved optima, a verified answer beating a proved
    optimum, or a verified answer where another run proved infeasibility."""
    groups: dict[tuple[str, str], list[Row]] = defaultdict(list)
    for r in rows:
        groups[(r["instance_sha256"], r.get("params") or "{}")].append(r)
    found = []
    for runs in groups.values():
        name = Path(runs[0]["instance_path"] or runs[0]["instance_sha256"]).stem
        optima = {(round(r["objective"], 6), base_config(r)) for r in runs
                  if r["status"] == "optimal" and r["objective"] is not None}
        values = sorted({v for v, _ in optima})
        if len(values) > 1:
            found.append(f"{name}: different proved optima " + ", ".join(f"{c}={v:g}" for v, c in sorted(optima)))
        verified = [r for r in runs if r.get("verified") and r["objective"] is not None]
        if any(r["status"] == "infeasible" for r in runs) and verified:
            found.append(f"{name}: {', '.join(sorted({base_config(r) for r in runs if r['status'] == 'infeasible'}))}"
                         f" proved infeasible but {base_config(verified[0])} has a verified solution")
        if len(values) == 1 and verified:
            sense = verified[0].get("sense") or "min"
            better = [r for r in verified if (r["objective"] < values[0] - 1e-6 if sense == "min"
                                              else r["objective"] > values[0] + 1e-6)]
            for r in better:
                found.append(f"{name}: {base_config(r)} verified {r['objective']:g}, better than the proved "
                             f"optimum {values[0]:g}")
    return found


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
        return f"{r['wall_time_s']:.2f}{obj}" if r["status"] == "optimal" else f"{r['wall_time_s']:.2f} infeasible"
    return f"timeout{obj}"


def _settings(rows: list[Row]) -> dict[str, str]:
    def values(col: str) -> str:
        found = sorted({r.get(col) for r in rows}, key=lambda v: (v is None, str(v)))
        text = ", ".join("—" if v is None else f"{v:g}" if isinstance(v, float) else str(v) for v in found)
        return text + ("  **(mixed: comparisons across these are not fair)**" if len(found) > 1 else "")

    return {"time limit (s)": values("time_limit"), "threads per run": values("threads"), "seed": values("seed"),
            "runs in parallel on a machine": values("parallel_jobs"),
            "repeats": str(1 + max(int(r.get("repeat") or 0) for r in rows))}


def _summary_table(summaries: list[Summary]) -> list[str]:
    lines = ["| configuration | runs | solved | timeout | error | failed verification | SGM time (s) | ratio to best "
             "| median build (s) | max peak RSS (MB) |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for s in sorted(summaries, key=lambda s: (s.sgm is None, s.sgm or 0, s.config)):
        flag = f"**{s.failed_verification}**" if s.failed_verification else "0"
        lines.append(f"| {s.config} | {s.runs} | {s.solved} | {s.timeout} | {s.error} | {flag} | {_fmt(s.sgm)} "
                     f"| {_fmt(s.ratio)} | {_fmt(s.build_s, 3)} | {_fmt(s.peak_mb, 0)} |")
    return lines


def plot_profile(table: Table, configs: list[str], problems: list[ProblemKey], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    times = {c: [table.by[c][p]["wall_time_s"] if solved(table.by[c][p]) else None for p in problems]
             for c in configs}
    ratios = stats.performance_ratios(times)
    finite = [r for rs in ratios.values() for r in rs if math.isfinite(r)]
    right = max(2.0, max(finite, default=1.0) * 1.5)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for c in configs:
        taus, rho = stats.profile_steps(ratios[c])
        ax.step(taus + [right], rho + [rho[-1]], where="post", label=c)
    ax.set_xscale("log", base=2)
    ax.set_xlim(1, right)
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("τ (time within a factor τ of the best configuration)")
    ax.set_ylabel("fraction of problems solved")
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_runtimes(table: Table, configs: list[str], problems: list[ProblemKey], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    order = sorted(problems, key=lambda p: (min(charged(table.by[c][p]) for c in configs), table.labels[p]))
    limit = max(float(table.by[c][p]["time_limit"]) for c in configs for p in problems)
    fig, ax = plt.subplots(figsize=(max(6.0, 0.35 * len(order) + 3), 4.5))
    markers = "os^Dv<>pPh*"
    for i, c in enumerate(configs):
        xs = range(len(order))
        ys = [max(charged(table.by[c][p]), 1e-3) for p in order]
        done = [solved(table.by[c][p]) for p in order]
        line = ax.plot([x for x, d in zip(xs, done) if d], [y for y, d in zip(ys, done) if d],
                       markers[i % len(markers)], label=c, alpha=0.8)[0]
        ax.plot([x for x, d in zip(xs, done) if not d], [y for y, d in zip(ys, done) if not d], "x",
                color=line.get_color(), alpha=0.8)
    ax.axhline(limit, color="grey", linestyle="--", linewidth=1, label="time limit (× = unsolved)")
    ax.set_yscale("log")
    ax.set_xticks(range(len(order)))
    ax.set_xticklabels([table.labels[p] for p in order], rotation=60, ha="right", fontsize=7)
    ax.set_ylabel("solver wall time (s)")
    ax.set_title("Runtime per instance (sorted by the fastest configuration)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def compare_section(rows: list[Row], kind: str, values: list[str], out_dir: Path) -> list[str]:
    """Two formulations (per solver) or two toolkit versions (per solver/formulation), side by side,
    each pair on the problems both sides ran."""
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
    a, b = values
    chosen = [r for r in rows if side_of(r) in (a, b)]
    table = tabulate(chosen, config_of=lambda r: f"{pair_of(r)} [{side_of(r)}]")
    lines = [f"## Comparison of {kind}s: {a} vs {b}", "",
             f"Each line compares the two on the problems both ran; ratio = SGM({b}) / SGM({a}) "
             f"(below 1: {b} is faster).", "",
             f"| {'solver' if kind == 'formulation' else 'configuration'} | problems | solved {a} | solved {b} "
             f"| SGM {a} (s) | SGM {b} (s) | ratio |", "|---|---:|---:|---:|---:|---:|---:|"]
    configs: list[str] = []
    for pair in sorted({pair_of(r) for r in chosen}):
        ca, cb = f"{pair} [{a}]", f"{pair} [{b}]"
        if ca not in table.by or cb not in table.by:
            continue
        common = table.common([ca, cb])
        if not common:
            continue
        sa, sb = summarise(table, [ca, cb], common)
        solved_a = sum(solved(table.by[ca][p]) for p in common)
        solved_b = sum(solved(table.by[cb][p]) for p in common)
        ratio = _ratio(sb.sgm, sa.sgm)
        lines.append(f"| {pair} | {len(common)} | {solved_a} | {solved_b} | {_fmt(sa.sgm)} | {_fmt(sb.sgm)} "
                     f"| {_fmt(ratio)} |")
        configs += [ca, cb]
    if not configs:
        return lines + ["", f"No solver ran both {a} and {b} on a common problem."]
    problems = table.common(configs)
    if problems:
        plot_profile(table, configs, problems, out_dir / "compare_profile.png", f"{a} vs {b}")
        lines += ["", "![performance profile of the comparison](compare_profile.png)"]
    return lines


def problem_section(rows: list[Row], out_dir: Path, suffix: str, heading: str) -> list[str]:
    """Summary table, plots and per-instance runs of one problem: configurations compare within a problem."""
    table = tabulate(rows)
    configs, problems, everything = table.configs, table.common(), table.all_problems()
    lines = ["", f"## Summary{heading}", ""]
    if len(problems) < len(everything):
        lines += [f"SGM and profile use the {len(problems)} problems every configuration ran; "
                  f"{len(everything) - len(problems)} are left out (missing runs: incomplete campaign or a "
                  "formulation that does not apply).", ""]
    lines += _summary_table(summarise(table))
    if problems:
        profile, runtime = f"performance_profile{suffix}.png", f"runtime{suffix}.png"
        plot_profile(table, configs, problems, out_dir / profile,
                     f"Performance profile{heading} ({len(problems)} problem{'s' if len(problems) != 1 else ''})")
        plot_runtimes(table, configs, problems, out_dir / runtime)
        lines += ["", f"![Dolan–Moré performance profile]({profile})", "", f"![runtime per instance]({runtime})"]
    lines += ["", f"### Runs per instance{heading}", "",
              "Solver seconds (objective) when solved; `timeout` (best verified objective); `·` not run.", "",
              "| instance | " + " | ".join(configs) + " |", "|---|" + "---:|" * len(configs)]
    for p in everything:
        lines.append(f"| {table.labels[p]} | " + " | ".join(_cell(table.by[c].get(p)) for c in configs) + " |")
    return lines


def write(rows: list[Row], hosts: dict[str, dict[str, Any]], out_dir: str | Path, sources: list[str],
          compare: list[str] | None = None) -> Path:
    """Write report.md (and its PNGs) into out_dir; returns the Markdown path."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    if not rows:
        raise UsageError(f"no runs in {', '.join(sources)}")
    configs = {base_config(r) for r in rows}
    lines = ["# Benchmark report", "",
             f"Generated {_dt.datetime.now(_dt.timezone.utc).isoformat(timespec='seconds')} from "
             f"{', '.join(f'`{s}`' for s in sources)}: {len(rows)} runs, {len(configs)} configurations, "
             f"{len({r['instance_sha256'] for r in rows})} instances.", "", "## Settings", ""]
    lines += [f"- {k}: {v}" for k, v in _settings(rows).items()]
    params = sorted({r.get("params") or "{}" for r in rows})
    lines.append(f"- problem params: {'; '.join(f'`{p}`' for p in params)}")
    lines += ["- time: solver wall time measured by the runner (model build excluded, shown apart); "
              "unsolved runs are charged the time limit",
              f"- SGM: shifted geometric mean, shift {stats.SHIFT_S:g} s; solved = proved optimal or infeasible, "
              "answers replayed by the exact simulator", "", "## Machine and versions", ""]
    for host in sorted({r["host"] for r in rows if r.get("host")}):
        m = hosts.get(host, {})
        lines.append(f"- {host}: {m.get('cpu', '?')}, {m.get('cores', '?')} cores, {m.get('memory_gb', '?')} GB, "
                     f"{m.get('os', '?')}, Python {m.get('python', '?')}")
    lines.append(f"- mipgames {', '.join(sorted({version_label(r) for r in rows}))}")
    for solver in sorted({r["solver"] for r in rows}):
        versions = sorted({r.get("solver_version") or "unknown" for r in rows if r["solver"] == solver})
        lines.append(f"- {solver} {', '.join(versions)}")
    overheads = [r["job_time_s"] - r["wall_time_s"] - (r.get("build_time_s") or 0.0) for r in rows
                 if r.get("job_time_s") is not None and r.get("wall_time_s") is not None]
    if overheads:
        lines += ["", f"Harness overhead per run (job time in the worker minus solver and build time: "
                      f"reading, fork, verification): median {statistics.median(overheads):.3f} s, "
                      f"max {max(overheads):.3f} s."]
    names = sorted({r["problem"] for r in rows})
    for name in names:
        suffix = "" if len(names) == 1 else f"_{name}"
        lines += problem_section([r for r in rows if r["problem"] == name], out_dir, suffix,
                                 "" if len(names) == 1 else f": {name}")
    failed = [r for r in rows if r.get("verification_failed")]
    if failed:
        lines += ["", "## Failed verification (counted as errors, never as solved)", ""]
        lines += [f"- {base_config(r)} on {Path(r['instance_path']).name}: {r['message']}" for r in failed]
    conflicts = disagreements(rows)
    if conflicts:
        lines += ["", "## Disagreements between runs", ""] + [f"- {c}" for c in conflicts]
    errors = [r for r in rows if r["outcome"] == "error" and not r.get("verification_failed")]
    if errors:
        lines += ["", "## Errors", ""]
        lines += [f"- {base_config(r)} on {Path(r['instance_path']).name}: {(r['message'] or '')[:200]}"
                  for r in errors]
    if compare:
        lines += [""] + compare_section(rows, compare[0], compare[1:], out_dir)
    path = out_dir / "report.md"
    path.write_text("\n".join(lines) + "\n")
    return path
