"""Issue 36, talents and powers as scenario data: a ``talents:`` block (mb41, mb-draft)
and a ``powers:`` block (d10) edit catalog entries and invent new ones from existing
mechanics, variants and study arms ``set:`` them, bad edits are line-numbered
errors with suggestions and bounds, reports label edited and invented entries, and
nothing recompiles (JIT on, in a subprocess)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

from helpers import duel_data
from sim.scenario import ScenarioError, load_scenario_text
from sim.systems.mb41 import catalog
from sim.systems.mb41 import compile as compile41
from engine41 import K

ROOT = Path(__file__).resolve().parents[1]

GLASS = {"mechanic": "low_resolve", "attack": 2, "damage": 1, "effect": "+2 attack, +1 damage below half Resolve"}


def scenario(talents=None, akari=("Curse", "Glass Heart"), variants=None, system="mb41") -> dict:
    d = duel_data(a={"talents": list(akari)}, system=system)
    if talents is not None:
        d["talents"] = talents
    if variants is not None:
        d["variants"] = variants
    return d


def load(d: dict):
    return load_scenario_text(yaml.safe_dump(d, sort_keys=False), "<t>")


def slots(inputs, i=0):
    """(code, cost, uses, P1, P2, P3) of each used slot of combatant ``i``."""
    c = inputs.comb[i]
    return [tuple(int(c[col + s]) for col in (K.C_TCODE, K.C_TCOST, K.C_TUSES, K.C_TP1, K.C_TP2, K.C_TP3))
            for s in range(K.MAXT) if c[K.C_TCODE + s]]


def test_edit_and_invent_reach_the_kernel_arrays_and_the_notes():
    ls = load(scenario({"Curse": {"uses_per_scene": 1, "ailments": ["bound"]}, "Glass Heart": GLASS},
                       variants=[{"name": "base"},
                                 {"name": "curse x3", "set": {"talents.Curse.uses_per_scene": 3}},
                                 {"name": "glass 4", "set": {"talents.Glass Heart.attack": 4}}]))
    v = {name: compile41(m) for name, m in ls.variants}
    curse, glass = slots(v["base"])
    assert curse[0] == K.E_CURSE and curse[2] == 1 and curse[3] == 1 << K.A_BOUND
    assert glass[0] == K.E_LOW_RESOLVE and glass[3:5] == (2, 1)
    assert slots(v["curse x3"])[0][2] == 3 and slots(v["glass 4"])[1][3] == 4
    notes = " | ".join(v["base"].notes)
    assert "Curse is edited" in notes and "uses_per_scene 2 -> 1" in notes
    assert "Glass Heart is invented" in notes and "low_resolve" in notes
    assert v["base"].talent_status == {"Curse": "edited", "Glass Heart": "invented"}
    # the shipped catalog is untouched
    assert catalog.lookup("Curse").uses_per_scene == 2 and catalog.lookup("Glass Heart") is None


def test_a_new_talent_starts_from_like_and_its_cost_is_paid():
    ls = load(scenario({"Big Heal": {"like": "Heal", "bonus": 5, "cost": 2, "uses_per_scene": 1}},
                       akari=["Big Heal"]))
    (code, cost, uses, dice, bonus, target), = slots(compile41(ls.base))
    heal = catalog.lookup("Heal").mechanic
    assert (code, cost, uses, dice, bonus) == (K.E_HEAL, 2, 1, heal["dice"], 5)


def test_passive_mechanics_note_what_the_kernel_does_not_play():
    tough = {"mechanic": "armour", "reduction": 1, "minimum": 1, "cost": 2, "uses_per_scene": 1}
    inp = compile41(load(scenario({"Tough Skin": tough}, akari=("Tough Skin",))).base)
    assert any("Tough Skin: cost, uses_per_scene not played" in n for n in inp.notes)
    inp = compile41(load(scenario({"Glass Heart": {**GLASS, "cost": 2, "uses_per_scene": 1}})).base)
    assert not any("not played" in n for n in inp.notes)  # low_resolve pays and counts (issue 35)


def test_the_issues_example_is_never_played_for_free_without_a_word(tmp_path, capsys):
    """Issue 36's own example, "+1 attack and +1 damage below half Resolve, 2 overcharge, once a
    scene", is the low_resolve mechanic, which the kernel plays paid and limited (issue 35;
    tests/test_kernel_handoffs.py): ``sim validate`` has nothing to warn about, and the audit
    classes it by its cost and uses."""
    from sim import api
    from sim.cli import main

    example = {"Glass Heart": {"mechanic": "low_resolve", "attack": 1, "damage": 1, "cost": 2,
                               "cost_stat": "attack", "uses_per_scene": 1}}
    f = tmp_path / "mine.yaml"
    f.write_text(yaml.safe_dump(scenario(example)))
    assert main(["validate", str(f)]) == 0
    out = capsys.readouterr().out
    assert "not played" not in out
    mine = tmp_path / "talents.yaml"
    mine.write_text(yaml.safe_dump({"talents": example}))
    res = api.audit("mb41", talents=mine, only=["Glass Heart"], trials=60, write=False,
                    encounters=[ROOT / "scenarios" / "audit" / "mb41" / "duo-vs-brute.yaml"])
    row = res.sections[0].tables["audit"].set_index("name").loc["Glass Heart"]
    assert row["cost_class"] == "2 attack, 1/scene" and row["entry"] == "invented"
    assert not any("Glass Heart: cost, uses_per_scene not played" in w for w in res.sections[0].warnings)


def test_the_draft_edits_its_own_catalog():
    from sim.systems import mbdraft

    d = scenario({"Heal": {"bonus": 4}, "Hexer": {"like": "Hex", "damage": 3}}, akari=["Heal", "Hexer"],
                 system="mb-draft")
    inp = mbdraft.compile(load(d).base)
    heal, hexer = slots(inp)
    assert heal[0] == K.E_HEAL and heal[4] == 4 and hexer[0] == K.E_HEX and hexer[3] == 3
    assert any("Hexer is invented" in n for n in inp.notes)


def test_d10_powers_block():
    from sim.systems.d10 import compile as compile10
    from sim.systems.d10 import kernel as K10

    d = yaml.safe_load((ROOT / "scenarios" / "d10" / "duel.yaml").read_text())
    d.pop("variants", None)
    d.pop("sweep", None)
    first = d["sides"][0]["members"][0]
    first["perks"] = [*first.get("perks", []), "Iron Skin"]
    d["powers"] = {"Iron Skin": {"mechanic": "dr", "n": 2, "kind": "perk"}}
    d["variants"] = [{"name": "base"}, {"name": "skin 4", "set": {"powers.Iron Skin.n": 4}}]
    ls = load(d)
    dr = {name: int(compile10(m).comb[0, K10.C_DR]) for name, m in ls.variants}
    assert dr["skin 4"] - dr["base"] == 2
    assert any("Iron Skin is invented" in n for n in compile10(ls.base).notes)


@pytest.mark.parametrize("talents, words", [
    ({"Cruse": {"uses_per_scene": 1}}, ["talents.Cruse", "Did you mean 'Curse'", "mechanic"]),
    ({"Curse": {"uses_per_scen": 1}}, ["talents.Curse.uses_per_scen", "Did you mean 'uses_per_scene'"]),
    ({"Curse": {"uses_per_scene": 99}}, ["talents.Curse.uses_per_scene", "0 to 20"]),
    ({"Heal": {"dice": 40}}, ["talents.Heal.dice", "0 to 10"]),
    ({"Curse": {"ailments": ["stunn"]}}, ["ailments", "Did you mean 'stun'"]),
    ({"Glass": {"mechanic": "low_resolv"}}, ["talents.Glass.mechanic", "Did you mean 'low_resolve'"]),
    ({"Glass": {"mechanic": "low_resolve", "atack": 1}}, ["talents.Glass.atack", "Did you mean 'attack'"]),
    ({"Boost": {"cost": 2}}, ["talents.Boost", "boost_uses"]),
    ({"Curse": {"mechanic": "heal"}}, ["talents.Curse.mechanic", "new name"]),
])
def test_bad_edits_are_line_numbered_errors(talents, words):
    d = scenario(talents, akari=["Curse"])
    text = yaml.safe_dump(d, sort_keys=False)
    with pytest.raises(ScenarioError) as err:
        load_scenario_text(text, "<t>")
    msg = str(err.value)
    lines = text.splitlines()
    assert "<t>, line" in msg, msg
    line = err.value.line
    assert line is not None and list(talents)[0] in lines[line - 1] or any(
        k in lines[line - 1] for k in next(iter(talents.values()))), (msg, lines[line - 1])
    for w in words:
        assert w in msg, msg


def test_a_bad_variant_edit_names_the_variant():
    with pytest.raises(ScenarioError) as err:
        load(scenario({}, akari=["Curse"], variants=[{"name": "v", "set": {"talents.Curse.uses_per_scene": -1}}]))
    assert "variant 'v'" in str(err.value) and "uses_per_scene" in str(err.value)


def test_study_arms_set_talent_numbers():
    from sim.study.arms import StudyContext
    from sim.study.load import load_study_text

    d = scenario({"Glass Heart": GLASS}, akari=[])
    d["study"] = {"kind": "talent-value", "member": "Akari", "candidates": ["Glass Heart", "Curse"]}
    ls = load_study_text(yaml.safe_dump(d, sort_keys=False), "<s>")
    ctx = StudyContext(ls.loaded, ls.doc, seed=1, trials=10, max_trials=10)
    arm = ctx.arm("curse once", [("Akari.talents", ["Curse"]), ("talents.Curse.uses_per_scene", 1)])
    assert slots(arm.inputs)[0][2] == 1


JIT_SCRIPT = textwrap.dedent("""
    import json, sys
    import numpy as np
    import yaml
    from numba.core import event
    from sim import api
    from sim.scenario import load_scenario_text
    from sim.study import run_study
    from sim.study.load import load_study_text
    from sim.systems import mb41
    from sim.trials import per_trial
    data = yaml.safe_load(sys.stdin.read())
    warm = dict(data, variants=[{"name": "base"}])
    ls = load_scenario_text(yaml.safe_dump(warm), "<warm>")
    inp = mb41.compile(ls.base)
    key = np.uint64(7)
    mb41.simulate(inp, 0, 2000, key)
    per_trial("mb41", inp, 0, 200, key)           # warm-up: compiles or loads the cache
    edited = dict(data)
    with event.install_recorder("numba:compile") as rec:
        res, _ = api.run(load_scenario_text(yaml.safe_dump(edited), "<edited>"), trials=4000, write=False)
        study = dict(data, variants=[], study={"kind": "talent-value", "member": "Akari",
                                               "candidates": ["Glass Heart", "Curse"]})
        st = run_study(load_study_text(yaml.safe_dump(study), "<study>"), trials=2000, write=False)
    print(json.dumps({"compiles": len(rec.buffer),
                      "win": dict(zip(res.summary["variant"], res.summary["win_rate"])),
                      "notes": res.notes,
                      "entries": dict(zip(st.sections[0].tables["tier_list"]["name"],
                                          st.sections[0].tables["tier_list"]["entry"])),
                      "reading": st.sections[0].reading}))
