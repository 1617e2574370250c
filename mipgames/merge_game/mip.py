"""PuLP models: the compact merge-count model and the MERGE-GAME-SIMPLE set cover.

Compact model (exact by the spec's realisability fact).  Heroes of one type
with the same hit set are interchangeable, so they form a group g and the
model counts instead of naming: n[g, j] = #heroes of g that survive at least
j merges (j = 1..D).  Then, per type t,

    N_t,j = sum_g n[g, j],   N_t,0 = #heroes of t,   N_t,j >= 2 N_t,j+1

is the realisability condition (c_j = N_j - N_j+1 >= N_j+1), and stone s with
hit points hp is destroyed (y_s = 1) only if

    sum_{g hits s} sum_{j <= hp} n[g, j] >= hp * y_s.

Capping the inner sum at hp (sum_i min(d_i, hp) >= hp iff sum_i d_i >= hp)
is the usual coefficient tightening; it makes the LP bound much stronger.
Grouping removes the symmetry between equivalent heroes (fodder heroes
hitting nothing become one integer per type and level).

Depth per type: D_t = min(floor(log2 |t|), level cap - 1, the largest hp among
the stones t's heroes hit).  The last term is exact, not a heuristic: cutting
every hero of one type at a common level c keeps N_j >= 2 N_j+1 (levels above
c become empty) and, with c at least every hp the type hits, keeps every
capped stone sum.  It turns a ONE-HP map into one level (the set cover).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mipgames.core.memo import last_instance
from mipgames.core.problem import Built, SolveOptions
from mipgames.merge_game import simple
from mipgames.merge_game.codec import Solution
from mipgames.merge_game.decode import (
    CompactHandles,
    CoverHandles,
    KernelHandles,
    merges_from_counts,
    sequence_from_merges,
)
from mipgames.merge_game.instance import Instance, rules
from mipgames.merge_game.simple import cover_capacity
from mipgames.merge_game.simulate import hits, in_reach, max_merges, type_groups
from mipgames.merge_game.start import Start, greedy_start, start_hint


@dataclass(frozen=True)
class Structure:
    """What both compact models (PuLP and CP-SAT) are built from."""

    groups: tuple[tuple[int, ...], ...]
    group_type: tuple[int, ...]
    group_stones: tuple[tuple[int, ...], ...]
    depth: dict[int, int]
    """Per type: most merges a hero can survive (log2 of the type's size, level cap)."""
    reachable: tuple[bool, ...]
    """Per stone: its hitters can deliver hp hits at all (else it is fixed intact)."""
    target: int | None


def structure(instance: Instance, params: dict[str, Any]) -> Structure:
    rule = rules(instance, params)
    h = hits(instance, rule)
    by_type = type_groups(instance)
    depth = {
        t: min(
            max_merges(len(ids), rule.max_level),
            max((instance.stones[k].hp for i in ids for k in h.hero_stones[i]), default=0),
        )
        for t, ids in by_type.items()
    }
    keyed: dict[tuple[int, tuple[int, ...]], list[int]] = {}
    for i, hero in enumerate(instance.heroes):
        keyed.setdefault((hero.type, h.hero_stones[i]), []).append(i)
    keys = sorted(keyed)
    reachable = in_reach(instance, rule, h, depth)
    return Structure(
        groups=tuple(tuple(keyed[k]) for k in keys),
        group_type=tuple(k[0] for k in keys),
        group_stones=tuple(k[1] for k in keys),
        depth=depth,
        reachable=reachable,
        target=rule.target,
    )


@last_instance
def prepared(instance: Instance, params: dict[str, Any]) -> tuple[Structure, Start]:
    """The structure and greedy start of a map, kept for the last map asked for: the runner takes the start
    before the build (``start_solution``) and the builder needs both again (3.7 s together at 200,000
    heroes)."""
    st = structure(instance, params)
    return st, greedy_start(instance, st)


def start_solution(instance: Instance, params: dict[str, Any]) -> Solution | None:
    """The game of the compact models' start (``Formulation.start``); None on a map the vertex-cover kernel
    models, which builds no start."""
    if simple.reason(instance, params) is None:
        return None
    st, start = prepared(instance, params)
    merges = merges_from_counts(len(instance.heroes), CompactHandles(st.groups, start.counts, {}), lambda v: v)
    return sequence_from_merges(instance, merges)


def pigeonhole_level(hp: int, hitters: int) -> int:
    """A stone with hp hit by m heroes falls only if some hitter survives >= ceil(hp/m) merges.

    The cut y_s <= #hitters with d >= ceil(hp/m) is the Chvatal-Gomory rounding of
    the stone row; it is not implied by the LP and closes much of its gap.
    """
    return -(-hp // max(hitters, 1))


def build_compact(instance: Instance, params: dict[str, Any], options: SolveOptions) -> Built:
    """The compact model; on a SIMPLE map with at most two attackers per stone, the reduced vertex cover."""
    import pulp

    if simple.reason(instance, params) is None:
        return build_kernel(instance, params, options)
    st, start = prepared(instance, params)
    model = pulp.LpProblem("merge_game_compact", pulp.LpMaximize)
    counts = []
    for g, ids in enumerate(st.groups):
        depth = st.depth[st.group_type[g]]
        cat = pulp.LpBinary if len(ids) == 1 else pulp.LpInteger
        counts.append(tuple(pulp.LpVariable(f"n_{g}_{j}", 0, len(ids), cat) for j in range(1, depth + 1)))
    for g in range(len(st.groups)):
        for j in range(1, len(counts[g])):
            model += counts[g][j] <= counts[g][j - 1], f"mono_{g}_{j}"
    for t, depth in st.depth.items():
        mine = [g for g in range(len(st.groups)) if st.group_type[g] == t]
        size = sum(len(st.groups[g]) for g in mine)
        for j in range(depth):
            lower = size if j == 0 else pulp.lpSum(counts[g][j - 1] for g in mine)
            model += lower >= 2 * pulp.lpSum(counts[g][j] for g in mine), f"real_{t}_{j}"
    destroyed = {
        k: pulp.LpVariable(f"y_{k}", 0, 1 if st.reachable[k] else 0, pulp.LpInteger)
        for k in range(len(instance.stones))
    }
    hitters: dict[int, list[int]] = {k: [] for k in destroyed}
    for g, stones in enumerate(st.group_stones):
        for k in stones:
            hitters[k].append(g)
    for k, s in enumerate(instance.stones):
        if st.reachable[k]:
            hit = pulp.lpSum(v for g in hitters[k] for v in counts[g][: s.hp])
            model += hit >= s.hp * destroyed[k], f"stone_{k}"
            j = pigeonhole_level(s.hp, sum(len(st.groups[g]) for g in hitters[k]))
            if j > 1:
                model += (
                    pulp.lpSum(counts[g][j - 1] for g in hitters[k] if len(counts[g]) >= j) >= destroyed[k],
                    f"pig_{k}",
                )
    total = pulp.lpSum(destroyed.values())
    if st.target is not None:
        model += total >= st.target, "target"
    if not model.constraints:  # GLPK reads no LP file whose Subject To is empty (no stone within reach)
        model += pulp.LpVariable("never", 0, 0, pulp.LpInteger) <= 0, "no_rows"
    model += total
    handles = CompactHandles(st.groups, tuple(counts), destroyed)
    stats = {"groups": len(st.groups), "stones_reachable": sum(st.reachable), "start": start.value}
    return Built(model, handles, hint=start_hint(start, counts, destroyed), stats=stats)


def build_cover(instance: Instance, params: dict[str, Any], options: SolveOptions) -> Built:
    """MERGE-GAME-SIMPLE as set cover: fewest heroes whose attack cells cover every stone, at most floor(h/2)."""
    import pulp

    h = hits(instance, rules(instance, params))
    model = pulp.LpProblem("merge_game_cover", pulp.LpMinimize)
    chosen = {i: pulp.LpVariable(f"z_{i}", cat=pulp.LpBinary) for i in range(len(instance.heroes)) if h.hero_stones[i]}
    # keeps every row non-empty (an uncoverable stone reads never >= 1); integer, so the model translates to CP-SAT
    never = pulp.LpVariable("never", 0, 0, pulp.LpInteger)
    for k in range(len(instance.stones)):
        model += pulp.lpSum([never] + [chosen[i] for i in h.stone_heroes[k]]) >= 1, f"cover_{k}"
    used = pulp.lpSum([never] + list(chosen.values()))
    model += used <= cover_capacity(instance, params), "half"
    model += used
    n = len(instance.stones)
    return Built(model, CoverHandles(chosen), objective=lambda _v: float(n), stats={"heroes": len(chosen)})


def build_kernel(instance: Instance, params: dict[str, Any], options: SolveOptions) -> Built:
    """Is there a cover of the reduced hero graph (simple.py) within the budget?  A feasibility model."""
    import pulp

    kernel = simple.reduce(instance, params)
    model = pulp.LpProblem("merge_game_vertex_cover", pulp.LpMinimize)
    chosen = {v: pulp.LpVariable(f"x_{v}", cat=pulp.LpBinary) for v in kernel.vertices}
    never = pulp.LpVariable("never", 0, 0, pulp.LpInteger)
    for a, b in kernel.edges:
        model += chosen[a] + chosen[b] >= 1, f"edge_{a}_{b}"
    if kernel.uncoverable:
        model += never >= 1, "stone_without_attacker"
    model += pulp.lpSum([never] + list(chosen.values())) <= kernel.budget, "budget"
    model += 0 * never
    return Built(model, KernelHandles(kernel, chosen), has_objective=False, stats=kernel.stats)
