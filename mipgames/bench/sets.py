"""Where the public benchmark sets are: an argument, else MIPGAMES_BENCHMARKS, else ../shared/benchmarks.

The public sets (SameGame's standard 20 boards, Heule's edge-matching
puzzles...) are data the project reads but never copies in.  Every benchmark
finds them through :func:`benchmarks_dir`, so no script names a folder of one
machine; on the command line ``public:<path>`` is a path inside that folder.
"""

from __future__ import annotations

import os
from pathlib import Path

import mipgames
from mipgames.core.errors import UsageError, shown_path

ENV = "MIPGAMES_BENCHMARKS"
PREFIX = "public:"
REPOSITORY = Path(mipgames.__file__).resolve().parent.parent
DEFAULT = REPOSITORY.parent / "shared" / "benchmarks"
"""../shared/benchmarks relative to the repository (the checkout holding the mipgames package)."""


def benchmarks_dir(given: str | Path | None = None) -> Path:
    """The public-set folder: ``given``, else $MIPGAMES_BENCHMARKS, else ../shared/benchmarks of the repository."""
    if given:
        folder, source = Path(given), "the --benchmarks argument"
    elif os.environ.get(ENV):
        folder, source = Path(os.environ[ENV]), f"${ENV}"
    else:
        folder, source = DEFAULT, "the default (../shared/benchmarks beside the repository)"
    if not folder.is_dir():
        raise UsageError(
            f"public benchmark sets: {folder} (from {source}) is not a folder; give --benchmarks DIR or set {ENV}"
        )
    return folder


def resolve(path: str, given: str | Path | None = None) -> str:
    """An instance argument with ``public:`` replaced by the public-set folder; other paths as they are."""
    if not path.startswith(PREFIX):
        return path
    rest = path[len(PREFIX) :].lstrip("/")
    folder = benchmarks_dir(given)
    target = (folder / rest).resolve()
    if not target.is_relative_to(folder.resolve()):
        raise UsageError(f"{shown_path(path)}: {PREFIX} names a path inside the public-set folder {folder}")
    return str(folder / rest)
