"""Model files for other solvers: LP and MPS from PuLP, CP-SAT protos, each written through a temporary file.

An LP or MPS file opens with comment lines that say what it is: the toolkit's version, the problem, the
formulation, the instance (by the hash its certificates carry) and the parameters, and how the file's
objective maps to the toolkit's value.  Files of one instance built with other parameters share a name, and
some formulations optimise another quantity (set-cover counts heroes): the header tells them apart.
"""

from __future__ import annotations

import os
import shlex
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mipgames.core.errors import UsageError, shown_path
from mipgames.core.problem import Built, Problem

MAXIMISING_MPS = "mipgames: the model maximises; this file minimises the negated objective (optimum = -value)"


def check_export(kind: str, path: str | Path) -> str:
    """The export file's suffix, refused before any work when it does not fit the route's kind of model."""
    suffix = Path(path).suffix.lower()
    if kind == "algorithm":
        raise UsageError(
            f"{shown_path(path)}: this solver is an algorithm and builds no model to export; "
            "name a backend (--solver cbc, highs, cpsat, ...) or use `mipgames export`"
        )
    if kind == "mip" and suffix not in (".lp", ".mps"):
        raise UsageError(f"{shown_path(path)}: a MIP model is written as .lp or .mps")
    if kind != "mip" and suffix not in (".pb", ".txt", ".pbtxt"):
        raise UsageError(f"{shown_path(path)}: a CP-SAT model is written as .pb (binary) or .pbtxt/.txt (text proto)")
    return suffix


class TooLarge(Exception):
    """An exported model over the size asked for: its file is not kept (``estimated``: not even written, its size
    a lower estimate)."""

    def __init__(self, size: int, estimated: bool = False) -> None:
        super().__init__(size)
        self.size, self.estimated = size, estimated


MPS_BYTES_PER_ENTRY = 44
"""PuLP writes each nonzero of an MPS file on a line of its own: four spaces, the column and the row names each
padded to eight characters, two separators, the value as ``% .12e`` (19 characters) and a line end."""


def model_size(built: Built, kind: str, suffix: str) -> int:
    """Bytes a model takes on disk at least, counted without writing it: ``--max-size`` skips a model unwritten
    only when it is surely over; a written file is measured exactly.

    Per nonzero (objective and constraints), an LP file holds a sign, a space and the variable's name (the
    shortest name counts), and an MPS file a line of ``MPS_BYTES_PER_ENTRY`` bytes.  A CP-SAT proto holds a
    field tag, a length and a domain of two values (two bytes or more) per variable, a tag and a length per
    constraint; its text form is longer still."""
    if kind == "mip":
        model = built.model
        objective = model.objective if model.objective is not None else {}
        nonzeros = sum(len(c) for c in model.constraints.values()) + len(objective)
        if suffix == ".mps":
            return MPS_BYTES_PER_ENTRY * nonzeros
        shortest = min((len(v.name) for v in model.variables()), default=1)
        return (2 + shortest) * nonzeros
    proto = built.model.proto
    return 6 * len(proto.variables) + 2 * len(proto.constraints)


def describe(problem: Problem, instance: Any, params: dict[str, Any], formulation: str, built: Built) -> list[str]:
    """The header lines of a model file (the objective line for the model's own sense; see ``export_model``)."""
    from mipgames import __version__
    from mipgames.core.certificate import param_words, sha256
    from mipgames.core.errors import printable

    digest = sha256(problem.instance_to_json(instance))
    settings = " ".join(shlex.quote(word) for word in param_words(params, problem)) or "(none set)"
    lines = [
        f"mipgames {__version__}: {problem.name}, formulation {formulation}",
        f"instance sha256 {digest} (the instance_sha256 of its certificates)",
        f"parameters, as mipgames export takes them: {printable(settings)}",
    ]
    if built.has_objective:
        name, sense = problem.objective(params)
        lines.append(f"objective: {name} ({sense}) = {_affine_text(*_file_affine(built))}")
    else:
        lines.append("no objective: a decision model, every feasible solution answers")
    return lines


def _file_affine(built: Built) -> tuple[float, float]:
    """(a, b) with the toolkit's value = a + b x the objective a solver reports on the written file.  PuLP
    writes no objective constant to LP or MPS files, so a MIP's constant moves into a: a SameGame board with a
    tile no move can take said "tiles remaining = this file's objective", and every solver of the file found
    one tile too few.  A CP-SAT proto keeps its offset."""
    import pulp

    a, b = built.affine()
    if isinstance(built.model, pulp.LpProblem) and built.model.objective is not None:
        a += b * float(built.model.objective.constant)
    return a, b


