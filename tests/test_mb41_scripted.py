"""Scripted-dice tests of the mb41 combat kernel: one rule, one exact outcome.

Each test builds a tiny scenario, injects the dice with :class:`helpers.Script`
(d6 faces written with :func:`helpers.faces`), calls one kernel function and
asserts the exact state afterwards. Every script must be consumed exactly:
a rule that draws one die too many or too few fails the test.

Line numbers are those of ``shared/seeds/000_f32d69e9731a3667.txt``; audit
ids (A..) refer to ``shared/rules/RULES_AUDIT.md`` section 1, settled by
``shared/rules/RULINGS.md``.

Stat and role defaults: a member given by role has attack=fury,
defence=heart, support=judgment (schema ``DEFAULT_ROLES``).
"""
from __future__ import annotations

import numpy as np
import pytest

from engine41 import K

from helpers import Script, faces, mb41_call, mb41_data, mb41_fight, mb41_inputs, mb41_member, mb41_state

HEART, FURY, JUDGMENT = 0, 1, 2
AKARI, SHADE = 0, 1
MAX_TIE = 1048575  # largest initiative tie-break draw (randbelow(st, 1048576))


def duel(a=None, b=None, rules=None):
    """Akari (attack 4, defence 4, support 3) vs Shade (3/3/3), both 18 Resolve,
    melee, no Boost, listed initiative, no revive unless ``rules`` say so.
    ``bursts: count`` unless ``rules`` say so: the burst tests here check the
    counting at the attack itself (bursts played: tests/test_mb41_bursts.py)."""
    a = dict(a or {})
    b = dict(b or {})
    if "heart" not in a:
        a = {"attack": 4, "defence": 4, "support": 3, **a}
    rules = {"bursts": "count", **(rules or {})}
    inp = mb41_inputs(mb41_data([mb41_member("Akari", **a)], [mb41_member("Shade", **b)], rules))
    dyn, cc = mb41_state(inp)
    return inp, dyn, cc


def attack(inp, dyn, cc, i, t, streams):
    """``K.attack(i, t)`` on raw streams (arguments matched by name)."""
    return int(mb41_call(K.attack, i=i, t=t, comb=inp.comb, pol=inp.pol, rules=inp.rules, dyn=dyn,
                         streams=streams, cc=cc))


def strike(inp, dyn, cc, i, t, check=(), damage=()):
    """``K.attack(i, t)`` with scripted check and damage dice; asserts every die was used."""
    s = Script(check=check, damage=damage)
    dealt = attack(inp, dyn, cc, i, t, s.streams)
    s.assert_consumed()
    return dealt


def oc(dyn, i):
    return [int(v) for v in dyn[i, K.D_OC:K.D_OC + 3]]


# ------------------------------------------------------------------ 1. attack hit


def test_attack_hit_damage_overcharge_and_counters():
    """L1453, L149: 2d6!+Attack beats 2d6!+Defence; damage 1d6+2 (melee) +2 per
    attacker six -2 per defender six; each six +1 overcharge on the rolled stat."""
    inp, dyn, cc = duel()
    # Akari 6,6,3,1 (two sixes, two extra dice) = 16+4 = 20; Shade 6,1,2 = 9+3 = 12.
    dealt = strike(inp, dyn, cc, AKARI, SHADE, check=faces(6, 6, 3, 1, 6, 1, 2), damage=faces(5))
    assert dealt == 5 + 2 + 2 * 2 - 2 * 1 == 9
    assert dyn[SHADE, K.D_RES] == 18 - 9
    assert dyn[AKARI, K.D_RES] == 18
    assert oc(dyn, AKARI) == [0, 2, 0]      # Attack role = fury
    assert oc(dyn, SHADE) == [1, 0, 0]      # Defence role = heart
    assert cc[AKARI, K.K_ATTACKS] == 1 and cc[AKARI, K.K_HITS] == 1
    assert cc[AKARI, K.K_DEALT] == 9 and cc[SHADE, K.K_TAKEN] == 9
    assert cc[AKARI, K.K_TAKEN] == 0 and cc[SHADE, K.K_DEALT] == 0
    assert cc[AKARI, K.K_OC_GAIN + FURY] == 2 and cc[SHADE, K.K_OC_GAIN + HEART] == 1
    assert cc[SHADE, K.K_KOS] == 0 and dyn[SHADE, K.D_WOUNDS] == 0


def test_attack_miss_draws_no_damage():
    """L1453: a lower attack total misses; no damage die is rolled."""
    inp, dyn, cc = duel()
    dealt = strike(inp, dyn, cc, AKARI, SHADE, check=faces(2, 1, 3, 3))  # 7 vs 9
    assert dealt == -1
    assert dyn[SHADE, K.D_RES] == 18
    assert cc[AKARI, K.K_ATTACKS] == 1 and cc[AKARI, K.K_HITS] == 0
    assert cc[AKARI, K.K_DEALT] == 0 and cc[SHADE, K.K_TAKEN] == 0


# ------------------------------------------------------------------ 2. ranged


@pytest.mark.parametrize("kind, bonus", [("melee", 2), ("ranged", 0)])
def test_melee_and_ranged_damage(kind, bonus):
    """L1453: melee attacks deal 1d6 + 2, ranged attacks 1d6."""
    inp, dyn, cc = duel(a={"attack_kind": kind})
    assert inp.comb[AKARI, K.C_DMG] == bonus
    dealt = strike(inp, dyn, cc, AKARI, SHADE, check=faces(5, 4, 1, 2), damage=faces(3))
    assert dealt == 3 + bonus
    assert dyn[SHADE, K.D_RES] == 18 - 3 - bonus


def test_ranged_sixes_still_add_damage():
    """L1453: the +2 per attacker six applies to ranged attacks too."""
    inp, dyn, cc = duel(a={"attack_kind": "ranged"})
    dealt = strike(inp, dyn, cc, AKARI, SHADE, check=faces(6, 4, 1, 1, 2), damage=faces(3))
    assert dealt == 3 + 2


def test_damage_die_does_not_explode():
    """L149: damage rolls do not explode: a 6 on the damage die is one die."""
    inp, dyn, cc = duel()
    dealt = strike(inp, dyn, cc, AKARI, SHADE, check=faces(5, 4, 1, 2), damage=faces(6))
    assert dealt == 6 + 2


# ------------------------------------------------------------------ 3. ties

TIE_CASES = {
    # name: (attack stat, defence stat, attacker faces, defender faces, rules, dealt (-1 = miss))
    "more-sixes-attacker": (4, 3, (6, 1, 1), (5, 4), {}, 1 + 2 + 2),
    "more-sixes-beats-higher-stat": (4, 3, (5, 3), (6, 2, 1), {}, -1),
    "equal-sixes-higher-attack-stat": (4, 3, (5, 3), (5, 4), {}, 1 + 2),
    "equal-sixes-higher-defence-stat": (3, 4, (5, 4), (5, 3), {}, -1),
    "one-six-each-then-stat": (4, 3, (6, 1, 1), (6, 2, 1), {}, 1 + 2),
    "total-before-sixes": (3, 3, (6, 1, 1), (5, 4), {}, -1),
    "full-tie-defender-default": (3, 3, (4, 4), (5, 3), {}, -1),
    "full-tie-with-sixes-defender": (3, 3, (6, 2, 1), (6, 1, 2), {}, -1),
    "full-tie-attacker-option": (3, 3, (4, 4), (5, 3), {"full_tie": "attacker"}, 1 + 2),
}


