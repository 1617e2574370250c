"""Classic SameGame boards: the dataclass and the two file formats.

Board file: rows top first, one character per cell (``0``-``9``, ``a``-``z``
for colours 0..35, ``.`` empty); blank lines and ``#`` comments are skipped.
A file whose rows are whitespace-separated integers (the standard test set's
style: colour numbers, -1 for empty) is read too.  Boards must be what a
game can reach: no tile above an empty cell, no empty column left of a
non-empty one; such a board is rejected (not normalised), naming the line.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from mipgames.core.errors import InputError

SYMBOLS = "0123456789abcdefghijklmnopqrstuvwxyz"
EMPTY = -1
MAX_COLOURS = len(SYMBOLS)


@dataclass(frozen=True)
class Board:
    """``cells`` holds the rows top first, as in files; -1 is empty, colours are 0..35."""

    cells: tuple[tuple[int, ...], ...]

    @property
    def rows(self) -> int:
        return len(self.cells)

    @property
    def cols(self) -> int:
        return len(self.cells[0]) if self.cells else 0

    def at(self, x: int, y: int) -> int:
        """Colour at column x (from the left), row y (from the bottom); -1 when empty or off the board."""
        if 0 <= x < self.cols and 0 <= y < self.rows:
            return self.cells[self.rows - 1 - y][x]
        return EMPTY

    def tiles(self) -> int:
        return sum(1 for row in self.cells for c in row if c != EMPTY)

    def colours(self) -> set[int]:
        return {c for row in self.cells for c in row if c != EMPTY}

    def __str__(self) -> str:
        return format_board(self)


def _rows_of_symbols(lines: list[tuple[int, str]], path: str) -> list[tuple[int, list[int]]]:
    rows = []
    for number, text in lines:
        row = []
        for ch in text:
            if ch == ".":
                row.append(EMPTY)
            elif ch in SYMBOLS:
                row.append(SYMBOLS.index(ch))
            else:
                raise InputError(f"unknown symbol {ch!r} (colours are 0-9 a-z, '.' is empty)", path, number)
        rows.append((number, row))
    return rows


def _rows_of_ints(lines: list[tuple[int, str]], path: str) -> list[tuple[int, list[int]]]:
    rows = []
    for number, text in lines:
        row = []
        for word in text.split():
            if word == ".":
                row.append(EMPTY)
                continue
            try:
                value = int(word)
            except ValueError:
                raise InputError(f"not a colour number: {word[:20]!r}", path, number) from None
            if not (value == EMPTY or 0 <= value < MAX_COLOURS):
                raise InputError(f"colour {value} out of range 0..{MAX_COLOURS - 1} (-1 is empty)", path, number)
            row.append(value)
        rows.append((number, row))
    return rows


def _board_of(lines: list[tuple[int, str]], path: str, ints: bool | None = None) -> Board:
    """A board from its (line number, text) rows, top first: checks shape and gravity.

    ``ints`` None guesses the format: integers when any row has several words.
    """
    if not lines:
        raise InputError("empty board file (no rows)", path)
    if ints is None:
        ints = any(len(text.split()) > 1 for _, text in lines)
    rows = (_rows_of_ints if ints else _rows_of_symbols)(lines, path)
    width = len(rows[0][1])
    for number, row in rows:
        if len(row) != width:
            raise InputError(f"ragged row: {len(row)} cells, the first row has {width}", path, number)
    # Gravity: going down a column, once a tile is seen every lower cell holds one.
    for x in range(width):
        tile_line = None
        for number, row in rows:
            if row[x] != EMPTY:
                tile_line = tile_line or number
            elif tile_line is not None:
                raise InputError(
                    f"column {x}: empty cell below the tile on line {tile_line} (tiles must rest on the bottom)",
                    path, number,
                )
    bottom_line, bottom = rows[-1]
    for x in range(1, width):
        if bottom[x - 1] == EMPTY and bottom[x] != EMPTY:
            raise InputError(f"column {x - 1} is empty but column {x} is not (empty columns must be on the right)",
                             path, bottom_line)
    return Board(tuple(tuple(row) for _, row in rows))


def _content_lines(text: str) -> list[tuple[int, str]]:
    lines = []
    for number, raw in enumerate(text.splitlines(), 1):
        stripped = raw.strip()
        if stripped and not stripped.startswith("#"):
            lines.append((number, stripped))
    return lines


def parse_board(text: str, path: str = "<string>") -> Board:
    """The board written in ``text`` (either format); InputError naming the line on bad input.

    Integer rows split by a blank line are the standard set's several boards,
    not one tall board: that is refused rather than misread.
    """
    lines = _content_lines(text)
    if any(len(t.split()) > 1 for _, t in lines):
        raw = text.splitlines()
        for (before, _), (after, _) in zip(lines, lines[1:]):
            if any(not raw[k].strip() for k in range(before, after - 1)):
                raise InputError("blank line between rows: several boards in one file "
                                 "(read them with read_standard_set)", path, after)
    return _board_of(lines, path)


def _read_text(path: str | Path) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise InputError("not UTF-8 text", path) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path) from None
    except ValueError:  # a NUL in the name
        raise InputError("cannot read: not a valid file name", path) from None


def read_board(path: str | Path) -> Board:
    return parse_board(_read_text(path), str(path))


def format_board(board: Board) -> str:
    """The board file text (top row first, one character per cell), ending with a newline."""
    return "".join("".join("." if c == EMPTY else SYMBOLS[c] for c in row) + "\n" for row in board.cells)


def write_board(board: Board, path: str | Path) -> None:
    Path(path).write_text(format_board(board), encoding="utf-8")


def read_standard_set(path: str | Path) -> list[Board]:
    """Boards of whitespace-separated colour numbers, top row first, separated by blank lines."""
    text = _read_text(path)
    boards: list[Board] = []
    block: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines() + [""], 1):
        stripped = raw.strip()
        if stripped.startswith("#"):
            continue
        if stripped:
            block.append((number, stripped))
        elif block:
            boards.append(_board_of(block, str(path), ints=True))
            block = []
    if not boards:
        raise InputError("no boards in the file", path)
    return boards

