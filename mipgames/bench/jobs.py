"""One benchmark job: a small picklable spec, its identity, and running it into a database row.

A job is identified by what determines its outcome — the instance's content
hash (not its path), problem, formulation, solver, params, options, seed and
repeat number — so ``--resume`` finds finished runs even if instance files
moved.  The worker reads the instance from its path itself: specs stay tiny,
which is what Dask wants to ship.
"""

from __future__ import annotations

import datetime as _dt
import functools
import importlib
import json
import multiprocessing as mp
import os
import platform
import socket
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import mipgames
from mipgames import registry
from mipgames.core.certificate import canonical, sha256
from mipgames.core.errors import UsageError, shown_path
from mipgames.core.problem import Problem, SolveOptions
from mipgames.core.status import Status

SOLVED, TIMEOUT, ERROR = "solved", "timeout", "error"


@dataclass(frozen=True)
class JobSpec:
    """Everything a worker needs to run one solve; ``module`` names an importable module with ``PROBLEM``
    for problems outside the package (tests use ``tests.core.toy``)."""

    instance_path: str
    instance_sha256: str
    problem: str
    solver: str
    formulation: str | None
    params: dict[str, Any]
    time_limit: float
    threads: int = 1
    seed: int = 0
    repeat: int = 0
    module: str | None = None
    parallel_jobs: int = 1
    """How many jobs share the machine: not part of the identity, but recorded (timings depend on it)."""

    def options(self) -> SolveOptions:
        # float(): a limit of 5 and of 5.0 is the same job (and must hash the same for --resume)
        return SolveOptions(time_limit=float(self.time_limit), threads=self.threads, seed=self.seed)

    def key(self) -> str:
        return sha256(
            {
                "instance": self.instance_sha256,
                "problem": self.problem,
                "formulation": self.formulation,
                "solver": self.solver,
                "params": self.params,
                "options": self.options().as_dict(),
                "seed": self.seed,
                "repeat": self.repeat,
            }
        )


def load_problem(name: str | None, module: str | None = None, path: str | None = None) -> Problem:
    """The Problem of a job: from ``module.PROBLEM`` when given, else by name, else inferred from the path."""
    if module:
        if os.getcwd() not in sys.path:  # as `python -m` would: a module named relative to where we run
            sys.path.append(os.getcwd())
        try:
            return importlib.import_module(module).PROBLEM
        except (ImportError, AttributeError) as exc:
            raise UsageError(f"--problem-module {module}: {exc}") from None
    name = name or (registry.infer(path) if path else None)
    if name is None:
        raise registry.unknown_problem(path or "", lambda problem: f"add --problem {problem}")
    return registry.load(name)


def outcome(status: str) -> str:
    """solved: a proved claim (optimal, infeasible, unbounded); timeout: stopped without proof; error: the rest."""
    claim = Status(status)
    if claim.proved:
        return SOLVED
    if claim in (Status.FEASIBLE, Status.UNKNOWN):
        return TIMEOUT
    return ERROR


def relative_gap(objective: float | None, bound: float | None) -> float | None:
    """|objective − bound| / max(|objective|, |bound|); 0 when they meet, None without both."""
    if objective is None or bound is None:
        return None
    scale = max(abs(objective), abs(bound))
    return 0.0 if scale == 0 or abs(objective - bound) <= 1e-9 * max(1.0, scale) else abs(objective - bound) / scale


@functools.cache
def machine() -> dict[str, Any]:
    """What the report states about the machine a run used."""
    cpu, mem_gb = platform.processor() or platform.machine(), None
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                mem_gb = round(int(line.split()[1]) / 1024**2, 1)
                break
    except OSError:
        pass
    return {
        "host": socket.gethostname(),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory_gb": mem_gb,
        "os": platform.platform(),
        "python": platform.python_version(),
    }


