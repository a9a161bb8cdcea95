"""``python -m stb_core.report``: build the report (see :mod:`stb_core.report.build`)."""

import sys

from .build import main

sys.exit(main())
