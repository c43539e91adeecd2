"""Study kind ``matchups``: a seat-balanced round robin with Bradley-Terry ratings.

::

    study:
      kind: matchups
      decks: [aggro, control, combo]     # the card game: deck labels (default: the scenario's)
      # or, for any scenario whose two sides are alike, named entries of side changes:
      # entries: {cautious: {policy.preset: cautious}, aggressive: {policy.preset: aggressive}}
      bootstrap: 1000

Every ordered pair of entries plays ``trials`` games in each seating on the
same keyed streams (:mod:`sim.ratings`, docs/ratings.md). Tables
``matchups.csv`` (per pair, both seatings pooled: win, loss and draw rates
with Wilson intervals, the ratings' predicted score), ``ratings.csv``
(Bradley-Terry, 1500 + 400 log10 odds, bootstrap and Fisher intervals) and
``fit.csv`` (a chi-square of the ratings against the pairs: a cycle that one
number per entry cannot show); charts ``matchup_matrix.png`` and
``ratings.png``.
"""
from __future__ import annotations

from typing import Any, Literal

import pandas as pd
from pydantic import Field

from .arms import DRY_TRIALS
from .report import Section
from .spec import StudySpec


class MatchupsSpec(StudySpec):
    """``decks``: card-game deck labels; ``entries``: name -> side changes (alike sides);
    ``bootstrap``: resamples for the rating intervals."""

    kind: Literal["matchups"]
    decks: list[str] | None = Field(None, min_length=2, max_length=30)
    entries: dict[str, dict[str, Any]] | None = Field(None, min_length=2, max_length=30)
    bootstrap: int = Field(1000, ge=0, le=100_000)


SPEC = MatchupsSpec


def _entries(ctx, spec: MatchupsSpec):
    from sim.ratings.cards import cards_play_pair
    from sim.ratings.sides import side_play_pair
    from sim.scenario.errors import doc_error

    def player(label, inputs, trials, seed):  # the study keeps and checkpoints each seating's rows
        return ctx.rows_of("pair", label, inputs, 0, ctx.trials)["outcome"]

    if spec.entries is not None:
        return side_play_pair(ctx.loaded.path, spec.entries, loaded=ctx.loaded, player=player,
                              locs={name: ("study", "entries", name) for name in spec.entries}, doc=ctx.doc)
    if ctx.system != "cards":
        raise doc_error(ctx.doc, ("study", "kind"), "a matchups study of a fight system needs "
                        "'entries:' (name -> changes to a side, e.g. {policy.preset: cautious}); "
                        "'decks:' is for the card game.")
    return cards_play_pair(ctx.loaded.path, spec.decks, player=player)


def run(ctx, spec: MatchupsSpec) -> Section:
    from sim.ratings import matchup_chart, rating_chart
    from sim.ratings.bt import fit_check, rating_table
    from sim.ratings.matches import matchup_table, play_matches

    entries, play_pair, _ = _entries(ctx, spec)
    # a dry (preflight) context gives at most DRY_TRIALS stand-in rows per seating
    matches = play_matches(entries, play_pair, min(ctx.trials, DRY_TRIALS) if ctx.dry else ctx.trials,
                           ctx.seed)
    ratings = rating_table(matches, n_boot=spec.bootstrap)
    pairs, fit = fit_check(matches, ratings)
    table = matchup_table(matches).merge(pairs[["entry", "opponent", "bt_score", "bt_z"]],
                                         on=["entry", "opponent"], how="left")
    top = ratings.iloc[0]
    boot = spec.bootstrap > 0
    lo, hi = ("lo", "hi") if boot else ("fisher_lo", "fisher_hi")
    second = ratings.iloc[1] if len(ratings) > 1 else None
    sep = second is not None and top[lo] > second[hi]
    reading = (f"{top['entry']} rates highest ({top['rating']:.0f})"
               + (f", clear of {second['entry']} ({second['rating']:.0f}) beyond the intervals."
                  if sep else (f"; {second['entry']} ({second['rating']:.0f}) is within its interval."
                               if second is not None else "."))
               + f" Fit of the ratings to the pairs: chi-square {fit.get('chi2', float('nan')):.1f}"
               f" on {fit.get('df', 0)} degrees of freedom (p = {fit.get('p_value', float('nan')):.2f});"
               " a small p means the entries beat each other in a cycle.")
    order = list(ratings["entry"])
    games = 2 * ctx.trials
    charts = {
        "matchup_matrix.png": lambda p: matchup_chart(table, p, order=order,
                                                      title=f"row entry's win rate against column entry ({games:,} games per pair)"),
        "ratings.png": lambda p: rating_chart(ratings, p, title="ratings (Bradley-Terry, 1500 + 400 log10 odds)"),
    }
    notes = [f"Seat-balanced: each ordered pair plays {ctx.trials:,} games in each seating, on the same keyed streams."]
    return Section(kind="matchups", title=spec.title or "Matchups and ratings", reading=reading,
                   tables={"ratings": ratings, "matchups": table, "fit": pd.DataFrame([fit])},
                   charts=charts, notes=notes)