def _affine_text(a: float, b: float) -> str:
    if (a, b) == (0.0, 1.0):
        return "this file's objective"
    if b == 0.0:
        return f"{a:g} for every feasible solution (this file's objective is another quantity)"
    scaled = "this file's objective" if b == 1.0 else f"{b:g} x this file's objective"
    return scaled if a == 0.0 else f"{a:g} + {scaled}"


def export_model(
    built: Built, kind: str, path: str | Path, max_bytes: int | None = None, header: Sequence[str] = ()
) -> None:
    """Write the model for other solvers through a temporary file, ``header`` as comments at the top of an LP or
    MPS file; a file over ``max_bytes`` is dropped (``TooLarge``), so nothing over the limit is ever left: one
    surely over it is not even written."""
    from mipgames.core.files import staged_output

    suffix = check_export(kind, path)
    if max_bytes is not None:
        estimate = model_size(built, kind, suffix)
        if estimate > max_bytes:
            raise TooLarge(estimate, estimated=True)
    with staged_output(path) as tmp:
        if suffix == ".lp":
            built.model.writeLP(str(tmp))
            _prepend(tmp, [f"\\* {_comment(line)} *\\" for line in header])
        elif suffix == ".mps":
            _write_mps(built, tmp, header)
        elif not built.model.export_to_file(str(tmp)):
            raise UsageError(f"{shown_path(path)}: CP-SAT could not write the model")
        size = tmp.stat().st_size
        if max_bytes is not None and size > max_bytes:
            raise TooLarge(size)


def _write_mps(built: Built, path: Path, header: Sequence[str]) -> None:
    """MPS as every reader takes it: a maximising model is written as the minimisation of its negation.

    No sense marker works everywhere: GLPK rejects an OBJSENSE section, CBC 2.10 ignores
    ``OBJSENSE MAX``, and without one every reader minimised a maximising model (0 stones
    where the optimum destroys 8).  A comment line says so at the top of the file."""
    import pulp

    built.model.writeMPS(str(path), mpsSense=pulp.LpMinimize)
    lines = list(header)
    if built.model.sense == pulp.LpMaximize:
        if built.has_objective:
            a, b = _file_affine(built)
            lines = [_flip(line, a, b) for line in lines]
        lines.insert(0, MAXIMISING_MPS)
    _prepend(path, [f"* {_comment(line)}" for line in lines])


def _flip(line: str, a: float, b: float) -> str:
    """The objective line of a negated file: the toolkit's value in terms of the file's (minimised) objective."""
    head = line.partition(" = ")[0]
    return f"{head} = {_affine_text(a, -b)}" if line.startswith("objective:") else line


def _comment(line: str) -> str:
    """One header line as a comment no reader can take for model text (no line break, no LP comment end)."""
    return line.replace("\n", " ").replace("*\\", "* \\")


def _prepend(path: Path, lines: Sequence[str]) -> None:
    """Put ``lines`` before the file's text, streaming (a model file can run to hundreds of megabytes)."""
    if not lines:
        return
    fresh = path.with_name(path.name + ".head")
    try:
        with open(fresh, "w") as out, open(path) as old:
            out.write("".join(f"{line}\n" for line in lines))
            shutil.copyfileobj(old, out, 1 << 20)
        os.replace(fresh, path)
    finally:
        fresh.unlink(missing_ok=True)


def export_formulation(
    problem: Problem,
    instance: Any,
    params: dict[str, Any],
    name: str,
    paths: Sequence[str],
    max_bytes: int | None,
    notify: Any = None,
) -> list[tuple[str, int | None, bool]]:
    """Build formulation ``name`` and write it to each of ``paths``: (path, None, False) for a file written,
    (path, size, estimated) for one over ``max_bytes`` (``TooLarge``).  Runs in a supervised child
    (``mipgames export``), so that a model too large for the machine meets the memory limit, not the machine's
    end: a 12x12 SameGame board's time-indexed model took 11.5 GB to build."""
    from mipgames.core.problem import SolveOptions

    form = problem.formulations[name]
    built = form.build(instance, params, SolveOptions())
    done: list[tuple[str, int | None, bool]] = []
    for path in paths:
        try:
            export_model(built, form.kind, path, max_bytes, describe(problem, instance, params, name, built))
        except TooLarge as big:
            done.append((path, big.size, big.estimated))
            continue
        done.append((path, None, False))
    return done
