"""Test setup: the hypothesis profiles."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=200
)
# CI explores the same examples every run, so a red run always reproduces; local runs
# keep finding new ones.
settings.register_profile("ci", parent=settings.get_profile("default"), derandomize=True,
                          database=None)
settings.load_profile("ci" if os.environ.get("CI") else "default")
