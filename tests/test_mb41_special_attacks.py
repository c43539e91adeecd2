"""Special attacks and attack styles of 4.1 (seed 000): Ambush Tactics,
Minion Explosion, Curse Shift (monster talents / boss abilities), Belkan
System and Mid-Childan System (common talents), each with injected dice
showing its effect as the book states. Gridless fights: every range is met.

``girl`` is 4/4/3 (attack/defence/support) with Resolve 18; monsters here
have damage bonus 0, so a melee hit deals the die + 2.
"""
from __future__ import annotations

from helpers import Script, faces, mb41_call, mb41_fight, mb41_member
from helpers import mb41_girl as girl, mb41_run as call, mb41_setup as setup

from engine41 import K


def monster(name="Lurker", **kw):
    m = {"kind": "monster", "resolve": 20, "damage_bonus": 0, "overcharge_pool": 5}
    m.update(kw)
    return mb41_member(name, **m)


# ------------------------------------------------------------------ Ambush Tactics


def test_ambush_tactics_turn_before_round_one_then_first():
    """Ambush Tactics (L2006-2009): an extra turn before round 1, its attack at
    +3 and +1d6 damage; it goes first in round 1 (it always chooses to)."""
    inp, dyn, cc = setup([girl()], [monster(talents=["Ambush Tactics"])], rules={"round_cap": 1})
    check = (faces(2, 2, 2, 2)     # ambush: 4 + 3 + 3 = 10 vs 4 + 4 = 8 (7 vs 8 without the +3)
             + faces(3, 3, 1, 1)   # round 1, Lurker first: 6 + 3 = 9 vs 2 + 4 = 6, hits
             + faces(1, 1, 3, 3))  # then Akari: 2 + 4 = 6 vs 6 + 3 = 9, misses
    s = Script(check=check, damage=faces(1, 4) + faces(2))   # 1 + 2 + 1d6 (4); then 2 + 2
    outcome, rounds = mb41_fight(inp, dyn, s.streams, cc)
    s.assert_consumed()
    assert dyn[0, K.D_RES] == 18 - 7 - 4
    assert dyn[1, K.D_RES] == 20
    assert cc[1, K.K_TUSE] == 1 and cc[1, K.K_ATTACKS] == 2
    assert (outcome, rounds) == (K.F_DRAW, 1)


def test_ambush_that_ends_the_fight_counts_one_round():
    inp, dyn, cc = setup([girl()], [monster(talents=["Ambush Tactics"])])
    dyn[0, K.D_RES] = 3
    s = Script(check=faces(2, 2, 2, 2), damage=faces(1, 1))
    assert mb41_fight(inp, dyn, s.streams, cc) == (K.F_LOSS, 1)
    s.assert_consumed()


# ------------------------------------------------------------------ Minion Explosion


def test_minion_explosion_destroys_a_minion_and_adds_a_d6():
    """Minion Explosion (L1987-1989, Major, 1 overcharge): the attack comes from
    one of its minions, which is destroyed; a hit deals +1d6."""
    imp = {"name": "Imp", "kind": "minion", "attack": 2, "hp": 2, "passive_defence": 6}
    inp, dyn, cc = setup([girl()], [monster(talents=["Minion Explosion"]), imp])
    hit = faces(3, 3, 1, 1)  # 6 + 3 = 9 vs 2 + 4 = 6
    assert call(K.attack, inp, dyn, cc, Script(check=hit, damage=faces(1, 5)), i=1, t=0) == 8   # 1 + 2 + 5
    assert dyn[2, K.D_DEAD] == 1 and dyn[2, K.D_RES] == 0 and cc[2, K.K_DEATHS] == 1
    assert dyn[1, K.D_POOL] == 4 and cc[1, K.K_TUSE] == 1
    assert call(K.attack, inp, dyn, cc, Script(check=hit, damage=faces(1)), i=1, t=0) == 3      # no minion left
    assert dyn[1, K.D_POOL] == 4


