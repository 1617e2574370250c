"""Every formulation on every solver it runs on, through the runner, against the simulator and brute force."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mipgames.core.problem import SolveOptions
from mipgames.edge_matching.generate import planted
from mipgames.edge_matching.instance import Hint, Instance
from mipgames.edge_matching.problem import PROBLEM
from mipgames.run.runner import solve

from .helpers import coursework, exhaustive_optimum, score

PAIRS = [(f, s) for f in ("baseline", "typed") for s in ("cbc", "glpk", "highs", "cpsat")] + [
    ("cpsat", "cpsat"),
    ("cpsat-table", "cpsat"),
]
ONE = SolveOptions(threads=1, time_limit=60)


@pytest.fixture(autouse=True)
def _fresh_highs_scheduler():
    """HiGHS keeps one global thread pool per process: after an in-process run with threads=1, a later
    run asking for 2 threads fails with status "Not Set" (a backend defect reported to the lead).
    Reset the pool after each test so these in-process runs leave no state behind for other tests."""
    yield
    import highspy

    highspy.Highs.resetGlobalScheduler(True)


def run(inst, formulation, solver, mode="optimise", options=ONE):
    return solve(
        PROBLEM,
        inst,
        solver=solver,
        formulation=formulation,
        params={"mode": mode},
        options=options,
        isolate=False,
    )


@pytest.mark.parametrize("formulation,solver", PAIRS)
def test_coursework_proved_perfect(formulation, solver):
    inst = coursework()
    r = run(inst, formulation, solver)
    assert r.status == "optimal", r.message
    assert r.objective == 0 and score(inst, r.solution) == 0


@pytest.mark.parametrize("formulation", ["baseline", "typed", "cpsat", "cpsat-table"])
def test_decision_mode_finds_perfect_frame_puzzle(formulation):
    inst, _ = planted(3, 4, True, 2, 2, seed=7)
    r = run(
        inst,
        formulation,
        "cpsat" if formulation.startswith("cpsat") else "highs",
        mode="decision",
    )
    assert r.status == "optimal" and r.objective == 0 and score(inst, r.solution) == 0


@pytest.mark.parametrize("formulation", ["baseline", "typed", "cpsat", "cpsat-table"])
@pytest.mark.parametrize("mode", ["optimise", "decision"])
def test_contradictory_hints_are_infeasible(formulation, mode):
    inst, p = planted(3, 3, True, 1, 2, seed=3)
    corner_tile = p[0][0]
    hints = (Hint(1, 1, corner_tile, 0),)  # a corner tile in the centre breaks the frame rule
    r = run(
        Instance(3, 3, inst.tiles, hints),
        formulation,
        "cpsat" if formulation.startswith("cpsat") else "cbc",
        mode,
    )
    assert r.status == "infeasible", r.message
    two = (
        Hint(0, 0, p[0][0], p[0][1]),
        Hint(0, 0, p[2][0], p[2][1]),
    )  # two tiles in one cell
    r = run(Instance(3, 3, inst.tiles, two), formulation, "cpsat", mode)
    assert r.status == "infeasible", r.message


@pytest.mark.parametrize("formulation", ["baseline", "typed", "cpsat", "cpsat-table"])
def test_unsolvable_decision_is_infeasible_and_optimise_counts(formulation):
    inst = Instance(2, 2, ((1, 1, 1, 1), (1, 1, 1, 1), (1, 1, 1, 1), (2, 2, 2, 2)))
    solver = "cpsat" if formulation.startswith("cpsat") else "cbc"
    assert run(inst, formulation, solver, "decision").status == "infeasible"
    r = run(inst, formulation, solver)
    assert r.status == "optimal" and r.objective == 2


def test_hints_are_respected():
    inst, p = planted(3, 3, False, 0, 3, seed=11)
    hinted = Instance(3, 3, inst.tiles, (Hint(1, 1, p[0][0], 2), Hint(0, 2, p[4][0], 1)))
    results = {f: run(hinted, f, "cpsat") for f in ("baseline", "typed", "cpsat", "cpsat-table")}
    objectives = {f: r.objective for f, r in results.items()}
    assert all(r.status == "optimal" for r in results.values()), objectives
    assert len(set(objectives.values())) == 1
    for r in results.values():
        assert r.solution[4] == (p[0][0], 2) and r.solution[2] == (p[4][0], 1)


@pytest.mark.parametrize(("formulation", "solver"), PAIRS + [(None, a) for a in ("backtrack", "portfolio", "anneal")])
@pytest.mark.parametrize("mode", ["optimise", "decision"])
def test_a_hinted_tile_that_looks_the_same_turned_keeps_the_hints_turn(formulation, solver, mode):
    """A tile equal under a turn shows the hinted colours in several turns, and the decoders reported the first
    (turn 0) where the hint said 1: the simulator, which holds a hint to its turn, rejected the answer."""
    inst = Instance(
        2, 2, ((1, 2, 1, 2), (1, 1, 1, 1), (2, 1, 2, 1), (1, 1, 1, 1)), (Hint(0, 1, 1, 1), Hint(1, 0, 2, 3))
    )
    r = run(inst, formulation, solver, mode)
    assert r.status == "optimal" and r.objective == score(inst, r.solution) == exhaustive_optimum(inst), r.message
    assert r.solution[1] == (1, 1) and r.solution[2] == (2, 3)


def _random_instance(draw, side, frame):
    seed = draw(st.integers(0, 10**6))
    if frame:
        inst, _ = planted(side, side, True, draw(st.integers(1, 2)), draw(st.integers(1, 3)), seed)
        # recolour a few inner sides so the optimum is not always 0 (the frame stays intact)
        tiles = [list(t) for t in inst.tiles]
        for _ in range(draw(st.integers(0, 3))):
            t, s = draw(st.integers(0, len(tiles) - 1)), draw(st.integers(0, 3))
            if tiles[t][s]:
                tiles[t][s] = draw(st.integers(1, 4))
        return Instance(side, side, tuple(tuple(t) for t in tiles))
    colours = st.integers(1, draw(st.integers(1, 3)))
    tiles = tuple(tuple(draw(colours) for _ in range(4)) for _ in range(side * side))
    return Instance(side, side, tiles)


@st.composite
def small_instances(draw):
    return _random_instance(draw, draw(st.sampled_from([2, 3])), draw(st.booleans()))


@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(small_instances())
def test_every_formulation_matches_brute_force(inst):
    best = exhaustive_optimum(inst)
    for formulation in ("baseline", "typed", "cpsat", "cpsat-table"):
        solver = "cbc" if formulation in ("baseline", "typed") else "cpsat"
        r = run(inst, formulation, solver)
        if best is None:
            assert r.status == "infeasible", (formulation, r.message)
            continue
        assert r.status == "optimal", (formulation, r.message)
        assert r.objective == best == score(inst, r.solution), formulation
    for algorithm in ("backtrack", "portfolio"):
        r = solve(PROBLEM, inst, solver=algorithm, options=ONE, isolate=False)
        assert (r.status, r.objective) == (("optimal", best) if best is not None else ("infeasible", None))


def test_portfolio_proves_a_perfect_placement_in_its_first_phase():
    inst, _ = planted(6, 6, True, 2, 4, seed=5)
    r = solve(
        PROBLEM,
        inst,
        solver="portfolio",
        options=SolveOptions(threads=2, time_limit=30),
        isolate=False,
    )
    assert (r.status, r.objective, r.bound) == ("optimal", 0, 0) and score(inst, r.solution) == 0
    assert "perfect placement" in r.message


def test_portfolio_falls_back_to_the_optimise_model_when_no_placement_is_perfect():
    inst = Instance(2, 2, ((1, 1, 1, 1), (1, 1, 1, 1), (1, 1, 1, 1), (2, 2, 2, 2)))
    r = solve(PROBLEM, inst, solver="portfolio", options=ONE, isolate=False)
    assert (r.status, r.objective, r.bound) == ("optimal", 2, 2) and score(inst, r.solution) == 2
    r = solve(
        PROBLEM,
        inst,
        solver="portfolio",
        params={"mode": "decision"},
        options=ONE,
        isolate=False,
    )
    assert r.status == "infeasible"


def test_portfolio_proves_contradictory_hints_infeasible():
    inst, p = planted(3, 3, True, 1, 2, seed=3)
    centre_corner = Instance(3, 3, inst.tiles, (Hint(1, 1, p[0][0], 0),))
    r = solve(PROBLEM, centre_corner, solver="portfolio", options=ONE, isolate=False)
    assert r.status == "infeasible", r.message


def test_tiny_time_limit_is_never_optimal():
    inst, _ = planted(7, 7, True, 3, 6, seed=1)
    opts = SolveOptions(threads=1, time_limit=0.05)
    for formulation, solver in (
        ("cpsat", "cpsat"),
        ("typed", "cbc"),
        (None, "portfolio"),
    ):
        r = run(inst, formulation, solver, options=opts)
        if r.status == "optimal" and solver == "portfolio":  # proved only by a perfect placement
            assert r.objective == r.bound == score(inst, r.solution) == 0
            continue
        assert r.status in ("feasible", "unknown"), (formulation, r.status)
        if r.status == "feasible":
            assert r.objective == score(inst, r.solution) and r.objective > 0


def test_cpsat_decision_writes_a_certificate_that_verifies(tmp_path, capsys):
    """OR-Tools 9.15 gives the decision model's search_branching as an enum object; writing the certificate
    failed with "internal error: TypeError" on every `--solver cpsat --mode decision` solve."""
    import json

    from mipgames.cli import main
    from mipgames.edge_matching.instance import write

    inst, _ = planted(3, 4, True, 2, 2, seed=7)
    path, cert = tmp_path / "p.txt", tmp_path / "c.json"
    write(inst, path)
    args = ["solve", str(path), "--problem", "edge-matching", "--solver", "cpsat", "--mode", "decision"]
    assert main([*args, "--threads", "1", "--quiet", "--out", str(cert)]) == 0
    data = json.loads(cert.read_text())
    assert data["status"] == "optimal" and data["objective"] == 0
    assert data["solver_parameters"]["search_branching"] == "FIXED_SEARCH"
    assert main(["verify", str(cert)]) == 0
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize("rows,prove,joins", [(11, True, True), (11, False, False), (6, True, False)])
def test_phase_one_gives_the_backtracker_every_thread_and_cpsat_joins_only_large_decisions(
    rows, prove, joins, monkeypatch, tmp_path
):
    """Phase 1 is the backtracker's on every thread; on boards above SMALL cells, in decision mode only,
    CP-SAT's decision model joins a quarter of the way in (it can prove what the backtracker cannot)."""
    import time

    from mipgames.edge_matching import portfolio

    log = tmp_path / "members.txt"

    def kernel(out, inst, deadline, seed, threads=1):  # finds nothing, like a backtracker on a hard board
        with log.open("a") as f:
            f.write(f"kernel {threads} {time.monotonic()}\n")
        time.sleep(max(0.0, deadline - time.monotonic()))

    def cpsat(out, inst, params, deadline, seed, threads, hint):
        with log.open("a") as f:
            f.write(f"cpsat {threads} {time.monotonic()}\n")
        out.send("no_perfect", "fake cpsat")

    monkeypatch.setattr(portfolio, "_kernel_decision", kernel)
    monkeypatch.setattr(portfolio, "_cpsat", cpsat)
    inst, _ = planted(rows, rows, True, 2, 3, seed=1)
    best = portfolio.Best({"mode": "decision"}, 0, lambda *a, **k: None)
    start = time.monotonic()
    portfolio._phase(best, inst, {"mode": "decision"}, 2, 0, start + 1.6, decision=True, prove=prove)
    members = {line.split()[0]: line.split()[1:] for line in log.read_text().splitlines()}
    assert members["kernel"][0] == "2"
    assert ("cpsat" in members) == joins and (best.infeasible_by == "fake cpsat") == joins
    if joins:
        assert members["cpsat"][0] == "1"
        assert float(members["cpsat"][1]) >= start + portfolio.CPSAT_JOINS * 1.6 - 0.05


