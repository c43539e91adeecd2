"""The report page in a real browser (headless Chromium driven by playwright).

Four reports, one per kind of run: the 4.1 quickstart, a d10 party, a card
round robin and a twelve-variant 4.1 study (``tests/data``). For each, at
1280×800: the verdict and the results table are on the first screen, the
page is no wider than the window, every image loads, every anchor and file
link resolves, and every chart drawn per variant draws every variant of the
run (the figure's ``data-variants``; those left out are named, with a reason,
in ``data-omitted`` and the caption). At phone width the page does not scroll
sideways either (the tables scroll inside themselves).

Chromium comes from the OS packages (``make chromium``: ``apt-get install -y
chromium``); playwright drives it through ``executable_path`` (its own
browser download is never used). Without them the tests skip, except in CI
(``CI`` set), where they fail.
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("MGSIM_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


def _require_browser():
    missing = []
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing.append("the playwright package (pip install -e '.[test]')")
    if not Path(CHROMIUM).exists():
        missing.append("chromium (make chromium)")
    if missing:
        msg = "browser tests need " + " and ".join(missing)
        if os.environ.get("CI"):
            pytest.fail(msg)
        pytest.skip(msg)


#: name -> (scenario, trials per variant): small runs, the page is what is tested
REPORTS = {
    "mb41-quickstart": ("scenarios/quickstart.yaml", 2000),
    "d10-party": ("scenarios/d10/party-cake.yaml", 500),
    "cards-round-robin": ("scenarios/cards/round-robin-heuristic.yaml", 200),
    "mb41-study-12": ("tests/data/boost-threshold-study.yaml", 300),
}

#: charts drawn per variant, by report: each must be on the page with its variants
PER_VARIANT = {
    "mb41-quickstart": {"win_rate.png", "fight_length.png", "survival.png", "overcharge.png",
                        "ko_death.png", "talent_use.png"},
    "d10-party": {"win_rate.png", "fight_length.png", "survival.png", "ko_death.png",
                  "thresholds.png", "spending.png", "power_use.png"},
    "cards-round-robin": {"win_rate.png", "matchup_matrix.png", "fight_length.png", "survival.png",
                          "first_player.png"},
    "mb41-study-12": {"win_rate.png", "fight_length.png", "survival.png", "overcharge.png",
                      "ko_death.png", "talent_use.png"},
}

WIDTH, HEIGHT = 1280, 800


@pytest.fixture(scope="module")
def browser():
    _require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture(scope="module", params=list(REPORTS))
def report(request, tmp_path_factory):
    """(name, run directory) of one written report."""
    _require_browser()
    from sim import api

    scenario, trials = REPORTS[request.param]
    out = tmp_path_factory.mktemp("reports") / request.param
    api.run(ROOT / scenario, trials=trials, out=out)
    return request.param, out


@pytest.fixture(scope="module")
def page(browser, report):
    name, out = report
    pg = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
    pg.goto((out / "report.html").as_uri())
    pg.wait_for_load_state("load")
    yield name, out, pg
    pg.close()


def _variants(out: Path) -> list:
    return [r["variant"] for r in json.loads((out / "summary.json").read_text())["results"]]


def test_verdict_and_results_on_first_screen(page):
    name, out, pg = page
    verdict = pg.locator("#verdict").bounding_box()
    table = pg.locator("table.results").first.bounding_box()
    assert verdict["y"] >= 0 and verdict["y"] + verdict["height"] <= HEIGHT
    assert "%" in pg.inner_text("#verdict")
    # the results table starts on the first screen with its header and first rows
    assert table["y"] + 100 <= HEIGHT, (name, table)
    if len(_variants(out)) <= 6:  # a short one is there whole
        assert table["y"] + table["height"] <= HEIGHT, (name, table)
    # the verdict comes first, then the results, then the answering chart
    answer = pg.locator("#answer").bounding_box()
    assert verdict["y"] < table["y"] < answer["y"]
    prov = pg.locator("#provenance-table")
    assert prov.evaluate("e => e.tagName") == "DETAILS" and not prov.evaluate("e => e.open")


def test_no_horizontal_page_scroll(page):
    _, _, pg = page
    assert pg.evaluate("document.documentElement.scrollWidth") <= WIDTH


def test_every_image_loads(page):
    _, _, pg = page
    sizes = pg.eval_on_selector_all("img", "imgs => imgs.map(i => [i.complete, i.naturalWidth])")
    assert sizes and all(done and w > 0 for done, w in sizes)


def test_every_variant_in_every_per_variant_chart(page):
    name, out, pg = page
    variants = _variants(out)
    figures = pg.eval_on_selector_all(
        "figure[data-variants]",
        "fs => fs.map(f => [f.dataset.chart, JSON.parse(f.dataset.variants),"
        " JSON.parse(f.dataset.omitted || '{}'), f.querySelector('figcaption').innerText])")
    charts = {chart for chart, *_ in figures}
    assert PER_VARIANT[name] <= charts, PER_VARIANT[name] - charts
    for chart, drawn, omitted, caption in figures:
        assert len(drawn) == len(set(drawn)), chart
        assert set(drawn) | set(omitted) == set(variants), chart
        assert not omitted, (chart, omitted)  # these runs leave none out
        assert ".png" not in caption.replace("Full size", ""), caption


def test_links_resolve(page):
    _, out, pg = page
    hrefs = pg.eval_on_selector_all("a[href]", "as => as.map(a => a.getAttribute('href'))")
    ids = set(pg.eval_on_selector_all("[id]", "es => es.map(e => e.id)"))
    for h in hrefs:
        if h.startswith("#"):
            assert h[1:] in ids, h
        else:
            assert "/" not in h and (out / h).is_file(), h
    linked = {h for h in hrefs if not h.startswith("#")}
    files = {p.name for p in out.iterdir() if p.suffix in {".csv", ".parquet", ".png", ".json"}}
    assert files <= linked, files - linked


def test_system_words(page):
    name, _, pg = page
    text = pg.inner_text("body")
    if name.startswith("cards"):
        body = text.rsplit("Files", 1)[0]  # file names (fight_length.png) are kept
        for word in ("fight", "fights still running", " rounds"):
            assert word not in body.lower(), word
        assert "games" in body and "turns" in body


def test_phone_width(browser, report):
    _, out = report
    pg = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    try:
        pg.goto((out / "report.html").as_uri())
        assert pg.evaluate("document.documentElement.scrollWidth") <= 390
        # the results table scrolls inside its wrapper, every column reachable
        wrap = pg.locator("table.results").first.locator("xpath=..")
        assert wrap.evaluate("e => getComputedStyle(e).overflowX") == "auto"
        assert pg.locator("figure img").first.evaluate("i => i.getBoundingClientRect().width") <= 390
    finally:
        pg.close()
