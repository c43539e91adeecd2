"""Scripted-dice tests of the d10 kernel: one rule, power or perk, one exact outcome.

Members default to all abilities 6 (3 dice), 12 wounds (thresholds at 4/7/10),
melee, Dodge, DR 1, the 'plain' policy (sim.systems.d10.testing.member).
Faces are d10 faces; every script must be consumed exactly. Line numbers are
those of shared/seeds/003_56c8c585b597d64f.txt.
"""
from __future__ import annotations

from sim.systems.d10 import kernel as K
from sim.systems.d10.compile import power_number, slots_of
from sim.systems.d10.testing import Script, inputs, member, run, scenario, state

A, B = 0, 1
MISS3 = (1, 2, 3)


def setup(a=None, b=None, rules=None, more_b=()):
    inp = inputs(scenario([member("Ami", **(a or {}))], [member("Bea", **(b or {}))] + list(more_b), rules))
    dyn, cc = state(inp)
    return inp, dyn, cc


def attack(inp, dyn, cc, i, t, check=(), aid=0, **kw):
    s = Script(check=check, **kw)
    r = run(inp, dyn, cc, K.attack, s.streams, i=i, t=t, aid=aid)
    s.assert_consumed()
    return r


def test_hit_wounds_formula_and_dr():
    """L85: wounds = max(1, 1 + margin - DR). Attack 10,10,7 = 5 vs dodge 7,1,1 = 1 -> 1+4-1 = 4."""
    inp, dyn, cc = setup()
    attack(inp, dyn, cc, A, B, check=(10, 10, 7, 7, 1, 1))
    assert dyn[B, K.D_W] == 4 and cc[A, K.K_DEALT] == 4 and cc[A, K.K_HITS] == 1


def test_tie_goes_to_attacker_min_one_wound():
    """L85, rule 22: meets = hit; 1 + 0 - DR 1 = 0 -> at least 1."""
    inp, dyn, cc = setup()
    attack(inp, dyn, cc, A, B, check=(7, 1, 1, 8, 1, 1))
    assert dyn[B, K.D_W] == 1


def test_example_damage_reading():
    """D11 (b): no +1: margin 4 - DR 1 = 3."""
    inp, dyn, cc = setup(rules={"damage_formula": "example"})
    attack(inp, dyn, cc, A, B, check=(10, 10, 7, 7, 1, 1))
    assert dyn[B, K.D_W] == 3


def test_threshold_penalty_worked_example():
    """L33: VIT 6 with 3 wounds rolls full dice; VIT 4 with 3 wounds loses one die."""
    inp, dyn, cc = setup(b={"abilities": {"vitality": 4}})
    dyn[A, K.D_W] = 3
    dyn[B, K.D_W] = 3
    # Ami attacks with all 3 dice; Bea dodges with 3 - 1 = 2 dice
    attack(inp, dyn, cc, A, B, check=(1, 1, 1, 1, 1))
    dyn[A, K.D_W] = 4  # the next wound takes Ami into the second threshold: 2 dice
    attack(inp, dyn, cc, A, B, check=(1, 1, 1, 1))


def test_pool_can_shrink_to_nothing():
    """D3: a pool of 0 dice rolls nothing (0 successes); the defender then always fails? No: ties hit."""
    inp, dyn, cc = setup(a={"abilities": {"strength": 2}})  # 1 die
    dyn[A, K.D_W] = 10  # fourth threshold: -3 -> 0 dice
    attack(inp, dyn, cc, A, B, check=(1, 1, 1))  # only Bea's dodge is rolled: 0 vs 0 = a hit
    assert dyn[B, K.D_W] == 1


def test_parry_counter_wound_and_only_vs_melee():
    """L83-85: a Parry that holds deals one wound to the attacker."""
    inp, dyn, cc = setup(b={"defence": "parry"})
    attack(inp, dyn, cc, A, B, check=(7, 1, 1, 7, 7, 1))
    assert dyn[A, K.D_W] == 1 and dyn[B, K.D_W] == 0 and cc[B, K.K_PARRY_WOUNDS] == 1
    inp, dyn, cc = setup(a={"attack_kind": "ranged"}, b={"defence": "parry"})  # falls back to the best pool
    attack(inp, dyn, cc, A, B, check=(7, 1, 1, 7, 7, 1))
    assert dyn[A, K.D_W] == 0 and cc[B, K.K_DEFENCES + 0] == 1


def test_magic_block_restores_mana_capped():
    """L83: a Magic Block that holds restores one mana (capped, D9 ii); only vs mystic attacks."""
    inp, dyn, cc = setup(a={"attack_kind": "mystic"}, b={"defence": "magic"})
    dyn[B, K.D_MANA] = 4
    attack(inp, dyn, cc, A, B, check=(7, 1, 1, 7, 7, 1))
    assert dyn[B, K.D_MANA] == 5 and cc[B, K.K_BLOCK_MANA] == 1
    attack(inp, dyn, cc, A, B, check=(7, 1, 1, 7, 7, 1))
    attack(inp, dyn, cc, A, B, check=(7, 1, 1, 7, 7, 1))
    assert dyn[B, K.D_MANA] == 6


