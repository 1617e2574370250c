"""Board files: both formats, the standard set, and one clear error per kind of bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from mipgames.core.errors import InputError
from mipgames.samegame.instance import (
    EMPTY,
    Board,
    format_board,
    parse_board,
    read_board,
    read_standard_set,
    write_board,
)

STANDARD = Path("/work/shared/benchmarks/samegame/standard_20.txt")


def test_parse_format_roundtrip_and_coordinates(tmp_path: Path) -> None:
    text = "# a comment\n\nz...\n0a9.\n1122\n"
    board = parse_board(text)
    assert board.cells == ((35, -1, -1, -1), (0, 10, 9, -1), (1, 1, 2, 2))
    assert (board.rows, board.cols, board.tiles(), board.colours()) == (3, 4, 8, {0, 1, 2, 9, 10, 35})
    assert board.at(0, 0) == 1 and board.at(3, 0) == 2 and board.at(0, 2) == 35 and board.at(2, 1) == 9
    assert board.at(3, 2) == EMPTY and board.at(-1, 0) == EMPTY and board.at(0, 3) == EMPTY
    assert format_board(board) == "z...\n0a9.\n1122\n"
    write_board(board, tmp_path / "b.txt")
    assert read_board(tmp_path / "b.txt") == board


def test_integer_rows_are_read_as_one_board() -> None:
    assert parse_board("3 -1\n12 4\n") == Board(((3, -1), (12, 4)))


def test_a_one_column_board_of_numbers_is_read_as_numbers() -> None:
    """Every row one word: the guess took characters, and ``-1`` failed as "unknown symbol '-'" (an audit found
    it).  A row ``-1`` can only be a number; ``10`` stays two characters, as documented."""
    assert parse_board("-1\n3\n12\n") == Board(((-1,), (3,), (12,)))
    assert parse_board("10\n11\n") == Board(((1, 0), (1, 1)))


def test_standard_set() -> None:
    boards = read_standard_set(STANDARD)
    assert len(boards) == 20
    assert all((b.rows, b.cols, b.tiles()) == (15, 15, 225) for b in boards)
    assert set().union(*(b.colours() for b in boards)) == {0, 1, 2, 3, 4}
    first = boards[0]
    assert first.cells[0][:5] == (3, 1, 1, 4, 1)  # the file's first line is the top row
    assert first.at(0, 14) == 3 and first.at(14, 0) == 2
    single = "\n".join(STANDARD.read_text().split("\n\n")[0].splitlines())
    assert parse_board(single) == first
    with pytest.raises(InputError, match="several boards") as info:
        read_board(STANDARD)
    assert info.value.line == 17
    assert "standard.py" in str(info.value)  # the message names what reads a whole set
    with pytest.raises(InputError, match="several boards") as info:  # rows of digits were merged into one board
        parse_board("12\n21\n\n11\n22\n")
    assert info.value.line == 4
    assert parse_board("# a board\n\n12\n21\n\n") == parse_board("12\n21\n")


def test_old_mac_line_ends_are_refused_not_read_as_one_row(tmp_path):
    """A file with a carriage return alone at each line's end was read as the one row "12 21"."""
    path = tmp_path / "cr.txt"
    path.write_bytes(b"12\r21\r")
    with pytest.raises(InputError, match="carriage return alone"):
        read_board(path)
    path.write_bytes(b"12\r\n21\r\n")
    assert read_board(path) == parse_board("12\n21\n")


@pytest.mark.parametrize(
    "text,line,message",
    [
        ("", 1, "empty board file"),
        ("# only a comment\n\n", 1, "empty board file"),
        ("12\n123\n", 2, "ragged row: 3 cells, the first row has 2"),
        # digit rows, then a spaced row: "0102" was read as the number 102 and line 1 blamed
        ("0102\n1201\ngarbage here 1 2\n", 3, "4 words where line 1 has 1"),
        ("0 1 0\n1201\n1 2 1\n", 2, "1 word where line 1 has 3"),
        ("1 2 1 2\n1 2 1\n2 1 2\n", 1, "4 words where line 2 has 3"),  # the odd first row is the one named
        ("12\n1*\n", 2, "unknown symbol '*'"),
        ("12\n1A\n", 2, "unknown symbol 'A'"),
        ("1.\n..\n", 2, "column 0: empty cell below the tile on line 1"),
        ("# c\n.1\n.2\n", 3, "column 0 is empty but column 1 is not"),
        ("3 40\n1 1\n", 1, "colour must be between -1 and 35, got 40"),
        ("3 x\n1 1\n", 1, "colour must be an integer, got 'x'"),
        ("3 " + "9" * 30 + "\n1 1\n", 1, "a number of 30 digits"),
        ("empty 1\n12\n", 1, "unknown header 'empty 1'"),
        ("Empty 2\n12\n", 1, "unknown header 'Empty 2'"),
        ("empty 0\n1.\n", 2, "unknown symbol '.'"),
        ("empty 0\n3 -1\n1 1\n", 2, "colour must be between 0 and 35, got -1"),
        ("1" * 65 + "\n", 1, "row of 65 cells; at most 64 columns"),
        ("1\n" * 65, 65, "65 rows; at most 64 are read"),
    ],
)
def test_bad_boards_name_the_line(text: str, line: int | None, message: str) -> None:
    with pytest.raises(InputError) as info:
        parse_board(text, "b.txt")
    assert info.value.line == line and info.value.path == "b.txt"
    assert message in str(info.value)
    assert str(info.value).startswith("b.txt" + (f":{line}" if line else "") + ": ")


def test_zero_empty_header_reads_the_formal_models_boards() -> None:
    """``empty 0``: 0 is an empty cell and colours are numbered from 1, in either row format."""
    ints = parse_board("empty 0\n0 0 0\n2 0 0\n1 3 0\n")
    chars = parse_board("# the formal model's board\nempty 0\n000\n200\n130\n")
    assert ints == chars == parse_board("...\n2..\n13.\n")
    assert ints.colours() == {1, 2, 3} and ints.tiles() == 3
    with pytest.raises(InputError, match="empty cell below"):
        parse_board("empty 0\n1 0\n0 0\n")


def test_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such board file"):
        read_board(tmp_path / "missing.txt")
    with pytest.raises(InputError, match="directory"):
        read_board(tmp_path)
    (tmp_path / "bin.txt").write_bytes(b"12\n\x0012\n")
    with pytest.raises(InputError, match="binary data"):
        read_board(tmp_path / "bin.txt")
    (tmp_path / "set.txt").write_text("0 1\n1 0\n\n0 1 2\n0 1\n")
    with pytest.raises(InputError) as info:
        read_standard_set(tmp_path / "set.txt")
    assert info.value.line == 5 and "ragged" in str(info.value)
    (tmp_path / "none.txt").write_text("# nothing\n")
    with pytest.raises(InputError, match="no boards"):
        read_standard_set(tmp_path / "none.txt")
