"""Scripted-dice tests of the mb41 hex battlefield (``grid: hex``, sim/systems/mb41/battle_grid.py).

Seed 000 lines: actions L1410-1412, rough terrain L1414, Reckless Movement
L1416, ranges L1453, Bound L1463, Intercept L1469; audit ids A13-A15, A23,
A25v, A26. Every script must be consumed exactly (no die too many or too few).

The battlefield is an 8 x 8 rectangle, cells ``[col, row]`` (odd rows shifted
right): in column 3, rows 4 -> 3 / 2 / 1 / 0 are 1 / 2 / 3 / 4 hexes apart.
Combatants: Akari (attack 4, defence 4, support 3) and her allies against
Shade (3/3/3); listed order; no Boost.
"""
from __future__ import annotations

import numpy as np
import pytest

from helpers import Script, faces, mb41_call, mb41_data, mb41_inputs, mb41_member, mb41_state
from helpers import grid_apart as apart, grid_arena as arena, grid_put as put, grid_run as call
from helpers import grid_turn as turn, grid_where as where
from sim.scenario import ScenarioError
from engine41 import BG
from sim.systems.mb41 import grid as G
from engine41 import K

HEART, FURY, JUDGMENT = 0, 1, 2
MISS = faces(1, 1, 3, 3)   # Akari 1+1+4 = 6 against Shade 3+3+3 = 9


def akari(**kw):
    return mb41_member("Akari", attack=4, defence=4, support=3, **kw)


def duel(a=None, b=None, rules=None, at=((3, 4), (3, 2)), battlefield=None):
    inp, dyn, cc, bf = arena([akari(**(a or {}))], [mb41_member("Shade", **(b or {}))], rules, battlefield)
    put(inp, dyn, bf, 0, *at[0])
    put(inp, dyn, bf, 1, *at[1])
    return inp, dyn, cc, bf


# ------------------------------------------------------------------ geometry of the test field


def test_the_column_distances_used_below():
    inp, dyn, cc, bf = duel()
    for row, d in ((3, 1), (2, 2), (1, 3), (0, 4)):
        put(inp, dyn, bf, 1, 3, row)
        assert apart(inp, dyn, 0, 1) == d


def test_deployment_and_positions():
    """Sides deploy on opposite edges (side 0 at the bottom); a position wins."""
    inp, dyn, cc, bf = arena([akari(), mb41_member("Beni", position=[0, 0])], [mb41_member("Shade")])
    assert where(inp, dyn, 0)[1] == 7 and where(inp, dyn, 1) == [0, 0] and where(inp, dyn, 2)[1] == 0
    assert inp.comb[0, K.C_CELL] == dyn[0, K.D_POS]


# ------------------------------------------------------------------ moving costs the Minor (L1410-1412)


def test_a_move_is_the_minor_then_the_major_attacks():
    """Two hexes apart: one hex with the Minor, then a melee attack (Major):
    5+4+4 = 13 against 1+2+3 = 6, damage 3 + 2 (melee)."""
    inp, dyn, cc, bf = duel()
    turn(inp, dyn, cc, bf, 0, check=faces(5, 4, 1, 2), damage=faces(3))
    assert cc[0, K.K_MOVES] == 1 and apart(inp, dyn, 0, 1) == 1
    assert cc[0, K.K_ATTACKS] == 1 and dyn[1, K.D_RES] == 18 - 5


def test_out_of_range_she_moves_twice_and_does_not_attack():
    """Major + Minor both move (L1410): 6 hexes -> 4, no dice."""
    inp, dyn, cc, bf = duel(at=((3, 6), (3, 0)))
    assert apart(inp, dyn, 0, 1) == 6
    turn(inp, dyn, cc, bf, 0)
    assert cc[0, K.K_MOVES] == 2 and apart(inp, dyn, 0, 1) == 4 and cc[0, K.K_ATTACKS] == 0


