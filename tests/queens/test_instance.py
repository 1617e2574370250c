import pytest

from mipgames.core.errors import InputError
from mipgames.queens.codec import instance_from_json as from_json
from mipgames.queens.codec import instance_to_json as to_json
from mipgames.queens.instance import Queens, format_instance, parse, parse_moves, read

SPEC = "instances/queens/spec_example.txt"


def test_spec_example_reads():
    instance = read(SPEC)
    assert (instance.n, instance.k, len(instance.queens), instance.total) == (8, 1, 11, 64)
    assert instance.board[1] == (1, 2, 8, 8, 0, 0, 8, 0)


def test_round_trips():
    instance = read(SPEC)
    assert parse(format_instance(instance)) == instance
    assert from_json(to_json(instance)) == instance


@pytest.mark.parametrize(
    "text, line, words",
    [
        ("", 1, "empty input"),
        ("2 3\n1\n0 0\n0 0\n", 1, "only N"),
        ("x\n1\n", 1, "N must be an integer"),
        ("0\n1\n", 1, "N must be between 1 and 128"),
        ("129\n1\n", 1, "between 1 and 128"),
        ("2\n", 2, "missing K"),
        ("2\n-1\n0 0\n0 0\n", 2, "K must be between 0 and 16384"),
        ("2\n100000000000000000000000000000\n0 0\n0 0\n", 2, "got a number of"),
        ("2\n1\n1 1\n", 4, "expected 2 board rows"),
        ("2\n1\n1 1\n0 0\n0 0\n", 5, "extra data"),
        ("2\n1\n1 1 1\n0 0\n", 3, "row has 3 values"),
        ("2\n1\n1\n0 0\n", 3, "row has 1 values"),
        ("2\n1\n1 1\n0 6\n", 4, "neither 0 nor a power of two"),
        ("2\n1\n1 1\n0 -2\n", 4, "must be between 0 and"),
        ("2\n1\n1 1\n0 1152921504606846976\n", 4, "must be between 0 and"),
        ("2\n1\n1 a\n0 0\n", 3, "must be an integer"),
        (f"2\n1\n{1 << 59} {1 << 59}\n0 0\n", 3, "2^60"),
    ],
)
def test_bad_input_names_the_line(text, line, words):
    with pytest.raises(InputError) as caught:
        parse(text, "in.txt")
    assert caught.value.line == line
    assert words in str(caught.value)
    assert str(caught.value).startswith(f"in.txt:{line}: ")


def test_total_just_below_the_limit_is_accepted():
    instance = parse(f"2\n1\n{1 << 58} {1 << 58}\n{1 << 58} {1 << 57}\n")
    assert instance.total == (1 << 60) - (1 << 57)


def test_unreadable_file(tmp_path):
    with pytest.raises(InputError, match="no such queens board"):
        read(tmp_path / "missing.txt")


def test_moves_format():
    assert parse_moves("0 1 1 1\n\n2 2 3 3\n") == [(1, (0, 1, 1, 1)), (3, (2, 2, 3, 3))]
    with pytest.raises(InputError) as caught:
        parse_moves("0 1 1 1\n0 1 1\n", "m.txt")
    assert caught.value.line == 2
    with pytest.raises(InputError, match="integer"):
        parse_moves("0 1 1 x\n")
    with pytest.raises(InputError, match="got 5 values") as caught:  # not an unpacking traceback
        parse_moves("0 1 1 1\n0 1 1 1 2\n", "m.txt")
    assert caught.value.line == 2


def test_queens_are_row_major():
    instance = Queens(2, 1, ((0, 2), (1, 0)))
    assert instance.queens == [(0, 1, 2), (1, 0, 1)]
