"""Session set-up shared by every test folder."""

from __future__ import annotations


def pytest_sessionstart(session: object) -> None:
    """Compile the numba kernels before any test runs: a solve's time limit counts compile time, and a test
    with a 30 s limit must not spend it compiling (numba caches them, so this is a second when they are)."""
    from mipgames import registry

    for name in registry.PROBLEMS:
        problem = registry.load(name)
        if problem.warmup is not None:
            problem.warmup()
