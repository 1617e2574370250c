"""What the merge-game generators promise beyond a readable file: the counts, types and hit points asked for, and
reduction maps labelled yes or no only on a proved vertex cover of a graph with an odd cycle."""

from __future__ import annotations

import pytest

from mipgames.cli import main as cli
from mipgames.core.errors import UsageError
from mipgames.merge_game.generate import random_map, reduction_map
from mipgames.merge_game.graphs import odd_cycle, random_drawing
from mipgames.merge_game.instance import read


def test_types_and_hit_points_span_the_ranges_asked_for():
    """30 stones with hit points 2-5 and 20 heroes of 3 types on a 9x9 map: every value in range is drawn (seeded),
    none outside it."""
    inst = random_map(9, 9, 20, 30, types=3, hp=(2, 5), seed=1)
    assert (len(inst.heroes), len(inst.stones)) == (20, 30)
    assert {s.hp for s in inst.stones} == {2, 3, 4, 5}
    assert {h.type for h in inst.heroes} == {1, 2, 3}
    assert random_map(9, 9, 20, 30, types=3, hp=(2, 5), seed=1) == inst


def test_zero_heroes_asked_for_is_zero_heroes(tmp_path):
    """``--heroes 0`` is a count, not "unset": the default density (a fifth of the cells) must not replace it."""
    out = tmp_path / "m.txt"
    assert cli(["generate", "merge-game", "--size", "5", "--heroes", "0", "--stones", "3", "-o", str(out)]) == 0
    inst = read(out)
    assert (len(inst.heroes), len(inst.stones)) == (0, 3)


def test_a_vertex_cover_not_proved_optimal_labels_no_map(monkeypatch):
    """A reduction map is labelled yes or no by the graph's vertex cover tau; a tau that CP-SAT stopped on
    without proving it could be too large, and the "no" map (k = tau - 1) a yes.  The generator refuses then
    and asks for --k; it does not label the map."""
    from ortools.sat.python import cp_model

    solve = cp_model.CpSolver.solve

    def stopped(self, model, *args, **kwargs):
        solve(self, model, *args, **kwargs)
        return cp_model.FEASIBLE  # as when the time limit stops it holding a cover it has not proved minimum

    monkeypatch.setattr(cp_model.CpSolver, "solve", stopped)
    with pytest.raises(UsageError, match="not proved optimal"):
        reduction_map(8, seed=1, answer="no")


def two_colourable(n: int, edges: list[tuple[int, int]]) -> bool:
    """Bipartite by trying every 2-colouring (small graphs only): independent of ``odd_cycle``'s search."""
    return any(all((mask >> u & 1) != (mask >> v & 1) for u, v in edges) for mask in range(1 << n))


def test_odd_cycles_are_told_from_bipartite_graphs():
    """The reduction needs graphs with an odd cycle (vertex cover is easy on bipartite ones, by Konig): a square
    and a path are bipartite, a triangle or a pentagon with a chord is not, and every drawing is not."""
    square, path = [(0, 1), (1, 2), (2, 3), (3, 0)], [(0, 1), (1, 2), (2, 3)]
    triangle, pentagon = [(0, 1), (1, 2), (2, 0)], [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0), (0, 2)]
    assert not odd_cycle(4, square) and not odd_cycle(4, path)
    assert odd_cycle(3, triangle) and odd_cycle(5, pentagon)
    for n, seed in ((6, 1), (9, 2), (12, 3)):
        drawing = random_drawing(n, seed)
        assert not two_colourable(drawing.n, list(drawing.edges))


@pytest.mark.parametrize(
    "options,says",
    [
        (["--size", "3", "--width", "5"], "--size sets both --width and --height"),
        (["--kind", "reduction", "--vertices", "6", "--k", "5", "--answer", "yes"], "give one"),
        (["--kind", "reduction", "--size", "5"], "--size does not apply to --kind reduction maps"),
        (["--vertices", "6"], "--vertices does not apply to --kind random maps"),
        (["--size", "5", "--heroes", "3", "--hero-density", "0.5"], "--heroes and --hero-density both set"),
        (["--size", "5", "--hp-max", "20"], "standard output takes an ASCII map, which holds types 1-26 and hp 1-9"),
        (["--kind", "reduction", "--vertices", "1"], "--vertices: must be from 3"),
        (["--kind", "reduction", "--edge-factor", "0"], "--edge-factor: must be a finite number from 0.5"),
    ],
)
def test_options_of_the_other_kind_or_that_contradict_are_refused(options, says, capsys):
    """They were dropped in silence (--width beside --size, --k beside --answer, a reduction's --vertices on a
    random map), or refused with a range the option's help contradicted, or only after the map was made."""
    from mipgames.cli import main

    assert main(["generate", "merge-game", *options]) == 4
    assert says in capsys.readouterr().err
