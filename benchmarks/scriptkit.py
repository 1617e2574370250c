"""What the benchmark scripts share at their command line: a bad argument or a missing benchmark set is one
line on stderr and exit 4 (the toolkit's own code for bad input or usage), never a traceback.

A script puts this folder on ``sys.path`` and runs its ``main`` through :func:`run_script`::

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/, for scriptkit
    from scriptkit import Parser, positive_float, run_script  # noqa: E402
    ...
    if __name__ == "__main__":
        sys.exit(run_script(main))

:func:`run_script` turns a :class:`mipgames.core.errors.MipgamesError` (usage, input and output errors, a missing
solver) into ``script: message`` and the error's ``exit_code``; :class:`Parser` makes argparse's own
errors exit 4 too; the ``type=`` helpers refuse what no run can use (a zero time limit, a negative count,
a method name that is a typo) at the command line.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

from mipgames.core.arguments import positive
from mipgames.core.errors import MipgamesError, UsageError, shown_path

USAGE = UsageError.exit_code
"""Exit status of a bad argument or a missing input (4, as the mipgames command)."""
ENV = "MIPGAMES_BENCHMARKS"


def script_name() -> str:
    """The running script as ``problem/script.py`` (``bench.py`` alone is ambiguous)."""
    path = Path(sys.argv[0] or "benchmark")
    return path.name if path.parent.name in ("benchmarks", "") else f"{path.parent.name}/{path.name}"


class Parser(argparse.ArgumentParser):
    """argparse whose usage errors exit 4 (argparse's own 2 would not match the toolkit's codes)."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("prog", script_name())
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        sys.exit(USAGE)


def run_script(main: Callable[[], int | None]) -> int:
    """Runs a script's ``main``; a MipgamesError becomes one line on stderr and its exit code."""
    try:
        return int(main() or 0)
    except MipgamesError as exc:
        print(f"{script_name()}: {exc}", file=sys.stderr)
        return exc.exit_code


def positive_int(text: str) -> int:
    """An argparse type: a whole number above 0."""
    try:
        value = int(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text[:30]!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a whole number above 0, got {text[:30]!r}")
    return value


positive_float = positive()
"""An argparse type: a finite number above 0 (NaN, infinities, 0 and negatives refused); 1e9 is fine."""


def positive_ints(text: str) -> list[int]:
    """An argparse type: comma-separated whole numbers above 0 (``3,4,5``)."""
    parts = [p for p in text.split(",") if p.strip()]
    if not parts:
        raise argparse.ArgumentTypeError("no number given")
    return [positive_int(p) for p in parts]


def names(valid: Iterable[str], what: str = "name") -> Callable[[str], list[str]]:
    """An argparse type: a comma-separated subset of ``valid``; an unknown name is refused with the valid ones."""
    known = list(valid)

    def parse(text: str) -> list[str]:
        chosen = [n.strip() for n in text.split(",") if n.strip()]
        if not chosen:
            raise argparse.ArgumentTypeError(f"no {what} given; choose from: " + ", ".join(known))
        unknown = [n for n in chosen if n not in known]
        if unknown:
            raise argparse.ArgumentTypeError(
                f"unknown {what} {unknown[0]!r}; choose from: " + ", ".join(repr(k) if " " in k else k for k in known)
            )
        return chosen

    parse.__name__ = what
    return parse


def require_files(paths: Iterable[Path], option: str | None = "--benchmarks DIR", given: object = None) -> None:
    """Refuses (UsageError, exit 4) before any work when a benchmark-set file is missing: names the file, the
    folder that is missing when it is one, and how to point the script at the sets: ``option`` (the script's
    argument for them, if any; ``given`` is its value when the command line gave it) or MIPGAMES_BENCHMARKS."""
    for path in paths:
        if path.is_file():
            continue
        missing = path.parent
        while not missing.parent.is_dir() and missing.parent != missing:
            missing = missing.parent
        folder = f" (no folder {shown_path(missing)})" if not missing.is_dir() else ""
        env = os.environ.get(ENV)
        if given is not None:
            label = option.split()[0] if option and option.startswith("--") else "given"
            now = f"{'now ' if label != 'given' else ''}{label} {shown_path(str(given))}"
        elif env:
            now = f"now {ENV}={shown_path(env)}"
        else:
            now = f"{ENV} is not set, so ../shared/benchmarks beside the repository is tried"
        how = f"set {ENV} to the folder holding the public benchmark sets" + (f" or give {option}" if option else "")
        raise UsageError(f"{shown_path(path)}: no such file{folder}; {how} ({now})")