# ------------------------------------------------------------------ Curse Shift


def test_curse_shift_moves_its_ailments_one_overcharge_each():
    """Curse Shift (L2017-2019, Major, 1 overcharge, +1 per further effect):
    the ailments it bears go to another target."""
    inp, dyn, cc = setup([girl()], [monster(talents=["Curse Shift"], overcharge_pool=3)])
    dyn[1, K.D_AIL + K.A_STUN] = 1
    dyn[1, K.D_AIL + K.A_BOUND] = 1
    assert call(K.try_curse_shift, inp, dyn, cc, Script(), i=1, bf=None)
    assert list(dyn[1, K.D_AIL:K.D_AIL + 3]) == [0, 0, 0]
    assert list(dyn[0, K.D_AIL:K.D_AIL + 3]) == [1, 1, 0]
    assert dyn[1, K.D_POOL] == 1
    assert not call(K.try_curse_shift, inp, dyn, cc, Script(), i=1, bf=None)   # nothing left to move


def test_curse_shift_moves_what_the_pool_pays_for_and_only_what_the_target_lacks():
    inp, dyn, cc = setup([girl()], [monster(talents=["Curse Shift"], overcharge_pool=1)])
    dyn[1, K.D_AIL:K.D_AIL + 3] = 1
    dyn[0, K.D_AIL + K.A_STUN] = 1                                   # she is Stunned already
    assert call(K.try_curse_shift, inp, dyn, cc, Script(), i=1, bf=None)
    assert list(dyn[1, K.D_AIL:K.D_AIL + 3]) == [1, 0, 1]            # Bound moved, then the pool ran dry
    assert list(dyn[0, K.D_AIL:K.D_AIL + 3]) == [1, 1, 0]
    assert dyn[1, K.D_POOL] == 0


def test_curse_shift_is_its_major_action_after_a_failed_removal_roll():
    inp, dyn, cc = setup([girl()], [monster(talents=["Curse Shift"])])
    dyn[1, K.D_AIL + K.A_BLEED] = 1
    call(K.take_turn, inp, dyn, cc, Script(check=faces(1, 1)), i=1)   # removal 2 + 3 = 5 fails; no attack
    assert dyn[0, K.D_AIL + K.A_BLEED] == 1 and dyn[1, K.D_AIL + K.A_BLEED] == 0
    assert cc[1, K.K_ATTACKS] == 0


# ------------------------------------------------------------------ Belkan / Mid-Childan System


def test_belkan_system_melee_hits_store_two_spent_on_the_next_attack():
    """Belkan System (L1675-1679): no ranged attacks; each melee hit stores +2
    for a later magical roll (at most +6); she spends it on her next attack."""
    inp, dyn, cc = setup([girl(talents=["Belkan System"], attack_kind="ranged")], [mb41_member("Shade", resolve=40)])
    assert inp.comb[0, K.C_FORM] == 0 and inp.comb[0, K.C_DMG] == 2
    assert any("Belkan" in n for n in inp.notes)
    hit = faces(3, 3, 1, 1)
    assert call(K.attack, inp, dyn, cc, Script(check=hit, damage=faces(1)), i=0, t=1) == 3
    assert dyn[0, K.D_BELKAN] == 1
    # 3 + 4 = 7 (+2 = 9) vs 6 + 3 = 9: the tie goes to her higher stat (4 > 3)
    assert call(K.attack, inp, dyn, cc, Script(check=faces(2, 1, 3, 3), damage=faces(1)), i=0, t=1) == 3
    assert dyn[0, K.D_BELKAN] == 1                                   # spent, and stored again by the hit
    assert call(K.attack, inp, dyn, cc, Script(check=faces(1, 1, 3, 3)), i=0, t=1) == -1
    assert dyn[0, K.D_BELKAN] == 0                                   # spent on a miss: gone


