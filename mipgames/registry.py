"""Every problem and every extra command, in the one place the CLI, `problems`, `export` and `bench` read.

A problem is listed here by name and folder; its ``problem.py`` exports
``PROBLEM`` (the protocol of :mod:`mipgames.core.problem`), which may bring
its own subcommands (``Problem.commands``).  Commands that belong to no
problem (the Same Game 2 interpreter, benchmark campaigns) are in ``TOOLS``.
Problems load lazily: `mipgames --help` must not import every solver.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mipgames.core.errors import UsageError, shown_path
from mipgames.core.problem import Problem

PROBLEMS: dict[str, str] = {
    "edge-matching": "edge_matching",
    "samegame": "samegame",
    "merge-game": "merge_game",
    "queens": "queens",
}


TOOLS: tuple[str, ...] = ("mipgames.samegame2.commands", "mipgames.bench.commands")
"""Modules with ``register(subparsers)`` for commands outside any problem."""

_EXTRA: dict[str, Problem] = {}


def register(problem: Problem) -> None:
    """Adds a problem that does not live in the package (tests use this for toy problems)."""
    _EXTRA[problem.name] = problem


def load(name: str) -> Problem:
    """The Problem object of a problem name (or its folder name)."""
    if not isinstance(name, str):
        raise UsageError(f"a problem is named by a string ({', '.join(PROBLEMS)}), not {type(name).__name__}")
    if name in _EXTRA:
        return _EXTRA[name]
    spelt = name.strip().lower()  # "SameGame", "Edge-Matching": one problem, however it is capitalised
    folder = PROBLEMS.get(spelt) or (spelt if spelt in PROBLEMS.values() else None)
    if folder is None:
        raise UsageError(f"unknown problem {name!r}; problems are {', '.join(PROBLEMS)}")
    try:
        module = importlib.import_module(f"mipgames.{folder}.problem")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith(f"mipgames.{folder}"):
            raise UsageError(f"problem {name!r} is not available in this build") from None
        raise
    problem: Problem = module.PROBLEM
    return problem


def available() -> list[Problem]:
    """Problems that load; one whose module is broken is reported on stderr and left out, not fatal to the CLI."""
    found = []
    for name in PROBLEMS:
        try:
            found.append(load(name))
        except UsageError:
            continue
        except ImportError as exc:
            print(f"mipgames: warning: problem {name} is unavailable: {exc}", file=sys.stderr)
    return found + list(_EXTRA.values())


def infer(path: str | Path) -> str | None:
    """The problem whose folder name appears in the instance's path (instances/edge_matching/x.txt -> edge-matching)."""
    by_folder = {folder: name for name, folder in PROBLEMS.items()}
    for part in reversed(Path(path).resolve().parts[:-1]):
        if part in by_folder:
            return by_folder[part]
    return None


def readable_as(path: str | Path) -> list[str]:
    """The problems whose reader takes the file: a hint for a path that names no problem folder, never a choice
    made for the user (a board of digits reads as SameGame and as a merge-game map of stones alike)."""
    found = []
    for name in PROBLEMS:
        try:
            load(name).read(path)
        except Exception:  # any refusal, however a reader words it, means "not this problem"
            continue
        found.append(name)
    return found


def unknown_problem(path: str | Path, name_it: Callable[[str], str]) -> UsageError:
    """The error for a path that names no problem folder, naming the problems whose reader takes the file
    (``name_it(problem)`` spells the way to name one: ``--problem queens``); a path to nothing says so, as the
    readers do (every reader refused it, and the message sent the user after a problem's name)."""
    if str(path) != "-" and not os.path.exists(path):
        return UsageError(f"{shown_path(path)}: no such instance")
    fits = readable_as(path)
    if len(fits) == 1:
        article = "an" if fits[0][:1] in "aeiou" else "a"
        how = f"it reads as {article} {fits[0]} instance: {name_it(fits[0])}"
    elif fits:
        how = f"it reads as {' or '.join(fits)}: {name_it(fits[0])}, say"
    else:
        how = f"no problem's reader takes it ({', '.join(PROBLEMS)}): {name_it('NAME')} to see why"
    return UsageError(f"{shown_path(path)}: cannot tell the problem from the path; {how}")


def command_registrars() -> list[Callable[[Any], None]]:
    """``register(subparsers)`` of every tool and of every problem that brings commands."""
    found = [importlib.import_module(name).register for name in TOOLS]
    return found + [p.commands for p in available() if p.commands is not None]