def test_frame_colour_none_solves_a_puzzle_whose_colours_start_at_zero(tmp_path, capsys):
    """The seed notebook numbers colours from 0 with no frame.  Read with the default (0 marks a frame) such a
    puzzle is impossible by counting, and the message names the flag; with --frame-colour none it is placed,
    its certificate verifies and reruns with the flag.  Before, the colour-count bound ignored the flag (bound
    1 beside a perfect placement: status error), and verify rejected the flag's null."""
    import json

    from mipgames.cli import main
    from mipgames.edge_matching.instance import write

    inst, _ = planted(3, 3, False, 0, 3, seed=2)
    from_zero = Instance(3, 3, tuple(tuple(c - 1 for c in t) for t in inst.tiles))
    assert any(0 in t for t in from_zero.tiles)
    assert PROBLEM.bound(from_zero, {"frame_colour": None})[0] == 0
    path, cert = tmp_path / "z.txt", tmp_path / "c.json"
    write(from_zero, path)
    args = ["solve", str(path), "--problem", "edge-matching", "--threads", "1", "--quiet", "--out", str(cert)]
    assert main(args) == 2
    assert "--frame-colour none" in capsys.readouterr().out
    assert main([*args, "--frame-colour", "2"]) == 2  # the message names the colour given, not the 0 it becomes
    said = capsys.readouterr().out
    assert "colour 2 marks a frame here" in said and "colour 0" not in said
    assert main([*args, "--frame-colour", "none"]) == 0
    data = json.loads(cert.read_text())
    assert (data["status"], data["objective"], data["bound"]) == ("optimal", 0, 0)
    assert data["params"]["frame_colour"] is None and "--frame-colour none" in data["rerun"]
    assert main(["verify", str(cert)]) == 0
    data["params"]["mode"] = None  # only a nullable parameter may be null
    cert.write_text(json.dumps(data))
    assert main(["verify", str(cert)]) == 1
    assert "Traceback" not in capsys.readouterr().err


