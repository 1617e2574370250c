"""What every model needs: the captures that can ever happen, exponent ranges, bounds.

A capture i→j (the queen on starting square i takes the one on j) is possible
only if both can hold a common exponent e: e ≥ both starting exponents, the
mover cannot exceed its start + the number of squares that could capture into
it, the target must be able to hold e+1, and no square strictly between can be
one that never leaves.  Pruning runs to a fixpoint; the resulting capture graph
gives a component popcount bound at least as strong as the geometric one.
"""

from __future__ import annotations

from dataclasses import dataclass

from mipgames.queens.geometry import (
    Geometry,
    components,
    geometry,
    initial_state,
    lower_bound,
    popcount,
    table_or_refusal,
)
from mipgames.queens.instance import Queens


@dataclass(frozen=True)
class Prep:
    geo: Geometry
    pairs: dict[tuple[int, int], tuple[int, ...]]
    """Possible captures (mover, target) → exponents e at which it can happen."""
    hi: tuple[int, ...]
    """Largest exponent each square can ever hold."""
    bound: int
    """Fewest queens that can remain (component popcount + line-of-sight bound)."""
    minimise: bool
    k: int

    @property
    def size(self) -> int:
        return self.geo.size

    @property
    def steps(self) -> int:
        """Horizon: exactly Q − K moves for the decision; at most Q − bound when minimising."""
        return max(0, self.size - (self.bound if self.minimise else self.k))

    def between(self, i: int, j: int) -> tuple[int, ...]:
        return self.geo.between[i, j]


def captures_possible(geo: Geometry, state: bytes | bytearray) -> tuple[dict, list[int], int]:
    """Fixpoint of capture pruning on a position (exponent + 1 per square, 0 = empty).

    Returns the possible captures (mover, target) → exponents, the largest
    exponent each square can reach, and the resulting lower bound on the queens
    that remain.  Exponent caps come from the components of the capture graph
    (a queen cannot outgrow its component's total), so both shrink together.
    """
    q = len(state)
    exps = [e - 1 for e in state]
    occupied = [i for i in range(q) if state[i]]
    candidates = {(i, j) for i in occupied for j in geo.neighbours[i] if state[j]}
    while True:
        comp = components(q, candidates)
        totals: dict[int, int] = {}
        for i in occupied:
            totals[comp[i]] = totals.get(comp[i], 0) + (1 << exps[i])
        children: list[set[int]] = [set() for _ in range(q)]
        movers = [False] * q
        for i, j in candidates:
            children[j].add(i)
            movers[i] = True
        hi = [min(exps[i] + len(children[i]), totals[comp[i]].bit_length() - 1) if state[i] else -1 for i in range(q)]
        pairs = {}
        for i, j in candidates:
            if not all(movers[k] or not state[k] for k in geo.between[i, j]):
                continue
            top = min(exps[i] + len(children[i] - {j}), hi[j] - 1)
            if max(exps[i], exps[j]) <= top:
                pairs[i, j] = tuple(range(max(exps[i], exps[j]), top + 1))
        if len(pairs) == len(candidates):
            break
        candidates = set(pairs)
    reach: dict[int, int] = {}
    for i in occupied:
        reach[comp[i]] = max(reach.get(comp[i], 0), hi[i])
    bound = sum(max(popcount(t), -(-t >> reach[c])) for c, t in totals.items())
    return pairs, hi, bound


def prepare(instance: Queens, params: dict) -> Prep:
    table_or_refusal(instance, "the models")
    geo = geometry(instance)
    pairs, hi, bound = geo.start_captures
    bound = max(bound, lower_bound(geo, initial_state(geo)))
    return Prep(geo, pairs, tuple(hi), bound, bool(params.get("minimise")), instance.k)
