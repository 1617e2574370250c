"""The Same Game 2 command language: parse a line, check it, run it, print the answer.

A malformed line gets one message on the error stream naming the source and
line number (``<stdin>:3: ...``), changes nothing, and the run goes on; the
run's exit status is 1 if any line was rejected.  Blank lines are skipped.
Everything a line needs is checked before the plane is touched, so a
rejected line has no effect (``i`` reads and checks its whole file first).
"""

from __future__ import annotations

import re
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, TextIO

from mipgames.core.errors import InputError
from mipgames.samegame2.paths import Path as FoundPath
from mipgames.samegame2.paths import homogeneous_path, variability_path
from mipgames.samegame2.plane import Plane

_INT = re.compile(r"[+-]?[0-9]+")
_COLOUR = re.compile(r"[a-z]+")

USAGE = {
    "i": "i r c x y FILE",
    "b": "b x y colour",
    "m": "m x y x0 x1 y0 y1",
    "o": "o x1 y1 x2 y2",
    "c": "c x1 y1 x2 y2",
    "n": "n",
    "f": "f",
}


class LineError(Exception):
    """A malformed line; the message is shown with the line number."""


def _shown(text: str, limit: int = 40) -> str:
    """A field quoted for a message, shortened when huge."""
    if len(text) > limit:
        text = text[:limit] + "..."
    return repr(text)


@contextmanager
def unlimited_int_digits() -> Iterator[None]:
    """Huge coordinates are legal: lift CPython's 4300-digit int/str conversion limit for the run."""
    getter = getattr(sys, "get_int_max_str_digits", None)
    if getter is None:
        yield
        return
    old = getter()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(old)


def format_path(found: FoundPath) -> str:
    """``(v,l`` then one ``x,y`` per cell then ``)``, each on its own line."""
    variability, cells = found
    lines = [f"({variability},{len(cells)}"]
    lines.extend(f"{x},{y}" for x, y in cells)
    lines.append(")")
    return "\n".join(lines) + "\n"


def read_table(name: str, rows: int, cols: int) -> list[str]:
    """The first rows*cols words of FILE, checked (colour words or ``0``); raises LineError."""
    try:
        data = Path(name).read_bytes()
    except OSError as exc:
        raise LineError(f"cannot read FILE {_shown(name)}: {exc.strerror or exc}") from None
    except ValueError:  # a NUL in the name
        raise LineError(f"cannot read FILE {_shown(name)}: not a valid file name") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise LineError(f"FILE {_shown(name)} is not UTF-8 text") from None
    need = rows * cols
    words = text.split()
    if len(words) < need:
        raise LineError(f"FILE {_shown(name)} is short: {rows}x{cols} = {need} words needed, found {len(words)}")
    del words[need:]
    bad = [w for w in set(words) if w != "0" and not _COLOUR.fullmatch(w)]
    if bad:
        index = min(words.index(w) for w in bad)
        raise LineError(
            f"FILE {_shown(name)} line {_file_line(text, index)}: word {index + 1} {_shown(words[index])} "
            "is neither a colour (lowercase letters a-z) nor 0"
        )
    return words


def _file_line(text: str, index: int) -> int:
    """The 1-based line of the file holding its index-th word (0-based)."""
    seen = number = 0
    for number, line in enumerate(text.splitlines(), 1):
        seen += len(line.split())
        if seen > index:
            return number
    return number


