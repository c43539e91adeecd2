"""The Fury frenzy where distance exists (seed 000 L746-758; A9): on the hex
grid and on the draft's positions a frenzied girl attacks or moves toward the
CLOSEST standing combatant (allies included), then the greater threat, then
hostiles; her retaliation is a basic attack, so only on an attacker she
reaches. A Minor that takes no step goes to a removal roll when she has an
ailment (L1467). Injected dice; every script must be drawn exactly.

Default roles (tests/helpers.py): attack = fury (overcharge index 1). ``girl``
is 4/4/3, Resolve 18, melee 1d6+2, ranged 1d6; ``boss`` 3/3/3, Resolve 40.
A frenzy turn draws the regeneration d6 first (damage stream).
"""
from __future__ import annotations

from helpers import Script, draft_arena, faces, grid_apart, grid_arena, grid_run, grid_where, mb41_member
from helpers import mb41_boss as boss, mb41_girl as girl, mb41_run as call

from engine41 import BG
from engine41 import K
from sim.systems.mb41 import positions as PS

FURY = 1
HIT = faces(5, 5, 1, 1)   # 10 + 4 = 14 against 2 + 4 (or + 3): a hit, no sixes


def frenzied(dyn, i=0, fury=13, res=10):
    """Put ``i`` in a frenzy with ``fury`` Fury overcharge and ``res`` Resolve."""
    dyn[i, K.D_FRENZY] = 1
    dyn[i, K.D_OC + FURY] = fury
    dyn[i, K.D_RES] = res


# ------------------------------------------------------------------ the hex grid


def test_grid_frenzy_attacks_the_adjacent_ally_before_the_more_threatening_boss():
    """Closest first (L746): Bea stands next to Akari, the boss (Attack 9) three
    hexes away. Regen 4; 14 vs 6: a hit on Bea, 3 + 2 (melee) + 4 (2 Fury, +1d6)."""
    inp, dyn, cc, bf = grid_arena([girl(position=[3, 4]), girl("Bea", position=[4, 4])],
                                  [boss(attack=9, position=[3, 1])])
    assert grid_apart(inp, dyn, 0, 1) == 1 and grid_apart(inp, dyn, 0, 2) == 3
    frenzied(dyn)
    grid_run(K.play_frenzied, inp, dyn, cc, bf, Script(check=HIT, damage=faces(4, 3, 4)), i=0)
    assert dyn[0, K.D_RES] == 14 and cc[0, K.K_FRENZY_TURNS] == 1
    assert dyn[1, K.D_RES] == 18 - 9 and dyn[2, K.D_RES] == 40
    assert dyn[0, K.D_OC + FURY] == 11 and cc[0, K.K_FURY_SPENT] == 2
    assert grid_where(inp, dyn, 0) == [3, 4]   # in reach: she does not move


def test_grid_frenzy_out_of_reach_moves_twice_toward_the_closest_and_spends_nothing():
    """The boss six hexes away: the Minor and the Major each take a hex toward
    it (L746: "or move towards one"); one extra hex would not bring it in
    reach, so no Fury goes on movement; no attack, so none is spent (L754)."""
    inp, dyn, cc, bf = grid_arena([girl(position=[3, 7])], [boss(position=[3, 1])])
    assert grid_apart(inp, dyn, 0, 1) == 6
    frenzied(dyn)
    grid_run(K.play_frenzied, inp, dyn, cc, bf, Script(damage=faces(2)), i=0)
    assert grid_apart(inp, dyn, 0, 1) == 4 and cc[0, K.K_MOVES] == 2
    assert cc[0, K.K_ATTACKS] == 0 and dyn[0, K.D_OC + FURY] == 13 and dyn[0, K.D_RES] == 12


