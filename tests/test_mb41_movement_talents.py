"""Movement talents of 4.1 (seed 000) on the hex grid and gridless, with
injected dice: Dash Strike / Pounce (``move_attack``), Teleport / Monster
Teleport (``teleport``), Bypass / Swift (``extra_move``), Sprint, Slither
Away, Get Over Here / Repel (``shove``), Safe Place, Defensive Switch and And
Your Enemies Closer (sim/systems/mb41/battle_grid.py, kernel.py).

The battlefield is an 8 x 8 rectangle, cells ``[col, row]`` (odd rows
shifted right); in column 3, rows 4 -> 3 / 2 / 1 / 0 are 1 / 2 / 3 / 4 hexes
apart (tests/test_mb41_battle_grid.py checks this). Every script must be
consumed exactly. Girls are 4/4/3 (attack/defence/support; roles attack =
fury, defence = heart, support = judgment), monsters 3/3/3 with damage bonus
0 and a pool of 5. Melee damage 1d6 + 2, ranged 1d6 (L1453).
"""
from __future__ import annotations

import pytest

from helpers import Script, faces
from helpers import grid_apart as apart, grid_arena as arena, grid_turn as turn, grid_where as where
from helpers import grid_place as place, hold_foe as foe, hold_girl as girl, mb41_run, mb41_setup
from engine41 import K

HEART, FURY, JUDGMENT = 0, 1, 2
HIT = faces(3, 3, 1, 1)        # girl 6 + 4 = 10 vs 2 + 3 = 5
MISS = faces(1, 1, 3, 3)       # girl 2 + 4 = 6 vs 6 + 3 = 9
M_HIT = faces(5, 5, 1, 1)      # monster 10 + 3 = 13 vs 2 + 4 = 6 (no six: no pool spent)
M_MISS = faces(1, 1, 3, 3)     # monster 2 + 3 = 5 vs 6 + 4 = 10
def gridless_turn(inp, dyn, cc, i, **script):
    mb41_run(K.play_turn, inp, dyn, cc, Script(**script), i=i, bf=None)


# ------------------------------------------------------------------ Dash Strike / Pounce (move_attack)


def test_dash_strike_moves_one_hex_and_attacks():
    """Dash Strike (L1807-1811, Major, 2/Scene): Shade is 4 hexes away, out of
    every range; one hex puts it at 3 (ranged, 1d6): she moves and attacks."""
    inp, dyn, cc, bf = arena([girl(talents=["Dash Strike"])], [foe()])
    place(inp, dyn, bf, [(3, 4), (3, 0)])
    turn(inp, dyn, cc, bf, 0, check=HIT, damage=faces(4))
    assert apart(inp, dyn, 0, 1) == 3
    assert dyn[1, K.D_RES] == 18 - 4
    assert dyn[0, K.D_TUSES] == 1 and cc[0, K.K_TUSE] == 1
    assert cc[0, K.K_MOVES] == 1 and cc[0, K.K_TALENT_MOVES] == 1
    assert dyn[0, K.D_OC + FURY] == 0  # no cost


def test_dash_strike_not_used_when_one_hex_is_not_enough():
    """5 hexes away: no hex brings Shade into range; she holds (policy) and keeps her uses."""
    inp, dyn, cc, bf = arena([girl(talents=["Dash Strike"])], [foe()])
    place(inp, dyn, bf, [(3, 5), (3, 0)])
    assert apart(inp, dyn, 0, 1) == 5
    turn(inp, dyn, cc, bf, 0)
    assert apart(inp, dyn, 0, 1) == 5 and dyn[0, K.D_TUSES] == 2


@pytest.mark.parametrize("step, moved", [("book", False), ("free", True)])
def test_dash_strike_out_of_rough_terrain_is_a_rule_option(step, moved):
    """Rule move_attack_step: 'book' = the hex is ordinary movement, and leaving
    rough terrain costs two (L1414): not used; 'free' = the talent's hex ignores it."""
    inp, dyn, cc, bf = arena([girl(talents=["Dash Strike"])], [foe()], rules={"move_attack_step": step},
                             battlefield={"width": 8, "height": 8, "rough": [[3, 4]]})
    place(inp, dyn, bf, [(3, 4), (3, 0)])
    turn(inp, dyn, cc, bf, 0, check=MISS if moved else [])
    assert apart(inp, dyn, 0, 1) == (3 if moved else 4)
    assert dyn[0, K.D_TUSES] == (1 if moved else 2)