class Interpreter:
    """Runs command lines against one plane, writing answers to ``out`` and messages to ``err``."""

    def __init__(self, out: TextIO, err: TextIO, source: str = "<stdin>", plane: Plane | None = None):
        self.plane = plane if plane is not None else Plane()
        self.out = out
        self.err = err
        self.source = source
        self.rejected = 0
        self._handlers: dict[str, Callable[[list[str]], bool]] = {
            "i": self._load,
            "b": self._ball,
            "m": self._move,
            "o": self._homogeneous,
            "c": self._variability,
            "n": self._count,
            "f": lambda fields: False,
        }

    def run(self, lines: Iterable[str | bytes]) -> int:
        """Execute every line until ``f`` or the end; 1 if any line was rejected, else 0."""
        with unlimited_int_digits():
            for number, line in enumerate(lines, 1):
                if isinstance(line, bytes):
                    line = line.decode("utf-8", errors="replace")
                if not self.execute(number, line):
                    break
        return 1 if self.rejected else 0

    def execute(self, number: int, line: str) -> bool:
        """Run one line; False when it is ``f`` (stop)."""
        fields = line.split()
        if not fields:
            return True
        try:
            handler = self._handlers.get(fields[0])
            if handler is None:
                raise LineError(f"unknown command {_shown(fields[0])} (commands: i b m o c n f)")
            usage = USAGE[fields[0]]
            if len(fields) != len(usage.split()):
                raise LineError(f"{fields[0]!r} takes {len(usage.split()) - 1} fields ({usage}), got {len(fields) - 1}")
            return handler(fields)
        except LineError as exc:
            message = str(exc)
        except MemoryError:
            message = "out of memory (the line is too large to carry out)"
        self.rejected += 1
        self.err.write(str(InputError(message, self.source, number)) + "\n")
        return True

    @staticmethod
    def _ints(fields: list[str], names: list[str]) -> list[int]:
        values = []
        for name, text in zip(names, fields):
            if not _INT.fullmatch(text):
                raise LineError(f"{name} is not an integer: {_shown(text)}")
            values.append(int(text))
        return values

    def _load(self, fields: list[str]) -> bool:
        rows, cols, x, y = self._ints(fields[1:5], ["r", "c", "x", "y"])
        if rows < 0 or cols < 0:
            raise LineError(f"r and c must be >= 0, got r = {rows}, c = {cols}")
        words = read_table(fields[5], rows, cols)
        canonical: dict[str, str | None] = {"0": None}  # one string object per colour: identity compares
        table = [canonical.setdefault(w, w) for w in words]
        self.plane.put_table(x, y, rows, cols, table)
        return True

    def _ball(self, fields: list[str]) -> bool:
        x, y = self._ints(fields[1:3], ["x", "y"])
        if not _COLOUR.fullmatch(fields[3]):
            raise LineError(f"colour must be lowercase letters a-z, got {_shown(fields[3])}")
        self.plane.put(x, y, fields[3])
        return True

    def _move(self, fields: list[str]) -> bool:
        x, y, x0, x1, y0, y1 = self._ints(fields[1:], ["x", "y", "x0", "x1", "y0", "y1"])
        if x0 > x1:
            raise LineError(f"empty base: x0 = {x0} > x1 = {x1}")
        if y0 > y1:
            raise LineError(f"empty base: y0 = {y0} > y1 = {y1}")
        self.plane.move(x, y, x0, x1, y0, y1)
        return True

    def _answer(self, text: str) -> None:
        """Write an answer and flush it: a program driving the interpreter through a pipe sees it at once."""
        self.out.write(text)
        self.out.flush()

    def _homogeneous(self, fields: list[str]) -> bool:
        return self._path(fields, homogeneous_path, "Non esiste un cammino omogeneo fra")

    def _variability(self, fields: list[str]) -> bool:
        return self._path(fields, variability_path, "Non esiste un cammino fra")

    def _path(self, fields: list[str], search: Callable[..., Any], missing: str) -> bool:
        x1, y1, x2, y2 = self._ints(fields[1:], ["x1", "y1", "x2", "y2"])
        found = search(self.plane.balls, (x1, y1), (x2, y2))
        self._answer(f"{missing} ({x1},{y1}) e ({x2},{y2})\n" if found is None else format_path(found))
        return True

    def _count(self, fields: list[str]) -> bool:
        self._answer(f"{self.plane.block_count()}\n")
        return True
