"""The earlier draft's talents (seed 001) on the shared engine: its own catalog
(``sim catalog mb-draft``) with the draft's numbers, and its own talents
(Hex, Evasion, Regeneration, Magic Detonation, Second Chance Attack,
Hamstring, Purge, Empower, Rouse), each with injected dice showing the
effect as the draft states it. Gridless (the draft's positions are not
simulated yet).

Default roles (tests/helpers.py): attack = fury, defence = heart, support =
judgment (the draft's Magic). ``girl`` is 4/4/3, Resolve 18.
"""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from helpers import Script, draft_arena, faces, mb41_data, mb41_inputs, mb41_member, mb41_state
from helpers import mb41_girl as girl, mb41_run as call

from engine41 import K
from sim.systems.mb41 import talents as T

HEART, FURY, MAGIC = 0, 1, 2
HIT = faces(3, 3, 1, 1)     # 6 + 4 = 10 vs 2 + 3 = 5
MISS = faces(1, 1, 3, 3)    # 2 + 4 = 6 vs 6 + 3 = 9


def draft(side_a, side_b, rules=None):
    """Compile an mb-draft fight; returns ``(inp, dyn, cc)`` after reset."""
    return draft_arena(side_a, side_b, rules)


def slot(inp, i, code):
    return [s for s in range(K.MAXT) if inp.comb[i, K.C_TCODE + s] == code][0]


def strike(inp, dyn, cc, script, i=0, t=1):
    return call(K.attack, inp, dyn, cc, script, i=i, t=t)


# ------------------------------------------------------------------ the catalog


def test_the_draft_catalog_lists_its_talents_with_their_numbers():
    from sim.systems.mbdraft import catalog

    names = [r.name for r in catalog.rows()]
    assert catalog.lookup("Amplify Magic").simulated                # Hex half and healing half
    assert len(names) == 53 and len(set(names)) == 53   # 12 common, 14 Knight, 14 Priestess, 13 Witch
    for want in ("Hex", "Evasion", "Regeneration", "Magic Detonation", "Second Chance Attack", "Hamstring",
                 "Get Back", "Rouse", "Empower", "Purge", "Let's Move", "Speed Burst"):
        assert want in names
    for r in catalog.rows():
        if r.simulated:   # every simulated row names a known mechanic with known parameters
            code, params = T.MECHANICS[r.mechanic["code"]]
            assert set(r.mechanic) - {"code"} <= set(params), r.name
            for p in params:
                T.param_value(p, r.mechanic.get(p, 0))
    assert catalog.lookup("Inflict").uses_per_scene == 1            # DRAFT L43 (4.1: 2/Scene)
    assert catalog.lookup("Power Dampening").uses_per_scene == 1    # DRAFT L173 (4.1: 2/Scene)
    assert catalog.lookup("Shield").cost_stat == "support"          # DRAFT L55 (4.1: Defence)
    assert catalog.lookup("Create Barrier").simulated is False     # not yet (positions)
    assert catalog.lookup("Link").mechanic == {"code": "link", "damage": 1}   # the draft's copies damage
    assert catalog.lookup("Binding Attack").group == "monster"      # adversaries are 4.1's


def test_sim_catalog_mb_draft_json():
    out = subprocess.run([sys.executable, "-m", "sim", "catalog", "mb-draft", "--json"],
                         capture_output=True, text=True, check=True).stdout
    rows = json.loads(out)["entries"]
    by = {r["name"]: r for r in rows}
    assert by["Hex"]["simulated"] and by["Hex"]["group"] == "witch" and by["Hex"]["source"] == "DRAFT L251-255"
    assert not by["Create Barrier"]["simulated"] and by["Get Back"]["simulated"] and by["Marionette"]["simulated"]
    assert by["Second Chance Attack"]["as_41"] == "Want it Hard, Want it Now"


