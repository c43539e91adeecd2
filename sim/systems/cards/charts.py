"""Card-game charts for the report (matplotlib Figure + Agg, no pyplot).

Each function takes a :class:`sim.results.RunResult` and a path, writes one
PNG and returns the path, or ``None`` when its table is missing or empty.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from sim.report.charts import _save, _styles, cap_drawn, length_limit, variant_order


def _table(result, name):
    t = (result.tables or {}).get(name)
    if t is None or t.empty:
        return None
    return t


def matchup_matrix(result, path: Path):
    """Heatmap of side A's win rate per deck pair (one panel per policy pair), with 95% intervals."""
    t = _table(result, "matchups")
    if t is None:
        return None
    groups = list(t.groupby(["policy_a", "policy_b"], sort=False))
    decks_a = list(dict.fromkeys(t["deck_a"]))
    decks_b = list(dict.fromkeys(t["deck_b"]))
    n = len(groups)
    ncols = min(n, 2)
    nrows = -(-n // ncols)
    fig = Figure(figsize=(1.8 + max(2.2, 1.5 * len(decks_b)) * ncols,
                          0.8 + (1.0 + 0.8 * len(decks_a)) * nrows), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False).ravel()
    im = None
    for ax, ((pa, pb), df) in zip(axes, groups):
        m = np.full((len(decks_a), len(decks_b)), np.nan)
        text = {}
        for r in df.to_dict(orient="records"):
            i, j = decks_a.index(r["deck_a"]), decks_b.index(r["deck_b"])
            m[i, j] = r["win_a"]
            text[i, j] = f"{r['win_a']:.0%}\n[{r['win_a_lo']:.0%}–{r['win_a_hi']:.0%}]"
        im = ax.imshow(m, cmap="RdBu", vmin=0, vmax=1, aspect="auto")
        for (i, j), s in text.items():
            ax.text(j, i, s, ha="center", va="center", fontsize="small",
                    color="white" if abs(m[i, j] - 0.5) > 0.3 else "black")
        ax.set_xticks(range(len(decks_b)), decks_b)
        ax.set_yticks(range(len(decks_a)), decks_a)
        ax.set_xlabel("deck B")
        ax.set_ylabel("deck A")
        ax.set_title(f"A plays {pa}\nB plays {pb}", fontsize="small")
    for ax in axes[n:]:
        ax.set_visible(False)
    if im is not None:
        cb = fig.colorbar(im, ax=list(axes[:n]), shrink=0.8)
        cb.ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        cb.set_label("side A win rate")
    drawn = [v for v in variant_order(result, t) if v in set(t["variant"])]
    caption = ("Side A's win rate for each pair of decks (A's deck down, B's across) with its "
               "95% interval; blue favours A, red favours B"
               + (", one panel per pair of players." if n > 1 else "."))
    return _save(fig, path, caption=caption, variants=drawn, title="Matchup matrix",
                 omitted={v: "no matchup row" for v in variant_order(result) if v not in set(drawn)})


def first_player(result, path: Path):
    """Win rate of whoever went first, per matchup, with 95% Wilson intervals."""
    t = _table(result, "matchups")
    if t is None:
        return None
    every = variant_order(result, t)
    t = t.dropna(subset=["first_player_win"])
    if t.empty:
        return None
    have = set(t["variant"])
    order, omitted = cap_drawn(result, [v for v in every if v in have], "matchups.csv", "no decisive game to count")
    t = t.set_index("variant").loc[order].reset_index()
    n = len(t)
    fig = Figure(figsize=(8.0, 1.2 + 0.4 * n))
    ax = fig.add_subplot()
    y = np.arange(n)
    x = t["first_player_win"].to_numpy()
    err = np.vstack([x - t["first_player_lo"].to_numpy(), t["first_player_hi"].to_numpy() - x])
    ax.errorbar(x, y, xerr=err, fmt="o", color="#2a7ab0", capsize=3)
    ax.axvline(0.5, color="0.5", linestyle="--", linewidth=1)
    ax.set_yticks(y, t["variant"].astype(str))
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_xlabel("games won by the first player (draws excluded)")
    ax.set_title("First-player advantage per matchup")
    ax.grid(axis="x", color="0.92")
    fig.tight_layout()
    caption = ("Share of decisive games won by whoever played first, per matchup, with 95% "
               "Wilson intervals; the dashed line is no advantage (50%).")
    return _save(fig, path, caption=caption, variants=order, omitted=omitted,
                 title="First-player advantage")


def _impact_rows(t, per_variant):
    """The card rows to draw: per variant, the ``per_variant`` compared cards
    whose interval lies furthest from zero (its bound nearer zero, 0 when the
    interval straddles it; ties by |difference|), grouped by variant."""
    ok = t[t["status"] == "compared"].dropna(subset=["played_minus_not_played"])
    picked = []
    for v, d in ok.groupby("variant", sort=False):
        sure = np.maximum(0.0, np.maximum(d["played_minus_not_played_lo"], -d["played_minus_not_played_hi"]))
        d = d.assign(_sure=sure, _abs=d["played_minus_not_played"].abs())
        d = d.sort_values(["_sure", "_abs"], ascending=False).drop(columns=["_sure", "_abs"])
        picked.append(d.head(per_variant).sort_values("played_minus_not_played"))
    return pd.concat(picked) if picked else ok


def card_impact(result, path: Path, top: int = 40):
    """Per card, per deck and side, per variant (never pooled): win rate in games
    where the card was played minus where it was not, in percentage points, with
    its 95% interval. Cards the policy never played are listed, not drawn."""
    t = _table(result, "card_stats")
    if t is None or "status" not in t.columns:
        return None
    every = variant_order(result, t)
    have = set(t["variant"])
    order, capped = cap_drawn(result, [v for v in every if v in have], "card_stats.csv", "")
    per_variant = max(3, top // max(len(order), 1))
    rows = _impact_rows(t.set_index("variant").loc[order].reset_index(), per_variant)
    if rows.empty:
        return None
    drawn = [v for v in order if v in set(rows["variant"])]
    rows = pd.concat([rows[rows["variant"] == v] for v in drawn])
    y = np.arange(len(rows))
    x = rows["played_minus_not_played"].to_numpy() * 100
    err = np.vstack([x - rows["played_minus_not_played_lo"].to_numpy() * 100,
                     rows["played_minus_not_played_hi"].to_numpy() * 100 - x])
    decks = list(dict.fromkeys(rows["deck"]))
    palette = ["#2a7ab0", "#c0392b", "#27ae60", "#8e44ad", "#d35400", "#7f8c8d"]
    colours = [palette[decks.index(d) % len(palette)] for d in rows["deck"]]
    fig = Figure(figsize=(9.0, 1.2 + 0.28 * len(rows)))
    ax = fig.add_subplot()
    ax.barh(y, x, color=colours, alpha=0.55)
    ax.errorbar(x, y, xerr=err, fmt="none", ecolor="0.2", capsize=2, linewidth=0.8)
    ax.set_yticks(y, [f"{r['card']} — {r['deck']}, side {r['side']} · {r['variant']}"
                      for r in rows.to_dict(orient="records")], fontsize="x-small")
    ax.invert_yaxis()
    ax.axvline(0, color="0.3", linewidth=0.8)
    ax.set_xlabel("win rate when played − when not played (percentage points, 95% interval)")
    ax.set_title("Per-card impact per variant (observational; invented cards)")
    ax.grid(axis="x", color="0.92")
    fig.tight_layout()
    unplayed = t[t["status"] == "not played by this policy"]
    names = sorted(set(unplayed["card"]))
    caption = (f"Per card, side and variant (not pooled): the side's win rate in games where it "
               f"played the card minus in games where it did not, in percentage points, with "
               f"Newcombe's 95% interval; up to {per_variant} cards per variant, those whose "
               f"interval lies furthest from zero, coloured by deck. Observational: a card gets played when the "
               f"game allows it, so this is association, not the effect of adding the card.")
    if names:
        caption += (f" {len(names)} cards are never played by their policy in some variant and get "
                    f"no impact ('not played by this policy' in card_stats): "
                    f"{', '.join(names[:12])}{', …' if len(names) > 12 else ''}.")
    return _save(fig, path, caption=caption, variants=drawn, title="Card impact",
                 omitted={v: capped.get(v) or "no card both played and not played" for v in every
                          if v not in set(drawn)})


def game_length(result, path: Path):
    """Distribution of game length in turns, one line per variant."""
    r = result.rounds
    if r is None or r.empty:
        return None
    every = variant_order(result, r)
    have = set(r["variant"])
    order, omitted = cap_drawn(result, [v for v in every if v in have], "rounds.csv", "no games recorded")
    groups = dict(tuple(r[r["variant"].isin(set(order))].groupby("variant", sort=False)))
    fig = Figure(figsize=(8.0, 3.6))
    ax = fig.add_subplot()
    drawn = []
    styles = _styles(order)
    for v in order:
        d = groups[v].sort_values("rounds")
        tot = d["count"].sum()
        if tot == 0:
            omitted[v] = "no games recorded"
            continue
        colour, ls = styles[v]
        ax.step(d["rounds"], d["count"] / tot, where="mid", label=str(v), linewidth=1.2,
                color=colour, linestyle=ls)
        drawn.append(v)
    limit, beyond = length_limit(r["rounds"], r["count"])
    tmax = limit if limit is not None else 1
    ax.set_xlim(0.5, tmax + 0.5)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_xlabel("turns (each player's turn counts one); axis cut at the 99.5th percentile")
    ax.set_ylabel("share of games")
    ax.set_title("Game length")
    ax.grid(color="0.92")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small", frameon=False,
              ncol=1 if len(drawn) <= 16 else 2)
    fig.tight_layout()
    caption = (f"How long games last: the share of games that ended after each number of turns "
               f"(each player's turn counts one), one line per variant. The axis ends at turn "
               f"{tmax:g}, the 99.5th percentile over all variants"
               + (f"; {100 * beyond:.2f}% of games ran longer." if beyond > 0 else "."))
    return _save(fig, path, caption=caption, variants=drawn, omitted=omitted, title="Game length")


def what_if(result, path: Path):
    """A card's "what if" (``what_if:``): per variant and edited side, the win rate
    with the edits minus as written, with Newcombe's paired 95% interval."""
    t = _table(result, "what_if")
    if t is None:
        return None
    t = t[t["edits"].fillna("").astype(str) != ""].dropna(subset=["difference"])
    if t.empty:
        return None
    every = variant_order(result, t)
    order = [v for v in every if v in set(t["variant"])]
    t = pd.concat([t[t["variant"] == v] for v in order], ignore_index=True)
    n = len(t)
    fig = Figure(figsize=(8.0, 1.3 + 0.5 * n))
    ax = fig.add_subplot()
    y = np.arange(n)
    x = t["difference"].to_numpy(dtype=float)
    err = np.vstack([x - t["difference_lo"].to_numpy(dtype=float), t["difference_hi"].to_numpy(dtype=float) - x])
    ax.errorbar(x, y, xerr=err, fmt="o", color="#2a7ab0", capsize=3)
    ax.axvline(0.0, color="0.5", linestyle="--", linewidth=1)
    labels = [f"{r['variant']}: {r['side']} ({r['deck']})\n{r['edits']}" for r in t.to_dict(orient="records")]
    ax.set_yticks(y, labels, fontsize="small")
    ax.invert_yaxis()
    ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=1))
    ax.set_xlabel("win rate with the edits minus as written (paired, same games)")
    ax.set_title("What if: one card changed (invented cards)")
    ax.grid(axis="x", color="0.92")
    fig.tight_layout()
    caption = ("A card's what-if: each game played with the deck as written and with the card edits, on "
               "the same random numbers; the dot is the edited side's win rate with the edits minus as "
               "written, the bar Newcombe's paired 95% interval (sim.stats.paired_difference). Causal for "
               "this policy and matchup, unlike card_impact.png.")
    return _save(fig, path, caption=caption, variants=order, title="What if",
                 omitted={v: "no what_if" for v in variant_order(result) if v not in set(order)})


CHARTS = {
    "matchup_matrix.png": matchup_matrix,
    "first_player.png": first_player,
    "card_impact.png": card_impact,
    "game_length.png": game_length,
    "what_if.png": what_if,
}

#: what the report page says and shows first for a card run (``report_page()``)
PAGE = {
    "terms": {"fight": "game", "fights": "games", "round": "turn", "rounds": "turns",
              "trials": "games", "trial": "game"},
    "headline": ("matchup_matrix.png", "win_rate.png"),
    # the shared fight-length chart says the same in games and turns (and marks
    # the turn cap): game_length.png is written and linked, not shown twice
    "hidden": ("game_length.png",),
}
