"""Area and terrain talents of 4.1 (seed 000): Blast Strike (L1801-1805), Burst Attack
(L1965-1969), Gravity Wave (L2037-2041), Veil (L2119-2122), Rough Going (L1836-1840) and
Lashing Ground (L2043-2045), gridless and on the hex grid, with injected dice.

Default roles (tests/helpers.py): attack = fury, defence = heart, support = judgment.
Girls are 4/4/3 with Resolve 18; foes 3/3/3, monsters with a damage bonus of 0 and a pool
of 10. The battlefield is an 8 x 8 rectangle, cells ``[col, row]`` (odd rows shifted right);
along a row the cells are a straight line east (direction 0). Every script must be consumed
exactly; ``movement: hold`` keeps turns to the talent under test.
"""
from __future__ import annotations

import pytest

from helpers import Script, faces, mb41_call, mb41_member
from helpers import grid_apart as apart, grid_arena as arena, grid_run, grid_turn as gturn, grid_where as where
from helpers import grid_place as place, mb41_girl, mb41_run as call, mb41_setup as setup
from engine41 import BG
from sim.systems.mb41 import grid as G
from engine41 import K

FURY = 1
HOLD = {"boost": "never", "movement": "hold", "overcharge_cap": 99}
HIT = faces(5, 5, 1, 1)      # 10 + 4 (or 3) against 2 + 3 (or 4): a hit, no sixes
MISS = faces(1, 1, 5, 5)     # 2 + 3 (or 4) against 10 + 4 (or 3): a miss


def girl(name, talents=(), **kw):
    pol = dict(HOLD)
    pol.update(kw.pop("policy", {}))
    return mb41_girl(name, talents=list(talents), policy=pol, **kw)


def foe(name="Shade", talents=(), **kw):
    pol = dict(HOLD)
    pol.update(kw.pop("policy", {}))
    return mb41_member(name, kind="monster", resolve=18, damage_bonus=0, overcharge_pool=10,
                       talents=list(talents), policy=pol, **kw)


def turn(inp, dyn, cc, s, i):
    call(K.play_turn, inp, dyn, cc, s, i=i, bf=None)


# ------------------------------------------------------------------ gridless area attacks


def test_blast_strike_gridless_attacks_area_targets_enemies():
    """Blast Strike (L1801, Major, 1 Attack OC): one basic attack, every target defends
    separately; gridless it reaches ``area_targets`` (2) enemies: the weakest first (Umbra,
    Resolve 10), then the next listed (Shade). Each hit 1d6 + 2 melee."""
    inp, dyn, cc = setup([girl("Akari", ["Blast Strike"])],
                         [foe("Shade"), foe("Umbra"), foe("Vesper")])
    dyn[2, K.D_RES] = 10
    turn(inp, dyn, cc, Script(check=HIT + HIT, damage=faces(3, 4)), i=0)
    assert dyn[2, K.D_RES] == 10 - 5
    assert dyn[1, K.D_RES] == 18 - 6
    assert dyn[3, K.D_RES] == 18
    assert dyn[0, K.D_OC + FURY] == 1 and cc[0, K.K_OC_GAIN + FURY] == 1
    assert cc[0, K.K_TUSE] == 1 and cc[0, K.K_AREA_TARGETS] == 2 and cc[0, K.K_ATTACKS] == 2


def test_area_targets_rule_three():
    """Rule ``area_targets: 3``: the area attack reaches three enemies without a grid."""
    inp, dyn, cc = setup([girl("Akari", ["Blast Strike"])], [foe("Shade"), foe("Umbra"), foe("Vesper")],
                         rules={"area_targets": 3})
    turn(inp, dyn, cc, Script(check=HIT + MISS + HIT, damage=faces(1, 2)), i=0)
    assert [int(dyn[j, K.D_RES]) for j in (1, 2, 3)] == [18 - 3, 18, 18 - 4]
    assert cc[0, K.K_AREA_TARGETS] == 3 and cc[0, K.K_HITS] == 2


@pytest.mark.parametrize("rules, foes", [({}, 1), ({"area_targets": 1}, 3)])
def test_area_attack_needs_area_min_enemies(rules, foes):
    """Policy ``area_min`` 2: with one enemy left (or ``area_targets: 1``) she makes her basic
    attack instead: no overcharge, no use."""
    inp, dyn, cc = setup([girl("Akari", ["Blast Strike"])], [foe(f"F{k}") for k in range(foes)], rules=rules)
    turn(inp, dyn, cc, Script(check=HIT, damage=faces(2)), i=0)
    assert dyn[1, K.D_RES] == 18 - 4
    assert dyn[0, K.D_OC + FURY] == 0 and cc[0, K.K_TUSE] == 0 and cc[0, K.K_AREA_TARGETS] == 0


