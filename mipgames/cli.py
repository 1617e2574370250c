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
import errno
import hashlib
import json
import logging
import math
import os
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mipgames import __version__, registry
from mipgames.core.arguments import int_in, limit_of, positive, seconds_or_none
from mipgames.core.errors import InputError, MipgamesError, OutputError, UsageError, printable, shown_path
from mipgames.core.figures import TooLargeToDraw, check_figure_path
from mipgames.core.files import (
    distinct_outputs,
    folders_left_only_if_used,
    remove_staged,
    writable_folder,
    writable_output,
    write_text_atomic,
)
from mipgames.core.problem import (
    BACKEND_NAMES,
    MAX_SEED,
    MIN_MEMORY_LIMIT,
    Param,
    Problem,
    SolveOptions,
    default_memory_limit,
)
from mipgames.core.status import amount, shown


class Parser(argparse.ArgumentParser):
    """argparse that exits with 4 (usage), so exit 2 keeps meaning 'infeasible'."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise UsageExit(f"{self.prog}: {message}")


class UsageExit(SystemExit):
    """The parser's refusal (exit 4), with its message kept for ``--json``'s error object."""

    def __init__(self, message: str):
        super().__init__(4)
        self.message = message


DEFAULT_TIME_LIMIT = 60.0
"""Seconds a `solve` may take when no --time-limit is given (reading and building included)."""


def _limit_given(given: float | None) -> float | None:
    """The seconds a run may take from its ``--time-limit``: the default when left out, None for ``none``."""
    return limit_of(DEFAULT_TIME_LIMIT if given is None else given)


_megabytes = positive("megabytes")


def _gap(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text[:30]!r}") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"must be a finite number >= 0, got {text[:30]!r}")
    return value


_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


def _memory(text: str) -> int:
    """A size like 8G, 512M or 2000000000 (bytes)."""
    found = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([KMGT]?)I?B?\s*", text.upper())
    if not found or len(text) > 24:
        raise argparse.ArgumentTypeError(f"not a size (like 8G or 512M): {text[:30]!r}")
    value = int(float(found.group(1)) * _UNITS[found.group(2)])
    if value < MIN_MEMORY_LIMIT:
        raise argparse.ArgumentTypeError(f"must be at least 1M, got {text[:30]!r}")
    return value


def _logging_options(parser: argparse.ArgumentParser, top: bool) -> None:
    """-v/--verbose and --log FILE, before the command or after it (the latter must not clobber the former)."""
    default: Any = 0 if top else argparse.SUPPRESS
    parser.add_argument(
        "-v", "--verbose", action="count", default=default, help="say more on standard error (-vv: debugging detail)"
    )
    parser.add_argument(
        "--log",
        metavar="FILE",
        default=None if top else argparse.SUPPRESS,
        help="write the toolkit's log (every detail) to FILE",
    )


MODEL_SUFFIXES = (".lp", ".mps", ".pb")
"""The suffixes of the model files ``export`` writes."""


def _paths_beside_the_log(args: argparse.Namespace) -> list[str]:
    """The command's other files: every argument naming an existing file, and its outputs (``--log`` opens its
    file for writing first, so a log named like an input emptied the input before it was read)."""
    named: list[str] = []
    for key, value in vars(args).items():
        if key == "log":
            continue
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, (str, Path)) and (key in OUTPUT_ARGUMENTS or Path(item).is_file()):
                named.append(str(item))
    return named


def _refuse_a_log_named_like_a_model(args: argparse.Namespace, log: Path) -> None:
    """Export names its model files only once it has read the instance, after the log is open: a log named like
    one of them (``<directory>/<instance stem>.*.lp|mps|pb``) would be emptied before export refused it."""
    if getattr(args, "func", None) is not cmd_export or log.suffix not in MODEL_SUFFIXES:
        return
    if log.resolve().parent == Path(args.directory).resolve() and log.name.startswith(f"{Path(args.instance).stem}."):
        raise UsageError(
            f"--log {shown_path(log)}: named like a model file export writes into {shown_path(args.directory)}; "
            "name the log apart"
        )


DEFAULT_OUT = "out"
"""The folder of a solve's certificate when --out is not given."""
OUTPUT_ARGUMENTS = ("out", "output", "render", "export_model", "solver_log", "csv", "parquet", "png", "gif")
"""Options that name a file a command writes (beside ``--log``)."""


class _StderrHandler(logging.StreamHandler):
    """Log lines to whatever ``sys.stderr`` is when they are written: a live progress line stands in for it, and
    lines written past it to the stderr of the start landed on the end of that line (-v, -vv)."""

    def __init__(self) -> None:
        super().__init__(sys.stderr)

    @property
    def stream(self) -> Any:
        return sys.stderr

    @stream.setter
    def stream(self, value: Any) -> None:
        pass


def configure_logging(verbosity: int, log_file: str | None) -> None:
    """The toolkit's messages through :mod:`logging`: warnings on stderr by default, more with -v, all to --log."""
    root = logging.getLogger("mipgames")
    root.handlers.clear()
    root.propagate = False
    root.setLevel(logging.DEBUG)
    console = _StderrHandler()
    console.setLevel({0: logging.WARNING, 1: logging.INFO}.get(verbosity, logging.DEBUG))
    console.setFormatter(logging.Formatter("mipgames: %(message)s"))
    root.addHandler(console)
    if log_file:
        writable_output(log_file)
        try:
            Path(log_file).parent.mkdir(parents=True, exist_ok=True)  # as --out's folders are made
            handler = logging.FileHandler(log_file, mode="w")
        except OSError as exc:
            raise OutputError(f"cannot write here: {exc.strerror or exc}", log_file) from None
        handler.setLevel(logging.DEBUG)
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
        root.addHandler(handler)


