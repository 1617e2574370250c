"""Knapsack instances and solutions as JSON (certificates embed both); malformed data is an InputError."""

from __future__ import annotations

from typing import Any

from mipgames.core.errors import InputError
from tests.walkthrough.knapsack.instance import MAX_ITEMS, MAX_NUMBER, Knapsack


def _ints(data: Any, what: str, limit: int) -> list[int]:
    if (
        not isinstance(data, list)
        or len(data) > limit
        or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_NUMBER for v in data)
    ):
        raise InputError(f"{what} must be a list of at most {limit} integers from 0 to {MAX_NUMBER}")
    return data


def instance_to_json(instance: Knapsack) -> dict[str, Any]:
    return {"capacity": instance.capacity, "weights": list(instance.weights), "values": list(instance.values)}


def instance_from_json(data: Any) -> Knapsack:
    if not isinstance(data, dict) or set(data) != {"capacity", "weights", "values"}:
        raise InputError("a knapsack is an object with capacity, weights and values")
    (capacity,) = _ints([data["capacity"]], "capacity", 1)
    weights, values = _ints(data["weights"], "weights", MAX_ITEMS), _ints(data["values"], "values", MAX_ITEMS)
    if len(weights) != len(values):
        raise InputError("weights and values must have one entry per item")
    return Knapsack(capacity, tuple(weights), tuple(values))


def solution_to_json(chosen: list[int]) -> list[int]:
    return sorted(chosen)


def solution_from_json(instance: Knapsack, data: Any) -> list[int]:
    return _ints(data, "a solution (the chosen items)", MAX_ITEMS)