@pytest.mark.parametrize("case", list(TIE_CASES))
def test_contest_ties(case):
    """L1453, A20, A21: higher total wins; equal totals -> more sixes; equal sixes ->
    higher stat (Attack vs Defence); full tie -> defender (``full_tie: attacker`` reverses)."""
    att, dfn, af, df, rules, expected = TIE_CASES[case]
    inp, dyn, cc = duel(a={"attack": att}, b={"defence": dfn}, rules=rules)
    dealt = strike(inp, dyn, cc, AKARI, SHADE, check=faces(*af, *df),
                   damage=faces(1) if expected >= 0 else ())
    assert dealt == expected
    assert cc[AKARI, K.K_HITS] == (expected >= 0)


# ------------------------------------------------------------------ 4. exploding, overcharge by role


def test_exploding_dice_and_overcharge_on_the_role_stat():
    """L149, L143: every 6 adds a die that can explode again; each six gives +1
    overcharge to the magical stat filling the role rolled (Attack for the attacker,
    Defence for the defender), per stat, not per role (audit 1.1 item 3)."""
    inp, dyn, cc = duel(
        a={"heart": 1, "fury": 2, "judgment": 5,
           "roles": {"attack": "judgment", "defence": "fury", "support": "heart"}},
        b={"attack": None, "defence": None, "support": None, "heart": 3, "fury": 3, "judgment": 1,
           "roles": {"attack": "heart", "defence": "fury", "support": "judgment"}})
    assert inp.comb[AKARI, K.C_ATT] == 5 and inp.comb[AKARI, K.C_RA] == JUDGMENT
    assert inp.comb[SHADE, K.C_DEF] == 3 and inp.comb[SHADE, K.C_RD] == FURY
    # Akari 6,1 then the extra 6, its extra 6, its extra 2: 21 + 5 = 26, three sixes.
    # Shade 6,6 then extras 6,1 and the last extra 2: 21 + 3 = 24, three sixes.
    dealt = strike(inp, dyn, cc, AKARI, SHADE, check=faces(6, 1, 6, 6, 2, 6, 6, 6, 1, 2),
                   damage=faces(4))
    assert dealt == 4 + 2 + 2 * 3 - 2 * 3
    assert oc(dyn, AKARI) == [0, 0, 3]
    assert oc(dyn, SHADE) == [0, 3, 0]
    assert cc[AKARI, K.K_OC_GAIN + JUDGMENT] == 3 and cc[SHADE, K.K_OC_GAIN + FURY] == 3


# ------------------------------------------------------------------ 5. damage floor


@pytest.mark.parametrize("min_damage, die, expected", [(0, 1, 0), (1, 1, 1), (2, 1, 2), (1, 4, 2)])
def test_damage_floor(min_damage, die, expected):
    """L1453, A22: two defender sixes can push a hit's damage below 0; it floors at
    ``min_damage`` (0 by default, reading (b) = 1)."""
    inp, dyn, cc = duel(a={"attack": 8}, b={"defence": 0}, rules={"min_damage": min_damage})
    # Akari 5,5+8 = 18 vs Shade 6,6,1,1+0 = 14 with two sixes: die + 2 - 4.
    dealt = strike(inp, dyn, cc, AKARI, SHADE, check=faces(5, 5, 6, 6, 1, 1), damage=faces(die))
    assert dealt == expected
    assert dyn[SHADE, K.D_RES] == 18 - expected
    assert cc[AKARI, K.K_HITS] == 1


# ------------------------------------------------------------------ 6. overflow


@pytest.mark.parametrize("kind", ["girl", "monster"])
def test_overflow_damage_is_lost(kind):
    """L1420: damage beyond the remaining Resolve is ignored (it does not become
    wounds); Resolve stops at 0. A girl is down, a monster dead (L1892, A29)."""
    inp, dyn, cc = duel(b={"kind": kind, "resolve": 3})
    dealt = strike(inp, dyn, cc, AKARI, SHADE, check=faces(5, 5, 1, 1), damage=faces(6))
    assert dealt == 3
    assert dyn[SHADE, K.D_RES] == 0
    assert dyn[SHADE, K.D_WOUNDS] == 0 and cc[SHADE, K.K_WOUND_DMG] == 0
    assert cc[AKARI, K.K_DEALT] == 3 and cc[SHADE, K.K_TAKEN] == 3
    assert cc[SHADE, K.K_KOS] == 1 and cc[SHADE, K.K_KO_TRIALS] == 1
    assert dyn[SHADE, K.D_DEAD] == (kind == "monster")
    assert cc[SHADE, K.K_DEATHS] == (kind == "monster")


# ------------------------------------------------------------------ 7. Boost

ALWAYS = {"boost": "always", "overcharge_cap": 1000}


def test_boost_always_on_attack():
    """L1565, A4: Boost adds one exploding die, costs a use and +1 overcharge on the
    stat rolled, and adds 2 damage on attack; its six is a six (+2 damage, +1 overcharge)."""
    inp, dyn, cc = duel(a={"policy": ALWAYS})
    # Akari 3,2+4 = 9 vs Shade 2,2+3 = 7; boost die 6 explodes into 4.
    dealt = strike(inp, dyn, cc, AKARI, SHADE, check=faces(3, 2, 2, 2, 6, 4), damage=faces(3))
    assert dealt == 3 + 2 + 2 * 1 + 2
    assert dyn[AKARI, K.D_BOOSTS] == 2 and cc[AKARI, K.K_BOOSTS] == 1
    assert oc(dyn, AKARI) == [0, 2, 0]          # +1 for the boost, +1 for its six
    assert cc[AKARI, K.K_OC_GAIN + FURY] == 2


def test_boost_always_on_defence():
    """L1565, A4: a defender's boost subtracts 2 damage; its six subtracts 2 more."""
    inp, dyn, cc = duel(b={"policy": ALWAYS})
    # Akari 5,5+4 = 14 vs Shade 1,1+3 = 5, boost 6 then 2: 13 (still a hit).
    dealt = strike(inp, dyn, cc, AKARI, SHADE, check=faces(5, 5, 1, 1, 6, 2), damage=faces(6))
    assert dealt == 6 + 2 - 2 * 1 - 2
    assert dyn[SHADE, K.D_BOOSTS] == 2 and cc[SHADE, K.K_BOOSTS] == 1
    assert oc(dyn, SHADE) == [2, 0, 0]
    assert oc(dyn, AKARI) == [0, 0, 0] and dyn[AKARI, K.D_BOOSTS] == 3


def test_boost_six_counts_in_the_tie_break():
    """L1565, L1453: a boost die's six counts as a six for the tie-break."""
    inp, dyn, cc = duel(a={"attack": 3, "policy": ALWAYS}, b={"defence": 4})
    # Akari 2,1+3 = 6, boost 6,2 -> 14 with one six; Shade 5,5+4 = 14, no six: Akari wins.
    dealt = strike(inp, dyn, cc, AKARI, SHADE, check=faces(2, 1, 5, 5, 6, 2), damage=faces(1))
    assert dealt == 1 + 2 + 2 + 2


