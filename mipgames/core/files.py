"""Reading untrusted files and writing results without ever leaving half a file.

Every instance, certificate and script the toolkit reads goes through
:func:`read_text`: only regular files (a FIFO would block, ``/dev/zero`` would
never end), at most ``MAX_INPUT_BYTES``, UTF-8 text without NUL bytes.  Numbers
go through :func:`parse_int` so that a 10^6-digit token or a value no solver
accepts is refused at parse time with its file and line.  Every output goes
through :func:`write_text_atomic`: a temporary file beside the target, then a
rename, with the user's umask, never onto a symlink or a device.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import json
import logging
import math
import os
import re
import stat
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

import psutil

from mipgames.core.errors import InputError, OutputError, UsageError, printable

MAX_INPUT_BYTES = 64 * 1024 * 1024
"""The largest input file read (the biggest bundled or public instance is a few MB)."""
MAX_TOKEN_CHARS = 24
"""A number token longer than this is refused before conversion (int() of huge digit strings is quadratic)."""
EXCERPT_CHARS = 40


def excerpt(text: str, width: int = EXCERPT_CHARS) -> str:
    """A short, printable quotation of user input for an error message."""
    return repr(printable(text[:width]) + ("…" if len(text) > width else ""))


def refuse_unknown_keys(data: Mapping[Any, Any], allowed: Sequence[str], what: str) -> None:
    """A JSON object holding a key ``what`` never has is refused: a reader that ignored it would accept a
    forged field (a certificate's embedded instance, say) and give one thing two hashes."""
    unknown = sorted(map(str, set(data) - set(allowed)))
    if unknown:
        raise InputError(
            f"unknown key(s) in {what}: {excerpt(', '.join(unknown))}; allowed: {', '.join(sorted(allowed))}"
        )


def _kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def read_bytes(path: str | Path, what: str = "file", limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; anything else is an InputError naming the path."""
    name = str(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(name, flags)
    except FileNotFoundError:
        raise InputError(f"no such {what}", name) from None
    except IsADirectoryError:
        raise InputError(f"this {what} is a directory, not a file", name) from None
    except OSError as exc:
        raise InputError(f"cannot read this {what}: {exc.strerror or exc}", name) from None
    except ValueError:  # a NUL in the name, or a name the file system cannot encode
        raise InputError(f"not a valid {what} name", excerpt(name)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise InputError(f"this {what} is {_kind(info.st_mode)}; only regular files are read", name)
        if info.st_size > limit:
            raise InputError(f"this {what} has {info.st_size:,} bytes; at most {limit:,} are read", name)
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise InputError(f"this {what} has more than {limit:,} bytes; at most {limit:,} are read", name)
        return b"".join(chunks)
    except OSError as exc:
        raise InputError(f"cannot read this {what}: {exc.strerror or exc}", name) from None
    finally:
        os.close(fd)


def decode_text(data: bytes, name: str, what: str = "file") -> str:
    """UTF-8 text (a byte-order mark is dropped); binary data is refused with the line it appears on."""
    nul = data.find(b"\0")
    if nul >= 0:
        raise InputError(f"this {what} holds binary data (a NUL byte), not text", name, data.count(b"\n", 0, nul) + 1)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(f"this {what} is not UTF-8 text (byte {exc.start})", name, line) from None
    if "\n" not in text and "\r" in text.rstrip("\r"):  # read as one line, its rows would run into one another
        raise InputError(
            f"this {what} ends its lines with a carriage return alone (old Mac line ends); save it with line "
            "feeds (LF or CRLF)",
            name,
            1,
        )
    return text


def text_lines(text: str) -> list[str]:
    """The lines of a text as its line numbers count them: split at line feeds only (a CR before one dropped).

    ``str.splitlines`` also splits at form feeds, vertical tabs, U+0085 and
    U+2028, so a message would name a line the file does not have; inside a
    line those characters are whitespace like any other.
    """
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def read_stream(stream: IO[Any], name: str = "<stdin>", what: str = "input", limit: int = MAX_INPUT_BYTES) -> str:
    """A stream's text (standard input) read as a file is: the same size limit, byte-order mark and NUL checks."""
    raw = getattr(stream, "buffer", None)
    data = raw.read(limit + 1) if raw is not None else stream.read(limit + 1).encode("utf-8", "surrogateescape")
    if len(data) > limit:
        raise InputError(f"this {what} has more than {limit:,} bytes; at most {limit:,} are read", name)
    return decode_text(data, name, what)


def read_text(path: str | Path, what: str = "file", limit: int = MAX_INPUT_BYTES) -> str:
    """A regular UTF-8 text file of bounded size (see the module docstring)."""
    return decode_text(read_bytes(path, what, limit), str(path), what)


_INTEGER = re.compile(r"[+-]?[0-9]+")


def parse_int(
    token: str, path: str | Path | None, line: int | None, what: str, lo: int | None = None, hi: int | None = None
) -> int:
    """An integer token within [lo, hi]; anything else is an InputError naming file, line and a short excerpt.

    Digits are counted before any conversion: int() of a 10^6-digit token
    takes quadratic time, and no solver takes such a number anyway.
    """
    text = token.strip()
    if len(text) <= MAX_TOKEN_CHARS and _INTEGER.fullmatch(text):  # the common case, first: a million tokens a file
        value = int(text)
        if (lo is None or value >= lo) and (hi is None or value <= hi):
            return value
    span = (
        f"between {lo} and {hi}"
        if lo is not None and hi is not None
        else f"at least {lo}"
        if lo is not None
        else f"at most {hi}"
        if hi is not None
        else ""
    )
    if len(text) > MAX_TOKEN_CHARS:
        digits = text.lstrip("+-")
        if digits.isdigit() and digits.isascii():
            raise InputError(
                f"{what} must be {span or 'a number a solver takes'}, got a number of {len(digits):,} digits",
                path,
                line,
            )
        raise InputError(f"{what} must be an integer, got {excerpt(text, 12)}", path, line)
    if not _INTEGER.fullmatch(text):  # int() also takes "1_000", "١٢" and other Unicode digits
        raise InputError(f"{what} must be an integer, got {excerpt(text)}", path, line)
    value = int(text)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise InputError(f"{what} must be {span}, got {value}", path, line)
    return value


class _Refused(ValueError):
    """A JSON token ``loads_json`` refuses: the message, and the token, to find the line it stands on."""

    def __init__(self, message: str, token: str, key: bool = False):
        super().__init__(message)
        self.token, self.key = token, key


def _reject_constant(name: str) -> Any:
    raise _Refused(f"{name} is not a number JSON may hold here", name)


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"number {text[:20]} is out of range", text)
    return value


MAX_JSON_INT_DIGITS = 30
"""Longer integers are refused: no count, power or bound of the toolkit comes near, and 10**400 overflowed the
float every claim is compared as."""


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_JSON_INT_DIGITS:
        raise _Refused(f"integer {text[:20]}... of {len(text)} digits is out of range", text)
    return int(text)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object whose key repeats is refused: readers that keep the first value would see another claim."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Refused(f"key {key[:40]!r} appears twice in one object", key, key=True)
        out[key] = value
    return out


_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\],:]|[^\s{}\[\],:"]+')
LOCATE_JSON_CHARS = 16 * 1024 * 1024
"""How far into a refused JSON text its faulty token is looked for (an error path: a plain scan, in Python)."""


def _json_line(text: str, refused: _Refused | None) -> int | None:
    """The line of the token ``json.loads`` refused (``refused``), or of the deepest nesting (None: a text nested
    too deeply); None when not found within ``LOCATE_JSON_CHARS``.  The parser's hooks see a token but not
    where it stands, so the text is scanned again here, with strings told apart from bare tokens."""
    stack: list[set[str] | None] = []  # per open bracket: an object's keys so far, None for an array
    expect_key = False
    deepest, deepest_at = -1, 0
    for match in _JSON_TOKEN.finditer(text, 0, min(len(text), LOCATE_JSON_CHARS)):
        token = match.group()
        if token in "{[":
            stack.append(set() if token == "{" else None)
            expect_key = token == "{"
            if refused is None and len(stack) > deepest:
                deepest, deepest_at = len(stack), match.start()
        elif token in "}]":
            if stack:
                stack.pop()
            expect_key = False
        elif token == ",":
            expect_key = bool(stack) and stack[-1] is not None
        elif token == ":":
            expect_key = False
        elif refused is None:
            continue
        elif token.startswith('"'):
            if expect_key and stack and stack[-1] is not None:
                try:
                    key = json.loads(token)
                except ValueError:
                    key = token
                if refused.key and key in stack[-1]:
                    return text.count("\n", 0, match.start()) + 1
                stack[-1].add(key)
        elif not refused.key and token == refused.token:
            return text.count("\n", 0, match.start()) + 1
    return text.count("\n", 0, deepest_at) + 1 if refused is None and deepest > 0 else None


def loads_json(text: str, name: str, what: str = "JSON") -> Any:
    """JSON with the hostile cases refused as InputError: NaN/Infinity, overflowing numbers, repeated keys,
    deep nesting; each named by its line, as a syntax error is."""
    try:
        return json.loads(
            text,
            parse_constant=_reject_constant,
            parse_float=_finite_float,
            parse_int=_bounded_int,
            object_pairs_hook=_unique_keys,
        )
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON: {exc.msg}", name, exc.lineno) from None
    except RecursionError:
        raise InputError(f"{what} nested too deeply", name, _json_line(text, None)) from None
    except _Refused as exc:
        raise InputError(f"not valid JSON: {str(exc)[:120]}", name, _json_line(text, exc)) from None
    except ValueError as exc:
        raise InputError(f"not valid JSON: {str(exc)[:120]}", name) from None


def read_json(path: str | Path, what: str = "JSON file", limit: int = MAX_INPUT_BYTES) -> Any:
    return loads_json(read_text(path, what, limit), str(path), what)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


_UMASK = _umask()


def check_output_target(path: str | Path) -> Path:
    """Refuse to write through a symlink or onto anything but a regular file, or to a name that ends like a
    folder's ("x/": Path drops the slash, and a file x was replaced); returns the path."""
    if str(path) == "":
        raise OutputError("an output's name is empty: give the name of the file to write")
    if str(path).endswith(("/", os.sep)):
        raise OutputError("names a folder (it ends in a slash): give the name of the file to write", path)
    target = Path(path)
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        return target
    except OSError as exc:
        raise OutputError(f"cannot write here: {exc.strerror or exc}", target) from None
    if stat.S_ISLNK(info.st_mode):
        raise OutputError("is a symbolic link; refusing to write through it", target)
    if not stat.S_ISREG(info.st_mode):
        raise OutputError(f"is {_kind(info.st_mode)}; only a regular file is replaced", target)
    return target


def _probe_folder(folder: Path, target: Path) -> None:
    """Create and remove a file where ``target`` will be written (or in the nearest folder that exists): a
    read-only or pseudo file system (``/proc``) is refused before the work whose result would be lost there."""
    where = folder
    while not os.path.lexists(where) and where != where.parent:
        where = where.parent
    if not where.is_dir():
        raise OutputError(f"cannot write here: {where} is not a folder", target)
    try:
        fd, name = tempfile.mkstemp(prefix=".mipgames-probe.", dir=where)
    except OSError as exc:
        raise OutputError(f"cannot write here: {exc.strerror or exc}", target) from None
    os.close(fd)
    os.unlink(name)


def writable_output(path: str | Path) -> Path:
    """``check_output_target`` plus a trial write beside the target: for checks made before a long run."""
    target = check_output_target(path)
    _probe_folder(target.parent, target)
    return target


def writable_folder(path: str | Path) -> Path:
    """An output folder (a report's) that exists as a folder or can be made, checked before a long run."""
    folder = Path(path)
    if os.path.lexists(folder) and not folder.is_dir():
        raise OutputError("is not a folder; a report is written into a folder", folder)
    _probe_folder(folder, folder)
    return folder


def output_pair(path: str | Path, companion: Path | None, what: str, probe: bool = False) -> tuple[Path, Path | None]:
    """An output and the companion written beside it (a planted game, a reduction's graph; None: no companion),
    both checked before either is written: an output named like its own companion would be replaced by it, so
    it is refused, and so is a link, a folder or a device at either path; ``probe`` also tries a write in their
    folder (for a check made before long work)."""
    check = writable_output if probe else check_output_target
    target = Path(path)
    if companion is None:
        return check(target), None
    if companion.name.lower() == target.name.lower():  # same folder; a case-insensitive file system counts too
        raise OutputError(
            f"{what} is written beside it as {companion.name}, so a file of that name would be replaced by it; "
            f"give it another extension (e.g. {target.with_suffix('.txt').name})",
            target,
        )
    owner = companion_owner(target, companion)
    if owner is not None:
        raise OutputError(
            f"{what} is written beside it as {companion.name}, which is named for {owner.name} as well "
            "(a companion file is named by the instance's name without its extension); give this one another name",
            target,
        )
    return check(target), check(companion)


NOT_INSTANCES = (".moves", ".graph", ".md", ".png", ".pdf", ".svg", ".gif", ".log", ".lp", ".mps", ".pb", ".pbtxt")
"""Suffixes of the files beside instances that are not instances: a planted queens game (``.moves``), the graph a
merge-game reduction map was made from (``.graph``), READMEs, drawings, logs and exported models; certificates
(``.cert.json``) neither."""


def may_be_instance(path: Path) -> bool:
    """Whether a file in a folder of instances may be one (not hidden, not one of ``NOT_INSTANCES``)."""
    name = path.name.lower()
    return not name.startswith(".") and path.suffix.lower() not in NOT_INSTANCES and not name.endswith(".cert.json")


def companion_owner(target: Path, companion: Path) -> Path | None:
    """Another file beside ``target`` whose companion has ``companion``'s name (``X.txt`` for ``X.dat``'s
    ``X.moves``): companions are named by the stem, so two such files cannot both have one."""
    try:
        siblings = list(target.parent.glob(glob.escape(companion.stem) + ".*"))
    except OSError:
        return None
    for sibling in sorted(siblings):
        if (
            sibling.stem == companion.stem
            and sibling.name.lower() != target.name.lower()
            and may_be_instance(sibling)
            and sibling.is_file()
        ):
            return sibling
    return None


def drop_stale_companion(target: Path, companion: Path, what: str) -> None:
    """Remove the companion an earlier file of this name had (a planted game, a graph): beside the new file
    it would be read as the new file's, which it is not.  (A file named like a companion has none, and one
    named for another instance beside it is that instance's.)"""
    if companion.name.lower() == target.name.lower() or not companion.is_file() or companion.is_symlink():
        return
    if companion_owner(target, companion) is None:
        companion.unlink()
        logging.getLogger("mipgames").warning("removed %s: %s of an earlier %s", companion, what, target.name)


def _resolved(path: str | Path) -> Path:
    """The path with its links followed; a loop of links is the user's input, not a fault (Python 3.11 raises
    RuntimeError there, 3.13 OSError)."""
    try:
        return Path(path).resolve()
    except (RuntimeError, OSError):
        raise UsageError(f"{printable(str(path))}: a loop of symbolic links") from None


def distinct_outputs(sources: Iterable[str | Path], *outputs: str | Path | None) -> None:
    """Refuse an output named twice, or named like an input: one file would silently replace the other."""
    seen: dict[Path, str] = {_resolved(source): str(source) for source in sources}
    for output in outputs:
        if output is None:
            continue
        where = _resolved(output)
        if where in seen:
            raise UsageError(f"{output}: the same file as {seen[where]}; name each output once, apart from the inputs")
        seen[where] = str(output)


def write_bytes_atomic(path: str | Path, data: bytes) -> Path:
    """Write to a temporary file beside the target, then rename: never a half-written or foreign file."""
    with staged_output(path) as tmp:
        tmp.write_bytes(data)
    return Path(path)


def write_text_atomic(path: str | Path, text: str) -> Path:
    return write_bytes_atomic(path, text.encode())


PRETTY_JSON_MAX = 1 << 20
"""JSON up to this size is written indented for people to read; larger (a certificate that embeds a
million-cell map) is written compact: indented, it was three times the bytes and took seconds to write."""


def write_json_atomic(path: str | Path, data: Any) -> Path:
    text = json.dumps(data)
    if len(text) <= PRETTY_JSON_MAX:
        text = json.dumps(data, indent=2)
    return write_text_atomic(path, text + "\n")


def _staged_prefix(target: Path, pid: int | None = None) -> str:
    """Staged files are named for the process that writes them, so that a supervisor can remove what a child it
    killed left half-written (``remove_staged``); without ``pid``, the part every writer's names share."""
    return f".{target.name}." if pid is None else f".{target.name}.{pid}."


def _staged_files(path: str | Path) -> list[tuple[int, Path]]:
    """The files ``staged_output`` began for ``path`` and did not finish, each with the pid of its writer."""
    target = Path(path)
    prefix = _staged_prefix(target)
    try:
        found = list(target.parent.glob(f"{glob.escape(prefix)}*.tmp*"))
    except OSError:
        return []
    staged = []
    for leftover in found:
        pid = leftover.name[len(prefix) :].split(".", 1)[0]
        if pid.isdigit():
            staged.append((int(pid), leftover))
    return staged


def remove_staged(path: str | Path, pid: int) -> None:
    """Remove the files ``staged_output`` began for ``path`` in process ``pid`` and never finished (it was killed)."""
    for writer, leftover in _staged_files(path):
        if writer == pid:
            leftover.unlink(missing_ok=True)


def remove_orphans(path: str | Path) -> None:
    """Remove the files ``staged_output`` began for ``path`` in processes that are gone: a command killed with
    SIGKILL (or its solver child, with it) left its half-written model there, and no later run removed it."""
    for writer, leftover in _staged_files(path):
        if writer != os.getpid() and not psutil.pid_exists(writer):
            leftover.unlink(missing_ok=True)


@contextlib.contextmanager
def folders_left_only_if_used(folder: str | Path) -> Iterator[None]:
    """The folders of ``folder`` that do not exist yet are removed again on leaving when nothing went in (an
    output refused, or ``export -d models`` stopped by a signal, left an empty folder made for it)."""
    path = Path(folder)
    made = list(itertools.takewhile(lambda f: not os.path.lexists(f), (path, *path.parents)))
    try:
        yield
    finally:
        _remove_empty(made)


@contextlib.contextmanager
def staged_output(path: str | Path) -> Iterator[Path]:
    """A temporary path beside ``path`` for writers that insist on a file name (PuLP, matplotlib, OR-Tools).

    The writer fills the yielded path; on success it gets the user's umask and
    is renamed onto ``path``, on any failure it is removed.  What killed writers left beside it goes first.
    """
    target = check_output_target(path)
    remove_orphans(target)
    with folders_left_only_if_used(target.parent):  # a refused output leaves no folder it made for itself
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            # the suffix in lower case: OR-Tools writes a text proto only for a name ending in "txt", never "TXT"
            fd, name = tempfile.mkstemp(
                prefix=_staged_prefix(target, os.getpid()), suffix=f".tmp{target.suffix.lower()}", dir=target.parent
            )
        except OSError as exc:
            raise OutputError(f"cannot write here: {exc.strerror or exc}", target) from None
        os.close(fd)
        tmp = Path(name)
        try:
            yield tmp
            os.chmod(tmp, 0o666 & ~_UMASK)
            check_output_target(target)
            os.replace(tmp, target)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            raise OutputError(f"cannot write here: {exc.strerror or exc}", target) from None
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise


def _remove_empty(folders: Sequence[Path]) -> None:
    """Remove the folders a refused output made for itself (deepest first), as long as nothing else went in."""
    for folder in folders:
        try:
            folder.rmdir()
        except OSError:
            return
