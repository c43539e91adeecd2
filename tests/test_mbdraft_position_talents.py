"""The draft's movement talents on its Battlefield map of positions (seed 001,
DRAFT L11-15 Bypass, L69-73 Teleport, L79-83 Guardian, L103-107 Defensive
Switch, L125-129 Get Over Here, L149-153 Sprint, L277-281 Dash Strike,
L119-123 Get Back, L47-51 Let's Move, L63-67 Speed Burst;
:mod:`sim.systems.mb41.positions`), each turn with injected dice, every
script drawn exactly.

Positions in ``dyn[:, D_PLACE]`` are 0-based (the book's "Position 1" is 0);
the map has 4 positions. ``girl`` is 4/4/3 (attack/defence/support), Resolve
18; ``foe`` 3/3/3 (a girl-kind member, so the draft's talents are open to
it). A girl's Defense overcharge is her Heart counter, her Support
(the draft's Magic) her Judgment counter. HIT: 6 + 4 = 10 against 2 + 3 = 5.
"""
from __future__ import annotations

import pytest
from helpers import MB41_NOCAP, Script, draft_arena, faces, mb41_member
from helpers import mb41_girl as girl, mb41_run as call

from engine41 import K

HEART, FURY, JUDGMENT = 0, 1, 2
HIT = faces(3, 3, 1, 1)        # girl 6 + 4 = 10 vs 2 + 3 = 5
MISS = faces(1, 1, 3, 3)       # girl 2 + 4 = 6 vs 6 + 3 = 9
F_HIT = faces(3, 3, 1, 1)      # foe 6 + 3 = 9 vs 2 + 4 = 6
F_MISS = faces(1, 1, 3, 3)     # foe 2 + 3 = 5 vs 6 + 4 = 10
MELEE_ONLY = {"position_forms": "kind"}
RANGED = {"attack_kind": "ranged"}


def arena(side_a, side_b, places, rules=None):
    r = {"positions": 4}
    r.update(rules or {})
    return draft_arena(side_a, side_b, r, places)


def turn(inp, dyn, cc, i=0, **script):
    call(K.take_turn, inp, dyn, cc, Script(**script), i=i)


def foe(name="Shade", **kw):
    kw.setdefault("policy", dict(MB41_NOCAP))
    return mb41_member(name, **kw)


# ------------------------------------------------------------------ Get Over Here (DRAFT L125-129)


def test_get_over_here_pulls_the_target_one_position_on_a_hit():
    """Major, 1 Defense overcharge: her ranged attack hits (1d6 = 4) at 2
    positions and the target is pulled 1 position closer; on a miss it
    stays, the overcharge still paid."""
    g = girl(talents=["Get Over Here"], policy={**MB41_NOCAP, "movement": "hold"}, **RANGED)
    inp, dyn, cc = arena([g], [foe()], places=[0, 2])
    turn(inp, dyn, cc, check=HIT, damage=faces(4))
    assert dyn[1, K.D_RES] == 18 - 4 and dyn[1, K.D_PLACE] == 1
    assert cc[0, K.K_SHOVED] == 1 and dyn[0, K.D_OC + HEART] == 1 and cc[0, K.K_PLACES] == 0
    inp, dyn, cc = arena([g], [foe()], places=[0, 2])
    turn(inp, dyn, cc, check=MISS)
    assert dyn[1, K.D_PLACE] == 2 and cc[0, K.K_SHOVED] == 0 and dyn[0, K.D_OC + HEART] == 1


def test_get_over_here_in_her_own_position_moves_nobody():
    g = girl(talents=["Get Over Here"], policy={**MB41_NOCAP, "movement": "hold"})
    inp, dyn, cc = arena([g], [foe()], places=[1, 1])
    turn(inp, dyn, cc, check=HIT, damage=faces(4))
    assert dyn[1, K.D_RES] == 18 - 6 and dyn[1, K.D_PLACE] == 1 and cc[0, K.K_SHOVED] == 0


# ------------------------------------------------------------------ Sprint (DRAFT L149-153)


def test_sprint_is_a_free_position_once_per_round():
    """Melee only, 2 positions from Shade: Sprint (free) to 1, Movement (Minor)
    to 2, then the Major attacks (1d6 + 2). Without Sprint the same turn only
    moves her (test_mbdraft_positions). A second turn in the same round: no
    Sprint (once per round), one use of two spent."""
    g = girl(talents=["Sprint"])
    inp, dyn, cc = arena([g], [foe(policy={**MB41_NOCAP, "movement": "hold"})], places=[0, 2], rules=MELEE_ONLY)
    turn(inp, dyn, cc, check=HIT, damage=faces(4))
    assert dyn[0, K.D_PLACE] == 2 and dyn[1, K.D_RES] == 18 - 6
    assert cc[0, K.K_PLACES] == 2 and cc[0, K.K_TALENT_MOVES] == 1 and dyn[0, K.D_TUSES] == 1
    assert dyn[0, K.D_SPRINT_AT] == dyn[0, K.D_ROUND]
    dyn[1, K.D_PLACE] = 0
    turn(inp, dyn, cc)                       # same round: Minor to 1, Major to 0, no attack
    assert dyn[0, K.D_PLACE] == 0 and cc[0, K.K_TALENT_MOVES] == 1 and dyn[0, K.D_TUSES] == 1
    dyn[0, K.D_ROUND] += 1
    dyn[1, K.D_PLACE] = 2
    turn(inp, dyn, cc, check=HIT, damage=faces(1))
    assert dyn[0, K.D_PLACE] == 2 and cc[0, K.K_TALENT_MOVES] == 2 and dyn[0, K.D_TUSES] == 0


def test_speed_burst_is_sprint_for_two_support_overcharge_any_round():
    """Speed Burst (DRAFT L63-67, free, 2 Support overcharge): the same free
    position as Sprint, and again in the same round."""
    g = girl(talents=["Speed Burst"])
    inp, dyn, cc = arena([g], [foe(policy={**MB41_NOCAP, "movement": "hold"})], places=[0, 2], rules=MELEE_ONLY)
    turn(inp, dyn, cc, check=HIT, damage=faces(4))
    assert dyn[0, K.D_PLACE] == 2 and dyn[1, K.D_RES] == 18 - 6
    assert dyn[0, K.D_OC + JUDGMENT] == 2 and cc[0, K.K_TALENT_MOVES] == 1
    dyn[0, K.D_PLACE] = 0
    turn(inp, dyn, cc, check=HIT, damage=faces(1))        # the same round: again
    assert dyn[0, K.D_PLACE] == 2 and dyn[1, K.D_RES] == 12 - 3
    assert dyn[0, K.D_OC + JUDGMENT] == 4 and cc[0, K.K_TALENT_MOVES] == 2


