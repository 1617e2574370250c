"""Hostile input for SameGame's readers and codecs: only InputError may come out, quickly, with short messages.

Random bytes, and mutations of real files (the bundled boards, the standard set, move lists):
truncation, duplicated or deleted lines, huge and negative numbers, non-ASCII, NUL bytes.
"""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mipgames.core.errors import InputError
from mipgames.core.files import read_text
from mipgames.samegame import codec, simulate
from mipgames.samegame.commands import parse_moves, read_moves
from mipgames.samegame.instance import parse_board, read_board, read_standard_set

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = sorted((ROOT / "instances" / "samegame").glob("*.txt"))
STANDARD = Path("/work/shared/benchmarks/samegame/standard_20.txt")
SEEDS = [p.read_text() for p in BUNDLED] + [
    "empty 0\n0 0 0\n2 0 0\n1 3 0\n",
    "3 1 1\n0 4 2\n1 1 0\n",
    "# moves\n0 0\n(1,0)\n2, 3\n",
    "[[0, 0], [1, 2]]\n",
]
if STANDARD.exists():
    SEEDS.append("\n".join(STANDARD.read_text().splitlines()[:40]) + "\n")

WEIRD = [
    "",
    "\x00",
    "é",
    "😀",
    "-1",
    "-99999999999999999999",
    "9" * 40,
    "1e9",
    "0x10",
    ".",
    "#",
    "empty 0",
    "empty",
    "[",
    "]",
    "{}",
    "nan",
    " " * 50,
    "\t",
    "\r",
    "1 " * 70,
    "z" * 70,
]


@st.composite
def mutated(draw) -> str:
    """A real file with a few random edits."""
    lines = draw(st.sampled_from(SEEDS)).split("\n")
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.integers(0, 5))
        k = draw(st.integers(0, max(0, len(lines) - 1)))
        if kind == 0 and lines:
            del lines[k]
        elif kind == 1 and lines:
            lines.insert(k, lines[k])
        elif kind == 2:
            lines.insert(k, draw(st.sampled_from(WEIRD)))
        elif kind == 3 and lines and lines[k]:
            cut = draw(st.integers(0, len(lines[k])))
            lines[k] = lines[k][:cut] + draw(st.sampled_from(WEIRD)) + lines[k][cut:]
        elif kind == 4:
            lines = lines[: k + 1]
        else:
            lines = lines * draw(st.integers(2, 5))
    return "\n".join(lines)


def check_message(exc: InputError) -> None:
    assert len(str(exc)) < 400, str(exc)


def read_all(data: bytes) -> None:
    """Every file reader on these bytes: a value or an InputError, nothing else."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "input.txt"
        path.write_bytes(data)
        for reader in (read_board, read_standard_set, read_moves):
            try:
                reader(path)
            except InputError as exc:
                check_message(exc)
        try:
            text = read_text(path)
        except InputError:
            return
        try:
            board = parse_board(text)
        except InputError as exc:
            check_message(exc)
        else:
            assert codec.instance_from_json(codec.instance_to_json(board)) == board
            assert simulate.evaluate(board, {"objective": "score"}, []).legal in (True, False)


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_files_give_input_errors_only(text: str) -> None:
    began = time.monotonic()
    read_all(text.encode("utf-8", "surrogatepass"))
    assert time.monotonic() - began < 5.0


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.binary(max_size=600))
def test_random_bytes_give_input_errors_only(data: bytes) -> None:
    read_all(data)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(json_values)
def test_codecs_refuse_any_json_with_input_errors_only(data: object) -> None:
    board = parse_board("112\n122\n")
    for decode in (codec.instance_from_json, lambda d: codec.solution_from_json(board, d)):
        try:
            decoded = decode(data)
        except InputError as exc:
            check_message(exc)
            continue
        if decode is codec.instance_from_json:
            assert codec.instance_from_json(codec.instance_to_json(decoded)) == decoded
        else:  # a well-formed solution: the simulator judges it without raising
            verdict = simulate.evaluate(board, {"objective": "score"}, decoded)
            assert verdict.legal in (True, False)
    text = json.dumps(data)
    try:
        parse_moves(text)
    except InputError as exc:
        check_message(exc)


def test_a_huge_line_is_quoted_short() -> None:
    for text in ("1" * 10**6 + "\n", "1 " * 10**5 + "\n", "0 x" + "y" * 10**6 + "\n"):
        try:
            parse_board(text, "b.txt")
        except InputError as exc:
            assert len(str(exc)) < 200
        else:
            raise AssertionError("accepted")
    try:
        parse_moves("(" + "1" * 10**5 + ",2)\n", "m.txt")
    except InputError as exc:
        assert len(str(exc)) < 200 and "m.txt:1" in str(exc)
    else:
        raise AssertionError("accepted")
