"""PNG charts of studies (matplotlib Agg, no pyplot; saved with the report's
caption metadata by :func:`sim.report.charts._save`).

* :func:`forest_chart`: paired differences with their intervals, one row each;
* :func:`tier_chart`: the tier list, candidates grouped by statistical tier;
* :func:`curve_chart`: win rate against a parameter, with intervals, the
  fitted monotone curve and the target lines.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, PercentFormatter

from sim.report.charts import _save

_TIER_COLOURS = ["#2a7ab0", "#27ae60", "#e0a800", "#c0392b", "#8e44ad", "#7f8c8d"]


def points_axis(axis) -> None:
    """Tick labels in points of win rate (a difference of 0.05 is ``+5``), as the readings say."""
    axis.set_major_formatter(FuncFormatter(lambda v, _: f"{100 * v:+.0f}" if abs(v) > 1e-12 else "0"))


def points_label(text: str) -> str:
    """``text, in points`` unless it says so already."""
    return text if "point" in text else f"{text} (points)"


def forest_chart(df: pd.DataFrame, path: Path, *, label: str, xlabel: str, caption: str,
                 percent: bool = True) -> Path | None:
    """One row per ``df`` row: ``diff`` with ``[lo, hi]``, labelled by ``df[label]``."""
    if df is None or df.empty:
        return None
    n = len(df)
    fig = Figure(figsize=(7.5, 1.2 + 0.38 * n))
    ax = fig.add_subplot()
    y = np.arange(n)[::-1]
    ax.errorbar(df["diff"], y, xerr=[df["diff"] - df["lo"], df["hi"] - df["diff"]], fmt="o",
                color="#2a7ab0", ecolor="#2a7ab0", capsize=3)
    ax.axvline(0, color="#888", lw=1, ls="--")
    ax.set_yticks(y, [str(v) for v in df[label]])
    ax.set_xlabel(points_label(xlabel) if percent else xlabel)
    if percent:  # a difference of rates: points
        points_axis(ax.xaxis)
    ax.grid(axis="x", alpha=0.3)
    return _save(fig, path, caption=caption, variants=list(df[label]), title="Paired differences")


def tier_chart(df: pd.DataFrame, path: Path, *, caption: str) -> Path | None:
    """Bars of ``diff`` with ``[lo, hi]`` per ``name``, coloured and labelled by ``tier``."""
    if df is None or df.empty:
        return None
    n = len(df)
    fig = Figure(figsize=(7.5, 1.3 + 0.4 * n))
    ax = fig.add_subplot()
    y = np.arange(n)[::-1]
    colours = [_TIER_COLOURS[(int(t) - 1) % len(_TIER_COLOURS)] for t in df["tier"]]
    ax.barh(y, df["diff"], color=colours, alpha=0.75)
    ax.errorbar(df["diff"], y, xerr=[df["diff"] - df["lo"], df["hi"] - df["diff"]], fmt="none",
                ecolor="#333", capsize=3)
    ax.axvline(0, color="#888", lw=1)
    ax.set_yticks(y, [f"tier {int(t)}  {name}" for t, name in zip(df["tier"], df["name"])])
    for t in sorted(set(df["tier"]))[1:]:  # a line between tiers
        first = int(np.flatnonzero(df["tier"].to_numpy() == t)[0])
        ax.axhline(y[first] + 0.5, color="#444", lw=0.8, ls=":")
    points_axis(ax.xaxis)
    ax.set_xlabel("change in win rate against the base, points (simultaneous Bonferroni intervals)")
    ax.grid(axis="x", alpha=0.3)
    return _save(fig, path, caption=caption, variants=list(df["name"]), title="Tier list")


def curve_chart(points: pd.DataFrame, path: Path, *, xlabel: str, caption: str,
                fitted: pd.DataFrame | None = None, targets=(), found=(),
                ylabel: str = "win rate of the first side") -> Path | None:
    """``points``: ``value, rate, lo, hi``; ``fitted``: ``value, rate`` (the monotone fit);
    ``targets``: horizontal lines; ``found``: ``(value, lo, hi)`` vertical marks."""
    if points is None or points.empty:
        return None
    fig = Figure(figsize=(7.5, 4.2))
    ax = fig.add_subplot()
    ax.errorbar(points["value"], points["rate"],
                yerr=[points["rate"] - points["lo"], points["hi"] - points["rate"]],
                fmt="o", color="#2a7ab0", capsize=3, label="measured (95% Wilson)")
    if fitted is not None and not fitted.empty:
        ax.plot(fitted["value"], fitted["rate"], color="#2a7ab0", lw=1, alpha=0.7, label="monotone fit")
    for t in targets:
        ax.axhline(t, color="#c0392b", lw=1, ls="--")
    for value, lo, hi in found:
        if value == value:
            ax.axvline(value, color="#27ae60", lw=1.2)
            if lo == lo and hi == hi:
                ax.axvspan(lo, hi, color="#27ae60", alpha=0.12)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.grid(alpha=0.3)
    ax.legend(frameon=False, fontsize=8)
    return _save(fig, path, caption=caption, title=xlabel)
