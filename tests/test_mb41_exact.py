"""The mb41 kernel against an exact dynamic program on duels (issue: foundation).

Each case plays a 1v1 fight with the Monte Carlo kernel and compares win,
loss and draw rates with :func:`sim.systems.mb41.exact_duel.duel`, within 4
standard errors. The cases vary stats, melee/ranged, Resolve, initiative,
Boost and contested rule readings (full tie, minimum damage).
"""
from __future__ import annotations

import math

import pytest

from sim.rng import stream_key
from sim.systems import mb41
from sim.systems.mb41.exact_duel import Fighter, duel

from helpers import duel_data, load_data

TRIALS = 200_000

CASES = {
    "issue-duel": dict(),
    "other-stats": dict(a={"attack": 6, "defence": 2, "support": 1}, b={"attack": 4, "defence": 5, "support": 2}),
    "ranged": dict(a={"attack_kind": "ranged"}, b={"attack_kind": "ranged"}),
    "mixed-range": dict(a={"attack_kind": "ranged", "attack": 5}),
    "unequal-resolve": dict(a={"resolve": 10}, b={"resolve": 25}),
    "rolled-initiative": dict(rules={"initiative": "roll"}, b={"support": 5}),
    "boost-always": dict(a={"policy": {"boost": "always", "overcharge_cap": 1000}},
                         b={"policy": {"boost": "always", "overcharge_cap": 1000}}),
    "full-tie-attacker": dict(rules={"full_tie": "attacker"}, a={"attack": 3, "defence": 3}),
    "min-damage-1": dict(rules={"min_damage": 1}),
    "monster": dict(b={"kind": "monster", "spread": 1, "power_level": 4, "resolve": None,
                       "damage_bonus": 1}),
    "short-cap": dict(rules={"round_cap": 2}),
}


def _fighter(member: dict, rules: dict) -> Fighter:
    from sim.systems.mb41.rules import RULES, monster_resolve

    r = RULES.resolve(rules)
    bonus = r["melee_bonus"] if member.get("attack_kind", "melee") == "melee" else r["ranged_bonus"]
    if member.get("kind") == "monster":
        bonus += member.get("damage_bonus") or 0
        res = member.get("resolve") or monster_resolve(member["spread"], member["power_level"],
                                                       r["monster_resolve"])
    else:
        res = member.get("resolve") or r["resolve"]
    boosts = r["boost_uses"] if member.get("policy", {}).get("boost") == "always" else 0
    return Fighter(member["attack"], member["defence"], member["support"], res, bonus, boosts)


@pytest.mark.parametrize("case", list(CASES))
def test_duel_matches_exact_dp(case):
    data = duel_data(**CASES[case])
    for m in (data["sides"][0]["members"][0], data["sides"][1]["members"][0]):
        for k in [k for k, v in m.items() if v is None]:
            del m[k]
    loaded = load_data(data)
    inputs = mb41.compile(loaded.base)
    c = mb41.simulate(inputs, 0, TRIALS, stream_key(data["seed"]))
    mc = c["outcomes"] / TRIALS
    rules = data["rules"]
    r = mb41.RULES.resolve(rules)
    a = _fighter(data["sides"][0]["members"][0], rules)
    b = _fighter(data["sides"][1]["members"][0], rules)
    exact = duel(a, b, initiative=r["initiative"], round_cap=r["round_cap"], min_damage=r["min_damage"],
                 full_tie=r["full_tie"])
    for p_mc, p_ex, what in zip(mc, exact, ("win", "loss", "draw")):
        se = math.sqrt(max(p_ex * (1 - p_ex), 1e-12) / TRIALS)
        assert abs(p_mc - p_ex) <= 4 * se + 1e-12, f"{case} {what}: MC {p_mc:.5f} vs exact {p_ex:.5f} (se {se:.5f})"


def test_exact_dp_detects_a_wrong_rule():
    """The comparison has power: the exact answer moves by many SE when a rule changes."""
    a, b = Fighter(4, 4, 3, 18, 2), Fighter(3, 3, 3, 18, 2)
    base = duel(a, b)[0]
    se = math.sqrt(base * (1 - base) / TRIALS)
    eq_a, eq_b = Fighter(3, 3, 3, 18, 2), Fighter(3, 3, 3, 18, 2)  # full ties need equal stats
    assert abs(duel(eq_a, eq_b, full_tie="attacker")[0] - duel(eq_a, eq_b)[0]) > 4 * se
    ba, bb = Fighter(4, 4, 3, 18, 2, boosts=3), Fighter(3, 3, 3, 18, 2, boosts=0)  # A4: flat +2 or not
    assert abs(duel(ba, bb, boost_flat=False)[0] - duel(ba, bb)[0]) > 4 * se
    assert abs(duel(a, b, six_damage=1)[0] - base) > 4 * se
