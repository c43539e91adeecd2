"""Talent, boss-ability, monster-talent and minion-talent mechanics of 4.1
(seed 000; catalog rows in sim/systems/mb41/catalog/*.yaml), each with
injected dice showing its effect exactly as the book states: cost, uses and
numbers. Gridless fights: every range is met.

Default roles (tests/helpers.py): attack = fury, defence = heart, support =
judgment. Girls here have Resolve 18; ``boss`` is a monster with 40 Resolve
and a pool of 10.
"""
from __future__ import annotations

import numpy as np
import pytest
from helpers import Script, faces, load_data, mb41_data, mb41_inputs, mb41_member, MB41_NOCAP as NOCAP
from helpers import mb41_boss as boss, mb41_girl as girl, mb41_run as call, mb41_setup as setup

from sim.scenario.errors import ScenarioError
from engine41 import K

HEART, FURY, JUDGMENT = 0, 1, 2


MISS = faces(1, 1, 3, 3)   # attack 2 + 4 = 6 vs defence 6 + 3 = 9


# ------------------------------------------------------------------ attack riders


def test_desperation_at_half_resolve():
    """Desperation (L1707): at Resolve <= half of Base, +2 to attack challenges and +2 damage."""
    inp, dyn, cc = setup([girl(talents=["Desperation"])], [mb41_member("Shade")])
    dyn[0, K.D_RES] = 10  # above 9: nothing; 1+1+4 = 6 vs 2+2+3 = 7 misses
    assert call(K.attack, inp, dyn, cc, Script(check=faces(1, 1, 2, 2)), i=0, t=1) == -1
    dyn[0, K.D_RES] = 9   # 6 + 2 = 8 vs 7 hits; damage 1 + 2 (melee) + 2
    assert call(K.attack, inp, dyn, cc, Script(check=faces(1, 1, 2, 2), damage=faces(1)), i=0, t=1) == 5
    assert cc[0, K.K_TUSE] == 1


def test_memory_blaze_sticks_once_reached():
    """Memory Blaze (L2056): once at <= half Base Resolve, +2 damage for the rest of the scene."""
    inp, dyn, cc = setup([boss(talents=["Memory Blaze"])], [mb41_member("Shade")])
    hit = faces(3, 3, 1, 1)  # 6 + 3 = 9 vs 2 + 3 = 5
    assert call(K.attack, inp, dyn, cc, Script(check=hit, damage=faces(1)), i=0, t=1) == 3   # 1 + 2 melee
    call(K.apply_damage, inp, dyn, cc, Script(), t=0, dmg=20)   # 40 -> 20: half
    dyn[0, K.D_RES] = 30                                        # healed back above half
    assert call(K.attack, inp, dyn, cc, Script(check=hit, damage=faces(1)), i=0, t=1) == 5   # still +2


def test_follow_target_stacks_per_miss_and_resets():
    """Follow Target (L1540): +2 per miss in a row on the same target, until a hit or another target."""
    inp, dyn, cc = setup([girl(talents=["Follow Target"])], [mb41_member("Shade"), mb41_member("Umbra")])
    call(K.attack, inp, dyn, cc, Script(check=MISS), i=0, t=1)                 # 6 vs 9
    call(K.attack, inp, dyn, cc, Script(check=MISS), i=0, t=1)                 # 6 + 2 = 8 vs 9
    assert dyn[0, K.D_FT_STACK] == 2
    assert call(K.attack, inp, dyn, cc, Script(check=MISS, damage=faces(1)), i=0, t=1) == 3  # 6 + 4 = 10 vs 9
    assert dyn[0, K.D_FT_STACK] == 0
    call(K.attack, inp, dyn, cc, Script(check=MISS), i=0, t=1)
    call(K.attack, inp, dyn, cc, Script(check=MISS), i=0, t=2)                 # another target: no bonus
    assert dyn[0, K.D_FT_TARGET] == 2 and dyn[0, K.D_FT_STACK] == 1
    assert cc[0, K.K_HITS] == 1


def test_want_it_hard_rerolls_a_miss_once_per_scene():
    """Want it Hard, Want it Now (L1545): 1/Scene, 1 Attack overcharge, re-roll the attack, keep the new result."""
    inp, dyn, cc = setup([girl(talents=["Want it Hard, Want it Now"])], [mb41_member("Shade")])
    # 2 + 4 = 6 vs 9 misses; re-roll 5 + 5 + 4 = 14 hits; damage 1 + 2
    assert call(K.attack, inp, dyn, cc, Script(check=MISS + faces(5, 5), damage=faces(1)), i=0, t=1) == 3
    assert dyn[0, K.D_OC + FURY] == 1 and cc[0, K.K_TUSE] == 1 and cc[0, K.K_ATTACKS] == 1
    assert call(K.attack, inp, dyn, cc, Script(check=MISS), i=0, t=1) == -1   # used up
    # A55: the discarded roll's six still gives overcharge; the kept roll decides
    inp, dyn, cc = setup([girl(talents=["Want it Hard, Want it Now"])], [mb41_member("Shade")])
    # 6 + 1 (+1 exploded) + 4 = 12 vs 6 + 5 + 6 + 1 + 3 = 21; re-roll 2 + 2 + 4 = 8
    s = Script(check=faces(6, 1, 1) + faces(6, 5, 6, 1) + faces(2, 2))
    assert call(K.attack, inp, dyn, cc, s, i=0, t=1) == -1
    assert dyn[0, K.D_OC + FURY] == 2 and dyn[1, K.D_OC + HEART] == 2


