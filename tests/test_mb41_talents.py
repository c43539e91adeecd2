"""Ailments (seed 000 L1459-1467) and the first talent mechanics (Heal L1602,
Inflict L1607, Bonus Action L1579), with injected dice.

Talents are catalog rows with a ``mechanic``; the kernel reads their slots
from ``comb`` (cost, role, uses, parameters), so these tests also prove the
data path: a row's numbers are what the kernel plays.
"""
from __future__ import annotations

from helpers import Script, faces, mb41_data, mb41_inputs, mb41_member, mb41_state
from helpers import mb41_run as call
from engine41 import K

AKARI, BENI, SHADE = 0, 1, 2
FURY, JUDGMENT = 1, 2   # default roles: attack fury, defence heart, support judgment


def party(akari=None, beni=None, shade=None, rules=None):
    """Akari 4/4/3 and Beni 2/4/4 (girls) vs Shade 3/3/3; listed order Akari, Beni, Shade."""
    a = {"attack": 4, "defence": 4, "support": 3, "policy": {"boost": "never", "overcharge_cap": 99}, **(akari or {})}
    b = {"attack": 2, "defence": 4, "support": 4, "policy": {"boost": "never", "overcharge_cap": 99}, **(beni or {})}
    c = dict(**(shade or {}))
    inp = mb41_inputs(mb41_data([mb41_member("Akari", **a), mb41_member("Beni", **b)],
                                [mb41_member("Shade", **c)], rules))
    dyn, cc = mb41_state(inp)
    return inp, dyn, cc


def test_bound_is_minus_two_on_attack_and_defence():
    """L1463: Bound characters take -2 to all rolls."""
    inp, dyn, cc = party()
    dyn[AKARI, K.D_AIL + K.A_BOUND] = 1
    # Akari 2+2+4-2 = 6 vs Shade 2+2+3 = 7: a miss (8 would have hit)
    assert call(K.attack, inp, dyn, cc, Script(check=faces(2, 2, 2, 2)), i=AKARI, t=SHADE) == -1
    dyn[AKARI, K.D_AIL + K.A_BOUND] = 0
    dyn[SHADE, K.D_AIL + K.A_BOUND] = 1
    # Akari 1+1+4 = 6 vs Shade 2+2+3-2 = 5: a hit, damage 1+2
    assert call(K.attack, inp, dyn, cc, Script(check=faces(1, 1, 2, 2), damage=faces(1)), i=AKARI, t=SHADE) == 3


def test_removal_bands():
    """L1467: 2d6!+Support; 10 or less nothing, 11-13 one (Stun first), 14+ all."""
    for dice, left in ((faces(3, 4), [1, 0, 1]), (faces(4, 4), [0, 0, 1]), (faces(5, 5), [0, 0, 1]),
                       (faces(5, 6, 1), [0, 0, 0])):
        inp, dyn, cc = party()
        dyn[AKARI, K.D_AIL + K.A_STUN] = 1
        dyn[AKARI, K.D_AIL + K.A_BLEED] = 1
        call(K.removal_roll, inp, dyn, cc, Script(check=dice), i=AKARI)
        assert list(dyn[AKARI, K.D_AIL:K.D_AIL + 3]) == left, dice
    # the six of 5, 6, 1 gave Support (judgment) overcharge
    assert dyn[AKARI, K.D_OC + JUDGMENT] == 1


def test_bound_applies_to_the_removal_roll():
    """L1463: -2 to all rolls, the removal roll included: 4+4+3-2 = 9 removes nothing."""
    inp, dyn, cc = party()
    dyn[AKARI, K.D_AIL:K.D_AIL + 3] = 1
    call(K.removal_roll, inp, dyn, cc, Script(check=faces(4, 4)), i=AKARI)
    assert list(dyn[AKARI, K.D_AIL:K.D_AIL + 3]) == [1, 1, 1]
    call(K.removal_roll, inp, dyn, cc, Script(check=faces(5, 5)), i=AKARI)  # 11: one, Stun first
    assert list(dyn[AKARI, K.D_AIL:K.D_AIL + 3]) == [0, 1, 1]


def test_stunned_uses_her_only_action_to_remove_and_regains_the_second():
    """L1461: one action; removing Stun with it gives the second action back (then she attacks)."""
    inp, dyn, cc = party()
    dyn[AKARI, K.D_AIL + K.A_STUN] = 1
    # removal 4+4+3 = 11: Stun removed; then attack 1+1+4 = 6 vs 1+1+3 = 5, damage 1+2
    call(K.take_turn, inp, dyn, cc, Script(check=faces(4, 4, 1, 1, 1, 1), damage=faces(1)), i=AKARI)
    assert dyn[AKARI, K.D_AIL + K.A_STUN] == 0 and cc[AKARI, K.K_ATTACKS] == 1 and dyn[SHADE, K.D_RES] == 15
    # a failed removal (3+4+3 = 10) ends her turn: no attack
    inp, dyn, cc = party()
    dyn[AKARI, K.D_AIL + K.A_STUN] = 1
    call(K.take_turn, inp, dyn, cc, Script(check=faces(3, 4)), i=AKARI)
    assert dyn[AKARI, K.D_AIL + K.A_STUN] == 1 and cc[AKARI, K.K_ATTACKS] == 0


