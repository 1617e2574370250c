"""Time-indexed MIP for SameGame (PuLP), both objectives.

Notation: n tiles (n = R*C on a full board), k colours, n_c tiles of colour c,
R rows, C columns, T = sum_c floor(n_c / 2) steps (every move removes >= 2
tiles of one colour, so no game is longer).  P_v = same-coloured pairs in one
column (<= C*R*(R-1)/2), P_h = same-coloured pairs in different columns
(~ n*(n-R)/(2k)); a horizontal pair can share a row r <= min of the two
original heights, on average ~R/3 rows.  State s = 0..T is "after s moves".

Variables (binary unless said)
  alive[s, i]   tile i still on the board after s moves (s = 1..T; s = 0 is 1)  n*T
                (tiles of a colour with one tile are the constant 1: they never leave)
  pos[s, i, r]  tile i sits on row r after s moves, r = 0..height(i)      ~ n*T*(R+1)/2
  full[s, c]    original column c still holds a tile                       C*T
  move[t]       step t removes a group (else idle)                          T
  hue[t, c]     the colour step t removes                                   k*T
  root[t, i]    tile i is the root of step t's group                        n*T
  flow[t, i, j] connectivity flow on a pair, both directions       2*(P_v+P_h)*T
                (integer 0..n_c: the whole model is integral, so it also runs on
                CP-SAT by translation)
  size[t, m]    step t removes m tiles (score objective only)              ~ T*max n_c
  clear         the board ends empty (score objective only)                 1
removed[t, i] = alive[t-1, i] - alive[t, i] is an expression, not a variable.

Positions come from counts: sum_r pos[s,i,r] = alive[s,i] and
sum_r r*pos[s,i,r] = number of alive tiles below i in its original column.
Two same-coloured tiles touch after s moves when, vertically, every tile
between them is gone, or, horizontally, they share a row and every original
column between theirs is empty (order never changes, so this is exact).

Constraints (counts up to lower-order terms)
  monotone        alive[s,i] <= alive[s-1,i]                              n*T
  one colour      removed[t,i] <= hue[t,colour i]; sum_c hue = move[t]    n*T + T
  idle at end     move[t] >= move[t+1]                                    T
  size >= 2       sum_i removed[t,i] >= 2*move[t]                         T
  positions       the two count equations above (the row one as two
                  inequalities relaxed by height(i) once i is gone)       3*n*T
  column empty    full[s,c] >= alive[s,i];  full[s,c] <= sum_i alive[s,i]  n*T + C*T
  maximal         a removed tile's touching same-coloured tile is removed:
                  |removed_i - removed_j| <= (tiles/columns between alive)
                  + (not both on row r)                               2*(P_v + P_h*R/3)*T
  (a pair whose in-between tiles have m colours cannot touch before move m:
   its maximal/flow rows start at step m + 1)
  connected       single-commodity flow: the group's lowest-index tile is the
                  root (root >= removed_i - sum_{j<i, same colour} removed_j,
                  sum root = move), every other removed tile absorbs one unit,
                  flow only on pairs that touch before the step and are both
                  removed (big-M = n_c)                 ~ 2nT + (3P_v + (2+2R/3)P_h)*T
  game over       after T moves no two same-coloured tiles touch       P_v + P_h*R/3
  stuck colour    (colour-count bound) a tile alone in its colour after s
                  moves is alive at the end:
                  alive[T,i] >= alive[s,i] - sum_{j != i, same colour} alive[s,j]   n*T
  incumbent       objective no worse than the beam-search warm start          1
So the model is O(n*T*R + P_h*T*R) ~ O(R^3 C^2 T / k) in size: 4x4 boards
are instant, 5x5 with 3 colours is seconds to minutes for CBC.  Objective:
min sum_i alive[T,i] (min-remaining) or max sum_t sum_m (m-2)^2 size[t,m]
+ 1000*clear (score).
Exact counts for an instance are in ``Built.stats``.
"""

from __future__ import annotations

from typing import Any

from mipgames.core.memo import last_instance
from mipgames.core.problem import Built, SolveOptions
from mipgames.samegame.decode import Geometry, HPair, VPair, cells_at, geometry, trajectory
from mipgames.samegame.simulate import CLEAR_BONUS, Rules, from_bottom, rules_of

HEURISTIC_WIDTH = 32


def warm_start(board, params: dict[str, Any]) -> tuple[list[list[int]], int]:
    """A compiled beam search's game (bottom-origin clicks) and its natural objective, for hints and the
    incumbent cut."""
    moves, value = _beam_game(board, params)
    return [list(m) for m in moves], value