def test_grid_frenzy_extra_point_of_movement_pays_for_the_attack():
    """Five hexes: the Minor step to 4, then the frenzy's extra point of
    movement (L758: 1 Fury, a hex toward the target) to 3, and the Major
    attacks (ranged 1d6 = 3). That Fury paid for this attack: no +1d6, no
    more spent (L754: "at least one of the following")."""
    inp, dyn, cc, bf = grid_arena([girl(position=[3, 7])], [boss(position=[3, 2])])
    assert grid_apart(inp, dyn, 0, 1) == 5
    frenzied(dyn)
    grid_run(K.play_frenzied, inp, dyn, cc, bf, Script(check=HIT, damage=faces(2, 3)), i=0)
    assert grid_apart(inp, dyn, 0, 1) == 3 and cc[0, K.K_MOVES] == 2 and cc[0, K.K_ATTACKS] == 1
    assert dyn[1, K.D_RES] == 40 - 3 and dyn[0, K.D_OC + FURY] == 12 and cc[0, K.K_FURY_SPENT] == 1
    assert dyn[0, K.D_FURY_PAID] == 0


def test_grid_frenzy_extra_movement_needs_a_point_of_fury():
    """With no Fury left to spend the extra hex is not taken: the Major moves her."""
    inp, dyn, cc, bf = grid_arena([girl(position=[3, 7])], [boss(position=[3, 2])])
    frenzied(dyn, fury=0)
    grid_run(K.play_frenzied, inp, dyn, cc, bf, Script(damage=faces(2)), i=0)
    assert grid_apart(inp, dyn, 0, 1) == 3 and cc[0, K.K_ATTACKS] == 0


def test_grid_frenzy_steps_in_then_attacks_with_the_ranged_form():
    """Four hexes: a Minor step to three, then a basic attack at range 2-3
    (L1453): the ranged form's 1d6 (3) + 2 Fury's 1d6 (4)."""
    inp, dyn, cc, bf = grid_arena([girl(position=[3, 6])], [boss(position=[3, 2])])
    assert grid_apart(inp, dyn, 0, 1) == 4
    frenzied(dyn)
    grid_run(K.play_frenzied, inp, dyn, cc, bf, Script(check=faces(5, 5, 1, 1), damage=faces(1, 3, 4)), i=0)
    assert grid_apart(inp, dyn, 0, 1) == 3 and cc[0, K.K_MOVES] == 1
    assert dyn[1, K.D_RES] == 40 - (3 + 4) and dyn[0, K.D_OC + FURY] == 11


def test_grid_frenzy_random_picks_among_the_closest_only():
    """``fury_target: random``: Bea and Cara are both adjacent, the boss is
    farther; the policy stream draws among the two closest (1 = Cara)."""
    inp, dyn, cc, bf = grid_arena([girl(position=[3, 4]), girl("Bea", position=[4, 4]),
                                   girl("Cara", position=[2, 4])], [boss(position=[3, 1])],
                                  rules={"fury_target": "random"})
    assert grid_apart(inp, dyn, 0, 1) == 1 and grid_apart(inp, dyn, 0, 2) == 1
    frenzied(dyn)
    grid_run(K.play_frenzied, inp, dyn, cc, bf,
             Script(check=HIT, damage=faces(1, 3, 4), policy=[1]), i=0)
    assert dyn[2, K.D_RES] == 18 - 9 and dyn[1, K.D_RES] == 18 and dyn[3, K.D_RES] == 40


def test_grid_frenzy_enemies_mode_targets_the_boss_in_a_frenzy_turn():
    """``fury_target: enemies``: her policy's target among enemies (the boss); the
    adjacent ally is left alone. The turn is still the frenzy's (no talents of her own:
    Second Wind, costless, which her usual turn would take as its Minor at 6 Resolve of 18
    under ``fury_talents: and_costless``, is kept;
    docs/status-mb41.md, "One turn in every geometry", point 9)."""
    inp, dyn, cc, bf = grid_arena([girl(position=[3, 3], talents=["Second Wind"]), girl("Bea", position=[4, 3])],
                                  [boss(position=[3, 2])],
                                  rules={"fury_target": "enemies", "fury_talents": "and_costless"})
    assert grid_apart(inp, dyn, 0, 2) == 1
    frenzied(dyn, res=5)
    dyn[0, K.D_FRENZY] = K.FRENZY_COSTLESS_TOO   # a costless talent would be hers to use
    grid_run(K.play_frenzied, inp, dyn, cc, bf, Script(check=HIT, damage=faces(1, 3, 4)), i=0)
    assert dyn[2, K.D_RES] == 40 - 9 and dyn[1, K.D_RES] == 18
    assert dyn[0, K.D_RES] == 6 and cc[0, K.K_TUSE] == 0


