"""Studies without simulation: the study: block's errors, sample sizes, tiers, curve inversion."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as sps

from sim.scenario import ScenarioError
from sim.study.curve import invert, solve
from sim.study.plan import PlanError, plan
from sim.study.tiers import pairwise, tiers

from study_helpers import duel_study, load


def _error(study: dict) -> str:
    with pytest.raises(ScenarioError) as e:
        load(duel_study(study))
    return str(e.value)


def test_unknown_kind_is_suggested():
    msg = _error({"kind": "calibrat", "parameter": "Shade.resolve", "range": [10, 20]})
    assert "study.kind" in msg and "Did you mean 'calibrate'" in msg and "<study>, line" in msg


def test_unknown_field_is_suggested():
    msg = _error({"kind": "calibrate", "parameter": "Shade.resolve", "range": [10, 20], "targts": [0.5]})
    assert "study.targts" in msg and "Did you mean 'targets'" in msg


def test_missing_block_and_bad_range():
    from sim.study.load import load_study_text
    from helpers import duel_data
    import yaml

    with pytest.raises(ScenarioError, match="no 'study:' block"):
        load_study_text(yaml.safe_dump(duel_data()), "<s>")
    assert "low < high" in _error({"kind": "calibrate", "parameter": "Shade.resolve", "range": [20, 10]})
    assert "one of the two" in _error({"kind": "calibrate", "parameter": "Shade.resolve"})


def test_bad_arm_path_names_the_arm_and_suggests():
    from sim.study.arms import StudyContext

    ls = load(duel_study({"kind": "compare", "arms": [{"name": "a"}, {"name": "b", "set": {"Akri.attack": 5}}]}))
    ctx = StudyContext(ls.loaded, ls.doc, seed=1, trials=10, max_trials=10)
    with pytest.raises(ScenarioError) as e:
        ctx.arm("b", [("Akri.attack", 5)], ("study", "arms", 1))
    assert "study arm 'b'" in str(e.value) and "Did you mean 'Akari'" in str(e.value)


def test_bad_pair_name_is_suggested():
    from sim.study import compare

    ls = load(duel_study({"kind": "compare", "arms": [{"name": "base"}, {"name": "strong"}],
                          "pairs": [["strang", "base"]]}))
    with pytest.raises(ScenarioError, match="Did you mean 'strong'"):
        compare._pairs(type("C", (), {"doc": ls.doc})(), ls.spec)


def test_plan_paired_matches_connor_by_hand():
    # Connor (1987): n = (z_a sqrt(psi) + z_b sqrt(psi - d^2))^2 / d^2
    za, zb = sps.norm.ppf(0.975), sps.norm.ppf(0.8)
    psi, d = 0.08, 0.05
    want = math.ceil((za * math.sqrt(psi) + zb * math.sqrt(psi - d * d)) ** 2 / d ** 2)
    assert plan(0.65, 0.60, paired=True, discordant=psi)["trials"] == want == 249


def test_plan_unpaired_matches_cohen_h():
    h = 2 * math.asin(math.sqrt(0.6)) - 2 * math.asin(math.sqrt(0.65))
    want = 2 * (sps.norm.ppf(0.975) + sps.norm.ppf(0.8)) ** 2 / h ** 2  # per arm
    assert abs(plan(0.6, 0.65)["trials"] - want) <= 1.5
    # pairing on common random numbers needs far fewer trials
    assert plan(0.6, 0.65, paired=True, discordant=0.08)["trials"] < plan(0.6, 0.65)["trials"] / 4


def test_plan_half_width_and_errors():
    assert plan(0.5, half_width=0.01)["trials"] == math.ceil(sps.norm.ppf(0.975) ** 2 * 0.25 / 1e-4)
    with pytest.raises(PlanError, match="--discordant"):
        plan(0.6, 0.65, paired=True)
    with pytest.raises(PlanError, match="below"):
        plan(0.6, 0.7, paired=True, discordant=0.05)
    with pytest.raises(PlanError):
        plan(0.6, 0.6)


def test_tiers_separate_only_what_the_tests_separate():
    rng = np.random.default_rng(3)
    n = 4000
    u, v = rng.random(n), rng.random(n)
    # strong2 has strong's rate on other dice: the same value, not a separable one
    values = {"strong": (u < 0.8).astype(float), "strong2": (v < 0.8).astype(float),
              "base": (u < 0.6).astype(float), "weak": (u < 0.4).astype(float)}
    adj = pairwise("win", values)
    order = ["strong", "strong2", "base", "weak"]
    t = tiers(order, adj, 0.05)
    assert t == {"strong": 1, "strong2": 1, "base": 2, "weak": 3}
    same = {k: (u < 0.6).astype(float) for k in "abc"}
    assert set(tiers(list(same), pairwise("win", same), 0.05).values()) == {1}


def test_invert_and_bootstrap_interval():
    x = np.arange(5.0)
    assert invert(x, [0.9, 0.8, 0.6, 0.4, 0.2], 0.5, increasing=False) == pytest.approx(2.5)
    assert invert(x, [0.1, 0.2, 0.3, 0.4, 0.5], 0.9, increasing=True) == math.inf
    rng = np.random.default_rng(0)
    p = np.array([0.9, 0.8, 0.6, 0.4, 0.2])
    u = rng.random(20000)
    wins = (u[None, :] < p[:, None]).astype(float)  # common random numbers across the grid
    r = solve(x, wins, 0.5, seed=1)
    assert r["lo_boot"] < 2.5 < r["hi_boot"] and r["hi_boot"] - r["lo_boot"] < 0.2 and r["nearest"] in (2.0, 3.0)
    # the reported interval adds the interpolation: from grid point to grid point
    assert (r["lo"], r["hi"]) == (2.0, 3.0) and (r["below"], r["above"]) == (2.0, 3.0)


def test_candidate_edits_keep_a_deck_size_with_replace():
    from sim.study.talents import TalentValueSpec, _edited

    def spec(**kw):
        return TalentValueSpec(kind="talent-value", member="A", **kw)

    deck = {"Ruby": 2, "Topaz": 1}
    assert _edited(deck, "Lance", spec(field="cards", replace="Topaz")) == {"Ruby": 2, "Lance": 1}
    assert _edited(deck, "Ruby", spec(field="cards", mode="remove", replace="Topaz")) == {"Ruby": 1, "Topaz": 2}
    assert _edited(["Heal"], "Inflict", spec()) == ["Heal", "Inflict"]
    assert _edited(["Heal", "Boost"], "Heal", spec(mode="remove")) == ["Boost"]
    assert _edited(["Heal"], "Inflict", spec(replace="Heal")) == ["Inflict"]
