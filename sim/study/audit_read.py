"""Reading an audit's cells (:mod:`.audit`): each entry's value, in points and in a stat's
units, its tier, robustness, cost-class outliers and never-used flags; tables and charts.

The cells are the reference encounters under each policy; every arm of every cell
plays trials ``0..n-1`` on the same keyed streams. For entry ``k`` and cell ``c``
the holder's per-trial value is ``v_ck = s_ck (w_ck - b_c)`` (``w`` the arm's wins
of the first side, ``b`` the base's, ``s`` +1 for the first side's entries and -1
for the second's, and -1 when the holder had it and it was taken away). The
entry's **value** is the mean over trials of ``V_k = mean_c v_ck``: the average
over the cells, in win-rate points. Its interval is the t interval of the
per-trial ``V_k`` (trials are independent, and averaging within a trial keeps
whatever correlation the cells share), at the Bonferroni level ``1 - alpha/m``
over the ``m`` entries of its category, so a category's intervals hold together.

* **in a stat's units**: the yardstick arms (the holder's stat changed by each of
  the changes) give ``U_d`` the same way; the value is inverted on the monotone
  curve ``d -> mean U_d`` (:func:`sim.study.curve.solve`), its interval widened to
  the grid points around it (the interpolation counts) and the bracketing
  changes named;
* **tier**: the tier list's algorithm (:mod:`.tiers`) on paired t tests of the
  ``V`` (Holm over the category's pairs, the base a row at 0);
* **robustness**: each cell's own paired difference (Newcombe, at ``1 - alpha/C``
  over the ``C`` cells): ``holds`` (one sign), ``weakens`` (significant in some
  cells only) or ``flips`` (significant both ways), with the cells' range;
* **cost class**: entries with the same cost and uses (:mod:`.entries`) should be
  worth about the same. The class's centre is the median value of the *other*
  entries of the class in the category (the category's when the class has fewer
  than two others); the tolerance is the larger of :data:`TOLERANCE` points and
  :data:`MADS` scaled median absolute deviations of those values. An **outlier**
  is an entry whose whole interval lies beyond centre +- tolerance: ``strong``
  above, ``weak`` below; its **excess** is value minus centre;
* **never used**: the entry was never used (a card never played) in the trials
  counted in any cell and shows no effect, or no trial of any cell changed with it
  (d10 counts no uses): its value is 0 by construction and says nothing about the
  rule, only that the policies never reach for it (or it does not apply there).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats as sps

from .caveats import base_rate, rate_warnings
from .curve import solve
from .paired import rate_difference
from .report import Section
from .robustness import _verdict
from .tiers import pairwise, tiers

#: smallest outlier tolerance, in win-rate points (0.03 = 3 points)
TOLERANCE = 0.03
#: tolerance in scaled median absolute deviations of the class
MADS = 2.5
#: base rates outside this band get a note (the audit's encounters are calibrated near 50%)
NEAR = (0.35, 0.65)
_COLOURS = ["#2a7ab0", "#27ae60", "#e0a800", "#c0392b", "#8e44ad", "#7f8c8d"]


def _t_interval(v: np.ndarray, alpha: float) -> tuple[float, float, float]:
    n = v.size
    m = float(v.mean())
    sd = float(v.std(ddof=1)) if n > 1 else 0.0
    if not sd > 0:
        return m, m, m
    q = float(sps.t.ppf(1 - alpha / 2, n - 1))
    return m, m - q * sd / np.sqrt(n), m + q * sd / np.sqrt(n)


def _per_trial(entry: str, cells: list) -> tuple[np.ndarray | None, list]:
    """``V_k`` (n,) over the cells that measured ``entry``, and those cells."""
    got = [c for c in cells if entry in c.wins]
    if not got:
        return None, got
    return np.mean([c.sign[entry] * (c.wins[entry] - c.base_of(entry)) for c in got], axis=0), got


def _exchange(holder: str, v: np.ndarray, got: list, alpha: float, seed: int) -> dict:
    """The value in the holder's stat units over the cells ``got`` (empty without a yardstick)."""
    cells = [c for c in got if holder in c.yard]
    none = {"stat_value": float("nan"), "stat_lo": float("nan"), "stat_hi": float("nan"),
            "stat_below": float("nan"), "stat_above": float("nan")}
    if not cells or len({tuple(c.yard[holder][0]) for c in cells}) != 1:
        return none
    deltas = cells[0].yard[holder][0]
    sign = 1.0 if holder == "tester" else -1.0  # a monster's stronger stat lowers the first side's wins
    u = np.mean([sign * (c.yard[holder][1] - c.base) for c in cells], axis=0)
    r = solve(deltas, u, v, alpha, seed=seed, b=200)
    return {"stat_value": r["value"], "stat_lo": r["lo"], "stat_hi": r["hi"], "stat_below": r["below"],
            "stat_above": r["above"]}