""")


def _jit_run(script: str, data: dict) -> dict:
    """Run ``script`` with the JIT on, the scenario ``data`` on stdin; its last line's JSON,
    which must report no compile event."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}
    env["PYTHONPATH"] = str(ROOT)
    p = subprocess.run([sys.executable, "-c", script], input=yaml.safe_dump(data, sort_keys=False),
                       capture_output=True, text=True, env=env, timeout=1200, cwd=ROOT)
    assert p.returncode == 0, p.stderr[-3000:]
    r = json.loads(p.stdout.strip().splitlines()[-1])
    assert r["compiles"] == 0, r
    return r


D10_JIT = textwrap.dedent("""
    import json, sys
    import numpy as np
    import yaml
    from numba.core import event
    from sim.scenario import load_scenario_text
    from sim.systems import d10
    data = yaml.safe_load(sys.stdin.read())
    vs = dict(load_scenario_text(yaml.safe_dump(data), "<d10>").variants)
    key = np.uint64(3)
    warm = d10.simulate(d10.compile(vs["base"]), 0, 2000, key)   # warm-up: compiles or loads the cache
    with event.install_recorder("numba:compile") as rec:
        out = {k: d10.simulate(d10.compile(vs[k]), 0, 2000, key)["outcomes"].tolist() for k in vs}
    print(json.dumps({"compiles": len(rec.buffer), "wins": {k: v[0] for k, v in out.items()}}))
""")


