"""Hostile input: every instance format, certificates and Same Game 2 scripts, mutated.

Whatever arrives, the command answers with an exit code from the README's
table, one short message, no traceback, no "internal error", and leaves no
file in the temporary directory.
"""

from __future__ import annotations

import copy
import json
import os
import random
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mipgames.cli import main
from mipgames.core.errors import MipgamesError

ROOT = Path(__file__).resolve().parents[2]
EXIT_CODES = {0, 1, 2, 3, 4}
SAMPLES = {
    "edge-matching": ["instances/edge_matching/coursework_4x4.txt", "instances/edge_matching/planted_5x5_frame.txt"],
    "samegame": ["instances/samegame/random-4x4-k3-seed4.txt"],
    "merge-game": ["instances/merge_game/choice.txt", "instances/merge_game/reduction-n12-yes.txt"],
    "queens": ["instances/queens/spec_example.txt"],
}
SAT_FORMAT = "0\n0 5 5 0\n0 7 4 5\n0 6 2 7\n0 6 4 6\n"  # Heule's em_* layout: a header, then tiles
SG2_SCRIPT = "i 3 4 0 0 t.txt\nn\no 0 0 0 1\nc 0 0 3 1\nm 1 0 0 3 0 2\nb 2 2 rosso\nf\n"
SG2_IMAGE = "verde verde blu verde\nverde blu verde verde\nblu blu rosso rosso\n"
HUGE = ["1" + "0" * 29, "-7", "9" * 200_000, "3.5", "0x10", "nan", "1e400", "", "٣"]


