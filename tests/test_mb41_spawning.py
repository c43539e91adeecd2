"""Combatants that appear mid-fight in 4.1 (seed 000): reserve rows absent at
the start of every fight and scene, made present by Minion Creation
(L1981-1985), the Heart Burst's creature (L451-453, A8a, ``heart_burst:
spawn``) and Marionette's copy (L1831-1834), with injected dice.

Default roles (tests/helpers.py): attack = fury, defence = heart, support =
judgment. ``girl`` is 4/4/3 with Resolve 18; ``boss`` 3/3/3, Resolve 40,
damage bonus 0, pool 10.
"""
from __future__ import annotations

import numpy as np
import pytest
from helpers import Script, faces, load_data, mb41_call, mb41_data, mb41_inputs, mb41_state
from helpers import grid_apart, grid_arena, grid_put
from helpers import mb41_boss as boss, mb41_girl as girl, mb41_run as call, mb41_setup as setup

from sim.scenario.errors import ScenarioError
from engine41 import BG
from engine41 import K, standing
from sim.systems.mb41.gates import hook_bits

HEART = 0
MISS = faces(1, 1, 3, 3)   # attacker 2 + stat vs defender 6 + stat: a miss for any stats here
HIT = faces(3, 3, 1, 1)    # 6 + 4 = 10 vs 2 + 3 = 5


def creator(**fields):
    """A spread-2 boss with Minion Creation (1 OC per minion, L1983)."""
    m = dict(talents=["Minion Creation"], spread=2, creates={"count": 3})
    m.update(fields)
    return boss(**m)


def fight(inp, dyn, cc, script):
    """``kernel.fight`` with the curves returned: ``(outcome, rounds, side_curve, comb_curve)``."""
    n, cap = inp.n, inp.round_cap
    scratch = np.zeros(n, dtype=np.int64)
    side_curve = np.zeros((2, 2, cap + 1), dtype=np.int64)
    comb_curve = np.zeros((n, 2, cap + 1), dtype=np.int64)
    out = mb41_call(K.fight, comb=inp.comb, pol=inp.pol, rules=inp.rules, dyn=dyn, order=np.zeros(n, dtype=np.int64),
                    key=scratch, streams=script.streams, cc=cc, side_curve=side_curve, comb_curve=comb_curve)
    script.assert_consumed()
    return int(out[0]), int(out[1]), side_curve, comb_curve


# ------------------------------------------------------------------ reserve rows


def test_reserve_rows_are_compiled_named_and_absent_at_the_start():
    """``creates.count`` reserve rows of the monster's side, named after it; at
    the start they are absent: not standing, no Resolve, no hex."""
    inp, dyn, cc = setup([girl()], [creator(creates={"minion": "Maintenance imps", "count": 3})])
    assert inp.names == ["Akari", "Boss", "Boss's minion 1", "Boss's minion 2", "Boss's minion 3"]
    assert inp.kinds == ["girl", "monster", "minion", "minion", "minion"]
    assert inp.sides == [0, 1, 1, 1, 1]
    assert inp.comb[2:, K.C_SPAWN_KIND].tolist() == [K.SPAWN_MINION] * 3
    assert inp.comb[2:, K.C_SPAWN_BY].tolist() == [1, 1, 1]
    assert inp.comb[:2, K.C_SPAWN_KIND].tolist() == [0, 0]
    # the imps' stat block (L2198-2202): 4 HP, passive defence 6, Att & Supp 2
    assert inp.comb[2, K.C_RES] == 4 and inp.comb[2, K.C_PDEF] == 6 and inp.comb[2, K.C_ATT] == 2
    # Minion Creation's P1 is the monster's spread (L1985)
    assert inp.comb[1, K.C_TP1] == 2 and inp.comb[1, K.C_TCODE] == K.E_MINION_CREATION
    for j in (2, 3, 4):
        assert dyn[j, K.D_ABSENT] == 1 and dyn[j, K.D_DEAD] == 1 and dyn[j, K.D_RES] == 0
        assert not standing(dyn, j)
        assert dyn[j, K.D_POS] == -1
    assert dyn[0, K.D_ABSENT] == 0 and dyn[1, K.D_ABSENT] == 0