def test_obstacles_are_walked_round():
    """A wall of obstacles between them: the path goes round it, never onto it."""
    wall = [[c, 3] for c in range(1, 8)]
    inp, dyn, cc, bf = duel(at=((3, 5), (3, 1)), battlefield={"width": 8, "height": 8, "obstacles": wall})
    path = []
    for _ in range(10):
        s = Script(check=MISS * 2)  # she attacks once she is in range (misses)
        mb41_call(K.take_turn, i=0, comb=inp.comb, pol=inp.pol, rules=inp.rules, dyn=dyn,
                  streams=s.streams, cc=cc, bf=bf)
        path.append(int(dyn[0, K.D_POS]))
        assert not inp.battlefield.terrain[dyn[0, K.D_POS]] & G.OBSTACLE
    assert apart(inp, dyn, 0, 1) == 1 and cc[0, K.K_ATTACKS] >= 1


# ------------------------------------------------------------------ ranges (L1453, A23a)


@pytest.mark.parametrize("row, dist, bonus", [(3, 1, 2), (2, 2, 0), (1, 3, 0)])
@pytest.mark.parametrize("kind", ["melee", "ranged"])
def test_melee_adjacent_ranged_two_to_three(row, dist, bonus, kind):
    """Holding her hex, she attacks with the form the distance allows:
    adjacent melee 1d6+2, at 2-3 ranged 1d6, whatever her attack_kind."""
    inp, dyn, cc, bf = duel(a={"attack_kind": kind, "policy": {"boost": "never", "movement": "hold"}},
                            at=((3, 4), (3, row)))
    turn(inp, dyn, cc, bf, 0, check=faces(5, 4, 1, 2), damage=faces(3))
    assert dyn[1, K.D_RES] == 18 - 3 - bonus and cc[0, K.K_MOVES] == 0


def test_out_of_range_nothing_happens_when_holding():
    inp, dyn, cc, bf = duel(a={"policy": {"boost": "never", "movement": "hold"}}, at=((3, 4), (3, 0)))
    turn(inp, dyn, cc, bf, 0)
    assert cc[0, K.K_ATTACKS] == 0 and cc[0, K.K_MOVES] == 0


def test_monster_ranged_attack_keeps_its_damage_bonus():
    """A23a: monsters have both attacks; the damage bonus adds to either."""
    inp, dyn, cc, bf = duel(b={"kind": "monster", "resolve": 30, "damage_bonus": 3,
                               "policy": {"boost": "never", "movement": "hold"}}, at=((3, 4), (3, 2)))
    turn(inp, dyn, cc, bf, 1, check=faces(5, 4, 1, 2), damage=faces(3))
    assert dyn[0, K.D_RES] == 18 - 3 - 3


def test_melee_girl_steps_in_then_shoots_when_she_cannot_reach():
    """Three hexes: one step leaves her two away, so she attacks ranged (1d6)."""
    inp, dyn, cc, bf = duel(at=((3, 4), (3, 1)))
    turn(inp, dyn, cc, bf, 0, check=faces(5, 4, 1, 2), damage=faces(3))
    assert cc[0, K.K_MOVES] == 1 and apart(inp, dyn, 0, 1) == 2 and dyn[1, K.D_RES] == 15


def test_keep_range_girl_engaged_attacks_in_melee():
    """Leaving an enemy's side needs Disengage (a Major): without Reckless
    Movement she stays and attacks in melee."""
    inp, dyn, cc, bf = duel(a={"attack_kind": "ranged"}, at=((3, 4), (3, 3)))
    turn(inp, dyn, cc, bf, 0, check=faces(5, 4, 1, 2), damage=faces(3))
    assert cc[0, K.K_MOVES] == 0 and dyn[1, K.D_RES] == 18 - 5


