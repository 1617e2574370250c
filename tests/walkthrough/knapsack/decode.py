"""Model values to the chosen items (both models keep one variable per item as their handles)."""

from __future__ import annotations

from typing import Any

from mipgames.core.result import Value
from tests.walkthrough.knapsack.instance import Knapsack


def decode(instance: Knapsack, params: dict[str, Any], x: list[Any], value: Value) -> list[int]:
    return [j for j, var in enumerate(x) if value(var) > 0.5]
