"""The report page's parts without a browser: numbers, verdict, tables, chart metadata."""
import re

import numpy as np
import pandas as pd
import pytest

from sim.report import charts as charts_mod
from sim.report import write_run
from sim.report.fmt import format_number
from sim.report.tables import MAX_TABLE_ROWS, PREVIEW_ROWS, table_block
from sim.report.verdict import verdict
from test_report import make_result


@pytest.mark.parametrize("x, text", [
    (0.0113655, "0.0114"), (9.60272e-05, "0.000096"), (3.14159, "3.14"), (12.0, "12"),
    (1234.5, "1,234"), (54.321, "54.3"), (0, "0"), (7, "7"), (float("nan"), "–"),
])
def test_numbers_without_scientific_notation(x, text):
    assert format_number(x) == text


def test_verdict_names_best_gap_and_ties():
    result = make_result(n_variants=4)
    s = result.summary
    text = verdict(s, ["girls", "oni"])
    best = s.loc[s["win_rate"].idxmax(), "variant"]
    worst = s.loc[s["win_rate"].idxmin(), "variant"]
    assert f"“{best}” wins most often" in text and f"“{worst}”" in text
    gap = 100 * (s["win_rate"].max() - s["win_rate"].min())
    assert f"{gap:.1f} points above" in text
    assert "round cap" in text  # the fake run has draws at the cap
    one = verdict(s.head(1), ["girls"], {"fights": "games", "round": "turn", "rounds": "turns",
                                         "fight": "game"})
    assert one.startswith("Side “girls” wins") and "games" in one and "turns" in one


def test_wide_and_long_tables_fold():
    df = pd.DataFrame({"variant": ["a"] * 40, **{f"c{i}": np.arange(40) * 0.0113655 + i
                                                  for i in range(30)}})
    html = table_block(df, csv="wide.csv")
    first = html.split("<details")[0]
    assert first.count("<tr>") == PREVIEW_ROWS + 1  # header + preview rows
    assert first.count("<th") < 12  # key columns only
    assert "Show all 31 columns" in html and 'href="wide.csv"' in html
    assert 'class="scroll"' in html and "e-0" not in html


def test_rate_triples_merge_and_cut_tables_link_csv():
    n = MAX_TABLE_ROWS + 5
    df = pd.DataFrame({"who": ["x"] * n, "ko_rate": [0.5] * n, "ko_lo": [0.4] * n,
                       "ko_hi": [0.6] * n})
    html = table_block(df, csv="t.csv")
    assert "50.0% [40.0, 60.0]" in html and ">ko<" in html and "ko_lo" not in html
    assert f"First {MAX_TABLE_ROWS} of {n:,} rows" in html and 'href="t.csv"' in html


def test_chart_metadata_round_trip(tmp_path):
    result = make_result(n_variants=12)
    path = charts_mod.fight_length_chart(result, tmp_path / "f.png")
    meta = charts_mod.chart_meta(path)
    assert meta["variants"] == result.summary["variant"].tolist()
    assert meta["omitted"] == {} and "fights" in meta["caption"]


def test_length_axis_cut_at_the_995th_percentile():
    lengths = np.arange(1, 501)
    counts = np.zeros(500)
    counts[:20] = 1000
    counts[499] = 10  # a few fights at the cap of 500
    limit, beyond = charts_mod.length_limit(lengths, counts)
    assert limit == 20 and 0 < beyond < 0.005


def test_page_order_and_no_file_names_in_captions(tmp_path):
    out = write_run(make_result(), tmp_path / "run")
    text = (out / "report.html").read_text(encoding="utf-8")
    order = [text.index(f'id="{a}"') for a in ("verdict", "results", "answer", "notes", "files",
                                               "provenance")]
    assert order == sorted(order)
    for cap in re.findall(r"<figcaption>(.*?)</figcaption>", text):
        assert ".png" not in re.sub(r"<a [^>]*>.*?</a>", "", cap)


def _figures_of(monkeypatch):
    """Capture every figure the shared charts save."""
    figs, save = [], charts_mod._save

    def keep(fig, path, **kw):
        figs.append(fig)
        return save(fig, path, **kw)

    monkeypatch.setattr(charts_mod, "_save", keep)
    return figs


def test_every_survival_panel_has_round_labels(tmp_path, monkeypatch):
    figs = _figures_of(monkeypatch)
    charts_mod.survival_chart(make_result(), tmp_path / "s.png")
    panels = [ax for ax in figs[0].axes if ax.get_visible()]
    assert len(panels) >= 2
    for ax in panels:
        assert ax.get_xlabel()
        assert any(lab.get_visible() and lab.get_text() for lab in ax.get_xticklabels()), ax.get_title()


def test_identical_variants_stay_distinguishable(tmp_path, monkeypatch):
    """Two variants with the same numbers: each line has its own marker and width."""
    result = make_result(n_variants=2)
    a, b = result.summary["variant"].tolist()
    for name in ("rounds", "curves"):
        frame = getattr(result, name)
        first = frame[frame["variant"] == a]
        setattr(result, name, pd.concat([first, first.assign(variant=b)], ignore_index=True))
    figs = _figures_of(monkeypatch)
    charts_mod.fight_length_chart(result, tmp_path / "f.png")
    charts_mod.survival_chart(result, tmp_path / "s.png")
    for fig in figs:
        lines = [ln for ln in fig.axes[0].get_lines() if ln.get_label() and not ln.get_label().startswith("_")]
        assert len({ln.get_marker() for ln in lines}) == len(lines) == 2
        assert len({ln.get_linewidth() for ln in lines}) == 2
