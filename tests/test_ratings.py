"""Matchup matrices and Bradley-Terry ratings (sim.ratings, issue 21).

Synthetic round robins drawn from known Bradley-Terry strengths (numpy only,
no kernel) check the fit, its intervals and the seat balance; the card-game
tests play real games on ``scenarios/cards/round-robin-heuristic.yaml`` at
tiny trial counts (the cards kernel, compiled once).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from sim import ratings as R
from sim import rng as simrng
from sim.scenario import ScenarioError
from sim.stats import wilson
from sim.trials import per_trial

ROOT = Path(__file__).resolve().parents[1]
RR = ROOT / "scenarios" / "cards" / "round-robin-heuristic.yaml"

# a deck of clearly better cards (big heroes, the hardest-hitting girls, the
# damage powers), built from the invented pool like the sample decks
STACKED = {
    "Kenta the Kendo Captain": 4, "Daichi the Goalkeeper": 4, "Taro the Judo Club": 4,
    "Onyx Eclipse": 4, "Sparkle Ruby": 4, "Citrine Spark": 3, "Starlight Beam": 4,
    "Meteor Lance": 4, "Mochi the Bunny": 4, "Ambush Glitter": 4, "Grand Ruby Supernova": 1,
}


def bt_player(true: dict, draw: float = 0.0, seat_edge: float = 0.0):
    """A ``play_pair`` drawing games from known ratings (Elo scale).

    The first seat plays ``seat_edge`` rating points stronger; a game is drawn
    with probability ``draw``; trial streams are keyed by (seed, pair).
    """
    names = list(true)

    def play(a, b, trials, seed):
        g = np.random.default_rng([seed, names.index(a), names.index(b)])
        p = R.expected_score(true[a] + seat_edge, true[b])
        u = g.random(trials)
        return np.where(u < (1 - draw) * p, 0, np.where(u < (1 - draw) * p + draw, 2, 1)).astype(np.int8)

    return play


def centred(true: dict) -> dict:
    m = np.mean(list(true.values()))
    return {k: v - m + R.MEAN_RATING for k, v in true.items()}


# ---------------------------------------------------------------- synthetic

def test_bt_recovers_known_strengths():
    true = centred({"a": 1750, "b": 1600, "c": 1500, "d": 1420, "e": 1230})
    m = R.play_matches(list(true), bt_player(true), 3000, seed=11)
    r = R.rating_table(m, n_boot=300).set_index("entry")
    assert list(r.index) == ["a", "b", "c", "d", "e"]          # best first
    assert r["rating"].mean() == pytest.approx(R.MEAN_RATING)
    for e, v in true.items():
        assert abs(r.loc[e, "rating"] - v) < 4 * r.loc[e, "se"], (e, r.loc[e, "rating"], v)
        assert r.loc[e, "lo"] < r.loc[e, "rating"] < r.loc[e, "hi"]
    assert (r["games"] == 4 * 2 * 3000).all()


def test_bt_intervals_cover_in_most_repetitions():
    """95% intervals: over 40 round robins (160 intervals), each kind covers the
    true rating at least 88% of the time (expected 95%: 8 misses, sd ~2.8)."""
    true = centred({"a": 1650, "b": 1560, "c": 1450, "d": 1340})
    cover = {"boot": 0, "fisher": 0}
    widths = []
    for seed in range(40):
        m = R.play_matches(list(true), bt_player(true), 300, seed=seed)
        r = R.rating_table(m, n_boot=200).set_index("entry")
        t = pd.Series(true)[r.index]
        cover["boot"] += int(((r["lo"] <= t) & (t <= r["hi"])).sum())
        cover["fisher"] += int(((r["fisher_lo"] <= t) & (t <= r["fisher_hi"])).sum())
        widths.append(((r["hi"] - r["lo"]) / (r["fisher_hi"] - r["fisher_lo"])).mean())
    n = 40 * len(true)
    assert cover["boot"] / n >= 0.88, cover
    assert cover["fisher"] / n >= 0.88, cover
    # the two intervals agree on independent games (neither is absurdly wide)
    assert 0.8 < np.mean(widths) < 1.25


def test_newton_and_mm_find_the_same_maximum():
    g = np.random.default_rng(3)
    k = 5
    games = np.full((6, k, k), 200.0) * ~np.eye(k, dtype=bool)
    upper = np.triu(g.integers(0, 201, size=(6, k, k)), 1).astype(float)
    score = upper + np.swapaxes(np.triu(200.0 - upper, 1), -1, -2)
    a = R.bt_fit(score, games)
    b = R.bt_fit(score, games, method="mm")
    np.testing.assert_allclose(a, b, atol=1e-7)
    np.testing.assert_allclose(a.mean(axis=-1), 0, atol=1e-12)
    with pytest.raises(ValueError, match="method"):
        R.bt_fit(score, games, method="elo")


def test_perfect_record_stays_finite():
    """An entry that wins every game gets a finite rating (the prior of one drawn game)."""
    m = R.Matches(["x", "y", "z"], np.full((3, 3, 50), -1, np.int8), seed=0)
    o = m.outcomes
    o[0, 1] = o[0, 2] = 0     # x wins every game, first or second
    o[1, 0] = o[2, 0] = 1
    o[1, 2] = 0
    o[2, 1] = 2
    r = R.rating_table(m, n_boot=50)
    assert np.isfinite(r[["rating", "lo", "hi", "fisher_lo", "fisher_hi"]].to_numpy()).all()
    assert list(r["entry"]) == ["x", "y", "z"]


def test_seat_balance_cancels_a_seat_advantage():
    """Each pair plays both seatings equally often on the same seed; a strong
    first-seat edge between equal entries leaves every pair at ~50% and every
    rating at ~1500."""
    calls = []
    true = {"a": 1500.0, "b": 1500.0, "c": 1500.0, "d": 1500.0}
    inner = bt_player(true, seat_edge=240.0)

    def play(a, b, trials, seed):
        calls.append((a, b, trials, seed))
        return inner(a, b, trials, seed)

    m = R.play_matches(list(true), play, 2000, seed=5)
    t = R.matchup_table(m)
    pairs = sorted((a, b) for a, b, _, _ in calls)
    assert pairs == sorted((a, b) for a in true for b in true if a != b)   # every ordered pair once
    assert {(tr, s) for _, _, tr, s in calls} == {(2000, 5)}                 # same trials, same seed
    assert (t["games_first"] == 2000).all() and (t["games_second"] == 2000).all()
    assert (t["games"] == t["games_first"] + t["games_second"]).all()
    assert (t["win_rate_first"] > 0.75).all() and (t["win_rate_second"] < 0.25).all()
    assert (abs(t["win_rate"] - 0.5) < 0.03).all()
    r = R.rating_table(m, n_boot=0)
    assert (abs(r["rating"] - 1500) < 4 * r["se"]).all()
    assert r["lo"].isna().all()               # no bootstrap asked for


def test_draws_count_half_and_the_matrix_adds_up():
    true = {"a": 1600.0, "b": 1500.0, "c": 1400.0}
    m = R.play_matches(list(true), bt_player(true, draw=0.3), 500, seed=2)
    t = R.matchup_table(m).set_index(["entry", "opponent"])
    for (a, b), row in t.iterrows():
        back = t.loc[(b, a)]
        assert row["wins"] == back["losses"] and row["draws"] == back["draws"]
        assert row["win_rate"] + back["win_rate"] + row["draw_rate"] == pytest.approx(1.0)
        assert row["score"] == pytest.approx((row["wins"] + row["draws"] / 2) / row["games"])
        lo, hi = wilson(row["wins"], row["games"])
        assert (row["win_lo"], row["win_hi"]) == pytest.approx((lo, hi), abs=1e-15)
    assert 0.25 < t["draw_rate"].mean() < 0.35
    # all games drawn: no one is better
    draw_all = R.round_robin(["p", "q"], lambda a, b, n, s: np.full(n, 2), 40, 0)
    assert (draw_all["draw_rate"] == 1).all() and (draw_all["score"] == 0.5).all()
    r = R.rating_table(R.play_matches(["p", "q"], lambda a, b, n, s: np.full(n, 2), 40, 0), n_boot=20)
    np.testing.assert_allclose(r["rating"], 1500.0)


def test_fit_check_flags_a_cycle_and_passes_a_bt_world():
    """A rock-paper-scissors cycle has equal ratings that explain nothing: the fit
    check flags it; games drawn from Bradley-Terry strengths pass it."""
    beats = {("rock", "scissors"), ("scissors", "paper"), ("paper", "rock")}

    def rps(a, b, trials, seed):
        g = np.random.default_rng([seed, len(a), len(b)])
        p = 0.8 if (a, b) in beats else 0.2
        return np.where(g.random(trials) < p, 0, 1)

    m = R.play_matches(["rock", "paper", "scissors"], rps, 400, seed=1)
    r = R.rating_table(m, n_boot=0)
    assert (abs(r["rating"] - 1500) < 4 * r["se"]).all()
    pairs, fit = R.fit_check(m, r)
    assert fit["df"] == 1 and fit["p_value"] < 1e-6 and fit["max_abs_z"] > 10
    z = pairs.set_index(["entry", "opponent"])["bt_z"]
    assert z[("rock", "scissors")] > 10 and z[("scissors", "rock")] < -10
    true = centred({"a": 1700, "b": 1550, "c": 1500, "d": 1250})
    m = R.play_matches(list(true), bt_player(true), 1000, seed=4)
    pairs, fit = R.fit_check(m, R.rating_table(m, n_boot=0))
    assert fit["df"] == 3 and fit["p_value"] > 0.001 and fit["max_abs_z"] < 3.5
    np.testing.assert_allclose(pairs["score"], R.matchup_table(m)["score"])


def test_bad_play_pair_and_entries_are_refused():
    with pytest.raises(ValueError, match="3 outcomes"):
        R.play_matches(["a", "b"], lambda a, b, n, s: np.zeros(n + 1), 3, 0)
    with pytest.raises(ValueError, match="0/1/2"):
        R.play_matches(["a", "b"], lambda a, b, n, s: np.full(n, 7), 3, 0)
    with pytest.raises(ValueError, match="repeated: a"):
        R.play_matches(["a", "b", "a"], lambda a, b, n, s: np.zeros(n), 3, 0)
    with pytest.raises(ValueError, match="at least two"):
        R.play_matches(["a"], lambda a, b, n, s: np.zeros(n), 3, 0)


def test_ratings_are_reproducible():
    true = {"a": 1600.0, "b": 1500.0, "c": 1400.0}
    m = R.play_matches(list(true), bt_player(true), 200, seed=9)
    pd.testing.assert_frame_equal(R.rating_table(m, n_boot=100), R.rating_table(m, n_boot=100))
    other = R.rating_table(m, n_boot=100, boot_seed=10)
    assert not np.allclose(other["lo"], R.rating_table(m, n_boot=100)["lo"])


def test_charts_take_names_as_plain_text(tmp_path):
    assert R.plain("$5 deck") == r"\$5 deck"
    true = {"$5 deck": 1600.0, "a$b$c": 1500.0, "x_1^2": 1400.0}
    m = R.play_matches(list(true), bt_player(true), 100, seed=1)
    r = R.rating_table(m, n_boot=50)
    p1 = R.matchup_chart(R.matchup_table(m), tmp_path / "m.png", order=list(r["entry"]))
    p2 = R.rating_chart(r, tmp_path / "r.png")
    for p in (p1, p2):
        assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# ---------------------------------------------------------------- the card game

def test_cards_round_robin_runs_and_its_matrix_is_consistent(tmp_path):
    out = R.cards_round_robin(RR, trials=40, n_boot=50, out_dir=tmp_path)
    t = out["tables"]["matchups"]
    r = out["tables"]["ratings"]
    assert set(t["entry"]) == {"aggro", "control", "combo"} == set(r["entry"])
    assert len(t) == 6
    assert (t["games"] == 80).all() and (t["games_first"] == 40).all() and (t["games_second"] == 40).all()
    ti = t.set_index(["entry", "opponent"])
    for (a, b), row in ti.iterrows():
        back = ti.loc[(b, a)]
        assert row["win_rate"] + back["win_rate"] == pytest.approx(1.0 - row["draw_rate"])
        assert row["draws"] == back["draws"]
    assert r["rating"].mean() == pytest.approx(1500.0)
    for name, n in (("matchups.csv", 6), ("ratings.csv", 3), ("fit.csv", 1)):
        assert pd.read_csv(tmp_path / name).shape[0] == n
    assert t["bt_score"].between(0, 1).all() and np.isfinite(t["bt_z"]).all()
    assert set(out["charts"]) == {"matchup_matrix", "ratings"}
    for p in out["charts"].values():
        assert Path(p).read_bytes()[:4] == b"\x89PNG"
    again = R.cards_round_robin(RR, trials=40, n_boot=50)
    pd.testing.assert_frame_equal(again["tables"]["ratings"], r)
    assert again["charts"] == {}


def test_cards_games_are_the_games_sim_run_plays_and_seats_balance():
    """A seating is the sweep variant ``sim run`` plays (same outcomes, same key);
    swapping the decks keeps the coin flip, so each deck goes first in exactly
    half of a pair's games."""
    entries, play, loaded = R.cards_play_pair(RR)
    assert entries == ["aggro", "control", "combo"]
    variants = dict(loaded.variants)
    key = simrng.stream_key(loaded.base.seed, 0)
    ab = loaded.module.compile(variants["A.deck=aggro, B.deck=control"])
    ba = loaded.module.compile(variants["A.deck=control, B.deck=aggro"])
    n = 120
    np.testing.assert_array_equal(play("aggro", "control", n, loaded.base.seed),
                                  per_trial("cards", ab, 0, n, key)["outcome"].to_numpy())
    seat_ab = loaded.module.simulate(ab, 0, n, key)["seat"].sum(axis=1)   # games side f went first
    seat_ba = loaded.module.simulate(ba, 0, n, key)["seat"].sum(axis=1)
    np.testing.assert_array_equal(seat_ab, seat_ba)
    assert seat_ab[0] + seat_ba[1] == n                                   # aggro first in n of 2n games
    assert 0 < seat_ab[0] < n


