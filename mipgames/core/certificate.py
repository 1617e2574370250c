"""Solution certificates: one versioned JSON schema for every problem, checked as hostile input.

A certificate embeds the instance, so the file alone can be checked.
:func:`verify` validates it against the JSON Schema
(``certificate.schema.json``, published in ``docs/``), re-hashes the embedded
instance, replays the solution in the problem's simulator under the stored
params, and applies the same claim rule as the runner
(:func:`mipgames.core.problem.judge`) to the recorded status, objective and
bound.  What a replay cannot show — that no better solution exists, or that
none exists at all — rests on the prover the certificate names;
``mipgames verify --reprove`` asks a second solver.
"""

from __future__ import annotations

import datetime as _dt
import functools
import hashlib
import json
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from mipgames.core.errors import InputError, MipgamesError, printable, shown_path
from mipgames.core.files import read_bytes, read_json, write_json_atomic
from mipgames.core.problem import (
    Problem,
    SolveOptions,
    Verdict,
    bare,
    is_own,
    judge,
)
from mipgames.core.result import Result
from mipgames.core.status import Status, finite, reachable, same, shown, tighter
from mipgames.core.version import VERSION

SCHEMA = "mipgames/certificate/2"
MAX_CERTIFICATE_BYTES = 256 * 1024 * 1024
"""The largest certificate read: four times the largest instance file, since a certificate embeds its instance as
JSON (a 16 MB merge-game map of 1.6M pieces made a 105 MB certificate, which verify refused at 64 MiB)."""

__all__ = ["SCHEMA", "Check", "build", "canonical", "load", "schema", "sha256", "verify", "write_json_atomic"]


def canonical(data: Any) -> bytes:
    """Deterministic JSON bytes: the thing that is hashed."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def sha256(data: Any) -> str:
    return hashlib.sha256(canonical(data)).hexdigest()


@functools.cache
def schema() -> dict[str, Any]:
    """The JSON Schema of certificates (also published as docs/certificate.schema.json)."""
    loaded: dict[str, Any] = json.loads(
        resources.files("mipgames.core").joinpath("certificate.schema.json").read_text()
    )
    return loaded


def _exact(value: float) -> str:
    """A number as it was given: 60 for 60.0, 12.3456789 in full."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def rerun_command(result: Result, instance_path: str | None, problem: Problem, earlier_spelling: bool = False) -> str:
    """The command line that repeats this solve (what a reader needs to re-run the claim).

    A nullable parameter (``Param.nullable``) set to None where its default is not is spelt ``none``, as
    ``--frame-colour none``; without it the rerun would solve another puzzle."""
    options = result.options
    words = ["mipgames", "solve", instance_path or "INSTANCE", "--problem", result.problem, "--solver", result.solver]
    if result.formulation:
        words += ["--formulation", result.formulation]
    if options is not None:
        # numbers as Python writes them back exactly (":g" kept six digits: --time-limit 12.3456789 reran as 12.3457),
        # and the memory limit, which it left out; ``earlier_spelling`` spells it as certificates did before
        number = (lambda value: f"{value:g}") if earlier_spelling else _exact
        if options.time_limit is not None:
            words += ["--time-limit", number(options.time_limit)]
        elif not earlier_spelling:  # unlimited (the API's time_limit=None): without the word the rerun had 60 s
            words += ["--time-limit", "none"]
        words += ["--threads", str(options.threads), "--seed", str(options.seed)]
        if options.gap is not None:
            words += ["--gap", number(options.gap)]
        if options.memory_limit is not None and not earlier_spelling:
            words += ["--memory-limit", str(int(options.memory_limit))]
        if options.warm_start:
            words.append("--warm-start")
    words += param_words(result.params, problem)
    return " ".join(shlex.quote(w) for w in words)


def param_words(params: dict[str, Any], problem: Problem) -> list[str]:
    """The problem's parameters as command-line words: a switch when True, nothing when unset (None or False)."""
    nullable = {p.name for p in problem.params if p.nullable and p.default is not None}
    unset = {p.name for p in problem.params if p.default is None}  # there a 0 is a value (--target 0), not "off"
    words: list[str] = []
    for name, value in sorted(params.items()):
        flag = "--" + name.replace("_", "-")
        if value is True:
            words.append(flag)
        elif value is None and name in nullable:
            words += [flag, "none"]
        elif value not in (False, None) or (name in unset and value == 0 and value is not False):
            words += [flag, str(value)]
    return words


