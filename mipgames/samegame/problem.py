"""PROBLEM: classic SameGame (Clickomania) as the shared machinery sees it."""

from __future__ import annotations

from typing import Any

from mipgames.core.errors import UsageError
from mipgames.core.lazy import lazy
from mipgames.core.problem import Formulation, Param, Problem, Verdict
from mipgames.samegame import instance as inst
from mipgames.samegame.simulate import OBJECTIVES, evaluate


def _non_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise ValueError(f"must be at least 0, got {value}")
    return value


PARAMS = (
    Param("objective", "min-remaining", "min-remaining (tiles left, Clickomania) or score ((n-2)^2 a move, +1000 on a clear)",
          choices=OBJECTIVES),
    Param("beam_width", 0, "beam search width; 0 doubles the width while the time limit lasts", _non_negative),
)


def _objective(params: dict[str, Any]) -> tuple[str, str]:
    if params.get("objective", "min-remaining") == "score":
        return ("score (standard rule)", "max")
    return ("tiles remaining", "min")


def _check_params(board: inst.Board, params: dict[str, Any]) -> None:
    if params.get("objective", "min-remaining") not in OBJECTIVES:
        raise UsageError(f"objective must be one of {', '.join(OBJECTIVES)}, got {params.get('objective')!r}")
    width = params.get("beam_width", 0)
    if not isinstance(width, int) or isinstance(width, bool) or width < 0:
        raise UsageError(f"beam_width must be an integer >= 0, got {width!r}")


def _to_json(board: inst.Board) -> list[str]:
    return inst.format_board(board).splitlines()


def _from_json(rows: list[str]) -> inst.Board:
    return inst.parse_board("\n".join(rows) + "\n", "<json>")


def _solution_to_json(moves: Any) -> list[list[int]]:
    return [[int(x), int(y)] for x, y in moves]


def _solution_from_json(board: inst.Board, data: Any) -> list[list[int]]:
    return [[int(x), int(y)] for x, y in data]


def _describe(board: inst.Board, params: dict[str, Any], moves: Any, verdict: Verdict) -> str:
    m = verdict.measured
    lines = []
    for t, (x, y) in enumerate(moves, start=1):
        gain = m.get("scores", [None] * len(moves))[t - 1] if m.get("scores") else None
        lines.append(f"{t:4d}. click ({x},{y})" + (f"  +{gain}" if gain is not None else ""))
    if not verdict.legal:
        lines.append(f"illegal: {verdict.reason}")
        return "\n".join(lines)
    lines.append("final board:")
    lines.extend("  " + row for row in str(m.get("final", "")).splitlines())
    lines.append(f"{m.get('remaining')} tiles left, score {m.get('score')} (standard rule: (n-2)^2 a move, +1000 on a clear)")
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
    instance_to_json=_to_json,
    instance_from_json=_from_json,
    solution_to_json=_solution_to_json,
    solution_from_json=_solution_from_json,
    evaluate=evaluate,
    objective=_objective,
    formulations={
        "time-indexed": Formulation(
            "time-indexed", "mip", _build_mip, _decode,
            "alive[t, tile] over T = sum floor(n_c/2) steps, rows by counts, flow connectivity, colour-count cut",
        ),
        "cpsat": Formulation(
            "cpsat", "cpsat", _build_cpsat, _decode,
            "alive[t, tile] with reified touching literals, depth-labelled spanning tree, element scoring",
        ),
    },
    default_formulation={"mip": "time-indexed", "cpsat": "cpsat"},
    algorithms=_algorithms(),
    params=PARAMS,
    render=_render,
    describe=_describe,
    generator=_generator(),
    check_params=_check_params,
    integral=True,
    commands=lazy("mipgames.samegame.commands:register"),
)