def test_a_reserve_rows_fear_aura_arrives_and_ends_with_it():
    """Gridless, a Fear Aura (L2021) counts from the start only for combatants present
    (``C_FEAR0``); a reserve row holding one adds it to its enemies' penalty when it appears
    and takes it off when it dies (no stale bonus is left behind)."""
    inp, dyn, cc = setup([girl()], [creator(creates={"minion": "Maintenance imps", "count": 1})])
    comb = inp.comb
    comb[2, K.C_TCODE + 2] = K.E_FEAR_AURA   # give the reserve imp a Fear Aura of 1 in a free slot
    comb[2, K.C_TP1 + 2] = 1
    comb[2, K.C_TMASK] |= 1 << K.E_FEAR_AURA
    hook_bits(comb)  # its hooks (APPEAR, DEATH) for the edited row, and a table that holds them
    inp.__dict__.pop("_live_rules", None)
    assert comb[0, K.C_FEAR0] == 0 and dyn[0, K.D_FEAR] == 0
    assert mb41_call(K.appear, j=2, anchor=-1, comb=comb, rules=inp.rules, dyn=dyn, cc=cc, bf=None)
    assert dyn[0, K.D_FEAR] == 1 and dyn[1, K.D_FEAR] == 0
    call(K.apply_damage, inp, dyn, cc, Script(), t=2, dmg=10)
    assert dyn[2, K.D_DEAD] == 1 and dyn[0, K.D_FEAR] == 0


def test_minion_creation_defaults_and_schema():
    """No ``creates``: the guidelines' minion (HP 4, passive defence 4,
    L2170-2172; attack ``minion_creation_attack`` 2) and
    ``minion_creation_count`` 4 rows; a monster without ``spread`` creates 1
    per turn; ``creates`` without the ability is an error."""
    inp = mb41_inputs(mb41_data([girl()], [boss(talents=["Minion Creation"])]))
    assert inp.n == 2 + 4
    assert inp.comb[2, K.C_RES] == 4 and inp.comb[2, K.C_PDEF] == 4 and inp.comb[2, K.C_ATT] == 2
    assert inp.comb[2, K.C_SUP] == 2
    assert inp.comb[1, K.C_TP1] == 1
    inp = mb41_inputs(mb41_data([girl()], [boss(talents=["Minion Creation"])],
                                rules={"minion_creation_default": "Spider nanny", "minion_creation_count": 2}))
    assert inp.n == 4 and inp.comb[3, K.C_RES] == 3 and inp.comb[3, K.C_PDEF] == 5 and inp.comb[3, K.C_ATT] == 5
    inp = mb41_inputs(mb41_data([girl()], [boss(talents=["Minion Creation"],
                                                creates={"count": 1, "hp": 7, "attack": 3})]))
    assert inp.n == 3 and inp.comb[2, K.C_RES] == 7 and inp.comb[2, K.C_ATT] == 3
    with pytest.raises(ScenarioError, match="creates"):
        load_data(mb41_data([girl()], [boss(creates={"count": 2})]))
    with pytest.raises(ScenarioError, match="minion"):
        load_data(mb41_data([girl()], [boss(talents=["Minion Creation"], creates={"minion": "Gremlins"})]))


def test_nobody_targets_a_reserve_row_and_it_does_not_count_for_victory():
    """A boss without pool never creates; the girl's only target is the boss,
    and when it falls her side wins though the reserve rows are 'alive'. They
    stand in no survival curve and never appeared."""
    inp, dyn, cc = setup([girl()], [creator(resolve=3, overcharge_pool=0)])
    # Akari 6 + 4 = 10 vs 2 + 3 = 5; 1 + 2 melee = 3: the boss is out
    outcome, rounds, side_curve, comb_curve = fight(inp, dyn, cc, Script(check=HIT, damage=faces(1)))
    assert (outcome, rounds) == (K.F_WIN, 1)
    assert cc[1, K.K_DEATHS] == 1 and cc[1, K.K_TAKEN] == 3
    for j in (2, 3, 4):
        assert cc[j, K.K_APPEARED] == 0 and cc[j, K.K_TAKEN] == 0 and cc[j, K.K_DEATHS] == 0
        assert cc[j, K.K_STANDING_END] == 0 and comb_curve[j].sum() == 0
    assert cc[1, K.K_CREATED] == 0 and cc[1, K.K_POOL_SPENT] == 0
    j = mb41_call(K.target_of, i=0, comb=inp.comb, rules=inp.rules, dyn=dyn, streams=Script().streams)
    assert j == -1   # the boss is dead, the reserve rows are not there


