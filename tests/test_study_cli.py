"""sim study and sim plan: files written, JSON, clean failures (issue 21)."""
from __future__ import annotations

import json

from study_helpers import duel_study

from test_cli import assert_clean_failure, sim


def test_run_study_writes_tables_charts_and_report(tmp_path):
    from sim.study import run_study
    from sim.study.load import load_study_text

    text = duel_study({"kind": "compare", "arms": [{"name": "attack 5", "set": {"Akari.attack": 5}},
                                                   {"name": "base"}]})
    res = run_study(load_study_text(text, "<t>"), trials=60, out=tmp_path / "out")
    names = {p.name for p in res.out_dir.iterdir()}
    assert {"comparison.csv", "comparison.png", "report.html", "study.json"} <= names
    html = (res.out_dir / "report.html").read_text()
    assert "Reading." in html and "base against attack 5" in html and "data:image/png;base64," in html
    data = json.loads((res.out_dir / "study.json").read_text())
    assert data["provenance"]["trials_per_arm"] == 60 and data["studies"][0]["kind"] == "compare"


def test_plan_command_prints_and_json():
    r = sim("plan", "--p1", "0.65", "--p2", "0.60", "--paired", "--discordant", "0.08", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["trials"] == 249
    r = sim("plan", "--p1", "0.65", "--p2", "0.60")
    assert r.returncode == 0 and "trials per arm" in r.stdout


def test_plan_and_study_failures_are_one_paragraph(tmp_path):
    res = sim("plan", "--p1", "0.65", "--p2", "0.60", "--paired")
    assert_clean_failure(res, "--discordant")
    assert res.returncode == 2
    bad = tmp_path / "s.yaml"
    bad.write_text(duel_study({"kind": "talent-valu", "member": "Akari"}))
    res = sim("study", bad)
    assert_clean_failure(res, "talent-value")
    assert res.returncode == 2 and "Did you mean 'talent-value'" in res.stderr
    bad.write_text(duel_study({"kind": "talent-value", "member": "Akri", "candidates": ["Inflict"]}))
    res = sim("study", bad, "--no-write")
    assert res.returncode == 2 and "Did you mean 'Akari'" in res.stderr and "Traceback" not in res.stderr
    assert not (tmp_path / "results").exists()


def test_validate_checks_the_study_block(tmp_path):
    bad = tmp_path / "s.yaml"
    bad.write_text(duel_study({"kind": "compare", "arms": [{"name": "a"}], "pairz": []}))
    res = sim("validate", bad)
    assert res.returncode == 2 and "study.pairz" in res.stderr and "Did you mean 'pairs'" in res.stderr
    res = sim("validate", "scenarios/studies/lethality-41-vs-d10.yaml")
    assert res.returncode == 0 and "valid lethality study" in res.stdout


def test_study_json_no_write(tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text(duel_study({"kind": "calibrate", "parameter": "Shade.resolve", "values": [12, 18, 24],
                             "targets": [0.7]}))
    res = sim("study", f, "--trials", "200", "--no-write", "--json", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    d = json.loads(res.stdout)
    assert d["trials"] == 200 and d["out_dir"] is None
    (cal,) = d["studies"][0]["tables"]["calibration"]
    assert cal["target"] == 0.7 and 12 <= cal["nearest"] <= 24
    assert not (tmp_path / "results").exists()


def test_csv_cells_are_not_spreadsheet_formulas(tmp_path):
    from sim.study import run_study
    from sim.study.load import load_study_text

    text = duel_study({"kind": "compare", "arms": [{"name": "base"}, {"name": "=1+1", "set": {"Akari.attack": 5}}]})
    res = run_study(load_study_text(text, "<t>"), trials=50, out=tmp_path / "out")
    assert "'=1+1" in (res.out_dir / "comparison.csv").read_text()
