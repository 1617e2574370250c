"""Seeded generators: random maps, and MERGE-GAME-SIMPLE instances with a known answer.

``simple_from_graph`` follows the thesis's reduction idea.  Under the cross
attack a stone whose only two hero neighbours are u and v is an edge {u, v}
of the "hero graph", and hitting every stone with the fewest heroes is a
vertex cover of it.  Take a (planar, bipartite) grid subgraph G, put its
vertices S cells apart and fill each edge's S - 1 cells with stone, hero,
stone, ..., stone: the edge becomes a path with (S - 2) / 2 inner heroes.
Subdividing an edge with an even number 2t of inner vertices raises the
vertex cover by exactly t, so S = 4t + 2 (2, 6, 10, ...) and
min heroes = tau(G) + t|E|.  tau(G) comes from
Koenig's theorem (G is bipartite).  Pendant gadgets (a hero under a stone
only it hits) then set floor(h/2) to that minimum ("yes") or one less ("no").
"""

from __future__ import annotations

import argparse
import random
from typing import Any

from mipgames.core.errors import UsageError
from mipgames.core.problem import Generator
from mipgames.merge_game.instance import Hero, Instance, Stone, in_reading_order, normalise_attack


def random_map(width: int, height: int, heroes: int, stones: int, types: int = 1, hp: tuple[int, int] = (1, 1),
               seed: int = 0, attack: str | None = None, max_level: int | None = None, name: str = "") -> Instance:
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
    inst = Instance(width, height, hero_list, stone_list, attack, None, False, max_level, None,
                    name or f"random-{width}x{height}-h{heroes}-s{stones}-t{types}-seed{seed}", meta)
    return in_reading_order(inst)


def _vertex_cover_bipartite(n_left: list[Any], edges: list[tuple[Any, Any]]) -> int:
    """Size of a minimum vertex cover = maximum matching (Koenig), by augmenting paths."""
    adj: dict[Any, list[Any]] = {u: [] for u in n_left}
    for u, v in edges:
        adj[u].append(v)
    match: dict[Any, Any] = {}

    def augment(u: Any, seen: set[Any]) -> bool:
        for v in adj[u]:
            if v not in seen:
                seen.add(v)
                if v not in match or augment(match[v], seen):
                    match[v] = u
                    return True
        return False

    return sum(1 for u in n_left if augment(u, set()))