def test_portfolio_gives_a_board_beyond_its_kernel_to_cpsat_and_says_so():
    """More colours than the compiled members' tables hold: an answer from CP-SAT alone and the placement made
    without search, not a refusal (it was exit 4, "use --solver cpsat")."""
    inst, _ = planted(24, 24, False, 0, 10**6, seed=1)
    assert len(inst.colours()) > 1023
    for mode in ("optimise", "decision"):
        r = solve(
            PROBLEM,
            inst,
            solver="portfolio",
            params={"mode": mode},
            options=SolveOptions(threads=1, time_limit=3),
            isolate=False,
        )
        assert "CP-SAT alone, since the backtracker takes at most 1023 distinct colours" in r.message, r.message
        if mode == "optimise":
            assert r.status in ("feasible", "optimal") and r.objective == score(inst, r.solution)
        else:
            assert r.status in ("unknown", "optimal"), r.status


def test_cpsat_alone_keeps_its_proof_that_no_perfect_placement_exists(monkeypatch):
    """On a board beyond the kernel, CP-SAT's INFEASIBLE on the decision model was recorded and then dropped:
    the answer said "unknown: no placement in time" although the question had been answered.  CP-SAT's
    proof is stood in for here (the message its member sends), since a real one takes longer than a test."""
    from mipgames.edge_matching import portfolio

    def proves_no_perfect(out, inst, params, deadline, seed, threads, hint):
        out.send("no_perfect", "cpsat (stand-in)")

    monkeypatch.setattr(portfolio, "_cpsat", proves_no_perfect)
    inst, _ = planted(24, 24, False, 0, 10**6, seed=1)
    r = portfolio.run_portfolio(
        inst, {"mode": "decision"}, SolveOptions(threads=1, time_limit=10), lambda *a, **k: None
    )
    assert r.status == "infeasible" and r.proved_by == "cpsat (stand-in)", (r.status, r.message)
    assert r.solution is None and "CP-SAT alone" in r.message


