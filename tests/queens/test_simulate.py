import pytest

from mipgames.queens.instance import parse, read
from mipgames.queens.simulate import coursework_accepts, evaluate, replay

SPEC_MOVES = [
    (2, 1, 1, 1),
    (0, 1, 1, 0),
    (5, 6, 5, 4),
    (3, 1, 2, 2),
    (5, 4, 1, 0),
    (1, 1, 1, 0),
    (1, 3, 1, 6),
    (1, 0, 1, 2),
    (1, 6, 1, 2),
    (2, 2, 1, 2),
]
ROW = parse("3\n1\n1 0 1\n2 0 0\n0 0 2\n")  # (0,0)=1 (0,2)=1 (1,0)=2 (2,2)=2


def test_spec_solution_is_accepted():
    instance = read("instances/queens/spec_example.txt")
    verdict = evaluate(instance, {}, SPEC_MOVES)
    assert verdict.legal and verdict.objective == 1
    assert verdict.measured["final"] == [[1, 2, 64]]
    assert coursework_accepts(instance, SPEC_MOVES)


def test_self_capture_is_rejected_though_the_coursework_accepts_it():
    instance = parse("2\n1\n1 0\n0 1\n")  # 1 + 1 on a diagonal
    cheat = [(0, 0, 0, 0), (1, 1, 1, 1), (0, 0, 1, 1)]  # both doubled "for free", then 2 takes 2
    assert coursework_accepts(parse("2\n1\n1 0\n0 2\n"), [(0, 0, 0, 0), (0, 0, 1, 1)])
    verdict = evaluate(instance, {}, cheat)
    assert not verdict.legal and "move 1" in verdict.reason and "itself" in verdict.reason


@pytest.mark.parametrize(
    "move, words",
    [
        ((0, 0, 1, 0), "powers differ"),
        ((0, 0, 2, 2), "powers differ"),
        ((1, 0, 2, 2), "share no row"),
        ((0, 1, 0, 2), "no queen on 0 1"),
        ((0, 0, 1, 1), "no queen to capture"),
        ((0, 0, 0, 3), "off the 3x3 board"),
        ((-1, 0, 0, 0), "off the 3x3 board"),
        ((0, 0, 0), "4 integers"),
    ],
)
def test_illegal_moves(move, words):
    verdict = evaluate(ROW, {}, [move])
    assert not verdict.legal and words in verdict.reason


def test_blocked_capture():
    instance = parse("3\n1\n1 2 1\n0 0 0\n0 0 0\n")
    verdict = evaluate(instance, {"minimise": True}, [(0, 0, 0, 2)])
    assert not verdict.legal and "blocked by the queen on 0 1" in verdict.reason


def test_decision_needs_k_but_minimise_measures():
    moves = [(0, 0, 0, 2)]
    decision = evaluate(ROW, {}, moves)
    assert not decision.legal and "K not reached" in decision.reason
    assert evaluate(ROW, {"minimise": True}, moves).objective == 3
    two = [(0, 0, 0, 2), (2, 2, 0, 2)]
    assert not evaluate(ROW, {}, two).legal
    assert evaluate(parse("3\n2\n1 0 1\n2 0 0\n0 0 2\n"), {}, two).objective == 2
    assert not coursework_accepts(ROW, moves)


def test_replay_stops_at_the_first_illegal_move():
    board, bad, error = replay(ROW, [(0, 0, 0, 2), (0, 0, 0, 2)])
    assert bad == 1 and "no queen on 0 0" in error and board[0, 2] == 2


def test_not_a_move_list():
    assert not evaluate(ROW, {}, "0 0 0 2").legal