def test_pounce_monster_moves_and_attacks_in_melee():
    """Pounce (L2078-2081, Major, no cost): Shade (melee) is 4 hexes from Akari;
    no hex gives it melee, one gives a ranged attack at 3 (1d6 + 0): it pounces."""
    inp, dyn, cc, bf = arena([girl()], [foe(talents=["Pounce"])])
    place(inp, dyn, bf, [(3, 4), (3, 0)])
    turn(inp, dyn, cc, bf, 1, check=M_HIT, damage=faces(2))
    assert apart(inp, dyn, 0, 1) == 3
    assert dyn[0, K.D_RES] == 18 - 2  # ranged 1d6 + 0
    assert cc[1, K.K_TUSE] == 1 and dyn[1, K.D_POOL] == 5


def test_dash_strike_is_never_used_gridless():
    """Gridless everyone is in range: Dash Strike is never needed (a plain attack, uses kept)."""
    inp, dyn, cc = mb41_setup([girl(talents=["Dash Strike"])], [foe()])
    gridless_turn(inp, dyn, cc, 0, check=HIT, damage=faces(1))
    assert dyn[1, K.D_RES] == 18 - 3
    assert dyn[0, K.D_TUSES] == 2 and cc[0, K.K_TUSE] == 0


# ------------------------------------------------------------------ Get Over Here / Repel (shove)


def test_get_over_here_pulls_the_target_one_hex_on_a_hit():
    """Get Over Here (L1708-1712, Major, 1 Defence overcharge): a ranged hit at 3
    hexes deals 1d6 and pulls Shade to 2 hexes."""
    inp, dyn, cc, bf = arena([girl(talents=["Get Over Here"], attack_kind="ranged")], [foe()])
    place(inp, dyn, bf, [(3, 4), (3, 1)])
    turn(inp, dyn, cc, bf, 0, check=HIT, damage=faces(3))
    assert dyn[1, K.D_RES] == 15
    assert apart(inp, dyn, 0, 1) == 2
    assert dyn[0, K.D_OC + HEART] == 1 and cc[0, K.K_TUSE] == 1
    assert cc[0, K.K_SHOVED] == 1
    assert cc[1, K.K_MOVES] == 0  # forced, not its movement


def test_get_over_here_on_a_miss_is_paid_and_moves_nobody():
    inp, dyn, cc, bf = arena([girl(talents=["Get Over Here"], attack_kind="ranged")], [foe()])
    place(inp, dyn, bf, [(3, 4), (3, 1)])
    turn(inp, dyn, cc, bf, 0, check=MISS)
    assert apart(inp, dyn, 0, 1) == 3
    assert dyn[0, K.D_OC + HEART] == 1 and cc[0, K.K_SHOVED] == 0


def test_repel_pushes_the_target_one_hex_away():
    """Repel (L2087-2090, Major, 1 from the pool): a melee hit (1d6 + 2) forces Akari 1 hex away."""
    inp, dyn, cc, bf = arena([girl()], [foe(talents=["Repel"])])
    place(inp, dyn, bf, [(3, 4), (3, 3)])
    turn(inp, dyn, cc, bf, 1, check=M_HIT, damage=faces(1))
    assert dyn[0, K.D_RES] == 18 - 3
    assert apart(inp, dyn, 0, 1) == 2
    assert dyn[1, K.D_POOL] == 4 and cc[1, K.K_POOL_SPENT] == 1 and cc[1, K.K_SHOVED] == 1


def test_repel_is_stopped_by_obstacles():
    """Forced movement: obstacles block it. Akari's three neighbours farther
    from Shade are walls: she stays; the cost is still paid."""
    wall = [[2, 4], [2, 5], [3, 5]]
    inp, dyn, cc, bf = arena([girl()], [foe(talents=["Repel"])],
                             battlefield={"width": 8, "height": 8, "obstacles": wall})
    place(inp, dyn, bf, [(3, 4), (3, 3)])
    turn(inp, dyn, cc, bf, 1, check=M_HIT, damage=faces(1))
    assert where(inp, dyn, 0) == [3, 4] and apart(inp, dyn, 0, 1) == 1
    assert dyn[0, K.D_RES] == 18 - 3
    assert dyn[1, K.D_POOL] == 4 and cc[1, K.K_SHOVED] == 0


