"""Every size and colour count the edge-matching generator takes gives a file its reader reads back (fault:
``--rows 1001`` wrote a file the reader refuses; ``--inner-colours 2000000000`` built a list of 2·10^9 colours
and ate 24 GB): out of range is refused at parsing, or before any work for rows x cols, with exit 4."""

from __future__ import annotations

import resource
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mipgames.cli import main as cli
from mipgames.edge_matching.generate import planted
from mipgames.edge_matching.instance import MAX_CELLS, MAX_COLOUR, MAX_SIDE, read
from tests.fuzzing import refused_at_parsing


@pytest.mark.parametrize(
    "options",
    [
        ["--rows", "1001", "--cols", "1", "--inner-colours", "2"],
        ["--rows", "1", "--cols", "1001", "--inner-colours", "2"],
        ["--rows", "0", "--inner-colours", "2"],
        ["--rows", "3", "--inner-colours", "2000000000"],
        ["--rows", "3", "--inner-colours", str(MAX_COLOUR + 1)],
        ["--rows", "3", "--inner-colours", "0"],
        ["--rows", "3", "--frame", "--rim-colours", str(MAX_COLOUR + 1), "--inner-colours", "2"],
        ["--rows", "3", "--rim-colours", "-1", "--inner-colours", "2"],
        ["--rows", "3", "--inner-colours", "2", "--seed", "-5"],
    ],
)
def test_sizes_the_reader_refuses_are_refused_at_parsing(tmp_path, capsys, options):
    refused_at_parsing(capsys, ["generate", "edge-matching", *options], tmp_path / "y.txt")


@pytest.mark.parametrize(
    "options",
    [
        ["--rows", "501", "--cols", "500", "--inner-colours", "2"],  # each side fine, 250,500 cells too many
        ["--rows", "3", "--frame", "--rim-colours", str(MAX_COLOUR), "--inner-colours", "1"],  # labels past 10^9
    ],
)
def test_combinations_the_reader_refuses_exit_4_before_any_work(tmp_path, capsys, options):
    out = tmp_path / "y.txt"
    assert cli(["generate", "edge-matching", *options, "-o", str(out)]) == 4
    assert not out.exists()
    err = capsys.readouterr().err
    assert err.startswith("mipgames: ") and err.count("\n") == 1


def _one_gigabyte() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def test_the_most_colours_cost_no_memory():
    """In a child with 1 GB of address space: a list of 10^9 colours would fail there, not eat the machine."""
    code = (
        "from mipgames.edge_matching.generate import planted\n"
        f"inst, _ = planted(3, 4, True, 5, {MAX_COLOUR - 5}, 1)\n"
        f"assert max(inst.colours()) <= {MAX_COLOUR}\n"
        "print('ok')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], preexec_fn=_one_gigabyte, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and done.stdout == "ok\n", done.stderr[-500:]


@pytest.mark.parametrize("rows, cols", [(MAX_SIDE, 1), (1, MAX_SIDE), (2, MAX_SIDE)])
def test_the_longest_sides_are_read_back(tmp_path, rows, cols):
    out = tmp_path / "e.txt"
    options = ["--rows", str(rows), "--cols", str(cols), "--inner-colours", "3", "--seed", "2"]
    assert cli(["generate", "edge-matching", *options, "-o", str(out)]) == 0
    assert read(out) == planted(rows, cols, False, 0, 3, 2)[0]


def test_the_cell_limit_is_the_readers():
    assert planted(MAX_CELLS // MAX_SIDE, MAX_SIDE, False, 0, 1, 0)[0].cells == MAX_CELLS  # the largest accepted
    with pytest.raises(ValueError, match="cells"):
        planted(MAX_CELLS // MAX_SIDE + 1, MAX_SIDE, False, 0, 1, 0)


@settings(max_examples=25, deadline=None)
@given(
    rows=st.integers(2, 6),
    cols=st.integers(2, 6),
    frame=st.booleans(),
    rim=st.integers(1, 4),
    inner=st.sampled_from([1, 2, 5, 1000, MAX_COLOUR - 4]),
    seed=st.integers(0, 2**31 - 1),
)
def test_every_accepted_combination_is_read_back(tmp_path_factory, rows, cols, frame, rim, inner, seed):
    out = tmp_path_factory.mktemp("em") / "e.txt"
    options = ["--rows", str(rows), "--cols", str(cols), "--inner-colours", str(inner), "--seed", str(seed)]
    options += ["--frame", "--rim-colours", str(rim)] if frame else []
    assert cli(["generate", "edge-matching", *options, "-o", str(out)]) == 0
    assert read(out) == planted(rows, cols, frame, rim, inner, seed)[0]