# ------------------------------------------------------------------ Minion Creation


def test_minion_creation_makes_at_most_spread_per_turn_and_pays_one_each():
    """Minor, 1+ OC: 1 minion per OC spent, at most its spread (2) in one turn
    (L1981-1985); it creates while it has pool and reserve rows (3)."""
    inp, dyn, cc = setup([girl()], [creator()])
    assert call(K.minor_talent, inp, dyn, cc, Script(), i=1) == 1
    assert [dyn[j, K.D_ABSENT] for j in (2, 3, 4)] == [0, 0, 1]
    assert dyn[2, K.D_RES] == 4 and dyn[3, K.D_RES] == 4 and dyn[2, K.D_DEAD] == 0
    assert standing(dyn, 2) and standing(dyn, 3) and not standing(dyn, 4)
    assert dyn[1, K.D_POOL] == 8 and cc[1, K.K_POOL_SPENT] == 2
    assert cc[1, K.K_CREATED] == 2 and cc[1, K.K_TUSE] == 1          # one Minor action
    assert cc[2, K.K_APPEARED] == 1 and cc[3, K.K_APPEARED] == 1 and cc[4, K.K_APPEARED] == 0
    # next turn: only one row is left in reserve
    assert call(K.minor_talent, inp, dyn, cc, Script(), i=1) == 1
    assert dyn[4, K.D_ABSENT] == 0 and dyn[1, K.D_POOL] == 7 and cc[1, K.K_CREATED] == 3
    # never more than the reserve: no Minor used, nothing paid
    assert call(K.minor_talent, inp, dyn, cc, Script(), i=1) == 0
    assert dyn[1, K.D_POOL] == 7 and cc[1, K.K_CREATED] == 3 and cc[1, K.K_TUSE] == 2
    # a destroyed minion stays gone: its row is not created again
    dyn[2, K.D_RES] = 0
    dyn[2, K.D_DEAD] = 1
    assert call(K.minor_talent, inp, dyn, cc, Script(), i=1) == 0
    assert dyn[2, K.D_DEAD] == 1 and dyn[1, K.D_POOL] == 7


def test_minion_creation_stops_at_the_pool():
    inp, dyn, cc = setup([girl()], [creator(spread=3, overcharge_pool=1)])
    assert call(K.minor_talent, inp, dyn, cc, Script(), i=1) == 1
    assert [dyn[j, K.D_ABSENT] for j in (2, 3, 4)] == [0, 1, 1]
    assert dyn[1, K.D_POOL] == 0 and cc[1, K.K_CREATED] == 1
    assert call(K.minor_talent, inp, dyn, cc, Script(), i=1) == 0
    assert [dyn[j, K.D_ABSENT] for j in (2, 3, 4)] == [0, 1, 1]


def test_created_minions_take_turns_from_the_next_round():
    """Round 1: Akari misses the boss; the boss creates 2 minions (Minor, 2
    OC) and misses; they wait (``spawn_acts: next_round``). Round 2: Akari
    hits the weakest, a minion (2 + 4 = 6 > passive defence 4; 1 + 2 = 3 of
    its 4 HP); the boss has no reserve left and attacks; each minion
    attacks (2 + 2 = 4 vs 6 + 4 = 10)."""
    inp, dyn, cc = setup([girl()], [creator(creates={"count": 2})], rules={"round_cap": 2})
    s = Script(check=MISS + MISS + faces(1, 1) + MISS + MISS + MISS, damage=faces(1))
    outcome, rounds, side_curve, comb_curve = fight(inp, dyn, cc, s)
    assert (outcome, rounds) == (K.F_DRAW, 2)
    assert cc[1, K.K_CREATED] == 2 and dyn[1, K.D_POOL] == 8
    assert cc[0, K.K_ATTACKS] == 2 and cc[1, K.K_ATTACKS] == 2
    assert cc[2, K.K_ATTACKS] == 1 and cc[3, K.K_ATTACKS] == 1
    assert dyn[2, K.D_RES] == 1 and dyn[3, K.D_RES] == 4
    # they stood at the end of round 1 (plane 0) and at the end (plane 1, round 2)
    assert comb_curve[2, 0, 1] == 1 and comb_curve[2, 1, 2] == 1
    assert dyn[2, K.D_APPEARED] == 2   # round 1 + 1


