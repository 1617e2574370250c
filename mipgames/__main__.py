"""`python -m mipgames` is the same program as the `mipgames` console script."""

import sys

from mipgames.cli import main

sys.exit(main())
