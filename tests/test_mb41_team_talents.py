"""Team talents of 4.1 (seed 000): Follow Up, Make an Opening, Courage Aura,
Aura of Strength, Amplify Magic and the monster talent Seal Magic, each with
injected dice showing its effect as the book states (uses, numbers, how long
it lasts). Gridless fights: every range is met.

Default roles (tests/helpers.py): attack = fury, defence = heart, support =
judgment. ``girl`` is 4/4/3 (attack/defence/support) with Resolve 18;
``mb41_member`` defaults are 3/3/3.
"""
from __future__ import annotations

from helpers import Script, faces, mb41_member, MB41_NOCAP as NOCAP
from helpers import mb41_girl as girl, mb41_run as call, mb41_setup as setup

from engine41 import K

HIT = faces(3, 3, 1, 1)     # 6 + 4 = 10 vs 2 + 3 = 5
MISS = faces(1, 1, 3, 3)    # 2 + 4 = 6 vs 6 + 3 = 9
# 3 + 4 = 7 vs 5 + 3 = 8: a miss, but +1 makes a tie the higher stat (4 > 3) wins (L1453)
EDGE = faces(2, 1, 2, 3)


def turn(inp, dyn, cc, s, i):
    """One gridless turn through ``play_turn`` (it advances the turn clock)."""
    call(K.play_turn, inp, dyn, cc, s, i=i, bf=None)


# ------------------------------------------------------------------ Follow Up


def test_follow_up_picks_the_target_an_ally_just_hit_and_adds_one_and_two():
    """Follow Up (L1819-1823, 2/Scene): an attack on a target immediately after
    an ally's successful attack on it: +1 to the challenge, +2 damage."""
    threat = dict(NOCAP, name="strongest-threat")
    inp, dyn, cc = setup([girl("Akari", policy=threat), girl("Bea", talents=["Follow Up"])],
                         [mb41_member("Shade"), mb41_member("Umbra", attack=5, resolve=30)])
    turn(inp, dyn, cc, Script(check=HIT, damage=faces(1)), i=0)   # Akari hits Umbra: 1 + 2 melee
    assert dyn[3, K.D_RES] == 27
    # Bea would focus the weakest (Shade 18 < Umbra 27) but follows Akari's hit:
    # 7 + 1 = 8 vs 8, a tie her higher stat wins; damage 1 + 2 melee + 2
    turn(inp, dyn, cc, Script(check=EDGE, damage=faces(1)), i=1)
    assert dyn[3, K.D_RES] == 22
    assert dyn[2, K.D_RES] == 18
    assert dyn[1, K.D_TUSES] == 1
    assert cc[1, K.K_TUSE] == 1


def test_follow_up_needs_the_hit_in_the_turn_just_before():
    """A turn in between (or a miss) leaves nothing to follow: no bonus, no use."""
    threat = dict(NOCAP, name="strongest-threat")
    inp, dyn, cc = setup([girl("Akari", policy=threat), girl("Bea", talents=["Follow Up"])],
                         [mb41_member("Shade", attack=5), mb41_member("Umbra", resolve=30)])
    turn(inp, dyn, cc, Script(check=HIT, damage=faces(1)), i=0)   # Akari hits Shade
    turn(inp, dyn, cc, Script(check=MISS), i=3)                  # Umbra's turn comes between
    turn(inp, dyn, cc, Script(check=EDGE), i=1)                  # Bea: 7 vs 8 misses, no bonus
    assert dyn[1, K.D_TUSES] == 2
    assert cc[1, K.K_TUSE] == 0
    turn(inp, dyn, cc, Script(check=MISS), i=0)                  # Akari misses
    turn(inp, dyn, cc, Script(check=EDGE), i=1)                  # still nothing to follow
    assert dyn[1, K.D_TUSES] == 2


# ------------------------------------------------------------------ Make an Opening