def test_area_min_one_uses_it_on_a_lone_enemy():
    """Policy ``area_min: 1``: the area attack on a lone enemy (it pays 1 OC)."""
    inp, dyn, cc = setup([girl("Akari", ["Blast Strike"], policy={"area_min": 1})], [foe()])
    turn(inp, dyn, cc, Script(check=HIT, damage=faces(2)), i=0)
    assert dyn[1, K.D_RES] == 14 and dyn[0, K.D_OC + FURY] == 1 and cc[0, K.K_AREA_TARGETS] == 1


def test_burst_attack_gridless_costs_nothing():
    """Burst Attack (L1965, cost not stated, A31a: Major, 0 OC): the boss attacks two girls
    (its damage bonus 0: 1d6 + 2 melee); its pool stays 10."""
    inp, dyn, cc = setup([girl("Akari"), girl("Bea")], [foe("Boss", ["Burst Attack"])])
    turn(inp, dyn, cc, Script(check=HIT + HIT, damage=faces(6, 1)), i=2)
    assert dyn[0, K.D_RES] == 18 - 8 and dyn[1, K.D_RES] == 18 - 3
    assert dyn[2, K.D_POOL] == 10 and cc[2, K.K_TUSE] == 1 and cc[2, K.K_AREA_TARGETS] == 2


def test_gravity_wave_gridless_attacks_without_pull():
    """Gravity Wave (L2037, Major, 2 pool) gridless: no pull, ``area_targets`` (2) enemies."""
    inp, dyn, cc = setup([girl("Akari"), girl("Bea"), girl("Cho")], [foe("Boss", ["Gravity Wave"])])
    turn(inp, dyn, cc, Script(check=HIT + MISS, damage=faces(2)), i=3)
    assert [int(dyn[j, K.D_RES]) for j in range(3)] == [18 - 4, 18, 18]
    assert dyn[3, K.D_POOL] == 8 and cc[3, K.K_POOL_SPENT] == 2 and cc[3, K.K_AREA_TARGETS] == 2
    assert cc[3, K.K_FORCED] == 0


# ------------------------------------------------------------------ area attacks on the grid


def test_burst_attack_line_on_the_grid():
    """Burst Attack on the grid: the straight line east within its attack range (3 hexes)
    holds Akari (1 hex: melee, 1d6 + 2) and Bea (3 hexes: ranged, 1d6); Cho 4 hexes along it
    and Dee off the line are not attacked."""
    inp, dyn, cc, bf = arena([girl("Akari"), girl("Bea"), girl("Cho"), girl("Dee")],
                             [foe("Boss", ["Burst Attack"])])
    place(inp, dyn, bf, [(2, 4), (4, 4), (5, 4), (2, 1), (1, 4)])
    assert [apart(inp, dyn, 4, j) for j in range(4)] == [1, 3, 4, 3]
    gturn(inp, dyn, cc, bf, 4, check=HIT + HIT, damage=faces(3, 4))
    assert [int(dyn[j, K.D_RES]) for j in range(4)] == [18 - 5, 18 - 4, 18, 18]
    assert cc[4, K.K_TUSE] == 1 and cc[4, K.K_AREA_TARGETS] == 2 and dyn[4, K.D_POOL] == 10


def test_burst_attack_one_on_the_line_is_a_basic_attack():
    """Only one girl on any line (``area_min`` 2): the boss makes its basic attack on its
    target in reach instead, and Burst Attack is not used."""
    inp, dyn, cc, bf = arena([girl("Akari"), girl("Bea")], [foe("Boss", ["Burst Attack"])])
    place(inp, dyn, bf, [(2, 4), (7, 7), (1, 4)])
    gturn(inp, dyn, cc, bf, 2, check=HIT, damage=faces(3))
    assert dyn[0, K.D_RES] == 13 and cc[2, K.K_TUSE] == 0 and cc[2, K.K_AREA_TARGETS] == 0


