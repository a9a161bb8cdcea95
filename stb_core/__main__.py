"""``python -m stb_core``: see :mod:`stb_core.cli`."""

import sys

from .cli import main

sys.exit(main())
