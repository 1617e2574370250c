"""JSON of instances and placements (certificates embed both).

Certificates are files a user may edit or forge, so every value is checked
for its JSON type and range here: anything malformed is an ``InputError``,
never a TypeError, KeyError or ValueError from deeper down.  Whether a
placement obeys the rules is the simulator's judgement, not the codec's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from mipgames.core.errors import InputError
from mipgames.core.files import refuse_unknown_keys
from mipgames.edge_matching.instance import (
    MAX_CELLS,
    MAX_COLOUR,
    MAX_SIDE,
    Hint,
    Instance,
    Placement,
)

WHAT = "edge-matching instance in JSON"


def instance_to_json(inst: Instance) -> dict[str, Any]:
    return {
        "rows": inst.rows,
        "cols": inst.cols,
        "tiles": [list(t) for t in inst.tiles],
        "hints": [[h.row, h.col, h.tile, h.turns] for h in inst.hints],
        "name": inst.name,
    }


def _int(value: Any, what: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{WHAT}: {what} must be an integer, got {type(value).__name__}")
    if not lo <= value <= hi:
        raise InputError(f"{WHAT}: {what} must be between {lo} and {hi}, got {value}")
    return value


def _list(value: Any, what: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise InputError(f"{WHAT}: {what} must be a list, got {type(value).__name__}")
    if length is not None and len(value) != length:
        raise InputError(f"{WHAT}: {what} must have {length} entries, has {len(value)}")
    return value


def instance_from_json(data: Any) -> Instance:
    if not isinstance(data, dict):
        raise InputError(f"{WHAT}: expected an object with rows, cols and tiles")
    for key in ("rows", "cols", "tiles"):
        if key not in data:
            raise InputError(f"{WHAT}: {key!r} is missing")
    refuse_unknown_keys(data, ("rows", "cols", "tiles", "hints", "name"), WHAT)
    rows = _int(data["rows"], "rows", 1, MAX_SIDE)
    cols = _int(data["cols"], "cols", 1, MAX_SIDE)
    if rows * cols > MAX_CELLS:
        raise InputError(f"{WHAT}: a {rows}x{cols} board is larger than {MAX_CELLS:,} cells")
    n = rows * cols
    tiles = tuple(
        tuple(_int(c, f"a colour of tile {i}", 0, MAX_COLOUR) for c in _list(t, f"tile {i}", 4))
        for i, t in enumerate(_list(data["tiles"], "tiles", n))
    )
    hints = []
    for k, h in enumerate(_list(data.get("hints", []), "hints")):
        r, c, t, a = _list(h, f"hint {k}", 4)
        hints.append(
            Hint(
                _int(r, f"hint {k}'s row", 0, rows - 1),
                _int(c, f"hint {k}'s column", 0, cols - 1),
                _int(t, f"hint {k}'s tile", 0, n - 1),
                _int(a, f"hint {k}'s turns", 0, 3),
            )
        )
    name = data.get("name", "")
    if not isinstance(name, str):
        raise InputError(f"{WHAT}: name must be a string")
    return Instance(rows, cols, tiles, tuple(hints), name[:200])  # type: ignore[arg-type]  # _list checked 4 colours a tile


def solution_to_json(placement: Iterable[Sequence[int]]) -> list[list[int]]:
    return [[int(t), int(a)] for t, a in placement]


def solution_from_json(inst: Instance, data: Any) -> Placement:
    """Shape and types only; the simulator judges the rules (so a tampered certificate is rejected with a reason)."""
    what = "an edge-matching solution (a list of [tile, turns] per cell)"
    if not isinstance(data, list) or len(data) > MAX_CELLS:
        raise InputError(f"{what}: expected a list")
    out = []
    for i, cell in enumerate(data):
        if not isinstance(cell, list) or len(cell) != 2:
            raise InputError(f"{what}: cell {i} is not a [tile, turns] pair")
        t, a = cell
        if isinstance(t, bool) or isinstance(a, bool) or not isinstance(t, int) or not isinstance(a, int):
            raise InputError(f"{what}: cell {i} holds a non-integer")
        if not (-MAX_CELLS <= t <= MAX_CELLS and -4 <= a <= 4):
            raise InputError(f"{what}: cell {i} holds [{t}, {a}], out of any range")
        out.append((t, a))
    return tuple(out)
