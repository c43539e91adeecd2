"""Scripted-dice tests of talent ranges on the hex grid and of the labyrinth features
(sim/systems/mb41/battle_grid.py; seed 000 L2126-2166, audit 1.15 item 67, rows 93-102,
A44; ranges from the catalog's ``range_hexes``).

The battlefield is an 8 x 8 rectangle, cells ``[col, row]`` (odd rows shifted
right); in column 3, rows 4 -> 3 / 2 / 1 / 0 are 1 / 2 / 3 / 4 hexes apart
(tests/test_mb41_battle_grid.py checks this). Every script must be consumed
exactly. Policies ``movement: hold`` keep turns to the talent under test.
"""
from __future__ import annotations

import numpy as np
import pytest

from helpers import Script, faces, mb41_call, mb41_data, mb41_inputs, mb41_member, mb41_state
from helpers import grid_apart as apart, grid_arena as arena, grid_run as call, grid_turn as turn, grid_where as where
from sim.scenario import ScenarioError
from engine41 import BG
from sim.systems.mb41 import grid as G
from engine41 import K
from sim.systems.mb41 import world

HOLD = {"boost": "never", "movement": "hold"}
MISS = faces(1, 1, 3, 3)   # Akari (attack 4) 1+1+4 = 6 against Shade (defence 3) 3+3+3 = 9


def place(inp, dyn, bf, cells):
    """Put every combatant ``i`` on ``cells[i]`` (``[col, row]``) at once."""
    for i, (c, r) in enumerate(cells):
        dyn[i, K.D_POS] = inp.battlefield.cell_offset(c, r)
    mb41_call(BG.place_all, comb=inp.comb, rules=inp.rules, dyn=dyn, bf=bf)


def girl(name, talents=(), **kw):
    pol = dict(HOLD, heal_below=50)
    pol.update(kw.pop("policy", {}))
    return mb41_member(name, attack=4, defence=4, support=3, talents=["Boost", *talents], policy=pol, **kw)


def foe(name="Shade", talents=(), policy=None, **kw):
    return mb41_member(name, kind="monster", resolve=18, talents=list(talents), policy={**HOLD, **(policy or {})},
                       **kw)


# ------------------------------------------------------------------ talent ranges on the grid


@pytest.mark.parametrize("row, dist, heals", [(4, 3, True), (3, 4, False)])
def test_heal_reaches_three_hexes(row, dist, heals):
    """Heal (L1602, range self or ally 1-3): Chika heals Akari 1d6+1 at 3 hexes, not at 4
    (then nobody is in reach and she holds: no dice)."""
    inp, dyn, cc, bf = arena([girl("Chika", ["Heal"]), girl("Akari")], [foe()])
    place(inp, dyn, bf, [(3, 7), (3, row), (7, 0)])
    assert apart(inp, dyn, 0, 1) == dist
    dyn[1, K.D_RES] = 5
    turn(inp, dyn, cc, bf, 0, damage=faces(4) if heals else [])
    assert dyn[1, K.D_RES] == (5 + 5 if heals else 5)
    assert cc[0, K.K_HEALED] == (5 if heals else 0)


def test_unlimited_talent_ranges_heal_across_the_field():
    """Rule talent_ranges: unlimited: the grid's heal reaches any distance (as gridless)."""
    inp, dyn, cc, bf = arena([girl("Chika", ["Heal"]), girl("Akari")], [foe()], rules={"talent_ranges": "unlimited"})
    place(inp, dyn, bf, [(3, 7), (3, 0), (7, 0)])
    dyn[1, K.D_RES] = 5
    turn(inp, dyn, cc, bf, 0, damage=faces(4))
    assert dyn[1, K.D_RES] == 10


def test_heal_picks_the_hurt_ally_in_range():
    """Two hurt allies: the lower one is out of range, so the other is healed."""
    inp, dyn, cc, bf = arena([girl("Chika", ["Heal"]), girl("Akari"), girl("Beni")], [foe()])
    place(inp, dyn, bf, [(3, 7), (3, 1), (3, 5), (7, 0)])
    dyn[1, K.D_RES] = 2
    dyn[2, K.D_RES] = 6
    turn(inp, dyn, cc, bf, 0, damage=faces(1))
    assert dyn[1, K.D_RES] == 2 and dyn[2, K.D_RES] == 8


