"""JSON of merge-game instances and solutions; every malformed input is an InputError.

Instance JSON (also the ``.json`` map file format)::

    {"name": "...", "width": 4, "height": 3,          or "size": 4 / [4, 3]
     "attack": "up3",                                   preset, "dx,dy;..." or [[dx, dy], ...]
     "type_attack": {"2": "vertical"},                  optional: one attack vector per hero type
     "target": 3, "destroy_all": false, "max_level": 3, "optimum": 5, "meta": {...},
     "heroes": [[x, y, type], ...] or [{"x":, "y":, "type":}, ...],
     "stones": [[x, y, hp], ...]   or [{"x":, "y":, "hp":}, ...]}

Solution JSON: ``[[a, b], ...]`` or ``{"merges": [[a, b], ...]}``: hero ``a``
merges into hero ``b``, in order.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mipgames.core.errors import InputError
from mipgames.core.files import excerpt, loads_json, refuse_unknown_keys
from mipgames.merge_game.instance import (
    MAX_OFFSETS,
    MAX_SIDE,
    MAX_VALUE,
    Hero,
    Instance,
    Stone,
    check,
)

Merge = tuple[int, int]
Solution = tuple[Merge, ...]

_KEYS = {
    "name",
    "width",
    "height",
    "size",
    "heroes",
    "stones",
    "attack",
    "type_attack",
    "target",
    "destroy_all",
    "max_level",
    "optimum",
    "meta",
}
MAX_MERGES = 10_000_000


def _int(value: Any, what: str, path: Any, line: int | None, lo: int = -MAX_VALUE, hi: int = MAX_VALUE) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{what} must be an integer, got {excerpt(_shown(value))}", path, line)
    if not lo <= value <= hi:
        raise InputError(f"{what} must be between {lo} and {hi}, got {excerpt(str(value))}", path, line)
    return value


def _shown(value: Any) -> str:
    try:
        return json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        return type(value).__name__


def _key_line(text: str, key: str) -> int | None:
    m = re.search(r'"' + re.escape(key) + r'"\s*:', text)
    return text.count("\n", 0, m.start()) + 1 if m else None


def _element_lines(text: str, key: str) -> list[int]:
    """Line of each element of the array under ``key`` (a light scan; the JSON already parsed fine)."""
    m = re.search(r'"' + re.escape(key) + r'"\s*:\s*\[', text)
    if not m:
        return []
    lines: list[int] = []
    depth, in_str, escape, expect = 0, False, False, True
    line, last = text.count("\n", 0, m.end()) + 1, m.end()
    for pos in range(m.end(), len(text)):
        ch = text[pos]
        if in_str:
            escape = (not escape) and ch == "\\"
            in_str = escape or ch != '"'
            continue
        if ch.isspace():
            continue
        if depth == 0 and expect:
            if ch == "]":
                break
            line += text.count("\n", last, pos)
            last = pos
            lines.append(line)
            expect = False
        if ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            if depth == 0:
                break
            depth -= 1
        elif ch == "," and depth == 0:
            expect = True
    return lines


class _Lines:
    """Lines of an array's elements, scanned only when an error needs one."""

    def __init__(self, text: str, key: str):
        self.text, self.key = text, key
        self.lines: list[int] | None = None

    def __call__(self, index: int) -> int | None:
        if self.lines is None:
            self.lines = _element_lines(self.text, self.key)
        if index < len(self.lines):
            return self.lines[index]
        return _key_line(self.text, self.key)


def _items(raw: Any, key: str, fields: tuple[str, str, str], path: Any, line_at: _Lines) -> list[tuple[int, ...]]:
    if not isinstance(raw, list):
        raise InputError(f'"{key}" must be a list', path, _key_line(line_at.text, key))
    out = []
    for i, item in enumerate(raw):
        if (
            isinstance(item, list)
            and len(item) == 3
            and all(type(v) is int and -MAX_VALUE <= v <= MAX_VALUE for v in item)
        ):
            out.append(tuple(item))
            continue
        line = line_at(i)
        if isinstance(item, Mapping):
            missing = [f for f in fields if f not in item]
            if missing:
                raise InputError(f"{key}[{i}] lacks {', '.join(missing)} (needs {', '.join(fields)})", path, line)
            extra = sorted(map(str, set(item) - set(fields)))
            if extra:
                raise InputError(f"{key}[{i}] has unknown field(s) {excerpt(', '.join(extra))}", path, line)
            vals = [item[f] for f in fields]
        elif isinstance(item, list) and len(item) == 3:
            vals = item
        else:
            raise InputError(
                f"{key}[{i}] must be {{{', '.join(map(repr, fields))}}} or [{', '.join(fields)}]", path, line
            )
        # a type or hp is at least 1 (a coordinate off the map is refused by instance.check, naming the map)
        lows = (-MAX_VALUE, -MAX_VALUE, 1)
        out.append(tuple(_int(v, f"{key}[{i}].{f}", path, line, lo) for v, f, lo in zip(vals, fields, lows)))
    return out