def test_sprint_not_out_of_an_enemys_position():
    """Ranged only, sharing Shade's position: Sprint is movement and cannot
    leave an enemy's position (DRAFT L498); the Major Disengages instead."""
    g = girl(talents=["Sprint"], **RANGED)
    inp, dyn, cc = arena([g], [foe(policy={**MB41_NOCAP, "movement": "hold"})], places=[1, 1], rules=MELEE_ONLY)
    turn(inp, dyn, cc)
    assert dyn[0, K.D_PLACE] == 0 and cc[0, K.K_TALENT_MOVES] == 0 and cc[0, K.K_DISENGAGES] == 1
    assert dyn[0, K.D_TUSES] == 2


@pytest.mark.parametrize("talent, beni_at, sprints", [("Speed Burst", 1, True), ("Sprint", 1, False),
                                                     ("Speed Burst", 2, False)])
def test_speed_burst_off_her_turn_to_cover_an_ally(talent, beni_at, sprints):
    """Shade attacks the hurt Akari in her position (0); nobody there could Cover
    her (L490-492). Beni with Speed Burst ("You may use this power outside your
    normal turn", DRAFT L63-67; 2 Support overcharge), one position away, moves
    into Akari's position before the roll and Covers the hit (5 + 5 + 4 = 14:
    14-16, she takes the whole 2 + 2). The draft's Sprint is on her turn only
    (DRAFT L149-153); two positions away one step would not reach."""
    a = girl("Akari")
    b = girl("Beni", talents=[talent], policy={**MB41_NOCAP, "intercept": "always", "movement": "hold"})
    inp, dyn, cc = arena([a, b], [foe(policy={**MB41_NOCAP, "movement": "hold"})], places=[0, beni_at, 0])
    dyn[0, K.D_RES] = 5
    turn(inp, dyn, cc, i=2, check=F_HIT + (faces(5, 5) if sprints else []), damage=faces(2))
    if sprints:
        assert dyn[1, K.D_PLACE] == 0 and dyn[0, K.D_RES] == 5 and dyn[1, K.D_RES] == 18 - 4
        assert cc[1, K.K_GUARD_SPRINTS] == 1 and cc[1, K.K_TALENT_MOVES] == 1 and cc[1, K.K_INTERCEPTS] == 1
        assert dyn[1, K.D_OC + JUDGMENT] == 2
    else:
        assert dyn[1, K.D_PLACE] == beni_at and dyn[0, K.D_RES] == 1 and cc[1, K.K_GUARD_SPRINTS] == 0
        assert dyn[1, K.D_OC + JUDGMENT] == 0


def test_speed_burst_off_her_turn_against_a_frenzys_attack():
    """A frenzied Fria (4.1 L746) in Akari's position attacks her, the closest; Beni's Speed
    Burst takes her into that position before the roll and she Covers the whole hit
    (14: 2 + 2 and the frenzy's +1d6, 4). Fria's regen die comes first."""
    b = girl("Beni", talents=["Speed Burst"], policy={**MB41_NOCAP, "intercept": "always", "movement": "hold"})
    inp, dyn, cc = arena([girl("Akari"), b, girl("Fria")], [foe(policy={**MB41_NOCAP, "movement": "hold"})],
                         places=[0, 1, 0, 3])
    dyn[0, K.D_RES] = 5
    dyn[2, K.D_FRENZY] = 1
    dyn[2, K.D_OC + FURY] = 13
    call(K.play_frenzied, inp, dyn, cc, Script(check=HIT + faces(5, 5), damage=faces(3, 2, 4)), i=2)
    assert dyn[1, K.D_PLACE] == 0 and cc[1, K.K_GUARD_SPRINTS] == 1 and cc[1, K.K_INTERCEPTS] == 1
    assert dyn[0, K.D_RES] == 5 and dyn[1, K.D_RES] == 18 - (2 + 2 + 4) and dyn[2, K.D_OC + FURY] == 11


# ------------------------------------------------------------------ Dash Strike (DRAFT L277-281)


def test_dash_strike_steps_into_reach_and_attacks():
    """Melee only, 2 positions off: Movement to 1, then Dash Strike (Major,
    2/Scene) moves her to 2 and attacks (1d6 + 2 = 6)."""
    g = girl(talents=["Dash Strike"])
    inp, dyn, cc = arena([g], [foe(policy={**MB41_NOCAP, "movement": "hold"})], places=[0, 2], rules=MELEE_ONLY)
    turn(inp, dyn, cc, check=HIT, damage=faces(4))
    assert dyn[0, K.D_PLACE] == 2 and dyn[1, K.D_RES] == 18 - 6 and cc[0, K.K_ATTACKS] == 1
    assert cc[0, K.K_PLACES] == 2 and cc[0, K.K_TALENT_MOVES] == 1 and dyn[0, K.D_TUSES] == 1


@pytest.mark.parametrize("engage_downed", [False, True])
def test_dash_strike_not_out_of_an_enemys_position(engage_downed):
    """Dash Strike is ordinary movement. Melee only, a downed Shade in her
    position, Mist 2 off: when the downed do not engage, the Minor moves her
    to 2 and Dash Strike to 3 with the attack (6); under ``engage_downed``
    she is engaged: the Minor cannot move her, Dash Strike is not used, the
    Major Disengages to 2 and the unused Minor moves her to 3, no attack."""
    g = girl(talents=["Dash Strike"])
    hold = {**MB41_NOCAP, "movement": "hold"}
    inp, dyn, cc = arena([g], [foe(policy=hold), foe("Mist", policy=hold)], places=[1, 1, 3],
                         rules={**MELEE_ONLY, "engage_downed": engage_downed})
    dyn[1, K.D_RES] = 0
    if engage_downed:
        turn(inp, dyn, cc)
        assert dyn[0, K.D_PLACE] == 3 and dyn[0, K.D_TUSES] == 2 and cc[0, K.K_DISENGAGES] == 1
        assert dyn[2, K.D_RES] == 18 and cc[0, K.K_ATTACKS] == 0
    else:
        turn(inp, dyn, cc, check=HIT, damage=faces(4))
        assert dyn[0, K.D_PLACE] == 3 and dyn[0, K.D_TUSES] == 1 and cc[0, K.K_DISENGAGES] == 0
        assert dyn[2, K.D_RES] == 18 - 6


# ------------------------------------------------------------------ Bypass and Teleport (DRAFT L11-15, L69-73)


