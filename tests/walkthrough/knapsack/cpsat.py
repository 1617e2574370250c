"""The same model in CP-SAT."""

from __future__ import annotations

from typing import Any

from mipgames.core.problem import Built, SolveOptions
from tests.walkthrough.knapsack.instance import Knapsack


def build(instance: Knapsack, params: dict[str, Any], options: SolveOptions) -> Built:
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    x = [model.new_bool_var(f"x{j}") for j in range(len(instance.weights))]
    model.add(sum(w * xj for w, xj in zip(instance.weights, x)) <= instance.capacity)
    model.maximize(sum(v * xj for v, xj in zip(instance.values, x)))
    return Built(model, x)