def _attack(raw: Any, what: str, path: Any, line: int | None) -> str | None:
    """An attack spec as text: a string, or a list of [dx, dy] pairs."""
    if raw is None or isinstance(raw, str):
        return raw
    bad = InputError(f"{what} must be a preset name or a list of [dx, dy] pairs", path, line)
    if not isinstance(raw, list) or not raw or len(raw) > MAX_OFFSETS:
        raise bad
    pairs = []
    for pair in raw:
        if not isinstance(pair, list) or len(pair) != 2:
            raise bad
        pairs.append(
            f"{_int(pair[0], 'dx', path, line, -MAX_SIDE, MAX_SIDE)},"
            f"{_int(pair[1], 'dy', path, line, -MAX_SIDE, MAX_SIDE)}"
        )
    return ";".join(pairs)


def instance_from_json(data: Any, path: str | Path | None = None, text: str = "") -> Instance:
    """Builds an instance from parsed JSON; ``text`` (the raw file) only serves line numbers."""
    element_lines = {"hero": _Lines(text, "heroes"), "stone": _Lines(text, "stones")}

    def line_of(kind: str, index: int) -> int | None:
        key = {"size": "width"}.get(kind, kind)
        if kind in element_lines:
            return element_lines[kind](index)
        if kind.startswith("attack "):
            return _key_line(text, "type_attack")
        return _key_line(text, key) or (_key_line(text, "size") if kind == "size" else None)

    if not isinstance(data, Mapping):
        raise InputError("a merge-game JSON instance is an object with width, height, heroes and stones", path, 1)
    unknown = sorted(map(str, set(data) - _KEYS))
    if unknown:
        raise InputError(
            f"unknown key(s) {excerpt(', '.join(map(repr, unknown)))}; allowed: {', '.join(sorted(_KEYS))}",
            path,
            _key_line(text, unknown[0]),
        )
    if "size" in data:
        both = [key for key in ("width", "height") if key in data]
        if both:  # which one holds was the reader's choice, and "size" won in silence
            raise InputError(
                " and ".join(f'"{key}"' for key in ["size", *both])
                + ' both given: give "size", or "width" and "height"',
                path,
                _key_line(text, both[0]),
            )
        size = data["size"]
        if isinstance(size, list) and len(size) == 2:
            width = _int(size[0], "size[0] (width)", path, line_of("size", 0), 1, MAX_SIDE)
            height = _int(size[1], "size[1] (height)", path, line_of("size", 0), 1, MAX_SIDE)
        else:
            width = height = _int(size, "size", path, line_of("size", 0), 1, MAX_SIDE)
    else:
        for key in ("width", "height"):
            if key not in data:
                raise InputError(f'missing "{key}" (or "size")', path, None)
        width = _int(data["width"], "width", path, _key_line(text, "width"), 1, MAX_SIDE)
        height = _int(data["height"], "height", path, _key_line(text, "height"), 1, MAX_SIDE)
    for key in ("heroes", "stones"):
        if key not in data:
            raise InputError(f'missing "{key}" list', path, None)
    heroes = [Hero(*t) for t in _items(data["heroes"], "heroes", ("x", "y", "type"), path, element_lines["hero"])]
    stones = [Stone(*t) for t in _items(data["stones"], "stones", ("x", "y", "hp"), path, element_lines["stone"])]
    attack = _attack(data.get("attack"), '"attack"', path, _key_line(text, "attack"))
    raw_types = data.get("type_attack", {})
    if not isinstance(raw_types, Mapping):
        raise InputError('"type_attack" must be an object {"type": attack, ...}', path, _key_line(text, "type_attack"))
    type_attack: dict[int, str] = {}
    for key, spec in raw_types.items():
        line = _key_line(text, "type_attack")
        if not (isinstance(key, str) and key.isascii() and key.isdigit() and len(key) <= 10):
            raise InputError(
                f'"type_attack" keys are hero types (positive integers), got {excerpt(str(key))}', path, line
            )
        if int(key) in type_attack:  # "1" and "01": one type given twice, the order of the keys decided
            raise InputError(f'"type_attack" gives type {int(key)} twice ({excerpt(str(key))})', path, line)
        value = _attack(spec, f'"type_attack" of type {key}', path, line)
        if value is None:
            raise InputError(
                f'"type_attack" of type {key} must be a preset name or a list of [dx, dy] pairs', path, line
            )
        type_attack[int(key)] = value
    opt = {
        k: (None if data.get(k) is None else _int(data[k], k, path, _key_line(text, k)))
        for k in ("target", "max_level", "optimum")
    }
    destroy_all = data.get("destroy_all", False)
    if not isinstance(destroy_all, bool):
        raise InputError('"destroy_all" must be true or false', path, _key_line(text, "destroy_all"))
    meta = data.get("meta", {})
    if not isinstance(meta, Mapping):
        raise InputError('"meta" must be an object', path, _key_line(text, "meta"))
    name = data.get("name", "")
    if not isinstance(name, str):
        raise InputError('"name" must be a string', path, _key_line(text, "name"))
    inst = Instance(
        width,
        height,
        tuple(heroes),
        tuple(stones),
        attack,
        opt["target"],
        destroy_all,
        opt["max_level"],
        opt["optimum"],
        name[:200],
        dict(meta),
        type_attack,
    )
    return check(inst, path, line_of)


