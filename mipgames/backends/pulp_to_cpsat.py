"""Translate an all-integer PuLP model into CP-SAT, so one MILP can be timed on all four solvers.

CP-SAT needs integer variables with finite domains and integer coefficients.
Rational coefficients are scaled to integers per constraint (exactly, via
fractions); a continuous or unbounded variable cannot be translated and is
refused with its name.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Any

from mipgames.core.errors import UsageError


@dataclass
class Translation:
    model: Any
    variables: dict[str, Any]
    objective_scale: int
    objective_offset: Fraction
    maximise: bool

    def value(self, var: Any, read: Callable[[Any], int]) -> float:
        """The PuLP variable's value in a solution that ``read`` reads from CP-SAT.  A variable in no row and
        not in the objective was never translated (PuLP's ``variables()`` leaves it out, yet a decoder may ask
        for it): any value within its bounds does, and it takes 0 as the PuLP backends read it, or the bound
        nearest to 0 when 0 lies outside its bounds."""
        mine = self.variables.get(var.name)
        if mine is not None:
            return float(read(mine))
        lo = -math.inf if var.lowBound is None else var.lowBound
        hi = math.inf if var.upBound is None else var.upBound
        return float(min(max(0.0, lo), hi))


def _integer_row(coefs: list[float], what: str) -> tuple[list[int], int]:
    """Integer coefficients proportional to coefs, and the positive factor applied."""
    fracs = []
    for c in coefs:
        f = Fraction(c).limit_denominator(10**6)
        if abs(float(f) - c) > 1e-9 * max(1.0, abs(c)):
            raise UsageError(f"cpsat: {what} has a coefficient {c!r} that is not a small rational; translate by hand")
        fracs.append(f)
    factor = lcm(*(f.denominator for f in fracs)) if fracs else 1
    return [int(f * factor) for f in fracs], factor


def translate(lp: Any) -> Translation:
    import pulp
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    variables: dict[str, Any] = {}
    for v in lp.variables():
        if v.cat != pulp.LpInteger:
            raise UsageError(
                f"cpsat: this MIP formulation has continuous variables ({v.name}, say), and only all-integer MIP "
                "formulations translate to CP-SAT: solve it with a MIP solver (cbc, glpk, highs, scip), or pick a "
                "native CP-SAT formulation (`mipgames problems` marks them [cpsat])"
            )
        if v.lowBound is None or v.upBound is None:
            raise UsageError(f"cpsat: variable {v.name} has no finite bounds; CP-SAT needs a finite domain")
        lo, hi = int(round(v.lowBound)), int(round(v.upBound))
        variables[v.name] = model.new_bool_var(v.name) if (lo, hi) == (0, 1) else model.new_int_var(lo, hi, v.name)
    for name, con in lp.constraints.items():
        items = [(variables[var.name], coef) for var, coef in con.items() if coef != 0]
        ints, factor = _integer_row([c for _, c in items] + [-con.constant], f"constraint {name}")
        rhs = ints[-1]
        expr = sum(c * x for (x, _), c in zip(items, ints[:-1]))
        if con.sense == pulp.LpConstraintEQ:
            model.add(expr == rhs)
        elif con.sense == pulp.LpConstraintLE:
            model.add(expr <= rhs)
        else:
            model.add(expr >= rhs)
    maximise = lp.sense == pulp.LpMaximize
    scale, offset = 1, Fraction(0)
    if lp.objective is not None and len(lp.objective) > 0:
        items = [(variables[var.name], coef) for var, coef in lp.objective.items() if coef != 0]
        ints, scale = _integer_row([c for _, c in items], "the objective")
        offset = Fraction(lp.objective.constant).limit_denominator(10**6)
        expr = sum(c * x for (x, _), c in zip(items, ints))
        (model.maximize if maximise else model.minimize)(expr)
    return Translation(model, variables, scale, offset, maximise)