@pytest.mark.parametrize("a_faces, boosts, bpr, expected", [
    ((2, 2), (), 3, -1),                       # losing by 4 > 3: no boost
    ((2, 3), (1, 1, 2), 3, 1 + 2 + 3 * 2),     # losing by 3: boost until winning (3 dice)
    ((2, 3), (1, 1), 2, -1),                   # boosts_per_roll 2 stops at 11 vs 12
    ((5, 5), (), 3, 1 + 2),                    # already winning: no boost
])
def test_boost_when_losing_by_margin(a_faces, boosts, bpr, expected):
    """L1565, A5 (after the roll): ``when-losing-by 3`` boosts only while losing by at
    most 3, one die at a time, at most ``boosts_per_roll`` dice."""
    inp, dyn, cc = duel(a={"policy": {"boost": "when-losing-by 3", "overcharge_cap": 1000}},
                        rules={"boosts_per_roll": bpr})
    assert inp.pol[AKARI, K.P_MARGIN] == 3
    # Shade defends 5,4+3 = 12.
    dealt = strike(inp, dyn, cc, AKARI, SHADE, check=faces(*a_faces, 5, 4, *boosts),
                   damage=faces(1) if expected >= 0 else ())
    assert dealt == expected
    assert dyn[AKARI, K.D_BOOSTS] == 3 - len(boosts)
    assert oc(dyn, AKARI) == [0, len(boosts), 0]


def test_boost_when_losing_defender():
    """L1565: the defender boosts when the attacker is ahead by at most her margin."""
    inp, dyn, cc = duel(b={"policy": {"boost": "when-losing-by 2", "overcharge_cap": 1000}})
    # Akari 4,4+4 = 12 vs Shade 4,3+3 = 10; Shade boosts a 3: 13, a miss.
    dealt = strike(inp, dyn, cc, AKARI, SHADE, check=faces(4, 4, 4, 3, 3))
    assert dealt == -1
    assert dyn[SHADE, K.D_BOOSTS] == 2 and oc(dyn, SHADE) == [1, 0, 0]


def test_boosts_alternate_until_limits():
    """L1565, A5: after each boost the side now losing may answer with its own, each
    up to ``boosts_per_roll`` (3); each boost's flat +/-2 counts (2 for, 3 against)."""
    inp, dyn, cc = duel(a={"policy": {"boost": "when-losing-by 4", "overcharge_cap": 1000}},
                        b={"policy": {"boost": "when-losing-by 2", "overcharge_cap": 1000}})
    check = faces(4, 4,   # Akari 12
                  4, 3,   # Shade 10
                  3,      # Shade boosts: 13
                  2,      # Akari boosts: 14
                  1,      # Shade: 14 (tie: Akari's higher stat still wins)
                  2,      # Shade: 16 (her third: no more on this roll)
                  2)      # Akari: 16, the tie goes to her higher stat: a hit
    dealt = strike(inp, dyn, cc, AKARI, SHADE, check=check, damage=faces(2))
    assert dealt == 2 + 2 + 2 * (2 - 3)
    assert dyn[AKARI, K.D_BOOSTS] == 1 and dyn[SHADE, K.D_BOOSTS] == 0
    assert oc(dyn, AKARI) == [0, 2, 0] and oc(dyn, SHADE) == [3, 0, 0]


@pytest.mark.parametrize("cap, boosted", [(12, False), (13, True)])
def test_boost_overcharge_cap(cap, boosted):
    """L1565, policy ``overcharge_cap``: no boost whose +1 would put the counter above
    the cap. With cap 13 the boost takes fury from 12 to 13: a burst (L161), counted
    and reset after the action (A7b)."""
    inp, dyn, cc = duel(a={"overcharge": {"fury": 12},
                           "policy": {"boost": "always", "overcharge_cap": cap}})
    check = faces(3, 2, 2, 2, *((1,) if boosted else ()))
    dealt = strike(inp, dyn, cc, AKARI, SHADE, check=check, damage=faces(3))
    assert dealt == 3 + 2 + (2 if boosted else 0)
    assert dyn[AKARI, K.D_BOOSTS] == (2 if boosted else 3)
    assert cc[AKARI, K.K_BURSTS + FURY] == int(boosted)
    assert dyn[AKARI, K.D_OC + FURY] == (0 if boosted else 12)


CAP_PENDING = {
    # name: (member changes (a, b), rules, check faces, damage faces, expected, who, stat,
    #        counter after, bursts, boosts used)
    # fury 11 and a six showing: 12 already, a boost would make 13 > cap 12
    "attacker-six-on-roll": (
        {"overcharge": {"fury": 11}, "policy": {"boost": "always", "overcharge_cap": 12}}, {}, {},
        (6, 1, 2, 2, 2), (3,), 3 + 2 + 2, AKARI, FURY, 12, 0, 0),
    # the same for a defender: heart 11, her roll shows a six
    "defender-six-on-roll": (
        {}, {"overcharge": {"heart": 11}, "policy": {"boost": "always", "overcharge_cap": 12}}, {},
        (5, 5, 6, 1, 1), (4,), 4 + 2 - 2, SHADE, HEART, 12, 0, 0),
    # fury 10: first boost (11) rolls 6,1; a second boost would make 11 + 1 + 1 = 13
    "six-on-an-earlier-boost-die": (
        {"overcharge": {"fury": 10}, "policy": {"boost": "when-losing-by 10", "overcharge_cap": 12}},
        {"defence": 5}, {}, (1, 1, 5, 5, 6, 1), (), -1, AKARI, FURY, 12, 0, 1),
    # declared before rolling (A5b): the six is not known yet, so the boost is taken: 13, a burst
    "before-roll-does-not-know-the-six": (
        {"attack": 3, "overcharge": {"fury": 11}, "policy": {"boost": "when-losing", "overcharge_cap": 12}},
        {"defence": 4}, {"boost_timing": "before_roll"}, (6, 1, 2, 2, 2, 3), (3,), 3 + 2 + 2 + 2,
        AKARI, FURY, 0, 1, 1),
}


@pytest.mark.parametrize("case", list(CAP_PENDING))
def test_boost_overcharge_cap_counts_sixes_on_the_roll(case):
    """L149, L1565, policy ``overcharge_cap``: a boost decided after the roll (A5a)
    counts the overcharge the roll's sixes (boost dice included) already carry, so
    cap 12 keeps the girl short of a burst; declared before rolling (A5b) it cannot.
    (Was a bug: can_boost ignored the roll's sixes; fixed in the kernel.)"""
    a, b, rules, check, damage, expected, who, stat, after, bursts, used = CAP_PENDING[case]
    inp, dyn, cc = duel(a=a, b=b, rules=rules)
    dealt = strike(inp, dyn, cc, AKARI, SHADE, check=faces(*check), damage=faces(*damage))
    assert dealt == expected
    assert dyn[who, K.D_OC + stat] == after
    assert cc[who, K.K_BURSTS + stat] == bursts
    assert cc[who, K.K_BOOSTS] == used


def test_boost_uses_run_out():
    """L1565: Boost is 3/Scene; the fourth roll gets no boost die."""
    inp, dyn, cc = duel(a={"policy": ALWAYS}, b={"resolve": 40})
    assert inp.comb[AKARI, K.C_BOOSTS] == 3
    s = Script(check=faces(*(2, 2, 1, 1, 1) * 3, 2, 2, 1, 1), damage=faces(1, 1, 1, 1))
    dealt = [attack(inp, dyn, cc, AKARI, SHADE, s.streams) for _ in range(4)]
    s.assert_consumed()
    assert dealt == [5, 5, 5, 3]
    assert dyn[AKARI, K.D_BOOSTS] == 0 and cc[AKARI, K.K_BOOSTS] == 3
    assert dyn[SHADE, K.D_RES] == 40 - 18


