"""A planted board and its moves file are checked together before either is written (fault: ``-o x.moves``
wrote the board, then replaced it with the moves; a folder or link at ``x.moves`` left a board without moves)."""

from __future__ import annotations

import pytest

from mipgames.cli import main as cli
from mipgames.core.errors import OutputError
from mipgames.queens.generate import planted
from mipgames.queens.instance import moves_path, read, read_moves, write
from tests.fuzzing import (
    BLOCKERS,
    blocked_companion_refused,
    companion_name_refused,
    companion_of_another_kept,
    listing,
)

ARGS = ["generate", "queens", "--n", "6", "--k", "1", "--moves", "8", "--seed", "2"]


@pytest.mark.parametrize("name", ["qq.moves", "qq.MOVES"])
def test_a_board_named_like_its_moves_file_is_refused(tmp_path, capsys, name):
    companion_name_refused(capsys, ARGS, tmp_path / name)


@pytest.mark.parametrize("blocker", BLOCKERS)
def test_a_bad_moves_path_is_refused_before_the_board_is_written(tmp_path, capsys, blocker):
    blocked_companion_refused(capsys, ARGS, tmp_path / "q.txt", tmp_path / "q.moves", blocker)


def test_the_writer_checks_both_paths_before_writing(tmp_path):
    case = planted(6, 1, 8, 2)
    board = tmp_path / "b.txt"
    board.write_text("old board\n")
    moves_path(board).mkdir()
    with pytest.raises(OutputError):
        write(case.instance, board)
    assert board.read_text() == "old board\n" and listing(tmp_path) == ["b.moves", "b.txt"]
    with pytest.raises(OutputError, match="another extension"):
        write(case.instance, tmp_path / "b2.moves")
    assert not (tmp_path / "b2.moves").exists()


def test_board_and_moves_are_written_together(tmp_path):
    out = tmp_path / "p.txt"
    assert cli([*ARGS, "-o", str(out)]) == 0
    case = planted(6, 1, 8, 2)
    assert read(out) == case.instance
    assert tuple(m for _, m in read_moves(moves_path(out))) == case.instance.planted
    assert listing(tmp_path) == ["p.moves", "p.txt"]


def test_an_unsolvable_board_has_no_moves_file_and_may_end_in_moves(tmp_path):
    from mipgames.queens.instance import output_paths

    board, moves = output_paths(tmp_path / "u.moves", planted=False)
    assert board == tmp_path / "u.moves" and moves is None


def test_a_board_without_moves_removes_the_moves_of_the_board_it_replaced(tmp_path, capsys):
    """An unsolvable board written over a planted one kept the planted moves beside it; queens-check then
    rejected them against the new board."""
    out = tmp_path / "p.txt"
    assert cli([*ARGS, "-o", str(out)]) == 0
    assert listing(tmp_path) == ["p.moves", "p.txt"]
    write(planted(6, 1, 8, 3).instance.__class__(6, 1, read(out).board), out)  # the same board, no planted game
    assert listing(tmp_path) == ["p.txt"]
    assert "removed" in capsys.readouterr().err


def test_a_board_named_like_another_boards_moves_leaves_them_alone(tmp_path, capsys):
    unplanted = ["generate", "queens", "--n", "6", "--k", "1", "--moves", "5", "--seed", "1", "--unsolvable"]
    companion_of_another_kept(capsys, ARGS, unplanted, tmp_path)
