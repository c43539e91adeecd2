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

# No test but tests/test_mb41_tier2.py (which sets its own) starts a background tier-2 build
# (sim/tiers.py): a run of 50 M trials that a test stops would otherwise compile one (35 M and up).
os.environ.setdefault("MGSIM_TIER2_TRIALS", "0")


@pytest.fixture
def duel():
    """The duel of the foundation issue, loaded."""
    return load_data(duel_data())
