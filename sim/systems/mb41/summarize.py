"""mb41 counters -> tidy DataFrames (no simulation here)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from sim.stats import wilson

from . import kernel as K
from .schema import STATS


def curves(counters: dict, inputs, variant: str) -> pd.DataFrame:
    """Per-round curves (fractions of trials), rounds 0..cap.

    ``ongoing``: fights still running after round r; ``standing: <side>``: the
    side had someone standing at the end of round r.
    """
    n_trials = int(counters["outcomes"].sum())
    cap = inputs.round_cap
    hist = counters["rounds_hist"]
    ended_by = np.cumsum(hist)  # fights over by round r (draws at the cap included)
    rows = []
    for r in range(0, cap + 1):
        ongoing = (n_trials - ended_by[r]) / n_trials if r < cap else 0.0
        rows.append((variant, r, "ongoing", ongoing))
    for s, side in enumerate(inputs.side_names):
        for r in range(0, cap + 1):
            v = 1.0 if r == 0 else counters["side_curve"][s, r] / n_trials
            rows.append((variant, r, f"standing: {side}", v))
    return pd.DataFrame(rows, columns=["variant", "round", "metric", "value"])


def combatant_curves(counters: dict, inputs, variant: str) -> pd.DataFrame:
    """Share of fights in which each combatant stands at the end of round r."""
    n_trials = int(counters["outcomes"].sum())
    cc = counters["comb_curve"]
    rows = []
    for j, name in enumerate(inputs.names):
        for r in range(1, inputs.round_cap + 1):
            rows.append((variant, name, r, cc[j, r] / n_trials))
    return pd.DataFrame(rows, columns=["variant", "combatant", "round", "standing"])


def combatants(counters: dict, inputs, variant: str) -> pd.DataFrame:
    """One row per combatant: means per fight and rates with 95% Wilson intervals."""
    n_trials = int(counters["outcomes"].sum())
    c = counters["combatants"]
    rows = []
    for j, name in enumerate(inputs.names):
        k = c[j]
        ko_lo, ko_hi = wilson(k[K.K_KO_TRIALS], n_trials)
        de_lo, de_hi = wilson(k[K.K_DEATHS], n_trials)
        row = {
            "variant": variant,
            "combatant": name,
            "side": inputs.side_names[inputs.sides[j]],
            "kind": inputs.kinds[j],
            "attacks": k[K.K_ATTACKS] / n_trials,
            "hit_rate": k[K.K_HITS] / k[K.K_ATTACKS] if k[K.K_ATTACKS] else float("nan"),
            "damage_dealt": k[K.K_DEALT] / n_trials,
            "damage_taken": k[K.K_TAKEN] / n_trials,
            "resolve_left": k[K.K_RES_END] / n_trials,
            "standing_at_end": k[K.K_STANDING_END] / n_trials,
            "ko_rate": k[K.K_KO_TRIALS] / n_trials, "ko_lo": ko_lo, "ko_hi": ko_hi,
            "kos": k[K.K_KOS] / n_trials,
            "death_rate": k[K.K_DEATHS] / n_trials, "death_lo": de_lo, "death_hi": de_hi,
            "revives": k[K.K_REVIVES] / n_trials,
            "wound_damage": k[K.K_WOUND_DMG] / n_trials,
            "boosts": k[K.K_BOOSTS] / n_trials,
            "pool_spent": k[K.K_POOL_SPENT] / n_trials,
        }
        for s, stat in enumerate(STATS):
            row[f"oc_gain_{stat}"] = k[K.K_OC_GAIN + s] / n_trials
        for s, stat in enumerate(STATS):
            row[f"bursts_{stat}"] = k[K.K_BURSTS + s] / n_trials
        row["healed"] = k[K.K_HEALED] / n_trials
        row["ailments_received"] = k[K.K_AILED] / n_trials
        row["ailments_removed"] = k[K.K_AIL_REMOVED] / n_trials
        row["bleed_damage"] = k[K.K_BLEED_DMG] / n_trials
        rows.append(row)
    return pd.DataFrame(rows)


def talent_uses(counters: dict, inputs, variant: str) -> pd.DataFrame:
    """Uses per fight of every talent slot (Boost included), per combatant."""
    n_trials = int(counters["outcomes"].sum())
    c = counters["combatants"]
    rows = []
    for j, name in enumerate(inputs.names):
        if inputs.kinds[j] == "girl":
            rows.append((variant, name, "Boost", c[j, K.K_BOOSTS] / n_trials))
        for s, talent in enumerate(inputs.talents[j] if inputs.talents else []):
            rows.append((variant, name, talent, c[j, K.K_TUSE + s] / n_trials))
    return pd.DataFrame(rows, columns=["variant", "combatant", "talent", "uses_per_fight"])