def test_draft_scenarios_use_draft_numbers_and_reject_4_1_only_talents():
    inp, dyn, cc = draft([girl("Akari", talents=["Inflict", "Shield"])], [mb41_member("Shade")])
    s = slot(inp, 0, K.E_INFLICT)
    assert inp.comb[0, K.C_TUSES + s] == 1                   # 1/Scene in the draft
    sh = slot(inp, 0, K.E_SHIELD)
    assert inp.comb[0, K.C_TP3 + sh] == 3 and inp.comb[0, K.C_TUSES + sh] == -1
    assert inp.comb[0, K.C_TROLE + sh] == MAGIC               # the Support role's stat
    with pytest.raises(Exception, match="Want it Hard"):
        draft([girl("Akari", talents=["Want it Hard, Want it Now"])], [mb41_member("Shade")])
    with pytest.raises(Exception, match="Hex"):
        from helpers import mb41_inputs
        mb41_inputs(mb41_data([girl("Akari", talents=["Hex"])], [mb41_member("Shade")]))


# ------------------------------------------------------------------ Hex


def test_hex_deals_one_damage_every_round_and_stacks_one_a_round():
    """DRAFT L255: 1 damage at the start of each round until the end of the
    scene, not an attack; several Hexes on a target, one placed a round."""
    inp, dyn, cc = draft([girl("Akari", talents=["Hex"])], [mb41_member("Shade")])
    dyn[0, K.D_ROUND] = 1
    call(K.minor_talent, inp, dyn, cc, Script(), i=0)
    assert dyn[1, K.D_HEXES] == 1 and cc[0, K.K_TUSE + slot(inp, 0, K.E_HEX)] == 1
    assert call(K.minor_talent, inp, dyn, cc, Script(), i=0) == 0    # one a round
    dyn[0, K.D_ROUND] = 2
    call(K.minor_talent, inp, dyn, cc, Script(), i=0)
    assert dyn[1, K.D_HEXES] == 2
    assert call(K.round_effects, inp, dyn, cc, Script(), j=1)
    assert dyn[1, K.D_RES] == 16 and cc[1, K.K_HEX_DMG] == 2 and cc[0, K.K_ATTACKS] == 0


def test_hexes_play_in_whole_fights():
    from sim.rng import stream_key
    from sim.systems.mb41 import simulate

    inp, _, _ = draft([girl("Akari", talents=["Hex"])], [mb41_member("Shade", resolve=30)])
    k = simulate(inp, 0, 2000, stream_key(5))["combatants"]
    assert k[1, K.K_HEX_DMG] > 2000          # more than a point a fight
    assert k[0, K.K_HEX_DMG] == 0


# ------------------------------------------------------------------ Amplify Magic (DRAFT L265-269)


def test_draft_amplify_magic_doubles_her_hexes_on_the_enemy_until_it_drops():
    """DRAFT L267: an enemy takes double the normal damage from Hexes you
    place on it, until the end of the scene or it drops to zero Resolve. Her
    Minor goes to Amplify first (1/Scene), then one Hex a round; another
    witch's Hexes on the same enemy are not doubled."""
    inp, dyn, cc = draft([girl("Akari", talents=["Hex", "Amplify Magic"]), girl("Bea", talents=["Hex"])],
                         [mb41_member("Shade", resolve=30)])
    amp = slot(inp, 0, K.E_AMPLIFY)
    assert inp.comb[0, K.C_TP3 + amp] == 2 and inp.comb[0, K.C_TP2 + amp] == 0
    dyn[0, K.D_ROUND] = 1
    assert call(K.minor_talent, inp, dyn, cc, Script(), i=0) == 1      # round 1: Amplify, no Hex yet
    assert dyn[2, K.D_AMP_HEX_BY] == 1 and dyn[2, K.D_AMP_HEX] == 2 and dyn[2, K.D_HEXES] == 0
    assert dyn[0, K.D_TUSES + amp] == 0 and cc[0, K.K_TUSE + amp] == 1
    dyn[0, K.D_ROUND] = 2
    call(K.minor_talent, inp, dyn, cc, Script(), i=0)                  # her Hex: 2 a round
    assert dyn[2, K.D_HEXES] == 2 and dyn[2, K.D_HEX_EXTRA] == 1
    call(K.minor_talent, inp, dyn, cc, Script(), i=1)                  # Bea's Hex: 1 more
    assert dyn[2, K.D_HEXES] == 3
    assert call(K.round_effects, inp, dyn, cc, Script(), j=2)
    assert dyn[2, K.D_RES] == 27 and cc[2, K.K_HEX_DMG] == 3
    call(K.apply_damage, inp, dyn, cc, Script(), t=2, dmg=27)          # she drops: her Hexes are normal again
    assert dyn[2, K.D_RES] == 0 and dyn[2, K.D_HEXES] == 2 and dyn[2, K.D_AMP_HEX_BY] == 0


