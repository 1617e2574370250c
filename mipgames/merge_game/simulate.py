"""The exact simulator: replays a merge sequence merge by merge, as the rules say.

A solution is the merge sequence ``((a, b), ...)``: hero ``a`` merges INTO
hero ``b`` (``a`` leaves the map, ``b`` gains a level and attacks).  Nothing
here relies on the realisability fact the models use; the models are checked
against this replay, not the other way round.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mipgames.core.problem import Verdict
from mipgames.merge_game.codec import Merge, Solution
from mipgames.merge_game.instance import Instance, Rules, rules


@dataclass(frozen=True)
class Hits:
    """Which stones each hero's attack cells contain, and the converse."""

    hero_stones: tuple[tuple[int, ...], ...]
    stone_heroes: tuple[tuple[int, ...], ...]


def hits(instance: Instance, rule: Rules) -> Hits:
    """Each hero's attack cells under its type's attack vector."""
    at = {(s.x, s.y): k for k, s in enumerate(instance.stones)}
    hero_stones = []
    stone_heroes: list[list[int]] = [[] for _ in instance.stones]
    for i, h in enumerate(instance.heroes):
        mine = []
        for dx, dy in rule.of(h.type):
            k = at.get((h.x + dx, h.y + dy))
            if k is not None and k not in mine:
                mine.append(k)
                stone_heroes[k].append(i)
        hero_stones.append(tuple(sorted(mine)))
    return Hits(tuple(hero_stones), tuple(tuple(v) for v in stone_heroes))


def type_groups(instance: Instance) -> dict[int, list[int]]:
    groups: dict[int, list[int]] = {}
    for i, h in enumerate(instance.heroes):
        groups.setdefault(h.type, []).append(i)
    return groups


def max_merges(n_of_type: int, max_level: int | None) -> int:
    """Most merges one hero can survive: a level-L hero consumes 2^(L-1) heroes of its type."""
    d = max(n_of_type.bit_length() - 1, 0)
    return d if max_level is None else min(d, max_level - 1)


def in_reach(instance: Instance, rule: Rules, h: Hits, depth: Mapping[int, int] | None = None) -> tuple[bool, ...]:
    """Per stone: its attackers can deliver its hp at all, each hero one hit a merge it survives and at most
    ``depth[type]`` of them (default: ``max_merges``).  A stone out of reach is never destroyed."""
    if depth is None:
        sizes = {t: len(ids) for t, ids in type_groups(instance).items()}
        depth = {t: max_merges(n, rule.max_level) for t, n in sizes.items()}
    heroes = instance.heroes
    return tuple(sum(depth[heroes[i].type] for i in h.stone_heroes[k]) >= s.hp for k, s in enumerate(instance.stones))


@dataclass(frozen=True)
class Replay:
    levels: tuple[int, ...]
    """Each hero's final level (its level when absorbed, for absorbed heroes)."""
    alive: tuple[bool, ...]
    hp_left: tuple[int, ...]
    destroyed: tuple[int, ...]
    destroyed_at: tuple[int | None, ...]
    """Merge number (1-based) that destroyed each stone, None if it survives."""


class IllegalMerge(Exception):
    def __init__(self, number: int, reason: str):
        self.number = number
        self.reason = reason
        super().__init__(f"merge {number}: {reason}")


def replay(instance: Instance, rule: Rules, merges: Sequence[Merge]) -> Replay:
    """Applies the merges in order; raises IllegalMerge naming the first bad one."""
    n = len(instance.heroes)
    level = [1] * n
    alive = [True] * n
    absorbed_by: dict[int, tuple[int, int]] = {}
    hp = [s.hp for s in instance.stones]
    destroyed_at: list[int | None] = [None] * len(instance.stones)
    at = {(s.x, s.y): k for k, s in enumerate(instance.stones)}
    for number, merge in enumerate(merges, start=1):
        a, b = merge
        for who in (a, b):
            if not 0 <= who < n:
                raise IllegalMerge(number, f"hero {who} does not exist (heroes are 0..{n - 1})")
        if a == b:
            raise IllegalMerge(number, f"hero {a} cannot merge with itself")
        for who in (a, b):
            if not alive[who]:
                by, when = absorbed_by[who]
                raise IllegalMerge(number, f"hero {who} is gone (merged into hero {by} at merge {when})")
        ha, hb = instance.heroes[a], instance.heroes[b]
        if ha.type != hb.type:
            raise IllegalMerge(number, f"heroes {a} and {b} have different types ({ha.type} vs {hb.type})")
        if level[a] != level[b]:
            raise IllegalMerge(number, f"heroes {a} and {b} have different levels ({level[a]} vs {level[b]})")
        if rule.max_level is not None and level[b] + 1 > rule.max_level:
            raise IllegalMerge(
                number, f"hero {b} would reach level {level[b] + 1}, above the level cap {rule.max_level}"
            )
        alive[a] = False
        absorbed_by[a] = (b, number)
        level[b] += 1
        for dx, dy in rule.of(hb.type):
            k = at.get((hb.x + dx, hb.y + dy))
            if k is not None and hp[k] > 0:
                hp[k] -= 1
                if hp[k] == 0:
                    destroyed_at[k] = number
    destroyed = tuple(k for k, when in enumerate(destroyed_at) if when is not None)
    return Replay(tuple(level), tuple(alive), tuple(hp), destroyed, tuple(destroyed_at))


def evaluate(instance: Instance, params: Mapping[str, Any], solution: Solution) -> Verdict:
    rule = rules(instance, params)
    try:
        result = replay(instance, rule, solution)
    except IllegalMerge as exc:
        return Verdict(False, None, str(exc), {"merge": exc.number})
    count = len(result.destroyed)
    measured = {
        "merges": len(solution),
        "destroyed": list(result.destroyed),
        "final_levels": list(result.levels),
        "stones": len(instance.stones),
    }
    if rule.target is not None and count < rule.target:
        return Verdict(False, None, f"destroys {count} stones, short of the target {rule.target}", measured)
    return Verdict(True, count, "", measured)