class _Versions(argparse.Action):
    """``--version``: the toolkit's and every solver's version."""

    def __call__(self, parser: Any, namespace: Any, values: Any, option_string: str | None = None) -> None:
        from mipgames.backends import BACKENDS, get_backend

        print(f"mipgames {__version__}")
        for name in BACKENDS:
            backend = get_backend(name)
            print(f"  {name:<6} {backend.version() if backend.available() is None else 'missing'}")
        parser.exit(0)


_JSON_PRINTED = [0]
"""How many objects ``_print_json`` has printed: an error after a command's own object adds none."""


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, default=str))
    _JSON_PRINTED[0] += 1


def _add_param_options(parser: argparse.ArgumentParser, problems: list[Problem], models_only: bool = False) -> None:
    """Each problem's options as flags; ``models_only`` (export) leaves out those only algorithms read
    (``--beam-width``, ``--count``): a model file would be the same with them, and taking them said otherwise."""
    seen: dict[str, str] = {}
    for problem in problems:
        params = [p for p in problem.params if not models_only or _read_by_models(problem, p)]
        if not params:
            continue
        group = parser.add_argument_group(f"{problem.name} options")
        for p in params:
            flags = ["--" + name.replace("_", "-") for name in p.spellings]  # both spellings are taken
            flag = flags[0]
            if flag in seen:
                continue
            seen[flag] = problem.name
            extra = f" (default: {p.default})" if not p.flag and p.default is not None else ""
            if p.flag:
                group.add_argument(
                    *flags, dest=f"param_{p.name}", action="store_true", default=argparse.SUPPRESS, help=p.help
                )
            else:
                choices = f" {{{','.join(map(str, p.choices))}}}" if p.choices else ""
                group.add_argument(
                    *flags,
                    dest=f"param_{p.name}",
                    default=argparse.SUPPRESS,
                    metavar=p.name.upper(),
                    help=p.help + choices + extra,
                )


def _read_by_models(problem: Problem, param: Param) -> bool:
    return param.used_by is None or any(route in problem.formulations for route in param.used_by)


def _collect_params(problem: Problem, args: argparse.Namespace) -> dict[str, Any]:
    given = {k[len("param_") :]: v for k, v in vars(args).items() if k.startswith("param_")}
    known = {p.name: p for p in problem.params}
    stray = [k for k in given if k not in known]
    if stray:
        raise UsageError(f"--{stray[0].replace('_', '-')} does not apply to {problem.name}")
    params: dict[str, Any] = {}
    for name, raw in given.items():
        p = known[name]
        params[name] = bool(raw) if p.flag else p.read(raw)
    return params


def _problem_for(path: str, name: str | None) -> Problem:
    name = name or registry.infer(path)
    if name is None:
        raise registry.unknown_problem(path, lambda problem: f"add --problem {problem}")
    return registry.load(name)


def _format(x: float | None) -> str:
    return "—" if x is None else shown(x)


_READER_FAULTS = (
    ValueError,
    TypeError,
    IndexError,
    KeyError,
    AttributeError,
    OverflowError,
    RecursionError,
    UnicodeError,
)


def read_instance(problem: Problem, path: str) -> tuple[Any, str]:
    """The instance and the SHA-256 of the file's bytes; only a bounded regular file is handed to the reader."""
    from mipgames.core.files import read_bytes

    raw = read_bytes(path, "instance")
    try:
        instance = problem.read(path)
    except MipgamesError:
        raise
    except MemoryError:  # the readers bound what they allocate by the file's size and the limits, so not the input
        raise MipgamesError(
            f"{shown_path(path)}: out of memory while reading {len(raw):,} bytes: the command has too little "
            "memory (ulimit -v?)"
        ) from None
    except _READER_FAULTS as exc:  # a reader that choked on hostile input: still the input's fault
        raise InputError(
            f"not a readable {problem.name} instance ({type(exc).__name__}: {str(exc)[:80]})", path
        ) from None
    return instance, hashlib.sha256(raw).hexdigest()


def article(number: str) -> str:
    """ "a" or "an" before a number as it is read aloud: an 8 s limit, an 11 s one, a 60 s one."""
    digits = number.split(".")[0].lstrip("-")
    spoken_vowel = digits.startswith("8") or (digits[:2] in ("11", "18") and len(digits) % 3 == 2)
    return "an" if spoken_vowel else "a"


def status_text(result: Any) -> str:
    """The status line: the claim, who proved it, and why a run stopped short."""
    from mipgames.core.status import Status

    stop = f"; stopped: {result.stop}" if result.stop else ""
    by = f" by {result.proved_by}" if result.proved_by else ""
    return {
        Status.OPTIMAL: f"optimal (proved{by}{'; the solver stopped on its time limit' if result.stop else ''})",
        Status.FEASIBLE: f"feasible (not proved optimal{stop})",
        Status.INFEASIBLE: f"infeasible (proved{by}: no solution exists)",
        Status.UNBOUNDED: f"unbounded (proved{by})",
        Status.UNKNOWN: f"unknown (no answer{stop})",  # a run cut by its limit says so in its stop
        Status.ERROR: "error",
    }[result.status]