def test_boost_uses_option():
    """``boost_uses`` (L1565 default 3) sets the uses per scene."""
    inp, dyn, cc = duel(a={"policy": ALWAYS}, rules={"boost_uses": 1})
    assert inp.comb[AKARI, K.C_BOOSTS] == 1
    s = Script(check=faces(2, 2, 1, 1, 1, 2, 2, 1, 1), damage=faces(1, 1))
    for _ in range(2):
        attack(inp, dyn, cc, AKARI, SHADE, s.streams)
    s.assert_consumed()
    assert cc[AKARI, K.K_BOOSTS] == 1 and dyn[AKARI, K.D_BOOSTS] == 0
    assert dyn[SHADE, K.D_RES] == 18 - 5 - 3


@pytest.mark.parametrize("boost_faces, expected", [((4,), 3 + 2), ((6, 1), 3 + 2 + 2)])
def test_boost_damage_six_only(boost_faces, expected):
    """A4 reading (b), ``boost_damage: six_only``: no flat +2 for the boost die; only
    its sixes add damage."""
    inp, dyn, cc = duel(a={"policy": ALWAYS}, rules={"boost_damage": "six_only"})
    dealt = strike(inp, dyn, cc, AKARI, SHADE, check=faces(3, 2, 2, 2, *boost_faces), damage=faces(3))
    assert dealt == expected
    assert dyn[AKARI, K.D_BOOSTS] == 2


def test_monster_never_boosts():
    """L1518, L1892: Boost is a magical girl's talent; a monster with an 'always'
    policy has no uses."""
    inp, dyn, cc = duel(b={"kind": "monster", "resolve": 20, "policy": ALWAYS})
    assert inp.comb[SHADE, K.C_BOOSTS] == 0
    dealt = strike(inp, dyn, cc, AKARI, SHADE, check=faces(5, 5, 1, 1), damage=faces(1))
    assert dealt == 3 and cc[SHADE, K.K_BOOSTS] == 0


@pytest.mark.parametrize("att, dfn, a_faces, d_faces, boosts, expected", [
    (3, 4, (5, 5), (1, 1), (2,), 1 + 2 + 2),   # lower stat: boosts once even though winning
    (4, 3, (1, 1), (5, 5), (), -1),            # higher stat: no boost even though losing
])
def test_boost_declared_before_roll(att, dfn, a_faces, d_faces, boosts, expected):
    """L1567 optional rule, A5 (b) ``boost_timing: before_roll``: the when-losing
    policy boosts once when its stat is lower than the opponent's, whatever the dice."""
    inp, dyn, cc = duel(a={"attack": att, "policy": {"boost": "when-losing", "overcharge_cap": 1000}},
                        b={"defence": dfn}, rules={"boost_timing": "before_roll"})
    dealt = strike(inp, dyn, cc, AKARI, SHADE, check=faces(*a_faces, *d_faces, *boosts),
                   damage=faces(1) if expected >= 0 else ())
    assert dealt == expected
    assert cc[AKARI, K.K_BOOSTS] == len(boosts)


# ------------------------------------------------------------------ 8. revive

REVIVE_BANDS = {
    # revive faces (Support 3), Support overcharge gained, pending die, Resolve pending
    "2-band-0": ((1, 1), 2, 3, 3),
    "10-band-0": ((3, 4), 2, 4, 4),
    "11-band-1": ((4, 4), 1, 4, 7),
    "13-band-1": ((5, 5), 1, 2, 5),
    "14-band-2-one-six": ((6, 2, 3), 1 + 1, 1, 7),
    "17-band-2-two-sixes": ((6, 6, 1, 1), 1 + 2, 6, 12),
}


@pytest.mark.parametrize("case", list(REVIVE_BANDS))
def test_revive_bands(case):
    """L1445-1451, A19a: on dropping to 0 a girl rolls 2d6!+Support at once: <=10 ->
    2 Support overcharge and 1d6 Resolve; 11-13 -> 1 and 1d6+3; 14+ -> 1 and 1d6+6;
    sixes on the roll add overcharge (L149). The Resolve waits in D_PENDING."""
    rf, oc_gain, die, pending = REVIVE_BANDS[case]
    inp, dyn, cc = duel(b={"resolve": 6}, rules={"revive": True})
    dealt = strike(inp, dyn, cc, AKARI, SHADE, check=faces(5, 5, 1, 1, *rf), damage=faces(4, die))
    assert dealt == 6
    assert dyn[SHADE, K.D_RES] == 0 and dyn[SHADE, K.D_DEAD] == 0
    assert dyn[SHADE, K.D_PENDING] == pending
    assert oc(dyn, SHADE) == [0, 0, oc_gain]      # Support role = judgment
    assert cc[SHADE, K.K_OC_GAIN + JUDGMENT] == oc_gain
    assert dyn[SHADE, K.D_REVIVES] == 1 and cc[SHADE, K.K_REVIVES] == 1
    assert cc[SHADE, K.K_KOS] == 1


def test_revive_overcharge_goes_to_the_support_stat():
    """L1445, L143: the revive overcharge is Support overcharge, i.e. on the magical
    stat that fills her Support role (here heart)."""
    inp, dyn, cc = duel(b={"attack": None, "defence": None, "support": None,
                           "heart": 4, "fury": 3, "judgment": 3, "resolve": 6,
                           "roles": {"attack": "fury", "defence": "judgment", "support": "heart"}},
                        rules={"revive": True})
    # revive 3,4 + 4 = 11: band 1.
    strike(inp, dyn, cc, AKARI, SHADE, check=faces(5, 5, 1, 1, 3, 4), damage=faces(4, 2))
    assert oc(dyn, SHADE) == [1, 0, 0]
    assert dyn[SHADE, K.D_PENDING] == 2 + 3


@pytest.mark.parametrize("limit, before, revives", [(1, 1, False), (1, 0, True), (0, 0, False),
                                                    (-1, 5, True), (3, 2, True)])
def test_revive_limit(limit, before, revives):
    """A19(iii), RULINGS: ``revive_limit`` caps revives per girl per fight (-1 = none)."""
    inp, dyn, cc = duel(b={"resolve": 6}, rules={"revive": True, "revive_limit": limit})
    dyn[SHADE, K.D_REVIVES] = before
    rf = (3, 4) if revives else ()
    strike(inp, dyn, cc, AKARI, SHADE, check=faces(5, 5, 1, 1, *rf),
           damage=faces(4, 4) if revives else faces(4))
    assert dyn[SHADE, K.D_RES] == 0
    assert dyn[SHADE, K.D_PENDING] == (4 if revives else -1)
    assert dyn[SHADE, K.D_REVIVES] == before + revives
    assert cc[SHADE, K.K_REVIVES] == int(revives)


def test_no_revive_stays_down():
    """RULINGS A19 ``revive: false``: 0 Resolve is out; no revive roll."""
    inp, dyn, cc = duel(b={"resolve": 6}, rules={"revive": False})
    strike(inp, dyn, cc, AKARI, SHADE, check=faces(5, 5, 1, 1), damage=faces(4))
    assert dyn[SHADE, K.D_RES] == 0 and dyn[SHADE, K.D_PENDING] == -1
    assert cc[SHADE, K.K_REVIVES] == 0