def test_area_allies_rule_hits_an_ally_on_the_line():
    """Rule ``area_allies: true``: the boss's ally Shade standing on the line (2 hexes) is
    attacked too (listed order: Akari, Bea, Shade; ranged 1d6 on Shade); by default it is not."""
    for allies in (True, False):
        inp, dyn, cc, bf = arena([girl("Akari"), girl("Bea")], [foe("Boss", ["Burst Attack"]), foe("Shade")],
                                 rules={"area_allies": allies})
        place(inp, dyn, bf, [(2, 4), (4, 4), (1, 4), (3, 4)])
        gturn(inp, dyn, cc, bf, 2, check=HIT + HIT + (HIT if allies else []),
              damage=faces(3, 4, 1) if allies else faces(3, 4))
        assert cc[2, K.K_AREA_TARGETS] == (3 if allies else 2)
        assert dyn[3, K.D_RES] == (17 if allies else 18)
        assert dyn[0, K.D_RES] == 13 and dyn[1, K.D_RES] == 14


def test_blast_strike_in_melee_hits_every_adjacent_hex():
    """Blast Strike (L1803, 'in melee, all adjacent hexes'): Shade west and Umbra north-east
    of Akari share no line; the ring of adjacent hexes holds both (melee, 1d6 + 2)."""
    inp, dyn, cc, bf = arena([girl("Akari", ["Blast Strike"])], [foe("Shade"), foe("Umbra")])
    place(inp, dyn, bf, [(3, 4), (2, 4), (3, 3)])
    assert apart(inp, dyn, 0, 1) == 1 and apart(inp, dyn, 0, 2) == 1 and apart(inp, dyn, 1, 2) == 2
    gturn(inp, dyn, cc, bf, 0, check=HIT + HIT, damage=faces(1, 6))
    assert dyn[1, K.D_RES] == 18 - 3 and dyn[2, K.D_RES] == 18 - 8
    assert dyn[0, K.D_OC + FURY] == 1 and cc[0, K.K_AREA_TARGETS] == 2


# ------------------------------------------------------------------ Gravity Wave on the grid


@pytest.mark.parametrize("targets", ["pulled", "adjacent"])
def test_gravity_wave_pulls_then_attacks(targets):
    """Gravity Wave (L2037-2041, 1-3 hexes): Akari (2 hexes) and Bea (3) are pulled one hex
    closer (the nearest first), Cho (5) is out of range. A43a (``pulled``): both are attacked
    (Akari now adjacent, melee 1d6 + 2; Bea at 2, ranged 1d6); A43b (``adjacent``): Akari only."""
    inp, dyn, cc, bf = arena([girl("Akari"), girl("Bea"), girl("Cho")], [foe("Boss", ["Gravity Wave"])],
                             rules={"gravity_targets": targets})
    place(inp, dyn, bf, [(3, 4), (4, 4), (6, 4), (1, 4)])
    assert [apart(inp, dyn, 3, j) for j in range(3)] == [2, 3, 5]
    both = targets == "pulled"
    gturn(inp, dyn, cc, bf, 3, check=HIT + (HIT if both else []), damage=faces(3, 4) if both else faces(3))
    assert where(inp, dyn, 0) == [2, 4] and where(inp, dyn, 1) == [3, 4] and where(inp, dyn, 2) == [6, 4]
    assert cc[3, K.K_FORCED] == 2 and dyn[3, K.D_POOL] == 8 and cc[3, K.K_TUSE] == 1
    assert dyn[0, K.D_RES] == 13 and dyn[1, K.D_RES] == (14 if both else 18) and dyn[2, K.D_RES] == 18
    assert cc[3, K.K_AREA_TARGETS] == (2 if both else 1)
    assert cc[0, K.K_MOVES] == 0  # forced movement is not her movement


def test_gravity_wave_needs_two_in_range():
    """Only Akari within 1-3 (``area_min`` 2): no Gravity Wave; the boss attacks her instead."""
    inp, dyn, cc, bf = arena([girl("Akari"), girl("Bea")], [foe("Boss", ["Gravity Wave"])])
    place(inp, dyn, bf, [(3, 4), (6, 4), (1, 4)])
    gturn(inp, dyn, cc, bf, 2, check=MISS)
    assert dyn[2, K.D_POOL] == 10 and cc[2, K.K_TUSE] == 0 and where(inp, dyn, 0) == [3, 4]


# ------------------------------------------------------------------ Veil


