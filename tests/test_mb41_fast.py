"""The 1v1 duel fast path (sim/systems/mb41/fast.py) against the general kernel.

The fast path must give bit-identical counters: on random streams (whole
runs through ``simulate``) and on injected dice (one fight, every counter,
every die drawn), over duels drawn at random by hypothesis: girls and
monsters, every assignment of roles to stats, overcharge near a burst, every damage,
initiative, burst and revive rule the fast path accepts. With ``bursts:
play`` a duel in which a burst happens is replayed on the general kernel
(from its keyed streams in ``simulate``, from the same injected dice in
``fast.fight``), so the comparison covers those too.
"""
from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import mb41_call, Script, mb41_data, mb41_fight, mb41_inputs, mb41_member, mb41_state

from sim.rng import stream_key
from sim.systems import mb41
from sim.systems.mb41 import fast as F
from engine41 import K

STATS = ("heart", "fury", "judgment")


@st.composite
def fighters(draw, name):
    """A girl (stats by role or heart/fury/judgment with roles, starting overcharge) or a monster."""
    if draw(st.booleans()):
        return mb41_member(name, kind="monster", attack=draw(st.integers(0, 6)),
                           defence=draw(st.integers(0, 6)), support=draw(st.integers(0, 6)),
                           resolve=draw(st.integers(1, 30)), attack_kind=draw(st.sampled_from(["melee", "ranged"])),
                           damage_bonus=draw(st.integers(-2, 4)), overcharge_pool=draw(st.integers(0, 12)))
    m = mb41_member(name, resolve=draw(st.integers(1, 30)),
                    attack_kind=draw(st.sampled_from(["melee", "ranged"])),
                    overcharge={s: draw(st.integers(0, 14)) for s in STATS},
                    policy={"boost": draw(st.sampled_from(["never", "always"]))})
    if draw(st.booleans()):
        for k in ("attack", "defence", "support"):
            del m[k]
        m.update({s: draw(st.integers(0, 6)) for s in STATS})
        m["roles"] = dict(zip(("attack", "defence", "support"), draw(st.permutations(STATS))))
    else:
        m.update(attack=draw(st.integers(0, 6)), defence=draw(st.integers(0, 6)))
    if m["policy"]["boost"] != "never":
        m["talents"] = []
        m["policy"]["boost"] = "never"  # Boost takes the general path; eligibility is tested below
    return m


@st.composite
def duels(draw):
    rules = {
        "initiative": draw(st.sampled_from(["listed", "roll"])),
        "round_cap": draw(st.integers(1, 12)),
        "full_tie": draw(st.sampled_from(["defender", "attacker"])),
        "min_damage": draw(st.integers(0, 2)),
        "six_damage": draw(st.integers(0, 3)),
        "defender_six_damage": draw(st.integers(0, 3)),
        "damage_dice": draw(st.integers(1, 3)),
        "burst_at": draw(st.integers(3, 14)),
        "burst_resets": draw(st.booleans()),
        "bursts": draw(st.sampled_from(["play", "count"])),
        "revive": draw(st.booleans()),
        "revive_timing": draw(st.sampled_from(["immediate", "next_turn"])),
        "monster_six_cost": draw(st.integers(0, 2)),
    }
    # the fast path's defeat rules: all_down, or all_out when no girl revives (the same fight)
    rules["defeat"] = "all_out" if not rules["revive"] and draw(st.booleans()) else "all_down"
    return mb41_data([draw(fighters("A"))], [draw(fighters("B"))], rules=rules)


def _inputs(data):
    inputs = mb41_inputs(data)
    assert F.eligible(inputs) == [], F.eligible(inputs)
    return inputs


def _same(a: dict, b: dict):
    assert a.keys() == b.keys()
    for k in a:
        np.testing.assert_array_equal(a[k], b[k], err_msg=k)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=duels(), seed=st.integers(0, 2**31))
def test_random_runs_are_bit_identical(data, seed):
    inputs = _inputs(data)
    key = stream_key(seed)
    _same(mb41.simulate(inputs, 5, 1500, key, fast=True), mb41.simulate(inputs, 5, 1500, key, fast=False))


#: bookkeeping of the general engine the fast path has no use for: the fight clocks (talents'),
#: the outcome check's hint (state.outcome_now)
CLOCKS = [K.D_CLOCK, K.D_ROUND, K.D_KEEPER, K.D_KEEPER + 1]


def _fight(fn, inputs, script):
    dyn, cc = mb41_state(inputs)
    n, cap = inputs.n, inputs.round_cap
    side_curve = np.zeros((2, 2, cap + 1), dtype=np.int64)
    comb_curve = np.zeros((n, 2, cap + 1), dtype=np.int64)
    out = mb41_call(fn, comb=inputs.comb, rules=inputs.rules, dyn=dyn, order=np.zeros(n, dtype=np.int64),
                    key=np.zeros(n, dtype=np.int64), streams=script.streams, side_curve=side_curve,
                    comb_curve=comb_curve, bf=None)
    used = [script.used(p) for p in range(K.NS)]
    return out, dyn, cc, side_curve, comb_curve, used


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=duels(), dice=st.data())
def test_scripted_fights_are_identical(data, dice):
    """Same injected dice (values 0-5 suit every draw), same everything, same dice drawn."""
    inputs = _inputs(data)
    rows = {k: dice.draw(st.lists(st.integers(0, 5), min_size=300, max_size=300), label=k)
            for k in ("check", "damage", "setup")}
    general = _fight(K.fight, inputs, Script(**rows))
    fast = _fight(F.fight, inputs, Script(**rows))
    assert general[0] == fast[0]
    for g, f, what in zip(general[1:], fast[1:], ("dyn", "cc", "side_curve", "comb_curve", "used")):
        g, f = np.asarray(g), np.asarray(f)
        if what == "dyn":  # the general engine's bookkeeping (CLOCKS): the fast path keeps none
            g, f = np.delete(g, CLOCKS, axis=1), np.delete(f, CLOCKS, axis=1)
        if what == "cc":  # dyn and cc are one buffer: here its counters
            g, f = g[:, :K.NK], f[:, :K.NK]
        np.testing.assert_array_equal(g, f, err_msg=what)
    assert max(general[-1]) < 300, "script too short for this fight"