def test_bypass_moves_two_positions_as_the_minor():
    """Melee only, 3 positions off: Bypass (Minor, 1 Support overcharge) 2
    positions to 2, then the Major moves her into Shade's position."""
    g = girl(talents=["Bypass"])
    inp, dyn, cc = arena([g], [foe(policy={**MB41_NOCAP, "movement": "hold"})], places=[0, 3], rules=MELEE_ONLY)
    turn(inp, dyn, cc)
    assert dyn[0, K.D_PLACE] == 3 and cc[0, K.K_PLACES] == 3 and cc[0, K.K_TALENT_MOVES] == 2
    assert dyn[0, K.D_OC + JUDGMENT] == 1 and dyn[0, K.D_TUSES] == 1


def test_bypass_leaves_an_enemys_position_without_disengage():
    """Ranged only, in Shade's position: Bypass takes her 1 position out (she
    stops in her band, 1-2 off) with the Minor, no Disengage; the Major shoots."""
    g = girl(talents=["Bypass"], **RANGED)
    inp, dyn, cc = arena([g], [foe(policy={**MB41_NOCAP, "movement": "hold"})], places=[1, 1], rules=MELEE_ONLY)
    turn(inp, dyn, cc, check=HIT, damage=faces(3))
    assert dyn[0, K.D_PLACE] == 0 and cc[0, K.K_DISENGAGES] == 0 and cc[0, K.K_TALENT_MOVES] == 1
    assert dyn[1, K.D_RES] == 18 - 3 and dyn[0, K.D_OC + JUDGMENT] == 1


def test_teleport_to_the_nearest_position_in_reach():
    """Teleport (Minor, 1/Scene, 1 Support overcharge): melee only, 3 off (a
    Minor Movement would not do): she teleports into Shade's position (not
    movement, DRAFT L73: no positions counted) and attacks (1d6 + 2)."""
    g = girl(talents=["Teleport"])
    inp, dyn, cc = arena([g], [foe(policy={**MB41_NOCAP, "movement": "hold"})], places=[0, 3], rules=MELEE_ONLY)
    turn(inp, dyn, cc, check=HIT, damage=faces(4))
    assert dyn[0, K.D_PLACE] == 3 and dyn[1, K.D_RES] == 18 - 6
    assert cc[0, K.K_PLACES] == 0 and cc[0, K.K_TALENT_MOVES] == 3
    assert dyn[0, K.D_OC + JUDGMENT] == 1 and dyn[0, K.D_TUSES] == 0


def test_teleport_out_of_an_enemys_position():
    """Ranged only, in Shade's position: Teleport (not movement, 'regardless of
    whether there are enemies present') to the nearest position 1-2 off."""
    g = girl(talents=["Teleport"], **RANGED)
    inp, dyn, cc = arena([g], [foe(policy={**MB41_NOCAP, "movement": "hold"})], places=[2, 2], rules=MELEE_ONLY)
    turn(inp, dyn, cc, check=HIT, damage=faces(2))
    assert dyn[0, K.D_PLACE] == 1 and cc[0, K.K_DISENGAGES] == 0 and dyn[1, K.D_RES] == 18 - 2


# ------------------------------------------------------------------ Guardian (DRAFT L79-83)


@pytest.mark.parametrize("dice, held", [(faces(5, 5, 1, 1), True), (faces(1, 1, 5, 5), False)])
def test_guardian_keeps_an_enemy_in_her_position(dice, held):
    """Ranged only Akari shares a position with the Guardian: her Major is
    Disengage; Support vs Support (the Guardian first, 13 vs 5): a win keeps
    her there, the Major spent; a loss lets her go. 1 Defense overcharge."""
    g = girl(**RANGED)
    k = foe("Knight", talents=["Guardian"], policy={**MB41_NOCAP, "movement": "hold"})
    inp, dyn, cc = arena([g], [k], places=[1, 1], rules=MELEE_ONLY)
    turn(inp, dyn, cc, check=dice)
    assert dyn[0, K.D_PLACE] == (1 if held else 0)
    assert cc[1, K.K_HELD] == (1 if held else 0) and dyn[1, K.D_OC + HEART] == 1


@pytest.mark.parametrize("dice, held", [(faces(5, 5, 1, 1), True), (faces(1, 1, 5, 5), False)])
def test_guardian_holds_bypass_too(dice, held):
    """Bypass needs no Disengage but is movement out of the Guardian's position:
    a won challenge (13 vs 5) keeps her, her Minor and one Bypass use spent;
    her Major (nobody in reach, ranged only) is then Disengage, challenged
    again (another Defense overcharge) and lost (5 vs 13): she leaves. A lost
    first challenge: Bypass takes her 1 position out and she shoots (2)."""
    g = girl(talents=["Bypass"], **RANGED)
    k = foe("Knight", talents=["Guardian"], policy={**MB41_NOCAP, "movement": "hold"})
    inp, dyn, cc = arena([g], [k], places=[1, 1], rules=MELEE_ONLY)
    check = dice + (faces(1, 1, 5, 5) if held else HIT)
    turn(inp, dyn, cc, check=check, **({} if held else {"damage": faces(2)}))
    assert dyn[0, K.D_TUSES] == 1 and dyn[0, K.D_OC + JUDGMENT] == 1
    if held:
        assert cc[1, K.K_HELD] == 1 and dyn[0, K.D_PLACE] == 0 and cc[0, K.K_DISENGAGES] == 1
        assert dyn[1, K.D_OC + HEART] == 2
    else:
        assert cc[1, K.K_HELD] == 0 and dyn[0, K.D_PLACE] == 0 and dyn[1, K.D_RES] == 18 - 2


def test_guardian_does_not_stop_teleport():
    g = girl(talents=["Teleport"], **RANGED)
    k = foe("Knight", talents=["Guardian"], policy={**MB41_NOCAP, "movement": "hold"})
    inp, dyn, cc = arena([g], [k], places=[2, 2], rules=MELEE_ONLY)
    turn(inp, dyn, cc, check=HIT, damage=faces(2))
    assert dyn[0, K.D_PLACE] == 1 and cc[1, K.K_HELD] == 0 and dyn[1, K.D_OC + HEART] == 0


# ------------------------------------------------------------------ Defensive Switch (DRAFT L103-107)


