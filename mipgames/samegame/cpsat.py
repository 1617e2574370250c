"""Native CP-SAT model of SameGame, both objectives.

Same state as the MIP (``alive[s, tile]`` over original tiles, see mip.py for
notation), but encoded the way CP-SAT propagates best:

  alive[s,i], removed[t,i]  booleans, removed = alive[t-1] and not alive[t]
  row[s,i]      integer = alive tiles below i in its column (one linear
                equation; no row one-hot as in the MIP)
  full[s,c]     column c non-empty  (bool_or / implications)
  touch[s,p]    pair p touches after s moves: a reified conjunction of "both
                alive", "nothing alive between" and, for pairs in different
                columns, the reified equality row_i == row_j
  maximal       touch[t-1,p] and removed[t,i] => removed[t,j] (a clause)
  connected     a spanning tree by depth labels instead of a flow: every removed
                tile but the root (the lowest-index removed tile) picks a parent
                literal among the pairs it touches, and parent => removed,
                depth[child] > depth[parent]
  score         gain[t] = table[size[t]] via add_element, (m-2)^2 per move

Sizes: booleans ~ n*T + (P_v+P_h)*T*3 (touch, two parent literals) + k*T,
integers n*T (row) + n*T (depth); constraints of the same order as the
MIP's, but each is a short clause or an enforced linear constraint instead
of a big-M row.  The idle-at-the-end order, the "not before move m" pair
pruning, the colour-count bound on the objective and the beam-search
incumbent are the MIP's; the MIP's per-step colour-count cut is off (below).
The hint covers every variable (the beam game replayed), so a warm-started
solve holds a solution from the first second.
"""

from __future__ import annotations

from typing import Any

from mipgames.core.problem import Built, SolveOptions
from mipgames.samegame.decode import HPair, VPair, geometry, trajectory
from mipgames.samegame.mip import flow_tree, touching, warm_start
from mipgames.samegame.simulate import CLEAR_BONUS, Rules, rules_of

ALONE_CUT = False
"""The MIP's per-step colour-count cut: n*T rows of n_c terms.  CP-SAT's presolve spends
most of a 6x6 board's time on them and search does not need them; off by default."""


