"""Per-round curves shared by the fight systems (mb41, mb-draft, d10).

Kernels count, per round, who is standing in two planes (see
``sim/systems/mb41/fight.py`` ``fight_end``): plane 0 for fights still running
after round r, plane 1 for the final state of fights that ended in round r.
These helpers turn those counters into fractions of trials, as tidy frames.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ._jit import kernel


def standing_curves(curve: np.ndarray) -> np.ndarray:
    """Counts standing at the end of each round from the two-plane counters.

    ``curve[..., 0, r]``: running fights, standing after round r;
    ``curve[..., 1, r]``: fights that ended in round r, standing at the end.
    Returns ``[..., r]`` = plane 0 + cumulative plane 1 (a finished fight
    keeps its final state in later rounds).
    """
    return curve[..., 0, :] + np.cumsum(curve[..., 1, :], axis=-1)


@kernel
def add_duel_block(hist, rounds_hist, side_curve, comb_curve):
    """Add a block of duels to the counters (the duel fast paths).

    ``hist[r]``: duels of the block that ended in round r (draws at the
    cap). Until a duel ends both combatants stand, so plane 0 at round
    ``r < cap`` (still running after it) is the number of duels that lasted
    longer, for both sides and both combatants; plane 1 (the final state)
    the caller counts per duel. ``rounds_hist[cap+1]``, ``side_curve[2, 2,
    cap+1]``, ``comb_curve[2, 2, cap+1]``: the block's rows.
    """
    cap = hist.shape[0] - 1
    running = 0
    for r in range(cap, 0, -1):
        rounds_hist[r] += hist[r]
        if r < cap:
            running += hist[r + 1]
            for j in range(comb_curve.shape[0]):
                comb_curve[j, 0, r] += running
            side_curve[0, 0, r] += running
            side_curve[1, 0, r] += running


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