@pytest.mark.parametrize("rf, die, back", [((3, 4), 4, 4), ((6, 6, 1, 1), 6, 6)])
def test_revive_resolve_returns_at_her_next_turn(rf, die, back):
    """L1445, A19a: the revived Resolve comes back at the start of her next turn
    (capped at her maximum), and she acts on that turn."""
    inp = mb41_inputs(mb41_data(
        [mb41_member("Akari", attack=4, defence=4)],
        [mb41_member("Shade", resolve=6), mb41_member("Mook", resolve=40)],
        rules={"revive": True, "round_cap": 1}))
    dyn, cc = mb41_state(inp)
    s = Script(check=faces(5, 5, 1, 1,     # Akari hits Shade (weakest)
                           *rf,            # Shade's revive roll
                           1, 1, 5, 5,     # Shade rises and attacks Akari: miss
                           1, 1, 5, 5),    # Mook attacks Akari: miss
               damage=faces(4, die))
    outcome, rounds = mb41_fight(inp, dyn, s.streams, cc)
    s.assert_consumed()
    assert (outcome, rounds) == (K.F_DRAW, 1)
    assert dyn[SHADE, K.D_RES] == back and dyn[SHADE, K.D_PENDING] == -1
    assert cc[SHADE, K.K_ATTACKS] == 1


def test_pending_revive_does_not_keep_a_side_in_the_fight():
    """RULINGS (end of a fight, ``defeat: all_down``): a side with nobody standing at the
    end of a turn is defeated; its last girl makes no revive roll (it could not take
    effect: issue 35, defect 1), so no dice, no overcharge, no revive counted."""
    inp, dyn, cc = duel(b={"resolve": 6}, rules={"revive": True, "defeat": "all_down"})
    s = Script(check=faces(5, 5, 1, 1), damage=faces(4))
    assert mb41_fight(inp, dyn, s.streams, cc) == (K.F_WIN, 1)
    s.assert_consumed()
    assert dyn[SHADE, K.D_PENDING] == -1 and cc[SHADE, K.K_REVIVES] == 0
    assert oc(dyn, SHADE) == [0, 0, 0]


def test_pending_revive_under_all_dead():
    """RULINGS ``defeat: all_dead``: the downed girl stays in, rises at her turn and fights."""
    inp, dyn, cc = duel(b={"resolve": 6}, rules={"revive": True, "defeat": "all_dead", "round_cap": 2})
    s = Script(check=faces(5, 5, 1, 1, 3, 4,   # round 1: Akari drops Shade, revive 10
                           1, 1, 5, 5,         # Shade (4 Resolve) misses
                           1, 1, 5, 5,         # round 2: Akari misses
                           1, 1, 5, 5),        # Shade misses
               damage=faces(4, 4))
    assert mb41_fight(inp, dyn, s.streams, cc) == (K.F_DRAW, 2)
    s.assert_consumed()
    assert dyn[SHADE, K.D_RES] == 4


# ------------------------------------------------------------------ 9. wounds


def test_downed_girl_defends_with_tenacity_no_explosion():
    """L1420, L1455, A24a: at 0 Resolve she is a non-magical human and defends with
    2d6 + Tenacity: a 6 adds no die, gives no overcharge and no damage reduction;
    she cannot Boost; the damage becomes wounds (L1420, L1422, A17a)."""
    inp, dyn, cc = duel(b={"tenacity": 2, "policy": ALWAYS})
    dyn[SHADE, K.D_RES] = 0
    # Akari 5,5+4 = 14 vs Shade 6,1 + 2 = 9 (two dice only).
    dealt = strike(inp, dyn, cc, AKARI, SHADE, check=faces(5, 5, 6, 1), damage=faces(2))
    assert dealt == 2 + 2
    assert dyn[SHADE, K.D_WOUNDS] == 4 and cc[SHADE, K.K_WOUND_DMG] == 4
    assert dyn[SHADE, K.D_RES] == 0 and dyn[SHADE, K.D_DEAD] == 0
    assert oc(dyn, SHADE) == [0, 0, 0] and dyn[SHADE, K.D_BOOSTS] == 3
    assert cc[SHADE, K.K_KOS] == 0 and cc[SHADE, K.K_REVIVES] == 0


@pytest.mark.parametrize("before, death_wounds, dead", [(4, 6, True), (3, 6, True), (2, 6, False),
                                                        (4, 10, False)])
def test_wounds_kill_at_death_wounds(before, death_wounds, dead):
    """L1422, A16a: wound damage accumulates; at ``death_wounds`` (6) she dies, and a
    pending revive is cancelled."""
    inp, dyn, cc = duel(rules={"revive": True, "death_wounds": death_wounds})
    dyn[SHADE, K.D_RES] = 0
    dyn[SHADE, K.D_WOUNDS] = before
    dyn[SHADE, K.D_PENDING] = 5
    dealt = strike(inp, dyn, cc, AKARI, SHADE, check=faces(5, 5, 1, 1), damage=faces(1))
    assert dealt == 3
    assert dyn[SHADE, K.D_WOUNDS] == before + 3
    assert dyn[SHADE, K.D_DEAD] == dead and cc[SHADE, K.K_DEATHS] == dead
    assert dyn[SHADE, K.D_PENDING] == (-1 if dead else 5)


def test_tenacity_is_the_tie_break_stat_of_a_downed_defender():
    """L1453, L1455: the tie-break compares Attack with the Tenacity she rolled."""
    inp, dyn, cc = duel(a={"attack": 2}, b={"tenacity": 5})
    dyn[SHADE, K.D_RES] = 0
    assert strike(inp, dyn, cc, AKARI, SHADE, check=faces(4, 4, 3, 2)) == -1   # 10 vs 10


def test_downed_defence_none():
    """``downed_defence: none`` (alternative to A24a): a girl at 0 Resolve does not
    defend; any attack hits."""
    inp, dyn, cc = duel(a={"attack": 0}, rules={"downed_defence": "none"})
    dyn[SHADE, K.D_RES] = 0
    dealt = strike(inp, dyn, cc, AKARI, SHADE, check=faces(1, 1), damage=faces(1))
    assert dealt == 3 and dyn[SHADE, K.D_WOUNDS] == 3


@pytest.mark.parametrize("penalty, hits", [([2, 3, 4], True), ([0, 0, 0], False)])
def test_wounds_penalise_a_downed_girls_rolls(penalty, hits):
    """L1422: a human's wound levels give -2 / -3 / -4 on all rolls; a girl at 0 Resolve
    is one (L1420; transformed girls ignore them, L1443). A first hit of 3 (1 + 2) is
    wound level 2 (A16a); then Akari's 4 + 4 = 8 against Shade's 5 + 3 + 2 - 3 = 7: a hit
    that takes the track to 6, death. Without the penalty (``wound_roll_penalty``) 10: a miss."""
    inp, dyn, cc = duel(b={"tenacity": 2}, rules={"wound_roll_penalty": penalty})
    dyn[SHADE, K.D_RES] = 0
    assert strike(inp, dyn, cc, AKARI, SHADE, check=faces(5, 5, 1, 1), damage=faces(1)) == 3
    if hits:
        assert strike(inp, dyn, cc, AKARI, SHADE, check=faces(2, 2, 5, 3), damage=faces(1)) == 3
        assert dyn[SHADE, K.D_DEAD] == 1
    else:
        assert strike(inp, dyn, cc, AKARI, SHADE, check=faces(2, 2, 5, 3)) == -1
        assert dyn[SHADE, K.D_DEAD] == 0


