"""The status vocabulary and the one rule that decides what may be claimed.

Every backend, algorithm and portfolio *reports* a status; only :func:`decide`
turns a report into a *claim*.  The runner calls it after the simulator has
replayed the solution, and ``verify`` calls it again on a certificate, so a
status printed by a solve and a status accepted by ``verify`` follow the same
rule:

- ``optimal`` needs a finite bound equal to the replayed objective (integral
  objectives compare after the bound is rounded inwards); a missing or NaN
  bound, a gap stop or a solver's "optimal within tolerance" give ``feasible``;
- ``infeasible`` and ``unbounded`` only come from a prover that reported them
  with valid limits and no verified solution beside them;
- a bound better than a verified objective is a broken proof: ``error``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

Sense = Literal["min", "max"]


def shown(value: float | None) -> str:
    """An objective or bound as people read it: a whole number in full (``:g`` printed 16761836 as 1.67618e+07,
    and two scores alike), any other to 12 significant digits."""
    if value is None:
        return "none"
    if math.isfinite(value) and value == int(value) and abs(value) < 1e18:
        return str(int(value))
    return f"{value:.12g}"


def amount(value: float | None, name: str) -> str:
    """An objective with its name, the name's first plural noun made singular for one: "1 queen remaining",
    "1 mismatched inner edge" ("1 queens remaining" before)."""
    if value != 1:
        return f"{shown(value)} {name}"
    words = name.split(" ")
    for i, word in enumerate(words):
        if word.endswith("s") and len(word) > 2:
            words[i] = word[:-1]
            break
    return f"{shown(value)} {' '.join(words)}"


class Status(StrEnum):
    """What a run found out; the strings are the ones certificates store."""

    OPTIMAL = "optimal"
    FEASIBLE = "feasible"
    INFEASIBLE = "infeasible"
    UNBOUNDED = "unbounded"
    UNKNOWN = "unknown"
    ERROR = "error"

    @property
    def has_solution(self) -> bool:
        return self in (Status.OPTIMAL, Status.FEASIBLE)

    @property
    def proved(self) -> bool:
        """A claim that rests on a proof (of a bound or of emptiness), not only on a replayed solution."""
        return self in (Status.OPTIMAL, Status.INFEASIBLE, Status.UNBOUNDED)


EXIT_CODES: dict[Status, int] = {
    Status.OPTIMAL: 0,
    Status.FEASIBLE: 0,
    Status.ERROR: 1,
    Status.INFEASIBLE: 2,
    Status.UNBOUNDED: 2,
    Status.UNKNOWN: 3,
}

RELATIVE_TOLERANCE = 1e-9
"""How close a non-integral bound must be to the objective to prove it: a solver's own tolerances are far looser."""


SHOWN_ITEMS = 200
"""Moves, merges or clicks a solve's summary lists: a full 128 x 128 queens board's answer has 8,000 and more, a
500 x 500 merge map's 21,000.  The certificate has them all."""


SHOWN_INLINE = 64
"""Items a summary lists on one line (queens left, stones destroyed): a 1,000 x 1,000 merge map's answer destroys
97,000 stones, once printed as a 1 MB line."""


def listed(items: list[str], limit: int = SHOWN_INLINE) -> str:
    """The first ``limit`` items joined by commas, and how many more there are."""
    more = len(items) - limit
    return ", ".join(items[:limit]) + (f", and {more:,} more (the certificate lists them all)" if more > 0 else "")


def capped(lines: list[str], noun: str, limit: int = SHOWN_ITEMS) -> list[str]:
    """The first ``limit`` of a summary's lines, and a line saying how many more ``noun`` there are."""
    if len(lines) <= limit:
        return lines
    return [*lines[:limit], f"  ... and {len(lines) - limit:,} more {noun} (the certificate has them all)"]


