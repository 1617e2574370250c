"""A sorted set of integers kept as a list of bounded chunks.

The plane needs the occupied columns in x order and a range query over them
(the columns of a base).  A plain sorted list makes one insertion O(n), which
is quadratic when a million balls lie in one row; chunks of at most
``2 * load`` values make insertion and removal O(log n + load) and a range
query O(log n + answer).  (The idea of sortedcontainers.SortedList, kept here
in sixty lines so the package has no extra dependency.)
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Iterable, Iterator


class SortedInts:
    """Sorted set of ints: add, discard, membership, ordered range iteration."""

    __slots__ = ("_chunks", "_maxes", "_load", "_len")

    def __init__(self, values: Iterable[int] = (), load: int = 512):
        self._load = load
        self._chunks: list[list[int]] = []
        self._maxes: list[int] = []
        self._len = 0
        self.update(values)

    def __len__(self) -> int:
        return self._len

    def __iter__(self) -> Iterator[int]:
        for chunk in self._chunks:
            yield from chunk

    def __contains__(self, value: int) -> bool:
        i = bisect_left(self._maxes, value)
        if i == len(self._maxes):
            return False
        chunk = self._chunks[i]
        j = bisect_left(chunk, value)
        return chunk[j] == value

    def add(self, value: int) -> None:
        if not self._chunks:
            self._chunks.append([value])
            self._maxes.append(value)
            self._len = 1
            return
        i = bisect_left(self._maxes, value)
        if i == len(self._maxes):
            i -= 1
        chunk = self._chunks[i]
        j = bisect_left(chunk, value)
        if j < len(chunk) and chunk[j] == value:
            return
        chunk.insert(j, value)
        self._maxes[i] = chunk[-1]
        self._len += 1
        if len(chunk) > 2 * self._load:
            half = chunk[self._load:]
            del chunk[self._load:]
            self._chunks.insert(i + 1, half)
            self._maxes[i] = chunk[-1]
            self._maxes.insert(i + 1, half[-1])

    def discard(self, value: int) -> None:
        i = bisect_left(self._maxes, value)
        if i == len(self._maxes):
            return
        chunk = self._chunks[i]
        j = bisect_left(chunk, value)
        if chunk[j] != value:
            return
        del chunk[j]
        self._len -= 1
        if chunk:
            self._maxes[i] = chunk[-1]
        else:
            del self._chunks[i]
            del self._maxes[i]

    def update(self, values: Iterable[int]) -> None:
        """Bulk insertion: one sort instead of many chunk insertions."""
        new = set(values)
        if not new:
            return
        if self._len:
            new.update(self)
        merged = sorted(new)
        load = self._load
        self._chunks = [merged[k:k + load] for k in range(0, len(merged), load)]
        self._maxes = [chunk[-1] for chunk in self._chunks]
        self._len = len(merged)

    def irange(self, lo: int, hi: int) -> Iterator[int]:
        """The values v with lo <= v <= hi, in increasing order."""
        i = bisect_left(self._maxes, lo)
        chunks = self._chunks
        first = True
        while i < len(chunks):
            chunk = chunks[i]
            j = bisect_left(chunk, lo) if first else 0
            first = False
            k = bisect_right(chunk, hi)
            yield from chunk[j:k]
            if k < len(chunk):
                return
            i += 1
