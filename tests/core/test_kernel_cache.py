"""numba's caches are dropped when a compiled source of their folder changes (numba alone keeps stale code)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from mipgames.core import kernel_cache

CALLER = """from numba import njit
from mipgames.core.kernel_cache import drop_stale
from pkg.callee import g
{guard}
@njit(cache=True)
def f():
    return g() + 100
"""
CALLEE = """from numba import njit
from mipgames.core.kernel_cache import drop_stale
{guard}
@njit(cache=True)
def g():
    return {value}
"""
LEAF_CALLEE = """from mipgames.core.kernel_cache import drop_stale, leaf
{guard}
@leaf()
def g():
    return {value}
"""


def _package(root: Path, value: int, guard: bool, callee: str = CALLEE) -> None:
    pkg = root / "pkg"
    pkg.mkdir(exist_ok=True)
    (pkg / "__init__.py").write_text("")
    line = "drop_stale(__file__)" if guard else ""
    (pkg / "caller.py").write_text(CALLER.format(guard=line))
    (pkg / "callee.py").write_text(callee.format(guard=line, value=value))


def _run(root: Path) -> int:
    repo = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", "from pkg.caller import f; print(f())"],
        cwd=root,
        # no .pyc: an edit within the same second and of the same size would otherwise run the old bytecode
        env={"PYTHONPATH": f"{root}:{repo}", "PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return int(out.stdout.strip())


def test_a_changed_callee_is_compiled_afresh(tmp_path):
    _package(tmp_path, 1, guard=True)
    assert _run(tmp_path) == 101
    assert list((tmp_path / "pkg" / "__pycache__").glob("caller.f-*.nbi"))
    _package(tmp_path, 2, guard=True)
    assert _run(tmp_path) == 102


def test_a_changed_leaf_only_callee_is_compiled_afresh(tmp_path):
    """A module whose only compiled functions are ``leaf`` helpers (no ``njit`` in its text) is fingerprinted too."""
    _package(tmp_path, 1, guard=True, callee=LEAF_CALLEE)
    assert "njit" not in (tmp_path / "pkg" / "callee.py").read_text()
    assert _run(tmp_path) == 101
    _package(tmp_path, 2, guard=True, callee=LEAF_CALLEE)
    assert _run(tmp_path) == 102


def test_without_the_guard_numba_runs_the_old_callee(tmp_path):
    """Why the guard exists: the same edit, and numba loads the caller's stale machine code."""
    _package(tmp_path, 1, guard=False)
    assert _run(tmp_path) == 101
    _package(tmp_path, 2, guard=False)
    assert _run(tmp_path) == 101


def test_an_unchanged_folder_keeps_its_caches(tmp_path, monkeypatch):
    (tmp_path / "k.py").write_text("from numba import njit\n")
    cache = tmp_path / "__pycache__"
    assert kernel_cache.drop_stale(tmp_path / "k.py")
    (cache / "k.f-1.py311.nbi").write_text("index")
    monkeypatch.setattr(kernel_cache, "_checked", set())
    assert not kernel_cache.drop_stale(tmp_path / "k.py")
    assert (cache / "k.f-1.py311.nbi").exists()
    (tmp_path / "k.py").write_text("from numba import njit  # edited\n")
    monkeypatch.setattr(kernel_cache, "_checked", set())
    assert kernel_cache.drop_stale(tmp_path / "k.py")
    assert not (cache / "k.f-1.py311.nbi").exists()


def test_every_compiled_module_of_the_package_has_the_guard():
    package = Path(kernel_cache.__file__).resolve().parents[1]
    defining = Path(kernel_cache.__file__).resolve()  # names the marks, compiles nothing
    compiled = [p for p in package.rglob("*.py") if p.resolve() != defining and kernel_cache.compiles(p.read_bytes())]
    assert any("@njit" not in p.read_text() for p in compiled)  # leaf-only modules are among them
    assert compiled
    missing = [str(p.relative_to(package)) for p in compiled if "drop_stale(__file__)" not in p.read_text()]
    assert not missing, missing
