"""Forked workers that report through one queue, and never outlive the call that started them.

The backtracker splits one search tree between workers and the portfolio
runs different methods side by side; both need the same things: fork (the
compiled kernel and the instance come along), die with the parent, send
messages while working, and be killed and reaped on any return.
"""

from __future__ import annotations

import multiprocessing
import os
import queue as queue_mod
import time
from typing import Any, Callable, Iterator

Message = tuple[int, str, Any]
"""(worker index, kind, payload)."""


class Outbox:
    """What a worker writes to: ``send(kind, payload)``."""

    def __init__(self, q: Any, index: int):
        self.q = q
        self.index = index

    def send(self, kind: str, payload: Any = None) -> None:
        self.q.put((self.index, kind, payload))


def _main(target: Callable[..., None], q: Any, index: int, args: tuple) -> None:
    from mipgames.run.processes import die_with_parent

    die_with_parent()
    out = Outbox(q, index)
    try:
        target(out, *args)
    except BaseException as exc:  # noqa: BLE001 - reported to the parent, which decides
        out.send("error", f"{type(exc).__name__}: {exc}")
    finally:
        out.send("exit")
        q.close()
        q.join_thread()


class Workers:
    """A set of forked workers; iterate ``messages(deadline)``, then ``stop()`` (also on exceptions: use ``with``)."""

    def __init__(self) -> None:
        self.ctx = multiprocessing.get_context("fork")
        self.q = self.ctx.Queue()
        self.procs: list[Any] = []
        self.running: set[int] = set()

    def start(self, target: Callable[..., None], *args: Any) -> int:
        index = len(self.procs)
        p = self.ctx.Process(target=_main, args=(target, self.q, index, args), daemon=True)
        p.start()
        self.procs.append(p)
        self.running.add(index)
        return index

    def messages(self, deadline: float | None, poll: float = 0.2) -> Iterator[Message]:
        """Messages until every worker has exited or the deadline passes (monotonic clock)."""
        while self.running:
            wait = poll if deadline is None else min(poll, deadline - time.monotonic())
            if wait <= 0:
                return
            try:
                index, kind, payload = self.q.get(timeout=wait)
            except queue_mod.Empty:
                if not any(p.is_alive() for i, p in enumerate(self.procs) if i in self.running):
                    self._drain_exits()
                    return
                continue
            if kind == "exit":
                self.running.discard(index)
                continue
            yield index, kind, payload

    def _drain_exits(self) -> None:
        try:
            while True:
                index, kind, _ = self.q.get_nowait()
                if kind == "exit":
                    self.running.discard(index)
        except queue_mod.Empty:
            self.running.clear()

    def stop(self) -> None:
        from mipgames.run.processes import kill_tree

        for p in self.procs:
            if p.is_alive() and p.pid is not None and p.pid != os.getpid():
                kill_tree(p.pid)
        for p in self.procs:
            p.join(timeout=1.0)
        self.running.clear()
        self.q.close()
        self.q.cancel_join_thread()

    def __enter__(self) -> "Workers":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()
