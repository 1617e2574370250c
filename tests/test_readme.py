"""The README's commands are tested: what it says, the program does.

Every fenced block of README.md whose lines start with ``$ `` is a shell
session. The blocks run in order, in one scratch copy of the repository, each
command in bash with the virtual environment first on PATH and standard error
merged into standard output (what a terminal shows). The printed output must
match the README's lines after masking what legitimately varies: times
("0.46 s"), the scratch path, and lines the README elides with ``...``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FENCE = re.compile(r"^```[a-z]*\n(.*?)^```", re.M | re.S)
TIME = re.compile(r"\b\d+(?:\.\d+)? ?s\b")
COPIED = ("instances", "docs", "Makefile", "pyproject.toml", "README.md", "models")
"""The package itself is imported from the checkout: numba caches compiled kernels by source path."""


def sessions(text: str) -> list[list[tuple[str, list[str]]]]:
    """The README's shell blocks: each a list of (command, expected output lines)."""
    found = []
    for block in FENCE.findall(text):
        lines = block.rstrip("\n").split("\n")
        if not lines or not lines[0].startswith("$ "):
            continue
        steps: list[tuple[str, list[str]]] = []
        for line in lines:
            if line.startswith("$ "):
                steps.append((line[2:].split("  #")[0].strip(), []))
            else:
                steps[-1][1].append(line)
        found.append(steps)
    return found


def _mask(line: str, scratch: str) -> str:
    return TIME.sub("<T>", line.replace(scratch + "/", "").replace(scratch, ".")).rstrip()


def matches(expected: list[str], got: list[str]) -> bool:
    """Line-by-line equality where a line "..." stands for any number of lines (including none)."""
    if not expected:
        return not got
    head, rest = expected[0], expected[1:]
    if head.strip() == "...":
        return any(matches(rest, got[i:]) for i in range(len(got) + 1))
    return (
        bool(got)
        and (head == got[0] or (head.endswith("...") and got[0].startswith(head[:-3].rstrip())))
        and matches(rest, got[1:])
    )


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    where = tmp_path_factory.mktemp("readme")
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, where / name, ignore=shutil.ignore_patterns("__pycache__", "*.pb", "*.lp", "*.mps"))
        elif source.exists():
            shutil.copy(source, where / name)
    (where / ".venv").symlink_to(Path(sys.executable).parents[1])
    os.utime(where / "pyproject.toml", (0, 0))  # never older-than-the-venv: `make` must not reinstall into it
    return where


README_SESSIONS = sessions((ROOT / "README.md").read_text())


def test_every_problem_has_the_page_the_readme_promises():
    """The README sends readers to docs/<problem>.md for each puzzle's models and algorithms."""
    from mipgames.registry import PROBLEMS

    assert "`docs/<problem>.md`" in (ROOT / "README.md").read_text()
    folders = [*PROBLEMS.values(), "samegame2"]
    missing = [f for f in folders if not (ROOT / "docs" / f"{f}.md").is_file()]
    assert not missing, f"no docs page for {missing}"


def test_the_readme_has_sessions_to_test():
    assert len(README_SESSIONS) >= 5


PYTHON = re.compile(r"^```python\n(.*?)^```", re.M | re.S)


@pytest.mark.slow
def test_the_readmes_python_runs(scratch):
    """The README's Python blocks run as a user would paste them, from a copy of the repository: no block was
    run before, so an API change could leave one broken without a test failing."""
    blocks = PYTHON.findall((ROOT / "README.md").read_text())
    assert blocks
    printed = ""
    for block in blocks:
        done = subprocess.run(
            [sys.executable, "-c", block],
            cwd=scratch,
            env=dict(os.environ, PYTHONPATH=str(ROOT)),
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0 and not done.stderr, block + done.stderr
        printed += done.stdout
    assert "optimal 0.0 0.0 highs" in printed and "cpsat  optimal  0 mismatched" in printed


@pytest.mark.slow
@pytest.mark.parametrize("number", range(len(README_SESSIONS)))
def test_readme_session(number, scratch):
    env = dict(
        os.environ,
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        PYTHONPATH=str(ROOT),
        COLUMNS="120",
        TERM="dumb",
    )
    for name in ("MIPGAMES_DEBUG", "MAKELEVEL", "MAKEFLAGS", "MFLAGS"):  # under `make test`, a nested make
        env.pop(name, None)  # would print "Entering directory" lines a user's shell does not show
    for command, expected in README_SESSIONS[number]:
        done = subprocess.run(
            ["bash", "-c", f'{{ {command}\n}} 2>&1; echo "__exit=$?" >&2'],
            cwd=scratch,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        got = [_mask(line, str(scratch)) for line in done.stdout.rstrip("\n").split("\n")] if done.stdout else []
        want = [_mask(line, str(scratch)) for line in expected]
        assert matches(want, got), (
            f"$ {command}\n--- README ---\n" + "\n".join(want) + "\n--- got ---\n" + "\n".join(got)
        )
