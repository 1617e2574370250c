"""A progress display for tests: it keeps every ``detail`` (an algorithm's progress in words) the runner set."""

from __future__ import annotations


class DetailDisplay:
    """Called as the command line's display is, ``(elapsed, incumbent, bound)``; the runner sets ``detail``."""

    detail: str | None = None

    def __init__(self) -> None:
        self.shown: list[str] = []

    def __call__(self, elapsed: float, incumbent: float | None, bound: float | None) -> None:
        if self.detail is not None:
            self.shown.append(self.detail)