def test_get_over_here_gridless_is_a_basic_attack_paid():
    """Gridless: a basic attack (1d6 + 2) for 1 Defence overcharge; nothing moves."""
    inp, dyn, cc = mb41_setup([girl(talents=["Get Over Here"])], [foe()])
    gridless_turn(inp, dyn, cc, 0, check=HIT, damage=faces(1))
    assert dyn[1, K.D_RES] == 15
    assert dyn[0, K.D_OC + HEART] == 1 and cc[0, K.K_TUSE] == 1 and cc[0, K.K_SHOVED] == 0


# ------------------------------------------------------------------ Teleport / Monster Teleport


def test_teleport_to_melee_range_then_attack():
    """Teleport (L1622-1625, Minor, 1/Scene, 1 Support overcharge): 7 hexes from
    Shade she teleports next to it (the nearest free hex in range and in sight,
    6 hexes) and attacks in melee (1d6 + 2)."""
    inp, dyn, cc, bf = arena([girl(talents=["Teleport"], policy={"movement": "close-in"})], [foe()])
    place(inp, dyn, bf, [(3, 7), (3, 0)])
    turn(inp, dyn, cc, bf, 0, check=HIT, damage=faces(1))
    assert apart(inp, dyn, 0, 1) == 1
    assert dyn[1, K.D_RES] == 15
    assert dyn[0, K.D_OC + JUDGMENT] == 1 and dyn[0, K.D_TUSES] == 0
    assert cc[0, K.K_TALENT_MOVES] == 6 and cc[0, K.K_MOVES] == 0  # not movement


def test_teleport_needs_sight_through_obstacles_rule_option():
    """A full row of obstacles between them: no hex in range is in sight under
    teleport_sight 'obstacles' (she stays: walled in, no step either); under
    'barriers' obstacles do not block the line and she teleports."""
    wall = [[c, 3] for c in range(8)]
    for sight, ok in (("obstacles", False), ("barriers", True)):
        inp, dyn, cc, bf = arena([girl(talents=["Teleport"], policy={"movement": "close-in"})], [foe()],
                                 rules={"teleport_sight": sight},
                                 battlefield={"width": 8, "height": 8, "obstacles": wall})
        place(inp, dyn, bf, [(3, 6), (3, 0)])
        turn(inp, dyn, cc, bf, 0, check=HIT if ok else [], damage=faces(1) if ok else [])
        assert (apart(inp, dyn, 0, 1) == 1) == ok
        assert dyn[0, K.D_TUSES] == (0 if ok else 1)


def test_monster_teleport_anywhere_from_its_pool():
    """Monster Teleport (L2114-2117, Minor, 1 from the pool): behind a wall it
    cannot see through, it appears next to Akari and attacks."""
    wall = [[c, 3] for c in range(8)]
    inp, dyn, cc, bf = arena([girl()], [foe(talents=["Monster Teleport"], policy={"movement": "close-in"})],
                             battlefield={"width": 8, "height": 8, "obstacles": wall})
    place(inp, dyn, bf, [(3, 6), (3, 0)])
    turn(inp, dyn, cc, bf, 1, check=M_MISS)
    assert apart(inp, dyn, 0, 1) == 1
    assert dyn[1, K.D_POOL] == 4


# ------------------------------------------------------------------ Bypass / Swift (extra_move)


def test_bypass_moves_two_hexes_as_the_minor():
    """Bypass (L1585-1588, Minor, 2/Scene, 1 Support overcharge): 4 hexes out,
    she moves 2 (now at 2: a ranged attack reaches, and misses)."""
    inp, dyn, cc, bf = arena([girl(talents=["Bypass"], policy={"movement": "close-in"})], [foe()])
    place(inp, dyn, bf, [(3, 4), (3, 0)])
    turn(inp, dyn, cc, bf, 0, check=MISS)
    assert apart(inp, dyn, 0, 1) == 2
    assert dyn[0, K.D_OC + JUDGMENT] == 1 and dyn[0, K.D_TUSES] == 1
    assert cc[0, K.K_MOVES] == 2 and cc[0, K.K_TALENT_MOVES] == 2


