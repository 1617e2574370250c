"""Numba's on-disk caches dropped when any compiled source of their folder changed.

numba keys a cached function on its own file only: when ``nmcs.py`` is
unchanged but ``playout.py``, whose functions it compiles in, has changed
(an update, a local edit), numba would load the old machine code, old
playouts and all.  So the first kernel module of a folder to be imported
fingerprints every source file of that folder that numba compiles (the files
that mention ``njit`` or ``@leaf(``) and, when the fingerprint differs from the one stamped
beside the caches, deletes the folder's ``.nbi``/``.nbc`` files first: numba
then compiles afresh (``mipgames warmup`` pays for it ahead of a solve).  This file is part of every
fingerprint, since the options of its ``leaf`` are compiled into every folder's kernels.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from numba import njit

STAMP = "mipgames-kernels.sha256"
F = TypeVar("F", bound=Callable[..., Any])


def leaf(inline: bool = False) -> Callable[[F], F]:
    """``njit`` for a kernel's helpers: cached, and without reference counting.

    For functions that allocate nothing and call only such functions (numba compiles a callee with the caller's
    options where the callee sets none).  Numba counts references to every array passed to a compiled call,
    atomically, on entry and exit, even into functions inlined with ``inline="always"``; in the queens and
    edge-matching node loops that was a fifth to a quarter of the time (perf and gdb samples in ``NRT_incref``
    / ``NRT_decref``).  The caller holds every array for the length of the call, so the counts are not needed.
    ``inline``: inlined into the caller by numba as well."""

    def compile_(function: F) -> F:
        compiled: F = njit(cache=True, _nrt=False, inline="always" if inline else "never")(function)  # type: ignore[call-overload]
        return compiled

    return compile_


_checked: set[Path] = set()


COMPILED_MARKS = (b"njit", b"@leaf(")
"""A source mentioning one of these is compiled by numba (a module may hold only ``leaf`` helpers)."""


def compiles(text: bytes) -> bool:
    """Whether a source's text holds functions numba compiles."""
    return any(mark in text for mark in COMPILED_MARKS)


def fingerprint(folder: Path) -> str:
    """SHA-256 over the names and contents of the folder's sources that numba compiles."""
    digest = hashlib.sha256(Path(__file__).read_bytes())
    for path in sorted(folder.glob("*.py")):
        text = path.read_bytes()
        if compiles(text):
            digest.update(path.name.encode() + b"\0" + text + b"\0")
    return digest.hexdigest()


def drop_stale(source_file: str | Path) -> bool:
    """Delete the cached kernels of ``source_file``'s folder if its compiled sources changed; True if it did.

    Checked once per folder and process.  A folder that cannot be written is left as it is (numba then
    keeps its caches elsewhere, or none)."""
    folder = Path(source_file).resolve().parent
    if folder in _checked:
        return False
    _checked.add(folder)
    cache = folder / "__pycache__"
    try:
        now = fingerprint(folder)
        stamp = cache / STAMP
        if stamp.is_file() and stamp.read_text().strip() == now:
            return False
        for pattern in ("*.nbi", "*.nbc"):
            for old in cache.glob(pattern):
                old.unlink(missing_ok=True)
        cache.mkdir(exist_ok=True)
        partial = cache / f"{STAMP}.{os.getpid()}.tmp"
        partial.write_text(now + "\n")
        partial.replace(stamp)
    except OSError:
        return False
    return True