def _robustness(entry: str, got: list, alpha: float) -> dict:
    diffs, signs = [], []
    for c in got:
        a, b = (c.wins[entry], c.base_of(entry)) if c.sign[entry] > 0 else (c.base_of(entry), c.wins[entry])
        d = rate_difference(a, b, alpha / max(len(got), 1))
        diffs.append(d["diff"])
        signs.append(1 if d["lo"] > 0 else (-1 if d["hi"] < 0 else 0))
    return {"robustness": _verdict(signs), "cells": len(got), "cells_up": signs.count(1),
            "cells_down": signs.count(-1), "cell_min": min(diffs), "cell_max": max(diffs)}


def entry_rows(entries: list, cells: list, alpha: float, seed: int) -> tuple[pd.DataFrame, dict]:
    """One row per measured entry (value, interval, stat units, robustness, use), and
    ``{name: V_k}`` for the tier tests."""
    sizes = pd.Series([e.category for e in entries]).value_counts().to_dict()
    rows, per = [], {}
    for e in entries:
        v, got = _per_trial(e.name, cells)
        if v is None:
            continue
        per[e.name] = v
        value, lo, hi = _t_interval(v, alpha / max(sizes[e.category], 1))
        counted = [c.usage.get(e.name) for c in got if c.usage.get(e.name) is not None]
        rows.append({"name": e.name, "category": e.category, "entry": e.status, "holder": e.holder,
                     "cost_class": e.cost_class, "acts_on": e.acts_on,
                     "encounters": len({c.encounter for c in got}), "value": value, "lo": lo, "hi": hi,
                     **_exchange(e.holder, v, got, alpha, seed), **_robustness(e.name, got, alpha),
                     "uses_per_fight": float(np.mean(counted)) if counted else float("nan"),
                     # no use counted and no effect seen (a passive whose hook counts no uses still shows
                     # its effect: it is not flagged)
                     "never_used": bool((bool(counted) and max(counted) == 0 and lo <= 0 <= hi)
                                        or not np.any(v))})  # or no trial changed at all
    return pd.DataFrame(rows), per


def _centre(values: pd.Series, cls: pd.Series, i) -> tuple[float, float, str]:
    """The class centre and tolerance for row ``i`` (leave-one-out), and where it came from."""
    others = values[(cls == cls[i]) & (values.index != i)]
    where = "class"
    if len(others) < 2:
        others, where = values[values.index != i], "category"
    if others.empty:
        return 0.0, TOLERANCE, "none"
    med = float(others.median())
    mad = 1.4826 * float((others - med).abs().median())
    return med, max(TOLERANCE, MADS * mad), where


def flag_outliers(df: pd.DataFrame) -> pd.DataFrame:
    """Add ``class_centre``, ``tolerance``, ``centre_from``, ``excess``, ``outlier`` per category."""
    out = []
    for _, g in df.groupby("category", sort=False):
        g = g.copy()
        used = g[~g["never_used"]]
        cols = {"class_centre": [], "tolerance": [], "centre_from": []}
        for i in g.index:
            pool = used if i in used.index else pd.concat([used, g.loc[[i]]])
            med, tol, where = _centre(pool["value"], pool["cost_class"], i)
            cols["class_centre"].append(med)
            cols["tolerance"].append(tol)
            cols["centre_from"].append(where)
        for k, v in cols.items():
            g[k] = v
        g["excess"] = g["value"] - g["class_centre"]
        g["outlier"] = np.where(g["lo"] > g["class_centre"] + g["tolerance"], "strong",
                                np.where(g["hi"] < g["class_centre"] - g["tolerance"], "weak", ""))
        g.loc[g["never_used"], "outlier"] = ""  # never used: its own flag, not a value to compare
        out.append(g)
    return pd.concat(out) if out else df


