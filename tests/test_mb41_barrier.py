"""Create Barrier (seed 000 L1693-1697; catalog row 30; audit A52) on the hex grid and
gridless, with injected dice (sim/systems/mb41/battle_grid.py ``create_barrier``,
``strike_barrier``; kernel.py ``try_barrier``).

"Minor Action, 1 Overcharge (Defence), 1/Episode. Create a magical barrier that has 20
points of Resolve. It blocks movement (except by talents such as bypass), teleportation.
The barrier may be either a straight wall passing through a position adjacent to you or a
circle with a radius of up to three hexes. [...] the characters on the edge of the radius
[...] end up on the inside of the barrier. If there is not enough space to form a circle,
only the straight version can be employed." (L1695-1697)

Cells are ``[col, row]`` (odd rows shifted right). Girls are 4/4/3 (roles: attack = fury,
defence = heart, support = judgment), so the Defence overcharge is her Heart counter.
Monsters are 3/3/3, damage bonus 0, pool 5. Every script must be consumed exactly.
"""
from __future__ import annotations

import numpy as np

from helpers import Script, faces, mb41_call
from helpers import grid_arena as arena, grid_turn as turn, grid_where as where
from helpers import grid_place as place, hold_foe as foe, hold_girl, mb41_run, mb41_setup
from engine41 import BG
from sim.systems.mb41 import grid as G
from engine41 import K

HEART, FURY, JUDGMENT = 0, 1, 2
MISS = faces(1, 1, 3, 3)       # girl 2 + 4 = 6 vs 6 + 3 = 9
M_MISS = faces(1, 1, 3, 3)     # monster 2 + 3 = 5 vs 6 + 4 = 10
BIG = {"width": 12, "height": 12}


def girl(name="Akari", talents=("Create Barrier",), policy=None, **kw):
    return hold_girl(name, talents, policy, **kw)


def raised(inp, bf):
    """The raised barrier hexes as sorted ``[col, row]``."""
    f = inp.battlefield
    return sorted(list(G.axial_to_offset(*f.coords(c))) for c in range(f.n)
                  if bf[BG.BF_TERRAIN][c] & G.RAISED)


def axial(col, row):
    return G.offset_to_axial(col, row)


def hex_apart(a, b):
    """Hex distance between two ``[col, row]`` cells, computed here (not by the kernels)."""
    (q1, r1), (q2, r2) = axial(*a), axial(*b)
    return (abs(q1 - q2) + abs(r1 - r2) + abs(q1 + r1 - q2 - r2)) // 2


def ring_cells(centre, dist, width=12, height=12):
    return sorted([c, r] for r in range(height) for c in range(width) if hex_apart(centre, [c, r]) == dist)


def walk_steps(inp, bf, start, goal_cells):
    """Fewest steps from ``start`` to any of ``goal_cells`` through hexes that are not
    obstacles or barriers (people ignored): a plain Python BFS over the neighbour table."""
    f = inp.battlefield
    ter = bf[BG.BF_TERRAIN]
    goals = {f.cell_offset(*g) for g in goal_cells}
    s = f.cell_offset(*start)
    seen = {s: 0}
    todo = [s]
    while todo:
        c = todo.pop(0)
        if c in goals:
            return seen[c]
        for m in f.nbr[c]:
            if m >= 0 and m not in seen and not ter[m] & G.BLOCK_MOVE:
                seen[m] = seen[c] + 1
                todo.append(m)
    return None


# ------------------------------------------------------------------ raising it