def test_bypass_passes_through_solid_obstacles():
    """Bypass 'may pass through solid obstacles': a full wall on row 3; she ends on row 2."""
    wall = [[c, 3] for c in range(8)]
    inp, dyn, cc, bf = arena([girl(talents=["Bypass"], policy={"movement": "close-in"})], [foe()],
                             battlefield={"width": 8, "height": 8, "obstacles": wall})
    place(inp, dyn, bf, [(3, 4), (3, 0)])
    turn(inp, dyn, cc, bf, 0, check=MISS)
    assert where(inp, dyn, 0)[1] == 2
    assert apart(inp, dyn, 0, 1) == 2


def test_swift_moves_two_hexes_free():
    """Swift (L2109-2112, Minor, no cost): Shade closes 2 hexes (4 -> 2), then
    its ranged attack misses."""
    inp, dyn, cc, bf = arena([girl()], [foe(talents=["Swift"], policy={"movement": "close-in"})])
    place(inp, dyn, bf, [(3, 4), (3, 0)])
    turn(inp, dyn, cc, bf, 1, check=M_MISS)
    assert apart(inp, dyn, 0, 1) == 2
    assert dyn[1, K.D_POOL] == 5 and cc[1, K.K_TUSE] == 1 and cc[1, K.K_MOVES] == 2


def test_swift_out_of_rough_terrain_moves_one_hex():
    """Swift: '1 hex over difficult terrain': from a rough hex it moves only 1 (4 -> 3)."""
    inp, dyn, cc, bf = arena([girl()], [foe(talents=["Swift"], policy={"movement": "close-in"})],
                             battlefield={"width": 8, "height": 8, "rough": [[3, 0]]})
    place(inp, dyn, bf, [(3, 4), (3, 0)])
    turn(inp, dyn, cc, bf, 1, check=M_MISS)
    assert apart(inp, dyn, 0, 1) == 3
    assert cc[1, K.K_MOVES] == 1


# ------------------------------------------------------------------ Sprint


def test_sprint_one_free_hex_once_per_round():
    """Sprint (L1726-1729, free, 2/Scene, once per round): 5 hexes out, the
    Minor step and the Sprint bring her to 3, where she attacks at range. A
    second turn in the same round: no Sprint."""
    inp, dyn, cc, bf = arena([girl(talents=["Sprint"], policy={"movement": "close-in"})], [foe()])
    place(inp, dyn, bf, [(3, 5), (3, 0)])
    turn(inp, dyn, cc, bf, 0, check=MISS)
    assert apart(inp, dyn, 0, 1) == 3
    assert cc[0, K.K_MOVES] == 2 and cc[0, K.K_TALENT_MOVES] == 1
    assert dyn[0, K.D_TUSES] == 1 and dyn[0, K.D_SPRINT_AT] == 0
    turn(inp, dyn, cc, bf, 0, check=MISS)   # same round: the step to 2, no Sprint
    assert apart(inp, dyn, 0, 1) == 2 and dyn[0, K.D_TUSES] == 1


# ------------------------------------------------------------------ Slither Away


@pytest.mark.parametrize("move, slides", [("keep-range", True), ("close-in", False)])
def test_slither_away_after_being_attacked(move, slides):
    """Slither Away (L2103-2107, free, 1 from the pool): after Akari's attack
    (a miss) the keep-range Shade slips 1 hex away from her, ignoring
    Disengage; a close-in Shade is already where it wants to be."""
    inp, dyn, cc, bf = arena([girl()], [foe(talents=["Slither Away"], policy={"movement": move})])
    place(inp, dyn, bf, [(3, 4), (3, 3)])
    turn(inp, dyn, cc, bf, 0, check=MISS)
    assert apart(inp, dyn, 0, 1) == (2 if slides else 1)
    assert dyn[1, K.D_POOL] == (4 if slides else 5)
    assert cc[1, K.K_TALENT_MOVES] == (1 if slides else 0)


@pytest.mark.parametrize("ayec, held", [(faces(5, 5, 1, 1), True), (faces(1, 1, 5, 5), False)])
def test_and_your_enemies_closer_on_slither_away(ayec, held):
    """Akari (And Your Enemies Closer, L1522-1526) attacks the keep-range Shade (a miss); its
    Slither Away (1 from the pool) tries to leave her side: Support vs Support, Akari first:
    13 vs 5 holds it (the pool point is spent, L1526); 5 vs 13 lets it slip 1 hex away."""
    inp, dyn, cc, bf = arena([girl(talents=["And Your Enemies Closer"])],
                             [foe(talents=["Slither Away"], policy={"movement": "keep-range"})])
    place(inp, dyn, bf, [(3, 4), (3, 3)])
    turn(inp, dyn, cc, bf, 0, check=MISS + ayec)
    assert apart(inp, dyn, 0, 1) == (1 if held else 2) and dyn[1, K.D_POOL] == 4
    assert cc[0, K.K_HELD] == (1 if held else 0) and cc[1, K.K_TALENT_MOVES] == (0 if held else 1)


