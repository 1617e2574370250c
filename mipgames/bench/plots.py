"""The report's pictures: the Dolan–Moré performance profile (log τ axis) and the runtime per instance."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from mipgames.bench import stats
from mipgames.bench.tables import VIRTUAL_BEST, ProblemKey, Table, charged, solved
from mipgames.core.figures import pyplot, save_figure


def profile_figure(table: Table, configs: list[str], problems: list[ProblemKey], title: str) -> Any:
    """ρ_s(τ), the fraction of problems configuration s solves within τ times the fastest, on a log₂ τ axis.

    The virtual best solver is drawn dashed: it solves at τ = 1 whatever any
    configuration solves, so its line is the ceiling every curve can reach.
    """
    plt = pyplot()
    times = {c: [table.by[c][p]["wall_time_s"] if solved(table.by[c][p]) else None for p in problems] for c in configs}
    ratios = stats.performance_ratios(times)
    finite = [r for rs in ratios.values() for r in rs if math.isfinite(r)]
    right = max(2.0, max(finite, default=1.0) * 1.5)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    if len(configs) > 1:  # drawn first, wide and grey: a configuration that reaches the ceiling stays visible
        ceiling = sum(any(t[i] is not None for t in times.values()) for i in range(len(problems))) / len(problems)
        ax.plot(
            [1, right], [ceiling, ceiling], linestyle="--", color="grey", linewidth=3, alpha=0.6, label=VIRTUAL_BEST
        )
    for c in configs:
        taus, rho = stats.profile_steps(ratios[c])
        ax.step(taus + [right], rho + [rho[-1]], where="post", label=c)
    ax.set_xscale("log", base=2)
    ax.set_xlim(1, right)
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("τ (time within a factor τ of the fastest; log scale)")
    ax.set_ylabel("fraction of problems solved")
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    return fig


def save(fig: Any, path: Path) -> None:
    save_figure(fig, path, dpi=120)


def plot_profile(table: Table, configs: list[str], problems: list[ProblemKey], path: Path, title: str) -> None:
    save(profile_figure(table, configs, problems, title), path)


def plot_runtimes(table: Table, configs: list[str], problems: list[ProblemKey], path: Path) -> None:
    plt = pyplot()
    order = sorted(problems, key=lambda p: (min(charged(table.by[c][p]) for c in configs), table.labels[p]))
    limit = max(float(table.by[c][p]["time_limit"]) for c in configs for p in problems)
    fig, ax = plt.subplots(figsize=(max(6.0, 0.35 * len(order) + 3), 4.5))
    markers = "os^Dv<>pPh*"
    for i, c in enumerate(configs):
        xs = range(len(order))
        ys = [max(charged(table.by[c][p]), 1e-3) for p in order]
        done = [solved(table.by[c][p]) for p in order]
        line = ax.plot(
            [x for x, d in zip(xs, done) if d],
            [y for y, d in zip(ys, done) if d],
            markers[i % len(markers)],
            label=c,
            alpha=0.8,
        )[0]
        ax.plot(
            [x for x, d in zip(xs, done) if not d],
            [y for y, d in zip(ys, done) if not d],
            "x",
            color=line.get_color(),
            alpha=0.8,
        )
    ax.axhline(limit, color="grey", linestyle="--", linewidth=1, label="time limit (× = unsolved)")
    ax.set_yscale("log")
    ax.set_xticks(range(len(order)))
    ax.set_xticklabels([table.labels[p] for p in order], rotation=60, ha="right", fontsize=7)
    ax.set_ylabel("solver wall time (s)")
    ax.set_title("Runtime per instance (median run; sorted by the fastest configuration)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    save(fig, path)
