"""Talent value and tier list (issue 21): a planted effect comes first; no effect, no tiers."""
from __future__ import annotations

import math

import pytest

from sim.study import talents

from study_helpers import context, duel_study, load

PLANTED = {"name": "planted", "set": {"Akari.attack": 7, "Akari.defence": 6, "Akari.resolve": 30}}


def test_planted_effect_is_ranked_first_in_its_own_tier():
    study = {"kind": "talent-value", "member": "Akari",
             "candidates": ["Inflict", "Bonus Action", "Follow Target", PLANTED]}
    ls = load(duel_study(study))
    sec = talents.run(context(ls, seed=5, trials=4_000), ls.spec)
    tl = sec.tables["tier_list"]
    assert tl.iloc[0]["name"] == "planted" and tl.iloc[0]["tier"] == 1
    assert (tl["tier"] == 1).sum() == 1, tl
    assert tl.iloc[0]["p_holm_vs_base"] < 0.05
    tv = sec.tables["talent_value"]
    assert set(tv["metric"]) >= {"win", "rounds"}


def test_remove_mode_values_are_with_minus_without():
    """Removing a talent the member has: its value is positive when it helps."""
    study = {"kind": "talent-value", "member": "Akari", "mode": "remove"}
    ls = load(duel_study(study, a={"talents": ["Inflict"], "attack": 4}))
    sec = talents.run(context(ls, seed=5, trials=3_000), ls.spec)
    win = sec.tables["talent_value"].query("metric == 'win'").iloc[0]
    assert win["candidate"] == "Inflict" and win["diff"] > 0


def _null_study(crn: bool):
    same = [{"name": f"same {k}", "set": {"Akari.attack": 4}} for k in range(5)]  # the base, five times
    return load(duel_study({"kind": "talent-value", "member": "Akari", "candidates": same}, crn=crn))


def test_identical_arms_on_common_random_numbers_are_one_tier():
    ls = _null_study(crn=True)
    tl = talents.run(context(ls, seed=9, trials=2_000), ls.spec).tables["tier_list"]
    assert set(tl["tier"]) == {1} and (tl["diff"] == 0).all()


@pytest.mark.slow
def test_no_effect_separates_nothing_beyond_alpha_over_seeds():
    """Six identical arms on independent streams (crn: false, so each has its own noise):
    the Holm-adjusted tiers split them in at most alpha of the seeds (+3 binomial s.e.)."""
    ls = _null_study(crn=False)
    seeds, split = 60, 0
    for s in range(seeds):
        tl = talents.run(context(ls, seed=2000 + s, trials=1_000), ls.spec).tables["tier_list"]
        split += tl["tier"].max() > 1 or (tl["p_holm_vs_base"] <= 0.05).any()
    alpha = ls.spec.alpha
    assert split <= seeds * alpha + 3 * math.sqrt(seeds * alpha * (1 - alpha)), split
