"""pytest configuration shared by all tests."""
from __future__ import annotations

import os

import pytest
from hypothesis import settings

from helpers import duel_data, load_data

# Property tests draw the same examples on every run and machine (CI is
# reproducible); HYPOTHESIS_PROFILE=explore draws fresh ones for a local hunt.
settings.register_profile("repro", derandomize=True, database=None)
settings.register_profile("explore")
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repro"))


@pytest.fixture
def duel():
    """The duel of the foundation issue, loaded."""
    return load_data(duel_data())
