"""Reactions and attack origins on the hex grid (seed 000), with injected dice:
Minion Explosion from a minion's hex, Sprint off her turn, Defensive Switch on
area attacks and the Pendulum.

* Minion Explosion (L1987-1989, boss ability, Major, 1 overcharge): "an attack
  originating from one of its minions' hexes"; the minion is destroyed and a
  hit deals +1d6. On the grid the attack's form (melee next to the target,
  ranged at 2-3) and the line an interceptor must stand on are measured from
  the minion's hex (:func:`.battle_grid.blast_choice`, ``D_BLAST``).
* Sprint (L1726-1729, free, 2/Scene, once per round) "in response to an enemy
  making an attack on your ally": a guardian steps next to the attacked ally
  before the roll so that she can intercept the hit (L1469;
  :func:`.battle_grid.guard_sprint`): a turn's basic attack, a frenzy's attack
  and each target of an area attack.
* Defensive Switch (L1699-1703) on each target of an area attack (by an ally
  outside the area: one inside is attacked anyway, ``D_AREA_HIT``) and on the
  Pendulum's attack (L2143-2144).

The battlefield is 8 x 8, cells ``[col, row]``; in column 3, rows 4 -> 3 / 2 /
1 / 0 are 1 / 2 / 3 / 4 hexes apart. Girls are 4/4/3, monsters 3/3/3 with
damage bonus 0 and a pool of 5: melee damage 1d6 + 2, ranged 1d6 (L1453).
Every script must be drawn exactly.
"""
from __future__ import annotations

import pytest
from helpers import HOLD, Script, faces, grid_run
from helpers import grid_apart as apart, grid_arena as arena, grid_turn as turn, grid_where as where
from helpers import grid_place as place, hold_foe as foe, hold_girl as girl

from engine41 import BG
from engine41 import K

M_HIT = faces(5, 5, 1, 1)      # monster 10 + 3 = 13 vs 2 + 4 = 6 (no six: no pool spent)
COVER = faces(4, 4)            # intercept 8 + 4 = 12: 11-13, she takes the whole hit (L1469)


def imp(name="Imp"):
    return {"name": name, "kind": "minion", "attack": 2, "hp": 2, "passive_defence": 6, "policy": dict(HOLD)}


def blast_arena(cells, girls=None):
    """Akari (row 0), Lurker with Minion Explosion (row 1), an imp (row 2), on ``cells``."""
    inp, dyn, cc, bf = arena(girls or [girl()], [foe("Lurker", talents=["Minion Explosion"]), imp()])
    place(inp, dyn, bf, cells)
    return inp, dyn, cc, bf


def assert_exploded(inp, dyn, cc, bf, row=2):
    assert dyn[row, K.D_DEAD] == 1 and cc[row, K.K_DEATHS] == 1
    assert dyn[row, K.D_POS] == -1 and row not in list(bf[BG.BF_OCC])   # it left its hex
    lurker = [k for k, n in enumerate(inp.names) if n == "Lurker"][0]
    assert dyn[lurker, K.D_POOL] == 4 and cc[lurker, K.K_TUSE] == 1 and dyn[lurker, K.D_BLAST] == 0


# ------------------------------------------------------------------ Minion Explosion


def test_minion_explosion_attacks_from_the_minion_next_to_her():
    """Lurker is 4 hexes from Akari (out of every range), its imp next to her:
    the attack comes from the imp's hex, a melee hit: 1d6 + 2 + 1d6 (2 + 2 + 5)."""
    inp, dyn, cc, bf = blast_arena([(3, 4), (3, 0), (3, 3)])
    assert apart(inp, dyn, 0, 1) == 4 and apart(inp, dyn, 0, 2) == 1
    turn(inp, dyn, cc, bf, 1, check=M_HIT, damage=faces(2, 5))
    assert dyn[0, K.D_RES] == 18 - 9 and cc[1, K.K_ATTACKS] == 1
    assert apart(inp, dyn, 0, 1) == 4   # Lurker held its ground
    assert_exploded(inp, dyn, cc, bf)


