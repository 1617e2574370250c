"""Hostile scripts for the Same Game 2 interpreter (issue 13 part 4).

Random bytes and mutations of realistic scripts (huge numbers, negative sizes,
binary bytes, missing and extra fields, truncation, duplicated and deleted
lines, table FILEs that are missing, FIFOs, devices, directories, symlink
loops, deep or over-long paths, files holding secrets) run through the
interpreter API, the ``mipgames`` CLI in-process, and once as a real
subprocess.  Every run must:

* exit 0 or 1 (1 exactly when a line was refused), never show a traceback or
  "internal error";
* print only the spec's answers on standard output (paths, the two
  ``Non esiste`` sentences, counts) and only the interpreter's known messages,
  one per refused line, each naming the script and line, on standard error;
* never quote the content of a FILE named by ``i`` (the data files hold
  marker words that must not appear in any output);
* finish promptly: a hang guard (an alarm, generous: it catches a FIFO that
  blocks or a quadratic conversion, it does not measure speed) fails the case.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mipgames.cli import main as cli_main
from mipgames.samegame2.interpreter import (
    COORD_DIGITS,
    COORD_LIMIT,
    MAX_LINE,
    Interpreter,
    read_lines,
)
from tests.fuzzing import hang_guard

ROOT = Path(__file__).resolve().parents[2]

SECRET = "zqxsecretzqx"
"""A valid colour word inside the data files: loaded silently, never printed."""
SECRET_BAD = "Qxsecret-Token"
"""An invalid word inside the data files: the line is refused, the word never quoted."""
MARKERS = ("secret", "root:$6$")

HANG_SECONDS = 20

# -- what the interpreter may print -------------------------------------------------------------
_NUM = r"-?[0-9]+"
_CELL = re.compile(rf"({_NUM}),({_NUM})")
_HEAD = re.compile(r"\(([0-9]+),([0-9]+)")
_NONE = re.compile(rf"Non esiste un cammino (?:omogeneo )?fra \(({_NUM}),({_NUM})\) e \(({_NUM}),({_NUM})\)")
_COUNT = re.compile(r"[0-9]+")
_QUOTED = r"(?:'[^\n]*'|\"[^\n]*\")"
_FIELD = r"(?:r|c|x|y|x0|x1|y0|y1|x2|y2)"
_SIZE = r"(?:[0-9]+|~10\^[0-9]+)"
"""A number in a message: written out, or shortened to its order of magnitude when it is huge."""
MESSAGES = [
    re.compile(m)
    for m in (
        rf"unknown command {_QUOTED} \(commands: i b m o c n f\)",
        r"'[ibmocnf]' takes [0-9] fields \([a-zA-Z0-9 ]+\), got [0-9]+",
        rf"{_FIELD} is not an integer: {_QUOTED}",
        rf"{_FIELD} has [0-9,]+ digits; integers of at most 4,300 digits are read",
        rf"{_FIELD} must be at least 0, got -{_SIZE}",
        rf"colour must be lowercase letters a-z, got {_QUOTED}",
        rf"empty base: (?:x0 = -?{_SIZE} > x1|y0 = -?{_SIZE} > y1) = -?{_SIZE}",
        (
            rf"FILE {_QUOTED}(?: line [0-9]+)?: (?:no such file|this file is [A-Za-z -]+; only regular files are read"
            r"|this file has [0-9,]+ bytes; at most [0-9,]+ are read|cannot read this file: [A-Za-z ]+"
            r"|this file holds binary data \(a NUL byte\), not text|this file is not UTF-8 text \(byte [0-9]+\)"
            r"|not a valid file name(?: \(a NUL character\))?)"
        ),
        rf"FILE {_QUOTED} is short: {_SIZE}x{_SIZE} = {_SIZE} words needed, found [0-9]+",
        rf"FILE {_QUOTED} line [0-9]+: word [0-9]+ is neither a colour \(lowercase letters a-z\) nor 0",
        r"line longer than [0-9,]+ characters: not a command",
        r"a carriage return inside the line \(old Mac line ends\?\): save the script with line feeds \(LF or CRLF\)",
    )
]

NUMBER_TEXT = st.one_of(
    st.integers(-(10**6), 10**6).map(str),
    st.integers(COORD_DIGITS - 3, COORD_DIGITS + 3).map(lambda n: "9" * n),
    st.integers(COORD_DIGITS - 3, COORD_DIGITS + 3).map(lambda n: "-1" + "0" * (n - 1)),
)
"""Integer tokens around the limit of what is read (drawn as text: Python will not print longer ints)."""


def check_stdout(text: str) -> None:
    """Standard output is a sequence of the spec's answers, each well formed."""
    assert text == "" or text.endswith("\n")
    lines = text.split("\n")[:-1]
    i = 0
    while i < len(lines):
        line = lines[i]
        if _COUNT.fullmatch(line):
            i += 1
            continue
        none = _NONE.fullmatch(line)
        if none:
            assert all(abs(int(v)) <= COORD_LIMIT for v in none.groups())
            i += 1
            continue
        head = _HEAD.fullmatch(line)
        assert head, f"not an answer of the spec: {line[:80]!r}"
        variability, length = int(head.group(1)), int(head.group(2))
        assert length >= 1 and variability <= length - 1 and lines[i + 1 + length] == ")"
        cells = []
        for row in lines[i + 1 : i + 1 + length]:
            cell = _CELL.fullmatch(row)
            assert cell, row[:80]
            cells.append((int(cell.group(1)), int(cell.group(2))))
        assert all(abs(v) <= COORD_LIMIT for cell in cells for v in cell)
        assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in itertools.pairwise(cells))
        i += length + 2