def test_make_an_opening_gives_allies_one_until_the_end_of_her_next_turn():
    """Make an Opening (L1776-1780, 2/Scene): her hit lets allies attack the
    target at +1 until the end of her next turn."""
    inp, dyn, cc = setup([girl("Akari"), girl("Bea", talents=["Make an Opening"])], [mb41_member("Shade", resolve=40)])
    turn(inp, dyn, cc, Script(check=HIT, damage=faces(1)), i=1)      # Bea opens Shade: 40 - 3
    assert dyn[1, K.D_TUSES] == 1
    assert dyn[2, K.D_OPEN_BY] == 1
    turn(inp, dyn, cc, Script(check=EDGE, damage=faces(2)), i=0)     # Akari 7 + 1 = 8 vs 8: hits (2 + 2)
    assert dyn[2, K.D_RES] == 33
    turn(inp, dyn, cc, Script(check=MISS), i=1)                      # Bea's next turn (her second use, missed)
    assert dyn[1, K.D_TUSES] == 0
    turn(inp, dyn, cc, Script(check=EDGE), i=0)                      # over: 7 vs 8 misses
    assert dyn[2, K.D_RES] == 33


def test_make_an_opening_gives_herself_nothing_and_is_kept_without_allies():
    inp, dyn, cc = setup([girl("Akari"), girl("Bea", talents=["Make an Opening"])], [mb41_member("Shade", resolve=40)])
    dyn[0, K.D_RES] = 0                                              # Akari is down: nobody to open for
    turn(inp, dyn, cc, Script(check=HIT, damage=faces(1)), i=1)
    assert dyn[1, K.D_TUSES] == 2
    assert dyn[2, K.D_OPEN_BY] == -1
    dyn[0, K.D_RES] = 18
    turn(inp, dyn, cc, Script(check=HIT, damage=faces(1)), i=1)      # opens now
    turn(inp, dyn, cc, Script(check=EDGE), i=1)                      # her own attack gets no +1: 7 vs 8
    assert dyn[2, K.D_RES] == 34


# ------------------------------------------------------------------ Courage Aura


def test_courage_aura_gives_allies_one_while_she_stands():
    """Courage Aura (L1739-1741): allies (not herself) get +1 to all challenges;
    gone while she is down, back when she revives."""
    inp, dyn, cc = setup([girl("Akari"), girl("Bea", talents=["Courage Aura"])], [mb41_member("Shade", resolve=40)])
    assert dyn[0, K.D_FEAR] == -1 and dyn[1, K.D_FEAR] == 0
    assert call(K.attack, inp, dyn, cc, Script(check=EDGE, damage=faces(1)), i=0, t=2) == 3   # 8 vs 8: hits
    assert call(K.attack, inp, dyn, cc, Script(check=EDGE), i=1, t=2) == -1                   # her own: 7 vs 8
    call(K.apply_damage, inp, dyn, cc, Script(), t=1, dmg=18)
    assert dyn[0, K.D_FEAR] == 0
    assert call(K.attack, inp, dyn, cc, Script(check=EDGE), i=0, t=2) == -1
    call(K.courage_aura, inp, dyn, cc, Script(), i=1, sign=-1)  # what fight_on does when her Resolve returns
    assert dyn[0, K.D_FEAR] == -1


def test_courage_aura_comes_back_when_she_revives_in_a_fight():
    """Through ``fight``: Bea drops, revives, and her allies' bonus is back."""
    from helpers import mb41_fight

    inp, dyn, cc = setup([girl("Akari"), girl("Bea", talents=["Courage Aura"])],
                         [mb41_member("Shade", resolve=40)], rules={"revive": True, "round_cap": 2})
    dyn[1, K.D_RES] = 1
    # round 1: Akari misses; Bea misses; Shade (focus-weakest) hits Bea (13 vs 6): down;
    # revive roll 2 + 2 + 3 = 7: 1d6 = 2 Resolve at the start of her next turn
    # round 2: Akari misses; Bea is back and misses; Shade misses; the round cap ends the fight
    check = MISS + MISS + faces(5, 5, 1, 1) + faces(2, 2) + MISS + MISS + MISS
    s = Script(check=check, damage=faces(1) + faces(2))
    mb41_fight(inp, dyn, s.streams, cc)
    s.assert_consumed()
    assert dyn[1, K.D_RES] == 2 and dyn[1, K.D_REVIVES] == 1
    assert dyn[0, K.D_FEAR] == -1


# ------------------------------------------------------------------ Aura of Strength


