"""Power of queens: the instance and its coursework text formats (board in, moves out).

The reader is stricter than the coursework's: every value must be 0 or a power
of two, every row must have N entries, and the total power must stay below
2^60, each error naming the file and line.  A planted instance (built
backwards from a solution by the generator) carries that solution; it is
written beside the board as a moves file (``X.moves`` for ``X.txt``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mipgames.core.errors import InputError
from mipgames.core.files import (
    drop_stale_companion,
    output_pair,
    parse_int,
    read_text,
    staged_output,
    text_lines,
    write_text_atomic,
)

MAX_N = 128
MAX_TOTAL = 1 << 60
MAX_K = MAX_N * MAX_N
"""K above the number of squares asks nothing more."""
MAX_COORDINATE = 10**6
"""Largest coordinate a moves file may name (off the board it is an illegal move, beyond this bad input)."""

Move = tuple[int, int, int, int]
"""(r1, c1, r2, c2): the queen on (r1, c1) captures the queen on (r2, c2)."""


@dataclass(frozen=True)
class Queens:
    """An N×N board of queen powers (0 = empty) and the target K (at most K queens may remain)."""

    n: int
    k: int
    board: tuple[tuple[int, ...], ...]
    planted: tuple[Move, ...] | None = field(default=None, compare=False)
    """The solution the generator built the board from (None when unknown); not part of the instance's identity."""

    def __post_init__(self) -> None:
        """Rows given as lists become tuples: the searches key their caches by the board, and a board of lists
        built in Python reached them as "unhashable type: 'list'" (the checks see the values as before)."""
        board: object = self.board
        if isinstance(board, list) or (isinstance(board, tuple) and any(isinstance(row, list) for row in board)):
            object.__setattr__(self, "board", tuple(tuple(row) if isinstance(row, list) else row for row in board))

    @property
    def queens(self) -> list[tuple[int, int, int]]:
        """(row, column, power) of every queen, row-major: the order models index squares by."""
        return [(r, c, p) for r, row in enumerate(self.board) for c, p in enumerate(row) if p]

    @property
    def total(self) -> int:
        return sum(map(sum, self.board))


def counted(n: float, noun: str) -> str:
    """``n`` with its noun, singular for one ("1 move", "3 moves")."""
    return f"{n:g} {noun}" + ("" if n == 1 else "s")


def remain(n: float, how: str = "") -> str:
    """ "n queens remain" with the verb agreeing ("1 queen remains"); ``how`` stands before the verb ("always")."""
    return " ".join(part for part in (counted(n, "queen"), how, "remains" if n == 1 else "remain") if part)


def exponent(power: int) -> int:
    return power.bit_length() - 1


def is_power_of_two(value: int) -> bool:
    return value > 0 and value & (value - 1) == 0


def check_board(
    n: int, rows: Sequence[Sequence[int]], path: str | Path | None, lines: Sequence[int | None]
) -> tuple[tuple[int, ...], ...]:
    """The board's rules (powers of two, total below 2^60), each error on the row's line; rows already have n values."""
    total = 0
    for row, line in zip(rows, lines):
        for col, value in enumerate(row):
            if value != 0 and not is_power_of_two(value):
                raise InputError(f"value {value} in column {col} is neither 0 nor a power of two", path, line)
            total += value
            if total >= MAX_TOTAL:
                raise InputError("total power reaches 2^60 (must stay below)", path, line)
    return tuple(tuple(row) for row in rows)


