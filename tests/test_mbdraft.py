"""The earlier draft (seed 001) as a second ruleset on the 4.1 engine (audit section 3).

Exact-DP agreement for the draft's damage rule (no reduction for defender
sixes) and its passive defence (Defense + 4), a scripted revive as a Major
action on her next turn, the Magic stat name, and the same encounter under
both rulesets.
"""
from __future__ import annotations

import math
from pathlib import Path

import pytest
import yaml

from helpers import Script, faces, load_data, mb41_fight, mb41_state
from sim import api
from sim.rng import stream_key
from sim.scenario import ScenarioError
from sim.systems import get_system
from engine41 import K
from sim.systems.mb41.exact_duel import Fighter, duel

ROOT = Path(__file__).resolve().parents[1]
TRIALS = 200_000


def draft_duel(a=None, b=None, rules=None):
    data = yaml.safe_load((ROOT / "scenarios" / "mb-draft" / "duel-basic-draft.yaml").read_text())
    data["sides"][0]["members"][0].update(a or {})
    data["sides"][1]["members"][0].update(b or {})
    data["rules"].update(rules or {})
    return load_data(data)


def _mc(loaded):
    mod = get_system(loaded.system)
    c = mod.simulate(mod.compile(loaded.base), 0, TRIALS, stream_key(loaded.base.seed))
    return c["outcomes"] / TRIALS


def _close(mc, exact):
    for p_mc, p_ex in zip(mc, exact):
        se = math.sqrt(max(p_ex * (1 - p_ex), 1e-12) / TRIALS)
        assert abs(p_mc - p_ex) <= 4 * se + 1e-12, (mc, exact)


def test_draft_rules_differ_where_the_draft_does():
    r = get_system("mb-draft").RULES.defaults()
    assert r["defender_six_damage"] == 0 and r["passive_defence"] == 4
    assert r["revive_timing"] == "next_turn" and r["revive_bands"] == [13, 16]
    r41 = get_system("mb41").RULES.defaults()
    assert r41["defender_six_damage"] == 2 and r41["passive_defence"] == -1 and r41["revive_bands"] == [10, 13]


def test_draft_duel_matches_exact_dp():
    """DRAFT L486: defender sixes take nothing off the damage."""
    exact = duel(Fighter(4, 4, 3, 18, 2), Fighter(3, 3, 3, 18, 2), defender_six_damage=0)
    _close(_mc(draft_duel()), exact)


def test_draft_damage_rule_is_told_apart_from_41():
    """Where the reading matters (ranged glass cannons), the simulated draft agrees with
    the draft's exact answer and is > 4 SE away from 4.1's."""
    a, b = {"attack": 6, "defence": 1, "attack_kind": "ranged"}, {"attack": 3, "defence": 1, "attack_kind": "ranged"}
    mc = _mc(draft_duel(a=a, b=b))
    fa, fb = Fighter(6, 1, 3, 18, 0), Fighter(3, 1, 3, 18, 0)
    draft = duel(fa, fb, defender_six_damage=0)
    _close(mc, draft)
    four_one = duel(fa, fb)
    se = math.sqrt(draft[0] * (1 - draft[0]) / TRIALS)
    assert abs(mc[0] - four_one[0]) > 4 * se


def test_passive_defence_matches_exact_dp():
    """DRAFT L486: Shade takes Defense + 4 = 7 instead of rolling."""
    loaded = draft_duel(b={"policy": {"boost": "never", "passive_defence": True}})
    exact = duel(Fighter(4, 4, 3, 18, 2), Fighter(3, 3, 3, 18, 2, passive=7), defender_six_damage=0)
    _close(_mc(loaded), exact)
    rolled = duel(Fighter(4, 4, 3, 18, 2), Fighter(3, 3, 3, 18, 2), defender_six_damage=0)
    assert abs(exact[0] - rolled[0]) > 0.02  # the choice matters


def test_revive_is_a_major_action_on_her_next_turn():
    """DRAFT L512-516: at 0 Resolve she revives on her next turn (her Major action), <=13: 2 OC, 1d6."""
    loaded = draft_duel(a={"resolve": 3}, rules={"revive": True, "defeat": "all_dead", "round_cap": 2})
    mod = get_system("mb-draft")
    inp = mod.compile(loaded.base)
    dyn, cc = mb41_state(inp)
    s = Script(check=faces(1, 1, 2, 2,      # R1 Akari: 6 vs 7, miss
                           3, 3, 1, 1,      # R1 Shade: 9 vs 6, hit
                           5, 5,            # R2 Akari: revive 5+5+3 = 13 (13 or less)
                           1, 1, 1, 1),     # R2 Shade: 5 vs 6, miss
               damage=faces(1,              # Shade's damage 1+2 = 3: Akari to 0 (no roll yet)
                            2))             # revive Resolve 1d6 = 2 (below her maximum of 3)
    outcome, rounds = mb41_fight(inp, dyn, s.streams, cc)
    s.assert_consumed()
    assert (outcome, rounds) == (K.F_DRAW, 2)
    assert dyn[0, K.D_RES] == 2 and dyn[0, K.D_REVIVES] == 1 and cc[0, K.K_ATTACKS] == 1  # no attack in R2
    assert dyn[0, K.D_OC + 2] == 2  # the Support role's stat (judgment/magic) gets 2


def test_magic_is_the_drafts_name_for_the_third_stat():
    loaded = draft_duel(a={"attack": None, "defence": None, "support": None, "heart": 2, "fury": 5,
                           "magic": 3, "roles": {"attack": "fury", "defence": "magic", "support": "heart"}})
    inp = get_system("mb-draft").compile(loaded.base)
    assert inp.comb[0, K.C_ATT] == 5 and inp.comb[0, K.C_DEF] == 3 and inp.comb[0, K.C_RD] == 2


def test_passive_defence_is_not_a_41_rule():
    data = yaml.safe_load((ROOT / "scenarios" / "duel-basic.yaml").read_text())
    data["sides"][1]["members"][0]["policy"]["passive_defence"] = True
    with pytest.raises(ScenarioError, match="earlier draft"):
        load_data(data)


def test_same_encounter_under_both_rulesets():
    res41, _ = api.run(ROOT / "scenarios" / "mb41" / "encounter-41.yaml", trials=4000, write=False)
    resd, _ = api.run(ROOT / "scenarios" / "mb41" / "encounter-draft.yaml", trials=4000, write=False)
    assert res41.system == "mb41" and resd.system == "mb-draft"
    a = yaml.safe_load((ROOT / "scenarios" / "mb41" / "encounter-41.yaml").read_text())
    b = yaml.safe_load((ROOT / "scenarios" / "mb41" / "encounter-draft.yaml").read_text())
    assert a["sides"] == b["sides"]  # the same encounter
