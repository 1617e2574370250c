"""The `mipgames` command line.

Exit codes (also in the README):
  0  a verified answer (optimal or feasible); `verify` accepted the certificate
  1  error: the simulator rejected an answer, a solver failed, `verify` rejected a certificate
  2  proved infeasible (no solution exists; for queens: K cannot be reached)
  3  no answer within the time limit (unknown)
  4  bad input or usage (message names file and line)
  130 interrupted (Ctrl-C)
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path
from typing import Any, Sequence

from mipgames import __version__
from mipgames.core import registry
from mipgames.core.errors import InputError, MipgamesError, UsageError
from mipgames.core.problem import Problem, SolveOptions

EXIT = {"optimal": 0, "feasible": 0, "error": 1, "infeasible": 2, "unknown": 3}
EXTRA_COMMANDS = ("mipgames.samegame2.commands", "mipgames.samegame.commands", "mipgames.queens.commands",
                  "mipgames.merge_game.commands", "mipgames.edge_matching.commands", "mipgames.bench.commands")


class Parser(argparse.ArgumentParser):
    """argparse that exits with 4 (usage), so exit 2 keeps meaning 'infeasible'."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        sys.exit(4)


def _positive(text: str) -> float:
    value = float(text)
    if value <= 0:
        raise argparse.ArgumentTypeError("must be positive")
    return value


def _add_param_options(parser: argparse.ArgumentParser, problems: list[Problem]) -> None:
    seen: dict[str, str] = {}
    for problem in problems:
        if not problem.params:
            continue
        group = parser.add_argument_group(f"{problem.name} options")
        for p in problem.params:
            flag = "--" + p.name.replace("_", "-")
            if flag in seen:
                continue
            seen[flag] = problem.name
            extra = f" (default: {p.default})" if not p.flag and p.default is not None else ""
            if p.flag:
                group.add_argument(flag, dest=f"param_{p.name}", action="store_true", default=argparse.SUPPRESS,
                                   help=p.help)
            else:
                choices = f" {{{','.join(map(str, p.choices))}}}" if p.choices else ""
                group.add_argument(flag, dest=f"param_{p.name}", default=argparse.SUPPRESS,
                                   metavar=p.name.upper(), help=p.help + choices + extra)


def _collect_params(problem: Problem, args: argparse.Namespace) -> dict[str, Any]:
    given = {k[len("param_"):]: v for k, v in vars(args).items() if k.startswith("param_")}
    known = {p.name: p for p in problem.params}
    stray = [k for k in given if k not in known]
    if stray:
        raise UsageError(f"--{stray[0].replace('_', '-')} does not apply to {problem.name}")
    params: dict[str, Any] = {}
    for name, raw in given.items():
        p = known[name]
        if p.flag:
            params[name] = bool(raw)
            continue
        try:
            value = p.parse(raw)
        except (ValueError, TypeError) as exc:
            raise UsageError(f"--{name.replace('_', '-')}: {exc or 'bad value'} ({raw!r})") from None
        if p.choices and value not in p.choices:
            raise UsageError(f"--{name.replace('_', '-')} must be one of {', '.join(map(str, p.choices))}")
        params[name] = value
    return params


def _problem_for(path: str, name: str | None) -> Problem:
    name = name or registry.infer(path)
    if name is None:
        raise UsageError(f"{path}: cannot tell the problem from the path; add --problem "
                         f"({', '.join(registry.PROBLEMS)})")
    return registry.load(name)


def _format(x: float | None) -> str:
    return "—" if x is None else f"{x:g}"


