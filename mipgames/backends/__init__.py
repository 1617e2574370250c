"""Solver backends behind one interface, registered by name: one module per solver, its name in ``BACKEND_NAMES``.

Each module (named in ``core.problem.BACKEND_NAMES``, by which ``verify`` knows a solver's proof) exports
``BACKEND`` (:class:`mipgames.backends.base.Backend`): its
capabilities, ``solve(built, kind, options, log_path, listener)``, version and
availability.  See docs/ADDING_A_BACKEND.md.
"""

from __future__ import annotations

import importlib

from mipgames.backends.base import Backend
from mipgames.core.errors import UsageError
from mipgames.core.problem import BACKEND_NAMES

REGISTRY: dict[str, str] = {name: f"mipgames.backends.{name}" for name in BACKEND_NAMES}
BACKENDS: tuple[str, ...] = tuple(REGISTRY)


def get_backend(name: str) -> Backend:
    if name not in REGISTRY:
        raise UsageError(f"unknown solver {name!r}; backends are {', '.join(BACKENDS)}")
    backend: Backend = importlib.import_module(REGISTRY[name]).BACKEND
    return backend


def backends_for(kind: str) -> list[str]:
    """Names of the backends that solve models of this kind."""
    return [name for name in BACKENDS if kind in get_backend(name).capabilities.kinds]