def test_minion_explosion_from_two_hexes_is_a_ranged_attack():
    """The imp 2 hexes from Akari: the attack from its hex is ranged (1d6 + 1d6 = 3 + 4)."""
    inp, dyn, cc, bf = blast_arena([(3, 4), (7, 4), (3, 2)])
    assert apart(inp, dyn, 0, 1) == 4 and apart(inp, dyn, 0, 2) == 2
    turn(inp, dyn, cc, bf, 1, check=M_HIT, damage=faces(3, 4))
    assert dyn[0, K.D_RES] == 18 - 7
    assert_exploded(inp, dyn, cc, bf)


def test_no_minion_in_reach_no_explosion():
    """Neither Lurker nor its imp reaches Akari: nothing happens (a holding Lurker)."""
    inp, dyn, cc, bf = blast_arena([(3, 4), (3, 0), (7, 7)])
    assert apart(inp, dyn, 0, 1) == 4 and apart(inp, dyn, 0, 2) > 3
    turn(inp, dyn, cc, bf, 1)
    assert dyn[0, K.D_RES] == 18 and cc[1, K.K_ATTACKS] == 0
    assert dyn[2, K.D_DEAD] == 0 and dyn[1, K.D_POOL] == 5 and cc[1, K.K_TUSE] == 0


@pytest.mark.parametrize("imp_at, explodes", [((3, 5), True), ((7, 7), False)])
def test_in_reach_itself_it_explodes_only_a_minion_that_reaches_her(imp_at, explodes):
    """Lurker stands next to Akari. An imp on her other side reaches her: the
    explosion (melee from the imp's hex, 2 + 2 + 5). An imp across the field
    does not: a plain melee attack (2 + 2) and the imp lives (gridless any
    minion would do, the grid asks for its hex)."""
    inp, dyn, cc, bf = blast_arena([(3, 4), (3, 3), imp_at])
    turn(inp, dyn, cc, bf, 1, check=M_HIT, damage=faces(2, 5) if explodes else faces(2))
    if explodes:
        assert dyn[0, K.D_RES] == 18 - 9
        assert_exploded(inp, dyn, cc, bf)
    else:
        assert dyn[0, K.D_RES] == 18 - 4
        assert dyn[2, K.D_DEAD] == 0 and dyn[1, K.D_POOL] == 5 and dyn[1, K.D_BLAST] == 0


def test_minion_explosion_without_the_pool_is_not_used():
    """No overcharge left in the pool: no explosion; out of reach, no attack."""
    inp, dyn, cc, bf = blast_arena([(3, 4), (3, 0), (3, 3)])
    dyn[1, K.D_POOL] = 0
    turn(inp, dyn, cc, bf, 1)
    assert dyn[0, K.D_RES] == 18 and dyn[2, K.D_DEAD] == 0 and cc[1, K.K_ATTACKS] == 0


def test_no_minion_explosion_in_an_ambush_turn():
    """Ambush Tactics' turn (L2006): the ambush's +3 and +1d6 take the attack's special slot
    (as gridless, where the ambush comes before Minion Explosion): a plain melee hit from its
    own hex, 2 + 2 + 5; the imp next to Akari lives and the pool is untouched."""
    inp, dyn, cc, bf = arena([girl()], [foe("Lurker", talents=["Ambush Tactics", "Minion Explosion"]), imp()])
    place(inp, dyn, bf, [(3, 4), (3, 3), (3, 5)])
    dyn[1, K.D_AMBUSH] = 1
    turn(inp, dyn, cc, bf, 1, check=M_HIT, damage=faces(2, 5))
    assert dyn[0, K.D_RES] == 18 - 9 and dyn[2, K.D_DEAD] == 0 and dyn[1, K.D_POOL] == 5
    assert dyn[1, K.D_BLAST] == 0


