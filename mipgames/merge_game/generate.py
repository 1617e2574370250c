"""Seeded generators: random maps, and the thesis's reduction from planar vertex cover (hard SIMPLE maps).

``reduction_map`` draws a random planar graph of maximum degree 3 with odd
cycles (graphs.py) and turns it into a MERGE-GAME-SIMPLE map whose answer is
"has the graph a vertex cover of size at most k" (reduction.py).
"""

from __future__ import annotations

import argparse
import random
from dataclasses import replace
from typing import Any

from mipgames.core.arguments import int_in, number_in
from mipgames.core.errors import UsageError
from mipgames.core.problem import MAX_SEED, Generator
from mipgames.merge_game import reduction
from mipgames.merge_game.graphs import random_drawing, vertex_cover
from mipgames.merge_game.instance import (
    Hero,
    Instance,
    Stone,
    in_reading_order,
    normalise_attack,
    output_paths,
)


def random_map(
    width: int,
    height: int,
    heroes: int,
    stones: int,
    types: int = 1,
    hp: tuple[int, int] = (1, 1),
    seed: int = 0,
    attack: str | None = None,
    max_level: int | None = None,
    name: str = "",
) -> Instance:
    """Heroes and stones on distinct random cells; types uniform in 1..types, hp uniform in hp."""
    if width < 1 or height < 1:
        raise UsageError("the map must be at least 1x1")
    if heroes < 0 or stones < 0 or heroes + stones > width * height:
        raise UsageError(f"{heroes} heroes and {stones} stones do not fit on a {width}x{height} map")
    if types < 1 or not 1 <= hp[0] <= hp[1]:
        raise UsageError("need types >= 1 and 1 <= hp-min <= hp-max")
    rng = random.Random(seed)
    cells = rng.sample([(x, y) for x in range(1, width + 1) for y in range(1, height + 1)], heroes + stones)
    hero_list = tuple(Hero(x, y, rng.randint(1, types)) for x, y in cells[:heroes])
    stone_list = tuple(Stone(x, y, rng.randint(*hp)) for x, y in cells[heroes:])
    meta = {"generator": "random", "seed": seed}
    inst = Instance(
        width,
        height,
        hero_list,
        stone_list,
        attack,
        None,
        False,
        max_level,
        None,
        name or f"random-{width}x{height}-h{heroes}-s{stones}-t{types}-seed{seed}",
        meta,
    )
    return in_reading_order(inst)


def reduction_map(
    vertices: int,
    seed: int = 0,
    answer: str = "yes",
    k: int | None = None,
    edge_factor: float = 1.4,
    cover_time: float | None = 60.0,
    name: str = "",
) -> Instance:
    """The thesis's reduction of a random planar graph (maximum degree 3, odd cycles) with budget k.

    Without ``k`` the budget is the graph's vertex cover number tau (CP-SAT),
    so the map is a tight "yes" (every stone can be destroyed) or, with
    ``answer="no"``, k = tau - 1 and a "no".  The graph is kept in
    ``meta["graph"]`` and written beside the map.
    """
    if answer not in ("yes", "no"):
        raise UsageError("answer is yes or no")
    drawing = random_drawing(vertices, seed, edge_factor)
    meta: dict[str, Any] = {"seed": seed, "edge_factor": edge_factor}
    if k is None:
        tau, proved = vertex_cover(drawing.n, drawing.edges, cover_time)
        if not proved:
            raise UsageError(f"the vertex cover of the graph was not proved optimal in {cover_time:g} s; pass --k")
        meta["vertex_cover"] = tau
        k = tau if answer == "yes" else tau - 1
        label = answer
    else:
        label = f"k{k}"
    inst = reduction.build(drawing, k, name or f"reduction-n{vertices}-{label}-seed{seed}", meta)
    if "vertex_cover" in meta:
        feasible = meta["vertex_cover"] <= k
        inst = replace(
            inst, optimum=len(inst.stones) if feasible else None, meta=dict(inst.meta, destroy_all_feasible=feasible)
        )
    return inst


