"""``sim play`` for d10: the log replays trial 0 of ``sim run`` exactly.

The replay (:mod:`sim.systems.d10.game_log`) runs the kernel's functions as
plain Python with the streams seeded as the compiled ``simulate_blocks``
seeds them; here its outcome, rounds, fights and every per-combatant counter
(wounds at the end, mana and fortune spent, hits, thresholds, KOs, ...) must
equal what the compiled kernel (``simulate``, as ``sim run`` calls it,
duel fast path included) gives for the same trial and key, and the log's
closing summary must be the one those compiled counters print.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sim import api, rng
from sim.systems import d10
from sim.systems.d10 import testing as T
from sim.systems.d10.game_log import Trial, final_lines, play_log

ROOT = Path(__file__).resolve().parents[1]


def _run_key(loaded, seed, idx):
    """The stream key ``sim run`` gives variant ``idx`` (sim/runner.py)."""
    return rng.stream_key(seed, 0 if loaded.base.crn else idx + 1)


def _compiled(inputs, key, trial):
    c = d10.simulate(inputs, trial, 1, key)
    assert c["outcomes"].sum() == 1
    return int(np.argmax(c["outcomes"])), int(c["rounds_sum"][0]), int(c["fights"][0]), c["combatants"]


def _assert_replays(inputs, key, trial=0):
    t = Trial(inputs, key, trial).run()
    outcome, rounds, fights, cc = _compiled(inputs, key, trial)
    assert (t.outcome, t.rounds, t.fights) == (outcome, rounds, fights)
    diff = np.argwhere(t.cc != cc)
    assert diff.size == 0, f"counters differ at (combatant, K_*) {diff.tolist()}"
    # the log ends with the summary the compiled counters print
    want = final_lines(inputs, outcome, rounds, fights, cc)
    assert t.lines[-len(want):] == want
    return t


@pytest.mark.parametrize("path", ["scenarios/d10/party-cake.yaml", "scenarios/d10/duel.yaml"])
def test_log_replays_trial_0_of_sim_run(path):
    loaded = api.load(str(ROOT / path))
    seed = 3
    for idx, (name, model) in enumerate(loaded.variants):
        inputs = d10.compile(model)
        key = _run_key(loaded, seed, idx)
        t = _assert_replays(inputs, key)
        assert t.rounds > 0
        text = play_log(model, seed)
        want = final_lines(inputs, *_compiled(inputs, key, 0))
        assert text.splitlines()[-len(want):] == want, name
        assert "Round 1" in text and "d10 [" in text
        _each_roll_logged_once(text.splitlines())


def _each_roll_logged_once(lines):
    """No pool roll is logged twice (a labelled line, then the same faces again)."""
    rolls = [x.strip() for x in lines if "] -> " in x and "success" in x]
    assert rolls, "no roll logged"
    for a, b in zip(rolls, rolls[1:]):
        assert not (b.startswith("rolls ") and b.split(" [", 1)[1] == a.split(" [", 1)[1]), (a, b)


def test_duel_takes_the_fast_path_and_still_replays():
    loaded = api.load(str(ROOT / "scenarios/d10/duel.yaml"))
    inputs = d10.compile(loaded.variants[0][1])
    assert inputs.plain
    for trial in range(5):
        _assert_replays(inputs, _run_key(loaded, 3, 0), trial)


def test_replays_powers_specials_and_campaigns():
    """Duplication, Regeneration, Awareness, Blood Magic, Hammerspace, Aid,
    Disguise, a penalty specialization on two targets, Third Eye, Killing Blow,
    Tentacles, Pursue, retreat/hide policies; grim with permanent wounds over
    2 episodes x 2 fights: every trial's counters replay."""
    a = [T.member("Ann", powers=["Duplication", "Regeneration"], perks=["Awareness", "Blood Magic"],
                  attack_kind="mystic", policy={"preset": "cautious"}),
         T.member("Bea", powers=["Hammerspace", "Power of Friendship"], perks=["Disguise Artifact"],
                  policy={"preset": "support"}),
         T.member("Cat", attack_kind="specialization", specialization={"effect": "penalty"},
                  powers=["Third Eye", "Killing Blow"], policy={"preset": "aggressive", "targets": 2})]
    b = [T.member("Orc", kind="monster_girl", powers=["Tentacles"], abilities={"strength": 12, "vitality": 10},
                  policy={"preset": "aggressive"}),
         T.member("Imp", kind="monster_girl", policy={"preset": "cautious", "pursue": True}),
         T.member("Elf", kind="monster_girl", attack_kind="ranged", policy={"preset": "plain", "target": "random"})]
    data = T.scenario(a, b, rules={"mode": "grim", "permanent_wounds": "on", "initiative": "roll",
                                   "episodes": 2, "fights_per_episode": 2})
    inputs = T.inputs(data)
    key = rng.stream_key(5, 0)
    text = []
    for trial in range(12):
        text += _assert_replays(inputs, key, trial).lines
    text = "\n".join(text)
    for shown in ("Fight 2", "Duplication", "Recharges", "defends with"):
        assert shown in text, shown


def _cli(*args):
    env = dict(os.environ)
    env.pop("SIM_DEBUG", None)
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, "-m", "sim.cli", *args], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=300)


def test_cli_prints_the_log():
    r = _cli("play", "scenarios/d10/party-cake.yaml", "--seed", "3", "--log")
    assert r.returncode == 0, r.stderr
    loaded = api.load(str(ROOT / "scenarios/d10/party-cake.yaml"))
    inputs = d10.compile(loaded.variants[0][1])
    want = final_lines(inputs, *_compiled(inputs, _run_key(loaded, 3, 0), 0))
    lines = r.stdout.splitlines()
    assert lines[0].startswith("d10 combat") and "seed 3" in lines[0]
    assert "Initiative: Agility rolls" in r.stdout and "Order: " in r.stdout and "\nRound 1" in r.stdout
    assert lines[-len(want):] == want


def test_cli_variant_typo():
    r = _cli("play", "scenarios/d10/party-cake.yaml", "--variant", "grimm")
    assert r.returncode == 2
    assert "no variant 'grimm'" in r.stderr and "grim" in r.stderr
