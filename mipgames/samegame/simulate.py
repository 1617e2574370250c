"""The SameGame rules: the exact simulator (built on the Same Game 2 engine), the
objectives as searches see them, the compact pure-Python search state, and the
coordinate conventions of move lists.

A click at (x, y) on an R x C board is the Same Game 2 move on (x, y) with
the one base ([0, C-1], [0, R-1]) (gravity, then empty columns close to the
left) plus classic SameGame's rule that the clicked group has at least two
tiles.  Every replay and verdict here runs on ``mipgames.samegame2.plane``, so
the certificates of the MIP/CP-SAT models and the interpreter share one
implementation of the rules.

Coordinates: (x, y) is column x from the left and row y from the *bottom*
(origin ``bottom``, the spec's), at the time of the click.  Users of the
formal model that puts row 0 at the *top* (origin ``top``) give y' = R-1-y;
``to_bottom``/``from_bottom`` convert, and the ``origin`` param says which
convention a solution uses (it is stored in certificates).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from mipgames.core.files import excerpt
from mipgames.core.problem import Verdict
from mipgames.samegame.instance import EMPTY, Board, format_board
from mipgames.samegame2.plane import Plane, flood

Move = tuple[int, int]
"""(x, y) of the clicked cell in spec coordinates at the time of the click."""

CLEAR_BONUS = 1000
ORIGINS = ("bottom", "top")


@dataclass(frozen=True)
class ScoreRule:
    name: str
    move_score: Callable[[int], int]
    clear_bonus: int
    description: str


SCORE_RULES: dict[str, ScoreRule] = {
    "standard": ScoreRule(
        "standard",
        lambda n: (n - 2) ** 2,
        CLEAR_BONUS,
        "(n-2)^2 per move removing n tiles, +1000 for clearing the board",
    ),
}
OBJECTIVES = ("min-remaining", "score")


class IllegalMove(Exception):
    """A click the rules forbid; ``move_index`` is 0-based, the message says move number (1-based)."""

    def __init__(self, move_index: int, move: Any, reason: str):
        self.move_index = move_index
        self.move = move
        self.reason = reason
        super().__init__(f"move {move_index + 1} {_shown(move)}: {reason}")


def _shown(move: Any) -> str:
    cell = _as_move(move)
    if cell is not None:
        return f"({cell[0]},{cell[1]})"
    return excerpt(repr(move))


# -- board <-> plane -----------------------------------------------------
def tile_dict(board: Board) -> dict[Move, int]:
    """(x, y) -> colour for every tile."""
    top = board.rows - 1
    return {(x, top - k): c for k, row in enumerate(board.cells) for x, c in enumerate(row) if c != EMPTY}


def to_plane(board: Board) -> Plane:
    """The board as a plane with (0, 0) at the bottom-left (no block bookkeeping: replays never ask ``n``)."""
    return Plane.from_balls(tile_dict(board), track_blocks=False)


def from_plane(plane: Plane, rows: int, cols: int) -> Board:
    # the plane holds the board's int colours (to_plane put them there); Plane types colours as any Hashable
    get = cast(dict[Move, int], plane.balls).get
    return Board(tuple(tuple(get((x, y), EMPTY) for x in range(cols)) for y in range(rows - 1, -1, -1)))


# -- rules ----------------------------------------------------------------
def group_at(board: Board, x: int, y: int) -> frozenset[Move]:
    """The 4-connected same-colour group of (x, y); empty on an empty or off-board cell."""
    if board.at(x, y) == EMPTY:
        return frozenset()
    return frozenset(flood(tile_dict(board), (x, y)))


def _groups(balls: dict[Move, int]) -> list[tuple[Move, int]]:
    """(lowest-leftmost cell, size) of every group of >= 2 tiles, sorted by that cell."""
    seen: set[Move] = set()
    found = []
    get = balls.get
    for cell in sorted(balls):
        if cell in seen:
            continue
        x, y = cell
        colour = balls[cell]
        if (
            get((x + 1, y)) != colour
            and get((x, y + 1)) != colour
            and get((x - 1, y)) != colour
            and get((x, y - 1)) != colour
        ):
            continue
        group = flood(balls, cell)
        seen.update(group)
        found.append((cell, len(group)))
    return found


def _stuck(balls: Mapping[Move, Hashable]) -> bool:
    """No two adjacent tiles share a colour (the game is over)."""
    get = balls.get
    for (x, y), colour in balls.items():
        if get((x + 1, y)) == colour or get((x, y + 1)) == colour:
            return False
    return True


def open_group(board: Board) -> tuple[Move, int] | None:
    """The first group of >= 2 tiles left (its lowest-leftmost cell, size), None when the game is over."""
    found = _groups(tile_dict(board))
    return found[0] if found else None


def legal_moves(board: Board) -> list[Move]:
    """One cell per group of >= 2 tiles: the group's min (x, y) cell; sorted."""
    return [cell for cell, _ in _groups(tile_dict(board))]


