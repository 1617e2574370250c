"""The Python API: the command line's ``solve``, ``verify``, ``render``, ``generate`` and ``load`` as functions,
with the same defaults, and ``build``: a problem's model of an instance to solve as you like, with its decoder
and the simulator beside it.

>>> import mipgames
>>> result = mipgames.solve("instances/edge_matching/coursework_4x4.txt", solver="cpsat")
>>> result.status, result.objective, result.bound
(<Status.OPTIMAL: 'optimal'>, 0.0, 0.0)
>>> mipgames.verify(result.certificate).ok
True
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import numbers
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from mipgames import registry
from mipgames.core import certificate as certificates
from mipgames.core.errors import InputError, MipgamesError, UsageError
from mipgames.core.files import distinct_outputs, loads_json, read_bytes
from mipgames.core.problem import Built, Problem, SolveOptions, Verdict, default_memory_limit
from mipgames.core.result import Result

DEFAULT_TIME_LIMIT = 60.0
"""Seconds for a whole solve when none is given: the command line's default too."""
DEFAULT_THREADS = 2


def problem_of(name_or_path: str | Path | None = None, instance: Any = None) -> Problem:
    """A problem by name, by the folder of an instance file, or by the module its instance object comes from."""
    if isinstance(name_or_path, str) and name_or_path in registry.PROBLEMS:
        return registry.load(name_or_path)
    if name_or_path is not None:
        name = registry.infer(name_or_path)
        if name is None:
            raise registry.unknown_problem(name_or_path, lambda problem: f"pass problem={problem!r}")
        return registry.load(name)
    module = type(instance).__module__
    for problem in registry.available():
        if module.startswith(f"mipgames.{problem.folder}."):
            return problem
    raise UsageError(f"cannot tell the problem of a {type(instance).__name__}; pass problem=")


def load(path: str | Path, problem: str | None = None) -> Any:
    """The instance in a file (the problem is taken from the path's folder unless named)."""
    read_bytes(path, "instance")  # a missing or unreadable file is named as such before the problem is guessed
    prob = registry.load(problem) if problem else problem_of(path)
    return prob.read(path)


def check_instance(prob: Problem, instance: Any) -> None:
    """Hold an instance object built in Python to the checks its file would get: its JSON form (what the
    certificate embeds and ``verify`` reads) is read back, so a solve never answers for an instance no file
    could hold (a negative K, a power that is not one of two).  The object itself is solved, with any extras
    its JSON leaves out (a planted game, a name)."""
    try:
        # as a certificate embeds it: a value JSON cannot hold (a set in a merge map's meta) failed after the solve
        prob.instance_from_json(json.loads(json.dumps(prob.instance_to_json(instance), allow_nan=False)))
    except InputError as exc:
        raise InputError(exc.message, "instance object", exc.line) from None
    except certificates.MALFORMED as exc:  # a foreign or half-built object
        why = f"{type(exc).__name__}: {str(exc)[:120]}"
        raise InputError(f"not a {prob.name} instance ({type(instance).__name__}; {why})", "instance object") from None


def _resolve(instance: Any, problem: str | None) -> tuple[Problem, Any, str | Path | None, str | None]:
    """(problem, instance, path, SHA-256 of the file) of a path or an instance object, read or checked."""
    if isinstance(instance, (str, Path)):
        text_sha = hashlib.sha256(read_bytes(instance, "instance")).hexdigest()  # a missing file named as such first
        prob = registry.load(problem) if problem else problem_of(instance)
        return prob, prob.read(instance), instance, text_sha
    prob = registry.load(problem) if problem else problem_of(instance=instance)
    check_instance(prob, instance)
    return prob, instance, None, None


def _read_text_values(prob: Problem, params: dict[str, Any]) -> dict[str, Any]:
    """Parameters as the command line spells them are taken too (``{"frame_colour": "none"}``, ``"3"``): a string
    given to a parameter that is not a switch is read as its flag's text would be; everything else is checked
    as it is, by the runner."""
    known = {p.name: p for p in prob.params}
    return {
        name: known[name].read(value, f"params: {name}")
        if isinstance(value, str) and name in known and not known[name].flag
        else value
        for name, value in params.items()
    }