def test_frenzy_target_gridless_ignores_distance():
    """Gridless every target is as close (A9): the threat (Attack 5) wins."""
    inp, dyn, cc, bf = grid_arena([girl(position=[3, 4]), girl("Bea", position=[4, 4])],
                                  [boss(attack=5, position=[3, 0])])
    frenzied(dyn)
    s = Script()
    assert call(K.frenzy_target, inp, dyn, cc, s, i=0, bf=bf) == 1
    assert call(K.frenzy_target, inp, dyn, cc, s, i=0) == 2   # bf None: gridless


def test_grid_retaliation_needs_the_attacker_in_reach():
    """L758's extra basic attack: an attacker five hexes away is out of her
    reach, so no retaliation and no Fury spent; adjacent, she retaliates."""
    inp, dyn, cc, bf = grid_arena([girl(position=[3, 7])], [boss(position=[3, 2])])
    frenzied(dyn)
    grid_run(K.retaliate, inp, dyn, cc, bf, Script(), j=0, a=1)
    assert cc[0, K.K_RETALIATIONS] == 0 and dyn[0, K.D_OC + FURY] == 13
    inp, dyn, cc, bf = grid_arena([girl(position=[3, 3])], [boss(position=[3, 2])])
    frenzied(dyn)
    grid_run(K.retaliate, inp, dyn, cc, bf, Script(check=HIT, damage=faces(3, 4)), j=0, a=1)
    assert cc[0, K.K_RETALIATIONS] == 1 and dyn[1, K.D_RES] == 40 - 9 and dyn[0, K.D_OC + FURY] == 9


def test_grid_frenzy_never_intercepts_her_own_attack():
    """Akari attacks her ally Bea; Akari is Bea's only ally, willing to
    intercept and adjacent, yet she is no guard against herself."""
    from helpers import MB41_NOCAP

    inp, dyn, cc, bf = grid_arena([girl(position=[3, 4], policy={**MB41_NOCAP, "intercept": "always"}),
                                   girl("Bea", position=[4, 4])], [boss(position=[3, 0])])
    frenzied(dyn)
    assert mb41_call_guard(inp, dyn, bf) == -1


def mb41_call_guard(inp, dyn, bf):
    from helpers import mb41_call

    return mb41_call(BG.guard_for, i=0, a=int(dyn[0, K.D_POS]), t=1, ranged=False, comb=inp.comb, rules=inp.rules, dyn=dyn,
                     bf=bf)


def test_a_grid_fight_with_frenzies_keeps_its_invariants():
    """Whole fights with frenzied girls on the grid: frenzy turns are played,
    one combatant per hex, everyone on the field or gone."""
    from sim.rng import stream_key
    from sim.systems import mb41

    from helpers import mb41_data, mb41_inputs

    data = mb41_data([girl(overcharge={"fury": 12}, position=[3, 5]),
                      girl("Bea", overcharge={"fury": 12}, position=[4, 5])],
                     [boss(attack=5, defence=4, support=4, position=[3, 1])], rules={"grid": "hex"})
    data["battlefield"] = {"width": 8, "height": 8}
    inp = mb41_inputs(data)
    c = mb41.simulate(inp, 0, 1000, stream_key(9))
    k = c["combatants"]
    assert k[:2, K.K_FRENZY_TURNS].sum() > 0 and k[:2, K.K_FURY_SPENT].sum() > 0
    assert int(c["outcomes"].sum()) == 1000


# ------------------------------------------------------------------ the draft's positions


def arena(side_a, side_b, places, rules=None):
    return draft_arena(side_a, side_b, {"positions": 4, **(rules or {})}, places)


def foe(name="Shade", **kw):
    return mb41_member(name, **kw)


def test_positions_frenzy_attacks_the_ally_in_her_position():
    """Bea shares Akari's position, the Shade (Attack 6) is one away: the
    closest is Bea. Regen 4; 14 vs 6: 3 + 2 (melee) + 4 (2 Fury)."""
    inp, dyn, cc = arena([girl(), girl("Bea")], [foe(attack=6)], [0, 0, 1])
    frenzied(dyn)
    call(K.play_frenzied, inp, dyn, cc, Script(check=HIT, damage=faces(4, 3, 4)), i=0)
    assert dyn[1, K.D_RES] == 18 - 9 and dyn[2, K.D_RES] == 18
    assert dyn[0, K.D_RES] == 14 and dyn[0, K.D_OC + FURY] == 11 and dyn[0, K.D_PLACE] == 0


