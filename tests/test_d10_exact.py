"""The d10 kernel against an exact dynamic program on duels.

Each case plays the issue's duel (or a variant: abilities, DR, ranged, rolled
initiative, Parry/Luck defences, odd Vitality, contested readings) with the
Monte Carlo kernel and compares win/loss/draw with
:func:`sim.systems.d10.exact_duel.duel` within 4 standard errors.
"""
from __future__ import annotations

import math

import pytest

from sim.rng import stream_key
from sim.systems import d10
from sim.systems.d10 import kernel as K
from sim.systems.d10.compile import dice, thresholds
from sim.systems.d10.exact_duel import Fighter, duel
from sim.systems.d10.testing import duel_data, load

TRIALS = 200_000

CASES = {
    "issue-duel": dict(),
    "rolled-initiative": dict(rules={"initiative": "roll"}),
    "rolled-equal-agility": dict(rules={"initiative": "roll"}, b={"abilities": {"agility": 8}}),
    "ranged": dict(a={"attack_kind": "ranged"}, b={"attack_kind": "ranged"}),
    "dr-0-vs-2": dict(a={"outfit_dr": 0}, b={"outfit_dr": 2}),
    "other-abilities": dict(a={"abilities": {"strength": 12, "vitality": 5}},
                            b={"abilities": {"strength": 5, "agility": 11, "vitality": 9}}),
    "parry-and-luck": dict(a={"defence": "parry"}, b={"defence": "luck"}),
    "example-damage": dict(rules={"damage_formula": "example"}),
    "floor-thresholds": dict(rules={"threshold_rule": "floor"}, a={"abilities": {"vitality": 5}},
                             b={"abilities": {"vitality": 7}}),
    "perk-dice": dict(a={"perks": ["Martial Training", "Flexibility"], "attack_kind": "ranged"},
                      b={"perks": ["Enhanced Outfit"]}, rules={"initiative": "roll"}),
    "short-cap": dict(rules={"round_cap": 4}),
}

ABIL = {"strength": 0, "agility": 1, "vitality": 2, "magic": 3, "luck": 4}
DEF_ABIL = {"dodge": "agility", "luck": "luck", "parry": "strength", "block": "magic"}
DEF_TEST = {"dodge": K.T_DODGE, "luck": K.T_LUCK, "parry": K.T_PARRY, "block": K.T_BLOCK}


def fighter(inp, i: int, member: dict) -> Fighter:
    """The DP fighter of combatant ``i`` from the compiled columns (pool sizes incl. perk dice)."""
    c = inp.comb[i]
    kind = member["attack_kind"]
    atk_ab = {"melee": "strength", "ranged": "agility", "mystic": "magic"}[kind]
    atk_test = {"melee": K.T_MELEE, "ranged": K.T_RANGED, "mystic": K.T_MYSTIC}[kind]
    dk = member["defence"]
    return Fighter(
        attack=int(c[K.C_DICE + ABIL[atk_ab]] + c[K.C_BONUS + atk_test]),
        defence=int(c[K.C_DICE + ABIL[DEF_ABIL[dk]]] + c[K.C_BONUS + DEF_TEST[dk]]),
        wmax=int(c[K.C_WMAX]), thresholds=(int(c[K.C_T1]), int(c[K.C_T2]), int(c[K.C_T3])),
        dr=int(c[K.C_DR]), defence_kind=dk, attack_kind=kind,
        init=int(c[K.C_DICE + 1] + c[K.C_BONUS + K.T_INIT]), agility=int(c[K.C_SCORE + 1]),
        aware=bool(c[K.C_PMASK] & (1 << K.E_INITIATIVE_TENS)))


def exact_for(data):
    loaded = load(data)
    inp = d10.compile(loaded.base)
    r = d10.RULES.resolve(data["rules"])
    a = fighter(inp, 0, data["sides"][0]["members"][0])
    b = fighter(inp, 1, data["sides"][1]["members"][0])
    ex = duel(a, b, initiative=r["initiative"], round_cap=r["round_cap"], damage_formula=r["damage_formula"],
              min_wounds=r["min_wounds"], threshold_penalties=r["threshold_penalties"],
              parry_wounds=r["parry_wounds"])
    return inp, ex


@pytest.mark.parametrize("case", list(CASES))
def test_duel_matches_exact_dp(case):
    data = duel_data(**CASES[case])
    inp, exact = exact_for(data)
    c = d10.simulate(inp, 0, TRIALS, stream_key(data["seed"]))
    mc = c["outcomes"] / TRIALS
    for p_mc, p_ex, what in zip(mc, exact, ("win", "loss", "draw")):
        se = math.sqrt(max(p_ex * (1 - p_ex), 1e-12) / TRIALS)
        assert abs(p_mc - p_ex) <= 4 * se + 1e-9, f"{case} {what}: MC {p_mc:.5f} vs exact {p_ex:.5f} (se {se:.5f})"


def test_exact_dp_detects_a_wrong_rule():
    """The comparison has power: the exact answer moves by > 4 SE when a rule changes."""
    t = thresholds(12, "exact")
    a = Fighter(dice(8), dice(8), 12, t, 1, agility=8)
    b = Fighter(dice(7), dice(7), 12, t, 1, agility=7)
    base = duel(a, b)[0]
    se = math.sqrt(base * (1 - base) / TRIALS)
    # D11: the example's reading deals fewer wounds, so more fights reach a short cap
    d5 = duel(a, b, round_cap=5)[2]
    assert abs(duel(a, b, round_cap=5, damage_formula="example")[2] - d5) > 4 * math.sqrt(d5 * (1 - d5) / TRIALS)
    assert abs(duel(a, b, threshold_penalties=(0, 0, 0))[0] - base) > 4 * se
    assert abs(duel(a, b, initiative="roll")[0] - base) > 4 * se
    a_parry = Fighter(dice(8), dice(8), 12, t, 1, defence_kind="parry", agility=8)
    assert abs(duel(a_parry, b)[0] - base) > 4 * se
    b_dr2 = Fighter(dice(7), dice(7), 12, t, 2, agility=7)
    assert abs(duel(a, b_dr2)[0] - base) > 4 * se
    a_big = Fighter(dice(8) + 1, dice(8), 12, t, 1, agility=8)   # one bonus die
    assert abs(duel(a_big, b)[0] - base) > 4 * se


def test_issue_duel_exact_value_is_stable():
    """The issue's duel: Molly (listed first) wins about 55.9 % (the DP's value)."""
    _, ex = exact_for(duel_data())
    assert ex[0] == pytest.approx(0.5586, abs=2e-4)
    assert ex[2] < 1e-6
