"""The toolkit's version, from the installed package's metadata (one place: pyproject.toml)."""

from __future__ import annotations

from importlib import metadata

try:
    VERSION = metadata.version("mipgames")
except metadata.PackageNotFoundError:  # running from a source tree that was never installed
    VERSION = "0+unknown"
