"""Edge matching as a mipgames Problem (the only module the shared machinery imports)."""

from __future__ import annotations

from typing import Any

from mipgames.core.errors import UsageError
from mipgames.core.problem import Algorithm, Formulation, Generator, Param, Problem, Verdict
from mipgames.edge_matching import instance as inst_mod
from mipgames.edge_matching.baselines import ALGORITHMS
from mipgames.edge_matching.simulate import MODES, evaluate, mode_of


def _build_baseline(inst, params, options):
    from mipgames.edge_matching.mip import build_baseline

    return build_baseline(inst, params, options)


def _build_typed(inst, params, options):
    from mipgames.edge_matching.mip import build_typed

    return build_typed(inst, params, options)


def _build_cpsat(inst, params, options):
    from mipgames.edge_matching.cpsat import build

    return build(inst, params, options)


def _build_cpsat_table(inst, params, options):
    from mipgames.edge_matching.cpsat import TABLE, build

    return build(inst, params, options, TABLE)


def _decode(inst, params, handles, value):
    from mipgames.edge_matching.decode import decode

    return decode(inst, params, handles, value)


FORMULATIONS = {
    "baseline": Formulation("baseline", "mip", _build_baseline, _decode, "the coursework MILP (spec), true rotation tables"),
    "typed": Formulation(
        "typed", "mip", _build_typed, _decode,
        "match literals per edge over typed, symmetry-broken candidates + colour-parity row; decision mode: shared edge-colour equalities",
    ),
    "cpsat": Formulation(
        "cpsat", "cpsat", _build_cpsat, _decode, "SAT-style literals: exactly-one per cell/tile, colour literals per edge, typing, symmetry; decision mode: fixed scan-order search, no LP"
    ),
    "cpsat-table": Formulation(
        "cpsat-table", "cpsat", _build_cpsat_table, _decode, "per-cell table (tile, turns, colours) with shared colour variables, all-different"
    ),
}


def _objective(params: dict[str, Any]) -> tuple[str, str]:
    return ("mismatched inner edges", "min")


def _portfolio(inst, params, options, report):
    from mipgames.edge_matching.portfolio import run_portfolio

    return run_portfolio(inst, params, options, report)


PORTFOLIO = Algorithm("portfolio", _portfolio, "CP-SAT: the decision model for a perfect placement first, then the "
                      "optimise model hinted by annealing (the default)", exact=True)


def _check_params(inst, params: dict[str, Any]) -> None:
    if mode_of(params) not in MODES:
        raise UsageError(f"mode must be one of {', '.join(MODES)}")


def _bound(inst, params: dict[str, Any]) -> tuple[float, str]:
    from mipgames.edge_matching.simulate import colour_count_bound

    return float(colour_count_bound(inst)), "colour-count bound on mismatched edges"


def _describe(inst, params, placement, verdict: Verdict) -> str:
    C = inst.cols
    rows = [" ".join(f"{t:>3}/{a}" for t, a in placement[r * C : (r + 1) * C]) for r in range(inst.rows)]
    n = verdict.measured.get("mismatched")
    head = f"placement (tile/turns), {inst.inner_edges - n}/{inst.inner_edges} inner edges matched, {n} mismatched"
    return "\n".join([head] + rows)


def _add_arguments(parser):
    from mipgames.edge_matching.generate import add_arguments

    add_arguments(parser)


def _generate(args):
    from mipgames.edge_matching.generate import generate

    return generate(args)


def _render(inst, params, placement, path):
    from mipgames.edge_matching.render import render

    render(inst, params, placement, path)


PROBLEM = Problem(
    name="edge-matching",
    folder="edge_matching",
    summary="Edge-matching puzzles (Eternity II style): place and turn square tiles so that touching edges match",
    read=inst_mod.read,
    write=inst_mod.write,
    instance_to_json=inst_mod.to_json,
    instance_from_json=inst_mod.from_json,
    solution_to_json=inst_mod.solution_to_json,
    solution_from_json=inst_mod.solution_from_json,
    evaluate=evaluate,
    objective=_objective,
    formulations=FORMULATIONS,
    default_formulation={"mip": "typed", "cpsat": "cpsat"},
    algorithms={**ALGORITHMS, PORTFOLIO.name: PORTFOLIO},
    params=(Param("mode", "optimize", "optimize: fewest mismatched edges; decision: every inner edge must match", str, MODES),),
    render=_render,
    describe=_describe,
    generator=Generator(_add_arguments, _generate),
    check_params=_check_params,
    integral=True,
    default_solver=PORTFOLIO.name,
    bound=_bound,
    optimise_params=lambda params: {**params, "mode": "optimize"},
)