def test_wraparound_carries_talent_ranges():
    """Wraparound (L2166: 'the same is true for ... the range of any abilities'): across
    the seam of a wrapped field the far column is adjacent; the heal reaches."""
    wrapped = {"width": 8, "height": 8, "wrap": True}
    inp, dyn, cc, bf = arena([girl("Chika", ["Heal"]), girl("Akari")], [foe()], battlefield=wrapped)
    place(inp, dyn, bf, [(0, 4), (7, 4), (3, 0)])
    assert apart(inp, dyn, 0, 1) == 1
    dyn[1, K.D_RES] = 5
    turn(inp, dyn, cc, bf, 0, damage=faces(2))
    assert dyn[1, K.D_RES] == 8
    inp, dyn, cc, bf = arena([girl("Chika", ["Heal"]), girl("Akari")], [foe()])
    place(inp, dyn, bf, [(0, 4), (7, 4), (3, 0)])
    assert apart(inp, dyn, 0, 1) == 7
    dyn[1, K.D_RES] = 5
    turn(inp, dyn, cc, bf, 0)
    assert dyn[1, K.D_RES] == 5


@pytest.mark.parametrize("row, dist, cursed", [(1, 3, True), (0, 4, False)])
def test_curse_reaches_one_to_three(row, dist, cursed):
    """Curse (L1728, enemy 1-3): an ailment on the policy's target in range, none beyond
    (within 3 she also attacks it at range: a miss, 1+1+4 against 3+3+3)."""
    inp, dyn, cc, bf = arena([girl("Akari", ["Curse"])], [foe()])
    place(inp, dyn, bf, [(3, 4), (3, row)])
    assert apart(inp, dyn, 0, 1) == dist
    turn(inp, dyn, cc, bf, 0, check=MISS if cursed else [])
    assert bool(dyn[1, K.D_AIL:K.D_AIL + 3].sum() == 1) is cursed


def test_curse_picks_the_enemy_in_range():
    """Two enemies: the policy's pick (weakest) is out of range, the other is cursed."""
    inp, dyn, cc, bf = arena([girl("Akari", ["Curse"])], [foe("Near"), foe("Far")])
    place(inp, dyn, bf, [(3, 4), (3, 2), (3, 0)])
    dyn[2, K.D_RES] = 3
    turn(inp, dyn, cc, bf, 0, check=MISS)
    assert dyn[1, K.D_AIL:K.D_AIL + 3].sum() == 1 and dyn[2, K.D_AIL:K.D_AIL + 3].sum() == 0


def test_remedy_reaches_two_hexes():
    """Remedy (L1617, self or ally 0-2): Bound is taken off an ally at 2 hexes, not at 3."""
    for row, removed in ((2, True), (1, False)):
        inp, dyn, cc, bf = arena([girl("Chika", ["Remedy"]), girl("Akari")], [foe()])
        place(inp, dyn, bf, [(3, 4), (3, row), (7, 7)])
        dyn[1, K.D_AIL + K.A_BOUND] = 1
        turn(inp, dyn, cc, bf, 0)
        assert bool(dyn[1, K.D_AIL + K.A_BOUND] == 0) is removed


def test_wave_of_courage_only_within_three():
    """Wave of Courage (L1746, she and allies within 3): one die for her, one for the ally at
    2 hexes; the ally at 4 hexes gets nothing (min_low 2: she and the near ally are low)."""
    inp, dyn, cc, bf = arena([girl("Chika", ["Wave of Courage"]), girl("Akari"), girl("Beni")], [foe()])
    place(inp, dyn, bf, [(3, 4), (3, 2), (3, 0), (7, 7)])
    for j in range(3):
        dyn[j, K.D_RES] = 4
    turn(inp, dyn, cc, bf, 0, damage=faces(1, 2))
    assert list(dyn[:3, K.D_RES]) == [6, 7, 4]


