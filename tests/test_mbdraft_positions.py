"""The draft's Battlefield map of positions (seed 001, DRAFT L474-510;
:mod:`sim.systems.mb41.positions`): rule ``positions`` > 0 plays draft fights
on a line of positions. Each turn here runs with injected dice, and every
script must be drawn exactly.

Positions in ``dyn[:, D_PLACE]`` are 0-based (the book's "Position 1" is 0).
``girl`` is 4/4/3 (attack/defence/support), Resolve 18; ``foe`` 3/3/3,
Resolve 18. HIT: 6 + 4 = 10 against 2 + 3 = 5.
"""
from __future__ import annotations

import pytest
from helpers import Script, draft_arena, faces, mb41_call, mb41_data, mb41_member
from helpers import mb41_girl as girl, mb41_run as call

from engine41 import K
from sim.systems.mb41 import positions as PS

HIT = faces(3, 3, 1, 1)
JUDGMENT = 2  # the default Support role's stat (the draft's Magic)


def arena(side_a, side_b, rules=None, places=None):
    """An mb-draft fight on ``positions: 4`` unless ``rules`` says otherwise (:func:`helpers.draft_arena`)."""
    r = {"positions": 4}
    r.update(rules or {})
    return draft_arena(side_a, side_b, r, places)


def turn(inp, dyn, cc, i=0, **script):
    call(K.take_turn, inp, dyn, cc, Script(**script), i=i)


def foe(name="Shade", **kw):
    return mb41_member(name, **kw)


RANGED = {"attack_kind": "ranged"}


# ------------------------------------------------------------------ ranges (DRAFT L480-484)


def test_melee_moves_one_position_with_the_minor_then_attacks_in_the_same_position():
    inp, dyn, cc = arena([girl()], [foe()], places=[0, 1])
    turn(inp, dyn, cc, check=HIT, damage=faces(4))
    assert dyn[0, K.D_PLACE] == 1 and cc[0, K.K_PLACES] == 1     # Movement: 1 position (L504)
    assert dyn[1, K.D_RES] == 18 - (4 + 2)                          # melee 1d6+2 (L482)
    assert cc[0, K.K_ATTACKS] == 1 and cc[0, K.K_DISENGAGES] == 0


def test_with_both_attacks_she_steps_in_and_shoots_from_one_position():
    """position_forms: both (L482-484): a melee girl moves toward melee range
    with the Minor and, one position away, makes a ranged attack (1d6)."""
    inp, dyn, cc = arena([girl()], [foe()], places=[0, 2])
    turn(inp, dyn, cc, check=HIT, damage=faces(4))
    assert dyn[0, K.D_PLACE] == 1 and dyn[1, K.D_RES] == 18 - 4


def test_melee_two_positions_away_moves_twice_and_cannot_attack():
    """Only her melee attack (position_forms: kind): the Minor, then the Major move her."""
    inp, dyn, cc = arena([girl()], [foe()], {"position_forms": "kind"}, places=[0, 2])
    turn(inp, dyn, cc)                                              # no dice at all
    assert dyn[0, K.D_PLACE] == 2 and cc[0, K.K_PLACES] == 2       # the Minor, then the Major
    assert cc[0, K.K_ATTACKS] == 0 and dyn[1, K.D_RES] == 18


def test_ranged_reaches_two_positions_without_moving():
    inp, dyn, cc = arena([girl(**RANGED)], [foe()], places=[0, 2])
    turn(inp, dyn, cc, check=HIT, damage=faces(4))
    assert dyn[0, K.D_PLACE] == 0 and cc[0, K.K_PLACES] == 0
    assert dyn[1, K.D_RES] == 18 - 4                                # ranged 1d6 (L484)


def test_ranged_three_away_steps_in_to_two():
    inp, dyn, cc = arena([girl(**RANGED)], [foe()], places=[0, 3])
    turn(inp, dyn, cc, check=HIT, damage=faces(5))
    assert dyn[0, K.D_PLACE] == 1 and cc[0, K.K_PLACES] == 1
    assert dyn[1, K.D_RES] == 18 - 5


