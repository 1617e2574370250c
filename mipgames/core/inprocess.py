"""CP-SAT solved in the command's own process, so that Ctrl-C and SIGTERM still end the command.

CP-SAT catches SIGINT itself (``catch_sigint_signal``) and only ends the search
as if its time were up: ``generate queens --unsolvable`` went on to its next
candidate and ran 16 minutes past a Ctrl-C, then wrote its file and exited 0.
Without that catch, the interpreter's handler cannot run while the main thread
is inside the solve.  So the solve runs in a thread and the main thread waits
in Python, where the interrupt (or the SIGTERM the CLI turns into an
exception) lands at once; the search is stopped and the exception goes on.
"""

from __future__ import annotations

import threading
from typing import Any

POLL_S = 0.1
"""How often the waiting main thread lets a pending signal's handler run."""


def solve(solver: Any, model: Any) -> Any:
    """``solver.solve(model)`` (an OR-Tools ``CpSolver`` and ``CpModel``) that a signal interrupts: returns its
    status, or stops the search and re-raises what the signal raised in the main thread.

    The wait is on an event, not ``Thread.join``: a join the signal interrupted marked the thread ended while
    its search still ran, and the interpreter's exit beside that C++ thread aborted (SIGABRT, "terminate called
    without an active exception")."""
    solver.parameters.catch_sigint_signal = False
    out: dict[str, Any] = {}
    done = threading.Event()

    def run() -> None:
        try:
            out["status"] = solver.solve(model)
        except BaseException as exc:  # handed to the caller's thread
            out["error"] = exc
        finally:
            done.set()

    threading.Thread(target=run, name="cp-sat", daemon=True).start()
    try:
        while not done.wait(POLL_S):
            pass
    except BaseException:
        _stop(solver, done)
        raise
    if "error" in out:
        raise out["error"]
    return out["status"]


def _stop(solver: Any, done: threading.Event) -> None:
    """Stop the search and wait for it to end (a poll or two), whatever further signals arrive meanwhile: the
    process must not exit beside it.  Asked again every poll, in case the first came before the search began."""
    while True:
        try:
            solver.stop_search()
            if done.wait(POLL_S):
                return
        except BaseException:
            continue