def test_bleed_deals_two_at_the_start_of_the_round():
    """L1465: 2 damage at the beginning of each round; not an attack."""
    inp, dyn, cc = party()
    dyn[SHADE, K.D_AIL + K.A_BLEED] = 1
    call(K.bleed, inp, dyn, cc, Script(), j=SHADE)
    assert dyn[SHADE, K.D_RES] == 16 and cc[SHADE, K.K_BLEED_DMG] == 2 and cc[AKARI, K.K_DEALT] == 0


def test_heal_is_a_minor_action_then_she_attacks():
    """L1602: Heal, Minor, 1 overcharge (Support), restore 1d6+1 to herself or an ally below heal_below."""
    inp, dyn, cc = party(beni={"talents": ["Heal"]})
    dyn[AKARI, K.D_RES] = 8          # 44% < 50%
    # heal die 3 -> +4; then Beni attacks: 1+1+2 = 4 vs 3+3+3 = 9, a miss
    call(K.take_turn, inp, dyn, cc, Script(check=faces(1, 1, 3, 3), damage=faces(3)), i=BENI)
    assert dyn[AKARI, K.D_RES] == 12 and cc[BENI, K.K_HEALED] == 4
    assert dyn[BENI, K.D_OC + JUDGMENT] == 1 and cc[BENI, K.K_ATTACKS] == 1
    # nobody low: no heal, no cost
    inp, dyn, cc = party(beni={"talents": ["Heal"]})
    call(K.take_turn, inp, dyn, cc, Script(check=faces(1, 1, 3, 3)), i=BENI)
    assert cc[BENI, K.K_HEALED] == 0 and dyn[BENI, K.D_OC + JUDGMENT] == 0


def test_inflict_after_a_hit_two_per_scene():
    """L1607: Inflict, free after a successful basic attack, 1 overcharge (Attack), 2/Scene."""
    inp, dyn, cc = party(akari={"talents": ["Inflict"]})
    hit = faces(3, 3, 1, 1)  # 10 vs 5
    call(K.attack, inp, dyn, cc, Script(check=hit, damage=faces(1)), i=AKARI, t=SHADE)
    assert dyn[SHADE, K.D_AIL + K.A_STUN] == 1 and dyn[AKARI, K.D_OC + FURY] == 1
    call(K.attack, inp, dyn, cc, Script(check=hit, damage=faces(1)), i=AKARI, t=SHADE)
    assert dyn[SHADE, K.D_AIL + K.A_BOUND] == 1  # Stun already there: the next one
    # Shade's defence is now Bound (-2): 3+3+4 = 10 vs 1+1+3-2 = 3
    call(K.attack, inp, dyn, cc, Script(check=hit, damage=faces(1)), i=AKARI, t=SHADE)
    assert dyn[SHADE, K.D_AIL + K.A_BLEED] == 0 and cc[AKARI, K.K_TUSE + 0] == 2  # 2/Scene used up
    # no Inflict after a miss
    inp, dyn, cc = party(akari={"talents": ["Inflict"], "policy": {"boost": "never", "inflict": "bleed"}})
    call(K.attack, inp, dyn, cc, Script(check=faces(1, 1, 3, 3)), i=AKARI, t=SHADE)
    assert list(dyn[SHADE, K.D_AIL:K.D_AIL + 3]) == [0, 0, 0]
    call(K.attack, inp, dyn, cc, Script(check=hit, damage=faces(1)), i=AKARI, t=SHADE)
    assert list(dyn[SHADE, K.D_AIL:K.D_AIL + 3]) == [0, 0, 1]  # the policy's first choice


def test_bonus_action_is_a_second_attack_once_per_scene():
    """L1579: Bonus Action, free, 2 overcharge (Support), 1/Scene: another Major action."""
    inp, dyn, cc = party(akari={"talents": ["Bonus Action"]})
    miss = faces(1, 1, 3, 3)
    call(K.take_turn, inp, dyn, cc, Script(check=miss + miss), i=AKARI)
    assert cc[AKARI, K.K_ATTACKS] == 2 and dyn[AKARI, K.D_OC + JUDGMENT] == 2
    call(K.take_turn, inp, dyn, cc, Script(check=miss), i=AKARI)
    assert cc[AKARI, K.K_ATTACKS] == 3  # used up: one attack


def test_overcharge_cap_blocks_a_talent():
    """Talent costs are optional overcharge: the policy's cap stops them (as for Boost)."""
    inp, dyn, cc = party(akari={"talents": ["Bonus Action"], "policy": {"boost": "never", "overcharge_cap": 1}})
    call(K.take_turn, inp, dyn, cc, Script(check=faces(1, 1, 3, 3)), i=AKARI)
    assert cc[AKARI, K.K_ATTACKS] == 1 and dyn[AKARI, K.D_OC + JUDGMENT] == 0
