"""Card-game counters -> tidy DataFrames (no simulation here).

Tables: ``matchups`` (one row per variant: decks, policies, win rate of side
A with its 95% Wilson interval, first-player win rate, seat results, mean
turns, deck-outs), ``seats`` (per side and seat), ``card_stats`` (draft
analytics per card: win rate when drawn, when played, when not drawn, and the
difference drawn - not drawn), ``end_reasons`` and ``actions`` (decisions
per game by kind). Curves: ``ongoing`` and ``gem progress: <side>`` (mean
gems held after turn r over the goal; finished games keep their final gems).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from sim.stats import wilson

from . import engine as E


def _rate(k, n):
    k, n = int(k), int(n)
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    lo, hi = wilson(k, n)
    return k / n, float(lo), float(hi)


def curves(counters: dict, inputs, variant: str) -> pd.DataFrame:
    n = int(counters["outcomes"].sum())
    cap = inputs.round_cap
    ended_by = np.cumsum(counters["rounds_hist"])
    rows = []
    for r in range(0, cap + 1):
        rows.append((variant, r, "ongoing", (n - ended_by[r]) / n if r < cap else 0.0))
    goal = 2.0 * inputs.resolved_rules["gems_to_win"]
    for s, side in enumerate(inputs.side_names):
        for r in range(1, cap + 1):
            rows.append((variant, r, f"gem progress: {side}", counters["gems"][s, r] / (n * goal)))
    return pd.DataFrame(rows, columns=["variant", "round", "metric", "value"])


def matchups(counters: dict, inputs, variant: str) -> pd.DataFrame:
    w, l, d = (int(x) for x in counters["outcomes"])
    n = w + l + d
    seat = counters["seat"]  # [f, outcome of side 0] where f = side that went first
    first_wins = int(seat[0, 0] + seat[1, 1])
    a_first = int(seat[0].sum())
    a_second = int(seat[1].sum())
    hist = counters["rounds_hist"]
    turns = np.arange(len(hist))
    mean_turns = float((hist * turns).sum() / max(n, 1))
    ends = counters["ends"]
    row = {"variant": variant, "deck_a": inputs.decks[0], "deck_b": inputs.decks[1],
           "policy_a": inputs.policies[0], "policy_b": inputs.policies[1], "games": n}
    row["win_a"], row["win_a_lo"], row["win_a_hi"] = _rate(w, n)
    row["draws"] = d
    row["first_player_win"], row["first_player_lo"], row["first_player_hi"] = _rate(first_wins, n - d)
    row["win_a_first"], row["win_a_first_lo"], row["win_a_first_hi"] = _rate(seat[0, 0], a_first)
    row["win_a_second"], row["win_a_second_lo"], row["win_a_second_hi"] = _rate(seat[1, 0], a_second)
    row["mean_turns"] = mean_turns
    row["median_turns"] = int(np.searchsorted(np.cumsum(hist), n / 2.0)) if n else 0
    row["deck_outs_a"] = int(ends[1, E.RE_DECKOUT] + ends[1, E.RE_NOHEROES])
    row["deck_outs_b"] = int(ends[0, E.RE_DECKOUT] + ends[0, E.RE_NOHEROES])
    dec = counters["decisions"]
    row["decisions_per_game_a"] = float(dec[0] / max(n, 1))
    row["decisions_per_game_b"] = float(dec[1] / max(n, 1))
    return pd.DataFrame([row])


def seats(counters: dict, inputs, variant: str) -> pd.DataFrame:
    seat = counters["seat"]
    rows = []
    for s, side in enumerate(inputs.side_names):
        for f, label in ((s, "first"), (1 - s, "second")):
            games = int(seat[f].sum())
            wins = int(seat[f, 0] if s == 0 else seat[f, 1])
            r, lo, hi = _rate(wins, games)
            rows.append({"variant": variant, "side": side, "deck": inputs.decks[s], "seat": label,
                         "games": games, "wins": wins, "win_rate": r, "win_lo": lo, "win_hi": hi})
    return pd.DataFrame(rows)


def card_stats(counters: dict, inputs, variant: str) -> pd.DataFrame:
    c = counters["cards"]
    rows = []
    for s, side in enumerate(inputs.side_names):
        for loc, name in enumerate(inputs.card_names[s]):
            drawn, dwin, played, pwin, nd, nwin = (int(x) for x in c[s, loc])
            wd, wd_lo, wd_hi = _rate(dwin, drawn)
            wp, _, _ = _rate(pwin, played)
            wn, _, _ = _rate(nwin, nd)
            rows.append({
                "variant": variant, "side": side, "deck": inputs.decks[s], "card": name,
                "type": E.TYPE_NAMES[int(inputs.cd[s, loc, E.CT_TYPE])], "copies": int(inputs.dcnt[s, loc]),
                "games_drawn": drawn, "win_when_drawn": wd, "win_when_drawn_lo": wd_lo,
                "win_when_drawn_hi": wd_hi, "games_played": played, "wins_played": pwin,
                "win_when_played": wp, "games_not_drawn": nd, "wins_not_drawn": nwin, "wins_drawn": dwin,
                "win_when_not_drawn": wn,
                "drawn_minus_not_drawn": (wd - wn) if drawn and nd else float("nan"),
            })
    return pd.DataFrame(rows)


def end_reasons(counters: dict, inputs, variant: str) -> pd.DataFrame:
    ends = counters["ends"]
    names = list(inputs.side_names) + ["draw"]
    rows = []
    for wi, who in enumerate(names):
        for r in range(1, E.NREASON):
            if ends[wi, r]:
                rows.append({"variant": variant, "winner": who, "reason": E.REASON_NAMES[r],
                             "games": int(ends[wi, r])})
    return pd.DataFrame(rows, columns=["variant", "winner", "reason", "games"])


def actions(counters: dict, inputs, variant: str) -> pd.DataFrame:
    n = max(int(counters["outcomes"].sum()), 1)
    k = counters["kinds"]
    rows = []
    for s, side in enumerate(inputs.side_names):
        for kind in range(E.NKIND):
            rows.append({"variant": variant, "side": side, "action": E.KIND_NAMES[kind],
                         "per_game": float(k[s, kind] / n)})
    return pd.DataFrame(rows)


def summarize(counters: dict, inputs, variant: str) -> dict:
    return {
        "curves": curves(counters, inputs, variant),
        "tables": {
            "matchups": matchups(counters, inputs, variant),
            "seats": seats(counters, inputs, variant),
            "card_stats": card_stats(counters, inputs, variant),
            "end_reasons": end_reasons(counters, inputs, variant),
            "actions": actions(counters, inputs, variant),
        },
    }
