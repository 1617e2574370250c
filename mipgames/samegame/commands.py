"""``mipgames samegame play BOARD MOVES``: replay a click sequence on the Same Game 2 engine.

``samegame`` is a subcommand with its own sub-subcommands so that other
SameGame tools can be added next to ``play``.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any, TextIO

from mipgames.core.errors import InputError, MipgamesError
from mipgames.core.figures import check_figure_path
from mipgames.core.files import distinct_outputs, excerpt, loads_json, parse_int, read_text, text_lines
from mipgames.samegame.instance import format_board, read_board
from mipgames.samegame.simulate import ORIGINS, SCORE_RULES, IllegalMove, Move, open_group, replay, to_bottom

_PAIR = re.compile(r"\(?\s*(-?[0-9]+)\s*[,\s]\s*(-?[0-9]+)\s*\)?")
MAX_MOVE_COORDINATE = 10**6
"""A click is on a board of at most 64 x 64 cells; bigger numbers are refused as they are read."""


def _coordinate(token: str, path: str, line: int) -> int:
    return parse_int(token, path, line, "coordinate", -MAX_MOVE_COORDINATE, MAX_MOVE_COORDINATE)


def parse_moves(text: str, path: str = "<string>") -> list[Move]:
    """Moves as a JSON list of [x, y] pairs, or one ``x y`` / ``x,y`` / ``(x,y)`` per line (``#`` comments)."""
    return [move for _, move in numbered_moves(text, path)]


def numbered_moves(text: str, path: str = "<string>") -> list[tuple[int | None, Move]]:
    """``parse_moves`` with the file line of each move (None in a JSON list, which is one value)."""
    if text.lstrip().startswith("["):
        data = loads_json(text, path, "moves JSON")
        if not isinstance(data, list):
            raise InputError("the moves JSON is not a list of [x, y] pairs", path)
        moves: list[tuple[int | None, Move]] = []
        for i, item in enumerate(data, 1):
            if not (
                isinstance(item, list)
                and len(item) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) for v in item)
            ):
                raise InputError(f"item {i} is not a pair of integers [x, y]", path)
            if any(abs(v) > MAX_MOVE_COORDINATE for v in item):
                raise InputError(f"item {i}: a coordinate is out of range (at most {MAX_MOVE_COORDINATE:,})", path)
            moves.append((None, (item[0], item[1])))
        return moves
    numbered: list[tuple[int | None, Move]] = []
    for number, raw in enumerate(text_lines(text), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        match = _PAIR.fullmatch(line)
        if match is None:
            raise InputError(f"expected a move 'x y', got {excerpt(line)}", path, number)
        numbered.append(
            (number, (_coordinate(match.group(1), path, number), _coordinate(match.group(2), path, number)))
        )
    return numbered


def read_moves(path: str | Path) -> list[Move]:
    return parse_moves(read_text(path, "moves file"), str(path))


def play(
    board_path: str,
    moves_path: str,
    out: TextIO,
    err: TextIO,
    png: str | None = None,
    gif: str | None = None,
    origin: str = "bottom",
) -> int:
    """Print the replay move by move and the final board; 1 on an illegal click, 4 on bad files.

    Moves are read and printed in ``origin`` coordinates (row 0 at the bottom or at the top).
    """
    try:
        distinct_outputs([board_path, moves_path], png, gif)
        for path in (png, gif):
            if path:
                check_figure_path(path, (".gif",) if path == gif else (".png", ".pdf", ".svg"))
        board = read_board(board_path)
        numbered = numbered_moves(read_text(moves_path, "moves file"), str(moves_path))
    except MipgamesError as exc:
        err.write(f"mipgames samegame play: {exc}\n")
        return exc.exit_code
    moves = [move for _, move in numbered]
    out.write(f"board {board.rows}x{board.cols}, {board.tiles()} tiles, {len(board.colours())} colours\n")
    bottom = to_bottom(board, moves, origin)
    try:
        result = replay(board, bottom)
    except IllegalMove as exc:  # the legal moves before it, then the one refused, by its line in the file
        _moves(out, moves, replay(board, bottom[: exc.move_index]))
        shown = IllegalMove(exc.move_index, moves[exc.move_index], exc.reason)
        line = numbered[exc.move_index][0]
        err.write(f"mipgames samegame play: {moves_path}{'' if line is None else f':{line}'}: illegal {shown}\n")
        return 1
    _moves(out, moves, result)
    out.write("final board:\n" + format_board(result.final))
    bonus = " incl. clear bonus" if result.cleared else ""
    out.write(
        f"remaining {result.remaining}, score {result.score}{bonus} "
        f"(rule standard: {SCORE_RULES['standard'].description})\n"
    )
    if result.terminal:
        out.write("game over: no group of two or more tiles left\n")
    else:
        group = open_group(result.final)
        assert group is not None  # not terminal: a group of two or more is left
        (x, y), size = group
        if origin == "top":
            y = board.rows - 1 - y
        out.write(f"game not over: group of {size} at ({x},{y}) left\n")
    if png or gif:
        from mipgames.samegame.render import render_game

        for path, animated in ((png, False), (gif, True)):
            if path:
                render_game(board, bottom, path, gif=animated)
                out.write(f"wrote {path}\n")
    return 0


def _moves(out: TextIO, moves: list[Move], result: Any) -> None:
    for i, (move, removed, score) in enumerate(zip(moves, result.removed, result.scores), 1):
        out.write(f"move {i:3d}: ({move[0]},{move[1]}) removes {removed:3d} tiles, scores {score}\n")


def compile_kernels(out: TextIO | None = None) -> None:
    """Compile (or load from the cache) every compiled search, so that later solves start at once."""
    import time

    from mipgames.core.problem import SolveOptions
    from mipgames.samegame.baselines import ALGORITHMS
    from mipgames.samegame.generate import random_board
    from mipgames.samegame.mip import warm_start

    small, large = random_board(6, 6, 3, 0), random_board(12, 12, 4, 0)
    generous = SolveOptions(time_limit=600)
    began = time.monotonic()
    for name, algorithm in ALGORITHMS.items():
        for objective in ("score", "min-remaining"):
            algorithm.run(small, {"objective": objective, "node_budget": 500}, SolveOptions(), lambda *a: None)
            # a board the searches cut, under a deadline: the paths only a real solve takes (a beam that cuts
            # its layers, the playout kept for a game the deadline cuts, NRPA's top-level step).  The node
            # budget ends it, not the deadline: on a cold cache the first compile alone outlasts a short limit
            algorithm.run(large, {"objective": objective, "node_budget": 20_000}, generous, lambda *a: None)
        if out is not None:
            out.write(f"{name:10s} ready after {time.monotonic() - began:5.1f} s\n")
    for objective in ("score", "min-remaining"):
        warm_start(large, {"objective": objective})  # the models' start: a wider beam than the searches use


def warmup(out: TextIO) -> int:
    """``mipgames samegame warmup``: compile the searches, saying how long each took."""
    compile_kernels(out)
    out.write("the compiled kernels are cached: later runs load them in about a second\n")
    return 0


def register(subparsers: Any) -> None:
    """Add ``samegame`` (with its sub-subcommands ``play`` and ``warmup``) to the CLI's subcommands."""
    parser = subparsers.add_parser(
        "samegame",
        help="classic SameGame tools (play: replay a move list; warmup: compile the searches)",
        description="Classic SameGame tools.",
    )
    tools = parser.add_subparsers(dest="samegame_command", metavar="TOOL")
    tools.required = True
    add_play(tools)
    tools.add_parser(
        "warmup",
        help="compile the search kernels now (the first solve would otherwise do it)",
        description="Compile every compiled SameGame search (about a minute the first time, cached afterwards).",
    ).set_defaults(func=lambda args: warmup(sys.stdout))


def add_play(tools: Any) -> argparse.ArgumentParser:
    play_parser = tools.add_parser(
        "play",
        help="replay a move list on a board",
        description="Replay clicks (x from the left, y from the bottom unless --origin top, at the time of the "
        "click) on a board with the Same Game 2 engine: per-move removals and scores, the final board.",
    )
    play_parser.add_argument(
        "board",
        metavar="BOARD",
        help="board file (rows top first, 0-9a-z colours, '.' empty; a first line 'empty 0' makes 0 the empty cell)",
    )
    play_parser.add_argument("moves", metavar="MOVES", help="moves file: 'x y' per line, or a JSON list of [x, y]")
    play_parser.add_argument("--png", metavar="PATH", help="also draw the game as a strip of boards")
    play_parser.add_argument("--gif", metavar="PATH", help="also draw the game as an animated GIF")
    play_parser.add_argument(
        "--origin",
        choices=ORIGINS,
        default="bottom",
        help="row 0 of the moves: bottom (default) or top (the formal model's convention)",
    )
    play_parser.set_defaults(
        func=lambda args: play(args.board, args.moves, sys.stdout, sys.stderr, args.png, args.gif, args.origin)
    )
    return play_parser


def main(argv: list[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Stand-alone entry: ``python -m mipgames.samegame.commands play BOARD MOVES`` (or ``warmup``)."""
    parser = argparse.ArgumentParser(prog="mipgames")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["samegame", *(sys.argv[1:] if argv is None else argv)])
    if args.samegame_command == "warmup":
        return warmup(stdout or sys.stdout)
    return play(args.board, args.moves, stdout or sys.stdout, stderr or sys.stderr, args.png, args.gif, args.origin)


if __name__ == "__main__":
    sys.exit(main())