def test_circle_cost_shape_and_use():
    """On a 12 x 12 field with Shade 6 hexes off, the largest circle (radius 3) fits: the 24
    hexes 4 away from her are barrier, everyone within 3 (the radius's edge) is inside.
    Minor action, 1 Defence (Heart) overcharge, its one use spent, 20 Resolve."""
    inp, dyn, cc, bf = arena([girl()], [foe()], battlefield=BIG)
    place(inp, dyn, bf, [(5, 6), (5, 0)])
    turn(inp, dyn, cc, bf, 0)
    ring = ring_cells([5, 6], 4)
    assert len(ring) == 24
    assert raised(inp, bf) == ring
    assert dyn[0, K.D_BARRIER_RES] == 20 and dyn[0, K.D_BARRIER_KIND] == 1 and dyn[0, K.D_BARRIER_ARG] == 4
    assert dyn[0, K.D_OC + HEART] == 1 and cc[0, K.K_OC_GAIN + HEART] == 1
    assert dyn[0, K.D_OC + FURY] == 0 and dyn[0, K.D_OC + JUDGMENT] == 0
    assert dyn[0, K.D_TUSES] == 0 and cc[0, K.K_TUSE] == 1 and cc[0, K.K_BARRIERS] == 1
    assert bf[BG.BF_LST][BG.LST_BARRIERS] == 1
    assert all(bf[BG.BF_TERRAIN][c] & G.BARRIER for c in range(inp.battlefield.n)
               if bf[BG.BF_TERRAIN][c] & G.RAISED)
    # a second turn: her barrier stands, nothing more is spent
    turn(inp, dyn, cc, bf, 0)
    assert dyn[0, K.D_OC + HEART] == 1 and cc[0, K.K_BARRIERS] == 1 and raised(inp, bf) == ring


def test_circle_shrinks_to_keep_the_enemy_out():
    """Shade 4 hexes away would stand on the radius-3 ring: the largest circle with no enemy
    within it is radius 2 (18 hexes 3 away)."""
    inp, dyn, cc, bf = arena([girl()], [foe()], battlefield=BIG)
    place(inp, dyn, bf, [(5, 6), (5, 2)])
    assert hex_apart([5, 6], [5, 2]) == 4
    turn(inp, dyn, cc, bf, 0)
    assert raised(inp, bf) == ring_cells([5, 6], 3)
    assert len(raised(inp, bf)) == 18 and dyn[0, K.D_BARRIER_ARG] == 3


def test_circle_skips_an_ally_on_the_ring():
    """An ally standing on the ring keeps her hex: 23 barrier hexes, none under Bea."""
    inp, dyn, cc, bf = arena([girl(), girl("Bea", talents=())], [foe()], battlefield=BIG)
    place(inp, dyn, bf, [(5, 6), (5, 10), (5, 0)])
    assert hex_apart([5, 6], [5, 10]) == 4
    turn(inp, dyn, cc, bf, 0)
    assert raised(inp, bf) == [c for c in ring_cells([5, 6], 4) if c != [5, 10]]


def test_no_room_for_a_circle_gives_the_straight_wall():
    """8 x 8, she stands on the bottom row: no ring fits (not enough space, L1697). The wall
    (7 hexes) passes through her neighbour nearest to Shade, [4, 6], along the row (the axis
    more square across her line to Shade): [1..7, 6]."""
    inp, dyn, cc, bf = arena([girl()], [foe()])
    place(inp, dyn, bf, [(3, 7), (3, 2)])
    turn(inp, dyn, cc, bf, 0)
    assert raised(inp, bf) == [[c, 6] for c in range(1, 8)]
    assert dyn[0, K.D_BARRIER_KIND] == 2 and dyn[0, K.D_BARRIER_LEN] == 7
    assert dyn[0, K.D_BARRIER_AT] == inp.battlefield.cell_offset(4, 6)
    assert dyn[0, K.D_OC + HEART] == 1 and dyn[0, K.D_BARRIER_RES] == 20


def test_wall_rule_and_wall_length():
    """Rule ``barrier_shape: wall`` (a circle would fit) and ``barrier_wall_length: 3``: the
    wall through her neighbour [5, 5] toward Shade, one hex either side along row 5."""
    inp, dyn, cc, bf = arena([girl()], [foe()], battlefield=BIG,
                             rules={"barrier_shape": "wall", "barrier_wall_length": 3})
    place(inp, dyn, bf, [(5, 6), (5, 0)])
    turn(inp, dyn, cc, bf, 0)
    assert raised(inp, bf) == [[4, 5], [5, 5], [6, 5]]
    assert dyn[0, K.D_BARRIER_KIND] == 2


