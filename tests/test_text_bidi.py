"""Bidirectional text (issue 39): an unterminated U+202E in a name reversed the verdict
paragraph in Chromium.

* a bidirectional control (U+202A-U+202E, U+2066-U+2069) in any text of a scenario or a
  study block is refused like other control characters, at its own line;
* right-to-left letters stay allowed, and a report whose side and variant are named in
  Hebrew shows its verdict in order in Chromium (the words after the name stay after it);
* a control that reaches a page another way (a file path) is shown as ``[U+202E]``.
"""
from __future__ import annotations

import pytest
import yaml

from helpers import duel_data
from study_helpers import duel_study

from sim.scenario import ScenarioError, load_scenario_text


@pytest.mark.parametrize("ch", ["\u202e", "\u202b", "\u2066", "\u2069"])
def test_a_bidi_control_in_a_name_is_refused_at_its_line(ch):
    d = duel_data(a={"name": f"Akari{ch} wins"})
    text = yaml.safe_dump(d, allow_unicode=True, sort_keys=False)
    line = next(i for i, t in enumerate(text.splitlines(), 1) if ch in t)
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(text, "x.yaml")
    msg = str(info.value)
    assert f"line {line}" in msg and f"U+{ord(ch):04X}" in msg and "bidirectional control" in msg


def test_a_bidi_control_in_a_study_arm_is_refused():
    from sim.study.load import load_study_text

    text = duel_study({"kind": "compare", "arms": [{"name": "base"}, {"name": "evil\u202e", "set": {}}]})
    with pytest.raises(ScenarioError, match="U\\+202E"):
        load_study_text(text, "s.yaml")


def test_right_to_left_letters_are_allowed():
    d = duel_data(a={"name": "עקרי"})
    d["sides"][0]["name"] = "בנות"
    loaded = load_scenario_text(yaml.safe_dump(d, allow_unicode=True), "x.yaml")
    assert loaded.raw["sides"][0]["name"] == "בנות"


def test_a_control_reaching_a_page_is_shown_not_obeyed():
    from sim.report.fmt import esc

    assert esc("scen\u202eario.yaml") == "scen[U+202E]ario.yaml"


def test_chromium_shows_the_verdict_in_order(tmp_path):
    """A side and variants named in Hebrew: in the verdict, each word after a name is drawn
    to the right of (or below) the word before it."""
    from test_report_browser import CHROMIUM, _require_browser

    _require_browser()
    from playwright.sync_api import sync_playwright

    from sim import api

    d = duel_data()
    d["sides"][0]["name"] = "בנות"
    d["variants"] = [{"name": "בסיס"}, {"name": "חזק", "set": {"Akari.attack": 6}}]
    folder = tmp_path / "odd\u202epath"
    folder.mkdir()
    f = folder / "s.yaml"
    f.write_text(yaml.safe_dump(d, allow_unicode=True, sort_keys=False), encoding="utf-8")
    _, out = api.run(f, trials=500, out=tmp_path / "run")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            pg = b.new_page(viewport={"width": 1280, "height": 800})
            pg.goto((out / "report.html").as_uri())
            # the x, y of each LTR word of the verdict, in the order of the text
            boxes = pg.evaluate("""() => {
                const el = document.querySelector('#verdict');
                const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
                const out = [];
                for (let n = walker.nextNode(); n; n = walker.nextNode()) {
                    const re = /[A-Za-z]{3,}/g; let m;
                    while ((m = re.exec(n.data)) !== null) {
                        const r = document.createRange();
                        r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
                        const b = r.getBoundingClientRect();
                        out.push([m[0], b.left, b.top]);
                    }
                }
                return out;
            }""")
            body = pg.evaluate("document.body.textContent")
        finally:
            b.close()
    assert len(boxes) > 5, boxes
    for (w1, x1, y1), (w2, x2, y2) in zip(boxes, boxes[1:]):
        assert y2 > y1 + 2 or x2 > x1, (w1, w2, boxes)
    assert "[U+202E]" in body and "\u202e" not in body