# ------------------------------------------------------------------ Defensive Switch


def test_defensive_switch_swaps_places_and_takes_the_attack():
    """Defensive Switch (L1699-1703, free, 2/Scene, an ally 1-3 hexes away):
    Shade attacks the hurt Akari; Beni (intercept always, 2 hexes away) swaps
    places with her before the roll and defends (4): she takes the 1d6 + 2."""
    inp, dyn, cc, bf = arena([girl("Akari"), girl("Beni", talents=["Defensive Switch"], policy={"intercept": "always"})],
                             [foe()])
    place(inp, dyn, bf, [(3, 4), (3, 6), (3, 3)])
    dyn[0, K.D_RES] = 5
    a0, b0 = where(inp, dyn, 0), where(inp, dyn, 1)
    turn(inp, dyn, cc, bf, 2, check=M_HIT, damage=faces(2))
    assert where(inp, dyn, 0) == b0 and where(inp, dyn, 1) == a0
    assert dyn[0, K.D_RES] == 5 and dyn[1, K.D_RES] == 18 - 4
    assert cc[1, K.K_SWITCHES] == 1 and dyn[1, K.D_TUSES + 0] == 1


def test_defensive_switch_out_of_range_or_unwilling():
    """4 hexes away (range 1-3), or intercept never: no switch, Akari is hit."""
    for pos, pol in (((3, 0), "always"), ((3, 6), "never")):
        inp, dyn, cc, bf = arena([girl("Akari"), girl("Beni", talents=["Defensive Switch"], policy={"intercept": pol})],
                                 [foe()])
        place(inp, dyn, bf, [(3, 4), pos, (3, 3)])
        dyn[0, K.D_RES] = 5
        turn(inp, dyn, cc, bf, 2, check=M_HIT, damage=faces(2))
        assert dyn[0, K.D_RES] == 1 and cc[1, K.K_SWITCHES] == 0


def test_defensive_switch_gridless_makes_her_the_target():
    inp, dyn, cc = mb41_setup([girl("Akari"), girl("Beni", talents=["Defensive Switch"],
                                                    policy={"intercept": "always"})], [foe()])
    dyn[0, K.D_RES] = 5
    gridless_turn(inp, dyn, cc, 2, check=M_HIT, damage=faces(2))
    assert dyn[0, K.D_RES] == 5 and dyn[1, K.D_RES] == 14 and cc[1, K.K_SWITCHES] == 1


# ------------------------------------------------------------------ And Your Enemies Closer


@pytest.mark.parametrize("dice, stays", [(faces(5, 5, 1, 1), True), (faces(1, 1, 5, 5), False)])
def test_and_your_enemies_closer_stops_a_move_away(dice, stays):
    """And Your Enemies Closer (L1522-1526, free, 1 Defence overcharge): the
    keep-range Shade next to Akari tries Reckless Movement away; Support vs
    Support (Akari first): 13 vs 5 holds it, its Minor used up (no Reckless
    roll), then it attacks in melee; 5 vs 13 lets it go: Reckless 5+5+3 = 13
    moves it and costs 2 Resolve, then its ranged attack at 2 misses."""
    inp, dyn, cc, bf = arena([girl(talents=["And Your Enemies Closer"])],
                             [foe(policy={"movement": "keep-range", "reckless": True})])
    place(inp, dyn, bf, [(3, 4), (3, 3)])
    check = dice + (M_MISS if stays else faces(5, 5) + M_MISS)
    turn(inp, dyn, cc, bf, 1, check=check)
    assert apart(inp, dyn, 0, 1) == (1 if stays else 2)
    assert cc[0, K.K_HELD] == (1 if stays else 0)
    assert dyn[0, K.D_OC + HEART] == 1 and cc[0, K.K_TUSE] == 1
    assert dyn[1, K.D_RES] == (18 if stays else 16)


