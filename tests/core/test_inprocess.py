"""CP-SAT in the command's own process: a signal ends the solve at once (it caught SIGINT and ran on)."""

from __future__ import annotations

import random
import time

from mipgames.core import inprocess


def _hard_model(seed: int = 0):
    """A random multi-knapsack CP-SAT cannot close in seconds: the solve runs to its time limit."""
    from ortools.sat.python import cp_model

    rng = random.Random(seed)
    model = cp_model.CpModel()
    x = [model.new_bool_var(f"x{i}") for i in range(300)]
    for _ in range(60):
        model.add(sum(rng.randint(1, 50) * v for v in x) <= 2000)
    model.maximize(sum(rng.randint(1, 50) * v for v in x))
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = 30.0
    solver.parameters.num_workers = 1
    return solver, model


PROBE = """
import os, signal, sys, threading, time
from tests.core.test_inprocess import _hard_model
from mipgames.core import inprocess
solver, model = _hard_model()
threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
began = time.monotonic()
try:
    inprocess.solve(solver, model)
except KeyboardInterrupt:
    print("interrupted after", round(time.monotonic() - began, 1))
"""


def test_a_signal_ends_an_in_process_solve_at_once_and_the_process_exits_cleanly():
    """In a process of its own, as a command meets it: the interrupt lands at once, not after the solve's 30 s,
    and the exit does not abort beside a search still running (a first version's interrupted join did)."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    began = time.monotonic()
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=root, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.startswith("interrupted after") and time.monotonic() - began < 15.0


def test_an_undisturbed_solve_returns_its_status():
    from ortools.sat.python import cp_model

    solver, model = _hard_model()
    solver.parameters.max_time_in_seconds = 0.5
    assert inprocess.solve(solver, model) in (cp_model.FEASIBLE, cp_model.OPTIMAL)
    assert solver.objective_value > 0
