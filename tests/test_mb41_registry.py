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


def test_pack_refuses_arrays_of_another_width():
    """``world._load`` compiles ``comb`` and ``dyn`` with their column counts as constants,
    so ``pack`` refuses arrays of another width instead of letting them be misread; a
    stream row may be wider (injected dice)."""
    import numpy as np
    import pytest

    from sim.systems.mb41 import layout, world

    def arrays(nc=layout.NC, ndyn=layout.NDYN, sw=8):
        return (np.zeros((3, nc), np.int64), np.zeros(4, np.int64), np.zeros((3, ndyn), np.int64),
                np.zeros((layout.NS, sw), np.uint64), np.zeros((layout.NBF, layout.M_SIZE), np.int64))

    buf = world.new_buffer()
    assert world.pack(*arrays(sw=24), buf) != 0  # wider stream rows are fine
    with pytest.raises(ValueError, match="columns"):
        world.pack(*arrays(nc=layout.NC + 1), buf)
    with pytest.raises(ValueError, match="columns"):
        world.pack(*arrays(ndyn=layout.NDYN - 1), buf)
