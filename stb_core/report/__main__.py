"""``python -m stb_core.report``: build the report (see :mod:`stb_core.report.build`)."""

import os
import signal
import sys


def _stopped(signum, frame):
    """Ctrl-C before the build has started (Python loading the build, the run being planned): nothing is written
    yet, so one line and status 130 -- even from inside an import, where a KeyboardInterrupt would surface as a
    traceback or an ImportError. The build installs its own handler when it starts."""
    sys.stderr.write("python -m stb_core.report: stopped before any notebook ran; nothing was changed\n")
    os._exit(130)


if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # a caller that ignores Ctrl-C keeps doing so
    signal.signal(signal.SIGINT, _stopped)

from .build import main  # noqa: E402

sys.exit(main())