def test_not_raised_when_engaged_or_alone():
    """An enemy already next to her (or to an ally) leaves nothing to keep out: not used, no
    cost; with no enemy on the field it is not used either."""
    inp, dyn, cc, bf = arena([girl(), girl("Bea", talents=())], [foe()], battlefield=BIG)
    place(inp, dyn, bf, [(5, 6), (2, 2), (2, 1)])
    assert hex_apart([2, 2], [2, 1]) == 1
    turn(inp, dyn, cc, bf, 0)
    assert raised(inp, bf) == [] and dyn[0, K.D_OC + HEART] == 0 and dyn[0, K.D_TUSES] == 1
    dyn[2, K.D_DEAD] = 1
    dyn[2, K.D_RES] = 0
    place(inp, dyn, bf, [(5, 6), (2, 2), (2, 1)])
    turn(inp, dyn, cc, bf, 0)
    assert raised(inp, bf) == [] and dyn[0, K.D_TUSES] == 1 and cc[0, K.K_BARRIERS] == 0


def test_gridless_never_used():
    """Gridless (``grid: none``) a barrier has nothing to block: never used, costs nothing;
    her Major is her basic attack (1d6 + 2)."""
    inp, dyn, cc = mb41_setup([girl()], [foe()])
    mb41_run(K.play_turn, inp, dyn, cc, Script(check=faces(3, 3, 1, 1), damage=faces(2)), i=0, bf=None)
    assert dyn[1, K.D_RES] == 18 - 4
    assert dyn[0, K.D_OC + HEART] == 0 and dyn[0, K.D_TUSES] == 1 and cc[0, K.K_BARRIERS] == 0


# ------------------------------------------------------------------ what it blocks


def test_walking_enemy_goes_round_the_wall():
    """Shade (close-in) 5 hexes north of her, the wall [1..7, 6] between: it walks round the
    open end [0, 6], two hexes a turn (Minor and Major), never onto the barrier; the walk
    left to her shrinks by exactly 2 each turn."""
    inp, dyn, cc, bf = arena([girl()], [foe(policy={"movement": "close-in"})])
    place(inp, dyn, bf, [(3, 7), (3, 2)])
    turn(inp, dyn, cc, bf, 0)
    assert raised(inp, bf) == [[c, 6] for c in range(1, 8)]
    goal = [[2, 7], [4, 7]]  # her free neighbours
    before = walk_steps(inp, bf, where(inp, dyn, 1), goal)
    assert before == 8
    turn(inp, dyn, cc, bf, 1)
    assert walk_steps(inp, bf, where(inp, dyn, 1), goal) == before - 2
    assert cc[1, K.K_MOVES] == 2 and where(inp, dyn, 1) not in raised(inp, bf)
    turn(inp, dyn, cc, bf, 1)
    turn(inp, dyn, cc, bf, 1)
    assert walk_steps(inp, bf, where(inp, dyn, 1), goal) == before - 6
    assert cc[1, K.K_MOVES] == 6 and where(inp, dyn, 1)[0] == 0
    assert cc[1, K.K_BARRIER_ATTACKS] == 0 and dyn[0, K.D_BARRIER_RES] == 20


def test_bypass_passes_the_barrier():
    """Bypass (L1585-1588: 'such as bypass', L1697) carries Shade 2 hexes across the ring from
    5 hexes to 3 (inside); from there its ranged attack reaches her (a miss)."""
    inp, dyn, cc, bf = arena([girl()], [foe(talents=["Bypass"], policy={"movement": "close-in"})],
                             battlefield=BIG)
    place(inp, dyn, bf, [(5, 6), (5, 1)])
    assert hex_apart([5, 6], [5, 1]) == 5
    turn(inp, dyn, cc, bf, 0)
    turn(inp, dyn, cc, bf, 1, check=M_MISS)
    assert hex_apart([5, 6], where(inp, dyn, 1)) == 3
    assert dyn[1, K.D_POOL] == 4 and cc[1, K.K_TALENT_MOVES] == 2 and cc[1, K.K_ATTACKS] == 1
    assert len(raised(inp, bf)) == 24


