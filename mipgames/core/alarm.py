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


@contextlib.contextmanager
def interrupt_at(deadline: float | None) -> Iterator[None]:
    """Raise DeadlinePassed in the block at ``deadline`` (a time.monotonic() value), when it can be armed.

    Once the alarm has rung, any other exception the block raises is reported as DeadlinePassed: a ring that
    lands in library code can be swallowed there and break what it was doing.  numba compiling a kernel
    catches it in a callback from LLVM and then fails on the half-made library ("RuntimeError: no compiled
    object yet"), which had ended a SameGame solve as an error instead of out of time."""
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
    rang = False

    def ring(signum: int, frame: object) -> None:
        nonlocal rang
        rang = True
        raise DeadlinePassed

    signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, left, RING_AGAIN_S)
    try:
        yield
    except DeadlinePassed:
        raise
    except Exception as exc:
        if rang:
            raise DeadlinePassed from exc
        raise
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