def test_deafening_scream_radius_three():
    """Deafening Scream (L1972, radius 3 round itself): only the girl within 3 rolls
    (5+5+3 against her 1+1+3: Stunned); the girl at 4 hexes is untouched (scream_min 1:
    one girl in its area is enough)."""
    inp, dyn, cc, bf = arena([girl("Akari"), girl("Beni")], [foe(talents=["Deafening Scream"],
                                                                   policy={"scream_min": 1})])
    place(inp, dyn, bf, [(3, 1), (3, 0), (3, 4)])
    assert apart(inp, dyn, 2, 0) == 3 and apart(inp, dyn, 2, 1) == 4
    turn(inp, dyn, cc, bf, 2, check=faces(5, 5, 1, 1))
    assert dyn[0, K.D_AIL + K.A_STUN] == 1 and dyn[1, K.D_AIL + K.A_STUN] == 0


def test_deafening_scream_nobody_in_radius_attacks_instead():
    """Nobody within 3: the boss does not scream (no roll); holding, nobody in reach: nothing."""
    inp, dyn, cc, bf = arena([girl("Akari")], [foe(talents=["Deafening Scream"])])
    place(inp, dyn, bf, [(3, 0), (3, 4)])
    turn(inp, dyn, cc, bf, 1)
    assert dyn[0, K.D_AIL + K.A_STUN] == 0 and cc[1, K.K_TUSE] == 0


def test_blood_rain_is_a_line():
    """Blood Rain (L1962, a straight line within its attack range, 3 hexes): the line east
    catches the two girls in a row; the girl off the line does not roll (scream_min 2)."""
    inp, dyn, cc, bf = arena([girl("Akari"), girl("Beni"), girl("Cho")], [foe(talents=["Blood Rain"],
                                                                              policy={"scream_min": 2})])
    place(inp, dyn, bf, [(4, 4), (6, 4), (3, 2), (3, 4)])
    assert apart(inp, dyn, 3, 2) == 2
    turn(inp, dyn, cc, bf, 3, check=faces(5, 5, 1, 1, 1, 1))
    assert dyn[0, K.D_AIL + K.A_BLEED] == 1 and dyn[1, K.D_AIL + K.A_BLEED] == 1
    assert dyn[2, K.D_AIL + K.A_BLEED] == 0


def test_fear_aura_only_adjacent():
    """Fear Aura (L2031, enemies in its melee range): -2 to the adjacent girl only; it
    follows the monster's moves and ends with it."""
    inp, dyn, cc, bf = arena([girl("Akari"), girl("Beni")], [foe(talents=["Fear Aura"])])
    place(inp, dyn, bf, [(3, 3), (3, 1), (3, 4)])
    mb41_call(BG.refresh_fear, comb=inp.comb, rules=inp.rules, dyn=dyn, bf=bf)
    assert dyn[0, K.D_FEAR] == 2 and dyn[1, K.D_FEAR] == 0
    place(inp, dyn, bf, [(3, 3), (3, 1), (3, 2)])
    mb41_call(BG.refresh_fear, comb=inp.comb, rules=inp.rules, dyn=dyn, bf=bf)
    assert dyn[0, K.D_FEAR] == 2 and dyn[1, K.D_FEAR] == 2
    dyn[2, K.D_DEAD] = 1
    mb41_call(BG.refresh_fear, comb=inp.comb, rules=inp.rules, dyn=dyn, bf=bf)
    assert dyn[0, K.D_FEAR] == 0 and dyn[1, K.D_FEAR] == 0


def test_reflector_goes_to_an_ally_in_range():
    """Reflector (L1528, ally 1-3): after her hit the ally lowest in Resolve share within
    3 hexes bears it; the lower ally 5 hexes away does not."""
    inp, dyn, cc, bf = arena([girl("Kiku", ["Reflector"]), girl("Akari"), girl("Beni")], [foe()])
    place(inp, dyn, bf, [(3, 4), (3, 6), (7, 7), (3, 3)])
    assert apart(inp, dyn, 0, 1) <= 3 and apart(inp, dyn, 0, 2) > 3
    dyn[1, K.D_RES] = 10
    dyn[2, K.D_RES] = 2
    turn(inp, dyn, cc, bf, 0, check=faces(5, 5, 1, 1), damage=faces(1))
    assert dyn[1, K.D_REFLECT_BY] == 0 and dyn[2, K.D_REFLECT_BY] == -1


