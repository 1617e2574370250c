"""The standard 20 SameGame boards (Schadd et al.) under the standard score rule, against the published totals.

    .venv/bin/python benchmarks/samegame/standard.py [SET] [--time-limit 60] [--threads 2] [--solver portfolio]
        [--boards 20] [--out benchmarks/samegame/standard-60s.md] [--kernel-speed]

SET is ``standard_20.txt`` (default: $MIPGAMES_BENCHMARKS/samegame/standard_20.txt, else
../shared/benchmarks/samegame/standard_20.txt next to the repository).  Each board gets
``--time-limit`` seconds of ``--solver`` on ``--threads`` cores through the runner (isolated
child, every game replayed by the simulator before it counts).  Written beside the script
(``--out``): a per-board table, the total, its ratio to each published record (NMCS level 3
77,934; NRPA 80,030; beam search 84,414; sum of the per-board best known 87,858), the load
averages, a plot of the total score against time (PNG), and with ``--kernel-speed`` the
children per second of the compiled kernel against the pure-Python one.

The published totals are over all 20 boards: a run of ``--boards N`` (N < 20) gives no ratio to
them (the first N boards' share of a record is unknown), and its default report is
``standard-<T>s-<N>boards.md``, so it never overwrites the 20-board results.

Compile time: the compiled kernels are loaded (or compiled) once, before the first board,
by a short warm-up solve; per-board times do not include it, the report states it.
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE.parent))  # benchmarks/, for scriptkit

from scriptkit import Parser, positive_float, positive_int, require_files, run_script  # noqa: E402

from mipgames.core.problem import SolveOptions  # noqa: E402
from mipgames.run.runner import solve  # noqa: E402
from mipgames.samegame import simulate  # noqa: E402
from mipgames.samegame.instance import read_standard_set  # noqa: E402
from mipgames.samegame.problem import PROBLEM  # noqa: E402

PUBLISHED = {
    "NMCS level 3": 77_934,
    "NRPA (selective policy)": 80_030,
    "beam search (spurious ai)": 84_414,
    "sum of per-board best known": 87_858,
}
PUBLISHED_BOARDS = 20
"""The published totals are sums over the whole standard set."""
SET_HINT = "the set file as the first argument"


def default_set() -> Path:
    """$MIPGAMES_BENCHMARKS, else ../shared/benchmarks beside the repository (or beside its parent, for a worktree)."""
    base = os.environ.get("MIPGAMES_BENCHMARKS")
    folders = (
        [Path(base)] if base else [ROOT.parent / "shared" / "benchmarks", ROOT.parents[1] / "shared" / "benchmarks"]
    )
    for folder in folders:
        if (folder / "samegame" / "standard_20.txt").exists():
            return folder / "samegame" / "standard_20.txt"
    return folders[0] / "samegame" / "standard_20.txt"


def solve_board(board, solver: str, limit: float, threads: int, seed: int) -> tuple[object, list[tuple[float, int]]]:
    history: list[tuple[float, int]] = []

    def progress(elapsed: float, incumbent: float | None, bound: float | None) -> None:
        if incumbent is not None and (not history or incumbent > history[-1][1]):
            history.append((elapsed, int(incumbent)))

    res = solve(
        PROBLEM,
        board,
        solver=solver,
        params={"objective": "score"},
        options=SolveOptions(time_limit=limit, threads=threads, seed=seed),
        isolate=True,
        progress=progress,
    )
    if res.objective is not None and (not history or res.objective > history[-1][1]):
        history.append((res.wall_time_s, int(res.objective)))  # found after the last report (the end-game search)
    return res, history


def python_playout(state: bytes, rng: random.Random) -> int:
    """A uniformly random game on the pure-Python state (no tabu rule); the clicks played."""
    played = 0
    while True:
        cols = simulate.columns(state)
        groups = simulate.find_groups(cols)
        if not groups:
            return played
        _, cells = groups[rng.randrange(len(groups))]
        state = simulate.remove(cols, cells)
        played += 1


def kernel_speed(boards, positions: int = 300, seed: int = 0) -> dict[str, tuple[float, float]]:
    """Each kernel's speed on the same work, pure Python against compiled:

    - expand: every child of a position (all groups found, every child board built, hashed when compiled);
    - playout: uniformly random games to the end (groups found at every step, one removed).
    """
    import numpy as np
    from numba import njit

    from mipgames.samegame import kernel as K
    from mipgames.samegame.playout import new_book, playout

    rng = random.Random(seed)
    states, arrays = [], []
    for _ in range(positions):
        board = boards[rng.randrange(len(boards))]
        for _ in range(rng.randrange(0, 40)):
            legal = simulate.legal_moves(board)
            if not legal:
                break
            board, _ = simulate.apply_move(board, rng.choice(legal))
        states.append(simulate.encode(board))
        arrays.append(K.to_array(board)[0])
    shape = K.to_array(boards[0])[1]
    out: dict[str, tuple[float, float]] = {}

    began = time.perf_counter()
    python_children = 0
    for state in states:
        cols = simulate.columns(state)
        for _, cells in simulate.find_groups(cols):
            simulate.remove(cols, cells)
            python_children += 1
    python_rate = python_children / (time.perf_counter() - began)

    @njit
    def expand_all(batch, cols, stride, label, stack, gsize, gcolour, gcell, glast, child, zobrist, rounds):
        made = 0
        for _ in range(rounds):
            for p in range(batch.shape[0]):
                ng = K.find_groups(batch[p], cols, stride, label, stack, gsize, gcolour, gcell, glast)
                h1, h2 = K.board_hash(batch[p], cols, stride, zobrist)
                for g in range(ng):
                    if gsize[g] >= 2:
                        K.remove_hashed(batch[p], child, cols, stride, label, g, gcell[g], glast[g], zobrist, h1, h2)
                        made += 1
        return made

    batch = np.stack(arrays)
    sc = K.Scratch.of(shape)
    scratch = (sc.label, sc.stack, sc.gsize, sc.gcolour, sc.gcell, sc.glast)
    args = (batch, shape.cols, shape.stride, *scratch, np.zeros(shape.size, dtype=np.int8), K.zobrist_table(shape))
    expand_all(*args, 1)
    began = time.perf_counter()
    made = expand_all(*args, 50)
    out["expand (children/s)"] = (python_rate, made / (time.perf_counter() - began))

    games = 200
    began = time.perf_counter()
    for k in range(games):
        python_playout(simulate.encode(boards[k % len(boards)]), rng)
    python_rate = games / (time.perf_counter() - began)
    roots = [K.to_array(b)[0] for b in boards]
    work = np.zeros(shape.size, dtype=np.int8)
    seq = np.zeros(shape.size, dtype=np.int32)
    moves = np.zeros(shape.size, dtype=np.int32)
    state = K.rng_state(seed)
    book = new_book(shape.size)
    playout(roots[0], work, shape.cols, shape.stride, 0, 0, True, state, *scratch, moves, seq, 0, book)
    began = time.perf_counter()
    for k in range(50 * games):
        playout(roots[k % len(roots)], work, shape.cols, shape.stride, 0, 0, True, state, *scratch, moves, seq, 0, book)
    out["random playout (games/s)"] = (python_rate, 50 * games / (time.perf_counter() - began))
    return out


def plot(histories: list[list[tuple[float, int]]], finals: list[int], limit: float, path: Path) -> None:
    """Total of the best scores so far over all boards, against the time given to each board (the published
    totals drawn only when the run covers the 20 boards they are over)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    times = sorted({0.0, limit, *(t for h in histories for t, _ in h if t <= limit)})

    def value_at(history: list[tuple[float, int]], final: int, t: float) -> int:
        if t >= limit:
            return final
        seen = [v for s, v in history if s <= t]
        return seen[-1] if seen else 0

    totals = [sum(value_at(h, final, t) for h, final in zip(histories, finals)) for t in times]
    fig, ax = plt.subplots(figsize=(7, 4))
    full = len(finals) == PUBLISHED_BOARDS
    ax.step(times, totals, where="post", label="this run (sum of best so far)")
    if full:
        for k, (name, value) in enumerate(PUBLISHED.items()):
            ax.axhline(value, linestyle="--", linewidth=0.8, color=f"C{k + 1}", label=f"{name} {value:,}")
    ax.set_xlabel("seconds per board")
    ax.set_ylabel(f"total score, {len(finals)} board{'s' if len(finals) != 1 else ''}")
    if not full:
        ax.set_title(f"first {len(finals)} of the {PUBLISHED_BOARDS} boards (published totals: all {PUBLISHED_BOARDS})")
    ax.set_xlim(0, limit)
    ax.set_ylim(0, max(max(totals), *(PUBLISHED.values() if full else [1])) * 1.05)
    ax.legend(fontsize=7, loc="lower right")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main() -> None:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("standard_set", nargs="?", default=None, help="standard_20.txt (default: see above)")
    ap.add_argument("--time-limit", type=positive_float, default=60.0, help="seconds per board (default 60)")
    ap.add_argument("--threads", type=positive_int, default=2, help="cores per board (default 2)")
    ap.add_argument("--solver", default="portfolio", help="samegame solver (default portfolio)")
    ap.add_argument("--boards", type=positive_int, default=None, help="only the first N boards")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--out",
        default=None,
        help="Markdown report (default benchmarks/samegame/standard-<T>s.md; with fewer than 20 boards "
        "standard-<T>s-<N>boards.md)",
    )
    ap.add_argument("--kernel-speed", action="store_true", help="also measure compiled vs pure-Python kernel")
    args = ap.parse_args()
    path = Path(args.standard_set) if args.standard_set else default_set()
    require_files([path], SET_HINT, args.standard_set)
    boards = read_standard_set(path)[: args.boards]
    full = len(boards) == PUBLISHED_BOARDS
    part = "" if full else f"-{len(boards)}boards"
    out = Path(args.out) if args.out else HERE / f"standard-{args.time_limit:g}s{part}.md"

    began = time.monotonic()
    solve(
        PROBLEM,
        boards[0],
        solver=args.solver,
        params={"objective": "score", "node_budget": 2000},
        options=SolveOptions(time_limit=120, threads=1),
        isolate=False,
    )
    warm = time.monotonic() - began
    load_before = os.getloadavg()
    rows, histories, finals = [], [], []
    total = 0
    for k, board in enumerate(boards, start=1):
        res, history = solve_board(board, args.solver, args.time_limit, args.threads, args.seed)
        if res.status not in ("optimal", "feasible"):
            raise SystemExit(f"board {k}: {res.status} {res.message}")
        verdict = simulate.evaluate(board, {"objective": "score"}, res.solution)
        assert verdict.legal and verdict.objective == res.objective
        score = int(res.objective)
        total += score
        best_at = next((t for t, v in history if v >= score), None)
        rows.append((k, score, verdict.measured["remaining"], len(res.solution), best_at, res.wall_time_s, res.message))
        histories.append(history)
        finals.append(score)
        print(
            f"board {k:2d}: score {score:5d}  tiles left {verdict.measured['remaining']:3d}  "
            f"best at {best_at if best_at is None else round(best_at, 1)} s  ({res.wall_time_s:.1f} s)  {res.message}",
            flush=True,
        )
    load_after = os.getloadavg()
    wall = time.monotonic() - began - warm

    which = "Standard 20 boards" if full else f"Standard boards, the first {len(boards)} of {PUBLISHED_BOARDS}"
    lines = [f"# {which}, {args.time_limit:g} s a board, {args.threads} core(s), solver `{args.solver}`", ""]
    lines.append(
        f"    {Path(sys.executable).name} benchmarks/samegame/standard.py --time-limit {args.time_limit:g} "
        f"--threads {args.threads} --solver {args.solver}" + (f" --boards {args.boards}" if args.boards else "")
    )
    lines += [
        "",
        f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; load averages (1/5/15 min) "
        f"before {load_before[0]:.1f}/{load_before[1]:.1f}/{load_before[2]:.1f}, after "
        f"{load_after[0]:.1f}/{load_after[1]:.1f}/{load_after[2]:.1f} on a {os.cpu_count()}-core machine; "
        f"{wall:.0f} s wall.  Warm-up (loading or compiling the kernels, not counted in the per-board "
        f"times): {warm:.1f} s.  Every game was replayed by the simulator.",
        "",
    ]
    lines += [
        "| board | score | tiles left | moves | best found at (s) | wall (s) | how |",
        "|---|---|---|---|---|---|---|",
    ]
    for k, score, left, moves, best_at, wall_s, message in rows:
        at = "" if best_at is None else f"{best_at:.1f}"
        lines.append(f"| {k} | {score:,} | {left} | {moves} | {at} | {wall_s:.1f} | {message} |")
    lines += [
        "",
        f"**Total {total:,}** over {len(boards)} boards.",
        "",
    ]
    if full:
        lines += ["| published | total | this run / it |", "|---|---|---|"]
        lines += [f"| {name} | {value:,} | {total / value:.3f} |" for name, value in PUBLISHED.items()]
    else:
        lines.append(
            f"No ratio to the published totals: they are over all {PUBLISHED_BOARDS} boards, and what the first "
            f"{len(boards)} of them contribute to a record is not published."
        )
    if args.kernel_speed:
        lines += [
            "",
            "Kernel speed, same work for both kernels (the pure-Python one is `simulate`'s packed "
            "bytes state, the fastest Python had; expand = every child of 300 positions from random games on "
            "these boards, built and, when compiled, hashed; playout = uniformly random games from the "
            f"{len(boards)} boards to the end):",
            "",
            "| operation | pure Python | compiled | ratio |",
            "|---|---|---|---|",
        ]
        for name, (python_rate, compiled_rate) in kernel_speed(boards).items():
            lines.append(f"| {name} | {python_rate:,.0f} | {compiled_rate:,.0f} | {compiled_rate / python_rate:.0f}x |")
    png = out.with_suffix(".png")
    plot(histories, finals, args.time_limit, png)
    lines += ["", f"![total score against time]({png.name})", ""]
    out.write_text("\n".join(lines))
    print(
        f"total {total} over {len(boards)} boards ({args.time_limit:g} s each, {args.threads} cores); "
        + (
            ", ".join(f"{name} {value:,} ({total / value:.3f})" for name, value in PUBLISHED.items())
            if full
            else f"no ratio to the published totals (they are over all {PUBLISHED_BOARDS} boards)"
        )
    )
    print(f"wrote {out} and {png}")


if __name__ == "__main__":
    sys.exit(run_script(main))
