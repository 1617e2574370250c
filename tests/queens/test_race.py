"""The race of seeded restart streams for the one search of K (levels.race)."""

import os
import time
from dataclasses import dataclass

import psutil
import pytest

from mipgames.core.problem import SolveOptions
from mipgames.queens.generate import planted
from mipgames.queens.lazy import run_lazy
from mipgames.queens.levels import INTERPRETED_UP_TO, race
from mipgames.queens.simulate import replay


@dataclass
class FakeGeometry:
    size: int


class Scripted:
    """A search whose outcome, and how long it takes, depend only on its seed."""

    def __init__(self, script: dict[int, tuple[float, object]], seed: int):
        self.delay, self.outcome = script[seed]

    def run(self, deadline):
        if self.outcome == "fail":
            raise ValueError("broken search")
        if self.delay is None:  # runs until killed
            time.sleep(3600)
        time.sleep(self.delay)
        return self.outcome


def maker(script):
    return lambda geo, k, seed: Scripted(script, seed)


def children() -> set[int]:
    """This process's descendants (the suite may have some of its own, such as a resource tracker)."""
    return {p.pid for p in psutil.Process(os.getpid()).children(recursive=True)}


LARGE = FakeGeometry(INTERPRETED_UP_TO + 1)


def test_the_first_search_to_find_a_game_wins_and_the_others_are_killed():
    before = children()
    script = {0: (None, None), 1: (0.05, ([(3, 4)], False))}
    assert race(maker(script), LARGE, 2, 0, 2, None) == ([(3, 4)], False)
    assert children() <= before


def test_a_search_that_exhausts_ends_the_race_with_a_proof():
    before = children()
    script = {5: (None, None), 6: (0.05, (None, True))}
    assert race(maker(script), LARGE, 2, 5, 2, None) == (None, True)
    assert children() <= before


def test_searches_that_reach_the_deadline_with_nothing_give_nothing():
    before = children()
    script = {0: (0.0, (None, False)), 1: (0.0, (None, False))}
    assert race(maker(script), LARGE, 2, 0, 2, time.monotonic() + 5) == (None, False)
    assert children() <= before


def test_a_failing_search_is_an_error_not_a_silent_loss():
    before = children()
    script = {0: (None, None), 1: (0.0, "fail")}
    with pytest.raises(RuntimeError, match="broken search"):
        race(maker(script), LARGE, 2, 0, 2, None)
    assert children() <= before


def test_small_positions_and_one_thread_search_in_this_process():
    calls = []

    def recording(geo, k, seed):
        calls.append((os.getpid(), seed))
        return Scripted({seed: (0.0, ([(0, 1)], False))}, seed)

    assert race(recording, FakeGeometry(INTERPRETED_UP_TO), 2, 7, 2, None) == ([(0, 1)], False)
    assert race(recording, LARGE, 2, 7, 1, None) == ([(0, 1)], False)
    assert calls == [(os.getpid(), 7), (os.getpid(), 7)]


@pytest.mark.parametrize("seed", [0, 1])
def test_a_large_planted_position_is_solved_by_the_race_and_replays(seed):
    before = children()
    instance = planted(32, 2, 126, seed).instance  # 128 queens: above INTERPRETED_UP_TO, so two workers race
    result = run_lazy(instance, {}, SolveOptions(time_limit=60, threads=2, seed=0), lambda *a: None)
    assert result.status == "feasible"
    board, illegal, why = replay(instance, result.solution)
    assert illegal is None, why
    assert len(board) <= 2
    assert children() <= before


@pytest.mark.parametrize("threads", [1, 2])
def test_a_long_decision_shows_its_dives_and_their_rate(threads):
    """Deciding K = 2 on a planted 64x64 position the seconds given do not settle showed nothing beside
    "incumbent -": the dives of the restart streams (all of them, raced or not) and their rate go beside it."""
    import re

    from mipgames.queens.problem import PROBLEM
    from mipgames.run.runner import solve
    from tests.display import DetailDisplay

    position = planted(64, 2, 298, seed=8).instance
    display = DetailDisplay()
    opts = SolveOptions(threads=threads, time_limit=4)
    r = solve(PROBLEM, position, solver="lazy-levels", options=opts, progress=display)
    assert r.status == "unknown" and display.shown
    assert all(re.fullmatch(r"[\d,]+ lazy dives( \([\d,]+/s\))?", d) for d in display.shown), display.shown
    counts = [int(d.split()[0].replace(",", "")) for d in display.shown]
    assert counts == sorted(counts) and counts[-1] > 10 and any("/s)" in d for d in display.shown)
