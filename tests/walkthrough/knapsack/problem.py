"""PROBLEM: 0/1 knapsack, wired from the standard parts (heavy builders imported lazily)."""

from __future__ import annotations

from typing import Any

from mipgames.core.lazy import lazy
from mipgames.core.problem import Formulation, Problem
from tests.walkthrough.knapsack import codec, instance, simulate
from tests.walkthrough.knapsack.baselines import ALGORITHMS

MODULE = "tests.walkthrough.knapsack"


def _bound(inst: instance.Knapsack, params: dict[str, Any]) -> tuple[float, str]:
    return float(sum(inst.values)), "the value of every item"


PROBLEM = Problem(
    name="knapsack",
    folder="knapsack",
    summary="0/1 knapsack: the most value that fits",
    read=instance.read,
    write=instance.write,
    instance_to_json=codec.instance_to_json,
    instance_from_json=codec.instance_from_json,
    solution_to_json=codec.solution_to_json,
    solution_from_json=codec.solution_from_json,
    evaluate=simulate.evaluate,
    objective=lambda params: ("total value", "max"),
    formulations={
        "binary": Formulation(
            "binary",
            "mip",
            lazy(f"{MODULE}.mip:build"),
            lazy(f"{MODULE}.decode:decode"),
            "one binary per item, one capacity row",
        ),
        "binary-cp": Formulation(
            "binary-cp", "cpsat", lazy(f"{MODULE}.cpsat:build"), lazy(f"{MODULE}.decode:decode"), "the same in CP-SAT"
        ),
    },
    default_formulation={"mip": "binary", "cpsat": "binary-cp"},
    algorithms=ALGORITHMS,
    bound=_bound,
    default_solver="cpsat",
)
