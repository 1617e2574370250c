"""`python -m mipgames` is the same program as the `mipgames` console script."""

from mipgames.cli import entry

entry()
