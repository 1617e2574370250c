"""What the rows of a campaign say, as numbers: runs per job, summaries per configuration, the virtual best.

A configuration is (solver, formulation), with the toolkit version added when
the rows hold more than one.  A *problem* is (instance, params); a *job* is a
configuration on a problem, run once per repeat.  With repeats, a job is
represented by its median run (the upper median for an even count, so a tie
between a solved and an unsolved run counts as unsolved): the summaries and the
profile use that run, and :func:`job_records` gives the min/median/max behind it.
Solved means a proved claim (optimal or infeasible); a run whose answer the
simulator rejected is an error, never solved.  Summaries run over the problems
every configuration ran, so no configuration is judged on a different set.
"""

from __future__ import annotations

import json
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mipgames.bench import stats
from mipgames.bench.jobs import ERROR, SOLVED, TIMEOUT

Row = dict[str, Any]
ProblemKey = tuple[str, str]
VIRTUAL_BEST = "virtual best"


def version_label(row: Row) -> str:
    commit = row.get("toolkit_commit") or ""
    return f"{row.get('toolkit_version')}" + (f"+{commit}" if commit else "")


def base_config(row: Row) -> str:
    return row["solver"] if not row.get("formulation") else f"{row['solver']}/{row['formulation']}"


def problem_key(row: Row) -> ProblemKey:
    return row["instance_sha256"], row.get("params") or "{}"


def solved(row: Row) -> bool:
    return row["outcome"] == SOLVED and not row.get("verification_failed")


def charged(row: Row) -> float:
    return stats.charged_time(row.get("wall_time_s"), solved(row), float(row["time_limit"]))


