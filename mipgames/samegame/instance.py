"""Classic SameGame boards: the dataclass and the file formats.

Board file: rows top first (the file shows the board as a person sees it),
one character per cell (``0``-``9``, ``a``-``z`` for colours 0..35, ``.``
empty); blank lines and ``#`` comments are skipped.  A file whose rows are
whitespace-separated integers is read too: the standard test set's style,
colour numbers as they are (0 is a colour there), ``-1`` or ``.`` empty.

The formal model's convention (colours numbered from 1, 0 for an empty
cell) is declared by a first line ``empty 0``: the symbol or integer 0 then
means an empty cell and colours are 1..35.  Boards must be what a game can
reach: no tile above an empty cell, no empty column left of a non-empty one;
such a board is rejected (not normalised), naming the line.

Coordinates of clicks (see ``simulate``): x is the column from the left, y
the row from the bottom, unless the ``origin`` param says ``top``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from mipgames.core.errors import InputError
from mipgames.core.files import excerpt, parse_int, read_text, text_lines, write_text_atomic

SYMBOLS = "0123456789abcdefghijklmnopqrstuvwxyz"
EMPTY = -1
MAX_COLOURS = len(SYMBOLS)
MAX_SIDE = 64
"""Largest number of rows or columns read (a 64 x 64 board already has 4096 tiles; the standard boards are 15 x 15)."""
ZERO_EMPTY = "empty 0"
"""The header line of the zero-empty convention."""


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


Lines = list[tuple[int, str]]
"""(line number, stripped text) of the lines that hold rows."""


def _rows_of_symbols(lines: Lines, path: str, zero_empty: bool) -> list[tuple[int, list[int]]]:
    rows = []
    for number, text in lines:
        if len(text) > MAX_SIDE:
            raise InputError(f"row of {len(text)} cells; at most {MAX_SIDE} columns are read", path, number)
        row = []
        for ch in text:
            if ch == "." and not zero_empty:
                row.append(EMPTY)
            elif ch == "0" and zero_empty:
                row.append(EMPTY)
            elif ch in SYMBOLS:
                row.append(SYMBOLS.index(ch))
            else:
                known = "colours 1-9 a-z, '0' is empty" if zero_empty else "colours 0-9 a-z, '.' is empty"
                raise InputError(f"unknown symbol {excerpt(ch)} ({known})", path, number)
        rows.append((number, row))
    return rows


def _rows_of_ints(lines: Lines, path: str, zero_empty: bool) -> list[tuple[int, list[int]]]:
    rows = []
    lo = 0 if zero_empty else -1
    for number, text in lines:
        words = text.split()
        if len(words) > MAX_SIDE:
            raise InputError(f"row of {len(words)} cells; at most {MAX_SIDE} columns are read", path, number)
        row = []
        for word in words:
            if word == "." and not zero_empty:
                row.append(EMPTY)
                continue
            value = parse_int(word, path, number, "colour", lo, MAX_COLOURS - 1)
            row.append(EMPTY if value == EMPTY or (zero_empty and value == 0) else value)
        rows.append((number, row))
    return rows


def _board_of(lines: Lines, path: str, ints: bool | None = None, zero_empty: bool = False) -> Board:
    """A board from its (line number, text) rows, top first: checks size, shape and gravity.

    ``ints`` None guesses the format: integers when any row has several words, or when a row is ``-1`` (a
    one-column board of numbers: ``-`` is no character a board holds).
    """
    if not lines:
        raise InputError("empty board file (no rows)", path, 1)
    if len(lines) > MAX_SIDE:
        raise InputError(f"{len(lines)} rows; at most {MAX_SIDE} are read", path, lines[MAX_SIDE][0])
    if ints is None:
        counts = [len(text.split()) for _, text in lines]
        ints = any(c > 1 for c in counts) or any(text.strip() == "-1" for _, text in lines)
        usual = max(counts, key=lambda c: (counts.count(c), c == counts[0]))  # most rows' (ties: the first's)
        model = next(number for (number, _), c in zip(lines, counts) if c == usual)
        # before any value is read: a digit row read as one number misled the message
        for (number, text), words in zip(lines, counts):
            if ints and words != usual:
                raise InputError(
                    f"{words} word{'s' * (words != 1)} where line {model} has {usual}: rows of colour digits and "
                    f"rows of numbers split by spaces are mixed, or a row is ragged ({excerpt(text)})",
                    path,
                    number,
                )
    rows = (_rows_of_ints if ints else _rows_of_symbols)(lines, path, zero_empty)
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
                    path,
                    number,
                )
    bottom_line, bottom = rows[-1]
    for x in range(1, width):
        if bottom[x - 1] == EMPTY and bottom[x] != EMPTY:
            raise InputError(
                f"column {x - 1} is empty but column {x} is not (empty columns must be on the right)", path, bottom_line
            )
    return Board(tuple(tuple(row) for _, row in rows))


def _content_lines(text: str) -> list[tuple[int, str]]:
    lines = []
    for number, raw in enumerate(text_lines(text), 1):
        stripped = raw.strip()
        if stripped and not stripped.startswith("#"):
            lines.append((number, stripped))
    return lines


def _header(lines: Lines, path: str) -> tuple[Lines, bool]:
    """Drop a leading ``empty ...`` line; returns the rest and whether 0 means empty."""
    if lines and lines[0][1].split()[0].lower() == "empty":  # any case: 'EMPTY 0' was read as a row of numbers
        number, text = lines[0]
        if " ".join(text.lower().split()) == ZERO_EMPTY:
            return lines[1:], True
        raise InputError(
            f"unknown header {excerpt(text)} (the one header is '{ZERO_EMPTY}': 0 is an empty cell)", path, number
        )
    return lines, False


def parse_board(text: str, path: str = "<string>") -> Board:
    """The board written in ``text`` (any format above); InputError naming the line on bad input.

    Rows split by a blank line are several boards (the standard set's), not
    one tall board: that is refused rather than misread, in every format (rows
    of digits were merged into one board).
    """
    lines, zero_empty = _header(_content_lines(text), path)
    raw = text_lines(text)
    for (before, _), (after, _) in zip(lines, lines[1:]):
        if any(not raw[k].strip() for k in range(before, after - 1)):
            raise InputError(
                "blank line between rows: several boards in one file (a solve takes one board a file;"
                " benchmarks/samegame/standard.py runs a whole set)",
                path,
                after,
            )
    return _board_of(lines, path, zero_empty=zero_empty)


def read_board(path: str | Path) -> Board:
    return parse_board(read_text(path, "board file"), str(path))


def format_board(board: Board) -> str:
    """The board file text (top row first, one character per cell), ending with a newline."""
    return "".join("".join("." if c == EMPTY else SYMBOLS[c] for c in row) + "\n" for row in board.cells)


def write_board(board: Board, path: str | Path) -> None:
    write_text_atomic(path, format_board(board))


def read_standard_set(path: str | Path) -> list[Board]:
    """Boards of whitespace-separated colour numbers, top row first, separated by blank lines."""
    text = read_text(path, "board set")
    boards: list[Board] = []
    block: list[tuple[int, str]] = []
    for number, raw in enumerate(text_lines(text) + [""], 1):
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