def test_draft_amplify_magic_needs_an_unhexed_enemy_and_has_no_ailment_half():
    """Her Hex half goes on an enemy bearing no Hex yet (so every later Hex
    of hers counts double); without Hex, and with no one to heal, she keeps
    it: the draft's Amplify has no ailment half (4.1's -2 to removal rolls)."""
    inp, dyn, cc = draft([girl("Akari", talents=["Hex", "Amplify Magic"])], [mb41_member("Shade")])
    dyn[1, K.D_HEXES] = 1
    dyn[0, K.D_ROUND] = 1
    assert call(K.minor_talent, inp, dyn, cc, Script(), i=0) == 1      # a Hex, not Amplify
    assert dyn[1, K.D_HEXES] == 2 and dyn[1, K.D_AMP_HEX_BY] == 0
    assert dyn[0, K.D_TUSES + slot(inp, 0, K.E_AMPLIFY)] == 1
    inp, dyn, cc = draft([girl("Akari", talents=["Inflict", "Amplify Magic"])], [mb41_member("Shade")])
    assert not call(K.try_amplify, inp, dyn, cc, Script(), i=0)
    assert dyn[1, K.D_AMP_AIL] == 0 and dyn[1, K.D_AMP_HEX_BY] == 0


def test_draft_amplify_magic_on_a_hurt_ally_adds_two_to_every_heal():
    """DRAFT L267: an ally gains an additional 2 points from any healing
    effect; that half comes first when her side heals and one is hurt."""
    inp, dyn, cc = draft([girl("Akari", talents=["Heal"]), girl("Bea", talents=["Hex", "Amplify Magic"])],
                         [mb41_member("Shade")])
    dyn[0, K.D_RES] = 5
    dyn[0, K.D_ROUND] = 1
    assert call(K.minor_talent, inp, dyn, cc, Script(), i=1) == 1
    assert dyn[0, K.D_AMP_HEAL] == 2 and dyn[2, K.D_AMP_HEX_BY] == 0 and dyn[2, K.D_HEXES] == 0


def test_draft_amplified_hexes_play_in_whole_fights():
    from sim.rng import stream_key
    from sim.systems.mb41 import simulate

    plain, _, _ = draft([girl("Akari", talents=["Hex"])], [mb41_member("Shade", resolve=30)])
    amped, _, _ = draft([girl("Akari", talents=["Hex", "Amplify Magic"])], [mb41_member("Shade", resolve=30)])
    k0 = simulate(plain, 0, 2000, stream_key(5))["combatants"]
    k1 = simulate(amped, 0, 2000, stream_key(5))["combatants"]
    s = slot(amped, 0, K.E_AMPLIFY)
    assert k1[0, K.K_TUSE + s] == 2000                     # once a fight, in round 1
    # a round of Hexes lost to Amplify, then twice the damage: in these short fights
    # (Shade drops in about five rounds) it comes to a little more in all
    assert k0[1, K.K_HEX_DMG] < k1[1, K.K_HEX_DMG] < 1.5 * k0[1, K.K_HEX_DMG]


# ------------------------------------------------------------------ Evasion


def test_evasion_turns_a_hit_into_a_miss_once_a_scene():
    """DRAFT L117: just hit, before damage, +6 to her defence result; if it now
    exceeds the attacker's, he misses."""
    inp, dyn, cc = draft([mb41_member("Shade")], [girl("Akari", talents=["Evasion"])])
    # Shade 5 + 5 + 3 = 13 vs Akari 2 + 2 + 4 = 8: a hit; 8 + 6 = 14 > 13: a miss
    strike(inp, dyn, cc, Script(check=faces(5, 5, 2, 2)))
    assert dyn[1, K.D_RES] == 18 and dyn[1, K.D_TUSES] == 0 and cc[0, K.K_HITS] == 0
    strike(inp, dyn, cc, Script(check=faces(5, 5, 2, 2), damage=faces(2)))   # no use left: hit for 2 + 2
    assert dyn[1, K.D_RES] == 14


