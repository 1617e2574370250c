"""Run one solve in a child process with its own log, a hard timeout and no way to hang the caller.

The child redirects its file descriptors 1 and 2 into the log file, so every
solver's output (in-process or a spawned binary) lands there; the parent tails
that file for progress and gets the result over a pipe.  The child leads its
own process group, so a timeout kills spawned solver binaries too.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import signal
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from mipgames.core.errors import MipgamesError


@dataclass
class ChildOutcome:
    ok: bool
    value: Any = None
    error: str = ""
    user_error: tuple[str, int] | None = None
    timed_out: bool = False
    interrupted: bool = False


def _context() -> mp.context.BaseContext:
    return mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context("spawn")


@contextlib.contextmanager
def output_to(log_path: str | Path) -> Iterator[None]:
    """Send file descriptors 1 and 2 (so solver binaries' and libraries' output too) to a log file."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    saved_py = sys.stdout, sys.stderr
    fd = os.open(str(log_path), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)
    sys.stdout = os.fdopen(os.dup(1), "w", buffering=1)
    sys.stderr = os.fdopen(os.dup(2), "w", buffering=1)
    try:
        yield
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        sys.stdout.close()
        sys.stderr.close()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        os.close(saved[0])
        os.close(saved[1])
        sys.stdout, sys.stderr = saved_py


def _child(fn: Callable[..., Any], args: tuple, conn: Any, log_path: str) -> None:
    try:
        os.setpgrp()
    except OSError:
        pass
    fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    sys.stdout = os.fdopen(1, "w", buffering=1, closefd=False)
    sys.stderr = os.fdopen(2, "w", buffering=1, closefd=False)
    try:
        value = fn(*args, notify=lambda msg: conn.send(("note", msg)))
        conn.send(("done", value))
    except MipgamesError as exc:
        conn.send(("user", (str(exc), exc.exit_code)))
    except BaseException as exc:  # the child must always answer
        traceback.print_exc()
        conn.send(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        sys.stdout.flush()
        conn.close()
        os._exit(0)


def _kill(proc: Any) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError, OSError):
        proc.kill()
    proc.join(5)


def run_isolated(
    fn: Callable[..., Any],
    args: tuple,
    log_path: Path,
    deadline: Callable[[], float | None],
    on_tick: Callable[[float], None] | None = None,
    on_note: Callable[[Any], None] | None = None,
) -> ChildOutcome:
    """fn(*args, notify=...) in a child, killed once time.perf_counter() passes deadline() (None: no limit).

    The deadline is asked afresh on every tick, so a caller can move it when
    the child reports progress (e.g. "model built, solver clock starts now").
    """
    ctx = _context()
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(fn, args, child, str(log_path)), daemon=True)
    start = time.perf_counter()
    proc.start()
    child.close()
    try:
        while True:
            elapsed = time.perf_counter() - start
            limit = deadline()
            if limit is not None and time.perf_counter() > limit:
                _kill(proc)
                return ChildOutcome(False, error=f"killed after {elapsed:.1f} s (hard timeout)", timed_out=True)
            if parent.poll(0.2):
                try:
                    kind, payload = parent.recv()
                except EOFError:
                    proc.join(5)
                    return ChildOutcome(False, error=f"solver process died (exit code {proc.exitcode})")
                if kind == "note":
                    if on_note:
                        on_note(payload)
                    continue
                proc.join(10)
                if proc.is_alive():
                    _kill(proc)
                if kind == "done":
                    return ChildOutcome(True, value=payload)
                if kind == "user":
                    return ChildOutcome(False, error=payload[0], user_error=payload)
                return ChildOutcome(False, error=payload)
            if not proc.is_alive() and not parent.poll(0):
                code = proc.exitcode
                reason = f"killed by signal {-code}" if code is not None and code < 0 else f"exit code {code}"
                return ChildOutcome(False, error=f"solver process died ({reason}; out of memory?)")
            if on_tick:
                on_tick(elapsed)
    except KeyboardInterrupt:
        _kill(proc)
        return ChildOutcome(False, error="interrupted", interrupted=True)
    finally:
        parent.close()
