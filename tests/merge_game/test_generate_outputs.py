"""A reduction map and its graph file are checked together before either is written (fault: ``-o g.graph``
wrote the map, then replaced it with the graph; a folder or link at ``g.graph`` left a map without graph)."""

from __future__ import annotations

import pytest

from mipgames.cli import main as cli
from mipgames.core.errors import OutputError
from mipgames.merge_game.generate import reduction_map
from mipgames.merge_game.graphs import graph_path
from mipgames.merge_game.instance import read, write
from tests.fuzzing import (
    BLOCKERS,
    blocked_companion_refused,
    companion_name_refused,
    companion_of_another_kept,
    listing,
)

ARGS = ["generate", "merge-game", "--kind", "reduction", "--vertices", "8", "--seed", "1"]


@pytest.mark.parametrize("name", ["g1.graph", "g1.Graph"])
def test_a_map_named_like_its_graph_file_is_refused(tmp_path, capsys, name):
    companion_name_refused(capsys, ARGS, tmp_path / name)


def test_a_random_map_has_no_graph_and_may_end_in_graph(tmp_path):
    assert cli(["generate", "merge-game", "--size", "4", "-o", str(tmp_path / "r.graph")]) == 0
    assert listing(tmp_path) == ["r.graph"] and read(tmp_path / "r.graph").width == 4


@pytest.mark.parametrize("blocker", BLOCKERS)
def test_a_bad_graph_path_is_refused_before_the_map_is_written(tmp_path, capsys, blocker):
    blocked_companion_refused(capsys, ARGS, tmp_path / "g.txt", tmp_path / "g.graph", blocker)


@pytest.fixture(scope="module")
def reduction():
    return reduction_map(8, seed=1)


def test_the_writer_checks_both_paths_before_writing(tmp_path, reduction):
    target = tmp_path / "m.txt"
    target.write_text("old map\n")
    graph_path(target).symlink_to(tmp_path / "nowhere")
    with pytest.raises(OutputError):
        write(reduction, target)
    assert target.read_text() == "old map\n" and listing(tmp_path) == ["m.graph", "m.txt"]
    with pytest.raises(OutputError, match="another extension"):
        write(reduction, tmp_path / "m2.graph")
    assert not (tmp_path / "m2.graph").exists()


@pytest.mark.parametrize("name", ["m.txt", "m.json"])
def test_map_and_graph_are_written_together(tmp_path, reduction, name):
    write(reduction, tmp_path / name)
    assert listing(tmp_path) == sorted([name, "m.graph"])
    back = read(tmp_path / name)
    assert (back.heroes, back.stones) == (reduction.heroes, reduction.stones)
    assert (tmp_path / "m.graph").read_text().startswith("c planar graph")


def test_a_map_without_a_graph_removes_the_graph_of_the_map_it_replaced(tmp_path):
    out = tmp_path / "m.txt"
    write(reduction_map(6, seed=1, answer="yes"), out)
    assert listing(tmp_path) == ["m.graph", "m.txt"]
    write(read(out).__class__(**{**vars(read(out)), "meta": {}}), out)
    assert listing(tmp_path) == ["m.txt"]


def test_a_map_named_like_another_maps_graph_leaves_it_alone(tmp_path, capsys):
    companion_of_another_kept(capsys, ARGS, ["generate", "merge-game", "--size", "4"], tmp_path)


def _readme_commands() -> list[tuple[list[str], list[str]]]:
    """The generator commands of instances/merge_game/README.md: (arguments, header lines the comment adds)."""
    from pathlib import Path

    readme = Path(__file__).resolve().parents[2] / "instances" / "merge_game" / "README.md"
    commands = []
    for line in readme.read_text().splitlines():
        if line.strip().startswith("mipgames generate merge-game"):
            command, _, comment = line.strip().partition("#")
            added = [part.strip().strip('"') for part in comment.removeprefix(" +").split(",")] if comment else []
            commands.append((command.split()[1:], [a for a in added if a]))
    return commands


@pytest.mark.parametrize(("args", "added"), _readme_commands(), ids=lambda v: v[-1] if v and v[0] == "generate" else "")
def test_the_bundled_generated_maps_are_what_their_readme_commands_write(args, added, tmp_path):
    """The README said the files regenerate with these commands; they lacked the `optimum:` line it left
    unsaid (and the up3 map's comment named one of its two added lines)."""
    from pathlib import Path

    bundled = Path(__file__).resolve().parents[2] / "instances" / "merge_game" / args[args.index("-o") + 1]
    out = tmp_path / bundled.name
    assert cli([*args[: args.index("-o")], "-o", str(out)]) == 0
    lines = bundled.read_text().splitlines()
    assert all(line in lines for line in added)

    def body(text: str) -> list[str]:
        return [line for line in text.splitlines() if not line.startswith("optimum:") and line not in added]

    assert body(out.read_text()) == body(bundled.read_text())
    if bundled.with_suffix(".graph").exists():
        assert out.with_suffix(".graph").read_text() == bundled.with_suffix(".graph").read_text()
