"""One solve in a supervised child process: a deadline, a memory limit, and no way to escape.

The child is forked, asks the kernel to kill it when the parent dies
(``die_with_parent``), leads its own process group, sends its output (and
that of any solver binary it starts) to a log file, keeps its temporary files
in the run's own directory, and reports over a pipe: notes while it works
(phase, progress, incumbents), then one final message.

The parent polls that pipe and enforces the limits: past ``deadline + GRACE_S``
or above the memory limit it kills the child's whole process tree and returns
what it knows (the last incumbent the child reported, if any).  Any exception
in the parent while it waits — Ctrl-C, or ``Terminated`` raised by the
SIGTERM/SIGHUP handlers of :func:`terminate_on_signals` — also ends the tree
before it propagates.
"""

from __future__ import annotations

import io
import multiprocessing as mp
import os
import resource
import signal
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mipgames.core.errors import MipgamesError, UsageError
from mipgames.run.processes import die_with_parent, kill_tree, tree_memory
from mipgames.run.scratch import TEMP_VARIABLES

GRACE_S = 2.5
"""How long past its deadline a child may take to hand back its answer before it is killed."""
TICK_S = 0.2
RSS_EVERY_S = 0.2
"""How often the tree's resident sizes are read (cheap, and never less than the memory in use)."""
PSS_EVERY_S = 1.0
"""How often the tree's proportional set sizes, the memory it really uses, are read for its peak (2-3 ms a large
process); they are read at once, and decide, when the resident sizes pass the memory limit."""


RESEND_S = 0.01
"""How soon a signal whose exception a finalizer swallowed is sent again."""


class Terminated(BaseException):
    """SIGTERM or SIGHUP reached the command: unwind, ending every solver process on the way."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


ENDING_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def ignore_ending_signals() -> None:
    """The command is ending: a second signal (a supervisor resending SIGTERM, Ctrl-C twice) must not cut short
    the clean-up of the first, which it did, leaving the run's scratch folder behind half removed."""
    for sig in ENDING_SIGNALS:
        signal.signal(sig, signal.SIG_IGN)


def _raise_terminated(signum: int, frame: Any) -> None:
    ignore_ending_signals()
    raise Terminated(signum)


def _raise_interrupt(signum: int, frame: Any) -> None:
    ignore_ending_signals()
    raise KeyboardInterrupt


def _resend_swallowed(unraisable: Any) -> None:
    """``sys.unraisablehook``: an ending signal's exception raised inside a finalizer or a weakref callback is
    printed and dropped by Python ("Exception ignored in ..."), and the command went on: a Ctrl-C during a
    drawing (matplotlib's transforms have such callbacks) was lost in 2 tries of 6, and the drawing written 25 s
    later with exit 0.  The signal is sent again a moment later, from a thread (sent from here, it would land in
    this hook, whose exceptions are dropped too), to land in the command's own code."""
    exc = unraisable.exc_value
    if isinstance(exc, Terminated):
        sig, handler = exc.signum, _raise_terminated
    elif isinstance(exc, KeyboardInterrupt):
        sig, handler = signal.SIGINT, _raise_interrupt
    else:
        sys.__unraisablehook__(unraisable)
        return
    try:
        signal.signal(sig, handler)  # one-shot again, as the first delivery left it ignored
    except ValueError:  # not the main thread, where signal handlers run: nothing was lost there
        sys.__unraisablehook__(unraisable)
        return
    resend = threading.Timer(RESEND_S, os.kill, (os.getpid(), sig))
    resend.daemon = True  # a command that ends first has nothing left to interrupt
    resend.start()


def terminate_on_signals() -> None:
    """Make SIGTERM and SIGHUP unwind the command like Ctrl-C does, and any of them only once (only from the
    main thread); one swallowed by a finalizer is sent again (``_resend_swallowed``)."""
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _raise_terminated)
    signal.signal(signal.SIGINT, _raise_interrupt)
    sys.unraisablehook = _resend_swallowed


@dataclass
class Limits:
    deadline: float | None = None
    """time.monotonic() value by which the child must have answered (None: no limit)."""
    memory_bytes: int | None = None
    """Memory in use by the child's whole process tree, pages its processes share counted once (None: no
    limit)."""


@dataclass
class ChildEnd:
    """How the child ended."""

    kind: str
    """done, user-error, crash, deadline, memory or died."""
    value: Any = None
    message: str = ""
    notes: list[Any] = field(default_factory=list)
    peak_rss: int = 0

    def user_error(self) -> MipgamesError:
        """The child's user error (kind ``user-error``), rebuilt here with its message and exit code."""
        message, code = self.value
        error = UsageError(message) if code == UsageError.exit_code else MipgamesError(message)
        error.exit_code = code
        return error


def _context() -> Any:
    return mp.get_context("fork")


def _limit_memory(memory_bytes: int | None) -> None:
    """A hard backstop under the parent's polling: no core dumps, and no allocation far beyond the limit."""
    try:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    except (ValueError, OSError):
        pass
    if memory_bytes is None or not hasattr(resource, "RLIMIT_DATA"):
        return
    cap = int(max(1.5 * memory_bytes, memory_bytes + (1 << 30)))
    try:
        _, hard = resource.getrlimit(resource.RLIMIT_DATA)
        if hard != resource.RLIM_INFINITY:
            cap = min(cap, hard)
        resource.setrlimit(resource.RLIMIT_DATA, (cap, hard))
    except (ValueError, OSError):
        pass


