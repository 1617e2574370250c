"""Classical SameGame solvers: exact search, greedy and beam search.

They share a compact internal state so that Python can afford millions of
nodes: a board is ``bytes`` holding its non-empty columns, bottom tile first,
separated by ``SEP``.  Bytes hash fast, compare fast and cost ~40 bytes in a
transposition table where a tuple of tuples costs ~600.  Gravity and column
closing are then just "drop these bytes, drop empty columns".  Coordinates
inside are the spec's: x = index of the (non-empty) column, y = index in it.

Values are always *maximised* internally: ``-tiles left`` for
``min-remaining`` and the standard score for ``score``; a move's gain is 0 or
(n - 2)^2.  Every answer an Algorithm returns is replayed through
``simulate.evaluate`` before it leaves this module.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Sequence

from mipgames.core.errors import UsageError
from mipgames.core.problem import Algorithm, Report, SolveOptions
from mipgames.core.result import Result

SEP = 255
SEP_B = bytes([SEP])
CLEAR_BONUS = 1000

Cells = list[tuple[int, int]]
Group = tuple[int, Cells]
"""(colour, cells); cells[0] is the group's minimum (x, y), its click cell."""


# ---------------------------------------------------------------- state
def encode(board) -> bytes:
    """Board (rows top first, -1 empty) -> packed state; refuses unsettled boards."""
    cells = board.cells
    rows = len(cells)
    cols = len(cells[0]) if rows else 0
    columns = []
    for x in range(cols):
        column = [cells[rows - 1 - y][x] for y in range(rows)]
        height = sum(1 for v in column if v >= 0)
        if any(v < 0 for v in column[:height]):
            raise UsageError(f"board is not settled: column {x} has a tile above an empty cell")
        if height:
            columns.append(bytes(column[:height]))
        elif any(c for c in columns):
            for later in range(x + 1, cols):
                if any(cells[r][later] >= 0 for r in range(rows)):
                    raise UsageError(f"board is not settled: column {x} is empty with tiles to its right")
    return SEP_B.join(columns)


def columns(state: bytes) -> list[bytes]:
    return state.split(SEP_B) if state else []


def colour_counts(state: bytes) -> dict[int, int]:
    counts: dict[int, int] = {}
    for v in state:
        if v != SEP:
            counts[v] = counts.get(v, 0) + 1
    return counts


def less(counts: dict[int, int], colour: int, n: int) -> dict[int, int]:
    """Colour counts after removing n tiles of ``colour`` (a new dict; colours at 0 dropped)."""
    out = dict(counts)
    left = out[colour] - n
    if left:
        out[colour] = left
    else:
        del out[colour]
    return out


def tiles_left(state: bytes) -> int:
    return len(state) - state.count(SEP_B)


def find_groups(cols: Sequence[bytes]) -> list[Group]:
    """All groups of >= 2 tiles, in order of their click cell (min (x, y))."""
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
                continue  # a group's min cell always has its partner above or to the right
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


# ---------------------------------------------------------------- objectives
@dataclass(frozen=True)
class Rules:
    """The objective as the search sees it: gains per move, terminal value, optimistic bound."""

    score: bool

    def gain(self, size: int) -> int:
        return (size - 2) * (size - 2) if self.score else 0

    def terminal(self, state: bytes) -> int:
        if self.score:
            return CLEAR_BONUS if not state else 0
        return -tiles_left(state)

    def bound(self, counts: dict[int, int]) -> int:
        """Best value still reachable: a colour with one tile is stuck forever
        (tiles leave two or more at a time), and a colour scores at most as one group."""
        singles = sum(1 for n in counts.values() if n == 1)
        if not self.score:
            return -singles
        pot = sum((n - 2) * (n - 2) for n in counts.values() if n > 2)
        return pot + (0 if singles else CLEAR_BONUS)

    def natural(self, value: int) -> int:
        return value if self.score else -value


def rules_of(params: dict) -> Rules:
    return Rules(score=params.get("objective", "min-remaining") == "score")


class Timeout(Exception):
    pass


# ---------------------------------------------------------------- exact search
@dataclass
class ExactResult:
    value: int | None
    moves: list[tuple[int, int]] | None
    proved: bool
    nodes: int
    bound: int


