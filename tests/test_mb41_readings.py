"""Issue 35 (4.1 rules review): the defects fixed and the silent readings made named
options, each with scripted dice (:class:`helpers.Script`; every script drawn exactly).

Line numbers are those of ``shared/seeds/000_f32d69e9731a3667.txt``.
"""
from __future__ import annotations

import pytest

from engine41 import K
from helpers import Script, faces, mb41_call, mb41_data, mb41_fight, mb41_inputs, mb41_member, mb41_state

AKARI, SHADE = 0, 1


def duel(b=None, rules=None, foes=()):
    """Akari (4/4/3) against the girl Shade (3/3/3, Resolve 6) and ``foes``; listed
    initiative, revive on, bursts counted."""
    r = {"revive": True, "bursts": "count", **(rules or {})}
    side_b = [mb41_member("Shade", **{"resolve": 6, **(b or {})}), *foes]
    inp = mb41_inputs(mb41_data([mb41_member("Akari", attack=4, defence=4)], side_b, r))
    dyn, cc = mb41_state(inp)
    return inp, dyn, cc


def outcome_now(inp, dyn):
    return int(mb41_call(K.outcome_now, comb=inp.comb, rules=inp.rules, dyn=dyn))


# ------------------------------------------------------------ defect 1: the last girl's revive


def test_the_default_defeat_keeps_a_rising_girl_in_the_fight():
    """L1445-1451 (default ``defeat: all_out``): Shade, the last of her side, drops and
    rolls her revive (3+4+3 = 10: 1d6 = 4 Resolve at her next turn); her side stays in
    the fight, she rises on her turn of the same round and fights on."""
    inp, dyn, cc = duel(rules={"round_cap": 2})
    s = Script(check=faces(5, 5, 1, 1, 3, 4,   # round 1: Akari drops Shade, revive 10
                           1, 1, 5, 5,         # Shade rises (4 Resolve) and misses
                           1, 1, 5, 5,         # round 2: Akari misses
                           1, 1, 5, 5),        # Shade misses
               damage=faces(4, 4))
    assert mb41_fight(inp, dyn, s.streams, cc) == (K.F_DRAW, 2)
    s.assert_consumed()
    assert dyn[SHADE, K.D_RES] == 4 and cc[SHADE, K.K_REVIVES] == 1 and cc[SHADE, K.K_ATTACKS] == 2


@pytest.mark.parametrize("defeat, out", [("all_out", -1), ("all_down", "win"), ("all_dead", -1)])
def test_a_pending_revive_and_the_defeat_rule(defeat, out):
    """Right after the last girl's drop: ``all_out`` and ``all_dead`` keep her side in (her
    revive rolled and pending), ``all_down`` ends the fight without rolling it."""
    inp, dyn, cc = duel(rules={"defeat": defeat})
    rolls = defeat != "all_down"
    s = Script(check=faces(5, 5, 1, 1, *((3, 4) if rolls else ())), damage=faces(4, *((4,) if rolls else ())))
    mb41_call(K.attack, i=AKARI, t=SHADE, comb=inp.comb, pol=inp.pol, rules=inp.rules, dyn=dyn,
              streams=s.streams, cc=cc)
    s.assert_consumed()
    assert outcome_now(inp, dyn) == (K.F_WIN if out == "win" else out)
    assert cc[SHADE, K.K_REVIVES] == int(rolls) and dyn[SHADE, K.D_PENDING] == (4 if rolls else -1)


def test_all_down_rolls_the_revive_while_an_ally_stands():
    """``all_down``: a girl who drops while another of her side stands rolls her revive (it
    can take effect at her next turn)."""
    inp, dyn, cc = duel(rules={"defeat": "all_down"}, foes=[mb41_member("Mook", resolve=40)])
    s = Script(check=faces(5, 5, 1, 1, 3, 4), damage=faces(4, 4))
    mb41_call(K.attack, i=AKARI, t=SHADE, comb=inp.comb, pol=inp.pol, rules=inp.rules, dyn=dyn,
              streams=s.streams, cc=cc)
    s.assert_consumed()
    assert cc[SHADE, K.K_REVIVES] == 1 and dyn[SHADE, K.D_PENDING] == 4 and outcome_now(inp, dyn) == -1


