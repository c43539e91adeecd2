"""mb41 counters -> tidy DataFrames (no simulation here)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from sim.curves import combatant_curves as _combatant_curves
from sim.curves import round_curves
from sim.stats import wilson
from sim.summaries import side_sums

from . import codes as E
from . import layout as L
from .schema import STATS


def curves(counters: dict, inputs, variant: str) -> pd.DataFrame:
    """Per-round curves (fractions of trials), rounds 0..cap: ``ongoing`` and
    ``standing: <side>`` (:func:`sim.curves.round_curves`)."""
    return round_curves(counters, inputs.side_names, inputs.round_cap, variant)


def sides(counters: dict, inputs, variant: str) -> pd.DataFrame:
    """One row per side, summed over its members (the columns d10's ``sides.csv``
    shares, docs/metrics.md): damage dealt and taken, knock-outs (drops to 0
    Resolve, L1420) and deaths, per fight."""
    return side_sums(counters, inputs, variant, {"damage_dealt": L.K_DEALT, "damage_taken": L.K_TAKEN,
                                                  "knockouts": L.K_KOS, "deaths": L.K_DEATHS})


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
        ko_lo, ko_hi = wilson(k[L.K_KO_TRIALS], n_trials)
        de_lo, de_hi = wilson(k[L.K_DEATHS], n_trials)
        row = {
            "variant": variant,
            "combatant": name,
            "side": inputs.side_names[inputs.sides[j]],
            "kind": inputs.kinds[j],
            "attacks": k[L.K_ATTACKS] / n_trials,
            "hit_rate": k[L.K_HITS] / k[L.K_ATTACKS] if k[L.K_ATTACKS] else float("nan"),
            "damage_dealt": k[L.K_DEALT] / n_trials,
            "damage_taken": k[L.K_TAKEN] / n_trials,
            "resolve_left": k[L.K_RES_END] / n_trials,
            "standing_at_end": k[L.K_STANDING_END] / n_trials,
            "ko_rate": k[L.K_KO_TRIALS] / n_trials, "ko_lo": ko_lo, "ko_hi": ko_hi,
            "ko_rate_lo": ko_lo, "ko_rate_hi": ko_hi,  # the names every system shares (docs/metrics.md)
            "kos": k[L.K_KOS] / n_trials,
            "death_rate": k[L.K_DEATHS] / n_trials, "death_lo": de_lo, "death_hi": de_hi,
            "death_rate_lo": de_lo, "death_rate_hi": de_hi,
            "revives": k[L.K_REVIVES] / n_trials,
            "wound_damage": k[L.K_WOUND_DMG] / n_trials,
            "boosts": k[L.K_BOOSTS] / n_trials,
            "pool_spent": k[L.K_POOL_SPENT] / n_trials,
            # combatants that appear mid-fight (reserve rows): share of fights it appeared in; what made them
            "appeared": k[L.K_APPEARED] / n_trials,
            "minions_created": k[L.K_CREATED] / n_trials,
            "copy_hits_absorbed": k[L.K_COPY_ABSORBED] / n_trials,
            "heart_creatures": k[L.K_HEART_SPAWNS] / n_trials,
        }
        for s, stat in enumerate(STATS):
            row[f"oc_gain_{stat}"] = k[L.K_OC_GAIN + s] / n_trials
        for s, stat in enumerate(STATS):
            row[f"bursts_{stat}"] = k[L.K_BURSTS + s] / n_trials
        if inputs.kinds[j] == "girl":  # bursts played (rule bursts: play; L451-453, L744-762, L1163-1165)
            lost_lo, lost_hi = wilson(k[L.K_LOST], n_trials)
            row["bonds_lost"] = k[L.K_BONDS_LOST] / n_trials
            row["lost_rate"] = k[L.K_LOST] / n_trials
            row["lost_lo"] = lost_lo
            row["lost_hi"] = lost_hi
            row["judgment_dealt"] = k[L.K_JUDG_DEALT] / n_trials
            row["frenzy_turns"] = k[L.K_FRENZY_TURNS] / n_trials
            row["fury_spent"] = k[L.K_FURY_SPENT] / n_trials
            row["retaliations"] = k[L.K_RETALIATIONS] / n_trials
            row["frenzy_regen"] = k[L.K_FRENZY_REGEN] / n_trials
            row["radiation_oc"] = k[L.K_RADIATION] / n_trials      # Overcharge Radiation (L2047)
            row["oc_dampened"] = k[L.K_DAMPENED] / n_trials        # Power Dampening, Dampen Overcharge
        row["judgment_taken"] = k[L.K_JUDG_TAKEN] / n_trials
        row["judgment_avoided"] = k[L.K_JUDG_AVOIDED] / n_trials
        row["healed"] = k[L.K_HEALED] / n_trials
        row["ailments_received"] = k[L.K_AILED] / n_trials
        row["ailments_removed"] = k[L.K_AIL_REMOVED] / n_trials
        row["bleed_damage"] = k[L.K_BLEED_DMG] / n_trials
        row["damage_prevented"] = k[L.K_PREVENTED] / n_trials
        row["damage_outside_attacks"] = k[L.K_SELF_DMG] / n_trials  # Backlash, Reflector, Implode, All or Nothing
        row["sorcery_cast"] = k[L.K_SPELLS] / n_trials        # battle sorcery (policy sorcery)
        row["sorcery_succeeded"] = k[L.K_SPELLS_OK] / n_trials
        row["defensive_switches"] = k[L.K_SWITCHES] / n_trials  # Defensive Switch (grid and gridless)
        codes = inputs.comb[j, L.C_TCODE:L.C_TCODE + L.MAXT] if hasattr(inputs, "comb") else ()
        if E.E_POSSESSION in codes:  # Possession (L2073-2076): its human host
            row["host_damage"] = k[L.K_HOST_DMG] / n_trials
            row["host_deaths"] = k[L.K_HOST_DEATHS] / n_trials
        if (getattr(inputs, "resolved_rules", None) or {}).get("positions", 0) > 0:  # the draft's positions
            row["positions_moved"] = k[L.K_PLACES] / n_trials  # Movement, Disengage, Reckless Movement
            row["disengages"] = k[L.K_DISENGAGES] / n_trials
            row["reckless_moves"] = k[L.K_RECKLESS] / n_trials
            row["reckless_damage"] = k[L.K_RECKLESS_DMG] / n_trials
            row["covers"] = k[L.K_INTERCEPTS] / n_trials  # Cover (DRAFT L492): hits she took for someone
            row["guard_sprints"] = k[L.K_GUARD_SPRINTS] / n_trials  # Speed Burst off her turn to Cover an ally
            row["cover_damage"] = k[L.K_INTERCEPT_DMG] / n_trials
        if getattr(inputs, "battlefield", None) is not None:  # the hex grid's columns
            row["hexes_moved"] = k[L.K_MOVES] / n_trials
            row["talent_hexes_moved"] = k[L.K_TALENT_MOVES] / n_trials  # movement talents (Teleport: hexes between)
            row["others_moved"] = k[L.K_SHOVED] / n_trials  # hexes she moved others (Get Over Here, Repel, Safe Place)
            row["moves_held"] = k[L.K_HELD] / n_trials      # moves her And Your Enemies Closer stopped
            row["barriers_raised"] = k[L.K_BARRIERS] / n_trials  # Create Barrier (L1697)
            row["barrier_damage"] = k[L.K_BARRIER_DMG] / n_trials  # damage her barriers absorbed
            row["barrier_attacks"] = k[L.K_BARRIER_ATTACKS] / n_trials  # her attacks on enemy barriers
            row["guard_sprints"] = k[L.K_GUARD_SPRINTS] / n_trials  # Sprint off her turn to cover an ally
            row["reckless_moves"] = k[L.K_RECKLESS] / n_trials
            row["reckless_damage"] = k[L.K_RECKLESS_DMG] / n_trials
            row["intercepts"] = k[L.K_INTERCEPTS] / n_trials
            row["intercept_damage"] = k[L.K_INTERCEPT_DMG] / n_trials
            row["labyrinth_damage"] = k[L.K_LAB_DMG] / n_trials  # Alternating Damage, Pendulum
            row["current_moves"] = k[L.K_LAB_MOVES] / n_trials
            row["doors_used"] = k[L.K_DOORS] / n_trials
            row["pendulum_attacks"] = k[L.K_PENDULUM] / n_trials
        rows.append(row)
    return pd.DataFrame(rows)


def talent_uses(counters: dict, inputs, variant: str) -> pd.DataFrame:
    """Uses per fight of every talent slot (Boost included), per combatant."""
    n_trials = int(counters["outcomes"].sum())
    c = counters["combatants"]
    rows = []
    for j, name in enumerate(inputs.names):
        if inputs.kinds[j] == "girl":
            rows.append((variant, name, "Boost", c[j, L.K_BOOSTS] / n_trials))
        for s, talent in enumerate(inputs.talents[j] if inputs.talents else []):
            # Monster Boost plays through the Boost columns: its uses are the boosts
            used = c[j, L.K_BOOSTS] if inputs.comb[j, L.C_TCODE + s] == E.E_MONSTER_BOOST else c[j, L.K_TUSE + s]
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
                k = int(c[j, L.K_TIER + s * L.NTIERS + t])
                lo, hi = wilson(k, n_trials)
                rows.append((variant, name, stat, t, tier, k / n_trials if n_trials else float("nan"), lo, hi))
    return pd.DataFrame(rows, columns=["variant", "combatant", "stat", "tier", "tier_name", "rate", "lo", "hi"])


# ---------------------------------------------------------------- episodes


class _SceneView:
    """One scene's :class:`.compile.Inputs` with labels that name the scene (``"Aoi s2"``)."""

    def __init__(self, inp, k: int):
        self.names = [f"{nm} s{k + 1}" for nm in inp.names]
        self.plain = list(inp.names)
        self.sides = inp.sides
        self.kinds = inp.kinds
        self.side_names = inp.side_names
        self.talents = inp.talents
        self.comb = inp.comb
        self.battlefield = None
        self.round_cap = inp.round_cap