def test_killing_blow_below_a_quarter():
    """Killing Blow (L1821): Major, 1 Attack overcharge, on a target below 1/4 of its Base Resolve; +1d6+3."""
    inp, dyn, cc = setup([girl(talents=["Killing Blow"])], [boss()])
    hit = faces(3, 3, 1, 1)
    dyn[1, K.D_RES] = 10   # 10 * 4 = 40: not below a quarter
    assert call(K.attack, inp, dyn, cc, Script(check=hit, damage=faces(1)), i=0, t=1) == 3
    assert dyn[0, K.D_OC + FURY] == 0
    dyn[1, K.D_RES] = 9    # below: 1 + 2 + (2 + 3)
    assert call(K.attack, inp, dyn, cc, Script(check=hit, damage=faces(1, 2)), i=0, t=1) == 8
    assert dyn[0, K.D_OC + FURY] == 1 and dyn[1, K.D_RES] == 1
    # paid on a miss too (the special attack was made)
    call(K.attack, inp, dyn, cc, Script(check=MISS), i=0, t=1)
    assert dyn[0, K.D_OC + FURY] == 2 and cc[0, K.K_TUSE] == 2


def test_killing_blow_fraction_is_a_rule_option():
    inp, dyn, cc = setup([girl(talents=["Killing Blow"])], [boss()], rules={"killing_blow_below": 2})
    dyn[1, K.D_RES] = 19   # below half
    assert call(K.attack, inp, dyn, cc, Script(check=faces(3, 3, 1, 1), damage=faces(1, 2)), i=0, t=1) == 8


def test_drain_life_halves_and_heals():
    """Drain Life (L1815): free, 1 Attack overcharge: deal half damage (round down, A46) and heal that much."""
    inp, dyn, cc = setup([girl(talents=["Drain Life"])], [mb41_member("Shade")])
    dyn[0, K.D_RES] = 8    # 44% < heal_below 50
    assert call(K.attack, inp, dyn, cc, Script(check=faces(3, 3, 1, 1), damage=faces(5)), i=0, t=1) == 3
    assert dyn[0, K.D_RES] == 11 and dyn[1, K.D_RES] == 15 and dyn[0, K.D_OC + FURY] == 1
    dyn[0, K.D_RES] = 10   # 55%: a normal hit
    assert call(K.attack, inp, dyn, cc, Script(check=faces(3, 3, 1, 1), damage=faces(5)), i=0, t=1) == 7
    assert dyn[0, K.D_OC + FURY] == 1


def test_binding_and_debilitating_attacks():
    """Binding Attack (L2011) / Debilitating Attack (L2025): pay 1 from the pool; a hit gives Bound / Stun."""
    inp, dyn, cc = setup([boss(talents=["Debilitating Attack"])], [mb41_member("Shade")])
    call(K.attack, inp, dyn, cc, Script(check=faces(1, 1, 3, 3)), i=0, t=1)          # a miss: paid, no Stun
    assert dyn[0, K.D_POOL] == 9 and dyn[1, K.D_AIL + K.A_STUN] == 0
    call(K.attack, inp, dyn, cc, Script(check=faces(3, 3, 1, 1), damage=faces(1)), i=0, t=1)
    assert dyn[0, K.D_POOL] == 8 and dyn[1, K.D_AIL + K.A_STUN] == 1
    call(K.attack, inp, dyn, cc, Script(check=faces(3, 3, 1, 1), damage=faces(1)), i=0, t=1)
    assert dyn[0, K.D_POOL] == 8  # already Stunned: a basic attack, no cost
    inp, dyn, cc = setup([boss(talents=["Binding Attack"])], [mb41_member("Shade")])
    call(K.attack, inp, dyn, cc, Script(check=faces(3, 3, 1, 1), damage=faces(1)), i=0, t=1)
    assert dyn[1, K.D_AIL + K.A_BOUND] == 1 and dyn[0, K.D_POOL] == 9


# ------------------------------------------------------------------ defence and damage


def test_melee_defence_adds_an_exploding_die_against_melee_only():
    """Ranged/Melee Defence (L2084): +1 die defending against the chosen form."""
    inp, dyn, cc = setup([girl(), girl("Beni", attack_kind="ranged")], [boss(talents=["Melee Defence"])])
    # melee: 1+1+4 = 6 vs 1+1+(+6+2 extra die exploding)+3 = 13; the six costs the pool 1
    call(K.attack, inp, dyn, cc, Script(check=faces(1, 1, 1, 1, 6, 2)), i=0, t=2)
    assert dyn[2, K.D_POOL] == 9 and cc[2, K.K_TUSE] == 1
    # ranged: no extra die; 3 + 3 + 4 = 10 vs 1 + 1 + 3 = 5, 1d6 ranged damage
    assert call(K.attack, inp, dyn, cc, Script(check=faces(3, 3, 1, 1), damage=faces(4)), i=1, t=2) == 4


