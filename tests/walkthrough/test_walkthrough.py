"""The toy problem added by following docs/ADDING_A_PROBLEM.md alone: it works everywhere a problem works."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mipgames import registry
from mipgames.cli import main
from mipgames.core.errors import MipgamesError
from mipgames.core.problem import SolveOptions
from mipgames.run.runner import solve
from tests.walkthrough.knapsack.instance import Knapsack, parse, write
from tests.walkthrough.knapsack.problem import PROBLEM

registry.register(PROBLEM)
PARTS = ("instance.py", "codec.py", "simulate.py", "mip.py", "cpsat.py", "decode.py", "baselines.py", "problem.py")


def brute_force(k: Knapsack) -> int:
    n = len(k.weights)
    return max(
        sum(k.values[j] for j in range(n) if bits[j])
        for bits in itertools.product((0, 1), repeat=n)
        if sum(k.weights[j] for j in range(n) if bits[j]) <= k.capacity
    )


def random_knapsack(seed: int, items: int = 8) -> Knapsack:
    rng = random.Random(seed)
    weights = tuple(rng.randint(1, 20) for _ in range(items))
    return Knapsack(sum(weights) // 2, weights, tuple(rng.randint(1, 30) for _ in range(items)))


def test_the_folder_has_the_standard_parts():
    folder = Path(__file__).parent / "knapsack"
    assert all((folder / part).is_file() for part in PARTS)


@settings(max_examples=6, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6))
def test_every_solver_and_the_algorithm_find_the_brute_force_optimum(seed):
    k = random_knapsack(seed)
    truth = brute_force(k)
    for solver in ("cbc", "glpk", "highs", "scip", "cpsat", "dp"):
        result = solve(PROBLEM, k, solver=solver, isolate=False, options=SolveOptions(time_limit=30, threads=1))
        assert (result.status, result.objective) == ("optimal", truth), (solver, result.message)


def test_command_line_solve_verify_and_reprove(tmp_path, capsys):
    path, cert = tmp_path / "k.txt", tmp_path / "c.json"
    write(random_knapsack(3, 12), path)
    assert main(["solve", str(path), "--problem", "knapsack", "--quiet", "--out", str(cert)]) == 0
    assert json.loads(cert.read_text())["status"] == "optimal"
    assert main(["verify", str(cert), "--reprove", "--quiet"]) == 0
    assert "re-proved by" in capsys.readouterr().out


@settings(max_examples=100, deadline=None, derandomize=True)
@given(text=st.text(alphabet="0123456789 -\n#x", max_size=60))
def test_the_reader_refuses_bad_text_with_an_input_error(text):
    try:
        parse(text)
    except MipgamesError:
        pass


def test_bad_numbers_are_refused_at_parse_time():
    with pytest.raises(MipgamesError, match=":2: weight must be between"):
        parse("10\n100000000000000000000000000000 3\n", "k.txt")