def _scene_counters(counters: dict, ep, k: int) -> dict:
    a, e = int(ep.offsets[k]), int(ep.offsets[k + 1])
    return {"outcomes": counters["scene_outcomes"][k], "combatants": counters["combatants"][a:e],
            "comb_curve": counters["scene_comb_curve"][a:e]}


def _per_scene(fn, counters: dict, inputs, variant: str) -> pd.DataFrame:
    """``fn`` (a per-fight table) for every scene reached, rows labelled by scene;
    means are per episode that reached the scene."""
    ep = inputs.episode
    frames = []
    for k, inp in enumerate(ep.scenes):
        sc = _scene_counters(counters, ep, k)
        if int(sc["outcomes"].sum()) == 0:
            continue
        view = _SceneView(inp, k)
        df = fn(sc, view, variant)
        name_col = "combatant"
        plain = dict(zip(view.names, view.plain))
        df.insert(1, "scene", k + 1)
        df.insert(2, "scene_name", ep.scene_names[k])
        df.insert(4, "name", df[name_col].map(plain))
        frames.append(df)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def episode_scenes(counters: dict, inputs, variant: str) -> pd.DataFrame:
    """Per scene: episodes that reached it, its outcomes (rates of those that
    reached it, 95% Wilson intervals) and mean rounds."""
    ep = inputs.episode
    n_ep = int(counters["outcomes"].sum())
    rows = []
    for k, name in enumerate(ep.scene_names):
        w, lo_, d = (int(x) for x in counters["scene_outcomes"][k])
        n = w + lo_ + d
        row = {"variant": variant, "scene": k + 1, "scene_name": name,
               "enemies": ep.scenes[k].side_names[1], "reached": n,
               "reached_rate": n / n_ep if n_ep else float("nan"), "wins": w, "losses": lo_, "draws": d}
        for key, c in (("win", w), ("loss", lo_), ("draw", d)):
            a, b = wilson(c, n)
            row[f"{key}_rate"] = c / n if n else float("nan")
            row[f"{key}_lo"] = a
            row[f"{key}_hi"] = b
        row["mean_rounds"] = counters["scene_rounds_sum"][k] / n if n else float("nan")
        rows.append(row)
    return pd.DataFrame(rows)


