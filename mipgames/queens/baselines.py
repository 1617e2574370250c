"""Every classical algorithm for power of queens, by name (``--solver NAME``).

- ``coursework-dfs``: the coursework's own search, exactly as described (coursework.py; compiled);
- ``dfs``: that search with ranked captures, bounds and a memo (dfs.py);
- ``levels``: the exact search over capture forests, lowest power first (levels.py);
- ``lazy-levels``: the same search with lazy orientation (lazy.py), faster from N = 40 on;
- ``portfolio``: deciding K, a short probe of the level search, then the lazy one; minimising, the DFS and the
  level search; then the forest CP-SAT model (portfolio.py), the default.
"""

from __future__ import annotations

from mipgames.core.problem import Algorithm
from mipgames.queens.coursework import run_coursework
from mipgames.queens.dfs import DFS
from mipgames.queens.lazy import LAZY
from mipgames.queens.levels import LEVELS
from mipgames.queens.portfolio import run_portfolio

COURSEWORK = Algorithm(
    "coursework-dfs",
    run_coursework,
    "the coursework's depth-first search as described (potential order, every capture, undo; no memo, no bound)",
    exact=True,
)
PORTFOLIO = Algorithm(
    "portfolio",
    run_portfolio,
    "a short probe of the level search, then the lazy one, then the forest CP-SAT model; with --minimise the DFS "
    "and the level search instead (the default)",
    exact=True,
)

ALGORITHMS = {a.name: a for a in (PORTFOLIO, LAZY, LEVELS, DFS, COURSEWORK)}


def compile_kernels() -> None:
    """Compile (or load from numba's cache) both level-search kernels and the coursework DFS on a small planted
    position (the kernels directly: through the solvers, a position this small never leaves Python)."""
    from mipgames.core.problem import SolveOptions
    from mipgames.queens.generate import planted
    from mipgames.queens.geometry import geometry
    from mipgames.queens.lazy_kernel import CompiledLazy
    from mipgames.queens.levels_kernel import Compiled

    position = planted(8, 1, 6, 0).instance
    geo = geometry(position)
    Compiled(geo, position.k).dive(list(range(geo.size)), False, 0, None)
    CompiledLazy(geo, position.k).dive(list(range(geo.size)), 0, None)
    COURSEWORK.run(position, {}, SolveOptions(time_limit=None), lambda *a: None)
