"""Merge-game instances: the dataclasses, the rules a solve runs under, and the instance files.

Coordinates follow the thesis: ``(x, y)`` with ``(1, 1)`` the bottom-left
cell, ``x`` the column (1..width) and ``y`` the row (1..height), ``y``
growing upwards.  Hero ids are positions in ``Instance.heroes``; an ASCII map
numbers heroes in reading order (top row first, left to right).

ASCII map (any extension but ``.json``; JSON is in codec.py)::

    # comment
    attack: up3          optional header lines "key: value" before the map
    attack b: vertical   (attack, attack <type>, target, destroy_all,
    max_level: 3          max_level, optimum, name)
    ..a.                 '.' empty, 'a'-'z' hero of type 1-26, '1'-'9' stone hp
    .2b.
    a..1

``attack <type>`` (type as its map letter or its number) gives that hero
type its own attack vector; ``attack`` is the vector of every other type.
The file's attack/target/destroy_all/max_level are defaults: command-line
params override them (see :func:`rules`; ``--attack`` sets every type).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from mipgames.core.arguments import switch_word
from mipgames.core.errors import InputError
from mipgames.core.files import (
    drop_stale_companion,
    excerpt,
    output_pair,
    parse_int,
    read_text,
    staged_output,
    text_lines,
    write_text_atomic,
)

Offset = tuple[int, int]

PRESETS: dict[str, tuple[Offset, ...]] = {
    "cross": ((-1, 0), (1, 0), (0, -1), (0, 1)),
    "up": ((0, 1),),
    "vertical": ((0, 1), (0, -1)),
    "up3": ((-1, 1), (0, 1), (1, 1)),
    "right3": ((1, -1), (1, 0), (1, 1)),
}
DEFAULT_ATTACK = "cross"

MAX_SIDE = 100_000
"""Largest map side read: far beyond what any model builds, small enough that no count overflows."""
MAX_VALUE = 1_000_000_000
"""Largest hp, type label, level cap or target read: exact in a double and in CP-SAT's int64 domains."""
MAX_OFFSETS = 64
"""Most offsets in one attack vector."""


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
    type_attack: Mapping[int, str] = field(default_factory=dict)
    """Hero type -> its own attack spec (the thesis's open question: one attack vector per type)."""


@dataclass(frozen=True)
class Rules:
    """The rules a solve runs under: file defaults overridden by params."""

    attack: tuple[Offset, ...]
    """Attack vector of every type without its own."""
    target: int | None
    """Stones that must be destroyed (DESTROY-ALL sets it to the stone count); None: optimise."""
    max_level: int | None
    by_type: Mapping[int, tuple[Offset, ...]] = field(default_factory=dict)

    def of(self, hero_type: int) -> tuple[Offset, ...]:
        """The attack vector of heroes of this type."""
        return self.by_type.get(hero_type, self.attack)

    def single(self, types: Any) -> tuple[Offset, ...] | None:
        """The one attack vector shared by all these types, or None when they differ."""
        vectors = {frozenset(self.of(t)) for t in types}
        if len(vectors) > 1:
            return None
        return next(iter({self.of(t) for t in types}), self.attack)

    def describe(self, types: Any) -> str:
        """ "cross", or "a: cross, b: up3" when types differ."""
        single = self.single(types)
        if single is not None:
            return attack_text(single)
        return ", ".join(f"{type_name(t)}: {attack_text(self.of(t))}" for t in sorted(set(types)))


def type_name(t: int) -> str:
    """A type's map letter (a-z), or "type N" beyond 26."""
    return chr(ord("a") + t - 1) if 1 <= t <= 26 else f"type {t}"


