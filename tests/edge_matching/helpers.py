"""Shared test helpers: the coursework instance, an independent scorer and exhaustive optimum."""

from __future__ import annotations

from pathlib import Path

from mipgames.edge_matching.instance import Instance, read

ROOT = Path(__file__).resolve().parents[2]
COURSEWORK = ROOT / "instances" / "edge_matching" / "coursework_4x4.txt"


def coursework() -> Instance:
    return read(COURSEWORK)


def rot(tile, a):
    """Written out independently of the library: a quarter turn clockwise moves left->top, top->right..."""
    t = tuple(tile)
    for _ in range(a):
        t = (t[3], t[0], t[1], t[2])
    return t


def score(inst: Instance, placement, tiles=None) -> int:
    """Mismatched inner edges, computed from scratch (tiles may be swapped for mirrored ones)."""
    tiles = tiles or inst.tiles
    sh = [rot(tiles[t], a) for t, a in placement]
    R, C = inst.rows, inst.cols
    bad = 0
    for r in range(R):
        for c in range(C):
            if c + 1 < C:
                bad += sh[r * C + c][1] != sh[r * C + c + 1][3]
            if r + 1 < R:
                bad += sh[r * C + c][2] != sh[(r + 1) * C + c][0]
    return bad


def frame_ok(inst: Instance, placement) -> bool:
    R, C = inst.rows, inst.cols
    for i, (t, a) in enumerate(placement):
        r, c = divmod(i, C)
        out = (r == 0, c == C - 1, r == R - 1, c == 0)
        if any((col == 0) != o for col, o in zip(rot(inst.tiles[t], a), out)):
            return False
    return True


def exhaustive_optimum(inst: Instance) -> int | None:
    """Minimum mismatches over every placement obeying the frame rule (None: no legal placement).

    Plain depth-first enumeration of tiles and turns per cell in scan order, cut only when the
    partial count already reaches the best complete one (which cannot lose the optimum).
    """
    n, C = inst.cells, inst.cols
    frame = any(0 in t for t in inst.tiles)
    best = [None]
    placed = [None] * n
    used = [False] * n

    def partial(i, sh):
        r, c = divmod(i, C)
        k = 0
        if r:
            k += rot(*placed[i - C])[2] != sh[0]
        if c:
            k += rot(*placed[i - 1])[1] != sh[3]
        return k

    def go(i, cost):
        if best[0] is not None and cost >= best[0]:
            return
        if i == n:
            best[0] = cost
            return
        r, c = divmod(i, C)
        out = (r == 0, c == C - 1, r == inst.rows - 1, c == 0)
        for t in range(n):
            if used[t]:
                continue
            for a in range(4):
                sh = rot(inst.tiles[t], a)
                if frame and any((col == 0) != o for col, o in zip(sh, out)):
                    continue
                used[t] = True
                placed[i] = (inst.tiles[t], a)
                go(i + 1, cost + partial(i, sh))
                used[t] = False

    go(0, 0)
    return best[0]
