"""The problem protocol: the one surface through which the runner, CLI,
certificates and benchmarks know a puzzle.

A problem folder (``mipgames/<problem>/``) exposes ``PROBLEM: Problem`` in its
``problem.py``.  Everything is plain functions and dataclasses so that a
problem can be read in one sitting:

    read(path) -> instance            (InputError naming file and line)
    formulations[name].build(instance, params, options) -> Built
    backend solves Built.model        -> value(handle) for each variable
    formulations[name].decode(instance, params, Built.handles, value) -> solution
    evaluate(instance, params, solution) -> Verdict   (the exact simulator)

``params`` are the problem's own switches (edge matching's ``mode``, SameGame's
``objective``...): declared once as ``Param``s, they become CLI options, are
passed to every build/run/evaluate call and are stored in certificates, so a
certificate is replayed under the rules it was solved under.

Objective values are always in the problem's natural units and sense (for
example mismatched edges, minimised).  A formulation whose model objective is
not the natural objective sets ``Built.objective`` to translate; a pure
feasibility model sets ``Built.has_objective = False`` and the runner takes the
objective from the simulator.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, NamedTuple, Protocol

from mipgames.core.result import Result, Value
from mipgames.core.status import Claim, Sense, Status, decide, finite, same, shown, tighter

Kind = Literal["mip", "cpsat"]

BACKEND_NAMES = ("cbc", "glpk", "highs", "cpsat", "scip")
"""The solver backends, each a module ``mipgames.backends.<name>``: a prover of that name is a solver's proof."""

MAX_TIME_LIMIT_S = 1e8
"""The longest time limit (three years): beyond it deadlines overflow the platform's clocks."""
MAX_MEMORY_LIMIT = 2**60
"""The largest memory limit in bytes (an exbibyte): beyond it ``setrlimit`` overflows."""
MIN_MEMORY_LIMIT = 2**20
"""The smallest memory limit in bytes (1 MiB): below it no solver process can even start."""


def default_memory_limit() -> int:
    """Three quarters of the machine's memory: a runaway solve is stopped before the OOM killer picks a victim
    (the command line's and the API's default)."""
    import psutil

    return int(0.75 * psutil.virtual_memory().total)


class Report(Protocol):
    """Progress hook for algorithms: ``report(incumbent, bound, solution=None, detail=None)``; any may be None.

    Passing the incumbent's ``solution`` lets the runner keep it: if the run
    is stopped at its deadline, the last reported solution is replayed and
    returned as ``feasible`` instead of losing it.  ``detail`` is progress
    that incumbent and bound cannot say (a count so far), in a few words; the
    command line shows it on its progress line.
    """

    def __call__(
        self, incumbent: float | None, bound: float | None, solution: Any = None, detail: str | None = None
    ) -> None: ...


MAX_THREADS = 256
MAX_SEED = 2**31 - 1
"""CP-SAT's random_seed is an int32; CBC's and HiGHS's seeds are ints too."""