def test_evasion_is_kept_when_six_would_not_be_enough():
    inp, dyn, cc = draft([mb41_member("Shade")], [girl("Akari", talents=["Evasion"])])
    # 5 + 5 + 3 = 13 vs 2 + 1 + 4 = 7: + 6 = 13 does not exceed 13
    strike(inp, dyn, cc, Script(check=faces(5, 5, 2, 1), damage=faces(1)))
    assert dyn[1, K.D_TUSES] == 1 and cc[0, K.K_HITS] == 1


# ------------------------------------------------------------------ Regeneration


def test_regeneration_two_a_round_up_to_base_once_she_is_hurt():
    """DRAFT L141: for the rest of the scene +2 Resolve at the start of each
    round, up to Base Resolve (1/Episode)."""
    inp, dyn, cc = draft([girl("Akari", talents=["Regeneration"])], [mb41_member("Shade")])
    call(K.take_turn, inp, dyn, cc, Script(check=MISS), i=0)      # full Resolve: not yet
    assert dyn[0, K.D_REGEN] == 0
    dyn[0, K.D_RES] = 15
    call(K.take_turn, inp, dyn, cc, Script(check=MISS), i=0)
    assert dyn[0, K.D_REGEN] == 2 and dyn[0, K.D_TUSES] == 0
    call(K.round_effects, inp, dyn, cc, Script(), j=0)
    assert dyn[0, K.D_RES] == 17
    call(K.round_effects, inp, dyn, cc, Script(), j=0)
    assert dyn[0, K.D_RES] == 18 and cc[0, K.K_HEALED] == 3
    dyn[0, K.D_RES] = 0                                   # at 0 she is a non-magical human
    call(K.round_effects, inp, dyn, cc, Script(), j=0)
    assert dyn[0, K.D_RES] == 0


# ------------------------------------------------------------------ Magic Detonation


def test_magic_detonation_deals_the_targets_overcharge_instead_of_damage():
    """DRAFT L311: 'Instead of the usual damage, the target takes damage equal
    to the amount of ... Magic Overcharge if it's a magical girl'."""
    inp, dyn, cc = draft([girl("Akari", talents=["Magic Detonation"])], [girl("Bea")])
    dyn[1, K.D_OC + MAGIC] = 9
    # Akari 6, 3 and the explosion's 1: 10 + 4 = 14 vs Bea 1 + 1 + 4 = 6; the damage die is not used
    strike(inp, dyn, cc, Script(check=faces(6, 3, 1, 1, 1), damage=faces(6)))
    assert dyn[1, K.D_RES] == 9
    assert dyn[0, K.D_OC + FURY] == 1 + 1                     # the six, and 1 Attack overcharge paid
    assert cc[0, K.K_TUSE] == 1


def test_magic_detonation_waits_for_detonation_min():
    inp, dyn, cc = draft([girl("Akari", talents=["Magic Detonation"])], [girl("Bea")])
    dyn[1, K.D_OC + MAGIC] = 5                                 # below 6: a plain attack
    strike(inp, dyn, cc, Script(check=HIT, damage=faces(4)))
    assert dyn[1, K.D_RES] == 12 and cc[0, K.K_TUSE] == 0
    inp, dyn, cc = draft([girl("Akari", talents=["Magic Detonation"])], [mb41_member("Glow", kind="monster",
                                                                            overcharge_pool=10, damage_bonus=0,
                                                                            resolve=30)])
    strike(inp, dyn, cc, Script(check=HIT, damage=faces(1)))   # a monster takes its pool: 10
    assert dyn[1, K.D_RES] == 20


# ------------------------------------------------------------------ Second Chance Attack, Hamstring


