"""Issue 35, d10: two defects fixed and three silent readings made rule options.

Scripted dice (faces of d10s; members default to all abilities 6 = 3 dice,
12 wounds, melee, Dodge, DR 1, the 'plain' policy: sim.systems.d10.testing).
Seed 002 L241-243 is the Magic Block; seed 003 L79 the penalty spell, L153
Hammerspace, L175 Tentacles.

- block_mana_on: a Block that holds against a Tentacles grapple or a
  Hammerspace trap restores its mana (any_magic, the default; before, no mana);
- recast: a second spell never loosens a hold (keep_higher, the default;
  before, a lower result replaced the target number), replace, forbid;
  the policy recast_held: false keeps a spell off a target already held;
- hold_ends: escape (literal) or holder_out;
- hammerspace_stored: out (a side whose every member left is stored has lost) or in;
- the Tentacles policy grapple: reasoned, by the exact chance table;
- a policy setting that could not act is refused at load.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sim.exact import d10_pool
from sim.rng import stream_key
from sim.scenario import load_scenario
from sim.systems import d10
from sim.systems.d10 import kernel as K
from sim.systems.d10.testing import Script, inputs, load, member, run, scenario, state

ROOT = Path(__file__).resolve().parent.parent
A, B, C = 0, 1, 2
SPELL = {"attack_kind": "specialization", "specialization": {"effect": "penalty", "penalty": 2}}


def setup(a=None, b=None, rules=None, more_b=()):
    inp = inputs(scenario([member("Ami", **(a or {}))], [member("Bea", **(b or {}))] + list(more_b), rules))
    dyn, cc = state(inp)
    return inp, dyn, cc


def play(inp, dyn, cc, fn, check=(), **args):
    s = Script(check=check)
    r = run(inp, dyn, cc, fn, s.streams, **args)
    s.assert_consumed()
    return r


# ---------------------------------------------------------------- block_mana_on (defect 3)


@pytest.mark.parametrize("on, mana", [(None, 5), ("any_magic", 5), ("attacks", 4)])
def test_magic_block_that_holds_against_tentacles_restores_mana(on, mana):
    """Ami's grapple: 3 Magic dice 1,1,1 = 0; Bea blocks with 3 Magic dice 7,7,1 = 2: the grapple
    fails. Under block_mana_on any_magic (the default) the shield absorbed a use of Magic: +1 mana."""
    rules = {} if on is None else {"block_mana_on": on}
    inp, dyn, cc = setup(a={"powers": ["Tentacles"]}, b={"defence": "magic"}, rules=rules)
    dyn[B, K.D_MANA] = 4
    play(inp, dyn, cc, K.grapple, (1, 1, 1, 7, 7, 1), i=A, t=B, pin=False, bonus=0)
    assert dyn[B, K.D_HELD] == 0 and cc[B, K.K_DEFENCES + K.T_BLOCK - K.T_DODGE] == 1
    assert dyn[B, K.D_MANA] == mana and cc[B, K.K_BLOCK_MANA] == mana - 4


@pytest.mark.parametrize("on, mana", [(None, 5), ("attacks", 4)])
def test_magic_block_that_holds_against_hammerspace_restores_mana(on, mana):
    """Ami's trap: 3 Magic dice 1,1,1 = 0; Bea blocks with 3 + 2 dice (a living thing, L153)
    7,1,1,1,1 = 1: not stored; the Block held."""
    rules = {} if on is None else {"block_mana_on": on}
    inp, dyn, cc = setup(a={"powers": ["Hammerspace"]}, b={"defence": "magic"}, rules=rules)
    dyn[B, K.D_MANA] = 4
    play(inp, dyn, cc, K.hammerspace, (1, 1, 1, 7, 1, 1, 1, 1), i=A, t=B, bonus=0)
    assert dyn[B, K.D_STORED] == 0 and dyn[B, K.D_MANA] == mana


def test_a_dodge_against_tentacles_restores_nothing():
    inp, dyn, cc = setup(a={"powers": ["Tentacles"]})
    dyn[B, K.D_MANA] = 4
    play(inp, dyn, cc, K.grapple, (1, 1, 1, 7, 7, 1), i=A, t=B, pin=False, bonus=0)
    assert dyn[B, K.D_MANA] == 4 and cc[B, K.K_BLOCK_MANA] == 0


# ---------------------------------------------------------------- recast (defect 4)


def _cast_twice(rule, first, second):
    """Ami casts her -2 spell on Bea twice; Bea dodges 1,1,1 = 0, then held at -2 with one die,
    1 = 0. Returns Bea's hold."""
    rules = {} if rule is None else {"recast": rule}
    inp, dyn, cc = setup(a=SPELL, rules=rules)
    play(inp, dyn, cc, K.attack, first + (1, 1, 1), i=A, t=B, aid=0)
    play(inp, dyn, cc, K.attack, second + (1,), i=A, t=B, aid=0)
    return dyn[B, K.D_HELD], dyn[B, K.D_HELD_TN], cc