def add_tiers(df: pd.DataFrame, per: dict, alpha: float) -> pd.DataFrame:
    """The tier of each entry within its category (the base, value 0, is a row of the tests)."""
    df = df.copy()
    df["tier"] = 0
    for cat, g in df.groupby("category", sort=False):
        n = len(next(iter(per.values())))
        values = {"(base)": np.zeros(n)} | {k: per[k] for k in g["name"]}
        est = {"(base)": 0.0} | dict(zip(g["name"], g["value"]))
        order = sorted(est, key=lambda k: -est[k])
        t = tiers(order, pairwise("value", values), alpha)
        df.loc[g.index, "tier"] = [t[k] for k in g["name"]]
        df.loc[g.index, "base_tier"] = t["(base)"]
    return df


def cell_tables(cells: list, alpha: float) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``encounters``: each cell's base rate (Wilson); ``cells``: each entry in each cell."""
    enc, rows = [], []
    for c in cells:
        b = base_rate(c.base)
        enc.append({"encounter": c.encounter, "policy": c.policy, "map": c.where, "trials": c.n,
                    "base_rate": b["rate"], "lo": b["lo"], "hi": b["hi"], "entries": len(c.wins),
                    "skipped": len(c.skipped)})
        for name, w in c.wins.items():
            a, z = (w, c.base_of(name)) if c.sign[name] > 0 else (c.base_of(name), w)
            d = rate_difference(a, z, alpha)
            rows.append({"encounter": c.encounter, "policy": c.policy, "name": name, "rate": float(w.mean()),
                         "value": d["diff"], "lo": d["lo"], "hi": d["hi"], "discordant": d["discordant"],
                         "uses_per_fight": c.usage.get(name), "context": c.context.get(name, ""),
                         "draw_change": c.draw_change(name)})
        for name, why in c.skipped.items():
            rows.append({"encounter": c.encounter, "policy": c.policy, "name": name, "skipped": why})
    return pd.DataFrame(enc), pd.DataFrame(rows)


#: an entry that moves a cell's draw rate by this much (a fraction) is named with it
DRAW_SHIFT = 0.05


def draw_warnings(cells: list) -> list[str]:
    """A sentence per entry that moves the draw rate of a cell by :data:`DRAW_SHIFT` or more: its
    value counts a draw as no win for the holder, so part of it is fights that no longer end at
    the round cap, or now do (a Hammerspace trap that held the last enemy for ever read once as
    'weak, -15 points' while it turned 85% of its fights into draws)."""
    moved: dict = {}
    for c in cells:
        for name in c.wins:
            d = c.draw_change(name)
            if d is not None and abs(d) >= DRAW_SHIFT:
                moved.setdefault(name, []).append(f"{100 * d:+.1f} points in {c.encounter} ({c.policy})")
    return [f"{name} moves the draw rate: {'; '.join(where)}. Its value counts a draw as no win for the "
            "holder's side, so part of it is fights that end, or no longer end, at the round cap (the cells "
            "table has each cell's draw_change)." for name, where in moved.items()]


def _warnings(enc: pd.DataFrame, cells: list) -> list[str]:
    out = draw_warnings(cells)
    first = {}
    for r, c in zip(enc.to_dict("records"), cells):
        b = base_rate(c.base, f"{r['encounter']}, {r['policy']}")
        out += [f"{r['encounter']} ({r['policy']}): {w}" for w in rate_warnings(b)]
        calibrated = first.setdefault(r["encounter"], r["policy"]) == r["policy"]
        if not NEAR[0] <= b["rate"] <= NEAR[1] and 0.10 <= b["rate"] <= 0.90:  # beyond: rate_warnings said it
            out.append(f"{r['encounter']} ({r['policy']}): base win rate {100 * b['rate']:.1f}% is not near 50% "
                       f"({100 * NEAR[0]:.0f}-{100 * NEAR[1]:.0f}%): "
                       + ("recalibrate the encounter (docs/audit.md#recalibrating) so that effects have room "
                          "both ways." if calibrated else
                          f"the encounter is calibrated under '{first[r['encounter']]}'; this policy plays a "
                          "different fight, and its effects are read with less room on one side."))
    return out


