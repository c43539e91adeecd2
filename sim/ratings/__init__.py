"""Matchup matrices and Bradley-Terry ratings from a seat-balanced round robin.

A round robin plays every pair of entries (card decks; party builds) in both
seatings: ``trials`` games with entry ``i`` in the first seat (the first side
listed) against ``j``, and ``trials`` games with ``j`` first against ``i``,
on common random numbers: trial ``t`` of both seatings (and of every pair)
uses the same keyed streams, so a seat advantage (the card game's coin flip
for the first player, C14, is drawn from the trial's own stream) falls on
each entry of a pair equally often. Each pair plays ``2 * trials`` games.

Public API (pure functions; the study framework calls them)::

    play_matches(entries, play_pair, trials, seed) -> Matches      # the games
    matchup_table(matches) -> DataFrame                           # one row per ordered pair
    round_robin(entries, play_pair, trials, seed) -> DataFrame    # both at once
    rating_table(matches, n_boot=1000) -> DataFrame               # Bradley-Terry ratings
    fit_check(matches, ratings) -> (DataFrame, dict)              # does the model fit each pair?
    matchup_chart(table, path, order=None) -> Path                # heat map PNG
    rating_chart(ratings, path) -> Path                           # ratings PNG
    cards_round_robin(scenario_path, decks, trials, seed, out_dir) -> dict(tables=, charts=)
    side_play_pair(scenario_path, {name: {side path: value}}) -> (names, play_pair, loaded)

``play_pair(first, second, trials, seed)`` is supplied by the caller: it
plays trials ``0 .. trials-1`` of ``first`` (first seat) against ``second``
and returns their outcomes as an int array of length ``trials``: 0 the first
entry won, 1 it lost, 2 a draw (the outcome codes of :mod:`sim.trials`). It
must key trial ``t``'s streams by ``(seed, t)`` only, never by the entries,
so that the games are on common random numbers.

The model and the scale (see ``docs/ratings.md``): Bradley-Terry,
``P(i beats j) = p_i / (p_i + p_j)``, the maximum-likelihood fit (Newton-
Raphson, or the MM algorithm of Hunter 2004, Ann. Statist. 32:384, eq. 3)
with a draw counted as half a win for each entry; ratings are ``400 log10 p_i`` shifted to mean 1500, so a gap of
400 points is 10:1 odds (Elo's scale). Intervals: the 2.5% and 97.5%
quantiles over a bootstrap that resamples trial indices (the same indices in
every pair and seating, which keeps the common-random-number pairing), and,
for comparison, +-1.96 standard errors from the fit's Fisher information.

It holds no kernels: an edit here recompiles nothing (the numba caches are
keyed per kernel module, :mod:`sim.cache`).
"""
from .bt import ELO, MEAN_RATING, bt_fisher_se, bt_fit, expected_score, fit_check, rating_table
from .cards import cards_play_pair, cards_round_robin, scenario_decks
from .charts import matchup_chart, plain, rating_chart
from .matches import DRAW, LOSS, WIN, Matches, matchup_table, play_matches, round_robin
from .sides import side_play_pair

__all__ = [
    "DRAW", "ELO", "LOSS", "MEAN_RATING", "WIN", "Matches", "bt_fisher_se", "bt_fit",
    "cards_play_pair", "cards_round_robin", "expected_score", "fit_check", "matchup_chart", "matchup_table",
    "plain", "play_matches", "rating_chart", "rating_table", "round_robin", "scenario_decks",
    "side_play_pair",
]
