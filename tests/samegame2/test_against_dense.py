"""The interpreter against a deliberately simple dense-grid implementation of the spec.

The reference keeps the plane as a small matrix, removes the block, then
applies the spec's two stabilising rules literally (one ball falls one row,
one column shifts one place) until neither applies, and answers ``n``, ``o``
and ``c`` by textbook searches over the matrix.  Random planes and random
scripts (valid lines mixed with malformed ones) must give identical output,
and the same lines must be rejected.  The whole scene is shifted by a random
offset, up to the ends of the coordinate range (|v| <= COORD_LIMIT).
"""

from __future__ import annotations

import heapq
import io
import os
import tempfile
from collections import deque

from hypothesis import given, settings
from hypothesis import strategies as st

from mipgames.samegame2.interpreter import COORD_LIMIT, Interpreter

LO, HI = -3, 3  # where balls are placed and bases lie (relative to the offset);
#                         queries also name cells one step outside

COLOURS = ["a", "b", "c"]


class Dense:
    """The plane restricted to [LO, HI]^2 (every move keeps balls there: bases lie inside it)."""

    def __init__(self, offset: int):
        self.off = offset
        self.grid = [[None] * (HI - LO + 1) for _ in range(HI - LO + 1)]  # grid[x][y], relative

    def get(self, x: int, y: int):
        if LO <= x <= HI and LO <= y <= HI:
            return self.grid[x - LO][y - LO]
        return None

    def set(self, x: int, y: int, colour) -> None:
        self.grid[x - LO][y - LO] = colour

    def neighbours(self, x, y):
        return [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]

    def block(self, x, y):
        colour = self.get(x, y)
        seen, todo = {(x, y)}, [(x, y)]
        while todo:
            cx, cy = todo.pop()
            for n in self.neighbours(cx, cy):
                if n not in seen and self.get(*n) == colour:
                    seen.add(n)
                    todo.append(n)
        return seen

    def move(self, x, y, x0, x1, y0, y1):
        if self.get(x, y) is not None:
            for bx, by in self.block(x, y):
                if x0 <= bx <= x1 and y0 <= by <= y1:
                    self.set(bx, by, None)
        changed = True
        while changed:
            changed = False
            for cx in range(x0, x1 + 1):
                for cy in range(y0 + 1, y1 + 1):
                    if self.get(cx, cy) is not None and self.get(cx, cy - 1) is None:
                        self.set(cx, cy - 1, self.get(cx, cy))
                        self.set(cx, cy, None)
                        changed = True
            for cx in range(x0 + 1, x1 + 1):
                here = any(self.get(cx, cy) is not None for cy in range(y0, y1 + 1))
                left = any(self.get(cx - 1, cy) is not None for cy in range(y0, y1 + 1))
                if here and not left:
                    for cy in range(y0, y1 + 1):
                        self.set(cx - 1, cy, self.get(cx, cy))
                        self.set(cx, cy, None)
                    changed = True

    def count(self):
        seen, blocks = set(), 0
        for x in range(LO, HI + 1):
            for y in range(LO, HI + 1):
                if self.get(x, y) is not None and (x, y) not in seen:
                    blocks += 1
                    seen |= self.block(x, y)
        return blocks

    def show(self, v, cells):
        o = self.off
        return f"({v},{len(cells)}\n" + "".join(f"{x + o},{y + o}\n" for x, y in cells) + ")\n"

    def trace(self, parent, b):
        cells = [b]
        while parent[cells[-1]] is not None:
            cells.append(parent[cells[-1]])
        return cells[::-1]

    def homogeneous(self, a, b):
        colour = self.get(*a)
        if colour is None or self.get(*b) != colour:
            return None
        parent = {a: None}
        queue = deque([a])
        while queue:
            cell = queue.popleft()
            if cell == b:
                return self.show(0, self.trace(parent, b))
            for n in self.neighbours(*cell):
                if n not in parent and self.get(*n) == colour:
                    parent[n] = cell
                    queue.append(n)
        return None

    def variability(self, a, b):
        if self.get(*a) is None or self.get(*b) is None:
            return None
        key, parent, done = {a: (0, 1)}, {a: None}, set()
        heap, counter = [((0, 1), 0, a)], 1
        while heap:
            k, _, cell = heapq.heappop(heap)
            if cell in done:
                continue
            done.add(cell)
            if cell == b:
                return self.show(k[0], self.trace(parent, b))
            for n in self.neighbours(*cell):
                if self.get(*n) is None or n in done:
                    continue
                nk = (k[0] + (self.get(*n) != self.get(*cell)), k[1] + 1)
                if n not in key or nk < key[n]:
                    key[n], parent[n] = nk, cell
                    heapq.heappush(heap, (nk, counter, n))
                    counter += 1
        return None


