"""Work done so far and its rate, in words for a progress line: "141,694 playouts (28,519/s)".

The compiled searches of several problems tell their counts (playouts, nodes)
while they run; the rate is the work since a unit's first count over the time
since, so the loading before the first count does not lower it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, ParamSpec

P = ParamSpec("P")

RATE_AFTER_S = 0.5
"""A rate is shown once a unit's first count is this old (before that the count alone)."""


def amount(value: float) -> str:
    """A count as a reader takes it in at a glance: 141,694 in full, 2.13e+10 past ten million."""
    return f"{value:,.0f}" if value < 1e7 else f"{value:.3g}"


class WorkRate:
    """Counts so far by unit, and their rates, in a few words."""

    def __init__(self) -> None:
        self._first: dict[str, tuple[float, int]] = {}

    def words(self, totals: dict[str, int], now: float | None = None) -> str:
        now = time.monotonic() if now is None else now
        words = []
        for unit, count in sorted(totals.items()):
            t0, c0 = self._first.setdefault(unit, (now, count))
            rate = f" ({amount((count - c0) / (now - t0))}/s)" if now - t0 >= RATE_AFTER_S else ""
            words.append(f"{amount(count)} {unit}{rate}")
        return ", ".join(words)


def every(seconds: float, hook: Callable[P, None]) -> Callable[P, None]:
    """``hook`` called at most once every ``seconds`` (a search may tell its count after every slice)."""
    last = [float("-inf")]

    def throttled(*args: P.args, **kwargs: P.kwargs) -> None:
        now = time.monotonic()
        if now - last[0] >= seconds:
            last[0] = now
            hook(*args, **kwargs)

    return throttled


def work_words(report: Any) -> Callable[[int, str], None]:
    """A hook ``(count, unit)`` that shows the count so far and its rate on the progress line: the ``detail`` of
    a ``Report`` (``report(incumbent, bound, solution, detail)``; None leaves the incumbent and bound as they are)."""
    rate = WorkRate()
    return lambda count, unit: report(None, None, None, rate.words({unit: count}))