@dataclass(frozen=True)
class SolveOptions:
    """Options common to every solver and algorithm; a backend ignores what its solver lacks.

    ``time_limit`` covers the whole solve (reading, building, export and
    solving) from the moment the runner is called or, on the command line,
    from the start of the command.  ``memory_limit`` is in bytes, for the
    solve's whole process tree.
    """

    time_limit: float | None = None
    threads: int = 1
    gap: float | None = None
    seed: int = 0
    warm_start: bool = False
    memory_limit: int | None = None

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        """Refuse values no solver can honour (a NaN limit once made CBC claim infeasibility)."""
        from mipgames.core.errors import UsageError

        def real(name: str, value: Any, zero_ok: bool, most: float) -> None:
            if value is None:
                return
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(float(value)):
                given = repr(value[:40]) if isinstance(value, str) else str(value)[:40]
                raise UsageError(f"{name} must be a finite number, got {given}")
            if value < 0 or (value == 0 and not zero_ok):
                raise UsageError(f"{name} must be {'at least 0' if zero_ok else 'positive'}, got {value!r}")
            if value > most:  # clocks and rlimits overflow beyond these (1e300 s ended in an OverflowError)
                if name == "memory limit":
                    raise UsageError(f"{name} must be at most {most / 2**40:,.0f} TiB, got {value / 2**40:,.0f} TiB")
                raise UsageError(f"{name} must be at most {most:g}, got {str(value)[:40]}")

        try:
            real("time limit", self.time_limit, zero_ok=False, most=MAX_TIME_LIMIT_S)
            real("gap", self.gap, zero_ok=True, most=math.inf)
            real("memory limit", self.memory_limit, zero_ok=False, most=MAX_MEMORY_LIMIT)
            if isinstance(self.memory_limit, float):  # bytes: the certificate records a whole number
                if not self.memory_limit.is_integer():
                    raise UsageError(f"memory limit must be a whole number of bytes, got {self.memory_limit!r}")
                object.__setattr__(self, "memory_limit", int(self.memory_limit))
            if self.memory_limit is not None and self.memory_limit < MIN_MEMORY_LIMIT:
                raise UsageError(
                    f"memory limit must be at least 1 MiB ({MIN_MEMORY_LIMIT} bytes), got {self.memory_limit}"
                )
        except OverflowError:  # an int no float holds
            raise UsageError("a limit must be a finite number of reasonable size") from None
        if isinstance(self.threads, bool) or not isinstance(self.threads, int) or not 1 <= self.threads <= MAX_THREADS:
            raise UsageError(f"threads must be an integer from 1 to {MAX_THREADS}, got {self.threads!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or not 0 <= self.seed <= MAX_SEED:
            raise UsageError(f"seed must be an integer from 0 to {MAX_SEED}, got {self.seed!r}")
        if not isinstance(self.warm_start, bool):
            raise UsageError(f"warm start is True or False, got {str(self.warm_start)[:40]!r}")

    def deadline(self) -> float | None:
        """The time.monotonic() value the time limit ends at, counted from now (None: no limit)."""
        return None if self.time_limit is None else time.monotonic() + self.time_limit

    def as_dict(self) -> dict[str, Any]:
        return {
            "time_limit": self.time_limit,
            "threads": self.threads,
            "gap": self.gap,
            "seed": self.seed,
            "warm_start": self.warm_start,
            "memory_limit": self.memory_limit,
        }


@dataclass(frozen=True)
class Param:
    """A problem-specific option.  CLI flag: ``--`` + name with ``_`` turned into ``-``.

    ``parse`` turns the command-line text into the value (it raises ValueError
    with a readable message on bad text).  ``flag`` makes it a switch
    (default False).  Values must be JSON-serialisable: they go into
    certificates.
    """

    name: str
    default: Any
    help: str
    parse: Callable[[str], Any] = str
    choices: tuple[Any, ...] | None = None
    flag: bool = False
    nullable: bool = False
    """None (JSON null) is a value of it, spelt ``none`` on the command line (``--frame-colour none``):
    ``verify`` takes it, and a certificate's rerun command spells it."""
    used_by: tuple[str, ...] | None = None
    """The routes (algorithms) that read it; None: every route.  A value set for another route is noted as
    ignored, since the certificate records it either way."""

    @property
    def spellings(self) -> tuple[str, ...]:
        """The names it is given by: its own, and the -ize spelling of an -ise name (``minimise``, ``minimize``)."""
        return (self.name, self.name.replace("ise", "ize")) if "ise" in self.name else (self.name,)

    def read(self, text: str, label: str | None = None) -> Any:
        """The value ``--name text`` gives (the command line, and a string given to the Python API): parsed, with
        one spelling of the choices; UsageError naming ``label`` (default: the flag) when the text is not a value
        of it."""
        from argparse import ArgumentTypeError

        from mipgames.core.errors import UsageError

        flag = label or "--" + self.name.replace("_", "-")
        try:
            value = self.parse(text)
        except (ValueError, TypeError, ArgumentTypeError) as exc:
            why = str(exc) or "bad value"
            raise UsageError(f"{flag}: {why}" + ("" if text[:20] in why else f" ({text[:40]!r})")) from None
        if self.choices and value not in self.choices and isinstance(value, str):
            value = value.replace("ize", "ise")  # one spelling in code and messages, both taken when given
        if self.choices and value not in self.choices:
            raise UsageError(f"{flag} must be one of {', '.join(map(str, self.choices))}")
        return value


@dataclass(frozen=True)
class Verdict:
    """What the exact simulator says of a solution.

    ``objective`` is the natural objective the replay measured (None when the
    solution is illegal); ``measured`` holds anything else worth printing or
    storing (final board, per-move scores, mismatched edges...).
    """

    legal: bool
    objective: float | None
    reason: str = ""
    measured: dict[str, Any] = field(default_factory=dict)


@dataclass
class Built:
    """A model plus what its decoder needs.

    ``model`` is a ``pulp.LpProblem`` (kind ``mip``) or an
    ``ortools.sat.python.cp_model.CpModel`` (kind ``cpsat``).  ``hint`` maps
    variable handles to warm-start values (a heuristic's solution); backends
    that take a start use it.  ``objective`` maps the model's objective value
    (or bound) to the natural objective when the two differ (e.g. a model that
    maximises moves while the natural objective is queens left).
    ``cpsat_parameters`` are CP-SAT ``SatParameters`` fields this model is
    known to need (e.g. ``linearization_level``); the ``cpsat`` backend sets
    them first, so the user's time limit, threads, gap and seed still win.
    """

    model: Any
    handles: Any
    has_objective: bool = True
    hint: Mapping[Any, float] | None = None
    objective: Callable[[float], float] | None = None
    stats: dict[str, Any] = field(default_factory=dict)
    cpsat_parameters: Mapping[str, Any] | None = None

    def natural(self, model_value: float | None) -> float | None:
        if model_value is None:
            return None
        return self.objective(model_value) if self.objective else model_value

    def affine(self) -> tuple[float, float]:
        """(a, b) with natural = a + b · model value: every objective map in the toolkit is affine."""
        a = self.objective(0.0) if self.objective else 0.0
        b = (self.objective(1.0) if self.objective else 1.0) - a
        return a, b


@dataclass(frozen=True)
class Formulation:
    """A model builder and its decoder."""

    name: str
    kind: Kind
    build: Callable[[Any, dict[str, Any], SolveOptions], Built]
    decode: Callable[[Any, dict[str, Any], Any, Value], Any]
    description: str = ""
    applies: Callable[[Any, dict[str, Any]], str | None] = lambda instance, params: None
    """Returns None when the formulation can model this instance/params, else why not."""
    start: Callable[[Any, dict[str, Any]], Any] | None = None
    """A heuristic solution taken before the build (None when there is none for this instance): on large
    instances the build alone can outlast a short limit, and the run then still answers with it (a 1,000 x
    1,000 merge map takes 34 s to build in PuLP, its start 4 s), as it does when the solver returns nothing as
    good.  The merge game's and SameGame's builders build their warm start from it; edge matching's take the
    row-scan greedy here and a local search for --warm-start."""


@dataclass(frozen=True)
class Algorithm:
    """A classical algorithm that runs as a solver (``--solver NAME``).

    ``run(instance, params, options, report) -> Result``.  It must honour
    ``options.time_limit`` itself (returning its best so far as ``feasible``
    or ``unknown``), say ``optimal`` only when it has proved it, and raise
    ``UsageError`` with a clear reason when the instance is outside what it
    handles (a greedy for one attack vector, say).
    """

    name: str
    run: Callable[[Any, dict[str, Any], SolveOptions, Report], Result]
    description: str = ""
    exact: bool = False
    proves: bool | None = None
    """Whether a bound or an emptiness it reports is a proof (None: when ``exact``).  A heuristic that proves only
    in a special case it recognises (a beam search that never cut a layer) says True; one that proves nothing
    says False, and a claim credited to it is refused."""

    counts: bool = False
    """Whether it counts every solution when asked (``--count``); other solvers refuse the switch."""
    applies: Callable[[Any, dict[str, Any]], str | None] = lambda instance, params: None
    """None when it runs on this instance under these params, else why not (what ``run`` refuses): ``verify``
    refuses a proof credited to it where it cannot have run."""

    @property
    def may_prove(self) -> bool:
        return self.exact if self.proves is None else self.proves


@dataclass(frozen=True)
class Generator:
    """``mipgames generate <problem> ...``: adds its options to an argparse parser and builds an instance from them.

    ``generate`` gets the parsed options with ``output`` (the file it goes to; None: standard output) and
    ``in_memory`` (True from the Python API, which returns the instance and writes nothing: no check of what a
    file format holds applies)."""

    add_arguments: Callable[[Any], None]
    generate: Callable[[Any], Any]


@dataclass(frozen=True)
class Problem:
    """Everything the shared machinery needs to know about one puzzle."""

    name: str
    folder: str
    summary: str
    read: Callable[[str | Path], Any]
    write: Callable[[Any, str | Path], None]
    instance_to_json: Callable[[Any], Any]
    instance_from_json: Callable[[Any], Any]
    solution_to_json: Callable[[Any], Any]
    solution_from_json: Callable[[Any, Any], Any]
    evaluate: Callable[[Any, dict[str, Any], Any], Verdict]
    objective: Callable[[dict[str, Any]], tuple[str, Sense]]
    """(name, sense) of the natural objective under these params, e.g. ("mismatched edges", "min")."""
    formulations: dict[str, Formulation]
    default_formulation: dict[str, str]
    """Formulation used when none is named, keyed by kind: {"mip": ..., "cpsat": ...}."""
    algorithms: dict[str, Algorithm] = field(default_factory=dict)
    params: tuple[Param, ...] = ()
    render: Callable[[Any, dict[str, Any], Any | None, str | Path], None] | None = None
    impossible: Callable[[Any, dict[str, Any]], tuple[str, str] | None] | None = None
    """(name, why) when the instance has no legal solution under these params, shown without search (tiles that
    cannot make the frame, hints that conflict): an ``infeasible`` credited to that name is recomputed by
    ``verify``, never trusted."""
    impossible_names: tuple[str, ...] = ()
    """The names ``impossible`` may give, so that ``verify`` can say such a proof does not hold on a certificate's
    instance (rather than that the name is unknown)."""
    plain_solution: Callable[[Any, dict[str, Any]], Any] | None = None
    """The JSON of a solution made without search (no merge at all; any finished game): where the simulator
    accepts it, no claim of ``infeasible`` can be true, nor a bound beyond it (``plain_objective``)."""
    render_formats: tuple[str, ...] = (".png", ".pdf", ".svg")
    """File suffixes ``render`` writes (checked before a solve spends its time)."""
    drawable: Callable[[Any], None] | None = None
    """Raises ``figures.TooLargeToDraw`` for an instance ``render`` refuses for its size, so that ``solve
    --render`` refuses it before the solve (a 1000 x 1000 map was refused after a 7.7 s solve)."""
    describe: Callable[[Any, dict[str, Any], Any, Verdict], str] | None = None
    """Human-readable text of a verified solution for the terminal."""
    generator: Generator | None = None
    check_params: Callable[[Any, dict[str, Any]], None] = lambda instance, params: None
    """Raises UsageError/InputError when params do not fit the instance."""
    integral: bool = True
    """Objectives are integers: solver values are rounded before comparison."""
    default_solver: str = "cpsat"
    """What ``mipgames solve`` uses when no ``--solver`` is named: the method that answers most instances."""
    default_for: Callable[[Any, dict[str, Any]], tuple[str, str] | None] | None = None
    """(solver, why) for an instance whose default is another (a merge map too large for the models), else None;
    the answer's note gives the why."""
    default_note: str = ""
    """When ``default_for`` picks another solver, in a few words for ``mipgames problems``."""
    bound_aliases: tuple[str, ...] = ()
    """Earlier whys of ``bound``: a certificate written before the bound was tightened credits one of them, and
    ``verify`` recomputes today's bound for it (a stated bound weaker than today's is true)."""
    bound: Callable[[Any, dict[str, Any]], tuple[float, str] | None] | None = None
    """A cheap bound every route may use, proved by the problem itself: (value, why), e.g. (0, "colour counts").

    The claim rule combines it with the solver's bound, so a decision model
    that meets it is optimal whichever solver found the solution."""
    target: Callable[[Any, dict[str, Any]], float | None] = lambda instance, params: None
    """The objective a decision must reach under these params (None when they ask to optimise): a proved bound
    beyond it proves the decision infeasible, whichever solver ran and however it stopped."""
    optimise_params: Callable[[dict[str, Any]], dict[str, Any]] = lambda params: params
    """Params under which the formulations optimise the natural objective over every solution the given params
    allow (a decision target dropped, say): ``verify --reprove`` proves "nothing is better" under these."""
    commands: Callable[[Any], None] | None = None
    """Adds the problem's own subcommands to the CLI's subparsers (``register(subparsers)``)."""
    claims: Callable[[Any, dict[str, Any], Any, float | None, str], list[str]] | None = None
    """``verify``'s reading of claims a certificate carries in its stats beyond the objective (a solution count):
    (instance, params, stats, replayed objective or None, status) -> notes; raises InputError when a claim is
    malformed or contradicts the replay."""
    warmup: Callable[[], None] | None = None
    """Compiles (or loads from numba's cache) the problem's compiled searches: a solve's deadline counts
    compile time, so ``mipgames warmup`` (run by ``make install``) pays it once, ahead."""

    def default_params(self) -> dict[str, Any]:
        return {p.name: p.default for p in self.params}


OWN_BOUND = "mipgames: "
"""Prefix of a prover that is the problem's own bound: ``verify`` recomputes such a bound instead of trusting it."""


def own_bound(problem: Problem, instance: Any, params: dict[str, Any]) -> tuple[float, str] | None:
    """The bound the problem proves by itself, credited under ``OWN_BOUND`` (None when it proves none)."""
    known = None if problem.bound is None else problem.bound(instance, params)
    return None if known is None else (known[0], OWN_BOUND + known[1])


def is_own(prover: str, own: tuple[float, str] | None, aliases: tuple[str, ...] = ()) -> bool:
    """Whether ``prover`` names the problem's own bound, as the runner credits it or as an algorithm names it, or
    by one of its earlier names (``aliases``: ``Problem.bound_aliases``, which older certificates credit)."""
    if own is None:
        return False
    name = prover.removeprefix(OWN_BOUND)
    return name == own[1].removeprefix(OWN_BOUND) or name in aliases


def own_proof(problem: Problem, instance: Any, params: dict[str, Any]) -> tuple[str, str] | None:
    """The problem's own proof that no legal solution exists, credited under ``OWN_BOUND`` (None: it has none)."""
    known = None if problem.impossible is None else problem.impossible(instance, params)
    return None if known is None else (OWN_BOUND + known[0], known[1])


def bare(prover: str) -> str:
    """A prover's name without the prefix that marks the toolkit's own bounds and proofs."""
    return prover.removeprefix(OWN_BOUND)


def prover_fault(
    problem: Problem,
    prover: str,
    status: str,
    bound: object,
    sense: Sense,
    own: tuple[float, str] | None,
    proof: tuple[str, str] | None,
    target: float | None,
    applies: Callable[[Algorithm], str | None] = lambda algorithm: None,
) -> str:
    """Why ``prover`` cannot have proved this claim ("" when it may have).

    The toolkit's own bound and its own proof of emptiness are recomputed, never trusted: the claim may not
    state the bound tighter than it is, and the bound proves a decision infeasible only when it rules out the
    decision's target.  Any other prover must be a solver backend or an algorithm of the problem that proves
    (a heuristic's "proof" is no proof, and a name the toolkit does not know proves nothing)."""
    if proof is not None and bare(prover) == bare(proof[0]):
        return "" if status == Status.INFEASIBLE else f"{prover} proves only that no solution exists"
    if prover.startswith(OWN_BOUND) or is_own(prover, own, problem.bound_aliases):
        if own is None or not is_own(prover, own, problem.bound_aliases):
            return f"proved_by {prover[:80]!r} names a bound this toolkit does not prove here"
        stated = finite(bound)
        if stated is not None and not same(stated, own[0]) and tighter(stated, own[0], sense):
            return f"bound {shown(stated)} is credited to {prover}, which recomputes to {shown(own[0])}"
        if status == Status.INFEASIBLE and (target is None or same(own[0], target) or tighter(target, own[0], sense)):
            goal = "a decision" if target is None else f"the target {shown(target)}"
            return f"infeasible is credited to {prover}, but its bound {shown(own[0])} does not rule out {goal}"
        return ""
    head = prover_head(prover)
    algorithm = problem.algorithms.get(head)
    if algorithm is not None:
        if not algorithm.may_prove:
            return f"proved_by names {head}, a heuristic: it proves no bound"
        why = applies(algorithm)
        return f"proved_by names {head}, which does not run on this instance: {why}" if why else ""
    if head in BACKEND_NAMES:
        return ""
    if bare(prover) in problem.impossible_names:
        return f"proved_by {bare(prover)!r} does not hold for this instance: recomputed, it rules nothing out"
    return f"proved_by {prover[:80]!r} names no solver or algorithm of {problem.name}"


def plain_objective(
    problem: Problem, instance: Any, params: dict[str, Any], cut: tuple[str, float] | None = None
) -> float | None:
    """The objective of a solution made without search, when it replays as legal (and meets ``cut``, the bound
    ``verify --reprove`` adds): no claim of ``infeasible`` can then be true, and no bound beyond it."""
    if problem.plain_solution is None:
        return None
    plain = problem.solution_from_json(instance, problem.plain_solution(instance, params))
    verdict = problem.evaluate(instance, params, plain)
    if not verdict.legal or verdict.objective is None:
        return None
    value = float(verdict.objective)
    if cut is not None and not (value <= cut[1] if cut[0] == "<=" else value >= cut[1]):
        return None
    return value


class Judged(NamedTuple):
    """What ``judge`` decided, with the toolkit's own bound and proof it recomputed (for the caller's notes)."""

    claim: Claim
    own: tuple[float, str] | None
    proof: tuple[str, str] | None


def prover_head(prover: str) -> str:
    """The solver or algorithm a prover's name starts with (``cpsat 9.15 (forest model)`` -> ``cpsat``)."""
    return prover.split(" ", 1)[0]


def judge(
    problem: Problem,
    instance: Any,
    params: dict[str, Any],
    reported: Status | str,
    objective: float | None,
    bound: object,
    prover: str,
    cut: tuple[str, float] | None = None,
    strict: bool = False,
    own_of: Callable[[], tuple[float, str] | None] | None = None,
) -> Judged:
    """The one claim rule for a report on an instance, as the runner applies it to a solver and ``verify`` to a
    certificate.  The problem's own bound is recomputed and joins ``bound``; a bound from a prover that cannot
    prove (``prover_fault``) is dropped, and emptiness it reports is refused; a decision's target is applied;
    ``infeasible`` is refused where a plain solution replays, and any bound beyond that solution's objective;
    ``unbounded`` is refused outright, since a puzzle has finitely many solutions.  ``strict`` (``verify``): a
    proved status or a bound credited to a prover that cannot prove it is refused, not dropped (the runner drops
    such a bound, so a certificate never carries one).  The claim is ERROR, with the reason, when the report is
    false.  ``own_of`` hands over the problem's own bound (``own_bound``) where the caller computes it apart: the
    runner does while its child solves."""
    name, sense = problem.objective(params)
    reported = Status(reported)
    own = own_bound(problem, instance, params) if own_of is None else own_of()
    proof = own_proof(problem, instance, params)
    target = problem.target(instance, params)

    def runs_here(algorithm: Algorithm) -> str | None:
        return algorithm.applies(instance, params)

    fault = prover_fault(problem, prover, reported, bound, sense, own, proof, target, runs_here)

    def refuse(why: str) -> Judged:
        return Judged(Claim(Status.ERROR, None, None, prover, why), own, proof)

    if fault and strict and (reported.proved or bound is not None):
        return refuse(fault)
    if reported is Status.UNBOUNDED:
        return refuse(f"{prover} reported unbounded, but a puzzle has finitely many solutions: {name} is bounded")
    credits_own = prover.startswith(OWN_BOUND) or is_own(prover, own, problem.bound_aliases)
    if fault and (reported is Status.INFEASIBLE or credits_own):
        return refuse(fault)
    if fault:
        bound = None  # no proof behind it: the claim rests on the other bounds or on none
    stated = finite(bound)
    if objective is None and stated is not None and not cut and not is_own(prover, own, problem.bound_aliases):
        # With no solution replayed, a bound is held against a game made without search (with one, ``decide``
        # holds it against that).  Not under --reprove's cut: that bound is on the games beyond the claim.
        anyhow = plain_objective(problem, instance, problem.optimise_params(params))
        if anyhow is not None and not same(stated, anyhow) and tighter(stated, anyhow, sense):
            return refuse(
                f"bound {shown(stated)} ({prover}) is beyond {shown(anyhow)}, "
                f"the {name} of a solution made without search"
            )
    bounds: list[tuple[object, str]] = [(bound, prover)] + ([own] if own is not None else [])
    claim = decide(reported, objective, bounds, sense, integral=problem.integral, prover=prover, target=target)
    if claim.status is Status.INFEASIBLE and plain_objective(problem, instance, params, cut) is not None:
        return refuse(f"{prover} reported infeasible, yet a solution made without search replays as legal")
    return Judged(claim, own, proof)