def check_run(status: int, out: str, err: str, source: str) -> None:
    assert status in (0, 1)
    assert (status == 1) == (err != "")
    for stream in (out, err):
        assert "Traceback" not in stream and "internal error" not in stream
        lowered = stream.lower()
        assert not any(marker.lower() in lowered for marker in MARKERS), "a FILE's content reached the output"
    check_stdout(out)
    numbers = []
    for line in err.splitlines():
        assert line.startswith(source + ":"), line[:120]
        number, _, message = line[len(source) + 1 :].partition(": ")
        numbers.append(int(number))
        assert any(m.fullmatch(message) for m in MESSAGES), f"unknown message: {message!r}"
    assert numbers == sorted(set(numbers))  # one message per refused line, in order


# -- the arena: data files, hostile files, base scripts -------------------------------------------
@dataclass
class Arena:
    root: Path
    good: list[str]  # FILEs that load (some hold SECRET as a colour)
    hostile: list[str]  # FILEs every `i` naming them must refuse
    bases: list[list[bytes]]


@pytest.fixture(scope="module")
def arena(tmp_path_factory: pytest.TempPathFactory) -> Arena:
    root = tmp_path_factory.mktemp("sg2arena")
    (root / "board.txt").write_text(f"verde {SECRET} 0\nblu blu verde\n")
    (root / "spec.txt").write_text("blu rosso 0\nbianco 0 nero\n")
    worked = ["B V V V R B B V", "B V V V V R R V", "V B V V B V R B", "V V B V B B R R"]
    letter = {"V": "verde", "B": "blu", "R": "rosso"}
    (root / "worked.txt").write_text("".join(" ".join(letter[c] for c in row.split()) + "\n" for row in worked))
    (root / "shadow.txt").write_text(f"root:$6${SECRET_BAD}:19000:0:99999:7:::\nverde verde\n" * 3)
    (root / "mixed.txt").write_text(f"verde {SECRET}\n{SECRET_BAD} 0\n")
    (root / "short.txt").write_text("verde\n")
    (root / "latin1.txt").write_bytes(f"verde\ncitt\u00e0 {SECRET}\n".encode("latin-1"))
    (root / "nul.txt").write_bytes(f"verde {SECRET}\x00{SECRET_BAD}\n".encode())
    (root / "bom.txt").write_bytes(b"\xef\xbb\xbfverde blu\nrosso 0\n")
    (root / "empty.txt").write_text("")
    (root / "dir").mkdir()
    os.mkfifo(root / "fifo")
    (root / "loop").symlink_to(root / "loop")
    (root / "dangling").symlink_to(root / "nowhere")
    deep = root.joinpath(*["d"] * 150)
    deep.mkdir(parents=True)
    (deep / "board.txt").write_text(f"{SECRET} blu\nverde {SECRET}\n")
    with open(root / "huge.txt", "wb") as handle:  # sparse: over the size cap without using the disk
        handle.truncate(65 * 1024 * 1024)
    good = [str(root / n) for n in ("board.txt", "spec.txt", "worked.txt", "bom.txt", "empty.txt")]
    good.append(str(deep / "board.txt"))
    hostile = [
        str(root / n)
        for n in (
            "shadow.txt",
            "mixed.txt",
            "short.txt",
            "latin1.txt",
            "nul.txt",
            "dir",
            "fifo",
            "loop",
            "dangling",
            "huge.txt",
            "missing.txt",
        )
    ]
    hostile += [
        "/dev/zero",
        "/dev/null",
        "/dev/urandom",
        "/proc/self/environ",
        "/etc/shadow",
        str(root / "x" / ("y/" * 3000) / "t.txt"),
        "/" + "z" * 300,
        str(root / "board.txt" / "sub"),
    ]
    bases = [
        [  # the README example
            f"i 3 4 0 0 {root / 'readme.txt'}",
            "n",
            "o 0 0 0 1",
            "c 0 0 3 1",
            "o 0 0 3 2",
            "m 1 0 0 3 0 2",
            "n",
            "b 2 2 Rosso",
            "f",
        ],
        [  # the spec's worked example
            f"i 4 8 0 0 {root / 'worked.txt'}",
            "n",
            "m 2 1 0 100 0 20",
            "n",
            "m 5 1 3 6 1 2",
            "m 0 0 0 3 0 2",
            "m 4 1 -100 1000 -200 500",
            "n",
            "o -100 -199 -99 -200",
            "c -100 -200 -95 -200",
        ],
        [  # the spec's `i` example, and far-apart balls
            "b 6 5 verde",
            "b 5 6 giallo",
            f"i 2 3 4 5 {root / 'spec.txt'}",
            "c 4 5 6 5",
            "c 4 6 6 6",
            "n",
            f"b -{COORD_LIMIT} 0 a",
            f"b {COORD_LIMIT} 0 a",
            f"m 0 0 -{COORD_LIMIT} {COORD_LIMIT} -7 7",
            "n",
            f"o -{COORD_LIMIT} -7 -{COORD_LIMIT} -7",
        ],
        [  # a secret loaded as a colour, then queried
            f"i 2 3 0 0 {root / 'board.txt'}",
            "o 1 0 1 0",
            "c 0 0 2 1",
            "n",
            "m 1 0 0 2 0 1",
            "n",
            "c 0 0 1 0",
        ],
    ]
    (root / "readme.txt").write_text("verde verde blu verde\nverde blu verde verde\nblu blu rosso rosso\n")
    return Arena(root, good, hostile, [[line.encode() for line in base] for base in bases])