def _fmt(r: dict) -> str:
    return f"{r['name']} ({100 * r['value']:+.1f} [{100 * r['lo']:+.1f}, {100 * r['hi']:+.1f}])"


def _for_cost(df: pd.DataFrame, strong: bool, k: int = 5) -> str:
    d = df[~df["never_used"]].sort_values("excess", ascending=not strong).head(k)
    return "; ".join(f"{r['name']} {100 * r['excess']:+.1f} points against its class "
                     f"({r['cost_class']}: {100 * r['class_centre']:+.1f}), value {100 * r['value']:+.1f} "
                     f"[{100 * r['lo']:+.1f}, {100 * r['hi']:+.1f}]" for r in d.to_dict("records"))


def unvalued(entries: list, cells: list) -> dict:
    """Entries no cell played (skipped everywhere) -> the reasons the cells gave."""
    return {e.name: "; ".join(dict.fromkeys(c.skipped[e.name] for c in cells if e.name in c.skipped))
            for e in entries if not any(e.name in c.wins for c in cells)}


def overview(system: str, df: pd.DataFrame, enc: pd.DataFrame, cells: list,
             missing: dict | None = None) -> tuple[str, list[str]]:
    """The first screen: base rates, the outliers, the five strongest and weakest for their cost,
    the entries never used and those no cell could value (``missing``: name -> why)."""
    bases = "; ".join(f"{r['encounter']} / {r['policy']} {100 * r['base_rate']:.1f}% [{100 * r['lo']:.1f}, "
                      f"{100 * r['hi']:.1f}]" for r in enc.to_dict("records"))
    strong = df[df["outlier"] == "strong"].sort_values("excess", ascending=False)
    weak = df[df["outlier"] == "weak"].sort_values("excess")
    never = df[df["never_used"]]["name"].tolist()
    n_enc = enc["encounter"].nunique()
    parts = [f"Base win rate of the first side in each reference cell (encounter / policy): {bases}.",
             f"Outliers for their cost ({len(strong) + len(weak)} of {len(df)} entries valued in {len(enc)} cells: "
             f"{n_enc} encounter{'s' if n_enc != 1 else ''} x their policies; value in win-rate points for the "
             "holder, simultaneous intervals per category): "
             + ("strong: " + "; ".join(_fmt(r) + f" vs its class {r['cost_class']} {100 * r['class_centre']:+.1f}"
                                        for r in strong.to_dict("records")) + ". " if len(strong) else "none strong. ")
             + ("Weak: " + "; ".join(_fmt(r) + f" vs {100 * r['class_centre']:+.1f}"
                                     for r in weak.to_dict("records")) + "." if len(weak) else "None weak."),
             f"Strongest for their cost: {_for_cost(df, True)}.",
             f"Weakest for their cost: {_for_cost(df, False)}."]
    if never:
        what = ("Changed no trial's outcome in any cell (d10 counts no uses: an entry may act and still "
                "never decide a fight there" if system == "d10" else "Never used by the policies")
        parts.append(f"{what} ({len(never)}; their value is 0 by construction): "
                     f"{', '.join(never[:12])}{', ...' if len(never) > 12 else ''}.")
    if missing:
        parts.append(f"Not valued ({len(missing)}; no reference cell could play them): "
                     + "; ".join(f"{k} ({why})" for k, why in missing.items()) + ".")
    own = df[df["entry"].isin(["edited", "invented"])]
    if len(own):
        parts.append("Not as in the catalog: " + "; ".join(f"{r['name']} ({r['entry']}): {_fmt(r)}, tier "
                                                           f"{int(r['tier'])}" for r in own.to_dict("records")) + ".")
    return " ".join(parts), _warnings(enc, cells)