def exact_search(
    state: bytes,
    rules: Rules,
    deadline: float | None = None,
    incumbent: int | None = None,
    max_nodes: int | None = None,
) -> ExactResult:
    """Depth-first branch and bound with a transposition table.

    A state's future value does not depend on how it was reached, so the
    table stores it per state: exact, or an upper bound when the subtree was
    cut (fail-soft: a call returns the exact value when it beats ``need``,
    else an upper bound <= ``need``).  Cuts use the colour-count bound.
    ``incumbent`` (a heuristic's value) only tightens the first ``need``.
    """
    tt: dict[bytes, tuple[int, bool, bytes | None, tuple[int, int] | None]] = {}
    nodes = 0
    check = 0

    def search(st: bytes, counts: dict[int, int], need: int) -> int:
        nonlocal nodes, check
        entry = tt.get(st)
        bnd = rules.bound(counts)
        if entry is not None:
            if entry[1] or entry[0] <= need:
                return entry[0]
            bnd = min(bnd, entry[0])
        if bnd <= need:
            return bnd
        nodes += 1
        check += 1
        if check >= 2048:
            check = 0
            if deadline is not None and time.monotonic() > deadline:
                raise Timeout
            if max_nodes is not None and nodes > max_nodes:
                raise Timeout
        cols = columns(st)
        groups = find_groups(cols)
        if not groups:
            v = rules.terminal(st)
            tt[st] = (v, True, None, None)
            return v
        children = []
        for colour, cells in groups:
            child = remove(cols, cells)
            ccounts = less(counts, colour, len(cells))
            g = rules.gain(len(cells))
            children.append((g + rules.bound(ccounts), -len(cells), g, child, ccounts, cells[0]))
        children.sort(key=lambda ch: (-ch[0], ch[1]))
        best = None
        best_child = None
        best_move = None
        for opt, _, g, child, ccounts, move in children:
            floor = need if best is None else max(need, best)
            if opt <= floor:
                if best is None or opt > best:
                    best = opt  # upper bound of what the rest could give
                break
            v = g + search(child, ccounts, floor - g)
            if best is None or v > best:
                best, best_child, best_move = v, child, move
            if best >= bnd:
                break
        exact = best > need
        tt[st] = (best if exact else min(best, bnd), exact, best_child if exact else None, best_move if exact else None)
        return best

    counts = colour_counts(state)
    root_bound = rules.bound(counts)
    need = -(10**9) if incumbent is None else incumbent - 1
    try:
        value = search(state, counts, need)
    except Timeout:
        return ExactResult(None, None, False, nodes, root_bound)
    except RecursionError:  # pragma: no cover - boards far beyond exact search
        return ExactResult(None, None, False, nodes, root_bound)
    if value <= need:
        # the incumbent is optimal; nothing strictly better exists
        return ExactResult(None, None, True, nodes, value)
    moves = []
    st = state
    while True:
        entry = tt[st]
        if entry[2] is None:
            break
        moves.append(entry[3])
        st = entry[2]
    return ExactResult(value, moves, True, nodes, value)


# ---------------------------------------------------------------- beam search
@dataclass
class Node:
    state: bytes
    value: int  # gains so far
    counts: dict[int, int]
    parent: "Node | None"
    move: tuple[int, int] | None

    def moves(self) -> list[tuple[int, int]]:
        out = []
        node: Node | None = self
        while node is not None and node.move is not None:
            out.append(node.move)
            node = node.parent
        return out[::-1]


def loose(cols: Sequence[bytes], keep: int) -> tuple[int, bool]:
    """(tiles not of colour ``keep`` with no same-coloured neighbour, whether any group is left).

    One pass over the cells, about a third of the cost of ``find_groups``."""
    lonely = 0
    any_group = False
    prev = b""
    ncol = len(cols)
    for x in range(ncol):
        col = cols[x]
        nxt = cols[x + 1] if x + 1 < ncol else b""
        lp, ln, h = len(prev), len(nxt), len(col)
        for y in range(h):
            c = col[y]
            if (y + 1 < h and col[y + 1] == c) or (y and col[y - 1] == c) or (y < lp and prev[y] == c) or (
                y < ln and nxt[y] == c
            ):
                any_group = True
            elif c != keep:
                lonely += 1
        prev = col
    return lonely, any_group


@dataclass(frozen=True)
class Heuristic:
    """How promising a partial game is: a cheap ``rough`` key on colour counts prunes the
    children first, ``fine`` (one pass over the cells) ranks the survivors.

    Score: points so far plus (n-2)^2 for the most numerous colour ``keep``
    (kept together to the end, it is where big SameGame scores come from),
    minus ``lonely_cost`` per tile of another colour that has no partner
    right now (those are what stops the board from being cleared).
    Min-remaining: tiles left, plus lonely tiles twice and stuck colours ten times.
    """

    rules: Rules
    keep: int
    lonely_cost: float = 50.0

    def potential(self, counts: dict[int, int]) -> int:
        n = counts.get(self.keep, 0)
        return (n - 2) * (n - 2) if n > 2 else 0

    def rough(self, node: "Node") -> float:
        if self.rules.score:
            return node.value + self.potential(node.counts)
        singles = sum(1 for n in node.counts.values() if n == 1)
        return -(tiles_left(node.state) + 10 * singles)

    def fine(self, node: "Node", lonely: int) -> float:
        if self.rules.score:
            return node.value + self.potential(node.counts) - self.lonely_cost * lonely
        return self.rough(node) - 2 * lonely