def test_augmentation_capped_at_three_and_fortune_rescue():
    """L77: up to 3 bonus dice, 1 mana each; L53: one Fortune point = +2 successes when it flips the roll."""
    inp, dyn, cc = setup(a={"policy": {"mana_per_attack": 5, "fortune": "rescue"}})
    # 3 + 3 dice: 7,1,1,1,1,1 = 1 vs dodge 10,8,1 = 3 -> +2 = 3: a tie is a hit
    attack(inp, dyn, cc, A, B, check=(7, 1, 1, 1, 1, 1, 10, 8, 1))
    assert dyn[A, K.D_MANA] == 3 and cc[A, K.K_MANA] == 3 and dyn[A, K.D_FORT] == 5
    assert dyn[B, K.D_W] == 1


def test_specialization_costs_mana_and_gifted_die():
    """L51: a specialization use costs 1 mana; Gifted +1 die (L189)."""
    inp, dyn, cc = setup(a={"attack_kind": "specialization", "perks": ["Gifted"]})
    attack(inp, dyn, cc, A, B, check=(1, 1, 1, 1, 1, 1, 1))  # 4 dice vs 3
    assert dyn[A, K.D_MANA] == 5
    dyn[A, K.D_MANA] = 0
    assert attack(inp, dyn, cc, A, B) == 0  # cannot pay: no roll


def test_specialization_penalty_effect_and_escape():
    """L79, D7: the result is the target number; failing to exceed it costs -2 dice until she pulls free."""
    inp, dyn, cc = setup(a={"attack_kind": "specialization", "specialization": {"effect": "penalty", "penalty": 3}})
    attack(inp, dyn, cc, A, B, check=(7, 7, 1, 10, 1, 1))  # 2 vs 2: not exceeded -> held
    assert dyn[B, K.D_HELD] == 3 and dyn[B, K.D_HELD_TN] == 2 and dyn[B, K.D_W] == 0
    s = Script(check=(10, 1, 1))  # escape: STR 3 - 3 = 0 dice? no: penalty applies -> 0 dice
    s = Script(check=())
    run(inp, dyn, cc, K.escape, s.streams, i=B, bonus=0)
    s.assert_consumed()
    assert dyn[B, K.D_HELD] == 3
    s = Script(check=(10, 7, 1))  # with +3 aid dice: 3 dice, 3 successes >= 2
    run(inp, dyn, cc, K.escape, s.streams, i=B, bonus=3)
    assert dyn[B, K.D_HELD] == 0


def test_multi_target_penalty_and_barrage():
    """L81: one penalty die per extra target, one roll; Barrage (L165) removes it for 2 mana."""
    c = member("Cid")
    inp, dyn, cc = setup(a={"attack_kind": "mystic", "policy": {"targets": 2}}, more_b=[c])
    attack(inp, dyn, cc, A, B, check=(10, 10, 1, 1, 1, 1, 1, 1))  # 2 dice: 4 vs Bea 0, Cid 0
    assert dyn[B, K.D_W] == 4 and dyn[2, K.D_W] == 4
    inp, dyn, cc = setup(a={"attack_kind": "mystic", "powers": ["Barrage"], "policy": {"targets": 2, "barrage": True}},
                         more_b=[c])
    attack(inp, dyn, cc, A, B, check=(10, 10, 1, 1, 1, 1, 1, 1, 1))  # 3 dice
    assert dyn[A, K.D_MANA] == 4 and cc[A, K.K_BARRAGE] == 1


def test_area_friendly_fire_and_friendship():
    """L81: an area use hits every enemy with no penalty, and allies in the area defend too;
    Power of Friendship (L167) spares them."""
    spec = {"attack_kind": "specialization", "specialization": {"area": True, "allies_caught": 1}}
    inp = inputs(scenario([member("Ami", **spec), member("Ally")], [member("Bea"), member("Cid")]))
    dyn, cc = state(inp)
    attack(inp, dyn, cc, 0, 2, check=(10, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1))  # Bea, then Ally, Cid
    assert dyn[1, K.D_W] == 2 and dyn[2, K.D_W] == 2 and dyn[3, K.D_W] == 2
    inp = inputs(scenario([member("Ami", powers=["Power of Friendship"], **spec), member("Ally")],
                          [member("Bea"), member("Cid")]))
    dyn, cc = state(inp)
    attack(inp, dyn, cc, 0, 2, check=(10, 1, 1, 1, 1, 1, 1, 1, 1))
    assert dyn[1, K.D_W] == 0


def test_killing_blow_fills_pool_then_defence_penalty():
    """L151: 3 more mana; a hit fills the pool; -2 defence dice until her next turn, -4 on a miss."""
    inp, dyn, cc = setup(a={"powers": ["Killing Blow"], "policy": {"killing_blow": True}})
    attack(inp, dyn, cc, A, B, check=(7, 1, 1, 1, 1, 1))
    assert dyn[B, K.D_OUT] == K.OUT_KO and dyn[A, K.D_MANA] == 3 and dyn[A, K.D_DEFPEN] == 2
    inp, dyn, cc = setup(a={"powers": ["Killing Blow"], "policy": {"killing_blow": True}})
    attack(inp, dyn, cc, A, B, check=(1, 1, 1, 7, 1, 1))
    assert dyn[B, K.D_OUT] == K.OUT_IN and dyn[A, K.D_DEFPEN] == 4