def episode_progress(counters: dict, inputs, variant: str) -> pd.DataFrame:
    """How far the party got: the share of episodes that ended in each scene
    without winning it, and that won the last scene (95% Wilson intervals)."""
    ep = inputs.episode
    so = counters["scene_outcomes"]
    reached = so.sum(axis=1)
    n_ep = int(counters["outcomes"].sum())
    s_n = ep.n_scenes
    rows = []
    for k in range(s_n):
        if k < s_n - 1:
            c = int(reached[k] - reached[k + 1])
        else:
            c = int(reached[k] - so[k, 0])
        rows.append((variant, k + 1, f"ended in {ep.scene_names[k]}", k, c))
    rows.append((variant, s_n + 1, f"won {ep.scene_names[-1]} (the last scene)", s_n, int(so[-1, 0])))
    out = []
    for v, stage, label, furthest, c in rows:
        a, b = wilson(c, n_ep)
        out.append((v, stage, label, c, c / n_ep if n_ep else float("nan"), a, b))
    return pd.DataFrame(out, columns=["variant", "stage", "stage_name", "episodes", "rate", "lo", "hi"])


def episode_party(counters: dict, inputs, variant: str) -> pd.DataFrame:
    """Per party member over the whole episode: death rate, standing and Resolve
    at the end, maximum Resolve after the wound penalty, Recover, scenes in
    which she was KO'd, damage, bursts (means per episode)."""
    ep = inputs.episode
    n_ep = int(counters["outcomes"].sum())
    party = counters["party"]
    cc = counters["combatants"]
    rows = []
    for g in range(ep.party):
        rows_g = [int(ep.offsets[k]) + g for k in range(ep.n_scenes)]
        tot = cc[rows_g].sum(axis=0)
        p = party[g]
        d_lo, d_hi = wilson(int(p[L.PE_DEAD]), n_ep)
        row = {"variant": variant, "combatant": ep.scenes[0].names[g], "kind": ep.scenes[0].kinds[g],
               "death_rate": p[L.PE_DEAD] / n_ep, "death_lo": d_lo, "death_hi": d_hi,
               "standing_at_end": p[L.PE_STANDING_END] / n_ep,
               "resolve_left": p[L.PE_RES_END] / n_ep,
               "max_resolve_end": p[L.PE_MAXRES_END] / n_ep,
               "max_resolve_penalty": p[L.PE_PENALTY_END] / n_ep,
               "wound_damage_end": p[L.PE_WOUNDS_END] / n_ep,
               "recover_uses": p[L.PE_RECOVERS] / n_ep,
               "resolve_recovered": p[L.PE_RECOVERED] / n_ep,
               "ko_scenes": tot[L.K_KO_TRIALS] / n_ep,
               "revives": tot[L.K_REVIVES] / n_ep,
               "damage_dealt": tot[L.K_DEALT] / n_ep,
               "damage_taken": tot[L.K_TAKEN] / n_ep}
        for s, stat in enumerate(STATS):
            row[f"bursts_{stat}"] = tot[L.K_BURSTS + s] / n_ep
        rows.append(row)
    return pd.DataFrame(rows)