def heuristic_for(rules: Rules, state: bytes) -> Heuristic:
    counts = colour_counts(state)
    keep = max(sorted(counts), key=lambda c: counts[c]) if rules.score and counts else -1
    return Heuristic(rules, keep)


@dataclass
class BeamResult:
    value: int
    moves: list[tuple[int, int]]
    width: int
    nodes: int
    complete: bool
    exhaustive: bool = False
    """No layer was ever cut: every game was looked at, so the value is optimal."""


PREFILTER = 3


def beam_search(
    state: bytes,
    rules: Rules,
    width: int,
    deadline: float | None = None,
    heuristic: Heuristic | None = None,
) -> BeamResult:
    """Beam search over distinct states (duplicates merged, best gains kept).

    Each layer keeps ``PREFILTER * width`` children by the rough key, detects
    finished games among them (recorded at once, so a cleared board is never
    pruned), and keeps ``width`` by the fine key.  If the deadline hits
    mid-way, the best node of the current layer is finished greedily, so a
    result always comes back.
    """
    h = heuristic or heuristic_for(rules, state)
    root = Node(state, 0, colour_counts(state), None, None)
    best: Node = root
    best_value = None
    if not find_groups(columns(state)):
        return BeamResult(rules.terminal(state), [], width, 0, True, True)
    layer = [root]
    nodes = 0
    complete = True
    exhaustive = True
    while layer:
        if deadline is not None and time.monotonic() > deadline:
            complete = False
            break
        nxt: dict[bytes, Node] = {}
        for node in layer:
            cols = columns(node.state)
            for colour, cells in find_groups(cols):
                child = remove(cols, cells)
                nodes += 1
                value = node.value + rules.gain(len(cells))
                old = nxt.get(child)
                if old is not None and old.value >= value:
                    continue
                nxt[child] = Node(child, value, less(node.counts, colour, len(cells)), node, cells[0])
        cand = list(nxt.values())
        if len(cand) > width:
            exhaustive = False
        if len(cand) > PREFILTER * width:
            cand.sort(key=h.rough, reverse=True)
            del cand[PREFILTER * width :]
        ranked = []
        for node in cand:
            lonely, alive = loose(columns(node.state), h.keep)
            if not alive:
                v = node.value + rules.terminal(node.state)
                if best_value is None or v > best_value:
                    best, best_value = node, v
                continue
            ranked.append((h.fine(node, lonely), node))
        ranked.sort(key=lambda p: p[0], reverse=True)
        layer = [node for _, node in ranked[:width]]
    if not complete and layer:
        end = _finish_greedily(layer[0], rules, h)
        v = end.value + rules.terminal(end.state)
        if best_value is None or v > best_value:
            best, best_value = end, v
    assert best_value is not None
    return BeamResult(best_value, best.moves(), width, nodes, complete, complete and exhaustive)


def _finish_greedily(node: Node, rules: Rules, h: Heuristic) -> Node:
    while True:
        cols = columns(node.state)
        groups = find_groups(cols)
        if not groups:
            return node
        children = []
        for colour, cells in groups:
            counts = less(node.counts, colour, len(cells))
            children.append(Node(remove(cols, cells), node.value + rules.gain(len(cells)), counts, node, cells[0]))
        node = max(children, key=lambda ch: h.fine(ch, loose(columns(ch.state), h.keep)[0]))


def greedy(state: bytes, rules: Rules) -> BeamResult:
    """Width-1 beam: at each step the move whose result the heuristic likes best."""
    return beam_search(state, rules, 1)