def test_nearest_targeting():
    inp, dyn, cc, bf = arena([akari(policy={"boost": "never", "name": "nearest", "movement": "hold"})],
                             [mb41_member("Far", resolve=3), mb41_member("Near")])
    put(inp, dyn, bf, 0, 3, 4)
    put(inp, dyn, bf, 1, 3, 1)
    put(inp, dyn, bf, 2, 3, 2)
    turn(inp, dyn, cc, bf, 0, check=faces(5, 4, 1, 2), damage=faces(3))
    assert dyn[2, K.D_RES] == 15 and dyn[1, K.D_RES] == 3


# ------------------------------------------------------------------ Disengage (L1412, A14)


def _bodyguard(rules=None):
    """Akari protects Beni (hurt, 4 hexes away) while Shade stands next to her."""
    inp, dyn, cc, bf = arena([akari(policy={"boost": "never", "movement": "protect-ally"}), mb41_member("Beni")],
                             [mb41_member("Shade")], rules)
    put(inp, dyn, bf, 0, 3, 4)
    put(inp, dyn, bf, 1, 3, 0)
    put(inp, dyn, bf, 2, 3, 5)
    dyn[1, K.D_RES] = 5
    return inp, dyn, cc, bf


def test_engaged_she_cannot_leave_with_the_minor():
    inp, dyn, cc, bf = _bodyguard()
    goal = int(dyn[1, K.D_POS])
    assert not call(BG.minor_move, inp, dyn, cc, bf, i=0, goal=goal, lo=1, hi=1, unlocked=False, deep=1)
    assert cc[0, K.K_MOVES] == 0 and where(inp, dyn, 0) == [3, 4]


def test_disengage_is_the_major_and_moves_one_hex():
    """A14a: Disengage (Major) moves her 1 hex; then the Minor moves her on."""
    inp, dyn, cc, bf = _bodyguard()
    turn(inp, dyn, cc, bf, 0)
    assert cc[0, K.K_MOVES] == 2 and apart(inp, dyn, 0, 1) == 2 and cc[0, K.K_ATTACKS] == 0


def test_disengage_that_only_unlocks():
    """A14b (disengage: unlocks): the Major lets her leave, the Minor pays the hex."""
    inp, dyn, cc, bf = _bodyguard({"disengage": "unlocks"})
    turn(inp, dyn, cc, bf, 0)
    assert cc[0, K.K_MOVES] == 1 and apart(inp, dyn, 0, 1) == 3


# ------------------------------------------------------------------ Reckless Movement (L1416)


@pytest.mark.parametrize("dice, moved, hurt, oc", [
    (faces(3, 4), False, 2, 0),       # 10: she stays and takes 2
    (faces(4, 4), True, 2, 0),        # 11: she moves and takes 2
    (faces(5, 5), True, 2, 0),        # 13
    (faces(6, 3, 2), True, 0, 1),     # 6+3+2+3 = 14: she moves unhurt; a six = 1 Support overcharge
])
def test_reckless_movement_bands(dice, moved, hurt, oc):
    """A keep-range girl next to Shade leaves by Reckless Movement (Minor),
    then attacks (Major): ranged from 2 hexes if she moved, else melee."""
    inp, dyn, cc, bf = duel(a={"attack_kind": "ranged", "policy": {"boost": "never", "reckless": True}},
                            at=((3, 4), (3, 3)))
    turn(inp, dyn, cc, bf, 0, check=dice + MISS)
    assert apart(inp, dyn, 0, 1) == (2 if moved else 1)
    assert dyn[0, K.D_RES] == 18 - hurt
    assert cc[0, K.K_RECKLESS] == 1 and cc[0, K.K_RECKLESS_DMG] == hurt and cc[0, K.K_MOVES] == int(moved)
    assert dyn[0, K.D_OC + JUDGMENT] == oc     # Support role = judgment
    assert cc[0, K.K_ATTACKS] == 1


