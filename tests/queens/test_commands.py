import io
import json
from pathlib import Path

from mipgames.core.problem import SolveOptions
from mipgames.queens.commands import main
from mipgames.queens.instance import parse, parse_moves
from mipgames.queens.simulate import coursework_accepts

SPEC = "instances/queens/spec_example.txt"


def call(argv, stdin=""):
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, io.StringIO(stdin), out, err)
    return code, out.getvalue(), err.getvalue()


def test_spec_example_through_stdin_is_accepted_by_the_coursework_checker():
    text = Path(SPEC).read_text()
    code, out, err = call(["queens", "--time-limit", "20"], text)
    assert code == 0 and err == ""
    moves = [m for _, m in parse_moves(out)]
    assert len(moves) == 10 and coursework_accepts(parse(text), moves)


def test_no_time_limit_is_written_none_as_for_solve():
    """``--time-limit none`` was refused as "invalid float value" here while ``solve`` took it (an audit found it);
    the proved-unreachable path runs too, as its fallback search takes a share of the limit."""
    code, out, _ = call(["queens", "--time-limit", "none"], Path(SPEC).read_text())
    assert code == 0 and len(parse_moves(out)) == 10
    code, _, err = call(["queens", "--time-limit", "None"], "4\n1\n1 2 1 0\n0 2 0 0\n0 0 0 0\n0 0 0 0\n")
    assert code == 2 and "at least 2 queens" in err


def test_proved_unreachable_exits_2_with_the_minimum():
    code, out, err = call(["queens", "--time-limit", "20"], "4\n1\n1 2 1 0\n0 2 0 0\n0 0 0 0\n0 0 0 0\n")
    assert code == 2 and out == ""
    assert "unreachable" in err and "at least 2 queens" in err


def test_model_solver_also_reports_the_minimum(tmp_path):
    path = tmp_path / "in.txt"
    path.write_text("3\n1\n1 0 0\n0 0 1\n0 0 0\n")
    code, _, err = call(["queens", str(path), "--solver", "cbc", "--time-limit", "20"])
    assert code == 2 and "at least 2 queens" in err


def test_levels_solvers_name_the_minimum_too():
    for solver in ("levels", "lazy-levels"):
        code, _, err = call(["queens", "--solver", solver, "--time-limit", "20"], "3\n1\n1 0 0\n0 0 1\n0 0 0\n")
        assert code == 2 and "at least 2 queens" in err, (solver, err)


def test_minimise_takes_both_spellings():
    """The README says flags take both spellings; `mipgames queens --minimize` was refused (exit 4)."""
    for flag in ("--minimise", "--minimize"):
        code, out, err = call(["queens", flag, "--time-limit", "20"], "3\n1\n1 0 0\n0 0 1\n0 0 0\n")
        assert code == 2 and out == "" and "fewest queens remaining is 2 (proved optimal)" in err, (flag, err)


def test_standard_input_is_read_as_a_file_is():
    """A byte-order mark is dropped, and binary data refused with its line, from standard input as from a file."""
    out, err = io.StringIO(), io.StringIO()
    stdin = io.TextIOWrapper(io.BytesIO(b"\xef\xbb\xbf2\n1\n1 1\n0 0\n"), encoding="utf-8")
    assert main(["queens", "--threads", "1"], stdin, out, err) == 0 and out.getvalue() == "0 0 0 1\n"
    stdin = io.TextIOWrapper(io.BytesIO(b"2\n1\n1 1\n0\x00 0\n"), encoding="utf-8")
    assert main(["queens"], stdin, out, err) == 4
    assert err.getvalue() == "mipgames: <stdin>:4: this queens board holds binary data (a NUL byte), not text\n"


def test_bad_input_is_one_line_exit_4():
    code, out, err = call(["queens"], "3\n1\n1 0 1\n0 3 0\n0 0 0\n")
    assert code == 4 and out == ""
    assert err == "mipgames: <stdin>:4: value 3 in column 1 is neither 0 nor a power of two\n"


