"""Edge-matching instances: the dataclass and its two file formats.

Two formats are read and told apart by the first content line: two integers
``R C`` start the native (Brendan Owen) format, one integer ``H`` starts
Heule's SAT-benchmark format (H hint lines, then pieces on a square board).
Files are read through ``core.files.read_text`` (regular files, bounded size,
UTF-8) and every number through ``parse_int`` with the range the solvers
take, so a malformed input is refused with its file and line, quoting at most
a short excerpt.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from mipgames.core.errors import InputError
from mipgames.core.files import excerpt, parse_int, read_text, text_lines, write_text_atomic

Tile = tuple[int, int, int, int]
"""Colours clockwise from the top: (top, right, bottom, left)."""

Placement = tuple[tuple[int, int], ...]
"""(tile, turns) per cell in row-major order."""

MAX_SIDE = 1000
"""Rows or columns: far beyond what any solver here places, small enough that no size overflows."""
MAX_CELLS = 250_000
MAX_COLOUR = 1_000_000_000
"""Colours are labels; kept well inside every solver's integer range (CP-SAT int64, doubles in LP files)."""


@dataclass(frozen=True)
class Hint:
    row: int
    col: int
    tile: int
    turns: int


@dataclass(frozen=True)
class Instance:
    rows: int
    cols: int
    tiles: tuple[Tile, ...]
    hints: tuple[Hint, ...] = ()
    name: str = field(default="", compare=False)

    @cached_property
    def frame(self) -> bool:
        """Colour 0 anywhere makes it a frame puzzle (grey border, no grey inside).  Kept: loops over the cells
        ask for it, and computed each time it made a 150x150 board's plain placement take 44 s."""
        return any(0 in t for t in self.tiles)

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def inner_edges(self) -> int:
        return self.rows * (self.cols - 1) + (self.rows - 1) * self.cols

    def colours(self) -> list[int]:
        return sorted({c for t in self.tiles for c in t})


# ---------------------------------------------------------------- reading

Line = tuple[int, list[str]]


def _content_lines(path: Path) -> list[Line]:
    out = []
    for no, raw in enumerate(text_lines(read_text(path, "edge-matching instance")), start=1):
        words = raw.split("#", 1)[0].split()
        if words:
            out.append((no, words))
    return out


_PLAIN_COLOURS = re.compile(r"[0-9]{1,9}(?:\s+[0-9]{1,9}){3}")
"""Four colours of at most 9 digits (within MAX_COLOUR): the common line, read without per-token checks."""


def _tile(words: Sequence[str], path: Path, line: int) -> Tile:
    if _PLAIN_COLOURS.fullmatch(" ".join(words)):  # a board may have a quarter of a million tiles
        top, right, bottom, left = map(int, words)
        return (top, right, bottom, left)
    if len(words) != 4:
        raise InputError(
            f"a tile line needs 4 colours (top right bottom left), found {len(words)} values: "
            f"{excerpt(' '.join(words))}",
            path,
            line,
        )
    top, right, bottom, left = (parse_int(w, path, line, "a colour", 0, MAX_COLOUR) for w in words)
    return (top, right, bottom, left)


def _hint(words: Sequence[str], rows: int, cols: int, ntiles: int, path: Path, line: int) -> Hint:
    r = parse_int(words[0], path, line, f"a hint's row on a {rows}x{cols} board", 0, rows - 1)
    c = parse_int(words[1], path, line, f"a hint's column on a {rows}x{cols} board", 0, cols - 1)
    t = parse_int(words[2], path, line, "a hint's tile", 0, ntiles - 1)
    a = parse_int(words[3], path, line, "a hint's turns", 0, 3)
    return Hint(r, c, t, a)


