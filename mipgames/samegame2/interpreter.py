"""The Same Game 2 command language: parse a line, check it, run it, print the answer.

A malformed line gets one message on the error stream naming the source and
line number (``<stdin>:3: ...``), changes nothing, and the run goes on; the
run's exit status is 1 if any line was rejected.  Blank lines are skipped.
Everything a line needs is checked before the plane is touched, so a
rejected line has no effect (``i`` reads and checks its whole file first).

Input is untrusted (docs/samegame2.md lists the limits):

* a coordinate is any integer Python reads from text: at most ``COORD_DIGITS``
  digits (CPython's own limit; a longer token is refused before conversion,
  so a 10^6-digit number costs nothing);
* a line longer than ``MAX_LINE`` characters is refused without being parsed
  (:func:`read_lines` never holds more than that of one line in memory);
* a table FILE is read through :func:`mipgames.core.files.read_text`: a
  regular UTF-8 file of bounded size, never a FIFO, device or directory;
* messages quote short excerpts of the script only, never the content of a
  FILE (it may be any file the user can read): a bad word is named by its
  line and position in the FILE.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any, TextIO

from mipgames.core.errors import InputError
from mipgames.core.files import excerpt, read_text
from mipgames.samegame2.paths import Path as FoundPath
from mipgames.samegame2.paths import homogeneous_path, variability_path
from mipgames.samegame2.plane import Plane

COORD_DIGITS = 4300
"""Most digits of a coordinate or size: CPython's default limit for reading an integer from text, so the spec's
"arbitrary Python integers" are taken as Python itself reads them."""
COORD_LIMIT = 10**COORD_DIGITS - 1
PRINTED_DIGITS = COORD_DIGITS + 10
"""Digits an answer may print: a coordinate read plus a table's size is one digit longer than the reader's limit
(CPython refuses to print integers of more than 4,300 digits unless told otherwise)."""
"""Largest absolute value of a coordinate (cells, bases, table corners and sizes)."""
MAX_LINE = 1 << 20
"""Longest command line, in characters (bytes when read from a stream): a valid line is far shorter."""

_INT = re.compile(r"[+-]?[0-9]+")
_COLOUR = re.compile(r"[a-z]+")
_WORD = re.compile(r"\S+")

USAGE = {
    "i": "i r c x y FILE",
    "b": "b x y colour",
    "m": "m x y x0 x1 y0 y1",
    "o": "o x1 y1 x2 y2",
    "c": "c x1 y1 x2 y2",
    "n": "n",
    "f": "f",
}


def format_path(found: FoundPath) -> str:
    """``(v,l`` then one ``x,y`` per cell then ``)``, each on its own line."""
    variability, cells = found
    lines = [f"({variability},{len(cells)}"]
    lines.extend(f"{x},{y}" for x, y in cells)
    lines.append(")")
    return "\n".join(lines) + "\n"


def read_lines(stream: IO[Any], limit: int = MAX_LINE) -> Iterator[str | bytes]:
    """The lines of a stream, read lazily (so ``f`` stops reading) and in bounded pieces.

    A line longer than ``limit`` (its line end, LF or CRLF, not counted) is
    cut to at most ``limit + 2`` characters and the rest of it skipped, so
    that :meth:`Interpreter.run` refuses it without ever holding a 10 GB
    line.  Bytes streams give bytes (bad UTF-8 stays a problem of one line).
    """
    stream = getattr(stream, "buffer", stream)
    while True:
        line = stream.readline(limit + 2)  # room for a CRLF after a line of exactly ``limit``
        if not line:
            return
        if not _ending(line) and len(line) > limit:
            rest = line
            while rest and not _ending(rest):
                rest = stream.readline(1 << 16)
        yield line


def _ending(line: str | bytes) -> int:
    """Characters of the line's end: 2 for CRLF, 1 for LF, 0 for none (the last line, or a cut one)."""
    if line[-1:] not in ("\n", b"\n"):
        return 0
    return 2 if line[-2:] in ("\r\n", b"\r\n") else 1


def _int(text: str, name: str, non_negative: bool = False) -> int:
    """An integer field (ASCII digits with an optional sign) of at most ``COORD_DIGITS`` digits.

    The digits are counted before any conversion: ``int()`` of a 10^6-digit
    token would take quadratic time.
    """
    if not _INT.fullmatch(text):
        raise InputError(f"{name} is not an integer: {excerpt(text)}")
    digits = text.lstrip("+-").lstrip("0")
    if len(digits) > COORD_DIGITS:
        raise InputError(f"{name} has {len(digits):,} digits; integers of at most {COORD_DIGITS:,} digits are read")
    value = -int(digits or "0") if text.startswith("-") else int(digits or "0")
    if non_negative and value < 0:
        raise InputError(f"{name} must be at least 0, got -{_count(-value)}")
    return value


