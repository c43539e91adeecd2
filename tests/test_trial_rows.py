"""A study's rows (the systems' ``trials``) played in blocks (:mod:`sim.trial_rows`)
are the rows of one trial per block (how they were played before), and they add up to the run's
counters for the same trials."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sim.rng import stream_key
from sim.scenario import load_scenario
from sim.systems import mb41
from sim.systems.mb41 import layout as L

ROOT = Path(__file__).resolve().parents[1]


def _one_per_block(inp, start, count, key, fast=None):
    """The rows as :func:`trials` read them from one trial per block (its code before the row kernels)."""
    raw = mb41._play_fight(inp, start, count, key, count, fast)
    per = raw["cc"][:, mb41._first_side_girls(inp.comb), :]
    f = raw["fights"]
    return {"outcome": np.argmax(f[:, :3], axis=1), "rounds": f[:, L.F_ROUNDS],
            "girls_out": (per[:, :, L.K_KO_TRIALS] > 0).sum(axis=1), "girls_dead": per[:, :, L.K_DEATHS].sum(axis=1),
            "girls_standing": per[:, :, L.K_STANDING_END].sum(axis=1)}


@pytest.mark.parametrize("path", ["scenarios/mb41/party-vs-boss.yaml", "scenarios/mb41/party-vs-boss-hex.yaml"])
def test_rows_in_blocks_are_the_rows_of_one_trial_a_block(path):
    loaded = load_scenario(ROOT / path)
    inp = loaded.module.compile(loaded.variants[0][1])
    key = stream_key(7, 0)
    got = mb41.trials(inp, 1234, 3000, key)
    want = _one_per_block(inp, 1234, 3000, key)
    for k, v in want.items():
        assert np.array_equal(got[k], v), k
    # the rows are not trivially equal: fights end both ways, girls drop and die
    assert 0 < got["outcome"].mean() < 1 and got["girls_out"].max() > 0 and got["girls_dead"].max() > 0
    # and they add up to the run's counters over the same trials
    c = mb41.simulate(inp, 1234, 3000, key)
    girls = mb41._first_side_girls(inp.comb)
    assert got["girls_dead"].sum() == c["combatants"][girls, L.K_DEATHS].sum()
    assert got["girls_standing"].sum() == c["combatants"][girls, L.K_STANDING_END].sum()
    assert got["girls_out"].sum() == c["combatants"][girls, L.K_KO_TRIALS].sum()
    assert got["rounds"].sum() == c["rounds_sum"][0]
    assert np.array_equal(np.bincount(got["outcome"], minlength=3), c["outcomes"])


def _d10_one_per_block(inp, start, count, key, fast=None):
    from sim.systems import d10
    from sim.systems.d10 import kernel as K

    raw = d10._play(inp, start, count, key, count, fast)
    girls = np.flatnonzero((inp.comb[:, K.C_SIDE] == 0) & (inp.comb[:, K.C_KIND] == K.KIND_GIRL))
    per = raw["cc"][:, girls, :]
    f = raw["fights"]
    return {"outcome": np.argmax(f[:, :3], axis=1), "rounds": f[:, K.F_ROUNDS],
            "girls_out": (per[:, :, K.K_KO_TRIALS] > 0).sum(axis=1),
            "girls_dead": (per[:, :, K.K_DEATHS] > 0).sum(axis=1),
            "girls_standing": (per[:, :, K.K_STANDING_END] > 0).sum(axis=1)}


def test_d10_rows_in_blocks_are_the_rows_of_one_trial_a_block():
    from sim.systems import d10

    loaded = load_scenario(ROOT / "scenarios/d10/party-grim.yaml")
    key = stream_key(9, 0)
    for _name, model in loaded.variants[:2]:
        inp = loaded.module.compile(model)
        got = d10.trials(inp, 77, 3000, key)
        want = _d10_one_per_block(inp, 77, 3000, key)
        for k, v in want.items():
            assert np.array_equal(got[k], v), k
        assert 0 < got["outcome"].mean() < 2 and got["girls_out"].max() > 0


def test_a_duel_s_rows_are_the_fast_path_s():
    """A duel the fast path plays (:mod:`sim.systems.mb41.fast`, d10's): its rows, played in the
    fast path's blocks, are its one trial a block, and the general kernel's."""
    from helpers import duel_data, load_data
    from sim.systems import d10
    from sim.systems.mb41 import fast as F

    loaded = load_data(duel_data(rules={"revive": False}))
    inp = loaded.module.compile(loaded.variants[0][1])
    assert not F.eligible(inp)
    key = stream_key(4, 0)
    got = mb41.trials(inp, 10, 4000, key)
    want = _one_per_block(inp, 10, 4000, key)
    general = _one_per_block(inp, 10, 4000, key, fast=False)
    for k, v in want.items():
        assert np.array_equal(got[k], v), k
        assert np.array_equal(general[k], v), k
    assert 0 < got["outcome"].mean() < 1 and got["girls_out"].max() > 0 and got["girls_standing"].min() == 0

    loaded = load_scenario(ROOT / "scenarios/d10/duel.yaml")
    inp = loaded.module.compile(loaded.variants[0][1])
    assert not d10.F.eligible(inp)
    got = d10.trials(inp, 10, 4000, key)
    want = _d10_one_per_block(inp, 10, 4000, key)
    general = _d10_one_per_block(inp, 10, 4000, key, fast=False)
    for k, v in want.items():
        assert np.array_equal(got[k], v), k
        assert np.array_equal(general[k], v), k
    assert 0 < got["outcome"].mean() < 1 and got["girls_out"].max() > 0 and got["girls_standing"].min() == 0


def _episode_one_per_block(inp, start, count, key, piece=1000):
    """An episode's rows as :func:`trials` read them from one trial per block (its code before
    the episode kernels wrote rows), in pieces of ``piece`` trials; with ``last``, the last
    scene each episode reached, and ``ko``, ``[count, S, party]`` each party girl's knock-outs
    per scene."""
    ep = inp.episode
    parts = []
    for s in range(start, start + count, piece):
        c = min(piece, start + count - s)
        raw = mb41._play_episode(inp, s, c, key, c)
        rows = np.concatenate([np.arange(ep.party) + int(o) for o in ep.offsets[:-1]])
        per = raw["cc"][:, rows, :]
        ko = per[:, :, L.K_KO_TRIALS].reshape(c, ep.n_scenes, ep.party)
        played = raw["scene_fights"][:, :, :3].sum(axis=2) > 0  # [c, S]
        last = ep.n_scenes - 1 - np.argmax(played[:, ::-1], axis=1)
        st = per[:, :, L.K_STANDING_END].reshape(c, ep.n_scenes, ep.party)
        f = raw["fights"]
        parts.append({"outcome": np.argmax(f[:, :3], axis=1), "rounds": f[:, L.F_ROUNDS],
                      "girls_out": (ko.max(axis=1) > 0).sum(axis=1),  # once however many scenes
                      "girls_dead": per[:, :, L.K_DEATHS].sum(axis=1),
                      "girls_standing": st[np.arange(c), last].sum(axis=1),
                      "last": last, "ko": ko, "standing_any_scene": st.sum(axis=(1, 2))})
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def _grid_episode():
    """``episode-three-scenes.yaml`` on a hex battlefield (every scene on the same field)."""
    import yaml
    from helpers import load_data

    data = yaml.safe_load((ROOT / "scenarios/mb41/episode-three-scenes.yaml").read_text())
    data["rules"]["grid"] = "hex"
    data["battlefield"] = {"shape": "rect", "width": 8, "height": 6, "obstacles": [[2, 2], [5, 3]],
                           "rough": [[3, 3], [4, 2]]}
    data["variants"] = data["variants"][:1]
    return load_data(data)


@pytest.mark.parametrize("where", ["gridless", "hex"])
def test_an_episode_s_rows_in_blocks_are_the_rows_of_one_trial_a_block(where):
    """An episode's rows, played in :func:`mb41.simulate`'s blocks (each trial's row written by
    the episode's block kernel, :func:`sim.trial_rows.after_scenes`), are the rows of one
    trial per block, and add up to the run's counters over the same trials."""
    if where == "gridless":
        loaded = load_scenario(ROOT / "scenarios/mb41/episode-three-scenes.yaml")
    else:
        loaded = _grid_episode()
    inp = loaded.module.compile(loaded.variants[0][1])
    ep = inp.episode
    assert ep is not None and (inp.battlefield is not None) == (where == "hex")
    key = stream_key(3, 0)
    start, count = 4321, 3000
    got = mb41.trials(inp, start, count, key)
    want = _episode_one_per_block(inp, start, count, key)
    for k in ("outcome", "rounds", "girls_out", "girls_dead", "girls_standing"):
        assert np.array_equal(got[k], want[k]), k
    # not vacuous: episodes won and lost, some ended before the last scene, girls dropped
    # (some in two scenes: counted once) and died, and standing is the last scene's only
    assert set(got["outcome"].tolist()) >= {0, 1}
    assert (want["last"] < ep.n_scenes - 1).any() and (want["last"] == ep.n_scenes - 1).any()
    assert got["girls_out"].max() > 0 and got["girls_dead"].max() > 0
    assert ((want["ko"] > 0).sum(axis=1) > 1).any()
    assert not np.array_equal(want["standing_any_scene"], got["girls_standing"])
    # the rows add up to the run's counters over the same trials
    c = mb41.simulate(inp, start, count, key)
    party = np.concatenate([np.arange(ep.party) + int(o) for o in ep.offsets[:-1]])
    assert got["girls_dead"].sum() == c["combatants"][party, L.K_DEATHS].sum()
    assert got["girls_standing"].sum() == c["party"][:, L.PE_STANDING_END].sum()
    assert got["rounds"].sum() == c["rounds_sum"][0]
    assert np.array_equal(np.bincount(got["outcome"], minlength=3), c["outcomes"])
    # and do not depend on how the trials are split into calls (blocks)
    a = mb41.trials(inp, start, 700, key)
    b = mb41.trials(inp, start + 700, count - 700, key)
    for k, v in got.items():
        assert np.array_equal(np.concatenate([a[k], b[k]]), v), k


def _cards_one_per_block(inp, cd, start, count, key):
    """A card game's rows from one game per block (how ``trials`` and a ``what_if`` read them before)."""
    from sim.systems import cards

    raw = cards._blocks(cd, inp, start, count, key, count)
    return np.argmax(raw["outcomes"], axis=1), np.argmax(raw["rounds_hist"], axis=1)


def test_card_game_rows_in_blocks_are_the_rows_of_one_game_a_block():
    from sim.systems import cards

    loaded = load_scenario(ROOT / "scenarios/cards/card-edits.yaml")
    names = [n for n, _v in loaded.variants]
    inp = loaded.module.compile(loaded.variants[names.index("what if ruby atk 4")][1])
    key = stream_key(5, 0)
    got = cards.trials(inp, 321, 2000, key)
    outcome, rounds = _cards_one_per_block(inp, inp.cd, 321, 2000, key)
    assert np.array_equal(got["outcome"], outcome) and np.array_equal(got["rounds"], rounds)
    assert len(set(got["outcome"].tolist())) >= 2 and got["rounds"].min() > 0
    # a what_if's paired counts: each game's outcome as written and with the edits, on the same streams
    c = cards.simulate(inp, 321, 2000, key)
    edited, _r = _cards_one_per_block(inp, inp.what_if_cd, 321, 2000, key)
    for s in range(2):
        a, b = outcome == s, edited == s
        assert c["what_if"][s].tolist() == [2000, a.sum(), b.sum(), (a & b).sum()]
    assert not np.array_equal(outcome, edited)  # the edit changes some games
    assert np.array_equal(c["outcomes"], np.bincount(outcome, minlength=3))


UNCOMPILED_EPISODE = '''
import json, sys
from sim import rng
from sim.scenario import load_scenario
loaded = load_scenario(sys.argv[1])
inp = loaded.module.compile(loaded.variants[0][1])
r = loaded.module.trials(inp, 5, 12, rng.stream_key(3, 0))
print(json.dumps({k: v.tolist() for k, v in r.items()}))
'''


def test_an_uncompiled_episode_plays_the_compiled_rows():
    """Uncompiled (``NUMBA_DISABLE_JIT``, how the tier-2 and replay tests play), an episode's
    worlds (a slot of one buffer per scene, :func:`sim.systems.mb41.world.pack`) stay apart:
    the rows are the compiled ones. (The worlds are keyed by each slot's address, as compiled;
    keyed by the id of a slice, which Python may reuse once the slice is gone, a scene's world
    could replace the episode's.)"""
    from helpers import run_python

    path = ROOT / "scenarios/mb41/episode-three-scenes.yaml"
    loaded = load_scenario(path)
    inp = loaded.module.compile(loaded.variants[0][1])
    want = mb41.trials(inp, 5, 12, stream_key(3, 0))
    got = run_python(UNCOMPILED_EPISODE, [path])
    assert {k: v.tolist() for k, v in want.items()} == got
    assert len(set(got["outcome"])) > 1  # not a run of one outcome
