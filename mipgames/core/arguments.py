"""Argument types that refuse what no run can use: every size, count and seed a command takes is bounded.

A generator asked for a 10^9-row board would hang or eat the machine's memory
before failing; these types stop it at the command line with a usage error
(exit 4) that says the range.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable


def int_in(lo: int, hi: int) -> Callable[[str], int]:
    """An argparse type: an integer in [lo, hi] (digits only, so "1e9" and "1_000" are refused too)."""

    def parse(text: str) -> int:
        stripped = text.strip()
        digits = stripped.lstrip("+-")
        if len(stripped) > 20 or not digits.isascii() or not digits.isdigit():
            raise argparse.ArgumentTypeError(f"not an integer from {lo} to {hi}: {text[:20]!r}")
        value = int(stripped)
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"must be from {lo} to {hi}, got {value}")
        return value

    parse.__name__ = "integer"
    return parse


def number_in(lo: float, hi: float, *, open_low: bool = False) -> Callable[[str], float]:
    """An argparse type: a finite number in [lo, hi] ((lo, hi] with open_low); NaN and infinities are refused."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text[:30]!r}") from None
        low_ok = value > lo if open_low else value >= lo
        if not math.isfinite(value) or not low_ok or value > hi:
            side = "above" if open_low else "from"
            raise argparse.ArgumentTypeError(f"must be a finite number {side} {lo:g} to {hi:g}, got {text[:30]!r}")
        return value

    parse.__name__ = "number"
    return parse


SWITCH_WORDS = {"true": True, "yes": True, "on": True, "1": True, "false": False, "no": False, "off": False, "0": False}
"""The words a switch is written with in files and ``--param`` values (any case)."""
SWITCHES_SHOWN = "true or false (yes/no, on/off, 1/0)"


def switch_word(text: str) -> bool | None:
    """The switch ``text`` names (None when it names none)."""
    return SWITCH_WORDS.get(text.strip().lower())


def positive(unit: str = "") -> Callable[[str], float]:
    """An argparse type: a positive, finite number (NaN, infinities, 0 and negatives refused), ``unit`` named in
    the refusal."""

    def read(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text[:30]!r}") from None
        if not math.isfinite(value) or value <= 0:
            of = f" of {unit}" if unit else ""
            raise argparse.ArgumentTypeError(f"must be a positive finite number{of}, got {text[:30]!r}")
        return value

    read.__name__ = unit or "number"
    return read


_seconds = positive("seconds")


def seconds_or_none(text: str) -> float:
    """A ``--time-limit``: positive seconds, or ``none`` for no limit (math.inf here; a run takes it as None)."""
    return math.inf if text.strip().lower() == "none" else _seconds(text)


def limit_of(given: float) -> float | None:
    """The seconds a run may take from a ``seconds_or_none`` value: None for ``none``."""
    return None if given == math.inf else given
