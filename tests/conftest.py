"""Shared test set-up: a derandomized hypothesis profile (same examples on every run) and output isolation.

Notebooks and exports run by the tests write under a scratch folder (``STB_OUTPUT_ROOT``), never over the
committed outputs; the folder is removed when the session ends, so a test run leaves nothing in the temp dir.
"""

import atexit
import os
import shutil
import tempfile

from depth import draws
from hypothesis import HealthCheck, settings

settings.register_profile("project", derandomize=True, deadline=None, max_examples=draws(60),
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("project")

if "STB_OUTPUT_ROOT" not in os.environ:
    _scratch = tempfile.mkdtemp(prefix="stb-test-output-")
    os.environ["STB_OUTPUT_ROOT"] = _scratch
    atexit.register(shutil.rmtree, _scratch, ignore_errors=True)


FIRST = ("test_report.py", "test_environment.py")


def pytest_collection_modifyitems(config, items):
    """The whole report's tests first: ``make test`` gives each file to one worker (pytest-xdist, ``--dist
    loadfile``) and hands out the first files at once, so the longest file starts at once beside a short one."""
    items.sort(key=lambda item: FIRST.index(item.path.name) if item.path.name in FIRST else len(FIRST))