def _file_id(path: str | None) -> tuple[int, int] | None:
    """(inode, mtime in ns) of a file, or None: a file this command writes is renamed into place, so it gets a
    new inode, whatever its times."""
    if path is None:
        return None
    try:
        st = Path(path).stat()
    except OSError:
        return None
    return st.st_ino, st.st_mtime_ns


def _exported(path: str, before: tuple[int, int] | None) -> str:
    """The summary's word on ``--export-model``: the file only when this command wrote it (its solver may have
    been killed at the deadline after the export, or the deadline may have come before or during it)."""
    now = _file_id(path)
    return shown_path(path) if now is not None and now != before else "NOT WRITTEN"


def _check_counting(problem: Problem, args: argparse.Namespace, params: dict[str, Any]) -> None:
    """``--count`` with a solver that finds one solution was ignored, and the certificate still said count."""
    from mipgames.run.plan import plan

    if not params.get("count"):
        return
    solver = plan(problem, args.solver, args.formulation).solver
    algorithm = problem.algorithms.get(solver)
    if algorithm is None or not algorithm.counts:
        counting = " or ".join(name for name, a in problem.algorithms.items() if a.counts)
        raise UsageError(f"--count is counted by --solver {counting}; {solver} finds one solution")


def cmd_solve(args: argparse.Namespace) -> int:
    from mipgames.core import certificate
    from mipgames.core.status import EXIT_CODES
    from mipgames.run.plan import default_solver
    from mipgames.run.progress import SolveProgress
    from mipgames.run.runner import solve

    started = getattr(args, "started", None) or time.monotonic()
    problem = _problem_for(args.instance, args.problem)
    params = _collect_params(problem, args)
    limit = _limit_given(args.time_limit)
    memory = args.memory_limit if args.memory_limit is not None else default_memory_limit()
    options = SolveOptions(
        time_limit=limit,
        threads=args.threads,
        gap=args.gap,
        seed=args.seed,
        warm_start=args.warm_start,
        memory_limit=memory,
    )
    _check_counting(problem, args, params)
    if args.keep_log and args.solver_log is not None:
        raise UsageError(
            "--keep-log keeps the solver's log beside the certificate, --solver-log FILE writes it to FILE: give one"
        )
    model_before = _file_id(args.export_model)
    out = args.out
    distinct_outputs([args.instance], out, args.render, args.export_model, args.solver_log)
    for target in (out, args.export_model, args.solver_log):
        if target is not None:
            writable_output(target)
    if out is None:  # the default certificate's name waits for the solver, its folder need not
        try:
            writable_folder(DEFAULT_OUT)
        except OutputError as exc:
            raise OutputError(f"{exc.message}; certificates go there unless --out names a file", exc.path) from None
    if args.render is not None:  # the format, and the target as above
        check_figure_path(args.render, problem.render_formats)
    quiet = args.quiet or args.json
    reading = time.monotonic()
    instance, text_sha = read_instance(problem, args.instance)
    reading = time.monotonic() - reading
    if args.render is not None and problem.drawable is not None:
        try:
            problem.drawable(instance)
        except TooLargeToDraw as exc:
            raise UsageError(f"--render {shown_path(args.render)}: {exc}; nothing was solved") from None
    label = f"{problem.name}: {args.solver or default_solver(problem, instance, params)[0]}"
    label += f" / {args.formulation}" if args.formulation else ""
    display = SolveProgress(label, quiet=args.quiet)  # with --json too: progress is on stderr, the JSON on stdout
    solver_log = args.solver_log
    from mipgames.run.scratch import scratch_dir

    with scratch_dir() as keep:  # a run directory: swept by the next run if this command is killed with SIGKILL
        if args.keep_log and solver_log is None:
            solver_log = Path(keep) / "solver.log"
        try:
            result = solve(
                problem,
                instance,
                solver=args.solver,
                formulation=args.formulation,
                params=params,
                options=options,
                isolate=True,
                export=args.export_model,
                progress=display,
                log_path=solver_log,
                started=started,
                read_seconds=reading,
            )
        finally:
            display.close()
        if out is None:
            stem = Path(args.instance).stem
            model = f".{result.formulation}" if result.formulation else ""
            out = Path(DEFAULT_OUT) / f"{stem}{model}.{result.solver}.cert.json"
        name, sense = problem.objective(result.params)
        if result.verified and problem.describe is not None and not quiet:
            print(problem.describe(instance, result.params, result.solution, result.verdict))
        failures = []
        try:
            cert = certificate.build(
                problem, instance, result, instance_path=str(args.instance), instance_text_sha256=text_sha
            )
            certificate.write_json_atomic(out, cert)
            written: str | None = str(out)
        except OutputError as exc:
            failures.append(f"certificate not written: {exc}")
            written = None
        if args.keep_log and args.solver_log is None and written is not None:
            try:
                write_text_atomic(Path(out).with_suffix(".log"), Path(solver_log).read_text(errors="replace"))
            except (OutputError, OSError) as exc:
                failures.append(f"solver log not kept: {exc}")
    drawing, drew = None, ""
    answered = time.monotonic() - started  # what the limit covers; a drawing comes after, timed apart
    if args.render and problem.render is not None:
        shown = result.solution if result.verified else None  # never a solution the simulator did not replay
        try:
            problem.render(instance, result.params, shown, args.render)
            drawing = str(args.render)
            drew = "" if shown is not None else " (the instance: no verified solution to draw)"
            drew += f" in {time.monotonic() - started - answered:.2f} s, after the solve"
        except OutputError as exc:
            failures.append(f"drawing not written: {exc}")
    if args.json:
        _print_json(
            {
                "problem": problem.name,
                "instance": str(args.instance),
                "solver": result.solver,
                "solver_version": result.solver_version,
                "formulation": result.formulation,
                "status": str(result.status),
                "reported_status": str(result.reported),
                "objective": result.objective,
                "objective_name": name,
                "sense": sense,
                "bound": result.bound,
                "proved_by": result.proved_by,
                "stop": result.stop,
                "verified": result.verified,
                "message": result.message,
                "wall_time_s": round(result.wall_time_s, 4),
                "total_time_s": round(time.monotonic() - started, 4),
                "time_limit": limit,
                "options": result.options.as_dict(),  # as the certificate records them
                "certificate": written,
                "drawing": drawing,
                "solution": result.solution_json,
                "measured": None if result.verdict is None else result.verdict.measured,
                "errors": failures,
            }
        )
        for failure in failures:
            print(f"mipgames: {failure}", file=sys.stderr)
        return OutputError.exit_code if failures else EXIT_CODES[result.status]
    rows = [
        ("problem", f"{problem.name}   {shown_path(args.instance)}"),
        (
            "solver",
            f"{result.solver} {result.solver_version}"
            + (f"   formulation {result.formulation}" if result.formulation else ""),
        ),
        ("status", status_text(result)),
    ]
    if result.status.has_solution:
        rows.append(("objective", f"{amount(result.objective, name)} ({sense}imise)"))
    if result.status != "infeasible" and (
        result.bound is not None or result.status.has_solution or result.status == "unknown"
    ):  # an infeasible decision's optimisation bound (0 mismatches, say) read as contradicting the claim
        rows.append(("bound", _format(result.bound)))
    if result.verdict is not None:
        rows.append(
            (
                "verified",
                "yes: replayed by the simulator"
                if result.verified
                else f"NO: {result.verdict.reason or result.message}",
            )
        )
    if result.message and result.message.lower() not in (str(result.status), str(result.reported), "optimal"):
        rows.append(("note", result.message))
    limit_note = "" if args.time_limit is not None else " (the default; --time-limit to change)"
    of = "with no time limit" if limit is None else f"of {article(f'{limit:g}')} {limit:g} s limit{limit_note}"
    rows.append(("time", f"{answered:.2f} s (solver {result.wall_time_s:.2f} s) {of}"))
    rows.append(("certificate", shown_path(written) if written else "NOT WRITTEN"))
    if args.render:
        rows.append(("drawing", shown_path(drawing) + drew if drawing else "NOT WRITTEN"))
    if args.export_model:
        rows.append(("model", _exported(args.export_model, model_before)))
    for key, value in rows:
        print(f"{key:<12}{value}")
    for failure in failures:
        print(f"mipgames: {failure}", file=sys.stderr)
    return OutputError.exit_code if failures else EXIT_CODES[result.status]


