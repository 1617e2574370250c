"""What every reader's fuzz test shares: the hypothesis settings, the mutations of a bundled file, a guard
against hangs and the hostile things found where an output should go."""

from __future__ import annotations

import contextlib
import os
import random
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings

FAST = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

INSERTS = ("[", "]", "{", ",", ":", '"', "\n", "1e999", "NaN", "0x10", "\0", "  x ")
"""Text dropped at a random place: JSON syntax, non-numbers, a NUL, a stray token."""


def mutate(text: str, rng: random.Random, inserts: tuple[str, ...] = INSERTS) -> str:
    """One random edit of the kinds hostile files show: truncated, a line doubled or dropped, a number made
    huge, negative or non-ASCII, a character inserted, or deep nesting."""
    lines = text.splitlines(keepends=True) or [""]
    i = rng.randrange(len(lines))
    kind = rng.randrange(8)
    if kind == 0:
        return text[: rng.randrange(len(text) + 1)]
    if kind == 1:
        return "".join(lines[:i] + [lines[i]] + lines[i:])
    if kind == 2:
        return "".join(lines[:i] + lines[i + 1 :])
    if kind == 3:
        return text.replace("1", rng.choice(["9" * 30, str(1 << 62), "1" * 5000, "99"]), 1)
    if kind == 4:
        return text.replace("1", "-1", 1)
    if kind == 5:
        return text.replace(rng.choice("0a1"), rng.choice(["٣", "é"]), 1)  # int() takes some non-ASCII digits
    if kind == 6:
        pos = rng.randrange(len(text) + 1)
        return text[:pos] + rng.choice(inserts) + text[pos:]
    return "[" * 5000 + text


@contextlib.contextmanager
def hang_guard(seconds: float) -> Iterator[None]:
    """Fail (instead of blocking the suite) when a case hangs: an endless loop, a FIFO opened blocking, a
    quadratic int() (SIGALRM, main thread)."""

    def expire(signum: int, frame: object) -> None:
        raise AssertionError(f"case still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


BLOCKERS = ("folder", "symlink", "dangling symlink")
"""What can stand where an output goes and must not be written through."""


def block(path: Path, blocker: str) -> Path | None:
    """Put a ``BLOCKERS`` entry at ``path``; returns the file a live symlink points to (it must stay as it is)."""
    if blocker == "folder":
        path.mkdir()
        return None
    target = path.parent / "elsewhere"
    if blocker == "symlink":
        target.write_text("keep\n")
    path.symlink_to(target)
    return target if blocker == "symlink" else None


def listing(folder: Path) -> list[str]:
    """The names in a folder, sorted: what a refused write must leave as it found it (temporary files too)."""
    return sorted(os.listdir(folder))


def refused_at_parsing(capsys: Any, argv: list[str], out: Path) -> None:
    """A command given a value its reader refuses: exit 4 from the argument parser, nothing written."""
    from mipgames.cli import main

    assert main([*argv, "-o", str(out)]) == 4
    assert not out.exists()
    err = capsys.readouterr().err
    assert "error: argument" in err and "Traceback" not in err


def companion_name_refused(capsys: Any, argv: list[str], output: Path) -> None:
    """A generator asked to write its instance under the name of the companion file written beside it (a planted
    game, a reduction's graph): one message, exit 4, nothing written."""
    from mipgames.cli import main

    assert main([*argv, "-o", str(output)]) == 4
    assert listing(output.parent) == []
    err = capsys.readouterr().err
    assert "give it another extension" in err and err.count("\n") == 1 and "Traceback" not in err


def companion_of_another_kept(capsys: Any, with_companion: list[str], without: list[str], folder: Path) -> None:
    """Companions are named by the instance's stem, so ``X.dat`` beside ``X.txt`` would take over (or, writing
    none, delete) ``X.txt``'s companion: the first is refused, the second leaves it as it was."""
    from mipgames.cli import main

    assert main([*with_companion, "-o", str(folder / "x.txt")]) == 0
    before = {name: (folder / name).read_bytes() for name in listing(folder)}
    assert len(before) == 2
    assert main([*with_companion, "-o", str(folder / "x.dat")]) == 4
    err = capsys.readouterr().err
    assert "named for x.txt as well" in err and err.count("\n") == 1
    assert {name: (folder / name).read_bytes() for name in listing(folder)} == before
    assert main([*without, "-o", str(folder / "x.json")]) == 0
    assert {name: (folder / name).read_bytes() for name in listing(folder) if name != "x.json"} == before
    assert "removed" not in capsys.readouterr().err


def blocked_companion_refused(capsys: Any, argv: list[str], output: Path, companion: Path, blocker: str) -> None:
    """A ``BLOCKERS`` entry where the companion goes: refused before the instance is written (no file, no
    temporary file), a linked file left as it was, one message."""
    from mipgames.cli import main

    kept = block(companion, blocker)
    before = listing(output.parent)
    assert main([*argv, "-o", str(output)]) == 4
    assert listing(output.parent) == before  # no instance, no temporary file
    assert kept is None or kept.read_text() == "keep\n"
    assert capsys.readouterr().err.count("\n") == 1