@last_instance
def _beam_game(board, params: dict[str, Any]) -> tuple[tuple[tuple[int, ...], ...], int]:
    """``warm_start``'s game, kept for the last board asked for: the runner takes it before the build
    (``start_solution``) and the builder again."""
    from mipgames.samegame.beam import Beam, weights_for
    from mipgames.samegame.kernel import to_array

    rules = rules_of(params)
    root, shape = to_array(board)
    res = Beam(shape).run(root, HEURISTIC_WIDTH, weights_for(rules.score, 0), rules.score)
    return tuple(tuple(shape.cell(c)) for c in res.cells), rules.natural(res.value)


def start_solution(board, params: dict[str, Any]) -> list[list[int]]:
    """The game both models are built with as their hint (``Formulation.start``), in the ``origin`` param's
    coordinates."""
    moves, _ = warm_start(board, params)
    return from_bottom(board, moves, params.get("origin", "bottom"))


def touching(geo: Geometry, alive: list[bool], pair: VPair | HPair) -> bool:
    """Do the pair's tiles touch on the board where exactly ``alive`` tiles remain?"""
    if not (alive[pair.i] and alive[pair.j]):
        return False
    if isinstance(pair, VPair):
        return not any(alive[b] for b in pair.between)
    if any(any(alive[t] for t in geo.columns[c]) for c in pair.between):
        return False
    where = cells_at(geo, alive)
    return where[pair.i][1] == where[pair.j][1]


def flow_tree(geo: Geometry, alive: list[bool], group: list[int]) -> dict[tuple[int, int], int]:
    """Flow along a BFS tree of the group from its lowest-index tile: arc (u, v) carries v's subtree size."""
    member = set(group)
    pairs = [p for p in geo.pairs if p.i in member and p.j in member and touching(geo, alive, p)]
    nbrs: dict[int, list[int]] = {t: [] for t in group}
    for p in pairs:
        nbrs[p.i].append(p.j)
        nbrs[p.j].append(p.i)
    root = min(group)
    parent = {root: root}
    order = [root]
    for u in order:
        for v in nbrs[u]:
            if v not in parent:
                parent[v] = u
                order.append(v)
    sub = {t: 1 for t in group}
    flows = {}
    for v in reversed(order[1:]):
        sub[parent[v]] += sub[v]
        flows[parent[v], v] = sub[v]
    return flows


