"""One result kept for the last instance a function was asked about, where the runner and a builder both need it.

The runner takes a formulation's start before the build (``Formulation.start``) and the builder needs the same
start again (a 1,000 x 1,000 merge map's structure and start take 3.7 s); a solve handles one instance, so one
slot is enough.  The instance is matched by identity (hashing a map of 200,000 heroes would cost what the slot
saves) and the params by value.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def last_instance(compute: Callable[[Any, dict[str, Any]], T]) -> Callable[[Any, dict[str, Any]], T]:
    """``compute(instance, params)``, kept for the last (instance object, params) asked for.  The result is shared
    between callers: keep it immutable."""
    slot: list[tuple[Any, str, T]] = []

    @functools.wraps(compute)
    def call(instance: Any, params: dict[str, Any]) -> T:
        key = repr(sorted(params.items()))
        if slot and slot[0][0] is instance and slot[0][1] == key:
            return slot[0][2]
        found = compute(instance, params)
        slot[:] = [(instance, key, found)]
        return found

    return call
