"""The rules: distinct items in range whose weights fit the capacity; the objective is their total value."""

from __future__ import annotations

from typing import Any

from mipgames.core.problem import Verdict
from tests.walkthrough.knapsack.instance import Knapsack


def evaluate(instance: Knapsack, params: dict[str, Any], chosen: list[int]) -> Verdict:
    n = len(instance.weights)
    if len(set(chosen)) != len(chosen) or any(not 0 <= j < n for j in chosen):
        return Verdict(False, None, "items must be distinct and in range")
    weight = sum(instance.weights[j] for j in chosen)
    if weight > instance.capacity:
        return Verdict(False, None, f"weight {weight} exceeds the capacity {instance.capacity}")
    return Verdict(True, float(sum(instance.values[j] for j in chosen)), measured={"weight": weight})