# ------------------------------------------------------------------ labyrinth features (L2126-2166)


def lab_field(**lab):
    return {"width": 8, "height": 8, "labyrinth": lab}


def end_round(inp, dyn, cc, bf, r, **script):
    return call(BG.end_of_round, inp, dyn, cc, bf, Script(**script), r=r)


def test_alternating_damage_cycles_sets_and_exempts_the_side():
    """Alternating Damage (L2128-2130): round 1 the first set deals 3, round 2 the second,
    round 3 the first again; the boss's side (exempt: side) takes none."""
    field = lab_field(owner="Shade", alternating_damage={"sets": [[[1, 1], [5, 5]], [[2, 2]]], "exempt": "side"})
    inp, dyn, cc, bf = arena([girl("Akari"), girl("Beni")], [foe()], battlefield=field)
    place(inp, dyn, bf, [(1, 1), (2, 2), (5, 5)])
    assert end_round(inp, dyn, cc, bf, 1) == -1
    assert list(dyn[:, K.D_RES]) == [15, 18, 18]
    end_round(inp, dyn, cc, bf, 2)
    assert list(dyn[:, K.D_RES]) == [15, 15, 18]
    end_round(inp, dyn, cc, bf, 3)
    assert list(dyn[:, K.D_RES]) == [12, 15, 18]
    assert cc[0, K.K_LAB_DMG] == 6 and cc[0, K.K_TAKEN] == 6


def test_alternating_damage_without_exemption_hits_monsters():
    field = lab_field(alternating_damage={"damage": 4, "sets": [[[5, 5]]]})
    inp, dyn, cc, bf = arena([girl("Akari")], [foe()], battlefield=field)
    place(inp, dyn, bf, [(1, 1), (5, 5)])
    end_round(inp, dyn, cc, bf, 1)
    assert dyn[1, K.D_RES] == 14 and dyn[0, K.D_RES] == 18


def test_current_pushes_everyone_one_hex():
    """Current (L2132): one hex east at the end of the round; the girl behind her moves
    too (a later pass); the one against an obstacle stays; the exempt owner stays."""
    field = lab_field(owner="Shade", current={"direction": "E", "exempt": "owner"})
    field["obstacles"] = [[6, 6]]
    inp, dyn, cc, bf = arena([girl("Akari"), girl("Beni"), girl("Cho")], [foe()], battlefield=field)
    place(inp, dyn, bf, [(2, 3), (1, 3), (5, 6), (4, 0)])
    end_round(inp, dyn, cc, bf, 1)
    assert where(inp, dyn, 0) == [3, 3] and where(inp, dyn, 1) == [2, 3]
    assert where(inp, dyn, 2) == [5, 6] and where(inp, dyn, 3) == [4, 0]
    assert cc[0, K.K_LAB_MOVES] == 1 and cc[2, K.K_LAB_MOVES] == 0 and cc[0, K.K_MOVES] == 0


def test_current_toward_the_owner():
    """toward: owner, the current moves with the monster: one hex closer to it."""
    field = lab_field(owner="Shade", current={"toward": "owner", "exempt": "owner"})
    inp, dyn, cc, bf = arena([girl("Akari")], [foe()], battlefield=field)
    place(inp, dyn, bf, [(3, 0), (3, 4)])
    end_round(inp, dyn, cc, bf, 1)
    assert apart(inp, dyn, 0, 1) == 3
    dyn[1, K.D_DEAD] = 1  # it ends with the monster
    end_round(inp, dyn, cc, bf, 2)
    assert cc[0, K.K_LAB_MOVES] == 1


def test_current_toward_a_hex():
    field = lab_field(current={"toward": [0, 0]})
    inp, dyn, cc, bf = arena([girl("Akari")], [foe()], battlefield=field)
    place(inp, dyn, bf, [(0, 2), (7, 7)])
    end_round(inp, dyn, cc, bf, 1)
    assert inp.battlefield.distance(int(dyn[0, K.D_POS]), inp.battlefield.cell_offset(0, 0)) == 1


