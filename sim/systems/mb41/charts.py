"""4.1 charts for the report (matplotlib Figure + Agg, no pyplot).

Each function takes a :class:`sim.results.RunResult` and a path, writes one
PNG and returns the path, or ``None`` when its table is missing or empty.
They read the tables of :mod:`.summarize` (``combatants``, ``talents``).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from sim.report.charts import _save, variant_order

STATS = ("heart", "fury", "judgment")
COLOURS = {"heart": "#d1495b", "fury": "#edae49", "judgment": "#00798c"}
MAX_PANELS = 8


def _table(result, name):
    t = (result.tables or {}).get(name)
    if t is None or t.empty:
        return None
    return t


def _panels(result, t):
    """(variant, rows) pairs in summary order, at most MAX_PANELS."""
    order = [v for v in variant_order(result, t) if v in set(t["variant"])]
    return [(v, t[t["variant"] == v]) for v in order[:MAX_PANELS]]


def overcharge(result, path: Path):
    """Overcharge gained per fight by each girl on each magical stat (L149), and
    burst rates, one panel per variant."""
    t = _table(result, "combatants")
    if t is None or not {f"oc_gain_{s}" for s in STATS} <= set(t.columns):
        return None
    t = t[t["kind"] == "girl"]
    if t.empty:
        return None
    panels = _panels(result, t)
    girls = max(len(df) for _, df in panels)
    fig = Figure(figsize=(1.5 + 1.2 * girls, 2.2 + 2.4 * len(panels)), layout="constrained")
    axes = fig.subplots(len(panels), 1, squeeze=False)[:, 0]
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
                        ax.annotate(f"{rate:.1%}" if rate >= 0.001 else "<0.1%", (b.get_x() + b.get_width() / 2, b.get_height()),
                                    ha="center", va="bottom", fontsize="x-small")
        ax.set_xticks(x, df["combatant"].astype(str))
        ax.set_ylabel("overcharge / fight")
        ax.set_title(f"{variant} (labels: bursts per fight)", fontsize="small")
    axes[0].legend(fontsize="small", ncol=3)
    return _save(fig, path)


def talent_use(result, path: Path):
    """Uses per fight of every talent slot (Boost included), per combatant and variant."""
    t = _table(result, "talents")
    if t is None:
        return None
    t = t.assign(label=t["combatant"].astype(str) + ": " + t["talent"].astype(str))
    labels = list(dict.fromkeys(t["label"]))
    variants = [v for v in variant_order(result, t) if v in set(t["variant"])][:MAX_PANELS]
    fig = Figure(figsize=(8.0, 1.4 + 0.28 * len(labels) * max(1, len(variants)) ** 0.5))
    ax = fig.add_subplot()
    h = 0.8 / max(1, len(variants))
    y = np.arange(len(labels))
    for k, v in enumerate(variants):
        df = t[t["variant"] == v].set_index("label").reindex(labels)
        ax.barh(y + k * h - 0.4 + h / 2, df["uses_per_fight"].fillna(0).to_numpy(), h, label=str(v))
    ax.set_yticks(y, labels, fontsize="small")
    ax.invert_yaxis()
    ax.set_xlabel("uses per fight")
    if len(variants) > 1:
        ax.legend(fontsize="x-small")
    return _save(fig, path)


def ko_death(result, path: Path):
    """KO and death rates per combatant (95% Wilson intervals), per variant."""
    t = _table(result, "combatants")
    if t is None or not {"ko_rate", "ko_lo", "ko_hi", "death_rate", "death_lo", "death_hi"} <= set(t.columns):
        return None
    panels = _panels(result, t)
    fig = Figure(figsize=(8.0, 1.4 + 0.35 * sum(len(df) for _, df in panels) + 0.3 * len(panels)),
                 layout="constrained")
    axes = fig.subplots(len(panels), 1, squeeze=False)[:, 0]
    for ax, (variant, df) in zip(axes, panels):
        y = np.arange(len(df))
        for off, (col, colour, label) in enumerate((("ko", "#2a7ab0", "KO"), ("death", "#8b0000", "death"))):
            x = df[f"{col}_rate"].to_numpy()
            err = np.vstack([x - df[f"{col}_lo"].to_numpy(), df[f"{col}_hi"].to_numpy() - x])
            ax.errorbar(x, y + 0.15 * (off * 2 - 1), xerr=err, fmt="o", color=colour, capsize=2, label=label)
        ax.set_yticks(y, df["combatant"].astype(str), fontsize="small")
        ax.invert_yaxis()
        ax.set_xlim(0, 1)
        ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        ax.set_title(str(variant), fontsize="small")
    axes[0].legend(fontsize="x-small", loc="lower right")
    return _save(fig, path)


def episode_progress(result, path: Path):
    """Episodes: how far the party got (the share of episodes that ended in each
    scene, and that won the last one, 95% Wilson intervals), one group per variant."""
    t = _table(result, "episode_progress")
    if t is None:
        return None
    variants = [v for v in variant_order(result, t) if v in set(t["variant"])][:MAX_PANELS]
    stages = list(dict.fromkeys(t.sort_values("stage")["stage_name"]))
    fig = Figure(figsize=(8.0, 1.6 + 0.45 * len(stages) * max(1, len(variants)) ** 0.5), layout="constrained")
    ax = fig.add_subplot()
    h = 0.8 / max(1, len(variants))
    y = np.arange(len(stages))
    for k, v in enumerate(variants):
        df = t[t["variant"] == v].set_index("stage_name").reindex(stages)
        x = df["rate"].fillna(0).to_numpy()
        err = np.vstack([x - df["lo"].fillna(0).to_numpy(), df["hi"].fillna(0).to_numpy() - x])
        ax.barh(y + k * h - 0.4 + h / 2, x, h, xerr=err, capsize=2, label=str(v))
    ax.set_yticks(y, stages, fontsize="small")
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_xlabel("share of episodes")
    ax.set_title("episode: where it ended", fontsize="small")
    if len(variants) > 1:
        ax.legend(fontsize="x-small")
    return _save(fig, path)


CHARTS = {
    "episode_progress.png": episode_progress,
    "overcharge.png": overcharge,
    "talent_use.png": talent_use,
    "ko_death.png": ko_death,
}
