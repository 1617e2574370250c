import json

import pytest

from mipgames.core.errors import InputError
from mipgames.edge_matching.codec import (
    instance_from_json,
    instance_to_json,
    solution_from_json,
)
from mipgames.edge_matching.instance import Hint, Instance, read, write

from .helpers import coursework


def _write(tmp_path, text, name="p.txt"):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_coursework_reads_as_no_frame_4x4():
    inst = coursework()
    assert (inst.rows, inst.cols, len(inst.tiles), inst.frame) == (4, 4, 16, False)
    assert inst.tiles[0] == (1, 2, 3, 5) and inst.tiles[15] == (6, 3, 2, 1)
    assert inst.inner_edges == 24


def test_native_with_comments_hints_and_rectangle(tmp_path):
    p = _write(tmp_path, "# c\n2 3  # rows cols\n" + "1 2 3 4\n" * 6 + "hint 1 2 5 3\n")
    inst = read(p)
    assert (inst.rows, inst.cols) == (2, 3) and inst.hints == (Hint(1, 2, 5, 3),)


def test_heule_format_detected(tmp_path):
    p = _write(tmp_path, "1\n0 0 3 1\n" + "0 1 2 0\n" * 9)
    inst = read(p)
    assert (inst.rows, inst.cols, inst.frame) == (3, 3, True) and inst.hints == (Hint(0, 0, 3, 1),)


def test_write_then_read_round_trip(tmp_path):
    inst = Instance(
        2,
        2,
        ((0, 1, 2, 3), (4, 5, 6, 7), (1, 1, 1, 1), (2, 2, 2, 2)),
        (Hint(0, 1, 2, 3),),
    )
    write(inst, tmp_path / "x.txt")
    assert read(tmp_path / "x.txt") == inst
    assert instance_from_json(json.loads(json.dumps(instance_to_json(inst)))) == inst


BAD = {
    "too few tiles": ("2 2\n1 1 1 1\n1 1 1 1\n1 1 1 1\n", "wrong tile count", 4),
    "too many tiles": ("1 1\n1 1 1 1\n1 1 1 1\n", "wrong tile count", 3),
    "the first tile too many is named": ("1 1\n1 1 1 1\n1 1 1 1\n2 2 2 2\n", "this is one more", 3),
    "a line after the last tile is quoted": ("1 1\n1 1 1 1\ngarbage\n", "this is one more: 'garbage'", 3),
    "a short hint line is quoted": ("1 1\n1 1 1 1\nhint 0 0\n", "tile turns', got 'hint 0 0'", 3),
    "non-integer colour": ("1 1\n1 x 1 1\n", "must be an integer", 2),
    "float size": ("1.5 1\n1 1 1 1\n", "must be an integer", 1),
    "negative colour": ("1 1\n1 -2 1 1\n", "colour must be between 0", 2),
    "three colours": ("1 1\n1 1 1\n", "needs 4 colours", 2),
    "hint off board": ("1 1\n1 1 1 1\nhint 1 0 0 0\n", "row on a 1x1 board", 3),
    "hint missing tile": (
        "1 1\n1 1 1 1\nhint 0 0 7 0\n",
        "tile must be between 0 and 0, got 7",
        3,
    ),
    "hint bad turns": ("1 1\n1 1 1 1\nhint 0 0 0 4\n", "turns", 3),
    "short hint": ("1 1\n1 1 1 1\nhint 0 0 0\n", "hint line", 3),
    "zero size": ("0 3\n", "rows must be between 1", 1),
    "bad header": ("1 2 3\n", "first line", 1),
    "empty": ("# nothing\n", "no content", 1),
    "heule not square": ("0\n" + "1 1 1 1\n" * 5, "square", 6),
    "heule hint off board": ("1\n5 0 0 0\n" + "1 1 1 1\n" * 4, "row on a 2x2 board", 2),
    "heule hint missing tile": ("1\n0 0 9 0\n" + "1 1 1 1\n" * 4, "got 9", 2),
    "heule no pieces": ("0\n", "no pieces", 1),
    "heule negative hint count": ("-1\n1 1 1 1\n", "hint lines must be between 0", 1),
    "tile after hint": ("1 1\nhint 0 0 0 0\n1 1 1 1\n", "after a hint", 3),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_names_file_line_and_what(tmp_path, case):
    text, what, line = BAD[case]
    p = _write(tmp_path, text)
    with pytest.raises(InputError) as err:
        read(p)
    assert what in err.value.message
    assert err.value.line == line and err.value.path == str(p)
    assert str(err.value).startswith(f"{p}:{line}: ")


def test_missing_file_and_binary(tmp_path):
    with pytest.raises(InputError):
        read(tmp_path / "nope.txt")
    p = tmp_path / "b.txt"
    p.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(InputError):
        read(p)


def test_malformed_json_instance_and_solution():
    with pytest.raises(InputError):
        instance_from_json({"rows": 2, "cols": 2, "tiles": [[1, 1, 1, 1]]})
    with pytest.raises(InputError):
        solution_from_json(coursework(), [[1, 2, 3], 5])
