"""What the queens generators promise beyond a readable file: the exponent asked for is the one planted, and a
position is kept as unsolvable only on a proof, never because a search ran out of time."""

from __future__ import annotations

import time

from ortools.sat.python import cp_model

from mipgames.cli import main as cli
from mipgames.core.problem import SolveOptions
from mipgames.queens import levels
from mipgames.queens.generate import planted, prove_unsolvable
from mipgames.queens.instance import read


def test_the_exponent_asked_for_is_the_one_planted(tmp_path):
    """Two queens of power 2^5 split 5 times keep their total, 2 x 32 (the default exponent for 5 moves is 3)."""
    out = tmp_path / "q.txt"
    args = ["generate", "queens", "--n", "6", "--k", "2", "--moves", "5", "--exponent", "5", "--seed", "3"]
    assert cli([*args, "-o", str(out)]) == 0
    instance = read(out)
    assert instance.total == 2 << 5 and len(instance.queens) == 7


def test_searches_that_run_out_of_time_prove_nothing_unsolvable(monkeypatch):
    """A planted (solvable) position, the level search stopped before exhausting and CP-SAT stopped without an
    answer: that is no proof, so ``--unsolvable`` must not keep the position (it would be written as unsolvable)."""
    case = planted(6, 1, 8, 0)
    monkeypatch.setattr(levels, "search_forest", lambda *args, **kwargs: (None, False))
    monkeypatch.setattr(cp_model.CpSolver, "solve", lambda self, model, *args, **kwargs: cp_model.UNKNOWN)
    assert not prove_unsolvable(case.instance, SolveOptions(time_limit=1))


def test_a_bundled_unsolvable_position_is_proved_unsolvable():
    """The other side of the test above: a real proof is accepted (a check that always said no would pass it)."""
    instance = read("instances/queens/unsolvable_n8_k1_q20_s1.txt")
    assert prove_unsolvable(instance, SolveOptions(time_limit=20))


def test_a_position_a_cheap_bound_refutes_is_never_kept(monkeypatch):
    """``--unsolvable`` promises positions that no cheap bound refutes: a relocation that makes one (here the
    first, as the cheap bounds say) is undone, and the position kept is a later one that passed them."""
    from mipgames.queens import generate

    checked = []

    def obvious(candidate):
        checked.append(candidate)
        return len(checked) == 1  # the first relocation gives a position a cheap bound refutes

    monkeypatch.setattr(generate, "obvious", obvious)
    monkeypatch.setattr(levels, "search_forest", lambda *args, **kwargs: (None, False))
    monkeypatch.setattr(generate, "prove_unsolvable", lambda candidate, options: True)
    kept = generate.unsolvable(6, 9, 1, seed=2, time_limit=1)
    assert len(checked) == 2 and kept == checked[1] != checked[0]


def test_an_exponent_beside_unsolvable_is_refused(capsys):
    """--unsolvable chooses its own powers: the --exponent given beside it changed nothing, in silence."""
    assert cli(["generate", "queens", "--unsolvable", "--n", "6", "--moves", "6", "--exponent", "5"]) == 4
    assert "--unsolvable chooses its own" in capsys.readouterr().err


def test_an_unsolvable_position_on_a_full_board_is_refused_in_words(capsys):
    """An unsolvable position is made by moving queens to empty squares: with K + moves filling the board there
    is none, and the generator failed with an internal IndexError (found by an audit helper)."""
    for n, k, moves in ((1, 1, 1), (2, 1, 3), (2, 3, 1)):
        args = ["generate", "queens", "--unsolvable", "--n", str(n), "--k", str(k), "--moves", str(moves)]
        assert cli([*args, "--proof-time", "1"]) == 4
        err = capsys.readouterr().err
        assert f"fill a {n}x{n} board" in err and "internal error" not in err


def test_an_unsolvable_position_with_no_moves_is_refused_at_once(capsys):
    """K queens are never more than K: `--unsolvable --moves 0` searched 200 tries (2.7 s) and then said "change
    the seed or sizes", which could not help."""
    args = ["generate", "queens", "--unsolvable", "--n", "16", "--k", "4", "--moves", "0", "--proof-time", "30"]
    began = time.monotonic()
    assert cli(args) == 4
    assert "--moves 0 asks for K queens, which are never more than K" in capsys.readouterr().err
    assert time.monotonic() - began < 1.0
    assert cli(["generate", "queens", "--n", "6", "--moves", "3", "--proof-time", "5"]) == 4  # a planted board
    assert "a planted board has none" in capsys.readouterr().err


def test_the_searches_that_choose_an_unsolvable_board_end_by_restarts_not_the_clock(monkeypatch):
    """`generate queens --unsolvable --seed 4` gave two boards in five runs (and others under load): whether a
    candidate was "solved quickly" was a second of the clock.  A capped level search now stops after its restarts
    however far the deadline, and the board kept does not move with the time allowed."""
    from mipgames.queens import generate
    from mipgames.queens.geometry import geometry

    instance = planted(40, 2, 148, 1).instance  # 150 queens: three restarts of 1,000-2,000 nodes settle nothing
    restarts = levels.forest_restarts(geometry(instance), instance.k, seed=1)
    assert restarts.run(None, restarts=3) == (None, False) and restarts.run_number == 3
    slow = generate.unsolvable(10, 20, 1, seed=4, time_limit=5)
    assert generate.unsolvable(10, 20, 1, seed=4, time_limit=40) == slow


def test_an_unsolvable_board_has_a_first_capture():
    """`--unsolvable --n 4 --k 2 --moves 5 --seed 2` gave a board on which no capture is legal at all (every pair
    of one power blocked or off a line): unsolvable, but trivially so, and the cheap bounds had rated it 1."""
    from mipgames.queens.generate import stuck, unsolvable
    from mipgames.queens.instance import Queens

    blocked = Queens(4, 2, ((0, 1, 0, 2), (0, 4, 0, 0), (2, 0, 0, 4), (0, 1, 0, 2)))
    assert stuck(blocked) and not stuck(Queens(2, 1, ((1, 1), (0, 0))))
    for seed in range(6):
        board = unsolvable(4, 7, 2, seed, 5.0)
        assert not stuck(board), seed
