"""Where SameGame's searches hand their games to the one that answers: the best game any of them sent is kept."""

from __future__ import annotations

from mipgames.samegame import parallel


def test_one_worker_in_this_process_keeps_its_best_game_when_a_worse_one_follows() -> None:
    """With one thread the portfolio's worker plays a narrow beam first, then NRPA, whose first games may be worse
    than the beam's: the best game stays the answer, as with forked workers, not the last one sent."""
    seen: list[int] = []

    def task(send) -> dict:
        send(12, [3, 4], "beam width 32")
        send(7, [5], "nrpa")
        return {"playouts": 2}

    out = parallel.run([task], None, lambda found: seen.append(found.value))
    assert out.best is not None
    assert (out.best.value, out.best.cells, out.best.note) == (12, [3, 4], "beam width 32")
    assert seen == [12]