def test_all_out_the_drafts_revive_as_her_next_major_action():
    """``revive_timing: next_turn`` (DRAFT L512-516) under ``all_out``: the roll due keeps her
    side in; on her turn she rolls it as her Major action (3+4+3 = 10: 1d6 = 2) and stands."""
    inp, dyn, cc = duel(rules={"revive_timing": "next_turn", "round_cap": 1})
    s = Script(check=faces(5, 5, 1, 1, 3, 4), damage=faces(4, 2))
    assert mb41_fight(inp, dyn, s.streams, cc) == (K.F_DRAW, 1)
    s.assert_consumed()
    assert dyn[SHADE, K.D_RES] == 2 and cc[SHADE, K.K_ATTACKS] == 0


# ------------------------------------------------ defect 2 and intercept_reductions (L1469, L1997)

HIT = faces(5, 5, 1, 1)    # Akari 10 + 4 = 14 vs 2 + 3 = 5: a hit, no six
COVER = faces(4, 4)        # intercept 8 + 3 = 11: 11-13, the interceptor takes the whole hit (L1469)


def cover_arena(target_talents=(), brute_talents=("Thick Hide",), rules=None):
    """On the hex grid: Akari [3, 4] next to Shade [3, 3]; the Brute, next to Shade,
    intercepts always. Everyone holds her ground; Bulwark spent on any hit (shield_above 1)."""
    from helpers import grid_arena, grid_place, hold_foe, hold_girl

    pol = {"shield_above": 1}
    inp, dyn, cc, bf = grid_arena([hold_girl()], [hold_foe("Shade", talents=target_talents, policy=pol),
                                                  hold_foe("Brute", talents=brute_talents,
                                                           policy={"intercept": "always", **pol})], rules)
    grid_place(inp, dyn, bf, [(3, 4), (3, 3), (4, 3)])
    from helpers import grid_apart

    assert grid_apart(inp, dyn, 0, 1) == 1 and grid_apart(inp, dyn, 1, 2) == 1
    return inp, dyn, cc, bf


def test_thick_hide_on_an_intercepting_monster():
    """L1997 'each time the monster takes damage from an attack': the Brute intercepts Akari's
    melee hit on Shade (1d6 + 2 = 6) and its Thick Hide takes 2 off: it loses 4, Shade nothing."""
    from helpers import grid_turn

    inp, dyn, cc, bf = cover_arena()
    grid_turn(inp, dyn, cc, bf, 0, check=HIT + COVER, damage=faces(4))
    assert dyn[2, K.D_RES] == 18 - 4 and dyn[1, K.D_RES] == 18
    assert cc[2, K.K_INTERCEPTS] == 1 and cc[2, K.K_PREVENTED] == 2 and cc[2, K.K_TUSE] == 1


@pytest.mark.parametrize("mode, brute_takes, shade_pool, brute_pool", [
    ("target", 4, 5, 5),        # the Brute's Thick Hide only: 6 - 2
    ("interceptor", 0, 5, 4),   # Thick Hide 6 -> 4, then its Bulwark: 1 point, -5
    ("both", 0, 3, 5),          # Shade's Bulwark on the whole hit: 2 points cover 6; the Brute's share 0
])
def test_intercept_reductions(mode, brute_takes, shade_pool, brute_pool):
    """``intercept_reductions`` (L1469 silent; Bulwark L2014, Thick Hide L1997): which
    reductions act on the interceptor's share of Akari's 6-damage hit on Shade (both have
    Bulwark, pool 5; the Brute also Thick Hide). Shade takes nothing in every reading."""
    from helpers import grid_turn

    inp, dyn, cc, bf = cover_arena(target_talents=["Bulwark"], brute_talents=["Thick Hide", "Bulwark"],
                                   rules={"intercept_reductions": mode})
    grid_turn(inp, dyn, cc, bf, 0, check=HIT + COVER, damage=faces(4))
    assert dyn[2, K.D_RES] == 18 - brute_takes and dyn[1, K.D_RES] == 18
    assert dyn[1, K.D_POOL] == shade_pool and dyn[2, K.D_POOL] == brute_pool


# ------------------------------------------------------------ judgment_downed (L1163)


