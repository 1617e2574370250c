"""``mipgames samegame2 [FILE]``: the Same Game 2 interpreter on a command file or standard input."""

from __future__ import annotations

import argparse
import io
import os
import sys
from typing import Any, TextIO

from mipgames.core.errors import InputError
from mipgames.core.files import read_bytes
from mipgames.samegame2.interpreter import Interpreter, read_lines

DESCRIPTION = """Run Same Game 2 commands (one per line: i b m o c n f, see the spec) from FILE
or standard input; answers go to standard output, one message per rejected line to
standard error.  Exit status 1 if any line was rejected, 4 if FILE cannot be read."""


def run(file: str | None, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Run a script; a script FILE is a regular file of bounded size (a pipe goes on standard input).

    The script is read as bytes and decoded line by line, as standard input
    is, so bad UTF-8 or a NUL byte rejects one line, not the whole run.
    """
    source = "<stdin>" if file in (None, "-") else file
    interpreter = Interpreter(stdout, stderr, source)
    try:
        if source == "<stdin>":
            status = interpreter.run(read_lines(stdin))
        else:
            try:
                if "\0" in source:
                    raise InputError("not a valid file name (a NUL character)", source)
                data = read_bytes(source, "script")
            except InputError as exc:
                stderr.write(f"mipgames samegame2: {exc}\n")
                return exc.exit_code
            status = interpreter.run(read_lines(io.BytesIO(data)))
        stdout.flush()
    except KeyboardInterrupt:
        stderr.write("mipgames samegame2: interrupted\n")
        return 130
    except BrokenPipeError:
        if stdout is sys.stdout:  # the reader went away (`| head`): silence the final flush too
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return status


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", metavar="FILE", help="command file (default: standard input)")


def register(subparsers: Any) -> None:
    """Add ``samegame2`` to the CLI's subcommands."""
    parser = subparsers.add_parser("samegame2", help="run the Same Game 2 command interpreter", description=DESCRIPTION)
    add_arguments(parser)
    parser.set_defaults(func=lambda args: run(args.file, sys.stdin, sys.stdout, sys.stderr))


def main(
    argv: list[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Stand-alone entry point (also what the tests call)."""
    parser = argparse.ArgumentParser(prog="mipgames samegame2", description=DESCRIPTION)
    add_arguments(parser)
    args = parser.parse_args(argv)
    return run(args.file, stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