def episode_overview(counters: dict, inputs, variant: str) -> pd.DataFrame:
    """One row per variant: episodes, the episode outcome rates (win = every
    scene won) with 95% Wilson intervals, scenes won, rounds, and party
    deaths, bursts and Resolve left, means per episode."""
    ep = inputs.episode
    w, lo_, d = (int(x) for x in counters["outcomes"])
    n = w + lo_ + d
    row = {"variant": variant, "scenes": ep.n_scenes, "episodes": n, "wins": w, "losses": lo_, "draws": d}
    for key, c in (("win", w), ("loss", lo_), ("draw", d)):
        a, b = wilson(c, n)
        row[f"{key}_rate"] = c / n if n else float("nan")
        row[f"{key}_lo"] = a
        row[f"{key}_hi"] = b
    row["scenes_won"] = counters["scene_outcomes"][:, 0].sum() / n
    row["mean_rounds"] = counters["rounds_sum"][0] / n
    party = counters["party"]
    cc = counters["combatants"]
    rows_p = [int(ep.offsets[k]) + g for k in range(ep.n_scenes) for g in range(ep.party)]
    row["deaths"] = party[:, L.PE_DEAD].sum() / n
    row["bursts"] = cc[rows_p][:, L.K_BURSTS:L.K_BURSTS + 3].sum() / n
    row["resolve_left"] = party[:, L.PE_RES_END].sum() / n
    row["standing_at_end"] = party[:, L.PE_STANDING_END].sum() / n
    return pd.DataFrame([row])