def test_planted_strongest_deck_is_rated_first(tmp_path):
    scen = {"name": "planted", "system": "cards", "seed": 7,
            "sides": [{"name": "A", "cards": STACKED, "deck_name": "stacked", "policy": "tempo"},
                      {"name": "B", "deck": "aggro", "policy": "tempo"}]}
    path = tmp_path / "planted.yaml"
    path.write_text(yaml.safe_dump(scen, sort_keys=False))
    out = R.cards_round_robin(path, decks=["aggro", "control", "stacked", "combo"], trials=150, n_boot=200)
    r = out["tables"]["ratings"]
    assert r["entry"].iloc[0] == "stacked"
    assert r["lo"].iloc[0] > r["hi"].iloc[1]      # separated from the runner-up
    # without a deck list: the scenario's own two decks
    assert R.cards_play_pair(path)[0] == ["stacked", "aggro"]


def test_cards_bad_deck_names_are_clear_errors(tmp_path):
    with pytest.raises(ScenarioError, match=r"unknown deck 'agro'\. Did you mean 'aggro'\?") as e:
        R.cards_play_pair(RR, ["agro", "control"])
    assert "round-robin-heuristic.yaml" in str(e.value) and e.value.field == "decks"
    with pytest.raises(ScenarioError, match="at least two different decks"):
        R.cards_play_pair(RR, ["aggro"])
    with pytest.raises(ScenarioError, match="needs a cards scenario"):
        R.cards_play_pair(ROOT / "scenarios" / "duel-basic.yaml")