def test_second_chance_attack_needs_her_minor_action():
    """DRAFT L329: an attack that misses gets a second attempt (Minor, 1/Scene)."""
    inp, dyn, cc = draft([girl("Akari", talents=["Second Chance Attack"])], [mb41_member("Shade")])
    strike(inp, dyn, cc, Script(check=MISS + faces(3, 3), damage=faces(1)))   # 6 vs 9, again: 10 vs 9
    assert dyn[1, K.D_RES] == 15 and dyn[0, K.D_TUSES] == 0 and dyn[0, K.D_MINOR_USED] == 1
    inp, dyn, cc = draft([girl("Akari", talents=["Second Chance Attack"])], [mb41_member("Shade")])
    dyn[0, K.D_MINOR_USED] = 1                                 # her Minor is gone: no second chance
    strike(inp, dyn, cc, Script(check=MISS))
    assert dyn[1, K.D_RES] == 18 and dyn[0, K.D_TUSES] == 1
    assert dyn[0, K.D_OC + FURY] == 0                          # it costs no overcharge


def test_hamstring_binds_on_a_hit():
    inp, dyn, cc = draft([girl("Akari", talents=["Hamstring"])], [mb41_member("Shade")])
    strike(inp, dyn, cc, Script(check=HIT, damage=faces(1)))
    assert dyn[1, K.D_AIL + K.A_BOUND] == 1 and dyn[0, K.D_OC + FURY] == 1


# ------------------------------------------------------------------ Empower, Rouse


def test_empower_and_rouse_give_excited_or_calm_by_stats():
    inp, dyn, cc = draft([girl("Akari", talents=["Empower", "Rouse"]), girl("Bea", attack=2, defence=5)],
                         [mb41_member("Shade")])
    call(K.take_turn, inp, dyn, cc, Script(check=MISS), i=0)   # Empower (free), Rouse (Minor), attack
    assert dyn[0, K.D_MOOD] == 1 and dyn[1, K.D_MOOD] == 2     # Akari 4 >= 4: Excited; Bea 2 < 5: Calm


def test_excited_adds_to_attacks_and_calm_to_defences():
    inp, dyn, cc = draft([girl("Akari")], [mb41_member("Shade")], rules={"excited_bonus": 2})
    dyn[0, K.D_MOOD] = 1
    # 2 + 2 + 4 + 2 = 10 vs 5 + 2 + 3 = 10: a tie Akari's higher stat wins
    strike(inp, dyn, cc, Script(check=faces(2, 2, 5, 2), damage=faces(1)))
    assert cc[0, K.K_HITS] == 1
    dyn[0, K.D_MOOD] = 2                                       # Calm: +1 defending
    # Shade 3 + 4 + 3 = 10 vs Akari 3 + 2 + 4 + 1 = 10: a tie her higher stat wins
    strike(inp, dyn, cc, Script(check=faces(3, 4, 3, 2)), i=1, t=0)
    assert cc[1, K.K_HITS] == 0


# ------------------------------------------------------------------ the draft's numbers on shared mechanics


def test_shield_in_the_draft_is_three_points_a_hit_on_support():
    """DRAFT L55: 1 Support overcharge per -5, up to 3 overcharge for one attack, no scene limit."""
    inp, dyn, cc = draft([mb41_member("Shade", attack=6, damage_bonus=10, kind="monster", overcharge_pool=10,
                                      resolve=30)],
                         [girl("Akari", talents=["Shield"], resolve=40)])
    for _ in range(2):   # 5 + 5 + 6 = 16 vs 1 + 1 + 4 = 6; 6 + 2 + 10 = 18 damage: 4 points wanted, 3 taken
        strike(inp, dyn, cc, Script(check=faces(5, 5, 1, 1), damage=faces(6)))
    assert dyn[1, K.D_OC + MAGIC] == 6 and cc[1, K.K_PREVENTED] == 30


