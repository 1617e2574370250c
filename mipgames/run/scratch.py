"""The one temporary directory of a run: every solver file lives in it, and it is always removed.

Solver logs, CBC's MPS and solution files, GLPK's ``*-pulp.*`` files and the
binary wrappers of :mod:`mipgames.run.spawn` go here (the child points
``TMPDIR`` and :mod:`tempfile` at it).  The directory is removed when the run
ends however it ends; a command killed with SIGKILL cannot clean up after
itself, so each new run first removes the directories of commands that no
longer exist (their pid is in the name).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psutil

PREFIX = "mipgames-run-"


def sweep_stale(root: str | Path | None = None) -> None:
    """Remove run directories whose command is gone."""
    base = Path(root or tempfile.gettempdir())
    try:
        entries = list(base.glob(f"{PREFIX}*"))
    except OSError:
        return
    for entry in entries:
        try:
            pid = int(entry.name[len(PREFIX) :].split("-", 1)[0])
        except ValueError:
            continue
        if pid != os.getpid() and not psutil.pid_exists(pid):
            shutil.rmtree(entry, ignore_errors=True)


@contextlib.contextmanager
def scratch_dir() -> Iterator[Path]:
    """A fresh private directory for one run, removed on exit."""
    sweep_stale()
    path = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


TEMP_VARIABLES = ("TMPDIR", "TMP", "TEMP")
"""PuLP looks at TMP after TMPDIR; GLPK's ``*-pulp.out`` files follow whichever is set."""


def point_temporary_files_at(path: str | Path) -> None:
    """Point :mod:`tempfile` and the temp-dir variables solvers read at ``path`` (for good: a bench worker)."""
    for name in TEMP_VARIABLES:
        os.environ[name] = str(path)
    tempfile.tempdir = str(path)


@contextlib.contextmanager
def temporary_files_in(path: Path) -> Iterator[None]:
    """Point :mod:`tempfile` and the temp-dir variables solvers read at ``path`` while the block runs."""
    saved_env = {name: os.environ.get(name) for name in TEMP_VARIABLES}
    saved_tempdir = tempfile.tempdir
    point_temporary_files_at(path)
    try:
        yield
    finally:
        tempfile.tempdir = saved_tempdir
        for name, value in saved_env.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