def test_edited_and_invented_powers_run_without_compiling_jit_on():
    """The d10 powers: block: a variant that edits Killing Blow and one that invents a
    damage-reduction perk run with no compile event after the base's warm-up."""
    d = yaml.safe_load((ROOT / "scenarios" / "d10" / "duel.yaml").read_text())
    d.pop("sweep", None)
    first = d["sides"][0]["members"][0]
    first["powers"] = ["Killing Blow"]
    first["perks"] = ["Enhanced Outfit"]
    d["powers"] = {"Iron Skin": {"like": "Enhanced Outfit", "n": 3}}
    d["variants"] = [{"name": "base"}, {"name": "kb cheap", "set": {"powers.Killing Blow.cost": 1}},
                     {"name": "iron skin", "set": {f"{first['name']}.perks": ["Iron Skin"]}}]
    r = _jit_run(D10_JIT, d)
    assert r["wins"]["iron skin"] > r["wins"]["base"], r   # DR 3 instead of 1 wins more


def test_edited_and_invented_talents_run_without_compiling_jit_on():
    """Acceptance (issue 36): after a warm-up of the base party (Curse, Desperation: the
    mechanics' code), ``sim run`` of variants that edit Curse and invent a low_resolve
    talent, and a talent-value study of both, see no numba compile event."""
    d = scenario({"Glass Heart": GLASS}, akari=["Curse", "Desperation"],
                 variants=[{"name": "base"},
                           {"name": "curse once", "set": {"talents.Curse.uses_per_scene": 1}},
                           {"name": "glass", "set": {"Akari.talents": ["Curse", "Glass Heart"]}},
                           {"name": "glass 6", "set": {"Akari.talents": ["Curse", "Glass Heart"],
                                                       "talents.Glass Heart.attack": 6}}])
    r = _jit_run(JIT_SCRIPT, d)
    assert r["win"]["glass 6"] > r["win"]["glass"] + 0.01, r       # a bigger bonus wins more
    assert any("Glass Heart is invented" in n for n in r["notes"]), r
    assert r["entries"] == {"base": "base", "Glass Heart": "invented", "Curse": "catalog"}, r
    assert "Glass Heart (invented)" in r["reading"], r
