"""Command parsing, output format, tie-breaks, malformed lines and huge integers."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mipgames.samegame2.commands import main
from mipgames.samegame2.interpreter import (
    COORD_LIMIT,
    MAX_LINE,
    Interpreter,
    read_lines,
)

ROOT = Path(__file__).resolve().parents[2]


def run(script: str | bytes) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    lines = script.splitlines(keepends=True)
    status = Interpreter(out, err).run(lines)
    return status, out.getvalue(), err.getvalue()


def ring(colour_of=lambda x, y: "a") -> str:
    """A ring around the empty (0, 1): two equally short ways from (0, 0) to (0, 2)."""
    cells = [(0, 0), (-1, 0), (1, 0), (-1, 1), (1, 1), (-1, 2), (1, 2), (0, 2)]
    return "".join(f"b {x} {y} {colour_of(x, y)}\n" for x, y in cells)


def test_homogeneous_tie_break_prefers_the_left_neighbour() -> None:
    assert run(ring() + "o 0 0 0 2\n") == (0, "(0,5\n0,0\n-1,0\n-1,1\n-1,2\n0,2\n)\n", "")


def test_variability_tie_break_and_key_order() -> None:
    # Left way a b b b a: 2 changes; right way all a: 0 changes, so the right way wins.
    left = {(-1, 0), (-1, 1), (-1, 2)}
    _status, out, _ = run(ring(lambda x, y: "b" if (x, y) in left else "a") + "c 0 0 0 2\n")
    assert out == "(0,5\n0,0\n1,0\n1,1\n1,2\n0,2\n)\n"
    # All one colour: a tie in (variability, length); the first settled way (left) is kept.
    assert run(ring() + "c 0 0 0 2\n")[1] == "(0,5\n0,0\n-1,0\n-1,1\n-1,2\n0,2\n)\n"
    # Less variability beats shorter: a direct b-step costs 2 changes, the detour 0.
    script = ring() + "b 0 1 b\nc 0 0 0 2\n"
    assert run(script)[1] == "(0,5\n0,0\n-1,0\n-1,1\n-1,2\n0,2\n)\n"
    assert run(script + "o 0 0 0 1\nc 0 0 0 1\n")[1].endswith(
        "Non esiste un cammino omogeneo fra (0,0) e (0,1)\n(1,2\n0,0\n0,1\n)\n"
    )


def test_single_cell_paths_and_missing_balls() -> None:
    status, out, err = run("b -3 4 rosso\no -3 4 -3 4\nc -3 4 -3 4\no 9 9 -3 4\nc -3 4 9 9\nn\n")
    assert out == (
        "(0,1\n-3,4\n)\n(0,1\n-3,4\n)\n"
        "Non esiste un cammino omogeneo fra (9,9) e (-3,4)\n"
        "Non esiste un cammino fra (-3,4) e (9,9)\n1\n"
    )
    assert (status, err) == (0, "")


def test_spec_i_example(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "t.txt").write_text("blu rosso 0\nbianco 0 nero\n")
    monkeypatch.chdir(tmp_path)  # a relative FILE is resolved against the current directory
    status, out, err = run("b 6 5 verde\nb 5 6 giallo\ni 2 3 4 5 t.txt\nc 4 5 6 5\nc 4 6 6 6\nn\n")
    assert out == "(2,3\n4,5\n5,5\n6,5\n)\n(2,3\n4,6\n5,6\n6,6\n)\n6\n"
    assert (status, err) == (0, "")


def test_move_on_empty_cell_restabilises_the_base() -> None:
    _status, out, _ = run("b 5 5 a\nb 9 7 b\nm 0 0 0 10 0 10\no 0 0 0 0\no 1 0 1 0\nn\n")
    assert out == "(0,1\n0,0\n)\n(0,1\n1,0\n)\n2\n"


def test_block_reaches_outside_the_base_but_only_the_inside_goes() -> None:
    _status, out, _ = run("b 0 0 a\nb 1 0 a\nb 2 0 a\nb 0 1 b\nm 0 0 0 1 0 1\no 0 0 0 0\no 2 0 2 0\nc 1 0 1 0\nn\n")
    # (0,0) and (1,0) go; the b at (0,1) falls to (0,0); (2,0) is outside the base and stays.
    assert out == ("(0,1\n0,0\n)\n(0,1\n2,0\n)\nNon esiste un cammino fra (1,0) e (1,0)\n2\n")


def test_coordinates_up_to_the_limit() -> None:
    top = COORD_LIMIT
    status, out, err = run(
        f"b {-top} 0 a\nb {-top + 1} 0 a\nb {top} {top} a\nb +{top} -{top} b\n"
        f"o {-top} 0 {-top + 1} 0\nn\nm {-top} 0 {-top} {top} {-top} {top}\nn\n"
        f"c {-top} {-top} {-top} {-top + 1}\nb -000{top} 0{top} c\no -{top} {top} -{top} {top}\n"
    )
    assert (status, err) == (0, "")
    # the move removes the a pair; column top (b below a) falls to row -top and packs to column -top
    assert out == (
        f"(0,2\n{-top},0\n{-top + 1},0\n)\n3\n2\n(1,2\n{-top},{-top}\n{-top},{-top + 1}\n)\n(0,1\n{-top},{top}\n)\n"
    )


OUT_OF_RANGE = [
    ("b 1" + "0" * 4300 + " 0 a", "x has 4,301 digits; integers of at most 4,300 digits are read"),
    ("o 0 -1" + "0" * 4300 + " 0 0", "y1 has 4,301 digits; integers of at most 4,300 digits are read"),
    ("m 0 0 0 1 0 " + "9" * 10**6, "y1 has 1,000,000 digits; integers of at most 4,300 digits are read"),
    ("b -" + "7" * 5000 + " 0 a", "x has 5,000 digits; integers of at most 4,300 digits are read"),
    ("i 1 " + "1" * 4301 + " 0 0 t.txt", "c has 4,301 digits; integers of at most 4,300 digits are read"),
    ("x" * (MAX_LINE + 1), "line longer than 1,048,576 characters"),
]


@pytest.mark.parametrize("line,message", OUT_OF_RANGE, ids=range(len(OUT_OF_RANGE)))
def test_out_of_range_numbers_are_refused(
    line: str, message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "t.txt").write_text("a a\n")
    monkeypatch.chdir(tmp_path)
    status, out, err = run(f"b 0 0 a\n{line}\nn\n")
    assert (status, out) == (1, "1\n")
    assert err.startswith("<stdin>:2: " + message) and err.count("\n") == 1 and len(err) < 300


MALFORMED = [
    ("x 1 2", "unknown command 'x'"),
    ("B 0 0 blu", "unknown command 'B'"),
    ("b 1 2", "'b' takes 3 fields"),
    ("b 1 2 blu rosso", "'b' takes 3 fields"),
    ("m 1 2 3", "'m' takes 6 fields"),
    ("o 1 2 3", "'o' takes 4 fields"),
    ("c 1 2 3 4 5", "'c' takes 4 fields"),
    ("n 5", "'n' takes 0 fields"),
    ("f now", "'f' takes 0 fields"),
    ("i 1 1 0 0", "'i' takes 5 fields"),
    ("b 1.5 2 blu", "x is not an integer: '1.5'"),
    ("b 1 two blu", "y is not an integer: 'two'"),
    ("b \u0661 2 blu", "x is not an integer"),
    ("m 0 0 0 5 0 1e3", "y1 is not an integer: '1e3'"),
    ("o 0 0 0 --1", "y2 is not an integer"),
    ("b 0 0 Blu", "colour must be lowercase letters a-z, got 'Blu'"),
    ("b 0 0 blu1", "colour must be lowercase letters"),
    ("b 0 0 0", "colour must be lowercase letters"),
    ("b 0 0 citt\u00e0", "colour must be lowercase letters"),
    ("m 0 0 5 4 0 0", "empty base: x0 = 5 > x1 = 4"),
    ("m 0 0 0 4 3 2", "empty base: y0 = 3 > y1 = 2"),
    ("i -1 2 0 0 t.txt", "r must be at least 0, got -1"),
    ("i 1 1 0 0 missing.txt", "FILE 'missing.txt': no such file"),
    ("i 1 1 0 0 .", "FILE '.': this file is a directory; only regular files are read"),
    ("i 1 1 0 0 fifo", "FILE 'fifo': this file is a FIFO; only regular files are read"),
    ("i 1 1 0 0 /dev/zero", "FILE '/dev/zero': this file is a character device"),
    ("i 3 2 0 0 t.txt", "FILE 't.txt' is short: 3x2 = 6 words needed, found 4"),
    ("i 2 2 0 0 bad.txt", "FILE 'bad.txt' line 2: word 3 is neither a colour (lowercase letters a-z) nor 0\n"),
    ("i 1 1 0 0 latin1.txt", "FILE 'latin1.txt' line 2: this file is not UTF-8 text"),
    ("i 1 1 0 0 nul.txt", "FILE 'nul.txt' line 1: this file holds binary data"),
    ("i 1 1 0 0 t\x00.txt", "FILE 't?.txt': not a valid file name"),
    ("i 1 1 0 0 " + "d/" * 3000 + "t.txt", "FILE 'd/d/d/d/d/"),
]


@pytest.mark.parametrize("line,message", MALFORMED)
def test_malformed_line_is_reported_and_changes_nothing(
    line: str, message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "t.txt").write_text("blu rosso\nverde 0\n")
    (tmp_path / "bad.txt").write_text("blu rosso\nNero verde\n")
    (tmp_path / "latin1.txt").write_bytes("a\ncitt\u00e0\n".encode("latin-1"))
    (tmp_path / "nul.txt").write_bytes(b"a\x00\n")
    os.mkfifo(tmp_path / "fifo")
    monkeypatch.chdir(tmp_path)
    status, out, err = run(f"b 0 0 blu\n{line}\nn\no 0 0 0 0\nb 0 1 blu\nn\n")
    assert status == 1
    assert out == "1\n(0,1\n0,0\n)\n1\n"  # the bad line changed nothing, the run went on
    assert err.count("\n") == 1 and err.startswith("<stdin>:2: ")
    assert message in err


def test_bad_utf8_line_blank_lines_and_f() -> None:
    status, out, err = run(b"b 0 0 a\n\n   \nb 1 0 \xff\xfe\nn\nf\nzzz\nn\n")
    assert (status, out) == (1, "1\n")
    assert err.startswith("<stdin>:4: colour must be lowercase letters")
    assert err.count("\n") == 1  # nothing after f is read


def test_cli_file_argument_and_exit_status(tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    script.write_text("b 0 0 a\nb 0 1 a\nn\n")
    out, err = io.StringIO(), io.StringIO()
    assert main([str(script)], io.StringIO(""), out, err) == 0
    assert out.getvalue() == "1\n"
    out, err = io.StringIO(), io.StringIO()
    assert main([str(tmp_path / "nope.txt")], io.StringIO(""), out, err) == 4
    assert err.getvalue() == f"mipgames samegame2: {tmp_path / 'nope.txt'}: no such script\n" and out.getvalue() == ""
    out, err = io.StringIO(), io.StringIO()
    assert main([str(tmp_path)], io.StringIO(""), out, err) == 4
    assert err.getvalue().endswith("this script is a directory; only regular files are read\n")


def test_real_stdin_never_shows_a_traceback() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mipgames.samegame2.commands"],
        input=b"b 0 0 a\nb \x00 1 a\n\xc3\x28 1\nb 0 1 a\nn\n"
        + b"o "
        + b"9" * 100000
        + b" 0 0 0\n"
        + b"b 1 0 "
        + b"z" * (3 * MAX_LINE)
        + b"\nn\n",
        capture_output=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 1
    assert proc.stdout == b"1\n1\n"  # the over-long ball line was skipped whole
    assert b"Traceback" not in proc.stderr
    assert proc.stderr.decode().splitlines() == [
        "<stdin>:2: x is not an integer: '?'",
        "<stdin>:3: unknown command '\ufffd(' (commands: i b m o c n f)",
        "<stdin>:6: x1 has 100,000 digits; integers of at most 4,300 digits are read",
        "<stdin>:7: line longer than 1,048,576 characters: not a command",
    ]


def test_wired_into_the_mipgames_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from mipgames.cli import main as cli_main

    script = tmp_path / "s.txt"
    script.write_text("b 0 0 a\nb 1 0 a\nb 1 1 b\nn\nm 0 0 0 5 0 5\nc 0 0 0 0\nbad\n")
    assert cli_main(["samegame2", str(script)]) == 1
    captured = capsys.readouterr()
    assert captured.out == "2\n(0,1\n0,0\n)\n"
    assert captured.err == f"{script}:7: unknown command 'bad' (commands: i b m o c n f)\n"


token = st.one_of(
    st.sampled_from(["i", "b", "m", "o", "c", "n", "f", "0", "-1", "3", "a", "zz", "t.txt", "+2", "--", "ß"]),
    st.integers(-(10**20), 10**20).map(str),
    st.text(max_size=4),
)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(lines=st.lists(st.lists(token, max_size=8).map(" ".join), max_size=20))
def test_garbage_never_escapes(lines: list[str]) -> None:
    out, err = io.StringIO(), io.StringIO()
    interpreter = Interpreter(out, err)
    status = interpreter.run(line + "\n" for line in lines)
    assert status == (1 if interpreter.rejected else 0)
    assert len(err.getvalue().splitlines()) == interpreter.rejected


@pytest.mark.parametrize("text", [False, True])
@pytest.mark.parametrize("end", [b"\n", b"\r\n"])
def test_line_limit_is_exact_and_a_long_line_is_skipped_whole(text: bool, end: bytes) -> None:
    """A line of MAX_LINE characters (line end, LF or CRLF, not counted: CRLF counted one too many) runs; one
    more is refused, and its tail (here a field that would make `n` invalid) is never read as a line of its
    own."""
    fits = b"n" + b" " * (MAX_LINE - 1) + end
    over = b"n" + b" " * MAX_LINE + b"x" + end
    far = b"b 0 0 a" + b" " * (3 * MAX_LINE) + end
    data = fits + over + far + b"\xef\xbb\xbfn\n"
    stream = io.StringIO(data.decode()) if text else io.BytesIO(data)
    out, err = io.StringIO(), io.StringIO()
    assert Interpreter(out, err).run(read_lines(stream)) == 1
    assert out.getvalue() == "0\n"
    assert err.getvalue().splitlines() == [
        "<stdin>:2: line longer than 1,048,576 characters: not a command",
        "<stdin>:3: line longer than 1,048,576 characters: not a command",
        "<stdin>:4: unknown command '?n' (commands: i b m o c n f)",  # a BOM is dropped on line 1 only
    ]


def test_a_table_at_the_coordinate_limit_answers_with_one_more_digit(tmp_path: Path, monkeypatch) -> None:
    """`i` at x = 10^4300 - 1 makes a cell at 10^4300 + 1 (4,301 digits), which CPython refused to print: the
    run stopped with "internal error" and the lines after it never ran."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.txt").write_text("a a\n0 a\na a\n")
    x, past = "9" * 4300, "1" + "0" * 4300  # the largest coordinate read, and the table's column beyond it
    assert int(x) == COORD_LIMIT
    status, out, err = run(f"i 3 2 {x} 0 t.txt\nc {x} 0 {x} 2\nn\n")
    assert (status, err) == (0, "")
    assert f"\n{past},1\n" in out and out.endswith(")\n1\n")
    assert sys.get_int_max_str_digits() in (0, 4300)  # the limit is put back


def test_a_script_with_old_mac_line_ends_is_named_as_such_and_crlf_runs() -> None:
    """A script whose lines end in a carriage return alone was one line: "'b' takes 3 fields, got 8"."""
    out, err = io.StringIO(), io.StringIO()
    assert Interpreter(out, err).run(read_lines(io.BytesIO(b"b 0 0 blu\rb 1 0 blu\rn\r"))) == 1
    assert err.getvalue() == (
        "<stdin>:1: a carriage return inside the line (old Mac line ends?): save the script with line feeds "
        "(LF or CRLF)\n"
    )
    out, err = io.StringIO(), io.StringIO()
    assert Interpreter(out, err).run(read_lines(io.BytesIO(b"b 0 0 blu\r\nb 1 0 blu\r\nn\r\n"))) == 0
    assert (out.getvalue(), err.getvalue()) == ("1\n", "")
