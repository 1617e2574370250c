"""Solution certificates: one versioned JSON schema for every problem.

A certificate embeds the instance, so the file alone can be checked:
``verify`` re-hashes the embedded instance, replays the solution in the
problem's simulator under the stored params, and accepts only when the replay
reproduces the claimed objective and the claimed bound is consistent with it.
(A replay proves the answer is achievable; an ``optimal`` claim additionally
rests on the solver's bound, which the certificate records.)
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import mipgames
from mipgames.core.errors import InputError, MipgamesError
from mipgames.core.problem import Problem, Verdict

SCHEMA = "mipgames/certificate/1"
REQUIRED = ("schema", "problem", "instance", "instance_sha256", "formulation", "solver", "solver_version",
            "options", "params", "status", "objective", "bound", "wall_time_s", "solution", "verified",
            "toolkit_version", "created")


def canonical(data: Any) -> bytes:
    """Deterministic JSON bytes: the thing that is hashed."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def sha256(data: Any) -> str:
    return hashlib.sha256(canonical(data)).hexdigest()


def write_json_atomic(path: str | Path, data: Any) -> None:
    """Write to a temporary file beside the target, then rename: never a half-written file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w") as fh:
            json.dump(data, fh, indent=2, sort_keys=False)
            fh.write("\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def build(problem: Problem, instance: Any, result: Any, instance_path: str | None = None) -> dict[str, Any]:
    """The certificate of a RunResult (see core.runner)."""
    instance_json = problem.instance_to_json(instance)
    verdict = result.verdict
    name, sense = problem.objective(result.params)
    return {
        "schema": SCHEMA,
        "problem": problem.name,
        "instance_path": instance_path,
        "instance": instance_json,
        "instance_sha256": sha256(instance_json),
        "formulation": result.formulation,
        "solver": result.solver,
        "solver_version": result.solver_version,
        "options": result.options.as_dict(),
        "params": result.params,
        "objective_name": name,
        "sense": sense,
        "status": result.status,
        "objective": result.objective,
        "bound": result.bound,
        "wall_time_s": round(result.wall_time_s, 4),
        "message": result.message,
        "solution": result.solution_json,
        "verified": {
            "legal": bool(verdict and verdict.legal),
            "objective": None if verdict is None else verdict.objective,
            "reason": "" if verdict is None else verdict.reason,
            "measured": {} if verdict is None else verdict.measured,
            "simulator": f"mipgames.{problem.folder}.simulate",
        },
        "toolkit_version": mipgames.__version__,
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
    }


@dataclass
class Check:
    ok: bool
    reasons: list[str] = field(default_factory=list)
    verdict: Verdict | None = None
    problem: Problem | None = None
    instance: Any = None
    solution: Any = None
    data: dict[str, Any] = field(default_factory=dict)


def load(path: str | Path) -> dict[str, Any]:
    try:
        text = Path(path).read_text()
    except OSError as exc:
        raise InputError(f"cannot read certificate: {exc.strerror}", path) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"not JSON: {exc.msg}", path, exc.lineno) from None
    if not isinstance(data, dict):
        raise InputError("a certificate is a JSON object", path, 1)
    return data


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-6 * max(1.0, abs(a), abs(b))


def verify(data: dict[str, Any]) -> Check:
    """Check a certificate from its own contents; every failed rule is a reason."""
    from mipgames.core import registry

    missing = [k for k in REQUIRED if k not in data]
    if missing:
        return Check(False, [f"missing fields: {', '.join(missing)}"], data=data)
    if data["schema"] != SCHEMA:
        return Check(False, [f"unknown schema {data['schema']!r} (this toolkit reads {SCHEMA})"], data=data)
    try:
        problem = registry.load(data["problem"])
    except MipgamesError as exc:
        return Check(False, [str(exc)], data=data)
    check = Check(True, problem=problem, data=data)
    if sha256(data["instance"]) != data["instance_sha256"]:
        check.ok = False
        check.reasons.append("instance_sha256 does not match the embedded instance (instance or hash edited)")
        return check
    try:
        instance = problem.instance_from_json(data["instance"])
        check.instance = instance
        params = problem.default_params()
        params.update(data["params"] or {})
        problem.check_params(instance, params)
    except MipgamesError as exc:
        check.ok = False
        check.reasons.append(f"embedded instance or params rejected: {exc}")
        return check
    status, claimed, bound = data["status"], data["objective"], data["bound"]
    if status not in ("optimal", "feasible"):
        check.ok = False
        check.reasons.append(f"status {status!r}: the certificate holds no solution to replay")
        return check
    if data["solution"] is None:
        check.ok = False
        check.reasons.append(f"status {status!r} but no solution")
        return check
    try:
        solution = problem.solution_from_json(instance, data["solution"])
    except MipgamesError as exc:
        check.ok = False
        check.reasons.append(f"solution is malformed: {exc}")
        return check
    check.solution = solution
    verdict = problem.evaluate(instance, params, solution)
    check.verdict = verdict
    if not verdict.legal:
        check.ok = False
        check.reasons.append(f"the simulator rejects the solution: {verdict.reason}")
        return check
    if claimed is None or not _close(float(claimed), float(verdict.objective)):
        check.ok = False
        check.reasons.append(f"claimed objective {claimed} but the replay measures {verdict.objective:g}")
    sense = problem.objective(params)[1]
    if bound is not None and verdict.objective is not None:
        beyond = verdict.objective - bound if sense == "min" else bound - verdict.objective
        if beyond < -1e-6 * max(1.0, abs(verdict.objective)):
            check.ok = False
            check.reasons.append(f"bound {bound:g} is better than the replayed objective {verdict.objective:g}")
        if status == "optimal" and not _close(float(bound), float(verdict.objective)):
            check.ok = False
            check.reasons.append(f"status optimal but bound {bound:g} differs from the objective {verdict.objective:g}")
    recorded = data.get("verified") or {}
    if recorded.get("objective") is not None and verdict.objective is not None \
            and not _close(float(recorded["objective"]), float(verdict.objective)):
        check.ok = False
        check.reasons.append(f"recorded verification says {recorded['objective']} but the replay measures "
                             f"{verdict.objective:g}")
    return check
