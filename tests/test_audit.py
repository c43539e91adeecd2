"""Issue 36, ``sim audit``: every entry of a catalog valued in reference encounters
calibrated near 50%, under two policies, with outliers for their cost flagged; a
designer's own talents join from a file. Small trial counts and ``--only`` keep it
quick; the full audits' timings are in docs/audit.md."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]

#: a girl's talent that reads as a once-in-a-while trinket and is in effect a +2 to the girls'
#: side of every contest: -2 to every roll of her foes (the Fear Aura mechanic, on a girl)
LUCKY_RIBBON = {"talents": {"Lucky Ribbon": {
    "mechanic": "fear_aura", "penalty": 2, "group": "common", "cost": 1, "cost_stat": "attack",
    "uses_per_scene": 2, "effect": "a ribbon that unnerves her foes"}}}
PEERS = ["Follow Target", "Desperation", "Inflict", "Bonus Action", "Hate the World", "Fight for Friends"]


def _cli(args, cwd, timeout=1200):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "sim", *args], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=timeout)


def test_the_audit_flags_a_disguised_stat_bump_as_an_outlier_for_its_cost(tmp_path):
    from sim import api

    f = tmp_path / "mine.yaml"
    f.write_text(yaml.safe_dump(LUCKY_RIBBON))
    res = api.audit("mb41", talents=f, only=[*PEERS, "Lucky Ribbon"], trials=600, write=False)
    table = res.sections[0].tables["audit"].set_index("name")
    ribbon = table.loc["Lucky Ribbon"]
    # the Fear Aura mechanic applies whenever it stands: its "1 attack, 2/scene" is never played, so it is
    # classed as it plays, and the first screen says so
    assert ribbon["entry"] == "invented" and ribbon["cost_class"] == "no cost, no limit"
    assert any("Lucky Ribbon: cost, uses_per_scene not played" in w for w in res.sections[0].warnings)
    assert ribbon["outlier"] == "strong", table[["value", "lo", "hi", "class_centre", "tolerance", "outlier"]]
    assert ribbon["stat_lo"] >= 2  # worth at least the +2 Attack it hides
    assert (table.loc[PEERS, "outlier"] == "").all()  # the catalog's peers are not flagged
    assert table.loc[PEERS, "value"].max() < ribbon["lo"]
    head = res.sections[0].reading
    assert head.startswith("Base win rate of the first side in each reference cell")
    assert "strong: Lucky Ribbon" in head and "Lucky Ribbon (invented)" in head
    cells = res.sections[0].tables["encounters"]
    assert len(cells) >= 6 and cells["encounter"].nunique() >= 3 and cells.groupby("encounter").size().min() >= 2


def test_sim_audit_writes_a_report_whose_first_screen_names_the_outliers(tmp_path):
    out = tmp_path / "out"
    p = _cli(["audit", "d10", "--only", "Killing Blow", "Enhanced Outfit", "Awareness", "--trials", "300",
              "--out", str(out)], tmp_path)
    assert p.returncode == 0, p.stderr[-3000:]
    assert "Outliers for their cost" in p.stdout and "report:" in p.stdout
    for f in ("audit.csv", "cells.csv", "encounters.csv", "audit_power.csv", "audit_perk.csv",
              "audit_power.png", "audit_perk.png", "report.html", "study.json"):
        assert (out / f).is_file(), f
    html = (out / "report.html").read_text()
    first = html.index("Reading.")
    assert html.index("Outliers for their cost") - first < 3000  # on the first screen, after the base rates
    saved = json.loads((out / "study.json").read_text())
    assert saved["provenance"]["audit"] == "d10" and saved["studies"][0]["warnings"] is not None


def test_a_bad_designer_file_is_a_line_numbered_error(tmp_path):
    f = tmp_path / "mine.yaml"
    f.write_text("talents:\n  Glass Heart:\n    mechanic: low_resolve\n    atack: 1\n")
    p = _cli(["audit", "mb41", "--talents", str(f), "--trials", "50"], tmp_path)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert "line 4" in p.stderr and "Did you mean 'attack'" in p.stderr, p.stderr


def test_the_cards_audit_swaps_each_card_for_the_filler():
    from sim import api

    res = api.audit("cards", only=["Sparkle Ruby", "Healing Chime"], trials=200, write=False)
    table = res.sections[0].tables["audit"].set_index("name")
    from sim.systems.cards import cardsdata

    pool = cardsdata.cards_by_name()
    assert dict(table["category"]) == {n: pool[n].type for n in ("Sparkle Ruby", "Healing Chime")}
    assert dict(table["cost_class"]) == {n: f"{pool[n].cost} MGK" for n in ("Sparkle Ruby", "Healing Chime")}
    assert res.sections[0].tables["encounters"]["encounter"].nunique() == 3


@pytest.mark.parametrize("system", ["mb41", "mb-draft", "d10", "cards"])
def test_bundled_encounters_are_calibrated_near_half(system):
    """Each bundled reference encounter, as written, wins about half its fights (1,500 trials)."""
    import numpy as np

    from sim.audit import load_encounters, reference_files
    from sim.study.arms import StudyContext

    studies = load_encounters(system, reference_files(system), None)
    assert len(studies) >= 3
    for ls in studies:
        assert len(ls.spec.policies) >= 2
        ctx = StudyContext(ls.loaded, ls.doc, seed=ls.loaded.base.seed, trials=1500, max_trials=1500)
        rate = float(np.mean(ctx.metrics(ctx.arm("base", []), 1500)["win"]))
        assert 0.42 <= rate <= 0.58, (ls.loaded.name, rate)


def test_one_encounter_audits_as_a_study(tmp_path):
    from sim import api

    d = yaml.safe_load((ROOT / "scenarios" / "audit" / "mb41" / "duo-vs-brute.yaml").read_text())
    d["study"]["entries"] = ["Inflict", "Thick Hide"]
    f = tmp_path / "one.yaml"
    f.write_text(yaml.safe_dump(d, sort_keys=False))
    res = api.study(f, trials=300, write=False)
    table = res.sections[0].tables["audit"].set_index("name")
    assert table.loc["Thick Hide", "holder"] == "monster" and table.loc["Thick Hide", "value"] > 0
    assert {"audit_free_or_passive", "audit_monster"} <= set(res.sections[0].tables)


def test_an_entry_that_makes_draws_is_named_with_its_draw_change(tmp_path):
    """Under d10's old reading ``hammerspace_stored: in`` a minion trapped for ever keeps the fight
    going to the round cap: the audit names the draws Hammerspace makes (its value counts a draw
    as no win), and the cells table carries each cell's draw_change."""
    from sim import api

    text = (ROOT / "scenarios" / "audit" / "d10" / "trio-vs-gorgon.yaml").read_text()
    (tmp_path / "trio.yaml").write_text(text.replace("rules: {mode: grim}",
                                                     "rules: {mode: grim, hammerspace_stored: in}"))
    res = api.audit("d10", encounters=[tmp_path], only=["Hammerspace", "Awareness"], trials=300, write=False)
    moved = [w for w in res.sections[0].warnings if "moves the draw rate" in w]
    assert len(moved) == 1 and moved[0].startswith("Hammerspace moves the draw rate: +"), moved
    cells = res.sections[0].tables["cells"].set_index("name")
    assert (cells.loc["Hammerspace", "draw_change"] > 0.3).all()
    assert (cells.loc["Awareness", "draw_change"].abs() < 0.05).all()


def test_the_audit_on_a_cluster_gives_the_same_table():
    """``--scheduler``: the arms' trials played by dask workers are the same rows."""
    from sim import api

    kw = dict(only=["Awareness", "Enhanced Outfit"], trials=150, write=False)
    here = api.audit("d10", **kw).sections[0].tables["audit"]
    there = api.audit("d10", scheduler="local:1", **kw).sections[0].tables["audit"]
    assert here[["name", "value", "lo", "hi"]].equals(there[["name", "value", "lo", "hi"]])