def median_run(runs: list[Row]) -> Row:
    """The run in the middle when sorted by charged time (unsolved after solved at equal time; among unsolved
    runs, all charged the limit, by wall time, so the median run's time is the median of theirs)."""
    ordered = sorted(
        runs, key=lambda r: (charged(r), not solved(r), r.get("wall_time_s") or 0.0, int(r.get("repeat") or 0))
    )
    return ordered[len(ordered) // 2]


@dataclass
class Table:
    """Rows indexed by configuration and problem: every repeat in ``runs``, the median run in ``by``."""

    runs: dict[str, dict[ProblemKey, list[Row]]] = field(default_factory=dict)
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


SETTINGS: tuple[tuple[str, Callable[[Any], str]], ...] = (
    ("time_limit", lambda v: f"{v:g} s"),
    ("threads", lambda v: f"{v} thread{'s' if v != 1 else ''}"),
    ("seed", lambda v: f"seed {v}"),
)
"""Options a job's identity holds beside its configuration: where runs differ in them, they are named."""


def settings_namer(rows: list[Row]) -> Callable[[Row], str]:
    """The time limit, threads or seed of a run, as " (5 s, seed 1)", for those the rows differ in ("" else)."""
    differ = [(name, say) for name, say in SETTINGS if len({r.get(name) for r in rows}) > 1]

    def name(r: Row) -> str:
        said = [say(r[key]) for key, say in differ if r.get(key) is not None]
        return f" ({', '.join(said)})" if said else ""

    return name


def config_namer(rows: list[Row]) -> Callable[[Row], str]:
    """solver/formulation, with @version added when the rows come from more than one toolkit version, and
    the time limit, threads or seed added where the rows differ in them: runs of one solver under two time
    limits are two configurations, not one whose latest run hides the other."""
    versions = len({version_label(r) for r in rows}) > 1
    settings = settings_namer(rows)

    def name(r: Row) -> str:
        return base_config(r) + (f" @{version_label(r)}" if versions else "") + settings(r)

    return name


def tabulate(rows: list[Row], config_of: Callable[[Row], str] | None = None) -> Table:
    """Index the rows; the latest run of a (configuration, problem, repeat) wins when it appears twice."""
    config_of = config_of or config_namer(rows)
    latest: dict[tuple[str, ProblemKey, int], Row] = {}
    stems: dict[str, set[str]] = defaultdict(set)
    table = Table()
    for r in sorted(rows, key=lambda r: r.get("finished_at") or ""):
        key = problem_key(r)
        latest[(config_of(r), key, int(r.get("repeat") or 0))] = r
        stem = Path(r["instance_path"] or r["instance_sha256"]).stem
        stems[stem].add(key[1])
    for (config, key, _), r in sorted(latest.items(), key=lambda kv: kv[0][2]):
        table.runs.setdefault(config, {}).setdefault(key, []).append(r)
        stem = Path(r["instance_path"] or r["instance_sha256"]).stem
        table.labels[key] = stem + (f" {_short_params(key[1])}" if len(stems[stem]) > 1 else "")
    table.by = {c: {k: median_run(runs) for k, runs in problems.items()} for c, problems in table.runs.items()}
    return table


def _short_params(params: str) -> str:
    data = json.loads(params)
    return ",".join(f"{k}={v}" for k, v in sorted(data.items()) if v is not None) or "default"


@dataclass
class Summary:
    """One line of a summary table; ``virtual`` marks the virtual best solver's line."""

    config: str
    runs: int
    solved: int
    timeout: int
    error: int
    failed_verification: int
    problems: int
    """How many problems the SGM, ratio and wins are over (the ones every configuration ran)."""
    sgm: float | None
    ratio: float | None = None
    wins: int | None = None
    """Problems where this configuration is (or ties within the timer floor with) the fastest solver."""
    build_s: float | None = None
    peak_mb: float | None = None
    virtual: bool = False


def summarise(
    table: Table,
    configs: list[str] | None = None,
    problems: list[ProblemKey] | None = None,
    shift: float = stats.SHIFT_S,
    virtual_best: bool = True,
) -> list[Summary]:
    """Counts over every run of each configuration; SGM, wins and the ratio to the best configuration's SGM
    over the common problems; and, for two or more configurations, the virtual best solver's line."""
    configs = configs if configs is not None else table.configs
    problems = problems if problems is not None else table.common(configs)
    times = {c: [table.by[c][p]["wall_time_s"] if solved(table.by[c][p]) else None for p in problems] for c in configs}
    ratios = stats.performance_ratios(times)
    out = []
    for c in configs:
        runs = [r for repeats in table.runs[c].values() for r in repeats]
        charged_times = [charged(table.by[c][p]) for p in problems]
        builds = [r["build_time_s"] for r in runs if r.get("build_time_s") is not None]
        peaks = [r["peak_rss_mb"] for r in runs if r.get("peak_rss_mb") is not None]
        out.append(
            Summary(
                config=c,
                runs=len(runs),
                solved=sum(solved(r) for r in runs),
                timeout=sum(r["outcome"] == TIMEOUT for r in runs),
                error=sum(r["outcome"] == ERROR for r in runs),
                failed_verification=sum(bool(r.get("verification_failed")) for r in runs),
                problems=len(problems),
                sgm=stats.shifted_geometric_mean(charged_times, shift) if charged_times else None,
                wins=sum(r == 1.0 for r in ratios[c]) if problems else None,
                build_s=statistics.median(builds) if builds else None,
                peak_mb=max(peaks) if peaks else None,
            )
        )
    if virtual_best and len(configs) > 1 and problems:
        out.append(_virtual_best(table, configs, problems, shift))
    best = min((s.sgm for s in out if s.sgm is not None and not s.virtual), default=None)
    for s in out:
        if s.sgm is not None and best is not None:
            s.ratio = stats.sgm_ratio(s.sgm, best, shift)
    return out


def _virtual_best(table: Table, configs: list[str], problems: list[ProblemKey], shift: float) -> Summary:
    """A perfect portfolio of the configurations: on each problem, the fastest proof any of them found; where
    none found one, the cheapest charge of theirs (the shortest time limit: charged the longest, the virtual
    best came out slower than a configuration under mixed limits)."""
    best = stats.virtual_best(
        {c: [charged(table.by[c][p]) if solved(table.by[c][p]) else None for p in problems] for c in configs}
    )
    limits = [min(charged(table.by[c][p]) for c in configs) for p in problems]
    charged_times = [limit if t is None else t for (t, _), limit in zip(best, limits)]
    n_solved = sum(t is not None for t, _ in best)
    return Summary(
        config=VIRTUAL_BEST,
        runs=len(problems),
        solved=n_solved,
        timeout=len(problems) - n_solved,
        error=0,
        failed_verification=0,
        problems=len(problems),
        sgm=stats.shifted_geometric_mean(charged_times, shift),
        virtual=True,
    )


def virtual_best_picks(table: Table, configs: list[str], problems: list[ProblemKey]) -> dict[ProblemKey, Row | None]:
    """Per problem, the median run of the fastest configuration that solved it (None: nobody did)."""
    best = stats.virtual_best(
        {c: [charged(table.by[c][p]) if solved(table.by[c][p]) else None for p in problems] for c in configs}
    )
    return {p: None if name is None else table.by[name][p] for p, (_, name) in zip(problems, best)}


def summary_records(summaries: dict[str, list[Summary]], shift: float) -> list[dict[str, Any]]:
    """The summary lines of every problem as flat records (the JSON output and summary.csv)."""
    return [
        {
            "problem": name,
            "configuration": s.config,
            "virtual_best": s.virtual,
            "runs": s.runs,
            "solved": s.solved,
            "timeout": s.timeout,
            "error": s.error,
            "failed_verification": s.failed_verification,
            "common_problems": s.problems,
            "wins": s.wins,
            "sgm_s": s.sgm,
            "sgm_shift_s": shift,
            "ratio_to_best": s.ratio,
            "median_build_s": s.build_s,
            "max_peak_rss_mb": s.peak_mb,
        }
        for name, lines in summaries.items()
        for s in lines
    ]


def job_records(rows: list[Row], config_of: Callable[[Row], str] | None = None) -> list[dict[str, Any]]:
    """One record per job (configuration on a problem): its repeats' outcomes and min/median/max wall time."""
    config_of = config_of or config_namer(rows)
    records = []
    for name in sorted({r["problem"] for r in rows}):
        table = tabulate([r for r in rows if r["problem"] == name], config_of)
        for p in table.all_problems():
            for c in table.configs:
                runs = table.runs[c].get(p)
                if not runs:
                    continue
                walls = sorted(r["wall_time_s"] for r in runs if r.get("wall_time_s") is not None)
                median = table.by[c][p]
                records.append(
                    {
                        "problem": name,
                        "instance": table.labels[p],
                        "instance_sha256": p[0],
                        "params": p[1],
                        "configuration": c,
                        "runs": len(runs),
                        "solved": sum(solved(r) for r in runs),
                        "statuses": ",".join(f"{s}×{n}" for s, n in sorted(Counter(r["status"] for r in runs).items())),
                        "min_s": min(walls, default=None),
                        "median_s": walls[len(walls) // 2] if walls else None,  # the upper median, as the
                        # summaries' median run (an unsolved run of an early repeat was shown before)
                        "max_s": max(walls, default=None),
                        "median_run_status": median["status"],
                        "median_run_objective": median["objective"],
                    }
                )
    return records


def counts(rows: list[Row]) -> dict[str, int]:
    return {
        "runs": len(rows),
        "solved": sum(solved(r) for r in rows),
        "timeout": sum(r["outcome"] == TIMEOUT for r in rows),
        "error": sum(r["outcome"] == ERROR for r in rows),
        "failed_verification": sum(bool(r.get("verification_failed")) for r in rows),
    }


def disagreements(rows: list[Row]) -> list[str]:
    """Claims that cannot all be true: two different proved optima, a verified answer beating a proved
    optimum, or a verified answer where another run proved infeasibility."""
    groups: dict[tuple[str, str], list[Row]] = defaultdict(list)
    for r in rows:
        groups[problem_key(r)].append(r)
    found = []
    for runs in groups.values():
        name = Path(runs[0]["instance_path"] or runs[0]["instance_sha256"]).stem
        optima = {
            (round(r["objective"], 6), base_config(r))
            for r in runs
            if r["status"] == "optimal" and r["objective"] is not None
        }
        values = sorted({v for v, _ in optima})
        if len(values) > 1:
            found.append(f"{name}: different proved optima " + ", ".join(f"{c}={v:g}" for v, c in sorted(optima)))
        verified = [r for r in runs if r.get("verified") and r["objective"] is not None]
        if any(r["status"] == "infeasible" for r in runs) and verified:
            found.append(
                f"{name}: {', '.join(sorted({base_config(r) for r in runs if r['status'] == 'infeasible'}))}"
                f" proved infeasible but {base_config(verified[0])} has a verified solution"
            )
        if len(values) == 1 and verified:
            sense = verified[0].get("sense") or "min"
            better = [
                r
                for r in verified
                if (r["objective"] < values[0] - 1e-6 if sense == "min" else r["objective"] > values[0] + 1e-6)
            ]
            for r in better:
                found.append(
                    f"{name}: {base_config(r)} verified {r['objective']:g}, better than the proved "
                    f"optimum {values[0]:g}"
                )
    return found


def provenance(runs: list[Row]) -> tuple[Counter[str], Counter[str], Counter[str]]:
    """Who proved the proved claims, why the others stopped, and how the claim rule changed reports."""
    provers: Counter[str] = Counter()
    stops: Counter[str] = Counter()
    changed: Counter[str] = Counter()
    for r in runs:
        if solved(r):
            late = " (the solver stopped on its time limit)" if r.get("stop") == "time limit" else ""
            provers[f"{r['status']} by {r.get('proved_by') or 'unrecorded'}{late}"] += 1
        elif r["outcome"] == TIMEOUT:
            stops[r.get("stop") or ("finished without proof" if r.get("reported_status") else "unrecorded")] += 1
        reported = r.get("reported_status")
        if reported and reported != r["status"]:
            changed[f"{reported} → {r['status']}"] += 1
    return provers, stops, changed
