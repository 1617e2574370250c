"""Edge matching as a mipgames Problem (the only module the shared machinery imports).

Every entry point that takes (instance, params) first renames the frame
colour (``simulate.framed``), so models, searches and the simulator all see
colour 0 as the frame (or no frame at all for ``--frame-colour none``).
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from typing import Any

from mipgames.core.errors import UsageError
from mipgames.core.problem import Formulation, Generator, Kind, Param, Problem, Verdict
from mipgames.core.status import Sense
from mipgames.edge_matching import codec
from mipgames.edge_matching import instance as inst_mod
from mipgames.edge_matching.baselines import ALGORITHMS
from mipgames.edge_matching.counts import count_claims
from mipgames.edge_matching.instance import MAX_COLOUR
from mipgames.edge_matching.simulate import IMPOSSIBLE_NAMES, MODES, evaluate, framed, mode_of


def _framed(fn: Callable[..., Any]) -> Callable[..., Any]:
    """fn(instance, params, *rest) on the instance whose frame colour is 0."""

    def call(inst: Any, params: dict[str, Any], *rest: Any) -> Any:
        inst, params = framed(inst, params)
        return fn(inst, params, *rest)

    call.__doc__ = fn.__doc__
    return call


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


def _start(inst, params):
    """The models' start: the row-scan greedy placement, in optimise mode (a decision wants no mismatch, and
    a greedy placement nearly always has some).  Linear in the cells: a run cut in its build, or a solver
    that finds nothing in a short limit, still answers with it."""
    from mipgames.edge_matching.greedy import greedy_placement
    from mipgames.edge_matching.simulate import mode_of

    return None if mode_of(params) == "decision" else [tuple(cell) for cell in greedy_placement(inst)]


def _formulation(name: str, kind: Kind, build: Callable[..., Any], description: str) -> Formulation:
    return Formulation(name, kind, _framed(build), _framed(_decode), description, start=_framed(_start))


FORMULATIONS = {
    "baseline": _formulation(
        "baseline",
        "mip",
        _build_baseline,
        "the coursework MILP (spec), true rotation tables",
    ),
    "typed": _formulation(
        "typed",
        "mip",
        _build_typed,
        "match literals per edge over typed, symmetry-broken candidates + colour-parity row; decision mode: shared "
        "edge-colour equalities",
    ),
    "cpsat": _formulation(
        "cpsat",
        "cpsat",
        _build_cpsat,
        "SAT-style literals: exactly-one per cell/tile, colour literals per edge, typing, symmetry; decision mode: "
        "fixed scan-order search, no LP",
    ),
    "cpsat-table": _formulation(
        "cpsat-table",
        "cpsat",
        _build_cpsat_table,
        "per-cell table (tile, turns, colours) with shared colour variables, all-different",
    ),
}


def _progress(report: Any) -> Any:
    """The report hook as the protocol has it, report(incumbent, bound, solution=None, detail=None).

    A hook that takes fewer arguments (a runner from before the solution or
    the detail was passed) gets what it takes rather than a TypeError.
    """
    for taken in (4, 3):
        try:
            inspect.signature(report).bind(*[None] * taken)
        except (TypeError, ValueError):
            continue
        if taken == 4:
            return report
        return lambda incumbent, bound, solution=None, detail=None: report(incumbent, bound, solution)
    return lambda incumbent, bound, solution=None, detail=None: report(incumbent, bound)


def _algorithm(algo: Any) -> Any:
    run = _framed(lambda inst, params, options, report: algo.run(inst, params, options, _progress(report)))
    return dataclasses.replace(algo, run=run)


def _objective(params: dict[str, Any]) -> tuple[str, Sense]:
    return ("mismatched inner edges", "min")


def parse_frame_colour(text: str) -> int | None:
    """``none`` (no frame) or a colour number that marks the frame."""
    if text.strip().lower() == "none":
        return None
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()):  # isdigit alone takes '³' (int() refuses it) and '٣' (3)
        raise ValueError(f"give none or a colour number from 0 to {MAX_COLOUR}")
    if len(digits.lstrip("0")) > len(str(MAX_COLOUR)):
        raise ValueError(f"a colour is between 0 and {MAX_COLOUR}")
    value = int(digits)
    if not 0 <= value <= MAX_COLOUR:
        raise ValueError(f"a colour is between 0 and {MAX_COLOUR}")
    return value


def _check_params(inst, params: dict[str, Any]) -> None:
    if mode_of(params) not in MODES:
        raise UsageError(f"mode must be one of {', '.join(MODES)}")
    frame = params.get("frame_colour", 0)
    if frame is not None and (isinstance(frame, bool) or not isinstance(frame, int) or not 0 <= frame <= MAX_COLOUR):
        raise UsageError(f"--frame-colour must be none or a colour between 0 and {MAX_COLOUR}")
    if not isinstance(params.get("count", False), bool):
        raise UsageError("--count is a switch")


def _warmup() -> None:
    from mipgames.edge_matching.baselines import compile_kernels

    compile_kernels()


def _target(inst, params: dict[str, Any]) -> float | None:
    """A decision asks for a placement that mismatches no edge."""
    from mipgames.edge_matching.simulate import mode_of

    return 0.0 if mode_of(params) == "decision" else None


@_framed
def _impossible(inst, params: dict[str, Any]) -> tuple[str, str] | None:
    """Tiles that cannot make the frame, or hints that conflict: no placement obeys the rules (a decision's
    rules include matching every edge)."""
    from mipgames.edge_matching.backtrack import impossible
    from mipgames.edge_matching.simulate import mode_of, named_frame

    return impossible(inst, named_frame(params), mode_of(params) == "decision")


@_framed
def _plain_solution(inst, params: dict[str, Any]) -> list[list[int]]:
    from mipgames.edge_matching.simulate import plain_placement

    return plain_placement(inst)


@_framed
def _bound(inst, params: dict[str, Any]) -> tuple[float, str]:
    """On the framed instance: with ``--frame-colour none`` colour 0 is an ordinary colour, and counted as the
    frame it gave a bound of 1 beside a perfect placement."""
    from mipgames.edge_matching.simulate import COLOUR_COUNT_BOUND, colour_count_bound

    return float(colour_count_bound(inst)), COLOUR_COUNT_BOUND


SHOWN_CELLS = 1024
"""Boards up to this many cells have their placement drawn in the summary (a 500 x 500 one would be 2 MB)."""


def _describe(inst, params, placement, verdict: Verdict) -> str:
    C = inst.cols
    n = verdict.measured.get("mismatched")
    head = f"placement (tile/turns), {inst.inner_edges - n}/{inst.inner_edges} inner edges matched, {n} mismatched"
    if inst.cells > SHOWN_CELLS:
        from mipgames.edge_matching.render import MAX_DRAWN_CELLS

        drawn = ", `mipgames render` draws it" if inst.cells <= MAX_DRAWN_CELLS else ""
        return f"{head}\n  ({inst.cells:,} cells: the certificate has the placement{drawn})"
    rows = [" ".join(f"{t:>3}/{a}" for t, a in placement[r * C : (r + 1) * C]) for r in range(inst.rows)]
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


def _drawable(inst):
    from mipgames.edge_matching.render import drawable

    drawable(inst)


PARAMS = (
    Param(
        "mode",
        "optimise",
        "optimise: fewest mismatched edges; decision: every inner edge must match",
        str,
        MODES,
    ),
    Param(
        "frame_colour",
        0,
        "the colour that marks the grey frame of Eternity II-style puzzles, or none for puzzles without a frame "
        "(colours may then start at 0)",
        parse_frame_colour,
        nullable=True,
    ),
    Param(
        "count",
        False,
        "count every perfect placement (backtrack and portfolio); the count goes into the certificate",
        flag=True,
        used_by=tuple(name for name, algo in ALGORITHMS.items() if algo.counts),
    ),
)

PROBLEM = Problem(
    name="edge-matching",
    folder="edge_matching",
    summary="Edge-matching puzzles (Eternity II style): place and turn square tiles so that touching edges match",
    read=inst_mod.read,
    write=inst_mod.write,
    instance_to_json=codec.instance_to_json,
    instance_from_json=codec.instance_from_json,
    solution_to_json=codec.solution_to_json,
    solution_from_json=codec.solution_from_json,
    evaluate=evaluate,
    objective=_objective,
    formulations=FORMULATIONS,
    default_formulation={"mip": "typed", "cpsat": "cpsat"},
    algorithms={name: _algorithm(algo) for name, algo in ALGORITHMS.items()},
    params=PARAMS,
    render=_framed(_render),
    drawable=_drawable,
    describe=_describe,
    generator=Generator(_add_arguments, _generate),
    check_params=_check_params,
    integral=True,
    default_solver="portfolio",
    warmup=_warmup,
    bound=_bound,
    impossible=_impossible,
    impossible_names=IMPOSSIBLE_NAMES,
    plain_solution=_plain_solution,
    claims=count_claims,
    target=_target,
    optimise_params=lambda params: {**params, "mode": "optimise"},
)