def test_ranged_melee_defence_needs_a_choice():
    with pytest.raises(ScenarioError, match="Melee Defence, Ranged Defence"):
        load_data(mb41_data([girl()], [boss(talents=["Ranged/Melee Defence"])]))
    inp, dyn, cc = setup([girl()], [boss(talents=["ranged defence"])])
    assert inp.comb[1, K.C_TP1] == 1 and inp.talents[1] == ["Ranged Defence"]


def test_thick_hide_minus_two_minimum_one():
    """Thick Hide (L1997): damage from each attack -2, to a minimum of 1; Bleed is not reduced."""
    inp, dyn, cc = setup([girl()], [boss(talents=["Thick Hide"])])
    hit = faces(3, 3, 1, 1)
    assert call(K.attack, inp, dyn, cc, Script(check=hit, damage=faces(3)), i=0, t=1) == 3    # 5 - 2
    assert call(K.attack, inp, dyn, cc, Script(check=hit, damage=faces(1)), i=0, t=1) == 1    # 3 - 2
    inp, dyn, cc = setup([girl(attack_kind="ranged")], [boss(talents=["Thick Hide"])])
    assert call(K.attack, inp, dyn, cc, Script(check=hit, damage=faces(2)), i=0, t=1) == 1    # 2 -> 1
    assert call(K.attack, inp, dyn, cc, Script(check=hit, damage=faces(1)), i=0, t=1) == 1    # 1 stays 1
    assert cc[1, K.K_PREVENTED] == 1   # 2 -> 1 (the first pair was on another setup)
    dyn[1, K.D_AIL + K.A_BLEED] = 1
    before = dyn[1, K.D_RES]
    call(K.bleed, inp, dyn, cc, Script(), j=1)
    assert dyn[1, K.D_RES] == before - 2


def test_shield_protects_an_ally_five_per_point():
    """Shield (L1613): free, 1 Defence overcharge per point, 3 points/scene, -5 damage per point."""
    inp, dyn, cc = setup([girl(), girl("Beni", talents=["Shield"])], [mb41_member("Shade", attack=6)])
    hit = faces(3, 3, 1, 1)  # 12 vs 6
    # 4 + 2 = 6 damage >= shield_above 5: two points cover it
    assert call(K.attack, inp, dyn, cc, Script(check=hit, damage=faces(4)), i=2, t=0) == 0
    assert dyn[1, K.D_OC + HEART] == 2 and dyn[1, K.D_TUSES] == 1 and cc[0, K.K_PREVENTED] == 6
    # one point left: 6 - 5 = 1
    assert call(K.attack, inp, dyn, cc, Script(check=hit, damage=faces(4)), i=2, t=0) == 1
    assert dyn[1, K.D_OC + HEART] == 3 and dyn[1, K.D_TUSES] == 0
    # small hits are let through (policy shield_above)
    inp, dyn, cc = setup([girl(), girl("Beni", talents=["Shield"])], [mb41_member("Shade", attack=6)])
    assert call(K.attack, inp, dyn, cc, Script(check=hit, damage=faces(2)), i=2, t=0) == 4
    assert dyn[1, K.D_OC + HEART] == 0


def test_shield_respects_the_overcharge_cap():
    capped = {"boost": "never", "overcharge_cap": 1}
    inp, dyn, cc = setup([girl(), girl("Beni", talents=["Shield"], policy=capped)], [mb41_member("Shade", attack=6)])
    assert call(K.attack, inp, dyn, cc, Script(check=faces(3, 3, 1, 1), damage=faces(6)), i=2, t=0) == 3
    assert dyn[1, K.D_OC + HEART] == 1


def test_bulwark_is_self_only_from_the_pool():
    """Bulwark (L2014): reduce the damage of a single attack on itself by 5 per pool point."""
    inp, dyn, cc = setup([girl(attack=7)], [boss(talents=["Bulwark"]), boss("Imp")])
    hit = faces(3, 3, 1, 1)
    assert call(K.attack, inp, dyn, cc, Script(check=hit, damage=faces(6)), i=0, t=1) == 0   # 8: two points
    assert dyn[1, K.D_POOL] == 8
    assert call(K.attack, inp, dyn, cc, Script(check=hit, damage=faces(6)), i=0, t=2) == 8   # not its ally


def test_backlash_on_every_attack_or_hits_only():
    """Backlash (L1956): a magical girl attacking it always takes 1d6 (A30a); option: on hits only."""
    inp, dyn, cc = setup([girl()], [boss(talents=["Backlash"])])
    call(K.attack, inp, dyn, cc, Script(check=MISS, damage=faces(4)), i=0, t=1)
    assert dyn[0, K.D_RES] == 14 and cc[0, K.K_SELF_DMG] == 4 and cc[0, K.K_TAKEN] == 4
    call(K.attack, inp, dyn, cc, Script(check=faces(3, 3, 1, 1), damage=faces(1, 2)), i=0, t=1)
    assert dyn[0, K.D_RES] == 12 and dyn[1, K.D_RES] == 37
    inp, dyn, cc = setup([girl()], [boss(talents=["Backlash"])], rules={"backlash_on": "hits"})
    call(K.attack, inp, dyn, cc, Script(check=MISS), i=0, t=1)
    assert dyn[0, K.D_RES] == 18
    # monsters attacking it take nothing (it hurts magical girls only)
    inp, dyn, cc = setup([boss("Ogre")], [boss(talents=["Backlash"])])
    call(K.attack, inp, dyn, cc, Script(check=faces(1, 1, 3, 3)), i=0, t=1)
    assert dyn[0, K.D_RES] == 40


