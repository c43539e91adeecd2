"""The lethality study's numbers that say "by how much", and its warnings.

From each system's per-trial outcomes (:func:`sim.trials.per_trial`: outcome,
girls dead) and per-combatant table (:mod:`sim.lethality`):

* :func:`conditional`: girls dead per fight, per won fight and per lost fight
  (the number a designer most wants: what a victory costs), each a mean with
  its 95% normal interval and the number of such fights;
* :func:`differences`: every pair of systems ``a - b``: the difference in
  deaths per fight (Welch's normal interval: the systems play different fights,
  so the samples are independent), in deaths per won fight, in the share of
  fights in which a girl dies and in the win rate (Newcombe's hybrid score
  interval for independent proportions, :func:`sim.stats.two_proportion_ci`);
* :func:`girls`: each girl's survival (not dead at the end) and the share of
  fights in which she was taken out, per system, with Wilson intervals;
* :func:`warnings`: the calibrated win rates differ by more than their
  difference's interval (the comparison is not at equal difficulty), or the
  girls' hit rates in ``check.csv`` diverge between systems (the mapping makes
  a different fight);
* :func:`band`: the mapping-sensitivity band, the smallest and largest answer
  over the reasonable mappings the study replays (:mod:`sim.lethality`).
"""
from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd

from sim.stats import two_proportion_ci, wilson

Z = 1.959963984540054
#: girls' mean hit rates further apart than this between two systems get a warning
HIT_GAP = 0.15
SYSTEM_TITLES = {"mb41": "4.1", "mb-draft": "4.1 draft", "d10": "d10 add-on"}


def _mean_ci(x) -> tuple[float, float, float, int]:
    x = np.asarray(x, dtype=float)
    n = int(x.size)
    if n == 0:
        return float("nan"), float("nan"), float("nan"), 0
    m = float(x.mean())
    se = float(x.std(ddof=1) / math.sqrt(n)) if n > 1 else float("nan")
    return m, m - Z * se, m + Z * se, n


def conditional(system: str, outcome, dead) -> list[dict]:
    """Girls dead per fight, per won fight (outcome 0) and per lost fight (outcome 1)."""
    outcome, dead = np.asarray(outcome), np.asarray(dead, dtype=float)
    rows = []
    for label, mask in (("all fights", np.ones(outcome.size, bool)), ("won fights", outcome == 0),
                        ("lost fights", outcome == 1)):
        m, lo, hi, n = _mean_ci(dead[mask])
        rows.append({"system": system, "fights": label, "deaths": m, "lo": lo, "hi": hi, "n": n})
    return rows


def _mean_diff(a, b) -> tuple[float, float, float]:
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.size < 2 or b.size < 2:
        return float("nan"), float("nan"), float("nan")
    d = float(a.mean() - b.mean())
    se = math.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size)
    return d, d - Z * se, d + Z * se


def differences(per: dict) -> list[dict]:
    """``a - b`` for every pair of systems; ``per[system]`` = ``(outcome, girls_dead)`` arrays."""
    rows = []
    for a, b in itertools.combinations(per, 2):
        (oa, da), (ob, db) = per[a], per[b]
        da, db = np.asarray(da, dtype=float), np.asarray(db, dtype=float)
        for metric, (d, lo, hi) in (
                ("deaths_per_fight", _mean_diff(da, db)),
                ("deaths_per_won_fight", _mean_diff(da[np.asarray(oa) == 0], db[np.asarray(ob) == 0])),
                ("p_girl_dead", two_proportion_ci(int((da > 0).sum()), da.size, int((db > 0).sum()), db.size)),
                ("win_rate", two_proportion_ci(int((np.asarray(oa) == 0).sum()), len(oa),
                                               int((np.asarray(ob) == 0).sum()), len(ob)))):
            rows.append({"a": a, "b": b, "metric": metric, "diff": float(d), "lo": float(lo), "hi": float(hi),
                         "separated": bool(lo > 0 or hi < 0)})
    return rows


def girls(system: str, table: pd.DataFrame, girl_names: list[str], n: int) -> list[dict]:
    """Each girl's survival (1 - death rate) and taken-out rate, with Wilson intervals."""
    rows = []
    for r in table[table["combatant"].isin(girl_names)].to_dict("records"):
        dead = int(round(r["death_rate"] * n))
        out = int(round(r["ko_rate"] * n))
        s_lo, s_hi = wilson(n - dead, n)
        o_lo, o_hi = wilson(out, n)
        rows.append({"system": system, "girl": r["combatant"], "survival": 1 - r["death_rate"],
                     "survival_lo": float(s_lo), "survival_hi": float(s_hi), "taken_out": r["ko_rate"],
                     "taken_out_lo": float(o_lo), "taken_out_hi": float(o_hi)})
    return rows


def warnings(diffs: pd.DataFrame, check: pd.DataFrame, girl_side: str, calibrated: bool) -> list[str]:
    """Calibrated win rates apart beyond their interval; girls' hit rates diverging."""
    out = []
    if calibrated and len(diffs):
        win = diffs[(diffs["metric"] == "win_rate") & diffs["separated"]]
        for r in win.to_dict("records"):
            out.append(f"The calibrated win rates differ: {SYSTEM_TITLES[r['a']]} minus {SYSTEM_TITLES[r['b']]} "
                       f"is {100 * r['diff']:+.1f} points [{100 * r['lo']:+.1f}, {100 * r['hi']:+.1f}], beyond "
                       "the interval: the systems are not compared at equal difficulty (the calibrated parameter "
                       "moves in whole steps; calibration.csv), and part of any lethality gap is difficulty.")
    if check is not None and len(check):
        g = check[check["side"] == girl_side].groupby("system")["hit_rate"].mean()
        if len(g) > 1 and g.max() - g.min() > HIT_GAP:
            rates = ", ".join(f"{100 * v:.0f}% in {SYSTEM_TITLES[s]}" for s, v in g.items())
            out.append(f"The girls' hit rates diverge ({rates}; check.csv): the mapping makes a different fight, "
                       "which the calibration offsets with the enemy's toughness. Read the mapping-sensitivity "
                       "band, not only the point answer.")
    return out


def band(rows: list[dict], system: str, metric: str) -> tuple[float, float] | None:
    """The smallest and largest ``metric`` of ``system`` over the sensitivity rows (None if none)."""
    vals = [r["value"] for r in rows if r["system"] == system and r["metric"] == metric]
    return (min(vals), max(vals)) if vals else None