def test_spawn_acts_same_round_lets_them_act_at_their_initiative_slot():
    """``spawn_acts: same_round``: listed after the boss, they attack in round 1."""
    inp, dyn, cc = setup([girl()], [creator(creates={"count": 2})], rules={"round_cap": 1, "spawn_acts": "same_round"})
    outcome, rounds, _, _ = fight(inp, dyn, cc, Script(check=MISS * 4))
    assert (outcome, rounds) == (K.F_DRAW, 1)
    assert cc[2, K.K_ATTACKS] == 1 and cc[3, K.K_ATTACKS] == 1


def test_a_new_fight_and_a_new_scene_start_with_the_reserve_absent_again():
    inp, dyn, cc = setup([girl()], [creator()])
    call(K.minor_talent, inp, dyn, cc, Script(), i=1)
    assert dyn[2, K.D_ABSENT] == 0
    mb41_call(K.reset, comb=inp.comb, rules=inp.rules, dyn=dyn)
    assert dyn[2, K.D_ABSENT] == 1 and dyn[2, K.D_DEAD] == 1 and dyn[2, K.D_RES] == 0
    assert dyn[1, K.D_POOL] == 10
    call(K.minor_talent, inp, dyn, cc, Script(), i=1)
    mb41_call(K.reset_row, i=2, comb=inp.comb, rules=inp.rules, dyn=dyn)
    assert dyn[2, K.D_ABSENT] == 1 and not standing(dyn, 2)
    assert "D_ABSENT" in K.SCENE_COLUMNS and "D_APPEARED" in K.SCENE_COLUMNS


def test_episode_scenes_each_start_with_their_reserve_absent():
    """An episode of two scenes, each with a creator: every scene's block has
    its own reserve rows (block-relative creator index); ``next_scene``
    resets the next scene's enemies, reserve rows absent."""
    data = mb41_data([girl(resolve=60)], [boss()])
    del data["sides"][1]
    data["episode"] = {"scenes": [{"name": f"S{k}", "enemies": {"name": f"foes{k}", "members": [creator()]}}
                                  for k in (1, 2)]}
    inp = mb41_inputs(data)
    ep = inp.episode
    assert ep.offsets.tolist() == [0, 5, 10]
    assert inp.comb[7:10, K.C_SPAWN_KIND].tolist() == [K.SPAWN_MINION] * 3
    assert inp.comb[7:10, K.C_SPAWN_BY].tolist() == [1, 1, 1]   # block-relative: its scene's boss
    dyn = np.zeros((inp.n, K.NDYN), dtype=np.int64)
    mb41_call(K.reset, comb=inp.comb, rules=inp.rules, dyn=dyn)
    dyn[7:10, K.D_ABSENT] = 0   # as if created in an earlier trial
    dyn[7:10, K.D_DEAD] = 0
    dyn[7:10, K.D_RES] = 4
    s = Script()
    party = np.zeros((1, K.NPE), dtype=np.int64)
    mb41_call(K.next_scene, comb=inp.comb, rules=inp.rules, dyn=dyn, prev=0, a=5, e=10, ng=1, recover=0,
              streams=s.streams, party=party)
    assert dyn[7:10, K.D_ABSENT].tolist() == [1, 1, 1] and dyn[7:10, K.D_DEAD].tolist() == [1, 1, 1]
    assert dyn[7:10, K.D_RES].tolist() == [0, 0, 0]
    assert dyn[5, K.D_ABSENT] == 0 and dyn[5, K.D_DEAD] == 0