def parse_attack(text: str) -> tuple[Offset, ...]:
    """A preset name or offsets "dx,dy;dx,dy..." (duplicates removed, order kept); ValueError when malformed."""
    spec = text.strip()
    if spec in PRESETS:
        return PRESETS[spec]
    offsets: list[Offset] = []
    parts = spec.split(";")
    if len(parts) > MAX_OFFSETS:
        raise ValueError(f"an attack vector has at most {MAX_OFFSETS} offsets, got {len(parts)}")
    for part in parts:
        bits = part.split(",")
        if len(bits) != 2:
            raise ValueError(
                f"bad attack vector {excerpt(text)}: use one of {', '.join(PRESETS)} or offsets like '0,1;1,1'"
            )
        try:
            off = (
                parse_int(bits[0], None, None, "attack offset", -MAX_SIDE, MAX_SIDE),
                parse_int(bits[1], None, None, "attack offset", -MAX_SIDE, MAX_SIDE),
            )
        except InputError as exc:
            raise ValueError(f"bad attack offset {excerpt(part.strip())}: {exc.message}") from None
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
    """Effective rules: a param that is set overrides the file, the file overrides the defaults.

    ``--attack`` replaces every type's vector: the user asked for one.
    """
    params = params or {}
    by_type: dict[int, tuple[Offset, ...]] = {}
    if params.get("attack"):
        attack = params["attack"]
    else:
        attack = instance.attack or DEFAULT_ATTACK
        by_type = {t: parse_attack(spec) for t, spec in instance.type_attack.items()}
    max_level = params.get("max_level")
    if max_level is None:
        max_level = instance.max_level
    target = params.get("target")
    if target is None:
        target = instance.target
    if params.get("destroy_all") or instance.destroy_all:
        target = max(target or 0, len(instance.stones))
    return Rules(attack=parse_attack(attack), target=target, max_level=max_level, by_type=by_type)


def beyond_stones(instance: Instance, rule: Rules) -> str | None:
    """Why no play meets the target without search: it asks for more stones than the map holds (None when not).

    The searches that answer DESTROY-ALL read ``target >= stones`` as "destroy every stone" and would otherwise
    answer that question instead of saying no."""
    if rule.target is not None and rule.target > len(instance.stones):
        return f"the target {rule.target} exceeds the {len(instance.stones)} stones on the map"
    return None


# ---------------------------------------------------------------- validation

LineOf = Callable[[str, int], "int | None"]


def check(instance: Instance, path: str | Path | None, line_of: LineOf) -> Instance:
    """Map-level checks shared by both formats; ``line_of(kind, index)`` names the line."""
    if not (1 <= instance.width <= MAX_SIDE and 1 <= instance.height <= MAX_SIDE):
        raise InputError(
            f"map size must be between 1x1 and {MAX_SIDE}x{MAX_SIDE}, got {instance.width}x{instance.height}",
            path,
            line_of("size", 0),
        )
    occupied: dict[tuple[int, int], str] = {}
    groups: tuple[tuple[str, tuple[Hero | Stone, ...]], ...] = (("hero", instance.heroes), ("stone", instance.stones))
    for kind, items in groups:
        for i, item in enumerate(items):
            where = f"{kind} {i} at ({item.x}, {item.y})"
            if not (1 <= item.x <= instance.width and 1 <= item.y <= instance.height):
                raise InputError(
                    f"{where} is off the {instance.width}x{instance.height} map "
                    f"(x in 1..{instance.width}, y in 1..{instance.height})",
                    path,
                    line_of(kind, i),
                )
            value, name = (item.type, "type") if isinstance(item, Hero) else (item.hp, "hp")
            if not 1 <= value <= MAX_VALUE:
                raise InputError(
                    f"{where} has {name} {value}; {name} must be between 1 and {MAX_VALUE}", path, line_of(kind, i)
                )
            if (item.x, item.y) in occupied:
                raise InputError(f"{where} overlaps {occupied[(item.x, item.y)]}", path, line_of(kind, i))
            occupied[(item.x, item.y)] = where
    specs = [("attack", instance.attack)] + [(f"attack {t}", s) for t, s in instance.type_attack.items()]
    for key, spec in specs:
        if spec is not None:
            try:
                parse_attack(spec)
            except ValueError as exc:
                raise InputError(str(exc), path, line_of(key, 0)) from None
    for t in instance.type_attack:
        if not 1 <= t <= MAX_VALUE:
            raise InputError(
                f"attack for type {t}: types are between 1 and {MAX_VALUE}", path, line_of(f"attack {t}", 0)
            )
    for key, lo in (("max_level", 1), ("target", 0), ("optimum", 0)):
        value = getattr(instance, key)
        if value is not None and not lo <= value <= MAX_VALUE:
            raise InputError(f"{key} must be between {lo} and {MAX_VALUE}, got {value}", path, line_of(key, 0))
    return instance