def test_teleport_cannot_cross_the_barrier():
    """Monster Teleport (no sight needed, L2114) cannot put Shade inside her circle: every hex
    next to her lies behind the ring. It stays where it is (no walk in either, nothing of
    the ring within its reach), its pool untouched."""
    inp, dyn, cc, bf = arena([girl()], [foe(talents=["Monster Teleport"], policy={"movement": "close-in"})],
                             battlefield={"width": 16, "height": 16})
    place(inp, dyn, bf, [(8, 8), (8, 0)])
    turn(inp, dyn, cc, bf, 0)
    assert len(raised(inp, bf)) == 24
    turn(inp, dyn, cc, bf, 1)
    assert where(inp, dyn, 1) == [8, 0]
    assert dyn[1, K.D_POOL] == 5 and dyn[1, K.D_TUSES] == -1 and cc[1, K.K_TALENT_MOVES] == 0  # -1: no use limit (its pool pays)


def test_teleport_without_the_barrier_gets_in():
    """The same Shade with no barrier raised (Akari has no talent): it teleports next to her."""
    inp, dyn, cc, bf = arena([girl(talents=())], [foe(talents=["Monster Teleport"], policy={"movement": "close-in"})],
                             battlefield={"width": 16, "height": 16})
    place(inp, dyn, bf, [(8, 8), (8, 0)])
    turn(inp, dyn, cc, bf, 1, check=M_MISS)
    assert hex_apart([8, 8], where(inp, dyn, 1)) == 1 and dyn[1, K.D_POOL] == 4


def ranged_foe():
    return foe(policy={"movement": "keep-range"}, attack_kind="ranged")


def test_ranged_line_blocked_so_it_shoots_the_barrier():
    """Shade (ranged) 3 hexes off, its line to her crosses the wall: no attack on her (rule
    ``barrier_blocks_ranged``). In range already, it shoots the barrier hex nearest her
    ([3, 6]; hit automatically, A52): 1d6 = 4 off the barrier's 20."""
    inp, dyn, cc, bf = arena([girl()], [ranged_foe()])
    place(inp, dyn, bf, [(3, 7), (3, 2)])
    turn(inp, dyn, cc, bf, 0)
    place_keep(inp, dyn, bf, 1, (3, 4))
    assert hex_apart([3, 7], [3, 4]) == 3
    turn(inp, dyn, cc, bf, 1, damage=faces(4))
    assert dyn[0, K.D_BARRIER_RES] == 16 and cc[0, K.K_BARRIER_DMG] == 4
    assert cc[1, K.K_BARRIER_ATTACKS] == 1 and cc[1, K.K_ATTACKS] == 0 and dyn[0, K.D_RES] == 18
    assert where(inp, dyn, 1) == [3, 4] and len(raised(inp, bf)) == 7


def place_keep(inp, dyn, bf, i, cell):
    """Move combatant ``i`` to ``cell`` without :func:`place_all` (which would drop the barrier)."""
    occ = bf[BG.BF_OCC]
    c = inp.battlefield.cell_offset(*cell)
    occ[dyn[i, K.D_POS]] = -1
    occ[c] = i
    dyn[i, K.D_POS] = c


def test_ranged_not_blocked_under_the_rule_option():
    """Rule ``barrier_blocks_ranged: false``: the same shot goes over the wall at her (a miss)."""
    inp, dyn, cc, bf = arena([girl()], [ranged_foe()], rules={"barrier_blocks_ranged": False})
    place(inp, dyn, bf, [(3, 7), (3, 2)])
    turn(inp, dyn, cc, bf, 0)
    place_keep(inp, dyn, bf, 1, (3, 4))
    turn(inp, dyn, cc, bf, 1, check=M_MISS)
    assert cc[1, K.K_ATTACKS] == 1 and cc[1, K.K_BARRIER_ATTACKS] == 0 and dyn[0, K.D_BARRIER_RES] == 20


def test_enclosed_melee_enemy_shoots_the_ring():
    """Shade (close-in) 6 hexes off cannot walk to her through the ring: with nobody in
    reach its Major goes on the nearest ring hex in reach (2 hexes: ranged, 1d6 = 6)."""
    inp, dyn, cc, bf = arena([girl()], [foe(policy={"movement": "close-in"})], battlefield=BIG)
    place(inp, dyn, bf, [(5, 6), (5, 0)])
    turn(inp, dyn, cc, bf, 0)
    turn(inp, dyn, cc, bf, 1, damage=faces(6))
    assert dyn[0, K.D_BARRIER_RES] == 14 and cc[0, K.K_BARRIER_DMG] == 6 and cc[1, K.K_BARRIER_ATTACKS] == 1
    assert where(inp, dyn, 1) == [5, 0] and cc[1, K.K_MOVES] == 0