def _load_certificate(path: str) -> tuple[dict[str, Any], Problem]:
    from mipgames.core import certificate

    data = certificate.load(path)
    return data, _certificate_problem(data, path)


def _certificate_problem(data: dict[str, Any], path: str | Path) -> Problem:
    name = data.get("problem")
    if not isinstance(name, str):
        raise InputError("the certificate names no problem (field problem)", path)
    try:
        return registry.load(name)
    except UsageError as exc:
        raise InputError(str(exc), path) from None


def _reproof_limits(args: argparse.Namespace) -> tuple[tuple[str, Any], ...]:
    """``verify``'s options that only a re-proof uses, with what was given (None: left out)."""
    return (("--time-limit", args.time_limit), ("--threads", args.threads), ("--memory-limit", args.memory_limit))


def cmd_verify(args: argparse.Namespace) -> int:
    from mipgames.core import certificate
    from mipgames.run.progress import SolveProgress
    from mipgames.run.reprove import choose_solver, reprove

    if args.certificate is None and args.reprove:  # `verify --reprove CERT`: the optional SOLVER took the path
        args.certificate, args.reprove = args.reprove, ""
    if args.certificate is None:
        raise UsageError("verify needs a certificate: mipgames verify CERT.json [--reprove [SOLVER]]")
    options = None
    limits = [flag for flag, value in _reproof_limits(args) if value is not None]
    if args.reprove is None and limits:  # a limit on nothing: the user meant a re-proof, or a typo
        verb = "applies" if len(limits) == 1 else "apply"
        raise UsageError(f"{' and '.join(limits)} only {verb} to a re-proof: add --reprove [SOLVER], or leave it out")
    if args.reprove is not None:  # the re-proof's limits are refused before the certificate is judged OK
        options = SolveOptions(
            time_limit=_limit_given(args.time_limit),
            threads=args.threads if args.threads is not None else 2,
            memory_limit=args.memory_limit or default_memory_limit(),
        )
    data, problem = _load_certificate(args.certificate)
    if args.reprove:  # a solver that cannot re-prove is refused before any verdict is printed, not after it
        choose_solver(data, args.reprove)
    from mipgames.run.plan import plan

    check = certificate.verify(data, problem, plan)
    report: dict[str, Any] = {
        "certificate": args.certificate,
        "problem": problem.name,
        "ok": check.ok,
        "reasons": check.reasons,
        "notes": check.notes,
        "status": data.get("status"),
        "instance_sha256": data.get("instance_sha256") if check.ok else None,
        "replayed_objective": None if check.verdict is None else check.verdict.objective,
    }
    if not check.ok:
        if args.json:
            _print_json(report)
        for reason in check.reasons:
            print(f"{shown_path(args.certificate)}: REJECTED — {reason}", file=sys.stderr)
        return 1
    if args.json and args.reprove is None:
        _print_json(report)
        return 0
    name = problem.objective(check.params)[0]
    what = f"status {data['status']}"
    if check.verdict is not None:
        what += f", objective {amount(check.verdict.objective, name)} reproduced by the simulator"
    if not args.json:
        instance = f"instance {data['instance_sha256'][:12]}"  # the embedded instance's hash, checked above
        print(f"{shown_path(args.certificate)}: OK — {data['problem']} {instance}, {what}")
        for note in check.notes:
            print(f"  {note}")
    if options is None:  # no --reprove
        return 0
    display = SolveProgress(f"re-proof: {args.reprove or 'auto'}", quiet=args.quiet)
    try:
        proof = reprove(problem, check.instance, check.params, data, args.reprove or None, options, display)
    finally:
        display.close()
    if args.json:
        report["reproof"] = {"verdict": proof.verdict, "solver": proof.solver, "text": proof.text}
        if proof.verdict == "refuted":  # the certificate's claim is false: ok says so, as the exit status does
            report["ok"] = False
            report["reasons"] = [proof.text]
        _print_json(report)
    else:
        print(f"{shown_path(args.certificate)}: {proof.text}")
    return proof.exit_code