def test_aura_of_strength_hurts_a_melee_attacker_she_defends_against():
    """Aura of Strength (L1689-1691): a successful defence roll deals 2 damage
    to adjacent enemies, not an attack; ``aura_of_strength: attacker``: a melee attacker
    (every adjacent enemy: tests/test_mb41_readings.py)."""
    inp, dyn, cc = setup([girl("Akari", talents=["Aura of Strength"])],
                         [mb41_member("Shade"), mb41_member("Archer", attack_kind="ranged")],
                         rules={"aura_of_strength": "attacker"})
    assert call(K.attack, inp, dyn, cc, Script(check=faces(1, 1, 3, 3)), i=1, t=0) == -1   # 5 vs 10
    assert dyn[1, K.D_RES] == 16
    assert cc[1, K.K_SELF_DMG] == 2 and cc[0, K.K_DEALT] == 2
    assert call(K.attack, inp, dyn, cc, Script(check=faces(1, 1, 3, 3)), i=2, t=0) == -1   # ranged: no aura
    assert dyn[2, K.D_RES] == 18
    assert call(K.attack, inp, dyn, cc, Script(check=faces(3, 3, 1, 1), damage=faces(1)), i=1, t=0) == 3
    assert dyn[1, K.D_RES] == 16                                                            # a hit: no aura


# ------------------------------------------------------------------ Amplify Magic


def test_amplify_magic_on_an_ally_adds_two_to_every_heal_until_she_drops():
    """Amplify Magic (L1795-1799, 1/Scene): an ally gains 2 more from any
    healing effect until the scene ends or she drops to 0 Resolve."""
    inp, dyn, cc = setup([girl("Akari", talents=["Heal"]), girl("Bea", talents=["Amplify Magic"])],
                         [mb41_member("Shade")])
    dyn[0, K.D_RES] = 5                                   # 27% < heal_below 50
    assert call(K.try_amplify, inp, dyn, cc, Script(), i=1)
    assert dyn[0, K.D_AMP_HEAL] == 2 and dyn[1, K.D_TUSES] == 0
    assert not call(K.try_amplify, inp, dyn, cc, Script(), i=1)   # used up
    call(K.try_heal, inp, dyn, cc, Script(damage=faces(3)), i=0, bf=None)  # Heal 1d6+1 = 4, + 2
    assert dyn[0, K.D_RES] == 11
    call(K.apply_damage, inp, dyn, cc, Script(), t=0, dmg=11)
    assert dyn[0, K.D_AMP_HEAL] == 0


def test_amplify_magic_on_an_enemy_takes_two_from_its_removal_rolls():
    """An enemy takes -2 to remove ailments: 2d6! + 3 = 12 would remove one (11-13), 10 removes none."""
    inp, dyn, cc = setup([girl("Akari", talents=["Curse", "Amplify Magic"])], [mb41_member("Shade")])
    assert call(K.try_amplify, inp, dyn, cc, Script(), i=0)
    assert dyn[1, K.D_AMP_AIL] == 2
    dyn[1, K.D_AIL + K.A_STUN] = 1
    call(K.removal_roll, inp, dyn, cc, Script(check=faces(5, 4)), i=1)
    assert dyn[1, K.D_AIL + K.A_STUN] == 1
    dyn[1, K.D_AMP_AIL] = 0
    call(K.removal_roll, inp, dyn, cc, Script(check=faces(5, 4)), i=1)
    assert dyn[1, K.D_AIL + K.A_STUN] == 0


def test_amplify_magic_waits_without_a_use_for_it():
    """No healer and no ailments on her side, or nobody below heal_below: she keeps it."""
    inp, dyn, cc = setup([girl("Akari", talents=["Amplify Magic"])], [mb41_member("Shade")])
    assert not call(K.try_amplify, inp, dyn, cc, Script(), i=0)
    inp, dyn, cc = setup([girl("Akari", talents=["Heal", "Amplify Magic"])], [mb41_member("Shade")])
    assert not call(K.try_amplify, inp, dyn, cc, Script(), i=0)   # everyone at full Resolve
    assert dyn[0, K.D_TUSES + 1] == 1


# ------------------------------------------------------------------ Seal Magic