def test_the_line_of_interception_runs_from_the_minions_hex():
    """The imp 3 hexes up the column from Akari; Beni (intercept always) stands
    on that line, 2 hexes from Akari, off the line from Lurker's own hex. The
    ranged attack from the imp's hex can be intercepted: Beni takes 2 + 5."""
    inp, dyn, cc, bf = blast_arena([(3, 4), (3, 2), (7, 4), (3, 1)],
                                   girls=[girl(), girl("Beni", policy={"intercept": "always"})])
    assert apart(inp, dyn, 0, 1) == 2 and apart(inp, dyn, 0, 2) == 4 and apart(inp, dyn, 0, 3) == 3
    turn(inp, dyn, cc, bf, 2, check=M_HIT + COVER, damage=faces(2, 5))
    assert dyn[0, K.D_RES] == 18 and dyn[1, K.D_RES] == 18 - 7
    assert cc[1, K.K_INTERCEPTS] == 1
    assert_exploded(inp, dyn, cc, bf, row=3)


# ------------------------------------------------------------------ Sprint off her turn


def sprint_arena(beni_at, **beni):
    """Akari (5 Resolve left) next to Shade; Beni with Sprint at ``beni_at``."""
    pol = {"intercept": beni.pop("intercept", "always")}
    inp, dyn, cc, bf = arena([girl(), girl("Beni", talents=["Sprint"], policy=pol, **beni)], [foe()])
    place(inp, dyn, bf, [(3, 4), beni_at, (3, 3)])
    dyn[0, K.D_RES] = 5
    return inp, dyn, cc, bf


def test_sprint_off_her_turn_to_intercept():
    """Shade attacks Akari; nobody could intercept. Beni, 2 hexes away, Sprints
    one hex next to Akari before the roll and intercepts (12: the whole 2 + 2)."""
    inp, dyn, cc, bf = sprint_arena((3, 6))
    assert apart(inp, dyn, 0, 1) == 2
    turn(inp, dyn, cc, bf, 2, check=M_HIT + COVER, damage=faces(2))
    assert apart(inp, dyn, 0, 1) == 1
    assert dyn[0, K.D_RES] == 5 and dyn[1, K.D_RES] == 18 - 4
    assert cc[1, K.K_INTERCEPTS] == 1 and cc[1, K.K_GUARD_SPRINTS] == 1 and cc[1, K.K_TALENT_MOVES] == 1
    assert dyn[1, K.D_TUSES + 0] == 1 and dyn[1, K.D_SPRINT_AT] == dyn[0, K.D_ROUND]


def test_sprint_off_her_turn_once_per_round():
    """She sprinted on her own turn this round: no second Sprint; Akari takes the hit."""
    inp, dyn, cc, bf = sprint_arena((3, 6))
    dyn[1, K.D_SPRINT_AT] = dyn[0, K.D_ROUND]
    turn(inp, dyn, cc, bf, 2, check=M_HIT, damage=faces(2))
    assert dyn[0, K.D_RES] == 1 and apart(inp, dyn, 0, 1) == 2 and cc[1, K.K_GUARD_SPRINTS] == 0


@pytest.mark.parametrize("why", ["adjacent", "never", "bound", "far"])
def test_no_sprint_when_not_needed_or_not_allowed(why):
    """Already next to Akari (she intercepts without moving), an unwilling
    policy, Bound, or two steps away: no Sprint."""
    cell = {"adjacent": (2, 4), "far": (3, 7)}.get(why, (3, 6))
    inp, dyn, cc, bf = sprint_arena(cell, intercept="never" if why == "never" else "always")
    if why == "bound":
        dyn[1, K.D_AIL + K.A_BOUND] = 1
    before = apart(inp, dyn, 0, 1)
    covers = why == "adjacent"
    turn(inp, dyn, cc, bf, 2, check=M_HIT + (COVER if covers else []), damage=faces(2))
    assert apart(inp, dyn, 0, 1) == before and cc[1, K.K_GUARD_SPRINTS] == 0 and dyn[1, K.D_TUSES + 0] == 2
    assert dyn[0, K.D_RES] == (5 if covers else 1)


