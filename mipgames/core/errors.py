"""Errors the CLI turns into one clear message and an exit code, never a traceback."""

from __future__ import annotations

from pathlib import Path


class MipgamesError(Exception):
    """Base of every error meant for the user."""

    exit_code = 1


MAX_MESSAGE = 300
"""Longest message text printed: errors quote input in short excerpts, never whole."""
PATH_CHARS = 160
"""Longest file name printed: its start and its end."""


def printable(text: str) -> str:
    """``text`` with every character a terminal would act on (newline, escape, other controls) shown as ``?``:
    text that comes from user input may then be printed without forging lines or terminal commands."""
    return "".join(ch if ch.isprintable() else "?" for ch in text)


def shown_path(path: str | Path) -> str:
    """A file name as the command prints it: printable (a name may hold a newline and a terminal escape, which
    forged a line "status infeasible" in a solve's summary) and at most ``PATH_CHARS`` characters."""
    text = printable(str(path))
    if len(text) <= PATH_CHARS:
        return text
    return text[: PATH_CHARS // 2 - 1] + "…" + text[-(PATH_CHARS // 2) :]


class InputError(MipgamesError):
    """Malformed input: names the file and line when they are known."""

    exit_code = 4

    def __init__(self, message: str, path: str | Path | None = None, line: int | None = None):
        self.message = message
        self.path = None if path is None else str(path)
        self.line = line
        super().__init__(str(self))

    def __str__(self) -> str:
        message = self.message if len(self.message) <= MAX_MESSAGE else self.message[:MAX_MESSAGE] + "…"
        where = ""
        if self.path is not None:
            where = shown_path(self.path) + (f":{self.line}" if self.line is not None else "") + ": "
        elif self.line is not None:
            where = f"line {self.line}: "
        return where + message


class UsageError(MipgamesError):
    """A request that cannot be carried out as asked (wrong solver for a formulation, ...)."""

    exit_code = 4


class SolverUnavailable(MipgamesError):
    """A backend whose solver is not installed or cannot run this model."""

    exit_code = 4


class OutputError(InputError):
    """An output that cannot be written where asked (a symlink, a device, no permission, a full disk)."""