def test_seal_magic_stops_talents_until_the_end_of_the_next_round():
    """Seal Magic (L2098-2101, free, 1 overcharge): after a hit, the target
    uses no Magical Talents until the end of the next round."""
    inp, dyn, cc = setup([girl("Akari", talents=["Heal"], policy=dict(NOCAP, boost="always"))],
                         [mb41_member("Shade", kind="monster", resolve=20, overcharge_pool=5, talents=["Seal Magic"])])
    dyn[0, K.D_ROUND] = 1
    boosts = dyn[0, K.D_BOOSTS]
    dyn[0, K.D_BOOSTS] = 0                                # no Boost on this defence roll
    assert call(K.attack, inp, dyn, cc, Script(check=faces(3, 3, 1, 1), damage=faces(1)), i=1, t=0) >= 0
    dyn[0, K.D_BOOSTS] = boosts
    assert boosts > 0
    assert dyn[0, K.D_SEALED_UNTIL] == 2 and dyn[1, K.D_POOL] == 4
    dyn[0, K.D_RES] = 5
    for r in (1, 2):
        dyn[0, K.D_ROUND] = r
        assert not call(K.try_heal, inp, dyn, cc, Script(), i=0, bf=None)
        assert not call(K.can_boost, inp, dyn, cc, Script(), i=0, stat=0, pending=0)
    dyn[0, K.D_ROUND] = 3
    assert call(K.try_heal, inp, dyn, cc, Script(damage=faces(1)), i=0, bf=None)
    assert call(K.can_boost, inp, dyn, cc, Script(), i=0, stat=0, pending=0)


def test_seal_magic_is_not_spent_on_a_girl_without_talents():
    """Nothing to seal: no talents and a policy that never boosts."""
    inp, dyn, cc = setup([girl("Akari")],
                         [mb41_member("Shade", kind="monster", resolve=20, overcharge_pool=5, talents=["Seal Magic"])])
    call(K.attack, inp, dyn, cc, Script(check=faces(3, 3, 1, 1), damage=faces(1)), i=1, t=0)
    assert dyn[0, K.D_SEALED_UNTIL] == -1 and dyn[1, K.D_POOL] == 5


# ------------------------------------------------------------------ Link


def test_link_copies_healing_on_the_primary_to_the_secondary():
    """Link (L1743-1752, Minor, one link at a time): healing on the primary is
    copied to the secondary, the same amount (A47b)."""
    inp, dyn, cc = setup([girl("Akari", talents=["Heal"]), girl("Bea", talents=["Link"]), girl("Cara")],
                         [mb41_member("Shade")])
    dyn[0, K.D_RES] = 5     # lowest share: primary
    dyn[2, K.D_RES] = 16    # next: secondary
    assert call(K.try_link, inp, dyn, cc, Script(), i=1)
    assert dyn[0, K.D_LINK_TO] == 2 and dyn[1, K.D_LINKED] == 0
    assert not call(K.try_link, inp, dyn, cc, Script(), i=1)          # one link at a time, still good
    call(K.try_heal, inp, dyn, cc, Script(damage=faces(3)), i=0, bf=None)      # Akari heals herself 3 + 1 = 4
    assert dyn[0, K.D_RES] == 9
    assert dyn[2, K.D_RES] == 18                                      # Cara gets 4 too, capped at 18
    assert cc[0, K.K_HEALED] == 6


def test_link_copies_ailments_between_enemies_and_relinks_when_one_drops():
    inp, dyn, cc = setup([girl("Akari", talents=["Curse", "Link"])],
                         [mb41_member("Shade"), mb41_member("Umbra"), mb41_member("Nox")])
    assert call(K.try_link, inp, dyn, cc, Script(), i=0)              # focus-weakest: Shade, then Umbra
    assert dyn[1, K.D_LINK_TO] == 2
    assert call(K.try_curse, inp, dyn, cc, Script(), i=0, bf=None)             # Stun on Shade ...
    assert dyn[1, K.D_AIL + K.A_STUN] == 1 and dyn[2, K.D_AIL + K.A_STUN] == 1   # ... and on Umbra
    assert dyn[3, K.D_AIL + K.A_STUN] == 0
    call(K.apply_damage, inp, dyn, cc, Script(), t=2, dmg=18)         # Umbra drops: the link is useless
    assert call(K.try_link, inp, dyn, cc, Script(), i=0)
    assert dyn[1, K.D_LINK_TO] == 3 and dyn[0, K.D_LINKED] == 1


def test_link_needs_a_heal_or_an_ailment_on_her_side():
    inp, dyn, cc = setup([girl("Akari", talents=["Link"]), girl("Bea")], [mb41_member("Shade"), mb41_member("Umbra")])
    assert not call(K.try_link, inp, dyn, cc, Script(), i=0)
