"""mipgames: combinatorial puzzles as MIP and CP-SAT models, solved and certified by exact simulators."""

import warnings as _warnings

from mipgames.core.version import VERSION as __version__

# PuLP is pinned below 4.0 on purpose (4.x drops the bundled CBC); its notices about 4.0 are noise here.
_warnings.filterwarnings("ignore", message=r".*PuLP 4\.0.*", category=DeprecationWarning)
_warnings.filterwarnings("ignore", message=r"PULP_CBC_CMD is deprecated.*", category=DeprecationWarning)

__all__ = ["__version__"]