def build(board, params: dict[str, Any], options: SolveOptions) -> Built:
    from ortools.sat.python import cp_model

    geo = geometry(board)
    rules = rules_of(params)
    n, T = geo.n, geo.steps()
    colours = sorted(c for c, k in geo.counts.items() if k >= 2)
    same = {c: [i for i in range(n) if geo.colour[i] == c] for c in geo.counts}
    pairs = [p for p in geo.pairs if p.i not in geo.stuck]
    model = cp_model.CpModel()

    true = model.new_bool_var("true")
    model.add(true == 1)
    extra: dict[Any, tuple] = {true: ("true", 0, None)}
    """Every other variable and what it means, so that the hint can cover the whole model."""
    alive: dict[tuple[int, int], Any] = {}
    for i in range(n):
        alive[0, i] = 1
    for s in range(1, T + 1):
        for i in range(n):
            alive[s, i] = 1 if i in geo.stuck else model.new_bool_var(f"alive_{s}_{i}")

    removed: dict[tuple[int, int], Any] = {}
    for t in range(1, T + 1):
        for i in range(n):
            if i in geo.stuck:
                continue
            r = model.new_bool_var(f"removed_{t}_{i}")
            model.add(r + alive[t, i] == alive[t - 1, i])
            removed[t, i] = r

    hrows = {p.i for p in geo.hpairs} | {p.j for p in geo.hpairs}
    row: dict[tuple[int, int], Any] = {}
    full: dict[tuple[int, int], Any] = {}
    between_cols = {c for p in geo.hpairs for c in p.between}
    for s in range(1, T + 1):
        for i in hrows:
            h = geo.height[i]
            if h == 0:
                row[s, i] = 0
                continue
            row[s, i] = model.new_int_var(0, h, f"row_{s}_{i}")
            model.add(row[s, i] == sum(alive[s, b] for b in geo.columns[geo.column[i]][:h]))
        for c in between_cols:
            ids = geo.columns[c]
            if any(i in geo.stuck for i in ids):
                full[s, c] = true  # a tile that never leaves keeps the column
                continue
            f = model.new_bool_var(f"full_{s}_{c}")
            model.add_bool_or([alive[s, i] for i in ids]).only_enforce_if(f)
            for i in ids:
                model.add_implication(alive[s, i], f)
            full[s, c] = f

    def touch_at(s: int, k: int, pair: VPair | HPair):
        """A literal true exactly when the pair touches after s moves (None: never at s = 0)."""
        if s == 0:
            return true if geo_touch0(pair) else None
        if s < pair.need:
            return None
        conds = [alive[s, pair.i], alive[s, pair.j]]
        negs = []
        if isinstance(pair, VPair):
            negs += [alive[s, b] for b in pair.between]
        else:
            negs += [full[s, c] for c in pair.between]
            ri, rj = row[s, pair.i], row[s, pair.j]
            if not (isinstance(ri, int) and isinstance(rj, int)):
                eq = model.new_bool_var(f"eq_{s}_{k}")
                model.add(ri == rj).only_enforce_if(eq)
                model.add(ri != rj).only_enforce_if(~eq)
                conds.append(eq)
                extra[eq] = ("eq", s, pair)
        conds = [c for c in conds if not isinstance(c, int)]
        negs_lits = [b for b in negs if not isinstance(b, int)]
        if any(isinstance(b, int) and b for b in negs):
            return None  # a stuck tile sits between them forever
        tv = model.new_bool_var(f"touch_{s}_{k}")
        extra[tv] = ("touch", s, pair)
        model.add_bool_and(conds + [~b for b in negs_lits]).only_enforce_if(tv)
        model.add_bool_or([~c for c in conds] + negs_lits + [tv])
        return tv

    def geo_touch0(pair) -> bool:
        if isinstance(pair, VPair):
            return not pair.between
        return not pair.between and geo.height[pair.i] == geo.height[pair.j]

    move = {t: model.new_bool_var(f"move_{t}") for t in range(1, T + 1)}
    hue = {(t, c): model.new_bool_var(f"hue_{t}_{c}") for t in range(1, T + 1) for c in colours}
    root = {(t, i): model.new_bool_var(f"root_{t}_{i}") for (t, i) in removed}
    top = max(geo.counts.values(), default=1)
    depth = {(t, i): model.new_int_var(0, top, f"depth_{t}_{i}") for (t, i) in removed}
    parents: dict[tuple[int, int], list] = {key: [] for key in removed}
    for t in range(1, T + 1):
        model.add(sum(hue[t, c] for c in colours) == move[t])
        if t < T:
            model.add_implication(move[t + 1], move[t])
        rm_t = [removed[t, i] for i in range(n) if (t, i) in removed]
        model.add(sum(rm_t) >= 2 * move[t])
        model.add(sum(root[t, i] for i in range(n) if (t, i) in root) == move[t])
        for i in range(n):
            if (t, i) not in removed:
                continue
            model.add_implication(removed[t, i], hue[t, geo.colour[i]])
            model.add_implication(root[t, i], removed[t, i])
            for j in same[geo.colour[i]]:
                if j < i:
                    model.add_implication(root[t, i], ~removed[t, j])
        for k, pair in enumerate(pairs):
            tv = touch_at(t - 1, k, pair)
            if tv is None:
                continue
            i, j = pair.i, pair.j
            model.add_bool_or([~tv, ~removed[t, i], removed[t, j]])
            model.add_bool_or([~tv, ~removed[t, j], removed[t, i]])
            for a, b in ((i, j), (j, i)):
                par = model.new_bool_var(f"parent_{t}_{a}_{b}")  # b is a's parent
                extra[par] = ("parent", t, (a, b))
                model.add_bool_and([tv, removed[t, a], removed[t, b]]).only_enforce_if(par)
                model.add(depth[t, a] >= depth[t, b] + 1).only_enforce_if(par)
                parents[t, a].append(par)
        for i in range(n):
            if (t, i) in removed:
                model.add_bool_or(parents[t, i] + [root[t, i]]).only_enforce_if(removed[t, i])

    for k, pair in enumerate(pairs):
        if T == 0:
            break
        tv = touch_at(T, k, pair)
        if tv is not None:
            model.add(tv == 0)
    if ALONE_CUT:
        for s in range(1, T):
            for i in range(n):
                if i not in geo.stuck:
                    others = [alive[s, j] for j in same[geo.colour[i]] if j != i]
                    model.add(alive[T, i] >= alive[s, i] - sum(others))

    hint_moves, incumbent = warm_start(board, params)
    left = sum(alive[T, i] for i in range(n))
    if rules.score:
        table = [max(0, m - 2) ** 2 for m in range(top + 1)]
        gains = []
        for t in range(1, T + 1):
            size = model.new_int_var(0, top, f"size_{t}")
            extra[size] = ("size", t, None)
            model.add(size == sum(removed[t, i] for i in range(n) if (t, i) in removed))
            gain = model.new_int_var(0, max(table), f"gain_{t}")
            extra[gain] = ("gain", t, table)
            model.add_element(size, table, gain)
            gains.append(gain)
        clear = model.new_bool_var("clear")
        extra[clear] = ("clear", T, None)
        if geo.stuck or T == 0:
            model.add(clear == (1 if n == 0 else 0))
        else:
            for i in range(n):
                model.add_implication(clear, ~alive[T, i])
        objective = sum(gains) + CLEAR_BONUS * clear
        model.maximize(objective)
        model.add(objective >= incumbent)
        model.add(objective <= Rules(True).bound(geo.counts))
    else:
        model.minimize(left)
        model.add(left <= incumbent)
        model.add(left >= len(geo.stuck))

    for key, var in removed.items():
        extra[var] = ("removed", *key)
    for key, var in row.items():
        if not isinstance(var, int):
            extra[var] = ("row", *key)
    for key, var in full.items():
        if var is not true:
            extra[var] = ("full", *key)
    for key, var in depth.items():
        extra[var] = ("depth", *key)
    hint = _hint(geo, T, hint_moves, alive, move, hue, root, extra)
    proto = model.proto
    stats = {
        "steps": T,
        "variables": len(proto.variables),
        "constraints": len(proto.constraints),
        "incumbent": incumbent,
    }
    return Built(model, {"geometry": geo, "alive": alive, "steps": T}, hint=hint, stats=stats)


