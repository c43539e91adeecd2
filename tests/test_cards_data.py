"""Issue 23, cards as data at run time: a scenario's ``cards:`` block (new cards,
changed numbers), variant paths ``cards.<card>.<field>``, clear errors, deck
labels of edited decks, the numba cache keyed on code only, and a changed card
that runs with no compile (JIT on, in a subprocess)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
import yaml

from sim import cache
from sim.scenario import ScenarioError, load_scenario_text
from sim.systems.cards import cardsdata
from sim.systems.cards import compile as cards_compile
from sim.systems.cards import engine as E
from sim.systems.cards import tables as T

ROOT = Path(__file__).resolve().parents[1]


def load(extra: dict, variants=None, sides=None):
    d = {"name": "t", "system": "cards", "trials": 10,
         "sides": sides or [{"name": "A", "deck": "aggro"}, {"name": "B", "deck": "control"}]}
    d.update(extra)
    if variants is not None:
        d["variants"] = variants
    return load_scenario_text(yaml.safe_dump(d, sort_keys=False), "<t>").variants


def atk(inp, side, name):
    return int(inp.cd[side, inp.card_names[side].index(name), E.CT_ATK])


def test_top_level_block_and_variant_paths_change_the_arrays():
    shipped = cardsdata.cards_by_name()["Sparkle Ruby"].atk
    vs = dict(load({"cards": {"Sparkle Ruby": {"attack": shipped + 1}}},
                   [{"name": "base"}, {"name": "deep", "set": {"cards.Sparkle Ruby.attack": shipped + 3}},
                    {"name": "whole", "set": {"cards": {"Sparkle Ruby": {"atk": 9, "hp": 7}}}}]))
    base, deep, whole = (cards_compile(vs[k]) for k in ("base", "deep", "whole"))
    assert atk(base, 0, "Sparkle Ruby") == shipped + 1
    assert atk(deep, 0, "Sparkle Ruby") == shipped + 3
    assert atk(whole, 0, "Sparkle Ruby") == 9
    ruby = whole.card_names[0].index("Sparkle Ruby")
    assert int(whole.cd[0, ruby, E.CT_HP]) == 7
    # the shipped pool is untouched, and so is the other side's deck (control holds no Sparkle Ruby)
    assert cardsdata.cards_by_name()["Sparkle Ruby"].atk == shipped
    assert base.edited == [True, False]
    assert any("Sparkle Ruby atk" in n for n in base.notes)


def test_new_card_in_an_inline_deck():
    deck = dict(cardsdata.sample_decks()["aggro"].cards)
    victim = next(n for n, k in deck.items() if cardsdata.cards_by_name()[n].type == "power")
    deck[victim] -= 1
    if deck[victim] == 0:
        del deck[victim]
    deck["Star Pup"] = 1
    (name, model), = load({"cards": {"Star Pup": {"type": "pet", "atk": 2, "cost": 1}}},
                          sides=[{"name": "A", "cards": deck, "deck_name": "Pup Rush"},
                                 {"name": "B", "deck": "control"}])
    inp = cards_compile(model)
    loc = inp.card_names[0].index("Star Pup")
    assert E.TYPE_NAMES[int(inp.cd[0, loc, E.CT_TYPE])] == "pet" and int(inp.cd[0, loc, E.CT_ATK]) == 2
    assert T.deck_labels(inp, "v") == ["Pup Rush", "control"]


@pytest.mark.parametrize("cards, words", [
    ({"Sparkle Rubi": {"atk": 4}}, ["Sparkle Rubi", "Sparkle Ruby", "type"]),         # typo: suggestion
    ({"Sparkle Ruby": {"atack": 4}}, ["atack", "atk"]),                             # unknown field
    ({"Sparkle Ruby": {"atk": 99}}, ["atk", "30"]),                                 # out of range
    ({"Sparkle Ruby": {"cost": -1}}, ["cost", "0"]),
    ({"Sparkle Ruby": {"effects": [{"op": "damge", "amount": 1}]}}, ["damge", "damage"]),
    ({"Star Pup": {"type": "pett"}}, ["type", "pet"]),
])
def test_clear_errors(cards, words):
    with pytest.raises(ScenarioError) as err:
        load({"cards": cards})
    msg = str(err.value)
    assert "<t>" in msg and "cards" in msg
    for w in words:
        assert w in msg, msg


def test_error_in_a_variant_names_the_variant():
    with pytest.raises(ScenarioError) as err:
        load({}, [{"name": "ruby+", "set": {"cards.Sparkle Ruby.atk": 31}}])
    assert "ruby+" in str(err.value) and "atk" in str(err.value)


def test_cli_exit_status_2_no_traceback(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text(yaml.safe_dump({"name": "t", "system": "cards", "cards": {"Sparkle Rubi": {"atk": 4}},
                                 "sides": [{"name": "A", "deck": "aggro"}, {"name": "B", "deck": "control"}]}))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_DISABLE_JIT": "1"}
    p = subprocess.run([sys.executable, "-m", "sim", "run", str(f), "--trials", "10"], capture_output=True,
                       text=True, env=env, cwd=tmp_path, timeout=300)
    assert p.returncode == 2, p.stderr
    assert "Traceback" not in p.stderr and "Sparkle Ruby" in p.stderr + p.stdout


def test_edited_sample_deck_is_labelled_by_its_variant_or_deck_name():
    vs = dict(load({}, [{"name": "plain"}, {"name": "ruby5", "set": {"cards.Sparkle Ruby.atk": 5}},
                        {"name": "named", "set": {"cards.Sparkle Ruby.atk": 5, "A.deck_name": "Ruby Rush+"}}]))
    labels = {k: T.deck_labels(cards_compile(m), k) for k, m in vs.items()}
    assert labels == {"plain": ["aggro", "control"], "ruby5": ["aggro (ruby5)", "control"],
                      "named": ["Ruby Rush+", "control"]}


def test_catalog_yaml_is_not_part_of_the_cache_key():
    """The card engine's kernels are keyed by the modules they are built from
    (:func:`sim.cache.module_key`), all Python sources: an edit to the card catalog's YAML
    recompiles nothing."""
    import sim.systems.cards.engine  # noqa: F401

    catalog = sorted((ROOT / "sim" / "systems" / "cards" / "catalog").glob("*.yaml"))
    assert catalog, "the shipped catalog moved"
    mods = cache.closure("sim.systems.cards.engine")
    assert "sim.systems.cards.engine" in mods
    files = [Path(sys.modules[m].__file__) for m in mods]
    assert all(p.suffix == ".py" for p in files)
    assert not set(files) & set(catalog)


JIT_SCRIPT = textwrap.dedent("""
    import json, sys
    import numpy as np
    from numba.core import event
    from sim.scenario import load_scenario_text
    from sim.systems import cards
    from sim.systems.cards import engine as E
    text = sys.stdin.read()
    vs = dict(load_scenario_text(text, "<t>").variants)
    key = np.uint64(7)
    base = cards.compile(vs["base"])
    warm = cards.simulate(base, 0, 600, key)           # warm-up: compiles or loads the cache
    before = len(E.simulate_blocks.signatures)
    with event.install_recorder("numba:compile") as rec:
        edited = cards.simulate(cards.compile(vs["strong"]), 0, 600, key)
        paired = cards.simulate(cards.compile(vs["what_if"]), 0, 300, key)
    print(json.dumps({"compiles": len(rec.buffer), "before": before,
                      "after": len(E.simulate_blocks.signatures),
                      "base": warm["outcomes"].tolist(), "strong": edited["outcomes"].tolist(),
                      "what_if": paired["what_if"].tolist(),
                      "what_if_base": paired["outcomes"].tolist()}))
