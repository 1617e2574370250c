"""Edge-matching instances: the dataclass, the two file formats and JSON.

Two formats are read and told apart by the first content line: two integers
``R C`` start the native (Brendan Owen) format, one integer ``H`` starts
Heule's SAT-benchmark format (H hint lines, then pieces on a square board).
Every malformed input raises ``InputError`` naming the file and line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

from mipgames.core.errors import InputError

Tile = tuple[int, int, int, int]
"""Colours clockwise from the top: (top, right, bottom, left)."""

Placement = tuple[tuple[int, int], ...]
"""(tile, turns) per cell in row-major order."""


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

    @property
    def frame(self) -> bool:
        """Colour 0 anywhere makes it a frame puzzle (grey border, no grey inside)."""
        return any(0 in t for t in self.tiles)

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def inner_edges(self) -> int:
        return self.rows * (self.cols - 1) + (self.rows - 1) * self.cols

    def colours(self) -> list[int]:
        return sorted({c for t in self.tiles for c in t})


def turned(tile: Sequence[int], turns: int) -> Tile:
    """Colours after ``turns`` clockwise quarter turns: side s shows old side (s - turns) mod 4."""
    return tuple(tile[(s - turns) % 4] for s in range(4))  # type: ignore[return-value]


def distinct_turns(tile: Sequence[int]) -> list[int]:
    """Turns giving pairwise different colourings (a symmetric tile needs fewer variables)."""
    seen: dict[Tile, int] = {}
    for a in range(4):
        seen.setdefault(turned(tile, a), a)
    return sorted(seen.values())


def boundary_sides(inst: Instance, r: int, c: int) -> tuple[bool, bool, bool, bool]:
    """Which sides (top, right, bottom, left) of cell (r, c) lie on the outer boundary."""
    return (r == 0, c == inst.cols - 1, r == inst.rows - 1, c == 0)


def fits_frame(inst: Instance, r: int, c: int, colours: Sequence[int]) -> bool:
    """Frame rule for one cell: grey exactly on the boundary sides."""
    return all((col == 0) == out for col, out in zip(colours, boundary_sides(inst, r, c)))


def allowed_turns(inst: Instance, r: int, c: int, t: int) -> list[int]:
    """Distinct turns of tile t that cell (r, c) may hold (frame rule and hints applied)."""
    here = {(h.tile, h.turns) for h in inst.hints if (h.row, h.col) == (r, c)}
    if here:
        if len(here) > 1 or next(iter(here))[0] != t:
            return []  # contradictory hints: the model becomes infeasible, as it should
        cands = [next(iter(here))[1]]
    else:
        if any(h.tile == t for h in inst.hints):
            return []
        cands = distinct_turns(inst.tiles[t])
    if inst.frame:
        cands = [a for a in cands if fits_frame(inst, r, c, turned(inst.tiles[t], a))]
    return cands


# ---------------------------------------------------------------- reading


def _ints(words: Sequence[str], path: Path, line: int, what: str) -> list[int]:
    out = []
    for w in words:
        try:
            out.append(int(w))
        except ValueError:
            raise InputError(f"{what}: {w!r} is not an integer", path, line) from None
    return out


def _tile(words: Sequence[str], path: Path, line: int) -> Tile:
    if len(words) != 4:
        raise InputError(f"a tile line needs 4 colours (top right bottom left), found {len(words)} values", path, line)
    cols = _ints(words, path, line, "tile colour")
    for v in cols:
        if v < 0:
            raise InputError(f"negative colour {v} (colours are 0, 1, 2, ...; 0 is the frame)", path, line)
    return tuple(cols)  # type: ignore[return-value]


def _content_lines(path: Path) -> list[tuple[int, list[str]]]:
    try:
        text = path.read_text()
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path) from None
    except UnicodeDecodeError:
        raise InputError("not a text file", path) from None
    out = []
    for no, raw in enumerate(text.splitlines(), start=1):
        words = raw.split("#", 1)[0].split()
        if words:
            out.append((no, words))
    return out


def _check_hints(rows: int, cols: int, ntiles: int, hints: list[tuple[int, list[int]]], path: Path) -> tuple[Hint, ...]:
    out = []
    for line, (r, c, t, a) in hints:
        if not (0 <= r < rows and 0 <= c < cols):
            raise InputError(f"hint cell ({r}, {c}) is off the {rows}x{cols} board", path, line)
        if not 0 <= t < ntiles:
            raise InputError(f"hint names tile {t}, but tiles are numbered 0..{ntiles - 1}", path, line)
        if not 0 <= a <= 3:
            raise InputError(f"hint turns {a} must be 0, 1, 2 or 3", path, line)
        out.append(Hint(r, c, t, a))
    return tuple(out)


def read(path: str | Path) -> Instance:
    """Read a native or Heule-format file (auto-detected from the first line)."""
    path = Path(path)
    lines = _content_lines(path)
    if not lines:
        raise InputError("empty file: expected 'R C' (native) or 'H' (Heule format) first", path, 1)
    first_no, first = lines[0]
    if len(first) == 2:
        return _read_native(path, lines)
    if len(first) == 1:
        return _read_heule(path, lines)
    raise InputError(
        f"first line must be 'R C' (native format) or 'H' (Heule format), found {len(first)} values", path, first_no
    )


def _read_native(path: Path, lines: list[tuple[int, list[str]]]) -> Instance:
    no, head = lines[0]
    rows, cols = _ints(head, path, no, "board size")
    if rows < 1 or cols < 1:
        raise InputError(f"board size {rows}x{cols} must be at least 1x1", path, no)
    tiles: list[Tile] = []
    hints: list[tuple[int, list[int]]] = []
    for no, words in lines[1:]:
        if words[0].lower() == "hint":
            if len(words) != 5:
                raise InputError("a hint line reads 'hint row col tile turns'", path, no)
            hints.append((no, _ints(words[1:], path, no, "hint")))
            continue
        if hints:
            raise InputError("tile line after a hint line (tiles come first, then hints)", path, no)
        if len(tiles) == rows * cols:
            raise InputError(f"wrong tile count: a {rows}x{cols} board takes {rows * cols} tiles, this is one more", path, no)
        tiles.append(_tile(words, path, no))
    if len(tiles) != rows * cols:
        last = lines[-1][0]
        raise InputError(f"wrong tile count: a {rows}x{cols} board takes {rows * cols} tiles, found {len(tiles)}", path, last)
    return Instance(rows, cols, tuple(tiles), _check_hints(rows, cols, len(tiles), hints, path), path.stem)


def _read_heule(path: Path, lines: list[tuple[int, list[str]]]) -> Instance:
    no, head = lines[0]
    (nh,) = _ints(head, path, no, "number of hints")
    if nh < 0:
        raise InputError(f"number of hints {nh} is negative", path, no)
    if len(lines) < 1 + nh:
        raise InputError(f"the header announces {nh} hint lines, found {len(lines) - 1} lines", path, lines[-1][0])
    hints = []
    for no, words in lines[1 : 1 + nh]:
        if len(words) != 4:
            raise InputError("a hint line reads 'row col piece rot'", path, no)
        hints.append((no, _ints(words, path, no, "hint")))
    tiles = [_tile(words, path, no) for no, words in lines[1 + nh :]]
    if not tiles:
        raise InputError("no pieces after the hint lines", path, lines[-1][0])
    side = math.isqrt(len(tiles))
    if side * side != len(tiles):
        raise InputError(
            f"{len(tiles)} pieces do not fill a square board (the side would be {math.sqrt(len(tiles)):.3f})",
            path,
            lines[-1][0],
        )
    return Instance(side, side, tuple(tiles), _check_hints(side, side, len(tiles), hints, path), path.stem)


# ---------------------------------------------------------------- writing and JSON


def format_native(inst: Instance) -> str:
    kind = "frame puzzle" if inst.frame else "no frame"
    lines = [f"# edge matching {inst.rows}x{inst.cols}, {kind}; tiles: top right bottom left"]
    lines += [f"# name: {inst.name}"] if inst.name else []
    lines += [f"{inst.rows} {inst.cols}"]
    lines += [" ".join(map(str, t)) for t in inst.tiles]
    lines += [f"hint {h.row} {h.col} {h.tile} {h.turns}" for h in inst.hints]
    return "\n".join(lines) + "\n"


def write(inst: Instance, path: str | Path) -> None:
    Path(path).write_text(format_native(inst))


def to_json(inst: Instance) -> dict[str, Any]:
    return {
        "rows": inst.rows,
        "cols": inst.cols,
        "tiles": [list(t) for t in inst.tiles],
        "hints": [[h.row, h.col, h.tile, h.turns] for h in inst.hints],
        "name": inst.name,
    }


def from_json(data: Any) -> Instance:
    try:
        rows, cols = int(data["rows"]), int(data["cols"])
        tiles = tuple(tuple(int(v) for v in t) for t in data["tiles"])
        hints = tuple(Hint(*(int(v) for v in h)) for h in data.get("hints", []))
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"malformed edge-matching instance in JSON: {exc}") from None
    if rows < 1 or cols < 1 or len(tiles) != rows * cols or any(len(t) != 4 or min(t) < 0 for t in tiles):
        raise InputError("malformed edge-matching instance in JSON: board size, tile count or colours")
    for h in hints:
        if not (0 <= h.row < rows and 0 <= h.col < cols and 0 <= h.tile < len(tiles) and 0 <= h.turns <= 3):
            raise InputError(f"malformed edge-matching instance in JSON: bad hint {h}")
    return Instance(rows, cols, tiles, hints, str(data.get("name", "")))  # type: ignore[arg-type]


def solution_to_json(sol: Iterable[Sequence[int]]) -> list[list[int]]:
    return [[int(t), int(a)] for t, a in sol]


def solution_from_json(inst: Instance, data: Any) -> Placement:
    """Shape only; the simulator judges the rules (so a tampered certificate is rejected with a reason)."""
    try:
        return tuple((int(t), int(a)) for t, a in data)
    except (TypeError, ValueError) as exc:
        raise InputError(f"an edge-matching solution is a list of [tile, turns] per cell: {exc}") from None
