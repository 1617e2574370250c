"""``mipgames warmup`` (run by ``make install``) must compile every kernel a solve calls, with the types it calls
it with: a kernel first compiled inside a solve spends the solve's time limit compiling, and a compile the
deadline's alarm cut once ended a SameGame solve as an error.  Four kernels (the beam's candidate compaction,
NRPA's top-level policy step, the playout kept for a game the deadline cuts, edge matching's local search) were
only reached by real solves."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

PROBE = """
import importlib, json, pkgutil, sys
from pathlib import Path

from numba.core.dispatcher import Dispatcher

import mipgames
from mipgames import registry
from mipgames.cli import main
from mipgames.core.kernel_cache import compiles
from mipgames.core.problem import SolveOptions


def kernels():
    found = {}
    for info in pkgutil.walk_packages(mipgames.__path__, "mipgames."):
        spec = importlib.util.find_spec(info.name)
        if spec is None or not (spec.origin or "").endswith(".py") or not compiles(Path(spec.origin).read_bytes()):
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if isinstance(value, Dispatcher) and value.py_func.__module__ == info.name:
                found[f"{info.name}.{name}"] = value
    return found


def signatures(found):
    return {name: {str(s) for s in kernel.signatures} for name, kernel in found.items()}


assert main(["warmup", "--quiet"]) == 0  # what make install runs
found = kernels()
warmed = signatures(found)
for name, path, paramsets in json.loads(sys.argv[1]):
    problem = registry.load(name)
    instance = problem.read(path)
    for params in paramsets:
        params = {**problem.default_params(), **params}
        for form in problem.formulations.values():
            if form.start is not None:
                form.start(instance, params)
        for algorithm in problem.algorithms.values():
            algorithm.run(instance, params, SolveOptions(time_limit=1, threads=1), lambda *a: None)
late = {name: sorted(sigs - warmed.get(name, set())) for name, sigs in signatures(found).items()}
print(json.dumps({"kernels": len(found), "late": {name: sigs for name, sigs in late.items() if sigs}}))
"""


def test_the_warmup_compiles_every_kernel_a_solve_calls(tmp_path):
    from mipgames.samegame.generate import random_board
    from mipgames.samegame.instance import write_board

    board = tmp_path / "board.txt"
    write_board(random_board(20, 20, 4, 1), board)
    cases = [
        ["samegame", str(board), [{"objective": "score"}, {"objective": "min-remaining"}]],
        ["edge-matching", str(REPO / "instances/edge_matching/planted_7x7_frame.txt"), [{"mode": "optimise"}]],
        ["queens", str(REPO / "instances/queens/planted_n24_k1_q70_s5.txt"), [{}]],
    ]
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(cases)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["kernels"] > 50, seen  # the probe found the package's kernels
    assert seen["late"] == {}, seen["late"]