def test_focused_assault_drops_into_next_threshold():
    """L163, D21 (max): 2 mana; at 1 wound a hit takes her to 4 (the 2nd threshold), ignoring DR."""
    inp, dyn, cc = setup(a={"powers": ["Focused Assault"], "policy": {"focused_assault": True}})
    dyn[B, K.D_W] = 1
    attack(inp, dyn, cc, A, B, check=(7, 1, 1, 7, 1, 1))
    assert dyn[B, K.D_W] == 4 and dyn[A, K.D_MANA] == 4 and dyn[A, K.D_DEFPEN] == 0


def test_third_eye_penalises_specialization_on_her():
    """L171: offensive specialization uses targeting her take -2 dice."""
    inp, dyn, cc = setup(a={"attack_kind": "specialization"}, b={"powers": ["Third Eye"]})
    attack(inp, dyn, cc, A, B, check=(1, 1, 1, 1))  # 3 - 2 = 1 die, dodge 3


def test_regeneration_start_of_turn_and_action():
    """L173: 1 wound and 1 mana back at the start of her turn; action + 3 mana heals one band (D24)."""
    inp, dyn, cc = setup(b={"powers": ["Regeneration"], "policy": {"heal_at": 1}})
    dyn[B, K.D_W] = 8
    dyn[B, K.D_MANA] = 4
    s = Script()
    run(inp, dyn, cc, K.take_turn, s.streams, i=B)
    s.assert_consumed()
    assert dyn[B, K.D_W] == 8 - 1 - 3 and dyn[B, K.D_MANA] == 4 + 1 - 3


def test_tentacles_grapple_then_pin():
    """L175, D25: Magic/Luck vs defence; grapple = lose the next action and -2; pin = -4."""
    inp, dyn, cc = setup(a={"powers": ["Tentacles"], "policy": {"grapple": "pin"}})
    s = Script(check=(7, 1, 1, 1, 1, 1))
    run(inp, dyn, cc, K.act, s.streams, i=A, aid_dice=0)
    s.assert_consumed()
    assert dyn[B, K.D_HELD] == 2 and dyn[B, K.D_DISABLED] == 1
    s = Script()
    run(inp, dyn, cc, K.take_turn, s.streams, i=B)  # disabled: no action, no dice
    s.assert_consumed()
    s = Script(check=(7, 1, 1, 1))  # Bea defends with 3 - 2 = 1 die
    run(inp, dyn, cc, K.act, s.streams, i=A, aid_dice=0)
    s.assert_consumed()
    assert dyn[B, K.D_HELD] == 4 and dyn[B, K.D_HELD_KIND] == K.HELD_PIN


def test_familiar_is_a_combatant_with_bestial_combat_and_grief():
    """L155-157: 7 in every ability (4 dice, 14 wounds), DR 0, +2 melee dice; its death costs -2 dice (grim)."""
    inp = inputs(scenario([member("Ami", powers=["Familiar"], familiar={"perk": "bestial_combat"})],
                          [member("Bea")], {"mode": "grim"}))
    f = 1
    assert inp.names[f] == "Ami's familiar" and inp.kinds[f] == "familiar"
    assert inp.comb[f, K.C_DICE + K.STR] == 4 and inp.comb[f, K.C_WMAX] == 14 and inp.comb[f, K.C_DR] == 0
    assert inp.comb[f, K.C_BONUS + K.T_MELEE] == 2 and inp.comb[f, K.C_MANA] == 0 and inp.comb[f, K.C_FORT] == 0
    dyn, cc = state(inp)
    s = Script(check=(10, 10, 10, 1, 1, 1))  # Bea 6 vs 0 -> 6 wounds
    dyn[f, K.D_W] = 13
    run(inp, dyn, cc, K.attack, s.streams, i=2, t=f, aid=0)
    assert dyn[f, K.D_OUT] == K.OUT_DEAD and dyn[0, K.D_GRIEF] == 2


def test_perfect_assistant_and_friendship_aid():
    """L161, L167, L105: Aid +2 dice; x2 with Power of Friendship; +1 from a Perfect Assistant."""
    inp = inputs(scenario([member("Ami", powers=["Familiar"], familiar={"perk": "perfect_assistant"}),
                           member("Pal", powers=["Power of Friendship"])], [member("Bea")]))
    dyn, cc = state(inp)
    s = Script(check=(7, 1, 1, 1))  # the familiar's largest pool: 4 dice
    run(inp, dyn, cc, K.aid, s.streams, i=1, j=0, bonus=0)
    assert dyn[0, K.D_AID] == 3
    s = Script(check=(7, 1, 1))
    run(inp, dyn, cc, K.aid, s.streams, i=2, j=0, bonus=0)
    assert dyn[0, K.D_AID] == 3 + 4