DOORS = lab_field(escher_doors={"pairs": [[[0, 7], [7, 0]], [[0, 0], [7, 7]]]})


@pytest.mark.parametrize("face, exit_", [(1, [7, 0]), (5, [7, 0]), (6, [7, 7])])
def test_escher_door_exits(face, exit_):
    """Escher Doors (L2135-2137): 1-5 the paired door; 6 the door of her choice (the one
    nearest her goal, here [7, 7] next to the foe at [6, 7])."""
    inp, dyn, cc, bf = arena([girl("Akari")], [foe()], battlefield=DOORS)
    place(inp, dyn, bf, [(0, 7), (6, 7)])
    goal = int(dyn[1, K.D_POS])
    call(BG.use_door, inp, dyn, cc, bf, Script(check=[face - 1]), i=0, goal=goal, lo=1, hi=1)
    assert where(inp, dyn, 0) == exit_ and cc[0, K.K_DOORS] == 1


def test_escher_door_exit_taken_comes_out_next_to_it():
    inp, dyn, cc, bf = arena([girl("Akari")], [foe()], battlefield=DOORS)
    place(inp, dyn, bf, [(0, 7), (7, 0)])
    call(BG.use_door, inp, dyn, cc, bf, Script(check=[0]), i=0, goal=int(dyn[1, K.D_POS]), lo=1, hi=1)
    assert apart(inp, dyn, 0, 1) == 1


@pytest.mark.parametrize("ayec, held", [(faces(5, 5, 1, 1), True), (faces(1, 1, 5, 5), False)])
def test_and_your_enemies_closer_on_an_escher_door(ayec, held):
    """The Shade on the door at [0, 7] enters it (1d6 = 1: the paired door [7, 0]); Akari
    beside it holds And Your Enemies Closer (L1522-1526): Support vs Support, she first:
    13 vs 5 holds it on its hex (the action used, L1526); 5 vs 13 lets it through."""
    inp, dyn, cc, bf = arena([girl("Akari", ["And Your Enemies Closer"], overcharge={"heart": 0})],
                             [foe(damage_bonus=0, overcharge_pool=5)], battlefield=DOORS)
    place(inp, dyn, bf, [(1, 7), (0, 7)])
    call(BG.use_door, inp, dyn, cc, bf, Script(check=[0] + ayec), i=1, goal=int(dyn[0, K.D_POS]), lo=1, hi=1)
    assert where(inp, dyn, 1) == ([0, 7] if held else [7, 0]) and cc[1, K.K_DOORS] == 1
    assert cc[0, K.K_HELD] == (1 if held else 0) and cc[0, K.K_TUSE] == 1


def test_a_girl_on_a_door_takes_it_as_her_minor():
    """On a door whose partner is next to her target, the policy enters it (Minor, 1d6 = 2)
    and comes out next to the foe; then her Major attacks (a miss)."""
    inp, dyn, cc, bf = arena([girl("Akari", policy={"movement": "close-in"})], [foe()], battlefield=DOORS)
    place(inp, dyn, bf, [(0, 7), (6, 0)])
    turn(inp, dyn, cc, bf, 0, check=[1] + faces(1, 1, 5, 5))
    assert cc[0, K.K_DOORS] == 1 and apart(inp, dyn, 0, 1) == 1 and cc[0, K.K_ATTACKS] == 1


def test_a_door_that_leads_away_is_not_taken():
    inp, dyn, cc, bf = arena([girl("Akari", policy={"movement": "close-in"})], [foe()], battlefield=DOORS)
    place(inp, dyn, bf, [(0, 7), (3, 2)])
    turn(inp, dyn, cc, bf, 0)
    assert cc[0, K.K_DOORS] == 0 and cc[0, K.K_MOVES] == 2


PEND = lab_field(owner="Shade", pendulum={"trajectory": [[1, 3], [2, 3], [3, 3], [4, 3]], "length": 1})


