"""The summaries OR papers use: shifted geometric means of running times, the virtual best solver and
Dolan–Moré performance profiles.

Pure functions on plain numbers so the maths can be checked by hand.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

SHIFT_S = 10.0
TIME_FLOOR_S = 0.01
"""Ratios of times below timer/harness noise mean nothing: times are raised to this before profile ratios."""


def shifted_geometric_mean(values: Sequence[float], shift: float = SHIFT_S) -> float:
    """(Π (t_i + s))^(1/n) − s: damps both huge outliers and ratios between tiny times."""
    if not values:
        raise ValueError("shifted geometric mean of no values")
    if any(v < 0 for v in values):
        raise ValueError("times must be non-negative")
    if not shift >= 0:
        raise ValueError("the shift must be non-negative")
    if any(v + shift == 0 for v in values):  # a factor 0 (shift 0 and a time of 0): the product is 0
        return 0.0
    return math.exp(sum(math.log(v + shift) for v in values) / len(values)) - shift


def sgm_ratio(sgm: float, base: float, shift: float = SHIFT_S) -> float:
    """(sgm + s) / (base + s): the ratio of the two shifted means, taken before the shift comes off.

    On a common problem set this is the geometric mean of the per-problem
    ratios (t_i + s) / (b_i + s), so it lies between their extremes.
    Dividing the means *after* subtracting the shift (sgm / base) lets two
    sub-second means that differ by timer noise read as a factor 2 or more,
    and makes the ratio infinite when the base is 0.
    """
    if sgm < 0 or base < 0:
        raise ValueError("shifted geometric means of times are non-negative")
    if base + shift == 0:
        return 1.0 if sgm == 0 else math.inf
    return (sgm + shift) / (base + shift)


def charged_time(time_s: float | None, solved: bool, time_limit: float) -> float:
    """Unsolved runs (timeouts and errors alike) count as the full time limit; solved runs at most that."""
    if not solved or time_s is None:
        return time_limit
    return min(max(time_s, 0.0), time_limit)


def performance_ratios(
    times: Mapping[str, Sequence[float | None]], floor: float = TIME_FLOOR_S
) -> dict[str, list[float]]:
    """r[s][p] = t[s][p] / min over solvers of t[.][p]; None (unsolved) becomes infinity.

    Every solver must list the same problems in the same order.  A problem no
    solver solved gives infinity for all.
    """
    lengths = {len(v) for v in times.values()}
    if len(lengths) > 1:
        raise ValueError("every solver must have a time (or None) for every problem")
    n = lengths.pop() if lengths else 0
    ratios: dict[str, list[float]] = {s: [] for s in times}
    for p in range(n):
        floored = {s: None if (v := t[p]) is None else max(v, floor) for s, t in times.items()}
        solved = [t for t in floored.values() if t is not None]
        best = min(solved) if solved else None
        for s, t in floored.items():
            ratios[s].append(math.inf if t is None or best is None else t / best)
    return ratios


def virtual_best(times: Mapping[str, Sequence[float | None]]) -> list[tuple[float | None, str | None]]:
    """Per problem, the fastest solving configuration's time and name (None, None when none solved).

    ``times`` maps each configuration to its time per problem (None:
    unsolved), the same problems in the same order for all.  Ties go to the
    configuration listed first.
    """
    lengths = {len(v) for v in times.values()}
    if len(lengths) > 1:
        raise ValueError("every configuration must have a time (or None) for every problem")
    best: list[tuple[float | None, str | None]] = []
    for p in range(lengths.pop() if lengths else 0):
        time: float | None = None
        winner: str | None = None
        for name, t in times.items():
            value = t[p]
            if value is not None and (time is None or value < time):
                time, winner = value, name
        best.append((time, winner))
    return best


def profile(ratios: Sequence[float], tau: float) -> float:
    """ρ(τ): the fraction of problems solved within a factor τ of the best solver."""
    if not ratios:
        return 0.0
    return sum(1 for r in ratios if r <= tau) / len(ratios)


def profile_steps(ratios: Sequence[float]) -> tuple[list[float], list[float]]:
    """The step function ρ(τ) as (τ, ρ) points at each finite ratio, starting at τ = 1."""
    taus = sorted({1.0, *(r for r in ratios if math.isfinite(r))})
    return taus, [profile(ratios, t) for t in taus]
