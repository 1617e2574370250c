"""Decoders: read the capture order out of a solved model (the runner then replays it)."""

from __future__ import annotations

from typing import Any

from mipgames.core.result import Value
from mipgames.queens.instance import Move


def _move(handles: dict, i: int, j: int) -> Move:
    squares = handles["prep"].geo.squares
    return (*squares[i], *squares[j])


def decode_time_indexed(instance, params: dict[str, Any], handles: dict, value: Value) -> list[Move]:
    """Captures m[i, j, ..., t] set to 1, in step order."""
    chosen = sorted((key[-1], key) for key, var in handles["m"].items() if value(var) > 0.5)
    return [_move(handles, key[0], key[1]) for _, key in chosen]


def decode_forest(instance, params: dict[str, Any], handles: dict, value: Value) -> list[Move]:
    """Every non-root square moves into its parent, by departure time (ties are independent captures)."""
    depart = handles["depart"]
    chosen = [(round(value(depart[c])), c, p) for (c, p), var in handles["z"].items() if value(var) > 0.5]
    return [_move(handles, c, p) for _, c, p in sorted(chosen)]
