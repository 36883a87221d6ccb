"""Shared test setup: where the rules files live, hypothesis profiles, and the end of the
migrated templates."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests import databases

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("TALLY_SHARED_DIR", ROOT.parent / "shared"))

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=200
)
# CI explores the same examples every run, so a red run always reproduces; local runs
# keep finding new ones.
settings.register_profile("ci", parent=settings.get_profile("default"), derandomize=True,
                          database=None)
settings.load_profile("ci" if os.environ.get("CI") else "default")


@pytest.fixture(scope="session", autouse=True)
def _migrated_templates() -> Iterator[None]:
    """The migrated databases that tests copy (tests/databases.py) go at the end."""
    yield
    databases.clean_up()