def test_duplication_copies_pop_after_one_wound():
    """L169: 1 mana per copy; copies pop after one wound."""
    inp = inputs(scenario([member("Ami", powers=["Duplication"], duplicates=2, policy={"duplicate": True})], [member("Bea")]))
    dyn, cc = state(inp)
    assert dyn[1, K.D_ACTIVE] == 0
    s = Script()
    run(inp, dyn, cc, K.act, s.streams, i=0, aid_dice=0)
    assert dyn[0, K.D_MANA] == 4 and dyn[1, K.D_ACTIVE] == 1 and dyn[2, K.D_ACTIVE] == 1 and dyn[1, K.D_READY] == 0
    s = Script(check=(7, 1, 1, 1, 1, 1))
    run(inp, dyn, cc, K.attack, s.streams, i=3, t=1, aid=0)
    assert dyn[1, K.D_OUT] != K.OUT_IN


def test_hammerspace_traps_and_escape():
    """L153: Magic test vs defence +2 dice; escape at TN ceil(Magic / 2) = 3."""
    inp = inputs(scenario([member("Ami", powers=["Hammerspace"], policy={"hammerspace": True})],
                          [member("Bea"), member("Cid")]))
    dyn, cc = state(inp)
    s = Script(check=(10, 10, 1, 1, 1, 1, 1, 1))
    run(inp, dyn, cc, K.act, s.streams, i=0, aid_dice=0)
    s.assert_consumed()
    assert dyn[1, K.D_STORED] == 3
    s = Script(check=(10, 7, 1))
    run(inp, dyn, cc, K.take_turn, s.streams, i=1)
    assert dyn[1, K.D_STORED] == 0


def test_recharge_and_defence_penalty():
    """L113: +3 mana (capped, D18), -2 defence dice until her next turn."""
    inp, dyn, cc = setup(a={"policy": {"recharge_below": 2}})
    dyn[A, K.D_MANA] = 1
    s = Script()
    run(inp, dyn, cc, K.act, s.streams, i=A, aid_dice=0)
    assert dyn[A, K.D_MANA] == 4 and dyn[A, K.D_DEFPEN] == 2
    attack(inp, dyn, cc, B, A, check=(1, 1, 1, 1))  # Ami dodges with 1 die


def test_perks_columns():
    """Martial Training / Enhanced Weapon +1 attack die, Flexibility +1 AGI tests, Enhanced Outfit +1 DR,
    Mystic Artifact 1 mana, Awareness: initiative dice count as 10s."""
    inp = inputs(scenario([member("Ami", attack_kind="mystic", outfit_dr=None,
                                  perks=["Martial Training", "Enhanced Weapon", "Flexibility", "Enhanced Outfit",
                                         "Mystic Artifact", "Awareness"])], [member("Bea")]))
    c = inp.comb[0]
    assert c[K.C_BONUS + K.T_MYSTIC] == 2 and c[K.C_BONUS + K.T_DODGE] == 1 and c[K.C_BONUS + K.T_INIT] == 1
    assert c[K.C_DR] == 2 and c[K.C_ATK_COST] == 1 and "initiative_tens" in slots_of(c)
    dyn, cc = state(inp)
    s = Script()
    assert run(inp, dyn, cc, K.init_roll, s.streams[K.S_SETUP], i=0, st=s.streams[K.S_SETUP]) == 8


def test_blood_magic_pays_with_wounds():
    """L197: mana costs paid with wounds, policy: only while she stays out of her next threshold."""
    inp, dyn, cc = setup(a={"attack_kind": "specialization", "perks": ["Blood Magic"],
                            "policy": {"blood_magic": True}})
    dyn[A, K.D_MANA] = 0
    attack(inp, dyn, cc, A, B, check=(1, 1, 1, 1, 1, 1))
    assert dyn[A, K.D_W] == 1 and cc[A, K.K_MANA] == 1


def test_healing_and_disguise_artifacts():
    """L201: action + 2 mana heal 1 wound; L195: 1 mana for +2 dice on Hide (TN = opponents)."""
    inp, dyn, cc = setup(a={"perks": ["Healing Artifact"], "policy": {"heal_at": 1}})
    dyn[A, K.D_W] = 5
    s = Script()
    run(inp, dyn, cc, K.act, s.streams, i=A, aid_dice=0)
    assert dyn[A, K.D_W] == 4 and dyn[A, K.D_MANA] == 4
    inp, dyn, cc = setup(a={"perks": ["Disguise Artifact"]})
    s = Script(check=(7, 1, 1, 1, 1))  # 3 + 2 dice: 1 success >= 1 opponent
    run(inp, dyn, cc, K.hide, s.streams, i=A, bonus=0)
    s.assert_consumed()
    assert dyn[A, K.D_HIDDEN] == 2 and dyn[A, K.D_MANA] == 5