@pytest.mark.parametrize("mode", ["hit", "spared"])
def test_judgment_downed(mode):
    """Akari's Judgment Burst releases 13 (L1163); Bea lies at 0 Resolve. 'hit': she is in
    'everyone in the vicinity', rolls 2d6 + Tenacity (1 + 1 + 2 < 26) and takes 13 wound
    damage: dead (6 wounds, L1422). 'spared': no roll, no damage. The boss (1 + 1 + 3) takes 13."""
    from helpers import mb41_boss, mb41_girl, mb41_run, mb41_setup

    inp, dyn, cc = mb41_setup([mb41_girl(), mb41_girl("Bea", tenacity=2)], [mb41_boss()],
                              rules={"judgment_downed": mode})
    dyn[1, K.D_RES] = 0
    dyn[0, K.D_OC + 2] = 13
    mb41_run(K.check_bursts, inp, dyn, cc, Script(), i=0)
    bea = faces(1, 1) if mode == "hit" else []
    mb41_run(K.settle, inp, dyn, cc, Script(check=bea + faces(1, 1)))
    assert dyn[2, K.D_RES] == 40 - 13
    assert dyn[1, K.D_DEAD] == int(mode == "hit") and cc[1, K.K_JUDG_TAKEN] == (13 if mode == "hit" else 0)


# ------------------------------------------------------------ burst_while_down (L161, L1420)

HEARTY = {"attack": None, "defence": None, "support": None, "heart": 4, "fury": 3, "judgment": 3,
          "roles": {"attack": "fury", "defence": "judgment", "support": "heart"}, "overcharge": {"heart": 11}}


@pytest.mark.parametrize("mode", ["play", "hold"])
def test_burst_while_down(mode):
    """Shade (Support role = Heart, at 11) drops; her revive roll (1 + 1 + 4 = 6: 2 Support
    overcharge, 1d6 = 3 Resolve) takes Heart to 13. 'play': the burst is due at once, at 0
    Resolve (L161). 'hold': nothing until her next turn (L1420), when she rises with 3 and it
    bursts (her strongest bond -1, L451) before she acts."""
    inp, dyn, cc = duel(b=HEARTY, rules={"bursts": "play", "burst_while_down": mode})
    s = Script(check=faces(5, 5, 1, 1, 1, 1), damage=faces(4, 3))
    mb41_call(K.attack, i=AKARI, t=SHADE, comb=inp.comb, pol=inp.pol, rules=inp.rules, dyn=dyn,
              streams=s.streams, cc=cc)
    s.assert_consumed()
    assert dyn[SHADE, K.D_RES] == 0 and dyn[SHADE, K.D_OC] == 13
    assert dyn[SHADE, K.D_PEND] == int(mode == "play") and cc[SHADE, K.K_BURSTS] == int(mode == "play")
    if mode == "hold":
        s = Script(check=faces(1, 1, 5, 5))  # she rises, bursts, then attacks Akari: a miss
        mb41_call(K.turn_of, i=SHADE, r=1, comb=inp.comb, pol=inp.pol, rules=inp.rules, dyn=dyn,
                  streams=s.streams, cc=cc)
        s.assert_consumed()
        assert dyn[SHADE, K.D_RES] == 3 and dyn[SHADE, K.D_OC] == 0 and cc[SHADE, K.K_BURSTS] == 1
        assert cc[SHADE, K.K_BONDS_LOST] == 1 and cc[SHADE, K.K_ATTACKS] == 1


# ------------------------------------------------------------ aura_of_strength (L1691)


@pytest.mark.parametrize("mode, hurt", [("adjacent", [2, 2, 0]), ("attacker", [2, 0, 0])])
def test_aura_of_strength_gridless(mode, hurt):
    """Akari (Aura of Strength) beats Shade's melee attack (5 vs 10): 'adjacent' hurts every
    melee enemy (gridless, those next to her: Shade and the Brute), not the Archer; 'attacker'
    only Shade. Not an attack: no rolls."""
    inp = mb41_inputs(mb41_data([mb41_member("Akari", attack=4, defence=4, talents=["Aura of Strength"])],
                                [mb41_member("Shade"), mb41_member("Brute"),
                                 mb41_member("Archer", attack_kind="ranged")], {"aura_of_strength": mode}))
    dyn, cc = mb41_state(inp)
    s = Script(check=faces(1, 1, 3, 3))
    assert mb41_call(K.attack, i=1, t=0, comb=inp.comb, pol=inp.pol, rules=inp.rules, dyn=dyn,
                     streams=s.streams, cc=cc) == -1
    s.assert_consumed()
    assert [18 - int(dyn[j, K.D_RES]) for j in (1, 2, 3)] == hurt and cc[0, K.K_DEALT] == sum(hurt)


