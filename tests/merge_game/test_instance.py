"""Instance formats: both parse to the same instance, and every bad input names file and line."""

import json

import pytest

from mipgames.core.errors import InputError
from mipgames.merge_game.codec import instance_from_json as from_json
from mipgames.merge_game.codec import instance_to_json as to_json
from mipgames.merge_game.instance import (
    Hero,
    Instance,
    Stone,
    parse_attack,
    read,
    rules,
    write,
)

MAP = "name: demo\nattack: up3\nmax_level: 3\n# a comment\na2a.\n.b1a\n1a..\n"


def test_ascii_map_coordinates_and_hero_order(tmp_path):
    path = tmp_path / "demo.txt"
    path.write_text(MAP)
    inst = read(path)
    assert (inst.width, inst.height) == (4, 3)
    # reading order, (1, 1) bottom-left
    assert inst.heroes == (Hero(1, 3, 1), Hero(3, 3, 1), Hero(2, 2, 2), Hero(4, 2, 1), Hero(2, 1, 1))
    assert inst.stones == (Stone(2, 3, 2), Stone(3, 2, 1), Stone(1, 1, 1))
    assert inst.attack == "up3" and inst.max_level == 3 and inst.name == "demo"


def test_json_and_ascii_round_trip(tmp_path):
    path = tmp_path / "demo.txt"
    path.write_text(MAP)
    inst = read(path)
    for name in ("again.json", "again.map"):
        write(inst, tmp_path / name)
        assert read(tmp_path / name) == inst


def test_json_accepts_objects_and_size(tmp_path):
    data = {
        "size": 3,
        "heroes": [{"x": 1, "y": 1, "type": 2}],
        "stones": [[2, 1, 4]],
        "attack": [[0, 1], [1, 0]],
        "destroy_all": True,
    }
    inst = from_json(data)
    assert inst.heroes == (Hero(1, 1, 2),) and inst.stones == (Stone(2, 1, 4),)
    assert rules(inst, {}).attack == ((0, 1), (1, 0))
    assert rules(inst, {}).target == 1
    with pytest.raises(InputError, match='"size" and "width" and "height" both given'):
        from_json(dict(data, width=4, height=4))  # "size" won in silence


def test_params_override_file_values():
    inst = Instance(3, 3, (Hero(1, 1, 1),), (Stone(2, 1, 1), Stone(3, 3, 2)), "up", 1, False, 2)
    assert rules(inst, {}).attack == ((0, 1),) and rules(inst, {}).target == 1 and rules(inst, {}).max_level == 2
    r = rules(inst, {"attack": "right3", "target": 0, "max_level": 5})
    assert r.attack == parse_attack("right3") and r.target == 0 and r.max_level == 5
    assert rules(inst, {"destroy_all": True}).target == 2


@pytest.mark.parametrize(
    "text, line, words",
    [
        ("a.\n.0\n", 2, "hp 0"),
        ("a.\n.X\n", 2, "unknown symbol 'X'"),
        ("a.\n\t.\n", 2, "unknown symbol '\\t'"),  # was shown as '?'
        ("a.\n.\u00e9\n", 2, "unknown symbol '\u00e9'"),
        ("a..\n.1\n", 2, "2 cells"),
        ("a.\n.1a\n", 2, "3 cells"),  # a longer row too: its hero would stand off the map
        ("colour: red\na.\n", 1, "unknown header key"),
        ("attack: diagonal\na1\n", 1, "bad attack vector"),
        ("max_level: 0\na1\n", 1, "max_level must be between 1 and"),
        ("target: many\na1\n", 1, "target must be an integer"),
        ("destroy_all: maybe\na1\n", 1, "yes or no"),
        ("a1\nattack: up\n", 2, "after the map rows"),
        ("a.1\n\n..b\n", 2, "blank line inside the map"),  # was read as a 3x2 map, every row above shifted
        ("a.1\n# c\n\n\n..b\n", 3, "blank line inside the map"),
    ],
)
def test_bad_ascii_names_the_line(tmp_path, text, line, words):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(InputError) as err:
        read(path)
    assert err.value.line == line and err.value.path == str(path)
    assert words in str(err.value)


def test_blank_lines_around_the_map_and_comments_inside_it_are_read(tmp_path):
    path = tmp_path / "spaced.txt"
    path.write_text("\nattack: up\n\na.1\n# between rows\n..b\n\n\n")
    inst = read(path)
    assert (inst.width, inst.height) == (3, 2) and [(h.x, h.y) for h in inst.heroes] == [(1, 2), (3, 1)]


def test_empty_map(tmp_path):
    path = tmp_path / "empty.txt"
    path.write_text("# nothing\n")
    with pytest.raises(InputError, match="no map rows"):
        read(path)


GOOD = {"width": 3, "height": 2, "heroes": [[1, 1, 1], [2, 2, 1]], "stones": [[3, 1, 2]]}


def _dump(data):
    """One list element per line, as instance.write does."""
    lines = ["{"]
    items = list(data.items())
    for n, (k, v) in enumerate(items):
        end = "," if n < len(items) - 1 else ""
        if isinstance(v, list) and v and isinstance(v[0], list):
            lines.append(f'  "{k}": [')
            lines.extend("    " + json.dumps(e) + ("," if m < len(v) - 1 else "") for m, e in enumerate(v))
            lines.append("  ]" + end)
        else:
            lines.append(f'  "{k}": {json.dumps(v)}{end}')
    return "\n".join(lines + ["}"]) + "\n"