def iterated_beam(
    state: bytes,
    rules: Rules,
    deadline: float | None,
    start_width: int = 1,
    max_width: int | None = None,
    report: Report | None = None,
) -> BeamResult:
    """Beam searches of doubling width while the time budget lasts; keeps the best.

    The cost of a beam grows about linearly with its width, so when a doubling
    no longer fits, one last beam is sized to about 80% of the budget left.
    """
    best: BeamResult | None = None
    width = max(1, start_width)
    while True:
        began = time.monotonic()
        res = beam_search(state, rules, width, deadline)
        took = time.monotonic() - began
        if best is None or res.value > best.value or res.exhaustive:
            best = res
            if report:
                report(rules.natural(best.value), None)
        if res.exhaustive or not res.complete or (max_width is not None and width >= max_width):
            break
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left < 2.2 * took:
            # the budget left does not fit a doubling: one last beam sized to what is left
            last = int(width * left / max(took, 1e-3) * 0.8)
            if last <= width:
                break
            width = last
            continue
        width *= 2
    assert best is not None
    return best


# ---------------------------------------------------------------- algorithms
def _deadline(options: SolveOptions) -> float | None:
    return None if options.time_limit is None else time.monotonic() + options.time_limit


def _verified(board, params, moves, status, bound=None, message="") -> Result:
    from mipgames.samegame import simulate

    solution = [list(m) for m in moves]
    verdict = simulate.evaluate(board, params, solution)
    if not verdict.legal:
        return Result("error", solution, None, bound, f"internal search produced an illegal sequence: {verdict.reason}")
    return Result(status, solution, verdict.objective, bound, message)


def run_exact(board, params: dict, options: SolveOptions, report: Report) -> Result:
    rules = rules_of(params)
    state = encode(board)
    deadline = _deadline(options)
    quick = greedy(state, rules)
    report(rules.natural(quick.value), rules.natural(rules.bound(colour_counts(state))))
    res = exact_search(state, rules, deadline, incumbent=quick.value)
    if not res.proved:
        return _verified(
            board, params, quick.moves, "feasible", rules.natural(res.bound),
            f"time limit after {res.nodes} nodes; greedy incumbent",
        )
    if res.moves is None:  # the greedy incumbent was already optimal
        return _verified(board, params, quick.moves, "optimal", rules.natural(res.bound), f"{res.nodes} nodes")
    return _verified(board, params, res.moves, "optimal", rules.natural(res.value), f"{res.nodes} nodes")


def run_greedy(board, params: dict, options: SolveOptions, report: Report) -> Result:
    rules = rules_of(params)
    res = greedy(encode(board), rules)
    return _verified(board, params, res.moves, "feasible", None, "greedy")


PORTFOLIO_RESTART = 0.5
"""Share of the portfolio's beams that restart from a point of the best game so far."""
PORTFOLIO_SHARE = 0.5
"""Under the score rule, the share of the time limit for ``iterated_beam``; the rest runs
``beam.random_portfolio_beam`` (many narrow tabu-colour beams) and the better game is kept."""


def run_beam(board, params: dict, options: SolveOptions, report: Report) -> Result:
    rules = rules_of(params)
    state = encode(board)
    width = int(params.get("beam_width", 0) or 0)
    bound = rules.bound(colour_counts(state))
    if width > 0:
        res = beam_search(state, rules, width, _deadline(options))
        note = f"beam width {res.width}"
    else:
        deadline = _deadline(options) or time.monotonic() + 10.0
        began = time.monotonic()
        half = began + PORTFOLIO_SHARE * (deadline - began) if rules.score else deadline
        res = iterated_beam(state, rules, half, report=report)
        note = f"beam width {res.width}"
        if rules.score and not res.exhaustive and res.value < bound:
            from mipgames.samegame.beam import random_portfolio_beam

            def improved(value: int) -> None:
                if value > res.value:
                    report(value, None)

            alt = random_portfolio_beam(state, deadline, seed=options.seed, restart=PORTFOLIO_RESTART, report=improved)
            if alt.value > res.value:
                res = BeamResult(alt.value, alt.moves, alt.width, res.nodes + alt.nodes, alt.complete)
                note = f"tabu-colour beam width {alt.width}"
    proved = res.exhaustive or res.value == bound
    if res.exhaustive:
        note = "every game examined"
    out = _verified(board, params, res.moves, "optimal" if proved else "feasible",
                    rules.natural(res.value) if proved else None, f"{note}, {res.nodes} children")
    return out


ALGORITHMS = {
    "exact": Algorithm(
        "exact", run_exact,
        "depth-first branch and bound with transposition table and colour-count bound (proves optima on small boards)",
        exact=True,
    ),
    "greedy": Algorithm("greedy", run_greedy, "one move at a time, the one the beam heuristic likes best"),
    "beam": Algorithm(
        "beam", run_beam,
        "beam search over distinct states; --beam-width W fixes the width, 0 doubles it while --time-limit lasts "
        "(10 s if none; under the score rule half the time goes to many narrow tabu-colour beams)",
    ),
}
