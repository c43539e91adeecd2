"""PNG charts of a run, drawn with matplotlib's Agg canvas.

No pyplot: each chart is a :class:`matplotlib.figure.Figure` attached to a
:class:`~matplotlib.backends.backend_agg.FigureCanvasAgg`, so nothing touches
the global backend or pyplot's figure registry (safe in notebooks, threads
and servers). Each function writes one PNG and returns its path, or returns
``None`` when the table it draws is empty.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib import colormaps
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from ..results import RunResult
from ..stats import mean_and_se_from_hist

__all__ = [
    "win_rate_chart",
    "fight_length_chart",
    "survival_chart",
    "round_cap",
    "variant_order",
    "CHARTS",
]

DPI = 110
_LINESTYLES = ["-", "--", ":", "-."]
_OUTCOMES = [  # (column prefix, label, colour, vertical offset)
    ("win", "win", "#2a7ab0", -0.22),
    ("loss", "loss", "#c0392b", 0.0),
    ("draw", "draw", "#7f8c8d", 0.22),
]


def variant_order(result: RunResult, *frames: pd.DataFrame) -> list:
    """Variants in summary order, then any others in order of appearance."""
    seen: dict = {}
    for frame in (result.summary, *frames):
        if frame is not None and "variant" in frame.columns:
            for v in frame["variant"].tolist():
                seen.setdefault(v, None)
    return list(seen)


def _styles(variants: list) -> dict:
    """variant -> (colour, linestyle), distinct for up to ~40 variants."""
    n = len(variants)
    if n <= 10:
        cmap, k = colormaps["tab10"], 10
    else:
        cmap, k = colormaps["tab20"], 20
    return {
        v: (cmap(i % k), _LINESTYLES[(i // k) % len(_LINESTYLES)])
        for i, v in enumerate(variants)
    }


def _legend(ax, n: int) -> None:
    ax.legend(
        loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small",
        ncol=1 if n <= 16 else 2, frameon=False,
    )


def _save(fig: Figure, path: Path) -> Path:
    FigureCanvasAgg(fig)
    fig.savefig(path, format="png", dpi=DPI, bbox_inches="tight")
    return path


def _find_key(obj, keys, depth=0):
    if depth > 4:
        return None
    if isinstance(obj, dict):
        for k in keys:
            v = obj.get(k)
            if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
                return int(v)
        for v in obj.values():
            found = _find_key(v, keys, depth + 1)
            if found is not None:
                return found
    return None


def round_cap(result: RunResult):
    """The round cap (fights still running then end as draws), or ``None``.

    Looked up in the provenance (``round_cap``, ``max_rounds``, ``rounds_cap``,
    at any nesting level, e.g. under per-variant rule options). If absent but
    some variant has draws, the largest ``rounds`` value in ``result.rounds``
    is taken to be the cap.
    """
    cap = _find_key(result.provenance or {}, ("round_cap", "max_rounds", "rounds_cap"))
    if cap is not None:
        return cap
    s, r = result.summary, result.rounds
    if (
        s is not None and "draws" in s.columns and len(s) and (s["draws"].fillna(0) > 0).any()
        and r is not None and len(r)
    ):
        return int(r["rounds"].max())
    return None


def win_rate_chart(result: RunResult, path: Path):
    """Win, loss and draw rate of the first side per variant, with 95% Wilson bars."""
    s = result.summary
    if s is None or s.empty:
        return None
    variants = s["variant"].astype(str).tolist()
    n = len(variants)
    fig = Figure(figsize=(8.0, 1.2 + 0.42 * n))
    ax = fig.add_subplot()
    y = np.arange(n, dtype=float)
    for key, label, colour, dy in _OUTCOMES:
        rate = s[f"{key}_rate"].to_numpy(float)
        lo = s[f"{key}_lo"].to_numpy(float)
        hi = s[f"{key}_hi"].to_numpy(float)
        err = np.vstack([np.clip(rate - lo, 0, None), np.clip(hi - rate, 0, None)])
        ax.errorbar(
            rate, y + dy, xerr=err, fmt="o", color=colour, ecolor=colour,
            markersize=4, capsize=2.5, elinewidth=1.2, label=label,
        )
    ax.axvline(0.5, color="0.6", linestyle=":", linewidth=1)
    ax.set_yticks(y)
    ax.set_yticklabels(variants, fontsize="small" if n > 12 else "medium")
    ax.set_ylim(n - 0.5, -0.5)  # first variant on top
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.grid(axis="x", color="0.9")
    ax.set_axisbelow(True)
    side = result.side_names[0] if result.side_names else "the first side"
    ax.set_title(f"win rate of {side}")
    ax.set_xlabel("share of trials (bars: 95% Wilson interval)")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    return _save(fig, path)


def _fill_integer_rounds(d: pd.DataFrame) -> pd.DataFrame:
    """Add zero-count rows for missing integer round values, so a step line
    does not bridge a gap (e.g. between the last ordinary round and the cap)."""
    r = d["rounds"].to_numpy()
    if len(r) == 0 or not np.all(np.mod(r, 1) == 0) or r.max() - r.min() > 10_000:
        return d
    full = np.arange(int(r.min()), int(r.max()) + 1)
    return (d.set_index("rounds")["count"].reindex(full, fill_value=0)
            .rename_axis("rounds").reset_index())


def fight_length_chart(result: RunResult, path: Path):
    """Distribution of fight length in rounds, one step line per variant."""
    r = result.rounds
    if r is None or r.empty or r["count"].sum() <= 0:
        return None
    variants = variant_order(result, r)
    variants = [v for v in variants if v in set(r["variant"])]
    styles = _styles(variants)
    fig = Figure(figsize=(9.0, 4.5))
    ax = fig.add_subplot()
    for v in variants:
        d = r[r["variant"] == v].groupby("rounds", as_index=False)["count"].sum()
        d = d.sort_values("rounds")
        total = d["count"].sum()
        if total <= 0:
            continue
        d = _fill_integer_rounds(d)
        mean, _ = mean_and_se_from_hist(d["rounds"], d["count"])
        colour, ls = styles[v]
        x = d["rounds"].to_numpy(float)
        share = d["count"].to_numpy(float) / total
        style = dict(color=colour, linestyle=ls, linewidth=1.4, label=f"{v} (mean {mean:.2f})")
        if len(x) > 1 and np.all(np.diff(x) == 1):  # whole-round bins: a true histogram
            ax.stairs(share, np.append(x - 0.5, x[-1] + 0.5), **style)
        else:
            ax.step(x, share, where="mid", **style)
    cap = round_cap(result)
    if cap is not None:
        ax.axvline(cap, color="0.4", linestyle=":", linewidth=1)
        ax.annotate(
            f"round cap {cap}\n(includes draws)", xy=(cap, 1.0),
            xycoords=("data", "axes fraction"), xytext=(-4, -4),
            textcoords="offset points", ha="right", va="top", fontsize="small",
            color="0.3",
        )
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_ylim(bottom=0)
    ax.set_xlabel("fight length (rounds)")
    ax.set_ylabel("share of trials")
    ax.set_title("fight length")
    ax.grid(color="0.92")
    ax.set_axisbelow(True)
    _legend(ax, len(variants))
    return _save(fig, path)


def survival_chart(result: RunResult, path: Path):
    """Per-round curves: one panel per metric, one line per variant."""
    c = result.curves
    if c is None or c.empty:
        return None
    metrics = list(dict.fromkeys(c["metric"].tolist()))
    variants = [v for v in variant_order(result, c) if v in set(c["variant"])]
    styles = _styles(variants)
    ncols = 1 if len(metrics) <= 2 else 2
    nrows = -(-len(metrics) // ncols)
    fig = Figure(figsize=(7.5 * ncols, 3.2 * nrows + 0.4))
    axes = fig.subplots(nrows, ncols, squeeze=False, sharex=True)
    for i, metric in enumerate(metrics):
        ax = axes[i // ncols][i % ncols]
        m = c[c["metric"] == metric]
        for v in variants:
            d = m[m["variant"] == v].sort_values("round")
            if d.empty:
                continue
            colour, ls = styles[v]
            ax.plot(d["round"], d["value"], color=colour, linestyle=ls, linewidth=1.4,
                    label=str(v))
        ax.set_title(str(metric))
        ax.set_ylim(-0.02, 1.02)
        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        ax.grid(color="0.92")
        ax.set_axisbelow(True)
    for j in range(len(metrics), nrows * ncols):
        axes[j // ncols][j % ncols].set_visible(False)
    for col in range(ncols):
        axes[-1][col].set_xlabel("round")
    legend: dict = {}
    for ax in axes.ravel():
        for h, lab in zip(*ax.get_legend_handles_labels()):
            legend.setdefault(lab, h)
    handles, labels = list(legend.values()), list(legend)
    fig.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.0, 0.98),
               fontsize="small", ncol=1 if len(variants) <= 16 else 2, frameon=False)
    fig.tight_layout()
    return _save(fig, path)


#: file name -> chart function, in report order
CHARTS = {
    "win_rate.png": "win_rate_chart",
    "fight_length.png": "fight_length_chart",
    "survival.png": "survival_chart",
}