def build(
    problem: Problem,
    instance: Any,
    result: Result,
    instance_path: str | None = None,
    instance_text_sha256: str | None = None,
) -> dict[str, Any]:
    """The certificate of a runner Result."""
    instance_json = problem.instance_to_json(instance)
    verdict = result.verdict
    replayed = verdict if result.status.has_solution else None  # an error keeps no solution: no replay to record,
    # only the simulator's reason (verify refuses a replay recorded beside no solution)
    name, sense = problem.objective(result.params)
    return {
        "schema": SCHEMA,
        "problem": problem.name,
        "instance_path": instance_path,
        "instance": instance_json,
        "instance_sha256": sha256(instance_json),
        "instance_text_sha256": instance_text_sha256,
        "formulation": result.formulation,
        "solver": result.solver,
        "solver_version": result.solver_version,
        "solver_parameters": dict(result.stats.get("solver_parameters") or {}),
        "options": result.options.as_dict(),
        "params": result.params,
        "objective_name": name,
        "sense": sense,
        "status": str(result.status),
        "reported_status": None if result.reported is None else str(result.reported),
        "objective": result.objective,
        "bound": result.bound,
        "proved_by": result.proved_by,
        "stop": result.stop,
        "wall_time_s": round(max(0.0, result.wall_time_s), 4),
        "message": result.message[:4000],
        "solution": result.solution_json if result.status.has_solution else None,
        "verified": {
            "legal": bool(replayed and replayed.legal),
            "objective": None if replayed is None else replayed.objective,
            "reason": "" if verdict is None else verdict.reason[:4000],
            "measured": {} if replayed is None else replayed.measured,
            "simulator": f"mipgames.{problem.folder}.simulate",
        },
        "stats": {k: v for k, v in result.stats.items() if k != "solver_parameters"},
        "rerun": rerun_command(result, instance_path, problem),
        "toolkit_version": VERSION,
        "created": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
    }


@dataclass
class Check:
    """The outcome of :func:`verify`: ok, the reasons when not, and what the replay found."""

    ok: bool
    reasons: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    verdict: Verdict | None = None
    instance: Any = None
    params: dict[str, Any] = field(default_factory=dict)
    solution: Any = None
    data: dict[str, Any] = field(default_factory=dict)

    def reject(self, reason: str) -> Check:
        self.ok = False
        self.reasons.append(reason)
        return self


def load(path: str | Path) -> dict[str, Any]:
    """A certificate file as a dict (regular files only, bounded size, hostile JSON refused)."""
    data = read_json(path, "certificate", MAX_CERTIFICATE_BYTES)
    if not isinstance(data, dict):
        raise InputError("a certificate is a JSON object", path, 1)
    return data


def _schema_errors(data: dict[str, Any]) -> list[str]:
    import jsonschema

    validator = jsonschema.Draft202012Validator(schema())
    errors = sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path))
    out = []
    for error in errors[:5]:
        where = "/".join(str(p) for p in error.absolute_path) or "(top level)"
        out.append(f"field {where}: {error.message[:160]}")
    return out


MALFORMED = (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError, RecursionError, MemoryError)
"""What a problem's codec or simulator raises on data of the wrong shape: the data's fault, not the toolkit's."""


def _guarded(what: str, fn: Any, *args: Any) -> Any:
    """Call a problem's codec or simulator on certificate data: any failure is the certificate's fault."""
    try:
        return fn(*args)
    except MipgamesError as exc:
        raise _Rejected(f"{what}: {exc}") from None
    except MALFORMED as exc:
        raise _Rejected(f"{what}: malformed ({type(exc).__name__}: {str(exc)[:120]})") from None


class _Rejected(Exception):
    pass


def _fits(default: Any, value: Any) -> bool:
    """A JSON value of the kind a parameter's default has (ints may stand for floats; None where it is the default)."""
    if value is None:
        return default is None
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(default, bool) and isinstance(value, bool)
    if isinstance(default, float):
        return isinstance(value, (int, float))
    if isinstance(default, (int, str)):
        return isinstance(value, type(default))
    return isinstance(value, (int, float, str))