def test_reckless_movement_bands_are_options():
    inp, dyn, cc, bf = duel(a={"attack_kind": "ranged", "policy": {"boost": "never", "reckless": True}},
                            at=((3, 4), (3, 3)), rules={"reckless_bands": [11, 12], "reckless_damage": [3, 1]})
    turn(inp, dyn, cc, bf, 0, check=faces(4, 4) + MISS)      # 11: the first band now
    assert apart(inp, dyn, 0, 1) == 1 and dyn[0, K.D_RES] == 15


def test_monster_reckless_sixes_cost_its_pool():
    inp, dyn, cc, bf = duel(b={"kind": "monster", "resolve": 30, "overcharge_pool": 5, "attack_kind": "ranged",
                               "policy": {"boost": "never", "reckless": True}}, at=((3, 4), (3, 3)))
    turn(inp, dyn, cc, bf, 1, check=faces(6, 6, 1, 1) + faces(1, 1, 3, 3))   # 14+3; then a miss
    assert dyn[1, K.D_POOL] == 3 and apart(inp, dyn, 0, 1) == 2


# ------------------------------------------------------------------ rough terrain (L1414, A15)


def test_leaving_rough_terrain_takes_both_actions():
    """A15a: two hexes of movement = the Major and the Minor: one hex a turn (two off rough)."""
    inp, dyn, cc, bf = duel(at=((3, 6), (3, 0)), battlefield={"width": 8, "height": 8, "rough": [[3, 6]]})
    turn(inp, dyn, cc, bf, 0)
    assert cc[0, K.K_MOVES] == 1 and apart(inp, dyn, 0, 1) == 5
    turn(inp, dyn, cc, bf, 0)
    assert cc[0, K.K_MOVES] == 3 and apart(inp, dyn, 0, 1) == 3


@pytest.mark.parametrize("cost", ["same_turn", "split"])
def test_rough_cost_split_over_two_turns(cost):
    """In rough terrain two hexes from Shade she shoots (Major). same_turn: she
    never gets out while she keeps attacking; split: the Minor pays one hex a
    turn, so on the next turn she steps next to Shade and strikes in melee."""
    inp, dyn, cc, bf = duel(rules={"rough_cost": cost}, battlefield={"width": 8, "height": 8, "rough": [[3, 4]]})
    turn(inp, dyn, cc, bf, 0, check=MISS)
    assert cc[0, K.K_MOVES] == 0 and dyn[0, K.D_PAID] == (1 if cost == "split" else 0)
    turn(inp, dyn, cc, bf, 0, check=faces(5, 4, 1, 2), damage=faces(3))
    if cost == "split":
        assert cc[0, K.K_MOVES] == 1 and apart(inp, dyn, 0, 1) == 1 and dyn[1, K.D_RES] == 13
    else:
        assert cc[0, K.K_MOVES] == 0 and dyn[1, K.D_RES] == 15


def test_reckless_movement_leaves_rough_terrain_as_a_minor():
    inp, dyn, cc, bf = duel(a={"policy": {"boost": "never", "reckless": True}}, at=((3, 6), (3, 0)),
                            battlefield={"width": 8, "height": 8, "rough": [[3, 6]]})
    turn(inp, dyn, cc, bf, 0, check=faces(6, 5, 1))           # 15: moves unhurt, then the Major moves too
    assert cc[0, K.K_MOVES] == 2 and cc[0, K.K_RECKLESS] == 1 and dyn[0, K.D_RES] == 18


# ------------------------------------------------------------------ Bound (L1463, A25v)


def test_bound_cannot_move_with_the_minor():
    inp, dyn, cc, bf = duel(at=((3, 6), (3, 0)))
    goal = int(dyn[1, K.D_POS])
    dyn[0, K.D_AIL + K.A_BOUND] = 1
    assert not call(BG.minor_move, inp, dyn, cc, bf, i=0, goal=goal, lo=1, hi=1, unlocked=False, deep=1)
    assert cc[0, K.K_MOVES] == 0
    used, _ = call(BG.major_move, inp, dyn, cc, bf, i=0, goal=goal, lo=1, hi=1, minor=True)
    assert cc[0, K.K_MOVES] == 1 and not used
    dyn[0, K.D_AIL + K.A_BOUND] = 0
    assert call(BG.minor_move, inp, dyn, cc, bf, i=0, goal=goal, lo=1, hi=1, unlocked=False, deep=1)
    assert cc[0, K.K_MOVES] == 2


