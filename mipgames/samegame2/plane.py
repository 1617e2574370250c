"""The sparse Same Game 2 plane: balls, blocks, moves with a base.

Storage is proportional to the balls, never to the area:

* ``balls``: dict (x, y) -> colour (any hashable: colour words for the
  interpreter, ints for classic SameGame);
* ``_cols``: dict x -> sorted list of the ys of the balls in column x, and
  ``_xs``: the occupied xs in a ``sortedcontainers.SortedList`` (each x once:
  it is added when its column opens and discarded when it empties; insertion,
  removal and a range query cost O(log n), so a million balls put one by one
  into one row stay linear overall).  A move enumerates the
  balls of its base column by column (bisect into each occupied column of
  [x0, x1]), so its cost is O(m log m + k log n) for m balls in the base and
  k occupied columns of [x0, x1]; balls in other columns are never looked at.
  (Per-column lists are rewritten with one slice assignment: a C memmove
  proportional to the column's length, the only part not bounded by m.)

The block count is kept incrementally: ``_block`` labels each settled ball
with its block id and ``_size`` counts the balls of each block, so ``n`` is
``len(_size)``.  A change never relabels anything at once; it records
"seeds" (a new ball, and the same-coloured old neighbours of a ball that
left).  ``block_count`` floods from the seeds only: every block that gained
a ball contains a seed, every piece of a block that lost one touches the
lost ball and so contains a seed.  Untouched blocks keep their label, so the
work is proportional to the blocks that changed, not to the plane; many
changes between two queries cost one flood per touched block.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence

from sortedcontainers import SortedList

Cell = tuple[int, int]
Colour = Hashable


def neighbours(cell: Cell) -> tuple[Cell, Cell, Cell, Cell]:
    """The four adjacent cells, in the spec's order: x-1, x+1, y-1, y+1."""
    x, y = cell
    return (x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)


def _spread(balls: Mapping[Cell, Colour], start: Cell, seen: set[Cell]) -> None:
    """Adds to ``seen`` every ball 4-connected to ``start`` through its colour."""
    colour = balls[start]
    stack = [start]
    get = balls.get
    while stack:
        x, y = stack.pop()
        for nb in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
            if nb not in seen and get(nb) == colour:
                seen.add(nb)
                stack.append(nb)


def flood(balls: Mapping[Cell, Colour], start: Cell) -> list[Cell]:
    """The block of ``start`` (which holds a ball): 4-connected, same colour."""
    seen = {start}
    _spread(balls, start, seen)
    return list(seen)


def count_blocks(balls: Mapping[Cell, Colour]) -> int:
    """Full recount by flood fill over every ball (the reference for ``n``)."""
    seen: set[Cell] = set()
    count = 0
    for start in balls:
        if start not in seen:
            count += 1
            seen.add(start)
            _spread(balls, start, seen)
    return count


