"""A toy problem for testing the shared machinery without any puzzle: pick items to
minimise the total deviation |Σ a_ij x_j − b_i| over rows i (market split).

Small instances are solved by brute force; market split with a few rows and
30 items is notoriously hard for branch and bound, which makes it the honest
way to exercise time limits.
"""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import dataclass
from pathlib import Path

from mipgames.core.errors import InputError
from mipgames.core.problem import Algorithm, Built, Formulation, Param, Problem, SolveOptions, Verdict
from mipgames.core.result import Result


@dataclass(frozen=True)
class Split:
    a: tuple[tuple[int, ...], ...]
    b: tuple[int, ...]


def random_split(rows: int, items: int, seed: int, high: int = 99) -> Split:
    rng = random.Random(seed)
    a = tuple(tuple(rng.randint(0, high) for _ in range(items)) for _ in range(rows))
    return Split(a, tuple(sum(r) * 2 // 5 for r in a))


def deviation(inst: Split, chosen: list[int]) -> int:
    return sum(abs(sum(row[j] for j in chosen) - b) for row, b in zip(inst.a, inst.b))


def evaluate(inst: Split, params: dict, chosen: list[int]) -> Verdict:
    n = len(inst.a[0])
    if len(set(chosen)) != len(chosen) or any(not 0 <= j < n for j in chosen):
        return Verdict(False, None, "items must be distinct and in range")
    if params.get("max_items") is not None and len(chosen) > params["max_items"]:
        return Verdict(False, None, f"{len(chosen)} items > max_items")
    return Verdict(True, float(deviation(inst, chosen)), measured={"items": len(chosen)})


def brute_force(inst: Split, params: dict) -> int:
    n = len(inst.a[0])
    cap = params.get("max_items")
    best = None
    for bits in itertools.product((0, 1), repeat=n):
        chosen = [j for j in range(n) if bits[j]]
        if cap is not None and len(chosen) > cap:
            continue
        d = deviation(inst, chosen)
        best = d if best is None else min(best, d)
    return best


def build_mip(inst: Split, params: dict, options: SolveOptions) -> Built:
    import pulp

    n = len(inst.a[0])
    m = pulp.LpProblem("split", pulp.LpMinimize)
    x = [pulp.LpVariable(f"x{j}", cat="Binary") for j in range(n)]
    top = sum(sum(r) for r in inst.a)
    up = [pulp.LpVariable(f"up{i}", 0, top, cat="Integer") for i in range(len(inst.b))]
    down = [pulp.LpVariable(f"dn{i}", 0, top, cat="Integer") for i in range(len(inst.b))]
    m += pulp.lpSum(up) + pulp.lpSum(down)
    for i, (row, b) in enumerate(zip(inst.a, inst.b)):
        m += pulp.lpSum(row[j] * x[j] for j in range(n)) + up[i] - down[i] == b
    if params.get("max_items") is not None:
        m += pulp.lpSum(x) <= params["max_items"]
    hint = {v: 0 for v in x} if options.warm_start else None
    if hint is not None:
        for i, b in enumerate(inst.b):
            hint[up[i]], hint[down[i]] = b, 0
    return Built(m, x, hint=hint)


def build_cpsat(inst: Split, params: dict, options: SolveOptions) -> Built:
    from ortools.sat.python import cp_model

    n = len(inst.a[0])
    m = cp_model.CpModel()
    x = [m.new_bool_var(f"x{j}") for j in range(n)]
    devs = []
    for row, b in zip(inst.a, inst.b):
        d = m.new_int_var(0, sum(row) + b, "d")
        s = sum(row[j] * x[j] for j in range(n))
        m.add(d >= s - b)
        m.add(d >= b - s)
        devs.append(d)
    if params.get("max_items") is not None:
        m.add(sum(x) <= params["max_items"])
    m.minimize(sum(devs))
    return Built(m, x)


def decode(inst: Split, params: dict, x: list, value) -> list[int]:
    return [j for j, v in enumerate(x) if value(v) > 0.5]


def lying_decode(inst: Split, params: dict, x: list, value) -> list[int]:
    """Decodes the complement: the simulator must catch the disagreement."""
    return [j for j, v in enumerate(x) if value(v) < 0.5]


def run_brute(inst: Split, params: dict, options: SolveOptions, report) -> Result:
    best = brute_force(inst, params)
    n = len(inst.a[0])
    for bits in itertools.product((0, 1), repeat=n):
        chosen = [j for j in range(n) if bits[j]]
        if params.get("max_items") is not None and len(chosen) > params["max_items"]:
            continue
        if deviation(inst, chosen) == best:
            report(best, best)
            return Result("optimal", chosen, float(best), float(best))
    return Result("infeasible")


def read(path) -> Split:
    try:
        data = json.loads(Path(path).read_text())
        return Split(tuple(map(tuple, data["a"])), tuple(data["b"]))
    except (OSError, ValueError, KeyError) as exc:
        raise InputError(f"not a toy instance: {exc}", path) from None


def write(inst: Split, path) -> None:
    Path(path).write_text(json.dumps({"a": inst.a, "b": inst.b}))


PROBLEM = Problem(
    name="toy-split",
    folder="toy_split",
    summary="market split (test problem)",
    read=read,
    write=write,
    instance_to_json=lambda inst: {"a": [list(r) for r in inst.a], "b": list(inst.b)},
    instance_from_json=lambda d: Split(tuple(map(tuple, d["a"])), tuple(d["b"])),
    solution_to_json=lambda chosen: sorted(chosen),
    solution_from_json=lambda inst, d: [int(j) for j in d],
    evaluate=evaluate,
    objective=lambda params: ("total deviation", "min"),
    formulations={
        "mip": Formulation("mip", "mip", build_mip, decode),
        "cpsat": Formulation("cpsat", "cpsat", build_cpsat, decode),
        "liar": Formulation("liar", "mip", build_mip, lying_decode),
    },
    default_formulation={"mip": "mip", "cpsat": "cpsat"},
    algorithms={"brute": Algorithm("brute", run_brute, exact=True)},
    params=(Param("max_items", None, "at most this many items", parse=int),),
)


def build_offset_mip(inst: Split, params: dict, options: SolveOptions) -> Built:
    """The MIP with a constant added to its objective: backends must carry constants into bounds."""
    built = build_mip(inst, params, options)
    built.model.objective += 1000
    built.objective = lambda v: v - 1000
    return built


PROBLEM.formulations["offset"] = Formulation("offset", "mip", build_offset_mip, decode)


def build_continuous_mip(inst: Split, params: dict, options: SolveOptions) -> Built:
    """A model with a continuous variable: the CP-SAT translation must refuse it by name."""
    import pulp

    built = build_mip(inst, params, options)
    built.model += pulp.LpVariable("slack", 0, 1) >= 0
    return built


PROBLEM.formulations["continuous"] = Formulation("continuous", "mip", build_continuous_mip, decode)


def build_presolve_only(inst: Split, params: dict, options: SolveOptions) -> Built:
    """The CP-SAT model asking, through its own parameters, to stop after presolve."""
    built = build_cpsat(inst, params, options)
    built.cpsat_parameters = {"stop_after_presolve": True}
    return built


PROBLEM.formulations["presolve-only"] = Formulation("presolve-only", "cpsat", build_presolve_only, decode)


def build_slowly(inst: Split, params: dict, options: SolveOptions) -> Built:
    """A build that takes 30 s of Python: the deadline must stop it, not the supervisor's kill."""
    import time

    ends = time.monotonic() + 30.0
    while time.monotonic() < ends:
        time.sleep(0.01)
    return build_mip(inst, params, options)


PROBLEM.formulations["slow-build"] = Formulation("slow-build", "mip", build_slowly, decode)


def greedy_items(inst: Split, params: dict) -> list[int]:
    """A start: items taken in order while they bring every row no further from its target."""
    chosen: list[int] = []
    for j in range(len(inst.a[0])):
        if deviation(inst, [*chosen, j]) <= deviation(inst, chosen):
            chosen.append(j)
    return chosen[: params.get("max_items") or None]


PROBLEM.formulations["slow-build-start"] = Formulation(
    "slow-build-start", "mip", build_slowly, decode, start=greedy_items
)
PROBLEM.formulations["slow-build-bad-start"] = Formulation(
    "slow-build-bad-start", "mip", build_slowly, decode, start=lambda inst, params: [0, 0]
)


def slow_start(inst: Split, params: dict) -> list[int]:
    """A start that takes 30 s of Python: the deadline must stop it, and the message say so."""
    import time

    ends = time.monotonic() + 30.0
    while time.monotonic() < ends:
        time.sleep(0.01)
    return []


PROBLEM.formulations["slow-start"] = Formulation("slow-start", "mip", build_mip, decode, start=slow_start)