def _params(problem: Problem, given: dict[str, Any]) -> dict[str, Any]:
    """The certificate's params, each checked against the problem's declaration."""
    known = {p.name: p for p in problem.params}
    params = problem.default_params()
    for name, value in given.items():
        p = known.get(name)
        if p is None:
            raise _Rejected(f"params: {str(name)[:40]!r} is not a parameter of {problem.name}")
        if not (value is None and p.nullable) and not _fits(False if p.flag else p.default, value):
            raise _Rejected(f"params: {name} has a value of the wrong type ({str(value)[:40]!r})")
        if p.choices is not None and value not in p.choices:
            raise _Rejected(f"params: {name} must be one of {', '.join(map(str, p.choices))}")
        params[name] = value
    return params


def param_fault(problem: Problem, given: Any) -> str:
    """Why ``given`` are not params of ``problem`` as a certificate must record them ("" when they are): the
    runner refuses such params up front, since the certificate it would write could not verify."""
    if not isinstance(given, dict):
        return f"params are a mapping of names to values, not {type(given).__name__}"
    try:
        _params(problem, given)
    except _Rejected as exc:
        return str(exc)
    return ""


Resolve = Callable[..., object]
"""``mipgames.run.plan.plan``'s signature: (problem, solver, formulation, instance, params), raising UsageError
for names the toolkit cannot run."""


def verify(data: dict[str, Any], problem: Problem, resolve: Resolve | None = None) -> Check:
    """Check a certificate of ``problem`` from its own contents; every failed rule is a reason.

    ``resolve`` is the runner's resolution of solver and formulation names (passed in by the layers above
    core, which own it): a certificate naming ones it refuses records a run its rerun command cannot repeat.
    Reasons and notes quote the certificate (a prover's name, say), so they are made printable: a
    forged field cannot add a line that looks like a verdict, or send the terminal commands."""
    check = _verify(data, problem, resolve)
    check.reasons = [printable(text) for text in check.reasons]
    check.notes = [printable(text) for text in check.notes]
    return check


def _verify(data: dict[str, Any], problem: Problem, resolve: Resolve | None) -> Check:
    check = Check(True, data=data)
    if data.get("schema") != SCHEMA:
        return check.reject(f"unknown schema {str(data.get('schema'))[:60]!r} (this toolkit reads {SCHEMA})")
    errors = _schema_errors(data)
    if errors:
        for error in errors:
            check.reject(error)
        return check
    if data["problem"] != problem.name:
        return check.reject(f"certificate of {data['problem']!r}, checked as {problem.name!r}")
    if sha256(data["instance"]) != data["instance_sha256"]:
        return check.reject("instance_sha256 does not match the embedded instance (instance or hash edited)")
    try:
        check.instance = _guarded("embedded instance", problem.instance_from_json, data["instance"])
        check.params = _params(problem, data["params"])
        _guarded("params", problem.check_params, check.instance, check.params)
        _provenance(check, problem, resolve)
        return _claims(check, problem)
    except _Rejected as exc:
        return check.reject(str(exc))


OPTION_FIELDS = ("time_limit", "threads", "gap", "seed", "warm_start", "memory_limit")
"""``SolveOptions.as_dict``'s keys: what a certificate's ``options`` hold."""


def _provenance(check: Check, problem: Problem, resolve: Resolve | None) -> None:
    """The fields that say where the run came from must describe the run checked: ``rerun`` is the command
    this run's fields make (it is printed for the reader to run), and an ``instance_path`` that still holds the
    file solved (its text hash matches) must hold the embedded instance.  Raises _Rejected."""
    data = check.data
    options = data["options"]
    if not data["solver"]:
        raise _Rejected("solver is empty: a certificate names the solver that ran")
    if resolve is not None:
        _guarded("solver", resolve, problem, data["solver"], data.get("formulation"), check.instance, check.params)
    run = Result(
        Status(data["status"]),
        problem=problem.name,
        solver=data["solver"],
        formulation=data.get("formulation"),
        params=check.params,
        options=_guarded("options", lambda: SolveOptions(**{k: options.get(k) for k in OPTION_FIELDS})),
    )
    expected = _guarded("rerun", rerun_command, run, data["instance_path"], problem)
    spellings = {  # the current one and those written before the spelling changed, which verify too
        expected,
        expected.replace(" --time-limit none", ""),
        _guarded("rerun", rerun_command, run, data["instance_path"], problem, True),
    }
    if data["rerun"] not in spellings:
        raise _Rejected(f"rerun {str(data['rerun'])[:80]!r} is not this run's command ({expected[:120]})")
    path, text_sha = data["instance_path"], data["instance_text_sha256"]
    if not path or not text_sha:
        return
    try:
        if hashlib.sha256(read_bytes(path, "instance")).hexdigest() != text_sha:
            check.notes.append(f"{shown_path(path)} no longer holds the file solved: the embedded instance was checked")
            return
    except (MipgamesError, OSError):
        return  # gone or unreadable: the embedded instance is what is checked
    try:  # the very bytes solved, so they must read as the instance embedded
        here = problem.instance_to_json(problem.read(path))
    except (MipgamesError, OSError) as exc:
        raise _Rejected(
            f"instance_path {path} holds the bytes its text hash names, but they are no {problem.name} "
            f"instance ({str(exc)[:160]})"
        ) from None
    if sha256(here) != data["instance_sha256"]:
        raise _Rejected(f"instance_path {path} and its text hash name another instance than the one embedded")