def build(board, params: dict[str, Any], options: SolveOptions) -> Built:
    import pulp

    geo = geometry(board)
    rules = rules_of(params)
    n, T = geo.n, geo.steps()
    colours = sorted(c for c, k in geo.counts.items() if k >= 2)
    same = {c: [i for i in range(n) if geo.colour[i] == c] for c in geo.counts}
    big_m = {c: geo.counts[c] for c in geo.counts}

    prob = pulp.LpProblem("samegame", pulp.LpMaximize if rules.score else pulp.LpMinimize)
    binary = pulp.LpBinary

    alive: dict[tuple[int, int], Any] = {}
    for i in range(n):
        alive[0, i] = 1
    for s in range(1, T + 1):
        for i in range(n):
            alive[s, i] = 1 if i in geo.stuck else pulp.LpVariable(f"alive_{s}_{i}", cat=binary)

    def removed(t: int, i: int):
        return alive[t - 1, i] - alive[t, i]

    hpair_tiles = {p.i for p in geo.hpairs} | {p.j for p in geo.hpairs}
    pos: dict[tuple[int, int, int], Any] = {}
    for i in hpair_tiles:
        for r in range(geo.height[i] + 1):
            pos[0, i, r] = 1 if r == geo.height[i] else 0
    full: dict[tuple[int, int], Any] = {(0, c): 1 for c in range(len(geo.columns))}
    for s in range(1, T + 1):
        for i in sorted(hpair_tiles):
            h = geo.height[i]
            if h == 0:
                pos[s, i, 0] = alive[s, i]
                continue
            for r in range(h + 1):
                pos[s, i, r] = pulp.LpVariable(f"pos_{s}_{i}_{r}", cat=binary)
            below = geo.columns[geo.column[i]][:h]
            prob += pulp.lpSum(pos[s, i, r] for r in range(h + 1)) == alive[s, i], f"pos_one_{s}_{i}"
            row = pulp.lpSum(r * pos[s, i, r] for r in range(1, h + 1))
            under = pulp.lpSum(alive[s, b] for b in below)
            prob += row <= under, f"pos_row_le_{s}_{i}"
            prob += row >= under - h * (1 - alive[s, i]), f"pos_row_ge_{s}_{i}"  # exact while i is alive
        for c, ids in enumerate(geo.columns):
            if any(c in p.between for p in geo.hpairs):
                full[s, c] = pulp.LpVariable(f"full_{s}_{c}", cat=binary)
                for i in ids:
                    prob += full[s, c] >= alive[s, i], f"full_ge_{s}_{c}_{i}"
                prob += full[s, c] <= pulp.lpSum(alive[s, i] for i in ids), f"full_le_{s}_{c}"

    move = {t: pulp.LpVariable(f"move_{t}", cat=binary) for t in range(1, T + 1)}
    hue = {(t, c): pulp.LpVariable(f"hue_{t}_{c}", cat=binary) for t in range(1, T + 1) for c in colours}
    root = {
        (t, i): pulp.LpVariable(f"root_{t}_{i}", cat=binary)
        for t in range(1, T + 1)
        for i in range(n)
        if i not in geo.stuck
    }

    def apart(s: int, pair: VPair | HPair, r: int | None):
        """Linear expression >= 1 whenever the pair does not touch on row r after s moves (0 if it does)."""
        if isinstance(pair, VPair):
            return pulp.lpSum(alive[s, b] for b in pair.between) + 2 - alive[s, pair.i] - alive[s, pair.j]
        assert r is not None  # a pair in two columns touches on a given row
        return pulp.lpSum(full[s, c] for c in pair.between) + 2 - pos[s, pair.i, r] - pos[s, pair.j, r]

    def touching0(pair: VPair | HPair) -> bool:
        return touching(geo, [True] * n, pair)

    flow: dict[tuple[int, int, int], Any] = {}
    for t in range(1, T + 1):
        s = t - 1
        prob += pulp.lpSum(hue[t, c] for c in colours) == move[t], f"one_colour_{t}"
        if t < T:
            prob += move[t] >= move[t + 1], f"idle_at_end_{t}"
        prob += pulp.lpSum(removed(t, i) for i in range(n)) >= 2 * move[t], f"size_{t}"
        inflow: dict[int, list] = {i: [] for i in range(n)}
        for i in range(n):
            if i in geo.stuck:
                continue
            if s:
                prob += alive[t, i] <= alive[s, i], f"monotone_{t}_{i}"
            prob += removed(t, i) <= hue[t, geo.colour[i]], f"hue_{t}_{i}"
            prob += root[t, i] <= removed(t, i), f"root_le_{t}_{i}"
            lower = [j for j in same[geo.colour[i]] if j < i]
            prob += root[t, i] >= removed(t, i) - pulp.lpSum(removed(t, j) for j in lower), f"root_min_{t}_{i}"
        prob += pulp.lpSum(root[t, i] for i in range(n) if i not in geo.stuck) == move[t], f"one_root_{t}"
        for k, pair in enumerate(geo.pairs):
            if pair.i in geo.stuck:
                continue
            if (s == 0 and not touching0(pair)) or s < pair.need:
                continue  # cannot touch yet
            i, j = pair.i, pair.j
            rows: list[int | None] = [None] if s == 0 or isinstance(pair, VPair) else list(pair.rows)
            for at in rows:
                gap = 0 if s == 0 else apart(s, pair, at)
                prob += removed(t, i) - removed(t, j) <= gap, f"max_a_{t}_{k}_{at}"
                prob += removed(t, j) - removed(t, i) <= gap, f"max_b_{t}_{k}_{at}"
            M = big_m[geo.colour[i]]
            fij = pulp.LpVariable(f"flow_{t}_{i}_{j}", 0, M, cat=pulp.LpInteger)
            fji = pulp.LpVariable(f"flow_{t}_{j}_{i}", 0, M, cat=pulp.LpInteger)
            flow[t, i, j], flow[t, j, i] = fij, fji
            inflow[j].append(fij)
            inflow[i].append(fji)
            both = fij + fji
            prob += both <= M * removed(t, i), f"flow_i_{t}_{k}"
            prob += both <= M * removed(t, j), f"flow_j_{t}_{k}"
            if s:
                if isinstance(pair, VPair):
                    for b in pair.between:
                        prob += both <= M * (1 - alive[s, b]), f"flow_v_{t}_{k}_{b}"
                else:
                    for c in pair.between:
                        prob += both <= M * (1 - full[s, c]), f"flow_h_{t}_{k}_{c}"
                    for r in pair.rows:
                        prob += both <= M * (1 - pos[s, i, r] + pos[s, j, r]), f"flow_r_{t}_{k}_{r}"
                        prob += both <= M * (1 - pos[s, j, r] + pos[s, i, r]), f"flow_q_{t}_{k}_{r}"
        outflow: dict[int, list] = {i: [] for i in range(n)}
        for (tt, a, _b), var in flow.items():
            if tt == t:
                outflow[a].append(var)
        for i in range(n):
            if i in geo.stuck:
                continue
            M = big_m[geo.colour[i]]
            prob += (
                pulp.lpSum(inflow[i]) - pulp.lpSum(outflow[i]) >= removed(t, i) - M * root[t, i],
                f"conserve_{t}_{i}",
            )

    # game over after T moves
    for k, pair in enumerate(geo.pairs):
        if pair.i in geo.stuck:
            continue
        rows = [None] if isinstance(pair, VPair) else list(pair.rows)
        for at in rows:
            if T == 0 or T < pair.need:
                continue
            prob += apart(T, pair, at) >= 1, f"over_{k}_{at}"
    # colour-count bound: a tile alone in its colour never leaves
    for s in range(1, T):
        for i in range(n):
            if i in geo.stuck:
                continue
            others = [j for j in same[geo.colour[i]] if j != i]
            prob += alive[T, i] >= alive[s, i] - pulp.lpSum(alive[s, j] for j in others), f"alone_{s}_{i}"

    hint_moves, incumbent = warm_start(board, params)
    left = pulp.lpSum(alive[T, i] for i in range(n))
    sizes: dict[tuple[int, int], Any] = {}
    clear = None
    if rules.score:
        top = max(geo.counts.values(), default=0)
        for t in range(1, T + 1):
            for m in range(2, top + 1):
                sizes[t, m] = pulp.LpVariable(f"size_{t}_{m}", cat=binary)
            prob += pulp.lpSum(sizes[t, m] for m in range(2, top + 1)) == move[t], f"one_size_{t}"
            prob += (
                pulp.lpSum(m * sizes[t, m] for m in range(2, top + 1)) == pulp.lpSum(removed(t, i) for i in range(n)),
                f"count_size_{t}",
            )
        clear = pulp.LpVariable("clear", cat=binary)
        if geo.stuck or T == 0:
            prob += clear == (1 if n == 0 else 0), "clear_fixed"
        else:
            for i in range(n):
                prob += clear <= 1 - alive[T, i], f"clear_{i}"
        objective = pulp.lpSum((m - 2) ** 2 * v for (t, m), v in sizes.items()) + CLEAR_BONUS * clear
        prob += objective
        prob += objective >= incumbent, "incumbent"
        prob += objective <= Rules(True).bound(geo.counts), "colour_bound"
    else:
        prob += left
        prob += left <= incumbent, "incumbent"
        prob += left >= len(geo.stuck), "colour_bound"

    hint = _hint(geo, T, hint_moves, alive, pos, full, move, hue, root, flow, sizes, clear)
    handles = {"geometry": geo, "alive": alive, "steps": T}
    stats = {
        "steps": T,
        "variables": len(prob.variables()),
        "constraints": len(prob.constraints),
        "incumbent": incumbent,
    }
    return Built(prob, handles, hint=hint, stats=stats)


