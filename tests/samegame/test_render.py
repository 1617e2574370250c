"""Rendering writes real images: a board PNG, a strip with one frame per move plus the end, a GIF (long games:
evenly spaced moves)."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from mipgames.samegame import render as render_module
from mipgames.samegame.generate import random_board
from mipgames.samegame.instance import parse_board
from mipgames.samegame.render import _frames, _sample, render, render_board, render_game
from mipgames.samegame.simulate import apply_move, open_group

BOARD = parse_board("0..\n01.\n110\n")
MOVES = [(0, 0), (1, 0)]


def test_board_and_strip(tmp_path: Path) -> None:
    render_board(BOARD, tmp_path / "board.png", title="small")
    render_game(BOARD, MOVES, tmp_path / "strip.png")
    with Image.open(tmp_path / "board.png") as board, Image.open(tmp_path / "strip.png") as strip:
        assert board.format == strip.format == "PNG"
        assert strip.width > 2 * board.width  # three frames side by side
        colours = {c for _, c in strip.convert("RGB").getcolors(1 << 20)}
        assert (0xE6, 0x19, 0x4B) in colours and (0x3C, 0xB4, 0x4B) in colours  # palette 0 and 1 drawn


def test_gif_has_one_frame_per_move_and_the_end(tmp_path: Path) -> None:
    render_game(BOARD, MOVES, tmp_path / "game.gif", gif=True)
    with Image.open(tmp_path / "game.gif") as gif:
        assert gif.n_frames == len(MOVES) + 1


def test_protocol_render(tmp_path: Path) -> None:
    render(BOARD, {}, None, tmp_path / "a.png")
    render(BOARD, {}, MOVES, tmp_path / "b.gif")
    with Image.open(tmp_path / "a.png") as a, Image.open(tmp_path / "b.gif") as b:
        assert (a.format, b.format, b.n_frames) == ("PNG", "GIF", 3)


def test_protocol_render_reads_clicks_in_the_params_origin(tmp_path: Path) -> None:
    """A game solved with --origin top has top-origin clicks; the renderer read them from the bottom and
    stopped with "internal error: IllegalMove" (the click at the top of column 0 is an empty square here)."""
    top = [(x, BOARD.rows - 1 - y) for x, y in MOVES]
    render(BOARD, {"origin": "top"}, top, tmp_path / "b.gif")
    with Image.open(tmp_path / "b.gif") as b:
        assert b.n_frames == len(MOVES) + 1
    captions = [c for _, _, c in _frames(BOARD, MOVES, labels=top)]
    assert captions[0].startswith(f"move 1: ({top[0][0]},{top[0][1]}) removes")
    assert captions[-1].startswith("end: 0 left")


def test_a_board_alone_is_drawn_as_a_gif_too(tmp_path: Path) -> None:
    """.gif is one of SameGame's drawing formats, but the board alone went to matplotlib, which writes no GIF."""
    render(BOARD, {}, None, tmp_path / "board.gif")
    with Image.open(tmp_path / "board.gif") as image:
        assert image.format == "GIF" and image.n_frames == 1


def test_sample_keeps_the_first_frame_the_end_and_even_steps() -> None:
    frames = list(range(101))
    assert _sample(frames, 200) == frames
    picked = _sample(frames, 11)
    assert picked == [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]


def test_a_long_game_shows_evenly_spaced_moves_and_the_end(tmp_path: Path, monkeypatch) -> None:
    """A 64x64 board's 552-move game drew 552 panels (minutes, an image 120,000 pixels high) and a GIF of 552
    frames; a strip and an animation now hold at most MAX_PANELS and MAX_GIF_FRAMES boards, the end among them."""
    monkeypatch.setattr(render_module, "MAX_PANELS", 8)
    monkeypatch.setattr(render_module, "MAX_GIF_FRAMES", 10)
    board = random_board(20, 20, 5, seed=2)
    moves, current = [], board
    while (found := open_group(current)) is not None:
        moves.append(found[0])
        current = apply_move(current, found[0])[0]
    assert len(moves) > 40
    render_game(board, moves, tmp_path / "game.gif", gif=True)
    render_game(board, moves, tmp_path / "strip.png")
    with Image.open(tmp_path / "game.gif") as gif, Image.open(tmp_path / "strip.png") as strip:
        assert gif.n_frames == 10 and strip.format == "PNG"
        assert strip.height < 6 * strip.width  # two rows of panels, not one a move
