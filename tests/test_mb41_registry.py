"""The procedure table's safety net: a run that called a missing procedure fails.

:mod:`sim.systems.mb41.registry` fills only the slots a scenario needs; any
other slot holds ``kernel.p_missing``, which counts its calls in the counter
``K_MISSING`` (row 0). ``simulate`` then refuses the run's results.
"""
from __future__ import annotations

import numpy as np
import pytest

from sim.systems.mb41 import layout, registry


def test_check_passes_a_clean_run():
    registry.check(np.zeros((3, layout.NK), dtype=np.int64))


def test_check_refuses_a_missing_call():
    cc = np.zeros((3, layout.NK), dtype=np.int64)
    cc[0, layout.K_MISSING] = 2
    with pytest.raises(RuntimeError, match="called 2 procedure"):
        registry.check(cc)