def solve(
    instance: Any,
    problem: str | None = None,
    *,
    solver: str | None = None,
    formulation: str | None = None,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    threads: int = DEFAULT_THREADS,
    gap: float | None = None,
    seed: int = 0,
    warm_start: bool = False,
    memory_limit: int | None = None,
    params: dict[str, Any] | None = None,
    isolate: bool = True,
    progress: Callable[[float, float | None, float | None], None] | None = None,
) -> Result:
    """Solve an instance (a path or an instance object), replay the answer, and attach its certificate.

    Returns the one result type: ``.status`` (a claim the simulator and the
    claim rule stand behind), ``.objective``, ``.bound``, ``.proved_by``,
    ``.solution`` and ``.certificate`` (a dict; ``mipgames.verify`` checks it).  ``progress(elapsed, incumbent,
    bound)`` is called about every half second while an isolated solve runs, with what the solver reports so far
    (not yet replayed: only the result is).  ``time_limit=None`` solves without a limit, as ``mipgames solve
    --time-limit none`` does (the certificate's ``rerun`` command says so).
    """
    started = time.monotonic()
    if progress is not None and not callable(progress):  # it was first called mid-solve: a raw TypeError there
        raise UsageError(f"progress must be a function (elapsed, incumbent, bound), got {type(progress).__name__}")
    if not isinstance(isolate, bool):
        raise UsageError(f"isolate must be True or False, got {isolate!r:.40}")
    prob, instance, path, text_sha = _resolve(instance, problem)
    reading = time.monotonic() - started
    if isinstance(params, dict):
        params = _read_text_values(prob, params)
    options = SolveOptions(
        time_limit=time_limit,
        threads=threads,
        gap=gap,
        seed=seed,
        warm_start=warm_start,
        memory_limit=default_memory_limit() if memory_limit is None else memory_limit,
    )
    from mipgames.run.runner import solve as run

    result = run(
        prob,
        instance,
        solver=solver,
        formulation=formulation,
        params=params,
        options=options,
        isolate=isolate,
        progress=progress,
        started=started,
        read_seconds=reading,
    )
    result.certificate = certificates.build(prob, instance, result, None if path is None else str(path), text_sha)
    return result


