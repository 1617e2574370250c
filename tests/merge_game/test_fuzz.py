"""Hostile input: only InputError (a MipgamesError) may escape the readers and codecs, and quickly."""

import json
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from mipgames.core.errors import InputError
from mipgames.merge_game.codec import _KEYS, instance_from_json, solution_from_json
from mipgames.merge_game.graphs import read_graph
from mipgames.merge_game.instance import Hero, Instance, Stone, read

from ..fuzzing import FAST, INSERTS, mutate

FOLDER = Path(__file__).resolve().parents[2] / "instances" / "merge_game"
BUNDLED = sorted(p for p in FOLDER.iterdir() if p.suffix in (".txt", ".json", ".graph"))
SMALL = Instance(2, 1, (Hero(1, 1, 1),), (Stone(2, 1, 1),))


def reads_or_refuses(path: Path) -> None:
    try:
        read_graph(path) if path.suffix == ".graph" else read(path)
    except InputError as exc:
        assert len(str(exc)) < 600, str(exc)


@FAST
@given(st.binary(max_size=400), st.sampled_from([".txt", ".json", ".graph"]))
def test_random_bytes(tmp_path, data, suffix):
    path = tmp_path / f"x{suffix}"
    path.write_bytes(data)
    reads_or_refuses(path)


@FAST
@given(st.sampled_from(BUNDLED), st.integers(0, 10**9), st.integers(1, 4))
def test_mutated_bundled_instances(tmp_path, source, seed, rounds):
    rng = random.Random(seed)
    text = source.read_text()
    for _ in range(rounds):
        text = mutate(text, rng, INSERTS + ("attack b: ",))
    path = tmp_path / f"m{source.suffix}"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    reads_or_refuses(path)


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
KEYS = st.sampled_from(sorted(_KEYS))
"""The fields an instance file may have, as the codec lists them."""


@settings(FAST, max_examples=80)
@given(st.dictionaries(KEYS, JSONISH, max_size=8) | JSONISH)
def test_instance_json_of_any_shape(data):
    try:
        instance_from_json(data)
    except InputError:
        pass


@settings(FAST, max_examples=80)
@given(JSONISH)
def test_solution_json_of_any_shape(data):
    try:
        solution_from_json(SMALL, data)
    except InputError:
        pass


def test_hostile_files(tmp_path):
    cases = {
        "deep.json": "[" * 100_000,
        "huge.json": json.dumps({"width": 10**400, "height": 2, "heroes": [], "stones": []}),
        "digits.txt": "target: " + "9" * 1_000_000 + "\na1\n",
        "long.txt": "a" * 2_000_000 + "\n" + "a" * 3 + "\n",
        "nan.json": '{"width": NaN, "height": 2, "heroes": [], "stones": []}',
    }
    for name, text in cases.items():
        path = tmp_path / name
        path.write_text(text)
        try:
            read(path)
        except InputError as exc:
            assert len(str(exc)) < 600
