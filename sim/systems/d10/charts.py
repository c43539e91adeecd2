"""d10 charts for the report (matplotlib Figure + Agg, no pyplot).

Each function takes a :class:`sim.results.RunResult` and a path, writes one
PNG and returns the path, or ``None`` when the ``combatants`` table of
:mod:`.summarize` is missing, empty or lacks the columns it draws. Every chart
draws every variant of the run (one panel per variant, or one bar per
variant), records which it drew in the PNG (``sim.report.charts._save``) and
keeps its legend outside the data.

Rates come from the table as written: side 0 (the party) keeps its members
across a trial's fights, so its KO, death and threshold rates are per trial;
enemies are fresh in every fight, so theirs are per fight they started
(``rate_per``); uses and spending are means per fight the combatant took part
in (the per-trial column divided by ``fights``).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from sim.report.charts import _save, _styles, cap_drawn, variant_order

#: combatants.csv column -> what the power-use chart calls it (uses per fight)
POWER_COLUMNS = {
    "killing_blows": "Killing Blow",
    "focused_assaults": "Focused Assault",
    "barrages": "Barrage",
    "grapples": "Tentacles grapple",
    "traps": "Hammerspace trap",
    "copies": "Duplication (copies made)",
    "second_form_attacks": "Dual Weapon second form",
    "aids": "Aid",
    "recharges": "Recharge",
    "hides": "Hide",
    "pursues": "Pursue",
}
BANDS = (("reached_threshold2", "2nd threshold", "#f2c14e"),
         ("reached_threshold3", "3rd threshold", "#f78154"),
         ("reached_threshold4", "4th threshold (pool full)", "#b4436c"))
SPEND = (("mana_spent", "mana", "#3d5a80"), ("fortune_spent", "fortune", "#98c1d9"))


def _table(result):
    t = (result.tables or {}).get("combatants")
    if t is None or t.empty:
        return None
    return t


def _label(df) -> list:
    """'name (side)' per row, so a reader tells the party from the enemies."""
    return [f"{c} ({s})" for c, s in zip(df["combatant"].astype(str), df["side"].astype(str))]


def _per_fight(df, col):
    fights = df["fights"].to_numpy(float)
    vals = df[col].to_numpy(float)
    return np.divide(vals, fights, out=np.zeros_like(vals), where=fights > 0)


def _present(result, t) -> list:
    have = set(t["variant"])
    return [v for v in variant_order(result, t) if v in have]


def _panels(result, t, why: str = "no combatants recorded"):
    """``(panels, omitted)``: (variant, rows) for the first
    :data:`~sim.report.charts.MAX_DRAWN` variants with rows, and the others with why
    they are not drawn (:func:`sim.report.charts.cap_drawn`); linear in variants."""
    drawn, omitted = cap_drawn(result, _present(result, t), "combatants.csv", why)
    groups = dict(tuple(t[t["variant"].isin(set(drawn))].groupby("variant", sort=False)))
    return [(v, groups[v]) for v in drawn], omitted


def _panel_figure(n_panels: int, rows: int, width: float = 8.0):
    """A figure of ``n_panels`` horizontal-bar panels (one column up to 3, then a
    grid), each ``rows`` combatants tall; returns (figure, axes, columns)."""
    ncols = 1 if n_panels <= 3 else (2 if n_panels <= 8 else 3)
    nrows = -(-n_panels // ncols)
    fig = Figure(figsize=(width if ncols == 1 else 5.2 * ncols, 0.9 + (0.9 + 0.32 * rows) * nrows),
                 layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False, sharex=True).ravel()
    for ax in axes[n_panels:]:
        ax.set_visible(False)
    for ax in axes:  # sharex hides inner tick labels: every panel keeps its own
        ax.tick_params(labelbottom=True)
    return fig, axes, ncols


def _legend_above(fig, ax, ncol: int) -> None:
    handles, labels = ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside upper center", ncol=ncol, fontsize="small", frameon=False)


def _rate_panel(ax, df, series, xlabel):
    """Horizontal rate points with Wilson bars, one row per combatant."""
    y = np.arange(len(df))
    k = len(series)
    for off, (col, label, colour) in enumerate(series):
        x = df[col].to_numpy(float)
        err = np.vstack([np.clip(x - df[f"{col}_lo"].to_numpy(float), 0, None),
                         np.clip(df[f"{col}_hi"].to_numpy(float) - x, 0, None)])
        dy = (off - (k - 1) / 2) * (0.6 / max(k, 1))
        ax.errorbar(x, y + dy, xerr=err, fmt="o", color=colour, ecolor=colour, markersize=4,
                    capsize=2, label=label)
    ax.set_yticks(y, _label(df), fontsize="small")
    ax.set_ylim(len(df) - 0.5, -0.5)
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_xlabel(xlabel, fontsize="small")
    ax.grid(axis="x", color="0.92")
    ax.set_axisbelow(True)


def _rate_chart(result, path, series, *, caption, title, xlabel):
    t = _table(result)
    cols = {c for c, _, _ in series}
    if t is None or not {s + e for s in cols for e in ("", "_lo", "_hi")} <= set(t.columns):
        return None
    panels, omitted = _panels(result, t)
    fig, axes, _ = _panel_figure(len(panels), max(len(df) for _, df in panels))
    for ax, (variant, df) in zip(axes, panels):
        _rate_panel(ax, df, series, xlabel)
        ax.set_title(str(variant), fontsize="small")
    _legend_above(fig, axes[0], len(series))
    return _save(fig, path, caption=caption, variants=[v for v, _ in panels], omitted=omitted, title=title)


def ko_death(result, path: Path):
    """KO (taken out) and death rates per combatant with 95% Wilson intervals, per variant."""
    series = (("ko_rate", "taken out (KO)", "#2a7ab0"), ("death_rate", "dead", "#8b0000"))
    caption = ("How deadly is this: the share in which each combatant was taken out (KO: her wound "
               "pool filled, or she was otherwise put out of the fight) and in which she died, with "
               "95% Wilson intervals; one panel per variant. The party's rates are per trial (any of "
               "its fights), the enemies' per fight they started. In Cake and Ice Cream mode a full "
               "pool knocks out; in Guns and Grim mode it kills.")
    return _rate_chart(result, path, series, caption=caption, title="KO and death rates",
                       xlabel="share (bars: 95% Wilson interval)")


def thresholds(result, path: Path):
    """Wound thresholds (bands) reached per combatant, 95% Wilson intervals, per variant."""
    series = tuple((c, lab, col) for c, lab, col in BANDS)
    caption = ("How hurt they get: the share of trials in which each combatant's wounds reached her "
               "2nd, 3rd and 4th wound threshold (a quarter of the pool each; the 4th is a full pool), "
               "with 95% Wilson intervals; one panel per variant.")
    return _rate_chart(result, path, series, caption=caption, title="Wound thresholds reached",
                       xlabel="share of trials (bars: 95% Wilson interval)")


def spending(result, path: Path):
    """Mana and fortune spent per fight by each combatant, one panel per variant."""
    t = _table(result)
    if t is None or not {"mana_spent", "fortune_spent", "fights"} <= set(t.columns):
        return None
    panels, omitted = _panels(result, t)
    fig, axes, _ = _panel_figure(len(panels), max(len(df) for _, df in panels))
    h = 0.8 / len(SPEND)
    for ax, (variant, df) in zip(axes, panels):
        y = np.arange(len(df))
        for k, (col, label, colour) in enumerate(SPEND):
            ax.barh(y - 0.4 + h * (k + 0.5), _per_fight(df, col), h, color=colour, label=label)
        ax.set_yticks(y, _label(df), fontsize="small")
        ax.set_ylim(len(df) - 0.5, -0.5)
        ax.set_xlabel("spent per fight (mean)", fontsize="small")
        ax.set_title(str(variant), fontsize="small")
        ax.grid(axis="x", color="0.92")
        ax.set_axisbelow(True)
    _legend_above(fig, axes[0], len(SPEND))
    drawn = [v for v, _ in panels]
    caption = ("Mana and Fortune points each combatant spends per fight she takes part in (means; "
               "mana pays for powers, specialization uses and augmentation dice); one panel per "
               "variant.")
    return _save(fig, path, caption=caption, variants=drawn, omitted=omitted, title="Mana and fortune spent")


def _power_rows(t):
    """(label, combatant, column) for every power/action someone uses in some variant."""
    rows = []
    names = list(dict.fromkeys(t["combatant"].astype(str)))
    for name in names:
        sub = t[t["combatant"].astype(str) == name]
        for col, label in POWER_COLUMNS.items():
            if col in t.columns and (sub[col].fillna(0) > 0).any():
                rows.append((f"{name}: {label}", name, col))
    return rows


def power_use(result, path: Path):
    """Uses per fight of each power and special action, per combatant; one bar per variant."""
    t = _table(result)
    if t is None or "fights" not in t.columns:
        return None
    variants, omitted = cap_drawn(result, _present(result, t), "combatants.csv", "no combatants recorded")
    t = t[t["variant"].isin(set(variants))]
    rows = _power_rows(t)
    if not rows:
        return None
    groups = dict(tuple(t.groupby("variant", sort=False)))
    styles = _styles(variants)
    nv = len(variants)
    fig = Figure(figsize=(8.0, 1.4 + 0.16 * len(rows) * nv + 0.2 * len(rows)))
    ax = fig.add_subplot()
    h = 0.8 / nv
    y = np.arange(len(rows))
    for k, v in enumerate(variants):
        df = groups[v]
        vals = []
        for _, name, col in rows:
            r = df[df["combatant"].astype(str) == name]
            vals.append(float(_per_fight(r, col)[0]) if len(r) else 0.0)
        ax.barh(y - 0.4 + h * (k + 0.5), vals, h, label=str(v), color=styles[v][0],
                hatch=None if styles[v][1] == "-" else "//")
    ax.set_yticks(y, [r[0] for r in rows], fontsize="small")
    ax.invert_yaxis()
    ax.set_xlabel("uses per fight she takes part in (mean)")
    ax.grid(axis="x", color="0.92")
    ax.set_axisbelow(True)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="x-small", frameon=False,
              ncol=1 if nv <= 20 else 2)
    caption = ("Which power pulls its weight: how often each combatant uses each power and special "
               "action per fight she takes part in (Duplication counts copies made); one bar per "
               "variant, in the legend's order. Powers no one uses in any variant are left out.")
    return _save(fig, path, caption=caption, variants=variants, omitted=omitted, title="Power use")


CHARTS = {
    "ko_death.png": ko_death,
    "thresholds.png": thresholds,
    "spending.png": spending,
    "power_use.png": power_use,
}

#: what the report page says and shows first for a d10 run (``report_page()``)
PAGE = {
    "headline": ("win_rate.png",),
    "key_columns": {
        "combatants": ["variant", "combatant", "side", "fights", "attacks", "hit_rate",
                       "wounds_dealt", "wounds_taken", "ko_rate", "death_rate", "mana_spent",
                       "fortune_spent"],
        "sides": ["variant", "side", "wounds_dealt", "wounds_taken", "knockouts", "deaths",
                  "permanent_wounds"],
    },
}