def test_ranged_does_not_reach_the_same_position_only_melee_does():
    """'(but not targets in the same position)' (L480): with only her ranged
    attack (position_forms: kind) she cannot attack; with both (the default,
    L482-484) she makes a melee attack, range 0, +2 damage."""
    inp, dyn, cc = arena([girl(**RANGED)], [foe()], places=[1, 1])
    assert mb41_call(PS.reach, i=0, t=1, comb=inp.comb, rules=inp.rules, dyn=dyn) == 0   # melee
    turn(inp, dyn, cc, check=HIT, damage=faces(4))
    assert dyn[1, K.D_RES] == 18 - 6 and dyn[0, K.D_PLACE] == 1    # no Movement out: engaged, not reckless
    inp, dyn, cc = arena([girl(**RANGED)], [foe()], {"position_forms": "kind"}, places=[1, 1])
    assert mb41_call(PS.reach, i=0, t=1, comb=inp.comb, rules=inp.rules, dyn=dyn) == -1
    dyn[1, K.D_PLACE] = 2
    assert mb41_call(PS.reach, i=0, t=1, comb=inp.comb, rules=inp.rules, dyn=dyn) == 1
    dyn[1, K.D_PLACE] = 3
    assert mb41_call(PS.reach, i=0, t=1, comb=inp.comb, rules=inp.rules, dyn=dyn) == 1
    dyn[0, K.D_PLACE] = 0
    assert mb41_call(PS.reach, i=0, t=1, comb=inp.comb, rules=inp.rules, dyn=dyn) == -1   # 3 away


# ------------------------------------------------------------------ Disengage (DRAFT L496-498)


def test_engaged_she_disengages_with_the_major():
    """Only her ranged attack, an enemy in her position: Movement may not
    leave (L498), so the Major is Disengage, 1 position (toward her side's
    end); she cannot attack this turn; the Minor then has nowhere better."""
    inp, dyn, cc = arena([girl(**RANGED)], [foe()], {"position_forms": "kind"}, places=[1, 1])
    turn(inp, dyn, cc)
    assert dyn[0, K.D_PLACE] == 0 and cc[0, K.K_DISENGAGES] == 1 and cc[0, K.K_PLACES] == 1
    assert cc[0, K.K_ATTACKS] == 0 and cc[0, K.K_RECKLESS] == 0


def test_disengage_unlocks_then_the_minor_moves():
    inp, dyn, cc = arena([girl(**RANGED)], [foe()], {"position_forms": "kind", "disengage": "unlocks"},
                         places=[1, 1])
    turn(inp, dyn, cc)
    assert dyn[0, K.D_PLACE] == 0 and cc[0, K.K_DISENGAGES] == 1 and cc[0, K.K_PLACES] == 1
    assert dyn[0, K.D_MINOR_USED] == 1


def test_a_downed_enemy_engages_only_under_engage_downed():
    for rule, want in ((False, False), (True, True)):
        inp, dyn, cc = arena([girl()], [foe(), foe("Other")], {"engage_downed": rule}, places=[1, 1, 3])
        dyn[1, K.D_RES] = 0
        assert bool(mb41_call(PS.engaged, i=0, comb=inp.comb, rules=inp.rules, dyn=dyn)) is want


# ------------------------------------------------------------------ Reckless Movement (DRAFT L508-510)


def reckless_case(check, damage=()):
    inp, dyn, cc = arena([girl(policy={"boost": "never", "overcharge_cap": 99, "reckless": True}, **RANGED)],
                         [foe()], {"position_forms": "kind"}, places=[1, 1])
    turn(inp, dyn, cc, check=check, damage=damage)
    return inp, dyn, cc


def test_reckless_17_or_more_moves_unhurt_then_shoots():
    inp, dyn, cc = reckless_case(faces(6, 4, 4) + HIT, faces(4))   # 14 + Support 3 = 17
    assert dyn[0, K.D_PLACE] == 0 and cc[0, K.K_RECKLESS] == 1 and cc[0, K.K_RECKLESS_DMG] == 0
    assert dyn[0, K.D_RES] == 18 and dyn[0, K.D_OC + JUDGMENT] == 1   # the six: Support overcharge
    assert cc[0, K.K_DISENGAGES] == 0 and dyn[1, K.D_RES] == 18 - 4   # the Major still attacks (range 1)