""")


def test_changed_card_runs_without_compiling_jit_on():
    """Acceptance (issue 23): with the JIT on, after a warm-up run of the base
    scenario, a variant that changes a card's numbers (and a ``what_if``) runs
    with no numba compile event and no new kernel signature, and the change
    changes the results."""
    scen = {"name": "t", "system": "cards", "rules": {"first_player": "first_listed"},
            "sides": [{"name": "A", "deck": "aggro"}, {"name": "B", "deck": "control"}],
            "variants": [{"name": "base"},
                         {"name": "strong", "set": {"cards.Sparkle Ruby.atk": 12, "cards.Sparkle Ruby.hp": 12}},
                         {"name": "what_if", "set": {"what_if": {"cards": {"Sparkle Ruby": {"atk": 12}},
                                                                 "side": "A"}}}]}
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}
    env["PYTHONPATH"] = str(ROOT)
    p = subprocess.run([sys.executable, "-c", JIT_SCRIPT], input=yaml.safe_dump(scen, sort_keys=False),
                       capture_output=True, text=True, env=env, timeout=1200)
    assert p.returncode == 0, p.stderr[-3000:]
    r = json.loads(p.stdout.strip().splitlines()[-1])
    assert r["before"] >= 1, "the kernel did not run compiled"
    assert r["compiles"] == 0 and r["after"] == r["before"], r
    assert r["strong"][0] > r["base"][0] + 30, r          # 600 games: a much stronger Sparkle Ruby wins more
    n, as_written, with_edits, both = r["what_if"][0]
    assert n == 300 and with_edits > as_written and both <= as_written
    assert r["what_if_base"] != [0, 0, 0]


def _kenta_deck():
    """10 cards whose only heroes are the three Kentas (all picked by a 3-hero setup search)."""
    return {"Kenta the Kendo Captain": 3, "Sparkle Ruby": 3, "Starlight Beam": 2, "Barrier Ribbon": 1,
            "Mochi the Bunny": 1}


@pytest.mark.parametrize("heroes", [3, 0])
def test_setup_picks_are_kept_apart_from_draws(heroes):
    """L13: with ``starting_heroes: 3`` and exactly three hero cards, every hero is
    picked in setup and none can be drawn (before issue 23 they all counted as
    "drawn" in every game); with no setup search they are drawn and never picked."""
    from sim.systems import cards

    deck = _kenta_deck()
    sides = [{"name": "A", "cards": deck, "policy": "tempo"}, {"name": "B", "cards": deck, "policy": "tempo"}]
    (name, model), = load({"rules": {"deck_size": 10, "starting_heroes": heroes}}, sides=sides)
    inp = cards_compile(model)
    n = 60
    c = cards.simulate(inp, 0, n, np.uint64(3))
    cs = T.card_stats(c, inp, "v").set_index(["side", "card"])
    for side in ("A", "B"):
        kenta = cs.loc[(side, "Kenta the Kendo Captain")]
        ruby = cs.loc[(side, "Sparkle Ruby")]
        if heroes == 3:
            assert (kenta["games_picked"], kenta["games_drawn"]) == (n, 0)
        else:
            assert kenta["games_picked"] == 0 and kenta["games_drawn"] > 0
        assert ruby["games_picked"] == 0 and ruby["games_drawn"] == n   # the mulligan keeps a girl (C9)


def test_what_if_pairs_games_on_the_same_streams():
    """A what_if that changes nothing gives no discordant game (the pairs share
    every stream), its as-written games are the variant's own games, and a real
    change gives the paired table with Newcombe's interval from the joint counts."""
    from sim.stats import paired_difference
    from sim.systems import cards

    same = cardsdata.cards_by_name()["Sparkle Ruby"].atk
    vs = dict(load({"rules": {"first_player": "first_listed"}},
                   [{"name": "plain"},
                    {"name": "noop", "set": {"what_if": {"cards": {"Sparkle Ruby": {"atk": same}}}}},
                    {"name": "big", "set": {"what_if": {"cards": {"Sparkle Ruby": {"atk": 12}}, "side": "A"}}}]))
    key, n = np.uint64(5), 150
    plain = cards.simulate(cards_compile(vs["plain"]), 0, n, key)
    inp = cards_compile(vs["noop"])
    noop = cards.simulate(inp, 0, n, key)
    assert noop["outcomes"].tolist() == plain["outcomes"].tolist()
    assert noop["cards"].tolist() == plain["cards"].tolist()
    wins = int(plain["outcomes"][0])
    assert noop["what_if"][0].tolist() == [n, wins, wins, wins]
    inp = cards_compile(vs["big"])
    big = cards.simulate(inp, 0, n, key)
    # chunking: two chunks add up to one
    halves = [cards.simulate(inp, s, c, key) for s, c in ((0, 70), (70, n - 70))]
    assert (halves[0]["what_if"] + halves[1]["what_if"]).tolist() == big["what_if"].tolist()
    df = cards.summarize(big, inp, "big")["tables"]["what_if"].set_index("side")
    g, a, b, both = big["what_if"][0]
    assert df.loc["A", "edits"] == f"Sparkle Ruby atk {same}->12" and df.loc["B", "edits"] == ""
    assert df.loc["A", "only_with_edits"] == b - both and df.loc["A", "only_as_written"] == a - both
    d, lo, hi = paired_difference(int(b), int(a), int(g), both=int(both))
    assert (df.loc["A", "difference"], df.loc["A", "difference_lo"], df.loc["A", "difference_hi"]) == \
        pytest.approx((d, lo, hi))
    assert d > 0 and lo < d < hi
    assert "what_if" not in cards.summarize(plain, cards_compile(vs["plain"]), "plain")["tables"]


