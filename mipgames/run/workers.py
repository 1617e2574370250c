"""Forked workers that report through pipes, and never outlive the call that started them.

Edge matching's backtracker splits one search tree between workers and its
portfolio runs different methods side by side; the queens level search races
seeded restart streams.  All need the same things: fork (the compiled kernel
and the instance come along), die with the parent, send messages while
working, and be killed and reaped on any return.

Plain ``os.fork`` and pipes rather than ``multiprocessing``: the algorithm
may itself run in a daemonic multiprocessing child (which may not start
children of its own), and a forked worker must leave through ``os._exit``
so that no inherited exit handler runs twice.
"""

from __future__ import annotations

import os
import pickle
import select
import struct
import time
from collections.abc import Callable, Iterator
from typing import Any, Self

Message = tuple[int, str, Any]
"""(worker index, kind, payload)."""
_HEAD = struct.Struct("!I")


class Outbox:
    """What a worker writes to: ``send(kind, payload)``."""

    def __init__(self, fd: int, index: int):
        self.fd = fd
        self.index = index

    def send(self, kind: str, payload: Any = None) -> None:
        data = pickle.dumps((self.index, kind, payload), protocol=pickle.HIGHEST_PROTOCOL)
        view = memoryview(_HEAD.pack(len(data)) + data)
        while view:
            written = os.write(self.fd, view)
            view = view[written:]


class Workers:
    """A set of forked workers; iterate ``messages(deadline)``; ``stop()`` kills and reaps them (use ``with``)."""

    def __init__(self) -> None:
        self.pids: list[int] = []
        self.fds: dict[int, int] = {}
        """read end -> worker index, for workers still running"""
        self.buffers: dict[int, bytes] = {}

    @property
    def running(self) -> bool:
        return bool(self.fds)

    def start(self, target: Callable[..., None], *args: Any) -> int:
        index = len(self.pids)
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:  # the worker
            code = 0
            try:
                os.close(read_fd)
                for fd in self.fds:
                    os.close(fd)
                from mipgames.run.processes import die_with_parent

                die_with_parent()
                out = Outbox(write_fd, index)
                try:
                    target(out, *args)
                except BaseException as exc:
                    out.send("error", f"{type(exc).__name__}: {exc}")
                out.send("exit")
            except BaseException:
                code = 1
            finally:
                os._exit(code)
        os.close(write_fd)
        self.pids.append(pid)
        self.fds[read_fd] = index
        self.buffers[read_fd] = b""
        return index

    def messages(self, deadline: float | None, poll: float = 0.2) -> Iterator[Message]:
        """Messages until every worker has finished or the deadline passes (monotonic clock)."""
        while self.fds:
            wait = poll if deadline is None else min(poll, deadline - time.monotonic())
            if wait <= 0:
                return
            ready, _, _ = select.select(list(self.fds), [], [], wait)
            for fd in ready:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    self._close(fd)
                    continue
                self.buffers[fd] += chunk
                for message in self._frames(fd):
                    if message[1] == "exit":
                        continue
                    yield message

    def _frames(self, fd: int) -> list[Message]:
        out = []
        buf = self.buffers[fd]
        while len(buf) >= _HEAD.size:
            (size,) = _HEAD.unpack_from(buf)
            if len(buf) < _HEAD.size + size:
                break
            out.append(pickle.loads(buf[_HEAD.size : _HEAD.size + size]))
            buf = buf[_HEAD.size + size :]
        self.buffers[fd] = buf
        return out

    def _close(self, fd: int) -> None:
        os.close(fd)
        del self.fds[fd]
        del self.buffers[fd]

    def stop(self) -> None:
        from mipgames.run.processes import kill_tree

        for fd in list(self.fds):
            self._close(fd)
        for pid in self.pids:
            kill_tree(pid)
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
        self.pids.clear()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
