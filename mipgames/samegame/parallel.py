"""Searches on several cores: one forked process per worker, incumbents streamed back.

Why processes: numba's compiled searches hold the GIL-free inner loops but
the drivers are Python; independent processes (independent restarts or
different settings, each seeded) use every core without sharing state.  A
worker is a function ``task(send)`` that runs its search and calls
``send(value, cells, note)`` whenever its best game improves; the parent
keeps the best game of all (ties go to the lower worker, so results are
deterministic given the seeds and node budgets) and reports it at once.
A task that *proves* its game optimal returns ``{"proved": True, ...}``:
the run then ends at once, the other workers are stopped.

Every worker calls ``die_with_parent()`` first, so a killed command takes
its workers with it; the parent ends any worker still running one grace
period after the deadline and reaps them all before returning.  With one
worker the task runs in the calling process.
"""

from __future__ import annotations

import os
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

from mipgames.core.rate import every

Send = Callable[[int, list[int], str], None]
Task = Callable[[Send], Any]
Work = Callable[[dict[str, int]], None]
"""``on_work``: the work done so far by all workers together, by unit ("playouts", "nodes")."""

GRACE_S = 1.5
"""How long after the deadline a worker may take to send its last game before it is killed."""
WORK_EVERY_S = 0.25
"""A worker tells its work count at most this often (the progress line's rate needs no more)."""


def tally(send: Send, count: int, unit: str) -> None:
    """Tell the run how much work this worker has done so far (``count`` of ``unit``, cumulative), for the
    progress line's rate; a plain ``send`` (a test's, a caller's) has no such channel and is not told."""
    work = getattr(send, "work", None)
    if work is not None:
        work(int(count), unit)


class _Sender:
    """A worker's ``send``: games at once, work counts at most every ``WORK_EVERY_S``."""

    def __init__(self, game: Callable[[int, list[int], str], None], work: Callable[[int, str], None]):
        self._game = game
        self.work = every(WORK_EVERY_S, work)

    def __call__(self, value: int, cells: list[int], note: str) -> None:
        self._game(int(value), [int(c) for c in cells], note)


def _work_totals(counts: dict[tuple[int, str], int]) -> dict[str, int]:
    totals: dict[str, int] = {}
    for (_, unit), count in counts.items():
        totals[unit] = totals.get(unit, 0) + count
    return totals


@dataclass
class Found:
    """The best game found: its value (maximised), clicks as kernel cells, which worker and how."""

    value: int
    cells: list[int]
    worker: int
    note: str


@dataclass
class Outcome:
    best: Found | None
    errors: list[str] = field(default_factory=list)
    stats: list[Any] = field(default_factory=list)
    """Whatever each finished task returned (node counts, bounds...), by worker; None if it did not finish."""

    @property
    def proved(self) -> bool:
        return any(isinstance(s, dict) and s.get("proved") for s in self.stats)


def _better(found: Found, best: Found | None) -> bool:
    return best is None or found.value > best.value or (found.value == best.value and found.worker < best.worker)


def run(
    tasks: Sequence[Task],
    deadline: float | None,
    on_improve: Callable[[Found], None] | None = None,
    meanwhile: Callable[[], None] | None = None,
    on_work: Work | None = None,
) -> Outcome:
    """Run the tasks (in parallel when there are several) and return the best game any of them found.

    ``meanwhile`` is called once in this process while forked workers search
    (before the task when there is only one), for work the caller needs
    afterwards, such as loading compiled code.  ``on_work`` hears the work
    done so far whenever a worker tells it (``tally``).
    """
    if len(tasks) == 1:
        if meanwhile is not None:
            meanwhile()
        return _inline(tasks[0], on_improve, on_work)
    return _forked(tasks, deadline, on_improve, meanwhile, on_work)


def _inline(task: Task, on_improve: Callable[[Found], None] | None, on_work: Work | None = None) -> Outcome:
    out = Outcome(None, stats=[None])

    def game(value: int, cells: list[int], note: str) -> None:
        found = Found(value, cells, 0, note)
        if _better(found, out.best):
            out.best = found
            if on_improve is not None:
                on_improve(found)

    counts: dict[tuple[int, str], int] = {}

    def work(count: int, unit: str) -> None:
        counts[(0, unit)] = count
        if on_work is not None:
            on_work(_work_totals(counts))

    out.stats[0] = task(_Sender(game, work))
    return out


def _child(task: Task, conn: Any) -> None:
    """The forked worker: runs its task, streams its games, and never returns into the parent's code."""
    from mipgames.run.processes import die_with_parent

    code = 0
    try:
        die_with_parent()
        send = _Sender(
            lambda value, cells, note: conn.send(("game", value, cells, note)),
            lambda count, unit: conn.send(("work", count, unit)),
        )
        result = task(send)
        conn.send(("done", result))
    except BaseException:  # reported to the parent, which decides
        code = 1
        try:
            conn.send(("error", traceback.format_exc(limit=5)))
        except BaseException:
            pass
    finally:
        os._exit(code)


def _forked(
    tasks: Sequence[Task],
    deadline: float | None,
    on_improve: Callable[[Found], None] | None,
    meanwhile: Callable[[], None] | None = None,
    on_work: Work | None = None,
) -> Outcome:
    """One ``os.fork`` per task (multiprocessing refuses children in daemonic processes, which the runner's
    solver process may be), with a pipe back; every child is reaped before returning."""
    from mipgames.run.processes import kill_tree

    out = Outcome(None, stats=[None] * len(tasks))
    work: dict[tuple[int, str], int] = {}
    pids: list[int] = []
    receivers: list[Connection] = []
    conns: dict[Connection, int] = {}
    try:
        for k, task in enumerate(tasks):
            read_fd, write_fd = os.pipe()
            pid = os.fork()
            if pid == 0:  # pragma: no cover - runs in the child, which exits inside _child
                os.close(read_fd)
                _child(task, Connection(write_fd, readable=False))
            os.close(write_fd)
            pids.append(pid)
            receive = Connection(read_fd, writable=False)
            receivers.append(receive)
            conns[receive] = k
        if meanwhile is not None:
            meanwhile()
        while conns:
            timeout = None if deadline is None else deadline + GRACE_S - time.monotonic()
            if timeout is not None and timeout <= 0:
                break
            for conn in wait(list(conns), timeout):
                if conn not in conns:
                    continue  # the run ended on a proof while this one was ready
                k = conns[conn]
                try:
                    message = conn.recv()
                except (EOFError, OSError):
                    del conns[conn]
                    continue
                if message[0] == "game":
                    found = Found(message[1], message[2], k, message[3])
                    if _better(found, out.best):
                        out.best = found
                        if on_improve is not None:
                            on_improve(found)
                elif message[0] == "work":
                    work[(k, message[2])] = message[1]
                    if on_work is not None:
                        on_work(_work_totals(work))
                elif message[0] == "done":
                    out.stats[k] = message[1]
                    del conns[conn]
                    if out.proved:
                        conns.clear()
                else:
                    out.errors.append(f"worker {k}: {message[1]}")
                    del conns[conn]
    finally:
        for pid in pids:
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                continue
            if done == 0:
                kill_tree(pid)
                try:
                    os.waitpid(pid, 0)
                except ChildProcessError:
                    pass
        for conn in receivers:
            conn.close()
    return out
