"""Tests of the report writer (sim.report): files, contents, atomicity."""
import json
import re
import sys

import numpy as np
import pandas as pd
import pytest

from sim.report import OutputExistsError, format_rate, write_run
from sim.report import charts as charts_mod
from sim.report import write as write_mod
from sim.results import SUMMARY_COLUMNS, RunResult
from sim.stats import rate_table

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
CAP = 30


def make_result(n_variants=3, scenario="Duel at the Shrine", with_curves=True):
    names = ["baseline", "shield+1", "boss x2"] + [f"v{i}" for i in range(3, n_variants)]
    rows, curves, rounds = [], [], []
    rng = np.random.default_rng(0)
    for i, v in enumerate(names[:n_variants]):
        n = 1000
        draws = 10 * i
        hist = rng.multinomial(n - draws, np.full(6, 1 / 6))
        wins = int(hist[:3].sum())
        losses = n - draws - wins
        rvals = [1, 2, 3, 4, 5, 6, CAP]
        counts = [int(c) for c in hist] + [draws]
        rows.append(dict(
            variant=v, trials=n, wins=wins, losses=losses, draws=draws,
            **rate_table(wins, losses, draws),
            mean_rounds=float(np.dot(rvals, counts) / n),
            boost_policy="greedy",
        ))
        rounds += [dict(variant=v, rounds=r, count=c) for r, c in zip(rvals, counts)]
        ongoing = 1 - np.cumsum(counts[:-1]) / n
        for r in range(1, 7):
            curves.append(dict(variant=v, round=r, metric="ongoing", value=float(ongoing[r - 1])))
            curves.append(dict(variant=v, round=r, metric="girls standing",
                               value=float(0.9 * ongoing[r - 1])))
    return RunResult(
        scenario=scenario,
        system="mb41",
        seed=1234,
        provenance={
            "scenario_hash": "sha256:0123abcd",
            "seed": 1234,
            "trials": 1000,
            "package_version": "0.1.0",
            "versions": {"numpy": np.__version__, "pandas": pd.__version__},
            "rules": {"round_cap": CAP, "revive": True},
            "source": "https://example.org/not-a-resource",
        },
        summary=pd.DataFrame(rows),
        curves=pd.DataFrame(curves if with_curves else [],
                            columns=["variant", "round", "metric", "value"]),
        rounds=pd.DataFrame(rounds),
        tables={"combatants": pd.DataFrame({
            "name": ["Aya", "Boss <Oni> & co"], "resolve": [18, 54], "attack": [3.5, 4.25],
        })},
        notes=["Monster multiplier table is an assumption (A28).", "Round cap 30 ends as a draw."],
        side_names=["girls", "oni"],
    )


def leftovers(parent):
    return sorted(p.name for p in parent.iterdir())


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    result = make_result()
    out = tmp_path_factory.mktemp("runs") / "duel" / "run-001"
    path = write_run(result, out)
    return result, out, path


# ---------------------------------------------------------------- files


def test_all_files_written(written):
    result, out, path = written
    assert path == out and out.is_dir()
    expected = {
        "summary.csv", "summary.json", "curves.csv", "rounds.csv", "combatants.csv",
        "win_rate.png", "fight_length.png", "survival.png", "report.html",
    }
    names = set(leftovers(out))
    assert expected <= names
    assert names - expected <= {"summary.parquet"}
    for png in ("win_rate.png", "fight_length.png", "survival.png"):
        assert (out / png).read_bytes()[:8] == PNG_MAGIC
    # no temporary sibling left behind
    assert leftovers(out.parent) == ["run-001"]


def test_summary_json(written):
    result, out, _ = written
    data = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert data == json.loads(json.dumps(result.to_dict()))
    ci = data["results"][0]["win_ci"]
    assert len(ci) == 2 and all(isinstance(x, float) for x in ci)
    assert ci[0] <= data["results"][0]["win_rate"] <= ci[1]
    assert data["provenance"]["versions"]["numpy"] == np.__version__
    assert data["tables"]["combatants"][1]["name"] == "Boss <Oni> & co"


def test_csvs_round_trip(written):
    result, out, _ = written
    pd.testing.assert_frame_equal(pd.read_csv(out / "summary.csv"), result.summary)
    pd.testing.assert_frame_equal(pd.read_csv(out / "curves.csv"), result.curves)
    pd.testing.assert_frame_equal(pd.read_csv(out / "rounds.csv"), result.rounds)
    pd.testing.assert_frame_equal(pd.read_csv(out / "combatants.csv"), result.tables["combatants"])


def test_parquet_round_trip(written):
    pytest.importorskip("pyarrow")
    result, out, _ = written
    pd.testing.assert_frame_equal(pd.read_parquet(out / "summary.parquet"), result.summary)


def test_parquet_skipped_without_pyarrow(tmp_path, monkeypatch):
    # (hiding pyarrow from sys.modules would break pandas itself once loaded)
    monkeypatch.setattr(write_mod, "_pyarrow_available", lambda: False)
    out = write_run(make_result(), tmp_path / "run")
    assert not (out / "summary.parquet").exists()
    assert (out / "report.html").exists()


# ---------------------------------------------------------------- html


