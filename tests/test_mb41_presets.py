"""mb41 policy presets and the strongest-threat targeting rule (sim/systems/mb41/policies.py)."""
from __future__ import annotations

import numpy as np
import pytest

from helpers import mb41_call, mb41_data, mb41_inputs, mb41_member, mb41_state

from sim.rng import stream_key
from sim.scenario import ScenarioError
from sim.systems import mb41
from engine41 import K
from sim.systems.mb41.policies import PRESETS


def _pol(policy, **member):
    inp = mb41_inputs(mb41_data([mb41_member("A", policy=policy, **member)], [mb41_member("B")]))
    return inp.pol[0]


def test_a_preset_fills_the_fields_and_own_fields_win():
    row = _pol("careful")
    assert row[K.P_BOOST] == K.BOOST_LOSING and row[K.P_MARGIN] == 2
    assert row[K.P_OCCAP] == 8 and row[K.P_HEAL_BELOW] == 60
    row = _pol({"preset": "careful", "boost": "never", "heal_below": 10})
    assert row[K.P_BOOST] == K.BOOST_NEVER and row[K.P_MARGIN] == 2 and row[K.P_HEAL_BELOW] == 10
    row = _pol({"preset": "aggressive", "boost": "when-losing-by 1"})
    assert row[K.P_BOOST] == K.BOOST_LOSING and row[K.P_MARGIN] == 1
    assert _pol("brutal")[K.P_FINISH] == 1 and _pol("cinematic")[K.P_TARGET] == K.TARGET_RANDOM
    assert _pol("threat-first")[K.P_TARGET] == K.TARGET_STRONGEST


def test_balanced_is_the_default():
    assert np.array_equal(_pol("balanced"), _pol({}))


@pytest.mark.parametrize("policy, expect", [
    ("agressive", "Did you mean 'aggressive'"),
    ({"preset": "brutall"}, "Did you mean 'brutal'"),
    ("focus-weakset", "Did you mean 'focus-weakest'"),
])
def test_misspelled_presets_get_a_suggestion(policy, expect):
    with pytest.raises(ScenarioError, match=expect):
        _pol(policy)


def test_at_least_four_presets_per_side():
    by = {}
    for name, p in PRESETS.items():
        by.setdefault(p["for"], []).append(name)
    assert len(by["girls"]) >= 4 and len(by["monsters"]) >= 4


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_plays(name):
    girls = [mb41_member("A", policy=name, talents=["Boost", "Heal"]), mb41_member("C", policy=name)]
    foes = [mb41_member("M", kind="monster", resolve=30, attack=5, defence=4, support=3, policy=name)]
    inp = mb41_inputs(mb41_data(girls, foes, rules={"revive": True}))
    out = mb41.simulate(inp, 0, 2000, stream_key(name))
    assert out["outcomes"].sum() == 2000


def _target(policy, dyn_changes=()):
    """Whom the monster attacks among A (Attack 3, Resolve 10) and B (Attack 5, full)."""
    girls = [mb41_member("A", attack=3), mb41_member("B", attack=5)]
    foes = [mb41_member("M", kind="monster", resolve=30, attack=4, defence=4, support=3, policy=policy)]
    inp = mb41_inputs(mb41_data(girls, foes))
    dyn, _ = mb41_state(inp)
    dyn[0, K.D_RES] = 10
    for j, col, v in dyn_changes:
        dyn[j, col] = v
    streams = np.zeros((K.NS, 8), dtype=np.uint64)
    return int(mb41_call(K.target_of, i=2, comb=inp.comb, rules=inp.rules, dyn=dyn, streams=streams))


def test_strongest_threat_targets_the_highest_attack():
    assert _target("focus-weakest") == 0
    assert _target("threat-first") == 1
    # B down (0 Resolve, not finished off): the strongest standing girl is A
    assert _target("threat-first", [(1, K.D_RES, 0)]) == 0


def test_strongest_threat_ties_go_to_the_lowest_resolve():
    girls = [mb41_member("A", attack=5), mb41_member("B", attack=5)]
    foes = [mb41_member("M", kind="monster", resolve=30, attack=4, defence=4, support=3, policy="threat-first")]
    inp = mb41_inputs(mb41_data(girls, foes))
    dyn, _ = mb41_state(inp)
    dyn[1, K.D_RES] = 7
    streams = np.zeros((K.NS, 8), dtype=np.uint64)
    assert int(mb41_call(K.target_of, i=2, comb=inp.comb, rules=inp.rules, dyn=dyn, streams=streams)) == 1


# ---------------------------------------------------------------- flair tiers (L153-161)


def test_flair_tier_boundaries():
    inp = mb41_inputs(mb41_data([mb41_member("A")], [mb41_member("B")]))
    tiers = [int(K.flair_tier(oc, 0, inp.rules)) for oc in range(0, 14)]
    assert tiers == [0, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]
    assert int(K.flair_tier(0, 1, inp.rules)) == 5  # a burst this fight


def test_flair_tiers_table_adds_up_and_follows_the_counters():
    """Every girl has exactly one highest tier per stat per fight; a girl starting
    at 11 fury never ends below the permanent-change tier on fury."""
    a = mb41_member("A", overcharge={"fury": 11})
    inp = mb41_inputs(mb41_data([a], [mb41_member("B")], rules={"round_cap": 5}))
    for fast in (True, False):
        out = mb41.simulate(inp, 0, 3000, stream_key(9), fast=fast)
        t = mb41.flair_tiers(out, inp, "v")
        sums = t.groupby(["combatant", "stat"])["rate"].sum()
        assert np.allclose(sums.to_numpy(), 1.0)
        fury = t[(t["combatant"] == "A") & (t["stat"] == "fury")].set_index("tier")["rate"]
        assert fury.loc[[0, 1, 2, 3]].sum() == 0 and fury.loc[4] > 0 and fury.loc[5] > 0
