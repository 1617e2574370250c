"""What a randomised search may still spend: a deadline, a playout budget and a target, in one place.

The compiled searches (NMCS, NRPA) run their top level in Python and hand
each compiled call a playout budget: what the node budget leaves, and what
the measured playout rate says fits before the deadline.  ``Allowance``
keeps that account for a search, so the drivers share one rule for "stop
now": past the deadline, budget spent, or a game reaching the target (a
proved bound, beyond which nothing exists).
"""

from __future__ import annotations

import time

import numpy as np

GUESS = 2000.0
"""Playouts a second guessed before any is measured, on a board of ``GUESS_CELLS`` (``guess_for``)."""
GUESS_CELLS = 225
"""The board size that guess was tuned on (15 x 15, the standard set)."""


class Rate:
    """Playouts per second measured so far, to size compiled calls so that they end near the deadline."""

    def __init__(self, guess: float = GUESS):
        self.count, self.seconds, self.guess = 0, 0.0, guess

    def add(self, count: int, seconds: float) -> None:
        self.count += count
        self.seconds += seconds

    def per_second(self) -> float:
        return self.count / self.seconds if self.seconds > 0.05 else self.guess


def guess_for(cells: int) -> float:
    """The first guess of the playout rate on a board of ``cells``: a playout costs about cells^2 (its moves times
    their groups), so a 64x64 board is guessed at 6 a second, not 2,000 (its first compiled call got 20,000
    playouts of 45 ms and no game came before the deadline).  A probe that started every search at one playout
    instead cost 4.7 % of the standard set's score at 10 s: its first level-2 searches were cut short."""
    return GUESS * min(1.0, (GUESS_CELLS / max(cells, 1)) ** 2)


BUDGET_CALLS = 16
"""Under a node budget, compiled calls of 1/16 of it (at least ``CALL_FLOOR``): where the budget is spent between
them does not depend on the clock, and the deadline is still looked at between calls."""
CALL_FLOOR = 64


def budget_for(
    rate: Rate, deadline: float | None, left: int | None, floor: int = CALL_FLOOR, budget: int | None = None
) -> int:
    """Playouts a compiled call may spend.  Without a node budget: what fits before the deadline at the measured
    rate.  With one (``budget``, of which ``left`` is left) and a deadline: a fixed share of it, whatever the clock
    says, so that a run that spends its budget before the deadline is the same run on any machine (sized by the
    measured rate, calls on a 40x40 board ended where the machine's speed put them: three runs, three games).
    With a budget and no deadline: all that is left, in one call."""
    if left is not None and budget is not None and deadline is not None:
        return max(1, min(left, max(floor, -(-budget // BUDGET_CALLS))))
    cap = left if left is not None else 1 << 60
    if deadline is not None:
        cap = min(cap, max(floor, int(rate.per_second() * (deadline - time.monotonic()))))
    return max(1, cap)


class Allowance:
    """The account of one search: playouts spent, the best value seen, and whether it must stop."""

    def __init__(self, deadline: float | None, max_playouts: int | None, target: int | None, cells: int = GUESS_CELLS):
        self.deadline, self.max_playouts, self.target = deadline, max_playouts, target
        self.spent = 0
        self.best: int | None = None
        self.rate = Rate(guess_for(cells))
        self._given = 0
        self._began = 0.0

    @property
    def unbounded(self) -> bool:
        """Neither a deadline nor a budget: a search that restarts would never end."""
        return self.deadline is None and self.max_playouts is None

    def grant(self) -> np.ndarray:
        """The budget array (``budget[0]`` playouts, counted down) for the next compiled call."""
        left = None if self.max_playouts is None else self.max_playouts - self.spent
        self._given = budget_for(self.rate, self.deadline, left, budget=self.max_playouts)
        self._began = time.monotonic()
        return np.array([self._given], dtype=np.int64)

    def settle(self, budget: np.ndarray) -> None:
        """Book what the compiled call that got ``budget`` from ``grant`` spent."""
        used = self._given - max(int(budget[0]), 0)
        self.spent += used
        self.rate.add(used, time.monotonic() - self._began)

    def improves(self, value: int) -> bool:
        """Whether ``value`` beats every game of the search so far (and then it is the new best)."""
        if self.best is not None and value <= self.best:
            return False
        self.best = int(value)
        return True

    def over(self) -> bool:
        """Past the deadline, out of playouts, or the target reached."""
        return (
            (self.deadline is not None and time.monotonic() > self.deadline)
            or (self.max_playouts is not None and self.spent >= self.max_playouts)
            or (self.target is not None and self.best is not None and self.best >= self.target)
        )