coord = st.integers(LO, HI)
query = st.integers(LO - 1, HI + 1)
colour = st.sampled_from(COLOURS)


@st.composite
def base(draw):
    x0, x1 = sorted(draw(st.lists(coord, min_size=2, max_size=2)))
    y0, y1 = sorted(draw(st.lists(coord, min_size=2, max_size=2)))
    return x0, x1, y0, y1


@st.composite
def table(draw):
    rows, cols = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    x, y = draw(st.integers(LO, HI - cols + 1)), draw(st.integers(LO, HI - rows + 1))
    words = draw(st.lists(st.sampled_from(COLOURS + ["0"]), min_size=rows * cols, max_size=rows * cols))
    return rows, cols, x, y, words


command = st.one_of(
    st.tuples(st.just("b"), coord, coord, colour),
    st.tuples(st.just("b"), coord, coord, colour),
    st.tuples(st.just("m"), query, query, base()),
    st.tuples(st.just("m"), query, query, base()),
    st.tuples(st.just("o"), query, query, query, query),
    st.tuples(st.just("c"), query, query, query, query),
    st.tuples(st.just("n")),
    st.tuples(st.just("i"), table()),
    st.tuples(st.just("bad"), st.sampled_from(["b 1 2", "m 0 0 3 1 0 0", "b 0 0 Red", "q", "o 1 2 3 x", "n 1"])),
)


@settings(max_examples=120, deadline=None, derandomize=True)  # make stress draws more
@given(
    offset=st.sampled_from([0, 7, -COORD_LIMIT + HI + 1, COORD_LIMIT - HI - 1]),  # queries touch the range's ends
    start=st.lists(st.sampled_from(COLOURS + [None]), min_size=(HI - LO + 1) ** 2, max_size=(HI - LO + 1) ** 2),
    script=st.lists(command, max_size=25),
    palette=st.integers(1, 3),
    probes=st.lists(st.tuples(st.sampled_from("oc"), query, query, query, query), min_size=2, max_size=6),
)
def test_interpreter_matches_dense_reference(offset, start, script, palette, probes) -> None:
    dense = Dense(offset)
    lines: list[str] = []
    expected: list[str] = []
    rejected: list[int] = []
    o = offset
    with tempfile.TemporaryDirectory() as tmp:
        side = HI - LO + 1
        for k, c in enumerate(start):
            x, y = LO + k % side, LO + k // side
            if c is not None:
                c = COLOURS[COLOURS.index(c) % palette]  # few colours: big blocks, many tied paths
                lines.append(f"b {x + o} {y + o} {c}")
                dense.set(x, y, c)
        for cmd in script + probes:
            kind = cmd[0]
            if kind == "b":
                _, x, y, c = cmd
                lines.append(f"b {x + o} {y + o} {c}")
                dense.set(x, y, c)
            elif kind == "m":
                _, x, y, (x0, x1, y0, y1) = cmd
                lines.append(f"m {x + o} {y + o} {x0 + o} {x1 + o} {y0 + o} {y1 + o}")
                dense.move(x, y, x0, x1, y0, y1)
            elif kind in "oc":
                _, x1, y1, x2, y2 = cmd
                lines.append(f"{kind} {x1 + o} {y1 + o} {x2 + o} {y2 + o}")
                if kind == "o":
                    found = dense.homogeneous((x1, y1), (x2, y2))
                    missing = "Non esiste un cammino omogeneo fra"
                else:
                    found = dense.variability((x1, y1), (x2, y2))
                    missing = "Non esiste un cammino fra"
                expected.append(found or f"{missing} ({x1 + o},{y1 + o}) e ({x2 + o},{y2 + o})\n")
            elif kind == "n":
                lines.append("n")
                expected.append(f"{dense.count()}\n")
            elif kind == "i":
                rows, cols, x, y, words = cmd[1]
                name = os.path.join(tmp, f"t{len(lines)}.txt")
                with open(name, "w") as handle:
                    handle.write("\n".join(" ".join(words[k * cols : (k + 1) * cols]) for k in range(rows)))
                lines.append(f"i {rows} {cols} {x + o} {y + o} {name}")
                for k in range(rows):
                    for h in range(cols):
                        if words[k * cols + h] != "0":
                            dense.set(x + h, y + k, words[k * cols + h])
            else:
                lines.append(cmd[1])
                rejected.append(len(lines))
        lines.append("n")
        expected.append(f"{dense.count()}\n")
        out, err = io.StringIO(), io.StringIO()
        status = Interpreter(out, err).run(line + "\n" for line in lines)
    assert out.getvalue() == "".join(expected)
    got_rejected = [int(msg.split(":")[1]) for msg in err.getvalue().splitlines()]
    assert got_rejected == rejected
    assert status == (1 if rejected else 0)