def test_wound_model_per_hit():
    """A16b (``wound_model: per_hit``): each hit a separate wound; two hits of 3 are two
    level-2 wounds (levels 2 + 2 for the maximum-Resolve penalty, the worst sets -3 on her
    rolls), not the 6 that kills on one track (A16a); a single hit of 6 kills."""
    inp, dyn, cc = duel(rules={"wound_model": "per_hit"})
    dyn[SHADE, K.D_RES] = 0
    for _ in range(2):
        assert strike(inp, dyn, cc, AKARI, SHADE, check=faces(5, 5, 1, 1), damage=faces(1)) == 3
    assert dyn[SHADE, K.D_DEAD] == 0 and dyn[SHADE, K.D_WOUNDS] == 6 and dyn[SHADE, K.D_WOUND_HITS] == 2
    assert dyn[SHADE, K.D_WOUND_TOP] == 2 and dyn[SHADE, K.D_WOUND_LEVELS] == 4
    assert mb41_call(K.human_penalty, t=SHADE, comb=inp.comb, rules=inp.rules, dyn=dyn) == 3
    assert strike(inp, dyn, cc, AKARI, SHADE, check=faces(5, 5, 1, 1), damage=faces(4)) == 6
    assert dyn[SHADE, K.D_DEAD] == 1 and cc[SHADE, K.K_DEATHS] == 1
    inp, dyn, cc = duel()                              # the track (A16a): 3 + 3 kills
    dyn[SHADE, K.D_RES] = 0
    for _ in range(2):
        strike(inp, dyn, cc, AKARI, SHADE, check=faces(5, 5, 1, 1), damage=faces(1))
    assert dyn[SHADE, K.D_DEAD] == 1


def test_wound_model_boxes():
    """A16c (``wound_model: boxes``): each damaging hit fills a box, whatever its damage:
    levels 1, 2, 3 (rolls -2, -3, -4), the fourth hit kills."""
    inp, dyn, cc = duel(rules={"wound_model": "boxes"})
    dyn[SHADE, K.D_RES] = 0
    for k in range(1, 5):
        strike(inp, dyn, cc, AKARI, SHADE, check=faces(5, 5, 1, 1), damage=faces(1))
        assert dyn[SHADE, K.D_DEAD] == (k == 4)
        if k < 4:
            assert mb41_call(K.human_penalty, t=SHADE, comb=inp.comb, rules=inp.rules, dyn=dyn) == k + 1


@pytest.mark.parametrize("mode, dealt", [("full", 6), ("weapon", 2)])
def test_downed_damage_full_or_a_weapons_d6(mode, dealt):
    """A17: a magical attack on a girl at 0 Resolve deals its rolled damage (4 + 2, A17a)
    or, ``downed_damage: weapon`` (A17b), a regular weapon's 1d6 (L1455), rolled after it (2)."""
    inp, dyn, cc = duel(rules={"downed_damage": mode, "death_wounds": 10})
    dyn[SHADE, K.D_RES] = 0
    dice = faces(4) if mode == "full" else faces(4, 2)
    assert strike(inp, dyn, cc, AKARI, SHADE, check=faces(5, 5, 1, 1), damage=dice) == dealt
    assert dyn[SHADE, K.D_WOUNDS] == dealt
    dyn[SHADE, K.D_RES] = 5                           # standing: the rolled damage either way
    assert strike(inp, dyn, cc, AKARI, SHADE, check=faces(5, 5, 1, 1), damage=faces(1)) == 3


# ------------------------------------------------------------------ 10. monsters


@pytest.mark.parametrize("pool, cost, left, spent", [(1, 1, 0, 1), (10, 1, 8, 2), (10, 2, 6, 4), (3, 2, 0, 3)])
def test_monster_sixes_cost_pool(pool, cost, left, spent):
    """L1892: a monster's rolls explode as usual, but each six costs a point of its
    overcharge pool (``monster_six_cost``) instead of giving overcharge; not below 0
    (A29). Its sixes still add damage."""
    inp, dyn, cc = duel(b={"kind": "monster", "resolve": 20, "overcharge_pool": pool},
                        rules={"monster_six_cost": cost})
    # Shade 6,6,1,2+3 = 18 with two sixes vs Akari 1,1+4 = 6.
    dealt = strike(inp, dyn, cc, SHADE, AKARI, check=faces(6, 6, 1, 2, 1, 1), damage=faces(1))
    assert dealt == 1 + 2 + 2 * 2
    assert dyn[SHADE, K.D_POOL] == left and cc[SHADE, K.K_POOL_SPENT] == spent
    assert oc(dyn, SHADE) == [0, 0, 0]
    assert list(cc[SHADE, K.K_OC_GAIN:K.K_OC_GAIN + 3]) == [0, 0, 0]
    assert dyn[AKARI, K.D_RES] == 18 - 7


def test_monster_defence_sixes_cost_pool_and_reduce_damage():
    """L1892, L1453: a defending monster's sixes subtract 2 damage and cost its pool."""
    inp, dyn, cc = duel(b={"kind": "monster", "resolve": 20})
    assert inp.comb[SHADE, K.C_POOL] == 10          # monster_oc_pool default (A28 assumption)
    dealt = strike(inp, dyn, cc, AKARI, SHADE, check=faces(5, 5, 6, 1, 1), damage=faces(4))
    assert dealt == 4 + 2 - 2
    assert dyn[SHADE, K.D_POOL] == 9 and oc(dyn, SHADE) == [0, 0, 0]


def test_monster_dies_at_zero_without_revive():
    """L1892, A29: a monster at 0 Resolve is out (dead); girls' revive does not apply."""
    inp, dyn, cc = duel(b={"kind": "monster", "resolve": 5}, rules={"revive": True})
    dealt = strike(inp, dyn, cc, AKARI, SHADE, check=faces(5, 5, 1, 1), damage=faces(4))
    assert dealt == 5
    assert dyn[SHADE, K.D_DEAD] == 1 and cc[SHADE, K.K_DEATHS] == 1
    assert dyn[SHADE, K.D_PENDING] == -1 and cc[SHADE, K.K_REVIVES] == 0


@pytest.mark.parametrize("spread, level, table, expected", [
    (1, 2, None, 12), (2, 3, None, 28), (3, 4, None, 48), (1, 5, None, 18), (2, 6, None, 38),
    (1, 8, None, 21), (2, 3, [10, 11, 12, 13, 14], 22),
])
def test_monster_resolve_from_spread_and_level(spread, level, table, expected):
    """L1894-1946, A28: monster Resolve = spread x {12, 14, 16, 18, 18+n} for power
    levels 2..6 (n = 1 at level 6, +1 per level above; ``monster_resolve`` table)."""
    rules = {} if table is None else {"monster_resolve": table}
    inp, dyn, cc = duel(b={"kind": "monster", "resolve": None, "spread": spread, "power_level": level},
                        rules=rules)
    assert inp.comb[SHADE, K.C_RES] == expected and dyn[SHADE, K.D_RES] == expected
    assert any("monster_resolve" in n for n in inp.notes)


@pytest.mark.parametrize("fields, rules, bonus", [
    ({"damage_bonus": 3}, {}, 2 + 3),
    ({}, {"monster_damage_bonus": 1}, 2 + 1),
    ({"attack_kind": "ranged"}, {"monster_damage_bonus": 1}, 0 + 1),
])
def test_monster_damage_bonus(fields, rules, bonus):
    """A23, A28: a monster's basic attack is a girl's plus its damage bonus (the
    scenario's, else ``monster_damage_bonus``)."""
    inp, dyn, cc = duel(b={"kind": "monster", "resolve": 20, **fields}, rules=rules)
    assert inp.comb[SHADE, K.C_DMG] == bonus
    dealt = strike(inp, dyn, cc, SHADE, AKARI, check=faces(5, 5, 1, 1), damage=faces(1))
    assert dealt == 1 + bonus


# ------------------------------------------------------------------ 11. bursts