def test_veil_gridless_raise_and_penalty():
    """Veil (L2119-2122, Minor, 1 pool): until the end of its next turn attacks on it take
    -2 (gridless: every attacker, ``veil_gridless: all``). Akari's 8 + 4 = 12 would beat
    8 + 3 = 11; with -2 it misses. It is not raised again while it holds."""
    inp, dyn, cc = setup([girl("Akari")], [foe("Imp", ["Veil"])])
    assert call(K.try_veil, inp, dyn, cc, Script(), i=1)
    assert dyn[1, K.D_POOL] == 9 and dyn[1, K.D_VEIL_UNTIL] == 2 and cc[1, K.K_TUSE] == 1
    assert not call(K.try_veil, inp, dyn, cc, Script(), i=1)
    assert call(K.attack_call, inp, dyn, cc, Script(check=faces(4, 4, 4, 4)), i=0, t=1) == -1
    assert cc[1, K.K_VEILED] == 1
    dyn[1, K.D_TURNS_DONE] = 2   # the end of its next turn: the Veil is gone
    assert call(K.attack_call, inp, dyn, cc, Script(check=faces(4, 4, 4, 4), damage=faces(1)), i=0, t=1) == 3
    assert cc[1, K.K_VEILED] == 1


def test_veil_gridless_none_rule():
    """Rule ``veil_gridless: none``: the Veil would do nothing without a grid: never raised."""
    inp, dyn, cc = setup([girl("Akari")], [foe("Imp", ["Veil"])], rules={"veil_gridless": "none"})
    assert not call(K.try_veil, inp, dyn, cc, Script(), i=1)
    assert dyn[1, K.D_POOL] == 10


@pytest.mark.parametrize("row, dist, hit", [(3, 1, True), (1, 3, False)])
def test_veil_on_the_grid_spares_attackers_within_two(row, dist, hit):
    """On the grid the -2 falls on attackers not within 1-2 hexes: Akari next to the Imp
    hits (12 vs 11, melee 1d6 + 2); 3 hexes away (ranged) 12 - 2 = 10 misses."""
    inp, dyn, cc, bf = arena([girl("Akari")], [foe("Imp", ["Veil"])])
    place(inp, dyn, bf, [(row, 4), (4, 4)])
    assert apart(inp, dyn, 0, 1) == dist
    dyn[1, K.D_VEIL_UNTIL] = 2
    gturn(inp, dyn, cc, bf, 0, check=faces(4, 4, 4, 4), damage=faces(1) if hit else [])
    assert dyn[1, K.D_RES] == (18 - 3 if hit else 18)
    assert cc[1, K.K_VEILED] == (0 if hit else 1)


@pytest.mark.parametrize("col, raised", [(5, True), (2, False)])
def test_veil_raised_when_an_enemy_is_beyond_two(col, raised):
    """The Imp raises its Veil (pool 10 -> 9) when a girl stands beyond 2 hexes (4: then nobody
    is in reach, no dice); with Akari 1 hex away it does not, and attacks her (a miss)."""
    inp, dyn, cc, bf = arena([girl("Akari")], [foe("Imp", ["Veil"])])
    place(inp, dyn, bf, [(col, 4), (1, 4)])
    gturn(inp, dyn, cc, bf, 1, check=[] if raised else MISS)
    assert dyn[1, K.D_POOL] == (9 if raised else 10)
    assert dyn[1, K.D_VEIL_UNTIL] == (2 if raised else 0)
    assert dyn[1, K.D_TURNS_DONE] == 1


# ------------------------------------------------------------------ Rough Going and Lashing Ground


def test_rough_going_roughens_the_enemy_and_its_surroundings():
    """Rough Going (L1836-1840, Minor, 1 Attack OC): hexes within 4 become rough terrain, at
    most 9: Shade's hex (4 hexes away) and its free neighbours within 4 (3 of its 6). A new
    fight (``place_all``) starts with the field's own terrain."""
    inp, dyn, cc, bf = arena([girl("Akari", ["Rough Going"])], [foe()])
    place(inp, dyn, bf, [(1, 4), (5, 4)])
    assert apart(inp, dyn, 0, 1) == 4
    nbr = inp.battlefield.nbr
    c, p = int(dyn[0, K.D_POS]), int(dyn[1, K.D_POS])
    near = [int(m) for m in nbr[p] if m >= 0 and inp.battlefield.distance(c, int(m)) <= 4]
    assert len(near) == 3
    gturn(inp, dyn, cc, bf, 0)
    terrain = bf[BG.BF_TERRAIN]
    rough = sorted(int(x) for x in (terrain & G.ROUGH).nonzero()[0])
    assert rough == sorted([p] + near)
    assert cc[0, K.K_ROUGHENED] == 4 and dyn[0, K.D_OC + FURY] == 1 and cc[0, K.K_TUSE] == 1
    gturn(inp, dyn, cc, bf, 0)   # Shade already on rough ground: not used again
    assert cc[0, K.K_TUSE] == 1
    mb41_call(BG.place_all, comb=inp.comb, rules=inp.rules, dyn=dyn, bf=bf)
    assert not (bf[BG.BF_TERRAIN] & G.ROUGH).any()