def _as_move(move: Any) -> Move | None:
    if (
        isinstance(move, (tuple, list))
        and len(move) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in move)
    ):
        return (move[0], move[1])
    return None


def _click(plane: Plane, rows: int, cols: int, index: int, move: Any) -> int:
    """Play one click on the board's plane; the number of tiles removed.  Raises IllegalMove."""
    cell = _as_move(move)
    if cell is None:
        raise IllegalMove(index, move, "not a pair of integers (x, y)")
    x, y = cell
    if not (0 <= x < cols and 0 <= y < rows):
        raise IllegalMove(index, cell, f"off the board (columns 0..{cols - 1}, rows 0..{rows - 1})")
    if cell not in plane.balls:
        raise IllegalMove(index, cell, "empty cell")
    get = plane.balls.get
    colour = get(cell)
    if all(get(nb) != colour for nb in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1))):
        raise IllegalMove(index, cell, "single tile (a group needs at least 2 tiles)")
    return plane.move(x, y, 0, cols - 1, 0, rows - 1)


def apply_move(board: Board, move: Move) -> tuple[Board, int]:
    """The board after one click and the number of tiles removed; raises IllegalMove (move_index 0)."""
    plane = to_plane(board)
    removed = _click(plane, board.rows, board.cols, 0, move)
    return from_plane(plane, board.rows, board.cols), removed


@dataclass
class Replay:
    final: Board
    removed: list[int]
    scores: list[int]
    score: int
    """Standard rule: sum of (n-2)^2, +1000 when the board is cleared."""
    remaining: int
    cleared: bool
    terminal: bool
    """No group of two or more tiles is left."""


def replay(board: Board, moves: Iterable[Move], rule: str = "standard") -> Replay:
    """Play the clicks in order; raises IllegalMove naming the first bad one."""
    scoring = SCORE_RULES[rule]
    plane = to_plane(board)
    rows, cols = board.rows, board.cols
    removed = [_click(plane, rows, cols, i, move) for i, move in enumerate(moves)]
    scores = [scoring.move_score(n) for n in removed]
    remaining = len(plane.balls)
    cleared = remaining == 0
    return Replay(
        final=from_plane(plane, rows, cols),
        removed=removed,
        scores=scores,
        score=sum(scores) + (scoring.clear_bonus if cleared else 0),
        remaining=remaining,
        cleared=cleared,
        terminal=_stuck(plane.balls),
    )