def instance_from_text(text: str, path: str | Path | None = None) -> Instance:
    return instance_from_json(loads_json(text, str(path or "<json>"), "merge-game JSON"), path, text)


def instance_to_json(instance: Instance) -> dict[str, Any]:
    out: dict[str, Any] = {"name": instance.name, "width": instance.width, "height": instance.height}
    for key in ("attack", "target", "max_level", "optimum"):
        if getattr(instance, key) is not None:
            out[key] = getattr(instance, key)
    if instance.type_attack:
        out["type_attack"] = {str(t): spec for t, spec in sorted(instance.type_attack.items())}
    if instance.destroy_all:
        out["destroy_all"] = True
    if instance.meta:
        out["meta"] = dict(instance.meta)
    out["heroes"] = [[h.x, h.y, h.type] for h in instance.heroes]
    out["stones"] = [[s.x, s.y, s.hp] for s in instance.stones]
    return out


def instance_to_text(instance: Instance) -> str:
    """One hero/stone per line so that error messages can name a useful line."""
    data = instance_to_json(instance)
    head = {k: v for k, v in data.items() if k not in ("heroes", "stones")}
    parts = [f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in head.items()]
    for key in ("heroes", "stones"):
        rows = ",\n".join(f"    {json.dumps(r)}" for r in data[key])
        parts.append(f'  "{key}": [\n{rows}\n  ]' if rows else f'  "{key}": []')
    return "{\n" + ",\n".join(parts) + "\n}\n"


def solution_to_json(solution: Solution) -> list[list[int]]:
    return [[a, b] for a, b in solution]


def solution_from_json(instance: Instance, data: Any) -> Solution:
    """Accepts ``[[a, b], ...]`` or ``{"merges": [[a, b], ...]}``; hero ids are checked by the simulator."""
    if isinstance(data, Mapping):
        if "merges" not in data:
            raise InputError('a merge-game solution is [[a, b], ...] or {"merges": [[a, b], ...]}')
        refuse_unknown_keys(data, ("merges",), "a merge-game solution")
        data = data["merges"]
    if not isinstance(data, list):
        raise InputError("a merge-game solution is [[a, b], ...] (hero a merges into hero b)")
    if len(data) > MAX_MERGES:
        raise InputError(f"a merge-game solution has at most {MAX_MERGES} merges, got {len(data)}")
    out = []
    for t, pair in enumerate(data, start=1):
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in pair)
        ):
            raise InputError(f"merge {t} must be a pair of hero ids [a, b], got {excerpt(_shown(pair))}")
        out.append(
            (
                _int(pair[0], f"merge {t} hero", None, None, -MAX_VALUE, MAX_VALUE),
                _int(pair[1], f"merge {t} hero", None, None, -MAX_VALUE, MAX_VALUE),
            )
        )
    return tuple(out)