def test_pendulum_swings_roughens_and_attacks():
    """Pendulum (L2143-2144): at the end of round 1 it moves from [1, 3] to [2, 3], which
    becomes rough, and attacks the girl there with Shade's Attack (3): 5+5+3 = 13 against
    1+1+4 = 6 hits for 1d6 = 4."""
    inp, dyn, cc, bf = arena([girl("Akari")], [foe()], battlefield=PEND)
    place(inp, dyn, bf, [(2, 3), (7, 7)])
    end_round(inp, dyn, cc, bf, 1, check=faces(5, 5, 1, 1), damage=faces(4))
    cell = inp.battlefield.cell_offset(2, 3)
    assert bf[BG.BF_TERRAIN][cell] & G.ROUGH and not inp.battlefield.terrain[cell] & G.ROUGH
    assert dyn[0, K.D_RES] == 14 and cc[0, K.K_LAB_DMG] == 4 and cc[0, K.K_PENDULUM] == 1


def test_pendulum_miss_and_bounce():
    """A miss deals nothing (no damage die); the pendulum goes to the end and swings back;
    a new fight (place_all) resets it and the terrain."""
    inp, dyn, cc, bf = arena([girl("Akari")], [foe()], battlefield=PEND)
    place(inp, dyn, bf, [(2, 3), (7, 7)])
    end_round(inp, dyn, cc, bf, 1, check=faces(1, 1, 5, 5))
    assert dyn[0, K.D_RES] == 18
    for r in (2, 3):
        end_round(inp, dyn, cc, bf, r)
    assert bf[BG.BF_LST][BG.LST_PEND] == 3
    end_round(inp, dyn, cc, bf, 4)  # back to [3, 3]
    assert bf[BG.BF_LST][BG.LST_PEND] == 2
    end_round(inp, dyn, cc, bf, 5, check=faces(1, 1, 5, 5))  # [2, 3] again: attacks her
    mb41_call(BG.place_all, comb=inp.comb, rules=inp.rules, dyn=dyn, bf=bf)
    assert bf[BG.BF_LST][BG.LST_PEND] == 0 and not bf[BG.BF_TERRAIN][inp.battlefield.cell_offset(2, 3)] & G.ROUGH


def test_pendulum_two_hexes_long_picks_a_random_character():
    field = lab_field(owner="Shade", pendulum={"trajectory": [[1, 3], [2, 3], [3, 3], [4, 3]], "length": 2})
    inp, dyn, cc, bf = arena([girl("Akari"), girl("Beni")], [foe()], battlefield=field)
    place(inp, dyn, bf, [(3, 3), (4, 3), (7, 7)])
    end_round(inp, dyn, cc, bf, 1, check=[1] + faces(5, 5, 1, 1), damage=faces(2))
    assert dyn[0, K.D_RES] == 18 and dyn[1, K.D_RES] == 16


def test_pendulum_every_turn_option():
    """pendulum_moves: turn (A44b): it moves after every turn, not at the round's end."""
    inp, dyn, cc, bf = arena([girl("Akari")], [foe()], rules={"pendulum_moves": "turn"}, battlefield=PEND)
    place(inp, dyn, bf, [(6, 6), (7, 7)])
    end_round(inp, dyn, cc, bf, 1)
    assert bf[BG.BF_LST][BG.LST_PEND] == 0
    call(BG.after_turn, inp, dyn, cc, bf)
    assert bf[BG.BF_LST][BG.LST_PEND] == 1


@pytest.mark.parametrize("dice, moved, hurt", [((4, 5), True, 2), ((1, 1), False, 2), ((6, 5, 3), True, 0)])
def test_perilous_terrain_needs_reckless_movement(dice, moved, hurt):
    """Perilous Terrain (L2146): leaving takes the Minor and Reckless Movement (2d6! +
    Support 3), even for a policy that never goes reckless."""
    field = lab_field(perilous=[[3, 4]])
    inp, dyn, cc, bf = arena([girl("Akari", policy={"movement": "close-in", "reckless": False})], [foe()],
                             battlefield=field)
    place(inp, dyn, bf, [(3, 4), (3, 0)])
    goal = int(dyn[1, K.D_POS])
    used = call(BG.minor_move, inp, dyn, cc, bf, Script(check=faces(*dice)), i=0, goal=goal, lo=1, hi=1,
                unlocked=False, deep=2)
    assert used and cc[0, K.K_RECKLESS] == 1 and cc[0, K.K_MOVES] == int(moved)
    assert dyn[0, K.D_RES] == 18 - hurt