def test_disruptive_strikes_random_stat_hit_or_miss():
    """Disruptive Strikes (L2028): the girl takes 1 overcharge: 1d6, 1-2 Heart, 3-4 Fury, 5-6 Judgment."""
    inp, dyn, cc = setup([boss(talents=["Disruptive Strikes"])], [girl("Shade")])
    call(K.attack, inp, dyn, cc, Script(check=faces(1, 1, 3, 3), damage=faces(3)), i=0, t=1)   # a miss
    call(K.attack, inp, dyn, cc, Script(check=faces(3, 3, 1, 1), damage=faces(1, 6)), i=0, t=1)
    call(K.attack, inp, dyn, cc, Script(check=faces(1, 1, 3, 3), damage=faces(2)), i=0, t=1)
    assert list(dyn[1, K.D_OC:K.D_OC + 3]) == [1, 1, 1]
    assert list(cc[1, K.K_OC_GAIN:K.K_OC_GAIN + 3]) == [1, 1, 1]


def test_fear_aura_minus_two_while_it_stands():
    """Fear Aura (L2031): -2 to all challenges of its enemies (gridless: all of them) until it dies."""
    inp, dyn, cc = setup([girl()], [boss(talents=["Fear Aura"], resolve=3)])
    assert dyn[0, K.D_FEAR] == 2 and dyn[1, K.D_FEAR] == 0
    # 2 + 2 + 4 - 2 = 6 vs 2 + 2 + 3 = 7: a miss that would have hit
    assert call(K.attack, inp, dyn, cc, Script(check=faces(2, 2, 2, 2)), i=0, t=1) == -1
    # the removal roll too: 4 + 4 + 3 - 2 = 9 removes nothing
    dyn[0, K.D_AIL + K.A_STUN] = 1
    call(K.removal_roll, inp, dyn, cc, Script(check=faces(4, 4)), i=0)
    assert dyn[0, K.D_AIL + K.A_STUN] == 1
    call(K.attack, inp, dyn, cc, Script(check=faces(5, 5, 1, 1), damage=faces(1)), i=0, t=1)   # kills it
    assert dyn[1, K.D_DEAD] == 1 and dyn[0, K.D_FEAR] == 0


def test_monster_boost_pays_the_pool_and_adds_damage_on_attacks_only():
    """Monster Boost (L2068): free, 1 from the pool, 3/Scene, +1 exploding die, +2 damage on an attack."""
    inp, dyn, cc = setup([boss(talents=["Monster Boost"], policy={"boost": "always"})], [girl("Shade")])
    assert dyn[0, K.D_BOOSTS] == 3
    # 3 + 3 + 3 = 9 vs 1 + 1 + 4 = 6, boost die 2; damage 1 + 2 melee + 2 boost
    assert call(K.attack, inp, dyn, cc, Script(check=faces(3, 3, 1, 1, 2), damage=faces(1)), i=0, t=1) == 5
    assert dyn[0, K.D_POOL] == 9 and dyn[0, K.D_BOOSTS] == 2
    # defending: the boost die counts, but takes no 2 off the damage
    inp, dyn, cc = setup([girl("Shade")], [boss(talents=["Monster Boost"], policy={"boost": "always"})])
    assert call(K.attack, inp, dyn, cc, Script(check=faces(5, 5, 1, 1, 1), damage=faces(1)), i=0, t=1) == 3


def test_monster_boost_is_for_monsters():
    with pytest.raises(ScenarioError, match="magical girl has Boost"):
        load_data(mb41_data([girl(talents=["Monster Boost"])], [boss()]))


# ------------------------------------------------------------------ actions on the turn


def test_healing_magic_is_free_twice_per_scene():
    """Healing Magic (L1741): Minor, 2/Scene, no cost, 1d6+4 to herself or an ally."""
    inp, dyn, cc = setup([girl(), girl("Beni", talents=["Healing Magic"])], [mb41_member("Shade")])
    dyn[0, K.D_RES] = 5
    call(K.take_turn, inp, dyn, cc, Script(check=MISS, damage=faces(2)), i=1)
    assert dyn[0, K.D_RES] == 11 and dyn[1, K.D_OC + JUDGMENT] == 0 and dyn[1, K.D_TUSES] == 1


def test_listed_order_is_healing_priority():
    """Two healing rows: the first listed with uses left and an affordable cost is used."""
    inp, dyn, cc = setup([girl(), girl("Beni", talents=["Healing Magic", "Heal"])], [mb41_member("Shade")])
    dyn[1, K.D_TUSES] = 0          # Healing Magic used up: Heal (1d6+1, 1 Support overcharge)
    dyn[0, K.D_RES] = 5
    call(K.take_turn, inp, dyn, cc, Script(check=MISS, damage=faces(2)), i=1)
    assert dyn[0, K.D_RES] == 8 and dyn[1, K.D_OC + JUDGMENT] == 1 and cc[1, K.K_TUSE + 1] == 1


