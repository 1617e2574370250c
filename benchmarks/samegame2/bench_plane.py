"""Same Game 2 plane benchmark: large loads, `n`, move cost vs base size, path cost, incremental `n`.

    .venv/bin/python benchmarks/samegame2/bench_plane.py            # full run (~1-3 minutes)
    .venv/bin/python benchmarks/samegame2/bench_plane.py --quick    # smaller sizes, seconds

Prints its figures and writes them (Markdown, with the load averages) to
``--out`` (default RESULTS.md beside this script; ``--out -`` writes nothing).
Generated files go to a temporary directory.  Timings are wall-clock on a shared
machine: read ratios, not absolute values.  Pure Python: no compile time.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import platform
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from mipgames.samegame2.interpreter import Interpreter
from mipgames.samegame2.paths import homogeneous_path, variability_path
from mipgames.samegame2.plane import Plane, count_blocks

COLOURS = ["rosso", "blu", "verde", "giallo"]


def timed(fn, *args):
    start = time.perf_counter()
    value = fn(*args)
    return value, time.perf_counter() - start


def write_table(path: Path, side: int, rng: random.Random) -> None:
    with open(path, "w") as handle:
        handle.writelines(" ".join(rng.choice(COLOURS) for _ in range(side)) + "\n" for _ in range(side))


def load_big(tmp: Path, side: int, rng: random.Random) -> Interpreter:
    path = tmp / "big.txt"
    write_table(path, side, rng)
    out = io.StringIO()
    interp = Interpreter(out, sys.stderr)
    _, t_load = timed(interp.execute, 1, f"i {side} {side} 0 0 {path}")
    _, t_n1 = timed(interp.execute, 2, "n")
    _, t_n2 = timed(interp.execute, 3, "n")
    plane = interp.plane
    interp.execute(4, f"m {side // 2} {side // 2} {side // 2 - 5} {side // 2 + 5} {side // 2 - 5} {side // 2 + 5}")
    _, t_n3 = timed(interp.execute, 5, "n")
    counts = out.getvalue().split()
    print(
        f"load: `i` of a {side}x{side} file ({len(plane):,} balls) {t_load:.2f} s;"
        f" peak memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB"
    )
    print(
        f"n: first {t_n1 * 1e3:.1f} ms, again {t_n2 * 1e6:.0f} us, after an 11x11 move "
        f"{t_n3 * 1e3:.2f} ms  (blocks {counts[0]} -> {counts[-1]})"
    )
    _, t_full = timed(count_blocks, plane.balls)
    print(f"   full recount of the same plane: {t_full:.2f} s")
    return interp


def move_costs(plane: Plane, side: int, sizes: list[int], rng: random.Random) -> None:
    """A base of s x s cells half filled at random (so the move restacks all m of its balls), placed
    beside the big plane; the same move on a plane holding only the base's balls."""
    print(
        "move cost vs m balls in the base (an unstable half-full base: every ball moves),"
        " on the big plane and on a plane of the base alone:"
    )
    print(f"   {'m':>7} {'big plane':>12} {'alone':>12} {'us/ball':>9}")
    x0 = side + 100
    for s in sizes:
        balls = {(x0 + rng.randrange(s), 1 + rng.randrange(s)): rng.choice(COLOURS) for _ in range(s * s // 2)}
        alone = Plane.from_balls(balls)
        alone.block_count()
        plane.put_many(balls.items())
        plane.block_count()
        args = (x0 - 1, 0, x0, x0 + s - 1, 0, s)  # click an empty cell: no removal, only the restack
        _, t_big = timed(plane.move, *args)
        _, t_alone = timed(alone.move, *args)
        assert all(plane.balls[c] == colour for c, colour in alone.balls.items())
        print(f"   {len(balls):>7} {t_big * 1e3:>10.2f}ms {t_alone * 1e3:>10.2f}ms {t_big / len(balls) * 1e6:>9.2f}")
        x0 += s + 1
    far = Plane()
    far.put(-(10**9), 0, "a")
    far.put(10**9, 0, "a")
    far.put_many(((x, 1 + (x * 7) % 5), COLOURS[x % 3]) for x in range(100))
    _, t_far = timed(far.move, 0, 0, 0, 99, 0, 9)
    print(
        f"   balls at x = +-10^9 plus 100 balls in a 100x10 base: move {t_far * 1e6:.0f} us (storage {len(far)} balls)"
    )


def path_costs(interp: Interpreter, side: int, lengths: list[int]) -> None:
    plane = interp.plane
    print("path cost: `o` along a one-colour row of L balls laid above the big plane (BFS visits L balls):")
    row_y = side + 10
    for length in lengths:
        plane.put_table(0, row_y, 1, length, ["nero"] * length)
        found, t = timed(homogeneous_path, plane.balls, (0, row_y), (length - 1, row_y))
        print(
            f"   L = {length:>7,}: {t * 1e3:8.2f} ms, {t / length * 1e6:.2f} us per ball visited (path {len(found[1])})"
        )
        row_y += 2
    print("`c` between (x, y) and (x + d, y) inside the random plane (Dijkstra visits about d^2 balls):")
    mid = side // 2
    for d in (1, 10, 30, 100):
        if mid + d >= side:
            break
        found, t = timed(variability_path, plane.balls, (mid, mid), (mid + d, mid))
        print(f"   d = {d:>4}: {t * 1e3:8.2f} ms (variability {found[0]}, length {len(found[1])})")


def column_index(count: int, moves: int, rng: random.Random) -> None:
    """The occupied-column index under churn: one row of ``count`` balls put one by one in random x
    order (each opens a column), then ``moves`` moves with narrow bases along the row (each empties
    and refills columns)."""
    plane = Plane(track_blocks=False)
    xs = list(range(0, 2 * count, 2))
    rng.shuffle(xs)
    start = time.perf_counter()
    for x in xs:
        plane.put(x, 0, rng.choice(COLOURS))
    t_put = time.perf_counter() - start
    start = time.perf_counter()
    for _ in range(moves):
        x0 = rng.randrange(2 * count)
        x1 = x0 + rng.randint(1, 40)
        plane.move(rng.randint(x0, x1), 0, x0, x1, 0, 0)
    t_move = time.perf_counter() - start
    print(
        f"column index: {count:,} balls put one by one into {count:,} new columns {t_put:.2f} s "
        f"({t_put / count * 1e6:.2f} us each); {moves:,} moves with bases 2-41 columns wide "
        f"{t_move:.2f} s ({t_move / moves * 1e6:.1f} us each) [{len(plane):,} balls left]"
    )


def incremental_vs_recount(label: str, plane: Plane, span: int, moves: int, sample: int, rng: random.Random) -> None:
    """`moves` random moves with small bases, each followed by n; the full recount is timed on a sample."""
    inc_total = 0.0
    recount_times = []
    for k in range(moves):
        x0, y0 = rng.randrange(span), rng.randrange(span)
        w, h = rng.randint(1, 8), rng.randint(1, 8)
        args = (x0 + rng.randrange(w), y0 + rng.randrange(h), x0, x0 + w - 1, y0, y0 + h - 1)
        start = time.perf_counter()
        plane.move(*args)
        n = plane.block_count()
        inc_total += time.perf_counter() - start
        if k % sample == 0:
            full, t = timed(count_blocks, plane.balls)
            assert full == n, (full, n)
            recount_times.append(t)
    recount = sum(recount_times) / len(recount_times) * moves
    print(
        f"{label}: {moves:,} moves + n: incremental {inc_total:.2f} s in all;"
        f" full recount after each move ~{recount:.1f} s (mean of {len(recount_times)} timed recounts x {moves:,});"
        f" speed-up ~{recount / inc_total:.0f}x  [{len(plane):,} balls at the end]"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--out",
        default=str(Path(__file__).with_name("RESULTS.md")),
        help="Markdown results file (default: RESULTS.md beside this script; '-': none)",
    )
    args = parser.parse_args()
    before = os.getloadavg()
    captured = io.StringIO()
    with contextlib.redirect_stdout(Tee(sys.stdout, captured)):
        run(args)
    after = os.getloadavg()
    if args.out != "-":
        command = "python benchmarks/samegame2/bench_plane.py" + (" --quick" if args.quick else "")
        Path(args.out).write_text(
            "# Same Game 2 plane benchmark\n\n"
            f"`{command}` (seed {args.seed}), Python {platform.python_version()}, wall-clock on a shared"
            f" machine; load averages {before[0]:.2f} {before[1]:.2f} {before[2]:.2f} before,"
            f" {after[0]:.2f} {after[1]:.2f} {after[2]:.2f} after.  Pure Python, no compile time.\n\n"
            "```\n" + captured.getvalue() + "```\n"
        )
        print(f"results written to {args.out}")


class Tee(io.TextIOBase):
    def __init__(self, *streams):
        self.streams = streams

    def write(self, text: str) -> int:
        for stream in self.streams:
            stream.write(text)
        return len(text)


def run(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    side = 200 if args.quick else 1000
    moves = 1000 if args.quick else 10_000
    with tempfile.TemporaryDirectory() as tmp:
        interp = load_big(Path(tmp), side, rng)
    move_costs(interp.plane, side, [10, 30, 100] if args.quick else [10, 30, 100, 300, 1000], rng)
    path_costs(interp, side, [1000, 10_000] if args.quick else [1000, 10_000, 100_000])
    small = Plane()
    small_side = 100 if args.quick else 200
    small.put_table(0, 0, small_side, small_side, [rng.choice(COLOURS) for _ in range(small_side**2)])
    incremental_vs_recount(f"{small_side}x{small_side} plane", small, small_side, moves, 20, rng)
    big = interp.plane
    incremental_vs_recount("the big plane", big, side, moves, moves // 3, rng)
    column_index(20_000 if args.quick else 300_000, moves, rng)


if __name__ == "__main__":
    main()