def episode_curves(counters: dict, inputs, variant: str) -> pd.DataFrame:
    """``ongoing`` (episodes still running after r rounds in all) and, per
    scene, ``<scene>: standing <side>`` (a fraction of the episodes that
    reached the scene)."""
    ep = inputs.episode
    n_ep = int(counters["outcomes"].sum())
    hist = counters["rounds_hist"]
    total_cap = len(hist) - 1
    ended_by = np.cumsum(hist)
    rows = [(variant, r, "ongoing (episode)", (n_ep - ended_by[r]) / n_ep if r < total_cap else 0.0)
            for r in range(0, total_cap + 1)]
    cap = inputs.round_cap
    for k, inp in enumerate(ep.scenes):
        n = int(counters["scene_outcomes"][k].sum())
        if n == 0:
            continue
        for s, side in enumerate(inp.side_names):
            for r in range(0, cap + 1):
                v = 1.0 if r == 0 else counters["scene_side_curve"][k, s, r] / n
                rows.append((variant, r, f"{ep.scene_names[k]}: standing {side}", v))
    return pd.DataFrame(rows, columns=["variant", "round", "metric", "value"])


def summarize_episode(counters: dict, inputs, variant: str) -> dict:
    """The frames of an episode: curves, the episode tables and the usual
    per-combatant tables per scene (``scene`` columns, labels ``"<name> s<k>"``)."""
    return {
        "curves": episode_curves(counters, inputs, variant),
        "summary": {"scenes": inputs.episode.n_scenes,
                    "scenes_won": float(counters["scene_outcomes"][:, 0].sum() / counters["outcomes"].sum())},
        "tables": {
            "episode": episode_overview(counters, inputs, variant),
            "episode_scenes": episode_scenes(counters, inputs, variant),
            "episode_progress": episode_progress(counters, inputs, variant),
            "episode_party": episode_party(counters, inputs, variant),
            "combatants": _per_scene(combatants, counters, inputs, variant),
            "combatant_curves": _per_scene(combatant_curves_scene, counters, inputs, variant),
            "talents": _per_scene(talent_uses, counters, inputs, variant),
            "flair_tiers": _per_scene(flair_tiers, counters, inputs, variant),
        },
    }


def combatant_curves_scene(counters: dict, inputs, variant: str) -> pd.DataFrame:
    return _combatant_curves(counters, inputs.names, inputs.round_cap, variant)
