"""Shared test set-up: a derandomized hypothesis profile (same examples on every run) and output isolation."""

import os
import tempfile

from hypothesis import HealthCheck, settings

settings.register_profile("project", derandomize=True, deadline=None, max_examples=60,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("project")

# Notebooks and exports run by the tests write under a scratch folder, never over the committed outputs.
os.environ.setdefault("STB_OUTPUT_ROOT", tempfile.mkdtemp(prefix="stb-test-output-"))
