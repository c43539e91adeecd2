"""Card-game counters -> tidy DataFrames (no simulation here).

Tables: ``matchups`` (one row per variant: decks, policies, win rate of side
A with its 95% Wilson interval, first-player win rate, seat results, mean
turns, deck-outs), ``seats`` (per side and seat), ``card_stats`` (draft
analytics per card: win rate when drawn, when played, when not drawn, and the
difference drawn - not drawn, and the observational played - not played
difference with its 95% interval; see :func:`card_stats`), ``end_reasons``, ``actions`` (decisions
per game by kind) and ``what_if`` (a card's "what if" as a paired comparison, see :func:`what_if`). Curves: ``ongoing`` and ``gem progress: <side>`` (mean
gems held after turn r over the goal; finished games keep their final gems).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from sim.stats import paired_difference, two_proportion_ci, wilson

from . import engine as E


def _rate(k, n):
    k, n = int(k), int(n)
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    lo, hi = wilson(k, n)
    return k / n, float(lo), float(hi)


#: ``card_stats.status`` values
NOT_PLAYED = "not played by this policy"
ALWAYS_PLAYED = "played in every game"
COMPARED = "compared"


def deck_labels(inputs, variant: str) -> list[str]:
    """Per side, the deck's label in the tables: the sample deck's name or the
    side's ``deck_name``; an unnamed inline ``cards`` list is labelled by the
    variant and side (``"<variant> (A)"``), so two variants' inline decks never
    share a label (they used to be both ``custom``). A sample deck holding a
    card the scenario's ``cards:`` block changes is not the sample deck any
    more: without a ``deck_name`` it is labelled ``"<deck> (<variant>)"``."""
    n = len(inputs.decks)
    unnamed = getattr(inputs, "unnamed", None) or [False] * n
    edited = getattr(inputs, "edited", None) or [False] * n
    out = []
    for deck, side, u, e in zip(inputs.decks, inputs.side_names, unnamed, edited):
        out.append(f"{variant} ({side})" if u else (f"{deck} ({variant})" if e else deck))
    return out


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
    decks = deck_labels(inputs, variant)
    row = {"variant": variant, "deck_a": decks[0], "deck_b": decks[1],
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
    decks = deck_labels(inputs, variant)
    rows = []
    for s, side in enumerate(inputs.side_names):
        for f, label in ((s, "first"), (1 - s, "second")):
            games = int(seat[f].sum())
            wins = int(seat[f, 0] if s == 0 else seat[f, 1])
            r, lo, hi = _rate(wins, games)
            rows.append({"variant": variant, "side": side, "deck": decks[s], "seat": label,
                         "games": games, "wins": wins, "win_rate": r, "win_lo": lo, "win_hi": hi})
    return pd.DataFrame(rows)


def _card_row(c, n, side_wins):
    """The statistics of one card of one side from its counters (``engine.NCARDC``)."""
    drawn, dwin, played, pwin, nd, nwin = (int(x) for x in c[:6])
    picked, kwin = (int(c[6]), int(c[7])) if len(c) >= 8 else (0, 0)
    wd, wd_lo, wd_hi = _rate(dwin, drawn)
    wp, _, _ = _rate(pwin, played)
    wn, _, _ = _rate(nwin, nd)
    npl, nplwin = n - played, side_wins - pwin
    status = NOT_PLAYED if played == 0 else (ALWAYS_PLAYED if npl == 0 else COMPARED)
    if status == COMPARED:
        diff, lo, hi = two_proportion_ci(pwin, played, nplwin, npl)
    else:
        diff = lo = hi = float("nan")
    has_drawn_diff = drawn and nd and status != NOT_PLAYED
    return {
        "games_drawn": drawn, "win_when_drawn": wd, "win_when_drawn_lo": wd_lo,
        "win_when_drawn_hi": wd_hi, "games_played": played, "wins_played": pwin,
        "win_when_played": wp, "games_not_drawn": nd, "wins_not_drawn": nwin, "wins_drawn": dwin,
        "win_when_not_drawn": wn,
        "drawn_minus_not_drawn": (wd - wn) if has_drawn_diff else float("nan"),
        "games_not_played": npl, "wins_not_played": nplwin,
        "win_when_not_played": _rate(nplwin, npl)[0],
        "played_minus_not_played": diff, "played_minus_not_played_lo": lo,
        "played_minus_not_played_hi": hi, "status": status,
        "games_picked": picked, "wins_picked": kwin, "win_when_picked": _rate(kwin, picked)[0],
    }


def card_stats(counters: dict, inputs, variant: str) -> pd.DataFrame:
    """Per card, per side, for this variant (never pooled over variants or sides).

    ``games_drawn`` counts games where the card was drawn (opening hand, draw
    step, Draw action, card effects, the L53 out-of-heroes draw) at any point;
    ``games_picked`` counts games where a copy was picked from the deck in
    setup (the ``starting_heroes`` searched, L13), kept apart from draws (a
    game can count in both when another copy is drawn later); ``games_not_drawn``
    may include games where the card was picked. ``games_played`` counts games
    where the card was played (a hero or girl put into play, a power, event,
    pet or grand played).

    ``played_minus_not_played`` is the side's win rate in games where the card
    was played minus in games where it was not, with Newcombe's hybrid score
    95% interval (:func:`sim.stats.two_proportion_ci`). It is OBSERVATIONAL:
    whether a card gets played depends on how the game is going, so it measures
    association, not what adding or cutting the card would do (for that, a
    ``what_if``: table :func:`what_if`). A card the
    policy never played (``status`` ``not played by this policy``) gets no
    impact (both differences NaN); one played in every game gets no
    played-vs-not comparison (``played in every game``).
    """
    c = counters["cards"]
    n = int(counters["outcomes"].sum())
    decks = deck_labels(inputs, variant)
    rows = []
    for s, side in enumerate(inputs.side_names):
        side_wins = int(counters["outcomes"][s])  # outcomes: side 0 wins, side 1 wins, draws
        for loc, name in enumerate(inputs.card_names[s]):
            kind = E.TYPE_NAMES[int(inputs.cd[s, loc, E.CT_TYPE])]
            row = {"variant": variant, "side": side, "deck": decks[s], "card": name, "type": kind,
                   "copies": int(inputs.dcnt[s, loc])}
            row.update(_card_row(c[s, loc], n, side_wins))
            row.update(games=n, wins=side_wins)
            rows.append(row)
    return pd.DataFrame(rows)


WHAT_IF_COLUMNS = ["variant", "side", "deck", "edits", "games", "win_as_written", "win_with_edits",
                   "only_as_written", "only_with_edits", "difference", "difference_lo", "difference_hi"]


def what_if(counters: dict, inputs, variant: str) -> pd.DataFrame:
    """A card's "what if" (``what_if:``), per side: the win rate with the edited
    deck(s) minus as written, game by game on the same streams, with Newcombe's
    paired 95% interval (:func:`sim.stats.paired_difference`, from the joint
    counts ``counters["what_if"][side] = (games, wins as written, wins with the
    edits, wins under both)``). ``only_*``: the discordant games (won under
    one reading only); the interval is narrow when those are few. ``edits``
    describes the edits of that side's deck ("" when the side keeps its deck:
    its row still shows what the rival's edit does to it). Empty without a
    ``what_if``."""
    if "what_if" not in counters:
        return pd.DataFrame(columns=WHAT_IF_COLUMNS)
    decks = deck_labels(inputs, variant)
    rows = []
    for s, side in enumerate(inputs.side_names):
        n, a, b, both = (int(x) for x in counters["what_if"][s])
        d, lo, hi = paired_difference(b, a, n, both=both) if n else (float("nan"),) * 3
        rows.append({"variant": variant, "side": side, "deck": decks[s], "edits": inputs.what_if_edits[s],
                     "games": n, "win_as_written": a / n if n else float("nan"),
                     "win_with_edits": b / n if n else float("nan"), "only_as_written": a - both,
                     "only_with_edits": b - both, "difference": d, "difference_lo": lo,
                     "difference_hi": hi})
    return pd.DataFrame(rows, columns=WHAT_IF_COLUMNS)


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
    out = {
        "curves": curves(counters, inputs, variant),
        "tables": {
            "matchups": matchups(counters, inputs, variant),
            "seats": seats(counters, inputs, variant),
            "card_stats": card_stats(counters, inputs, variant),
            "end_reasons": end_reasons(counters, inputs, variant),
            "actions": actions(counters, inputs, variant),
        },
    }
    if "what_if" in counters:
        out["tables"]["what_if"] = what_if(counters, inputs, variant)
    return out
