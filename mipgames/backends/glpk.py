"""GNU GLPK in-process through its C API (swiglpk): no temporary files, and a time limit GLPK checks between
steps of its search (a long root LP can overrun it; the supervisor then ends the run at the deadline's grace).

The PuLP model is loaded into a GLPK problem object column by column and row
by row, and solved by ``glp_intopt`` with the presolver.  GLPK's own report
gives the status: ``glp_intopt`` returns how the search ended (time limit,
gap limit, no feasible relaxation) and ``glp_mip_status`` whether an integer
solution exists and was proved optimal.  The API does not expose the search's
bound after the fact, so it is read from GLPK's last ``mip = X >= Y`` line,
which goes to the solver log like the rest of its output.
"""

from __future__ import annotations

import functools
import math
import re
from pathlib import Path
from typing import Any

from mipgames.backends.base import (
    Backend,
    Capabilities,
    Listener,
    Progress,
    Silent,
    Stopwatch,
    import_fault,
    last_match,
    loading_ran_out,
    number,
    read_log,
)
from mipgames.backends.pulp_common import solved
from mipgames.core.alarm import DeadlinePassed, interrupt_at
from mipgames.core.problem import Built, Kind, SolveOptions
from mipgames.core.result import Result
from mipgames.core.status import Status

_MIP_LINE = re.compile(r"(?:mip =|>>>>>)\s+(\S+(?: found yet)?)\s+([<>]=)\s+(\S+)")
"""GLPK's branch-and-cut lines: ``mip =`` every few seconds, ``>>>>>`` at once for each better solution found
in the tree (reading only the first showed a 6x6 puzzle's start, 10, for 9 s while GLPK held 6, 5, 4, 2)."""
_HEURISTIC_LINE = re.compile(r"^Solution found by heuristic: (\S+)")
"""A better solution from GLPK's primal heuristics (incumbent only: 72, 76, 77 before the first ``mip =``)."""


def available() -> str | None:
    return import_fault("swiglpk", "swiglpk")


@functools.cache
def version() -> str:
    try:
        import swiglpk

        return str(swiglpk.glp_version())
    except ImportError:
        return "unknown"


def progress(line: str, sense: str) -> Progress | None:
    found = _MIP_LINE.search(line)
    if found:
        return number(found.group(1)), number(found.group(3))
    heuristic = _HEURISTIC_LINE.match(line)
    if heuristic:
        return number(heuristic.group(1)), None
    return None


def _load(glp: Any, prob: Any, model: Any) -> list[Any]:
    """Fill the GLPK problem object ``prob`` with the PuLP model; returns the variables in column order."""
    import pulp

    variables = model.variables()
    column = {v.name: j for j, v in enumerate(variables, start=1)}
    glp.glp_set_obj_dir(prob, glp.GLP_MAX if model.sense == pulp.LpMaximize else glp.GLP_MIN)
    if variables:
        glp.glp_add_cols(prob, len(variables))
    for j, v in enumerate(variables, start=1):
        lo, hi = v.lowBound, v.upBound
        if lo is None and hi is None:
            glp.glp_set_col_bnds(prob, j, glp.GLP_FR, 0.0, 0.0)
        elif lo is None:
            glp.glp_set_col_bnds(prob, j, glp.GLP_UP, 0.0, float(hi))
        elif hi is None:
            glp.glp_set_col_bnds(prob, j, glp.GLP_LO, float(lo), 0.0)
        elif lo == hi:
            glp.glp_set_col_bnds(prob, j, glp.GLP_FX, float(lo), float(hi))
        else:
            glp.glp_set_col_bnds(prob, j, glp.GLP_DB, float(lo), float(hi))
        if v.cat == pulp.LpInteger:
            glp.glp_set_col_kind(prob, j, glp.GLP_BV if (lo, hi) == (0, 1) else glp.GLP_IV)
    if model.objective is not None:
        for var, coef in model.objective.items():
            glp.glp_set_obj_coef(prob, column[var.name], float(coef))
        glp.glp_set_obj_coef(prob, 0, float(model.objective.constant))
    rows = list(model.constraints.values())
    if rows:
        glp.glp_add_rows(prob, len(rows))
    triples: list[tuple[int, int, float]] = []
    for i, con in enumerate(rows, start=1):
        rhs = -float(con.constant)
        if con.sense == pulp.LpConstraintEQ:
            glp.glp_set_row_bnds(prob, i, glp.GLP_FX, rhs, rhs)
        elif con.sense == pulp.LpConstraintLE:
            glp.glp_set_row_bnds(prob, i, glp.GLP_UP, 0.0, rhs)
        else:
            glp.glp_set_row_bnds(prob, i, glp.GLP_LO, rhs, 0.0)
        triples.extend((i, column[var.name], float(coef)) for var, coef in con.items() if coef != 0)
    ia, ja, ar = glp.intArray(len(triples) + 1), glp.intArray(len(triples) + 1), glp.doubleArray(len(triples) + 1)
    for k, (i, j, a) in enumerate(triples, start=1):
        ia[k], ja[k], ar[k] = i, j, a
    glp.glp_load_matrix(prob, len(triples), ia, ja, ar)
    return variables