def test_check_names_the_line_of_an_illegal_move(tmp_path):
    (tmp_path / "in.txt").write_text("3\n1\n1 0 1\n0 0 0\n0 0 0\n")
    (tmp_path / "ok.txt").write_text("0 0 0 2\n")
    (tmp_path / "self.txt").write_text("0 0 0 2\n\n0 2 0 2\n")
    code, out, _ = call(["queens-check", str(tmp_path / "in.txt"), str(tmp_path / "ok.txt")])
    assert code == 0 and out.startswith("accepted: 1 move, 1 queen remains")
    code, _, err = call(["queens-check", str(tmp_path / "in.txt"), str(tmp_path / "self.txt")])
    assert code == 1 and "self.txt:3: illegal move: a queen cannot capture itself" in err  # a rejected answer
    (tmp_path / "off.txt").write_text("0 0 0 5\n")
    code, _, err = call(["queens-check", str(tmp_path / "in.txt"), str(tmp_path / "off.txt")])
    assert code == 1 and "off.txt:1: illegal move: coordinates off the 3x3 board (0 0 0 5)" in err
    for far in ("0 0 0 128", "-1 0 0 2"):  # past any board, or negative: still a move, and an illegal one
        (tmp_path / "off.txt").write_text(far + "\n")
        code, _, err = call(["queens-check", str(tmp_path / "in.txt"), str(tmp_path / "off.txt")])
        assert code == 1 and f"off.txt:1: illegal move: coordinates off the 3x3 board ({far})" in err
    (tmp_path / "none.txt").write_text("\n")
    code, out, _ = call(["queens-check", str(tmp_path / "in.txt"), str(tmp_path / "none.txt")])
    assert code == 1 and out.startswith("rejected: 0 moves, 2 queens remain")  # short of K proves nothing
    (tmp_path / "junk.txt").write_text("0 0 x 2\n")
    code, _, err = call(["queens-check", str(tmp_path / "in.txt"), str(tmp_path / "junk.txt")])
    assert code == 4 and "junk.txt:1" in err  # not a moves file: bad input


def test_out_of_time_exits_3(tmp_path):
    from mipgames.queens.generate import planted
    from mipgames.queens.instance import write

    write(planted(16, 1, 39, 0).instance, tmp_path / "hard.txt")  # the DFS does not solve this in 30 s
    code, out, err = call(["queens", str(tmp_path / "hard.txt"), "--solver", "dfs", "--time-limit", "0.5"])
    assert code == 3 and out == "" and "no answer within 0.5 s" in err


def test_solve_without_solver_uses_the_queens_default(tmp_path):
    from mipgames.cli import main as cli

    cert = tmp_path / "c.json"
    assert cli(["solve", SPEC, "--time-limit", "20", "--out", str(cert), "--quiet"]) == 0
    data = json.loads(cert.read_text())
    assert data["solver"] == "portfolio" and data["status"] == "optimal" and data["verified"]["legal"]


def test_the_python_api_uses_the_default_solver_too():
    from mipgames.queens.instance import read
    from mipgames.queens.problem import PROBLEM
    from mipgames.run.runner import solve

    r = solve(PROBLEM, read(SPEC), options=SolveOptions(time_limit=20), isolate=False)
    assert (r.solver, r.status, r.objective) == ("portfolio", "optimal", 1)


def test_the_coursework_program_offers_every_algorithm_and_backend():
    """It offered neither lazy-levels (the default's own search) nor scip."""
    from mipgames.backends import BACKENDS
    from mipgames.queens.baselines import ALGORITHMS
    from mipgames.queens.commands import SOLVERS

    assert set(SOLVERS) == set(ALGORITHMS) | set(BACKENDS)
    code, out, _ = call(["queens", "instances/queens/spec_example.txt", "--solver", "lazy-levels"])
    assert code == 0 and len(out.splitlines()) == 10


def test_queens_check_reads_either_file_from_standard_input(tmp_path):
    """`queens -` read standard input but `queens-check - moves` said "-: no such queens board"."""
    text = Path(SPEC).read_text()
    code, moves, _ = call(["queens", SPEC, "--time-limit", "20"])
    assert code == 0
    saved = tmp_path / "m.txt"
    saved.write_text(moves)
    assert call(["queens-check", "-", str(saved)], text)[:2] == (0, "accepted: 10 moves, 1 queen remains, K = 1\n")
    assert call(["queens-check", SPEC, "-"], moves)[:2] == (0, "accepted: 10 moves, 1 queen remains, K = 1\n")
    code, out, err = call(["queens-check", "-", "-"], text)
    assert code == 4 and "not both" in err