# ------------------------------------------------------------------ the Heart Burst's creature


def test_heart_creature_rows_only_with_heart_burst_spawn():
    """One reserve row per girl who can burst, on the other side, only under
    ``heart_burst: spawn`` (A8a) and ``bursts: play``."""
    assert mb41_inputs(mb41_data([girl(), girl("Bea")], [boss()])).n == 3
    assert mb41_inputs(mb41_data([girl()], [boss()], rules={"heart_burst": "spawn", "bursts": "count"})).n == 2
    inp = mb41_inputs(mb41_data([girl(), girl("Bea", attack=5)], [boss()], rules={"heart_burst": "spawn"}))
    assert inp.names == ["Akari", "Bea", "Boss", "Akari's Heart creature", "Bea's Heart creature"]
    assert inp.sides == [0, 0, 1, 1, 1] and inp.kinds[3:] == ["monster", "monster"]
    assert inp.comb[3:, K.C_SPAWN_KIND].tolist() == [K.SPAWN_HEART] * 2
    assert inp.comb[3:, K.C_SPAWN_BY].tolist() == [0, 1]
    # spread 1, power level 2: Resolve 1 x 12 (L1894-1946); her attack/defence/support; pool 10
    assert inp.comb[4, K.C_RES] == 12 and inp.comb[4, K.C_MONSTER] == 1 and inp.comb[4, K.C_POOL] == 10
    assert inp.comb[4, [K.C_ATT, K.C_DEF, K.C_SUP]].tolist() == [5, 4, 3]
    inp = mb41_inputs(mb41_data([girl()], [boss()], rules={
        "heart_burst": "spawn", "heart_creature_spread": 2, "heart_creature_power": 3, "heart_creature_stats": "heart"}))
    assert inp.comb[2, K.C_RES] == 28                         # 2 x 14
    assert inp.comb[2, [K.C_ATT, K.C_DEF, K.C_SUP]].tolist() == [4, 4, 4]   # Heart fills the defence role (4)


def test_heart_burst_makes_her_creature_appear_on_the_other_side():
    """Heart at 12, a defender six takes it to 13 (L161): after the attack
    the burst plays (A7b): strongest bond -1, counter 0 (L451), and her
    creature appears (A8a): a hostile monster with full Resolve."""
    inp, dyn, cc = setup([girl(bonds=[2, 4, 4, 1])], [boss()], rules={"heart_burst": "spawn"})
    assert dyn[2, K.D_ABSENT] == 1
    dyn[0, K.D_OC + HEART] = 12
    call(K.attack, inp, dyn, cc, Script(check=faces(1, 1, 6, 1, 1)), i=1, t=0)
    assert dyn[2, K.D_ABSENT] == 1      # not before the burst plays
    call(K.settle, inp, dyn, cc, Script())
    assert list(dyn[0, K.D_BOND:K.D_BOND + 4]) == [2, 3, 4, 1]
    assert dyn[2, K.D_ABSENT] == 0 and dyn[2, K.D_RES] == 12 and standing(dyn, 2)
    assert cc[0, K.K_HEART_SPAWNS] == 1 and cc[2, K.K_APPEARED] == 1
    # the party must now beat it too: with the boss down, side 1 still stands
    dyn[1, K.D_RES] = 0
    dyn[1, K.D_DEAD] = 1
    assert mb41_call(K.outcome_now, comb=inp.comb, rules=inp.rules, dyn=dyn) == -1
    # a second Heart Burst: one creature per girl and fight
    dyn[0, K.D_OC + HEART] = 13
    call(K.check_bursts, inp, dyn, cc, Script(), i=0)
    call(K.settle, inp, dyn, cc, Script())
    assert cc[0, K.K_HEART_SPAWNS] == 1 and cc[2, K.K_APPEARED] == 1 and dyn[0, K.D_OC + HEART] == 0