def test_report_html_self_contained(written):
    result, out, _ = written
    text = (out / "report.html").read_text(encoding="utf-8")
    assert text.count("data:image/png;base64,") == 3
    assert result.scenario in text
    assert "mb41" in text
    # no external resources: every src is a data URI; every href an anchor in
    # the page or a relative link to a file of the run, next to report.html
    srcs = re.findall(r"""src\s*=\s*["']?([^"'\s>]+)""", text, flags=re.I)
    assert srcs and all(r.startswith("data:") for r in srcs)
    hrefs = re.findall(r"""href\s*=\s*["']?([^"'\s>]+)""", text, flags=re.I)
    ids = set(re.findall(r'\bid="([^"]+)"', text))
    files = {p.name for p in out.iterdir()}
    for h in hrefs:
        assert h[1:] in ids if h.startswith("#") else h in files, h
    for name in files - {"report.html"}:  # every file of the run is linked
        assert f'href="{name}"' in text, name
    assert not re.search(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", text, flags=re.I)
    assert "@import" not in text and "url(" not in text
    assert "<script" not in text.lower()


def test_report_html_contents(written):
    result, out, _ = written
    text = (out / "report.html").read_text(encoding="utf-8")
    # provenance, including a nested dict as JSON
    assert "sha256:0123abcd" in text and "&quot;numpy&quot;" in text
    # notes, prominently
    for note in result.notes:
        assert note in text
    # rates with their intervals, as percentages
    row = result.summary.iloc[0]
    assert format_rate(row.win_rate, row.win_lo, row.win_hi) in text
    assert "win (girls)" in text
    # the extra table, escaped
    assert "Boss &lt;Oni&gt; &amp; co" in text and "<Oni>" not in text


def test_html_escapes_everything(tmp_path):
    result = make_result(scenario='<script>alert("x")</script>')
    result.notes.append("<b>bold</b>")
    result.provenance["evil"] = {"<k>": "</td>"}
    out = write_run(result, tmp_path / "run")
    text = (out / "report.html").read_text(encoding="utf-8")
    assert "<script>" not in text and "<b>bold</b>" not in text
    assert "&lt;script&gt;" in text and "&lt;b&gt;bold&lt;/b&gt;" in text
    assert "&lt;/td&gt;" in text


def test_format_rate():
    assert format_rate(0.543, 0.539, 0.547) == "54.3% [53.9, 54.7]"
    assert format_rate(0.5, 0.4995, 0.5005) == "50.00% [49.95, 50.05]"
    assert format_rate(float("nan"), 0.0, 1.0) == "–"


# ---------------------------------------------------------------- charts


def test_empty_tables_skip_charts(tmp_path):
    result = make_result(with_curves=False)
    result.rounds = result.rounds.iloc[0:0]
    out = write_run(result, tmp_path / "run")
    assert (out / "win_rate.png").exists()
    assert not (out / "survival.png").exists()
    assert not (out / "fight_length.png").exists()
    text = (out / "report.html").read_text(encoding="utf-8")
    assert text.count("data:image/png;base64,") == 1


def test_many_variants_and_no_pyplot_figures(tmp_path):
    out = write_run(make_result(n_variants=30), tmp_path / "run")
    assert (out / "win_rate.png").read_bytes()[:8] == PNG_MAGIC
    if "matplotlib.pyplot" in sys.modules:
        assert sys.modules["matplotlib.pyplot"].get_fignums() == []


def test_round_cap_detection():
    result = make_result()
    assert charts_mod.round_cap(result) == CAP  # from provenance["rules"]
    result.provenance = {}
    assert charts_mod.round_cap(result) == CAP  # draws exist: largest rounds value
    result.summary["draws"] = 0
    assert charts_mod.round_cap(result) is None


# ---------------------------------------------------------------- atomicity


@pytest.mark.parametrize("chart", ["win_rate_chart", "survival_chart"])
def test_failure_leaves_nothing(tmp_path, monkeypatch, chart):
    def boom(*args, **kwargs):
        raise RuntimeError("chart exploded")

    monkeypatch.setattr(charts_mod, chart, boom)
    out = tmp_path / "runs" / "run-001"
    with pytest.raises(RuntimeError, match="chart exploded"):
        write_run(make_result(), out)
    assert not out.exists()
    assert leftovers(out.parent) == []  # no .run-001.tmp-* either


def test_failure_in_html_leaves_nothing(tmp_path, monkeypatch):
    def boom(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(write_mod, "render_html", boom)
    with pytest.raises(KeyboardInterrupt):
        write_run(make_result(), tmp_path / "run")
    assert leftovers(tmp_path) == []


def test_refuses_non_empty_dir(tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    (out / "keep.txt").write_text("precious")
    with pytest.raises(OutputExistsError, match="not empty"):
        write_run(make_result(), out)
    assert isinstance(OutputExistsError("x"), FileExistsError)
    assert leftovers(out) == ["keep.txt"]
    assert leftovers(tmp_path) == ["run"]


def test_refuses_existing_file(tmp_path):
    out = tmp_path / "run"
    out.write_text("a file")
    with pytest.raises(FileExistsError):
        write_run(make_result(), out)
    assert out.read_text() == "a file"


def test_empty_existing_dir_is_replaced(tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    write_run(make_result(), out)
    assert (out / "report.html").exists()
    assert leftovers(tmp_path) == ["run"]


@pytest.mark.parametrize("name", ["../escape", "summary", "a/b", ".hidden", ""])
def test_bad_table_names_rejected(tmp_path, name):
    result = make_result()
    result.tables[name] = pd.DataFrame({"x": [1]})
    with pytest.raises(ValueError):
        write_run(result, tmp_path / "run")
    assert leftovers(tmp_path) == []


def test_summary_has_required_columns():
    assert set(SUMMARY_COLUMNS) <= set(make_result().summary.columns)
