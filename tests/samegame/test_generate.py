"""Every size the SameGame generator takes is one its reader reads back (fault: ``--rows 65`` wrote a board the
reader refuses, ``--rows 30000 --cols 30000`` ran for ages): out of range is refused at parsing, exit 4."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mipgames.cli import main as cli
from mipgames.core.errors import UsageError
from mipgames.samegame.generate import random_board
from mipgames.samegame.instance import MAX_COLOURS, MAX_SIDE, read_board
from tests.fuzzing import refused_at_parsing


@pytest.mark.parametrize(
    "options",
    [
        ["--rows", "65", "--cols", "5"],
        ["--rows", "5", "--cols", "65"],
        ["--rows", "30000", "--cols", "30000"],
        ["--rows", "0"],
        ["--colours", "37"],
        ["--colours", "0"],
        ["--seed", "-1"],
        ["--seed", "1" + "0" * 30],
        ["--rows", "1e3"],
    ],
)
def test_sizes_the_reader_refuses_are_refused_at_parsing(tmp_path, capsys, options):
    refused_at_parsing(capsys, ["generate", "samegame", *options], tmp_path / "x.txt")


def test_the_api_refuses_boards_the_reader_refuses():
    with pytest.raises(UsageError):
        random_board(MAX_SIDE + 1, 5, 3)
    with pytest.raises(UsageError):
        random_board(5, MAX_SIDE + 1, 3)


@settings(max_examples=25, deadline=None)
@given(
    rows=st.sampled_from([1, 2, 7, MAX_SIDE]),
    cols=st.sampled_from([1, 3, 15, MAX_SIDE]),
    colours=st.integers(1, MAX_COLOURS),
    seed=st.integers(0, 2**31 - 1),
)
def test_every_accepted_size_is_read_back(tmp_path_factory, rows, cols, colours, seed):
    out = tmp_path_factory.mktemp("board") / "b.txt"
    options = ["--rows", str(rows), "--cols", str(cols), "--colours", str(colours), "--seed", str(seed)]
    assert cli(["generate", "samegame", *options, "-o", str(out)]) == 0
    assert read_board(out) == random_board(rows, cols, colours, seed)
