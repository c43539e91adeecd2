"""A slow stand-in for ``sim.trials.per_trial`` (tests only, until the per-trial layer lands).

Installed into ``sys.modules`` by :func:`install` only when ``sim.trials`` does
not exist: it plays trial ``i`` alone through the system's ``simulate(inputs,
i, 1, key)`` and reads its outcome and rounds from the counters (same streams
as ``sim run``), so it has no ``girls_*`` columns.
"""
from __future__ import annotations

import sys
import types

import numpy as np
import pandas as pd


def per_trial(system, inputs, start, count, key):
    from sim.systems import get_system

    mod = get_system(system)
    outcome = np.empty(count, dtype=np.int8)
    rounds = np.empty(count, dtype=np.int64)
    for j in range(count):
        c = mod.simulate(inputs, start + j, 1, key)
        outcome[j] = int(np.argmax(c["outcomes"]))
        rounds[j] = int(np.argmax(c["rounds_hist"]))
    return pd.DataFrame({"trial": np.arange(start, start + count), "outcome": outcome, "rounds": rounds})


def install() -> None:
    """Use the stand-in unless this source tree has ``sim/trials.py`` (the editable
    install of another checkout could otherwise lend its own, unfinished one)."""
    from pathlib import Path

    import sim

    if not (Path(sim.__file__).parent / "trials.py").exists():
        mod = types.ModuleType("sim.trials")
        mod.per_trial = per_trial
        sys.modules["sim.trials"] = mod
        sim.trials = mod