def test_the_anneal_baseline_refuses_a_board_it_cannot_set_up(tmp_path, capsys):
    """Its candidate lists grow as cells squared: a 70x70 board was killed at the deadline with no answer."""
    from mipgames.cli import main

    puzzle = tmp_path / "big.txt"
    assert (
        main(["generate", "edge-matching", "--rows", "33", "--cols", "32", "--inner-colours", "4", "-o", str(puzzle)])
        == 0
    )
    assert main(["solve", str(puzzle), "--problem", "edge-matching", "--solver", "anneal", "--quiet"]) == 4
    assert "takes boards of at most 1,024 cells; this one has 1,056" in capsys.readouterr().err


@pytest.mark.parametrize("text", ["\u00b3", "\u0663", "\uff13", "9" * 5000, "-1", "1e3"])
def test_a_frame_colour_is_ascii_digits_in_range(text):
    """``str.isdigit`` took '³' (then int() failed with Python's own words) and '٣' (read as 3), which the puzzle
    reader refuses as a colour; 5,000 nines failed int()'s digit limit (an audit found the first two)."""
    from mipgames.edge_matching.problem import parse_frame_colour

    with pytest.raises(ValueError, match="give none or a colour number|a colour is between"):
        parse_frame_colour(text)
    assert parse_frame_colour(" 007 ") == 7 and parse_frame_colour("None") is None
