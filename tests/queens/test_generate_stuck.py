"""The planted generator ends on every argument set: it refuses, with exit 4, splits that got stuck (fault: an
endless retry when no queen that can still be split saw an empty square), and stays the same for a seed."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mipgames.core.errors import UsageError
from mipgames.queens.generate import planted
from mipgames.queens.instance import format_instance, format_moves
from mipgames.queens.simulate import evaluate
from tests.fuzzing import hang_guard

STUCK = [(8, 1, 63, 1, None), (3, 1, 7, 2, 3), (4, 1, 15, 2, None), (16, 1, 255, 0, None), (128, 1, 16383, 3, None)]
"""(n, k, moves, seed, exponent) that looped forever before."""


@pytest.mark.parametrize("n, k, moves, seed, exponent", STUCK)
def test_stuck_splits_are_refused(n, k, moves, seed, exponent):
    with hang_guard(20), pytest.raises(UsageError, match="stuck after"):
        planted(n, k, moves, seed, exponent)


def test_stuck_splits_exit_4_with_one_message(capsys):
    from mipgames.cli import main as cli

    with hang_guard(20):
        assert cli(["generate", "queens", "--n", "8", "--k", "1", "--moves", "63", "--seed", "1"]) == 4
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("mipgames: stuck after 62 of 63 splits") and err.count("\n") == 1


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(1, 7),
    k=st.integers(1, 4),
    fill=st.floats(0, 1),
    seed=st.integers(0, 2**31 - 1),
    exponent=st.none() | st.integers(0, 10),
)
def test_planted_ends_with_a_solution_or_a_refusal(n, k, fill, seed, exponent):
    moves = round(fill * max(0, n * n - k))
    with hang_guard(10):
        try:
            case = planted(n, k, moves, seed, exponent)
        except UsageError:
            return
    assert len(case.instance.queens) == k + moves
    verdict = evaluate(case.instance, {}, case.solution)
    assert verdict.legal and verdict.objective == k


GOLDEN = {
    (6, 1, 5, 0, 3): "279aaa4a6727d383f14b97f56d1b75b430669e4bde9b9e2a72b5fb2ee85cc349",
    (5, 1, 23, 3, None): "fed5c171ebcd018e9f3853dceec218fb1f5c447a0b607f10c20d9dccf1130e3f",
    (8, 3, 61, 2, None): "d47c37431a5359af2f61e7076fba5fc1e5fd750e758cd6752c3a7fb37bdf2229",
    (8, 3, 60, 2, 6): "82ae03653a354a97b53c267568a38a3c420825c655d9d61e22465a7d78f5de92",
    (19, 2, 194, 556, None): "e2cf0ba8da44c44ef7b23207d7ac5f6e2d4bae03b7b472b4d3b26e5ffd3c6a0d",
    (23, 3, 367, 814, 12): "ad8196fe2904b7f919b165e2595202ec3ed9019e413ad8e434e54cc6d11bd9ab",
}
"""Digests of board and moves as the generator wrote them before the fix: a seed keeps giving the same files."""


@pytest.mark.parametrize("case", GOLDEN, ids=str)
def test_a_seed_gives_the_same_instance_as_before(case):
    made = planted(*case)
    text = format_instance(made.instance) + "\n--\n" + format_moves(made.solution)
    assert hashlib.sha256(text.encode()).hexdigest() == GOLDEN[case]


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_the_stuck_check_agrees_with_trying_every_queen(data):
    from mipgames.queens.generate import _can_split, _split_targets

    n = data.draw(st.integers(1, 6))
    squares = [(r, c) for r in range(n) for c in range(n)]
    taken = data.draw(st.lists(st.sampled_from(squares), unique=True, max_size=n * n))
    queens = {sq: data.draw(st.sampled_from([1, 1, 2, 4])) for sq in taken}
    empty = set(squares) - queens.keys()
    splittable = any(_split_targets(n, queens, r, c) for (r, c), p in queens.items() if p > 1)
    assert _can_split(n, queens, empty) == splittable


def test_an_exponent_out_of_range_is_named_too_small_or_too_large():
    """`--exponent 0` was refused as unable to make the queens "below total 2^60", which is the other limit."""
    with pytest.raises(UsageError, match="exponent 0 is too small: 2 queens of power 2\\^0 split into at most 2"):
        planted(6, 2, 8, 0, exponent=0)
    with pytest.raises(UsageError, match="exponent 59 is too large"):
        planted(6, 2, 8, 0, exponent=59)
