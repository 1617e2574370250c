"""The exact simulator: replays capture sequences, stricter than the coursework's checker."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mipgames.core.problem import Verdict
from mipgames.queens.instance import Move, Queens

Board = dict[tuple[int, int], int]


def board_of(instance: Queens) -> Board:
    return {(r, c): p for r, c, p in instance.queens}


def line_between(r1: int, c1: int, r2: int, c2: int) -> list[tuple[int, int]] | None:
    """Squares strictly between two squares on a common line; None when they share no line."""
    dr, dc = r2 - r1, c2 - c1
    if not (dr == 0 or dc == 0 or abs(dr) == abs(dc)):
        return None
    steps = max(abs(dr), abs(dc))
    sr, sc = (dr > 0) - (dr < 0), (dc > 0) - (dc < 0)
    return [(r1 + sr * s, c1 + sc * s) for s in range(1, steps)]


def move_error(board: Board, n: int, move: Sequence[int]) -> str | None:
    """Why ``move`` is illegal on ``board`` (None when legal)."""
    if len(move) != 4 or not all(isinstance(v, int) for v in move):
        return f"a move is 4 integers, got {list(move)!r}"
    r1, c1, r2, c2 = move
    if not all(0 <= v < n for v in move):
        return f"coordinates off the {n}x{n} board ({r1} {c1} {r2} {c2})"
    if (r1, c1) == (r2, c2):
        return f"a queen cannot capture itself ({r1} {c1} {r2} {c2})"
    source, target = board.get((r1, c1)), board.get((r2, c2))
    if source is None:
        return f"no queen on {r1} {c1}"
    if target is None:
        return f"no queen to capture on {r2} {c2}"
    if source != target:
        return f"powers differ ({source} on {r1} {c1}, {target} on {r2} {c2})"
    path = line_between(r1, c1, r2, c2)
    if path is None:
        return f"{r1} {c1} and {r2} {c2} share no row, column or diagonal"
    for square in path:
        if square in board:
            return f"blocked by the queen on {square[0]} {square[1]}"
    return None


def apply(board: Board, move: Move) -> None:
    r1, c1, r2, c2 = move
    board[r2, c2] = 2 * board.pop((r1, c1))


def replay(instance: Queens, moves: Sequence[Move]) -> tuple[Board, int | None, str]:
    """Plays the moves; returns the board, the index of the first illegal move (or None) and why."""
    board = board_of(instance)
    for index, move in enumerate(moves):
        error = move_error(board, instance.n, move)
        if error:
            return board, index, error
        apply(board, move)
    return board, None, ""


def evaluate(instance: Queens, params: dict[str, Any], moves: Any) -> Verdict:
    """Objective: queens remaining.  Without ``minimise`` a replay leaving more than K is illegal."""
    if not isinstance(moves, (list, tuple)):
        return Verdict(False, None, "a solution is a list of moves [r1, c1, r2, c2]")
    board, bad, error = replay(instance, [tuple(m) if isinstance(m, (list, tuple)) else (m,) for m in moves])
    if bad is not None:
        return Verdict(False, None, f"move {bad + 1}: {error}")
    remaining = len(board)
    measured = {
        "remaining": remaining,
        "moves": len(moves),
        "final": [[r, c, p] for (r, c), p in sorted(board.items())],
    }
    if not params.get("minimise") and remaining > instance.k:
        return Verdict(False, None, f"K not reached: {remaining} queens remain, K = {instance.k}", measured)
    return Verdict(True, remaining, "", measured)


def coursework_accepts(instance: Queens, moves: Sequence[Move]) -> bool:
    """The original checker's semantics, loophole included (it accepts `r c r c` and doubles that queen).

    Kept to show that everything the toolkit outputs is accepted by the coursework judge too.
    """
    board = board_of(instance)
    for r1, c1, r2, c2 in moves:
        if not all(0 <= v < instance.n for v in (r1, c1, r2, c2)):
            return False
        if (r1, c1) == (r2, c2):
            if (r1, c1) not in board:
                return False
            board[r1, c1] *= 2
            continue
        if move_error(board, instance.n, (r1, c1, r2, c2)):
            return False
        apply(board, (r1, c1, r2, c2))
    return len(board) <= instance.k
