"""Per-trial outcomes: one row per fight or game, for paired comparisons and
shared metrics across rule systems.

``sim run`` keeps only counters that add up; a study that compares two arms
trial by trial on common random numbers (the same keyed streams, so trial
``i`` of arm A and of arm B see the same dice until their choices diverge)
needs each trial's outcome. Every system's ``trials(inputs, start, count,
key)`` plays the same trials as its ``simulate`` and returns per-trial arrays
(every system in its blocks: 4.1, the draft and d10 read each trial's row from what it
added to its block's counters, :mod:`sim.trial_rows`; the card game writes each game's);
this module chunks them into a DataFrame.

Columns (every system): ``trial``, ``outcome`` (0 the first side won, 1 it
lost, 2 a draw: the round or turn cap), ``rounds`` (rounds, or turns in the
card game). The fight systems (``mb41``, ``mb-draft``, ``d10``) add, over
the first side's magical girls, on definitions shared by every system:

* ``girls_out``: girls taken out of the fight at least once (4.1: dropped
  to 0 Resolve, L1420; d10: knocked out);
* ``girls_dead``: girls dead at the end (4.1: deadly wounds; d10: death);
* ``girls_standing``: girls standing at the end.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

#: trials per kernel call of a system that sets no ``TRIALS_CHUNK`` of its own (every bundled
#: system sets one: its rows take 16-40 bytes a trial)
CHUNK = 1024

#: the per-trial columns of every system, and those the fight systems add (dtype per column)
COLUMNS = {"outcome": "int8", "rounds": "int32"}
FIGHT_COLUMNS = {"girls_out": "int16", "girls_dead": "int16", "girls_standing": "int16"}


def columns_of(system: str) -> dict[str, str]:
    """Column name -> dtype of ``system``'s per-trial rows (without ``trial``)."""
    return dict(COLUMNS) if system == "cards" else {**COLUMNS, **FIGHT_COLUMNS}


def trial_columns(system: str, inputs, start: int, count: int, key, chunk: int | None = None,
                  tier: int = 1) -> dict:
    """The per-trial columns (:func:`columns_of`) of trials ``start .. start+count-1``
    as arrays, without the ``trial`` index; kernel calls of at most ``chunk`` trials (default:
    the system's ``TRIALS_CHUNK``, else :data:`CHUNK`).
    ``tier`` 2: played by the engine generated for the structure (:mod:`sim.tiers`; the
    same rows)."""
    from sim.systems import get_system

    if count < 0 or start < 0:
        raise ValueError(f"per_trial: start and count must be >= 0, got {start}, {count}")
    module = get_system(system)
    if chunk is None:
        chunk = getattr(module, "TRIALS_CHUNK", CHUNK)
    parts = []
    for s in range(start, start + count, max(1, chunk)):
        c = min(chunk, start + count - s)
        more = {"tier": tier} if tier != 1 else {}
        parts.append(module.trials(inputs, s, c, np.uint64(key), **more))
    if not parts:
        return {k: np.zeros(0, dtype=d) for k, d in columns_of(system).items()}
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def per_trial(system: str, inputs, start: int, count: int, key, chunk: int | None = None) -> pd.DataFrame:
    """Per-trial outcomes of trials ``start .. start+count-1`` (see the module doc).

    ``inputs`` is what the system's ``compile(model)`` returns; ``key`` the
    stream key (:func:`sim.rng.stream_key`; ``stream_key(seed, 0)`` is what
    ``sim run`` uses for every variant under common random numbers). The
    result does not depend on ``chunk``.
    """
    cols = trial_columns(system, inputs, start, count, key, chunk)
    if count == 0:
        return pd.DataFrame({"trial": np.zeros(0, dtype=np.int64)})
    return pd.DataFrame({"trial": np.arange(start, start + count, dtype=np.int64), **cols})
