"""Plan a campaign's jobs and run them serially or on Dask, storing each row the moment it arrives.

Distribution is Dask's: ``client.map`` + ``as_completed``; the client alone
writes the SQLite file.  ``--jobs N`` starts a LocalCluster of N one-thread
worker processes made non-daemonic (``distributed.worker.daemon: False``)
because each job forks its solver child with multiprocessing, which daemonic
processes may not do.
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from mipgames.backends import BACKENDS as MODEL_SOLVERS
from mipgames.bench.jobs import ERROR, SOLVED, TIMEOUT, JobSpec, error_row, load_problem, run_job
from mipgames.bench.store import Store
from mipgames.core.arguments import SWITCHES_SHOWN, switch_word
from mipgames.core.certificate import sha256
from mipgames.core.errors import MipgamesError, UsageError
from mipgames.core.files import may_be_instance
from mipgames.run.plan import plan


def instance_files(paths: Sequence[str]) -> list[str]:
    """Files as given; a directory stands for its instance files (``files.may_be_instance``)."""
    found: list[str] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found += sorted(str(f) for f in path.iterdir() if f.is_file() and may_be_instance(f))
        elif path.exists():
            found.append(str(path))
        else:
            raise UsageError(f"{p}: no such instance file or directory")
    if not found:
        raise UsageError("no instance files given")
    return found


def plan_jobs(
    paths: Sequence[str],
    solvers: Sequence[str],
    formulations: Sequence[str] | None = None,
    params: dict[str, str] | None = None,
    time_limit: float = 60.0,
    threads: int = 1,
    seed: int = 0,
    repeats: int = 1,
    problem: str | None = None,
    module: str | None = None,
) -> tuple[list[JobSpec], list[str]]:
    """Every (instance, solver, formulation, repeat) job that can run, and notes on combinations skipped.

    Formulation None means each model solver's default; a named formulation
    is used where the problem has it and the solver can run it.  ``params``
    hold raw command-line text, parsed by each problem's own ``Param``.
    """
    _known_solvers(solvers, problem, module)
    jobs: list[JobSpec] = []
    skipped: dict[str, list[str]] = {}
    used_params: set[str] = set()
    used_solvers: set[str] = set()
    for path in instance_files(paths):
        prob = load_problem(problem, module, path)
        instance = prob.read(path)
        merged = prob.default_params()
        for p in prob.params:
            # both spellings, as the command line's flags take them (minimise=true, minimize=true)
            given = next((n for n in p.spellings if params and n in params), None)
            if params and given is not None:
                label = f"--param {given}"
                merged[p.name] = _switch(params[given], label) if p.flag else p.read(params[given], label)
                used_params.add(given)
        prob.check_params(instance, merged)
        digest = sha256(prob.instance_to_json(instance))
        combos: list[tuple[str, str | None]] = []
        for solver in solvers:
            if solver not in MODEL_SOLVERS and solver not in prob.algorithms:
                skipped.setdefault(f"{prob.name} has no solver or algorithm {solver!r}", []).append(path)
                continue
            if solver in prob.algorithms:
                refused = prob.algorithms[solver].applies(instance, merged)
                if refused:  # as a formulation that does not apply: a note, not a row of errors
                    skipped.setdefault(f"{solver}: {refused}", []).append(path)
                    continue
                if formulations:
                    skipped.setdefault(f"--formulations for {solver}, an algorithm that builds no model", []).append(
                        path
                    )
            forms: Sequence[str | None] = [None] if solver in prob.algorithms else (formulations or [None])
            for form in forms:
                if form is not None and form not in prob.formulations:
                    skipped.setdefault(f"{prob.name} has no formulation {form!r}", []).append(path)
                    continue
                try:
                    resolved = plan(prob, solver, form, instance, merged).formulation
                except UsageError as exc:
                    skipped.setdefault(f"{solver}/{form}: {exc}", []).append(path)
                    continue
                if (solver, resolved) not in combos:
                    combos.append((solver, resolved))
                    used_solvers.add(solver)
        for r in range(repeats):
            for solver, form in combos:
                jobs.append(
                    JobSpec(
                        instance_path=path,
                        instance_sha256=digest,
                        problem=prob.name,
                        solver=solver,
                        formulation=form,
                        params=merged,
                        time_limit=time_limit,
                        threads=threads,
                        seed=seed,
                        repeat=r,
                        module=module,
                    )
                )
    keys: set[str] = set()
    unique: list[JobSpec] = []
    for job in jobs:  # an instance named twice, or two files of one content: one job, stored once, runs once
        if job.key() in keys:
            skipped.setdefault("a job planned already (the same instance content, solver and params)", []).append(
                job.instance_path
            )
        else:
            keys.add(job.key())
            unique.append(job)
    jobs = unique
    notes = [
        f"skipped {why} ({paths_[0]}" + (f" and {len(paths_) - 1} more)" if len(paths_) > 1 else ")")
        for why, paths_ in skipped.items()
    ]
    stray = set(params or {}) - used_params
    if stray:
        raise UsageError(f"--param {sorted(stray)[0]} applies to none of the instances' problems")
    unused = [s for s in solvers if s not in used_solvers]
    if unused:
        notes.append(f"solver(s) {', '.join(unused)} ran on no instance")
    if not jobs:
        raise UsageError("no job can run: " + ("; ".join(notes) or "nothing to do"))
    return jobs, notes


def _known_solvers(solvers: Sequence[str], problem: str | None, module: str | None) -> None:
    """Refuse a name that is no backend and no algorithm of any problem (a typo, not a combination to skip)."""
    from mipgames import registry

    one = problem is not None or module is not None
    problems = [load_problem(problem, module)] if one else registry.available()
    algorithms = {name for p in problems for name in p.algorithms}
    for solver in solvers:
        if solver not in MODEL_SOLVERS and solver not in algorithms:
            raise UsageError(
                f"--solvers: {solver[:40]!r} is neither a solver ({', '.join(MODEL_SOLVERS)}) nor an algorithm of "
                f"{'problem ' + problems[0].name if one else 'any problem'} (`mipgames problems` lists them)"
            )


@dataclass
class Counts:
    solved: int = 0
    timeout: int = 0
    error: int = 0
    failed_verification: int = 0

    def add(self, row: dict[str, Any]) -> None:
        outcome = row["outcome"]
        if outcome == SOLVED:
            self.solved += 1
        elif outcome == TIMEOUT:
            self.timeout += 1
        else:
            self.error += 1
        self.failed_verification += int(bool(row.get("verification_failed")))

    def as_dict(self) -> dict[str, int]:
        return {
            "solved": self.solved,
            "timeout": self.timeout,
            "error": self.error,
            "failed_verification": self.failed_verification,
        }

    def text(self) -> str:
        flag = f" · [bold red]{self.failed_verification} failed verification[/]" if self.failed_verification else ""
        return f"[green]{self.solved} solved[/] · [yellow]{self.timeout} timeout[/] · [red]{self.error} error[/]{flag}"


@contextlib.contextmanager
def progress_bar(total: int, quiet: bool) -> Iterator[Callable[[dict[str, Any]], None]]:
    """A live bar of finished runs with solved/timeout/error counts; yields the per-row callback."""
    if quiet:
        yield lambda row: None
        return
    counts = Counts()
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    # standard error: standard output is the report's path or the --json object, nothing else
    with Progress(
        TextColumn("bench"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[counts]}"),
        TimeElapsedColumn(),
        console=Console(stderr=True),
    ) as bar:
        task = bar.add_task("bench", total=total, counts=counts.text())

        def update(row: dict[str, Any]) -> None:
            counts.add(row)
            if row["outcome"] == ERROR:
                bar.console.print(
                    f"[red]error[/] {row['solver']}/{row.get('formulation') or '-'} on "
                    f"{Path(row['instance_path']).name}: {(row.get('message') or '')[:160]}",
                    markup=True,
                    highlight=False,
                )
            bar.update(task, advance=1, counts=counts.text())

        yield update


def run_serial(jobs: Sequence[JobSpec], store: Store, on_row: Callable[[dict[str, Any]], None]) -> None:
    for spec in jobs:
        row = run_job(spec)
        store.insert(row)
        on_row(row)


def _switch(text: str, label: str) -> bool:
    """A flag's --param value: ``minimise=false`` switched the flag on (any value did)."""
    on = switch_word(text)
    if on is None:
        raise UsageError(f"{label}: a switch takes {SWITCHES_SHOWN}, not {text[:40]!r}")
    return on


