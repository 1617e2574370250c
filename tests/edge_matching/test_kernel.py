"""The compiled search against its pure-Python twin and brute force; counts against CP-SAT enumeration;
the backtracker, the local search and the portfolio through the runner."""

import dataclasses
import random
import re
import time

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from mipgames.core.problem import SolveOptions
from mipgames.edge_matching.backtrack import LARGE, PINS, SLICE, TREE_EVERY, Restarts, _search, exact, luby
from mipgames.edge_matching.generate import planted
from mipgames.edge_matching.instance import Hint, Instance, read
from mipgames.edge_matching.kernel import EXHAUSTED
from mipgames.edge_matching.lns import score_search
from mipgames.edge_matching.problem import PROBLEM
from mipgames.edge_matching.search import (
    ORDERS,
    Search,
    fill_order,
    fill_reference,
    prepare,
)
from mipgames.edge_matching.simulate import hint_conflict, turned
from mipgames.run.runner import solve
from tests.display import DetailDisplay

from .helpers import (
    INSTANCES,
    cpsat_type_count,
    exhaustive_optimum,
    hints_kept,
    perfect_placements,
    score,
)

ONE = SolveOptions(threads=1, time_limit=60)


@st.composite
def small_instances(draw, max_cells=9):
    """Planted puzzles (frame or not) with a few sides recoloured, so some have no perfect placement."""
    rows = draw(st.integers(1, 3))
    cols = draw(st.integers(2, max(2, min(4, max_cells // rows))))
    frame = rows > 1 and draw(st.booleans())
    inst, placed = planted(
        rows,
        cols,
        frame,
        draw(st.integers(1, 2)),
        draw(st.integers(1, 3)),
        draw(st.integers(0, 10**6)),
    )
    tiles = [list(t) for t in inst.tiles]
    for _ in range(draw(st.integers(0, 2))):
        t, s = draw(st.integers(0, len(tiles) - 1)), draw(st.integers(0, 3))
        if tiles[t][s]:  # frame sides stay 0
            tiles[t][s] = draw(st.integers(1, 3))
    hints = ()
    if draw(st.booleans()):
        cell = draw(st.integers(0, inst.cells - 1))
        hints = (Hint(cell // cols, cell % cols, placed[cell][0], placed[cell][1]),)
    return Instance(rows, cols, tuple(tuple(t) for t in tiles), hints)


@st.composite
def hinted_instances(draw):
    """Drawn puzzles with up to three hints of any tile and turn, so that hinted neighbours may mismatch (the
    kernel never compares two fixed cells: its driver must)."""
    inst = draw(small_instances())
    cells = draw(st.lists(st.integers(0, inst.cells - 1), min_size=1, max_size=3, unique=True))
    tiles = draw(st.lists(st.integers(0, inst.cells - 1), min_size=len(cells), max_size=len(cells), unique=True))
    turns = draw(st.lists(st.integers(0, 3), min_size=len(cells), max_size=len(cells)))
    hints = tuple(Hint(i // inst.cols, i % inst.cols, t, a) for i, t, a in zip(cells, tiles, turns))
    return dataclasses.replace(inst, hints=hints)


def _kernel_and_twin(inst, order_kind, twin_up_to=None, **kw):
    """The kernel's search and its twin's; the twin only when the kernel made at most ``twin_up_to`` nodes
    (else None)."""
    pieces = prepare(inst, "exact")
    order = fill_order(inst, order_kind, pieces.fixed)
    s = Search(pieces, order, **kw)
    s.run()
    ref = fill_reference(pieces, order, **kw) if twin_up_to is None or s.nodes <= twin_up_to else None
    return pieces, order, s, ref


TWIN_NODES = 30_000
"""The twin replays counts up to this many nodes: a few drawn puzzles (one or two colours) have 10^5 nodes and
took most of the test's minute in pure Python; their counts are still checked against brute force."""


@settings(max_examples=120, deadline=None, derandomize=True)
@given(small_instances(), st.sampled_from(ORDERS), st.booleans())
def test_kernel_counts_like_its_twin_and_brute_force(inst, order_kind, look):
    pieces, _, s, ref = _kernel_and_twin(inst, order_kind, twin_up_to=TWIN_NODES, count=True, look=look)
    if ref is not None:
        assert (s.solutions, s.nodes) == (ref.solutions, ref.nodes)
    if not pieces.conflict:
        assert s.solutions * pieces.symmetry * pieces.copies_factor() == perfect_placements(inst)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(hinted_instances())
@example(Instance(1, 2, ((1, 1, 1, 1), (1, 1, 1, 1)), (Hint(0, 0, 0, 0), Hint(0, 1, 1, 0))))  # every cell hinted
@example(Instance(1, 2, ((1, 2, 1, 1), (1, 1, 1, 1)), (Hint(0, 0, 0, 0), Hint(0, 1, 1, 0))))  # and mismatched
@example(Instance(1, 2, ((1, 1, 1, 1), (1, 1, 1, 1)), (Hint(0, 0, 0, 1),)))  # a symmetric tile hinted turned
def test_counts_and_decisions_under_hints_are_brute_forces(inst):
    """Through the driver (``exact``), as the solvers call it: the count and the decision with hints, against
    brute force; hints that break the rules are refused before any search (``refusal``).  A board with every
    cell hinted had no solution at all (its search had no cell to place), so its one placement was called
    infeasible and the claim rule turned the answer into an error."""
    assume(not hint_conflict(inst))
    want = perfect_placements(inst)
    got = exact(inst, count=True, deadline=time.monotonic() + 30)
    assert got.stats["count_complete"] and got.stats["solutions"] == want
    found = exact(inst, deadline=time.monotonic() + 30)
    assert (found.placement is None) == (want == 0) and (found.placement is not None or found.exhausted)
    if found.placement is not None:
        assert score(inst, found.placement) == 0 and hints_kept(inst, found.placement)


@settings(max_examples=120, deadline=None, derandomize=True)
@given(small_instances(max_cells=6), st.sampled_from(ORDERS))  # the brute-force optimum is (cells! 4^cells)
@example(Instance(1, 2, ((1, 1, 1, 1), (2, 1, 1, 1)), (Hint(0, 1, 1, 3),)), "rows")  # the hint costs a mismatch
def test_kernel_branch_and_bound_matches_its_twin_and_the_optimum(inst, order_kind):
    cap = inst.inner_edges
    pieces, _order, s, ref = _kernel_and_twin(inst, order_kind, budget=[cap] * inst.cells, cap=cap, optimise=True)
    assert (s.best_breaks, s.nodes) == (ref.best_breaks, ref.nodes)
    if ref.best is not None:
        assert s.entries(best=True) == ref.best
        placement = s.placement(best=True)
        assert score(inst, placement) == s.best_breaks + pieces.fixed_breaks == exhaustive_optimum(inst)
        assert hints_kept(inst, placement)


@settings(max_examples=80, deadline=None, derandomize=True)
@given(small_instances(), st.booleans())
def test_exact_fill_finds_the_twins_first_solution(inst, look):
    _pieces, _, s, ref = _kernel_and_twin(inst, "rows", look=look)
    assert s.nodes == ref.nodes and (ref.best is None) == (s.solutions == 0)
    if ref.best is not None:
        assert s.entries() == ref.best and score(inst, s.placement()) == 0


@pytest.mark.parametrize("name", ["planted_5x5_frame.txt", "planted_4x6_frame.txt", "coursework_4x4.txt"])
def test_row_look_ahead_prunes_and_keeps_every_solution(name):
    """Looking a row ahead must cut nodes, never solutions (the kernel and its twin agree on both)."""
    inst = read(INSTANCES / name)
    pieces = prepare(inst, "exact")
    order = fill_order(inst, "rows", pieces.fixed)
    plain, looking = Search(pieces, order, count=True), Search(pieces, order, count=True, look=True)
    plain.run()
    looking.run()
    assert looking.solutions == plain.solutions > 0
    assert looking.nodes < plain.nodes


def test_row_look_ahead_counts_like_its_twin_on_a_board_of_four_rows():
    """A look a row ahead acts from the third row on, which few drawn puzzles reach: a planted 4 x 5 frame
    puzzle (15,462 nodes; the bundled 5x5 took the twin 10 s) is counted by both, node for node."""
    inst = planted(4, 5, True, 2, 4, 1)[0]
    pieces = prepare(inst, "exact")
    order = fill_order(inst, "rows", pieces.fixed)
    looking, plain = Search(pieces, order, count=True, look=True), Search(pieces, order, count=True)
    looking.run()
    plain.run()
    ref = fill_reference(pieces, order, count=True, look=True)
    assert (ref.solutions, ref.nodes) == (looking.solutions, looking.nodes)
    assert looking.solutions == plain.solutions > 0 and looking.nodes < plain.nodes


def test_guided_restarts_find_what_plain_ones_miss_and_the_kinds_take_turns():
    """Planted 9x9 seed 6: guided restarts (rarest colours first, the row look) place it within 1 M nodes,
    plain shuffles not in 5 M; (False, True) alternates the two kinds."""
    inst = planted(9, 9, True, 3, 7, 6)[0]
    pieces = prepare(inst, "any")
    cells = fill_order(inst, "rows", pieces.fixed)
    guided = Restarts(pieces, cells, 0, (True,))
    found = guided.run(1_000_000)
    assert found is not None and PROBLEM.evaluate(inst, {"mode": "decision"}, found).objective == 0
    assert Restarts(pieces, cells, 0, (False,)).run(5_000_000) is None
    turns = Restarts(pieces, cells, 0, (False, True))
    kinds = []
    for _ in range(4):
        turns.left = 0  # end the current restart: the next call starts the next one
        turns.run(1)
        kinds.append(bool(turns.current.look[0].any()))  # the row look is on
    assert kinds == [False, True, False, True]


@settings(max_examples=40, deadline=None, derandomize=True)
@given(small_instances())
def test_every_pinned_tile_folds_the_board_turns_without_losing_a_placement(inst):
    """Each tile the symmetry fold may pin gives a tree whose count, times the fold, is brute force's."""
    pieces = prepare(inst, "exact")
    order = fill_order(inst, "rows", pieces.fixed)
    for pin in range(pieces.pins):
        p = prepare(inst, "exact", pin=pin)
        s = Search(p, order, count=True)
        s.run()
        assert s.solutions * p.symmetry * p.copies_factor() == perfect_placements(inst)


@pytest.mark.parametrize("name", ["planted_5x5_frame.txt", "coursework_4x4.txt"])
def test_pins_choose_different_tiles_and_count_alike(name):
    """Every pin names its own tile; the trees of four of them (coursework_4x4 has 16, 0.5 s each; every pin of
    the drawn puzzles is counted above) count the same placements."""
    inst = read(INSTANCES / name)
    pieces = prepare(inst, "exact")
    order = fill_order(inst, "rows", pieces.fixed)
    notes, counts = set(), set()
    for pin in range(pieces.pins):
        p = prepare(inst, "exact", pin=pin)
        notes.add(p.symmetry_note)
        if pin % max(1, pieces.pins // 4) == 0:
            s = Search(p, order, count=True, look=True)
            s.run()
            counts.add(s.solutions * p.symmetry * p.copies_factor())
    assert len(notes) == pieces.pins and len(counts) == 1


def _decide(inst, **kwargs):
    """One whole (unsplit) decision search in this process, with the guided worker's PINS trees."""
    return _search(
        inst, count=False, optimise=False, cap=0, symmetry="any", order="rows", split=(-1, 1, 0), pins=PINS, **kwargs
    )


def test_a_decision_searches_another_pinned_tree_beside_the_first():
    """Planted 7x7 seed 4 has two corner tiles to pin: the first's tree reaches its first placement after
    2,935,170 nodes, the second's after 1,607,553.  With the restarts off, the second tree has every other
    slice, so its placement comes after one full slice of the first tree, and it replays with no mismatch."""
    inst = planted(7, 7, True, 3, 6, 4)[0]
    assert prepare(inst, "any").pins == 2
    out = _decide(inst, deadline=None, restarts=False)
    assert not out.exhausted and out.nodes == SLICE + 1_607_553
    assert PROBLEM.evaluate(inst, {"mode": "decision"}, out.placement).objective == 0


@pytest.mark.parametrize("rows,others_per_slice", [(10, 1), (11, TREE_EVERY)])
def test_large_decisions_give_the_restarts_most_slices_and_search_one_tree(rows, others_per_slice, monkeypatch):
    """Above LARGE cells the complete search takes one slice for every TREE_EVERY of the restarts and no other
    pin's tree is searched (em_14_7_3's placements come from restarts); up to it, one for one, the restarts
    and the other pins' trees taking turns in the second half."""
    from mipgames.edge_matching import kernel, search

    slices: dict[int, int] = {}
    built: list[int] = []
    restarts = [0]
    init = search.Search.__init__

    def counted_init(self, *args, **kwargs):
        built.append(id(self))
        init(self, *args, **kwargs)

    def tree_run(self, nodes):
        slices[id(self)] = slices.get(id(self), 0) + 1
        return kernel.RUNNING

    def restarts_run(self, nodes):
        restarts[0] += 1
        return None

    monkeypatch.setattr(search.Search, "__init__", counted_init)
    monkeypatch.setattr(search.Search, "run", tree_run)
    monkeypatch.setattr(Restarts, "run", restarts_run)
    inst = planted(rows, rows, True, 3, 6, 1)[0]
    assert (inst.cells > LARGE) == (others_per_slice > 1)
    out = _decide(inst, deadline=time.monotonic() + 0.3)
    assert out.placement is None and not out.exhausted
    first = slices[built[0]]
    pins = sum(slices.get(i, 0) for i in built[1:])
    assert len(built) == (1 if others_per_slice > 1 else PINS) and first >= 10
    assert abs((restarts[0] + pins) / first - others_per_slice) < 0.01
    if pins:
        assert abs(pins - restarts[0]) <= 1


def test_every_worker_of_a_split_decision_searches_the_pinned_trees(monkeypatch, tmp_path):
    """Both workers get PINS trees (stop 44 gave them to the guided one only); the kinds of restarts differ."""
    import mipgames.edge_matching.backtrack as backtrack
    from mipgames.edge_matching.backtrack import Outcome

    log = tmp_path / "parts.txt"

    def part(
        out,
        inst,
        count,
        optimise,
        cap,
        symmetry,
        order,
        split,
        deadline,
        seed,
        look=True,
        guided=(False,),
        pins=1,
        tell_nodes=False,
    ):
        with log.open("a") as f:
            f.write(f"{split[2]} {int(guided[0])} {pins}\n")
        out.send("done", Outcome(True))

    monkeypatch.setattr(backtrack, "_part", part)
    out = exact(planted(6, 6, True, 2, 4, 5)[0], threads=2, deadline=time.monotonic() + 10)
    assert out.exhausted  # both fake parts said so
    assert sorted(log.read_text().split("\n")[:-1]) == [f"0 0 {PINS}", f"1 1 {PINS}"]


def test_luby_sequence():
    assert [luby(i) for i in range(1, 16)] == [
        1,
        1,
        2,
        1,
        1,
        2,
        4,
        1,
        1,
        2,
        1,
        1,
        2,
        4,
        8,
    ]


@pytest.mark.parametrize(("threads", "look"), [(1, False), (2, False), (2, True)])
def test_counts_agree_with_cpsat_enumeration(threads, look):
    """The bundled 5x5 frame puzzle and fresh 5x5/6x6 ones with enough colours to be countable (the other
    bundled 5x5/6x6 puzzles have over 10^9 placements: neither counter finishes in a test)."""
    cases = [read(INSTANCES / "planted_5x5_frame.txt")] + [
        planted(*args)[0]
        for args in (
            (5, 5, True, 3, 5, 1),
            (5, 5, True, 3, 5, 2),
            (6, 6, True, 4, 8, 4),
            (6, 6, True, 5, 9, 1),
        )
    ]
    for inst in cases:
        got = exact(inst, count=True, threads=threads, deadline=time.monotonic() + 30, look=look)
        assert got.stats["count_complete"]
        assert got.stats["solutions"] == cpsat_type_count(inst) * prepare(inst, "exact").copies_factor() > 0


@pytest.mark.parametrize(
    ("name", "hinted"),
    [("planted_5x5_free", 10), ("planted_5x5_free", 12), ("planted_6x6_frame", 4), ("planted_6x6_frame", 6)]
    + [("planted_6x6_free", 14), ("planted_6x6_free", 16)],
)
def test_counts_agree_with_cpsat_on_hinted_parts_of_the_other_bundled_puzzles(name, hinted):
    """The bundled 5x5/6x6 puzzles the test above cannot count whole (10^9 to 10^11 placements and more) are
    counted in parts: some cells of a perfect placement given as hints (seeded choices of cells), the rest
    counted by the backtracker (one thread and two) and by CP-SAT's enumeration.  The same cells with one hint
    turned (within the frame rule) have a count too (mostly none), which both must give alike."""
    inst = read(INSTANCES / f"{name}.txt")
    solution = exact(inst, deadline=time.monotonic() + 30).placement
    assert score(inst, solution) == 0
    for seed in (0, 1):
        cells = sorted(random.Random(seed).sample(range(inst.cells), hinted))
        hints = [Hint(i // inst.cols, i % inst.cols, *solution[i]) for i in cells]
        twists = (
            hints[:k] + [dataclasses.replace(hints[k], turns=(hints[k].turns + 1) % 4)] + hints[k + 1 :]
            for k in reversed(range(hinted))
        )  # the last hint that still obeys the frame when turned
        twisted = next(t for t in twists if not hint_conflict(dataclasses.replace(inst, hints=tuple(t))))
        for chosen, threads in ((hints, 1 + seed), (twisted, 1)):
            part = dataclasses.replace(inst, hints=tuple(chosen))
            got = exact(part, count=True, threads=threads, deadline=time.monotonic() + 30)
            assert got.stats["count_complete"]
            types = cpsat_type_count(part)
            assert types is not None, f"CP-SAT did not finish the count of {name} with hints {chosen}"
            assert got.stats["solutions"] == types * prepare(part, "exact").copies_factor()
            assert got.stats["solutions"] > 0 or chosen is twisted


def test_hinted_neighbours_that_mismatch_rule_out_perfect_placements_only():
    """Two hinted cells whose shared edge mismatches: the kernel never compares two fixed cells, so `--count`
    counted 2,068 "perfect" placements that each mismatch there, claimed 0 and was caught by the replay
    (status error), and a decision's placement had a mismatch.  Now a decision is refused by the hints, a
    count finds none, and the optimum is that one mismatch."""
    inst = read(INSTANCES / "planted_5x5_free.txt")
    solution = exact(inst, deadline=time.monotonic() + 30).placement
    (t0, a0), (t1, _) = solution[0], solution[1]
    right = turned(inst.tiles[t0], a0)[1]
    a1 = next(a for a in range(4) if turned(inst.tiles[t1], a)[3] != right)
    part = dataclasses.replace(inst, hints=(Hint(0, 0, t0, a0), Hint(0, 1, t1, a1)))
    pieces = prepare(part, "exact")
    order = fill_order(part, "rows", pieces.fixed)
    kernel, twin = Search(pieces, order, count=True), fill_reference(pieces, order, count=True, max_nodes=10_000)
    assert kernel.run(1_000_000) == EXHAUSTED and kernel.solutions == twin.solutions == 0 and twin.complete
    for threads in (1, 2):
        got = exact(part, count=True, threads=threads, deadline=time.monotonic() + 30)
        assert got.stats["count_complete"] and got.stats["solutions"] == 0 and got.placement is None
        assert exact(part, threads=threads, deadline=time.monotonic() + 30).placement is None
    opts = SolveOptions(threads=2, time_limit=30)
    refused = solve(PROBLEM, part, solver="backtrack", params={"mode": "decision"}, options=opts, isolate=False)
    assert refused.status == "infeasible" and "show colours" in refused.message, refused.message
    counted = solve(PROBLEM, part, solver="backtrack", params={"count": True}, options=opts, isolate=False)
    assert counted.status == "optimal" and counted.objective == 1 == score(part, counted.solution)
    assert counted.message.startswith("0 perfect placements"), counted.message


def test_count_through_the_runner_lands_in_the_result():
    inst = read(INSTANCES / "planted_5x5_frame.txt")
    r = solve(
        PROBLEM,
        inst,
        solver="backtrack",
        params={"count": True},
        options=ONE,
        isolate=False,
    )
    assert r.status == "optimal" and score(inst, r.solution) == 0 and r.message.startswith("453888 perfect placements")
    # the algorithm's own Result carries the count for the certificate (a runner that copies algorithm stats)
    out = PROBLEM.algorithms["backtrack"].run(inst, {"count": True}, ONE, lambda *a: None)
    assert out.stats["solutions"] == 453888 and out.stats["count_complete"]
    assert "quarter turn" in out.stats["symmetry_note"]


@pytest.mark.parametrize("solver, threads", [("backtrack", 1), ("backtrack", 2), ("portfolio", 1), ("portfolio", 2)])
def test_a_long_decision_shows_its_nodes_and_their_rate(solver, threads):
    """A decision search the minute does not settle (planted 10x10, 4 + 8 colours) showed no sign of its work
    beside "incumbent -": its nodes so far and their rate go on the progress line, as a count's placements do."""
    inst, _ = planted(10, 10, True, 4, 8, seed=1)
    display = DetailDisplay()
    opts = SolveOptions(threads=threads, time_limit=5)
    r = solve(PROBLEM, inst, solver=solver, params={"mode": "decision"}, options=opts, progress=display)
    assert r.status == "unknown" and display.shown
    assert all(re.fullmatch(r"[\d,.e+]+ nodes( \([\d,.e+]+/s\))?", d) for d in display.shown), display.shown
    counts = [float(d.split()[0].replace(",", "")) for d in display.shown]
    assert counts == sorted(counts) and counts[-1] > 1e6 and any("/s)" in d for d in display.shown)


def test_the_backtrackers_nodes_leave_the_progress_line_when_the_local_search_takes_over():
    """In optimise mode the backtracker has the first part of the time; its last count stood beside the local
    search's answers for the rest of the run, its rate frozen."""
    inst, _ = planted(10, 10, True, 4, 8, seed=1)
    display = DetailDisplay()
    r = solve(PROBLEM, inst, solver="portfolio", options=SolveOptions(threads=2, time_limit=6), progress=display)
    assert r.status == "feasible" and any(d.endswith("/s)") for d in display.shown)
    assert display.shown[-1] == ""


@pytest.mark.parametrize("threads", [1, 2])
def test_a_long_count_shows_the_placements_found_so_far(threads):
    """Two colours on a 6x6 board: millions of perfect placements, so the count runs into its time limit."""
    inst, _ = planted(6, 6, False, 2, 2, seed=1)

    display = DetailDisplay()
    opts = SolveOptions(threads=threads, time_limit=4)
    r = solve(PROBLEM, inst, solver="backtrack", params={"count": True}, options=opts, progress=display)
    assert display.shown and all(re.fullmatch(r"[\d,]+ perfect placements so far, \S+ nodes", d) for d in display.shown)
    counts = [int(d.split()[0].replace(",", "")) for d in display.shown]
    assert counts == sorted(counts) and counts[-1] > 0
    found = int(re.match(r"at least (\d+) perfect placements", r.message).group(1))
    assert r.status == "optimal" and counts[-1] <= found


@pytest.mark.parametrize("threads", [1, 2])
def test_backtracker_proves_no_perfect_placement(threads):
    inst, _ = planted(4, 4, True, 2, 3, seed=5)
    tiles = [list(t) for t in inst.tiles]
    inner = next(i for i, t in enumerate(tiles) if 0 not in t)
    tiles[inner][0] = 9  # a colour no other tile shows: some inner edge must break
    bad = Instance(4, 4, tuple(tuple(t) for t in tiles))
    opts = SolveOptions(threads=threads, time_limit=60)
    r = solve(
        PROBLEM,
        bad,
        solver="backtrack",
        params={"mode": "decision"},
        options=opts,
        isolate=False,
    )
    assert r.status == "infeasible"
    r = solve(PROBLEM, bad, solver="backtrack", options=opts, isolate=False)
    assert r.status == "optimal" and r.objective == score(bad, r.solution) >= 1


ONE_ODD_TILE = Instance(3, 3, ((1, 1, 1, 1),) * 2 + ((2, 1, 3, 1),) + ((1, 1, 1, 1),) * 6)
"""Eight equal tiles: the brute-force optimum once tried their 8! orders (hours; found by ``make stress``)."""


@settings(max_examples=25, deadline=None, derandomize=True)
@given(small_instances(), st.integers(0, 100))
@example(ONE_ODD_TILE, 80)
def test_local_search_reaches_the_optimum_of_small_boards(inst, seed):
    best = exhaustive_optimum(inst)
    if best is None:
        return
    total, placement = score_search(inst, time.monotonic() + 30, seed, target=best)
    assert total == best == score(inst, placement) and hints_kept(inst, placement)


@pytest.mark.parametrize("threads", [1, 2])
def test_portfolio_solves_planted_puzzles(threads):
    opts = SolveOptions(threads=threads, time_limit=60)
    for inst in (
        planted(6, 6, True, 3, 5, seed=8)[0],
        planted(5, 5, False, 0, 4, seed=2)[0],
    ):
        r = solve(PROBLEM, inst, solver="portfolio", options=opts, isolate=False)
        assert r.status == "optimal" and r.objective == 0 == score(inst, r.solution)


@pytest.mark.parametrize("name", ["planted_5x5_frame.txt", "coursework_4x4.txt"])
def test_rare_colours_first_reorders_buckets_and_keeps_the_tree(name):
    """Rarest colours first is an order within each bucket: same entries, same count, same nodes."""
    import numpy as np

    inst = read(INSTANCES / name)
    pieces = prepare(inst, "exact")
    order = fill_order(inst, "rows", pieces.fixed)
    plain, rare = (
        Search(pieces, order, count=True, look=True),
        Search(pieces, order, count=True, look=True, rare_first=True),
    )
    assert list(plain.tstart) == list(rare.tstart) and list(plain.tlist) != list(rare.tlist)
    sides = np.zeros(pieces.K)
    for t, members in enumerate(pieces.types):
        np.add.at(sides, pieces.ent_col[np.nonzero(pieces.ent_type == t)[0][0]], len(members))
    for lo, hi in zip(rare.tstart[:-1], rare.tstart[1:], strict=True):
        assert sorted(plain.tlist[lo:hi]) == sorted(rare.tlist[lo:hi])
        rarity = [sum(1 / sides[c] for c in pieces.ent_col[e]) for e in rare.tlist[lo:hi]]
        assert all(a >= b - 1e-9 for a, b in zip(rarity, rarity[1:]))
        assert list(rare.ttype[lo:hi]) == [int(pieces.ent_type[e]) for e in rare.tlist[lo:hi]]
    plain.run()
    rare.run()
    assert (rare.solutions, rare.nodes) == (plain.solutions, plain.nodes) and rare.solutions > 0
    first = Search(pieces, order, look=True, rare_first=True)
    first.run()
    assert first.solutions == 1 and score(inst, first.placement()) == 0
