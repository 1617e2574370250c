"""Hostile input: only InputError (a MipgamesError) may escape the board and moves readers and the codec."""

import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from mipgames.core.errors import InputError
from mipgames.queens.codec import instance_from_json, solution_from_json
from mipgames.queens.instance import Queens, read, read_moves

from ..fuzzing import FAST, mutate

FOLDER = Path(__file__).resolve().parents[2] / "instances" / "queens"
BUNDLED = sorted(FOLDER.glob("*.txt")) + sorted(FOLDER.glob("*.moves"))
SMALL = Queens(2, 1, ((1, 1), (0, 0)))


def reads_or_refuses(path: Path) -> None:
    try:
        read_moves(path) if path.suffix == ".moves" else read(path)
    except InputError as exc:
        assert len(str(exc)) < 600, str(exc)


@FAST
@given(st.binary(max_size=300), st.sampled_from([".txt", ".moves"]))
def test_random_bytes(tmp_path, data, suffix):
    path = tmp_path / f"x{suffix}"
    path.write_bytes(data)
    reads_or_refuses(path)


@FAST
@given(st.sampled_from(BUNDLED), st.integers(0, 10**9), st.integers(1, 4))
def test_mutated_bundled_files(tmp_path, source, seed, rounds):
    rng = random.Random(seed)
    text = source.read_text()
    for _ in range(rounds):
        text = mutate(text, rng)
    path = tmp_path / f"m{source.suffix}"
    path.write_text(text)
    reads_or_refuses(path)


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=25,
)


@settings(FAST, max_examples=80)
@given(
    st.fixed_dictionaries(
        {
            "n": st.integers(-2, 4) | JSONISH,
            "k": st.integers(-1, 3) | JSONISH,
            "board": st.lists(st.lists(st.integers(-1, 9) | JSONISH, max_size=4), max_size=4),
        }
    )
    | JSONISH
)
def test_instance_json_of_any_shape(data):
    try:
        instance_from_json(data)
    except InputError:
        pass


@settings(FAST, max_examples=80)
@given(JSONISH | st.lists(st.lists(st.integers(-(10**30), 10**30), max_size=5), max_size=4))
def test_solution_json_of_any_shape(data):
    try:
        solution_from_json(SMALL, data)
    except InputError:
        pass
