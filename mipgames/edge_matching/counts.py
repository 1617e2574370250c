"""What ``verify`` makes of a solution count carried in a certificate (``--count``; ``backtrack.count_stats``).

A count is a claim the replay cannot check: the simulator replays one
placement, not all of them.  So the count is read as hostile input (a
non-negative integer where one is due, nothing where none is), held against
what the replay does show (a complete count of zero beside a perfect
placement, or perfect placements counted beside a solution with mismatches,
is a contradiction), and otherwise reported as the claim it is, with the
command that recounts it.
"""

from __future__ import annotations

import math
import re
from typing import Any

from mipgames.core.errors import InputError
from mipgames.core.files import MAX_JSON_INT_DIGITS

KEYS = ("solutions", "solutions_found", "count_complete", "solutions_up_to_board_turns")

COUNT_DIGITS = 4000
"""Counts of up to this many digits are recorded exactly: up to ``MAX_JSON_INT_DIGITS`` as JSON integers (the
certificate reader's limit), longer ones as strings of their digits (36 equal tiles have 36! x 4^36 placements,
63 digits).  Python turns integers of up to 4,300 digits into text and back without a global switch; a larger
count (1,600 equal tiles: 4,400 digits, and it failed the solve with a ValueError) is recorded as ``HUGE``."""
HUGE = f"more than 10^{COUNT_DIGITS}"
_DIGITS = re.compile(rf"[1-9][0-9]{{{MAX_JSON_INT_DIGITS},{COUNT_DIGITS - 1}}}")


def recorded(n: int | None) -> int | str | None:
    """A count as a certificate records it (``COUNT_DIGITS``)."""
    if n is None or n < 10**MAX_JSON_INT_DIGITS:
        return n
    return str(n) if n < 10**COUNT_DIGITS else HUGE


def in_words(value: int | str) -> str:
    """A recorded count for a message: in full up to 30 digits, else its leading digits and its size."""
    if isinstance(value, int):
        return str(value)
    if value == HUGE:
        return value
    return f"{value[0]}.{value[1:4]}e{len(value) - 1} ({len(value)} digits)"


def shown_count(n: int) -> str:
    """A count for a message, with thousands separators up to 30 digits (``HUGE``'s stand-in reads as ``HUGE``)."""
    shown = recorded(n)
    return f"{n:,}" if isinstance(shown, int) else in_words(shown or "")


def _count(stats: dict[str, Any], key: str, due: bool) -> int | None:
    """stats[key] as ``recorded`` writes it, when ``due`` (absent or null otherwise); ``HUGE`` reads as
    10^COUNT_DIGITS, the least it says."""
    value = stats.get(key)
    if not due:
        if value is not None:
            raise InputError(f"{key} is given, but the count is {'not ' if key == 'solutions' else ''}complete")
        return None
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10**MAX_JSON_INT_DIGITS:
        return value
    if value == HUGE:
        return 10**COUNT_DIGITS
    if isinstance(value, str) and _DIGITS.fullmatch(value):
        return int(value)
    raise InputError(
        f"{key} must be a non-negative integer below 10**{MAX_JSON_INT_DIGITS}, the digits of a larger count "
        f"(up to {COUNT_DIGITS}) as a string, or {HUGE!r}; not {str(value)[:40]!r}"
    )


def count_claims(inst: Any, params: dict[str, Any], stats: Any, objective: float | None, status: str) -> list[str]:
    """Notes on the certificate's count; raises InputError when it is malformed or contradicts the replay."""
    if not isinstance(stats, dict):
        raise InputError("stats must be an object")
    present = [k for k in KEYS if stats.get(k) is not None]
    if not params.get("count"):
        if present:
            raise InputError(f"carries a solution count ({present[0]}) but its params say it was not a counting run")
        return []
    if not present:
        return ["a counting run that recorded no count (stopped before the search began)"]
    complete = stats.get("count_complete")
    if not isinstance(complete, bool):
        raise InputError(f"count_complete must be true or false, not {str(complete)[:40]!r}")
    total = _count(stats, "solutions", complete)
    found = _count(stats, "solutions_found", not complete)
    huge = stats.get("solutions" if complete else "solutions_found") == HUGE  # a bound, not a number
    turned = stats.get("solutions_up_to_board_turns")
    if turned is not None:
        turns = 4 if inst.rows == inst.cols else 2  # every solution comes with its turned copies (count_stats)
        fits = total is not None and not inst.hints and not huge and turned != HUGE
        if not fits or (_count(stats, "solutions_up_to_board_turns", True) or 0) * turns != total:
            raise InputError(
                f"solutions_up_to_board_turns {str(turned)[:40]!r} does not fit the count {total} "
                f"({turns} turned copies of each on this board)"
            )
    perfect = objective is not None and objective == 0
    seen = total if complete else found
    assert seen is not None
    cells = inst.rows * inst.cols
    if cells < 300:  # exactly (300! x 4^300 has 795 digits); beyond, by the number of digits
        most = math.factorial(cells) * 4**cells
        if seen > most:
            raise InputError(
                f"claims {shown_count(seen)} perfect placements; {cells} tiles have {shown_count(most)} placements"
            )
    elif seen.bit_length() * math.log10(2) > (math.lgamma(cells + 1) / math.log(10) + cells * math.log10(4)) + 1:
        raise InputError(f"claims {shown_count(seen)} perfect placements, more than {cells} tiles have")
    turns = 4 if inst.rows == inst.cols else 2
    if complete and total is not None and cells > 1 and not inst.hints and not huge and total % turns:
        raise InputError(
            f"claims {shown_count(total)} perfect placements, not a multiple of {turns}: the board turned is "
            "another placement of every solution, so a complete count without hints comes in whole sets of turned "
            "copies"
        )
    if complete and total == 0 and perfect:
        raise InputError("claims that no perfect placement exists, yet the replayed solution is one")
    if seen > 0 and objective is not None and not perfect:
        raise InputError(
            f"claims {shown_count(seen)} perfect placements, yet records a solution with {objective:g} mismatches"
        )
    if seen > 0 and status == "infeasible":
        raise InputError(f"claims {shown_count(seen)} perfect placements, yet says no solution exists")
    if seen > 0 and status == "unknown":  # the counting run holds a placement the moment it counts one
        raise InputError(f"claims {shown_count(seen)} perfect placements, yet records no answer")
    if not complete:
        return [f"at least {shown_count(seen)} perfect placements found before the count was cut: no total is claimed"]
    if seen == 0:
        return [
            "claims that no perfect placement exists (a complete count): the certificate's rerun command searches again"
        ]
    return [
        f"claims {shown_count(seen)} perfect placements (a complete count); the replay checks one of them, not "
        "the number: the certificate's rerun command counts them again"
    ]