@pytest.mark.parametrize("mode, hurt", [("adjacent", [2, 2, 0]), ("attacker", [2, 0, 0])])
def test_aura_of_strength_on_the_grid(mode, hurt):
    """On the grid 'adjacent' is within 1 hex: Shade attacks from [3, 3], the Brute stands
    at [2, 4] (next to her, ranged or not), the Archer 2 hexes away."""
    from helpers import grid_apart, grid_arena, grid_place, grid_run, hold_foe, hold_girl

    inp, dyn, cc, bf = grid_arena([hold_girl(talents=["Aura of Strength"])],
                                  [hold_foe("Shade"), hold_foe("Brute", attack_kind="ranged"),
                                   hold_foe("Archer", attack_kind="ranged")], {"aura_of_strength": mode})
    grid_place(inp, dyn, bf, [(3, 4), (3, 3), (2, 4), (3, 2)])
    assert [grid_apart(inp, dyn, 0, j) for j in (1, 2, 3)] == [1, 1, 2]
    assert grid_run(K.attack, inp, dyn, cc, bf, Script(check=faces(1, 1, 3, 3)), i=1, t=0) == -1
    assert [18 - int(dyn[j, K.D_RES]) for j in (1, 2, 3)] == hurt


# ------------------------------------------------------------ settings with no effect


def test_gridless_intercept_is_noted_not_silently_ignored():
    """L1469: Intercept needs a place (adjacent, on the line); gridless it cannot act, and the
    run says so for the policy and for intercept_reductions; on the grid it says nothing."""
    side_a = [mb41_member("Akari"), mb41_member("Beni", policy={"boost": "never", "intercept": "always"})]
    notes = mb41_inputs(mb41_data(side_a, [mb41_member("Shade")], {"intercept_reductions": "both"})).notes
    assert any("intercept policy of Beni has no effect" in n for n in notes)
    assert any("intercept_reductions: both has no effect" in n for n in notes)
    data = mb41_data(side_a, [mb41_member("Shade")], {"grid": "hex"})
    data["battlefield"] = {"width": 8, "height": 8}
    assert not any("intercept" in n for n in mb41_inputs(data).notes)


# ------------------------------------------------------------ Possession (L2073-2076)


def test_possession_weakens_the_monster_and_its_host_takes_the_damage():
    """A possessing monster: attack, defence, support and damage -3 (L2074); Akari's melee hit
    (1d6 + 2 = 6) deals +1d6 (= 3) more (L2075); its host takes those 9 too and dies at
    death_wounds 6 (L1422, L2076), counted once; the monster fights on."""
    from helpers import mb41_boss

    poss = mb41_boss("Shade", attack=6, defence=6, support=6, damage_bonus=3, talents=["Possession"])
    inp = mb41_inputs(mb41_data([mb41_member("Akari", attack=4, defence=4)], [poss]))
    assert [int(inp.comb[1, c]) for c in (K.C_ATT, K.C_DEF, K.C_SUP)] == [3, 3, 3]
    assert int(inp.comb[1, K.C_DMG]) == 2 + 3 - 3
    dyn, cc = mb41_state(inp)
    s = Script(check=faces(5, 5, 1, 1), damage=faces(4, 3))   # 10 + 4 vs 2 + 3: a hit
    assert mb41_call(K.attack, i=AKARI, t=1, comb=inp.comb, pol=inp.pol, rules=inp.rules, dyn=dyn,
                     streams=s.streams, cc=cc) == 9
    s.assert_consumed()
    assert dyn[1, K.D_RES] == 40 - 9 and cc[1, K.K_HOST_DMG] == 9 and cc[1, K.K_HOST_DEATHS] == 1
    s = Script(check=faces(5, 5, 1, 1), damage=faces(1, 1))
    mb41_call(K.attack, i=AKARI, t=1, comb=inp.comb, pol=inp.pol, rules=inp.rules, dyn=dyn,
              streams=s.streams, cc=cc)
    assert cc[1, K.K_HOST_DMG] == 9 + 4 and cc[1, K.K_HOST_DEATHS] == 1 and dyn[1, K.D_RES] == 40 - 13


def test_endless_revives_are_named():
    """``all_out`` + no revive limit + enemies that never attack the downed: the girls cannot
    lose (each drop is followed by a revive); the run says so, and not once a limit is set."""
    notes = mb41_inputs(mb41_data([mb41_member("Akari")], [mb41_member("Shade", kind="monster")],
                                  {"revive": True, "revive_limit": -1})).notes
    assert any("cannot lose" in n for n in notes)
    notes = mb41_inputs(mb41_data([mb41_member("Akari")], [mb41_member("Shade", kind="monster")],
                                  {"revive": True, "revive_limit": 1})).notes
    assert not any("cannot lose" in n for n in notes)