def test_perilous_terrain_with_the_major():
    """Nobody in reach: the Major leaves the perilous hex as a Reckless Movement too (one roll)."""
    field = lab_field(perilous=[[3, 4]])
    inp, dyn, cc, bf = arena([girl("Akari", policy={"movement": "close-in"})], [foe()], battlefield=field)
    place(inp, dyn, bf, [(3, 4), (3, 0)])
    turn(inp, dyn, cc, bf, 0, check=faces(1, 1) + faces(5, 5))
    assert cc[0, K.K_RECKLESS] == 2 and cc[0, K.K_MOVES] == 1


# ------------------------------------------------------------------ the battlefield block


@pytest.mark.parametrize("lab, msg", [
    ({"current": {"direction": "E", "toward": [1, 1]}}, "exactly one of"),
    ({"escher_doors": {"pairs": [[[2, 2], [2, 2]]]}}, "cannot lead to itself"),
    ({"escher_doors": {"pairs": [[[1, 1], [9, 9]]]}}, "is off the"),
    ({"pendulum": {"trajectory": [[1, 1], [3, 1]]}}, "not next to"),
    ({"pendulum": {"trajectory": [[1, 1], [2, 1]], "length": 3}}, "longer than"),
    ({"owner": "Nobody", "perilous": [[1, 1]]}, "not a member name"),
    ({"alternating_damage": {"sets": [[[1, 1]], [[1, 1]]]}}, "one set"),
    ({"perilous": [[1, 1]], "escher_doors": {"pairs": [[[1, 1], [2, 2]]]}}, "Perilous"),
])
def test_labyrinth_block_errors(lab, msg):
    data = mb41_data([girl("Akari")], [foe()], rules={"grid": "hex"})
    data["battlefield"] = {"width": 8, "height": 8, "labyrinth": lab}
    with pytest.raises(ScenarioError, match=msg):
        mb41_inputs(data)


def test_labyrinth_fight_runs_and_counts():
    """A whole fight through ``fight_on`` with every feature: counters move, positions legal."""
    field = lab_field(owner="Shade", alternating_damage={"sets": [[[c, 4] for c in range(8)]]},
                      current={"direction": "W"}, pendulum={"trajectory": [[c, 3] for c in range(8)], "length": 2},
                      escher_doors={"pairs": [[[0, 6], [7, 1]]]}, perilous=[[4, 5]])
    inp, dyn, cc, bf = arena([girl("Akari", policy={"movement": "auto"}),
                              girl("Beni", policy={"movement": "auto"})],
                             [mb41_member("Shade", kind="monster", resolve=30, policy={"boost": "never"})],
                             battlefield=field)
    from sim.rng import STATE_WORDS, seed_stream, stream_key

    key = stream_key(5)
    streams = np.zeros((K.NS, STATE_WORDS), dtype=np.uint64)
    n, cap = inp.n, inp.round_cap
    total = np.zeros_like(cc)
    for trial in range(50):
        for p in range(K.NS):
            seed_stream(streams[p], key, trial, p)
        dyn, cc = mb41_state(inp)
        w = world.pack(inp.comb, inp.rules, dyn, streams, bf, world.new_buffer())
        K.fight_on(np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64), np.zeros((2, 2, cap + 1), dtype=np.int64),
                   np.zeros((n, 2, cap + 1), dtype=np.int64), w)
        total += cc
    assert total[:, K.K_LAB_DMG].sum() > 0 and total[:, K.K_LAB_MOVES].sum() > 0
    assert total[:, K.K_PENDULUM].sum() > 0


def test_a_labyrinth_feature_is_not_a_talent():
    data = mb41_data([girl("Akari", ["Pendulum"])], [foe()], rules={"grid": "hex"})
    data["battlefield"] = {"width": 8, "height": 8}
    with pytest.raises(ScenarioError, match="labyrinth feature, not a talent: set it in battlefield.labyrinth.pendulum"):
        mb41_inputs(data)