@pytest.mark.parametrize("beni_at, switched", [(3, True), (0, True), (4, False)])
def test_defensive_switch_swaps_positions_within_three(beni_at, switched):
    """Shade attacks the hurt Akari (position 0); Beni (intercept always) up to
    3 positions away swaps positions with her before the roll and is hit
    instead (1d6 + 2 = 4); 4 positions away she cannot."""
    a = girl("Akari")
    b = girl("Beni", talents=["Defensive Switch"], policy={**MB41_NOCAP, "intercept": "always", "movement": "hold"})
    inp, dyn, cc = arena([a, b], [foe(policy={**MB41_NOCAP, "movement": "hold"})], places=[0, beni_at, 0],
                         rules={"positions": 5})
    dyn[0, K.D_RES] = 5
    turn(inp, dyn, cc, i=2, check=F_HIT, damage=faces(2))
    if switched:
        assert dyn[0, K.D_RES] == 5 and dyn[1, K.D_RES] == 18 - 4 and cc[1, K.K_SWITCHES] == 1
        assert dyn[1, K.D_PLACE] == 0 and dyn[0, K.D_PLACE] == beni_at and dyn[1, K.D_TUSES] == 1
    else:
        assert dyn[0, K.D_RES] == 1 and cc[1, K.K_SWITCHES] == 0 and dyn[1, K.D_PLACE] == beni_at


# ------------------------------------------------------------------ Blast Strike (DRAFT L271-275)


def test_blast_strike_attacks_everyone_in_one_position():
    """Blast Strike (Major, 1 Attack overcharge): of the positions her basic
    attacks reach she picks the one with the most enemies (Shade and Mist at
    2, Fog alone at 1) and attacks each there, each defending separately
    (ranged, 1d6: 4 and 3); Fog is not attacked. With one enemy per position
    the policy's area_min (2) keeps her to a basic attack."""
    g = girl(talents=["Blast Strike"], policy={**MB41_NOCAP, "movement": "hold"}, **RANGED)
    hold = {**MB41_NOCAP, "movement": "hold"}
    inp, dyn, cc = arena([g], [foe(policy=hold), foe("Mist", policy=hold), foe("Fog", policy=hold)],
                         places=[0, 2, 2, 1])
    turn(inp, dyn, cc, check=HIT + HIT, damage=faces(4, 3))
    assert dyn[1, K.D_RES] == 18 - 4 and dyn[2, K.D_RES] == 18 - 3 and dyn[3, K.D_RES] == 18
    assert cc[0, K.K_AREA_TARGETS] == 2 and cc[0, K.K_ATTACKS] == 2 and dyn[0, K.D_OC + FURY] == 1
    inp, dyn, cc = arena([g], [foe(policy=hold), foe("Mist", policy=hold), foe("Fog", policy=hold)],
                         places=[0, 2, 3, 1])
    turn(inp, dyn, cc, check=HIT, damage=faces(4))
    assert cc[0, K.K_AREA_TARGETS] == 0 and cc[0, K.K_ATTACKS] == 1 and dyn[0, K.D_OC + FURY] == 0


@pytest.mark.parametrize("cara_at, switch", [(3, True), (1, False)])
def test_defensive_switch_takes_a_blast_strike_for_an_ally(cara_at, switch):
    """Shade's Blast Strike from position 0 on position 1 (Akari, 5 Resolve left, and Bea):
    Cara (Defensive Switch, intercept below 50%) at 3, outside it, swaps positions with Akari
    before her roll and takes that attack (ranged 1d6 = 3); Bea is attacked too (4; Cara,
    now beside her, does not Cover a hit that leaves her 14 of 18); Cara is not attacked a
    second time. Cara inside the position is a target herself: no switch, all three attacked
    (she Covers Akari's hit)."""
    hold = {**MB41_NOCAP, "movement": "hold"}
    cara = girl("Cara", talents=["Defensive Switch"], policy={**hold, "intercept": "protect-below 50"})
    inp, dyn, cc = arena([girl("Akari", policy=hold), girl("Bea", policy=hold), cara],
                         [foe(talents=["Blast Strike"], policy=hold, **RANGED)], places=[1, 1, cara_at, 0])
    dyn[0, K.D_RES] = 5
    if switch:
        turn(inp, dyn, cc, i=3, check=F_HIT + F_HIT, damage=faces(3, 4))
        assert [int(dyn[j, K.D_PLACE]) for j in range(3)] == [3, 1, 1]
        assert [int(dyn[j, K.D_RES]) for j in range(3)] == [5, 18 - 4, 18 - 3]
        assert cc[2, K.K_SWITCHES] == 1 and cc[3, K.K_AREA_TARGETS] == 2
    else:
        # Cara beside Akari Covers her hit (5 + 5 + 4 = 14: she takes the whole 1)
        turn(inp, dyn, cc, i=3, check=F_HIT + faces(5, 5) + F_MISS + F_MISS, damage=faces(1))
        assert [int(dyn[j, K.D_RES]) for j in range(3)] == [5, 18, 18 - 1]
        assert cc[2, K.K_SWITCHES] == 0 and cc[2, K.K_INTERCEPTS] == 1 and cc[3, K.K_AREA_TARGETS] == 3
    assert list(dyn[:4, K.D_AREA_HIT]) == [0, 0, 0, 0]


@pytest.mark.parametrize("allies", [False, True])
def test_blast_strike_and_allies_in_the_position(allies):
    """Her ally Beni shares Shade's position (policy area_min 1): under
    ``area_allies`` she is attacked too (a miss on her: 2 + 4 = 6 vs
    6 + 4 = 10), else only Shade."""
    g = girl(talents=["Blast Strike"], policy={**MB41_NOCAP, "movement": "hold", "area_min": 1}, **RANGED)
    b = girl("Beni", policy={**MB41_NOCAP, "movement": "hold"})
    inp, dyn, cc = arena([g, b], [foe(policy={**MB41_NOCAP, "movement": "hold"})], places=[0, 2, 2],
                         rules={"area_allies": allies})
    if allies:
        turn(inp, dyn, cc, check=faces(1, 1, 3, 3) + HIT, damage=faces(5))
        assert cc[0, K.K_AREA_TARGETS] == 2 and dyn[1, K.D_RES] == 18
    else:
        turn(inp, dyn, cc, check=HIT, damage=faces(5))
        assert cc[0, K.K_AREA_TARGETS] == 1
    assert dyn[2, K.D_RES] == 18 - 5


# ------------------------------------------------------------------ Safe Place (DRAFT L241-245)


