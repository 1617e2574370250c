"""Solver binaries that die with the process that started them.

PuLP starts CBC and glpsol with ``subprocess``; the parent-death signal is not
inherited across fork, so a solver binary would outlive a killed solve.  The
wrapper written here sets it in the new process and then execs the binary
(the setting survives exec).  CBC also gets line-buffered output through
coreutils' ``stdbuf`` when present, so its log reaches the progress display
line by line instead of in 4 KB blocks.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import tempfile
from pathlib import Path

_SHIM = (
    "import ctypes,os,sys;ctypes.CDLL(None).prctl(1,9,0,0,0);"
    "os.getppid()==int(sys.argv[1]) or os._exit(1);os.execv(sys.argv[2],sys.argv[2:])"
)


def guarded(binary: str, line_buffered: bool = False, folder: str | Path | None = None) -> str:
    """Path of an executable wrapper that runs ``binary`` with the parent-death signal set (Linux)."""
    if not sys.platform.startswith("linux"):
        return binary
    target = [binary]
    stdbuf = shutil.which("stdbuf") if line_buffered else None
    if stdbuf:
        target = [stdbuf, "-oL", "-eL", binary]
    folder = Path(folder or tempfile.gettempdir())
    fd, name = tempfile.mkstemp(prefix=f"{Path(binary).name}-", dir=folder)
    script = (
        f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -S -c {shlex.quote(_SHIM)} "
        f'{os.getpid()} {" ".join(shlex.quote(t) for t in target)} "$@"\n'
    )
    with os.fdopen(fd, "w") as fh:
        fh.write(script)
    os.chmod(name, 0o700)
    return name
