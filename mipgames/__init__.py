"""mipgames: combinatorial puzzles as MIP and CP-SAT models, solved and certified by exact simulators.

The Python API (:mod:`mipgames.api`) is available at the top: ``mipgames.solve``,
``mipgames.verify``, ``mipgames.render``, ``mipgames.generate``, ``mipgames.load`` and ``mipgames.build``; it is
imported on first use.
"""

import warnings as _warnings

# PuLP is pinned below 4.0 on purpose (4.x drops the bundled CBC); its notices about 4.0 are noise here.
_warnings.filterwarnings("ignore", message=r".*PuLP 4\.0.*", category=DeprecationWarning)
_warnings.filterwarnings("ignore", message=r"PULP_CBC_CMD is deprecated.*", category=DeprecationWarning)

__all__ = ["__version__", "build", "generate", "load", "render", "solve", "verify"]


def __getattr__(name: str) -> object:
    """The API and the version are loaded on first use: the console script's first step stays light (a Ctrl-C
    while Python loaded them printed a traceback)."""
    if name == "__version__":
        from mipgames.core.version import VERSION

        return VERSION
    if name in __all__[1:]:
        from mipgames import api

        return getattr(api, name)
    raise AttributeError(f"module 'mipgames' has no attribute {name!r}")