def test_safe_place_brings_a_hurt_engaged_ally_to_her_position():
    """Safe Place (Major, no cost in the draft): Beni (5 of 18, below the
    policy's heal_below 50) shares Shade's position 2; Akari at 0, no enemy
    there, spends her Major to bring her to 0 (2 positions). With no hurt
    ally she attacks instead; with an enemy in her own position it is not used."""
    hold = {**MB41_NOCAP, "movement": "hold"}
    a = girl("Akari", talents=["Safe Place"], policy=hold, **RANGED)
    b = girl("Beni", policy=hold)
    inp, dyn, cc = arena([a, b], [foe(policy=hold)], places=[0, 2, 2])
    dyn[1, K.D_RES] = 5
    turn(inp, dyn, cc)
    assert dyn[1, K.D_PLACE] == 0 and cc[0, K.K_SHOVED] == 2 and cc[0, K.K_ATTACKS] == 0
    inp, dyn, cc = arena([a, b], [foe(policy=hold)], places=[0, 2, 2])
    turn(inp, dyn, cc, check=HIT, damage=faces(3))       # Beni unhurt: the attack
    assert dyn[1, K.D_PLACE] == 2 and dyn[2, K.D_RES] == 18 - 3
    inp, dyn, cc = arena([a, b], [foe(policy=hold), foe("Mist", policy=hold)], places=[0, 2, 2, 0])
    dyn[1, K.D_RES] = 5
    turn(inp, dyn, cc, check=HIT, damage=faces(3))       # Mist in her position: the attack on it
    assert dyn[1, K.D_PLACE] == 2 and cc[0, K.K_SHOVED] == 0 and cc[0, K.K_ATTACKS] == 1


# ------------------------------------------------------------------ Get Back (DRAFT L119-123)


def test_get_back_sends_a_hurt_engaged_ally_within_two_to_position_1():
    """Get Back (Minor, no cost): Beni (5 of 18, below heal_below 50) shares
    Shade's position 3; Akari at 2 (1 away, within 0-2) sends her to Position
    1 (0) with her Minor, then attacks Shade from range. Beni 3 positions
    away: out of range, Akari only attacks."""
    hold = {**MB41_NOCAP, "movement": "hold"}
    a = girl("Akari", talents=["Get Back"], policy=hold, **RANGED)
    b = girl("Beni", policy=hold)
    inp, dyn, cc = arena([a, b], [foe(policy=hold)], places=[2, 3, 3])
    s = [k for k in range(K.MAXT) if inp.comb[0, K.C_TCODE + k] == K.E_GET_BACK][0]
    assert inp.comb[0, K.C_TREACH + s] == 2
    dyn[1, K.D_RES] = 5
    turn(inp, dyn, cc, check=HIT, damage=faces(3))
    assert dyn[1, K.D_PLACE] == 0 and cc[0, K.K_SHOVED] == 3 and dyn[0, K.D_MINOR_USED] == 1
    assert dyn[2, K.D_RES] == 18 - 3 and cc[0, K.K_TUSE + s] == 1
    inp, dyn, cc = arena([a, b], [foe(policy=hold)], places=[0, 3, 3])
    dyn[1, K.D_RES] = 5
    turn(inp, dyn, cc)                                   # 3 away: no Get Back, Shade out of reach
    assert dyn[1, K.D_PLACE] == 3 and cc[0, K.K_SHOVED] == 0 and cc[0, K.K_TUSE + s] == 0


@pytest.mark.parametrize("to, dest", [("own_end", 3), ("position_1", 0)])
def test_get_back_for_the_second_side_and_rule_get_back_to(to, dest):
    """Shade (side 1, Get Back) at 3; Mist, hurt, shares position 2 with
    Akari. ``own_end``: Mist goes to the second side's end (position 4 = 3);
    ``position_1``: to Position 1 (0). Melee only, so Shade attacks nobody."""
    hold = {**MB41_NOCAP, "movement": "hold"}
    rules = {**MELEE_ONLY, "get_back_to": to}
    inp, dyn, cc = arena([girl("Akari", policy=hold)],
                         [foe(talents=["Get Back"], policy=hold), foe("Mist", policy=hold)],
                         places=[2, 3, 2], rules=rules)
    dyn[2, K.D_RES] = 4
    turn(inp, dyn, cc, i=1)
    assert dyn[2, K.D_PLACE] == dest and cc[1, K.K_SHOVED] == abs(dest - 2)


# ------------------------------------------------------------------ Let's Move (DRAFT L47-51)


def test_lets_move_steps_her_and_an_ally():
    """Let's Move (Minor, 1 Support overcharge): Akari and Beni at 0, Shade
    holding at 2, melee only. Akari's Minor moves her to 1 and Beni to 1;
    her Major (nobody in reach) moves her to 2. Beni holding her position:
    a plain Movement, no overcharge."""
    hold = {**MB41_NOCAP, "movement": "hold"}
    a = girl("Akari", talents=["Let's Move"])
    inp, dyn, cc = arena([a, girl("Beni")], [foe(policy=hold)], places=[0, 0, 2], rules=MELEE_ONLY)
    turn(inp, dyn, cc)
    assert dyn[0, K.D_PLACE] == 2 and dyn[1, K.D_PLACE] == 1
    assert dyn[0, K.D_OC + JUDGMENT] == 1 and cc[0, K.K_TALENT_MOVES] == 1 and cc[1, K.K_PLACES] == 1
    inp, dyn, cc = arena([a, girl("Beni", policy=hold)], [foe(policy=hold)], places=[0, 0, 2], rules=MELEE_ONLY)
    turn(inp, dyn, cc)
    assert dyn[0, K.D_PLACE] == 2 and dyn[1, K.D_PLACE] == 0
    assert dyn[0, K.D_OC + JUDGMENT] == 0 and cc[0, K.K_TALENT_MOVES] == 0


def test_lets_move_not_for_an_engaged_ally():
    """Beni shares position 3 with Mist: Movement cannot take her out, so
    Akari moves alone (plain Movement, no overcharge)."""
    hold = {**MB41_NOCAP, "movement": "hold"}
    a = girl("Akari", talents=["Let's Move"])
    inp, dyn, cc = arena([a, girl("Beni")], [foe(policy=hold), foe("Mist", policy=hold)],
                         places=[0, 3, 2, 3], rules=MELEE_ONLY)
    turn(inp, dyn, cc)
    assert dyn[0, K.D_PLACE] == 2 and dyn[1, K.D_PLACE] == 3
    assert dyn[0, K.D_OC + JUDGMENT] == 0 and cc[0, K.K_TALENT_MOVES] == 0


# ------------------------------------------------------------------ Marionette (DRAFT L313-317)


def copy_row(inp):
    return [j for j in range(inp.n) if inp.comb[j, K.C_SPAWN_KIND] == K.SPAWN_COPY][0]


