"""``sim serve`` without a browser: paths, the guard, checks, knobs, compare, charts, the bundle.

The browser tests (tests/test_serve_browser.py) drive the page; these hold
the pieces the page relies on, each against an independent reference: the
loader's own message, the run's own counters, the file system, the recorded
hashes of the bundle.
"""
from __future__ import annotations

import asyncio
import hashlib
import json
import os
import re
import socket
from pathlib import Path

import pytest

from sim.scenario import ScenarioError, load_scenario, load_scenario_text
from sim.serve import ServeError, where
from sim.serve.checks import check_text
from sim.serve.files import FileError, Files, sha
from sim.serve.knobs import add_variant, knobs
from sim.serve.paths import PathRefused, resolve_under, run_dir
from sim.serve.runs import META, RunStore
from sim.serve.safety import Guard

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "sim" / "serve" / "static"
QUICKSTART = (ROOT / "scenarios" / "quickstart.yaml").read_text()


# ---------------------------------------------------------------- paths


def test_paths_stay_under_the_folder(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.yaml").write_text("x: 1\n")
    assert resolve_under(tmp_path, "sub/a.yaml") == tmp_path / "sub" / "a.yaml"
    assert resolve_under(tmp_path, "new.yaml") == tmp_path / "new.yaml"  # a save may create it
    for bad, words in [("../a.yaml", "'../' would leave"), ("sub/../../a.yaml", "'../' would leave"),
                       ("/etc/x.yaml", "absolute"), ("C:/x.yaml", "absolute"), ("sub\\a.yaml", "backslash"),
                       ("a.py", "scenario files only"), ("", "no file named")]:
        with pytest.raises(PathRefused, match=re.escape(words)):
            resolve_under(tmp_path, bad)
    outside = tmp_path.parent / f"{tmp_path.name}-outside"
    outside.mkdir()
    (tmp_path / "link").symlink_to(outside)
    with pytest.raises(PathRefused, match="symbolic link"):
        resolve_under(tmp_path, "link/x.yaml")


def test_run_names_stay_under_results(tmp_path):
    assert run_dir(tmp_path, "quickstart", "20260101-x") == tmp_path / "quickstart" / "20260101-x"
    for scenario, rid in [("..", "x"), ("a/b", "x"), ("q", ".."), ("q", ".hidden"), ("q", "a\x00b")]:
        with pytest.raises(PathRefused):
            run_dir(tmp_path, scenario, rid)


def test_where_serves_the_folder_or_the_files_folder(tmp_path):
    (tmp_path / "s").mkdir()
    f = tmp_path / "s" / "q.yaml"
    f.write_text(QUICKSTART)
    assert where(None, cwd=tmp_path) == (tmp_path, None)
    assert where(str(tmp_path / "s"), cwd=tmp_path) == (tmp_path / "s", None)
    assert where(str(f), cwd=tmp_path) == (tmp_path, "s/q.yaml")  # inside: the whole folder, this file first
    other = tmp_path / "elsewhere"
    other.mkdir()
    assert where(str(f), cwd=other) == (tmp_path / "s", "q.yaml")
    with pytest.raises(ServeError, match="no such file"):
        where(str(tmp_path / "missing.yaml"), cwd=tmp_path)


def test_cli_serve_errors_exit_2_without_traceback(tmp_path, capsys):
    from sim.cli import main

    assert main(["serve", str(tmp_path / "missing.yaml"), "--no-browser"]) == 2
    assert "sim serve: " in capsys.readouterr().err
    assert main(["serve", "--port", "70000", "--no-browser"]) == 2
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    try:
        assert main(["serve", "--port", str(busy.getsockname()[1]), "--no-browser"]) == 2
        err = capsys.readouterr().err
        assert "is in use" in err and "Traceback" not in err
    finally:
        busy.close()


# ---------------------------------------------------------------- the guard


def _call(app, method="GET", path="/", host="127.0.0.1:8765", origin=None):
    headers = [(b"host", host.encode())] + ([(b"origin", origin.encode())] if origin else [])
    sent = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": method, "path": path, "headers": headers}
    asyncio.run(app(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    return start["status"], dict((k.decode(), v.decode()) for k, v in start["headers"])


async def _ok(scope, receive, send):
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"ok"})


def test_guard_refuses_foreign_hosts_and_origins():
    app = Guard(_ok, lambda: 8765)
    status, headers = _call(app)
    assert status == 200
    assert "script-src 'self'" in headers["content-security-policy"]
    assert "default-src 'none'" in headers["content-security-policy"]
    assert _call(app, host="localhost:8765")[0] == 200
    assert _call(app, host="evil.example:8765")[0] == 403  # DNS rebinding
    assert _call(app, host="127.0.0.1:9999")[0] == 403
    assert _call(app, "POST", origin="http://evil.example")[0] == 403  # a cross-site post
    assert _call(app, "POST", origin="http://127.0.0.1:8765")[0] == 200
    status, headers = _call(app, path="/runs/q/r/report.html")
    assert "script-src" not in headers["content-security-policy"]  # reports run no script at all


# ---------------------------------------------------------------- checks: the loader's own words


def test_check_gives_the_loaders_message_and_line():
    bad = QUICKSTART.replace("fury: 5", "furry: 5")
    info = check_text(bad, "quickstart.yaml")
    with pytest.raises(ScenarioError) as err:
        load_scenario_text(bad, "quickstart.yaml")
    assert not info["ok"] and info["message"] == str(err.value)
    line = next(i for i, s in enumerate(bad.splitlines(), 1) if "furry" in s)
    assert [p["line"] for p in info["problems"]] == [line]
    assert "Did you mean 'fury'?" in info["problems"][0]["message"]
    good = check_text(QUICKSTART, "quickstart.yaml")
    assert good["ok"] and good["variants"] == [n for n, _ in load_scenario(ROOT / "scenarios/quickstart.yaml").variants]


def test_check_yaml_syntax_and_several_problems():
    info = check_text("name: x\nsystem: mb41\nsides: [\n", "x.yaml")
    assert not info["ok"] and info["problems"][0]["line"] is not None and "YAML syntax error" in info["message"]
    two = QUICKSTART.replace("fury: 5", "furry: 5").replace("heart: 5", "hart: 5")
    info = check_text(two, "q.yaml")
    assert len(info["problems"]) == 2 and "2 problems" in info["message"]
    lines = {i for i, s in enumerate(two.splitlines(), 1) if "furry" in s or "hart:" in s}
    assert {p["line"] for p in info["problems"]} == lines


def test_check_studies_both_kinds():
    info = check_text((ROOT / "scenarios/studies/compare-inflict.yaml").read_text(), "s.yaml")
    assert info["ok"] and info["kind"] == "study" and info["study_kind"] == "compare"
    info = check_text((ROOT / "scenarios/studies/lethality-41-vs-d10.yaml").read_text(), "l.yaml")
    assert info["ok"] and info["study_kind"] == "lethality"
    bad = (ROOT / "scenarios/studies/compare-inflict.yaml").read_text().replace("kind: compare", "kind: compar")
    info = check_text(bad, "s.yaml")
    assert not info["ok"] and "Did you mean 'compare'?" in info["message"]


# ---------------------------------------------------------------- knobs


def test_knobs_list_member_fields_and_card_numbers():
    k = knobs(QUICKSTART)
    fields = {f["path"]: f for g in k["groups"] for f in g["fields"]}
    assert fields["Akari.fury"]["value"] == 5 and fields["Akari.fury"]["type"] == "int"
    assert fields["Akari.policy.boost"]["value"] == "when-losing-by 4"
    assert "Akari.name" not in fields
    assert fields["Akari.talents"]["value"] == []  # offered though the file gives none
    preset = fields["Akari.policy.preset"]
    assert preset["type"] == "choice" and preset["value"] == "" and len(preset["options"]) > 2
    text, name = add_variant(QUICKSTART, {"Akari.policy.preset": preset["options"][1], "Akari.talents": ["Inflict"]})
    akari = dict(load_scenario_text(text).variants)[name].sides[0].members[0]
    assert akari.talents == ["Inflict"] and akari.policy.preset == preset["options"][1]
    d10 = {f["path"] for g in knobs((ROOT / "scenarios/d10/duel.yaml").read_text())["groups"] for f in g["fields"]}
    assert {"Molly.abilities.strength", "Molly.powers", "Molly.perks", "Molly.policy.preset"} <= d10
    cards = knobs((ROOT / "scenarios/cards/card-edits.yaml").read_text())
    paths = {f["path"]: f["value"] for g in cards["groups"] for f in g["fields"]}
    assert "cards.Sparkle Ruby.atk" in paths and "A.deck" in paths


def test_add_variant_appends_and_keeps_the_base():
    text, name = add_variant(QUICKSTART, {"Akari.fury": 6, "Beni.policy.boost": "never"})
    assert name == "Akari.fury=6, Beni.policy.boost=never"
    assert text.startswith(QUICKSTART.rstrip("\n"))  # comments and layout kept: only lines added at the end
    loaded = load_scenario_text(text)
    variants = dict(loaded.variants)
    assert list(variants)[:3] == ["boost when losing by <= 4", "never boost", "always boost"]
    new = variants[name].sides[0].members
    assert (new[0].fury, new[1].policy.boost) == (6, "never")
    assert loaded.base.sides[0].members[0].fury == 5


def test_add_variant_creates_the_list_and_refuses_flow_lists():
    duel = (ROOT / "scenarios/duel-basic.yaml").read_text()
    text, name = add_variant(duel, {"Akari.attack": 5})
    loaded = load_scenario_text(text)
    assert [n for n, _ in loaded.variants] == ["base", "Akari.attack=5"]
    assert dict(loaded.variants)["Akari.attack=5"].sides[0].members[0].attack == 5
    again, second = add_variant(text, {"Akari.attack": 5})
    assert second == "Akari.attack=5 (2)"
    flow = duel + "variants: [{name: a}, {name: b, set: {Akari.attack: 2}}]\n"
    with pytest.raises(ScenarioError, match="one '- name: ...' entry per line"):
        add_variant(flow, {"Akari.attack": 5})
    empty = duel + "variants: []\n"
    assert [n for n, _ in load_scenario_text(add_variant(empty, {"Akari.attack": 6})[0]).variants] == \
        ["base", "Akari.attack=6"]
    quoted, _ = add_variant(QUICKSTART, {"Akari.talents": ["Inflict"]}, name="<b>what: if</b>")
    assert dict(load_scenario_text(quoted).variants)["<b>what: if</b>"].sides[0].members[0].talents


# ---------------------------------------------------------------- files


def test_files_save_refuses_a_file_changed_on_disk(tmp_path):
    (tmp_path / "ex").mkdir()
    (tmp_path / "ex" / "e.yaml").write_text("name: e\n")
    (tmp_path / "mine").mkdir()
    files = Files(tmp_path / "mine", tmp_path / "ex")
    (tmp_path / "mine" / "a.yaml").write_text("one\n")
    info = files.read("a.yaml")
    (tmp_path / "mine" / "a.yaml").write_text("two\n")  # another editor
    with pytest.raises(FileError, match="changed on disk") as err:
        files.save("a.yaml", "mine\n", info["sha"])
    assert err.value.status == 409 and (tmp_path / "mine" / "a.yaml").read_text() == "two\n"
    assert files.save("a.yaml", "mine\n", sha("two\n"))["sha"] == sha("mine\n")
    with pytest.raises(FileError, match="already exists"):
        files.save("a.yaml", "x\n", None)
    assert files.listing()["examples"] == ["examples/e.yaml"]
    assert not files.read("examples/e.yaml")["writable"]
    with pytest.raises(FileError, match="bundled example"):
        files.save("examples/e.yaml", "x\n", sha("name: e\n"))
    assert [p.name for p in (tmp_path / "mine").iterdir()] == ["a.yaml"]  # no temporary file left


# ---------------------------------------------------------------- runs and compare


def _fake_run(results: Path, scenario: str, rid: str, text: str | None = None) -> str:
    d = results / scenario / rid
    d.mkdir(parents=True)
    (d / "summary.json").write_text(json.dumps({
        "scenario": scenario, "system": "mb41", "seed": 1, "sides": ["girls"],
        "results": [{"variant": "base", "trials": 10, "wins": 6, "losses": 4, "draws": 0, "win_rate": 0.6,
                     "win_lo": 0.3, "win_hi": 0.8, "loss_rate": 0.4, "loss_lo": 0.2, "loss_hi": 0.7,
                     "draw_rate": 0.0, "draw_lo": 0.0, "draw_hi": 0.3, "mean_rounds": 3.0}],
        "provenance": {"created_utc": rid, "common_random_numbers": True}}))
    (d / "report.html").write_text("<p>report</p>")
    if text is not None:
        (d / META).write_text(json.dumps({"text": text, "label": ""}))
    return f"{scenario}/{rid}"


def test_run_store_lists_labels_deletes(tmp_path):
    store = RunStore(tmp_path)
    a = _fake_run(tmp_path, "q", "2026-01-01", text="name: q\n")
    b = _fake_run(tmp_path, "q", "2026-01-02")
    assert [e["id"] for e in store.list()] == [b, a]  # newest first
    assert store.set_label(a, "  first\ttry ")["label"] == "first try"
    assert store.text(a) == ("name: q\n", None) and store.text(b) == (None, None)
    assert store.view(b)["rows"][0]["win_rate"] == 0.6
    with pytest.raises(PathRefused):
        store.file(a, "../../outside.yaml")
    with pytest.raises(PathRefused):
        store.path("q/not-a-run")
    store.delete(a)
    store.delete(b)
    assert store.list() == [] and not (tmp_path / "q").exists()


def test_paired_replay_matches_the_runs_counters():
    """The paired differences replay each variant's trials and agree with what the run counted."""
    from sim import api
    from sim.runner import RunError
    from sim.serve.compare import paired

    n, seed = 600, 13
    text = QUICKSTART.replace("  - name: always boost\n", "  - name: never boost twin\n    set: {Akari.policy.boost: "
                              "never, Beni.policy.boost: never, Chiyo.policy.boost: never}\n  - name: always boost\n")
    result, _ = api.run(load_scenario_text(text, "q.yaml"), trials=n, seed=seed, write=False)
    wins = dict(zip(result.summary["variant"], result.summary["wins"]))

    def item(v):
        return {"text": text, "label": "q.yaml", "variant": v, "seed": seed, "trials": n, "wins": int(wins[v]),
                "name": v}

    out = paired([item("never boost"), item("always boost"), item("never boost twin")])
    rows = {(r["name"], r["metric"]): r for r in out["rows"]}
    win = rows[("always boost", "win")]
    assert win["diff"] == pytest.approx((wins["always boost"] - wins["never boost"]) / n, abs=1e-12)
    assert win["lo"] < win["diff"] < win["hi"] and not win["identical"]
    assert rows[("never boost twin", "win")]["identical"] and rows[("never boost twin", "win")]["diff"] == 0
    with pytest.raises(RunError, match="cannot be paired"):
        paired([{**item("never boost"), "wins": int(wins["never boost"]) + 1}, item("always boost")])


# ---------------------------------------------------------------- charts


def test_charts_answer_like_the_report_with_safe_colours_and_integer_rounds():
    import pandas as pd

    from sim.serve.charts import PALETTE, answer_name, run_charts

    rows = [{"variant": v, "trials": 10, "win_rate": 0.5, "win_lo": 0.2, "win_hi": 0.8, "loss_rate": 0.5,
             "loss_lo": 0.2, "loss_hi": 0.8, "draw_rate": 0.0, "draw_lo": 0.0, "draw_hi": 0.3} for v in "ab"]
    rounds = pd.DataFrame({"variant": ["a", "a", "b"], "rounds": [1, 2, 2], "count": [5, 5, 10]})
    curves = pd.DataFrame({"variant": ["a", "b"], "round": [1, 1], "metric": ["ongoing"] * 2, "value": [0.5, 1.0]})
    terms = {"fight": "fight", "fights": "fights", "round": "round", "rounds": "rounds", "trials": "trials"}
    charts = run_charts(rows, rounds, curves, {}, "girls", terms, ("win_rate.png",))
    assert [c["name"] for c in charts] == ["win_rate", "length", "survival"]
    colour = charts[0]["spec"]["layer"][1]["encoding"]["color"]
    assert colour["scale"]["range"] == PALETTE[:2]
    for c in charts[1:]:
        assert c["spec"]["encoding"]["x"]["axis"] == {"tickMinStep": 1, "format": "d"}
        assert c["spec"]["params"][0]["bind"] == "legend"  # the legend toggles variants
    length = {(d["variant"], d["rounds"]): d["share"] for d in charts[1]["spec"]["data"]["values"]}
    assert length[("a", 1)] == 0.5 and length[("b", 2)] == 1.0
    assert answer_name(("matchup_matrix.png", "win_rate.png"), {"matchups": 1}) == "matchup_matrix.png"
    assert answer_name(("episode_progress.png", "win_rate.png"), {}) == "win_rate.png"
    assert answer_name(("episode_progress.png", "win_rate.png"), {"episode_progress": 1}) == "episode_progress.png"


# ---------------------------------------------------------------- the bundle


def test_bundle_is_the_recorded_build_of_the_recorded_sources():
    """sim/serve/static is what `make web` built from web/ (BUNDLE.json): a hand edit of the
    bundle, or a source edit without rebuilding, fails here."""
    record = json.loads((STATIC / "BUNDLE.json").read_text())
    for name, digest in record["bundle"].items():
        assert hashlib.sha256((STATIC / name).read_bytes()).hexdigest() == digest, name
    for name, digest in record["sources"].items():
        assert hashlib.sha256((ROOT / "web" / name).read_bytes()).hexdigest() == digest, \
            f"web/{name} changed since the bundle was built: run `make web`"
    sources = {f"src/{p.name}" for p in (ROOT / "web" / "src").iterdir()}
    assert sources <= set(record["sources"]), "a new source file is not in the bundle: run `make web`"
    lock = json.loads((ROOT / "web" / "package-lock.json").read_text())["packages"]
    for pkg, version in json.loads((ROOT / "web" / "package.json").read_text())["devDependencies"].items():
        assert lock[f"node_modules/{pkg}"]["version"] == version  # pinned
    assert set(record["packages"]) >= {"vega", "vega-lite", "vega-embed", "@codemirror/view"}


def test_page_loads_only_its_own_files():
    html = (STATIC / "index.html").read_text()
    refs = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert refs and all(r.startswith("/static/") or r == "data:," for r in refs), refs
    assert "<script>" not in html.replace('<script src="/static/app.js"></script>', "")
    css = (STATIC / "app.css").read_text()
    assert "url(" not in css and "@import" not in css and "@font-face" not in css
    licences = (STATIC / "LICENSES.txt").read_text()
    assert "vega-lite" in licences and "BSD-3-Clause" in licences and "MIT" in licences


def test_package_data_ships_the_bundle():
    text = (ROOT / "pyproject.toml").read_text()
    assert '"serve/static/*"' in text
    assert re.search(r'"starlette>=[\d.]+"', text) and re.search(r'"uvicorn>=[\d.]+"', text)
    assert os.path.getsize(STATIC / "app.js") > 100_000


def test_run_options_are_checked_with_a_sentence():
    from sim.serve.app import _run_options

    assert _run_options({"trials": "2000", "seed": "", "precision": ""}) == \
        {"trials": 2000, "seed": None, "precision": None}
    assert _run_options({"precision": "0.01"})["precision"] == 0.01
    for body, words in [({"trials": "0"}, "trials must be from 1"), ({"trials": "lots"}, "whole number"),
                        ({"precision": "0.7"}, "between 0 and 0.5"), ({"seed": "-1"}, "seed must be from 0")]:
        with pytest.raises(ValueError, match=words):
            _run_options(body)


def test_engine_failure_is_a_sentence_and_the_traceback_goes_to_the_log(monkeypatch, capsys):
    """A fault inside mgsim reaches the page as one sentence; its traceback only the server's log."""
    import queue
    import threading

    from sim.serve import tasks, worker

    def boom(job, ctx):
        raise ZeroDivisionError("division by zero in a kernel")

    def bad_scenario(job, ctx):
        load_scenario_text("name: x\nsystem: mb4\n", "x.yaml")

    monkeypatch.setitem(tasks.HANDLERS, "boom", boom)
    monkeypatch.setitem(tasks.HANDLERS, "bad", bad_scenario)
    requests, replies = queue.Queue(), queue.Queue()
    for job in ({"id": "j1", "kind": "boom"}, {"id": "j2", "kind": "bad"}, None):
        requests.put(job)
    worker.main(requests, replies, threading.Event(), queue.Queue())
    got = []
    while not replies.empty():
        got.append(replies.get())
    errors = {m["job"]: m["message"] for m in got if m["type"] == "error"}
    assert errors["j1"].startswith("The simulation failed (ZeroDivisionError: division by zero in a kernel).")
    assert "not in your scenario" in errors["j1"] and "Traceback" not in errors["j1"]
    assert errors["j2"].startswith("x.yaml, line 2, field system: unknown system 'mb4'. Did you mean 'mb41'?")
    assert [m["type"] for m in got if m["job"] == "j1"] == ["started", "error", "done"]
    log = capsys.readouterr().err
    assert "Traceback" in log and "ZeroDivisionError" in log and "job j1 (boom) failed" in log
    assert "job j2" not in log  # a scenario problem is no fault: no traceback


def test_check_a_whole_file_study_without_a_text_loader(monkeypatch):
    """A whole-file study kind that reads only files is checked from a private copy, and its
    message names the page's file, not the copy."""
    import sim.lethality as leth

    monkeypatch.delattr(leth, "load_study_text")
    text = (ROOT / "scenarios/studies/lethality-41-vs-d10.yaml").read_text()
    assert check_text(text, "studies/l.yaml")["ok"]
    info = check_text(text.replace("kind: lethality", "kind: lethality\n  sistems: [mb41]"), "studies/l.yaml")
    assert not info["ok"] and info["message"].startswith("studies/l.yaml, line ") and "/tmp" not in info["message"]


# ---------------------------------------------------------------- one fight (the Fight tab)


def test_play_gives_sim_plays_events_for_the_editors_text():
    """The Fight tab's answer is ``sim play FILE --variant V --trial N --seed S --json``, event for
    event (4.1 gridless and the draft on positions); d10's text log comes a line an event; a study,
    a bad variant, a trial past 0 for d10 and a broken text are one sentence each."""
    from sim import api
    from sim.serve.play import play_text

    for rel, variant, trial in (("quickstart.yaml", "never boost", 3),
                                ("mb-draft/positions-draft.yaml", None, 1)):
        text = (ROOT / "scenarios" / rel).read_text()
        got = play_text(text, rel, variant, trial, 11)
        assert got["ok"] and got["trial"] == trial and got["seed"] == 11 and not got["cut"], got.get("message")
        cli = api.play(api.load(ROOT / "scenarios" / rel), variant=variant, seed=11, trial=trial, as_json=True)
        assert got["events"] == [json.loads(line) for line in cli.splitlines()]
        assert got["events"][-1]["event"] == "summary" and any(e["event"] == "outcome" for e in got["events"])
    d10 = play_text((ROOT / "scenarios/d10/duel.yaml").read_text(), "d10/duel.yaml", None, 0, None)
    assert d10["ok"] and d10["system"] == "d10" and all(e["event"] == "line" for e in d10["events"])
    cli = api.play(api.load(ROOT / "scenarios/d10/duel.yaml")).splitlines()
    assert [("  " * e["depth"], e["text"]) for e in d10["events"]] == \
        [(" " * (len(x) - len(x.lstrip(" "))), x.strip()) for x in cli]  # indents of whole pairs of spaces
    again = play_text((ROOT / "scenarios/d10/duel.yaml").read_text(), "d10/duel.yaml", None, 0, None)
    assert again["events"] == d10["events"]  # a second play in the process (d10's play.py once shadowed play())
    for text, variant, trial, words in [
        (QUICKSTART, "nevr boost", 0, "no variant 'nevr boost'. Did you mean 'never boost'?"),
        ((ROOT / "scenarios/d10/duel.yaml").read_text(), None, 2, "--trial and --json are for mb41 and mb-draft"),
        ((ROOT / "scenarios/studies/compare-inflict.yaml").read_text(), None, 0, "open one of its scenarios"),
        (QUICKSTART.replace("system: mb41", "system: mb4"), None, 0, "unknown system 'mb4'")]:
        got = play_text(text, "x.yaml", variant, trial, None)
        assert not got["ok"] and words in got["message"], got
