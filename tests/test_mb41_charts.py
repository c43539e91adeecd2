"""The 4.1 report charts (sim/systems/mb41/charts.py) on a real run."""
from __future__ import annotations

from pathlib import Path

from sim import api

ROOT = Path(__file__).resolve().parent.parent
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def test_party_run_writes_the_41_charts(tmp_path):
    result, out = api.run(str(ROOT / "scenarios" / "mb41" / "party-vs-boss.yaml"), trials=2000,
                          out=tmp_path / "run")
    for png in ("overcharge.png", "talent_use.png", "ko_death.png"):
        assert (out / png).read_bytes()[:8] == PNG_MAGIC, png
    html = (out / "report.html").read_text(encoding="utf-8")
    assert html.count("data:image/png;base64,") == 6  # win rate, length, survival + the three
    t = result.tables["combatants"]
    girls = t[t["kind"] == "girl"]
    assert (girls[["oc_gain_heart", "oc_gain_fury", "oc_gain_judgment"]].sum(axis=1) > 0).all()
    assert set(result.tables["talents"]["talent"]) >= {"Boost", "Healing Magic", "Inflict", "Bonus Action", "Thick Hide"}


def test_the_party_variants_differ_by_the_boss_policy():
    result, _ = api.run(str(ROOT / "scenarios" / "mb41" / "party-vs-boss.yaml"), trials=4000, write=False)
    s = result.summary.set_index("variant")
    # a boss that finishes downed girls kills some of them; a cinematic one never does: its
    # girls die only when a Judgment Burst (bursts: play, L1163) hits them while they are down
    deaths = result.tables["combatants"]
    girls = deaths[deaths["kind"] == "girl"].groupby("variant")["death_rate"].sum()
    assert girls["brutal lord"] > 0.1 and girls["cinematic lord"] < 0.02
    cinematic = deaths[(deaths["variant"] == "cinematic lord") & (deaths["kind"] == "girl")]
    assert (cinematic["death_rate"] == 0).all() or cinematic["judgment_taken"].sum() > 0
    assert s.loc["brutal lord", "win_rate"] < s.loc["cinematic lord", "win_rate"]
