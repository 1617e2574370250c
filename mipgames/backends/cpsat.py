"""OR-Tools CP-SAT: native CP-SAT formulations, and any all-integer PuLP model by translation."""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

from mipgames.backends.base import Backend, Capabilities, Listener, Progress, Silent, Stopwatch, import_fault, number
from mipgames.core.problem import Built, Kind, SolveOptions
from mipgames.core.result import Result
from mipgames.core.status import Status

# "#3       0.12s best:17    next:[4,16]  ..." and "#Bound   0.30s best:17  next:[5,16] ..."
_LINE = re.compile(r"^#(?:\d+|Bound|Done|Model)\s+\S+s\s+best:(\S+)\s+next:\[(\S+),(\S+)\]")


def available() -> str | None:
    return import_fault("ortools.sat.python.cp_model", "ortools")


@functools.cache
def version() -> str:
    try:
        import ortools

        # getattr: mypy sees `ortools` through its typed subpackages' stubs, which do not declare __version__
        return str(getattr(ortools, "__version__", "unknown"))
    except ImportError:
        return "unknown"


def progress(line: str, sense: str) -> Progress | None:
    found = _LINE.match(line)
    if not found:
        return None
    best = number(found.group(1))
    bound = number(found.group(2) if sense == "min" else found.group(3))
    return best, bound


def apply_parameters(solver: Any, options: SolveOptions, model_parameters: Any = None) -> None:
    """A model's own SatParameters first, then the user's time limit, threads, seed and gap over them."""
    p = solver.parameters
    for name, value in (model_parameters or {}).items():
        if isinstance(value, (list, tuple)):
            field = getattr(p, name)
            field.clear()
            field.extend(value)
        else:
            setattr(p, name, value)
    p.num_workers = max(1, options.threads)
    p.random_seed = options.seed
    if options.time_limit is not None:
        p.max_time_in_seconds = float(options.time_limit)
    if options.gap is not None:
        p.relative_gap_limit = float(options.gap)
    p.log_search_progress = True
    p.log_to_stdout = False


def solve(built: Built, kind: Kind, options: SolveOptions, log_path: Path, listener: Listener = Silent()) -> Result:
    from ortools.sat.python import cp_model

    if kind == "mip":
        from mipgames.backends.pulp_to_cpsat import translate

        tr = translate(built.model)
        model = tr.model
        counterpart = lambda var: tr.variables.get(var.name)  # None: in no row and not in the objective
        read: Callable[[Any, Callable[[Any], int]], float] = tr.value
        scale, offset = tr.objective_scale, tr.objective_offset
    else:
        model = built.model
        counterpart = lambda var: var
        read = lambda var, get: float(get(var))
        scale, offset = 1, Fraction(0)
    if options.warm_start and built.hint:
        for var, val in built.hint.items():
            if (target := counterpart(var)) is not None:
                model.add_hint(target, int(round(val)))
    has_objective = model.has_objective()

    def natural(value: float) -> float | None:
        return float(value / scale + float(offset)) if has_objective else None

    class Callback(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            objective = natural(self.objective_value)
            bound = natural(self.best_objective_bound)
            listener.progress(objective, bound)
            listener.solution(objective, bound, lambda var: read(var, self.value))

    solver = cp_model.CpSolver()
    apply_parameters(solver, options, built.cpsat_parameters)
    solver.log_callback = lambda line: print(line, flush=True)
    if has_objective and not isinstance(listener, Silent):
        solver.best_bound_callback = lambda bound: listener.progress(None, natural(bound))
    clock = Stopwatch()
    code = solver.solve(model, None if isinstance(listener, Silent) else Callback())
    wall = clock.elapsed()
    sys.stdout.flush()
    name = solver.status_name(code)
    if code == cp_model.INFEASIBLE:
        return Result(Status.INFEASIBLE, wall_time_s=wall, message=name)
    if code == cp_model.MODEL_INVALID:
        return Result(Status.ERROR, wall_time_s=wall, message=f"CP-SAT: invalid model: {model.validate()}")
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Result(Status.UNKNOWN, wall_time_s=wall, message=name, stop=_stop(options))
    objective = bound = None
    if has_objective:
        objective, bound = natural(solver.objective_value), natural(solver.best_objective_bound)

    def value(var: Any) -> float:
        return read(var, solver.value)

    # OPTIMAL also means "within relative_gap_limit": the claim rule compares the bound with the objective.
    status = Status.OPTIMAL if code == cp_model.OPTIMAL else Status.FEASIBLE
    return Result(
        status,
        objective=objective,
        bound=bound,
        values=value,
        wall_time_s=wall,
        message=name,
        stop=_stop(options, optimal=code == cp_model.OPTIMAL),
        stats={
            "branches": solver.num_branches,
            "conflicts": solver.num_conflicts,
            "solver_parameters": {k: _recorded(v) for k, v in (built.cpsat_parameters or {}).items()},
        },
    )


def _recorded(value: Any) -> Any:
    """A SatParameters value as the certificate records it: lists as lists, enum members by name.

    Why: OR-Tools 9.15 gives enum fields (``search_branching``) as pybind objects, which JSON cannot
    write; the name is what the parameters' text format uses, so a reader can set it again."""
    if isinstance(value, (list, tuple)):
        return [_recorded(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return getattr(value, "name", str(value))


def _stop(options: SolveOptions, optimal: bool = False) -> str:
    """Why CP-SAT ended short of a proof.  Short of OPTIMAL or INFEASIBLE, only a limit stops it, and the time
    limit is the one set: it may also stop before it, "after presolve", when too little of it is left to search
    (it did at 2.1 s with 1.6 s spent, and the stop went unnamed)."""
    if optimal:
        return "gap" if options.gap else ""
    return "time limit" if options.time_limit is not None else ""


BACKEND = Backend(
    name="cpsat",
    description="OR-Tools CP-SAT (native models; PuLP models by translation)",
    capabilities=Capabilities(
        kinds=("mip", "cpsat"), warm_start=True, threads=True, progress_callback=True, incumbent_callback=True
    ),
    solve=solve,
    version=version,
    available=available,
    progress=None,
)