@pytest.mark.parametrize("a_faces, fury_after, bursts", [
    ((6, 1, 1), 12, 0),
    ((6, 6, 1, 1), 0, 1),
    ((6, 6, 6, 1, 1), 0, 1),   # 14 resets to 0 after the action (not 13 -> 0 -> 1 mid-roll)
])
def test_attacker_burst(a_faces, fury_after, bursts):
    """L151, L161, A6a, A7b: a counter reaching 13 is a burst for that stat; the
    counter resets to 0, checked once after the action resolves."""
    inp, dyn, cc = duel(a={"overcharge": {"fury": 11}})
    strike(inp, dyn, cc, AKARI, SHADE, check=faces(*a_faces, 1, 1), damage=faces(1))
    assert dyn[AKARI, K.D_OC + FURY] == fury_after
    assert cc[AKARI, K.K_BURSTS + FURY] == bursts
    assert cc[AKARI, K.K_BURSTS + HEART] == 0 and cc[AKARI, K.K_BURSTS + JUDGMENT] == 0


def test_defender_burst():
    """L161: the defender's Defence-role counter can burst too (heart here)."""
    inp, dyn, cc = duel(b={"overcharge": {"heart": 12}})
    strike(inp, dyn, cc, AKARI, SHADE, check=faces(5, 5, 6, 1, 1), damage=faces(1))
    assert cc[SHADE, K.K_BURSTS + HEART] == 1 and dyn[SHADE, K.D_OC + HEART] == 0


def test_burst_without_reset_and_custom_threshold():
    """``burst_resets: false`` keeps the counter; ``burst_at`` moves the threshold."""
    inp, dyn, cc = duel(a={"overcharge": {"fury": 11}}, rules={"burst_resets": False})
    strike(inp, dyn, cc, AKARI, SHADE, check=faces(6, 6, 1, 1, 1, 1), damage=faces(1))
    assert dyn[AKARI, K.D_OC + FURY] == 13 and cc[AKARI, K.K_BURSTS + FURY] == 1
    inp, dyn, cc = duel(a={"overcharge": {"fury": 3}}, rules={"burst_at": 5})
    strike(inp, dyn, cc, AKARI, SHADE, check=faces(6, 6, 1, 1, 1, 1), damage=faces(1))
    assert dyn[AKARI, K.D_OC + FURY] == 0 and cc[AKARI, K.K_BURSTS + FURY] == 1


def test_burst_without_reset_counts_once():
    """L161: a burst happens when the counter hits 13; with ``burst_resets: false`` the
    counter stays at 13 and an action that adds nothing must not count a second burst."""
    inp, dyn, cc = duel(a={"overcharge": {"fury": 11}}, rules={"burst_resets": False})
    s = Script(check=faces(6, 6, 1, 1, 1, 1,    # two sixes: 13, a burst
                           5, 5, 1, 1),         # no six: still 13
               damage=faces(1, 1))
    attack(inp, dyn, cc, AKARI, SHADE, s.streams)
    attack(inp, dyn, cc, AKARI, SHADE, s.streams)
    s.assert_consumed()
    assert dyn[AKARI, K.D_OC + FURY] == 13
    assert cc[AKARI, K.K_BURSTS + FURY] == 1


def test_check_bursts_every_stat_girls_only():
    """L161: every stat at or above 13 bursts; monsters have no counters (L1892)."""
    inp, dyn, cc = duel(b={"kind": "monster", "resolve": 20})
    dyn[AKARI, K.D_OC:K.D_OC + 3] = [12, 13, 20]
    mb41_call(K.check_bursts, i=AKARI, comb=inp.comb, rules=inp.rules, dyn=dyn, cc=cc)
    assert oc(dyn, AKARI) == [12, 0, 0]
    assert list(cc[AKARI, K.K_BURSTS:K.K_BURSTS + 3]) == [0, 1, 1]
    dyn[SHADE, K.D_OC:K.D_OC + 3] = [13, 13, 13]
    mb41_call(K.check_bursts, i=SHADE, comb=inp.comb, rules=inp.rules, dyn=dyn, cc=cc)
    assert list(cc[SHADE, K.K_BURSTS:K.K_BURSTS + 3]) == [0, 0, 0]


def test_revive_overcharge_can_burst():
    """L1445, L161: the revive roll's Support overcharge counts; 11 + 2 = 13 bursts
    (checked after the attack that dropped her)."""
    inp, dyn, cc = duel(b={"resolve": 6, "overcharge": {"judgment": 11}}, rules={"revive": True})
    strike(inp, dyn, cc, AKARI, SHADE, check=faces(5, 5, 1, 1, 3, 4), damage=faces(4, 4))
    assert cc[SHADE, K.K_BURSTS + JUDGMENT] == 1 and dyn[SHADE, K.D_OC + JUDGMENT] == 0


# ------------------------------------------------------------------ 12. initiative


def trio(rules=None, sups=(3, 5, 1)):
    inp = mb41_inputs(mb41_data(
        [mb41_member("Akari", support=sups[0]), mb41_member("Bea", support=sups[1])],
        [mb41_member("Shade", support=sups[2])], rules=rules))
    dyn, cc = mb41_state(inp)
    return inp, dyn, cc


def initiative(inp, setup):
    s = Script(setup=setup)
    order = np.full(inp.n, -1, dtype=np.int64)
    key = np.zeros(inp.n, dtype=np.int64)
    mb41_call(K.roll_initiative, comb=inp.comb, rules=inp.rules, dyn=np.zeros((inp.n, K.NDYN), dtype=np.int64),
              streams=s.streams, order=order, key=key)
    s.assert_consumed()
    return list(order)


@pytest.mark.parametrize("sups, setup, expected", [
    # all total 10: higher Support first whatever the tie-break draws
    ((3, 5, 1), [*faces(6, 1), 0, *faces(2, 3), 0, *faces(5, 4), MAX_TIE], [1, 0, 2]),
    # totals first (a 6,6 adds no die: the next draw is the tie-break); 7 vs 7 by Support
    ((3, 5, 1), [*faces(6, 6), 0, *faces(1, 1), 0, *faces(3, 3), MAX_TIE], [0, 1, 2]),
    # equal totals and Support: the random draw decides
    ((3, 3, 1), [*faces(4, 4), 5, *faces(4, 4), 900000, *faces(1, 1), 0], [1, 0, 2]),
    ((3, 3, 1), [*faces(4, 4), 900000, *faces(4, 4), 5, *faces(1, 1), 0], [0, 1, 2]),
])
def test_initiative_roll(sups, setup, expected):
    """L1408, A11c: 2d6 + Support (no explosion, no overcharge), higher first; ties by
    higher Support, then by a random draw."""
    inp, dyn, cc = trio(rules={"initiative": "roll"}, sups=sups)
    assert initiative(inp, setup) == expected
    assert not dyn[:, K.D_OC:K.D_OC + 3].any()


def test_initiative_listed():
    """``initiative: listed``: the file order; no dice."""
    inp, dyn, cc = trio(rules={"initiative": "listed"})
    assert initiative(inp, []) == [0, 1, 2]


def test_rolled_initiative_decides_who_strikes_first():
    """L1408: in a fight the initiative winner acts first (Shade, 12 vs 5)."""
    inp, dyn, cc = duel(a={"resolve": 8}, b={"attack": 4}, rules={"initiative": "roll"})
    # Akari's initiative 1,1+3 = 5; Shade's 6,3+3 = 12 (no extra die for the 6).
    s = Script(setup=[*faces(1, 1), 0, *faces(6, 3), 0],
               check=faces(5, 5, 1, 1), damage=faces(6))
    assert mb41_fight(inp, dyn, s.streams, cc) == (K.F_LOSS, 1)
    s.assert_consumed()
    assert cc[AKARI, K.K_ATTACKS] == 0


