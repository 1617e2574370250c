"""Searches on several cores: best game kept, failures reported, proofs end the run, no process survives."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil

from mipgames.samegame import kernel as K
from mipgames.samegame import parallel, simulate
from mipgames.samegame.exact import ExactSearch, polish
from mipgames.samegame.generate import random_board
from mipgames.samegame.nrpa import nrpa_search
from tests.display import DetailDisplay

ROOT = Path(__file__).resolve().parents[2]


def children() -> list[psutil.Process]:
    """Children of this process, less the helpers multiprocessing keeps for the whole session (its resource
    tracker and forkserver, started by other tests' process pools): a worker left behind is what counts."""
    helpers = ("resource_tracker", "forkserver")
    found = []
    for child in psutil.Process().children(recursive=True):
        try:
            line = " ".join(child.cmdline())
        except psutil.Error:
            continue  # gone while we looked: not left behind
        if not any(name in line for name in helpers):
            found.append(child)
    return found


def test_best_game_of_all_workers_and_failures_reported() -> None:
    def good(value):
        def task(send):
            send(value - 5, [1], "first")
            send(value, [1, 2], "better")
            return {"nodes": value}

        return task

    def bad(send):
        send(1, [9], "early")
        raise RuntimeError("boom")

    seen: list[int] = []
    out = parallel.run([good(10), bad, good(30)], time.monotonic() + 30, lambda f: seen.append(f.value))
    assert (out.best.value, out.best.cells, out.best.worker, out.best.note) == (30, [1, 2], 2, "better")
    assert seen == sorted(seen) and seen[-1] == 30
    assert len(out.errors) == 1 and "boom" in out.errors[0]
    assert out.stats[0] == {"nodes": 10} and out.stats[1] is None and not out.proved
    assert children() == []


def test_ties_go_to_the_lower_worker_and_one_task_runs_inline() -> None:
    out = parallel.run([lambda send: send(5, [1], "a"), lambda send: send(5, [2], "b")], None)
    assert out.best.worker == 0 and out.best.cells == [1]
    pid = os.getpid()
    inline = parallel.run([lambda send: send(os.getpid(), [], "here")], None)
    assert inline.best.value == pid


def test_the_work_of_every_worker_is_summed_for_the_progress_line() -> None:
    """Issue 14 asks for live progress with nodes a second: each worker tells its count so far (``tally``,
    at most every ``WORK_EVERY_S``), the run hears the sum over workers, forked or inline."""

    def task(n):
        def run(send):
            for i in range(1, 4):
                parallel.tally(send, 100 * n * i, "playouts")
                time.sleep(parallel.WORK_EVERY_S)
            send(n, [n], "done")
            return {}

        return run

    heard: list[dict[str, int]] = []
    out = parallel.run([task(1), task(2)], time.monotonic() + 30, None, None, heard.append)
    assert out.best.value == 2 and heard[-1] == {"playouts": 900}
    totals = [h["playouts"] for h in heard]
    assert totals == sorted(totals) and len(totals) == 6
    inline: list[dict[str, int]] = []
    parallel.run([task(1)], None, on_work=inline.append)
    assert inline == [{"playouts": 100}, {"playouts": 200}, {"playouts": 300}]
    told: list[int] = []
    parallel.tally(lambda value, cells, note: told.append(value), 5, "nodes")  # a plain send has no work channel
    assert told == []


def test_a_heuristic_solve_shows_its_playouts_and_their_rate() -> None:
    """The progress line showed the incumbent and the bound only; a heuristic's work and its rate go beside them."""
    import re

    from mipgames.core.problem import SolveOptions
    from mipgames.run.runner import solve
    from mipgames.samegame.problem import PROBLEM

    display = DetailDisplay()
    board = random_board(12, 12, 4, 3)
    opts = SolveOptions(time_limit=4, threads=2)
    r = solve(PROBLEM, board, solver="nrpa", params={"objective": "score"}, options=opts, progress=display)
    assert r.status == "feasible" and display.shown
    assert all(re.fullmatch(r"[\d,]+ playouts( \([\d,]+/s\))?", d) for d in display.shown), display.shown
    counts = [int(d.split()[0].replace(",", "")) for d in display.shown]
    assert counts == sorted(counts) and counts[-1] > 0 and any("/s)" in d for d in display.shown)
    assert counts[-1] <= int(re.search(r"([\d,]+) playouts", r.message).group(1).replace(",", ""))


def test_workers_past_the_deadline_are_killed_and_reaped() -> None:
    def stubborn(send):
        send(7, [3], "then hangs")
        while True:
            time.sleep(0.05)

    began = time.monotonic()
    out = parallel.run([stubborn, stubborn], began + 0.5)
    assert out.best.value == 7
    assert time.monotonic() - began < 0.5 + parallel.GRACE_S + 2.0
    assert children() == []


def test_a_proof_ends_the_run_at_once() -> None:
    def prover(send):
        send(42, [1], "proved")
        return {"proved": True}

    def forever(send):
        while True:
            time.sleep(0.05)

    began = time.monotonic()
    out = parallel.run([forever, prover], None)
    assert out.proved and out.best.value == 42 and time.monotonic() - began < 5
    assert children() == []


def test_workers_die_with_a_killed_parent(tmp_path: Path) -> None:
    """kill -9 of the process running the searches leaves none of its workers behind."""
    pids = tmp_path / "pids"
    script = textwrap.dedent(f"""
        import os, time
        from mipgames.samegame import parallel

        def task(send):
            with open({str(pids)!r}, "a") as fh:
                fh.write(f"{{os.getpid()}}\\n")
            while True:
                time.sleep(0.05)

        parallel.run([task, task], None)
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and (not pids.exists() or len(pids.read_text().split()) < 2):
            time.sleep(0.05)
        workers = [int(p) for p in pids.read_text().split()]
        assert len(workers) == 2 and all(psutil.pid_exists(p) for p in workers)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        gone = time.monotonic() + 2.0
        while time.monotonic() < gone and any(_alive(p) for p in workers):
            time.sleep(0.05)
        assert not any(_alive(p) for p in workers)
    finally:
        proc.kill()


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def test_polish_never_worsens_a_game_and_improves_a_weak_one() -> None:
    board = random_board(7, 7, 3, 4)
    root, shape = K.to_array(board)
    games: list[tuple[int, list[int]]] = []
    nrpa_search(root, shape, True, 1, 0, lambda v, c, n: games.append((v, c)), max_playouts=5)
    value, cells = games[-1]
    gain, better, nodes = polish(shape, root, cells, True, max_nodes=3_000_000)
    verdict = simulate.evaluate(board, {"objective": "score"}, [shape.cell(c) for c in better])
    assert verdict.legal and verdict.objective == value + gain
    optimum = ExactSearch(shape, 20).solve(root, True)
    assert optimum.proved and gain > 0 and value + gain <= optimum.value
    assert polish(shape, root, cells, True, max_nodes=0)[0] == 0  # no budget, no change
    again = polish(shape, root, better, True, max_nodes=3_000_000)
    assert again[0] >= 0 and nodes > 0


def test_meanwhile_runs_in_this_process_while_the_workers_search() -> None:
    began = time.monotonic()

    def slow(send):
        time.sleep(0.6)
        send(1, [1], "slow")

    when: list[tuple[int, float]] = []
    out = parallel.run([slow, slow], None, meanwhile=lambda: when.append((os.getpid(), time.monotonic() - began)))
    assert out.best.value == 1 and len(when) == 1
    assert when[0][0] == os.getpid() and when[0][1] < 0.5  # called before the sleeping workers reported
    inline: list[int] = []
    parallel.run([lambda send: send(len(inline), [], "after")], None, meanwhile=lambda: inline.append(1))
    assert inline == [1]


def test_the_polish_search_is_loaded_while_the_heuristics_run(monkeypatch) -> None:
    """The polish reserve is short (0.5 s of a 10 s limit): loading the compiled exact search inside it
    left a 6x6 board at 43 points that the polish clears for 1,024, so the loading happens meanwhile."""
    from mipgames.core.problem import SolveOptions
    from mipgames.run.runner import solve
    from mipgames.samegame import exact
    from mipgames.samegame.instance import read_board
    from mipgames.samegame.problem import PROBLEM

    calls: list[tuple[int, bool]] = []
    real_run, real_load = parallel.run, exact.load_polish

    def run(tasks, deadline, on_improve=None, meanwhile=None, on_work=None):
        assert meanwhile is not None
        return real_run(tasks, deadline, on_improve, meanwhile, on_work)

    def load(shape, root, score_mode):
        calls.append((os.getpid(), score_mode))
        real_load(shape, root, score_mode)

    monkeypatch.setattr(parallel, "run", run)
    monkeypatch.setattr(exact, "load_polish", load)
    board = read_board(ROOT / "instances/samegame/random-6x6-k4-seed9.txt")
    res = solve(
        PROBLEM,
        board,
        solver="nrpa",
        params={"objective": "score", "node_budget": 200_000},
        options=SolveOptions(time_limit=None, threads=2, seed=0),
        isolate=False,
    )
    assert calls == [(os.getpid(), True)]
    assert res.objective == 1024  # NRPA alone strands tiles here; the polish clears the board
