"""Decoders: from a model's merge counts d_i to an explicit merge sequence.

``sequence_from_merges`` is the constructive half of the spec's realisability
fact.  Per type, with N_j = #heroes with d >= j, the condition
N_j >= 2 N_{j+1} (equivalently c_j >= #heroes with d > j) lets us build the
merge forest level by level: at stage j (j = 0, 1, ...) every hero with
d >= j is alive at level j + 1; each hero with d > j absorbs a distinct hero
with d == j (there are N_j - N_{j+1} >= N_{j+1} of them, none absorbed
before, since only heroes with d == j' are absorbed at stage j').  After the
stage the heroes with d > j stand at level j + 2, closing the induction.
The simulator then replays the sequence: the fact is never trusted, only used.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mipgames.core.result import Value
from mipgames.merge_game.codec import Solution
from mipgames.merge_game.instance import Instance
from mipgames.merge_game.simple import Kernel
from mipgames.merge_game.simulate import type_groups


def sequence_from_merges(instance: Instance, d: Sequence[int]) -> Solution:
    """Merge sequence in which hero i survives exactly d[i] merges (when the d are realisable).

    Each taker absorbs a nearby donor to keep pictures readable (Donors below).
    If the d are not realisable (a solver tolerance gone wrong) a taker that
    finds no donor stops growing; the simulator's count then exposes it.
    """
    merges: list[tuple[int, int]] = []
    for _, ids in sorted(type_groups(instance).items()):
        grow = {i: d[i] for i in ids}
        top = max(grow.values(), default=0)
        for j in range(top):
            takers = [i for i in ids if grow[i] > j]
            donors = Donors(instance, [i for i in ids if grow[i] == j])
            for t in takers:
                best = donors.take_near(instance.heroes[t].x, instance.heroes[t].y)
                if best is None:
                    grow[t] = j
                    continue
                merges.append((best, t))
    return tuple(merges)


class Donors:
    """Heroes waiting to be absorbed, bucketed by map square of side BUCKET: the nearest of a few buckets is found
    without scanning every donor (maps from the reduction have ten thousand takers and as many donors)."""

    BUCKET = 8

    def __init__(self, instance: Instance, ids: list[int]):
        self.heroes = instance.heroes
        self.left = len(ids)
        self.buckets: dict[tuple[int, int], list[int]] = {}
        for i in ids:
            h = self.heroes[i]
            self.buckets.setdefault((h.x // self.BUCKET, h.y // self.BUCKET), []).append(i)
        self.reach = max(instance.width, instance.height) // self.BUCKET + 1

    def take_near(self, x: int, y: int) -> int | None:
        """Removes and returns a donor near (x, y): the nearest (Manhattan, then id) in the first ring of buckets
        holding any and the ring after it; None when no donor is left."""
        if not self.left:
            return None
        bx, by = x // self.BUCKET, y // self.BUCKET
        found: list[tuple[int, int, tuple[int, int]]] = []
        stop = self.reach
        for r in range(self.reach + 1):
            if r > stop:
                break
            for cell in self._ring(bx, by, r):
                for i in self.buckets.get(cell, ()):
                    h = self.heroes[i]
                    found.append((abs(h.x - x) + abs(h.y - y), i, cell))
            if found and stop == self.reach:
                stop = r + 1
        _, best, cell = min(found)
        self.buckets[cell].remove(best)
        self.left -= 1
        return best

    @staticmethod
    def _ring(bx: int, by: int, r: int) -> list[tuple[int, int]]:
        if r == 0:
            return [(bx, by)]
        side = range(-r, r + 1)
        return (
            [(bx + dx, by - r) for dx in side]
            + [(bx + dx, by + r) for dx in side]
            + [(bx - r, by + dy) for dy in side[1:-1]]
            + [(bx + r, by + dy) for dy in side[1:-1]]
        )


@dataclass(frozen=True)
class CompactHandles:
    """Heroes of one type with the same hit set form a group; counts[g][j-1] = #heroes of g with d >= j."""

    groups: tuple[tuple[int, ...], ...]
    counts: tuple[tuple[Any, ...], ...]
    destroyed: dict[int, Any]


def merges_from_counts(n_heroes: int, handles: CompactHandles, value: Value) -> list[int]:
    d = [0] * n_heroes
    for ids, counts in zip(handles.groups, handles.counts):
        levels = [round(value(v)) for v in counts]
        for r, i in enumerate(ids):
            d[i] = sum(1 for n_j in levels if r < n_j)
    return d


def decode_compact(instance: Instance, params: dict[str, Any], handles: Any, value: Value) -> Solution:
    """The compact models' decoder; on SIMPLE maps they hand over to the vertex-cover kernel (decode_kernel)."""
    if isinstance(handles, KernelHandles):
        return decode_kernel(instance, params, handles, value)
    return sequence_from_merges(instance, merges_from_counts(len(instance.heroes), handles, value))


@dataclass(frozen=True)
class CoverHandles:
    chosen: dict[int, Any]
    """hero id -> 0/1 variable: the hero merges once (absorbs a hero that is not chosen)."""


def decode_cover(instance: Instance, params: dict[str, Any], handles: CoverHandles, value: Value) -> Solution:
    d = [0] * len(instance.heroes)
    for i, var in handles.chosen.items():
        d[i] = 1 if value(var) > 0.5 else 0
    return sequence_from_merges(instance, d)


@dataclass(frozen=True)
class KernelHandles:
    kernel: Kernel
    chosen: dict[int, Any]
    """kernel vertex -> 0/1 variable: in the cover."""


def decode_kernel(instance: Instance, params: dict[str, Any], handles: KernelHandles, value: Value) -> Solution:
    """Unfolds the kernel's cover into heroes that each merge once."""
    cover = handles.kernel.unfold(v for v, var in handles.chosen.items() if value(var) > 0.5)
    d = [0] * len(instance.heroes)
    for i in cover:
        d[i] = 1
    return sequence_from_merges(instance, d)
