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

Map rows are contiguous (comment lines may sit between them; a blank line
between two rows is refused, as it would shift every row above it).
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
from typing import Any, NoReturn

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


def check(instance: Instance, path: str | Path | None, line_of: LineOf, grid: bool = False) -> Instance:
    """Map-level checks shared by both formats; ``line_of(kind, index)`` names the line.  ``grid``: the pieces
    come from an ASCII grid, so they stand on the map, one a cell, with a type or hp of one symbol."""
    if not (1 <= instance.width <= MAX_SIDE and 1 <= instance.height <= MAX_SIDE):
        raise InputError(
            f"map size must be between 1x1 and {MAX_SIDE}x{MAX_SIDE}, got {instance.width}x{instance.height}",
            path,
            line_of("size", 0),
        )
    occupied: dict[tuple[int, int], tuple[str, int, Hero | Stone]] = {}
    groups: tuple[tuple[str, tuple[Hero | Stone, ...]], ...] = (("hero", instance.heroes), ("stone", instance.stones))
    width, height = instance.width, instance.height

    def where(kind: str, i: int, item: Hero | Stone) -> str:  # only for a message: a map holds a million pieces
        return f"{kind} {i} at ({item.x}, {item.y})"

    for kind, items in () if grid else groups:
        name = "type" if kind == "hero" else "hp"
        for i, item in enumerate(items):
            x, y = item.x, item.y
            if not (1 <= x <= width and 1 <= y <= height):
                raise InputError(
                    f"{where(kind, i, item)} is off the {width}x{height} map (x in 1..{width}, y in 1..{height})",
                    path,
                    line_of(kind, i),
                )
            value = item.type if kind == "hero" else item.hp  # type: ignore[union-attr]
            if not 1 <= value <= MAX_VALUE:
                raise InputError(
                    f"{where(kind, i, item)} has {name} {value}; {name} must be between 1 and {MAX_VALUE}",
                    path,
                    line_of(kind, i),
                )
            other = occupied.setdefault((x, y), (kind, i, item))
            if other[2] is not item:
                raise InputError(f"{where(kind, i, item)} overlaps {where(*other)}", path, line_of(kind, i))
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


def _first_bad_symbol(rows: list[tuple[str, int]], path: str | Path | None) -> NoReturn:
    for line, number in rows:
        for c, ch in enumerate(line):
            if ch == "0":
                raise InputError(f"stone at column {c + 1} has hp 0; hp must be at least 1", path, number)
            if ch != "." and not ("a" <= ch <= "z" or "1" <= ch <= "9"):
                raise InputError(f"unknown symbol {ch!r} at column {c + 1} ({_SYMBOLS})", path, number)
    raise AssertionError("no bad symbol in the rows")


def _pieces(
    rows: list[tuple[str, int]], width: int, path: str | Path | None
) -> tuple[list[Hero], list[Stone], list[int], list[int]]:
    """The heroes and stones of the map rows (top row first), row by row, with their line numbers.

    Read as one byte grid: a map may hold a million cells, and a loop over them in Python took seconds of the
    time limit.  The first symbol that is no piece is reported with its line."""
    import numpy as np

    height = len(rows)
    text = "".join(line for line, _ in rows)
    if not text.isascii():
        _first_bad_symbol(rows, path)
    grid = np.frombuffer(text.encode("ascii"), dtype=np.uint8).reshape(height, width)
    hero = (grid >= ord("a")) & (grid <= ord("z"))
    stone = (grid >= ord("1")) & (grid <= ord("9"))
    if not (hero | stone | (grid == ord("."))).all():
        _first_bad_symbol(rows, path)
    numbers = [number for _, number in rows]

    def found(mask: Any, base: int) -> tuple[list[int], list[int], list[int], list[int]]:
        r, c = np.nonzero(mask)  # row-major: the order of a scan row by row
        return (c + 1).tolist(), (height - r).tolist(), (grid[r, c].astype(np.int64) - base).tolist(), r.tolist()

    xs, ys, types, where = found(hero, ord("a") - 1)
    heroes = [Hero(x, y, t) for x, y, t in zip(xs, ys, types)]
    hero_lines = [numbers[r] for r in where]
    xs, ys, hps, where = found(stone, ord("0"))
    stones = [Stone(x, y, hp) for x, y, hp in zip(xs, ys, hps)]
    return heroes, stones, hero_lines, [numbers[r] for r in where]


def from_ascii(text: str, path: str | Path | None = None) -> Instance:
    header: dict[str, tuple[str, int]] = {}
    type_lines: dict[int, tuple[str, int]] = {}
    rows: list[tuple[str, int]] = []
    blank = 0  # a blank line after the map rows started: more rows after it would shift every row above it
    for number, raw in enumerate(text_lines(text), start=1):
        line = raw.rstrip()
        if not line:
            blank = blank or (number if rows else 0)
            continue
        if line.lstrip().startswith("#"):
            continue
        if blank and ":" not in line:
            raise InputError(
                f"blank line inside the map (the rows before it and {excerpt(line)} would be read as adjacent); "
                "write an empty row as dots",
                path,
                blank,
            )
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
        raise InputError(f"no map rows found ({_SYMBOLS})", path, len(text_lines(text)) + 1)  # where they were due
    width, height = len(rows[0][0]), len(rows)
    if width > MAX_SIDE or height > MAX_SIDE:
        raise InputError(f"the map is {width}x{height}; at most {MAX_SIDE}x{MAX_SIDE}", path, rows[0][1])
    for line, number in rows:
        if len(line) != width:
            raise InputError(f"map row has {len(line)} cells, the first row has {width}", path, number)
    heroes, stones, hero_lines, stone_lines = _pieces(rows, width, path)
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
    return check(inst, path, line_of, grid=True)


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
