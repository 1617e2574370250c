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


STRESS = "MIPGAMES_STRESS"
"""``MIPGAMES_STRESS=N`` (``make stress``): every property test draws N times its examples, afresh each run.

The suite's property tests are derandomized with budgets sized for CI's ten minutes, so each run sees the same
few hundred cases; a stress run sees new ones.  The first stress runs found six defects the fixed draws never
showed."""


def pytest_collection_modifyitems(config: object, items: list) -> None:
    import os

    factor = int(os.environ.get(STRESS, "0") or 0)
    if factor <= 1:
        return
    from hypothesis import settings

    for item in items:
        test = getattr(item, "obj", None)
        current = getattr(test, "_hypothesis_internal_use_settings", None)  # where @given reads them at call time
        if current is None or getattr(test, "_mipgames_stressed", False):
            continue  # a parametrized test is one function for many items: multiply once
        test._hypothesis_internal_use_settings = settings(
            current, max_examples=current.max_examples * factor, derandomize=False, database=None
        )
        test._mipgames_stressed = True
