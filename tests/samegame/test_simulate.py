"""The SameGame simulator: hand-made games with known scores, refused clicks, and the Same Game 2
engine against a deliberately simple classic SameGame written here on random boards."""

from __future__ import annotations

import io
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from mipgames.samegame.commands import parse_moves, play
from mipgames.samegame.instance import Board, parse_board, read_standard_set
from mipgames.samegame.simulate import (
    CLEAR_BONUS,
    IllegalMove,
    Rules,
    apply_move,
    evaluate,
    group_at,
    legal_moves,
    replay,
)

STANDARD = Path("/work/shared/benchmarks/samegame/standard_20.txt")

# y=2: 0 . .
# y=1: 0 1 .
# y=0: 1 1 0
SMALL = parse_board("0..\n01.\n110\n")


def test_small_board_groups_and_moves() -> None:
    assert legal_moves(SMALL) == [(0, 0), (0, 1)]
    assert group_at(SMALL, 1, 1) == {(0, 0), (1, 0), (1, 1)}
    assert group_at(SMALL, 2, 0) == {(2, 0)}
    assert group_at(SMALL, 2, 2) == frozenset()
    after, removed = apply_move(SMALL, (1, 0))
    assert removed == 3
    assert after == parse_board("...\n0..\n00.\n")  # gravity, then column 1 closes to the left


def test_known_games() -> None:
    clear = replay(SMALL, [(0, 0), (1, 0)])
    assert (clear.removed, clear.scores, clear.score) == ([3, 3], [1, 1], 1002)
    assert (clear.remaining, clear.cleared, clear.terminal) == (0, True, True)
    stuck = replay(SMALL, [(0, 1), (0, 0)])
    assert (stuck.removed, stuck.score, stuck.remaining, stuck.cleared, stuck.terminal) == ([2, 3], 1, 1, False, True)
    assert stuck.final == parse_board("...\n...\n0..\n")
    board = parse_board("1122\n1122\n3344\n")
    game = replay(board, [(0, 0)] * 4)
    assert (game.removed, game.scores, game.score) == ([2, 4, 2, 4], [0, 4, 0, 4], 1008)
    big = parse_board("1111111\n2222222\n")
    assert replay(big, [(3, 1), (6, 0)]).scores == [25, 25]


def test_evaluate_both_objectives() -> None:
    verdict = evaluate(SMALL, {"objective": "score"}, [(0, 0), (1, 0)])
    assert (verdict.legal, verdict.objective) == (True, 1002)
    assert verdict.measured["scores"] == [1, 1] and verdict.measured["final"] == "...\n...\n...\n"
    verdict = evaluate(SMALL, {"objective": "min-remaining"}, [[0, 1], [0, 0]])  # JSON-style pairs
    assert (verdict.legal, verdict.objective, verdict.measured["remaining"]) == (True, 1, 1)


def test_illegal_clicks_are_refused_with_the_move_number() -> None:
    cases = [
        ([(2, 0)], 0, "single tile"),
        ([(0, 1), (0, 1)], 1, "empty cell"),
        ([(0, 0), (3, 0)], 1, "off the board"),
        ([(0, 0), (0, -1)], 1, "off the board"),
        ([(0, 0), "x"], 1, "not a pair of integers"),
        ([(0, 0), (True, 0)], 1, "not a pair of integers"),
    ]
    for moves, index, reason in cases:
        try:
            replay(SMALL, moves)
        except IllegalMove as exc:
            assert (exc.move_index, reason in exc.reason) == (index, True)
            assert str(exc).startswith(f"move {index + 1} ")
        else:
            raise AssertionError(f"{moves} accepted")
        verdict = evaluate(SMALL, {"objective": "score"}, moves)
        assert not verdict.legal and verdict.objective is None and f"move {index + 1}" in verdict.reason
    try:
        apply_move(SMALL, (2, 0))
    except IllegalMove as exc:
        assert exc.move_index == 0 and "single tile" in exc.reason
    else:
        raise AssertionError("single tile accepted")


