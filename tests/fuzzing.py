"""What every reader's fuzz test shares: the hypothesis settings and the mutations of a bundled file."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, settings

FAST = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

INSERTS = ("[", "]", "{", ",", ":", '"', "\n", "1e999", "NaN", "0x10", "\0", "  x ")
"""Text dropped at a random place: JSON syntax, non-numbers, a NUL, a stray token."""


def mutate(text: str, rng: random.Random, inserts: tuple[str, ...] = INSERTS) -> str:
    """One random edit of the kinds hostile files show: truncated, a line doubled or dropped, a number made
    huge, negative or non-ASCII, a character inserted, or deep nesting."""
    lines = text.splitlines(keepends=True) or [""]
    i = rng.randrange(len(lines))
    kind = rng.randrange(8)
    if kind == 0:
        return text[: rng.randrange(len(text) + 1)]
    if kind == 1:
        return "".join(lines[:i] + [lines[i]] + lines[i:])
    if kind == 2:
        return "".join(lines[:i] + lines[i + 1 :])
    if kind == 3:
        return text.replace("1", rng.choice(["9" * 30, str(1 << 62), "1" * 5000, "99"]), 1)
    if kind == 4:
        return text.replace("1", "-1", 1)
    if kind == 5:
        return text.replace(rng.choice("0a1"), rng.choice(["٣", "é"]), 1)  # int() takes some non-ASCII digits
    if kind == 6:
        pos = rng.randrange(len(text) + 1)
        return text[:pos] + rng.choice(inserts) + text[pos:]
    return "[" * 5000 + text