def test_cards_decks_of_a_scenario_are_labelled_like_the_card_tables(tmp_path):
    from sim.systems.cards import cardsdata

    aggro = dict(cardsdata.sample_decks()["aggro"].cards)
    scen = {"name": "labels", "system": "cards", "seed": 1,
            "sides": [{"name": "A", "cards": STACKED}, {"name": "B", "cards": aggro}]}
    path = tmp_path / "labels.yaml"
    path.write_text(yaml.safe_dump(scen, sort_keys=False))
    assert R.cards_play_pair(path)[0] == ["base (A)", "base (B)"]
    # one label for two different lists is refused
    scen["sides"][0]["deck_name"] = scen["sides"][1]["deck_name"] = "mine"
    path.write_text(yaml.safe_dump(scen, sort_keys=False))
    with pytest.raises(ScenarioError, match="'mine' names two different deck lists"):
        R.cards_play_pair(path)


def test_side_play_pair_rates_policies_on_one_deck():
    """Entries need not be decks: any side-relative changes. Policies on the same
    deck: the tempo heuristic is rated above uniform random play."""
    entries = {"random": {"policy": "random"}, "tempo": {"policy": "tempo"},
               "aggressive": {"policy": "aggressive"}}
    names, play, loaded = R.side_play_pair(RR, entries)
    assert names == ["random", "tempo", "aggressive"]
    m = R.play_matches(names, play, 60, loaded.base.seed)
    r = R.rating_table(m, n_boot=100).set_index("entry")
    assert r.loc["tempo", "lo"] > r.loc["random", "hi"]
    # the deck entries of cards_play_pair are side changes too: the same games
    deck_play = R.cards_play_pair(RR)[1]
    _, side_play, _ = R.side_play_pair(RR, {"aggro": {"deck": "aggro"}, "combo": {"deck": "combo"}})
    np.testing.assert_array_equal(deck_play("combo", "aggro", 50, 3), side_play("combo", "aggro", 50, 3))
    # a bad path names the round robin's seating
    _, bad, _ = R.side_play_pair(RR, {"x": {"polcy": "tempo"}, "y": {}})
    with pytest.raises(ScenarioError, match="round robin 'x vs y'"):
        bad("x", "y", 5, 1)