def test_second_wind_heals_herself_and_defends_better_until_her_next_turn():
    """Second Wind (L1716): Minor, 1/Scene: regain 2d6 Resolve, +1 to Defence until the start of her next turn."""
    inp, dyn, cc = setup([girl(talents=["Second Wind"]), girl("Beni")], [mb41_member("Shade")])
    dyn[1, K.D_RES] = 2   # an ally low: Second Wind is self only
    call(K.take_turn, inp, dyn, cc, Script(check=MISS), i=0)
    assert dyn[1, K.D_RES] == 2 and cc[0, K.K_HEALED] == 0
    dyn[0, K.D_RES] = 6
    call(K.take_turn, inp, dyn, cc, Script(check=MISS, damage=faces(3, 4)), i=0)
    assert dyn[0, K.D_RES] == 13 and dyn[0, K.D_DEF_BONUS] == 1
    # Shade 2 + 2 + 3 = 7 vs 1 + 1 + 4 + 1 = 7: a tie the defender's higher stat wins (7 vs 6 would hit)
    assert call(K.attack, inp, dyn, cc, Script(check=faces(2, 2, 1, 1)), i=2, t=0) == -1
    call(K.take_turn, inp, dyn, cc, Script(check=MISS), i=0)   # her next turn: the bonus ends, used up
    assert dyn[0, K.D_DEF_BONUS] == 0 and dyn[0, K.D_TUSES] == 0


def test_curse_is_a_minor_action_without_a_roll():
    """Curse (L1728): Minor, 2/Scene: Bound, Bleeding or Stunned on an enemy; then she attacks."""
    inp, dyn, cc = setup([girl(talents=["Curse"], policy={**NOCAP, "inflict": "bleed"})], [mb41_member("Shade")])
    call(K.take_turn, inp, dyn, cc, Script(check=MISS), i=0)
    assert list(dyn[1, K.D_AIL:K.D_AIL + 3]) == [0, 0, 1] and cc[0, K.K_ATTACKS] == 1
    call(K.take_turn, inp, dyn, cc, Script(check=MISS), i=0)   # then the next one Shade lacks: Stun
    assert list(dyn[1, K.D_AIL:K.D_AIL + 3]) == [1, 0, 1]
    call(K.take_turn, inp, dyn, cc, Script(check=faces(1, 1, 3, 3)), i=0)
    assert dyn[1, K.D_AIL + K.A_BOUND] == 0 and cc[0, K.K_TUSE] == 2   # 2/Scene


def test_scream_support_contest_against_every_enemy():
    """Deafening Scream (L1972): Major, 1 from the pool: Support vs Support against all; losers Stunned."""
    inp, dyn, cc = setup([boss(talents=["Deafening Scream"], policy={"boost": "never", "scream_min": 2})],
                         [girl("Akari"), girl("Beni"), girl("Chie")])
    dyn[3, K.D_RES] = 0   # a downed girl is not a target
    # boss 4 + 4 + 3 = 11; Akari 5 + 5 + 3 = 13 resists; Beni 3 + 3 + 3 = 9 is Stunned
    call(K.take_turn, inp, dyn, cc, Script(check=faces(4, 4, 5, 5, 3, 3)), i=0)
    assert [dyn[j, K.D_AIL + K.A_STUN] for j in (1, 2, 3)] == [0, 1, 0]
    assert dyn[0, K.D_POOL] == 9 and cc[0, K.K_ATTACKS] == 0
    # only one enemy left without Stun, two standing: below scream_min 2, so it attacks
    call(K.take_turn, inp, dyn, cc, Script(check=MISS), i=0)
    assert cc[0, K.K_ATTACKS] == 1 and dyn[0, K.D_POOL] == 9


def test_blood_rain_gives_bleeding():
    inp, dyn, cc = setup([boss(talents=["Blood Rain"], policy={"boost": "never", "scream_min": 2})],
                         [girl("Akari"), girl("Beni")])
    call(K.take_turn, inp, dyn, cc, Script(check=faces(4, 4, 1, 1, 1, 1)), i=0)
    assert dyn[1, K.D_AIL + K.A_BLEED] == 1 and dyn[2, K.D_AIL + K.A_BLEED] == 1


def test_action_burst_one_more_major_per_turn_from_the_pool():
    """Action Burst (L1950): +1 Major action on its turn for 1 pool point; once per turn."""
    inp, dyn, cc = setup([boss(talents=["Action Burst"])], [mb41_member("Shade")])
    call(K.take_turn, inp, dyn, cc, Script(check=MISS + MISS), i=0)
    call(K.take_turn, inp, dyn, cc, Script(check=MISS + MISS), i=0)
    assert cc[0, K.K_ATTACKS] == 4 and dyn[0, K.D_POOL] == 8