def cmd_solve(args: argparse.Namespace) -> int:
    from mipgames.core import certificate
    from mipgames.core.display import SolveProgress
    from mipgames.core.runner import solve

    problem = _problem_for(args.instance, args.problem)
    params = _collect_params(problem, args)
    instance = problem.read(args.instance)
    options = SolveOptions(time_limit=args.time_limit, threads=args.threads, gap=args.gap, seed=args.seed,
                           warm_start=args.warm_start)
    label = f"{problem.name}: {args.solver or problem.default_solver}"
    label += f" / {args.formulation}" if args.formulation else ""
    display = SolveProgress(label, quiet=args.quiet)
    try:
        result = solve(problem, instance, solver=args.solver, formulation=args.formulation, params=params,
                       options=options, isolate=True, export=args.export_model, progress=display,
                       log_path=args.log)
    finally:
        display.close()
    out = args.out
    if out is None:
        stem = Path(args.instance).stem
        model = f".{result.formulation}" if result.formulation else ""
        out = Path("out") / f"{stem}{model}.{result.solver}.cert.json"
    cert = certificate.build(problem, instance, result, instance_path=str(args.instance))
    certificate.write_json_atomic(out, cert)
    if args.render and result.solution is not None and problem.render is not None:
        problem.render(instance, result.params, result.solution, args.render)
    name, sense = problem.objective(result.params)
    if result.verified and problem.describe is not None and not args.quiet:
        print(problem.describe(instance, result.params, result.solution, result.verdict))
    proved = {"optimal": "optimal (proved)", "feasible": "feasible (not proved optimal)",
              "infeasible": "infeasible (proved: no solution)", "unknown": "unknown (no answer in time)",
              "error": "error"}[result.status]
    if result.status == "optimal" and result.bound is None:
        proved = "solved (decision model: the solution meets the target)"
    rows = [("problem", f"{problem.name}   {args.instance}"),
            ("solver", f"{result.solver} {result.solver_version}"
                       + (f"   formulation {result.formulation}" if result.formulation else "")),
            ("status", proved)]
    if result.status in ("optimal", "feasible"):
        rows.append(("objective", f"{_format(result.objective)} {name} ({sense}imise)"))
    if result.bound is not None or result.status in ("optimal", "feasible", "unknown"):
        rows.append(("bound", _format(result.bound)))
    if result.verdict is not None:
        rows.append(("verified", "yes: replayed by the simulator" if result.verified
                     else f"NO: {result.verdict.reason or result.message}"))
    if result.message:
        rows.append(("note", result.message))
    rows.append(("time", f"{result.wall_time_s:.2f} s"))
    rows.append(("certificate", str(out)))
    if args.export_model:
        rows.append(("model", str(args.export_model)))
    for key, value in rows:
        print(f"{key:<12}{value}")
    return EXIT[result.status]


def cmd_verify(args: argparse.Namespace) -> int:
    from mipgames.core import certificate

    data = certificate.load(args.certificate)
    check = certificate.verify(data)
    if check.ok:
        name = check.problem.objective({**check.problem.default_params(), **(data.get("params") or {})})[0]
        print(f"{args.certificate}: OK — {data['problem']}, status {data['status']}, "
              f"objective {_format(check.verdict.objective)} {name} reproduced by the simulator")
        return 0
    for reason in check.reasons:
        print(f"{args.certificate}: REJECTED — {reason}", file=sys.stderr)
    return 1


def cmd_render(args: argparse.Namespace) -> int:
    from mipgames.core import certificate

    path = Path(args.file)
    if path.suffix == ".json" and args.problem is None:
        data = certificate.load(path)
        check = certificate.verify(data)
        if check.problem is None or check.instance is None:
            raise InputError("; ".join(check.reasons), path)
        problem, instance, solution = check.problem, check.instance, check.solution
        params = {**problem.default_params(), **(data.get("params") or {})}
        if not check.ok:
            print(f"{path}: warning — certificate does not verify: {'; '.join(check.reasons)}", file=sys.stderr)
    else:
        problem = _problem_for(str(path), args.problem)
        instance, solution, params = problem.read(path), None, problem.default_params()
    if problem.render is None:
        raise UsageError(f"{problem.name} has no renderer")
    problem.render(instance, params, solution, args.output)
    print(args.output)
    return 0


def cmd_generate(args: argparse.Namespace) -> int:
    problem = registry.load(args.gen_problem)
    instance = problem.generator.generate(args)
    if args.output:
        problem.write(instance, args.output)
        print(args.output)
    else:
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            target = Path(tmp) / "instance"
            problem.write(instance, target)
            sys.stdout.write(target.read_text())
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from mipgames.core.runner import export_model, plan

    problem = _problem_for(args.instance, args.problem)
    params = {**problem.default_params(), **_collect_params(problem, args)}
    instance = problem.read(args.instance)
    problem.check_params(instance, params)
    names = args.formulation or [n for n, f in problem.formulations.items()]
    for name in names:
        run = plan(problem, "cpsat", name, instance, params)
        form = problem.formulations[run.formulation]
        built = form.build(instance, params, SolveOptions())
        suffixes = (".lp", ".mps") if form.kind == "mip" else (".pb",)
        stem = Path(args.instance).stem
        Path(args.directory).mkdir(parents=True, exist_ok=True)
        for suffix in suffixes:
            target = Path(args.directory) / f"{stem}.{name}{suffix}"
            export_model(built, form.kind, target)
            print(target)
    return 0


def cmd_solvers(args: argparse.Namespace) -> int:
    from mipgames.backends import BACKENDS, get_backend

    print(f"{'solver':<8}{'status':<12}{'version':<14}{'models':<12}description")
    worst = 0
    for name in BACKENDS:
        backend = get_backend(name)
        why = backend.available()
        status = "available" if why is None else "MISSING"
        version = backend.version() if why is None else "—"
        print(f"{name:<8}{status:<12}{version:<14}{'+'.join(backend.kinds):<12}{backend.description}"
              + ("" if why is None else f"  ({why})"))
        worst = worst or (0 if why is None else 1)
    return worst


