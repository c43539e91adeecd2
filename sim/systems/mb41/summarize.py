"""mb41 counters -> tidy DataFrames (no simulation here)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from sim.curves import combatant_curves as _combatant_curves
from sim.curves import round_curves
from sim.stats import wilson

from . import kernel as K
from .schema import STATS


def curves(counters: dict, inputs, variant: str) -> pd.DataFrame:
    """Per-round curves (fractions of trials), rounds 0..cap: ``ongoing`` and
    ``standing: <side>`` (:func:`sim.curves.round_curves`)."""
    return round_curves(counters, inputs.side_names, inputs.round_cap, variant)


def combatant_curves(counters: dict, inputs, variant: str) -> pd.DataFrame:
    """Share of fights in which each combatant stands at the end of round r."""
    return _combatant_curves(counters, inputs.names, inputs.round_cap, variant)


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
        if inputs.kinds[j] == "girl":  # bursts played (rule bursts: play; L451-453, L744-762, L1163-1165)
            lost_lo, lost_hi = wilson(k[K.K_LOST], n_trials)
            row["bonds_lost"] = k[K.K_BONDS_LOST] / n_trials
            row["lost_rate"] = k[K.K_LOST] / n_trials
            row["lost_lo"] = lost_lo
            row["lost_hi"] = lost_hi
            row["judgment_dealt"] = k[K.K_JUDG_DEALT] / n_trials
            row["frenzy_turns"] = k[K.K_FRENZY_TURNS] / n_trials
            row["fury_spent"] = k[K.K_FURY_SPENT] / n_trials
            row["retaliations"] = k[K.K_RETALIATIONS] / n_trials
            row["frenzy_regen"] = k[K.K_FRENZY_REGEN] / n_trials
        row["judgment_taken"] = k[K.K_JUDG_TAKEN] / n_trials
        row["judgment_avoided"] = k[K.K_JUDG_AVOIDED] / n_trials
        row["healed"] = k[K.K_HEALED] / n_trials
        row["ailments_received"] = k[K.K_AILED] / n_trials
        row["ailments_removed"] = k[K.K_AIL_REMOVED] / n_trials
        row["bleed_damage"] = k[K.K_BLEED_DMG] / n_trials
        row["damage_prevented"] = k[K.K_PREVENTED] / n_trials
        row["damage_outside_attacks"] = k[K.K_SELF_DMG] / n_trials  # Backlash, Reflector, Implode, All or Nothing
        if getattr(inputs, "battlefield", None) is not None:  # the hex grid's columns
            row["hexes_moved"] = k[K.K_MOVES] / n_trials
            row["reckless_moves"] = k[K.K_RECKLESS] / n_trials
            row["reckless_damage"] = k[K.K_RECKLESS_DMG] / n_trials
            row["intercepts"] = k[K.K_INTERCEPTS] / n_trials
            row["intercept_damage"] = k[K.K_INTERCEPT_DMG] / n_trials
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
            # Monster Boost plays through the Boost columns: its uses are the boosts
            used = c[j, K.K_BOOSTS] if inputs.comb[j, K.C_TCODE + s] == K.E_MONSTER_BOOST else c[j, K.K_TUSE + s]
            rows.append((variant, name, talent, used / n_trials))
    return pd.DataFrame(rows, columns=["variant", "combatant", "talent", "uses_per_fight"])


TIER_NAMES = ("none", "minor flair", "major flair", "temporary change", "permanent change", "burst")


def flair_tiers(counters: dict, inputs, variant: str) -> pd.DataFrame:
    """Per girl and magical stat: the share of fights whose highest overcharge
    tier (L153-161, rule ``flair_tiers``; ``burst``: the stat burst) was each
    tier, with 95% Wilson intervals."""
    n_trials = int(counters["outcomes"].sum())
    c = counters["combatants"]
    rows = []
    for j, name in enumerate(inputs.names):
        if inputs.kinds[j] != "girl":
            continue
        for s, stat in enumerate(("heart", "fury", "judgment")):
            for t, tier in enumerate(TIER_NAMES):
                k = int(c[j, K.K_TIER + s * K.NTIERS + t])
                lo, hi = wilson(k, n_trials)
                rows.append((variant, name, stat, t, tier, k / n_trials if n_trials else float("nan"), lo, hi))
    return pd.DataFrame(rows, columns=["variant", "combatant", "stat", "tier", "tier_name", "rate", "lo", "hi"])