@pytest.mark.parametrize("rule", [None, "keep_higher"])
def test_a_second_spell_never_loosens_the_hold(rule):
    """The first spell rolls 7,7,7 = 3 (TN 3); the re-cast 7,1,1 = 1 lands too, but under
    keep_higher (the default) the hold keeps TN 3; a re-cast of 10,10,7 = 5 raises it to 5."""
    pen, tn, cc = _cast_twice(rule, (7, 7, 7), (7, 1, 1))
    assert (pen, tn) == (2, 3) and cc[A, K.K_SPELLS] == 2
    pen, tn, _ = _cast_twice(rule, (7, 7, 7), (10, 10, 7))
    assert (pen, tn) == (2, 5)


def test_recast_replace_is_the_old_reading():
    """replace: the re-cast's lower result (1) becomes the target number: easier to escape."""
    pen, tn, _ = _cast_twice("replace", (7, 7, 7), (7, 1, 1))
    assert (pen, tn) == (2, 1)


def test_recast_forbid_leaves_a_held_target_as_she_is():
    """forbid: a spell landing on a held target changes nothing (the targeting keeps it away,
    below; an area use passes over her)."""
    pen, tn, _ = _cast_twice("forbid", (7, 7, 7), (10, 10, 7))
    assert (pen, tn) == (2, 3)


def test_a_larger_penalty_replaces_the_hold_under_keep_higher():
    """Cid's -4 spell (7,1,1 = 1) on Bea held at -2 / TN 3 (one die, 1): the larger penalty is the
    stronger hold, though its target number is lower."""
    inp = inputs(scenario([member("Ami", **SPELL), member("Cid", attack_kind="specialization",
                                                            specialization={"effect": "penalty", "penalty": 4})],
                          [member("Bea")]))
    dyn, cc = state(inp)
    K.hold(dyn, 2, 2, 3, K.HELD_SPELL, 0)
    play(inp, dyn, cc, K.attack, (7, 1, 1, 1), i=1, t=2, aid=0)
    assert (dyn[2, K.D_HELD], dyn[2, K.D_HELD_TN], dyn[2, K.D_HELD_BY]) == (4, 1, 1)


def _act_with_bea_held(rule=None, policy=None, more_b=(member("Cid"),)):
    rules = {} if rule is None else {"recast": rule}
    a = dict(SPELL, policy=policy or {})
    inp, dyn, cc = setup(a=a, rules=rules, more_b=more_b)
    K.hold(dyn, B, 2, 3, K.HELD_SPELL, A)
    return inp, dyn, cc


@pytest.mark.parametrize("rule", [None, "forbid"])
def test_the_spell_goes_to_a_target_not_yet_held(rule):
    """Bea (held by Ami's -2 spell) and Cid are equally hurt; 'weakest' picks the first listed,
    Bea, but the default policy (recast_held: false) and rule forbid aim the spell at Cid."""
    inp, dyn, cc = _act_with_bea_held(rule)
    play(inp, dyn, cc, K.act, (7, 7, 1, 1, 1, 1), i=A, aid_dice=0)
    assert dyn[C, K.D_HELD] == 2 and dyn[C, K.D_HELD_BY] == A and dyn[B, K.D_HELD_TN] == 3


def test_recast_held_true_recasts_on_the_held_target():
    """recast_held: true (the behaviour before issue 35): the spell goes to Bea again (10,10,7 = 5
    against her one die, 1)."""
    inp, dyn, cc = _act_with_bea_held(policy={"recast_held": True})
    play(inp, dyn, cc, K.act, (10, 10, 7, 1), i=A, aid_dice=0)
    assert dyn[C, K.D_HELD] == 0 and dyn[B, K.D_HELD_TN] == 5