def test_heart_burst_apart_makes_no_creature():
    inp, dyn, cc = setup([girl()], [boss()])
    dyn[0, K.D_OC + HEART] = 13
    call(K.check_bursts, inp, dyn, cc, Script(), i=0)
    call(K.settle, inp, dyn, cc, Script())
    assert inp.n == 2 and cc[0, K.K_HEART_SPAWNS] == 0 and cc[0, K.K_BONDS_LOST] == 1


def test_heart_burst_with_her_last_bond_still_brings_the_creature():
    """At 0 bonds she 'becomes' the monster (L453): she is lost, and the creature stands."""
    inp, dyn, cc = setup([girl(bonds=[1])], [boss()], rules={"heart_burst": "spawn"})
    dyn[0, K.D_OC + HEART] = 13
    call(K.check_bursts, inp, dyn, cc, Script(), i=0)
    call(K.settle, inp, dyn, cc, Script())
    assert dyn[0, K.D_LOST] == 1 and standing(dyn, 2)
    assert mb41_call(K.outcome_now, comb=inp.comb, rules=inp.rules, dyn=dyn) == K.F_LOSS


# ------------------------------------------------------------------ on the hex grid


def test_on_the_grid_created_minions_take_the_nearest_free_hexes():
    """Minion Creation on the grid: the free hexes nearest to the monster
    (fewest hexes, ties to the lowest cell); the Heart creature next to her."""
    inp, dyn, cc, bf = grid_arena([girl()], [creator()], rules={"heart_burst": "spawn"})
    assert inp.comb[2:, K.C_CELL].tolist() == [-1, -1, -1, -1]
    grid_put(inp, dyn, bf, 1, 3, 3)
    grid_put(inp, dyn, bf, 0, 3, 6)
    assert mb41_call(K.minor_talent, i=1, comb=inp.comb, pol=inp.pol, rules=inp.rules, dyn=dyn,
                     streams=Script().streams, cc=cc, bf=bf) == 1
    occ = bf[BG.BF_OCC]
    cells = [int(dyn[j, K.D_POS]) for j in (2, 3)]
    assert len(set(cells)) == 2 and all(c >= 0 for c in cells)
    assert grid_apart(inp, dyn, 1, 2) == 1 and grid_apart(inp, dyn, 1, 3) == 1
    assert occ[cells[0]] == 2 and occ[cells[1]] == 3
    nbrs = sorted(c for c in range(inp.battlefield.n) if inp.battlefield.distance(c, int(dyn[1, K.D_POS])) == 1)
    assert cells == nbrs[:2]
    assert dyn[4, K.D_POS] == -1 and dyn[5, K.D_POS] == -1
    mb41_call(K.heart_creature, j=0, anchor=int(dyn[0, K.D_POS]), comb=inp.comb, rules=inp.rules, dyn=dyn, cc=cc, bf=bf)
    assert grid_apart(inp, dyn, 0, 5) == 1 and occ[dyn[5, K.D_POS]] == 5


# ------------------------------------------------------------------ Marionette


FURY = 1   # her Attack role's stat (tests/helpers.py default roles): Marionette's cost (L1832)


def mario(**fields):
    return girl(talents=["Marionette"], **fields)


def target(inp, dyn, i, script):
    j = mb41_call(K.target_of, i=i, comb=inp.comb, rules=inp.rules, dyn=dyn, streams=script.streams)
    script.assert_consumed()
    return int(j)


def test_marionette_copy_row_is_compiled_on_her_side():
    inp, dyn, cc = setup([mario()], [boss()])
    assert inp.names == ["Akari", "Boss", "Akari's copy (Marionette)"]
    assert inp.sides == [0, 1, 0]
    assert inp.comb[2, K.C_SPAWN_KIND] == K.SPAWN_COPY and inp.comb[2, K.C_SPAWN_BY] == 0
    # her stats, 1 Resolve (any damage destroys it, L1834), no pool, rolls its defence (not passive)
    assert inp.comb[2, [K.C_ATT, K.C_DEF, K.C_SUP, K.C_RES, K.C_POOL]].tolist() == [4, 4, 3, 1, 0]
    assert inp.comb[2, K.C_PDEF] == -1 and inp.pol[2, K.P_INTERCEPT] == -1
    assert inp.comb[1, K.C_FOE_COPIES] == 1 and inp.comb[0, K.C_FOE_COPIES] == 0
    assert dyn[2, K.D_ABSENT] == 1 and dyn[0, K.D_COPY] == 0
    inp = mb41_inputs(mb41_data([mario()], [boss()], rules={"marionette_decoy": "girl"}))
    assert inp.comb[1, K.C_FOE_COPIES] == 3