def test_scripted_helper_agrees_with_mb41_fight():
    """The harness above calls kernel.fight like tests/helpers.mb41_fight does."""
    inputs = _inputs(mb41_data([mb41_member("A")], [mb41_member("B")], rules={"round_cap": 3}))
    rows = dict(check=[5, 0, 1, 1] * 40, damage=[2] * 40)
    a = _fight(K.fight, inputs, Script(**rows))
    dyn, cc = mb41_state(inputs)
    s = Script(**rows)
    assert mb41_fight(inputs, dyn, s.streams, cc) == tuple(a[0])
    np.testing.assert_array_equal(cc, a[2])


def test_a_hit_by_hand_on_the_fast_path():
    """A (Attack 4) rolls 6,3,2 = 11+4 = 15 with a six against 1,1 + 3 = 5: a hit
    for 1d6 (4) + 2 melee + 2 per six = 8. B rolls 1,1 + 3 = 5 against A's
    6,5,5 + 3 = 19 with a six: a miss. Cap 1 round: a draw."""
    data = mb41_data([mb41_member("A", attack=4)], [mb41_member("B", resolve=10)],
                     rules={"round_cap": 1})
    inputs = _inputs(data)
    s = Script(check=[5, 2, 1, 0, 0] + [0, 0, 5, 4, 4], damage=[3])
    (outcome, rounds), dyn, cc, *_ = _fight(F.fight, inputs, s)
    s.assert_consumed()
    assert (outcome, rounds) == (K.F_DRAW, 1)
    assert dyn[1, K.D_RES] == 2 and dyn[0, K.D_RES] == 18
    assert cc[0, K.K_DEALT] == 8 and cc[1, K.K_TAKEN] == 8
    assert cc[0, K.K_HITS] == 1 and cc[1, K.K_HITS] == 0
    # default roles: Attack fury, Defence heart; one six on each of A's rolls
    assert list(cc[0, K.K_OC_GAIN:K.K_OC_GAIN + 3]) == [1, 1, 0]
    assert list(cc[1, K.K_OC_GAIN:K.K_OC_GAIN + 3]) == [0, 0, 0]


@pytest.mark.parametrize("change, reason", [
    (dict(third=True), "two combatants"),
    (dict(a={"talents": ["Heal"]}), "no talents"),
    (dict(b={"kind": "minion", "attack": 2, "name": "M"}), "no passive defence (minions)"),
    (dict(a={"policy": {"boost": "when-losing"}}), "no Boost"),
    (dict(rules={"defeat": "all_dead"}), "defeat all_down"),
    (dict(rules={"defeat": "all_out", "revive": True}), "defeat all_down"),
    (dict(rules={"burst_while_down": "hold"}), "burst_while_down play"),
])
def test_eligibility_names_what_stands_in_the_way(change, reason):
    a, b = mb41_member("A"), mb41_member("B")
    a.update(change.get("a", {}))
    if "b" in change:
        b = mb41_member(**change["b"])
        for k in ("resolve", "defence", "support"):
            b.pop(k, None)
        b.pop("policy", None)
    side_a = [a, mb41_member("C")] if change.get("third") else [a]
    inputs = mb41_inputs(mb41_data(side_a, [b], rules=change.get("rules")))
    assert reason in F.eligible(inputs)
    with pytest.raises(ValueError, match=re.escape(reason)):
        mb41.simulate(inputs, 0, 10, stream_key(1), fast=True)
    mb41.simulate(inputs, 0, 10, stream_key(1))  # the general kernel plays it


def test_a_monster_with_boost_policy_is_eligible():
    """Boost is a girl's talent: a monster's boost policy changes nothing."""
    m = mb41_member("M", kind="monster", resolve=20, policy={"boost": "always"})
    assert F.eligible(mb41_inputs(mb41_data([mb41_member("A")], [m]))) == []


def test_the_benchmark_duel_takes_the_fast_path():
    from sim.bench import duel_inputs

    assert F.eligible(duel_inputs()) == []


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=duels(), seed=st.integers(0, 2**31))
def test_random_duels_rows_are_the_general_engine_s(data, seed):
    """A study's rows of a duel (:mod:`sim.trial_rows`), played in the fast path's blocks (its
    deferred tallies, rare paths and ``bursts: play`` replays), are the general engine's, row by row."""
    inputs = _inputs(data)
    key = stream_key(seed)
    girls = mb41._first_side_girls(inputs.comb)
    np.testing.assert_array_equal(mb41._play_rows(inputs, 5, 1500, key, girls, fast=True),
                                  mb41._play_rows(inputs, 5, 1500, key, girls, fast=False))