def test_a_caster_who_holds_everyone_recharges_then_waits():
    """Only Bea, held by Ami's spell: no cast; Ami Recharges while her mana is not full
    (L113), then waits (no dice)."""
    inp, dyn, cc = _act_with_bea_held(more_b=())
    dyn[A, K.D_MANA] = 4
    play(inp, dyn, cc, K.act, (), i=A, aid_dice=0)
    assert dyn[A, K.D_MANA] == 6 and cc[A, K.K_RECHARGES] == 1 and cc[A, K.K_ATTACKS] == 0
    play(inp, dyn, cc, K.act, (), i=A, aid_dice=0)
    assert cc[A, K.K_RECHARGES] == 1 and cc[A, K.K_ATTACKS] == 0


def test_forbid_passes_over_a_held_target_of_an_area_spell():
    """An area penalty use under forbid: Bea (held) is passed over, Cid defends and is held."""
    area = {"attack_kind": "specialization", "specialization": {"effect": "penalty", "area": True}}
    inp, dyn, cc = setup(a=area, rules={"recast": "forbid"}, more_b=[member("Cid")])
    K.hold(dyn, B, 2, 3, K.HELD_SPELL, A)
    play(inp, dyn, cc, K.attack, (7, 7, 1, 1, 1, 1), i=A, t=C, aid=0)
    assert cc[A, K.K_TARGETED] == 1 and dyn[C, K.D_HELD] == 2 and dyn[B, K.D_HELD_TN] == 3


# ---------------------------------------------------------------- hold_ends


@pytest.mark.parametrize("rule, held", [(None, 2), ("escape", 2), ("holder_out", 0)])
def test_a_hold_and_its_holder(rule, held):
    """Ami's spell holds Bea; Ami is knocked out (a full pool). escape (the default, literal
    L79): Bea stays held; holder_out: the hold ends with Ami."""
    rules = {} if rule is None else {"hold_ends": rule}
    inp, dyn, cc = setup(a=SPELL, rules=rules)
    K.hold(dyn, B, 2, 3, K.HELD_SPELL, A)
    s = Script()
    run(inp, dyn, cc, K.apply_wounds, s.streams, t=A, w=12)
    assert dyn[A, K.D_OUT] == K.OUT_KO and dyn[B, K.D_HELD] == held


def test_holder_out_ends_a_grapple_when_the_holder_flees():
    inp, dyn, cc = setup(a={"powers": ["Tentacles"]}, rules={"hold_ends": "holder_out"})
    K.hold(dyn, B, 2, 3, K.HELD_GRAPPLE, A)
    dyn[A, K.D_RETREAT] = 2
    play(inp, dyn, cc, K.take_turn, (), i=A)
    assert dyn[A, K.D_OUT] == K.OUT_FLED and dyn[B, K.D_HELD] == 0 and dyn[B, K.D_HELD_KIND] == K.HELD_NONE


# ---------------------------------------------------------------- hammerspace_stored


@pytest.mark.parametrize("rule, outcome", [(None, 0), ("out", 0), ("in", -1)])
def test_the_last_enemy_stored_in_hammerspace(rule, outcome):
    """Ami traps Bea, the last of her side (L153): 3 Magic dice 10,10,1 = 4 successes against
    Bea's Dodge 3 + 2 dice 1,1,1,1,1 = 0; stored with escape TN ceil(6 / 2) = 3. Under
    hammerspace_stored out (the default) Bea no longer keeps her side in: Ami's side wins
    (F_WIN = 0); under in the fight goes on (-1)."""
    rules = {} if rule is None else {"hammerspace_stored": rule}
    inp, dyn, cc = setup(a={"powers": ["Hammerspace"]}, rules=rules)
    play(inp, dyn, cc, K.hammerspace, (10, 10, 1, 1, 1, 1, 1, 1), i=A, t=B, bonus=0)
    assert dyn[B, K.D_STORED] == 3 and cc[A, K.K_TRAPS] == 1
    assert K.outcome_now(inp.comb, inp.rules, dyn) == outcome
    dyn[B, K.D_STORED] = 0  # she escapes: her side is in again under either reading
    assert K.outcome_now(inp.comb, inp.rules, dyn) == -1


def test_a_stored_enemy_with_others_standing_leaves_the_fight_on():
    inp, dyn, cc = setup(a={"powers": ["Hammerspace"]}, more_b=[member("Cia")])
    dyn[B, K.D_STORED] = 3
    assert K.outcome_now(inp.comb, inp.rules, dyn) == -1


# ---------------------------------------------------------------- grapple: reasoned (the Gorgon)