def test_permanent_wound_and_grim_death():
    """L35-49, D4: a permanent wound keeps her in at pool - 1 (once per fight); grim: a full pool kills.
    Enemies take none unless the rule permanent_npcs says so (D4 iii)."""
    inp, dyn, cc = setup(rules={"permanent_wounds": "on", "mode": "grim"})
    dyn[A, K.D_W] = 11
    # at 11 wounds Ami dodges with 3 - 3 = 0 dice
    attack(inp, dyn, cc, B, A, check=(7, 1, 1), raw_table=(16,))  # d20 = 17: loss of a foot
    assert dyn[A, K.D_W] == 11 and dyn[A, K.D_OUT] == K.OUT_IN and cc[A, K.K_PERM] == 1
    assert cc[A, K.K_PERM_SEVERE] == 1
    attack(inp, dyn, cc, B, A, check=(7, 1, 1))
    assert dyn[A, K.D_OUT] == K.OUT_DEAD and cc[A, K.K_DEATHS] == 1
    dyn[A, K.D_W] = 0
    dyn[B, K.D_W] = 11
    attack(inp, dyn, cc, A, B, check=(7, 1, 1))
    assert dyn[B, K.D_OUT] == K.OUT_DEAD and cc[B, K.K_PERM] == 0


def test_retreat_pursue_and_leave():
    """L109-111: Retreat TN = opponents; Pursue TN = her successes, then she re-rolls at once (D17)."""
    inp, dyn, cc = setup(a={"policy": {"retreat_at": 1}}, b={"policy": {"pursue": True}})
    dyn[A, K.D_W] = 5
    s = Script(check=(10, 1))  # Endurance = VIT (D16), 3 - 1 dice (2nd threshold): 2 >= 1
    run(inp, dyn, cc, K.act, s.streams, i=A, aid_dice=0)
    s.assert_consumed()
    assert dyn[A, K.D_RETREAT] == 2
    s = Script(check=(10, 1, 1, 1, 1))  # pursuit 2 >= 2; Ami re-rolls 0 < 1: stays
    run(inp, dyn, cc, K.act, s.streams, i=B, aid_dice=0)
    s.assert_consumed()
    assert dyn[A, K.D_RETREAT] == 0
    dyn[A, K.D_RETREAT] = 1
    s = Script()
    run(inp, dyn, cc, K.take_turn, s.streams, i=A)
    assert dyn[A, K.D_OUT] == K.OUT_FLED


def test_dual_weapon_takes_the_form_that_beats_the_defence():
    """L181: switching form is a non-action. Ami: STR 6 (3 dice) melee, AGI 10 (5
    dice) ranged; Bea dodges with AGI 4 (2 dice) against both: ranged wins 5-2
    over 3-2, so she rolls 5 dice (10,1,1,1,1 = 2) against 2 (7,1 = 1): a hit for
    1 + 1 - 1 = 1 wound, counted as a second-form attack."""
    dual = {"perks": ["Dual Weapon"], "second_form": "ranged", "abilities": {"agility": 10}}
    inp, dyn, cc = setup(a=dual, b={"abilities": {"agility": 4}})
    attack(inp, dyn, cc, A, B, check=(10, 1, 1, 1, 1, 7, 1))
    assert dyn[B, K.D_W] == 1 and cc[A, K.K_FORM2] == 1 and cc[A, K.K_ATTACKS] == 1


def test_dual_weapon_switches_away_from_a_parry():
    """Bea parries melee with STR 10 (5 dice); against anything else her best is
    1 die (AGI 2, LCK 2, dodge on a tie). Ami has 3 dice in both forms: melee
    3-5, ranged 3-1, so ranged (3 + 1 faces); a member without the perk keeps
    melee and meets the parry (3 + 5 faces)."""
    dual = {"perks": ["Dual Weapon"], "second_form": "ranged"}
    bea = {"abilities": {"strength": 10, "agility": 2, "luck": 2}, "defence": "parry-melee"}
    inp, dyn, cc = setup(a=dual, b=bea)
    attack(inp, dyn, cc, A, B, check=(1, 1, 1, 1))
    assert cc[A, K.K_FORM2] == 1 and cc[B, K.K_DEFENCES + K.T_DODGE - K.T_DODGE] == 1
    inp, dyn, cc = setup(b=bea)
    attack(inp, dyn, cc, A, B, check=(1, 1, 1, 1, 1, 1, 1, 1))
    assert cc[A, K.K_FORM2] == 0 and cc[B, K.K_DEFENCES + K.T_PARRY - K.T_DODGE] == 1


def test_dual_weapon_keeps_attack_kind_on_a_tie_and_pays_its_form():
    """Equal margins keep attack_kind (melee); a mystic second form carries the
    Mystic Artifact's mana cost (L187) when it is used: MAG 10 = 5 dice against
    dodge 3 beats melee 3 against 3, and costs 1 mana."""
    dual = {"perks": ["Dual Weapon", "Mystic Artifact"], "second_form": "mystic", "abilities": {"magic": 10}}
    inp, dyn, cc = setup(a=dual)
    assert power_number(inp.comb, A, "dual_weapon", "cost") == 1 and inp.comb[A, K.C_ATK_COST] == 0
    mana = dyn[A, K.D_MANA]
    attack(inp, dyn, cc, A, B, check=(1,) * 5 + (1, 1, 1))
    assert cc[A, K.K_FORM2] == 1 and dyn[A, K.D_MANA] == mana - 1
    inp, dyn, cc = setup(a={"perks": ["Dual Weapon"], "second_form": "ranged"})
    attack(inp, dyn, cc, A, B, check=(1, 1, 1, 1, 1, 1))
    assert cc[A, K.K_FORM2] == 0


