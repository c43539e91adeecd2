"""Per-trial outcomes (sim.trials.per_trial) agree with the counters of the same trials.

Every system's ``trials`` must replay exactly the trials ``simulate`` plays
(trial i keyed by (key, i)): the per-trial outcomes summed equal the
counters, the girl columns summed equal the per-combatant counters, and the
chunking changes nothing.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sim import rng
from sim.scenario import load_scenario
from sim.trials import per_trial

ROOT = Path(__file__).resolve().parents[1]
SCEN = ROOT / "scenarios"

CASES = [
    ("duel-basic.yaml", 0, 600),                  # 4.1 duel fast path
    ("quickstart.yaml", 0, 600),                  # 4.1 party, gridless
    ("mb41/episode-three-scenes.yaml", 0, 300),   # 4.1 episode of scenes
    ("mb-draft/duel-basic-draft.yaml", 0, 400),   # the draft on the 4.1 engine
    ("d10/duel.yaml", 0, 600),                    # d10 duel fast path
    ("d10/party-grim.yaml", 0, 400),              # d10 party, Guns and Grim
    ("cards/first-player.yaml", 0, 200),          # the card game
]


def _variant(path, idx=0):
    loaded = load_scenario(str(SCEN / path))
    name, model = loaded.variants[idx]
    return loaded, loaded.module.compile(model)


@pytest.mark.parametrize("path,idx,count", CASES)
def test_per_trial_matches_counters(path, idx, count):
    loaded, inputs = _variant(path, idx)
    key = rng.stream_key(loaded.base.seed, 0)
    start = 123
    df = per_trial(loaded.system, inputs, start, count, key, chunk=97)
    assert list(df["trial"]) == list(range(start, start + count))
    c = loaded.module.simulate(inputs, start, count, key)
    np.testing.assert_array_equal(np.bincount(df["outcome"], minlength=3), c["outcomes"])
    np.testing.assert_array_equal(np.bincount(df["rounds"], minlength=len(c["rounds_hist"])), c["rounds_hist"])
    if "girls_out" not in df:
        assert loaded.system == "cards"
        return
    assert (df["girls_dead"] <= df["girls_out"]).all()
    # a girl standing at the end is not dead; no more girls than the side has
    if getattr(inputs, "episode", None) is None:
        n_girls = int(sum(1 for j, k in enumerate(inputs.kinds) if inputs.sides[j] == 0 and k == "girl"))
        assert (df["girls_standing"] + df["girls_dead"] <= n_girls).all()
        assert df["girls_standing"].max() <= n_girls
    if getattr(inputs, "episode", None) is None:
        import importlib

        K = importlib.import_module("sim.systems.d10.kernel" if loaded.system == "d10" else "sim.systems.mb41.layout")
        comb = inputs.comb
        if loaded.system == "d10":
            girls = (comb[:, K.C_SIDE] == 0) & (comb[:, K.C_KIND] == K.KIND_GIRL)
        else:
            girls = (comb[:, K.C_SIDE] == 0) & (comb[:, K.C_MONSTER] == 0)
        cc = c["combatants"][girls]
        assert df["girls_out"].sum() == cc[:, K.K_KO_TRIALS].sum()
        assert df["girls_dead"].sum() == cc[:, K.K_DEATHS].sum()
        assert df["girls_standing"].sum() == cc[:, K.K_STANDING_END].sum()


def test_per_trial_does_not_depend_on_chunks_and_pairs_trials():
    loaded, inputs = _variant("quickstart.yaml")
    key = rng.stream_key(5, 0)
    a = per_trial(loaded.system, inputs, 0, 500, key, chunk=500)
    b = per_trial(loaded.system, inputs, 0, 500, key, chunk=31)
    assert a.equals(b)
    # a later range is the same trials as the tail of a longer one
    c = per_trial(loaded.system, inputs, 250, 250, key)
    assert c.reset_index(drop=True).equals(a.iloc[250:].reset_index(drop=True))
    # another key gives other fights
    d = per_trial(loaded.system, inputs, 0, 500, rng.stream_key(6, 0))
    assert not d["rounds"].equals(a["rounds"])


def test_per_trial_episode_counts_each_girl_once():
    loaded, inputs = _variant("mb41/episode-three-scenes.yaml")
    df = per_trial(loaded.system, inputs, 0, 300, rng.stream_key(loaded.base.seed, 0))
    ng = inputs.episode.party
    assert df["girls_out"].max() <= ng
    assert df["girls_dead"].max() <= ng
    assert df["girls_standing"].max() <= ng
    # a won episode ends with someone of the party standing
    assert (df.loc[df["outcome"] == 0, "girls_standing"] > 0).all()