def test_barrier_collapses_at_zero_and_is_spent_for_the_episode():
    """With 3 Resolve left, a 4 takes the last 3 (absorbed: 3) and every hex of it is gone;
    her one use (1/Episode) is spent, so she raises no other. Shade, its line now clear,
    shoots her on its next turn; her own Major is a ranged shot at it (a miss)."""
    inp, dyn, cc, bf = arena([girl()], [ranged_foe()])
    place(inp, dyn, bf, [(3, 7), (3, 2)])
    turn(inp, dyn, cc, bf, 0)
    place_keep(inp, dyn, bf, 1, (3, 4))
    dyn[0, K.D_BARRIER_RES] = 3
    turn(inp, dyn, cc, bf, 1, damage=faces(4))
    assert raised(inp, bf) == [] and dyn[0, K.D_BARRIER_RES] == 0 and dyn[0, K.D_BARRIER_KIND] == 0
    assert cc[0, K.K_BARRIER_DMG] == 3 and bf[BG.BF_LST][BG.LST_BARRIERS] == 0
    assert not any(bf[BG.BF_TERRAIN] & G.BARRIER)
    turn(inp, dyn, cc, bf, 0, check=MISS)
    assert raised(inp, bf) == [] and dyn[0, K.D_TUSES] == 0 and cc[0, K.K_BARRIERS] == 1
    assert dyn[0, K.D_OC + HEART] == 1
    turn(inp, dyn, cc, bf, 1, check=M_MISS)
    assert cc[1, K.K_ATTACKS] == 1


def test_indestructible_rule():
    """Rule ``barrier_defence: indestructible``: the blocked shooter has nothing to do."""
    inp, dyn, cc, bf = arena([girl()], [ranged_foe()], rules={"barrier_defence": "indestructible"})
    place(inp, dyn, bf, [(3, 7), (3, 2)])
    turn(inp, dyn, cc, bf, 0)
    place_keep(inp, dyn, bf, 1, (3, 4))
    turn(inp, dyn, cc, bf, 1)
    assert dyn[0, K.D_BARRIER_RES] == 20 and cc[1, K.K_BARRIER_ATTACKS] == 0 and cc[1, K.K_ATTACKS] == 0


def test_next_fight_starts_without_it():
    """A new fight (reset and place_all) restores the field's terrain: no barrier hex, no
    barrier standing, and (a single fight being the whole episode) her use is back."""
    inp, dyn, cc, bf = arena([girl()], [foe()], battlefield=BIG)
    place(inp, dyn, bf, [(5, 6), (5, 0)])
    turn(inp, dyn, cc, bf, 0)
    assert len(raised(inp, bf)) == 24
    mb41_call(K.reset, comb=inp.comb, rules=inp.rules, dyn=dyn)
    place(inp, dyn, bf, [(5, 6), (5, 0)])
    assert raised(inp, bf) == [] and bf[BG.BF_LST][BG.LST_BARRIERS] == 0
    assert np.array_equal(bf[BG.BF_TERRAIN], bf[BG.BF_BASE])
    assert dyn[0, K.D_BARRIER_RES] == 0 and dyn[0, K.D_BARRIER_KIND] == 0 and dyn[0, K.D_TUSES] == 1


def test_rule_indices_and_scene_columns():
    """The barrier's rule options sit where the kernel reads them (then the draft's
    get_back_to); its columns reset per scene."""
    from sim.systems.mb41.rules import RULES

    names = ["barrier_shape", "barrier_radius", "barrier_wall_length", "barrier_blocks_ranged", "barrier_defence",
             "get_back_to"]
    assert [RULES.index(n) for n in names] == [K.R_BARRIER_SHAPE + k for k in range(5)] + [K.R_GET_BACK_TO]
    assert K.R_SIZE == RULES.size
    for col in ("D_BARRIER_RES", "D_BARRIER_KIND", "D_BARRIER_AT", "D_BARRIER_ARG", "D_BARRIER_LEN"):
        assert col in K.SCENE_COLUMNS
    assert K.E_BARRIER == 73