# -- running one script ----------------------------------------------------------------------------
def run_api(script: bytes, source: str = "<stdin>") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with hang_guard(HANG_SECONDS):
        status = Interpreter(out, err, source).run(read_lines(io.BytesIO(script)))
    return status, out.getvalue(), err.getvalue()


def run_cli(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with hang_guard(HANG_SECONDS), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli_main(["samegame2", *args])
    return status, out.getvalue(), err.getvalue()


def check_script(arena: Arena, script: bytes, name: str = "script.txt") -> tuple[int, str, str]:
    """Run through the API and through the CLI on a script file: both valid and identical."""
    path = arena.root / name
    path.write_bytes(script)
    api = run_api(script, str(path))
    check_run(*api, str(path))
    cli = run_cli([str(path)])
    assert cli == api
    return api


# -- mutations -------------------------------------------------------------------------------------
HUGE = [
    "1000000000001",
    "-1000000000001",
    "9" * 10**6,
    "-" + "7" * 5000,
    "+" + "0" * 100000 + "1",
    "1e9",
    "0x10",
    "\u0663",
    "+-3",
    "--1",
    "1_000",
    "99999999999999999999999999999999",
    "-0",
    "",
]
NASTY_BYTES = [
    b"\x00",
    b"\xff\xfe",
    b"\xc3\x28",
    b"\r",
    b"\x1b[2J",
    b"\xef\xbb\xbf",
    "\u2028".encode(),
    "\u00e0".encode(),
    b"\t",
    b"\x0c",
    b"\xe2\x80\x8b",
]


def mutate(data: st.DataObject, arena: Arena, lines: list[bytes]) -> list[bytes]:
    lines = list(lines)
    for _ in range(data.draw(st.integers(1, 4), label="mutations")):
        kind = data.draw(
            st.sampled_from(
                ["number", "size", "bytes", "drop", "extra", "file", "truncate", "duplicate", "delete", "swap"]
            ),
            label="kind",
        )
        if not lines:
            lines = [b"n"]
        k = data.draw(st.integers(0, len(lines) - 1), label="line")
        fields = lines[k].split(b" ")
        if kind == "number":
            j = data.draw(st.integers(0, len(fields) - 1))
            fields[j] = data.draw(st.one_of(st.sampled_from(HUGE), NUMBER_TEXT)).encode()
        elif kind == "size":
            r, c = data.draw(st.integers(-3, 3)), data.draw(st.integers(-3, 3))
            fields = [
                b"i",
                str(r).encode(),
                str(c).encode(),
                b"0",
                b"0",
                data.draw(st.sampled_from(arena.good)).encode(),
            ]
        elif kind == "bytes":
            j = data.draw(st.integers(0, len(lines[k])))
            junk = data.draw(st.one_of(st.sampled_from(NASTY_BYTES), st.binary(min_size=1, max_size=6)))
            fields = [lines[k][:j] + junk + lines[k][j:]]
        elif kind == "drop" and len(fields) > 1:
            del fields[data.draw(st.integers(0, len(fields) - 1))]
        elif kind == "extra":
            fields.insert(
                data.draw(st.integers(0, len(fields))), data.draw(st.sampled_from([b"0", b"-5", b"a", b"  "]))
            )
        elif kind == "file":
            name = data.draw(st.sampled_from(arena.hostile + arena.good), label="FILE").encode()
            r, c = data.draw(st.integers(0, 4)), data.draw(st.integers(0, 4))
            fields = [b"i", str(r).encode(), str(c).encode(), b"-1", b"2", name]
        elif kind == "truncate":
            blob = b"\n".join(lines)
            lines = blob[: data.draw(st.integers(0, len(blob)))].split(b"\n")
            continue
        elif kind == "duplicate":
            lines.insert(k, lines[k])
            continue
        elif kind == "delete":
            del lines[k]
            continue
        elif kind == "swap":
            j = data.draw(st.integers(0, len(lines) - 1))
            lines[k], lines[j] = lines[j], lines[k]
            continue
        lines[k] = b" ".join(fields)
    return lines


@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_scripts(arena: Arena, data: st.DataObject) -> None:
    base = data.draw(st.sampled_from(arena.bases), label="base")
    lines = mutate(data, arena, base)
    check_script(arena, b"\n".join(lines) + data.draw(st.sampled_from([b"\n", b"", b"\r\n"])))


@settings(max_examples=150, deadline=None, derandomize=True)
@given(script=st.binary(max_size=300))
def test_random_bytes(script: bytes) -> None:
    check_run(*run_api(script), "<stdin>")


@settings(max_examples=100, deadline=None, derandomize=True)
@given(
    lines=st.lists(
        st.tuples(
            st.sampled_from("ibmocnf"),
            st.lists(
                st.one_of(
                    NUMBER_TEXT, st.sampled_from(["a", "zz", "Blu", "0", "-0", "+7", "\u0661"]), st.text(max_size=5)
                ),
                max_size=7,
            ),
        ).map(lambda t: " ".join([t[0], *t[1]])),
        max_size=25,
    )
)
def test_random_commands(lines: list[str]) -> None:
    """Well-shaped commands with random fields: mostly valid, so the plane really changes."""
    check_run(*run_api("\n".join(lines).encode()), "<stdin>")


# -- the fixed corpus: every hostile FILE, heavy tokens, and the script itself -----------------------
def test_every_hostile_file_is_refused_without_quoting_it(arena: Arena) -> None:
    for name in arena.hostile:
        status, out, err = check_script(arena, f"b 0 0 a\ni 2 2 0 5 {name}\nn\n".encode())
        assert (status, out) == (1, "1\n"), name
        assert err.count("\n") == 1 and ":2: FILE '" in err, (name, err)


def test_good_files_load_and_secrets_stay_silent(arena: Arena) -> None:
    status, out, err = check_script(
        arena,
        b"\n".join(f"i 2 2 {10 * k} 0 {name}".encode() for k, name in enumerate(arena.good) if "empty" not in name)
        + b"\nn\nc 0 0 1 1\n",
    )
    assert (status, err) == (0, "")
    # a 2x2 corner of each FILE: 3 (board) + 3 (spec) + 2 (worked) + 3 (bom) + 4 (deep) blocks
    assert out == "15\n(2,3\n0,0\n1,0\n1,1\n)\n"


def test_heavy_tokens_and_lines_are_refused_at_once(arena: Arena) -> None:
    heavy = [
        b"o " + b"9" * 10**6 + b" 0 0 0",
        b"b 0 -" + b"0" * 10**6 + b"1 a",
        b"m " + b"1 " * 400000,
        b"b 0 0 " + b"a" * (MAX_LINE + 10),
        b"i 3 3 0 0 " + b"/x" * 200000,
    ]
    status, out, err = check_script(arena, b"\n".join(heavy) + b"\nn\n")
    assert (status, out) == (1, "1\n") and err.count("\n") == 4  # `b 0 -000..001 a` is the valid ball (0,-1)


def test_script_that_cannot_be_read_is_one_message_and_exit_4(arena: Arena) -> None:
    for name in ("fifo", "dir", "missing.txt", "huge.txt", "loop"):
        status, out, err = run_cli([str(arena.root / name)])
        assert status == 4 and out == "" and err.count("\n") == 1, (name, err)
        assert err.startswith(f"mipgames samegame2: {arena.root / name}: ") and "Traceback" not in err
    assert run_cli(["/dev/zero"])[0] == 4


def test_script_with_bad_bytes_refuses_only_those_lines(arena: Arena) -> None:
    status, out, err = check_script(arena, b"\xef\xbb\xbfb 0 0 a\nb 1 0 \xff\nb \x00 0 a\nn\n")
    assert (status, out) == (1, "1\n") and err.count("\n") == 2


def test_real_subprocess_on_the_whole_corpus(arena: Arena) -> None:
    """The installed entry point, standard input a pipe, every hostile FILE and base script in one run."""
    lines = [line for base in arena.bases for line in base]
    lines += [f"i 2 2 0 0 {name}".encode() for name in arena.hostile]
    lines += [b"b 1 2 \xff", b"o " + b"9" * 10**6 + b" 0 0 0", b"n " + b"x" * (2 * MAX_LINE), b"n"]
    script = b"\n".join(line for line in lines if line != b"f") + b"\n"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "-m", "mipgames", "samegame2"],
        input=script,
        capture_output=True,
        cwd=arena.root,
        env=env,
        timeout=120,
        check=False,
    )
    out, err = proc.stdout.decode(), proc.stderr.decode()
    check_run(proc.returncode, out, err, "<stdin>")
    assert (proc.returncode, out, err) == run_api(script)
    assert err.count("\n") == 1 + len(arena.hostile) + 3  # `b 2 2 Rosso`, each hostile FILE, the last three
