"""Per-round curves shared by the fight systems (mb41, mb-draft, d10).

Kernels count, per round, who is standing in two planes (see
``sim/systems/mb41/kernel.py:fight``): plane 0 for fights still running
after round r, plane 1 for the final state of fights that ended in round r.
These helpers turn those counters into fractions of trials, as tidy frames.
"""
from __future__ import annotations

import numpy as np
import pandas as pd


def standing_curves(curve: np.ndarray) -> np.ndarray:
    """Counts standing at the end of each round from the two-plane counters.

    ``curve[..., 0, r]``: running fights, standing after round r;
    ``curve[..., 1, r]``: fights that ended in round r, standing at the end.
    Returns ``[..., r]`` = plane 0 + cumulative plane 1 (a finished fight
    keeps its final state in later rounds).
    """
    return curve[..., 0, :] + np.cumsum(curve[..., 1, :], axis=-1)


def round_curves(counters: dict, side_names, cap: int, variant: str) -> pd.DataFrame:
    """``variant, round, metric, value`` for rounds 0..cap: ``ongoing`` (fights
    still running after round r) and ``standing: <side>`` (the side had someone
    standing at the end of round r), as fractions of trials."""
    n_trials = int(counters["outcomes"].sum())
    ended_by = np.cumsum(counters["rounds_hist"])
    rows = []
    for r in range(0, cap + 1):
        ongoing = (n_trials - ended_by[r]) / n_trials if r < cap else 0.0
        rows.append((variant, r, "ongoing", ongoing))
    for s, side in enumerate(side_names):
        for r in range(0, cap + 1):
            v = 1.0 if r == 0 else counters["side_curve"][s, r] / n_trials
            rows.append((variant, r, f"standing: {side}", v))
    return pd.DataFrame(rows, columns=["variant", "round", "metric", "value"])


def combatant_curves(counters: dict, names, cap: int, variant: str) -> pd.DataFrame:
    """``variant, combatant, round, standing``: the share of trials in which
    each combatant stands at the end of round r (1..cap)."""
    n_trials = int(counters["outcomes"].sum())
    cc = counters["comb_curve"]
    rows = [(variant, name, r, cc[j, r] / n_trials)
            for j, name in enumerate(names) for r in range(1, cap + 1)]
    return pd.DataFrame(rows, columns=["variant", "combatant", "round", "standing"])