def cmd_problems(args: argparse.Namespace) -> int:
    for problem in registry.available():
        name, sense = problem.objective(problem.default_params())
        print(f"{problem.name}: {problem.summary}")
        print(f"  objective     {name} ({sense})")
        forms = ", ".join(f"{n} [{f.kind}]" for n, f in problem.formulations.items())
        print(f"  formulations  {forms}")
        if problem.algorithms:
            print(f"  algorithms    {', '.join(problem.algorithms)}")
        print(f"  default       --solver {problem.default_solver}")
        for p in problem.params:
            print(f"  --{p.name.replace('_', '-'):<20}{p.help}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="mipgames", description="Puzzles as MIP and CP-SAT models, solved by four solvers "
                                                 "and certified by exact simulators.")
    parser.add_argument("--version", action="version", version=f"mipgames {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    problems = registry.available()

    p = sub.add_parser("solve", help="solve an instance, verify the answer, write a certificate")
    p.add_argument("instance")
    p.add_argument("--problem", help=f"{', '.join(registry.PROBLEMS)} (default: from the instance path)")
    p.add_argument("--solver", help="cbc, glpk, highs, cpsat, or a problem's algorithm "
                                    "(default: the problem's, see `mipgames problems`)")
    p.add_argument("--formulation", help="model to build (default: the problem's best for the solver)")
    p.add_argument("--time-limit", type=_positive, metavar="SEC", help="solver time limit in seconds")
    p.add_argument("--threads", type=int, default=2, help="solver threads (default 2)")
    p.add_argument("--gap", type=float, help="relative gap at which the solver may stop (then: feasible)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--warm-start", action="store_true", help="start from the problem's heuristic solution")
    p.add_argument("--out", type=Path, metavar="CERT.json",
                   help="certificate path (default out/<instance>[.<formulation>].<solver>.cert.json)")
    p.add_argument("--export-model", metavar="FILE", help="also write the model (.lp/.mps, or .pb for CP-SAT)")
    p.add_argument("--render", metavar="PNG", help="also draw the solution")
    p.add_argument("--log", metavar="FILE", help="keep the solver log here")
    p.add_argument("--quiet", action="store_true", help="no progress, no solution drawing; summary only")
    _add_param_options(p, problems)
    p.set_defaults(func=cmd_solve)

    p = sub.add_parser("verify", help="replay a certificate's solution and check its claims")
    p.add_argument("certificate")
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser("render", help="draw a certificate's solution (or an instance) as PNG")
    p.add_argument("file", help="a certificate (.json) or an instance file")
    p.add_argument("-o", "--output", required=True, metavar="PNG")
    p.add_argument("--problem", help=f"{', '.join(registry.PROBLEMS)} (default: from the instance path)")
    p.set_defaults(func=cmd_render)

    p = sub.add_parser("generate", help="generate a random instance with a seed")
    gen = p.add_subparsers(dest="gen_problem", metavar="PROBLEM", parser_class=Parser, required=True)
    for problem in problems:
        if problem.generator is not None:
            g = gen.add_parser(problem.name, help=problem.summary)
            try:
                problem.generator.add_arguments(g)
            except ImportError as exc:
                print(f"mipgames: warning: generator of {problem.name} is unavailable: {exc}", file=sys.stderr)
            if not any(a.dest == "output" for a in g._actions):
                g.add_argument("-o", "--output", metavar="FILE", help="write here (default: standard output)")
    p.set_defaults(func=cmd_generate)

    p = sub.add_parser("export", help="write a problem's models as LP/MPS (MIP) or proto (CP-SAT) files")
    p.add_argument("instance")
    p.add_argument("--problem", help=f"{', '.join(registry.PROBLEMS)} (default: from the instance path)")
    p.add_argument("--formulation", action="append", help="formulation(s) to write (default: all)")
    p.add_argument("-d", "--directory", default="models")
    _add_param_options(p, problems)
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("solvers", help="which solver backends are available, with versions")
    p.set_defaults(func=cmd_solvers)
    p = sub.add_parser("problems", help="problems, formulations, algorithms and options")
    p.set_defaults(func=cmd_problems)

    for module_name in EXTRA_COMMANDS:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name and module_name.startswith(exc.name):
                continue
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 4
    try:
        return int(args.func(args) or 0)
    except MipgamesError as exc:
        print(f"mipgames: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("mipgames: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # a bug of ours: one line for the user, the traceback only on request
        if os.environ.get("MIPGAMES_DEBUG"):
            raise
        print(f"mipgames: internal error: {type(exc).__name__}: {exc} (set MIPGAMES_DEBUG=1 for the traceback)",
              file=sys.stderr)
        return 1
