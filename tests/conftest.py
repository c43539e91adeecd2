"""pytest configuration shared by all tests."""
from __future__ import annotations

import pytest

from helpers import duel_data, load_data


@pytest.fixture
def duel():
    """The duel of the foundation issue, loaded."""
    return load_data(duel_data())