SCHEDULER_TIMEOUT_S = 30
"""Seconds to wait for an existing scheduler to answer before the campaign gives up."""


@contextlib.contextmanager
def dask_client(n_workers: int | None, scheduler: str | None) -> Iterator[Any]:
    """A client on an existing scheduler, or on a LocalCluster of non-daemonic one-thread worker processes."""
    import logging

    try:
        import dask
        from distributed import Client, LocalCluster
    except ImportError:
        raise UsageError(
            "--jobs N and --scheduler need Dask: pip install 'mipgames[cluster]' (make install includes it)"
        ) from None

    if scheduler:
        failure: MipgamesError | None = None
        try:
            remote = Client(scheduler, timeout=SCHEDULER_TIMEOUT_S)
        except ValueError as exc:  # distributed's words for a malformed address
            failure = UsageError(f"--scheduler {scheduler[:80]!r} is not a scheduler address: {exc}")
        except Exception as exc:  # OSError, TimeoutError; under load also an AssertionError from distributed itself
            why = str(exc) or type(exc).__name__
            failure = MipgamesError(f"cannot reach the Dask scheduler at {scheduler[:80]}: {why}")
        if failure is not None:
            # The half-made client closes itself in __del__, at some later collection: one that came while the
            # next client started its event loop deadlocked on the loop's lock (a test run hung).  Now, with the
            # exception and its frames gone, and no lock held.
            gc.collect()
            raise failure
        with remote as client:
            yield client
        return
    # One directory for the cluster's files and its workers' run directories (they inherit TMPDIR), removed
    # after the cluster closes: an interrupted campaign left Dask's scratch space and its killed runs' files.
    from mipgames.run.processes import die_with_parent
    from mipgames.run.scratch import TEMP_VARIABLES, point_temporary_files_at, scratch_dir, temporary_files_in

    _start_forkserver()  # its socket's folder is multiprocessing's, removed at exit: not in the scratch below
    with scratch_dir() as scratch, temporary_files_in(scratch):
        cluster = client = None
        try:
            settings = {"distributed.worker.daemon": False, "distributed.worker.multiprocessing-method": "forkserver"}
            with _signals_held(), dask.config.set(settings):
                cluster = LocalCluster(
                    n_workers=n_workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=logging.ERROR,
                    local_directory=str(scratch),
                    env=dict.fromkeys(TEMP_VARIABLES, str(scratch)),
                )
                client = Client(cluster)
                client.wait_for_workers(n_workers or 1)
                client.run(die_with_parent)  # a killed campaign takes its workers (and their solves) with it
                # forked from the fork server, a worker has the environment the server started with, and
                # tempfile may have read it already: its solves' files go to the scratch folder all the same
                client.run(point_temporary_files_at, str(scratch))
            yield client
        finally:
            with _signals_held():  # a second Ctrl-C must not cut the shutdown short either
                if client is not None:
                    client.close()
                if cluster is not None:
                    cluster.close()


