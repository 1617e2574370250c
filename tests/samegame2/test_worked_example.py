"""The spec's worked example: four moves, the boards after each, and 6 blocks at the end."""

from __future__ import annotations

import io

from mipgames.samegame2.commands import main
from mipgames.samegame2.plane import Plane, count_blocks

LETTER = {"V": "verde", "B": "blu", "R": "rosso"}

START = """\
V V B V B B R R
V B V V B V R B
B V V V V R R V
B V V V R B B V"""

AFTER = [
    (
        (2, 1, 0, 100, 0, 20),
        0,
        0,
        """\
V . . . B R R .
V . . B V R B .
B V . B R R V .
B B B R B B V .""",
    ),
    (
        (5, 1, 3, 6, 1, 2),
        0,
        0,
        """\
V . . . B R R .
V . . B . B . .
B V . B V V . .
B B B R B B V .""",
    ),
    (
        (0, 0, 0, 3, 0, 2),
        0,
        0,
        """\
V . . . B R R .
. . B . . B . .
. . B . V V . .
V V R . B B V .""",
    ),
    (
        (4, 1, -100, 1000, -200, 500),
        -100,
        -200,
        """\
. . . . . .
. . B . R .
V . B B B R
V V R B B V""",
    ),
]


def balls_of(picture: str, x0: int, y0: int) -> dict[tuple[int, int], str]:
    rows = picture.splitlines()
    return {
        (x0 + h, y0 + len(rows) - 1 - k): LETTER[s]
        for k, row in enumerate(rows)
        for h, s in enumerate(row.split())
        if s != "."
    }


def test_worked_example_boards_and_blocks() -> None:
    plane = Plane()
    for (x, y), colour in balls_of(START, 0, 0).items():
        plane.put(x, y, colour)
    removed = []
    for move, x0, y0, picture in AFTER:
        removed.append(plane.move(*move))
        assert plane.balls == balls_of(picture, x0, y0)
    assert removed == [10, 3, 4, 2]
    assert plane.block_count() == 6 == count_blocks(plane.balls)


def test_worked_example_through_the_interpreter(tmp_path, monkeypatch) -> None:
    rows = START.splitlines()[::-1]  # the file's first line lands on the lowest row
    (tmp_path / "board.txt").write_text("\n".join(" ".join(LETTER[s] for s in r.split()) for r in rows) + "\n")
    monkeypatch.chdir(tmp_path)
    script = (
        "i 4 8 0 0 board.txt\nn\n"
        + "".join("m " + " ".join(map(str, move)) + "\nn\n" for move, *_ in AFTER)
        + "o -100 -199 -99 -200\nc -100 -200 -95 -200\nf\nn\n"
    )
    out, err = io.StringIO(), io.StringIO()
    assert main([], io.StringIO(script), out, err) == 0
    assert err.getvalue() == ""
    assert out.getvalue() == (
        "12\n11\n11\n10\n6\n"
        "(0,3\n-100,-199\n-100,-200\n-99,-200\n)\n"
        "(3,6\n-100,-200\n-99,-200\n-98,-200\n-97,-200\n-96,-200\n-95,-200\n)\n"
    )
