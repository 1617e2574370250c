"""The toy market-split problem with solver stubs that misbehave on purpose, for campaign tests."""

from __future__ import annotations

import dataclasses
import os
import signal
import time

from mipgames.core.problem import Algorithm
from mipgames.core.result import Result
from tests.core import toy


def exact(inst, params, options, report) -> Result:
    """Brute force on small instances; on big ones it 'runs out of time' (unknown) at once."""
    if len(inst.a[0]) > 14:
        return Result("unknown", message="too big for brute force")
    return toy.run_brute(inst, params, options, report)


def slow(inst, params, options, report) -> Result:
    time.sleep(0.4)
    return exact(inst, params, options, report)


def crash(inst, params, options, report) -> Result:
    os.kill(os.getpid(), signal.SIGKILL)  # a solver dying hard, as on a segfault or the OOM killer


def boom(inst, params, options, report) -> Result:
    raise RuntimeError("solver stub exploded")


PROBLEM = dataclasses.replace(
    toy.PROBLEM,
    name="bench-stub",
    algorithms={
        "exact": Algorithm("exact", exact, exact=True),
        "slow": Algorithm("slow", slow, exact=True),
        "crash": Algorithm("crash", crash),
        "boom": Algorithm("boom", boom),
    },
)


def write_instances(folder, seeds=(1, 2), hard: bool = False) -> list[str]:
    """Small toy instances (and one hard market split that no solver proves in a second)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for s in seeds:
        path = folder / f"small{s}.json"
        toy.write(toy.random_split(2, 10, s, 20), path)
        paths.append(str(path))
    if hard:
        path = folder / "hard.json"
        toy.write(toy.random_split(4, 34, 11), path)
        paths.append(str(path))
    return paths