def test_bound_turn_moves_one_hex_with_the_major():
    """Her Minor goes on the removal roll (3+1+3 = 7 fails), the Major moves her."""
    inp, dyn, cc, bf = duel(at=((3, 6), (3, 0)))
    dyn[0, K.D_AIL + K.A_BOUND] = 1
    turn(inp, dyn, cc, bf, 0, check=faces(3, 1))
    assert cc[0, K.K_MOVES] == 1 and dyn[0, K.D_AIL + K.A_BOUND] == 1


def test_bound_leaves_rough_terrain_only_recklessly():
    """Bound in rough terrain: even Major + Minor cannot take her out (L1463)."""
    inp, dyn, cc, bf = duel(at=((3, 6), (3, 0)), battlefield={"width": 8, "height": 8, "rough": [[3, 6]]})
    goal = int(dyn[1, K.D_POS])
    dyn[0, K.D_AIL + K.A_BOUND] = 1
    used, _ = call(BG.major_move, inp, dyn, cc, bf, i=0, goal=goal, lo=1, hi=1, minor=True)
    assert cc[0, K.K_MOVES] == 0 and not used


def test_bound_enemy_adjacent_is_rough_and_reckless_is_a_major():
    """Next to an enemy a Bound girl can only leave by Reckless Movement, a
    Major action by default (A25v), at -2: 6+5+1+3-2 = 13, she moves and takes 2."""
    inp, dyn, cc, bf = _bodyguard()
    inp.pol[0, K.P_RECKLESS] = 1
    dyn[0, K.D_AIL + K.A_BOUND] = 1
    goal = int(dyn[1, K.D_POS])
    assert not call(BG.minor_move, inp, dyn, cc, bf, i=0, goal=goal, lo=1, hi=1, unlocked=False, deep=1)
    call(BG.major_move, inp, dyn, cc, bf, Script(check=faces(6, 5, 1)), i=0, goal=goal, lo=1, hi=1, minor=False)
    assert cc[0, K.K_MOVES] == 1 and dyn[0, K.D_RES] == 16 and cc[0, K.K_RECKLESS] == 1


def test_bound_reckless_as_a_minor_option():
    inp, dyn, cc, bf = _bodyguard({"bound_reckless": "minor"})
    inp.pol[0, K.P_RECKLESS] = 1
    dyn[0, K.D_AIL + K.A_BOUND] = 1
    goal = int(dyn[1, K.D_POS])
    assert call(BG.minor_move, inp, dyn, cc, bf, Script(check=faces(6, 2, 5)), i=0, goal=goal, lo=1, hi=1,
                unlocked=False, deep=1)
    assert cc[0, K.K_MOVES] == 1 and dyn[0, K.D_RES] == 18


# ------------------------------------------------------------------ Intercept (L1469, A26)

HIT6 = faces(5, 4, 1, 2)   # Akari 13 against Shade 6: a hit


def _cover(policy="always", kuro_at=(4, 3), shade_at=(3, 3), rules=None, kuro=None):
    """Akari (side 0) attacks Shade; Kuro, Shade's ally (defence 3), stands by."""
    inp, dyn, cc, bf = arena([akari()], [mb41_member("Shade"),
                                         mb41_member("Kuro", policy={"boost": "never", "intercept": policy},
                                                     **(kuro or {}))], rules)
    put(inp, dyn, bf, 0, 3, 4)
    put(inp, dyn, bf, 1, *shade_at)
    put(inp, dyn, bf, 2, *kuro_at)
    return inp, dyn, cc, bf