def test_belkan_system_stores_at_most_three():
    inp, dyn, cc = setup([girl(talents=["Belkan System"])], [mb41_member("Shade", resolve=40)])
    for _ in range(5):
        mb41_call(K.h_belkan_store, i=0, t=1, dealt=1, comb=inp.comb, rules=inp.rules, dyn=dyn)
    assert dyn[0, K.D_BELKAN] == 3


def test_belkan_system_standing_bonus_is_a_rule_option():
    """``belkan_stacks: standing`` (A48b): the stored +2 stays for the scene: after one hit,
    every later attack has +2 (3 + 4 + 2 = 9 vs 6 + 3 = 9, her higher stat takes the tie),
    and a second hit makes it +4."""
    inp, dyn, cc = setup([girl(talents=["Belkan System"])], [mb41_member("Shade", resolve=40)],
                         rules={"belkan_stacks": "standing"})
    assert call(K.attack, inp, dyn, cc, Script(check=faces(3, 3, 1, 1), damage=faces(1)), i=0, t=1) == 3
    assert call(K.attack, inp, dyn, cc, Script(check=faces(1, 1, 3, 3)), i=0, t=1) == -1   # 8 vs 9: a miss
    assert dyn[0, K.D_BELKAN] == 1                                      # kept
    assert call(K.attack, inp, dyn, cc, Script(check=faces(2, 1, 3, 3), damage=faces(1)), i=0, t=1) == 3
    assert dyn[0, K.D_BELKAN] == 2


def test_mid_childan_system_has_no_melee_bonus():
    """Mid-Childan System (L1669-1673): no +2 melee damage; ranged unchanged."""
    inp, dyn, cc = setup([girl(talents=["Mid-Childan System"]), girl("Bea", talents=["Mid-Childan System"],
                                                                     attack_kind="ranged")],
                         [mb41_member("Shade", resolve=40)])
    assert inp.comb[0, K.C_DMG] == 0 and inp.comb[0, K.C_MELEE_DMG] == 0
    assert inp.comb[1, K.C_DMG] == 0 and inp.comb[1, K.C_RANGED_DMG] == 0
    assert call(K.attack, inp, dyn, cc, Script(check=faces(3, 3, 1, 1), damage=faces(4)), i=0, t=2) == 4


# ------------------------------------------------------------------ Undying Brood


def test_undying_brood_a_minion_becomes_the_monster_with_shrinking_resolve():
    """Undying Brood (L1999-2002, free, 2 overcharge): on its death a living
    minion becomes the monster, with its original Resolve divided by the
    minions at the start; each later rebirth halves it."""
    imp = {"kind": "minion", "attack": 2, "hp": 2, "passive_defence": 6}
    inp, dyn, cc = setup([girl()], [monster(resolve=24, talents=["Undying Brood"]),
                                    dict(imp, name="Imp1"), dict(imp, name="Imp2"), dict(imp, name="Imp3")])
    assert inp.comb[1, K.C_TP1] == 3
    dyn[1, K.D_AIL + K.A_BOUND] = 1
    call(K.apply_damage, inp, dyn, cc, Script(), t=1, dmg=24)
    assert dyn[1, K.D_DEAD] == 0 and dyn[1, K.D_RES] == 8           # 24 // 3
    assert dyn[2, K.D_DEAD] == 1 and dyn[1, K.D_POOL] == 3            # Imp1 is gone; 5 - 2
    assert dyn[1, K.D_AIL + K.A_BOUND] == 0
    call(K.apply_damage, inp, dyn, cc, Script(), t=1, dmg=8)
    assert dyn[1, K.D_RES] == 4 and dyn[3, K.D_DEAD] == 1 and dyn[1, K.D_POOL] == 1   # halved
    call(K.apply_damage, inp, dyn, cc, Script(), t=1, dmg=4)          # pool 1 < 2: dies for good
    assert dyn[1, K.D_DEAD] == 1 and dyn[4, K.D_DEAD] == 0
    assert cc[1, K.K_TUSE] == 2 and cc[1, K.K_DEATHS] == 1