def test_marionette_copy_in_the_enemys_position_and_her_attack_starts_from_it():
    """Minor, 1 Attack overcharge: the copy appears within 0-3 positions, in
    the position nearest the nearest enemy (``marionette_place: enemy``);
    melee only, 2 positions from Shade, her melee attack starts from the
    copy (range 0): 4 + 2 = 6, and she does not move."""
    g = girl(talents=["Marionette"])
    inp, dyn, cc = arena([g], [foe(policy={**MB41_NOCAP, "movement": "hold"})], places=[0, 2], rules=MELEE_ONLY)
    c = copy_row(inp)
    turn(inp, dyn, cc, check=HIT, damage=faces(4))
    assert dyn[0, K.D_COPY] == c + 1 and dyn[c, K.D_PLACE] == 2 and dyn[c, K.D_ABSENT] == 0
    assert dyn[0, K.D_OC + FURY] == 1 and dyn[0, K.D_PLACE] == 0
    assert dyn[1, K.D_RES] == 18 - 6 and cc[0, K.K_PLACES] == 0


def test_marionette_copy_is_attacked_in_the_enemys_position_and_destroyed():
    """Shade (melee only, holding) reaches only the copy, which defends as
    usual (DRAFT L317: 6 + 3 = 9 vs 2 + 4 = 6) and any damage destroys it."""
    g = girl(talents=["Marionette"])
    inp, dyn, cc = arena([g], [foe(policy={**MB41_NOCAP, "movement": "hold"})], places=[0, 2], rules=MELEE_ONLY)
    c = copy_row(inp)
    turn(inp, dyn, cc, check=HIT, damage=faces(4))
    turn(inp, dyn, cc, i=1, check=F_HIT, damage=faces(1))
    assert dyn[c, K.D_ABSENT] == 1 and dyn[0, K.D_COPY] == 0 and cc[0, K.K_COPY_ABSORBED] == 1
    assert dyn[0, K.D_RES] == 18


@pytest.mark.parametrize("place, positions, foe_at, want", [
    ("enemy", 6, 5, 3),      # the band 0-3 ends at 3
    ("enemy", 6, 2, 2),
    ("self", 6, 2, 0),       # her own position (range 0)
])
def test_marionette_copy_place(place, positions, foe_at, want):
    from helpers import mb41_call

    from sim.systems.mb41 import positions as PS

    g = girl(talents=["Marionette"])
    inp, dyn, cc = arena([g], [foe()], places=[0, foe_at], rules={"positions": positions, "marionette_place": place})
    s = [k for k in range(K.MAXT) if inp.comb[0, K.C_TCODE + k] == K.E_MARIONETTE][0]
    assert inp.comb[0, K.C_TREACH + s] == 3
    assert mb41_call(PS.copy_place, i=0, s=s, comb=inp.comb, rules=inp.rules, dyn=dyn) == want


# ------------------------------------------------------------------ Link on positions (DRAFT L165-169)


@pytest.mark.parametrize("umbra_at, nox_at, linked", [
    (2, 3, 2),     # Umbra within 0-2: the secondary
    (3, 2, 3),     # Umbra 3 away: out of range, Nox instead
    (3, 3, -1),    # no second enemy in range: no link
])
def test_the_drafts_link_within_two_positions(umbra_at, nox_at, linked):
    from helpers import mb41_run

    g = girl(talents=["Link"])
    inp, dyn, cc = arena([g], [foe("Shade"), foe("Umbra"), foe("Nox")], places=[0, 1, umbra_at, nox_at])
    dyn[1, K.D_RES] = 10        # focus-weakest: Shade, the primary
    dyn[2, K.D_RES] = 12
    dyn[3, K.D_RES] = 14
    made = mb41_run(K.try_link, inp, dyn, cc, Script(), i=0)
    assert made == (linked >= 0)
    assert dyn[1, K.D_LINK_TO] == linked


# ------------------------------------------------------------------ Rough Going (DRAFT L319-323)


def test_rough_going_makes_the_enemys_position_rough_and_slows_it():
    """Minor, 1 Attack overcharge: Shade's position (2 away, within 0-2)
    takes on Rough Terrain for the scene. Shade (melee only) then needs both
    its moves to leave it (``rough_cost``): it ends its turn at 1, where
    without Rough Going its Minor and Major take it to her position 0."""
    g = girl(talents=["Rough Going"], policy={**MB41_NOCAP, "movement": "hold"}, **RANGED)
    inp, dyn, cc = arena([g], [foe()], places=[0, 2], rules=MELEE_ONLY)
    turn(inp, dyn, cc, check=MISS)
    assert dyn[0, K.D_ROUGH_PLACES] == 1 << 2 and cc[0, K.K_ROUGHENED] == 1
    assert dyn[0, K.D_OC + FURY] == 1
    turn(inp, dyn, cc, i=1)
    assert dyn[1, K.D_PLACE] == 1
    inp, dyn, cc = arena([girl(policy={**MB41_NOCAP, "movement": "hold"}, **RANGED)], [foe()], places=[0, 2],
                         rules=MELEE_ONLY)
    turn(inp, dyn, cc, check=MISS)
    turn(inp, dyn, cc, i=1)
    assert dyn[1, K.D_PLACE] == 0


@pytest.mark.parametrize("shade_at, bea_at", [(3, 0), (2, 2)])
def test_rough_going_not_out_of_range_nor_on_her_sides_position(shade_at, bea_at):
    """Shade 3 positions away (range 0-2), or sharing its position with Bea:
    no Rough Going, nothing paid."""
    g = girl(talents=["Rough Going"], policy={**MB41_NOCAP, "movement": "hold"}, **RANGED)
    b = girl("Bea", policy={**MB41_NOCAP, "movement": "hold"})
    inp, dyn, cc = arena([g, b], [foe()], places=[0, bea_at, shade_at], rules=MELEE_ONLY)
    from helpers import mb41_run

    assert not mb41_run(K.try_rough_going, inp, dyn, cc, Script(), i=0)
    assert dyn[0, K.D_ROUGH_PLACES] == 0 and dyn[0, K.D_OC + FURY] == 0


def test_rough_going_is_gone_at_the_next_scene():
    from helpers import mb41_call, mb41_run

    g = girl(talents=["Rough Going"], **RANGED)
    inp, dyn, cc = arena([g], [foe()], places=[0, 1])
    assert mb41_run(K.try_rough_going, inp, dyn, cc, Script(), i=0)
    assert dyn[0, K.D_ROUGH_PLACES] == 1 << 1
    mb41_call(K.reset, comb=inp.comb, rules=inp.rules, dyn=dyn)
    assert dyn[0, K.D_ROUGH_PLACES] == 0