def test_purge_clears_all_her_ailments_and_no_one_elses():
    inp, dyn, cc = draft([girl("Akari", talents=["Purge"]), girl("Bea")], [mb41_member("Shade")])
    dyn[1, K.D_AIL + K.A_BOUND] = 1
    assert not call(K.try_remedy, inp, dyn, cc, Script(), i=0, j=1)
    dyn[0, K.D_AIL + K.A_BOUND] = 1
    dyn[0, K.D_AIL + K.A_BLEED] = 1
    assert call(K.try_remedy, inp, dyn, cc, Script(), i=0, j=0)
    assert dyn[0, K.D_AIL + K.A_BOUND] == 0 and dyn[0, K.D_AIL + K.A_BLEED] == 0
    assert dyn[0, K.D_OC:K.D_OC + 3].sum() == 0 and dyn[0, K.D_TUSES] == 0


def test_power_dampening_in_the_draft_helps_an_ally_only():
    inp, dyn, cc = draft([girl("Akari", talents=["Power Dampening"]), girl("Bea")], [mb41_member("Shade")])
    dyn[0, K.D_OC + FURY] = 9
    dyn[1, K.D_OC + HEART] = 2
    strike(inp, dyn, cc, Script(check=faces(1, 3, 2, 2), damage=faces(1)), t=2)
    assert dyn[0, K.D_OC + FURY] == 9 and dyn[1, K.D_OC + HEART] == 1


def test_reflector_in_the_draft_may_go_on_herself():
    inp, dyn, cc = draft([girl("Akari", talents=["Reflector"], resolve=18), girl("Bea")], [mb41_member("Shade")])
    dyn[0, K.D_RES] = 5      # she is the lowest in Resolve share: 5/18 < 18/18
    call(K.give_reflector, inp, dyn, cc, Script(), i=0)
    assert dyn[0, K.D_REFLECT_BY] == 0 and dyn[1, K.D_REFLECT_BY] == -1


def test_fight_for_friends_in_the_draft_adds_her_strongest_bond_with_an_ally_present():
    """DRAFT L27: 'Add the level of your relationship to a character that is
    present to the result and any damage caused by one action' (2/Scene)."""
    inp, dyn, cc = draft([girl("Akari", talents=["Fight for Friends"], bonds=[2, 4, 1]), girl("Bea")],
                         [mb41_member("Shade")])
    # 1 + 1 + 4 + 4 = 10 vs 2 + 3 + 3 = 8: a hit only with the bond's +4; damage 1 + 2 + 4
    strike(inp, dyn, cc, Script(check=faces(1, 1, 2, 3), damage=faces(1)), t=2)
    assert dyn[2, K.D_RES] == 11 and dyn[0, K.D_TUSES] == 1
    inp, dyn, cc = draft([girl("Akari", talents=["Fight for Friends"], bonds=[2, 4, 1])], [mb41_member("Shade")])
    strike(inp, dyn, cc, Script(check=faces(1, 1, 2, 3)))       # alone: nobody present, a miss (6 vs 8)
    assert dyn[1, K.D_RES] == 18 and dyn[0, K.D_TUSES] == 2


def test_all_or_nothing_in_the_draft_comes_after_a_hit():
    """The draft's All or Nothing (DRAFT L259-263, free, 1/Scene): 'boost the damage of an
    attack you just made': a miss costs nothing and keeps the use; on the hit that follows she
    takes 5 (the policy) and the hit deals 1 + 2 + 5 = 8 (1d6 = 1, melee +2)."""
    inp, dyn, cc = draft([girl(talents=["All or Nothing"], policy={"boost": "never", "overcharge_cap": 99,
                                                                    "all_or_nothing": 5})],
                         [mb41_member("Shade", kind="monster", resolve=40, damage_bonus=0, overcharge_pool=10)])
    s = slot(inp, 0, K.E_ALL_OR_NOTHING)
    assert inp.comb[0, K.C_TP2 + s] == 1 and inp.comb[0, K.C_TP1 + s] == 12
    assert strike(inp, dyn, cc, Script(check=MISS)) < 0
    assert dyn[0, K.D_RES] == 18 and dyn[0, K.D_TUSES + s] == 1 and cc[0, K.K_SELF_DMG] == 0
    assert strike(inp, dyn, cc, Script(check=HIT, damage=faces(1))) == 8
    assert dyn[0, K.D_RES] == 13 and dyn[0, K.D_TUSES + s] == 0 and cc[0, K.K_SELF_DMG] == 5
    assert strike(inp, dyn, cc, Script(check=HIT, damage=faces(1))) == 3   # 1/Scene: spent