def test_rough_going_is_not_used_gridless():
    """Gridless Rough Going does nothing: never used, no overcharge."""
    inp, dyn, cc = setup([girl("Akari", ["Rough Going"])], [foe()])
    turn(inp, dyn, cc, Script(check=MISS), i=0)
    assert dyn[0, K.D_OC + FURY] == 0 and cc[0, K.K_TUSE] == 0


def test_rough_terrain_costs_two_hexes():
    """A roughened hex costs two hexes to leave (L1414, ``rough_cost: same_turn``): one Minor
    step does not move her; once the hex is plain it does."""
    inp, dyn, cc, bf = arena([girl("Akari")], [foe()])
    place(inp, dyn, bf, [(1, 4), (6, 4)])
    goal = int(dyn[1, K.D_POS])
    bf[BG.BF_TERRAIN][int(dyn[0, K.D_POS])] |= G.ROUGH
    args = dict(i=0, goal=goal, lo=1, hi=1, unlocked=True, deep=1)
    assert not grid_run(BG.minor_move, inp, dyn, cc, bf, **args)
    assert where(inp, dyn, 0) == [1, 4]
    bf[BG.BF_TERRAIN][int(dyn[0, K.D_POS])] = 0
    assert grid_run(BG.minor_move, inp, dyn, cc, bf, **args)
    assert where(inp, dyn, 0) == [2, 4]


@pytest.mark.parametrize("dead", [False, True])
def test_lashing_ground_makes_adjacent_hexes_rough(dead):
    """Lashing Ground (L2043-2045): the hexes next to the monster are rough terrain: Akari
    beside it cannot leave with one Minor step (as from rough terrain); the monster ignores
    it; once it is dead the ground is plain again."""
    inp, dyn, cc, bf = arena([girl("Akari")], [foe("Lasher", ["Lashing Ground"]), foe("Shade")])
    place(inp, dyn, bf, [(2, 4), (3, 4), (7, 0)])
    if dead:
        dyn[1, K.D_DEAD] = 1
        mb41_call(BG.place_all, comb=inp.comb, rules=inp.rules, dyn=dyn, bf=bf)
    args = dict(i=0, goal=int(dyn[2, K.D_POS]), lo=1, hi=1, unlocked=True, deep=1)
    assert grid_run(BG.minor_move, inp, dyn, cc, bf, **args) == dead
    assert (where(inp, dyn, 0) != [2, 4]) == dead
    assert not (bf[BG.BF_TERRAIN] & G.ROUGH).any()   # Lashing Ground writes no terrain
    if not dead:
        # the monster itself moves freely (its own hex is never next to itself)
        args = dict(i=1, goal=int(dyn[2, K.D_POS]), lo=1, hi=1, unlocked=True, deep=1)
        assert grid_run(BG.minor_move, inp, dyn, cc, bf, **args)


def test_burst_attack_cost_rule():
    """Rule ``burst_attack_cost: 1`` (A31b, like Blast Strike): the boss pays 1 pool point."""
    inp, dyn, cc = setup([girl("Akari"), girl("Bea")], [foe("Boss", ["Burst Attack"])],
                         rules={"burst_attack_cost": 1})
    turn(inp, dyn, cc, Script(check=MISS + MISS), i=2)
    assert dyn[2, K.D_POOL] == 9 and cc[2, K.K_POOL_SPENT] == 1 and cc[2, K.K_AREA_TARGETS] == 2


