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


ASCII_TYPES, ASCII_HP = 26, 9
"""What a map file's letters and digits hold (a .json map holds any)."""
DEFAULTS: dict[str, Any] = {
    "width": 10, "height": 10, "hero_density": 0.2, "stone_density": 0.2, "types": 1, "hp_min": 1, "hp_max": 1,
    "vertices": 30, "edge_factor": 1.4, "answer": "yes",
}  # fmt: skip
"""The options' defaults, filled in after the options are checked: the parser gives None, so that an option of the
other kind, or one beside its contradiction, can be told from a default."""


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
    g.add_argument("--width", type=int_in(1, MAX_GENERATED_SIDE), help=f"default {DEFAULTS['width']}")
    g.add_argument("--height", type=int_in(1, MAX_GENERATED_SIDE), help=f"default {DEFAULTS['height']}")
    g.add_argument("--size", type=int_in(1, MAX_GENERATED_SIDE), help="square map: sets width and height")
    g.add_argument(
        "--heroes", type=int_in(0, MAX_GENERATED_SIDE**2), help="number of heroes (default: hero density x cells)"
    )
    g.add_argument(
        "--stones", type=int_in(0, MAX_GENERATED_SIDE**2), help="number of stones (default: stone density x cells)"
    )
    g.add_argument("--hero-density", type=number_in(0, 1), help=f"default {DEFAULTS['hero_density']}")
    g.add_argument("--stone-density", type=number_in(0, 1), help=f"default {DEFAULTS['stone_density']}")
    g.add_argument(
        "--types",
        type=int_in(1, 1000),
        help=f"default {DEFAULTS['types']} (a map file holds {ASCII_TYPES}; a .json any)",
    )
    g.add_argument("--hp-min", type=int_in(1, 10**6), help=f"default {DEFAULTS['hp_min']}")
    g.add_argument(
        "--hp-max",
        type=int_in(1, 10**6),
        help=f"default {DEFAULTS['hp_max']} (a map file holds {ASCII_HP}; a .json any)",
    )
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
        type=int_in(3, MAX_GENERATED_VERTICES),
        help=f"vertices of the random planar graph (degree <= 3; default {DEFAULTS['vertices']})",
    )
    s.add_argument(
        "--edge-factor",
        type=number_in(0.5, 1.5),
        help=f"edges per vertex wanted (0.5 to 1.5; default {DEFAULTS['edge_factor']})",
    )
    s.add_argument(
        "--answer",
        choices=("yes", "no"),
        help=f"budget k = vertex cover (yes: every stone can be destroyed) or one less (no; default "
        f"{DEFAULTS['answer']})",
    )
    s.add_argument(
        "--k",
        type=int_in(0, MAX_GENERATED_VERTICES),
        default=None,
        help="vertex-cover budget k instead (no cover computed)",
    )


RANDOM_OPTIONS = (
    "width", "height", "size", "heroes", "stones", "hero_density", "stone_density", "types", "hp_min", "hp_max",
    "map_attack", "map_max_level",
)  # fmt: skip
REDUCTION_OPTIONS = ("vertices", "edge_factor", "answer", "k")


def _option(name: str) -> str:
    return "--" + name.replace("_", "-")


def _check_options(args: Any) -> None:
    """Options of the other kind, or that contradict each other, are refused: they were silently dropped."""
    given = {name for name in (*RANDOM_OPTIONS, *REDUCTION_OPTIONS) if getattr(args, name, None) is not None}
    other = REDUCTION_OPTIONS if args.kind == "random" else RANDOM_OPTIONS
    stray = [name for name in other if name in given]
    if stray:
        raise UsageError(f"{_option(stray[0])} does not apply to --kind {args.kind} maps")
    if "size" in given and given & {"width", "height"}:
        raise UsageError("--size sets both --width and --height: give one or the other")
    if "answer" in given and "k" in given:
        raise UsageError("--answer sets the budget k from the vertex cover; --k sets it directly: give one")
    for count, density in (("heroes", "hero_density"), ("stones", "stone_density")):
        if count in given and density in given:
            raise UsageError(f"{_option(count)} and {_option(density)} both set how many: give one")
    output = getattr(args, "output", None)
    in_file = not getattr(args, "in_memory", False)  # the Python API returns the map: any types and hp
    if in_file and args.kind == "random" and not str(output or "").lower().endswith(".json"):
        if (args.types or DEFAULTS["types"]) > ASCII_TYPES or (args.hp_max or DEFAULTS["hp_max"]) > ASCII_HP:
            where = "standard output takes" if output is None else f"{output} is"
            raise UsageError(
                f"{where} an ASCII map, which holds types 1-{ASCII_TYPES} and hp 1-{ASCII_HP} only: "
                "write -o FILE.json instead"
            )


def _generate(args: Any) -> Instance:
    _check_options(args)
    output = getattr(args, "output", None)
    if output:  # the map and a reduction's graph, refused before the work rather than after it (instance.write)
        output_paths(output, graph=args.kind == "reduction", probe=True)
    for name, value in DEFAULTS.items():  # after the check, which has to see what was given
        if getattr(args, name, None) is None:
            setattr(args, name, value)
    seed = getattr(args, "seed", 0) or 0
    if args.kind == "reduction":
        return reduction_map(args.vertices, seed, args.answer, args.k, args.edge_factor)
    width = args.size or args.width
    height = args.size or args.height
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
