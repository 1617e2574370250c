"""PROBLEM: classic SameGame (Clickomania) as the shared machinery sees it."""

from __future__ import annotations

from typing import Any

from mipgames.core.arguments import int_in
from mipgames.core.errors import UsageError
from mipgames.core.lazy import lazy
from mipgames.core.problem import Formulation, Param, Problem, Verdict
from mipgames.core.status import Sense, capped
from mipgames.samegame import codec
from mipgames.samegame import instance as inst
from mipgames.samegame.simulate import COLOUR_COUNT_BOUND, OBJECTIVES, ORIGINS, evaluate

MAX_BEAM_WIDTH = 1 << 22
MAX_NODE_BUDGET = 10**15
MAX_LEVEL = 5


def _plain_solution(board: Any, params: dict[str, Any]) -> list[list[int]]:
    """A finished game made without search: the first legal group, clicked until none is left."""
    from mipgames.samegame.simulate import apply_move, from_bottom, legal_moves

    moves, now = [], board
    while legal := legal_moves(now):
        moves.append(legal[0])
        now = apply_move(now, legal[0])[0]
    return from_bottom(board, moves, params.get("origin", "bottom"))


def _bound(board: Any, params: dict[str, Any]) -> tuple[float, str]:
    """The own bound (``simulate.own_bound``) in the objective's own units: the colour-count bound (a colour
    with one tile stays, and a colour scores at most as one group, the clear bonus only when no colour has one
    tile), or the board's own value when it has no move."""
    from mipgames.samegame.simulate import own_bound, rules_of

    rules = rules_of(params)
    value, name = own_bound(board, rules)
    return float(rules.natural(value)), name


PARAMS = (
    Param(
        "objective",
        "min-remaining",
        "min-remaining (tiles left, Clickomania) or score ((n-2)^2 a move, +1000 on a clear)",
        choices=OBJECTIVES,
    ),
    Param(
        "origin",
        "bottom",
        "row 0 of click coordinates: bottom (the spec's, default) or top (the formal model's "
        "y = 0 at the top row); solutions are read and written in it",
        choices=ORIGINS,
    ),
    Param(
        "beam_width",
        0,
        "beam search width; 0 widens the beam while the time limit lasts",
        int_in(0, MAX_BEAM_WIDTH),
        used_by=("beam",),
    ),
    Param(
        "node_budget",
        0,
        "stop the compiled searches after this many nodes/playouts in all (0: the time limit "
        "decides); with a budget a run is deterministic given --seed",
        int_in(0, MAX_NODE_BUDGET),
        used_by=("portfolio", "exact", "nrpa", "nmcs", "beam", "greedy"),
    ),
    Param(
        "level",
        0,
        "nesting level of nmcs (default 2) and nrpa (default 3); 0 takes the default",
        int_in(0, MAX_LEVEL),
        used_by=("portfolio", "nrpa", "nmcs"),
    ),
)
_LIMITS = {"beam_width": MAX_BEAM_WIDTH, "node_budget": MAX_NODE_BUDGET, "level": MAX_LEVEL}


def _objective(params: dict[str, Any]) -> tuple[str, Sense]:
    if params.get("objective", "min-remaining") == "score":
        return ("score (standard rule)", "max")
    return ("tiles remaining", "min")


def _check_params(board: inst.Board, params: dict[str, Any]) -> None:
    if params.get("objective", "min-remaining") not in OBJECTIVES:
        raise UsageError(f"objective must be one of {', '.join(OBJECTIVES)}, got {params.get('objective')!r}")
    if params.get("origin", "bottom") not in ORIGINS:
        raise UsageError(f"origin must be one of {', '.join(ORIGINS)}, got {params.get('origin')!r}")
    for name, hi in _LIMITS.items():
        value = params.get(name, 0)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= hi:
            raise UsageError(f"{name} must be an integer from 0 to {hi}, got {value!r}")


def _describe(board: inst.Board, params: dict[str, Any], moves: Any, verdict: Verdict) -> str:
    m = verdict.measured
    clicks = []
    for t, (x, y) in enumerate(moves, start=1):
        gain = m.get("scores", [None] * len(moves))[t - 1] if m.get("scores") else None
        clicks.append(f"{t:4d}. click ({x},{y})" + (f"  +{gain}" if gain is not None else ""))
    lines = capped(clicks, "clicks")
    if not verdict.legal:
        lines.append(f"illegal: {verdict.reason}")
        return "\n".join(lines)
    lines.append("final board:")
    lines.extend("  " + row for row in str(m.get("final", "")).splitlines())
    lines.append(
        f"{m.get('remaining')} tiles left, score {m.get('score')} (standard rule: (n-2)^2 a move, +1000 on a clear)"
    )
    return "\n".join(lines)


def _build_mip(board, params, options):
    from mipgames.samegame import mip

    return mip.build(board, params, options)


def _build_cpsat(board, params, options):
    from mipgames.samegame import cpsat

    return cpsat.build(board, params, options)


def _decode(board, params, handles, value):
    from mipgames.samegame import decode

    return decode.decode_alive(board, params, handles, value)


def _algorithms():
    from mipgames.samegame import baselines

    return baselines.ALGORITHMS


def _render(board, params, solution, path):
    from mipgames.samegame import render

    render.render(board, params, solution, path)


def _generator():
    from mipgames.samegame import generate

    return generate.GENERATOR


PROBLEM = Problem(
    name="samegame",
    folder="samegame",
    summary="SameGame / Clickomania: click groups of >= 2 same-coloured tiles; fewest tiles left or best score",
    read=inst.read_board,
    write=inst.write_board,
    instance_to_json=codec.instance_to_json,
    instance_from_json=codec.instance_from_json,
    solution_to_json=codec.solution_to_json,
    solution_from_json=codec.solution_from_json,
    evaluate=evaluate,
    objective=_objective,
    formulations={
        "time-indexed": Formulation(
            "time-indexed",
            "mip",
            _build_mip,
            _decode,
            "alive[t, tile] over T = sum floor(n_c/2) steps, rows by counts, flow connectivity, colour-count cut",
            start=lazy("mipgames.samegame.mip:start_solution"),
        ),
        "cpsat": Formulation(
            "cpsat",
            "cpsat",
            _build_cpsat,
            _decode,
            "alive[t, tile] with reified touching literals, depth-labelled spanning tree, element scoring",
            start=lazy("mipgames.samegame.mip:start_solution"),
        ),
    },
    default_formulation={"mip": "time-indexed", "cpsat": "cpsat"},
    algorithms=_algorithms(),
    params=PARAMS,
    render=_render,
    plain_solution=_plain_solution,
    bound=_bound,
    bound_aliases=(COLOUR_COUNT_BOUND,),
    render_formats=(".png", ".pdf", ".svg", ".gif"),
    describe=_describe,
    generator=_generator(),
    check_params=_check_params,
    integral=True,
    commands=lazy("mipgames.samegame.commands:register"),
    warmup=lazy("mipgames.samegame.commands:compile_kernels"),
    default_solver="portfolio",
)
