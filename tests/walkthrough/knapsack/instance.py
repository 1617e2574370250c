"""The knapsack instance and its file format: a capacity line, then one ``weight value`` line per item."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from mipgames.core.errors import InputError
from mipgames.core.files import parse_int, read_text, write_text_atomic

MAX_ITEMS = 10_000
MAX_NUMBER = 10**9


@dataclass(frozen=True)
class Knapsack:
    capacity: int
    weights: tuple[int, ...]
    values: tuple[int, ...]


def parse(text: str, path: str | Path = "<text>") -> Knapsack:
    lines = [(n, line.split("#")[0].split()) for n, line in enumerate(text.splitlines(), 1)]
    lines = [(n, words) for n, words in lines if words]
    if not lines:
        raise InputError("empty file: the first line is the capacity", path, 1)
    n, words = lines[0]
    if len(words) != 1:
        raise InputError("the first line is the capacity alone", path, n)
    capacity = parse_int(words[0], path, n, "capacity", 0, MAX_NUMBER)
    if len(lines) - 1 > MAX_ITEMS:
        raise InputError(f"more than {MAX_ITEMS} items", path, lines[MAX_ITEMS + 1][0])
    weights, values = [], []
    for n, words in lines[1:]:
        if len(words) != 2:
            raise InputError(f"an item line is 'weight value', found {len(words)} values", path, n)
        weights.append(parse_int(words[0], path, n, "weight", 0, MAX_NUMBER))
        values.append(parse_int(words[1], path, n, "value", 0, MAX_NUMBER))
    return Knapsack(capacity, tuple(weights), tuple(values))


def read(path: str | Path) -> Knapsack:
    return parse(read_text(path, "instance"), path)


def write(instance: Knapsack, path: str | Path) -> None:
    lines = [str(instance.capacity)] + [f"{w} {v}" for w, v in zip(instance.weights, instance.values)]
    write_text_atomic(path, "\n".join(lines) + "\n")
