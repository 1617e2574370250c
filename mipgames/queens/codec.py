"""JSON of queens instances and solutions; every malformed input is an InputError.

Instance: ``{"n": 8, "k": 1, "board": [[0, 1, ...], ...]}`` (and, for a
planted instance, ``"planted": [[r1, c1, r2, c2], ...]``).  Solution: a list
of moves ``[[r1, c1, r2, c2], ...]``; coordinates are checked by the
simulator, which names the first illegal move.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mipgames.core.errors import InputError
from mipgames.core.files import excerpt, refuse_unknown_keys
from mipgames.queens.instance import MAX_K, MAX_N, MAX_TOTAL, Move, Queens, check_board

MAX_MOVES = MAX_N * MAX_N


def _int(value: Any, what: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{what} must be an integer, got {excerpt(type(value).__name__)}")
    if not lo <= value <= hi:
        raise InputError(f"{what} must be between {lo} and {hi}, got {excerpt(str(value))}")
    return value


def instance_to_json(instance: Queens) -> dict[str, Any]:
    out: dict[str, Any] = {"n": instance.n, "k": instance.k, "board": [list(row) for row in instance.board]}
    if instance.planted is not None:
        out["planted"] = solution_to_json(instance.planted)
    return out


def instance_from_json(data: Any) -> Queens:
    """The same checks as the text reader (powers of two, row lengths, total below 2^60)."""
    if not isinstance(data, Mapping) or not {"n", "k", "board"} <= set(data):
        raise InputError('a queens instance is {"n": N, "k": K, "board": [[...], ...]}')
    refuse_unknown_keys(data, ("n", "k", "board", "planted"), "a queens instance")
    n = _int(data["n"], "n", 1, MAX_N)
    k = _int(data["k"], "k", 0, MAX_K)
    board = data["board"]
    if not isinstance(board, list) or len(board) != n:
        raise InputError(f'"board" must be a list of {n} rows')
    rows = []
    for r, row in enumerate(board):
        if not isinstance(row, list) or len(row) != n:
            raise InputError(f"board row {r} must be a list of {n} values")
        rows.append([_int(v, f"board row {r} value", 0, MAX_TOTAL - 1) for v in row])
    planted = None
    if data.get("planted") is not None:
        planted = tuple(solution_from_json(None, data["planted"]))
    return Queens(n, k, check_board(n, rows, None, [None] * n), planted)


def solution_to_json(moves: Any) -> list[list[int]]:
    return [list(m) for m in moves]


def solution_from_json(instance: Queens | None, data: Any) -> list[Move]:
    if not isinstance(data, list):
        raise InputError("a queens solution is a list of moves [r1, c1, r2, c2]")
    if len(data) > MAX_MOVES:
        raise InputError(f"a queens solution has at most {MAX_MOVES} moves, got {len(data)}")
    moves = []
    for t, move in enumerate(data, start=1):
        if not isinstance(move, list) or len(move) != 4:
            raise InputError(f"move {t} must be a list [r1, c1, r2, c2]")
        r1, c1, r2, c2 = (_int(v, f"move {t} coordinate", -MAX_N, 2 * MAX_N) for v in move)
        moves.append((r1, c1, r2, c2))
    return moves