HELD_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Defer Ctrl-C, SIGTERM and SIGHUP while the local cluster starts or stops, and deliver them after.

    Interrupted half-way, Dask's start-up printed a dozen tracebacks (its
    nannies, atexit hooks and the resource tracker) where one line was due.
    Here a signal is noted and raised again once the cluster stands, and the
    campaign unwinds from there, closing it in order.  (A handler that notes,
    not a blocked mask: numpy's worker threads would take a blocked signal.)
    """
    caught: list[int] = []
    before = {sig: signal.signal(sig, lambda signum, frame: caught.append(signum)) for sig in HELD_SIGNALS}
    try:
        yield
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)
        if caught:
            signal.raise_signal(caught[0])


def _start_forkserver() -> None:
    """Start the process the workers are forked from with Ctrl-C ignored, which its workers then inherit.

    A terminal's Ctrl-C goes to the whole process group; a worker still
    importing when it came printed a KeyboardInterrupt traceback.  Workers that
    ignore it are closed by the campaign, which gets the Ctrl-C too (their
    solves die with them).  Only an ignored disposition survives the exec of a
    new interpreter, so it is set for the instant of that exec alone.
    """
    import multiprocessing.forkserver as forkserver

    forkserver.set_forkserver_preload(["distributed"])
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with _multiprocessing_files_in_a_run_folder():
            forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGINT, before)


SOCKET_PATH_MAX = 107
"""The longest path a Unix socket binds to (Linux's 108 bytes, less the NUL)."""
SOCKET_BELOW = 64
"""Bytes the forkserver's socket adds below the temporary folder inside a run-named one (/mipgames-run-PID-mp-XXXXXXXX
/pymp-XXXXXXXX/listener-XXXXXXXX)."""


@contextlib.contextmanager
def _multiprocessing_files_in_a_run_folder() -> Iterator[None]:
    """Multiprocessing's folder for the forkserver's socket (pymp-*) goes inside a folder named like a run's
    scratch folder, for this process: it removes its pymp-* at exit, but a campaign killed with SIGKILL left it
    in the temporary folder for good, where the next command's sweep of dead runs' folders now finds it."""
    import multiprocessing.util
    import shutil
    import tempfile

    from mipgames.run.scratch import PREFIX

    base = tempfile.gettempdir()
    if len(os.fsencode(base)) + SOCKET_BELOW > SOCKET_PATH_MAX:  # the socket's path would be too long to bind
        yield
        return
    folder = tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-mp-", dir=base)
    # removed after multiprocessing's own clean-up of the folder inside (priority -100 runs before -101)
    multiprocessing.util.Finalize(
        None, shutil.rmtree, args=(folder,), kwargs={"ignore_errors": True}, exitpriority=-101
    )
    before, tempfile.tempdir = tempfile.tempdir, folder
    try:
        multiprocessing.util.get_temp_dir()  # made now, inside the folder, and kept for the process
    finally:
        tempfile.tempdir = before
    yield


def run_dask(
    jobs: Sequence[JobSpec],
    store: Store,
    on_row: Callable[[dict[str, Any]], None],
    n_workers: int | None = None,
    scheduler: str | None = None,
) -> None:
    from distributed import as_completed

    with dask_client(n_workers, scheduler) as client:
        slots = sum(w.get("nthreads", 1) for w in client.scheduler_info()["workers"].values()) or n_workers or 1
        if scheduler:  # its workers may be other machines, with caches of their own
            client.run(warm_kernels, registry_problems(jobs))
        specs = {f"bench-{spec.key()}": replace(spec, parallel_jobs=slots) for spec in jobs}
        futures = client.map(run_job, list(specs.values()), key=list(specs), pure=False)
        try:
            for future in as_completed(futures):
                try:
                    row = future.result()
                except Exception as exc:  # a worker lost mid-job (killed, out of memory) is a row, not the end
                    row = error_row(specs[future.key], f"Dask: {type(exc).__name__}: {exc}")
                store.insert(row)
                on_row(row)
        finally:
            client.cancel(futures)


def registry_problems(jobs: Sequence[JobSpec]) -> list[str]:
    """The package's problems among the jobs (a ``--problem-module`` problem is not the registry's to warm)."""
    return sorted({spec.problem for spec in jobs if spec.module is None})


def warm_kernels(problems: Sequence[str], quiet: bool = True) -> None:
    """Compile (or load from numba's cache) the compiled searches of these problems before any run is timed.

    A cold cache (a fresh clone, an edited kernel) charged the compile to whichever job came first: `make bench`
    recorded CBC's SameGame run as a 10 s timeout whose model start was compiling, and a second solver's build
    took 9.6 s.  The solves' child processes load what this writes in a second.
    """
    for name in problems:
        problem = load_problem(name)
        if problem.warmup is None:
            continue
        began = time.monotonic()
        problem.warmup()
        if not quiet:
            print(
                f"mipgames bench: {name}'s compiled searches ready in {time.monotonic() - began:.1f} s "
                "(before any run is timed)",
                file=sys.stderr,
                flush=True,
            )


def run(
    jobs: Sequence[JobSpec], store: Store, *, n_jobs: int = 1, scheduler: str | None = None, quiet: bool = False
) -> Counts:
    """Run the jobs (serially for one slot and no scheduler) and return the counts of this session's runs.

    The campaign's problems' kernels are compiled first, here and, on a cluster of your own, on every worker
    (a local cluster shares this machine's cache)."""
    warm_kernels(registry_problems(jobs), quiet)
    seen = Counts()
    with progress_bar(len(jobs), quiet) as on_row:

        def record(row: dict[str, Any]) -> None:
            seen.add(row)
            on_row(row)

        if scheduler is None and n_jobs <= 1:
            run_serial([replace(spec, parallel_jobs=1) for spec in jobs], store, record)
        else:
            run_dask(jobs, store, record, n_workers=n_jobs, scheduler=scheduler)
    return seen