def test_shrug_off_removes_one_ailment_each_round():
    """Shrug Off (L1993): removes one status effect at the beginning of each round."""
    inp, dyn, cc = setup([girl()], [boss(talents=["Shrug Off"])])
    dyn[1, K.D_AIL:K.D_AIL + 3] = 1
    call(K.shrug_off, inp, dyn, cc, Script(), j=1)
    assert list(dyn[1, K.D_AIL:K.D_AIL + 3]) == [0, 1, 1]


def _run(data, trials=200):
    from sim.systems import mb41

    inp = mb41_inputs(data)
    return inp, mb41.simulate(inp, 0, trials, 7)


def test_extra_action_two_turns_a_round():
    """Extra Action (L1979): one extra turn per round; nobody can fall here, so attacks count turns."""
    for at in ("end_of_round", "after_own_turn"):
        data = mb41_data([girl(resolve=1000)], [boss(talents=["Extra Action"], resolve=1000)],
                         {"round_cap": 3, "extra_turn_at": at})
        inp, res = _run(data)
        cc = res["combatants"]
        assert cc[0, K.K_ATTACKS] == 3 * 200 and cc[1, K.K_ATTACKS] == 6 * 200


# ------------------------------------------------------------------ minions


def test_spider_nanny_heals_the_monster_and_binds():
    """A Little Longer (L2180, 1d6+2, nanny 2/Scene) heals the monster, not minions or girls;
    Hello There (L2189, nanny 1/Scene) applies Bound or Bleeding."""
    nanny = {"name": "Nanny", "kind": "minion", "template": "Spider nanny"}
    inp, dyn, cc = setup([girl()], [boss(), nanny])
    assert inp.talents[2] == ["A Little Longer", "Hello There"]
    assert list(inp.comb[2, K.C_TUSES:K.C_TUSES + 2]) == [2, 1] and list(inp.comb[2, K.C_TCOST:K.C_TCOST + 2]) == [0, 0]
    dyn[1, K.D_RES] = 10
    # Minor: heal the boss 3 + 2; then its attack (passive-defence minion attacks normally)
    call(K.take_turn, inp, dyn, cc, Script(check=MISS, damage=faces(3)), i=2)
    assert dyn[1, K.D_RES] == 15 and dyn[0, K.D_AIL:K.D_AIL + 3].sum() == 0
    dyn[1, K.D_RES] = 40
    call(K.take_turn, inp, dyn, cc, Script(check=MISS), i=2)   # nobody to heal: Hello There (Stun not allowed)
    assert list(dyn[0, K.D_AIL:K.D_AIL + 3]) == [0, 1, 0]


def test_minion_talents_need_fixed_uses():
    bad = {"name": "Imp", "kind": "minion", "attack": 2, "talents": ["A Little Longer"]}
    with pytest.raises(ScenarioError, match="talent_uses"):
        load_data(mb41_data([girl()], [boss(), bad]))
    ok = dict(bad, talent_uses={"A Little Longer": 1})
    inp = mb41_inputs(mb41_data([girl()], [boss(), ok]))
    assert inp.comb[2, K.C_TUSES] == 1
    with pytest.raises(ScenarioError, match="not in this member's talents"):
        load_data(mb41_data([girl()], [boss(), dict(ok, talent_uses={"Heal": 1})]))


def test_no_talent_leaves_the_state_untouched():
    """Gate: without talents the new dyn columns stay at their reset values after a fight."""
    inp, dyn, cc = setup([girl()], [mb41_member("Shade")])
    assert np.all(inp.comb[:, K.C_SIDEMASK] == 0) and np.all(dyn[:, K.D_FEAR] == 0)


# ------------------------------------------------------------------ support talents


def test_remedy_removes_her_ailments_for_sure_and_extra_ones_cost_support():
    """Remedy (L1617): Minor, 2/Scene, free for one ailment, +1 Support overcharge per further one."""
    inp, dyn, cc = setup([girl(talents=["Remedy"])], [mb41_member("Shade")])
    dyn[0, K.D_AIL + K.A_BOUND] = 1
    dyn[0, K.D_AIL + K.A_BLEED] = 1
    call(K.take_turn, inp, dyn, cc, Script(check=MISS), i=0)   # no removal roll; then she attacks
    assert list(dyn[0, K.D_AIL:K.D_AIL + 3]) == [0, 0, 0] and dyn[0, K.D_OC + JUDGMENT] == 1
    assert cc[0, K.K_ATTACKS] == 1 and dyn[0, K.D_TUSES] == 1
    # a Stunned girl: Remedy is her action, and removing Stun gives the second back
    dyn[0, K.D_AIL + K.A_STUN] = 1
    call(K.take_turn, inp, dyn, cc, Script(check=MISS), i=0)
    assert dyn[0, K.D_AIL + K.A_STUN] == 0 and cc[0, K.K_ATTACKS] == 2 and dyn[0, K.D_TUSES] == 0
    # used up: the removal roll again (3 + 4 + 3 = 10 fails)
    dyn[0, K.D_AIL + K.A_BOUND] = 1
    call(K.take_turn, inp, dyn, cc, Script(check=faces(3, 4) + faces(1, 1, 3, 3)), i=0)
    assert dyn[0, K.D_AIL + K.A_BOUND] == 1