def strike(inp, dyn, cc, bf, check, damage):
    call(BG.grid_attack_call, inp, dyn, cc, bf, Script(check=check, damage=damage), i=0, t=1)


@pytest.mark.parametrize("roll, shade, kuro, heart_oc", [
    (faces(3, 4), 18 - 6, 18, 0),       # 10: fails, Shade takes the 4+2
    (faces(4, 4), 18, 18 - 6, 0),       # 11: Kuro takes it all
    (faces(5, 5), 18, 18 - 6, 0),       # 13
    (faces(6, 4, 1), 18, 18 - 3, 1),    # 14: Kuro takes half (3), Shade none; a Defence six
])
def test_intercept_bands(roll, shade, kuro, heart_oc):
    inp, dyn, cc, bf = _cover()
    strike(inp, dyn, cc, bf, HIT6 + roll, faces(4))
    assert dyn[1, K.D_RES] == shade and dyn[2, K.D_RES] == kuro
    assert dyn[2, K.D_OC + HEART] == heart_oc          # Defence role = heart
    assert cc[2, K.K_INTERCEPTS] == int(kuro < 18) and cc[2, K.K_INTERCEPT_DMG] == 18 - kuro
    assert cc[0, K.K_DEALT] == (18 - shade) + (18 - kuro)
    assert cc[:, K.K_DEALT].sum() == cc[:, K.K_TAKEN].sum()


def test_intercept_half_rounds_down_or_up():
    for half, took in (("down", 3), ("up", 4)):
        inp, dyn, cc, bf = _cover(rules={"intercept_half": half})
        strike(inp, dyn, cc, bf, HIT6 + faces(6, 4, 1), faces(5))     # 5 + 2 = 7
        assert dyn[2, K.D_RES] == 18 - took and dyn[1, K.D_RES] == 18


def test_intercept_bands_option():
    inp, dyn, cc, bf = _cover(rules={"intercept_bands": [11, 12]})
    strike(inp, dyn, cc, bf, HIT6 + faces(4, 4), faces(4))            # 11 now fails
    assert dyn[1, K.D_RES] == 12 and dyn[2, K.D_RES] == 18


def test_protect_below_only_when_the_hit_would_leave_her_low():
    inp, dyn, cc, bf = _cover("protect-below 50")
    strike(inp, dyn, cc, bf, HIT6, faces(4))                          # 18 - 6 = 12 >= 9: no roll
    assert dyn[1, K.D_RES] == 12
    strike(inp, dyn, cc, bf, HIT6 + faces(4, 4), faces(4))            # 12 - 6 = 6 < 9: Kuro steps in
    assert dyn[1, K.D_RES] == 12 and dyn[2, K.D_RES] == 12


def test_no_intercept_from_afar_or_by_the_unwilling():
    inp, dyn, cc, bf = _cover(kuro_at=(6, 0))
    strike(inp, dyn, cc, bf, HIT6, faces(4))
    assert dyn[1, K.D_RES] == 12 and dyn[2, K.D_RES] == 18
    inp, dyn, cc, bf = _cover("never")
    strike(inp, dyn, cc, bf, HIT6, faces(4))
    assert dyn[1, K.D_RES] == 12


def test_intercept_on_the_line_of_a_ranged_attack():
    """Shade 3 hexes off; Kuro on the line between (not next to Shade) intercepts a ranged attack."""
    inp, dyn, cc, bf = _cover(shade_at=(3, 1), kuro_at=(6, 0))
    line = inp.battlefield.line_between(int(dyn[0, K.D_POS]), int(dyn[1, K.D_POS]))
    dyn[2, K.D_POS] = line[1]
    mb41_call(BG.place_all, comb=inp.comb, rules=inp.rules, dyn=dyn, bf=bf)
    assert apart(inp, dyn, 2, 1) == 2
    strike(inp, dyn, cc, bf, HIT6 + faces(4, 4), faces(4))            # ranged: 4, all to Kuro
    assert dyn[1, K.D_RES] == 18 and dyn[2, K.D_RES] == 14