# ------------------------------------------------------------------ auras by position (DRAFT L183-185, L2031)


def test_courage_aura_helps_only_the_allies_in_her_position():
    """'Allies in your position get +1 to all challenges' (DRAFT L183-185): a
    -1 entry in D_FEAR for Bea beside her, nothing for Cara one position away
    nor for Kiri herself; Bea stepping into her position gets it before her
    attack (refreshed after the move)."""
    from helpers import mb41_call

    from sim.systems.mb41 import positions as PS

    kiri = girl("Kiri", talents=["Courage Aura"], policy={**MB41_NOCAP, "movement": "hold"})
    bea = girl("Bea")
    cara = girl("Cara", policy={**MB41_NOCAP, "movement": "hold"})
    inp, dyn, cc = arena([kiri, bea, cara], [foe(policy={**MB41_NOCAP, "movement": "hold"})],
                         places=[0, 0, 1, 3], rules=MELEE_ONLY)
    mb41_call(PS.refresh_auras, comb=inp.comb, rules=inp.rules, dyn=dyn)
    assert list(dyn[:4, K.D_FEAR]) == [0, -1, 0, 0]
    dyn[1, K.D_PLACE] = 2
    dyn[3, K.D_PLACE] = 1
    mb41_call(PS.refresh_auras, comb=inp.comb, rules=inp.rules, dyn=dyn)
    assert list(dyn[:4, K.D_FEAR]) == [0, 0, 0, 0]
    # Cara (hold) at 1 with Shade; Kiri's turn is not needed: Bea at 2 steps to 1 (Minor), then attacks
    dyn[0, K.D_PLACE] = 1
    turn(inp, dyn, cc, i=1, check=HIT, damage=faces(4))
    assert dyn[1, K.D_PLACE] == 1 and dyn[1, K.D_FEAR] == -1 and dyn[2, K.D_FEAR] == -1
    assert dyn[3, K.D_RES] == 18 - 6


def test_fear_aura_hurts_only_the_enemies_in_its_position():
    """A 4.1 monster's Fear Aura (L2031, -2 to all rolls) reaches its melee
    range: on positions the same position. Dead, it is gone."""
    from helpers import mb41_call

    from sim.systems.mb41 import positions as PS

    m = mb41_member("Wolf", kind="monster", resolve=18, damage_bonus=0, overcharge_pool=5, talents=["Fear Aura"],
                    policy=dict(MB41_NOCAP))
    inp, dyn, cc = arena([girl("Akari"), girl("Bea")], [m], places=[2, 1, 2])
    mb41_call(PS.refresh_auras, comb=inp.comb, rules=inp.rules, dyn=dyn)
    assert list(dyn[:3, K.D_FEAR]) == [2, 0, 0]
    dyn[2, K.D_DEAD] = 1
    mb41_call(PS.refresh_auras, comb=inp.comb, rules=inp.rules, dyn=dyn)
    assert list(dyn[:3, K.D_FEAR]) == [0, 0, 0]


# ------------------------------------------------------------------ support talents' ranges on positions


@pytest.mark.parametrize("kiri_at, healed", [(2, True), (3, False)])
def test_heal_reaches_zero_to_two_positions(kiri_at, healed):
    """Heal (DRAFT L35-39, Minor, 1 Support overcharge, 'range 0-2
    positions'): Kiri at 5 of 18 Resolve, 2 positions away, regains
    1d6 + 1 = 4; 3 positions away she is out of range and nothing is paid."""
    from helpers import mb41_run

    pia = girl("Pia", talents=["Heal"])
    kiri = girl("Kiri")
    inp, dyn, cc = arena([pia, kiri], [foe()], places=[0, kiri_at, 3])
    dyn[1, K.D_RES] = 5
    script = Script(damage=faces(3)) if healed else Script()
    assert mb41_run(K.try_heal, inp, dyn, cc, script, i=0) == healed
    assert dyn[1, K.D_RES] == (9 if healed else 5)
    assert dyn[0, K.D_OC + JUDGMENT] == (1 if healed else 0)


def test_heal_has_no_range_gridless():
    """Without positions (``positions: 0``) the draft's Heal reaches every ally."""
    from helpers import mb41_run

    inp, dyn, cc = draft_arena([girl("Pia", talents=["Heal"]), girl("Kiri")], [foe()], {"positions": 0})
    dyn[1, K.D_RES] = 5
    assert mb41_run(K.try_heal, inp, dyn, cc, Script(damage=faces(3)), i=0)
    assert dyn[1, K.D_RES] == 9


@pytest.mark.parametrize("umbra_at, hexed", [(2, 2), (3, -1)])
def test_hex_reaches_zero_to_two_positions(umbra_at, hexed):
    """Hex (DRAFT L251-255, range 0-2): the policy's pick among the enemies
    within 2 positions. Shade (weakest, 3 positions away) is out of range:
    the Hex goes to Umbra 2 away; with both 3 away there is no Hex."""
    from helpers import mb41_run

    w = girl("Wren", talents=["Hex"])
    inp, dyn, cc = arena([w], [foe("Shade"), foe("Umbra")], places=[0, 3, umbra_at])
    dyn[1, K.D_RES] = 10
    assert mb41_run(K.try_hex, inp, dyn, cc, Script(), i=0) == (hexed >= 0)
    assert dyn[1, K.D_HEXES] == 0
    assert dyn[2, K.D_HEXES] == (1 if hexed >= 0 else 0)


def test_curse_reaches_zero_to_two_positions():
    """Curse (DRAFT L187-191, 'enemy 0-2'): Shade 3 positions away cannot be cursed."""
    from helpers import mb41_call

    g = girl(talents=["Curse"])
    inp, dyn, cc = arena([g], [foe()], places=[0, 3])
    s, t = mb41_call(K.talent_on_target, i=0, code=K.E_CURSE, comb=inp.comb, pol=inp.pol, rules=inp.rules,
                     dyn=dyn, streams=Script().streams, bf=None)
    assert (s, t) == (-1, -1)
    dyn[1, K.D_PLACE] = 2
    s, t = mb41_call(K.talent_on_target, i=0, code=K.E_CURSE, comb=inp.comb, pol=inp.pol, rules=inp.rules,
                     dyn=dyn, streams=Script().streams, bf=None)
    assert s >= 0 and t == 1


