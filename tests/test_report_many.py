"""Reports linear in variants (issue 39): per-variant charts draw a page and name the rest.

Charts drawn variant by variant (panels, lines, bar groups) draw the first
``MAX_DRAWN`` variants and list the others as not drawn with the CSV that holds
their numbers; the win-rate chart puts many variants on its x axis by number. A
200-variant run (100 s before: a 17,809 px tall PNG) writes its report in well
under 30 s; the caption counts the variants left out instead of naming them all.
"""
from __future__ import annotations

import time

import pytest
from PIL import Image

from helpers import load_data
from sim.report import write_run
from sim.report.charts import MAX_DRAWN, chart_meta
from sim.runner import run_loaded


def _many(n: int) -> dict:
    import yaml
    from pathlib import Path

    d = yaml.safe_load((Path(__file__).resolve().parents[1] / "scenarios" / "quickstart.yaml").read_text())
    d["variants"] = [{"name": f"v{i}", "set": {"Gloom Weaver.attack": 4 + i % 8}} for i in range(n)]
    return d


@pytest.mark.slow
def test_a_200_variant_report_is_written_quickly_and_every_variant_accounted_for(tmp_path):
    result = run_loaded(load_data(_many(200)), trials=20)
    t0 = time.monotonic()
    out = write_run(result, tmp_path / "run")
    took = time.monotonic() - t0
    assert took < 30, took
    variants = [f"v{i}" for i in range(200)]
    for png in out.glob("*.png"):
        meta = chart_meta(png)
        with Image.open(png) as im:
            assert im.size[1] < 4000, (png.name, im.size)  # about a page, not 17,809 px
        if meta.get("variants") is None:
            continue
        assert set(meta["variants"]) | set(meta["omitted"]) == set(variants), png.name
        if png.name != "win_rate.png":
            assert len(meta["variants"]) <= MAX_DRAWN, png.name
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "188 variants (the chart draws the first 12 of 200 variants" in html
    assert "ko_death" in html and len(html) < 5_000_000