def test_positions_frenzy_moves_then_shoots_and_gridless_draft_does_not_move():
    """The Shade three positions away: Movement to two away, then the ranged
    basic attack (1-2 positions, 1d6 = 3) + 2 Fury's 1d6 (4)."""
    inp, dyn, cc = arena([girl()], [foe()], [0, 3])
    frenzied(dyn)
    call(K.play_frenzied, inp, dyn, cc, Script(check=faces(5, 5, 1, 1), damage=faces(1, 3, 4)), i=0)
    assert dyn[0, K.D_PLACE] == 1 and cc[0, K.K_PLACES] == 1
    assert dyn[1, K.D_RES] == 18 - 7 and dyn[0, K.D_OC + FURY] == 11


def test_positions_frenzy_out_of_reach_with_melee_only_moves_twice():
    """``position_forms: kind``: only her melee attack (range 0); three away,
    the Minor and the Major each move her a position; nothing spent."""
    inp, dyn, cc = arena([girl()], [foe()], [0, 3], {"position_forms": "kind"})
    frenzied(dyn)
    call(K.play_frenzied, inp, dyn, cc, Script(damage=faces(2)), i=0)
    assert dyn[0, K.D_PLACE] == 2 and cc[0, K.K_ATTACKS] == 0 and dyn[0, K.D_OC + FURY] == 13


def test_positions_frenzy_extra_point_of_movement_pays_for_the_attack():
    """Melee only, two positions: Movement to one away, the extra point of
    movement (1 Fury) into the Shade's position, the attack (3 + 2 melee);
    that Fury paid for it."""
    inp, dyn, cc = arena([girl()], [foe()], [0, 2], {"position_forms": "kind"})
    frenzied(dyn)
    call(K.play_frenzied, inp, dyn, cc, Script(check=HIT, damage=faces(1, 3)), i=0)
    assert dyn[0, K.D_PLACE] == 2 and cc[0, K.K_PLACES] == 2
    assert dyn[1, K.D_RES] == 18 - 5 and dyn[0, K.D_OC + FURY] == 12 and cc[0, K.K_FURY_SPENT] == 1


def test_positions_retaliation_needs_the_attacker_in_reach():
    inp, dyn, cc = arena([girl()], [foe()], [0, 3])
    frenzied(dyn)
    call(K.retaliate, inp, dyn, cc, Script(), j=0, a=1)
    assert cc[0, K.K_RETALIATIONS] == 0 and dyn[0, K.D_OC + FURY] == 13
    dyn[1, K.D_PLACE] = 0
    call(K.retaliate, inp, dyn, cc, Script(check=HIT, damage=faces(3, 4)), j=0, a=1)
    assert cc[0, K.K_RETALIATIONS] == 1 and dyn[1, K.D_RES] == 18 - 9


def test_positions_frenzy_target_is_by_position():
    inp, dyn, cc = arena([girl(), girl("Bea", attack=9)], [foe()], [1, 3, 1])
    frenzied(dyn)
    assert call(K.frenzy_target, inp, dyn, cc, Script(), i=0) == 2   # the Shade shares her position
    assert abs(dyn[0, K.D_PLACE] - dyn[1, K.D_PLACE]) == 2


# ------------------------------------------------------------------ removal rolls in a frenzy (L1467)


def test_gridless_frenzy_minor_is_a_removal_roll():
    """Gridless the frenzy's turn is her attack (the Major); the Minor goes to a removal
    roll when she has an ailment (L1467): Bound, 5 + 5 + 3 - 2 (Bound, L1463) = 11: one
    ailment removed, then the attack without the penalty: 14 vs 5, 3 + 2 + 4 (2 Fury)."""
    from helpers import mb41_setup

    inp, dyn, cc = mb41_setup([girl()], [boss()])
    frenzied(dyn)
    dyn[0, K.D_AIL + K.A_BOUND] = 1
    call(K.play_frenzied, inp, dyn, cc, Script(check=faces(5, 5) + HIT, damage=faces(4, 3, 4)), i=0)
    assert dyn[0, K.D_AIL + K.A_BOUND] == 0 and cc[0, K.K_AIL_REMOVED] == 1
    assert dyn[1, K.D_RES] == 40 - 9 and dyn[0, K.D_OC + FURY] == 11