def test_rouse_reaches_an_ally_zero_to_two_positions_away():
    """Rouse (DRAFT L235-239, 'ally 0-2'): Kiri (listed first) 3 positions
    away is out of range; Bea 2 away gets the status."""
    from helpers import mb41_call

    inp, dyn, cc = arena([girl("Pia", talents=["Rouse"]), girl("Kiri"), girl("Bea")], [foe()], places=[0, 3, 2, 3])
    assert mb41_call(K.try_mood, i=0, to_self=False, comb=inp.comb, pol=inp.pol, rules=inp.rules, dyn=dyn, cc=cc)
    assert dyn[1, K.D_MOOD] == 0 and dyn[2, K.D_MOOD] != 0


# ------------------------------------------------------------------ 4.1 monsters' screams and Ambush Tactics on positions


def lurker(talents, **kw):
    """A 4.1 monster row in a draft scenario (3/3/3, pool 5, damage bonus 0), holding its position."""
    return mb41_member("Lurker", kind="monster", resolve=20, damage_bonus=0, overcharge_pool=5, talents=talents,
                       policy={**MB41_NOCAP, "movement": "hold", "scream_min": 2}, **kw)


SCREAM = faces(4, 4)   # Lurker's Support roll: 8 + 3 = 11
FAILS = faces(1, 2)    # a girl's: 3 + 3 = 6, the ailment
RESISTS = faces(5, 4)  # 9 + 3 = 12


def test_deafening_scream_reaches_a_circle_of_positions():
    """Deafening Scream (4.1 L1972, Major, 1 pool; radius 3, its ``range_hexes`` read as
    positions): on a line of 6, Lurker at 4 reaches Bea (2 away) and Cara (1 away), not
    Akari (4 away); Bea fails her Support roll and is Stunned, Cara resists."""
    g = {"policy": {**MB41_NOCAP, "movement": "hold"}}
    inp, dyn, cc = arena([girl("Akari", **g), girl("Bea", **g), girl("Cara", **g)], [lurker(["Deafening Scream"])],
                         places=[0, 2, 5, 4], rules={"positions": 6})
    turn(inp, dyn, cc, i=3, check=SCREAM + FAILS + RESISTS)
    assert [int(dyn[j, K.D_AIL + K.A_STUN]) for j in range(3)] == [0, 1, 0]
    assert dyn[3, K.D_POOL] == 4 and cc[3, K.K_TUSE] == 1 and cc[3, K.K_ATTACKS] == 0


def test_blood_rain_takes_the_side_of_the_line_with_more_targets():
    """Blood Rain (4.1 L1962, a straight line within its attack range, 3): on positions her
    own position and up to 3 on one side; upward (Bea 1 away, Cara 3 away) holds two,
    downward (Akari 2 away) one: the line goes up, Bea fails and Bleeds, Cara resists."""
    g = {"policy": {**MB41_NOCAP, "movement": "hold"}}
    inp, dyn, cc = arena([girl("Akari", **g), girl("Bea", **g), girl("Cara", **g)], [lurker(["Blood Rain"])],
                         places=[0, 3, 5, 2], rules={"positions": 6})
    turn(inp, dyn, cc, i=3, check=SCREAM + FAILS + RESISTS)
    assert [int(dyn[j, K.D_AIL + K.A_BLEED]) for j in range(3)] == [0, 1, 0]
    assert dyn[3, K.D_POOL] == 4


@pytest.mark.parametrize("positions", [4, 0])
def test_ambush_turn_on_positions(positions):
    """Ambush Tactics (4.1 L2006) on positions: Lurker one position from Akari makes its
    ambush attack before round 1 at +3 with the form the distance allows (ranged, 1d6 +
    1d6: 1 + 4), then goes first in round 1 (ranged 2); Akari's attack misses. Gridless
    (``positions: 0``) the same dice are melee hits (+2 each)."""
    from helpers import mb41_fight

    at = (lambda p: {"position": p}) if positions else (lambda p: {})
    a = girl("Akari", policy={**MB41_NOCAP, "movement": "hold"}, **at(1))
    m = lurker(["Ambush Tactics"], **at(2))
    rules = {"positions": positions, "round_cap": 1, "initiative": "listed"}
    inp, dyn, cc = arena([a], [m], places=None, rules=rules)
    check = (faces(2, 2, 2, 2)     # ambush: 4 + 3 + 3 = 10 vs 4 + 4 = 8
             + faces(3, 3, 1, 1)   # round 1, Lurker first: 6 + 3 = 9 vs 2 + 4 = 6
             + faces(1, 1, 3, 3))  # Akari: 2 + 4 = 6 vs 6 + 3 = 9
    s = Script(check=check, damage=faces(1, 4) + faces(2))
    outcome, rounds = mb41_fight(inp, dyn, s.streams, cc)
    s.assert_consumed()
    melee = 0 if positions else 2
    assert dyn[0, K.D_RES] == 18 - (1 + 4 + melee) - (2 + melee)
    assert cc[1, K.K_ATTACKS] == 2 and (outcome, rounds) == (K.F_DRAW, 1)
    if positions:
        assert dyn[0, K.D_PLACE] == 0 and dyn[1, K.D_PLACE] == 1


# ------------------------------------------------------------------ Healing Wave (DRAFT L211-215)


@pytest.mark.parametrize("positions", [4, 0])
def test_healing_wave_heals_her_and_the_allies_within_one_position(positions):
    """Healing Wave (DRAFT L211-215, Major, 1 Support overcharge, 2/Scene): she and every
    ally within 0-1 positions regain 1d6 + 1, one roll each, when at least two of them are
    below half. Pia at 0: herself (full, 1 + 1), Akari at 0 (5 + 2 + 1) and Bea at 1
    (5 + 3 + 1); Cara at 2 is out of range. Gridless every ally is in range (Cara 5 + 4 + 1)."""
    hold = {"policy": {**MB41_NOCAP, "movement": "hold"}}
    team = [girl("Pia", talents=["Healing Wave"], **hold), girl("Akari", **hold), girl("Bea", **hold),
            girl("Cara", **hold)]
    places = [0, 0, 1, 2, 3] if positions else None   # gridless nobody has a position
    inp, dyn, cc = arena(team, [foe(**hold)], places=places, rules={"positions": positions})
    for j in (1, 2, 3):
        dyn[j, K.D_RES] = 5
    turn(inp, dyn, cc, i=0, damage=faces(1, 2, 3) + (faces(4) if positions == 0 else []))
    assert [int(dyn[j, K.D_RES]) for j in range(4)] == [18, 8, 9, 10 if positions == 0 else 5]
    assert dyn[0, K.D_OC + JUDGMENT] == 1 and dyn[0, K.D_TUSES] == 1 and cc[0, K.K_ATTACKS] == 0