def solve(built: Built, kind: Kind, options: SolveOptions, log_path: Path, listener: Listener = Silent()) -> Result:
    import swiglpk as glp

    clock = Stopwatch()
    prob = glp.glp_create_prob()  # C memory: deleted however the solve ends, a load cut by the deadline too
    try:
        try:
            with interrupt_at(options.deadline()):
                variables = _load(glp, prob, built.model)
        except DeadlinePassed:
            return loading_ran_out("GLPK", clock.elapsed())
        params = glp.glp_iocp()
        glp.glp_init_iocp(params)
        params.presolve = glp.GLP_ON
        params.msg_lev = glp.GLP_MSG_ON
        if options.time_limit is not None:  # what loading left of the limit
            left = options.time_limit - clock.elapsed()
            params.tm_lim = max(1, min(2**31 - 1, int(math.floor(left * 1000))))
        if options.gap is not None:
            params.mip_gap = float(options.gap)
        code = glp.glp_intopt(prob, params)
        wall = clock.elapsed()
        found = last_match(_MIP_LINE, read_log(log_path))
        bound = number(found.group(3)) if found else None
        stop = {glp.GLP_ETMLIM: "time limit", glp.GLP_EMIPGAP: "gap"}.get(code, "")
        status = glp.glp_mip_status(prob)
        if code in (glp.GLP_ENOPFS, glp.GLP_ENODFS) or status == glp.GLP_NOFEAS:
            return Result(Status.INFEASIBLE, wall_time_s=wall, message="GLPK: no feasible solution (proved)")
        if code not in (0, glp.GLP_ETMLIM, glp.GLP_EMIPGAP):
            return Result(Status.ERROR, wall_time_s=wall, message=f"GLPK: glp_intopt returned {code}")
        if status not in (glp.GLP_OPT, glp.GLP_FEAS):
            return Result(Status.UNKNOWN, bound=bound, wall_time_s=wall, message="no integer solution", stop=stop)
        for j, var in enumerate(variables, start=1):
            var.varValue = glp.glp_mip_col_val(prob, j)
        if status == glp.GLP_OPT and code == 0:
            # The tree was searched to the end (a stop on --gap returns GLP_EMIPGAP): the bound is the objective.
            result = solved(built, Status.OPTIMAL, None, wall, "")
            result.bound = result.objective
            return result
        result = solved(built, Status.FEASIBLE, bound, wall, stop)
        result.stop = stop
        return result
    finally:
        glp.glp_delete_prob(prob)


BACKEND = Backend(
    name="glpk",
    description="GNU GLPK (in-process through swiglpk)",
    capabilities=Capabilities(kinds=("mip",)),
    solve=solve,
    version=version,
    available=available,
    progress=progress,
)
