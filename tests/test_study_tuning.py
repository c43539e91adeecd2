"""Policy tuning (issue 21): successive halving finds a planted optimum, its
improvement (re-measured on fresh trials) excludes 0, and a seed repeats.

The planted optimum, on the foundation duel with ``boost: never`` as written:
Akari's boost mode. Boosting a contest she is losing by a little wins about 95%
of the duels, boosting everything about 90%, never boosting about 76% (measured
on 4,000 trials; the gaps are tens of standard errors). ``heal_below`` is a
decoy: without Heal it changes nothing, so any value of it is as good.
"""
from __future__ import annotations

import pytest

from sim.scenario import ScenarioError
from sim.study import tuning

from study_helpers import duel_study, load

STUDY = {"kind": "policy-tuning", "side": "girls",
         "parameters": {"Akari.policy.boost": ["never", "always", "when-losing"],
                        "Akari.policy.heal_below": [0, 100]},
         "candidates": 12, "confirm_trials": 4_000}


def _run(study=STUDY, seed=5, trials=400):
    from sim.study.arms import StudyContext

    ls = load(duel_study(study))
    ctx = StudyContext(ls.loaded, ls.doc, seed=seed, trials=trials, max_trials=8 * trials)
    return tuning.run(ctx, ls.spec)


def test_finds_the_planted_optimum_and_the_gain_excludes_zero():
    sec = _run()
    tuned = sec.tables["tuned"].set_index("parameter")["tuned"]
    assert tuned["Akari.policy.boost"] == "when-losing"
    row = sec.tables["tuning"].iloc[0]
    assert row["lo"] > 0.1 and row["diff"] > 0.15  # ~ +19 points over boost: never
    assert "fresh" in row["streams"] and row["trials"] == 4_000
    trace = sec.tables["search_trace"]
    assert trace.groupby("round")["trials"].nunique().eq(1).all()  # one trial count per round
    assert trace["round"].max() >= 3 and trace[trace["round"] == trace["round"].max()].shape[0] == 1


def test_small_grid_is_enumerated_and_side_two_is_tuned_against():
    study = {"kind": "policy-tuning", "side": 1, "parameters": {"Akari.policy.boost": {"choices": ["never", "when-losing"]}},
             "candidates": 4, "confirm_trials": 2_000}
    sec = _run(study)
    trace = sec.tables["search_trace"]
    assert sorted(trace[trace["round"] == 0]["Akari.policy.boost"]) == ["(as written)", "never", "when-losing"]
    # the monster's side wins most when Akari never boosts: "never" or as written (the same policy)
    assert sec.tables["tuned"].iloc[0]["tuned"] == "never"
    assert abs(sec.tables["tuning"].iloc[0]["diff"]) < 1e-12


def test_seeded_search_repeats():
    a, b = _run(seed=9, trials=200), _run(seed=9, trials=200)
    assert a.tables["search_trace"].equals(b.tables["search_trace"])
    assert a.tables["tuning"].equals(b.tables["tuning"])


def test_bad_parameter_and_side_are_clear_errors():
    bad = dict(STUDY, parameters={"Akari.policy.heal_belw": [0, 100]})
    with pytest.raises(ScenarioError, match="Did you mean 'heal_below'"):
        _run(bad)
    with pytest.raises(ScenarioError, match="low < high"):
        _run(dict(STUDY, parameters={"Akari.policy.heal_below": [50, 10]}))
    with pytest.raises(ScenarioError, match="Did you mean 'girls'"):
        _run(dict(STUDY, side="gilrs"))
