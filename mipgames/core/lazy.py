"""The one way to defer a heavy import: name the function, import its module on the first call.

Problem descriptions (``problem.py``) must load without PuLP, OR-Tools,
numba or matplotlib, so that ``mipgames --help`` and the simulators start
fast; they name builders, decoders, algorithms and renderers as
``lazy("mipgames.queens.mip:build_time_indexed")``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def lazy(target: str) -> Callable[..., Any]:
    """A function that imports ``module:attribute`` when first called and then calls it."""
    module, _, name = target.partition(":")
    if not module or not name:
        raise ValueError(f"lazy target must be 'module:attribute', got {target!r}")
    cache: list[Callable[..., Any]] = []

    def call(*args: Any, **kwargs: Any) -> Any:
        if not cache:
            cache.append(getattr(importlib.import_module(module), name))
        return cache[0](*args, **kwargs)

    call.__name__ = name
    call.__qualname__ = target
    call.__doc__ = f"{target}, imported on first use."
    return call
