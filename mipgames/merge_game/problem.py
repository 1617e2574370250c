"""PROBLEM: the merge game as the shared machinery sees it."""

from __future__ import annotations

from typing import Any

from mipgames.core.errors import InputError, UsageError
from mipgames.core.files import parse_int
from mipgames.core.problem import Formulation, Param, Problem, Verdict
from mipgames.core.status import Sense, capped, listed
from mipgames.merge_game import (
    baselines,
    codec,
    cpsat,
    decode,
    generate,
    mip,
    render,
    simple,
)
from mipgames.merge_game import instance as inst
from mipgames.merge_game.simulate import evaluate, hits, in_reach


def _bounded(text: str, lo: int, what: str) -> int:
    """An integer in [lo, MAX_VALUE] (ValueError with a readable message otherwise)."""
    try:
        return parse_int(text, None, None, what, lo, inst.MAX_VALUE)
    except InputError as exc:
        raise ValueError(exc.message) from None


def _non_negative(text: str) -> int:
    return _bounded(text, 0, "the target")


def _level(text: str) -> int:
    return _bounded(text, 1, "the level cap")


PARAMS = (
    Param("target", None, "decision version: destroy at least this many stones (overrides the file)", _non_negative),
    Param("destroy_all", False, "DESTROY-ALL: every stone must be destroyed", flag=True),
    Param("max_level", None, "LIMITED-LEVEL: no hero may exceed this level (overrides the file)", _level),
    Param(
        "attack",
        None,
        "attack vector: cross|up|vertical|up3|right3 or offsets 'dx,dy;dx,dy' (overrides the file)",
        inst.normalise_attack,
    ),
)


LNS_ABOVE = 15_000
"""Heroes above which ``lns`` is the default: CP-SAT on the compact model proved a 200 x 200 map (8,000 heroes,
3 types, hp 1-4) optimal in 43 s on one thread, where ``lns`` ended 2 % short; on 300 x 300 (18,000 heroes)
CP-SAT ended at the model's start in 60 s and ``lns`` 2.7 % above it, and on 500 x 500 every model solver ended
at the start, ``lns`` 2.4 % above (benchmarks/merge_game/large-60s.md)."""


def _default_for(instance: inst.Instance, params: dict[str, Any]) -> tuple[str, str] | None:
    """``lns`` on maps too large for the models to improve on their start within a minute."""
    if len(instance.heroes) <= LNS_ABOVE or simple.reason(instance, params) is None:
        return None  # on a SIMPLE map the vertex-cover kernel solves 20,000 heroes in seconds
    return "lns", f"lns is the default above {LNS_ABOVE:,} heroes (this map has {len(instance.heroes):,})"


def _objective(params: dict[str, Any]) -> tuple[str, Sense]:
    return ("stones destroyed", "max")


OLD_BOUND = "no more stones than the map holds"
"""The own bound's name before it counted only the stones in reach (certificates of 0.2.0 credit it)."""


def _bound(instance: inst.Instance, params: dict[str, Any]) -> tuple[float, str]:
    """No play destroys a stone its attackers cannot deliver its hp to (each hits it once a merge it survives, and
    a hero survives at most log2 of its type's heroes): with it a model that destroys every stone in reach is
    optimal, and a 500 x 500 map's bound is 29,336 where it was the map's 50,000 stones."""
    rule = inst.rules(instance, params)
    reach = sum(in_reach(instance, rule, hits(instance, rule)))
    if reach == len(instance.stones):
        return (float(reach), OLD_BOUND)
    return (float(reach), "no more stones than its heroes can reach (a hit a merge a hero survives)")


def _target(instance: inst.Instance, params: dict[str, Any]) -> float | None:
    target = inst.rules(instance, params).target
    return None if target is None else float(target)


def _check_params(instance: inst.Instance, params: dict[str, Any]) -> None:
    for key, check in (("target", _non_negative), ("max_level", _level)):
        value = params.get(key)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            raise UsageError(f"{key} must be an integer, got {value!r}")
        if value is not None:
            try:
                check(str(value))
            except ValueError as exc:
                raise UsageError(f"{key}: {exc}") from None
    if params.get("attack") is not None:
        try:
            inst.parse_attack(str(params["attack"]))
        except ValueError as exc:
            raise UsageError(str(exc)) from None


def _describe(instance: inst.Instance, params: dict[str, Any], solution: Any, verdict: Verdict) -> str:
    rule = inst.rules(instance, params)
    heroes = instance.heroes
    lines = [
        f"attack {rule.describe({h.type for h in heroes})}"
        + (f", level cap {rule.max_level}" if rule.max_level else "")
        + (f", target {rule.target}" if rule.target is not None else "")
    ]
    merges = [
        f"{t:4d}. hero {a} ({inst.type_name(heroes[a].type)} at {heroes[a].x},{heroes[a].y}) into hero {b} "
        f"(at {heroes[b].x},{heroes[b].y})"
        for t, (a, b) in enumerate(solution, start=1)
    ]
    lines += capped(merges, "merges")
    if verdict.legal:
        destroyed = verdict.measured.get("destroyed", [])
        where = listed([f"({instance.stones[k].x},{instance.stones[k].y})" for k in destroyed])
        lines.append(f"{len(destroyed)} of {len(instance.stones)} stones destroyed" + (f": {where}" if where else ""))
    else:
        lines.append(f"illegal: {verdict.reason}")
    return "\n".join(lines)


PROBLEM = Problem(
    name="merge-game",
    folder="merge_game",
    summary="Merge War hero selection: merge equal heroes so their attacks destroy the most stones",
    read=inst.read,
    write=inst.write,
    instance_to_json=codec.instance_to_json,
    instance_from_json=codec.instance_from_json,
    solution_to_json=codec.solution_to_json,
    solution_from_json=codec.solution_from_json,
    evaluate=evaluate,
    objective=_objective,
    bound=_bound,
    target=_target,
    formulations={
        "compact": Formulation(
            "compact",
            "mip",
            mip.build_compact,
            decode.decode_compact,
            "merge counts per hero group, realisability N_j >= 2 N_j+1 (exact)",
            start=mip.start_solution,
        ),
        "compact-cp": Formulation(
            "compact-cp",
            "cpsat",
            cpsat.build_compact,
            decode.decode_compact,
            "native CP-SAT compact model with half-reified stone sums",
            start=mip.start_solution,
        ),
        "set-cover": Formulation(
            "set-cover",
            "mip",
            mip.build_cover,
            decode.decode_cover,
            "MERGE-GAME-SIMPLE: at most floor(h/2) heroes cover every stone",
            applies=simple.simple_reason,
        ),
    },
    default_formulation={"mip": "compact", "cpsat": "compact-cp"},
    algorithms=baselines.ALGORITHMS,
    params=PARAMS,
    render=render.render,
    drawable=render.drawable,
    plain_solution=lambda instance, params: [],  # no move at all
    default_for=_default_for,
    bound_aliases=(OLD_BOUND,),
    default_note=f"lns above {LNS_ABOVE:,} heroes",
    describe=_describe,
    generator=generate.GENERATOR,
    check_params=_check_params,
    integral=True,
)
