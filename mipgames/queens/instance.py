"""Power of queens: the instance and its coursework text formats (board in, moves out).

The reader is stricter than the coursework's: every value must be 0 or a power
of two, every row must have N entries, and the total power must stay below
2^60, each error naming the file and line.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from mipgames.core.errors import InputError

MAX_N = 128
MAX_TOTAL = 1 << 60

Move = tuple[int, int, int, int]
"""(r1, c1, r2, c2): the queen on (r1, c1) captures the queen on (r2, c2)."""


@dataclass(frozen=True)
class Queens:
    """An N×N board of queen powers (0 = empty) and the target K (at most K queens may remain)."""

    n: int
    k: int
    board: tuple[tuple[int, ...], ...]

    @property
    def queens(self) -> list[tuple[int, int, int]]:
        """(row, column, power) of every queen, row-major: the order models index squares by."""
        return [(r, c, p) for r, row in enumerate(self.board) for c, p in enumerate(row) if p]

    @property
    def total(self) -> int:
        return sum(map(sum, self.board))


def exponent(power: int) -> int:
    return power.bit_length() - 1


def is_power_of_two(value: int) -> bool:
    return value > 0 and value & (value - 1) == 0


def _int(token: str, what: str, path: str | None, line: int) -> int:
    try:
        return int(token)
    except ValueError:
        raise InputError(f"{what} must be an integer, got {token!r}", path, line) from None


def parse(text: str, path: str | None = None) -> Queens:
    """Parses the coursework input: N, K, then N rows of N powers (blank lines are ignored)."""
    lines = [(no, line.split()) for no, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if not lines:
        raise InputError("empty input: expected N on the first line", path, 1)
    no, tokens = lines[0]
    if len(tokens) != 1:
        raise InputError(f"first line must hold only N, got {len(tokens)} values", path, no)
    n = _int(tokens[0], "N", path, no)
    if not 1 <= n <= MAX_N:
        raise InputError(f"N must be between 1 and {MAX_N}, got {n}", path, no)
    if len(lines) < 2:
        raise InputError("missing K (second line)", path, no + 1)
    no, tokens = lines[1]
    if len(tokens) != 1:
        raise InputError(f"second line must hold only K, got {len(tokens)} values", path, no)
    k = _int(tokens[0], "K", path, no)
    if k < 0:
        raise InputError(f"K must be non-negative, got {k}", path, no)
    rows = lines[2:]
    if len(rows) < n:
        last = rows[-1][0] if rows else no
        raise InputError(f"expected {n} board rows, found {len(rows)}", path, last + 1)
    if len(rows) > n:
        raise InputError(f"extra data after the {n} board rows", path, rows[n][0])
    board = []
    total = 0
    for no, tokens in rows:
        if len(tokens) != n:
            raise InputError(f"row has {len(tokens)} values, expected {n}", path, no)
        row = []
        for col, token in enumerate(tokens):
            value = _int(token, f"value in column {col}", path, no)
            if value != 0 and not is_power_of_two(value):
                raise InputError(f"value {value} in column {col} is neither 0 nor a power of two", path, no)
            total += value
            if total >= MAX_TOTAL:
                raise InputError("total power reaches 2^60 (must stay below)", path, no)
            row.append(value)
        board.append(tuple(row))
    return Queens(n, k, tuple(board))


def read(path: str | Path) -> Queens:
    try:
        text = Path(path).read_text()
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror}", path) from None
    except UnicodeDecodeError:
        raise InputError("not a text file", path) from None
    return parse(text, str(path))


def format_instance(instance: Queens) -> str:
    width = max(len(str(p)) for row in instance.board for p in row)
    rows = [" ".join(str(p).rjust(width) for p in row) for row in instance.board]
    return "\n".join([str(instance.n), str(instance.k), *rows]) + "\n"


def write(instance: Queens, path: str | Path) -> None:
    Path(path).write_text(format_instance(instance))


def parse_moves(text: str, path: str | None = None) -> list[tuple[int, Move]]:
    """Parses the coursework output: one `r1 c1 r2 c2` per line; returns (line number, move) pairs."""
    moves = []
    for no, line in enumerate(text.splitlines(), start=1):
        tokens = line.split()
        if not tokens:
            continue
        if len(tokens) != 4:
            raise InputError(f"a move is 4 integers 'r1 c1 r2 c2', got {len(tokens)} values", path, no)
        values = tuple(_int(t, "coordinate", path, no) for t in tokens)
        moves.append((no, values))
    return moves


def read_moves(path: str | Path) -> list[tuple[int, Move]]:
    try:
        text = Path(path).read_text()
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror}", path) from None
    return parse_moves(text, str(path))


def format_moves(moves: Iterable[Move]) -> str:
    return "".join(f"{r1} {c1} {r2} {c2}\n" for r1, c1, r2, c2 in moves)


def to_json(instance: Queens) -> dict:
    return {"n": instance.n, "k": instance.k, "board": [list(row) for row in instance.board]}


def from_json(data: dict) -> Queens:
    """Rebuilds an instance through the text parser so that JSON input gets the same checks."""
    try:
        n, k, board = data["n"], data["k"], data["board"]
        text = "\n".join([str(n), str(k), *(" ".join(str(int(v)) for v in row) for row in board)])
    except (KeyError, TypeError, ValueError) as error:
        raise InputError(f"bad queens instance JSON: {error}") from None
    return parse(text)
