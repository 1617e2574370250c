"""The structure says itself: core points one way, every problem folder has the same parts, no import cycles."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from mipgames import registry

PACKAGE = Path(__file__).resolve().parents[2] / "mipgames"
PARTS = (
    "__init__.py",
    "instance.py",
    "codec.py",
    "simulate.py",
    "mip.py",
    "cpsat.py",
    "decode.py",
    "baselines.py",
    "generate.py",
    "render.py",
    "problem.py",
)
LIGHT = ("problem.py", "instance.py", "codec.py", "simulate.py")
HEAVY = ("pulp", "ortools", "numba", "matplotlib", "highspy", "pyscipopt", "swiglpk")


def imports(path: Path, top_level_only: bool = False) -> set[str]:
    """Modules a file imports (relative imports resolved against the mipgames package)."""
    tree = ast.parse(path.read_text())
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    found = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_core_imports_nothing_of_the_toolkit_above_it():
    for path in (PACKAGE / "core").glob("*.py"):
        above = {m for m in imports(path) if m.startswith("mipgames") and not m.startswith("mipgames.core")}
        assert not above, f"{path.name} imports {sorted(above)}"


@pytest.mark.parametrize("name", list(registry.PROBLEMS))
def test_every_problem_folder_has_the_same_parts(name):
    folder = PACKAGE / registry.PROBLEMS[name]
    missing = [part for part in PARTS if not (folder / part).is_file()]
    assert not missing, f"{folder.name} lacks {missing}"
    for part in LIGHT:
        heavy = {m for m in imports(folder / part, top_level_only=True) if m.split(".")[0] in HEAVY}
        assert not heavy, f"{folder.name}/{part} imports {sorted(heavy)} at module level"


def test_no_import_cycles_at_module_level():
    """Module-level imports between the toolkit's modules form no cycle (function-level imports may defer)."""
    graph: dict[str, set[str]] = {}
    modules = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    for name, path in modules.items():
        targets = {m for m in imports(path, top_level_only=True) if m in modules}
        targets |= {m.rsplit(".", 1)[0] for m in imports(path, top_level_only=True) if m.rsplit(".", 1)[0] in modules}
        graph[name] = {t for t in targets if t != name and not name.startswith(t + ".")}
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycle = trail[trail.index(nxt) :] + [nxt] if nxt in trail else [node, nxt]
                raise AssertionError(f"import cycle: {' -> '.join(cycle)}")
            if nxt not in state:
                visit(nxt, trail + [nxt])
        state[node] = 2

    for start in sorted(graph):
        if start not in state:
            visit(start, [start])