class Plane:
    """The plane Z² with balls; ``track_blocks=False`` skips block bookkeeping
    (classic SameGame replays never ask ``n`` and go faster without it)."""

    __slots__ = ("_block", "_cols", "_next_id", "_seeds", "_size", "_track", "_xs", "balls")

    def __init__(self, track_blocks: bool = True):
        self.balls: dict[Cell, Colour] = {}
        self._cols: dict[int, list[int]] = {}
        self._xs: SortedList = SortedList()
        self._track = track_blocks
        self._block: dict[Cell, int] = {}
        self._size: dict[int, int] = {}
        self._seeds: set[Cell] = set()
        self._next_id = 0

    @classmethod
    def from_balls(cls, balls: Mapping[Cell, Colour], track_blocks: bool = True) -> Plane:
        """A plane holding exactly ``balls`` (the dict is copied): faster than one ``put`` per ball."""
        plane = cls(track_blocks)
        plane.balls = dict(balls)
        cols = plane._cols
        for x, y in plane.balls:
            ys = cols.get(x)
            if ys is None:
                cols[x] = [y]
            else:
                ys.append(y)
        for ys in cols.values():
            ys.sort()
        plane._xs.update(cols)
        if track_blocks:
            plane._seeds = set(plane.balls)
        return plane

    def __len__(self) -> int:
        return len(self.balls)

    def get(self, x: int, y: int) -> Colour | None:
        return self.balls.get((x, y))

    def column(self, x: int) -> list[int]:
        """The ys of the balls in column x, increasing (a copy)."""
        return list(self._cols.get(x, ()))

    def columns(self) -> Iterator[int]:
        """The occupied xs, increasing."""
        return iter(self._xs)

    # -- changing balls -------------------------------------------------
    def _forget(self, cell: Cell) -> Colour:
        """Remove the ball at ``cell`` from ``balls`` and the block labels (not from the column index)."""
        colour = self.balls.pop(cell)
        if self._track:
            bid = self._block.pop(cell, None)
            if bid is not None:
                left = self._size[bid] - 1
                if left:
                    self._size[bid] = left
                    get = self.balls.get
                    seeds = self._seeds
                    for nb in neighbours(cell):
                        if get(nb) == colour:
                            seeds.add(nb)
                else:
                    del self._size[bid]
        return colour

    def _learn(self, cell: Cell, colour: Colour) -> None:
        self.balls[cell] = colour
        if self._track:
            self._seeds.add(cell)

    def put(self, x: int, y: int, colour: Colour) -> None:
        """Put a ball at (x, y), replacing what was there."""
        cell = (x, y)
        old = self.balls.get(cell)
        if old is not None:
            if old == colour:
                return
            self._forget(cell)
            self._learn(cell, colour)
            return
        self._learn(cell, colour)
        ys = self._cols.get(x)
        if ys is None:
            self._cols[x] = [y]
            self._xs.add(x)
        elif y > ys[-1]:
            ys.append(y)
        else:
            ys.insert(bisect_left(ys, y), y)

    def put_many(self, items: Iterable[tuple[Cell, Colour]]) -> None:
        """Bulk ``put`` (the ``i`` command): one sort per column instead of one insertion per ball."""
        fresh: dict[int, list[int]] = {}
        balls = self.balls
        for cell, colour in items:
            old = balls.get(cell)
            if old is not None:
                if old != colour:
                    self._forget(cell)
                    self._learn(cell, colour)
                continue
            self._learn(cell, colour)
            fresh.setdefault(cell[0], []).append(cell[1])
        new_xs = []
        for x, ys in fresh.items():
            old_ys = self._cols.get(x)
            if old_ys is None:
                ys.sort()
                self._cols[x] = ys
                new_xs.append(x)
            else:
                old_ys.extend(ys)
                old_ys.sort()
        self._xs.update(new_xs)  # SortedList.update merges a big batch with one sort, adds a small one singly

    def put_table(self, x: int, y: int, rows: int, cols: int, words: Sequence[Colour | None]) -> None:
        """The ``i`` command: ``words[k * cols + h]`` goes to (x + h, y + k); None leaves the cell alone.

        When no ball lies in or next to the table's rectangle (the usual case:
        loading a board), its blocks are labelled at once by a flood over the
        word array (list indexing, no dict lookups), so the first ``n`` after
        a large load costs nothing more.  Otherwise the balls go in one by one
        and the block count catches up lazily.
        """
        if not (rows and cols):
            return
        if self._track and not self.occupied(x - 1, x + cols, y - 1, y + rows):
            self._put_isolated_table(x, y, rows, cols, words)
            return
        self.put_many(((x + i % cols, y + i // cols), word) for i, word in enumerate(words) if word is not None)

    def occupied(self, x0: int, x1: int, y0: int, y1: int) -> bool:
        """Whether the rectangle ([x0, x1], [y0, y1]) holds a ball."""
        cols = self._cols
        for cx in self._xs.irange(x0, x1):
            ys = cols[cx]
            if bisect_left(ys, y0) < bisect_right(ys, y1):
                return True
        return False

    def _put_isolated_table(self, x: int, y: int, rows: int, cols: int, words: Sequence[Colour | None]) -> None:
        total = rows * cols
        label = [-1] * total
        size = self._size
        next_id = self._next_id
        last, below = cols - 1, total - cols
        for start in range(total):
            colour = words[start]
            if colour is None or label[start] >= 0:
                continue
            label[start] = next_id
            count = 0
            stack = [start]
            while stack:
                j = stack.pop()
                count += 1
                h = j % cols
                if h and label[j - 1] < 0 and words[j - 1] == colour:
                    label[j - 1] = next_id
                    stack.append(j - 1)
                if h < last and label[j + 1] < 0 and words[j + 1] == colour:
                    label[j + 1] = next_id
                    stack.append(j + 1)
                if j >= cols and label[j - cols] < 0 and words[j - cols] == colour:
                    label[j - cols] = next_id
                    stack.append(j - cols)
                if j < below and label[j + cols] < 0 and words[j + cols] == colour:
                    label[j + cols] = next_id
                    stack.append(j + cols)
            size[next_id] = count
            next_id += 1
        self._next_id = next_id
        balls, block = self.balls, self._block
        new_ys: list[list[int]] = [[] for _ in range(cols)]
        for k in range(rows):
            row_y = y + k
            base = k * cols
            for h in range(cols):
                colour = words[base + h]
                if colour is not None:
                    cell = (x + h, row_y)
                    balls[cell] = colour
                    block[cell] = label[base + h]
                    new_ys[h].append(row_y)
        added = []
        for h, ys in enumerate(new_ys):
            if not ys:
                continue
            old = self._cols.get(x + h)
            if old is None:
                self._cols[x + h] = ys
                added.append(x + h)
            else:
                at = bisect_left(old, y)
                old[at:at] = ys
        self._xs.update(added)

    def _set_base_slice(self, x: int, y0: int, y1: int, count: int) -> None:
        """Make the part [y0, y1] of column x's index hold exactly y0 .. y0+count-1."""
        ys = self._cols.get(x)
        if ys is None:
            if not count:
                return
            self._cols[x] = list(range(y0, y0 + count))
            self._xs.add(x)
            return
        ys[bisect_left(ys, y0) : bisect_right(ys, y1)] = range(y0, y0 + count)
        if not ys:
            del self._cols[x]
            self._xs.discard(x)

    # -- blocks ---------------------------------------------------------
    def block(self, x: int, y: int) -> list[Cell]:
        """The block of (x, y) on the whole plane ([] when the cell is empty)."""
        if (x, y) not in self.balls:
            return []
        return flood(self.balls, (x, y))

    def block_count(self) -> int:
        """The number of blocks (``n``), brought up to date from the seeds."""
        if not self._track:
            return count_blocks(self.balls)
        self._settle()
        return len(self._size)

    def _settle(self) -> None:
        seeds = self._seeds
        if not seeds:
            return
        balls = self.balls
        get = balls.get
        block = self._block
        size = self._size
        first_new = self._next_id
        for seed in seeds:
            colour = get(seed)
            if colour is None:
                continue
            bid = block.get(seed)
            if bid is not None and bid >= first_new:
                continue
            new = self._next_id
            self._next_id += 1
            count = 0
            stack = [seed]
            while stack:
                cell = stack.pop()
                old = block.get(cell)
                if old == new:
                    continue
                if old is not None:
                    left = size[old] - 1
                    if left:
                        size[old] = left
                    else:
                        del size[old]
                block[cell] = new
                count += 1
                x, y = cell
                for nb in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
                    if get(nb) == colour and block.get(nb) != new:
                        stack.append(nb)
            size[new] = count
        seeds.clear()

    # -- the move -------------------------------------------------------
    def move(self, x: int, y: int, x0: int, x1: int, y0: int, y1: int) -> int:
        """The move on cell (x, y) with base ([x0, x1], [y0, y1]); returns the number of balls removed.

        The block of (x, y) is taken on the whole plane; only its part inside
        the base goes.  Then the base is made stable: each base column's
        balls are restacked from y0 in their order, and the non-empty base
        columns are packed from x0 in their order.  This happens even when
        (x, y) is empty, since the base may not have been stable before.
        """
        if x0 > x1 or y0 > y1:
            raise ValueError("empty base")
        gone: set[Cell] = set()
        if (x, y) in self.balls:  # the block's flood is the only cost not bounded by the base
            gone = {c for c in flood(self.balls, (x, y)) if x0 <= c[0] <= x1 and y0 <= c[1] <= y1}
        gone_xs = {c[0] for c in gone}
        cols = self._cols
        target = x0
        changed: dict[int, int] = {}  # column -> number of base balls it ends with
        movers: list[tuple[Cell, Cell]] = []
        for cx in list(self._xs.irange(x0, x1)):
            ys = cols[cx]
            lo = bisect_left(ys, y0)
            hi = bisect_right(ys, y1)
            if lo == hi:
                continue
            if cx in gone_xs:
                kept = [cy for cy in ys[lo:hi] if (cx, cy) not in gone]
            else:
                kept = ys[lo:hi]
            if not kept:
                changed.setdefault(cx, 0)
                continue
            k = len(kept)
            if target == cx and kept[0] == y0 and kept[-1] == y0 + k - 1:
                if cx in gone_xs:
                    changed[cx] = k
                target += 1
                continue
            for j, cy in enumerate(kept):
                if cx != target or cy != y0 + j:
                    movers.append(((cx, cy), (target, y0 + j)))
            changed.setdefault(cx, 0)
            changed[target] = k
            target += 1
        for cell in gone:
            self._forget(cell)
        colours = [self._forget(old) for old, _ in movers]
        for (_, new), colour in zip(movers, colours):
            self._learn(new, colour)
        for cx, count in changed.items():
            self._set_base_slice(cx, y0, y1, count)
        return len(gone)