def test_dual_weapon_needs_its_second_form_and_the_perk():
    import pytest

    from sim.scenario import ScenarioError

    with pytest.raises(ScenarioError, match="second_form"):
        inputs(scenario([member("Ami", perks=["Dual Weapon"])], [member("Bea")]))
    with pytest.raises(ScenarioError, match="Dual Weapon"):
        inputs(scenario([member("Ami", second_form="ranged")], [member("Bea")]))


# ---------------------------------------------------------------- issue 24 (seed 002 line numbers)
# shared/seeds/002_631b56ce645238ab.txt is the same add-on as seed 003, its
# paragraphs wrapped with a blank line after every line: seed 002 L241-243 is in
# seed 003 L83, L507-511 = L165, L569-571 = L183, L455-459 = L151, L273-277 = L91.

PENALTY_SPEC = {"attack_kind": "specialization", "specialization": {"effect": "penalty", "penalty": 2}}


def test_magic_block_restores_mana_against_a_penalty_specialization():
    """Seed 002 L241-243: a Magic test defends against "uses of Magic" and "a
    successful shield ... restor[es] one point to your Mana Pool", whatever
    the use does. Ami's penalty use rolls 7,1,1 = 1; Bea's Block 7,7,1 = 2
    exceeds it (D7 i, 'caster': the spell is resisted): no hold, +1 mana.
    A tie (1 vs 1) lets the spell land: no mana."""
    inp, dyn, cc = setup(a=PENALTY_SPEC, b={"defence": "magic"})
    dyn[B, K.D_MANA] = 4
    attack(inp, dyn, cc, A, B, check=(7, 1, 1, 7, 7, 1))
    assert dyn[B, K.D_HELD] == 0 and cc[A, K.K_SPELLS] == 0
    assert dyn[B, K.D_MANA] == 5 and cc[B, K.K_BLOCK_MANA] == 1
    attack(inp, dyn, cc, A, B, check=(7, 1, 1, 7, 1, 1))
    assert dyn[B, K.D_HELD] == 2 and dyn[B, K.D_MANA] == 5 and cc[B, K.K_BLOCK_MANA] == 1


def test_magic_block_mana_against_an_area_penalty_use_and_other_defences():
    """Seed 002 L241-243 for every target of an area penalty use (the other
    targets' branch): Bea and Cid both Block 2 > 1 and each gets her mana
    point; Dan dodges it (2 > 1): resisted, but a Dodge restores nothing."""
    area = {"attack_kind": "specialization", "specialization": {"effect": "penalty", "area": True}}
    inp, dyn, cc = setup(a=area, b={"defence": "magic"},
                         more_b=[member("Cid", defence="magic"), member("Dan", defence="dodge")])
    for j in (1, 2, 3):
        dyn[j, K.D_MANA] = 3
    attack(inp, dyn, cc, A, B, check=(7, 1, 1, 7, 7, 1, 7, 7, 1, 7, 7, 1))
    assert list(dyn[1:4, K.D_HELD]) == [0, 0, 0]
    assert list(dyn[1:4, K.D_MANA]) == [4, 4, 3] and list(cc[1:4, K.K_BLOCK_MANA]) == [1, 1, 0]


def test_magic_block_mana_when_a_tie_resists_under_spec_tie_defender():
    """D7 i option 'defender': a Block that meets the spell's result resists
    it, so the shield succeeded (seed 002 L241-243) and restores one mana."""
    inp, dyn, cc = setup(a=PENALTY_SPEC, b={"defence": "magic"}, rules={"spec_tie": "defender"})
    dyn[B, K.D_MANA] = 4
    attack(inp, dyn, cc, A, B, check=(7, 1, 1, 7, 1, 1))
    assert dyn[B, K.D_HELD] == 0 and dyn[B, K.D_MANA] == 5 and cc[B, K.K_BLOCK_MANA] == 1


def test_barrage_with_a_ranged_or_melee_magic_weapon():
    """Seed 002 L507-511: Barrage is for "a damaging attack with either your
    Magic Weapon or your Specialization", not only a Mystic Weapon. A girl's
    weapon is her Magic Weapon whatever its form (Martial Training, L569-571,
    gives Molly's Pretty Pistol its die in the worked example, L273-277; the
    Killing Blow test is "the same test you make when attacking with your
    Magic Weapon", L455-459). Two targets, Barrage: 3 dice, no penalty die,
    2 mana; then Bea and Cid dodge with 3 dice each."""
    c = member("Cid")
    for kind in ("ranged", "melee"):
        bar = {"attack_kind": kind, "powers": ["Barrage"], "policy": {"targets": 2, "barrage": True}}
        inp, dyn, cc = setup(a=bar, more_b=[c])
        attack(inp, dyn, cc, A, B, check=(10, 10, 1, 1, 1, 1, 1, 1, 1))
        assert cc[A, K.K_BARRAGE] == 1 and dyn[A, K.D_MANA] == 4
        assert dyn[B, K.D_W] == 4 and dyn[2, K.D_W] == 4


