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
from typing import Any

from mipgames.core.errors import InputError

KEYS = ("solutions", "solutions_found", "count_complete", "solutions_up_to_board_turns")


def _count(stats: dict[str, Any], key: str, due: bool) -> int | None:
    """stats[key]: a non-negative integer when ``due``, absent or null otherwise."""
    value = stats.get(key)
    if not due:
        if value is not None:
            raise InputError(f"{key} is given, but the count is {'not ' if key == 'solutions' else ''}complete")
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 10**30:
        raise InputError(f"{key} must be a non-negative integer below 10**30, not {str(value)[:40]!r}")
    return value


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
    turned = stats.get("solutions_up_to_board_turns")
    if turned is not None:
        turns = 4 if inst.rows == inst.cols else 2  # every solution comes with its turned copies (count_stats)
        fits = isinstance(turned, int) and not isinstance(turned, bool) and total is not None and not inst.hints
        if not fits or turned * turns != total:
            raise InputError(
                f"solutions_up_to_board_turns {str(turned)[:40]!r} does not fit the count {total} "
                f"({turns} turned copies of each on this board)"
            )
    perfect = objective is not None and objective == 0
    seen = total if complete else found
    assert seen is not None
    cells = inst.rows * inst.cols
    if cells < 40 and seen > math.factorial(cells) * 4**cells:  # 40! alone is beyond the 10**30 read
        raise InputError(f"claims {seen:,} perfect placements; {cells} tiles have {math.factorial(cells) * 4**cells:,}")
    turns = 4 if inst.rows == inst.cols else 2
    if complete and total is not None and cells > 1 and not inst.hints and total % turns:
        raise InputError(
            f"claims {total:,} perfect placements, not a multiple of {turns}: the board turned is another placement "
            "of every solution, so a complete count without hints comes in whole sets of turned copies"
        )
    if complete and total == 0 and perfect:
        raise InputError("claims that no perfect placement exists, yet the replayed solution is one")
    if seen > 0 and objective is not None and not perfect:
        raise InputError(f"claims {seen} perfect placements, yet records a solution with {objective:g} mismatches")
    if seen > 0 and status == "infeasible":
        raise InputError(f"claims {seen} perfect placements, yet says no solution exists")
    if not complete:
        return [f"at least {found:,} perfect placements found before the count was cut: no total is claimed"]
    if total == 0:
        return [
            "claims that no perfect placement exists (a complete count): the certificate's rerun command searches again"
        ]
    return [
        f"claims {total:,} perfect placements (a complete count); the replay checks one of them, not the number: "
        "the certificate's rerun command counts them again"
    ]