def finite(x: object) -> float | None:
    """x as a float when it is a finite real number (not a bool), else None."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return None
    try:
        value = float(x)
    except (OverflowError, ValueError):
        return None
    return value if math.isfinite(value) else None


def round_bound(bound: float | None, sense: Sense, integral: bool) -> float | None:
    """A proved bound on an integral objective can be rounded inwards and stays proved; NaN/inf are no bound."""
    value = finite(bound)
    if value is None or not integral:
        return value
    return float(math.ceil(value - 1e-6) if sense == "min" else math.floor(value + 1e-6))


def tighter(a: float, b: float, sense: Sense) -> bool:
    """True when bound a proves more than bound b."""
    return a > b if sense == "min" else a < b


def better(a: float, b: float, sense: Sense) -> bool:
    """True when objective a is a better answer than objective b."""
    return a < b if sense == "min" else a > b


def same(a: float, b: float) -> bool:
    return abs(a - b) <= RELATIVE_TOLERANCE * max(1.0, abs(a), abs(b))


@dataclass(frozen=True)
class Claim:
    """What may be said: a status, the objective and bound behind it, and who proved it."""

    status: Status
    objective: float | None
    bound: float | None
    proved_by: str
    """The prover of the status: of the bound for optimal/feasible, of emptiness for infeasible/unbounded."""
    reason: str = ""
    """Why the claim differs from the report (empty when it does not)."""


def best_bound(bounds: Iterable[tuple[object, str]], sense: Sense, integral: bool) -> tuple[float | None, str]:
    """The tightest valid bound among (value, prover) pairs, rounded inwards; non-finite values are ignored."""
    best: float | None = None
    by = ""
    for value, prover in bounds:
        rounded = round_bound(value, sense, integral)  # type: ignore[arg-type]
        if rounded is not None and (best is None or tighter(rounded, best, sense)):
            best, by = rounded, prover
    return best, by


def decide(
    reported: Status | str,
    objective: float | None,
    bounds: Iterable[tuple[object, str]],
    sense: Sense,
    *,
    integral: bool,
    prover: str,
    target: float | None = None,
) -> Claim:
    """The claim a report supports.

    ``objective`` is the objective the simulator measured when it replayed a
    legal solution (None: no solution was replayed).  ``bounds`` are
    (value, who proved it) pairs: the solver's best bound and any bound the
    problem proves by itself; the tightest finite one counts.  ``prover``
    names the solver or algorithm that made the report.  ``target`` is the
    objective a decision must reach: a bound beyond it proves the decision
    infeasible when no solution was replayed.
    """
    reported = Status(reported)
    bound, bound_by = best_bound(bounds, sense, integral)
    if reported is Status.ERROR:
        return Claim(Status.ERROR, None, None, prover)
    if objective is None:
        if reported in (Status.INFEASIBLE, Status.UNBOUNDED):
            return Claim(reported, None, bound if reported is Status.INFEASIBLE else None, prover)
        if reported.has_solution:
            return Claim(Status.ERROR, None, None, prover, f"{prover} reported a solution but none was replayed")
        if target is not None and bound is not None and not same(bound, target) and tighter(bound, target, sense):
            return Claim(
                Status.INFEASIBLE,
                None,
                bound,
                bound_by,
                f"bound {shown(bound)} ({bound_by}) rules out the target {shown(target)}",
            )
        return Claim(Status.UNKNOWN, None, bound, bound_by if bound is not None else "")
    value = finite(objective)
    if value is None:
        return Claim(Status.ERROR, None, None, prover, f"the replayed objective {objective!r} is not a finite number")
    if reported in (Status.INFEASIBLE, Status.UNBOUNDED):
        return Claim(
            Status.ERROR,
            value,
            None,
            prover,
            f"{prover} reported {reported} but a solution replays with objective {shown(value)}",
        )
    if bound is None:
        reason = "" if reported is not Status.OPTIMAL else "reported optimal without a finite bound"
        return Claim(Status.FEASIBLE, value, None, "", reason)
    beyond = value - bound if sense == "min" else bound - value
    if beyond < 0 and not same(value, bound):
        return Claim(
            Status.ERROR,
            value,
            bound,
            bound_by,
            f"bound {shown(bound)} ({bound_by}) is better than the replayed objective {shown(value)}",
        )
    if same(value, bound):
        return Claim(Status.OPTIMAL, value, value, bound_by)
    reason = (
        ""
        if reported is not Status.OPTIMAL
        else f"reported optimal but its bound {shown(bound)} differs from {shown(value)}"
    )
    return Claim(Status.FEASIBLE, value, bound, bound_by, reason)


_REACHABLE = {
    Status.OPTIMAL: frozenset({Status.OPTIMAL, Status.FEASIBLE, Status.ERROR}),
    Status.FEASIBLE: frozenset({Status.OPTIMAL, Status.FEASIBLE, Status.ERROR}),
    Status.UNKNOWN: frozenset(Status) - {Status.UNBOUNDED},
    Status.INFEASIBLE: frozenset({Status.INFEASIBLE, Status.ERROR}),
    Status.UNBOUNDED: frozenset({Status.UNBOUNDED, Status.ERROR}),
    Status.ERROR: frozenset({Status.ERROR}),
}


def reachable(reported: Status | str) -> frozenset[Status]:
    """The claims ``decide`` can make of a solver's ``reported`` status, whatever the objective and bounds: a
    certificate whose status is not among them did not come of that report (``verify`` refuses it).

    A report of a solution can only be kept or weakened (a gap makes optimal feasible), emptiness is
    kept or refused, and only "unknown" can turn into anything, by a replayed start or a bound past the target.
    """
    return _REACHABLE[Status(reported)]
