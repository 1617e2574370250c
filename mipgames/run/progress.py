"""Live progress of a long solve: incumbent, bound and elapsed time on standard error."""

from __future__ import annotations

import os
import sys
import time
from typing import Any

from mipgames.core.status import shown


class SolveProgress:
    """Silent for the first seconds; then a rich live line on a terminal, plain lines every 10 s elsewhere."""

    def __init__(self, label: str, quiet: bool = False, after: float = 2.0):
        self.label, self.quiet, self.after = label, quiet, after
        self.live: Any = None
        self.last_plain = 0.0
        # a dumb terminal (TERM=dumb: an editor's shell) draws no live line, so it gets the plain ones
        self.tty = sys.stderr.isatty() and os.environ.get("TERM", "") != "dumb"
        self.detail: str | None = None
        """The algorithm's progress in words (a count so far), set by the runner."""

    def _text(self, elapsed: float, incumbent: float | None, bound: float | None) -> str:
        inc = "—" if incumbent is None else shown(incumbent)  # in full, as the summary prints it: 4420784,
        bnd = "—" if bound is None else shown(bound)  # not 4.42078e+06
        more = f"   {self.detail}" if self.detail else ""
        return f"{self.label}  {elapsed:7.1f} s   incumbent {inc}   bound {bnd}{more}"

    def __call__(self, elapsed: float, incumbent: float | None, bound: float | None) -> None:
        if self.quiet or elapsed < self.after:
            return
        text = self._text(elapsed, incumbent, bound)
        if self.tty:
            if self.live is None:
                from rich.console import Console
                from rich.live import Live
                from rich.spinner import Spinner

                self.spinner = Spinner("dots", text)
                self.live = Live(self.spinner, console=Console(stderr=True), transient=True, refresh_per_second=4)
                self.live.start()
            self.spinner.update(text=text)
        elif time.monotonic() - self.last_plain >= 10.0:
            self.last_plain = time.monotonic()
            print(text, file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.live is not None:
            self.live.stop()
            self.live = None
