"""`python -m mipgames` is the same program as the `mipgames` console script."""

from mipgames.console import entry

entry()
