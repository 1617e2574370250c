"""The simulator applies merges exactly and names the first illegal one."""

import pytest

from mipgames.core.errors import InputError
from mipgames.merge_game.codec import solution_from_json
from mipgames.merge_game.instance import Hero, Instance, Stone
from mipgames.merge_game.simulate import evaluate

# Row y=1: a a b a ; stone hp 2 at (2, 2) above the second hero, stone hp 1 at (4, 2).
INST = Instance(
    4, 2, (Hero(1, 1, 1), Hero(2, 1, 1), Hero(3, 1, 2), Hero(4, 1, 1)), (Stone(2, 2, 2), Stone(4, 2, 1)), attack="up"
)


def test_legal_sequence_counts_stones_and_levels():
    v = evaluate(INST, {}, ((0, 1),))
    assert v.legal and v.objective == 0  # stone hp 2 took one hit
    v = evaluate(INST, {}, ((0, 1), (3, 1)))
    assert not v.legal and "different levels (1 vs 2)" in v.reason and v.measured["merge"] == 2
    v = evaluate(INST, {}, ((0, 3),))
    assert v.legal and v.objective == 1 and v.measured["destroyed"] == [1]
    assert evaluate(INST, {}, ()).objective == 0


def test_four_heroes_reach_level_three():
    inst = Instance(4, 2, tuple(Hero(x, 1, 1) for x in range(1, 5)), (Stone(2, 2, 2), Stone(4, 2, 1)), attack="up")
    v = evaluate(inst, {}, ((0, 1), (2, 3), (3, 1)))
    assert v.legal and v.objective == 2 and v.measured["final_levels"] == [1, 3, 1, 2]
    cap = evaluate(inst, {"max_level": 2}, ((0, 1), (2, 3), (3, 1)))
    assert not cap.legal and "merge 3" in cap.reason and "level cap 2" in cap.reason


@pytest.mark.parametrize(
    "merges, words",
    [
        (((0, 2),), "merge 1: heroes 0 and 2 have different types (1 vs 2)"),
        (((0, 0),), "merge 1: hero 0 cannot merge with itself"),
        (((0, 7),), "merge 1: hero 7 does not exist"),
        (((0, 1), (0, 3)), "merge 2: hero 0 is gone (merged into hero 1 at merge 1)"),
        (((-1, 1),), "does not exist"),
    ],
)
def test_illegal_merges(merges, words):
    v = evaluate(INST, {}, merges)
    assert not v.legal and v.objective is None and words in v.reason


def test_attack_param_changes_damage():
    # cross: hero 1 at (2, 1) hits (2, 2) too; custom offset list reaching two cells up misses.
    assert evaluate(INST, {"attack": "cross"}, ((0, 3),)).objective == 1
    assert evaluate(INST, {"attack": "0,2"}, ((0, 3),)).objective == 0


def test_unmet_target_is_illegal_never_a_yes():
    v = evaluate(INST, {"target": 2}, ((0, 3),))
    assert not v.legal and "short of the target 2" in v.reason
    assert not evaluate(INST, {"destroy_all": True}, ((0, 3),)).legal
    assert evaluate(INST, {"target": 1}, ((0, 3),)).legal


def test_solution_json():
    assert solution_from_json(INST, [[0, 1], [3, 1]]) == ((0, 1), (3, 1))
    assert solution_from_json(INST, {"merges": [[0, 3]]}) == ((0, 3),)
    for bad in ([[0]], [[0, "1"]], {"moves": []}, "0 1", [[True, 1]]):
        with pytest.raises(InputError):
            solution_from_json(INST, bad)


def test_each_type_attacks_with_its_own_vector(tmp_path):
    # a at (1, 1) hits up only; b at (3, 1) hits right3 only: (4, 2) yes, (3, 2) above it no
    inst = Instance(
        4,
        2,
        (Hero(1, 1, 1), Hero(2, 1, 1), Hero(3, 1, 2), Hero(4, 1, 2)),
        (Stone(1, 2, 1), Stone(3, 2, 1), Stone(4, 2, 1)),
        attack="up",
        type_attack={2: "right3"},
    )
    v = evaluate(inst, {}, ((1, 0), (3, 2)))
    assert v.legal and v.measured["destroyed"] == [0, 2]
    assert evaluate(inst, {"attack": "up"}, ((1, 0), (3, 2))).measured["destroyed"] == [0, 1]


def test_certificate_embeds_the_attack_vectors_and_verifies(tmp_path):
    import json

    from mipgames.cli import main as cli
    from mipgames.merge_game.codec import instance_from_json
    from mipgames.merge_game.instance import write

    inst = Instance(
        4,
        2,
        (Hero(1, 1, 1), Hero(2, 1, 1), Hero(3, 1, 2), Hero(4, 1, 2)),
        (Stone(1, 2, 1), Stone(3, 2, 1), Stone(4, 2, 1)),
        attack="up",
        type_attack={2: "right3"},
    )
    write(inst, tmp_path / "typed.txt")
    cert = tmp_path / "cert.json"
    assert (
        cli(
            [
                "solve",
                str(tmp_path / "typed.txt"),
                "--problem",
                "merge-game",
                "--solver",
                "cbc",
                "--out",
                str(cert),
                "--quiet",
            ]
        )
        == 0
    )
    data = json.loads(cert.read_text())
    assert data["objective"] == 2 and data["instance"]["type_attack"] == {"2": "right3"}
    assert instance_from_json(data["instance"]).type_attack == {2: "right3"}
    assert cli(["verify", str(cert)]) == 0
