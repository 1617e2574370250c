"""Solver backends behind one interface: cbc, glpk, highs (PuLP models) and cpsat (both kinds)."""

from __future__ import annotations

import importlib

from mipgames.backends.base import Backend
from mipgames.core.errors import UsageError

BACKENDS: tuple[str, ...] = ("cbc", "glpk", "highs", "cpsat")


def get_backend(name: str) -> Backend:
    if name not in BACKENDS:
        raise UsageError(f"unknown solver {name!r}; backends are {', '.join(BACKENDS)}")
    return importlib.import_module(f"mipgames.backends.{name}").BACKEND