BALANCED = {"preset": "balanced", "mana_per_attack": 0, "fortune": "never"}


def test_chance_table_is_exact():
    """chance(a, d) = P(a dice >= d dice), from icepool's exact pools (sim.exact.d10_pool)."""
    table = K.chance_table()
    for a in (0, 1, 3, 4, 8):
        for d in (0, 2, 3, 5):
            pa, pd = d10_pool(a), d10_pool(d)
            p = sum(qa * qd for x, qa in pa.items() for y, qd in pd.items() if x >= y)
            assert abs(table[a, d] / K.CHANCE_ONE - p) < 2 / K.CHANCE_ONE, (a, d)
    assert table[0, 0] == K.CHANCE_ONE and table[8, 4] > table[4, 4] > table[4, 8]


def test_reasoned_tentacles_attack_with_the_better_melee_pool():
    """The Gorgon's build: STR 16 (8 dice), MAG 8 (4), LCK 6 (3) against Bea's 3 dice. Her attack
    hits far more often than her grapple takes, so the default policy attacks: 8 + 3 dice."""
    inp, dyn, cc = setup(a={"powers": ["Tentacles"], "abilities": {"strength": 16, "magic": 8},
                            "policy": BALANCED})
    assert inp.pol[A, K.P_GRAPPLE] == K.GRAPPLE_REASONED
    play(inp, dyn, cc, K.act, (7,) * 8 + (1, 1, 1), i=A, aid_dice=0)
    assert cc[A, K.K_GRAPPLES] == 0 and cc[A, K.K_ATTACKS] == 1


def test_reasoned_tentacles_grapple_with_the_better_magic_pool():
    """STR 4 (2 dice), MAG 16 (8 dice): the grapple takes more often: 8 Magic dice vs Bea's 3."""
    inp, dyn, cc = setup(a={"powers": ["Tentacles"], "abilities": {"strength": 4, "magic": 16},
                            "policy": BALANCED})
    play(inp, dyn, cc, K.act, (7,) * 8 + (1, 1, 1), i=A, aid_dice=0)
    assert cc[A, K.K_GRAPPLES] == 1 and cc[A, K.K_ATTACKS] == 0 and dyn[B, K.D_HELD_KIND] == K.HELD_GRAPPLE


def test_the_party_cake_gorgon_attacks_instead_of_grappling():
    """Before issue 35 the Gorgon (8 melee dice, 4 Magic dice) tried 9.16 grapples against 10.33
    attacks a fight in party-cake; by the chance of success she now nearly always attacks."""
    loaded = load_scenario(str(ROOT / "scenarios" / "d10" / "party-cake.yaml"))
    inp = d10.compile(loaded.base)
    g = inp.names.index("Gorgon")
    cc = d10.simulate(inp, 0, 1000, stream_key(loaded.base.seed))["combatants"]
    fights = cc[g, K.K_FIGHTS]
    assert cc[g, K.K_GRAPPLES] / fights < 1      # 0.40 over 20,000 trials
    assert cc[g, K.K_ATTACKS] / fights > 14      # 16.26


# ---------------------------------------------------------------- settings that could not act


@pytest.mark.parametrize("who, rules, message", [
    (member("Ami", policy={"grapple": "pin"}), {}, "Ami: policy grapple: pin needs the power Tentacles"),
    (member("Ami", policy={"recast_held": True}), {}, "recast_held: true needs a penalty specialization"),
    (member("Ami", **SPELL, policy={"recast_held": True}), {"recast": "forbid"},
     "recast_held: true does nothing under rule recast: forbid"),
])
def test_a_policy_setting_that_could_not_act_is_refused(who, rules, message):
    with pytest.raises(Exception, match=message):
        load(scenario([who], [member("Bea")], rules))


def test_preset_values_are_not_settings_of_the_file():
    """The presets' grapple (reasoned) on a member without Tentacles is no error; nor is a
    setting that acts."""
    load(scenario([member("Ami", policy={"preset": "aggressive"})], [member("Bea")]))
    load(scenario([member("Ami", powers=["Tentacles"], policy={"grapple": "pin"})], [member("Bea")]))
    inp = inputs(scenario([member("Ami", **SPELL, policy={"recast_held": True})], [member("Bea")]))
    assert inp.pol[A, K.P_RECAST_HELD] == 1 and np.all(inp.pol[1:, K.P_RECAST_HELD] == 0)
