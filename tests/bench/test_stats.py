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


def test_sgm_ratio_is_taken_between_the_shifted_means_worked_example():
    # A: 6 s and 26 s -> shifted mean sqrt(16·36) = 24, SGM 14
    # B: 0 s and 30 s -> shifted mean sqrt(10·40) = 20, SGM 10
    a, b = stats.shifted_geometric_mean([6, 26]), stats.shifted_geometric_mean([0, 30])
    assert (a, b) == (pytest.approx(14.0), pytest.approx(10.0))
    # ratio of the shifted means 24/20 = 1.2 (dividing after the shift came off would say 14/10 = 1.4)
    assert stats.sgm_ratio(a, b) == pytest.approx(1.2)
    # ... which is the geometric mean of the per-problem shifted ratios (6+10)/(0+10) and (26+10)/(30+10)
    assert stats.sgm_ratio(a, b) == pytest.approx(math.sqrt((16 / 10) * (36 / 40)))
    assert stats.sgm_ratio(b, a) == pytest.approx(1 / 1.2)
    # shift 1: A -> sqrt(7·27) − 1, B -> sqrt(1·31) − 1; ratio sqrt(189/31)
    a1, b1 = stats.shifted_geometric_mean([6, 26], shift=1), stats.shifted_geometric_mean([0, 30], shift=1)
    assert stats.sgm_ratio(a1, b1, shift=1) == pytest.approx(math.sqrt(189 / 31))


def test_sgm_ratio_does_not_magnify_timer_noise():
    # 10 ms against 20 ms is noise at a 10 s shift: the old ratio said "twice as slow", or infinitely slower than 0
    fast, slow = stats.shifted_geometric_mean([0.01]), stats.shifted_geometric_mean([0.02])
    assert slow / fast == pytest.approx(2.0)
    assert stats.sgm_ratio(slow, fast) == pytest.approx(10.02 / 10.01)
    assert stats.sgm_ratio(0.5, 0.0) == pytest.approx(1.05)
    assert stats.sgm_ratio(0.0, 0.0, shift=0) == 1.0 and stats.sgm_ratio(1.0, 0.0, shift=0) == math.inf
    with pytest.raises(ValueError):
        stats.sgm_ratio(-1.0, 1.0)


def test_virtual_best_takes_the_fastest_solver_per_problem():
    best = stats.virtual_best({"A": [3.0, None, 2.0, None], "B": [1.0, 5.0, 2.0, None], "C": [2.0, 4.0, None, None]})
    assert best == [(1.0, "B"), (4.0, "C"), (2.0, "A"), (None, None)]  # a tie goes to the first listed
    with pytest.raises(ValueError):
        stats.virtual_best({"A": [1.0], "B": []})