# ------------------------------------------------------------------ Safe Place


def test_safe_place_brings_an_engaged_hurt_ally_next_to_her():
    """Safe Place (L1782-1785, Major, 1 Support overcharge): Akari (5/18, below
    heal_below 50) is next to Shade; Chika brings her to a hex next to herself
    with no enemy adjacent (instead of attacking)."""
    inp, dyn, cc, bf = arena([girl("Chika", talents=["Safe Place"]), girl("Akari")], [foe()])
    place(inp, dyn, bf, [(3, 7), (3, 3), (3, 2)])
    dyn[1, K.D_RES] = 5
    turn(inp, dyn, cc, bf, 0)
    assert apart(inp, dyn, 0, 1) == 1
    assert apart(inp, dyn, 1, 2) > 1
    assert dyn[0, K.D_OC + JUDGMENT] == 1 and cc[0, K.K_TUSE] == 1 and cc[0, K.K_SHOVED] > 0


def test_bypass_leaves_an_engaged_hex_without_disengage():
    """Bypass 'without Disengage': the keep-range Akari next to Shade slips to 2
    hexes with her Minor (1 hex is enough: the shorter move wins the tie) and
    attacks at range; without Bypass she could not leave and attacks in melee."""
    for talents, dist in ((["Bypass"], 2), ([], 1)):
        inp, dyn, cc, bf = arena([girl(talents=talents, attack_kind="ranged", policy={"movement": "keep-range"})],
                                 [foe()])
        place(inp, dyn, bf, [(3, 4), (3, 3)])
        turn(inp, dyn, cc, bf, 0, check=MISS)
        assert apart(inp, dyn, 0, 1) == dist
        assert dyn[0, K.D_OC + JUDGMENT] == (1 if talents else 0)
        assert cc[0, K.K_MOVES] == (1 if talents else 0)


def test_swift_when_engaged_is_a_one_hex_disengage():
    """Swift 'or Disengage': the keep-range Shade next to Akari moves 1 hex (to 2)
    with its Minor, then its ranged attack misses."""
    inp, dyn, cc, bf = arena([girl()], [foe(talents=["Swift"], policy={"movement": "keep-range"})])
    place(inp, dyn, bf, [(3, 4), (3, 3)])
    turn(inp, dyn, cc, bf, 1, check=M_MISS)
    assert apart(inp, dyn, 0, 1) == 2
    assert cc[1, K.K_MOVES] == 1 and cc[1, K.K_TUSE] == 1


def test_teleport_kept_when_a_plain_step_will_do():
    """2 hexes out (1 step from melee range): the Minor step does it; Teleport is kept."""
    inp, dyn, cc, bf = arena([girl(talents=["Teleport"], policy={"movement": "close-in"})], [foe()])
    place(inp, dyn, bf, [(3, 4), (3, 2)])
    turn(inp, dyn, cc, bf, 0, check=HIT, damage=faces(1))
    assert apart(inp, dyn, 0, 1) == 1 and dyn[1, K.D_RES] == 15
    assert dyn[0, K.D_TUSES] == 1 and dyn[0, K.D_OC + JUDGMENT] == 0 and cc[0, K.K_MOVES] == 1


def test_report_columns_of_the_movement_talents():
    """The combatants table reports the movement talents' counters per fight
    (grid: hexes moved by talents, hexes she moved others, moves she held;
    always: Defensive Switches). Pure Python: no kernel is called."""
    import numpy as np

    from helpers import mb41_data, mb41_inputs
    import importlib

    summarize = importlib.import_module("sim.systems.mb41.summarize")

    data = mb41_data([girl()], [foe()], rules={"grid": "hex"})
    data["battlefield"] = {"width": 8, "height": 8}
    inp = mb41_inputs(data)
    c = np.zeros((2, K.NK), dtype=np.int64)
    c[0, K.K_TALENT_MOVES] = 6
    c[0, K.K_SHOVED] = 4
    c[0, K.K_HELD] = 2
    c[0, K.K_SWITCHES] = 8
    df = summarize.combatants({"outcomes": np.array([2, 0, 0]), "combatants": c}, inp, "v")
    row = df.iloc[0]
    assert (row["talent_hexes_moved"], row["others_moved"], row["moves_held"], row["defensive_switches"]) == (3, 2, 1, 4)