def parse(text: str, path: str | Path | None = None) -> Queens:
    """Parses the coursework input: N, K, then N rows of N powers (blank lines are ignored)."""
    lines = [(no, line.split()) for no, line in enumerate(text_lines(text), start=1) if line.strip()]
    if not lines:
        raise InputError("empty input: expected N on the first line", path, 1)
    no, tokens = lines[0]
    if len(tokens) != 1:
        raise InputError(f"first line must hold only N, got {len(tokens)} values", path, no)
    n = parse_int(tokens[0], path, no, "N", 1, MAX_N)
    if len(lines) < 2:
        raise InputError("missing K (second line)", path, no + 1)
    no, tokens = lines[1]
    if len(tokens) != 1:
        raise InputError(f"second line must hold only K, got {len(tokens)} values", path, no)
    k = parse_int(tokens[0], path, no, "K", 0, MAX_K)
    rows = lines[2:]
    if len(rows) < n:
        last = rows[-1][0] if rows else no
        raise InputError(f"expected {n} board rows, found {len(rows)}", path, last + 1)
    if len(rows) > n:
        raise InputError(f"extra data after the {n} board rows", path, rows[n][0])
    values = []
    for no, tokens in rows:
        if len(tokens) != n:
            raise InputError(f"row has {len(tokens)} values, expected {n}", path, no)
        values.append([parse_int(t, path, no, f"value in column {c}", 0, MAX_TOTAL - 1) for c, t in enumerate(tokens)])
    return Queens(n, k, check_board(n, values, path, [no for no, _ in rows]))


def read(path: str | Path) -> Queens:
    return parse(read_text(path, "queens board"), str(path))


def format_instance(instance: Queens) -> str:
    width = max(len(str(p)) for row in instance.board for p in row)
    rows = [" ".join(str(p).rjust(width) for p in row) for row in instance.board]
    return "\n".join([str(instance.n), str(instance.k), *rows]) + "\n"


def moves_path(board_path: str | Path) -> Path:
    """Where a board's planted solution is written: beside it, ``.moves``."""
    return Path(board_path).with_suffix(".moves")


def output_paths(path: str | Path, planted: bool, probe: bool = False) -> tuple[Path, Path | None]:
    """The board's path and its moves file's (None without planted moves), checked as ``output_pair`` does."""
    return output_pair(path, moves_path(path) if planted else None, "the planted moves file", probe)


def write(instance: Queens, path: str | Path) -> None:
    """The board; a planted instance's solution goes beside it as a moves file.

    Both paths are checked before either is written, and both files are staged before either is renamed into
    place: a failure while writing leaves neither file changed (never a new board beside an old moves file)."""
    board, moves = output_paths(path, instance.planted is not None)
    if moves is None or instance.planted is None:
        write_text_atomic(board, format_instance(instance))
        drop_stale_companion(board, moves_path(board), "the planted moves")
        return
    with staged_output(board) as board_tmp, staged_output(moves) as moves_tmp:
        board_tmp.write_text(format_instance(instance), encoding="utf-8")
        moves_tmp.write_text(format_moves(instance.planted), encoding="utf-8")


def parse_moves(text: str, path: str | Path | None = None) -> list[tuple[int, Move]]:
    """Parses the coursework output: one `r1 c1 r2 c2` per line; returns (line number, move) pairs."""
    moves = []
    for no, line in enumerate(text_lines(text), start=1):
        tokens = line.split()
        if not tokens:
            continue
        if len(tokens) != 4:
            raise InputError(f"a move is 4 integers 'r1 c1 r2 c2', got {len(tokens)} values", path, no)
        # any coordinate a board could be mistaken to have: off this board, the checker names the move illegal
        # (a 128 was refused as input here while an 8 on an 8x8 board was an illegal move)
        r1, c1, r2, c2 = (parse_int(t, path, no, "coordinate", -MAX_COORDINATE, MAX_COORDINATE) for t in tokens)
        moves.append((no, (r1, c1, r2, c2)))
    return moves


def read_moves(path: str | Path) -> list[tuple[int, Move]]:
    return parse_moves(read_text(path, "moves file"), str(path))


def format_moves(moves: Iterable[Move]) -> str:
    return "".join(f"{r1} {c1} {r2} {c2}\n" for r1, c1, r2, c2 in moves)