def evaluate(board: Board, params: dict[str, Any], moves: Sequence[Any] | None) -> Verdict:
    """The verdict on a click sequence (in the coordinates of the ``origin`` param); never raises on a bad sequence.

    Objective: tiles left (``min-remaining``) or the standard score
    (``score``).  For both objectives the sequence must play the game to its
    end (the spec: the game ends when no group of two or more is left); one
    that stops while a group remains is illegal ("game not over").
    """
    objective = params.get("objective", "min-remaining")
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r} (choose from {', '.join(OBJECTIVES)})")
    origin = params.get("origin", "bottom")
    if origin not in ORIGINS:
        raise ValueError(f"unknown origin {origin!r} (choose from {', '.join(ORIGINS)})")
    if moves is None:
        return Verdict(False, None, "no solution")
    try:
        result = replay(board, to_bottom(board, moves, origin))
    except IllegalMove as exc:
        shown = IllegalMove(exc.move_index, moves[exc.move_index], exc.reason)  # as the user wrote it
        return Verdict(False, None, str(shown), {"move": exc.move_index + 1, "reason": exc.reason})
    measured = {
        "remaining": result.remaining,
        "score": result.score,
        "scores": result.scores,
        "final": format_board(result.final),
        "terminal": result.terminal,
        "rule": "standard",
    }
    if not result.terminal:
        group = open_group(result.final)
        assert group is not None  # not terminal: a group of two or more is left
        (x, y), size = group
        if origin == "top":
            y = board.rows - 1 - y
        return Verdict(False, None, f"game not over: group of {size} at ({x},{y}) left", measured)
    value = result.remaining if objective == "min-remaining" else result.score
    return Verdict(True, value, "", measured)


# -- coordinate conventions -------------------------------------------------
def to_bottom(board: Board, moves: Sequence[Any], origin: str) -> list[Any]:
    """Moves given in ``origin`` coordinates as bottom-origin (x, y); anything not a pair is passed through."""
    if origin == "bottom":
        return list(moves)
    top = board.rows - 1
    return [(m[0], top - m[1]) if _as_move(m) is not None else m for m in moves]


def from_bottom(board: Board, moves: Sequence[Sequence[int]], origin: str) -> list[list[int]]:
    """Bottom-origin moves as [x, y] pairs in ``origin`` coordinates (the inverse of ``to_bottom``)."""
    if origin == "bottom":
        return [[int(x), int(y)] for x, y in moves]
    top = board.rows - 1
    return [[int(x), top - int(y)] for x, y in moves]


# -- the objective as searches see it ----------------------------------------
@dataclass(frozen=True)
class Rules:
    """Values are always *maximised* by searches: the standard score, or minus the tiles left."""

    score: bool

    def gain(self, size: int) -> int:
        return (size - 2) * (size - 2) if self.score else 0

    def terminal(self, tiles: int) -> int:
        """Value of a finished game's last board holding ``tiles`` tiles."""
        if self.score:
            return CLEAR_BONUS if tiles == 0 else 0
        return -tiles

    def bound(self, counts: dict[int, int]) -> int:
        """Best value still reachable: a colour with one tile is stuck forever
        (tiles leave two or more at a time), and a colour scores at most as one group."""
        singles = sum(1 for n in counts.values() if n == 1)
        if not self.score:
            return -singles
        pot = sum((n - 2) * (n - 2) for n in counts.values() if n > 2)
        return pot + (0 if singles else CLEAR_BONUS)

    def natural(self, value: int) -> int:
        """The value in the objective's own units and sense (tiles left are positive)."""
        return value if self.score else -value


COLOUR_COUNT_BOUND = "the colour-count bound"
"""``Rules.bound`` of the start, by the name it is credited under wherever it proves a claim, so that ``verify``
recognises the toolkit's own bound and recomputes it."""
NO_MOVE_BOUND = "no move: the board as it stands"
"""The own bound of a start with no move: the empty game is the only one, so its value is exact."""


def own_bound(board: Board, rules: Rules) -> tuple[int, str]:
    """The toolkit's own bound on a start (in ``Rules`` values) and its name: the colour-count bound, or the
    value of the board itself when no move exists (the colour counts alone may allow more: ``1 2 1 2``)."""
    if not legal_moves(board):
        return rules.terminal(board.tiles()), NO_MOVE_BOUND
    return rules.bound(colour_counts(encode(board))), COLOUR_COUNT_BOUND


