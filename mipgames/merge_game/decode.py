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
        alive = ids  # the heroes with grow >= j, in id order: each stage scans only them (not every hero, 16
        for j in range(top):  # times over on a 200,000-hero map: 1.5 s of its 2 s to decode)
            takers = [i for i in alive if grow[i] > j]
            waiting = [i for i in alive if grow[i] == j]
            alive = takers
            if len(takers) * len(waiting) > NEAREST_UP_TO:
                pairs = pair_along_curve(instance, takers, waiting)
            else:
                donors = Donors(instance, waiting)
                pairs = [(donors.take_near(instance.heroes[t].x, instance.heroes[t].y), t) for t in takers]
            for donor, t in pairs:
                if donor is None:
                    grow[t] = j
                else:
                    merges.append((donor, t))
    return tuple(merges)


NEAREST_UP_TO = 100_000_000
"""Above this many (taker, donor) pairs in one stage, donors are paired along a curve, not nearest first.

Why: nearest first takes every donor's distance for each taker, and a 2,000 x 2,000 map (800,000 heroes)
took 141 s to decode.  Any donor of the stage is a legal partner, so only the pictures lose: pairs are
neighbours along a Z-order curve, mostly near on the map.  Nearest first costs about 2 ns a pair, so a stage
at this size takes 0.2 s; maps up to 500 x 500 (3 types, 50,000 heroes) are paired nearest first throughout,
and a 1,000 x 1,000 map decodes in 2.1 s instead of 3.3 s with 4e8 (its start, where the runner waits on it)."""


def _z_order(xs: Any, ys: Any) -> Any:
    """Z-order (Morton) keys of integer coordinates below 2^20 (map sides are at most 100,000)."""
    import numpy as np

    key = np.zeros(len(xs), dtype=np.int64)
    x = np.asarray(xs, dtype=np.int64)
    y = np.asarray(ys, dtype=np.int64)
    for bit in range(20):
        key |= ((x >> bit) & 1) << (2 * bit)
        key |= ((y >> bit) & 1) << (2 * bit + 1)
    return key


def pair_along_curve(instance: Instance, takers: list[int], donors: list[int]) -> list[tuple[int | None, int]]:
    """(donor, taker) for every taker, donor None when none is left: takers and donors in Z-order, each
    paired with the nearest unpaired one of the other kind before it on the curve (a stack per kind), and the
    takers left over with the donors left over."""
    import numpy as np

    everyone = takers + donors
    heroes = instance.heroes
    keys = _z_order([heroes[i].x for i in everyone], [heroes[i].y for i in everyone])
    order = np.lexsort((np.asarray(everyone, dtype=np.int64), keys))
    n_takers = len(takers)
    open_takers: list[int] = []
    open_donors: list[int] = []
    pairs: list[tuple[int | None, int]] = []
    for k in order.tolist():
        if k < n_takers:
            if open_donors:
                pairs.append((open_donors.pop(), everyone[k]))
            else:
                open_takers.append(everyone[k])
        elif open_takers:
            pairs.append((everyone[k], open_takers.pop()))
        else:
            open_donors.append(everyone[k])
    for t in open_takers:
        pairs.append((open_donors.pop() if open_donors else None, t))
    return pairs


class Donors:
    """Heroes waiting to be absorbed; ``take_near`` hands out the nearest one (Manhattan, then lowest id).

    Distances to every donor left are taken at once in numpy, in place in two buffers; a donor taken is moved
    far off the map instead of masked, and the arrays are compacted as donors go.  (Buckets of map squares
    scanned more and more empty squares as donors ran out: 27 s on a 300x300 map with 27,000 takers.  Buckets
    scanned ring by ring cannot help where the structure makes it slow: Theorem 3's first structure raises one
    half of a type's heroes in id order, so the donors lie in the other half of the map, far from most takers.)"""

    GONE = 1 << 29
    """Where a taken donor is moved: further than any donor on the map (sides up to 100,000, so distances stay
    within int32), and the nearest is never one taken."""

    def __init__(self, instance: Instance, ids: list[int]):
        import numpy as np  # here, not at the top: the command line imports this module at start-up

        order = sorted(ids)
        self.ids = np.array(order, dtype=np.int64)
        self.xs = np.array([instance.heroes[i].x for i in order], dtype=np.int32)
        self.ys = np.array([instance.heroes[i].y for i in order], dtype=np.int32)
        self.dist = np.empty(len(order), dtype=np.int32)
        self.dy = np.empty(len(order), dtype=np.int32)
        self.left = len(order)

    def take_near(self, x: int, y: int) -> int | None:
        """Removes and returns the donor nearest (x, y); None when no donor is left."""
        if not self.left:
            return None
        import numpy as np

        if 2 * self.left < len(self.ids):  # compact: the distances are then taken over the donors left only
            keep = self.xs < self.GONE
            self.ids, self.xs, self.ys = self.ids[keep], self.xs[keep], self.ys[keep]
            self.dist, self.dy = self.dist[: self.left], self.dy[: self.left]
        dist, dy = self.dist, self.dy
        np.subtract(self.xs, x, out=dist)
        np.abs(dist, out=dist)
        np.subtract(self.ys, y, out=dy)
        np.abs(dy, out=dy)
        dist += dy
        k = int(np.argmin(dist))  # the first of the nearest: the lowest id, as the ids are sorted
        self.xs[k] = self.GONE
        self.left -= 1
        return int(self.ids[k])


@dataclass(frozen=True)
class CompactHandles:
    """Heroes of one type with the same hit set form a group; counts[g][j-1] = #heroes of g with d >= j."""

    groups: tuple[tuple[int, ...], ...]
    counts: tuple[tuple[Any, ...], ...]
    destroyed: dict[int, Any]


def merges_from_counts(n_heroes: int, handles: CompactHandles, value: Value) -> list[int]:
    d = [0] * n_heroes
    for ids, counts in zip(handles.groups, handles.counts):
        for v in counts:  # the first n_j heroes of the group survive at least j merges
            for i in ids[: max(0, round(value(v)))]:
                d[i] += 1
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