class _LogStream(io.TextIOWrapper):
    """The child's standard output or error, into its log, line by line; a line the log cannot take (a full
    disk, a file size limit) is dropped.  A CP-SAT log line that failed to print ended the solve, and the
    traceback and final flush failed in turn, so the child died with no word ("exit code 1")."""

    def __init__(self, fd: int):
        super().__init__(
            io.BufferedWriter(io.FileIO(fd, "w", closefd=False)),
            encoding="utf-8",
            errors="backslashreplace",
            line_buffering=True,
        )

    def write(self, text: str) -> int:
        try:
            return super().write(text)
        except OSError:
            return len(text)

    def flush(self) -> None:
        try:
            super().flush()
        except OSError:
            pass


def _child_main(
    fn: Callable[..., Any], args: tuple[Any, ...], conn: Any, log_path: str, run_dir: str, memory_bytes: int | None
) -> None:
    die_with_parent()
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, signal.SIG_DFL)
    try:
        os.setpgrp()
    except OSError:
        pass
    _limit_memory(memory_bytes)
    for name in TEMP_VARIABLES:
        os.environ[name] = run_dir
    tempfile.tempdir = run_dir
    fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)
    sys.stdout = _LogStream(1)
    sys.stderr = _LogStream(2)
    try:
        value = fn(*args, notify=lambda msg: conn.send(("note", msg)))
        conn.send(("done", value))
    except MipgamesError as exc:
        conn.send(("user", (str(exc), exc.exit_code)))
    except MemoryError:
        conn.send(("memory", "the solve ran out of memory (MemoryError)"))
    except BaseException as exc:  # the child must always answer
        traceback.print_exc()
        conn.send(("crash", f"{type(exc).__name__}: {exc}"))
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        conn.close()
        os._exit(0)


def _end_tree(proc: Any) -> None:
    """Kill the child, everything it started, and reap it."""
    kill_tree(proc.pid)
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        pass
    proc.join(2)


def supervise(
    fn: Callable[..., Any],
    args: tuple[Any, ...],
    log_path: Path,
    run_dir: Path,
    limits: Limits,
    on_note: Callable[[Any], None] | None = None,
    on_tick: Callable[[], None] | None = None,
    on_end: Callable[[int], None] | None = None,
) -> ChildEnd:
    """Run ``fn(*args, notify=...)`` in a supervised child (see the module docstring); ``on_end(pid)`` runs once
    the child is gone, however it ended (to remove what a killed child left half-written)."""
    ctx = _context()
    receiver, sender = ctx.Pipe(duplex=False)
    proc = ctx.Process(
        target=_child_main, args=(fn, args, sender, str(log_path), str(run_dir), limits.memory_bytes), daemon=False
    )
    notes: list[Any] = []
    peak = 0
    last_rss = 0.0
    last_pss = -PSS_EVERY_S
    proc.start()
    sender.close()
    try:
        while True:
            now = time.monotonic()
            if limits.deadline is not None and now > limits.deadline + GRACE_S:
                _end_tree(proc)
                return ChildEnd("deadline", message="stopped at the deadline", notes=notes, peak_rss=peak)
            if limits.memory_bytes is not None and now - last_rss >= RSS_EVERY_S:
                last_rss = now
                if now - last_pss >= PSS_EVERY_S or tree_memory(proc.pid) > limits.memory_bytes:
                    last_pss = now
                    used = tree_memory(proc.pid, proportional=True)
                    peak = max(peak, used)
                    if used > limits.memory_bytes:
                        _end_tree(proc)
                        return ChildEnd(
                            "memory",
                            message=f"memory limit reached ({used / 2**20:,.0f} MiB in use)",
                            notes=notes,
                            peak_rss=peak,
                        )
            if receiver.poll(TICK_S):
                try:
                    kind, payload = receiver.recv()
                except (EOFError, OSError):
                    proc.join(5)
                    return _died(proc, notes, peak, limits)
                if kind == "note":
                    notes.append(payload)
                    if on_note:
                        on_note(payload)
                    continue
                proc.join(5)
                if proc.is_alive():
                    _end_tree(proc)
                kill_tree(proc.pid, include_root=False)
                if kind == "done":
                    return ChildEnd("done", value=payload, notes=notes, peak_rss=peak)
                if kind == "user":
                    return ChildEnd("user-error", value=payload, message=payload[0], notes=notes, peak_rss=peak)
                if kind == "memory":
                    return ChildEnd("memory", message=payload, notes=notes, peak_rss=peak)
                return ChildEnd("crash", message=payload, notes=notes, peak_rss=peak)
            if not proc.is_alive() and not receiver.poll(0):
                return _died(proc, notes, peak, limits)
            if on_tick:
                on_tick()
    except BaseException:
        _end_tree(proc)
        raise
    finally:
        receiver.close()
        if on_end is not None and proc.pid is not None:
            on_end(proc.pid)


def _died(proc: Any, notes: list[Any], peak: int, limits: Limits) -> ChildEnd:
    code = proc.exitcode
    if code is not None and code < 0:
        try:
            reason = f"killed by {signal.Signals(-code).name}"
        except ValueError:
            reason = f"killed by signal {-code}"
    else:
        reason = f"exit code {code}"
    if limits.memory_bytes is not None and peak > 0.8 * limits.memory_bytes:
        return ChildEnd(
            "memory", message=f"the solver process died ({reason}) near the memory limit", notes=notes, peak_rss=peak
        )
    return ChildEnd("died", message=f"the solver process died ({reason})", notes=notes, peak_rss=peak)