def test_sprint_off_her_turn_against_a_frenzys_attack():
    """Fria, frenzied (L746), attacks the closest combatant: her ally Akari next to her (the
    Shade is far). Beni Sprints next to Akari before the roll and intercepts the whole hit
    (12, L1469): 2 + 2 and the frenzy's +1d6 (4, two Fury). Fria's regen die comes first."""
    inp, dyn, cc, bf = arena([girl(), girl("Beni", talents=["Sprint"], policy={"intercept": "always"}),
                              girl("Fria")], [foe()])
    place(inp, dyn, bf, [(3, 4), (3, 6), (3, 3), (7, 0)])
    dyn[0, K.D_RES] = 5
    dyn[2, K.D_FRENZY] = 1
    dyn[2, K.D_OC + 1] = 13
    grid_run(K.play_frenzied, inp, dyn, cc, bf, Script(check=faces(5, 5, 1, 1) + COVER, damage=faces(3, 2, 4)),
             i=2)
    assert apart(inp, dyn, 0, 1) == 1 and cc[1, K.K_GUARD_SPRINTS] == 1 and cc[1, K.K_INTERCEPTS] == 1
    assert dyn[0, K.D_RES] == 5 and dyn[1, K.D_RES] == 18 - (2 + 2 + 4) and dyn[2, K.D_OC + 1] == 11


def test_sprint_off_her_turn_against_an_area_attack():
    """The Boss's Burst Attack along row 4 reaches Akari (5 Resolve left, 1 hex) and Bea
    (3 hexes). Beni (Sprint; intercepts below half Resolve), 2 hexes from Akari off the
    line, Sprints next to her before that target's roll and intercepts the whole melee hit
    (2 + 2); Bea's ranged hit (4) lands: Beni will not intercept for her (18 of 18) and
    has sprinted this round. Beni, stepping toward the line, is not a target."""
    inp, dyn, cc, bf = arena([girl(), girl("Bea"), girl("Beni", talents=["Sprint"],
                                                       policy={"intercept": "protect-below 50"})],
                             [foe("Boss", talents=["Burst Attack"])])
    place(inp, dyn, bf, [(2, 4), (4, 4), (2, 2), (1, 4)])
    dyn[0, K.D_RES] = 5
    turn(inp, dyn, cc, bf, 3, check=M_HIT + COVER + M_HIT, damage=faces(2, 4))
    assert apart(inp, dyn, 0, 2) == 1 and cc[2, K.K_GUARD_SPRINTS] == 1 and cc[2, K.K_INTERCEPTS] == 1
    assert dyn[0, K.D_RES] == 5 and dyn[2, K.D_RES] == 18 - 4 and dyn[1, K.D_RES] == 18 - 4
    assert cc[3, K.K_AREA_TARGETS] == 2


# ------------------------------------------------------------------ Defensive Switch: area attacks, the Pendulum


def area_arena(cara_at):
    """Boss (Burst Attack) at [1, 4]; Akari (5 Resolve left, 1 hex east) and Bea (3 hexes
    east) on its line; Cara (Defensive Switch, intercept below 50%: Akari's 5 of 18 is) at
    ``cara_at``."""
    inp, dyn, cc, bf = arena([girl(), girl("Bea"), girl("Cara", talents=["Defensive Switch"],
                                                       policy={"intercept": "protect-below 50"})],
                             [foe("Boss", talents=["Burst Attack"])])
    place(inp, dyn, bf, [(2, 4), (4, 4), cara_at, (1, 4)])
    dyn[0, K.D_RES] = 5
    return inp, dyn, cc, bf


