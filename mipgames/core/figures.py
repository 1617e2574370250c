"""Drawings written like every other output: the format named by the suffix, checked before any work, the file
written through a temporary one and renamed, never through a link."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mipgames.core.errors import UsageError, shown_path
from mipgames.core.files import staged_output, writable_output

FORMATS = (".png", ".pdf", ".svg")
"""What every renderer writes (matplotlib's raster and vector formats)."""


def check_figure_path(path: str | Path, formats: tuple[str, ...] = FORMATS) -> Path:
    """The drawing's path, refused (before a solve spends its time) unless its suffix names a format drawn."""
    target = Path(path)
    if target.suffix.lower() not in formats:
        raise UsageError(
            f"{shown_path(path)}: a drawing is written as {', '.join(formats)} (named by the file's suffix)"
        )
    return writable_output(target)


class TooLargeToDraw(UsageError):
    """A drawing refused for its size: the command names the file it was asked to draw."""


def check_drawable(count: int, limit: int, what: str, unit: str) -> None:
    """Refuse at once a drawing that would take minutes and gigabytes (``count`` cells or pieces past ``limit``)."""
    if count > limit:
        raise TooLargeToDraw(f"{what} is too large to draw (at most {limit:,} {unit})")


def pyplot() -> Any:
    """matplotlib's pyplot on the file-only backend (no display is needed or opened)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_figure(fig: Any, path: str | Path, **options: Any) -> None:
    """Write ``fig`` to ``path`` in the format its suffix names, atomically; the figure is closed either way."""
    try:
        suffix = check_figure_path(path).suffix.lower()
        with staged_output(path) as tmp:
            fig.savefig(tmp, format=suffix[1:], **options)
    finally:
        pyplot().close(fig)