@pytest.fixture()
def sandbox(tmp_path, monkeypatch):
    """A private temporary directory that must be empty after every command."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    for name in ("TMPDIR", "TMP", "TEMP"):
        monkeypatch.setenv(name, str(tmp))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    monkeypatch.chdir(tmp_path)
    return tmp


def run(capsys, sandbox, *argv: str) -> int:
    code = main(list(argv))
    out, err = capsys.readouterr()
    text = out + err
    assert code in EXIT_CODES, (argv, code, text[-500:])
    assert "Traceback" not in text and "internal error" not in text, text[-2000:]
    assert all(len(line) < 400 for line in err.splitlines()), err[:500]
    assert not any(sandbox.iterdir()), list(sandbox.iterdir())
    return code


def mutations(text: str, seed: int) -> list[bytes]:
    """Deterministic damage of every kind a reader meets: cuts, lost and doubled lines, odd numbers, bytes."""
    rng = random.Random(seed)
    lines = text.splitlines(keepends=True)
    out = [
        b"",
        b"   \n\n",
        text[: len(text) // 3].encode(),
        text.replace("\n", "\r\n").encode(),
        text.encode()[:-2] + b"\xff\xfe\x00",
        ("x" * 100_000 + "\n" + text).encode(),
    ]
    for _ in range(3):
        i = rng.randrange(len(lines))
        out.append("".join(lines[:i] + lines[i + 1 :]).encode())
        out.append("".join(lines[:i] + [lines[i]] * 3 + lines[i + 1 :]).encode())
    numbers = list(re.finditer(r"-?\d+", text))
    for value in HUGE:
        if numbers:
            m = rng.choice(numbers)
            out.append((text[: m.start()] + value + text[m.end() :]).encode())
    return out


@pytest.mark.parametrize(
    "problem, sample", [(p, s) for p, samples in SAMPLES.items() for s in samples] + [("edge-matching", None)]
)
def test_mutated_instances_are_answered_or_refused(problem, sample, capsys, sandbox, tmp_path):
    text = (ROOT / sample).read_text() if sample else SAT_FORMAT
    suffix = Path(sample).suffix if sample else ".txt"
    for k, data in enumerate(mutations(text, seed=len(text))):
        path = tmp_path / f"case{k}{suffix}"
        path.write_bytes(data)
        code = run(
            capsys,
            sandbox,
            "solve",
            str(path),
            "--problem",
            problem,
            "--time-limit",
            "2",
            "--threads",
            "1",
            "--quiet",
            "--out",
            str(tmp_path / "c.json"),
        )
        assert code != 1, f"a solver failed or an answer was rejected on case {k}: {data[:200]!r}"


def test_files_that_are_not_regular_are_refused_without_blocking(capsys, sandbox, tmp_path):
    fifo = tmp_path / "fifo.txt"
    os.mkfifo(fifo)
    big = tmp_path / "big.txt"
    with open(big, "wb") as fh:
        fh.truncate(65 * 2**20)
    for path in ("/dev/zero", str(fifo), str(tmp_path), str(tmp_path / "missing.txt"), str(big)):
        assert run(capsys, sandbox, "solve", path, "--problem", "queens", "--quiet") == 4
        assert run(capsys, sandbox, "verify", path) == 4


def test_outputs_are_never_written_through_links_or_onto_devices(capsys, sandbox, tmp_path):
    instance = str(ROOT / "instances/queens/spec_example.txt")
    target = tmp_path / "precious.txt"
    target.write_text("keep me")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    for out in (str(link), "/dev/null", str(tmp_path)):
        assert run(capsys, sandbox, "solve", instance, "--quiet", "--out", out) == 4
    assert target.read_text() == "keep me"


def test_an_output_that_fails_after_the_solve_keeps_the_answer(capsys, sandbox, tmp_path, monkeypatch):
    """The folder takes the trial write before the solve, then the disk fills up while it runs."""
    from mipgames.core import certificate
    from mipgames.core.errors import OutputError

    def full(path, data):
        raise OutputError("cannot write here: No space left on device", path)

    monkeypatch.setattr(certificate, "write_json_atomic", full)
    instance = str(ROOT / "instances/queens/spec_example.txt")
    code = main(["solve", instance, "--quiet", "--out", str(tmp_path / "c.json")])
    out, err = capsys.readouterr()
    assert code == 4 and "status      optimal" in out and "certificate not written" in err
    assert "Traceback" not in err


def test_certificates_are_written_with_the_users_umask(capsys, sandbox, tmp_path):
    instance = str(ROOT / "instances/queens/spec_example.txt")
    old = os.umask(0o022)
    try:
        assert run(capsys, sandbox, "solve", instance, "--quiet", "--out", str(tmp_path / "c.json")) == 0
    finally:
        os.umask(old)
    assert (tmp_path / "c.json").stat().st_mode & 0o777 == 0o644


@pytest.fixture(scope="module")
def certificate_data(tmp_path_factory):
    out = tmp_path_factory.mktemp("cert") / "c.json"
    assert (
        main(
            [
                "solve",
                str(ROOT / "instances/edge_matching/coursework_4x4.txt"),
                "--solver",
                "cpsat",
                "--quiet",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    return json.loads(out.read_text())


json_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(10**30), 10**30),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=20),
    ),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12,
)


@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    edits=st.lists(
        st.tuples(
            st.sampled_from(
                [
                    "status",
                    "objective",
                    "bound",
                    "solution",
                    "instance",
                    "params",
                    "options",
                    "proved_by",
                    "verified",
                    "problem",
                    "sense",
                    "instance_sha256",
                    "schema",
                    "solver",
                    "wall_time_s",
                    "stats",
                ]
            ),
            json_values,
            st.booleans(),
        ),
        min_size=1,
        max_size=3,
    )
)
def test_edited_certificates_are_checked_as_hostile_input(edits, certificate_data, capsys, sandbox, tmp_path):
    data = copy.deepcopy(certificate_data)
    for field, value, delete in edits:
        if delete:
            data.pop(field, None)
        else:
            data[field] = value
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data))
    run(capsys, sandbox, "verify", str(path))


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000,
        '{"a": NaN}',
        "1e99999",
        "[1" + "0" * 5000 + "]",
        "\x00",
        "{}",
        '{"schema": "mipgames/certificate/2", "problem": {"x": 1}}',
        '"just a string"',
        '{"schema": "mipgames/certificate/2", "schema": "x"}',
    ],
)
def test_malformed_certificate_files_are_refused(text, capsys, sandbox, tmp_path):
    path = tmp_path / "c.json"
    path.write_text(text)
    assert run(capsys, sandbox, "verify", str(path)) in (1, 4)


@pytest.mark.parametrize(
    "text, line",
    [
        ('{\n "a": 1,\n "b": NaN\n}', 3),
        ('{"s": "NaN in a string",\n "a": [1,\n 2, -Infinity]}', 3),
        ('{"x": "a\\" 1e400 in a string",\n "y":\n 1e400}', 3),
        ('{"a": 1,\n "b": {"a": 2,\n "a": 3}}', 3),
        ('{"n":\n 1' + "0" * 40 + "}", 2),
        ("[\n\n" + "[" * 100_000 + "]" * 100_000 + "]", 3),
    ],
)
def test_refused_json_names_the_line(text, line, capsys, tmp_path):
    """NaN, out-of-range numbers, repeated keys and deep nesting were refused naming the file but no line (a
    syntax error named one); tokens inside strings are not the ones refused."""
    path = tmp_path / "c.json"
    path.write_text(text)
    assert main(["verify", str(path)]) == 4
    err = capsys.readouterr().err
    assert f"c.json:{line}: " in err and "Traceback" not in err, err


@pytest.mark.parametrize(
    "script",
    [
        SG2_SCRIPT,
        SG2_SCRIPT.replace("3 4", "99999999999999999999 4"),
        SG2_SCRIPT.replace("0 0 t.txt", "0 0 /etc/shadow"),
        SG2_SCRIPT.replace("t.txt", "/dev/zero"),
        SG2_SCRIPT.replace("o 0 0", "o " + "9" * 100_000),
        "\x00\xff\n",
        "i -3 -4 0 0 t.txt\n",
        "m 1\n" * 1000,
        "b 2 2 " + "a" * 100_000 + "\n",
    ],
)
def test_same_game_2_scripts_are_answered_or_refused(script, capsys, sandbox, tmp_path):
    (tmp_path / "t.txt").write_text(SG2_IMAGE)
    path = tmp_path / "cmds.txt"
    path.write_text(script, errors="surrogateescape")
    run(capsys, sandbox, "samegame2", str(path))
    out, err = capsys.readouterr()
    assert "root:" not in out + err


@settings(max_examples=200, deadline=None, derandomize=True)
@given(data=st.binary(max_size=300), problem=st.sampled_from(sorted(SAMPLES)))
def test_readers_raise_only_input_errors(data, problem, tmp_path_factory):
    from mipgames import registry
    from mipgames.cli import read_instance

    path = tmp_path_factory.mktemp("r") / "x.txt"
    path.write_bytes(data)
    try:
        read_instance(registry.load(problem), str(path))
    except MipgamesError:
        pass


@pytest.mark.parametrize(
    "edit, exit_code, said",
    [
        # 10**400 in verified.objective ended in "internal error: OverflowError"
        (lambda c: c["verified"].update(objective=10**400), 4, "of 401 digits is out of range"),
        # an overflowing bound was dropped as "no bound", and the problem's own bound then made "optimal" pass
        (lambda c: c.update(bound=10**400), 4, "of 401 digits is out of range"),
        # the schema lets stats out, but edge matching's count check read data["stats"]: "internal error: KeyError"
        (lambda c: c.pop("stats"), 0, ""),
        # an error claims nothing, so its checks were skipped: a bound of 1e308 by a prover no one is passed
        (
            lambda c: c.update(
                status="error",
                reported_status="error",
                solution=None,
                objective=None,
                bound=1e308,
                proved_by="mipgames: nonsense",
                verified={"legal": False, "objective": None},
            ),
            1,
            "status error claims nothing, yet the certificate records a bound or a prover",
        ),
    ],
)
def test_certificate_fields_that_crashed_or_slipped_through(
    edit, exit_code, said, certificate_data, capsys, sandbox, tmp_path
):
    data = copy.deepcopy(certificate_data)
    edit(data)
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data))
    code = main(["verify", str(path)])
    assert code == exit_code and said in capsys.readouterr().err


def test_a_key_written_twice_is_refused_not_read_as_its_last_value(certificate_data, capsys, sandbox, tmp_path):
    """Another reader keeping the first value would see "infeasible" where verify saw "optimal"."""
    text = json.dumps(certificate_data).replace('"status": "optimal"', '"status": "infeasible", "status": "optimal"')
    path = tmp_path / "twice.json"
    path.write_text(text)
    assert run(capsys, sandbox, "verify", str(path)) == 4


def test_the_api_refuses_a_bound_no_float_holds(certificate_data):
    from mipgames.core import certificate
    from mipgames.registry import load

    data = dict(certificate_data, bound=10**400)
    check = certificate.verify(data, load("edge-matching"))
    assert not check.ok and "is not a finite number" in check.reasons[0]


@pytest.mark.parametrize("problem,sample", [(p, s) for p, samples in sorted(SAMPLES.items()) for s in samples])
@pytest.mark.parametrize("odd", ["\f", "\v", "\x1c", "\x85", "\u2028"])
def test_a_form_feed_in_a_line_does_not_shift_the_line_numbers(problem, sample, odd, tmp_path):
    """Line numbers count line feeds, as the reader's own counts do (str.splitlines also split at these)."""
    from mipgames import registry
    from mipgames.cli import read_instance

    lines = (ROOT / sample).read_text().splitlines()
    lines[1] += odd
    path = tmp_path / "x.txt"
    path.write_text("\n".join([*lines, "§ x"]) + "\n")
    with pytest.raises(MipgamesError, match=f"x.txt:{len(lines) + 1}:"):
        read_instance(registry.load(problem), str(path))


@pytest.mark.parametrize("field", ["rerun", "instance_path", "instance_text_sha256"])
def test_a_certificate_without_its_provenance_is_rejected_not_an_internal_error(
    field, certificate_data, capsys, sandbox, tmp_path
):
    """These three fields were read without a check: their absence gave "internal error: KeyError" (exit 1)."""
    data = copy.deepcopy(certificate_data)
    del data[field]
    path = tmp_path / "c.json"
    path.write_text(json.dumps(data))
    assert run(capsys, sandbox, "verify", str(path)) == 1  # run() also refuses an "internal error"
