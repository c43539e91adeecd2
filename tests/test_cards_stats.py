"""Card statistics that can be trusted (issue 23): per-card impact per deck and
variant with intervals, never-played cards flagged, setup picks marked, inline
decks labelled by variant. Python side only: counters are made up, nothing is
simulated (no kernel compile)."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
import yaml

from sim.results import RunResult
from sim.report.charts import chart_meta
from sim.scenario import load_scenario_text
from sim.stats import two_proportion_ci
from sim.systems.cards import charts
from sim.systems.cards import compile as cards_compile
from sim.systems.cards import tables as T
from sim.systems.cards import engine as E

from cards_helpers import DECK

HERO, POWER = E.TYPE_NAMES.index("hero"), E.TYPE_NAMES.index("power")

# two inline decks differing by one card (a 10-card deck, rules deck_size 10)
DECK2 = dict(DECK)
DECK2.pop("Mochi the Bunny")
DECK2["Starlight Beam"] = 2


def load(sides, variants=None):
    d = {"name": "t", "system": "cards", "rules": {"deck_size": 10}, "sides": sides}
    if variants:
        d["variants"] = variants
    return load_scenario_text(yaml.safe_dump(d, sort_keys=False), "<test>").variants


def inline_sides(**extra_a):
    return [{"name": "A", "cards": dict(DECK), "policy": "tempo", **extra_a},
            {"name": "B", "cards": dict(DECK), "policy": "tempo"}]


def counters(inp, n=1000, wins=(500, 400), cards=None):
    """Made-up counters for ``inp``: ``cards[(side, name)] = (drawn, won drawn, played,
    won played[, picked, won picked])``; not drawn = n - drawn, won not drawn = side wins - won drawn."""
    cc = np.zeros((2, E.MAXD, E.NCARDC), dtype=np.int64)
    for s in range(2):
        for loc, name in enumerate(inp.card_names[s]):
            dr, dw, pl, pw, *pk = (cards or {}).get((s, name), (n // 2, wins[s] // 2, n // 4, wins[s] // 4))
            cc[s, loc] = (dr, dw, pl, pw, n - dr, wins[s] - dw, *(pk or (0, 0)))
    cap = inp.round_cap
    return {"outcomes": np.array([wins[0], wins[1], n - sum(wins)]), "rounds_hist": np.eye(cap + 1, dtype=int)[5] * n,
            "seat": np.array([[wins[0], wins[1], n - sum(wins)], [0, 0, 0]]),
            "ends": np.zeros((3, E.NREASON), dtype=np.int64), "gems": np.zeros((2, cap + 1)),
            "cards": cc, "kinds": np.zeros((2, E.NKIND)), "decisions": np.zeros(2)}


def test_inline_decks_are_labelled_by_variant_not_custom():
    vs = load(inline_sides(), [{"name": "one", "set": {}}, {"name": "two", "set": {"A.cards": DECK2}}])
    labels = {}
    for name, model in vs:
        inp = cards_compile(model)
        assert inp.unnamed == [True, True] and inp.decks == ["custom", "custom"]
        mu = T.matchups(counters(inp), inp, name).iloc[0]
        labels[name] = (mu["deck_a"], mu["deck_b"])
        cs = T.card_stats(counters(inp), inp, name)
        assert set(cs["deck"]) == {f"{name} (A)", f"{name} (B)"}
        assert set(T.seats(counters(inp), inp, name)["deck"]) == {f"{name} (A)", f"{name} (B)"}
    assert labels == {"one": ("one (A)", "one (B)"), "two": ("two (A)", "two (B)")}


def test_deck_name_and_sample_decks_keep_their_names():
    (name, model), = load([{"name": "A", "cards": dict(DECK), "deck_name": "ribbon", "policy": "tempo"},
                           {"name": "B", "cards": dict(DECK), "policy": "tempo"}])
    inp = cards_compile(model)
    assert T.deck_labels(inp, "v") == ["ribbon", "v (B)"]
    (name, model), = load_scenario_text(yaml.safe_dump({
        "name": "t", "system": "cards",
        "sides": [{"name": "A", "deck": "aggro"}, {"name": "B", "deck": "control"}]}), "<t>").variants
    assert T.deck_labels(cards_compile(model), "v") == ["aggro", "control"]


def test_matchup_matrix_keeps_both_variants_inline_decks(tmp_path):
    vs = load(inline_sides(), [{"name": "one", "set": {}}, {"name": "two", "set": {"A.cards": DECK2}}])
    mus = []
    for i, (name, model) in enumerate(vs):
        inp = cards_compile(model)
        mus.append(T.matchups(counters(inp, wins=(300 + 400 * i, 200)), inp, name))
    t = pd.concat(mus, ignore_index=True)
    assert len(set(zip(t["deck_a"], t["deck_b"]))) == 2  # one cell each, no overwrite
    res = result({"matchups": t}, ["one", "two"])
    meta = chart_meta(charts.matchup_matrix(res, tmp_path / "m.png"))
    assert meta["variants"] == ["one", "two"] and meta["omitted"] == {}


def test_card_stats_never_played_always_played_and_compared():
    (name, model), = load(inline_sides())
    inp = cards_compile(model)
    n, wins = 1000, (500, 400)
    c = counters(inp, n, wins, {
        (0, "Starlight Beam"): (600, 250, 0, 0),        # drawn, never played
        (0, "Sparkle Ruby"): (1000, 500, 1000, 500),    # played in every game
        (0, "Barrier Ribbon"): (700, 420, 300, 240),    # compared
        (0, "Kenta the Kendo Captain"): (300, 150, 800, 420, 900, 450),
    })
    cs = T.card_stats(c, inp, "v").set_index(["side", "card"])
    beam = cs.loc[("A", "Starlight Beam")]
    assert beam["status"] == T.NOT_PLAYED == "not played by this policy"
    assert math.isnan(beam["played_minus_not_played"]) and math.isnan(beam["drawn_minus_not_drawn"])
    assert cs.loc[("A", "Sparkle Ruby"), "status"] == T.ALWAYS_PLAYED
    assert math.isnan(cs.loc[("A", "Sparkle Ruby"), "played_minus_not_played"])
    rib = cs.loc[("A", "Barrier Ribbon")]
    assert rib["status"] == T.COMPARED
    assert (rib["games_not_played"], rib["wins_not_played"]) == (700, 260)
    d, lo, hi = two_proportion_ci(240, 300, 260, 700)
    assert (rib["played_minus_not_played"], rib["played_minus_not_played_lo"],
            rib["played_minus_not_played_hi"]) == pytest.approx((d, lo, hi))
    assert rib["played_minus_not_played"] == pytest.approx(0.8 - 260 / 700)
    assert rib["drawn_minus_not_drawn"] == pytest.approx(420 / 700 - 80 / 300)
    # per side: B's wins are outcomes[1]
    assert cs.loc[("B", "Barrier Ribbon"), "wins"] == 400 and cs.loc[("A", "Barrier Ribbon"), "wins"] == 500
    # setup picks: their own columns, apart from draws
    kenta = cs.loc[("A", "Kenta the Kendo Captain")]
    assert (kenta["games_picked"], kenta["wins_picked"]) == (900, 450)
    assert kenta["win_when_picked"] == pytest.approx(0.5)
    assert cs.loc[("A", "Sparkle Ruby"), "games_picked"] == 0
    assert math.isnan(cs.loc[("A", "Sparkle Ruby"), "win_when_picked"])
    # the existing columns are all still there
    for col in ("games_drawn", "win_when_drawn", "win_when_drawn_lo", "win_when_drawn_hi", "games_played",
                "wins_played", "win_when_played", "games_not_drawn", "wins_not_drawn", "wins_drawn",
                "win_when_not_drawn", "drawn_minus_not_drawn"):
        assert col in cs.columns


def result(tables, variants):
    return RunResult(scenario="t", system="cards", seed=1, provenance={},
                     summary=pd.DataFrame({"variant": variants}),
                     curves=pd.DataFrame(columns=["variant", "round", "metric", "value"]),
                     rounds=pd.DataFrame(columns=["variant", "rounds", "count"]), tables=tables)


def test_card_impact_per_variant_with_intervals_and_no_unplayed(tmp_path):
    (name, model), = load(inline_sides())
    inp = cards_compile(model)
    frames = []
    for v, beam in (("one", (600, 250, 0, 0)), ("two", (600, 350, 300, 250))):
        frames.append(T.card_stats(counters(inp, cards={(0, "Starlight Beam"): beam,
                                                        (0, "Barrier Ribbon"): (700, 420, 300, 240)}),
                                   inp, v))
    t = pd.concat(frames, ignore_index=True)
    rows = charts._impact_rows(t, per_variant=3)
    assert set(rows["variant"]) == {"one", "two"}
    assert (rows["status"] == "compared").all()
    assert not ((rows["variant"] == "one") & (rows["card"] == "Starlight Beam")).any()
    # the clearest effect leads each variant's pick; never pooled over variants or sides
    assert ("two", "A", "Starlight Beam") in set(zip(rows["variant"], rows["side"], rows["card"]))
    assert rows.groupby("variant").size().max() <= 3
    meta = chart_meta(charts.card_impact(result({"card_stats": t}, ["one", "two"]), tmp_path / "c.png"))
    assert meta["variants"] == ["one", "two"] and meta["omitted"] == {}
    assert "not played by this policy" in meta["caption"] and "Starlight Beam" in meta["caption"]
    assert "Observational" in meta["caption"] and "95% interval" in meta["caption"]


def test_card_impact_old_table_without_status_is_skipped(tmp_path):
    t = pd.DataFrame({"variant": ["v"], "deck": ["d"], "card": ["c"], "games_drawn": [1]})
    assert charts.card_impact(result({"card_stats": t}, ["v"]), tmp_path / "c.png") is None