@functools.cache
def toolkit_commit() -> str:
    """The git commit of the toolkit's source tree, when it runs from a checkout ("" otherwise)."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=Path(mipgames.__file__).parent,
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return out.stdout.strip() if out.returncode == 0 else ""


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


def base_row(spec: JobSpec) -> dict[str, Any]:
    """The identity and settings part of a row, before anything ran."""
    return {
        "job_key": spec.key(),
        "instance_sha256": spec.instance_sha256,
        "instance_path": spec.instance_path,
        "problem": spec.problem,
        "formulation": spec.formulation,
        "solver": spec.solver,
        "params": json.dumps(spec.params, sort_keys=True),
        "options": canonical(spec.options().as_dict()).decode(),
        "time_limit": spec.time_limit,
        "threads": spec.threads,
        "seed": spec.seed,
        "repeat": spec.repeat,
        "parallel_jobs": spec.parallel_jobs,
        "host": machine()["host"],
        "toolkit_version": mipgames.__version__,
        "toolkit_commit": toolkit_commit(),
        "machine": machine(),
    }


def error_row(spec: JobSpec, message: str, started: str | None = None, job_time: float | None = None) -> dict[str, Any]:
    """A run that failed outside the solver (bad instance, lost worker...): still a row, so the campaign goes on."""
    row = base_row(spec)
    row.update(
        {
            "status": "error",
            "outcome": ERROR,
            "message": message,
            "verified": 0,
            "verification_failed": 0,
            "started_at": started or _now(),
            "finished_at": _now(),
            "job_time_s": job_time,
            "solver_version": "unknown",
            "sense": None,
            "objective_name": None,
        }
    )
    return row


def _solver_version(solver: str, reported: str) -> str:
    from mipgames.backends import BACKENDS as MODEL_SOLVERS

    if reported != "unknown" or solver not in MODEL_SOLVERS:
        return reported
    from mipgames.backends import get_backend

    return get_backend(solver).version()


@functools.cache
def warm_up(solver: str) -> None:
    """Import the modelling libraries and ask the solver's version once per process, before the runner forks.

    Forked children inherit what the parent imported; without this every run
    would pay PuLP/OR-Tools import time (up to seconds) and charge part of it
    to model build time, which would make build times unfair between solvers.
    """
    from mipgames.backends import BACKENDS as MODEL_SOLVERS

    if solver not in MODEL_SOLVERS:
        return
    import pulp  # noqa: F401
    from ortools.sat.python import cp_model  # noqa: F401

    from mipgames.backends import get_backend

    backend = get_backend(solver)
    if backend.available() is None:
        backend.version()


def execute(spec: JobSpec) -> dict[str, Any]:
    """Run one job in this process (the solve itself in an isolated child) and return its row."""
    from mipgames.run.runner import solve

    started, clock = _now(), time.perf_counter()
    try:
        warm_up(spec.solver)
        clock = time.perf_counter()  # once-per-process start-up is not a cost of this job
        problem = load_problem(spec.problem, spec.module)
        instance = problem.read(spec.instance_path)
        found = sha256(problem.instance_to_json(instance))
        if found != spec.instance_sha256:
            raise UsageError(
                f"{shown_path(spec.instance_path)} changed since the campaign was planned (sha256 {found[:12]})"
            )
        result = solve(
            problem,
            instance,
            solver=spec.solver,
            formulation=spec.formulation,
            params=spec.params,
            options=spec.options(),
            isolate=True,
        )
    except Exception as exc:  # the harness must outlive any failure of one job (bad file, usage, bug)
        return error_row(spec, f"{type(exc).__name__}: {exc}", started, time.perf_counter() - clock)
    name, sense = problem.objective(result.params)
    row = base_row(spec)
    row.update(
        {
            "formulation": result.formulation,
            "solver_version": _solver_version(spec.solver, result.solver_version),
            "status": str(result.status),
            "outcome": outcome(result.status),
            "reported_status": None if result.reported is None else str(result.reported),
            "proved_by": result.proved_by or None,
            "stop": result.stop or None,
            "objective": result.objective,
            "bound": result.bound,
            "gap": relative_gap(result.objective, result.bound),
            "sense": sense,
            "objective_name": name,
            "wall_time_s": result.wall_time_s,
            "cpu_time_s": result.stats.get("cpu_time_s"),
            "peak_rss_mb": result.stats.get("peak_rss_mb"),
            "build_time_s": result.stats.get("build_time_s"),
            "verified": int(result.verified),
            # the runner turns a rejected replay into "error" but keeps the verdict: that is a failed verification
            "verification_failed": int(result.status == "error" and result.verdict is not None),
            "message": result.message,
            "started_at": started,
            "finished_at": _now(),
            "job_time_s": time.perf_counter() - clock,
        }
    )
    return row


def run_job(spec: JobSpec) -> dict[str, Any]:
    """What a Dask worker (or the serial loop) calls.

    The runner forks its solver child with multiprocessing, which a daemonic
    process may not do; Dask's nanny starts workers daemonic unless
    ``distributed.worker.daemon`` is False.  Our LocalCluster sets that; on a
    cluster that did not, the job runs in a fresh interpreter instead (slower
    by one interpreter start-up, same result).
    """
    if mp.current_process().daemon:
        return run_in_subprocess(spec)
    return execute(spec)


def run_in_subprocess(spec: JobSpec) -> dict[str, Any]:
    started, clock = _now(), time.perf_counter()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([p for p in sys.path if p] + [env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    proc = subprocess.run(
        [sys.executable, "-m", "mipgames.bench.jobs"],
        input=json.dumps(asdict(spec)),
        capture_output=True,
        text=True,
        env=env,
    )
    if proc.returncode != 0:
        tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return error_row(
            spec, f"job subprocess failed (exit {proc.returncode}): {tail}", started, time.perf_counter() - clock
        )
    row = json.loads(proc.stdout)
    row["job_time_s"] = time.perf_counter() - clock
    return row


if __name__ == "__main__":
    print(json.dumps(execute(JobSpec(**json.loads(sys.stdin.read())))))