# ---------------------------------------------------------------- ASCII map

_HEADER_KEYS = ("attack", "target", "destroy_all", "max_level", "optimum", "name")
_TYPE_ATTACK = re.compile(r"attack[ _]+([a-z]|[0-9]+)")
_SYMBOLS = "'.' empty, 'a'-'z' heroes, '1'-'9' stones"


def _header_type(key: str, path: str | Path | None, number: int) -> int | None:
    """The type of an ``attack <type>`` header key (a letter or a number), None for other keys."""
    m = _TYPE_ATTACK.fullmatch(key)
    if not m:
        return None
    label = m.group(1)
    if label.isdigit():
        return parse_int(label, path, number, "hero type", 1, MAX_VALUE)
    return ord(label) - ord("a") + 1


def from_ascii(text: str, path: str | Path | None = None) -> Instance:
    header: dict[str, tuple[str, int]] = {}
    type_lines: dict[int, tuple[str, int]] = {}
    rows: list[tuple[str, int]] = []
    for number, raw in enumerate(text_lines(text), start=1):
        line = raw.rstrip()
        if not line or line.lstrip().startswith("#"):
            continue
        if ":" in line:
            if rows:
                raise InputError(
                    f"header line {excerpt(line)} after the map rows started; put 'key: value' lines first",
                    path,
                    number,
                )
            key, _, value = line.partition(":")
            key = " ".join(key.strip().lower().replace("-", "_").split())
            t = _header_type(key, path, number)
            if t is not None:
                if t in type_lines:
                    raise InputError(f"attack of type {type_name(t)} given twice", path, number)
                type_lines[t] = (value.strip(), number)
                continue
            if key not in _HEADER_KEYS:
                raise InputError(
                    f"unknown header key {excerpt(key)}; allowed: {', '.join(_HEADER_KEYS)}, attack <type>",
                    path,
                    number,
                )
            if key in header:
                raise InputError(f"header key {key!r} given twice", path, number)
            header[key] = (value.strip(), number)
            continue
        rows.append((line, number))
    if not rows:
        raise InputError(f"no map rows found ({_SYMBOLS})", path, None)
    width, height = len(rows[0][0]), len(rows)
    if width > MAX_SIDE or height > MAX_SIDE:
        raise InputError(f"the map is {width}x{height}; at most {MAX_SIDE}x{MAX_SIDE}", path, rows[0][1])
    heroes: list[Hero] = []
    stones: list[Stone] = []
    hero_lines: list[int] = []
    stone_lines: list[int] = []
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
                raise InputError(f"unknown symbol {excerpt(ch)} at column {x} ({_SYMBOLS})", path, number)
    values: dict[str, Any] = {}
    for key, (value, number) in header.items():
        if key == "name":
            values[key] = value[:200]
        elif key == "attack":
            values[key] = _attack_value(value, path, number)
        elif key == "destroy_all":
            on = switch_word(value)
            if on is None:
                raise InputError(f"destroy_all must be yes or no, got {excerpt(value)}", path, number)
            values[key] = on
        else:
            lo = 1 if key == "max_level" else 0
            values[key] = parse_int(value, path, number, key, lo, MAX_VALUE)
    type_attack = {t: _attack_value(value, path, number) for t, (value, number) in type_lines.items()}

    def line_of(kind: str, index: int) -> int | None:
        if kind == "hero":
            return hero_lines[index]
        if kind == "stone":
            return stone_lines[index]
        if kind.startswith("attack "):
            found = type_lines.get(int(kind.split()[1]))
            return found[1] if found else None
        return header.get(kind, (None, None))[1]

    inst = Instance(
        width,
        height,
        tuple(heroes),
        tuple(stones),
        values.get("attack"),
        values.get("target"),
        values.get("destroy_all", False),
        values.get("max_level"),
        values.get("optimum"),
        values.get("name", ""),
        type_attack=type_attack,
    )
    return check(inst, path, line_of)


