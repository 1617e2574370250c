"""``mipgames queens [FILE]``: the coursework program (board in, moves out), and ``queens-check``.

Exit status: 0 when at most K queens remain, 2 when K is proved unreachable
(the proved minimum goes to standard error), 3 when time ran out without an
answer, 4 on bad input, 1 when a solver failed.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from mipgames.backends import BACKENDS
from mipgames.core.arguments import limit_of, seconds_or_none
from mipgames.core.errors import InputError, MipgamesError, UsageError
from mipgames.core.files import read_stream
from mipgames.core.problem import SolveOptions
from mipgames.queens.instance import counted, format_moves, parse, parse_moves, read, read_moves, remain

DEFAULT_TIME = 60.0
SOLVERS = ("portfolio", "lazy-levels", "levels", "dfs", "coursework-dfs", *BACKENDS)
"""Every queens algorithm (``baselines.ALGORITHMS``, named here so that the parser does not import them) and
every backend."""


def _instance(file: str | None, stdin: TextIO):
    if file in (None, "-"):
        return parse(read_stream(stdin, "<stdin>", "queens board"), "<stdin>")
    return read(file)


def solve_command(args: Any, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    from mipgames.queens.problem import PROBLEM
    from mipgames.run.progress import SolveProgress
    from mipgames.run.runner import solve

    # progress on a terminal only: the coursework's judges read this program's output, and scripts its messages
    display = SolveProgress(f"queens: {args.solver}", quiet=not sys.stderr.isatty())
    try:
        instance = _instance(args.file, stdin)
        options = SolveOptions(time_limit=limit_of(args.time_limit), threads=args.threads)
        params = {"minimise": args.minimise}
        result = solve(
            PROBLEM, instance, solver=args.solver, params=params, options=options, isolate=True, progress=display
        )
    except MipgamesError as error:
        stderr.write(f"mipgames: {error}\n")
        return error.exit_code
    finally:
        display.close()
    k = instance.k
    if result.status in ("optimal", "feasible") and result.verdict is not None:
        remaining = result.verdict.measured["remaining"]
        stdout.write(format_moves(result.solution or ()))
        stdout.flush()
        if remaining <= k:
            return 0
        if result.status == "optimal":
            said = f"fewest queens remaining is {remaining} (proved optimal)"
        else:  # the time ran out: the fewest found, and what the bound says
            bound = "" if result.bound is None else f"; at least {remain(result.bound, 'always')}"
            said = f"the fewest queens found remaining is {remaining}, not proved the fewest{bound}"
        stderr.write(f"mipgames: K = {k} not reached: {said}\n")
        return 2 if result.status == "optimal" else 3
    if result.status == "infeasible":
        # the solver's own words when they name the minimum; "search exhausted: K = 1 is unreachable" does not
        message = result.message if "unreachable" in result.message and "at least" in result.message else None
        if message is None and args.solver != "portfolio":
            message = _minimum(PROBLEM, instance, args, result.wall_time_s)
        if message is None and result.bound is not None:
            message = f"K = {k} is unreachable (proved): at least {remain(result.bound, 'always')}"
        message = message or f"K = {k} is unreachable (proved)"
        stderr.write(f"mipgames: {message}\n")
        return 2
    if result.status == "unknown":
        within = f" within {args.time_limit:g} s" if limit_of(args.time_limit) is not None else ""
        stderr.write(f"mipgames: no answer{within} (K = {k} neither reached nor refuted)\n")
        return 3
    stderr.write(f"mipgames: solver failed: {result.message}\n")
    return 1


def _minimum(problem, instance, args, spent: float) -> str | None:
    """The proved minimum for the infeasible-decision message: a short budget of the fastest prover (levels)."""
    from mipgames.queens.portfolio import MINIMUM_CAP, MINIMUM_SHARE
    from mipgames.run.runner import solve

    left = min(args.time_limit - spent, MINIMUM_CAP, MINIMUM_SHARE * args.time_limit)
    if left <= 0.1:
        return None
    result = solve(
        problem,
        instance,
        solver="levels",
        params={"minimise": True},
        options=SolveOptions(time_limit=left, threads=args.threads),
        isolate=True,
    )
    if result.status == "optimal" and result.objective is not None:
        return f"K = {instance.k} is unreachable (proved): at least {remain(result.objective, 'always')}"
    return None


def check_command(args: Any, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Replays a moves file strictly; names the line of the first illegal move.

    Exit codes as the README's table has them: 0 accepted; 1 the simulator rejects the answer (an illegal
    move, or more than K queens left: a moves file that falls short proves nothing about the board); 4 a file
    that cannot be read as a board or as moves."""
    from mipgames.queens.simulate import replay

    try:
        if args.instance == "-" and args.moves == "-":
            raise UsageError("queens-check reads one of its files from standard input (-), not both")
        instance = _instance(args.instance, stdin)  # "-": standard input, as `queens -` reads it
        if args.moves == "-":
            numbered = parse_moves(read_stream(stdin, "<stdin>", "moves file"), "<stdin>")
        else:
            numbered = read_moves(args.moves)
    except MipgamesError as error:
        stderr.write(f"mipgames: {error}\n")
        return error.exit_code
    board, bad, why = replay(instance, [move for _, move in numbered])
    if bad is not None:
        stderr.write(f"mipgames: {InputError(f'illegal move: {why}', args.moves, numbered[bad][0])}\n")
        return 1
    remaining = len(board)
    verdict = "accepted" if remaining <= instance.k else "rejected"
    stdout.write(f"{verdict}: {counted(len(numbered), 'move')}, {remain(remaining)}, K = {instance.k}\n")
    return 0 if remaining <= instance.k else 1


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "queens",
        help="the power-of-queens coursework program: board in, moves out",
        description=(__doc__ or "").replace("``", ""),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", nargs="?", metavar="FILE", help="coursework input (default: standard input)")
    parser.add_argument(
        "--solver",
        choices=SOLVERS,
        default="portfolio",
        help="portfolio (default: level search, then the forest CP-SAT model), lazy-levels, levels, dfs, "
        "coursework-dfs (the coursework's own search), or a model solver (cpsat = forest model)",
    )
    parser.add_argument(
        "--time-limit",
        type=seconds_or_none,
        default=DEFAULT_TIME,
        metavar="SECONDS",
        help=f"seconds for the whole run, or none (default {DEFAULT_TIME:g}), as for solve",
    )
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument(
        "--minimise", "--minimize", action="store_true", help="find the fewest queens that can remain, proved"
    )
    parser.set_defaults(func=lambda args: solve_command(args, sys.stdin, sys.stdout, sys.stderr))
    check = subparsers.add_parser(
        "queens-check", help="replay a queens moves file strictly (stricter than the coursework)"
    )
    check.add_argument("instance", help="coursework input (- for standard input)")
    check.add_argument("moves", help="moves file: one 'r1 c1 r2 c2' per line (- for standard input)")
    check.set_defaults(func=lambda args: check_command(args, sys.stdin, sys.stdout, sys.stderr))


def main(
    argv: list[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Stand-alone entry point (what the tests call): ``main(["queens", ...])`` or ``main(["queens-check", ...])``."""
    parser = argparse.ArgumentParser(prog="mipgames")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    stdin, stdout, stderr = stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr
    if args.command == "queens":
        return solve_command(args, stdin, stdout, stderr)
    return check_command(args, stdin, stdout, stderr)
