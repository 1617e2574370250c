"""mipgames: combinatorial puzzles as MIP and CP-SAT models, solved and certified by exact simulators."""

__version__ = "0.1.0"

import warnings as _warnings

# PuLP is pinned below 4.0 on purpose (4.x drops the bundled CBC); its notices about 4.0 are noise here.
_warnings.filterwarnings("ignore", message=r".*PuLP 4\.0.*", category=DeprecationWarning)
_warnings.filterwarnings("ignore", message=r"PULP_CBC_CMD is deprecated.*", category=DeprecationWarning)