def test_marionette_makes_one_copy_for_one_attack_overcharge():
    """Minor, 1 OC (Attack) (L1832): the copy appears; no second one while it stands."""
    inp, dyn, cc = setup([mario()], [boss()])
    assert call(K.minor_talent, inp, dyn, cc, Script(), i=0) == 1
    assert dyn[0, K.D_OC + FURY] == 1 and cc[0, K.K_OC_GAIN + FURY] == 1 and cc[0, K.K_TUSE] == 1
    assert dyn[0, K.D_COPY] == 3 and standing(dyn, 2) and dyn[2, K.D_RES] == 1
    assert cc[2, K.K_APPEARED] == 1
    assert call(K.minor_talent, inp, dyn, cc, Script(), i=0) == 0
    assert dyn[0, K.D_OC + FURY] == 1 and cc[0, K.K_TUSE] == 1


def test_enemies_target_her_or_the_copy_by_marionette_decoy():
    """A53: the enemy's policy sees the copy as her; ``random`` flips a coin
    on the policy stream (1 = the copy), ``copy`` / ``girl`` always."""
    inp, dyn, cc = setup([mario()], [boss()])
    assert target(inp, dyn, 1, Script()) == 0             # no copy yet: no coin
    call(K.minor_talent, inp, dyn, cc, Script(), i=0)
    assert target(inp, dyn, 1, Script(policy=[1])) == 2
    assert target(inp, dyn, 1, Script(policy=[0])) == 0
    for decoy, who in (("copy", 2), ("girl", 0)):
        inp, dyn, cc = setup([mario()], [boss()], rules={"marionette_decoy": decoy})
        call(K.minor_talent, inp, dyn, cc, Script(), i=0)
        assert target(inp, dyn, 1, Script()) == who
    # focus-weakest keys the copy by her Resolve, not its 1: a weaker ally is picked first
    inp, dyn, cc = setup([mario(), girl("Bea")], [boss()], rules={"marionette_decoy": "girl"})
    call(K.minor_talent, inp, dyn, cc, Script(), i=0)
    dyn[1, K.D_RES] = 10
    assert target(inp, dyn, 2, Script()) == 1


def test_the_copy_defends_normally_and_any_damage_destroys_it():
    """'If the copy is attacked you can make a defence challenge as usual, but
    if it takes any damage it is destroyed' (L1834); then she may make another."""
    inp, dyn, cc = setup([mario()], [boss()], rules={"marionette_decoy": "copy"})
    call(K.minor_talent, inp, dyn, cc, Script(), i=0)
    # boss 2 + 3 = 5 vs the copy's 6 + 4 = 10: it defends, and stands
    call(K.attack, inp, dyn, cc, Script(check=MISS), i=1, t=2)
    assert standing(dyn, 2) and dyn[0, K.D_COPY] == 3
    # boss 6 + 3 = 9 vs 2 + 4 = 6: a hit, 1 + 2 melee = 3 damage: destroyed; her Resolve untouched
    call(K.attack, inp, dyn, cc, Script(check=HIT, damage=faces(1)), i=1, t=2)
    assert not standing(dyn, 2) and dyn[2, K.D_ABSENT] == 1 and dyn[0, K.D_COPY] == 0
    assert cc[0, K.K_COPY_ABSORBED] == 1 and cc[2, K.K_DEATHS] == 1 and dyn[0, K.D_RES] == 18
    assert target(inp, dyn, 1, Script()) == 0
    assert call(K.minor_talent, inp, dyn, cc, Script(), i=0) == 1          # a new copy, 1 more OC
    assert dyn[0, K.D_OC + FURY] == 2 and dyn[0, K.D_COPY] == 3 and cc[2, K.K_APPEARED] == 2