def test_no_barrage_with_a_mundane_weapon():
    """``magic_weapon: false`` (a Mundane Weapon, L569-571): no Barrage (L507-511),
    so two targets cost one penalty die (2 dice) and no mana; a Specialization
    use still may Barrage."""
    c = member("Cid")
    pol = {"targets": 2, "barrage": True}
    inp, dyn, cc = setup(a={"attack_kind": "ranged", "magic_weapon": False, "powers": ["Barrage"], "policy": pol},
                         more_b=[c])
    assert inp.comb[A, K.C_MAGIC_WEAPON] == 0
    attack(inp, dyn, cc, A, B, check=(10, 10, 1, 1, 1, 1, 1, 1))
    assert cc[A, K.K_BARRAGE] == 0 and dyn[A, K.D_MANA] == 6
    inp, dyn, cc = setup(a={"attack_kind": "specialization", "magic_weapon": False, "powers": ["Barrage"],
                            "policy": pol}, more_b=[c])
    attack(inp, dyn, cc, A, B, check=(10, 10, 1, 1, 1, 1, 1, 1, 1))
    assert cc[A, K.K_BARRAGE] == 1 and dyn[A, K.D_MANA] == 6 - 1 - 2


# ---------------------------------------------------------------- issue 24: reasoned escape and Recharge


def held_act(b_fields, pen, check, holder_out=False):
    """Bea is held (-pen dice, TN 2) by Ami's spell and takes her action with ``check`` faces."""
    inp, dyn, cc = setup(b=b_fields)
    K.hold(dyn, B, pen, 2, K.HELD_SPELL, A)
    if holder_out:
        dyn[A, K.D_OUT] = K.OUT_KO
    s = Script(check=check)
    run(inp, dyn, cc, K.act, s.streams, i=B, aid_dice=0)
    s.assert_consumed()
    return dyn, cc


def test_reasoned_escape_attacks_through_a_small_hold():
    """escape: reasoned (the default): STR 10 = 5 dice, a -2 hold leaves 3 > 2 lost -> she attacks
    with 3 dice (Ami dodges with 3); no Strength test."""
    dyn, cc = held_act({"abilities": {"strength": 10}}, 2, (10, 10, 7, 1, 1, 1))
    assert cc[B, K.K_ATTACKS] == 1 and dyn[A, K.D_W] == 1 + 5 - 1 and dyn[B, K.D_HELD] == 2


def test_reasoned_escape_pulls_free_of_a_large_hold_nobody_can_put_back():
    """A -3 hold on 5 dice leaves 2 < 3 lost: one later attack repays the turn. Its caster is out
    of the fight -> the Strength test, 2 dice, 7 + 7 = 2 successes >= TN 2 (rule escape_tie: meets)."""
    dyn, cc = held_act({"abilities": {"strength": 10}}, 3, (7, 7), holder_out=True)
    assert cc[B, K.K_ATTACKS] == 0 and dyn[B, K.D_HELD] == 0 and dyn[B, K.D_HELD_KIND] == K.HELD_NONE


def test_reasoned_escape_attacks_through_while_the_caster_can_recast():
    """The same -3 hold while its caster is still in the fight: she would cast it again with her
    next action, so Bea attacks through with 2 dice (Ami dodges with 3)."""
    dyn, cc = held_act({"abilities": {"strength": 10}}, 3, (1, 1, 1, 1, 1))
    assert cc[B, K.K_ATTACKS] == 1 and dyn[B, K.D_HELD] == 3


def test_reasoned_escape_when_the_hold_leaves_no_attack_die():
    """A ranged girl with AGI 4 (2 dice) held at -2 has no attack die left; her STR 10 gives 5 - 2 = 3
    dice for the Strength test -> she tries to pull free even while the caster is in the fight."""
    dyn, cc = held_act({"attack_kind": "ranged", "abilities": {"strength": 10, "agility": 4}}, 2, (7, 1, 1))
    assert cc[B, K.K_ATTACKS] == 0 and dyn[B, K.D_HELD] == 2  # 1 success < TN 2: still held


def test_reasoned_escape_needs_a_die_for_the_strength_test():
    """STR 6 = 3 dice held at -3: nothing to attack with, but no die to pull free either -> she attacks
    (0 dice against Ami's 3: a tie at 0 hits, L85)."""
    dyn, cc = held_act({}, 3, (1, 1, 1))
    assert cc[B, K.K_ATTACKS] == 1 and dyn[B, K.D_HELD] == 3


