"""JSON of SameGame instances and solutions, as certificates store them.

An instance is the list of its board file's rows (top row first, one
character per cell, ``.`` empty); a solution is the list of its clicks
``[x, y]`` in the coordinates the ``origin`` param names (bottom by default),
at the time of each click.  Both come from files a user may have edited, so
every malformed input is an ``InputError`` (never a TypeError, KeyError,
ValueError or IndexError).
"""

from __future__ import annotations

from typing import Any

from mipgames.core.errors import InputError
from mipgames.core.files import excerpt
from mipgames.samegame.instance import EMPTY, MAX_COLOURS, MAX_SIDE, Board, format_board, parse_board

MAX_MOVES = MAX_SIDE * MAX_SIDE // 2
"""No game on the largest board read has more clicks (each removes two tiles or more)."""
MAX_COORDINATE = 2**31 - 1
"""Coordinates beyond this are refused outright (a legal click is on the board anyway)."""
WHERE = "<certificate>"


def _shown(value: Any) -> str:
    """A short description of a JSON value for a message (never its whole, possibly huge, text)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_COORDINATE:
        return "an integer out of range"
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        return excerpt(str(value), 20)
    if isinstance(value, list):
        return f"a list of {len(value)} items"
    return "null" if value is None else type(value).__name__


def instance_to_json(board: Board) -> list[str]:
    """The board's rows as text; a cell no file could hold is refused (a -5 was written as a colour, through
    Python's negative indexing, and the instance object then crashed the solver)."""
    for row in board.cells:
        for cell in row:
            if isinstance(cell, bool) or not isinstance(cell, int) or not (cell == EMPTY or 0 <= cell < MAX_COLOURS):
                raise InputError(
                    f"a cell holds {_shown(cell)}: colours are 0 to {MAX_COLOURS - 1}, {EMPTY} is empty", WHERE
                )
    return format_board(board).splitlines()


def instance_from_json(data: Any) -> Board:
    if not isinstance(data, list) or not all(isinstance(row, str) for row in data):
        raise InputError(f"a SameGame instance is a list of row strings, got {_shown(data)}", WHERE)
    if len(data) > MAX_SIDE + 1:
        raise InputError(f"{len(data)} rows; at most {MAX_SIDE} are read", WHERE)
    if any("\n" in row or "\r" in row for row in data):
        raise InputError("a row string holds a line break", WHERE)
    return parse_board("\n".join(data) + "\n", WHERE)


def solution_to_json(moves: Any) -> list[list[int]]:
    return [[int(x), int(y)] for x, y in moves]


def _coordinate(value: Any, index: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"move {index}: coordinates must be integers, got {_shown(value)}", WHERE)
    if abs(value) > MAX_COORDINATE:
        raise InputError(f"move {index}: a coordinate is out of range (at most {MAX_COORDINATE} in size)", WHERE)
    return value


def solution_from_json(board: Board, data: Any) -> list[list[int]]:
    """Clicks as ``[[x, y], ...]``; whether they are legal is the simulator's business, their shape is checked here."""
    if not isinstance(data, list):
        raise InputError(f"a SameGame solution is a list of [x, y] clicks, got {_shown(data)}", WHERE)
    if len(data) > MAX_MOVES:
        raise InputError(f"{len(data)} clicks; no game has more than {MAX_MOVES}", WHERE)
    moves = []
    for index, item in enumerate(data, 1):
        if not isinstance(item, list) or len(item) != 2:
            raise InputError(f"move {index} is not a pair [x, y]: {_shown(item)}", WHERE)
        moves.append([_coordinate(item[0], index), _coordinate(item[1], index)])
    return moves