@pytest.mark.parametrize("name", ["Burst Attack", "Burst Attack (taken twice)"])
def test_burst_attack_taken_twice_is_two_hexes_wide(name):
    """Burst Attack taken twice (L1968: 'the line may be 2 hexes wide'): the line east and the
    parallel line from the boss's north-east neighbour; Bea (2 hexes, on the second line) is
    reached only then; with one line the boss makes its basic attack on Akari."""
    inp, dyn, cc, bf = arena([girl("Akari"), girl("Bea")], [foe("Boss", [name])])
    place(inp, dyn, bf, [(2, 4), (2, 3), (1, 4)])
    assert apart(inp, dyn, 2, 0) == 1 and apart(inp, dyn, 2, 1) == 2
    wide = name != "Burst Attack"
    gturn(inp, dyn, cc, bf, 2, check=HIT + (HIT if wide else []), damage=faces(3, 4) if wide else faces(3))
    assert dyn[0, K.D_RES] == 13 and dyn[1, K.D_RES] == (14 if wide else 18)
    assert cc[2, K.K_AREA_TARGETS] == (2 if wide else 0)


# ------------------------------------------------------------------ Mines


def test_mines_placed_in_its_hex():
    """Mines (L2059-2066, Minor, 1 pool): a mine in its own hex; not a second one within 1 hex
    of it (the girl 5 hexes away is out of reach: no dice)."""
    inp, dyn, cc, bf = arena([girl("Akari")], [foe("Imp", ["Mines"])])
    place(inp, dyn, bf, [(7, 4), (2, 4)])
    gturn(inp, dyn, cc, bf, 1)
    assert dyn[1, K.D_POOL] == 9 and dyn[1, K.D_MINE] == dyn[1, K.D_POS] and dyn[1, K.D_MINE + 1] == -1
    gturn(inp, dyn, cc, bf, 1)
    assert dyn[1, K.D_POOL] == 9 and cc[1, K.K_TUSE] == 1
    mb41_call(BG.place_all, comb=inp.comb, rules=inp.rules, dyn=dyn, bf=bf)
    mb41_call(K.reset, comb=inp.comb, rules=inp.rules, dyn=dyn)
    assert (dyn[1, K.D_MINE:K.D_MINE + K.MAXMINES] == -1).all()   # a new fight: no mines


def test_mines_not_used_gridless():
    """Gridless Mines do nothing: never placed, no pool spent; the Imp attacks instead."""
    inp, dyn, cc = setup([girl("Akari")], [foe("Imp", ["Mines"])])
    turn(inp, dyn, cc, Script(check=MISS), i=1)
    assert dyn[1, K.D_POOL] == 10 and cc[1, K.K_TUSE] == 0


@pytest.mark.parametrize("col", [2, 3])
def test_mine_detonates_after_its_owner_died(col):
    """A mine outlives its dead owner (L2065). Akari steps east into [2, 4]: a mine there or next
    to it detonates: the owner's basic melee attack (1d6 + 2) on everyone within 1 hex of the
    mine -- Akari, then Bea beside her (a miss) -- + 4 damage on Akari when she entered the
    mine's own hex (L2064). Her Major then moves her on (the mine is gone)."""
    inp, dyn, cc, bf = arena([girl("Akari", policy={"movement": "close-in"}), girl("Bea")],
                             [foe("Shade", ["Mines"]), foe("Umbra")])
    place(inp, dyn, bf, [(1, 4), (2, 3), (5, 0), (6, 4)])
    dyn[2, K.D_MINE] = inp.battlefield.cell_offset(col, 4)
    dyn[2, K.D_DEAD] = 1
    mb41_call(BG.place_all, comb=inp.comb, rules=inp.rules, dyn=dyn, bf=bf)
    gturn(inp, dyn, cc, bf, 0, check=HIT + MISS, damage=faces(3))
    own = col == 2
    assert dyn[0, K.D_RES] == 18 - (3 + 2 + (4 if own else 0)) and dyn[1, K.D_RES] == 18
    assert where(inp, dyn, 0) == [3, 4] and dyn[2, K.D_MINE] == -1
    assert cc[2, K.K_MINES] == 1 and cc[2, K.K_MINE_ATTACKS] == 2