def test_reckless_14_to_16_moves_and_takes_2():
    inp, dyn, cc = reckless_case(faces(6, 1, 5) + HIT, faces(4))   # 12 + 3 = 15
    assert dyn[0, K.D_PLACE] == 0 and cc[0, K.K_RECKLESS_DMG] == 2 and dyn[0, K.D_RES] == 16
    assert dyn[1, K.D_RES] == 14


def test_reckless_13_or_less_stays_unhurt_and_disengages_with_the_major():
    inp, dyn, cc = reckless_case(faces(5, 5))                       # 10 + 3 = 13: fails, no damage (L510)
    assert cc[0, K.K_RECKLESS] == 1 and cc[0, K.K_RECKLESS_DMG] == 0 and dyn[0, K.D_RES] == 18
    assert cc[0, K.K_DISENGAGES] == 1 and dyn[0, K.D_PLACE] == 0   # the Minor is spent; the Major disengages
    assert cc[0, K.K_ATTACKS] == 0


def test_the_draft_reckless_bands_are_the_default():
    from sim.systems import get_system

    r = get_system("mb-draft").RULES.resolve({})
    assert r["reckless_bands"] == [13, 16] and r["reckless_damage"] == [0, 2]
    assert r["intercept_bands"] == [13, 16] and r["positions"] == 0


# ------------------------------------------------------------------ rough terrain (DRAFT L510)


def test_leaving_a_rough_position_takes_the_minor_and_the_major():
    kind = {"position_forms": "kind"}
    inp, dyn, cc = arena([girl()], [foe()], {"rough_positions": [1, 0, 0, 0], **kind}, places=[0, 1])
    turn(inp, dyn, cc)                                              # no attack: both actions paid the move
    assert dyn[0, K.D_PLACE] == 1 and cc[0, K.K_PLACES] == 1 and cc[0, K.K_ATTACKS] == 0
    # out of a plain position she moves with the Minor and attacks
    inp, dyn, cc = arena([girl()], [foe()], {"rough_positions": [3, 0, 0, 0], **kind}, places=[0, 1])
    turn(inp, dyn, cc, check=HIT, damage=faces(1))
    assert dyn[0, K.D_PLACE] == 1 and dyn[1, K.D_RES] == 18 - 3


def test_reckless_out_of_a_rough_position_with_the_minor():
    inp, dyn, cc = arena([girl(policy={"boost": "never", "overcharge_cap": 99, "reckless": True})], [foe()],
                         {"rough_positions": [0, 1, 0, 0]}, places=[0, 1])
    turn(inp, dyn, cc, check=faces(6, 4, 4) + HIT, damage=faces(2))
    assert dyn[0, K.D_PLACE] == 1 and cc[0, K.K_RECKLESS] == 1 and dyn[1, K.D_RES] == 18 - 4


def test_rough_split_pays_over_two_turns():
    inp, dyn, cc = arena([girl()], [foe()], {"rough_positions": [1, 0, 0, 0], "rough_cost": "split",
                                             "position_forms": "kind"}, places=[0, 2])
    turn(inp, dyn, cc)   # the Minor pays 1, the Major pays the 2nd and moves, the Minor is spent
    assert dyn[0, K.D_PLACE] == 1 and cc[0, K.K_PLACES] == 1


# ------------------------------------------------------------------ starting positions and validation


def test_default_formation_and_members_positions():
    inp, dyn, cc = arena([girl(), girl("Bea", position=3)], [foe()])
    assert list(inp.pol[:, K.P_PLACE]) == [0, 2, 3]                 # 'Position 1', her 3, the far end
    assert list(dyn[:, K.D_PLACE]) == [0, 2, 3]
    inp, dyn, cc = arena([girl()], [foe()], {"position_gap": 1, "positions": 6})
    assert list(inp.pol[:, K.P_PLACE]) == [0, 1]
    inp, dyn, cc = arena([girl()], [foe()], {"positions": 0})
    assert list(inp.pol[:, K.P_PLACE]) == [-1, -1]