def _attack_value(value: str, path: str | Path | None, number: int) -> str:
    try:
        return normalise_attack(value)
    except ValueError as exc:
        raise InputError(str(exc), path, number) from None


def to_ascii(instance: Instance) -> str:
    if (
        any(h.type > 26 for h in instance.heroes)
        or any(s.hp > 9 for s in instance.stones)
        or any(t > 26 for t in instance.type_attack)
    ):
        raise InputError("the ASCII map holds types 1-26 and hp 1-9 only; write a .json file instead")
    grid = [["."] * instance.width for _ in range(instance.height)]
    for h in instance.heroes:
        grid[instance.height - h.y][h.x - 1] = type_name(h.type)
    for s in instance.stones:
        grid[instance.height - s.y][s.x - 1] = str(s.hp)
    head = []
    if instance.name:
        head.append(f"name: {instance.name}")
    for key in ("attack", "target", "max_level", "optimum"):
        if getattr(instance, key) is not None:
            head.append(f"{key}: {getattr(instance, key)}")
    head += [f"attack {type_name(t)}: {spec}" for t, spec in sorted(instance.type_attack.items())]
    if instance.destroy_all:
        head.append("destroy_all: yes")
    return "\n".join(head + ["".join(row) for row in grid]) + "\n"


def in_reading_order(instance: Instance) -> Instance:
    """The same instance with heroes renumbered as an ASCII map would number them."""
    heroes = sorted(instance.heroes, key=lambda h: (-h.y, h.x))
    stones = sorted(instance.stones, key=lambda s: (-s.y, s.x))
    return replace(instance, heroes=tuple(heroes), stones=tuple(stones))


# ---------------------------------------------------------------- files


def read(path: str | Path) -> Instance:
    """An ASCII map, or the JSON instance format (``.json``, see codec.py)."""
    from mipgames.merge_game.codec import instance_from_text

    p = Path(path)
    text = read_text(p, "merge-game map")
    inst = instance_from_text(text, p) if p.suffix.lower() == ".json" else from_ascii(text, p)
    return inst if inst.name else replace(inst, name=p.stem)


def output_paths(path: str | Path, graph: bool, probe: bool = False) -> tuple[Path, Path | None]:
    """The map's path and its graph file's (None without a graph), checked as ``output_pair`` does."""
    from mipgames.merge_game.graphs import graph_path

    return output_pair(path, graph_path(Path(path)) if graph else None, "the graph of a reduction map", probe)


def write(instance: Instance, path: str | Path) -> None:
    """The map in the format its extension names; a reduction instance's graph is written beside it.

    Both paths are checked before either is written, and both files are staged before either is renamed into
    place: a failure while writing leaves neither file changed (never a new map beside an old graph)."""
    from mipgames.merge_game.codec import instance_to_text
    from mipgames.merge_game.graphs import graph_path, write_graph

    graph = instance.meta.get("graph") if isinstance(instance.meta, Mapping) else None
    target, companion = output_paths(path, graph is not None)
    text = instance_to_text(instance) if target.suffix.lower() == ".json" else to_ascii(instance)
    if companion is None or graph is None:
        write_text_atomic(target, text)
        drop_stale_companion(target, graph_path(target), "the graph of the reduction map")
        return
    with staged_output(target) as map_tmp, staged_output(companion) as graph_tmp:
        map_tmp.write_text(text, encoding="utf-8")
        write_graph(graph, graph_tmp, instance)  # writes (atomically) onto the staged file, renamed below