def test_a_game_must_be_played_to_its_end() -> None:
    for objective in ("score", "min-remaining"):
        verdict = evaluate(SMALL, {"objective": objective}, [(0, 1)])
        assert not verdict.legal
        assert verdict.reason == "game not over: group of 3 at (0,0) left"
    assert not evaluate(SMALL, {"objective": "score"}, None).legal


def test_a_lone_pair_either_way_keeps_the_game_going() -> None:
    """The end of the game is judged on vertical and horizontal neighbours alike: with only a vertical pair
    left a stop was accepted once either check was dropped (a mutation the tests above let pass)."""
    for rows in ("0\n0\n", "00\n", "1.\n0.\n01\n"):
        verdict = evaluate(parse_board(rows), {"objective": "min-remaining"}, [])
        assert not verdict.legal and verdict.reason.startswith("game not over: group of 2"), (rows, verdict.reason)
    over = evaluate(parse_board("10\n01\n"), {"objective": "min-remaining"}, [])
    assert over.legal and over.objective == 4


def test_the_colour_count_bound_grants_the_clear_bonus_only_when_no_colour_is_stranded() -> None:
    """One tile of a colour never leaves, so the board is never cleared: no bonus.  A looser bound is still
    sound but costs true "optimal" claims, and a mutation that always added the bonus passed the suite."""
    assert Rules(score=True).bound({1: 1, 2: 3}) == 1
    assert Rules(score=True).bound({2: 4}) == 4 + CLEAR_BONUS
    assert Rules(score=False).bound({1: 1, 2: 3, 3: 1}) == -2


# -- against a simple classic implementation -----------------------------------------
def simple_click(board: Board, x: int, y: int) -> tuple[Board, int]:
    """Classic SameGame the obvious way on a column-major grid (bottom first)."""
    rows, cols = board.rows, board.cols
    grid = [[board.at(cx, cy) for cy in range(rows)] for cx in range(cols)]
    colour = grid[x][y]
    group, todo = {(x, y)}, [(x, y)]
    while todo:
        cx, cy = todo.pop()
        for nx, ny in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
            if 0 <= nx < cols and 0 <= ny < rows and (nx, ny) not in group and grid[nx][ny] == colour:
                group.add((nx, ny))
                todo.append((nx, ny))
    assert len(group) >= 2
    columns = [[c for cy, c in enumerate(col) if c != -1 and (cx, cy) not in group] for cx, col in enumerate(grid)]
    columns = [col for col in columns if col]
    columns += [[]] * (cols - len(columns))
    cells = tuple(
        tuple(columns[cx][cy] if cy < len(columns[cx]) else -1 for cx in range(cols)) for cy in range(rows - 1, -1, -1)
    )
    return Board(cells), len(group)


def simple_groups(board: Board) -> list[tuple[int, int]]:
    cells = [(x, y) for x in range(board.cols) for y in range(board.rows) if board.at(x, y) != -1]
    return sorted({min(group_at(board, x, y)) for x, y in cells if len(group_at(board, x, y)) >= 2})


@settings(max_examples=150, deadline=None, derandomize=True)
@given(rows=st.integers(1, 5), cols=st.integers(1, 5), colours=st.integers(1, 3), seed=st.integers(0, 10**6))
def test_engine_matches_simple_classic_game(rows: int, cols: int, colours: int, seed: int) -> None:
    rng = random.Random(seed)
    board = Board(tuple(tuple(rng.randrange(colours) for _ in range(cols)) for _ in range(rows)))
    current, moves, score = board, [], 0
    while True:
        options = legal_moves(current)
        assert options == simple_groups(current)
        if not options:
            break
        group = sorted(group_at(current, *rng.choice(options)))
        move = rng.choice(group)  # any cell of the group is a valid click
        expected, removed = simple_click(current, *move)
        after, got = apply_move(current, move)
        assert (after, got) == (expected, removed)
        moves.append(move)
        score += (removed - 2) ** 2
        current = after
    result = replay(board, moves)
    assert result.final == current and result.terminal
    assert result.score == score + (1000 if current.tiles() == 0 else 0)
    verdict = evaluate(board, {"objective": "min-remaining"}, moves)
    assert (verdict.legal, verdict.objective) == (True, current.tiles())