@pytest.mark.parametrize("pos, rules, msg", [
    (5, {"positions": 4}, r"members\[0\] \(Akari\)\.position: 5 is off the map: expected a position from 1 to 4"),
    (0, {"positions": 4}, r"position: 0 is off the map"),
    (2, {"positions": 0}, r"position: 2 needs the draft's map of positions"),
    ([1, 2], {"positions": 4}, r"starting position is a number"),
])
def test_a_position_off_the_map_is_refused(pos, rules, msg):
    with pytest.raises(Exception, match=msg):
        arena([girl(position=pos)], [foe()], rules)


def test_positions_refuse_the_hex_grid_in_mb41():
    from helpers import mb41_inputs

    data = mb41_data([girl()], [foe()], {"positions": 4, "grid": "hex"})
    data["battlefield"] = {"width": 8, "height": 8}
    with pytest.raises(Exception, match="positions: 4 is the draft's map"):
        mb41_inputs(data)


# ------------------------------------------------------------------ positions 0: gridless as before


def test_positions_0_is_the_gridless_turn():
    """With no map the turn draws the same dice as ever and never moves."""
    inp, dyn, cc = arena([girl()], [foe()], {"positions": 0})
    dyn[:, K.D_PLACE] = [0, 3]   # ignored
    turn(inp, dyn, cc, check=HIT, damage=faces(4))
    assert dyn[1, K.D_RES] == 12 and cc[0, K.K_PLACES] == 0 and list(dyn[:, K.D_PLACE]) == [0, 3]


def test_the_duel_fast_path_refuses_positions():
    from sim.systems.mb41 import fast as F

    inp, _, _ = arena([girl()], [foe()])
    assert "no positions (positions 0)" in F.eligible(inp)
    inp, _, _ = arena([girl()], [foe()], {"positions": 0})
    assert "no positions (positions 0)" not in F.eligible(inp)


# ------------------------------------------------------------------ Cover and Aura of Strength


def test_cover_by_an_ally_in_the_same_position():
    """DRAFT L492: someone in the target's position covers: 14-16 she takes
    the damage instead (the engine's Intercept after the hit, draft bands)."""
    guard = foe("Guard", defence=3, policy={"boost": "never", "intercept": "always"})
    inp, dyn, cc = arena([girl()], [foe(), guard], places=[1, 1, 1])
    cover = faces(6, 1, 5)                                          # 12 + Defence 3 = 15: she takes it all
    turn(inp, dyn, cc, check=HIT + cover, damage=faces(4))
    assert dyn[1, K.D_RES] == 18 and dyn[2, K.D_RES] == 12 and cc[2, K.K_INTERCEPTS] == 1
    # not in the target's position: no Cover
    inp, dyn, cc = arena([girl()], [foe(), guard], places=[1, 1, 2])
    turn(inp, dyn, cc, check=HIT, damage=faces(4))
    assert dyn[1, K.D_RES] == 12 and dyn[2, K.D_RES] == 18


def test_aura_of_strength_hits_every_enemy_in_her_position():
    miss = faces(1, 1, 3, 3)                                        # 2 + 4 = 6 against 6 + 3 = 9
    knight = foe("Knight", talents=["Aura of Strength"])
    inp, dyn, cc = arena([girl(), girl("Bea"), girl("Cho")], [knight], places=[3, 3, 2, 3])
    turn(inp, dyn, cc, check=miss)
    assert [int(x) for x in dyn[:3, K.D_RES]] == [16, 16, 18]       # Cho is one position away


# ------------------------------------------------------------------ whole fights


def test_a_positions_fight_plays_and_counts_moves():
    from sim.rng import stream_key
    from sim.systems.mb41 import simulate

    inp, _, _ = arena([girl(), girl("Bea", **RANGED)], [foe(resolve=30)],
                      {"initiative": "roll", "revive": True})
    out = simulate(inp, 0, 2000, stream_key(5))
    c = out["combatants"]
    assert c[0, K.K_PLACES] > 1000        # Akari walks toward melee range
    assert c[1, K.K_PLACES] > 0 and c[2, K.K_PLACES] > 0
    assert out["outcomes"].sum() == 2000