def test_remedy_helps_an_ally():
    inp, dyn, cc = setup([girl(), girl("Beni", talents=["Remedy"])], [mb41_member("Shade")])
    dyn[0, K.D_AIL + K.A_STUN] = 1
    call(K.take_turn, inp, dyn, cc, Script(check=MISS), i=1)
    assert dyn[0, K.D_AIL + K.A_STUN] == 0 and cc[0, K.K_AIL_REMOVED] == 1 and cc[1, K.K_ATTACKS] == 1


def test_steal_action_stuns_and_gives_another_minor():
    """Steal Action (L1725): Minor, 3/Episode: attack challenge (no damage, A50a); a win Stuns the
    enemy and she may take another Minor action (here: a heal)."""
    inp, dyn, cc = setup([girl(talents=["Steal Action", "Heal"]), girl("Beni")], [mb41_member("Shade")])
    assert inp.comb[0, K.C_TUSES] == 3   # per episode = per fight (A54)
    # challenge 4 + 4 + 4 = 12 vs 1 + 1 + 3 = 5: Stun; the extra Minor finds nothing to do (nobody
    # low, Shade already Stunned); then the Major: an attack (a miss)
    call(K.take_turn, inp, dyn, cc, Script(check=faces(4, 4, 1, 1) + MISS), i=0)
    assert dyn[2, K.D_AIL + K.A_STUN] == 1 and dyn[2, K.D_RES] == 18 and cc[0, K.K_ATTACKS] == 1
    # Minor talents in order: a heal comes first, so no Steal this turn
    dyn[2, K.D_AIL + K.A_STUN] = 0
    dyn[1, K.D_RES] = 5
    call(K.take_turn, inp, dyn, cc, Script(check=MISS, damage=faces(1)), i=0)
    assert dyn[1, K.D_RES] == 7 and dyn[2, K.D_AIL + K.A_STUN] == 0
    # a lost challenge: no Stun, no extra Minor, the use is spent
    dyn[1, K.D_RES] = 18
    call(K.take_turn, inp, dyn, cc, Script(check=faces(1, 1, 4, 4) + MISS), i=0)
    assert dyn[2, K.D_AIL + K.A_STUN] == 0 and dyn[0, K.D_TUSES] == 1


def test_wave_of_courage_heals_everyone_one_roll_each():
    """Wave of Courage (L1746): Major, 1 Support overcharge, 2/Scene: she and each ally regain 1d6+1 (A45b)."""
    inp, dyn, cc = setup([girl(talents=["Wave of Courage"]), girl("Beni"), girl("Chie")], [mb41_member("Shade")])
    dyn[0, K.D_RES] = 5
    call(K.take_turn, inp, dyn, cc, Script(check=MISS), i=0)   # one below half: she attacks instead
    assert cc[0, K.K_ATTACKS] == 1 and cc[0, K.K_HEALED] == 0
    dyn[1, K.D_RES] = 4
    call(K.take_turn, inp, dyn, cc, Script(damage=faces(1, 2, 6)), i=0)
    assert [dyn[j, K.D_RES] for j in range(3)] == [7, 7, 18] and cc[0, K.K_HEALED] == 5
    assert dyn[0, K.D_OC + JUDGMENT] == 1 and cc[0, K.K_ATTACKS] == 1


def test_wave_of_courage_one_roll_for_all_is_a_rule_option():
    """``group_heal_roll: once`` (A45a): one 1d6+1 (2 + 1) for everyone: 5 -> 8, 4 -> 7, Chie full."""
    inp, dyn, cc = setup([girl(talents=["Wave of Courage"]), girl("Beni"), girl("Chie")], [mb41_member("Shade")],
                         rules={"group_heal_roll": "once"})
    dyn[0, K.D_RES] = 5
    dyn[1, K.D_RES] = 4
    call(K.take_turn, inp, dyn, cc, Script(damage=faces(2)), i=0)
    assert [dyn[j, K.D_RES] for j in range(3)] == [8, 7, 18] and cc[0, K.K_HEALED] == 6


def test_guided_strike_lets_the_stronger_ally_attack():
    """Guided Strike (L1736): Major, 1 Support overcharge, 2/Scene: an ally takes a (Major) action."""
    inp, dyn, cc = setup([girl(attack=2, talents=["Guided Strike"]), girl("Beni", attack=6)],
                         [mb41_member("Shade")])
    # Beni attacks: 1 + 1 + 6 = 8 vs 2 + 2 + 3 = 7, damage 1 + 2
    call(K.take_turn, inp, dyn, cc, Script(check=faces(1, 1, 2, 2), damage=faces(1)), i=0)
    assert cc[1, K.K_ATTACKS] == 1 and cc[0, K.K_ATTACKS] == 0 and dyn[2, K.D_RES] == 15
    assert dyn[0, K.D_OC + JUDGMENT] == 1
    # nobody stronger: she attacks herself, no cost
    inp, dyn, cc = setup([girl(attack=6, talents=["Guided Strike"]), girl("Beni", attack=2)],
                         [mb41_member("Shade")])
    call(K.take_turn, inp, dyn, cc, Script(check=MISS), i=0)
    assert cc[0, K.K_ATTACKS] == 1 and dyn[0, K.D_OC + JUDGMENT] == 0


