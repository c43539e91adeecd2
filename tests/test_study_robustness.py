"""Policy robustness (issue 21): a conclusion whose sign depends on the policy by
construction is flagged, one that cannot depend on it holds; seeded runs repeat.

The planted flip, on the foundation duel: Akari with Heal against Akari with +1
Attack. With ``heal_below: 0`` she never heals, so the Heal arm *is* the base
and +1 Attack wins (about -4 points); with ``heal_below: 100`` she heals at the
first scratch and Heal wins (about +16 points). "+1 Attack - base" involves no
Heal, so no heal policy can change it.
"""
from __future__ import annotations

import pytest

from sim.scenario import ScenarioError
from sim.study import robustness

from study_helpers import context, duel_study, load

POLICIES = [{"name": "never heals", "set": {"Akari.policy.heal_below": 0}},
            {"name": "heals early", "set": {"Akari.policy.heal_below": 100}}]
COMPARE = {"kind": "compare",
           "arms": [{"name": "base"}, {"name": "Heal", "set": {"Akari.talents": ["Heal"]}},
                    {"name": "+1 Attack", "set": {"Akari.attack": 5}}],
           "pairs": [["Heal", "+1 Attack"], ["+1 Attack", "base"]]}


def _run(study, seed=3, trials=3_000):
    ls = load(duel_study({"kind": "policy-robustness", "policies": POLICIES, "study": study}))
    return robustness.run(context(ls, seed=seed, trials=trials), ls.spec)


def test_planted_flip_is_flagged_and_a_holding_conclusion_is_not():
    df = _run(COMPARE).tables["robustness"].set_index(["conclusion", "policy"])
    flip = df.loc["Heal − +1 Attack"]
    assert flip.loc["never heals", "sign"] == -1 and flip.loc["heals early", "sign"] == 1
    assert flip.loc["heals early", "status"] == "flips" and set(flip["verdict"]) == {"flips"}
    held = df.loc["+1 Attack − base"]
    assert set(held["status"]) == {"holds"} and set(held["verdict"]) == {"holds"}
    assert set(held["sign"]) == {1}
    # intervals are Bonferroni over the 2 policies: 97.5% (wider than the nested 95%)
    assert (df["lo"] <= df["diff"]).all() and (df["diff"] <= df["hi"]).all()


def test_talent_value_order_reversal_is_flagged():
    study = {"kind": "talent-value", "member": "Akari",
             "candidates": ["Heal", {"name": "+1 Attack", "set": {"Akari.attack": 5}}]}
    sec = _run(study)
    df = sec.tables["robustness"].set_index(["conclusion", "policy"])
    pair = [c for c in df.index.get_level_values(0).unique() if "Heal" in c and "Attack" in c][0]
    assert set(df.loc[pair, "verdict"]) == {"flips"}
    assert "flip sign" in sec.reading


def test_same_seed_same_table_and_weakened_is_reported():
    a = _run(COMPARE, seed=11, trials=1_000).tables["robustness"]
    b = _run(COMPARE, seed=11, trials=1_000).tables["robustness"]
    assert a.equals(b)
    weak = [{"name": "never heals", "set": {"Akari.policy.heal_below": 0}},
            {"name": "heals early", "set": {"Akari.policy.heal_below": 100}}]
    study = {"kind": "compare", "arms": [{"name": "base"}, {"name": "Heal", "set": {"Akari.talents": ["Heal"]}}]}
    ls = load(duel_study({"kind": "policy-robustness", "policies": weak, "study": study}))
    df = robustness.run(context(ls, seed=3, trials=2_000), ls.spec).tables["robustness"]
    # never healing makes Heal worth exactly nothing (the same trials): not significant
    assert list(df["sign"]) == [0, 1] and list(df["status"]) == ["holds", "weakens"]
    assert set(df["verdict"]) == {"weakens"}


def test_bad_policy_path_and_nested_kind_are_clear_errors():
    bad = [{"name": "a"}, {"name": "b", "set": {"Akri.policy.heal_below": 0}}]
    ls = load(duel_study({"kind": "policy-robustness", "policies": bad, "study": COMPARE}))
    with pytest.raises(ScenarioError, match="Did you mean 'Akari'"):
        robustness.run(context(ls, seed=1, trials=10), ls.spec)
    with pytest.raises(ScenarioError, match="compare"):
        load(duel_study({"kind": "policy-robustness", "policies": POLICIES,
                         "study": {"kind": "calibrate", "parameter": "Shade.resolve", "range": [1, 2]}}))
