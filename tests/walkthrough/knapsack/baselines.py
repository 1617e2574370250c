"""The classical algorithm: dynamic programming over capacities, exact (O(n · capacity))."""

from __future__ import annotations

from typing import Any

from mipgames.core.problem import Algorithm, Report, SolveOptions
from mipgames.core.result import Result
from mipgames.core.status import Status
from tests.walkthrough.knapsack.instance import Knapsack


def run_dp(instance: Knapsack, params: dict[str, Any], options: SolveOptions, report: Report) -> Result:
    best = [0] * (instance.capacity + 1)
    keep = []
    for w, v in zip(instance.weights, instance.values):
        took = [False] * (instance.capacity + 1)
        for c in range(instance.capacity, w - 1, -1):
            if best[c - w] + v > best[c]:
                best[c], took[c] = best[c - w] + v, True
        keep.append(took)
    chosen, c = [], instance.capacity
    for j in range(len(keep) - 1, -1, -1):
        if keep[j][c]:
            chosen.append(j)
            c -= instance.weights[j]
    value = float(best[instance.capacity])
    report(value, value, chosen)
    return Result(Status.OPTIMAL, chosen, value, value, "dynamic programming over every capacity")


ALGORITHMS = {"dp": Algorithm("dp", run_dp, "dynamic programming over capacities (exact)", exact=True)}