def read_table(name: str, rows: int, cols: int) -> list[str]:
    """The first rows*cols words of FILE, checked (colour words or ``0``); raises InputError.

    Messages name the FILE, a line of it and a word's position, never a word:
    the FILE's content stays out of the output.
    """
    shown = f"FILE {excerpt(name, 80)}"
    try:
        if "\0" in name:
            raise InputError("not a valid file name (a NUL character)")
        text = read_text(name, "file")
    except InputError as exc:
        where = f" line {exc.line}" if exc.line is not None else ""
        raise InputError(f"{shown}{where}: {exc.message}") from None
    except ValueError:  # a file name the file system cannot encode
        raise InputError(f"{shown}: not a valid file name") from None
    need = rows * cols
    words = text.split(maxsplit=min(need, len(text)))
    del words[need:]
    if len(words) < need:
        raise InputError(
            f"{shown} is short: {_count(rows)}x{_count(cols)} = {_count(need)} words needed, found {len(words)}"
        )
    bad = {w for w in set(words) if w != "0" and not _COLOUR.fullmatch(w)}
    if bad:
        for index, match in enumerate(_WORD.finditer(text)):
            if match.group() in bad:
                line = text.count("\n", 0, match.start()) + 1
                raise InputError(
                    f"{shown} line {line}: word {index + 1} is neither a colour (lowercase letters a-z) nor 0"
                )
    return words


def _count(n: int) -> str:
    """An integer as text, shortened when it has more digits than a message should carry."""
    if abs(n) < 10**12:
        return str(n)
    return f"{'-' if n < 0 else ''}~10^{int(abs(n).bit_length() * 0.30103)}"


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
        """Execute every line until ``f`` or the end; 1 if any line was rejected, else 0.

        A UTF-8 byte-order mark opening the first line (a script saved by a
        Windows editor) is dropped, as :func:`mipgames.core.files.read_text` does.
        """
        limit = sys.get_int_max_str_digits()
        sys.set_int_max_str_digits(0 if limit == 0 else max(limit, PRINTED_DIGITS))
        try:
            for number, line in enumerate(lines, 1):
                if number == 1:
                    line = line.removeprefix(b"\xef\xbb\xbf" if isinstance(line, bytes) else "\ufeff")  # type: ignore[arg-type]
                if not self.execute(number, line):
                    break
        finally:
            sys.set_int_max_str_digits(limit)
        return 1 if self.rejected else 0

    def execute(self, number: int, line: str | bytes) -> bool:
        """Run one line; False when it is ``f`` (stop)."""
        try:
            if len(line) - _ending(line) > MAX_LINE:
                raise InputError(f"line longer than {MAX_LINE:,} characters: not a command")
            if isinstance(line, bytes):
                line = line.decode("utf-8", errors="replace")
            if "\r" in line.rstrip("\r\n"):  # split on white space, its commands would run into one another
                raise InputError(
                    "a carriage return inside the line (old Mac line ends?): save the script with line feeds "
                    "(LF or CRLF)"
                )
            fields = line.split()
            if not fields:
                return True
            handler = self._handlers.get(fields[0])
            if handler is None:
                raise InputError(f"unknown command {excerpt(fields[0])} (commands: i b m o c n f)")
            usage = USAGE[fields[0]]
            if len(fields) != len(usage.split()):
                raise InputError(
                    f"{fields[0]!r} takes {len(usage.split()) - 1} fields ({usage}), got {len(fields) - 1}"
                )
            return handler(fields)
        except InputError as exc:
            message = exc.message
        except MemoryError:
            message = "out of memory (the line is too large to carry out)"
        self.rejected += 1
        self.err.write(str(InputError(message, self.source, number)) + "\n")
        return True

    def _load(self, fields: list[str]) -> bool:
        rows = _int(fields[1], "r", non_negative=True)
        cols = _int(fields[2], "c", non_negative=True)
        x, y = _int(fields[3], "x"), _int(fields[4], "y")
        words = read_table(fields[5], rows, cols)
        canonical: dict[str, str | None] = {"0": None}  # one string object per colour: identity compares
        table = [canonical.setdefault(w, w) for w in words]
        self.plane.put_table(x, y, rows, cols, table)
        return True

    def _ball(self, fields: list[str]) -> bool:
        x, y = _int(fields[1], "x"), _int(fields[2], "y")
        if not _COLOUR.fullmatch(fields[3]):
            raise InputError(f"colour must be lowercase letters a-z, got {excerpt(fields[3])}")
        self.plane.put(x, y, fields[3])
        return True

    def _move(self, fields: list[str]) -> bool:
        x, y, x0, x1, y0, y1 = (_int(text, name) for text, name in zip(fields[1:], USAGE["m"].split()[1:]))
        if x0 > x1:
            raise InputError(f"empty base: x0 = {_count(x0)} > x1 = {_count(x1)}")
        if y0 > y1:
            raise InputError(f"empty base: y0 = {_count(y0)} > y1 = {_count(y1)}")
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
        x1, y1, x2, y2 = (_int(text, name) for text, name in zip(fields[1:], USAGE["o"].split()[1:]))
        found = search(self.plane.balls, (x1, y1), (x2, y2))
        self._answer(f"{missing} ({x1},{y1}) e ({x2},{y2})\n" if found is None else format_path(found))
        return True

    def _count(self, fields: list[str]) -> bool:
        self._answer(f"{self.plane.block_count()}\n")
        return True