def cmd_render(args: argparse.Namespace) -> int:
    from mipgames.api import certificate_in
    from mipgames.core import certificate

    path = Path(args.file)
    refused = 0
    data = certificate_in(path, args.problem) if path.suffix == ".json" else None
    if data is not None:
        problem = _certificate_problem(data, path)
        if args.problem is not None and registry.load(args.problem).name != problem.name:
            raise UsageError(f"{shown_path(path)} is a certificate of {problem.name}, not of {args.problem}")
        from mipgames.run.plan import plan

        check = certificate.verify(data, problem, plan)
        if check.instance is None:
            raise InputError("; ".join(check.reasons), path)
        instance, solution, params = check.instance, check.solution, check.params
        if not check.ok:  # the instance alone is drawn: a solution is shown only under a certificate that verifies
            print(
                f"{shown_path(path)}: the certificate does not verify ({'; '.join(check.reasons)}): "
                "drawing its instance alone",
                file=sys.stderr,
            )
            solution, refused = None, 1
            if check.verdict is None:  # never replayed: the params may be what was rejected, so none are trusted
                params = problem.default_params()
    else:
        problem = _problem_for(str(path), args.problem)
        instance, params = read_instance(problem, str(path))[0], problem.default_params()
        solution = None
    if problem.render is None:
        raise UsageError(f"{problem.name} has no renderer")
    distinct_outputs([args.file], args.output)
    check_figure_path(args.output, problem.render_formats)
    try:
        problem.render(instance, params, solution, args.output)
    except TooLargeToDraw as exc:
        raise UsageError(f"{shown_path(path)}: {exc}") from None
    print(shown_path(args.output))
    return refused


def cmd_generate(args: argparse.Namespace) -> int:
    problem = registry.load(args.gen_problem)
    if problem.generator is None:
        raise UsageError(f"{problem.name} has no generator")
    if args.output == "":
        raise OutputError("an output's name is empty: give the name of the file to write, or - for standard output")
    if args.output == "-":
        args.output = None  # standard output, as the help says
    instance = problem.generator.generate(args)
    if args.output:
        problem.write(instance, args.output)
        print(shown_path(args.output))
    else:
        from mipgames.run.scratch import scratch_dir

        with scratch_dir() as tmp:
            target = tmp / "instance"
            problem.write(instance, target)
            sys.stdout.write(target.read_text())
            dropped = sorted(p.suffix for p in tmp.iterdir() if p != target)
        if dropped:  # a planted game or a reduction's graph has no place on standard output
            print(
                f"mipgames: note: the {' and '.join(dropped)} file written beside an instance is kept only with "
                "-o FILE",
                file=sys.stderr,
            )
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from mipgames.run.plan import plan

    if args.directory == "":
        raise OutputError("the folder's name is empty: give the folder to write the models into (-d .: this one)")
    problem = _problem_for(args.instance, args.problem)
    params = {**problem.default_params(), **_collect_params(problem, args)}
    instance = read_instance(problem, args.instance)[0]
    problem.check_params(instance, params)
    names = args.formulation or list(problem.formulations)
    targets: dict[str, list[Path]] = {}
    for name in names:
        try:
            plan(problem, "cpsat", name, instance, params)  # refuses names that do not exist or apply
        except UsageError as exc:
            if args.formulation:
                raise
            print(f"mipgames: skipped {name}: {exc}", file=sys.stderr)
            continue
        suffixes = MODEL_SUFFIXES[:2] if problem.formulations[name].kind == "mip" else MODEL_SUFFIXES[2:]
        targets[name] = [Path(args.directory) / f"{Path(args.instance).stem}.{name}{s}" for s in suffixes]
    every = [target for files in targets.values() for target in files]
    distinct_outputs([args.instance], *every, *([args.log] if getattr(args, "log", None) else []))
    for target in every:  # all of them before the first is built: a late refusal left part of the set written
        writable_output(target)
    limit = None if args.max_size is None else int(args.max_size * 2**20)
    memory = args.memory_limit if args.memory_limit is not None else default_memory_limit()
    written = 0
    with folders_left_only_if_used(args.directory):
        for name, files in targets.items():
            done = _export_contained(problem, instance, params, name, files, limit, memory)
            if done is None:
                continue
            for path, size, estimated in done:
                if size is None:
                    print(shown_path(path))
                    written += 1
                    continue
                print(
                    f"mipgames: skipped {printable(Path(path).name)}: {size:,} bytes"
                    f"{' or more' if estimated else ''}, over --max-size {shown(args.max_size)} MB ({limit:,} bytes)",
                    file=sys.stderr,
                )
    return 0 if written else 4


