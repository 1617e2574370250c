"""``mipgames samegame play BOARD MOVES``: replay a click sequence on the Same Game 2 engine.

``samegame`` is a subcommand with its own sub-subcommands so that other
SameGame tools can be added next to ``play``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any, TextIO

from mipgames.core.errors import InputError, MipgamesError
from mipgames.samegame.instance import format_board, read_board
from mipgames.samegame.simulate import SCORE_RULES, IllegalMove, Move, open_group, replay

_PAIR = re.compile(r"\(?\s*(-?[0-9]+)\s*[,\s]\s*(-?[0-9]+)\s*\)?")


def parse_moves(text: str, path: str = "<string>") -> list[Move]:
    """Moves as a JSON list of [x, y] pairs, or one ``x y`` / ``x,y`` / ``(x,y)`` per line (``#`` comments)."""
    if text.lstrip().startswith("["):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"bad JSON: {exc.msg}", path, exc.lineno) from None
        moves = []
        for i, item in enumerate(data, 1):
            if not (isinstance(item, list) and len(item) == 2
                    and all(isinstance(v, int) and not isinstance(v, bool) for v in item)):
                raise InputError(f"item {i} is not a pair of integers [x, y]: {json.dumps(item)[:40]}", path)
            moves.append((item[0], item[1]))
        return moves
    moves = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        match = _PAIR.fullmatch(line)
        if match is None:
            raise InputError(f"expected a move 'x y', got {line[:40]!r}", path, number)
        moves.append((int(match.group(1)), int(match.group(2))))
    return moves


def read_moves(path: str | Path) -> list[Move]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise InputError(f"cannot read: {getattr(exc, 'strerror', None) or exc}", path) from None
    return parse_moves(text, str(path))


def play(board_path: str, moves_path: str, out: TextIO, err: TextIO, png: str | None = None,
         gif: str | None = None) -> int:
    """Print the replay move by move and the final board; 1 on an illegal click, 4 on bad files."""
    try:
        board = read_board(board_path)
        moves = read_moves(moves_path)
    except MipgamesError as exc:
        err.write(f"mipgames samegame play: {exc}\n")
        return exc.exit_code
    out.write(f"board {board.rows}x{board.cols}, {board.tiles()} tiles, {len(board.colours())} colours\n")
    try:
        result = replay(board, moves)
    except IllegalMove as exc:
        err.write(f"mipgames samegame play: {moves_path}: illegal {exc}\n")
        return 1
    for i, (move, removed, score) in enumerate(zip(moves, result.removed, result.scores), 1):
        out.write(f"move {i:3d}: ({move[0]},{move[1]}) removes {removed:3d} tiles, scores {score}\n")
    out.write("final board:\n" + format_board(result.final))
    bonus = " incl. clear bonus" if result.cleared else ""
    out.write(f"remaining {result.remaining}, score {result.score}{bonus} "
              f"(rule standard: {SCORE_RULES['standard'].description})\n")
    if result.terminal:
        out.write("game over: no group of two or more tiles left\n")
    else:
        (x, y), size = open_group(result.final)
        out.write(f"game not over: group of {size} at ({x},{y}) left\n")
    if png or gif:
        from mipgames.samegame.render import render_game

        for path, animated in ((png, False), (gif, True)):
            if path:
                render_game(board, moves, path, gif=animated)
                out.write(f"wrote {path}\n")
    return 0


def register(subparsers: Any) -> None:
    """Add ``samegame`` (with its sub-subcommand ``play``) to the CLI's subcommands."""
    parser = subparsers.add_parser("samegame", help="classic SameGame tools (play: replay a move list)",
                                   description="Classic SameGame tools.")
    tools = parser.add_subparsers(dest="samegame_command", metavar="TOOL")
    tools.required = True
    add_play(tools)


def add_play(tools: Any) -> argparse.ArgumentParser:
    play_parser = tools.add_parser(
        "play", help="replay a move list on a board",
        description="Replay clicks (x from the left, y from the bottom, at the time of the click) on a board "
                    "with the Same Game 2 engine: per-move removals and scores, the final board.")
    play_parser.add_argument("board", metavar="BOARD", help="board file (rows top first, 0-9a-z colours, '.' empty)")
    play_parser.add_argument("moves", metavar="MOVES", help="moves file: 'x y' per line, or a JSON list of [x, y]")
    play_parser.add_argument("--png", metavar="PATH", help="also draw the game as a strip of boards")
    play_parser.add_argument("--gif", metavar="PATH", help="also draw the game as an animated GIF")
    play_parser.set_defaults(func=lambda args: play(args.board, args.moves, sys.stdout, sys.stderr,
                                                    args.png, args.gif))
    return play_parser


def main(argv: list[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Stand-alone entry: ``python -m mipgames.samegame.commands play BOARD MOVES``."""
    parser = argparse.ArgumentParser(prog="mipgames")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["samegame", *(sys.argv[1:] if argv is None else argv)])
    return play(args.board, args.moves, stdout or sys.stdout, stderr or sys.stderr, args.png, args.gif)


if __name__ == "__main__":
    sys.exit(main())