class _ArgumentParser(argparse.ArgumentParser):
    """argparse that raises UsageError with its message (the command line's parser prints and exits)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


def generate(problem: str, **options: Any) -> Any:
    """A random instance from a problem's seeded generator, with ``mipgames generate``'s options as keywords
    (``generate("queens", n=16, k=2, moves=38, seed=3)``; a switch is ``True``), checked as the command line
    checks them.  A planted queens instance carries its planted moves (``.planted``); the other generators return
    the instance alone."""
    prob = registry.load(problem)
    if prob.generator is None:
        raise UsageError(f"{prob.name} has no generator")
    parser = _ArgumentParser(prog=f"generate {prob.name}", add_help=False)
    prob.generator.add_arguments(parser)
    argv: list[str] = []
    for name, value in options.items():
        flag = "--" + name.replace("_", "-")
        if value is True:
            argv.append(flag)
        elif value is not False and value is not None:
            argv += [flag, str(value)]
    args = parser.parse_args(argv)
    args.output, args.in_memory = None, True
    return prob.generator.generate(args)


def certificate_in(path: str | Path, problem: str | None) -> dict[str, Any] | None:
    """The certificate a ``.json`` file holds, read once; None when it holds an instance: any other JSON (a
    merge-game map), or no JSON at all when a problem is named or implied (``generate -o board.json`` writes a
    board in its own format).  ``mipgames render`` tells the two apart the same way."""
    try:
        loaded = certificates.load(path)
    except InputError:
        if problem is None and registry.infer(path) is None:
            raise
        return None
    return loaded if "schema" in loaded else None


def render(what: Any, output: str | Path, problem: str | None = None) -> Path:
    """Draw a solve's result, a certificate (a dict or a ``.json`` file) or an instance (a path or an object) to
    ``output`` (.png, .pdf or .svg, SameGame also .gif), as ``mipgames render`` does: a solution is drawn only
    once ``verify`` accepts its certificate (InputError with the reasons otherwise)."""
    from mipgames.core.figures import check_figure_path

    if not isinstance(output, (str, Path)):
        raise UsageError(f"output must be a path (.png, .pdf, .svg), got {type(output).__name__}")
    data = what.certificate if isinstance(what, Result) else what
    if isinstance(data, (str, Path)) and Path(data).suffix == ".json":
        data = certificate_in(data, problem) or data
    if isinstance(data, dict):
        check = verify(data)
        if not check.ok or check.instance is None:
            raise InputError(f"the certificate does not verify: {'; '.join(check.reasons)}", "certificate")
        prob = registry.load(str(data["problem"]))
        instance, params, solution = check.instance, check.params, check.solution
    else:
        prob, instance, path, _ = _resolve(data, problem)
        params, solution = prob.default_params(), None
        distinct_outputs([path] if path is not None else [], output)
    if prob.render is None:
        raise UsageError(f"{prob.name} has no renderer")
    check_figure_path(output, prob.render_formats)
    prob.render(instance, params, solution, output)
    return Path(output)


def verify(cert: dict[str, Any] | str | Path) -> certificates.Check:
    """Check a certificate (a dict or a file): ``.ok``, ``.reasons`` when not, ``.notes`` on what rests on whom."""
    data = certificates.load(cert) if isinstance(cert, (str, Path)) else cert
    if not isinstance(data, dict):
        return certificates.Check(False, [f"a certificate is a JSON object, not {type(data).__name__}"], data=data)
    if not isinstance(cert, (str, Path)):  # read as its file would be: a field nested 1,000 deep was a RecursionError
        try:
            data = loads_json(json.dumps(data, allow_nan=False), "certificate", "certificate")
        except RecursionError:
            return certificates.Check(False, ["the certificate is nested too deeply"], data=cert)
        except (TypeError, ValueError, InputError) as exc:
            return certificates.Check(False, [f"the certificate is not JSON: {str(exc)[:160]}"], data=cert)
    name = data.get("problem")
    if not isinstance(name, str):
        return certificates.Check(False, ["the certificate names no problem (field problem)"], data=data)
    if name not in registry.PROBLEMS:
        return certificates.Check(False, [f"unknown problem {name[:40]!r}"], data=data)
    from mipgames.run.plan import plan

    return certificates.verify(data, registry.load(name), plan)


@dataclass(frozen=True)
class Model:
    """One formulation of one instance, built: ``model`` (a ``pulp.LpProblem`` or a ``cp_model.CpModel``) is
    yours to read, extend and solve with any settings; ``decode`` turns its variable values into the problem's
    solution, and ``replay`` has the exact simulator judge that solution (a changed model may find anything)."""

    problem: Problem
    instance: Any
    params: dict[str, Any]
    formulation: str
    built: Built

    @property
    def kind(self) -> str:
        """``mip`` (PuLP, any MIP solver) or ``cpsat`` (a native CP-SAT model)."""
        return self.problem.formulations[self.formulation].kind

    @property
    def model(self) -> Any:
        return self.built.model

    @property
    def handles(self) -> Any:
        """The variables the decoder reads (the formulation's own structure; docs/<problem>.md names them)."""
        return self.built.handles

    @property
    def optimises(self) -> bool:
        """False for a model that only decides (queens' K to reach): any feasible solution answers it.  Merge-game's
        target and DESTROY-ALL and edge matching's decision mode keep the objective, the goal added as constraints."""
        return self.built.has_objective

    def objective(self, model_value: float) -> float | None:
        """The natural objective (tiles left, stones destroyed...) of a value or bound of the model's objective."""
        return self.built.natural(model_value)

    def decode(self, values: Callable[[Any], float] | None = None) -> Any:
        """The solution the variables' values describe: ``values`` reads one handle (``solver.value`` after a
        CP-SAT solve); without it a MIP model's values are PuLP's, as ``model.solve(...)`` left them."""
        if values is None:
            if self.kind != "mip":
                raise UsageError("a CP-SAT model's values are its solver's: decode(solver.value)")
            from mipgames.backends.pulp_common import pulp_values

            values = pulp_values(self.built)
        if not callable(values):
            raise UsageError(f"values must be a function of a handle, like solver.value; got {type(values).__name__}")
        form = self.problem.formulations[self.formulation]
        reader = values

        def value(handle: Any) -> float:
            """One handle's value, held to a finite number: None or NaN reached the decoders as raw errors."""
            got = reader(handle)
            if isinstance(got, bool) or not isinstance(got, numbers.Real) or not math.isfinite(got):
                raise InputError(f"a variable's value must be a finite number, got {got!r:.40}", "values")
            return float(got)

        return form.decode(self.instance, self.params, self.built.handles, value)

    def replay(self, solution: Any) -> Verdict:
        """The exact simulator's verdict: ``.legal``, ``.objective`` (measured, not taken from the solver),
        ``.reason`` when illegal.  Whatever is passed is read as a certificate's solution is, as hostile input
        (the merge game's and SameGame's simulators took ``None`` or a list of strings to a raw TypeError)."""
        try:
            readable = self.problem.solution_from_json(self.instance, self.problem.solution_to_json(solution))
        except MipgamesError as exc:
            return Verdict(False, None, f"not a solution: {exc}")
        except certificates.MALFORMED as exc:
            return Verdict(False, None, f"not a solution of this problem ({type(exc).__name__}: {str(exc)[:120]})")
        return self.problem.evaluate(self.instance, self.params, readable)


def build(
    instance: Any, problem: str | None = None, *, formulation: str | None = None, params: dict[str, Any] | None = None
) -> Model:
    """A problem's model of an instance (a path or an instance object), as ``mipgames export`` writes it:
    ``formulation`` names it (default: the problem's MIP model, else its CP-SAT one), ``params`` as for
    ``solve``."""
    from mipgames.run.plan import plan
    from mipgames.run.runner import checked_params

    prob, instance, _, _ = _resolve(instance, problem)
    merged = checked_params(prob, instance, _read_text_values(prob, params) if isinstance(params, dict) else params)
    name = formulation or prob.default_formulation.get("mip") or prob.default_formulation.get("cpsat")
    if name is None:
        raise UsageError(f"{prob.name} has no model to build")
    plan(prob, "cpsat", name, instance, merged)  # refuses a name that does not exist or does not apply
    return Model(prob, instance, merged, name, prob.formulations[name].build(instance, merged, SolveOptions()))