def test_undying_brood_without_minions_dies():
    inp, dyn, cc = setup([girl()], [monster(talents=["Undying Brood"])])
    call(K.apply_damage, inp, dyn, cc, Script(), t=1, dmg=20)
    assert dyn[1, K.D_DEAD] == 1 and dyn[1, K.D_POOL] == 5


# ------------------------------------------------------------------ Fight for Friends


def test_fight_for_friends_adds_six_and_six_while_an_ally_is_down():
    """Fight for Friends (L1590-1595): +6 to the roll and +6 damage when acting
    to prevent a disaster to someone close (read: an ally lies at 0 Resolve,
    alive); uses: the draft's 2/Scene."""
    inp, dyn, cc = setup([girl(talents=["Fight for Friends"]), girl("Bea")], [mb41_member("Shade", resolve=40)])
    miss = faces(1, 1, 3, 3)   # 2 + 4 = 6 vs 6 + 3 = 9; +6: 12 hits
    assert call(K.attack, inp, dyn, cc, Script(check=miss), i=0, t=2) == -1
    assert dyn[0, K.D_TUSES] == 2
    dyn[1, K.D_RES] = 0
    assert call(K.attack, inp, dyn, cc, Script(check=miss, damage=faces(1)), i=0, t=2) == 9   # 1 + 2 + 6
    assert dyn[0, K.D_TUSES] == 1
    dyn[1, K.D_DEAD] = 1                                             # too late: no disaster to prevent
    assert call(K.attack, inp, dyn, cc, Script(check=miss), i=0, t=2) == -1
    assert dyn[0, K.D_TUSES] == 1


# ------------------------------------------------------------------ Hate the World


def test_hate_the_world_spends_a_bond_for_three_on_an_attack():
    """Hate the World (L1597-1600): lower a bond by 1 for +3 to a challenge
    result and +3 damage on an attack (uses: the draft's 2/Scene)."""
    inp, dyn, cc = setup([girl(talents=["Hate the World"])], [mb41_member("Shade", resolve=40)])
    miss = faces(1, 1, 3, 3)   # 6 vs 9; +3: 9 vs 9, the tie goes to her higher stat (4 > 3)
    assert call(K.attack, inp, dyn, cc, Script(check=miss, damage=faces(1)), i=0, t=1) == 6   # 1 + 2 + 3
    assert list(dyn[0, K.D_BOND:K.D_BOND + 4]) == [2, 3, 3, 3]
    assert cc[0, K.K_BONDS_LOST] == 1 and dyn[0, K.D_TUSES] == 1
    assert (dyn[0, K.D_OC:K.D_OC + 3] == 0).all()                    # paid with a bond, no overcharge


def test_hate_the_world_heals_below_heal_below_and_never_spends_the_last_bond():
    inp, dyn, cc = setup([girl(talents=["Hate the World"], bonds=[1, 1])], [mb41_member("Shade")])
    dyn[0, K.D_RES] = 5                                               # 27% < heal_below 50
    assert mb41_call(K.minor_talent, i=0, comb=inp.comb, pol=inp.pol, rules=inp.rules, dyn=dyn,
                     streams=Script(damage=faces(2)).streams, cc=cc, bf=None) == 1
    assert dyn[0, K.D_RES] == 5 + 2 + 4 and list(dyn[0, K.D_BOND:K.D_BOND + 2]) == [0, 1]
    dyn[0, K.D_RES] = 5
    assert mb41_call(K.minor_talent, i=0, comb=inp.comb, pol=inp.pol, rules=inp.rules, dyn=dyn,
                     streams=Script().streams, cc=cc, bf=None) == 0      # one bond point left: kept
    assert dyn[0, K.D_LOST] == 0
