"""``sim play`` for mb41 and mb-draft: the log is the compiled kernel's trial.

The log (:mod:`sim.systems.mb41.fight_log`) plays trial N by the engine's own
functions run as plain Python (:mod:`sim.systems.mb41.replay`), observed by
wrappers that draw nothing. Here every array the block kernel fills for that
trial (outcome and rounds, the rounds histogram, the standing curves, every
counter and the final state of every combatant; an episode's scene outcomes and
party counters) must equal what the compiled kernel gives for the same trial and
key (the general kernel, ``fast=False``), and the outcome, rounds, curves and every
counter must equal what ``sim run`` plays (the duel fast path where eligible: it keeps
the counters, not the final state), for a gridless fight, the draft's positions, the
hex grid, an episode, a gridless draft fight and a duel; and the log's closing summary
must be the one the compiled arrays print.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import sim.systems.mb41 as M
from sim import api
from sim.systems.mb41 import layout as L
from sim.systems.mb41.fight_log import Trial, play_events, summary_events, variant_key

ROOT = Path(__file__).resolve().parents[1]
SEED = 3

#: (scenario, variant index, trials): gridless 4.1, the draft's positions, the hex grid, an episode,
#: a draft fight with the draft's own talents (Hex, Magic Detonation, Second Chance Attack), a duel
CASES = [("scenarios/mb41/party-vs-boss.yaml", 0, (0, 7)), ("scenarios/mb-draft/positions-draft.yaml", 0, (0, 4)),
         ("scenarios/mb41/party-vs-boss-hex.yaml", 0, (1,)), ("scenarios/mb41/episode-three-scenes.yaml", 0, (2,)),
         ("scenarios/mb-draft/affinities-draft.yaml", 3, (0, 3)), ("scenarios/duel-basic.yaml", 0, (0,))]


def _compiled(inputs, key, trial, fast=False):
    """The compiled block kernel's arrays for one trial (``fast=None``: as ``sim run`` plays it)."""
    if inputs.episode is None:
        return M._play_fight(inputs, trial, 1, key, 1, fast)
    return M._play_episode(inputs, trial, 1, key, 1)


@pytest.mark.parametrize("path,index,trials", CASES, ids=[Path(p).stem for p, _, _ in CASES])
def test_log_is_the_compiled_trial(path, index, trials):
    loaded = api.load(str(ROOT / path))
    name, model = loaded.variants[index]
    inputs = loaded.module.compile(model)
    key = variant_key(model, SEED, index)
    for trial in trials:
        t = Trial(inputs, key, trial).run()
        want = _compiled(inputs, key, trial)
        assert set(t.raw) == set(want)
        for k in want:
            diff = np.argwhere(np.asarray(t.raw[k]) != np.asarray(want[k]))
            assert diff.size == 0, f"{path} trial {trial}: {k} differs at {diff[:5].tolist()}"
        run = _compiled(inputs, key, trial, None)  # as sim run plays it
        for k in run:
            a, b = np.asarray(t.raw[k]), np.asarray(run[k])
            if k == "cc":
                a, b = a[..., :L.NK], b[..., :L.NK]  # the counters (the fast path keeps no final state)
            assert np.array_equal(a, b), f"{path} trial {trial}: {k} differs from sim run's"
        kinds = [e["event"] for e in t.events]
        assert kinds.count("fight") >= 1 and "initiative" in kinds and "attack" in kinds
        summary = [e for e in t.events if e["event"] in ("outcome", "summary")]
        assert summary == summary_events(inputs, want)
        # the system's own entry point (sim play): compiled as that system (the draft's catalog and defaults)
        logged = [json.loads(line) for line in
                  loaded.module.play(model, SEED, trial, as_json=True, index=index).splitlines()]
        assert [e for e in logged if e["event"] in ("outcome", "summary")] == summary


def test_the_replay_goes_through_python_hooks():
    """Talent hooks (dispatched through the procedure table) are observed: Reflector,
    Shield, Thick Hide... show up as talent events, and the log's attacks count
    the compiled kernel's K_ATTACKS."""
    loaded = api.load(str(ROOT / "scenarios/mb41/party-vs-boss.yaml"))
    events, t = play_events(loaded.variants[0][1], SEED, 0)
    talents = {e["hook"] for e in events if e["event"] == "talent"}
    assert talents, "no talent hook observed"

    attacks = sum(1 for e in events if e["event"] == "attack")
    assert attacks == int(t.raw["cc"][0][:, L.K_ATTACKS].sum())
    hits = sum(1 for e in events if e["event"] == "hit")
    assert hits == int(t.raw["cc"][0][:, L.K_HITS].sum())
    # a draw in an observer would change the trial: the arrays would differ from the compiled ones
    assert np.array_equal(t.raw["cc"], _compiled(t.inp, t.key, 0)["cc"])


def test_hex_log_moves():
    loaded = api.load(str(ROOT / "scenarios/mb41/party-vs-boss-hex.yaml"))
    events, t = play_events(loaded.variants[0][1], SEED, 1)
    moves = [e for e in events if e["event"] == "move"]
    assert moves and all("hex" in e["text"] for e in moves)


def _sim(*args):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "sim.cli", *args], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=600)


def test_cli_json_and_trial():
    p = _sim("play", "scenarios/mb-draft/affinities-draft.yaml", "--seed", "3", "--trial", "3", "--json")
    assert p.returncode == 0, p.stderr
    events = [json.loads(line) for line in p.stdout.splitlines()]
    assert events[0]["event"] == "start" and events[0]["trial"] == 3 and events[0]["seed"] == 3
    assert all({"event", "depth", "text"} <= set(e) for e in events)
    assert events[-1]["event"] == "summary" and "counters" in events[-1]
    text = _sim("play", "scenarios/mb-draft/affinities-draft.yaml", "--seed", "3", "--trial", "3")
    assert text.returncode == 0 and "OUTCOME" in text.stdout
    assert [e["text"] for e in events if e["event"] == "outcome"][0] in text.stdout


def test_cli_refuses_trial_for_d10_and_a_negative_trial():
    p = _sim("play", "scenarios/d10/duel.yaml", "--json")
    assert p.returncode == 2 and "mb41" in p.stderr and "Traceback" not in p.stderr
    p = _sim("play", "scenarios/mb41/party-vs-boss.yaml", "--trial", "-1")
    assert p.returncode == 2 and "--trial" in p.stderr
