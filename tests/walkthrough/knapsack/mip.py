"""The textbook MILP: one binary per item, one capacity row."""

from __future__ import annotations

from typing import Any

from mipgames.core.problem import Built, SolveOptions
from tests.walkthrough.knapsack.instance import Knapsack


def build(instance: Knapsack, params: dict[str, Any], options: SolveOptions) -> Built:
    import pulp

    model = pulp.LpProblem("knapsack", pulp.LpMaximize)
    x = [pulp.LpVariable(f"x{j}", cat="Binary") for j in range(len(instance.weights))]
    model += pulp.lpSum(v * xj for v, xj in zip(instance.values, x))
    model += pulp.lpSum(w * xj for w, xj in zip(instance.weights, x)) <= instance.capacity, "capacity"
    return Built(model, x)