def _hint(geo, T, moves, alive, move, hue, root, extra) -> dict:
    """The heuristic's game on every variable, so that CP-SAT starts from a complete solution."""
    groups = trajectory(geo, moves)
    groups += [[]] * (T - len(groups))
    states = [[True] * geo.n]
    for group in groups:
        nxt = list(states[-1])
        for i in group:
            nxt[i] = False
        states.append(nxt)
    trees = [flow_tree(geo, states[t - 1], groups[t - 1]) if groups[t - 1] else {} for t in range(1, T + 1)]
    depths = []
    for tree in trees:
        d: dict[int, int] = {}
        kids: dict[int, list[int]] = {}
        for parent, child in tree:
            kids.setdefault(parent, []).append(child)
        if tree:
            children = {c for _, c in tree}
            stack = [(r, 0) for r in kids if r not in children]
            while stack:
                u, du = stack.pop()
                d[u] = du
                stack.extend((v, du + 1) for v in kids.get(u, []))
        depths.append(d)

    def below(s: int, i: int) -> int:
        col = geo.columns[geo.column[i]]
        return sum(states[s][b] for b in col[: geo.height[i]])

    hint: dict[Any, int] = {}
    for var, (kind, a, b) in extra.items():
        if kind == "true":
            val = 1
        elif kind == "removed":
            val = states[a - 1][b] and not states[a][b]
        elif kind == "row":
            val = below(a, b)
        elif kind == "full":
            val = any(states[a][t] for t in geo.columns[b])
        elif kind == "depth":
            val = depths[a - 1].get(b, 0)
        elif kind == "touch":
            val = touching(geo, states[a], b)
        elif kind == "eq":
            val = below(a, b.i) == below(a, b.j)
        elif kind == "parent":
            child, parent = b
            val = (parent, child) in trees[a - 1]
        elif kind == "size":
            val = len(groups[a - 1])
        elif kind == "gain":
            val = b[len(groups[a - 1])]
        else:  # clear
            val = not any(states[T])
        hint[var] = int(val)
    for t in range(1, T + 1):
        group = groups[t - 1]
        hint[move[t]] = int(bool(group))
        for (tt, c), var in hue.items():
            if tt == t:
                hint[var] = int(bool(group) and geo.colour[group[0]] == c)
        for (tt, i), var in root.items():
            if tt == t:
                hint[var] = int(bool(group) and i == min(group))
        for i in range(geo.n):
            if not isinstance(alive[t, i], int):
                hint[alive[t, i]] = int(states[t][i])
    return hint