def _export_contained(
    problem: Problem,
    instance: Any,
    params: dict[str, Any],
    name: str,
    files: list[Path],
    limit: int | None,
    memory: int,
) -> list[tuple[str, int | None, bool]] | None:
    """One formulation built and written in a supervised child under the memory limit (None: it passed the
    limit, said so; whatever it had begun to write is removed)."""
    from mipgames.run.export import export_formulation
    from mipgames.run.scratch import scratch_dir
    from mipgames.run.supervisor import Limits, supervise

    def removed(pid: int) -> None:
        for target in files:
            remove_staged(target, pid)

    with scratch_dir() as scratch:
        args = (problem, instance, params, name, [str(f) for f in files], limit)
        end = supervise(export_formulation, args, scratch / "export.log", scratch, Limits(None, memory), on_end=removed)
    if end.kind == "done":
        done: list[tuple[str, int | None, bool]] = end.value
        return done
    if end.kind == "user-error":
        raise end.user_error()
    if end.kind == "memory":
        print(
            f"mipgames: skipped {name}: {end.message} while building its model; --memory-limit SIZE allows more",
            file=sys.stderr,
        )
        return None
    raise MipgamesError(f"building the {name} model failed: {end.message}")


def cmd_solvers(args: argparse.Namespace) -> int:
    from dataclasses import asdict

    from mipgames.backends import BACKENDS, get_backend

    if args.json:
        rows = []
        for name in BACKENDS:
            backend = get_backend(name)
            why = backend.available()
            rows.append(
                {
                    "name": name,
                    "available": why is None,
                    "why_not": why,
                    "description": backend.description,
                    "version": backend.version() if why is None else None,
                    "capabilities": asdict(backend.capabilities),
                }
            )
        _print_json({"solvers": rows})
        return 0 if all(r["available"] for r in rows) else 1
    w = max(8, *(len(name) + 2 for name in BACKENDS))  # a backend added by the guide may have a longer name
    print(f"{'solver':<{w}}{'status':<12}{'version':<14}{'models':<12}description")
    worst = 0
    for name in BACKENDS:
        backend = get_backend(name)
        why = backend.available()
        status = "available" if why is None else "MISSING"
        version = backend.version() if why is None else "—"
        print(
            f"{name:<{w}}{status:<12}{version:<14}{'+'.join(backend.kinds):<12}{backend.description}"
            + ("" if why is None else f"  ({why})")
        )
        if args.verbose:
            print(f"{'':<{w}}capabilities: {backend.capabilities.describe()}")
        worst = worst or (0 if why is None else 1)
    return worst