def _agrees(claimed: float, measured: float, problem: Problem) -> bool:
    """A claimed objective matches the replay's: exactly where objectives are integers (the toolkit writes the
    replay's own value; 508.0000001 claims a game that does not exist), else within ``same``'s tolerance."""
    return claimed == float(measured) if problem.integral else same(claimed, float(measured))


def _recorded(bound: object) -> str:
    """What a rejection adds when its reason may quote another bound (the toolkit's own joins the recorded one,
    and an integral objective's bound is rounded): the number the certificate itself records."""
    value = finite(bound)
    return "; the certificate records no bound" if value is None else f"; the certificate records bound {shown(value)}"


def _recorded_verdict_differs(recorded: dict[str, Any], verdict: Verdict | None, problem: Problem) -> str:
    """Why the certificate's record of the simulator's verdict is not what the replay gives (empty: it is).

    The record is what a reader of the file sees as the replay's findings
    (moves, stones, tiles left), so each field it holds is held to the replay
    here, as ``build`` writes it (the schema requires only ``legal`` and
    ``objective``: a field left out claims nothing); with no solution there is
    no replay, and the record must say so.
    """
    simulator = f"mipgames.{problem.folder}.simulate"
    if recorded.get("simulator", simulator) != simulator:
        return f"recorded verification names simulator {str(recorded.get('simulator'))[:60]!r}, not {simulator}"
    if verdict is None:
        if recorded.get("legal") or recorded.get("objective") is not None or recorded.get("measured"):
            return "recorded verification reports a replay, but the certificate carries no solution to replay"
        return ""
    if recorded.get("reason", verdict.reason[:4000]) != verdict.reason[:4000]:
        given = str(recorded.get("reason"))[:60]
        return f"recorded verification gives reason {given!r}, the replay {verdict.reason[:60]!r}"
    measured = json.loads(json.dumps(verdict.measured))
    if canonical(recorded.get("measured", measured)) != canonical(measured):  # as JSON: true is not 1, 2.0 not 2
        return "recorded verification's measurements (measured) are not the replay's"
    return ""


