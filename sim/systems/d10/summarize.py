"""d10 counters -> tidy DataFrames (no simulation here)."""
from __future__ import annotations

import pandas as pd

from sim.curves import combatant_curves as _combatant_curves
from sim.curves import round_curves

from sim.stats import wilson
from sim.summaries import side_sums

from . import kernel as K


def curves(counters: dict, inputs, variant: str) -> pd.DataFrame:
    """Per-round survival curves (fractions of trials), rounds 0..cap:
    ``ongoing`` (trials still running after round r) and ``standing: <side>``."""
    return round_curves(counters, inputs.side_names, inputs.round_cap, variant)


def combatant_curves(counters: dict, inputs, variant: str) -> pd.DataFrame:
    """Share of trials in which each combatant is in the fight at the end of round r."""
    return _combatant_curves(counters, inputs.names, inputs.round_cap, variant)


def _rate(k, n, name):
    lo, hi = wilson(int(k), n)
    return {name: k / n, f"{name}_lo": lo, f"{name}_hi": hi}


def combatants(counters: dict, inputs, variant: str) -> pd.DataFrame:
    """One row per combatant: means per trial and rates with 95% Wilson intervals."""
    n = int(counters["outcomes"].sum())
    c = counters["combatants"]
    rows = []
    for j, name in enumerate(inputs.names):
        k = c[j]
        row = {"variant": variant, "combatant": name, "side": inputs.side_names[inputs.sides[j]],
               "kind": inputs.kinds[j], "fights": k[K.K_FIGHTS] / n, "attacks": k[K.K_ATTACKS] / n,
               # one attack roll can face several targets (multi-target, area): hits are
               # counted per target, so the rate's denominator is the targets attacked
               "targets_attacked": k[K.K_TARGETED] / n, "hits": k[K.K_HITS] / n,
               "hit_rate": k[K.K_HITS] / k[K.K_TARGETED] if k[K.K_TARGETED] else float("nan"),
               "wounds_dealt": k[K.K_DEALT] / n, "wounds_taken": k[K.K_TAKEN] / n,
               # the names every system shares (docs/metrics.md): d10's damage is wounds
               "damage_dealt": k[K.K_DEALT] / n, "damage_taken": k[K.K_TAKEN] / n}
        # side 0 keeps its girls across a trial's fights: rates per trial; enemies are
        # fresh in every fight: rates per fight they started
        carry = bool(inputs.comb[j, K.C_CARRY])
        per = n if carry else max(int(k[K.K_FIGHTS]), 1)
        row["rate_per"] = "trial" if carry else "fight"
        row.update(_rate(k[K.K_KO_TRIALS] if carry else min(k[K.K_KOS], per), per, "ko_rate"))
        row.update(_rate(min(k[K.K_DEATHS], per), per, "death_rate"))
        row.update(_rate(k[K.K_STANDING_END], n, "standing_at_end"))
        for b, label in enumerate(("threshold2", "threshold3", "threshold4")):
            row.update(_rate(k[K.K_BAND + b], n, f"reached_{label}"))
        row.update({
            "wounds_end": k[K.K_WOUNDS_END] / n,
            "permanent_wounds": k[K.K_PERM] / n, "permanent_severe": k[K.K_PERM_SEVERE] / n,
            "mana_spent": k[K.K_MANA] / n, "fortune_spent": k[K.K_FORTUNE] / n,
            "augment_dice": k[K.K_AUG_DICE] / n, "stunt_dice": k[K.K_STUNT_DICE] / n,
            "fled": k[K.K_FLED] / n, "killing_blows": k[K.K_KB] / n, "killing_blow_kills": k[K.K_KB_KILLS] / n,
            "focused_assaults": k[K.K_FA] / n, "barrages": k[K.K_BARRAGE] / n,
            "parry_wounds": k[K.K_PARRY_WOUNDS] / n, "block_mana": k[K.K_BLOCK_MANA] / n,
            "aids": k[K.K_AIDS] / n, "recharges": k[K.K_RECHARGES] / n, "hides": k[K.K_HIDES] / n,
            "grapples": k[K.K_GRAPPLES] / n, "copies": k[K.K_COPIES] / n, "healed": k[K.K_HEALED] / n,
            "spell_effects": k[K.K_SPELLS] / n, "pursues": k[K.K_PURSUES] / n, "traps": k[K.K_TRAPS] / n,
            "second_form_attacks": k[K.K_FORM2] / n,
        })
        for d, label in enumerate(("dodge", "parry", "block", "luck")):
            row[f"defences_{label}"] = k[K.K_DEFENCES + d] / n
        rows.append(row)
    return pd.DataFrame(rows)


def sides(counters: dict, inputs, variant: str) -> pd.DataFrame:
    """One row per side: wounds dealt/taken (also as the shared ``damage_*``,
    docs/metrics.md), knock-outs, deaths, permanent wounds, mana and Fortune
    spent, summed over its members, per trial."""
    out = side_sums(counters, inputs, variant, {
        "wounds_dealt": K.K_DEALT, "wounds_taken": K.K_TAKEN, "damage_dealt": K.K_DEALT,
        "damage_taken": K.K_TAKEN, "knockouts": K.K_KOS, "deaths": K.K_DEATHS, "permanent_wounds": K.K_PERM,
        "mana_spent": K.K_MANA, "fortune_spent": K.K_FORTUNE})
    n = int(counters["outcomes"].sum())
    out["fights_per_trial"] = float(counters["fights"][0]) / n if "fights" in counters else 1.0
    return out