def read(path: str | Path) -> Instance:
    """Read a native or Heule-format file (auto-detected from the first line)."""
    path = Path(path)
    lines = _content_lines(path)
    if not lines:
        raise InputError("no content: expected 'R C' (native) or 'H' (Heule format) first", path, 1)
    first_no, first = lines[0]
    if len(first) == 2:
        return _read_native(path, lines)
    if len(first) == 1:
        return _read_heule(path, lines)
    raise InputError(
        f"the first line must be 'R C' (native format) or 'H' (Heule format), found {excerpt(' '.join(first))}",
        path,
        first_no,
    )


def _read_native(path: Path, lines: list[Line]) -> Instance:
    no, head = lines[0]
    rows = parse_int(head[0], path, no, "the number of rows", 1, MAX_SIDE)
    cols = parse_int(head[1], path, no, "the number of columns", 1, MAX_SIDE)
    if rows * cols > MAX_CELLS:
        raise InputError(
            f"a {rows}x{cols} board has {rows * cols:,} cells; at most {MAX_CELLS:,} are read",
            path,
            no,
        )
    n = rows * cols
    tiles: list[Tile] = []
    hint_lines: list[Line] = []
    for no, words in lines[1:]:
        if words[0].lower() == "hint":
            if len(words) != 5:
                raise InputError(
                    f"a hint line reads 'hint row col tile turns', got {excerpt(' '.join(words))}", path, no
                )
            hint_lines.append((no, words[1:]))
            continue
        if hint_lines:
            raise InputError("a tile line after a hint line (tiles come first, then hints)", path, no)
        if len(tiles) == n:
            raise InputError(
                f"wrong tile count: a {rows}x{cols} board takes {n} tiles, this is one more: "
                f"{excerpt(' '.join(words))}",
                path,
                no,
            )
        tiles.append(_tile(words, path, no))
    if len(tiles) != n:
        raise InputError(
            f"wrong tile count: a {rows}x{cols} board takes {n} tiles, found {len(tiles)}",
            path,
            lines[-1][0],
        )
    hints = tuple(_hint(words, rows, cols, n, path, no) for no, words in hint_lines)
    return Instance(rows, cols, tuple(tiles), hints, path.stem)


def _read_heule(path: Path, lines: list[Line]) -> Instance:
    no, head = lines[0]
    nh = parse_int(head[0], path, no, "the number of hint lines", 0, MAX_CELLS)
    if len(lines) < 1 + nh:
        raise InputError(
            f"the header announces {nh} hint lines, found {len(lines) - 1} lines",
            path,
            lines[-1][0],
        )
    if len(lines) - 1 - nh > MAX_CELLS:
        raise InputError(f"more than {MAX_CELLS:,} pieces", path, lines[1 + nh + MAX_CELLS][0])
    for no, words in lines[1 : 1 + nh]:
        if len(words) != 4:
            raise InputError(f"a hint line reads 'row col piece rot', got {excerpt(' '.join(words))}", path, no)
    tiles = [_tile(words, path, no) for no, words in lines[1 + nh :]]
    if not tiles:
        raise InputError("no pieces after the hint lines", path, lines[-1][0])
    side = math.isqrt(len(tiles))
    if side * side != len(tiles):
        raise InputError(f"{len(tiles)} pieces do not fill a square board", path, lines[-1][0])
    hints = tuple(_hint(words, side, side, len(tiles), path, no) for no, words in lines[1 : 1 + nh])
    return Instance(side, side, tuple(tiles), hints, path.stem)


# ---------------------------------------------------------------- writing


def format_native(inst: Instance) -> str:
    kind = "frame puzzle" if inst.frame else "no frame"
    lines = [f"# edge matching {inst.rows}x{inst.cols}, {kind}; tiles: top right bottom left"]
    lines += [f"# name: {inst.name}"] if inst.name and inst.name.isprintable() else []
    lines += [f"{inst.rows} {inst.cols}"]
    lines += [" ".join(map(str, t)) for t in inst.tiles]
    lines += [f"hint {h.row} {h.col} {h.tile} {h.turns}" for h in inst.hints]
    return "\n".join(lines) + "\n"


def write(inst: Instance, path: str | Path) -> None:
    write_text_atomic(path, format_native(inst))