def _claims(check: Check, problem: Problem) -> Check:
    data, params = check.data, check.params
    status = Status(data["status"])
    name, sense = problem.objective(params)
    if data["sense"] != sense or data["objective_name"] != name:
        return check.reject(
            f"objective recorded as {data['objective_name']!r} ({data['sense']}), "
            f"but these params give {name!r} ({sense})"
        )
    objective = None
    if data["solution"] is not None:
        check.solution = _guarded("solution", problem.solution_from_json, check.instance, data["solution"])
        verdict = _guarded("replay", problem.evaluate, check.instance, params, check.solution)
        check.verdict = verdict
        if not verdict.legal:
            return check.reject(f"the simulator rejects the solution: {verdict.reason}")
        objective = verdict.objective
        recorded = data["verified"].get("objective")
        measured = finite(recorded)
        if data["verified"].get("legal") is not True:
            check.reject("recorded verification does not say the solution is legal, but the replay finds it legal")
        elif measured is None or not _agrees(measured, objective, problem):
            check.reject(f"recorded verification says {str(recorded)[:30]} but the replay measures {shown(objective)}")
    differs = _recorded_verdict_differs(data["verified"], check.verdict, problem)
    if differs:
        check.reject(differs)
    if status.has_solution and objective is None:
        return check.reject(f"status {status} but no solution to replay")
    if not status.has_solution and data["solution"] is not None:
        return check.reject(f"status {status} yet the certificate carries a solution")
    if status.has_solution:
        claimed = finite(data["objective"])
        if claimed is None or objective is None or not _agrees(claimed, objective, problem):
            check.reject(f"claimed objective {data['objective']} but the replay measures {shown(objective)}")
    elif data["objective"] is not None:
        check.reject(f"status {status} cannot carry an objective")
    if status.proved and not data["proved_by"].strip():
        check.reject(f"status {status} names no prover (proved_by is empty)")
    if data["bound"] is not None and finite(data["bound"]) is None:
        return check.reject(f"bound {str(data['bound'])[:30]} is not a finite number")
    reported = data.get("reported_status")
    if reported is not None and status not in reachable(reported):
        return check.reject(f"status {status} cannot come of the solver's reported {reported} by the claim rule")
    if status is Status.ERROR:
        if data["bound"] is not None or data["proved_by"].strip():  # the runner writes neither on an error
            return check.reject("status error claims nothing, yet the certificate records a bound or a prover")
        check.notes.append("records a failed run: it claims nothing")
        return check
    prover = data["proved_by"]
    strict = functools.partial(judge, strict=True)  # a bound the runner would have dropped is refused here
    claim, own, proof = _guarded(
        "claim", strict, problem, check.instance, params, status, objective, data["bound"], prover
    )
    if claim.status is Status.ERROR:
        return check.reject(claim.reason + _recorded(data["bound"]))
    if claim.status is not status:
        if status is Status.FEASIBLE and claim.status is Status.OPTIMAL:
            check.notes.append("its bound meets the objective: it could be called optimal")
        elif status is Status.UNKNOWN and claim.status is Status.INFEASIBLE:
            check.notes.append(f"{claim.reason}: it could be called infeasible")
        else:
            detail = f" ({claim.reason})" if claim.reason else ""
            return check.reject(
                f"status {status} is not what the claim rule gives: {claim.status}{detail}" + _recorded(data["bound"])
            )
    sense = problem.objective(params)[1]

    def recomputed(value: float | None) -> bool:
        """The toolkit's own bound, recomputed here, is as tight as ``value``: nothing is taken on trust."""
        return own is not None and value is not None and (same(value, own[0]) or tighter(own[0], value, sense))

    stated = finite(data["bound"])
    if status is Status.OPTIMAL and (is_own(claim.proved_by, own, problem.bound_aliases) or recomputed(objective)):
        assert own is not None
        check.notes.append(f"optimality rests on the toolkit's own bound, recomputed here: {own[1]}")
        if objective is not None and (stated is None or not same(stated, objective)):
            recorded = "records no bound" if stated is None else f"records bound {shown(stated)}"
            check.notes.append(f"the certificate {recorded}, which does not prove it: the recomputed bound alone does")
    elif status is Status.OPTIMAL:
        check.notes.append(
            f"optimality rests on the bound proved by {claim.proved_by} (taken on trust: --reprove checks it)"
        )
    elif status is Status.INFEASIBLE and is_own(prover, own, problem.bound_aliases):
        check.notes.append(f"infeasible rests on the toolkit's own bound, recomputed here: {own[1]}")
    elif status is Status.INFEASIBLE and proof is not None and bare(prover) == bare(proof[0]):
        check.notes.append(f"infeasible rests on the toolkit's own proof, recomputed here: {proof[1]}")
    elif status in (Status.INFEASIBLE, Status.UNBOUNDED):
        check.notes.append(f"{status} rests on the proof of {data['proved_by']}; --reprove asks another solver")
    elif status is Status.UNKNOWN:
        check.notes.append("no answer in time: it claims nothing but its bound")
    if status in (Status.FEASIBLE, Status.UNKNOWN) and stated is not None:
        if is_own(prover, own, problem.bound_aliases) or recomputed(stated):
            assert own is not None
            if same(stated, own[0]):
                check.notes.append(f"its bound {shown(stated)} is the toolkit's own, recomputed here: {own[1]}")
            else:  # weaker than what the toolkit proves itself: true, but not the number recomputed
                check.notes.append(
                    f"its bound {shown(stated)} holds: the toolkit's own bound, recomputed here, is "
                    f"{shown(own[0])} ({own[1]})"
                )
        else:
            check.notes.append(
                f"its bound {shown(stated)} rests on the proof of {prover} (taken on trust: --reprove checks it)"
            )
    if problem.claims is not None:
        check.notes += _guarded(
            "stats", problem.claims, check.instance, params, data.get("stats", {}), objective, status.value
        )
    return check