def test_variant_path_typo_and_what_if_sweep():
    with pytest.raises(ScenarioError) as err:
        load({}, [{"name": "v", "set": {"card.Sparkle Ruby.atk": 4}}])
    assert "Did you mean 'cards'?" in str(err.value) and "'what_if'" in str(err.value)
    d = {"name": "t", "system": "cards", "sides": [{"name": "A", "deck": "aggro"}, {"name": "B", "deck": "control"}],
         "what_if": {"cards": {"Sparkle Ruby": {"atk": 3}}, "side": "A"},
         "sweep": {"what_if.cards.Sparkle Ruby.atk": [2, 5]}}
    vs = load_scenario_text(yaml.safe_dump(d, sort_keys=False), "<t>").variants
    got = [cards_compile(m).what_if_edits[0] for _, m in vs]
    shipped = cardsdata.cards_by_name()["Sparkle Ruby"].atk
    assert got == [f"Sparkle Ruby atk {shipped}->2", f"Sparkle Ruby atk {shipped}->5"]


def test_what_if_chart(tmp_path):
    import pandas as pd

    from sim.report.charts import chart_meta
    from sim.results import RunResult
    from sim.systems.cards import charts

    rows = [{"variant": "w", "side": "A", "deck": "aggro", "edits": "Sparkle Ruby atk 3->4", "games": 100,
             "win_as_written": 0.5, "win_with_edits": 0.6, "only_as_written": 2, "only_with_edits": 12,
             "difference": 0.1, "difference_lo": 0.04, "difference_hi": 0.16},
            {"variant": "w", "side": "B", "deck": "control", "edits": "", "games": 100,
             "win_as_written": 0.5, "win_with_edits": 0.4, "only_as_written": 12, "only_with_edits": 2,
             "difference": -0.1, "difference_lo": -0.16, "difference_hi": -0.04}]
    summary = pd.DataFrame({"variant": ["plain", "w"]})

    def res(tables):
        return RunResult(scenario="t", system="cards", seed=1, provenance={}, summary=summary,
                         curves=pd.DataFrame(columns=["variant", "round", "metric", "value"]),
                         rounds=pd.DataFrame(columns=["variant", "rounds", "count"]), tables=tables)

    meta = chart_meta(charts.what_if(res({"what_if": pd.DataFrame(rows)}), tmp_path / "w.png"))
    assert meta["variants"] == ["w"] and meta["omitted"] == {"plain": "no what_if"}
    assert "paired 95% interval" in meta["caption"]
    assert charts.what_if(res({}), tmp_path / "x.png") is None