@pytest.mark.parametrize("trigger", ["anyone", "enemies"])
def test_mine_trigger_rule(trigger):
    """Rule ``mine_trigger``: the owner's ally Umbra entering next to the mine sets it off
    ('anyone', someone else, L2062; the owner's attack misses her) or not ('enemies')."""
    inp, dyn, cc, bf = arena([girl("Akari")], [foe("Shade", ["Mines"]), foe("Umbra")],
                             rules={"mine_trigger": trigger})
    place(inp, dyn, bf, [(7, 7), (1, 1), (4, 4)])
    dyn[1, K.D_MINE] = inp.battlefield.cell_offset(5, 4)
    grid_run(BG.mine_sweep, inp, dyn, cc, bf, Script(check=MISS if trigger == "anyone" else []), i=2, p0=-1)
    assert cc[1, K.K_MINES] == (1 if trigger == "anyone" else 0)
    assert dyn[1, K.D_MINE] == (-1 if trigger == "anyone" else inp.battlefield.cell_offset(5, 4))


@pytest.mark.parametrize("step_out", [True, False])
def test_stepping_out_of_a_mines_range_sets_it_off_unharmed(step_out):
    """L2065: a mine placed with someone already in range detonates 'the next time somebody
    enters into or steps out of the range'; 'you can step away and it will detonate without
    harming you'. Akari steps from [2, 4] (next to the mine at [3, 4]) west to [1, 4]: the mine
    attacks Bea, still beside it at [4, 4] (a hit, 1d6 = 3 + 2 melee), not Akari. Rule
    ``mine_step_out: false``: nothing happens."""
    inp, dyn, cc, bf = arena([girl("Akari"), girl("Bea")], [foe("Shade", ["Mines"]), foe("Umbra")],
                             rules={"mine_step_out": step_out})
    place(inp, dyn, bf, [(1, 4), (4, 4), (7, 0), (7, 7)])
    mine = inp.battlefield.cell_offset(3, 4)
    dyn[2, K.D_MINE] = mine
    p0 = inp.battlefield.cell_offset(2, 4)
    s = Script(check=HIT, damage=faces(3)) if step_out else Script()
    dyn[0, K.D_MINE_FROM] = p0 + 1   # she left [2, 4] (what move_to records)
    grid_run(BG.stepped, inp, dyn, cc, bf, s, i=0)
    assert dyn[0, K.D_RES] == 18
    assert dyn[1, K.D_RES] == (18 - 5 if step_out else 18)
    assert dyn[2, K.D_MINE] == (-1 if step_out else mine)
    assert cc[2, K.K_MINES] == (1 if step_out else 0) and cc[2, K.K_MINE_ATTACKS] == (1 if step_out else 0)


def test_moving_within_a_mines_range_sets_it_off():
    """Entering a hex adjacent to the mine from another hex adjacent to it is entering (L2062):
    Akari steps from [2, 4] to [2, 3], both next to the mine at [3, 4]: it attacks her (a miss)."""
    inp, dyn, cc, bf = arena([girl("Akari")], [foe("Shade", ["Mines"])])
    place(inp, dyn, bf, [(2, 3), (7, 7)])
    assert inp.battlefield.cell_offset(3, 4) != dyn[1, K.D_POS]
    dyn[1, K.D_MINE] = inp.battlefield.cell_offset(3, 4)
    dyn[0, K.D_MINE_FROM] = inp.battlefield.cell_offset(2, 4) + 1
    grid_run(BG.stepped, inp, dyn, cc, bf, Script(check=MISS), i=0)
    assert cc[1, K.K_MINES] == 1 and cc[1, K.K_MINE_ATTACKS] == 1 and dyn[1, K.D_MINE] == -1


def test_dash_strikes_step_sets_off_a_mine():
    """Dash Strike's hex (L1807-1811) is entering a hex too (L2062): Akari steps from [3, 4]
    toward Shade and attacks it (a hit, 1d6 = 4 ranged); the step put her next to Umbra's mine
    at [3, 2], which goes off at the end of her turn: Umbra's melee attack on her (a miss)."""
    inp, dyn, cc, bf = arena([girl("Akari", ["Dash Strike"])], [foe("Shade"), foe("Umbra", ["Mines"])])
    place(inp, dyn, bf, [(3, 4), (3, 0), (7, 7)])
    mine = inp.battlefield.cell_offset(3, 2)
    dyn[2, K.D_MINE] = mine
    assert inp.battlefield.distance(int(dyn[0, K.D_POS]), mine) == 2
    gturn(inp, dyn, cc, bf, 0, check=HIT + MISS, damage=faces(4))
    assert apart(inp, dyn, 0, 1) == 3 and dyn[1, K.D_RES] == 18 - 4
    assert inp.battlefield.distance(int(dyn[0, K.D_POS]), mine) == 1
    assert cc[2, K.K_MINES] == 1 and cc[2, K.K_MINE_ATTACKS] == 1 and dyn[2, K.D_MINE] == -1