# ------------------------------------------------------------------ 13. targeting


def squad(policy=None):
    """Akari vs X (10 Resolve), Y (5), Z (5)."""
    inp = mb41_inputs(mb41_data(
        [mb41_member("Akari", policy=policy or {"boost": "never"})],
        [mb41_member("X", resolve=10), mb41_member("Y", resolve=5), mb41_member("Z", resolve=5)]))
    dyn, cc = mb41_state(inp)
    return inp, dyn


def target(inp, dyn, i=0, policy=()):
    s = Script(policy=policy)
    t = mb41_call(K.target_of, i=i, comb=inp.comb, rules=inp.rules, dyn=dyn, streams=s.streams)
    s.assert_consumed()
    return int(t)


def test_focus_weakest_lowest_resolve_first_listed():
    """Policy focus-weakest: the enemy with the lowest current Resolve, ties to the
    first listed."""
    inp, dyn = squad()
    assert target(inp, dyn) == 2
    dyn[1, K.D_RES] = 4
    assert target(inp, dyn) == 1
    assert target(inp, dyn, i=2) == 0          # only enemies are targets


@pytest.mark.parametrize("finish, dead, expected", [(False, False, 3), (True, False, 2), (True, True, 3)])
def test_focus_weakest_downed_targets(finish, dead, expected):
    """RULINGS (downed girls): a girl at 0 Resolve is attacked only with
    ``finish_downed: true``, and then first; the dead are never targets."""
    inp, dyn = squad({"boost": "never", "finish_downed": finish})
    dyn[2, K.D_RES] = 0
    dyn[2, K.D_DEAD] = int(dead)
    assert target(inp, dyn) == expected


@pytest.mark.parametrize("draw, expected", [(0, 1), (1, 2), (2, 3)])
def test_random_target_draws_uniformly(draw, expected):
    """Policy random-target: one draw ``randbelow(count)`` over the candidates in order."""
    inp, dyn = squad({"name": "random-target", "boost": "never"})
    assert inp.pol[0, K.P_TARGET] == K.TARGET_RANDOM
    assert target(inp, dyn, policy=[draw]) == expected


def test_random_target_only_among_candidates():
    """random-target skips non-candidates: with Y downed the draw is over 2 (X, Z)."""
    inp, dyn = squad({"name": "random-target", "boost": "never"})
    dyn[2, K.D_RES] = 0
    assert target(inp, dyn, policy=[1]) == 3
    with pytest.raises(AssertionError, match="out of range"):
        target(inp, dyn, policy=[2])


def test_no_target_left():
    """Nobody to attack: -1, and no random draw."""
    inp, dyn = squad({"name": "random-target", "boost": "never"})
    dyn[1:, K.D_DEAD] = 1
    dyn[1:, K.D_RES] = 0
    assert target(inp, dyn) == -1


# ------------------------------------------------------------------ 14. end of the fight

STATES = {"up": (18, 0, -1), "down": (0, 0, -1), "pending": (0, 0, 3), "dead": (0, 1, -1)}


@pytest.mark.parametrize("defeat, a, b, expected", [
    ("all_down", "up", "up", -1), ("all_down", "up", "down", K.F_WIN), ("all_down", "down", "up", K.F_LOSS),
    ("all_down", "down", "down", K.F_DRAW), ("all_down", "up", "pending", K.F_WIN),
    ("all_down", "up", "dead", K.F_WIN),
    ("all_dead", "up", "down", -1), ("all_dead", "up", "pending", -1), ("all_dead", "up", "dead", K.F_WIN),
    ("all_dead", "dead", "up", K.F_LOSS), ("all_dead", "dead", "dead", K.F_DRAW), ("all_dead", "down", "dead", K.F_WIN),
])
def test_outcome_now(defeat, a, b, expected):
    """RULINGS (end of a fight): ``all_down`` = nobody standing (Resolve > 0, not dead);
    ``all_dead`` = everybody dead."""
    inp, dyn, cc = duel(rules={"defeat": defeat})
    for i, st in ((AKARI, a), (SHADE, b)):
        dyn[i, K.D_RES], dyn[i, K.D_DEAD], dyn[i, K.D_PENDING] = STATES[st]
    assert mb41_call(K.outcome_now, comb=inp.comb, rules=inp.rules, dyn=dyn) == expected


def test_round_cap_is_a_draw():
    """RULINGS: a fight still running after ``round_cap`` rounds is a draw."""
    inp, dyn, cc = duel(rules={"round_cap": 2})
    s = Script(check=faces(*(1, 1, 5, 5) * 4))
    assert mb41_fight(inp, dyn, s.streams, cc) == (K.F_DRAW, 2)
    s.assert_consumed()
    assert cc[AKARI, K.K_ATTACKS] == 2 and cc[SHADE, K.K_ATTACKS] == 2
    assert cc[AKARI, K.K_RES_END] == 18 and cc[AKARI, K.K_STANDING_END] == 1


def test_fight_ends_at_the_end_of_the_turn():
    """RULINGS: defeat is checked at the end of every turn: Shade, down, never acts."""
    inp, dyn, cc = duel(b={"resolve": 8})
    s = Script(check=faces(5, 5, 1, 1), damage=faces(6))
    assert mb41_fight(inp, dyn, s.streams, cc) == (K.F_WIN, 1)
    s.assert_consumed()
    assert cc[SHADE, K.K_ATTACKS] == 0 and cc[SHADE, K.K_STANDING_END] == 0


@pytest.mark.parametrize("finish", [False, True])
def test_all_dead_needs_a_kill(finish):
    """RULINGS ``defeat: all_dead``: a downed girl keeps her side in; she only dies if
    the enemy finishes downed girls (then at 6 wound damage, L1422)."""
    inp, dyn, cc = duel(a={"policy": {"boost": "never", "finish_downed": finish}}, b={"resolve": 8},
                        rules={"defeat": "all_dead", "round_cap": 2})
    check = faces(5, 5, 1, 1, *((5, 5, 1, 1) if finish else ()))
    s = Script(check=check, damage=faces(6, *((4,) if finish else ())))
    result = mb41_fight(inp, dyn, s.streams, cc)
    s.assert_consumed()
    if finish:
        assert result == (K.F_WIN, 2)
        assert dyn[SHADE, K.D_DEAD] == 1 and dyn[SHADE, K.D_WOUNDS] == 6
    else:
        assert result == (K.F_DRAW, 2)
        assert dyn[SHADE, K.D_DEAD] == 0 and cc[AKARI, K.K_ATTACKS] == 1


def test_starting_overcharge_at_threshold_bursts_at_fight_start():
    """L161: a girl who starts a scene with a counter at 13 bursts at once (counted once)."""
    inp, dyn, cc = duel(a={"overcharge": {"heart": 13}}, rules={"round_cap": 1})
    mb41_call(K.check_bursts, i=AKARI, comb=inp.comb, rules=inp.rules, dyn=dyn)  # what fight() does first
    assert cc[AKARI, K.K_BURSTS + 0] == 1 and dyn[AKARI, K.D_OC + 0] == 0


def test_default_overcharge_cap_follows_burst_at():
    """Policy default: never take optional overcharge into a burst, whatever burst_at is."""
    inp, _, _ = duel(rules={"burst_at": 9})
    assert inp.pol[AKARI, K.P_OCCAP] == 8
    inp, _, _ = duel()
    assert inp.pol[AKARI, K.P_OCCAP] == 12
    inp, _, _ = duel(a={"policy": {"overcharge_cap": 5}})
    assert inp.pol[AKARI, K.P_OCCAP] == 5
