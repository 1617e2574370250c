"""PROBLEM: power of queens (the Kraków coursework), as the shared machinery sees it."""

from __future__ import annotations

from typing import Any

from mipgames.core.lazy import lazy
from mipgames.core.problem import Formulation, Generator, Param, Problem, Verdict
from mipgames.core.status import capped, listed
from mipgames.queens import baselines, codec
from mipgames.queens import instance as inst
from mipgames.queens.simulate import evaluate


def _build(module: str, name: str):
    def build(instance, params, options):
        import importlib

        return getattr(importlib.import_module(f"mipgames.queens.{module}"), name)(instance, params, options)

    return build


def _decode(name: str):
    def decode(instance, params, handles, value):
        from mipgames.queens import decode as decoders

        return getattr(decoders, name)(instance, params, handles, value)

    return decode


def describe(instance: inst.Queens, params: dict[str, Any], moves: list[inst.Move], verdict: Verdict) -> str:
    lines = [
        f"{inst.counted(len(moves), 'move')}, {inst.remain(verdict.measured.get('remaining', 0))} (K = {instance.k}):"
    ]
    lines += capped([f"  {r1} {c1} {r2} {c2}" for r1, c1, r2, c2 in moves], "moves")
    final = verdict.measured.get("final", [])
    lines.append("remaining: " + listed([f"{p} at {r} {c}" for r, c, p in final]))
    return "\n".join(lines)


def _bound(instance: inst.Queens, params: dict[str, Any]) -> tuple[float, str]:
    from mipgames.queens.geometry import start_bound

    return float(start_bound(instance)), "popcount and line-of-sight bound on remaining queens"


def _render(instance, params, solution, path):
    from mipgames.queens.render import render

    render(instance, params, solution, path)


def _add_generator_arguments(parser) -> None:
    from mipgames.queens.generate import add_arguments

    add_arguments(parser)


def _generate(args):
    from mipgames.queens.generate import from_args

    return from_args(args)


PROBLEM = Problem(
    name="queens",
    folder="queens",
    summary="power of queens: capture equal powers along clear lines until at most K queens remain",
    read=inst.read,
    write=inst.write,
    instance_to_json=codec.instance_to_json,
    instance_from_json=codec.instance_from_json,
    solution_to_json=codec.solution_to_json,
    solution_from_json=codec.solution_from_json,
    evaluate=evaluate,
    objective=lambda params: ("queens remaining", "min"),
    formulations={
        "time-indexed": Formulation(
            "time-indexed",
            "mip",
            _build("mip", "build_time_indexed"),
            _decode("decode_time_indexed"),
            "power per starting square per step; one capture per step; clear-line and popcount cuts",
        ),
        "time-indexed-cp": Formulation(
            "time-indexed-cp",
            "cpsat",
            _build("cpsat", "build_time_indexed"),
            _decode("decode_time_indexed"),
            "native CP-SAT: occupancy and captures received per square per step, enforced equal powers",
        ),
        "forest": Formulation(
            "forest",
            "cpsat",
            _build("cpsat", "build_forest"),
            _decode("decode_forest"),
            "native CP-SAT: each square survives or leaves once into a parent; departure order as precedences",
        ),
    },
    default_formulation={"mip": "time-indexed", "cpsat": "forest"},
    algorithms=baselines.ALGORITHMS,
    params=(Param("minimise", False, "find the fewest queens that can remain and prove it", flag=True),),
    render=_render,
    plain_solution=lambda instance, params: [],  # no move at all
    describe=describe,
    generator=Generator(_add_generator_arguments, _generate),
    default_solver="portfolio",
    bound=_bound,
    target=lambda instance, params: None if params.get("minimise") else float(instance.k),
    optimise_params=lambda params: {**params, "minimise": True},
    commands=lazy("mipgames.queens.commands:register"),
    warmup=lazy("mipgames.queens.baselines:compile_kernels"),
)
