"""What the three PuLP backends (CBC, GLPK, HiGHS) share: warm starts, values, objective."""

from __future__ import annotations

from typing import Any

from mipgames.core.problem import Built
from mipgames.core.result import Result, Value
from mipgames.core.status import Status


def apply_hint(built: Built) -> bool:
    """Loads Built.hint into PuLP's initial values; True when there was one."""
    if not built.hint:
        return False
    for var, val in built.hint.items():
        var.setInitialValue(val)
    return True


def pulp_values(built: Built) -> Value:
    def value(var: Any) -> float:
        v = var.varValue
        return 0.0 if v is None else float(v)

    return value


def has_values(built: Built) -> bool:
    """True when the solver gave every model variable a value.

    PuLP adds a `__dummy` variable to constraint-free objectives; GLPK never
    reports it, so it must not count as missing.  A model with no variable of
    its own (a position where nothing can move) has them all: its one solution
    is the empty one, which the simulator replays like any other.
    """
    variables = [v for v in built.model.variables() if v.name != "__dummy"]
    return all(v.varValue is not None for v in variables)


def objective_value(built: Built) -> float:
    """The objective at the solver's values, read as ``pulp_values`` reads them (a variable the solver left
    without a value counts 0).  ``pulp.value`` gives None for a whole expression when one variable has none, and
    a constant objective carries PuLP's ``__dummy``, which no solver reports: that read as 0, not the constant."""
    obj = built.model.objective
    if obj is None:
        return 0.0
    return float(obj.constant) + sum(coef * (var.varValue or 0.0) for var, coef in obj.items())


def objective_constant(built: Built) -> float:
    """The objective's constant term: CBC and HiGHS leave it out of the bounds they report."""
    obj = built.model.objective
    return 0.0 if obj is None else float(obj.constant)


def solved(built: Built, status: Status, bound: float | None, wall_time_s: float, message: str) -> Result:
    """The result of a PuLP solve that left values in the model's variables."""
    return Result(
        status,
        objective=objective_value(built),
        bound=bound,
        values=pulp_values(built),
        wall_time_s=wall_time_s,
        message=message,
    )