def cmd_problems(args: argparse.Namespace) -> int:
    if args.json:
        _print_json(
            {
                "problems": [
                    {
                        "name": p.name,
                        "summary": p.summary,
                        "objective": dict(zip(("name", "sense"), p.objective(p.default_params()))),
                        "formulations": {
                            n: {"kind": f.kind, "description": f.description} for n, f in p.formulations.items()
                        },
                        "default_formulation": p.default_formulation,
                        "algorithms": {
                            n: {"description": a.description, "exact": a.exact, "proves": a.may_prove}
                            for n, a in p.algorithms.items()
                        },
                        "default_solver": p.default_solver,
                        "default_note": p.default_note,
                        "params": [
                            {
                                "name": q.name,
                                "default": q.default,
                                "help": q.help,
                                "flag": q.flag,
                                "choices": list(q.choices) if q.choices else None,
                            }
                            for q in p.params
                        ],
                    }
                    for p in registry.available()
                ]
            }
        )
        return 0
    for problem in registry.available():
        name, sense = problem.objective(problem.default_params())
        print(f"{problem.name}: {problem.summary}")
        print(f"  objective     {name} ({sense})")
        forms = ", ".join(f"{n} [{f.kind}]" for n, f in problem.formulations.items())
        print(f"  formulations  {forms}")
        if problem.algorithms:
            print(f"  algorithms    {', '.join(problem.algorithms)}")
        note = f" ({problem.default_note})" if problem.default_note else ""
        print(f"  default       --solver {problem.default_solver}{note}")
        for p in problem.params:
            print(f"  --{p.name.replace('_', '-'):<20}{p.help}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="mipgames",
        description="Puzzles as MIP and CP-SAT models, solved by five solvers and certified by exact simulators.",
    )
    parser.add_argument("--version", action=_Versions, nargs=0, help="the toolkit's and every solver's version")
    _logging_options(parser, top=True)
    common = Parser(add_help=False)
    _logging_options(common, top=False)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    problems = registry.available()

    p = sub.add_parser("solve", help="solve an instance, verify the answer, write a certificate", parents=[common])
    p.add_argument("instance")
    p.add_argument("--problem", help=f"{', '.join(registry.PROBLEMS)} (default: from the instance path)")
    p.add_argument(
        "--solver",
        help=f"{', '.join(BACKEND_NAMES)}, or a problem's algorithm (default: the problem's, see `mipgames problems`)",
    )
    p.add_argument("--formulation", help="model to build (default: the problem's best for the solver)")
    p.add_argument(
        "--time-limit",
        type=seconds_or_none,
        metavar="SEC",
        help="seconds for the whole solve, reading and building included, or none "
        f"(default {shown(DEFAULT_TIME_LIMIT)})",
    )
    p.add_argument(
        "--memory-limit",
        type=_memory,
        metavar="SIZE",
        help="memory for the solve's processes, like 8G (default: 3/4 of the machine's)",
    )
    p.add_argument("--threads", type=int_in(1, 256), default=2, help="solver threads (default 2)")
    p.add_argument("--gap", type=_gap, help="relative gap at which the solver may stop (then: feasible)")
    p.add_argument("--seed", type=int_in(0, MAX_SEED), default=0)
    p.add_argument("--warm-start", action="store_true", help="start from the problem's heuristic solution")
    p.add_argument(
        "--out",
        metavar="CERT.json",
        help="certificate path (default out/<instance>[.<formulation>].<solver>.cert.json)",
    )
    p.add_argument("--export-model", metavar="FILE", help="also write the model (.lp/.mps, or .pb/.pbtxt for CP-SAT)")
    p.add_argument("--render", metavar="FILE", help="also draw the solution: .png, .pdf or .svg (SameGame also .gif)")
    p.add_argument("--solver-log", metavar="FILE", help="keep the solver's own log here")
    p.add_argument("--keep-log", action="store_true", help="keep the solver's own log beside the certificate")
    p.add_argument("--quiet", action="store_true", help="no progress, no solution drawing; summary only")
    p.add_argument("--json", action="store_true", help="one JSON object on standard output, nothing else")
    _add_param_options(p, problems)
    p.set_defaults(func=cmd_solve)

    p = sub.add_parser(
        "verify",
        help="replay a certificate's solution and check its claims",
        parents=[common],
        # the certificate is optional to argparse only so that `verify --reprove CERT` reads (cmd_verify)
        usage="%(prog)s [-h] [-v] [--log FILE] CERT.json [--reprove [SOLVER]] [--time-limit SEC] [--threads THREADS]"
        " [--memory-limit SIZE] [--quiet] [--json]",
    )
    p.add_argument("certificate", nargs="?", metavar="CERT.json", help="a certificate that `mipgames solve` wrote")
    p.add_argument(
        "--reprove",
        nargs="?",
        const="",
        metavar="SOLVER",
        help="also ask another solver (default: one that did not make the claim) to prove the claim again: "
        "an optimum, an infeasibility, or a feasible or unknown answer's bound",
    )
    p.add_argument(
        "--time-limit",
        type=seconds_or_none,
        metavar="SEC",
        help=f"for --reprove: seconds, or none (default {shown(DEFAULT_TIME_LIMIT)})",
    )
    p.add_argument("--threads", type=int_in(1, 256), help="for --reprove (default 2)")
    p.add_argument("--memory-limit", type=_memory, metavar="SIZE", help="for --reprove")
    p.add_argument("--quiet", action="store_true", help="no progress while re-proving")
    p.add_argument("--json", action="store_true", help="one JSON object on standard output, nothing else")
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser(
        "render", help="draw a certificate's solution (or an instance) as PNG, PDF or SVG", parents=[common]
    )
    p.add_argument("file", help="a certificate (.json) or an instance file")
    p.add_argument(
        "-o", "--output", required=True, metavar="FILE", help=".png, .pdf or .svg (SameGame also .gif: the game played)"
    )
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
                g.add_argument(
                    "-o",
                    "--output",
                    metavar="FILE",
                    help="write here (default or -: standard output"
                    + {
                        "queens": "; a planted board's X.moves goes beside FILE X.txt, with -o only)",
                        "merge-game": "; a reduction map's X.graph goes beside FILE X.txt, with -o only)",
                    }.get(problem.name, ")"),
                )
    p.set_defaults(func=cmd_generate)

    p = sub.add_parser(
        "export", help="write a problem's models as LP/MPS (MIP) or proto (CP-SAT) files", parents=[common]
    )
    p.add_argument("instance")
    p.add_argument("--problem", help=f"{', '.join(registry.PROBLEMS)} (default: from the instance path)")
    p.add_argument("--formulation", action="append", help="formulation(s) to write (default: all)")
    p.add_argument(
        "-d", "--directory", default="models", help="folder for the files, made as needed (default: ./models)"
    )
    p.add_argument("--max-size", type=_megabytes, metavar="MB", help="skip model files larger than this (as written)")
    p.add_argument(
        "--memory-limit",
        type=_memory,
        metavar="SIZE",
        help="memory for building each model, like 8G (default: 3/4 of the machine's); a model past it is skipped",
    )
    _add_param_options(p, problems, models_only=True)
    p.set_defaults(func=cmd_export)

    p = sub.add_parser(
        "solvers", help="which solver backends are available, with versions (-v: capabilities)", parents=[common]
    )
    p.add_argument("--json", action="store_true", help="one JSON object on standard output, nothing else")
    p.set_defaults(func=cmd_solvers)
    p = sub.add_parser("problems", help="problems, formulations, algorithms and options", parents=[common])
    p.add_argument("--json", action="store_true", help="one JSON object on standard output, nothing else")
    p.set_defaults(func=cmd_problems)

    p = sub.add_parser(
        "warmup", help="compile every problem's compiled searches now (the first solve would do it)", parents=[common]
    )
    p.add_argument("--quiet", action="store_true", help="print nothing")
    p.set_defaults(func=cmd_warmup)

    for register in registry.command_registrars():
        before = set(sub.choices)
        register(sub)
        for name in sorted(set(sub.choices) - before):  # -v and --log after these commands too, as after solve
            if not any(o in sub.choices[name]._option_string_actions for o in ("-v", "--verbose", "--log")):
                _logging_options(sub.choices[name], top=False)
    return parser