def test_a_forced_move_sets_off_a_mine():
    """Forced movement enters hexes as well (L2062, someone other than the monster): Get Over
    Here's pull (L1708-1712) brings Umbra from [4, 4] next to Shade's mine at [2, 4]; when the
    mines next look (after the turn) it attacks everyone next to it: Akari at [1, 4], then
    Umbra (two misses). Nothing is pending afterwards."""
    inp, dyn, cc, bf = arena([girl("Akari")], [foe("Shade", ["Mines"]), foe("Umbra")])
    place(inp, dyn, bf, [(1, 4), (7, 7), (4, 4)])
    mine = inp.battlefield.cell_offset(2, 4)
    dyn[1, K.D_MINE] = mine
    assert inp.battlefield.distance(int(dyn[2, K.D_POS]), mine) == 2
    grid_run(BG.shove, inp, dyn, cc, bf, i=0, t=2, sign=-1)
    assert inp.battlefield.distance(int(dyn[2, K.D_POS]), mine) == 1 and cc[1, K.K_MINES] == 0
    grid_run(BG.after_turn, inp, dyn, cc, bf, Script(check=MISS + MISS))
    assert cc[1, K.K_MINES] == 1 and cc[1, K.K_MINE_ATTACKS] == 2 and dyn[1, K.D_MINE] == -1
    assert (dyn[:, K.D_MINE_FROM] == 0).all()


def test_a_move_away_from_every_mine_sets_nothing_off_and_clears():
    inp, dyn, cc, bf = arena([girl("Akari")], [foe("Shade", ["Mines"])])
    place(inp, dyn, bf, [(1, 4), (7, 7)])
    dyn[1, K.D_MINE] = inp.battlefield.cell_offset(5, 0)
    grid_run(BG.shove, inp, dyn, cc, bf, i=1, t=0, sign=1)
    assert dyn[0, K.D_MINE_FROM] == inp.battlefield.cell_offset(1, 4) + 1
    grid_run(BG.after_turn, inp, dyn, cc, bf)
    assert dyn[0, K.D_MINE_FROM] == 0 and cc[1, K.K_MINES] == 0


# ------------------------------------------------------------------ Scattering shot


@pytest.mark.parametrize("self_, hit", [(True, True), (False, True), (True, False)])
def test_scattering_shot_pushes_everyone_out(self_, hit):
    """Scattering shot (L2092-2096, Major, 1 pool): a charged attack on Akari (1d6 + 2 melee);
    on a hit everyone within 4 hexes of her ('a radius of 5 including the central hex',
    ``scatter_edge``) is pushed out, the farthest first: Bea east to the edge (4 hexes), the
    boss west to the field's edge (``scatter_self``), Akari from the centre away from the boss
    until Bea blocks her. A miss: nothing more."""
    inp, dyn, cc, bf = arena([girl("Akari"), girl("Bea")], [foe("Boss", ["Scattering shot"])],
                             rules={"scatter_self": self_})
    place(inp, dyn, bf, [(2, 4), (3, 4), (1, 4)])
    gturn(inp, dyn, cc, bf, 2, check=HIT if hit else MISS, damage=faces(3) if hit else [])
    assert dyn[2, K.D_POOL] == 9 and cc[2, K.K_TUSE] == 1 and cc[2, K.K_AREA_TARGETS] == 0
    if not hit:
        assert [where(inp, dyn, j) for j in range(3)] == [[2, 4], [3, 4], [1, 4]]
        assert dyn[0, K.D_RES] == 18 and cc[2, K.K_FORCED] == 0
        return
    assert dyn[0, K.D_RES] == 13
    assert where(inp, dyn, 1) == [6, 4] and where(inp, dyn, 0) == [5, 4]
    assert where(inp, dyn, 2) == ([0, 4] if self_ else [1, 4])
    assert cc[2, K.K_FORCED] == 3 + 3 + (1 if self_ else 0)


def test_scattering_shot_not_used_gridless():
    """Gridless Scattering shot is never used (its push does nothing): a basic attack, no pool."""
    inp, dyn, cc = setup([girl("Akari"), girl("Bea")], [foe("Boss", ["Scattering shot"])])
    turn(inp, dyn, cc, Script(check=MISS), i=2)
    assert dyn[2, K.D_POOL] == 10 and cc[2, K.K_TUSE] == 0
