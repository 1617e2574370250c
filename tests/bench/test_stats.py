"""Shifted geometric mean and Dolan–Moré profiles against values worked by hand."""

from __future__ import annotations

import math

import pytest

from mipgames.bench import stats


def test_shifted_geometric_mean_by_hand():
    # (6+10)(26+10) = 16·36 = 576, sqrt = 24, minus the shift: 14
    assert stats.shifted_geometric_mean([6, 26]) == pytest.approx(14.0)
    # (0+10)(90+10)(990+10) = 10^6, cube root 100, minus 10: 90
    assert stats.shifted_geometric_mean([0, 90, 990]) == pytest.approx(90.0)
    assert stats.shifted_geometric_mean([5, 5, 5]) == pytest.approx(5.0)
    # shift 1: (1+1)(7+1) = 16, sqrt 4, minus 1: 3
    assert stats.shifted_geometric_mean([1, 7], shift=1) == pytest.approx(3.0)


def test_shifted_geometric_mean_refuses_nonsense():
    with pytest.raises(ValueError):
        stats.shifted_geometric_mean([])
    with pytest.raises(ValueError):
        stats.shifted_geometric_mean([-1.0])


def test_unsolved_runs_are_charged_the_time_limit():
    assert stats.charged_time(3.0, True, 60) == 3.0
    assert stats.charged_time(3.0, False, 60) == 60  # an error after 3 s is not a 3 s success
    assert stats.charged_time(61.0, True, 60) == 60
    assert stats.charged_time(None, False, 60) == 60
    # solver A: 2 s solved, 100 s limit unsolved → (12·110)^(1/2) − 10
    times = [stats.charged_time(2, True, 100), stats.charged_time(40, False, 100)]
    assert stats.shifted_geometric_mean(times) == pytest.approx(math.sqrt(12 * 110) - 10)


def test_performance_ratios_and_profile_by_hand():
    # problems p1..p3; A: 1, 2, unsolved; B: 2, 2, 4
    ratios = stats.performance_ratios({"A": [1.0, 2.0, None], "B": [2.0, 2.0, 4.0]})
    assert ratios["A"] == [1.0, 1.0, math.inf]
    assert ratios["B"] == [2.0, 1.0, 1.0]
    assert stats.profile(ratios["A"], 1) == pytest.approx(2 / 3)
    assert stats.profile(ratios["A"], 1000) == pytest.approx(2 / 3)  # never reaches 1: p3 unsolved
    assert stats.profile(ratios["B"], 1) == pytest.approx(2 / 3)
    assert stats.profile(ratios["B"], 1.99) == pytest.approx(2 / 3)
    assert stats.profile(ratios["B"], 2) == pytest.approx(1.0)
    assert stats.profile_steps(ratios["B"]) == ([1.0, 2.0], [pytest.approx(2 / 3), 1.0])


def test_problem_nobody_solved_counts_against_everyone_and_tiny_times_are_floored():
    ratios = stats.performance_ratios({"A": [None, 0.0], "B": [None, 0.005], "C": [None, 0.04]}, floor=0.01)
    assert ratios["A"] == [math.inf, 1.0]
    assert ratios["B"] == [math.inf, 1.0]  # 0 s and 5 ms are both below the timer floor: a tie
    assert ratios["C"] == [math.inf, pytest.approx(4.0)]


def test_ratios_need_the_same_problems_for_every_solver():
    with pytest.raises(ValueError):
        stats.performance_ratios({"A": [1.0], "B": [1.0, 2.0]})
