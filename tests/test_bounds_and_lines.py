"""Bounds and error lines (issue 39, the smaller cases).

* calibrate with ``range: [1, 10000]`` and ``max_points: 15`` played 728 arms: the
  refinement adds at most ``max_points`` values per target;
* ``pairs: [[a, a]]`` was reported as "variance cut inf×": refused at its line;
* ``sim dice 1d6! --trials 10^12`` was an internal error: exit 2 with the cap;
* a ``what_if`` could not edit a card the scenario's own ``cards:`` block adds;
* errors at their own line: a calibrate range (was the ``study:`` line), a round robin
  entry's path (was the side's line), the card game's deck, side and what_if checks
  (were line 1);
* Ctrl-C (a cancel) of a ``--no-write`` run does not suggest ``--resume``.
"""
from __future__ import annotations

import re
import threading

import pytest
import yaml

from helpers import duel_data, load_data
from study_helpers import duel_study, load
from test_cli import sim

from sim.scenario import ScenarioError, load_scenario_text


def _line_of(text: str, needle: str) -> int:
    return next(i for i, t in enumerate(text.splitlines(), 1) if needle in t)


def _line(err) -> int:
    return int(re.search(r"line (\d+)", str(err)).group(1))


def test_calibrate_refinement_is_bounded():
    from sim.study.preflight import dry_run

    ls = load(duel_study({"kind": "calibrate", "parameter": "Shade.resolve", "range": [1, 10000],
                          "max_points": 15, "targets": [0.5]}))
    plan = dry_run(ls, 1, 100, 100)
    assert plan.streams <= 15 * 2, plan.streams


def test_a_self_pair_is_refused_at_its_line():
    text = duel_study({"kind": "compare", "arms": [{"name": "a"}, {"name": "b"}], "pairs": [["a", "a"]]})
    from sim.study.preflight import dry_run

    with pytest.raises(ScenarioError, match="with itself") as info:
        dry_run(load(text), 1, 10, 10)
    assert _line(info.value) == _line_of(text, "- - a")


def test_sim_dice_trials_are_capped_with_a_message():
    res = sim("dice", "1d6!", "--trials", str(10**12))
    assert res.returncode == 2 and "at most 1,000,000,000 rolls" in res.stderr and "internal" not in res.stderr


CARDS = {"name": "wi", "system": "cards", "seed": 23, "trials": 50, "rules": {"first_player": "first_listed"},
         "cards": {"Garnet Blaze": {"type": "girl", "hp": 3, "atk": 4, "mgk": 2, "text": "A new girl.",
                                    "invented": True}},
         "sides": [{"name": "A", "policy": "tempo", "cards": {
             "Kenta the Kendo Captain": 3, "Mika the Sprinter": 3, "Nao the Transfer Student": 3,
             "Kaito the Cat Whisperer": 3, "Sparkle Ruby": 4, "Garnet Blaze": 3, "Citrine Spark": 3,
             "Starlight Beam": 4, "Meteor Lance": 2, "Comeback Flash": 2, "Mochi the Bunny": 4,
             "Ambush Glitter": 4, "Grand Ruby Supernova": 2}},
             {"name": "B", "deck": "control", "policy": "tempo"}],
         "what_if": {"cards": {"Garnet Blaze": {"atk": 5}}, "side": "A"}}


def _cards_text(**changes) -> str:
    import copy

    d = copy.deepcopy(CARDS)
    for k, v in changes.items():
        d[k] = v
    return yaml.safe_dump(d, sort_keys=False, allow_unicode=True)


def test_what_if_edits_a_card_the_scenario_adds():
    loaded = load_scenario_text(_cards_text(), "wi.yaml")
    assert loaded.variants[0][1].what_if.cards["Garnet Blaze"].atk == 5
    with pytest.raises(ScenarioError, match="Did you mean 'Garnet Blaze'"):
        load_scenario_text(_cards_text(what_if={"cards": {"Garnet Blaz": {"atk": 5}}, "side": "A"}), "wi.yaml")


@pytest.mark.parametrize("case, needle", [
    ("same side names", "name: A"),
    ("deck too small", "Ambush Glitter"),
    ("what_if side holds none", "side: B"),
])
def test_card_game_checks_point_at_their_own_line(case, needle):
    import copy

    d = copy.deepcopy(CARDS)
    if case == "same side names":
        d["sides"][1]["name"] = "A"
        d["what_if"]["side"] = None
    elif case == "deck too small":
        d["sides"][0]["cards"]["Ambush Glitter"] = 1
    else:
        d["what_if"]["side"] = "B"
    text = yaml.safe_dump(d, sort_keys=False, allow_unicode=True)
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(text, "wi.yaml")
    want = [i for i, t in enumerate(text.splitlines(), 1) if needle in t]
    if case == "same side names":
        want = want[1:]  # the second side's name
    if case == "deck too small":  # side A's cards: block
        want = list(range(_line_of(text, "- name: A"), _line_of(text, "Ambush Glitter") + 1))
    assert _line(info.value) in want and _line(info.value) != 1, (str(info.value), want)


@pytest.mark.parametrize("study, needle", [
    ({"kind": "calibrate", "parameter": "Shade.resolve", "range": [30, 10]}, "range"),
    ({"kind": "calibrate", "parameter": "Shade.resolve", "range": [10, 30], "values": [1, 2]}, "values"),
    ({"kind": "matchups", "entries": {"x": {"policy.bost": "always"}, "y": {}}}, "policy.bost"),
])
def test_study_errors_point_at_their_own_line(study, needle):
    from sim.study.preflight import dry_run

    text = duel_study(study)
    with pytest.raises(ScenarioError) as info:
        dry_run(load(text), 1, 10, 10)
    assert _line(info.value) == _line_of(text, needle), str(info.value)


def test_a_cancelled_no_write_run_does_not_suggest_resume():
    from sim import api, runner

    stop = threading.Event()
    stop.set()
    with pytest.raises(runner.RunCancelled) as info:
        api.run(load_data(duel_data()), trials=1_000, write=False, cancel=stop)
    msg = info.value.message()
    assert "--resume" not in msg and "nothing is kept" in msg and info.value.checkpoint is None
