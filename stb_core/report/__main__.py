"""``python -m stb_core.report``: build the report (see :mod:`stb_core.report.build`)."""

import sys

try:
    from .build import main
except KeyboardInterrupt:  # Ctrl-C while Python was still loading the build: nothing has started
    print("python -m stb_core.report: stopped before any notebook ran; nothing was changed", file=sys.stderr)
    sys.exit(130)

sys.exit(main())
