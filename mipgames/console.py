"""The console script's first step: a Ctrl-C while Python still loads the command ends it quietly, and the
standard streams are made safe to use.

Loading the command line takes a few tenths of a second (more on a loaded machine), before its own handlers
stand; an interrupt there printed a KeyboardInterrupt traceback.
"""

from __future__ import annotations

import os
import signal
import sys
from types import FrameType
from typing import Any, cast


def _interrupted(signum: int, frame: FrameType | None) -> None:
    sys.stderr.write("mipgames: interrupted\n")
    raise SystemExit(130)


class _PipeSafe:
    """Standard output that a reader closing the pipe does not end: the rest of the output goes to /dev/null and
    the command finishes with its own exit code.  ``verify --json c.json | head -1`` exited 0 for a rejected
    certificate, and a solve that answered ``unknown`` exited 0 instead of 3, when the pipe closed mid-print."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            self._drop()
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._drop()

    def _drop(self) -> None:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, self._stream.fileno())  # what is still buffered is flushed there
        os.close(null)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def safe_streams() -> None:
    """A closed standard stream reads as empty or swallows what is written, and text the output's encoding
    cannot show is written as escapes: closed streams (``>&-``) were None, and an ASCII or Latin-1 output
    (``PYTHONIOENCODING=ascii``, a C locale) could not take the messages' dashes, so commands ended in
    tracebacks or in exit 1, which ``verify`` uses for a rejected certificate."""
    if sys.stdin is None:
        sys.stdin = open(os.devnull, encoding="utf-8")
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))
        elif hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    sys.stdout = cast(Any, _PipeSafe(sys.stdout))


def entry() -> None:
    """Ctrl-C exits quietly until the command's own handling stands (``cli.entry`` hands it back to Python's)."""
    signal.signal(signal.SIGINT, _interrupted)
    safe_streams()
    from mipgames.cli import entry as command

    command()
