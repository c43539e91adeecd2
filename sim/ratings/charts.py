"""Charts of a round robin: the matchup matrix and the ratings (matplotlib Figure +
Agg, no pyplot; user names are plain text, see :func:`plain`)."""
from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from .bt import MEAN_RATING


def plain(text) -> str:
    """A user's name as plain matplotlib text: every ``$`` escaped (no math text)."""
    return str(text).replace("$", r"\$")


def matchup_chart(table: pd.DataFrame, path: str | os.PathLike, order: Sequence[str] | None = None,
                  title: str | None = None) -> Path:
    """Heat map of the row entry's win rate against the column entry (PNG at ``path``).

    ``table``: :func:`matchup_table`; ``order``: entries top to bottom and
    left to right (default: by mean score, best first). Each cell shows the
    win rate and the half-width of its 95% Wilson interval; draws are the
    rest (``1 - p_ij - p_ji``). The diagonal (an entry against itself) is
    not played and left blank.
    """
    from matplotlib.figure import Figure
    from matplotlib.ticker import PercentFormatter

    from sim.report.charts import _save

    if order is None:
        order = list(table.groupby("entry", sort=False)["score"].mean().sort_values(
            ascending=False, kind="stable").index)
    order = [str(e) for e in order]
    k = len(order)
    idx = {e: i for i, e in enumerate(order)}
    m = np.full((k, k), np.nan)
    half = np.full((k, k), np.nan)
    for r in table.itertuples(index=False):
        if r.entry in idx and r.opponent in idx:
            m[idx[r.entry], idx[r.opponent]] = r.win_rate
            half[idx[r.entry], idx[r.opponent]] = (r.win_hi - r.win_lo) / 2.0
    side = 1.2 + 0.95 * k
    fig = Figure(figsize=(side + 1.4, side), layout="constrained")
    ax = fig.subplots()
    im = ax.imshow(m, cmap="RdBu", vmin=0, vmax=1, aspect="equal")
    for i in range(k):
        for j in range(k):
            if np.isnan(m[i, j]):
                ax.text(j, i, "–", ha="center", va="center", color="0.5")
                continue
            ax.text(j, i, f"{m[i, j]:.0%}\n±{half[i, j]:.1%}", ha="center", va="center",
                    fontsize="small", color="white" if abs(m[i, j] - 0.5) > 0.3 else "black")
    labels = [plain(e) for e in order]
    ax.set_xticks(range(k), labels, rotation=30 if max(map(len, labels)) > 8 else 0, ha="right"
                  if max(map(len, labels)) > 8 else "center")
    ax.set_yticks(range(k), labels)
    ax.set_xlabel("opponent (column)")
    ax.set_ylabel("entry (row)")
    games = int(table["games"].iloc[0]) if len(table) else 0
    ax.set_title(plain(title) if title else f"Row's win rate against column ({games:,} games per pair, "
                 "both seatings)", fontsize="small")
    cb = fig.colorbar(im, ax=ax, shrink=0.8)
    cb.ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    return _save(fig, Path(path), title="Matchup matrix",
                 caption="Row entry's win rate against the column entry over both seatings, with the "
                 "half-width of its 95% Wilson interval; draws are the rest.")


def rating_chart(ratings: pd.DataFrame, path: str | os.PathLike, title: str | None = None) -> Path:
    """Bradley-Terry ratings as points with their intervals, best at the top (PNG at ``path``).

    ``ratings``: :func:`rating_table`; the bars are its bootstrap interval
    (``lo``/``hi``), or the Fisher interval when there was no bootstrap.
    """
    from matplotlib.figure import Figure

    from sim.report.charts import _save

    r = ratings.sort_values("rating", ascending=True, kind="stable")
    lo = np.where(r["lo"].isna(), r["fisher_lo"], r["lo"])
    hi = np.where(r["hi"].isna(), r["fisher_hi"], r["hi"])
    k = len(r)
    fig = Figure(figsize=(6.4, 1.2 + 0.45 * k), layout="constrained")
    ax = fig.subplots()
    y = np.arange(k)
    x = r["rating"].to_numpy()
    ax.errorbar(x, y, xerr=[x - lo, hi - x], fmt="o", color="C0", ecolor="C0", capsize=4)
    for xi, yi, h in zip(x, y, hi):
        ax.annotate(f"{xi:.0f}", (h, yi), xytext=(6, 0), textcoords="offset points", va="center",
                    fontsize="small")
    ax.margins(x=0.12)
    ax.axvline(MEAN_RATING, color="0.6", lw=1, ls=":")
    ax.set_yticks(y, [plain(e) for e in r["entry"]])
    ax.set_xlabel("Bradley-Terry rating (Elo scale: mean 1500, +400 = 10:1 odds), 95% interval")
    ax.set_title(plain(title) if title else "Ratings from the round robin", fontsize="small")
    ax.grid(axis="x", alpha=0.3)
    return _save(fig, Path(path), title="Ratings",
                 caption="Bradley-Terry ratings (draws as half wins) on the Elo scale, with 95% "
                 "bootstrap intervals over the trials.")
