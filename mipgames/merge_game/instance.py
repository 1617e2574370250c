"""Merge-game instances: dataclasses plus the JSON and ASCII-map formats.

Coordinates follow the thesis: ``(x, y)`` with ``(1, 1)`` the bottom-left
cell, ``x`` the column (1..width) and ``y`` the row (1..height), ``y``
growing upwards.  Hero ids are positions in ``Instance.heroes``; an ASCII map
numbers heroes in reading order (top row first, left to right).

ASCII map (any extension but ``.json``)::

    # comment
    attack: up3          optional header lines "key: value" before the map
    max_level: 3         (attack, target, destroy_all, max_level, optimum, name)
    ..a.                 '.' empty, 'a'-'z' hero of type 1-26, '1'-'9' stone hp
    .2b.
    a..1

The file's attack/target/destroy_all/max_level are defaults: command-line
params override them (see :func:`rules`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from mipgames.core.errors import InputError

Offset = tuple[int, int]

PRESETS: dict[str, tuple[Offset, ...]] = {
    "cross": ((-1, 0), (1, 0), (0, -1), (0, 1)),
    "up": ((0, 1),),
    "vertical": ((0, 1), (0, -1)),
    "up3": ((-1, 1), (0, 1), (1, 1)),
    "right3": ((1, -1), (1, 0), (1, 1)),
}
DEFAULT_ATTACK = "cross"


@dataclass(frozen=True)
class Hero:
    x: int
    y: int
    type: int


@dataclass(frozen=True)
class Stone:
    x: int
    y: int
    hp: int


@dataclass(frozen=True)
class Instance:
    width: int
    height: int
    heroes: tuple[Hero, ...]
    stones: tuple[Stone, ...]
    attack: str | None = None
    """Attack spec as written in the file (preset name or "dx,dy;..."); None means the default."""
    target: int | None = None
    destroy_all: bool = False
    max_level: int | None = None
    optimum: int | None = None
    """Known optimum (stones destroyed) when the author knows it; informational."""
    name: str = ""
    meta: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Rules:
    """The rules a solve runs under: file defaults overridden by params."""

    attack: tuple[Offset, ...]
    target: int | None
    """Stones that must be destroyed (DESTROY-ALL sets it to the stone count); None: optimise."""
    max_level: int | None


def parse_attack(text: str) -> tuple[Offset, ...]:
    """A preset name or offsets "dx,dy;dx,dy..." (duplicates removed, order kept)."""
    spec = text.strip()
    if spec in PRESETS:
        return PRESETS[spec]
    offsets: list[Offset] = []
    for part in spec.split(";"):
        bits = part.split(",")
        if len(bits) != 2:
            raise ValueError(
                f"bad attack vector {text!r}: use one of {', '.join(PRESETS)} or offsets like '0,1;1,1'"
            )
        try:
            off = (int(bits[0]), int(bits[1]))
        except ValueError:
            raise ValueError(f"bad attack offset {part.strip()!r} in {text!r}: offsets are integers") from None
        if off not in offsets:
            offsets.append(off)
    return tuple(offsets)


def attack_text(offsets: tuple[Offset, ...]) -> str:
    """Canonical text of an attack vector: the preset name when it is one."""
    for name, preset in PRESETS.items():
        if set(preset) == set(offsets):
            return name
    return ";".join(f"{dx},{dy}" for dx, dy in offsets)


def normalise_attack(text: str) -> str:
    """Param parser for --attack: validates and canonicalises (params are stored as text)."""
    return attack_text(parse_attack(text))


def rules(instance: Instance, params: Mapping[str, Any] | None) -> Rules:
    """Effective rules: a param that is set overrides the file, the file overrides the defaults."""
    params = params or {}
    attack = params.get("attack") or instance.attack or DEFAULT_ATTACK
    max_level = params.get("max_level")
    if max_level is None:
        max_level = instance.max_level
    target = params.get("target")
    if target is None:
        target = instance.target
    if params.get("destroy_all") or instance.destroy_all:
        target = max(target or 0, len(instance.stones))
    return Rules(attack=parse_attack(attack), target=target, max_level=max_level)


# ---------------------------------------------------------------- validation


def _check(instance: Instance, path: str | Path | None, line_of: Any) -> Instance:
    """Map-level checks shared by both formats; ``line_of(kind, index)`` names the line."""
    if instance.width < 1 or instance.height < 1:
        raise InputError(f"map size must be at least 1x1, got {instance.width}x{instance.height}", path, line_of("size", 0))
    occupied: dict[tuple[int, int], str] = {}
    for kind, items in (("hero", instance.heroes), ("stone", instance.stones)):
        for i, item in enumerate(items):
            where = f"{kind} {i} at ({item.x}, {item.y})"
            if not (1 <= item.x <= instance.width and 1 <= item.y <= instance.height):
                raise InputError(
                    f"{where} is off the {instance.width}x{instance.height} map (x in 1..{instance.width}, y in 1..{instance.height})",
                    path, line_of(kind, i))
            if kind == "hero" and item.type < 1:
                raise InputError(f"{where} has type {item.type}; types are positive integers", path, line_of(kind, i))
            if kind == "stone" and item.hp < 1:
                raise InputError(f"{where} has hp {item.hp}; hp must be at least 1", path, line_of(kind, i))
            if (item.x, item.y) in occupied:
                raise InputError(f"{where} overlaps {occupied[(item.x, item.y)]}", path, line_of(kind, i))
            occupied[(item.x, item.y)] = where
    if instance.attack is not None:
        try:
            parse_attack(instance.attack)
        except ValueError as exc:
            raise InputError(str(exc), path, line_of("attack", 0)) from None
    if instance.max_level is not None and instance.max_level < 1:
        raise InputError(f"max_level must be at least 1, got {instance.max_level}", path, line_of("max_level", 0))
    if instance.target is not None and instance.target < 0:
        raise InputError(f"target must be at least 0, got {instance.target}", path, line_of("target", 0))
    return instance


# ---------------------------------------------------------------- JSON


def _int(value: Any, what: str, path: Any, line: int | None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{what} must be an integer, got {json.dumps(value)}", path, line)
    return value


def _key_line(text: str, key: str) -> int | None:
    m = re.search(r'"' + re.escape(key) + r'"\s*:', text)
    return text.count("\n", 0, m.start()) + 1 if m else None


def _element_lines(text: str, key: str) -> list[int]:
    """Line of each element of the array under ``key`` (a light scan; JSON already parsed fine)."""
    m = re.search(r'"' + re.escape(key) + r'"\s*:\s*\[', text)
    if not m:
        return []
    lines, depth, in_str, escape, expect = [], 0, False, False, True
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
            lines.append(text.count("\n", 0, pos) + 1)
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


def _items(raw: Any, key: str, fields: tuple[str, str, str], path: Any, lines: list[int]) -> list[tuple[int, int, int]]:
    if not isinstance(raw, list):
        raise InputError(f'"{key}" must be a list', path, None)
    out = []
    for i, item in enumerate(raw):
        line = lines[i] if i < len(lines) else None
        if isinstance(item, Mapping):
            missing = [f for f in fields if f not in item]
            if missing:
                raise InputError(f"{key}[{i}] lacks {', '.join(missing)} (needs {', '.join(fields)})", path, line)
            extra = sorted(set(item) - set(fields))
            if extra:
                raise InputError(f"{key}[{i}] has unknown field(s) {', '.join(extra)}", path, line)
            vals = [item[f] for f in fields]
        elif isinstance(item, list) and len(item) == 3:
            vals = item
        else:
            raise InputError(f"{key}[{i}] must be {{{', '.join(map(repr, fields))}}} or [{', '.join(fields)}]", path, line)
        out.append(tuple(_int(v, f"{key}[{i}].{f}", path, line) for v, f in zip(vals, fields)))
    return out


_JSON_KEYS = {"name", "width", "height", "size", "heroes", "stones", "attack", "target", "destroy_all",
              "max_level", "optimum", "meta"}


def from_json(data: Any, path: str | Path | None = None, text: str = "") -> Instance:
    """Builds an instance from parsed JSON; ``text`` (the raw file) only serves line numbers."""
    def line_of(kind: str, index: int) -> int | None:
        key = {"hero": "heroes", "stone": "stones", "size": "width"}.get(kind, kind)
        if kind in ("hero", "stone"):
            lines = _element_lines(text, key)
            return lines[index] if index < len(lines) else _key_line(text, key)
        return _key_line(text, key) or (_key_line(text, "size") if kind == "size" else None)

    if not isinstance(data, Mapping):
        raise InputError("a merge-game JSON instance is an object with width, height, heroes and stones", path, 1)
    unknown = sorted(set(data) - _JSON_KEYS)
    if unknown:
        raise InputError(f"unknown key(s) {', '.join(map(repr, unknown))}; allowed: {', '.join(sorted(_JSON_KEYS))}",
                         path, _key_line(text, unknown[0]))
    if "size" in data:
        size = data["size"]
        if isinstance(size, list) and len(size) == 2:
            width = _int(size[0], "size[0] (width)", path, line_of("size", 0))
            height = _int(size[1], "size[1] (height)", path, line_of("size", 0))
        else:
            width = height = _int(size, "size", path, line_of("size", 0))
    else:
        for key in ("width", "height"):
            if key not in data:
                raise InputError(f'missing "{key}" (or "size")', path, None)
        width = _int(data["width"], "width", path, _key_line(text, "width"))
        height = _int(data["height"], "height", path, _key_line(text, "height"))
    for key in ("heroes", "stones"):
        if key not in data:
            raise InputError(f'missing "{key}" list', path, None)
    heroes = [Hero(*t) for t in _items(data["heroes"], "heroes", ("x", "y", "type"), path, _element_lines(text, "heroes"))]
    stones = [Stone(*t) for t in _items(data["stones"], "stones", ("x", "y", "hp"), path, _element_lines(text, "stones"))]
    attack = data.get("attack")
    if isinstance(attack, list):
        try:
            attack = ";".join(f"{_int(o[0], 'dx', path, None)},{_int(o[1], 'dy', path, None)}" for o in attack)
        except (TypeError, IndexError, KeyError, InputError):
            raise InputError('"attack" must be a preset name or a list of [dx, dy] pairs', path, _key_line(text, "attack")) from None
    elif attack is not None and not isinstance(attack, str):
        raise InputError('"attack" must be a preset name or a list of [dx, dy] pairs', path, _key_line(text, "attack"))
    opt = {k: (None if data.get(k) is None else _int(data[k], k, path, _key_line(text, k)))
           for k in ("target", "max_level", "optimum")}
    destroy_all = data.get("destroy_all", False)
    if not isinstance(destroy_all, bool):
        raise InputError('"destroy_all" must be true or false', path, _key_line(text, "destroy_all"))
    meta = data.get("meta", {})
    if not isinstance(meta, Mapping):
        raise InputError('"meta" must be an object', path, _key_line(text, "meta"))
    inst = Instance(width, height, tuple(heroes), tuple(stones), attack, opt["target"], destroy_all,
                    opt["max_level"], opt["optimum"], str(data.get("name", "")), dict(meta))
    return _check(inst, path, line_of)


def to_json(instance: Instance) -> dict[str, Any]:
    out: dict[str, Any] = {"name": instance.name, "width": instance.width, "height": instance.height}
    for key in ("attack", "target", "max_level", "optimum"):
        if getattr(instance, key) is not None:
            out[key] = getattr(instance, key)
    if instance.destroy_all:
        out["destroy_all"] = True
    if instance.meta:
        out["meta"] = dict(instance.meta)
    out["heroes"] = [[h.x, h.y, h.type] for h in instance.heroes]
    out["stones"] = [[s.x, s.y, s.hp] for s in instance.stones]
    return out


def _dump_json(instance: Instance) -> str:
    """One hero/stone per line so that error messages can name a useful line."""
    data = to_json(instance)
    head = {k: v for k, v in data.items() if k not in ("heroes", "stones")}
    parts = [f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in head.items()]
    for key in ("heroes", "stones"):
        rows = ",\n".join(f"    {json.dumps(r)}" for r in data[key])
        parts.append(f'  "{key}": [\n{rows}\n  ]' if rows else f'  "{key}": []')
    return "{\n" + ",\n".join(parts) + "\n}\n"


# ---------------------------------------------------------------- ASCII map

_HEADER_KEYS = ("attack", "target", "destroy_all", "max_level", "optimum", "name")
_TRUE = {"true", "yes", "1", "on"}
_FALSE = {"false", "no", "0", "off"}


def from_ascii(text: str, path: str | Path | None = None) -> Instance:
    header: dict[str, tuple[str, int]] = {}
    rows: list[tuple[str, int]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if not line or line.lstrip().startswith("#"):
            continue
        if ":" in line:
            if rows:
                raise InputError(f"header line {line!r} after the map rows started; put 'key: value' lines first", path, number)
            key, _, value = line.partition(":")
            key = key.strip().lower().replace("-", "_")
            if key not in _HEADER_KEYS:
                raise InputError(f"unknown header key {key!r}; allowed: {', '.join(_HEADER_KEYS)}", path, number)
            header[key] = (value.strip(), number)
            continue
        rows.append((line, number))
    if not rows:
        raise InputError("no map rows found ('.' empty, 'a'-'z' heroes, '1'-'9' stones)", path, None)
    width = len(rows[0][0])
    heroes: list[Hero] = []
    stones: list[Stone] = []
    hero_lines: list[int] = []
    stone_lines: list[int] = []
    height = len(rows)
    for r, (line, number) in enumerate(rows):
        if len(line) != width:
            raise InputError(f"map row has {len(line)} cells, the first row has {width}", path, number)
        y = height - r
        for c, ch in enumerate(line):
            x = c + 1
            if ch == ".":
                continue
            if "a" <= ch <= "z":
                heroes.append(Hero(x, y, ord(ch) - ord("a") + 1))
                hero_lines.append(number)
            elif "1" <= ch <= "9":
                stones.append(Stone(x, y, int(ch)))
                stone_lines.append(number)
            elif ch == "0":
                raise InputError(f"stone at column {x} has hp 0; hp must be at least 1", path, number)
            else:
                raise InputError(f"unknown symbol {ch!r} at column {x} ('.' empty, 'a'-'z' heroes, '1'-'9' stones)", path, number)
    values: dict[str, Any] = {}
    for key, (value, number) in header.items():
        if key == "name":
            values[key] = value
        elif key == "attack":
            try:
                values[key] = normalise_attack(value)
            except ValueError as exc:
                raise InputError(str(exc), path, number) from None
        elif key == "destroy_all":
            if value.lower() not in _TRUE | _FALSE:
                raise InputError(f"destroy_all must be yes or no, got {value!r}", path, number)
            values[key] = value.lower() in _TRUE
        else:
            try:
                values[key] = int(value)
            except ValueError:
                raise InputError(f"{key} must be an integer, got {value!r}", path, number) from None

    def line_of(kind: str, index: int) -> int | None:
        if kind == "hero":
            return hero_lines[index]
        if kind == "stone":
            return stone_lines[index]
        return header.get(kind, (None, None))[1]

    inst = Instance(width, height, tuple(heroes), tuple(stones), values.get("attack"), values.get("target"),
                    values.get("destroy_all", False), values.get("max_level"), values.get("optimum"),
                    values.get("name", ""))
    return _check(inst, path, line_of)


def to_ascii(instance: Instance) -> str:
    if any(h.type > 26 for h in instance.heroes) or any(s.hp > 9 for s in instance.stones):
        raise InputError("the ASCII map holds types 1-26 and hp 1-9 only; write a .json file instead")
    grid = [["."] * instance.width for _ in range(instance.height)]
    for h in instance.heroes:
        grid[instance.height - h.y][h.x - 1] = chr(ord("a") + h.type - 1)
    for s in instance.stones:
        grid[instance.height - s.y][s.x - 1] = str(s.hp)
    head = []
    if instance.name:
        head.append(f"name: {instance.name}")
    for key in ("attack", "target", "max_level", "optimum"):
        if getattr(instance, key) is not None:
            head.append(f"{key}: {getattr(instance, key)}")
    if instance.destroy_all:
        head.append("destroy_all: yes")
    return "\n".join(head + ["".join(row) for row in grid]) + "\n"


def in_reading_order(instance: Instance) -> Instance:
    """The same instance with heroes renumbered as an ASCII map would number them."""
    heroes = sorted(instance.heroes, key=lambda h: (-h.y, h.x))
    stones = sorted(instance.stones, key=lambda s: (-s.y, s.x))
    return Instance(instance.width, instance.height, tuple(heroes), tuple(stones), instance.attack, instance.target,
                    instance.destroy_all, instance.max_level, instance.optimum, instance.name, instance.meta)


# ---------------------------------------------------------------- files


def read(path: str | Path) -> Instance:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("no such file", path) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read: {exc}", path) from None
    if p.suffix.lower() == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"invalid JSON: {exc.msg} (column {exc.colno})", path, exc.lineno) from None
        inst = from_json(data, path, text)
    else:
        inst = from_ascii(text, path)
    if not inst.name:
        inst = Instance(inst.width, inst.height, inst.heroes, inst.stones, inst.attack, inst.target, inst.destroy_all,
                        inst.max_level, inst.optimum, p.stem, inst.meta)
    return inst


def write(instance: Instance, path: str | Path) -> None:
    p = Path(path)
    if p.suffix.lower() == ".json":
        p.write_text(_dump_json(instance), encoding="utf-8")
    else:
        p.write_text(to_ascii(instance), encoding="utf-8")