def test_standard_board_greedy_replay() -> None:
    board = read_standard_set(STANDARD)[0]
    moves, current = [], board
    while legal_moves(current):
        move = max(legal_moves(current), key=lambda m: len(group_at(current, *m)))
        moves.append(move)
        current, _ = apply_move(current, move)
    result = replay(board, moves)
    assert result.final == current and result.terminal
    assert sum(result.removed) + result.remaining == 225
    assert evaluate(board, {"objective": "score"}, moves).objective == result.score


def test_play_command(tmp_path: Path) -> None:
    (tmp_path / "b.txt").write_text("0..\n01.\n110\n")
    (tmp_path / "m.txt").write_text("# clear it\n0 0\n(1,0)\n")
    out, err = io.StringIO(), io.StringIO()
    assert play(str(tmp_path / "b.txt"), str(tmp_path / "m.txt"), out, err) == 0
    assert out.getvalue().splitlines()[1:3] == [
        "move   1: (0,0) removes   3 tiles, scores 1",
        "move   2: (1,0) removes   3 tiles, scores 1",
    ]
    assert "remaining 0, score 1002 incl. clear bonus" in out.getvalue()
    (tmp_path / "bad.json").write_text("[[0, 1], [0, 1]]")
    out, err = io.StringIO(), io.StringIO()
    assert play(str(tmp_path / "b.txt"), str(tmp_path / "bad.json"), out, err) == 1
    assert "illegal move 2 (0,1): empty cell" in err.getvalue()
    (tmp_path / "junk.txt").write_text("0 0\nleft\n")
    out, err = io.StringIO(), io.StringIO()
    assert play(str(tmp_path / "b.txt"), str(tmp_path / "junk.txt"), out, err) == 4
    assert f"{tmp_path / 'junk.txt'}:2: expected a move" in err.getvalue()
    assert parse_moves("[[1, 2]]") == [(1, 2)] and parse_moves("3,4\n 5 6 \n") == [(3, 4), (5, 6)]


def test_play_names_the_line_of_an_illegal_click_and_never_writes_one_file_twice(tmp_path: Path) -> None:
    """An illegal click was named by its move number only and the legal moves before it were not shown;
    ``--png same.png --gif same.png`` wrote the GIF over the PNG and said it wrote both."""
    (tmp_path / "b.txt").write_text("112\n122\n311\n")
    (tmp_path / "m.txt").write_text("\n\n# first\n1 1\n\n0 0\n")
    out, err = io.StringIO(), io.StringIO()
    assert play(str(tmp_path / "b.txt"), str(tmp_path / "m.txt"), out, err) == 1
    assert "move   1: (1,1) removes   3 tiles, scores 1" in out.getvalue()
    assert f"{tmp_path / 'm.txt'}:6: illegal move 2 (0,0): single tile" in err.getvalue()
    (tmp_path / "ok.txt").write_text("1 1\n")
    same = str(tmp_path / "same.png")
    out, err = io.StringIO(), io.StringIO()
    assert play(str(tmp_path / "b.txt"), str(tmp_path / "ok.txt"), out, err, png=same, gif=same) == 4
    assert "the same file as" in err.getvalue() and not (tmp_path / "same.png").exists()
    out, err = io.StringIO(), io.StringIO()
    assert play(str(tmp_path / "b.txt"), str(tmp_path / "ok.txt"), out, err, gif=str(tmp_path / "a.png")) == 4
    assert "a drawing is written as .gif" in err.getvalue()