def test_minions_do_not_intercept():
    inp, dyn, cc, bf = _cover(kuro={"kind": "minion", "attack": 3, "hp": 4, "passive_defence": 4,
                                    "resolve": None, "defence": None, "support": None})
    strike(inp, dyn, cc, bf, HIT6, faces(4))
    assert dyn[1, K.D_RES] == 12


# ------------------------------------------------------------------ scenario validation


def _load(**top):
    data = mb41_data([akari()], [mb41_member("Shade")], rules={"grid": "hex"})
    data["battlefield"] = {"width": 4, "height": 4}
    data.update(top)
    return mb41_inputs(data)


@pytest.mark.parametrize("change, expect", [
    (dict(sides=[{"name": "g", "members": [akari(position=[9, 1])]}, {"name": "f", "members": [mb41_member("S")]}]),
     r"sides\[0\].members\[0\] \(Akari\).position \[9, 1\] is off the 4 x 4 battlefield"),
    (dict(sides=[{"name": "g", "members": [akari(position=[1, 1])]},
                 {"name": "f", "members": [mb41_member("S", position=[1, 1])]}]),
     r"Akari already stands there"),
    (dict(battlefield={"width": 4, "height": 4, "obstacles": [[1, 1]]},
          sides=[{"name": "g", "members": [akari(position=[1, 1])]}, {"name": "f", "members": [mb41_member("S")]}]),
     r"is an obstacle"),
    (dict(battlefield={"width": 4, "height": 4, "rough": [[4, 0]]}), r"battlefield.rough\[0\] \[4, 0\] is off"),
    (dict(battlefield={"shape": "hexagon", "width": 4}), r"battlefield.width is for shape: rect"),
    (dict(battlefield={"width": 1, "height": 1}), r"1 member\(s\) to deploy but only 0 free"),
])
def test_validation_errors_name_the_field(change, expect):
    with pytest.raises(ScenarioError, match=expect):
        _load(**change)


def test_position_without_a_grid_is_an_error_and_battlefield_implies_hex():
    data = mb41_data([akari(position=[1, 1])], [mb41_member("Shade")])
    with pytest.raises(ScenarioError, match="needs the hex grid"):
        mb41_inputs(data)
    data = mb41_data([akari()], [mb41_member("Shade")])
    del data["rules"]["grid"]
    data["battlefield"] = {"shape": "hexagon", "radius": 2}
    inp = mb41_inputs(data)
    assert inp.resolved_rules["grid"] == "hex" and inp.battlefield.n == 19
    data["rules"]["grid"] = "none"  # explicit: played gridless, the battlefield noted as unused
    inp = mb41_inputs(data)
    assert inp.battlefield is None and any("battlefield is not used" in n for n in inp.notes)


def test_the_fast_path_is_gridless_only():
    from sim.systems import mb41
    from sim.systems.mb41 import fast as F

    inp = _load()
    assert "no grid (grid none)" in F.eligible(inp)
    with pytest.raises(ValueError, match="no grid"):
        mb41.simulate(inp, 0, 10, 1, fast=True)
    out = mb41.simulate(inp, 0, 500, 1)
    assert out["outcomes"].sum() == 500


def test_positions_reset_every_trial():
    """Trial state starts from the compiled cells (reset copies C_CELL)."""
    inp = _load()
    dyn, cc = mb41_state(inp)
    assert (dyn[:, K.D_POS] == inp.comb[:, K.C_CELL]).all() and (dyn[:, K.D_POS] >= 0).all()
    dyn[:, K.D_POS] = 0
    mb41_call(K.reset, comb=inp.comb, rules=inp.rules, dyn=dyn)
    assert np.array_equal(dyn[:, K.D_POS], inp.comb[:, K.C_CELL])