# ------------------------------------------------------------------ Link (DRAFT L165-169)


def test_the_drafts_link_copies_damage_between_two_enemies():
    """'Any time any effect (damage, status effects, healing, ...) affects the
    primary target, you may choose to give the secondary target a copy'
    (DRAFT L167). Focus-weakest: Nox (12) is the primary, Umbra (15), the
    other enemy lowest in Resolve, the secondary; a hit of 4 + 2 on Nox deals
    6 to Umbra too. Healing on an enemy primary is not copied (she chooses)."""
    inp, dyn, cc = draft([girl("Akari", talents=["Link"])],
                         [mb41_member("Shade"), mb41_member("Umbra"), mb41_member("Nox")])
    dyn[2, K.D_RES] = 15
    dyn[3, K.D_RES] = 12
    assert call(K.try_link, inp, dyn, cc, Script(), i=0)             # a Minor, no cost
    assert dyn[3, K.D_LINK_TO] == 2 and dyn[3, K.D_LINK_DMG] == 1 and dyn[0, K.D_LINKED] == 3
    assert dyn[0, K.D_OC + FURY] == 0 and dyn[0, K.D_OC + HEART] == 0 and dyn[0, K.D_OC + MAGIC] == 0
    assert strike(inp, dyn, cc, Script(check=HIT, damage=faces(4)), t=3) == 6
    assert dyn[3, K.D_RES] == 6 and dyn[2, K.D_RES] == 9 and dyn[1, K.D_RES] == 18
    assert cc[2, K.K_TAKEN] == 6 and cc[3, K.K_TAKEN] == 6
    call(K.restore, inp, dyn, cc, Script(), i=3, j=3, amount=3)
    assert dyn[3, K.D_RES] == 9 and dyn[2, K.D_RES] == 9
    call(K.apply_damage, inp, dyn, cc, Script(), t=2, dmg=9)          # the secondary drops ...
    assert dyn[2, K.D_RES] == 0 and dyn[3, K.D_RES] == 9              # ... nothing goes back to the primary
    assert call(K.try_link, inp, dyn, cc, Script(), i=0)              # a new link: Nox and Shade
    assert dyn[3, K.D_LINK_TO] == 1 and dyn[3, K.D_LINK_DMG] == 1


def test_the_drafts_link_with_one_enemy_links_allies_and_copies_no_damage():
    """With a single enemy she links allies when her side heals (as 4.1's Link):
    healing is copied, damage on the ally primary is not."""
    inp, dyn, cc = draft([girl("Akari", talents=["Heal"]), girl("Bea", talents=["Link"]), girl("Cara")],
                         [mb41_member("Shade")])
    dyn[0, K.D_RES] = 5
    dyn[2, K.D_RES] = 12
    assert call(K.try_link, inp, dyn, cc, Script(), i=1)
    assert dyn[0, K.D_LINK_TO] == 2 and dyn[0, K.D_LINK_DMG] == 0
    call(K.apply_damage, inp, dyn, cc, Script(), t=0, dmg=3)
    assert dyn[0, K.D_RES] == 2 and dyn[2, K.D_RES] == 12
    call(K.restore, inp, dyn, cc, Script(), i=0, j=0, amount=4)
    assert dyn[0, K.D_RES] == 6 and dyn[2, K.D_RES] == 16


def test_the_4_1_link_copies_no_damage():
    """4.1's Link (L1743-1752) carries conditions, 'not direct damage'."""
    data = mb41_data([girl("Akari", talents=["Curse", "Link"])], [mb41_member("Shade"), mb41_member("Umbra")])
    inp = mb41_inputs(data)
    dyn, cc = mb41_state(inp)
    assert call(K.try_link, inp, dyn, cc, Script(), i=0)             # ailments: Shade and Umbra
    assert dyn[1, K.D_LINK_TO] == 2 and dyn[1, K.D_LINK_DMG] == 0
    call(K.apply_damage, inp, dyn, cc, Script(), t=1, dmg=5)
    assert dyn[1, K.D_RES] == 13 and dyn[2, K.D_RES] == 18