def test_gridless_frenzy_failed_removal_keeps_the_penalty_and_stun_allows_no_removal():
    """4 + 4 + 3 - 2 = 9: still Bound; her attack takes the -2 (14 - 2 = 12 vs 5, a hit).
    Stunned (L1461) she has one action, the attack: no removal roll."""
    from helpers import mb41_setup

    inp, dyn, cc = mb41_setup([girl()], [boss()])
    frenzied(dyn)
    dyn[0, K.D_AIL + K.A_BOUND] = 1
    call(K.play_frenzied, inp, dyn, cc, Script(check=faces(4, 4) + HIT, damage=faces(4, 3, 4)), i=0)
    assert dyn[0, K.D_AIL + K.A_BOUND] == 1 and cc[0, K.K_AIL_REMOVED] == 0 and dyn[1, K.D_RES] == 40 - 9
    inp, dyn, cc = mb41_setup([girl()], [boss()])
    frenzied(dyn)
    dyn[0, K.D_AIL + K.A_STUN] = 1
    call(K.play_frenzied, inp, dyn, cc, Script(check=HIT, damage=faces(4, 3, 4)), i=0)
    assert dyn[0, K.D_AIL + K.A_STUN] == 1 and dyn[1, K.D_RES] == 40 - 9


def test_grid_frenzy_in_reach_removes_with_the_minor_then_attacks():
    """Bea next to her: no step needed, so the Minor is a removal roll (11: Bound gone),
    then the Major attacks Bea: 3 + 2 + 4."""
    inp, dyn, cc, bf = grid_arena([girl(position=[3, 4]), girl("Bea", position=[4, 4])],
                                  [boss(position=[3, 1])])
    frenzied(dyn)
    dyn[0, K.D_AIL + K.A_BOUND] = 1
    grid_run(K.play_frenzied, inp, dyn, cc, bf, Script(check=faces(5, 5) + HIT, damage=faces(4, 3, 4)), i=0)
    assert dyn[0, K.D_AIL + K.A_BOUND] == 0 and dyn[1, K.D_RES] == 18 - 9
    assert grid_where(inp, dyn, 0) == [3, 4]


def test_grid_frenzy_bound_out_of_reach_rolls_then_moves_with_the_major():
    """The boss six hexes away and she is Bound: the Minor cannot move her (L1463:
    movement requires the Major), so it is a removal roll (2 + 2 + 3 - 2: fails); the
    Major moves her one hex toward the boss."""
    inp, dyn, cc, bf = grid_arena([girl(position=[3, 7])], [boss(position=[3, 1])])
    frenzied(dyn)
    dyn[0, K.D_AIL + K.A_BOUND] = 1
    grid_run(K.play_frenzied, inp, dyn, cc, bf, Script(check=faces(2, 2), damage=faces(2)), i=0)
    assert dyn[0, K.D_AIL + K.A_BOUND] == 1 and grid_apart(inp, dyn, 0, 1) == 5 and cc[0, K.K_ATTACKS] == 0


def test_positions_frenzy_in_reach_removes_with_the_minor_then_attacks():
    """Bea in her position: the Minor is a removal roll with the draft's bands (14-16: one
    ailment): 6 + 6 + 1 + 1 (each six adds a die) + 3 - 2 = 15 removes Bound; then 3 + 2 + 4
    on Bea."""
    inp, dyn, cc = arena([girl(), girl("Bea")], [foe(attack=6)], [0, 0, 1])
    frenzied(dyn)
    dyn[0, K.D_AIL + K.A_BOUND] = 1
    call(K.play_frenzied, inp, dyn, cc, Script(check=faces(6, 6, 1, 1) + HIT, damage=faces(4, 3, 4)), i=0)
    assert dyn[0, K.D_AIL + K.A_BOUND] == 0 and dyn[1, K.D_RES] == 18 - 9 and dyn[0, K.D_PLACE] == 0