def test_the_copys_defence_sixes_are_her_overcharge():
    """The copy defends 'as usual' (L1834): a six on its defence roll is overcharge on her
    Defence role's stat (Heart here), as if she had rolled it; a burst it sets off is hers."""
    inp, dyn, cc = setup([mario()], [boss()], rules={"marionette_decoy": "copy"})
    call(K.minor_talent, inp, dyn, cc, Script(), i=0)
    assert list(inp.comb[2, K.C_RA:K.C_RS + 1]) == list(inp.comb[0, K.C_RA:K.C_RS + 1])
    dyn[0, K.D_OC + HEART] = 12
    # boss 1 + 1 + 3 = 5 vs the copy's 6 + 2 + 1 (the six's extra die) + 4 = 13: a miss, one six
    call(K.attack, inp, dyn, cc, Script(check=faces(1, 1, 6, 2, 1)), i=1, t=2)
    assert dyn[0, K.D_OC + HEART] == 13 and cc[0, K.K_OC_GAIN + HEART] == 1
    assert dyn[0, K.D_PEND + HEART] == 1 and cc[0, K.K_BURSTS + HEART] == 1   # her Heart Burst is due
    assert dyn[2, K.D_POOL] == 0 and cc[2, K.K_POOL_SPENT] == 0


def test_the_copy_takes_no_turn_keeps_no_side_in_the_fight_and_fades_at_scene_end():
    inp, dyn, cc = setup([mario()], [boss()], rules={"round_cap": 1, "marionette_decoy": "girl"})
    # Akari: the copy (Minor), misses the boss; the boss misses her; the copy does nothing
    outcome, rounds, _, comb_curve = fight(inp, dyn, cc, Script(check=MISS + MISS))
    assert (outcome, rounds) == (K.F_DRAW, 1)
    assert cc[2, K.K_APPEARED] == 1 and cc[2, K.K_ATTACKS] == 0 and cc[0, K.K_ATTACKS] == 1
    dyn[0, K.D_RES] = 0
    dyn[0, K.D_DEAD] = 1
    assert standing(dyn, 2)
    assert mb41_call(K.outcome_now, comb=inp.comb, rules=inp.rules, dyn=dyn) == K.F_LOSS
    mb41_call(K.reset, comb=inp.comb, rules=inp.rules, dyn=dyn)
    assert dyn[2, K.D_ABSENT] == 1 and not standing(dyn, 2) and dyn[0, K.D_COPY] == 0


def test_on_the_grid_the_copy_stands_within_four_and_her_attacks_start_from_it():
    """Grid: the copy goes to the free hex within 1-4 of her nearest to the
    nearest enemy (``marionette_place: enemy``); an enemy 5 hexes away is out
    of her reach, but in melee reach of the copy (L1833)."""
    inp, dyn, cc, bf = grid_arena([mario()], [boss()])
    grid_put(inp, dyn, bf, 0, 3, 6)
    grid_put(inp, dyn, bf, 1, 3, 1)
    assert grid_apart(inp, dyn, 0, 1) == 5
    reach = dict(i=0, t=1, comb=inp.comb, rules=inp.rules, dyn=dyn, bf=bf)
    assert mb41_call(BG.reach, **reach) == -1
    assert mb41_call(K.minor_talent, i=0, comb=inp.comb, pol=inp.pol, rules=inp.rules, dyn=dyn,
                     streams=Script().streams, cc=cc, bf=bf) == 1
    assert grid_apart(inp, dyn, 0, 2) == 4 and grid_apart(inp, dyn, 1, 2) == 1
    assert bf[BG.BF_OCC][dyn[2, K.D_POS]] == 2
    assert mb41_call(BG.reach, **reach) == 0
    # the copy destroyed: it leaves its hex and her reach is her own again
    call(K.attack, inp, dyn, cc, Script(check=HIT, damage=faces(1)), i=1, t=2)
    mb41_call(BG.leave_if_dead, j=2, comb=inp.comb, rules=inp.rules, dyn=dyn, bf=bf)
    assert dyn[2, K.D_POS] == -1 and mb41_call(BG.reach, **reach) == -1
