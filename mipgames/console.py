"""The console script's first step: a Ctrl-C while Python still loads the command ends it quietly.

Loading the command line takes a few tenths of a second (more on a loaded machine), before its own handlers
stand; an interrupt there printed a KeyboardInterrupt traceback.
"""

from __future__ import annotations

import signal
import sys
from types import FrameType


def _interrupted(signum: int, frame: FrameType | None) -> None:
    sys.stderr.write("mipgames: interrupted\n")
    raise SystemExit(130)


def entry() -> None:
    """Ctrl-C exits quietly until the command's own handling stands (``cli.entry`` hands it back to Python's)."""
    signal.signal(signal.SIGINT, _interrupted)
    from mipgames.cli import entry as command

    command()