def test_defensive_switch_takes_an_area_attack_for_an_ally():
    """Cara, 2 hexes from Akari and off the line, swaps places with her before the
    roll: Cara takes the melee hit (3 + 2), Bea the ranged one (4: Cara stands on its
    line but Bea keeps 14 of 18, no Intercept); Akari, now off the line, is not
    attacked, nor is Cara a second time."""
    inp, dyn, cc, bf = area_arena((2, 2))
    a0, c0 = where(inp, dyn, 0), where(inp, dyn, 2)
    turn(inp, dyn, cc, bf, 3, check=M_HIT + M_HIT, damage=faces(3, 4))
    assert where(inp, dyn, 0) == c0 and where(inp, dyn, 2) == a0
    assert [int(dyn[j, K.D_RES]) for j in range(3)] == [5, 18 - 4, 18 - 5]
    assert cc[2, K.K_SWITCHES] == 1 and cc[3, K.K_AREA_TARGETS] == 2
    assert list(dyn[:, K.D_AREA_HIT]) == [0, 0, 0, 0]


def test_no_defensive_switch_by_a_target_of_the_same_area_attack():
    """Cara stands on the line herself (2 hexes): she is attacked anyway and does not
    switch; all three are attacked (melee 1 + 2 on Akari, which Cara next to her
    intercepts with 12 and takes whole; ranged 4 on Bea and 2 on Cara)."""
    inp, dyn, cc, bf = area_arena((3, 4))
    turn(inp, dyn, cc, bf, 3, check=M_HIT + COVER + M_HIT + M_HIT, damage=faces(1, 4, 2))
    assert [int(dyn[j, K.D_RES]) for j in range(3)] == [5, 18 - 4, 18 - 3 - 2]
    assert cc[2, K.K_INTERCEPTS] == 1
    assert cc[2, K.K_SWITCHES] == 0 and cc[3, K.K_AREA_TARGETS] == 3


PEND = {"width": 8, "height": 8,
        "labyrinth": {"owner": "Shade", "pendulum": {"trajectory": [[1, 3], [2, 3], [3, 3], [4, 3]], "length": 1}}}


@pytest.mark.parametrize("switch", [True, False])
def test_defensive_switch_takes_the_pendulums_attack(switch):
    """The Pendulum swings to [2, 3] at the end of round 1 and attacks Akari there
    (Shade's Attack 3: 13 against 6, 1d6 = 4). Beni (Defensive Switch, 2 hexes
    away) swaps places with her and takes it; without the talent Akari does."""
    inp, dyn, cc, bf = arena([girl(), girl("Beni", talents=["Defensive Switch"] if switch else [],
                                           policy={"intercept": "always"})], [foe()], battlefield=PEND)
    place(inp, dyn, bf, [(2, 3), (2, 5), (7, 7)])
    dyn[0, K.D_RES] = 5
    grid_run(BG.end_of_round, inp, dyn, cc, bf, Script(check=M_HIT, damage=faces(4)), r=1)
    if switch:
        assert where(inp, dyn, 1) == [2, 3] and where(inp, dyn, 0) == [2, 5]
        assert dyn[0, K.D_RES] == 5 and dyn[1, K.D_RES] == 18 - 4
        assert cc[1, K.K_PENDULUM] == 1 and cc[1, K.K_SWITCHES] == 1
    else:
        assert dyn[0, K.D_RES] == 1 and cc[0, K.K_PENDULUM] == 1


M_MISS = faces(1, 1, 3, 3)     # monster 2 + 3 = 5 vs 6 + 4 = 10