def _hint(geo, T, moves, alive, pos, full, move, hue, root, flow, sizes, clear) -> dict:
    """Values of every variable along the heuristic's game (idle steps padded at the end)."""
    groups = trajectory(geo, moves)
    state = [True] * geo.n
    hint: dict[Any, float] = {}

    def put(var, val):
        if not isinstance(var, (int, float)) and var is not None:
            hint[var] = float(val)

    def put_state(s):
        for i in range(geo.n):
            put(alive[s, i], state[i])
        where = cells_at(geo, state)
        for (ss, i, r), var in pos.items():
            if ss == s:
                put(var, 1 if state[i] and where[i][1] == r else 0)
        for (ss, c), var in full.items():
            if ss == s:
                put(var, any(state[t] for t in geo.columns[c]))

    for t in range(1, T + 1):
        group = groups[t - 1] if t <= len(groups) else []
        flows = flow_tree(geo, state, group) if group else {}
        put(move[t], bool(group))
        for (tt, c), var in hue.items():
            if tt == t:
                put(var, bool(group) and geo.colour[group[0]] == c)
        for (tt, i), var in root.items():
            if tt == t:
                put(var, bool(group) and i == min(group))
        for (tt, a, b), var in flow.items():
            if tt == t:
                put(var, flows.get((a, b), 0))
        for (tt, m), var in sizes.items():
            if tt == t:
                put(var, len(group) == m)
        for i in group:
            state[i] = False
        put_state(t)
    if clear is not None:
        put(clear, not any(state))
    return hint