def audit_chart(df: pd.DataFrame, path, *, title: str, caption: str):
    """One bar per entry (best first): its value in points with its interval, coloured by
    tier; a tick at its class centre; outliers and never-used entries marked in the label."""
    from matplotlib.figure import Figure

    from sim.report.charts import _save

    from .charts import points_axis

    if df is None or df.empty:
        return None
    d = df.sort_values("value", ascending=False)
    n = len(d)
    fig = Figure(figsize=(8.0, 1.4 + 0.3 * n))
    ax = fig.add_subplot()
    y = np.arange(n)[::-1]
    colours = [_COLOURS[(int(t) - 1) % len(_COLOURS)] for t in d["tier"]]
    ax.barh(y, d["value"], color=colours, alpha=0.75)
    ax.errorbar(d["value"], y, xerr=[d["value"] - d["lo"], d["hi"] - d["value"]], fmt="none", ecolor="#333",
                capsize=2)
    ax.scatter(d["class_centre"], y, marker="|", s=120, color="#000", zorder=3, label="class centre")
    marks = {"strong": "  ▲ strong for its cost", "weak": "  ▼ weak for its cost", "": ""}
    labels = [f"{r['name']}{' (' + r['entry'] + ')' if r['entry'] in ('edited', 'invented') else ''}"
              f"{marks[r['outlier']]}{'  (never used)' if r['never_used'] else ''}" for r in d.to_dict("records")]
    ax.set_yticks(y, labels, fontsize=7)
    ax.axvline(0, color="#888", lw=1)
    points_axis(ax.xaxis)
    ax.set_xlabel("value for its holder, points of win rate (mean over the reference cells)")
    ax.legend(frameon=False, fontsize=7, loc="lower right")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return _save(fig, path, caption=caption, variants=list(d["name"]), title=title)


def sections(system: str, entries: list, cells: list, alpha: float, seed: int = 0) -> list[Section]:
    """The audit's report: an overview (base rates, outliers, strongest and weakest for
    their cost) with the whole table, then one section per category (table and chart)."""
    df, per = entry_rows(entries, cells, alpha, seed)
    df = add_tiers(flag_outliers(df), per, alpha)
    enc, long = cell_tables(cells, alpha)
    reading, warnings = overview(system, df, enc, cells, unvalued(entries, cells))
    level = f"{100 * (1 - alpha):g}%"
    first = cells[0]
    notes = [f"Value: the holder's change in win rate with the entry minus without it, averaged over the "
             f"{len(cells)} reference cells, on common random numbers ({first.n:,} trials per arm); intervals "
             f"are simultaneous {level} per category (Bonferroni). A monster's entries are valued for the "
             "monster (the girls' loss). In stat units: the change of the holder's yardstick stat worth as much, "
             "with the interval widened to the changes tried around it (docs/audit.md).",
             "Outliers: the whole interval beyond the centre of the entries of the same cost class "
             f"(median of the others; tolerance the larger of {100 * TOLERANCE:g} points and {MADS:g} scaled "
             "MADs). Robustness: each cell's own paired interval; 'flips' means significant in both directions."]
    if system == "d10":
        notes.append("d10 counts no per-power uses: 'never used' means that no trial of any cell changed its "
                     "outcome with the entry.")
    over = Section(kind="audit", title=f"Audit of the {system} catalog", reading=reading,
                   tables={"audit": df, "cells": long, "encounters": enc}, notes=notes, warnings=warnings,
                   base=base_rate(first.base, f"{first.encounter}, {first.policy}"))
    out = [over]
    for cat, g in df.groupby("category", sort=False):
        stem = "audit_" + "".join(ch if ch.isalnum() else "_" for ch in cat)
        top = g.sort_values("value", ascending=False)
        text = (f"{len(g)} entries, {int(g['tier'].max())} tiers (the base in tier {int(g['base_tier'].iloc[0])}). "
                f"Best: {'; '.join(_fmt(r) for r in top.head(3).to_dict('records'))}. "
                f"Outliers: {', '.join(g[g['outlier'] != '']['name']) or 'none'}.")
        out.append(Section(kind="audit", title=f"{system}: {cat}", reading=text, tables={stem: g},
                           charts={f"{stem}.png": (lambda p, g=g, cat=cat: audit_chart(
                               g, p, title=f"{system} {cat}", caption=f"{cat}: value of each entry for its "
                               f"holder in points with simultaneous {level} intervals, coloured by tier; "
                               "ticks: the centre of its cost class."))}))
    return out
