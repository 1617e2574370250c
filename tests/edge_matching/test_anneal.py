"""The annealer's cooling schedule: cycles that double and reheat from the best placement, and a last cycle that
the deadline would cut cooled by the clock (a fake clock makes both exact)."""

import math

import pytest

from mipgames.edge_matching import anneal as ann

from .helpers import coursework, score


class Clock:
    """time.monotonic that advances one second at every reading: the annealer reads it once per 512 moves."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        self.now += 1.0
        return self.now


def test_the_temperature_cools_with_the_larger_share_of_moves_or_time():
    assert ann.temperature(0, 0) == ann.T_HOT and ann.temperature(0, 0, ann.T_REHEAT) == ann.T_REHEAT < ann.T_HOT
    assert ann.temperature(1, 0.5, ann.T_REHEAT) == pytest.approx(ann.T_COLD)
    assert ann.temperature(1, 0) == ann.temperature(0, 1) == ann.temperature(3, 2) == pytest.approx(ann.T_COLD)
    assert ann.temperature(0.25, 0.5) == ann.temperature(0.5, 0.1) == pytest.approx(math.sqrt(ann.T_HOT * ann.T_COLD))
    assert ann.temperature(0.2, 0.1) > ann.temperature(0.3, 0.1) > ann.temperature(0.3, 0.6)


def test_cycles_double_reheat_from_the_best_placement_and_the_last_one_ends_cold(monkeypatch):
    clock, starts, temps = Clock(), [], []
    real_board, real_temperature = ann._Board, ann.temperature

    class Board(real_board):  # type: ignore[misc, valid-type]
        def __init__(self, inst, placement):
            super().__init__(inst, placement)
            starts.append((clock.now, self.total()))

    def temperature(moves_done: float, time_done: float, hot: float) -> float:
        temps.append((clock.now, moves_done, time_done, hot))
        return real_temperature(moves_done, time_done, hot)

    monkeypatch.setattr(ann, "time", clock)
    monkeypatch.setattr(ann, "_Board", Board)
    monkeypatch.setattr(ann, "temperature", temperature)
    monkeypatch.setattr(ann, "CYCLE_PER_CELL3", 0.5)  # 16 cells: 2,048 moves, 4 readings of the clock
    inst = coursework()
    best, placement = ann.anneal(inst, seed=3, time_limit=100.0, target=-1)  # -1: never reached, runs to the end
    assert best == score(inst, placement)
    # the deadline reads 1 (so it is 101), the first cycle begins at 2; cycles of 4, 8, 16, 32 readings end at 6,
    # 14, 30 and 62, each with a fresh board
    assert [t for t, _ in starts] == [0.0, 6.0, 14.0, 30.0, 62.0]
    assert all(total <= prev for (_, total), (_, prev) in zip(starts[2:], starts[1:]))  # each from the best so far
    ends = [m for t, m, _, _ in temps if t + 1.0 in (6.0, 14.0, 30.0, 62.0)]
    assert ends == [0.75, 0.875, 0.9375, 0.96875]  # the reading before each reheat: cooled by moves, not the clock
    assert {h for t, _, _, h in temps if t < 6.0} == {ann.T_HOT} and {h for t, _, _, h in temps if t >= 6.0} == {
        ann.T_REHEAT
    }
    last = [(m, d, h) for t, m, d, h in temps if t > 62.0]
    assert last[-1][0] < 0.6 < last[-1][1]  # the last cycle, cut by the deadline at 101, cools by the clock
    assert real_temperature(*last[-1]) < 1.2 * ann.T_COLD
