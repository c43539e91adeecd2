"""4.1 charts for the report (matplotlib Figure + Agg, no pyplot).

Each function takes a :class:`sim.results.RunResult` and a path, writes one
PNG and returns the path, or ``None`` when its table is missing or empty.
They read the tables of :mod:`.summarize` (``combatants``, ``talents``).
Every chart drawn per variant draws every variant of the run (panels lay out
in a grid), and records which it drew in the PNG (``sim.report.charts._save``).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from sim.report.charts import _save, _styles, cap_drawn, variant_order

STATS = ("heart", "fury", "judgment")
COLOURS = {"heart": "#d1495b", "fury": "#edae49", "judgment": "#00798c"}


def _table(result, name):
    t = (result.tables or {}).get(name)
    if t is None or t.empty:
        return None
    return t


def _present(result, t) -> list:
    """The variants with rows in ``t``, in summary order."""
    have = set(t["variant"])
    return [v for v in variant_order(result, t) if v in have]


def _panels(result, t, table: str, why: str):
    """``(panels, omitted)``: (variant, rows) pairs for the first
    :data:`~sim.report.charts.MAX_DRAWN` variants with rows (a page of panels in a
    grid, :func:`_grid`), and the others with why they are not drawn
    (:func:`sim.report.charts.cap_drawn`). The rows are split once (linear in variants)."""
    drawn, omitted = cap_drawn(result, _present(result, t), table, why)
    groups = dict(tuple(t[t["variant"].isin(set(drawn))].groupby("variant", sort=False)))
    return [(v, groups[v]) for v in drawn], omitted


def _grid(n: int, wide: bool) -> tuple:
    """(rows, columns) of panels: one column up to 3 panels (or wide panels)."""
    ncols = 1 if n <= 3 or wide else (2 if n <= 8 else 3)
    return -(-n // ncols), ncols


def _legend_above(fig, axes, ncol: int) -> None:
    """One legend for the figure, above the panels (never over the data)."""
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside upper center", ncol=ncol, fontsize="small",
               frameon=False)


def overcharge(result, path: Path):
    """Overcharge gained per fight by each girl on each magical stat (L149), and
    burst rates, one panel per variant."""
    t = _table(result, "combatants")
    if t is None or not {f"oc_gain_{s}" for s in STATS} <= set(t.columns):
        return None
    t = t[t["kind"] == "girl"]
    if t.empty:
        return None
    panels, omitted = _panels(result, t, "combatants.csv", "no girls in this variant")
    girls = max(len(df) for _, df in panels)
    nrows, ncols = _grid(len(panels), wide=girls > 4)
    fig = Figure(figsize=(min(16.0, (1.5 + 1.2 * girls) * ncols + 0.5), 1.0 + 2.4 * nrows),
                 layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False, sharey=True).ravel()
    w = 0.8 / len(STATS)
    for ax, (variant, df) in zip(axes, panels):
        x = np.arange(len(df))
        for k, s in enumerate(STATS):
            vals = df[f"oc_gain_{s}"].to_numpy()
            bars = ax.bar(x + (k - 1) * w, vals, w, color=COLOURS[s], label=s)
            bursts = df.get(f"bursts_{s}")
            if bursts is not None:
                for b, rate in zip(bars, bursts.to_numpy()):
                    if rate > 0:
                        ax.annotate(f"{rate:.1%}" if rate >= 0.001 else "<0.1%",
                                    (b.get_x() + b.get_width() / 2, b.get_height()),
                                    ha="center", va="bottom", fontsize="x-small")
        ax.set_xticks(x, df["combatant"].astype(str), fontsize="small")
        ax.set_title(str(variant), fontsize="small")
        ax.margins(y=0.15)
    for ax in axes[len(panels):]:
        ax.set_visible(False)
    for ax in axes[::ncols]:
        ax.set_ylabel("overcharge / fight")
    _legend_above(fig, axes, 3)
    caption = ("Overcharge each girl gains per fight on each magical stat (heart, fury, "
               "judgment), one panel per variant; the labels over the bars are bursts per fight.")
    return _save(fig, path, caption=caption, variants=[v for v, _ in panels], omitted=omitted,
                 title="Overcharge and bursts")


def talent_use(result, path: Path):
    """Uses per fight of every talent slot (Boost included), per combatant and variant."""
    t = _table(result, "talents")
    if t is None:
        return None
    variants, omitted = cap_drawn(result, _present(result, t), "talents.csv", "no talent uses recorded")
    t = t[t["variant"].isin(set(variants))]
    t = t.assign(label=t["combatant"].astype(str) + ": " + t["talent"].astype(str))
    labels = list(dict.fromkeys(t["label"]))
    groups = dict(tuple(t.groupby("variant", sort=False)))
    styles = _styles(variants)
    nv = max(1, len(variants))
    fig = Figure(figsize=(8.0, 1.4 + 0.16 * len(labels) * nv + 0.2 * len(labels)))
    ax = fig.add_subplot()
    h = 0.8 / nv
    y = np.arange(len(labels))
    for k, v in enumerate(variants):
        df = groups[v].drop_duplicates("label").set_index("label").reindex(labels)
        ax.barh(y + k * h - 0.4 + h / 2, df["uses_per_fight"].fillna(0).to_numpy(), h,
                label=str(v), color=styles[v][0])
    ax.set_yticks(y, labels, fontsize="small")
    ax.invert_yaxis()
    ax.set_xlabel("uses per fight")
    ax.grid(axis="x", color="0.92")
    ax.set_axisbelow(True)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="x-small", frameon=False,
              ncol=1 if nv <= 20 else 2)
    caption = ("How often each talent slot is used per fight (Boost included), per combatant; "
               "one bar per variant, in the legend's order.")
    return _save(fig, path, caption=caption, variants=variants, omitted=omitted, title="Talent use")


def ko_death(result, path: Path):
    """KO and death rates per combatant (95% Wilson intervals), per variant."""
    t = _table(result, "combatants")
    if t is None or not {"ko_rate", "ko_lo", "ko_hi", "death_rate", "death_lo", "death_hi"} <= set(t.columns):
        return None
    panels, omitted = _panels(result, t, "combatants.csv", "no combatants recorded")
    per = max(len(df) for _, df in panels)
    nrows, ncols = _grid(len(panels), wide=False)
    fig = Figure(figsize=(8.0 if ncols == 1 else 5.0 * ncols, 0.8 + (0.9 + 0.3 * per) * nrows),
                 layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False, sharex=True).ravel()
    for ax, (variant, df) in zip(axes, panels):
        y = np.arange(len(df))
        for off, (col, colour, label) in enumerate((("ko", "#2a7ab0", "KO"), ("death", "#8b0000", "death"))):
            x = df[f"{col}_rate"].to_numpy()
            err = np.vstack([x - df[f"{col}_lo"].to_numpy(), df[f"{col}_hi"].to_numpy() - x])
            ax.errorbar(x, y + 0.15 * (off * 2 - 1), xerr=err, fmt="o", color=colour, capsize=2, label=label)
        ax.set_yticks(y, df["combatant"].astype(str), fontsize="small")
        ax.set_ylim(len(df) - 0.5, -0.5)
        ax.set_xlim(0, 1)
        ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        ax.grid(axis="x", color="0.92")
        ax.set_title(str(variant), fontsize="small")
    for ax in axes[len(panels):]:
        ax.set_visible(False)
    _legend_above(fig, axes, 2)
    caption = ("Share of fights in which each combatant was knocked out (KO) or died, "
               "with 95% Wilson intervals; one panel per variant.")
    return _save(fig, path, caption=caption, variants=[v for v, _ in panels], omitted=omitted,
                 title="KO and death rates")


def episode_progress(result, path: Path):
    """Episodes: how far the party got (the share of episodes that ended in each
    scene, and that won the last one, 95% Wilson intervals), one group per variant."""
    t = _table(result, "episode_progress")
    if t is None:
        return None
    variants, omitted = cap_drawn(result, _present(result, t), "episode_progress.csv", "no episode recorded")
    groups = dict(tuple(t[t["variant"].isin(set(variants))].groupby("variant", sort=False)))
    styles = _styles(variants)
    stages = list(dict.fromkeys(t.sort_values("stage")["stage_name"]))
    nv = max(1, len(variants))
    fig = Figure(figsize=(8.0, 1.6 + 0.2 * len(stages) * nv + 0.25 * len(stages)), layout="constrained")
    ax = fig.add_subplot()
    h = 0.8 / nv
    y = np.arange(len(stages))
    for k, v in enumerate(variants):
        df = groups[v].set_index("stage_name").reindex(stages)
        x = df["rate"].fillna(0).to_numpy()
        err = np.vstack([x - df["lo"].fillna(0).to_numpy(), df["hi"].fillna(0).to_numpy() - x])
        ax.barh(y + k * h - 0.4 + h / 2, x, h, xerr=err, capsize=2, label=str(v), color=styles[v][0])
    ax.set_yticks(y, stages, fontsize="small")
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_xlabel("share of episodes")
    ax.grid(axis="x", color="0.92")
    ax.set_axisbelow(True)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="x-small", frameon=False)
    caption = ("How far the party got: the share of episodes that ended in each scene, and that "
               "won the last one, with 95% Wilson intervals; one bar per variant.")
    return _save(fig, path, caption=caption, variants=variants, omitted=omitted,
                 title="How far the party got")


CHARTS = {
    "episode_progress.png": episode_progress,
    "overcharge.png": overcharge,
    "talent_use.png": talent_use,
    "ko_death.png": ko_death,
}

#: what the report page says and shows first for a 4.1 run (``report_page()``)
PAGE = {
    "headline": ("episode_progress.png", "win_rate.png"),
    "key_columns": {
        "combatants": ["variant", "combatant", "side", "kind", "attacks", "hit_rate",
                       "damage_dealt", "damage_taken", "ko_rate", "death_rate", "boosts"],
        "flair_tiers": ["variant", "combatant", "stat", "tier_name", "rate"],
        "sides": ["variant", "side", "members", "damage_dealt", "damage_taken", "knockouts", "deaths"],
    },
}