MAX_GENERATED_SIDE = 2000
"""Random maps are written cell by cell: 2000 x 2000 is 4 million cells, already a large file."""
MAX_GENERATED_VERTICES = 5000
"""Reduction maps grow with the graph's drawing (8x refined grid); 1,000 vertices is the issue's scale."""


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--kind",
        choices=("random", "reduction"),
        default="random",
        help="random map, or the thesis's reduction of a random planar graph (MERGE-GAME-SIMPLE)",
    )
    try:
        parser.add_argument("--seed", type=int_in(0, MAX_SEED), default=0, help="random seed")
    except argparse.ArgumentError:
        pass  # the shared CLI already offers --seed
    g = parser.add_argument_group("random maps")
    g.add_argument("--width", type=int_in(1, MAX_GENERATED_SIDE), default=10)
    g.add_argument("--height", type=int_in(1, MAX_GENERATED_SIDE), default=10)
    g.add_argument("--size", type=int_in(1, MAX_GENERATED_SIDE), help="square map: sets width and height")
    g.add_argument(
        "--heroes", type=int_in(0, MAX_GENERATED_SIDE**2), help="number of heroes (default: hero density x cells)"
    )
    g.add_argument(
        "--stones", type=int_in(0, MAX_GENERATED_SIDE**2), help="number of stones (default: stone density x cells)"
    )
    g.add_argument("--hero-density", type=number_in(0, 1), default=0.2)
    g.add_argument("--stone-density", type=number_in(0, 1), default=0.2)
    g.add_argument("--types", type=int_in(1, 1000), default=1)
    g.add_argument("--hp-min", type=int_in(1, 10**6), default=1)
    g.add_argument("--hp-max", type=int_in(1, 10**6), default=1)
    g.add_argument(
        "--map-attack",
        dest="map_attack",
        default=None,
        help="attack vector written into the instance (cross|up|vertical|up3|right3|'dx,dy;...')",
    )
    g.add_argument(
        "--map-max-level",
        dest="map_max_level",
        type=int_in(1, 64),
        default=None,
        help="level cap written into the instance",
    )
    s = parser.add_argument_group("reduction from planar vertex cover (the graph is written beside the map)")
    s.add_argument(
        "--vertices",
        type=int_in(1, MAX_GENERATED_VERTICES),
        default=30,
        help="vertices of the random planar graph (degree <= 3)",
    )
    s.add_argument("--edge-factor", type=number_in(0, 1.5), default=1.4, help="edges per vertex wanted (at most 1.5)")
    s.add_argument(
        "--answer",
        choices=("yes", "no"),
        default="yes",
        help="budget k = vertex cover (yes: every stone can be destroyed) or one less (no)",
    )
    s.add_argument(
        "--k",
        type=int_in(0, MAX_GENERATED_VERTICES),
        default=None,
        help="vertex-cover budget k instead (no cover computed)",
    )


def _generate(args: Any) -> Instance:
    output = getattr(args, "output", None)
    if output:  # the map and a reduction's graph, refused before the work rather than after it (instance.write)
        output_paths(output, graph=args.kind == "reduction", probe=True)
    seed = getattr(args, "seed", 0) or 0
    if args.kind == "reduction":
        return reduction_map(args.vertices, seed, args.answer, args.k, args.edge_factor)
    width = height = args.size if args.size else None
    width = width or args.width
    height = height or args.height
    cells = width * height
    heroes = args.heroes if args.heroes is not None else round(args.hero_density * cells)
    stones = args.stones if args.stones is not None else round(args.stone_density * cells)
    attack = None
    if args.map_attack:
        try:
            attack = normalise_attack(args.map_attack)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    return random_map(
        width, height, heroes, stones, args.types, (args.hp_min, args.hp_max), seed, attack, args.map_max_level
    )


GENERATOR = Generator(_add_arguments, _generate)