def rules_of(params: dict[str, Any]) -> Rules:
    return Rules(score=params.get("objective", "min-remaining") == "score")


# -- the compact pure-Python state -------------------------------------------
SEP = 255
SEP_B = bytes([SEP])

Cells = list[tuple[int, int]]
Group = tuple[int, Cells]
"""(colour, cells); cells[0] is the group's minimum (x, y), its click cell."""


def encode(board: Board) -> bytes:
    """The board's non-empty columns, bottom tile first, separated by ``SEP``.

    Bytes hash and compare fast and gravity and column closing are "drop
    these bytes, drop empty columns": the fastest state pure Python has (the
    reference the compiled kernel's speed is measured against).  Coordinates
    inside are the spec's: x = index of the (non-empty) column, y = index in it.
    """
    columns = []
    for x in range(board.cols):
        column = bytes(board.at(x, y) for y in range(board.rows) if board.at(x, y) != EMPTY)
        if column:
            columns.append(column)
    return SEP_B.join(columns)


def columns(state: bytes) -> list[bytes]:
    return state.split(SEP_B) if state else []


def colour_counts(state: bytes) -> dict[int, int]:
    counts: dict[int, int] = {}
    for v in state:
        if v != SEP:
            counts[v] = counts.get(v, 0) + 1
    return counts


def find_groups(cols: Sequence[bytes]) -> list[Group]:
    """All groups of >= 2 tiles, in order of their click cell (min (x, y)).

    Written for speed (it is the pure-Python kernel the compiled one is
    measured against): neighbours unrolled, a group's min cell recognised by
    its partner above or to the right before any flood.
    """
    ncol = len(cols)
    seen = [bytearray(len(c)) for c in cols]
    groups: list[Group] = []
    for x in range(ncol):
        col = cols[x]
        sx = seen[x]
        h = len(col)
        right = cols[x + 1] if x + 1 < ncol else b""
        for y in range(h):
            if sx[y]:
                continue
            c = col[y]
            if not ((y + 1 < h and col[y + 1] == c) or (y < len(right) and right[y] == c)):
                continue
            sx[y] = 1
            cells = [(x, y)]
            stack = [(x, y)]
            while stack:
                cx, cy = stack.pop()
                ccol = cols[cx]
                sc = seen[cx]
                if cy + 1 < len(ccol) and ccol[cy + 1] == c and not sc[cy + 1]:
                    sc[cy + 1] = 1
                    cells.append((cx, cy + 1))
                    stack.append((cx, cy + 1))
                if cy and ccol[cy - 1] == c and not sc[cy - 1]:
                    sc[cy - 1] = 1
                    cells.append((cx, cy - 1))
                    stack.append((cx, cy - 1))
                if cx + 1 < ncol:
                    ncl = cols[cx + 1]
                    if cy < len(ncl) and ncl[cy] == c and not seen[cx + 1][cy]:
                        seen[cx + 1][cy] = 1
                        cells.append((cx + 1, cy))
                        stack.append((cx + 1, cy))
                if cx:
                    pcl = cols[cx - 1]
                    if cy < len(pcl) and pcl[cy] == c and not seen[cx - 1][cy]:
                        seen[cx - 1][cy] = 1
                        cells.append((cx - 1, cy))
                        stack.append((cx - 1, cy))
            groups.append((c, cells))
    return groups


def remove(cols: Sequence[bytes], cells: Cells) -> bytes:
    """The state after removing ``cells`` (gravity and column closing included)."""
    by_col: dict[int, list[int]] = {}
    for x, y in cells:
        by_col.setdefault(x, []).append(y)
    out = list(cols)
    for x, ys in by_col.items():
        col = cols[x]
        ys.sort()
        parts = []
        start = 0
        for y in ys:
            parts.append(col[start:y])
            start = y + 1
        parts.append(col[start:])
        out[x] = b"".join(parts)
    return SEP_B.join([c for c in out if c])
