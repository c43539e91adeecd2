"""Belkan System and Mid-Childan System on the hex grid (seed 000 L1669-1678;
audit rows 26-27): Mid-Childan's ranged attack reaches 4 hexes instead of 3,
Belkan System has no ranged attack at all (``C_RANGED_HI``, read through
``D_RANGED_HI`` by :func:`.battle_grid.reach`). Injected dice; every script is
drawn exactly. Without either talent every combatant has both basic attacks on
the grid: melee next to the target, ranged at 2-3 (L1453).
"""
from __future__ import annotations

import pytest
from helpers import faces, grid_run
from helpers import grid_apart as apart, grid_arena as arena, grid_turn as turn
from helpers import grid_place as place, hold_foe as foe, hold_girl as girl

from engine41 import BG
from engine41 import K

HIT = faces(3, 3, 1, 1)        # girl 6 + 4 = 10 vs 2 + 3 = 5


def test_compiled_reach_by_talent():
    inp, dyn, cc, bf = arena([girl(), girl("Bea", talents=["Mid-Childan System"]),
                              girl("Cara", talents=["Belkan System"])], [foe()])
    assert list(inp.comb[:4, K.C_RANGED_HI]) == [3, 4, 0, 3]
    assert list(dyn[:4, K.D_RANGED_HI]) == [3, 4, 0, 3]


@pytest.mark.parametrize("talents, attacks", [((), False), (("Mid-Childan System",), True)])
def test_mid_childan_shoots_four_hexes(talents, attacks):
    """Shade 4 hexes away, Akari holds her ground: with Mid-Childan System her
    ranged attack reaches it (1d6 = 5, no bonus); without, 4 is out of range."""
    inp, dyn, cc, bf = arena([girl(talents=talents, attack_kind="ranged")], [foe()])
    place(inp, dyn, bf, [(3, 5), (3, 1)])
    assert apart(inp, dyn, 0, 1) == 4
    if attacks:
        turn(inp, dyn, cc, bf, 0, check=HIT, damage=faces(5))
        assert dyn[1, K.D_RES] == 18 - 5 and cc[0, K.K_ATTACKS] == 1
    else:
        turn(inp, dyn, cc, bf, 0)
        assert dyn[1, K.D_RES] == 18 and cc[0, K.K_ATTACKS] == 0
    assert apart(inp, dyn, 0, 1) == 4


def test_mid_childan_keeps_range_at_four():
    """keep-range with Mid-Childan System: 2-4 hexes; from 5 one step to 4, then the shot."""
    inp, dyn, cc, bf = arena([girl(talents=["Mid-Childan System"], attack_kind="ranged",
                                   policy={"movement": "keep-range"})], [foe()])
    place(inp, dyn, bf, [(3, 6), (3, 1)])
    assert apart(inp, dyn, 0, 1) == 5
    turn(inp, dyn, cc, bf, 0, check=HIT, damage=faces(2))
    assert apart(inp, dyn, 0, 1) == 4 and dyn[1, K.D_RES] == 18 - 2 and cc[0, K.K_MOVES] == 1


@pytest.mark.parametrize("talents, attacks", [((), True), (("Belkan System",), False)])
def test_belkan_has_no_ranged_attack(talents, attacks):
    """Shade two hexes away, Akari (melee) holds: without Belkan System she shoots
    (ranged 1d6 = 4); with it she has no ranged attack (L1678) and cannot reach."""
    inp, dyn, cc, bf = arena([girl(talents=talents)], [foe()])
    place(inp, dyn, bf, [(3, 3), (3, 1)])
    assert apart(inp, dyn, 0, 1) == 2
    if attacks:
        turn(inp, dyn, cc, bf, 0, check=HIT, damage=faces(4))
        assert dyn[1, K.D_RES] == 18 - 4
    else:
        turn(inp, dyn, cc, bf, 0)
        assert dyn[1, K.D_RES] == 18 and cc[0, K.K_ATTACKS] == 0
    assert grid_run(BG.reach, inp, dyn, cc, bf, i=0, t=1) == (1 if attacks else -1)


def test_belkan_closes_in_even_under_keep_range():
    """keep-range means nothing without a ranged attack: she closes to melee
    (two steps from 3 hexes) and hits (1d6 + 2 melee, then her Belkan bonus is stored)."""
    inp, dyn, cc, bf = arena([girl(talents=["Belkan System"], policy={"movement": "keep-range"})], [foe()])
    place(inp, dyn, bf, [(3, 4), (3, 1)])
    assert apart(inp, dyn, 0, 1) == 3
    turn(inp, dyn, cc, bf, 0)   # the Minor and the Major both move her: no attack this turn
    assert apart(inp, dyn, 0, 1) == 1 and cc[0, K.K_MOVES] == 2
    turn(inp, dyn, cc, bf, 0, check=HIT, damage=faces(3))
    assert dyn[1, K.D_RES] == 18 - (3 + 2) and dyn[0, K.D_BELKAN] == 1


# ------------------------------------------------------------------ Link (L1743-1752: "within 1-3, may include yourself")


@pytest.mark.parametrize("grid", [True, False])
def test_link_links_allies_within_three_hexes(grid):
    """Bea (Link) at [3, 4]; Akari (Heal) next to her and hurt, Cara four hexes
    away and the most hurt. On the grid Cara is out of Link's 1-3: Bea links
    Akari (primary) and herself (secondary); gridless Cara and Akari."""
    inp, dyn, cc, bf = arena([girl("Akari", talents=["Heal"]), girl("Bea", talents=["Link"]), girl("Cara")],
                             [foe()])
    place(inp, dyn, bf, [(3, 5), (3, 4), (3, 0), (7, 7)])
    assert apart(inp, dyn, 1, 2) == 4 and apart(inp, dyn, 0, 1) == 1
    dyn[0, K.D_RES] = 9
    dyn[2, K.D_RES] = 5
    assert grid_run(K.try_link, inp, dyn, cc, bf if grid else None, i=1)
    if grid:
        assert dyn[0, K.D_LINK_TO] == 1 and dyn[1, K.D_LINKED] == 0 and dyn[2, K.D_LINK_TO] == -1
    else:
        assert dyn[2, K.D_LINK_TO] == 0 and dyn[1, K.D_LINKED] == 2
