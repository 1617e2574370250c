"""Stop pure-Python work at the deadline: a model still being built then ends the solve at once.

Without it a build that outlived the limit ran on until the supervisor killed the
process after its grace (a 2 s limit ended near 5 s).  The alarm is only armed in
a process's main thread whose SIGALRM nobody else handles, so an application that
calls the API in-process keeps its own signals.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from collections.abc import Iterator


class DeadlinePassed(Exception):
    """Raised inside the guarded block when the deadline comes."""


RING_AGAIN_S = 0.5
"""After the deadline the alarm rings again this often until the block ends: Python drops an exception raised
while a ``__del__`` or a garbage-collector callback runs ("Exception ignored in ..."), and a ring that lands
there would otherwise let the block run on to the supervisor's kill.  Half a second leaves the clean-up of an
exception that did arrive (removing a staged file) unbroken."""


def _ring(signum: int, frame: object) -> None:
    raise DeadlinePassed


@contextlib.contextmanager
def interrupt_at(deadline: float | None) -> Iterator[None]:
    """Raise DeadlinePassed in the block at ``deadline`` (a time.monotonic() value), when it can be armed."""
    armed = (
        deadline is not None
        and threading.current_thread() is threading.main_thread()
        and signal.getsignal(signal.SIGALRM) == signal.SIG_DFL
    )
    if not armed:
        yield
        return
    assert deadline is not None
    left = deadline - time.monotonic()
    if left <= 0:
        raise DeadlinePassed
    signal.signal(signal.SIGALRM, _ring)
    signal.setitimer(signal.ITIMER_REAL, left, RING_AGAIN_S)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