def test_reflector_until_the_end_of_her_next_turn():
    """Reflector (L1528): after her successful attack an ally bears it until the end of her next turn;
    an enemy hit on the bearer loses up to 3 damage and the attacker takes them."""
    inp, dyn, cc = setup([girl(talents=["Reflector"]), girl("Beni")], [mb41_member("Shade", attack=6)])
    dyn[1, K.D_RES] = 12
    call(K.take_turn, inp, dyn, cc, Script(check=faces(3, 3, 1, 1), damage=faces(1)), i=0)   # a hit
    assert dyn[1, K.D_REFLECT_BY] == 0
    # Shade hits Beni for 4 + 2 = 6: she takes 3, Shade takes 3
    assert call(K.attack, inp, dyn, cc, Script(check=faces(3, 3, 1, 1), damage=faces(4)), i=2, t=1) == 3
    assert dyn[2, K.D_RES] == 18 - 3 - 3 and cc[2, K.K_SELF_DMG] == 3
    call(K.take_turn, inp, dyn, cc, Script(check=MISS), i=0)   # her next turn (a miss: no new Reflector)
    assert call(K.attack, inp, dyn, cc, Script(check=faces(3, 3, 1, 1), damage=faces(4)), i=2, t=1) == 6
    assert dyn[1, K.D_REFLECT_BY] == -1


def test_life_bomb_heals_half_the_next_hit():
    """Life Bomb (L1712): Major, 1/Scene: the next time she is hit she heals half that attack's damage."""
    inp, dyn, cc = setup([girl(talents=["Life Bomb"])], [mb41_member("Shade", attack=6)])
    call(K.take_turn, inp, dyn, cc, Script(check=MISS), i=0)   # 18/18: not below heal_below, she attacks
    assert dyn[0, K.D_BOMB] == 0 and cc[0, K.K_ATTACKS] == 1
    dyn[0, K.D_RES] = 8
    call(K.take_turn, inp, dyn, cc, Script(), i=0)              # places the bomb (her Major)
    assert dyn[0, K.D_BOMB] == 1 and cc[0, K.K_ATTACKS] == 1 and dyn[0, K.D_TUSES] == 0
    # Shade hits for 5 + 2 = 7: she drops to 1, then heals 3
    assert call(K.attack, inp, dyn, cc, Script(check=faces(3, 3, 1, 1), damage=faces(5)), i=1, t=0) == 7
    assert dyn[0, K.D_RES] == 4 and dyn[0, K.D_BOMB] == 0 and cc[0, K.K_HEALED] == 3


def test_implode_turns_half_the_damage_back():
    """Implode (L1763): Major, 2/Episode, Support vs Support; until the end of her next turn the enemy
    takes half (round up) of the damage it deals."""
    inp, dyn, cc = setup([girl(attack=2, support=4, talents=["Implode"]), girl("Beni")],
                         [mb41_member("Shade", attack=6)])
    # 4 + 4 + 4 = 12 vs 2 + 2 + 3 = 7: imploded
    call(K.take_turn, inp, dyn, cc, Script(check=faces(4, 4, 2, 2)), i=0)
    assert dyn[2, K.D_IMPLODE_BY] == 0 and cc[0, K.K_ATTACKS] == 0 and dyn[0, K.D_TUSES] == 1
    # Shade hits Beni for 3 + 2 = 5 and takes 3
    call(K.attack, inp, dyn, cc, Script(check=faces(3, 3, 1, 1), damage=faces(3)), i=2, t=1)
    assert dyn[1, K.D_RES] == 13 and dyn[2, K.D_RES] == 15 and cc[2, K.K_SELF_DMG] == 3
    # still imploded: her next turn does not implode again (she attacks), then it ends
    call(K.take_turn, inp, dyn, cc, Script(check=MISS), i=0)
    call(K.attack, inp, dyn, cc, Script(check=faces(3, 3, 1, 1), damage=faces(3)), i=2, t=1)
    assert dyn[2, K.D_RES] == 15 and dyn[2, K.D_IMPLODE_BY] == -1


def test_all_or_nothing_trades_resolve_for_damage():
    """All or Nothing (L1800): free, 1/Scene: before rolling take up to 12 damage, the attack's damage
    rises as much; a miss loses it (A49). The policy says how much (default 6)."""
    inp, dyn, cc = setup([girl(talents=["All or Nothing"], policy={**NOCAP, "all_or_nothing": 5})],
                         [boss()])
    assert call(K.attack, inp, dyn, cc, Script(check=faces(3, 3, 1, 1), damage=faces(1)), i=0, t=1) == 8
    assert dyn[0, K.D_RES] == 13 and cc[0, K.K_SELF_DMG] == 5
    assert call(K.attack, inp, dyn, cc, Script(check=faces(3, 3, 1, 1), damage=faces(1)), i=0, t=1) == 3
    # never when it would drop her
    inp, dyn, cc = setup([girl(talents=["All or Nothing"], policy={**NOCAP, "all_or_nothing": 5})], [boss()])
    dyn[0, K.D_RES] = 5
    call(K.attack, inp, dyn, cc, Script(check=MISS), i=0, t=1)
    assert dyn[0, K.D_RES] == 5 and dyn[0, K.D_TUSES] == 1