@pytest.mark.parametrize(
    "change, line, words",
    [
        ({"heroes": [[1, 1, 1], [3, 1, 1]]}, 9, "overlaps hero 1"),
        ({"heroes": [[1, 1, 1], [2, 3, 1]]}, 6, "off the 3x2 map"),
        ({"stones": [[3, 1, 0]]}, 9, "hp must be between 1 and"),
        ({"heroes": [[1, 1, 1], [2, 2, 0]]}, 6, "type must be between 1 and"),
        ({"heroes": [[1, 1, 1], [2, 2]]}, 6, "must be"),
        ({"heroes": [[1, 1, 1], [2, 2, "a"]]}, 6, "must be an integer"),
        ({"attack": "sideways"}, 11, "bad attack vector"),
        ({"colour": 1}, 11, "unknown key"),
        ({"max_level": 0}, 11, "max_level must be between 1 and"),
        ({"destroy_all": "yes"}, 11, "true or false"),
    ],
)
def test_bad_json_names_the_line(tmp_path, change, line, words):
    path = tmp_path / "bad.json"
    data = dict(GOOD)
    data.update(change)
    path.write_text(_dump(data))
    with pytest.raises(InputError) as err:
        read(path)
    assert words in str(err.value)
    assert err.value.line == line, str(err.value)


def test_broken_json_and_missing_keys(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{\n "width": 3,\n "height": \n}\n')
    with pytest.raises(InputError) as err:
        read(path)
    assert err.value.line == 4 and "not valid JSON" in str(err.value)
    path.write_text('{"width": 3, "height": 2, "stones": []}')
    with pytest.raises(InputError, match='missing "heroes"'):
        read(path)
    with pytest.raises(InputError, match="no such merge-game map"):
        read(tmp_path / "absent.json")


def test_ascii_cannot_hold_big_values(tmp_path):
    inst = Instance(2, 1, (Hero(1, 1, 30),), (Stone(2, 1, 12),))
    with pytest.raises(InputError, match="write a .json"):
        write(inst, tmp_path / "x.txt")
    write(inst, tmp_path / "x.json")
    assert read(tmp_path / "x.json").heroes == inst.heroes
    assert to_json(inst)["stones"] == [[2, 1, 12]]


TYPED = "attack: up\nattack b: right3\nattack 3: 0,-1\nab.\n1c2\n"


def test_attack_vector_per_type(tmp_path):
    path = tmp_path / "typed.txt"
    path.write_text(TYPED)
    inst = read(path)
    assert inst.type_attack == {2: "right3", 3: "0,-1"}
    rule = rules(inst, {})
    assert rule.of(1) == ((0, 1),) and rule.of(2) == parse_attack("right3") and rule.of(3) == ((0, -1),)
    assert rule.describe({1, 2}) == "a: up, b: right3" and rule.describe({1}) == "up"
    assert rules(inst, {"attack": "cross"}).of(2) == parse_attack("cross")  # --attack sets every type
    for name in ("again.json", "again.txt"):
        write(inst, tmp_path / name)
        assert read(tmp_path / name) == inst
    assert from_json(to_json(inst)) == inst
    assert to_json(inst)["type_attack"] == {"2": "right3", "3": "0,-1"}


@pytest.mark.parametrize(
    "text, line, words",
    [
        ("attack b: up\nattack b: up3\na1\n", 2, "given twice"),
        ("attack b: sideways\na1\n", 1, "bad attack vector"),
        ("attack 0: up\na1\n", 1, "between 1 and"),
        ("attack: 0,99999999999999999999999999999\na1\n", 1, "got a number of"),
        ("target: 100000000000000000000000000000\na1\n", 1, "got a number of"),
        ("target: -1\na1\n", 1, "between 0 and"),
        ("name: x\nname: y\na1\n", 2, "given twice"),
    ],
)
def test_bad_headers_name_the_line(tmp_path, text, line, words):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(InputError) as err:
        read(path)
    assert err.value.line == line and words in str(err.value), str(err.value)


@pytest.mark.parametrize(
    "change, words",
    [
        ({"type_attack": {"x": "up"}}, "keys are hero types"),
        ({"type_attack": {"2": 7}}, "preset name or a list"),
        ({"type_attack": ["up"]}, "must be an object"),
        ({"attack": [[0, 10**29]]}, "between"),
        ({"width": 10**29}, "between 1 and"),
        ({"stones": [[3, 1, 10**12]]}, "hp must be between 1 and"),  # said "between -1000000000 and"
        ({"stones": [[3, 1, 10**9 + 1]]}, "hp must be between 1 and"),
        # one type twice: the order of the keys decided which vector played
        ({"type_attack": {"1": "up", "01": "cross"}}, "gives type 1 twice"),
        ({"type_attack": {"\u0661": "up"}}, "keys are hero types"),  # an Arabic-Indic one was type 1
        ({"name": 5}, '"name" must be a string'),
    ],
)
def test_bad_json_values_are_refused(change, words):
    data = dict(GOOD)
    data.update(change)
    with pytest.raises(InputError, match=words):
        from_json(data)