def test_escape_always_and_never_keep_the_old_flags():
    """escape: true (the old default) = always: pulls free even of a -2 hold on 5 dice;
    escape: false = never: attacks through a hold that leaves her no attack die."""
    dyn, cc = held_act({"abilities": {"strength": 10}, "policy": {"escape": True}}, 2, (7, 7, 1))
    assert cc[B, K.K_ATTACKS] == 0 and dyn[B, K.D_HELD] == 0
    dyn, cc = held_act({"abilities": {"strength": 10}, "policy": {"escape": "always"}}, 2, (1, 1, 1))
    assert cc[B, K.K_ATTACKS] == 0 and dyn[B, K.D_HELD] == 2  # 0 successes < TN 2: still held
    ranged = {"attack_kind": "ranged", "abilities": {"strength": 10, "agility": 4}}
    dyn, cc = held_act({**ranged, "policy": {"escape": False}}, 2, (1, 1, 1))  # 0 dice vs Ami's 3
    assert cc[B, K.K_ATTACKS] == 1 and dyn[B, K.D_HELD] == 2


def test_escape_policy_validation():
    import pytest
    from sim.systems.d10.testing import load
    with pytest.raises(Exception, match="unknown escape policy 'sometimes'"):
        load(scenario([member("Ami", policy={"escape": "sometimes"})], [member("Bea")]))
    with pytest.raises(Exception, match="unknown recharge policy"):
        load(scenario([member("Ami", policy={"recharge": "often"})], [member("Bea")]))


def _recharge_act(policy, kind="melee", mana=0, check=()):
    inp, dyn, cc = setup(a={"attack_kind": kind, "policy": {"preset": "balanced", "fortune": "never", **policy}})
    dyn[A, K.D_MANA] = mana
    s = Script(check=check)
    run(inp, dyn, cc, K.act, s.streams, i=A, aid_dice=0)
    s.assert_consumed()
    return dyn, cc


def test_reasoned_recharge_attacks_when_the_attack_is_free():
    """recharge: reasoned (the default): out of mana, a melee attack costs nothing -> she attacks
    (no augmentation die) instead of Recharging (L113)."""
    dyn, cc = _recharge_act({}, check=(1, 1, 1, 1, 1, 1))
    assert cc[A, K.K_RECHARGES] == 0 and cc[A, K.K_ATTACKS] == 1 and dyn[A, K.D_DEFPEN] == 0


def test_reasoned_recharge_when_the_attack_cannot_be_paid():
    """A specialization use costs 1 mana (L51): with 0 she Recharges: +3 mana, -2 defence dice."""
    dyn, cc = _recharge_act({}, kind="specialization")
    assert cc[A, K.K_RECHARGES] == 1 and cc[A, K.K_ATTACKS] == 0
    assert dyn[A, K.D_MANA] == 3 and dyn[A, K.D_DEFPEN] == 2


def test_threshold_recharge_keeps_the_old_behaviour():
    """recharge: threshold with recharge_below 1 (the old default) Recharges whenever she runs dry,
    even when the attack is free; setting recharge_below alone selects threshold."""
    for policy in ({"recharge": "threshold"}, {"recharge_below": 1}):
        dyn, cc = _recharge_act(policy)
        assert cc[A, K.K_RECHARGES] == 1 and cc[A, K.K_ATTACKS] == 0 and dyn[A, K.D_MANA] == 3
    dyn, cc = _recharge_act({"recharge": "threshold"}, mana=1, check=(1, 1, 1, 1, 1, 1, 1))  # 1 aug die
    assert cc[A, K.K_RECHARGES] == 0 and cc[A, K.K_ATTACKS] == 1 and dyn[A, K.D_MANA] == 0


def test_targets_attacked_counts_every_target_of_one_attack():
    """One attack roll, several targets (L81): attacks 1, targets_attacked and hits per target,
    so hits <= targets attacked (hit_rate <= 1) where hits / attacks reached 2 and more."""
    inp, dyn, cc = setup(a={"attack_kind": "mystic", "policy": {"targets": 2}}, more_b=[member("Cid")])
    attack(inp, dyn, cc, A, B, check=(10, 10, 1, 1, 1, 1, 1, 1))
    assert (cc[A, K.K_ATTACKS], cc[A, K.K_TARGETED], cc[A, K.K_HITS]) == (1, 2, 2)
    spec = {"attack_kind": "specialization", "specialization": {"area": True, "allies_caught": 1}}
    inp = inputs(scenario([member("Ami", **spec), member("Ally")], [member("Bea"), member("Cid")]))
    dyn, cc = state(inp)
    attack(inp, dyn, cc, 0, 2, check=(10, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1))  # Bea, then Ally, Cid
    assert (cc[0, K.K_ATTACKS], cc[0, K.K_TARGETED], cc[0, K.K_HITS]) == (1, 3, 3)
    attack(inp, dyn, cc, 0, 2, check=(1, 1, 1, 1, 10, 10, 10, 10, 10, 10, 10, 10))  # all defend
    assert (cc[0, K.K_ATTACKS], cc[0, K.K_TARGETED], cc[0, K.K_HITS]) == (2, 6, 3)