def simple_from_graph(rows: int, cols: int, edge_prob: float = 1.0, spacing: int = 6, answer: str = "yes",
                      seed: int = 0, name: str = "") -> Instance:
    """A MERGE-GAME-SIMPLE instance (cross attack, hp 1, one type, destroy all) with a known answer."""
    if rows < 1 or cols < 1 or rows * cols < 2:
        raise UsageError("the graph needs at least two vertices")
    if spacing < 2 or spacing % 4 != 2:
        raise UsageError(f"spacing must be 2, 6, 10, ... (an even number of heroes inside each edge), got {spacing}")
    if answer not in ("yes", "no"):
        raise UsageError("answer is yes or no")
    rng = random.Random(seed)
    edges = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0)):
                if r + dr < rows and c + dc < cols and rng.random() < edge_prob:
                    edges.append(((r, c), (r + dr, c + dc)))
    if not edges:
        raise UsageError("the random graph has no edge; raise --edge-prob")
    heroes: list[Hero] = []
    stones: list[Stone] = []
    for r in range(rows):
        for c in range(cols):
            heroes.append(Hero(1 + spacing * c, 1 + spacing * r, 1))
    for (r, c), (r2, c2) in edges:
        for off in range(1, spacing):
            x = 1 + spacing * c + off * (c2 - c)
            y = 1 + spacing * r + off * (r2 - r)
            if off % 2:
                stones.append(Stone(x, y, 1))
            else:
                heroes.append(Hero(x, y, 1))
    oriented = [(u, v) if (u[0] + u[1]) % 2 == 0 else (v, u) for u, v in edges]
    left = [(r, c) for r in range(rows) for c in range(cols) if (r + c) % 2 == 0]
    tau = _vertex_cover_bipartite(left, oriented)
    need = tau + (spacing - 2) // 4 * len(edges)
    # Pendant gadgets (a hero with a stone only it hits) each add one hero and one needed hero,
    # so they tune h - 2 * need to 0 ("yes", tight) or -1 ("no") without touching the graph part.
    gadgets = len(heroes) - 2 * need + (0 if answer == "yes" else 1)
    width = spacing * (cols - 1) + 1
    per_row = (width + 1) // 2
    top = 1 + spacing * (rows - 1)
    for g in range(gadgets):
        x, y = 1 + 2 * (g % per_row), top + 2 + 3 * (g // per_row)
        heroes.append(Hero(x, y, 1))
        stones.append(Stone(x, y + 1, 1))
        need += 1
    height = top + (3 * ((gadgets + per_row - 1) // per_row) if gadgets else 0)
    feasible = need <= len(heroes) // 2
    meta = {"generator": "simple-from-graph", "seed": seed, "graph": f"{rows}x{cols} grid subgraph",
            "edges": len(edges), "vertex_cover": tau, "min_heroes": need, "destroy_all_feasible": feasible}
    inst = Instance(width, height, tuple(heroes), tuple(stones), "cross", None, True, None,
                    len(stones) if feasible else None,
                    name or f"simple-{rows}x{cols}-p{edge_prob:g}-s{spacing}-{answer}-seed{seed}", meta)
    return in_reading_order(inst)


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--kind", choices=("random", "simple"), default="random",
                        help="random map, or a MERGE-GAME-SIMPLE instance from a grid graph with known answer")
    try:
        parser.add_argument("--seed", type=int, default=0, help="random seed")
    except argparse.ArgumentError:
        pass  # the shared CLI already offers --seed
    g = parser.add_argument_group("random maps")
    g.add_argument("--width", type=int, default=10)
    g.add_argument("--height", type=int, default=10)
    g.add_argument("--size", type=int, help="square map: sets width and height")
    g.add_argument("--heroes", type=int, help="number of heroes (default: hero density x cells)")
    g.add_argument("--stones", type=int, help="number of stones (default: stone density x cells)")
    g.add_argument("--hero-density", type=float, default=0.2)
    g.add_argument("--stone-density", type=float, default=0.2)
    g.add_argument("--types", type=int, default=1)
    g.add_argument("--hp-min", type=int, default=1)
    g.add_argument("--hp-max", type=int, default=1)
    g.add_argument("--map-attack", dest="map_attack", default=None,
                   help="attack vector written into the instance (cross|up|vertical|up3|right3|'dx,dy;...')")
    g.add_argument("--map-max-level", dest="map_max_level", type=int, default=None,
                   help="level cap written into the instance")
    s = parser.add_argument_group("SIMPLE instances from graphs")
    s.add_argument("--graph-rows", type=int, default=3)
    s.add_argument("--graph-cols", type=int, default=3)
    s.add_argument("--edge-prob", type=float, default=1.0, help="keep each grid edge with this probability")
    s.add_argument("--spacing", type=int, default=6, help="cells between graph vertices: 2, 6, 10, ...")
    s.add_argument("--answer", choices=("yes", "no"), default="yes", help="is destroying every stone possible")


def _generate(args: Any) -> Instance:
    seed = getattr(args, "seed", 0) or 0
    if args.kind == "simple":
        return simple_from_graph(args.graph_rows, args.graph_cols, args.edge_prob, args.spacing, args.answer, seed)
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
    return random_map(width, height, heroes, stones, args.types, (args.hp_min, args.hp_max), seed, attack,
                      args.map_max_level)


GENERATOR = Generator(_add_arguments, _generate)
