"""What the live progress line says: numbers as the summary prints them, a line where the terminal can draw
none, and each phase of a re-proof under its own name."""

from __future__ import annotations

import io
import json
from pathlib import Path

from mipgames.cli import main
from mipgames.run.progress import SolveProgress

ROOT = Path(__file__).resolve().parents[2]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_numbers_are_shown_in_full_and_a_dumb_terminal_gets_plain_lines(monkeypatch):
    """A 64x64 SameGame score showed as 4.42078e+06 (the summary: 4420784); under TERM=dumb (an editor's
    shell) rich drew no live line and no plain one was written."""
    line = SolveProgress("samegame: portfolio")._text(8.6, 4420784.0, None)
    assert "incumbent 4420784 " in line and "bound —" in line
    err = _Terminal()
    monkeypatch.setattr("sys.stderr", err)
    monkeypatch.setenv("TERM", "dumb")
    display = SolveProgress("edge-matching: portfolio")
    display(2.5, 12.0, 0.0)
    display.close()
    assert err.getvalue() == "edge-matching: portfolio      2.5 s   incumbent 12   bound 0\n"


def test_each_phase_of_a_reproof_is_named_on_the_progress_line(tmp_path, monkeypatch):
    """`verify --reprove highs` showed the default solver's search for a better answer as "re-proof: highs"."""
    from mipgames import registry
    from mipgames.core.certificate import verify
    from mipgames.core.problem import SolveOptions
    from mipgames.run import reprove as module

    cert = tmp_path / "c.json"
    merge = str(ROOT / "instances/merge_game/choice.txt")
    assert main(["solve", merge, "--solver", "cbc", "--quiet", "--out", str(cert)]) == 0
    display = SolveProgress("re-proof: highs", quiet=True)
    during: list[str] = []
    refute = module._refute

    def watched(*args):
        during.append(display.label)
        return refute(*args)

    monkeypatch.setattr(module, "_refute", watched)
    problem = registry.load("merge-game")
    data = json.loads(cert.read_text())
    check = verify(data, problem)
    proof = module.reprove(problem, check.instance, check.params, data, "highs", SolveOptions(time_limit=20), display)
    assert proof.verdict == "re-proved", proof.text
    assert during == [f"re-proof, a better answer sought by {problem.default_solver}"]
    assert display.label == "re-proof: highs"