def cmd_warmup(args: argparse.Namespace) -> int:
    """Compile each problem's kernels once; numba caches them beside the sources, so later solves load them."""
    for name in registry.PROBLEMS:
        problem = registry.load(name)
        if problem.warmup is None:
            continue
        began = time.monotonic()
        problem.warmup()
        if not args.quiet:
            print(f"{name:14s} compiled searches ready ({time.monotonic() - began:.1f} s)", flush=True)
    return 0


def main(argv: Sequence[str] | None = None, started: float | None = None) -> int:
    """The command, without process-wide set-up (tests call this in-process; see :func:`entry`)."""
    from mipgames.run.supervisor import Terminated

    parser = build_parser()
    words = list(argv) if argv is not None else sys.argv[1:]
    try:
        args = parser.parse_args(words)
    except UsageExit as exc:  # a usage error: with --json, its object too (the options were not read)
        return _json_failure(argparse.Namespace(json="--json" in words), _JSON_PRINTED[0], exc.message, 4)
    except SystemExit as exc:  # --help and --version
        return exc.code if isinstance(exc.code, int) else 0
    args.started = started or time.monotonic()
    try:
        log = getattr(args, "log", None)
        if log:
            try:
                distinct_outputs(_paths_beside_the_log(args), log)
            except UsageError as exc:
                raise UsageError(f"--log {exc}") from None
            _refuse_a_log_named_like_a_model(args, Path(log))
        configure_logging(getattr(args, "verbose", 0) or 0, log)
        # the command line first: commands that log nothing else (render, export, generate) left an empty --log
        logging.getLogger("mipgames").debug("mipgames %s %s", __version__, printable(" ".join(words)))
    except MipgamesError as exc:
        print(f"mipgames: {exc}", file=sys.stderr)
        return _json_failure(args, _JSON_PRINTED[0], str(exc), exc.exit_code)
    if not getattr(args, "func", None):
        parser.print_help()
        return 4
    printed = _JSON_PRINTED[0]
    try:
        return int(args.func(args) or 0)
    except MipgamesError as exc:
        print(f"mipgames: {exc}", file=sys.stderr)
        return _json_failure(args, printed, str(exc), exc.exit_code)
    except KeyboardInterrupt:
        print("mipgames: interrupted", file=sys.stderr)
        return _json_failure(args, printed, "interrupted", 130)
    except Terminated as exc:
        print(f"mipgames: terminated by {exc}", file=sys.stderr)
        return _json_failure(args, printed, f"terminated by {exc}", 128 + exc.signum)
    except BrokenPipeError:
        return 0
    except OSError as exc:
        if exc.errno not in OUTPUT_FULL:
            return _internal_error(exc)
        print(f"mipgames: cannot write the output: {exc.strerror}", file=sys.stderr)  # stdout to /dev/full, say
        return OutputError.exit_code
    except Exception as exc:  # a bug of ours: one line for the user, the traceback only on request
        return _internal_error(exc)


def _json_failure(args: argparse.Namespace, printed: int, message: str, code: int) -> int:
    """With --json, a command that ends refused or interrupted before its own object still prints one object
    (``{"error", "exit_code"}``): standard output was empty.  Returns ``code``."""
    if getattr(args, "json", False) and _JSON_PRINTED[0] == printed:
        try:
            _print_json({"error": message, "exit_code": code})
        except OSError:  # standard output itself is what failed
            pass
    return code


OUTPUT_FULL = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO)
"""Write errors of a full or failing output (standard output to /dev/full, a full disk): the output's fault."""


def _internal_error(exc: Exception) -> int:
    if os.environ.get("MIPGAMES_DEBUG"):
        raise exc
    print(
        f"mipgames: internal error: {type(exc).__name__}: {str(exc)[:200]} (set MIPGAMES_DEBUG=1 for the traceback)",
        file=sys.stderr,
    )
    return 1


def entry() -> None:
    """The console script: SIGTERM/SIGHUP unwind like Ctrl-C, and no process the command started outlives it."""
    from mipgames.run.processes import become_subreaper, kill_tree
    from mipgames.run.supervisor import Terminated, ignore_ending_signals, terminate_on_signals

    started = time.monotonic()
    become_subreaper()
    terminate_on_signals()  # from here main's handlers say "interrupted", and a second signal waits for the end
    try:
        code = main(sys.argv[1:], started=started)
    except KeyboardInterrupt:  # before main's own handlers stand (the parser imports every problem: ~1 s)
        print("mipgames: interrupted", file=sys.stderr)
        code = 130
    except Terminated as exc:
        print(f"mipgames: terminated by {exc}", file=sys.stderr)
        code = 128 + exc.signum
    finally:
        ignore_ending_signals()  # a second Ctrl-C or SIGTERM while the children are reaped: it is ending already
        kill_tree(os.getpid(), include_root=False)
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        pass
    except OSError as exc:  # what was printed last did not fit: say so once, and leave nothing for exit to retry
        if exc.errno not in OUTPUT_FULL:
            raise
        print(f"mipgames: cannot write the output: {exc.strerror}", file=sys.stderr)
        code = code or OutputError.exit_code
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(code)
