"""The d10 report charts (sim/systems/d10/charts.py) on a real run."""
from __future__ import annotations

from pathlib import Path

import pytest

from sim import api
from sim.report.charts import chart_meta

ROOT = Path(__file__).resolve().parent.parent
D10_CHARTS = ("ko_death.png", "thresholds.png", "spending.png", "power_use.png")


@pytest.fixture(scope="module")
def party(tmp_path_factory):
    out = tmp_path_factory.mktemp("d10") / "party"
    return api.run(str(ROOT / "scenarios" / "d10" / "party-cake.yaml"), trials=400, out=out)


def test_party_run_writes_the_d10_charts_with_every_variant(party):
    result, out = party
    variants = result.summary["variant"].astype(str).tolist()
    for png in D10_CHARTS:
        meta = chart_meta(out / png)
        assert meta["variants"] == variants, png
        assert meta["omitted"] == {} and meta["caption"] and meta["title"], png
    html = (out / "report.html").read_text(encoding="utf-8")
    assert html.count("data:image/png;base64,") == 3 + len(D10_CHARTS)


@pytest.mark.parametrize("scenario", ["party-cake.yaml", "party-grim.yaml"])
def test_no_rate_above_one(scenario, party):
    if scenario == "party-cake.yaml":
        result, out = party
        import pandas as pd

        table = pd.read_csv(out / "combatants.csv")
    else:  # an episode of two fights: per-trial and per-fight rates both stay shares
        result, _ = api.run(str(ROOT / "scenarios" / "d10" / scenario), trials=300, write=False)
        table = result.tables["combatants"]
    rates = [c for c in table.columns if c.endswith("_rate")]
    assert {"hit_rate", "ko_rate", "death_rate"} <= set(rates)
    for c in rates:
        v = table[c].dropna()
        assert ((v >= 0) & (v <= 1)).all(), (c, v.max())