@pytest.mark.parametrize("cara_at, switch", [((2, 2), True), ((4, 4), False)])
def test_defensive_switch_takes_a_mines_attack(cara_at, switch):
    """Akari (5 Resolve left) enters [2, 4], next to Shade's mine at [3, 4] (L2062): it goes
    off, Shade's basic melee attack on everyone within 1 of it. Cara (Defensive Switch,
    intercept below 50%), 2 hexes away and outside the blast, swaps places with Akari and
    takes the attack (13 against 6: 3 + 2). Cara next to the mine herself is attacked
    anyway: no switch, both are attacked (Akari hit for 1 + 2, Cara missed)."""
    inp, dyn, cc, bf = arena([girl(), girl("Cara", talents=["Defensive Switch"],
                                           policy={"intercept": "protect-below 50"})],
                             [foe(talents=["Mines"])])
    place(inp, dyn, bf, [(2, 4), cara_at, (7, 0)])
    dyn[2, K.D_MINE] = inp.battlefield.cell_offset(3, 4)
    dyn[0, K.D_RES] = 5
    if switch:
        grid_run(BG.mine_sweep, inp, dyn, cc, bf, Script(check=M_HIT, damage=faces(3)), i=0, p0=-1)
        assert where(inp, dyn, 1) == [2, 4] and where(inp, dyn, 0) == [2, 2]
        assert dyn[0, K.D_RES] == 5 and dyn[1, K.D_RES] == 18 - 5 and cc[1, K.K_SWITCHES] == 1
        assert cc[2, K.K_MINE_ATTACKS] == 1
    else:
        grid_run(BG.mine_sweep, inp, dyn, cc, bf, Script(check=M_HIT + M_MISS, damage=faces(1)), i=0, p0=-1)
        assert dyn[0, K.D_RES] == 5 - 3 and dyn[1, K.D_RES] == 18 and cc[1, K.K_SWITCHES] == 0
        assert cc[2, K.K_MINE_ATTACKS] == 2
    assert cc[2, K.K_MINES] == 1 and dyn[2, K.D_MINE] == -1
    assert list(dyn[:, K.D_AREA_HIT]) == [0, 0, 0]


# ------------------------------------------------------------------ mines along a 2-hex move


def bent_path(field):
    """Cells (A, X, Y, B, M) on ``field``: B two hexes from A off the straight lines, X and Y
    the two hexes next to both, and a mine cell M next to X but more than 1 hex from A, B and Y."""
    n = field.n
    d = field.distance
    for a in range(n):
        for b in range(n):
            if d(a, b) != 2:
                continue
            common = [x for x in field.nbr[a] if x >= 0 and d(int(x), b) == 1]
            if len(common) != 2:
                continue
            x, y = int(common[0]), int(common[1])
            for m in range(n):
                if d(m, x) == 1 and d(m, a) > 1 and d(m, b) > 1 and d(m, y) > 1:
                    return a, x, y, b, m
    raise AssertionError("no bent path on this field")


@pytest.mark.parametrize("mine_on_path", [True, False])
def test_a_two_hex_move_sets_off_a_mine_next_to_the_hex_between(mine_on_path):
    """Swift (L2109-2112, 2 hexes): Akari moves from A to B through X (Bea stands on the other
    hex between, Y). A mine next to X, more than 1 hex from A and B, goes off as she passes
    (L2062: 'enters a hex adjacent to the object'): Shade's melee attack hits her there (3 + 2),
    then she goes on to B. Without the mine nothing happens."""
    inp, dyn, cc, bf = arena([girl(talents=["Swift"]), girl("Bea")], [foe(talents=["Mines"])])
    a, x, y, b, m = bent_path(inp.battlefield)
    far = [c for c in range(inp.battlefield.n) if min(inp.battlefield.distance(c, k) for k in (a, b, m, x, y)) > 2][0]
    dyn[0, K.D_POS], dyn[1, K.D_POS], dyn[2, K.D_POS] = a, y, far
    from helpers import mb41_call
    mb41_call(BG.place_all, comb=inp.comb, rules=inp.rules, dyn=dyn, bf=bf)
    if mine_on_path:
        dyn[2, K.D_MINE] = m
    slot = 0
    assert inp.comb[0, K.C_TCODE + slot] == K.E_EXTRA_MOVE
    script = Script(check=M_HIT, damage=faces(3)) if mine_on_path else Script()
    assert grid_run(BG.extra_move, inp, dyn, cc, bf, script, i=0, s=slot, m=b, n=2)
    assert dyn[0, K.D_POS] == b and cc[0, K.K_MOVES] == 2
    assert dyn[0, K.D_RES] == (18 - 5 if mine_on_path else 18) and dyn[1, K.D_RES] == 18
    assert dyn[2, K.D_MINE] == -1 and cc[2, K.K_MINES] == (1 if mine_on_path else 0)
