"""The cross-system lethality study (sim.lethality, sim.encounter): one encounter
mapped to mb41, mb-draft and d10, calibrated, measured on shared definitions."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sim import encounter as E
from sim import lethality as L
from sim.scenario.errors import ScenarioError

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "scenarios" / "studies" / "lethality-41-vs-d10.yaml"


def _study(tmp_path, text: str):
    p = tmp_path / "s.yaml"
    p.write_text(text)
    return L.load_study(p)


SMALL = """
name: small
seed: 3
trials: 400
study: {kind: lethality, systems: [mb41, d10], calibrate: {win_rate: 0.6, trials: 300}}
encounter:
  girls: [{name: Akari, attack: 5, defence: 3, support: 2}, {name: Beni, attack: 2, defence: 5, support: 3}]
  enemies: [{name: Knight, attack: 8, defence: 5, support: 4, damage_bonus: 3}]
systems:
  d10: {rules: {permanent_wounds: "on"}}
"""


def test_mapping_is_the_documented_one(tmp_path):
    st = _study(tmp_path, SMALL)
    gen = L.scenarios(st)
    akari = gen["d10"]["sides"][0]["members"][0]
    mp = E.Mapping()
    assert akari["abilities"]["strength"] == 5 + mp.attack_offset   # Attack -> Strength (melee)
    assert akari["abilities"]["agility"] == 3 + mp.defence_offset   # Defence -> Agility (dodge)
    assert akari["abilities"]["vitality"] == 6                       # Resolve 18 -> Vitality 6
    assert akari["defence"] == "dodge"
    # the monster's Vitality comes from its 4.1 Resolve (from its power level when not given)
    res = gen["mb41"]["sides"][1]["members"][0]["resolve"]
    assert gen["d10"]["sides"][1]["members"][0]["abilities"]["vitality"] == round(res / 3)
    # per-system overrides are merged in; deadly plays all_dead / grim
    assert gen["d10"]["rules"]["permanent_wounds"] == "on"
    assert gen["d10"]["rules"]["mode"] == "grim"
    assert gen["mb41"]["rules"]["defeat"] == "all_dead"
    assert gen["mb41"]["sides"][1]["members"][0]["policy"]["finish_downed"] is True


def test_bad_study_files_get_clear_errors(tmp_path):
    with pytest.raises(ScenarioError, match="systems"):
        _study(tmp_path, SMALL.replace("[mb41, d10]", "[mb41, d11]"))
    with pytest.raises(ScenarioError, match="win_rate"):
        _study(tmp_path, SMALL.replace("win_rate: 0.6", "win_rate: 1.5"))
    with pytest.raises(ScenarioError, match="attak"):
        _study(tmp_path, SMALL.replace("attack: 8", "attak: 8"))


def test_calibration_bisects_to_the_closest_value(monkeypatch):
    """On a known decreasing win-rate curve the search returns the value closest to the target."""
    curve = lambda v: 1.0 / (1.0 + np.exp((v - 37.3) / 6.0))  # noqa: E731 - 50% at 37.3
    monkeypatch.setattr(L, "_win_rate", lambda system, data, trials, key, streams=None:
                        (curve(L._get_path(data, "resolve")), 0.0, 1.0))
    data = {"sides": [{"members": []}, {"members": [{"name": "K", "resolve": 10}]}]}
    for target in (0.5, 0.8, 0.2):
        out, rows = L.calibrate("mb41", data, L.Calibrate(win_rate=target), key=0)
        best = min(range(1, 301), key=lambda v: abs(curve(v) - target))
        assert L._get_path(out, "resolve") == best
        assert sum(r["chosen"] for r in rows) == 1
        assert len(rows) <= 12  # a bisection, not a scan


def test_study_runs_calibrates_and_writes(tmp_path):
    st = _study(tmp_path, SMALL)
    fr = L.run(st)
    m = fr["metrics"].set_index(["system", "metric"])["value"]
    for s in ("mb41", "d10"):
        assert m[(s, "p_girl_dead")] <= m[(s, "p_girl_out")] + 1e-12
        d = fr["deaths"][fr["deaths"]["system"] == s]
        assert d["share"].sum() == pytest.approx(1.0)
        assert (d["girls_dead"] * d["share"]).sum() == pytest.approx(m[(s, "deaths_per_fight")])
        assert abs(m[(s, "win_rate")] - 0.6) < 0.12  # calibrated (300-trial steps, 400 trials)
        assert fr["calibration"].query("system == @s")["chosen"].sum() == 1
    # in Guns and Grim mode a girl taken out is dead
    assert m[("d10", "p_girl_dead")] == pytest.approx(m[("d10", "p_girl_out")])
    assert set(fr["check"]["system"]) == {"mb41", "d10"}
    from sim import api

    res = api.study(tmp_path / "s.yaml", out=tmp_path / "out")
    out = res.out_dir
    for f in ("lethality.csv", "deaths.csv", "survival.csv", "calibration.csv", "mapping.csv",
              "check.csv", "lethality.png", "report.html", "study.json", "scenarios/d10.yaml"):
        assert (out / f).is_file(), f
    assert res.sections[0].reading == fr["reading"]  # the same seed and trials: the same study
    assert "Lethality across rule systems" in (out / "report.html").read_text()


def test_a_target_out_of_range_is_said(monkeypatch):
    """A system whose parameter range cannot reach the target is flagged, and the reading says so."""
    monkeypatch.setattr(L, "_win_rate", lambda system, data, trials, key, streams=None: (0.4, 0.38, 0.42))
    data = {"sides": [{"members": []}, {"members": [{"name": "K", "resolve": 10}]}]}
    _, rows = L.calibrate("mb41", data, L.Calibrate(win_rate=0.75), key=0)
    assert [r["target_reached"] for r in rows] == [False]
    import pandas as pd

    metrics = pd.DataFrame([{"system": "mb41", "metric": m, "value": 0.4, "lo": 0.38, "hi": 0.42}
                            for m in ("win_rate", "deaths_per_fight", "p_girl_dead")])
    text = L.reading(metrics, L.Calibrate(win_rate=0.75), pd.DataFrame(rows))
    assert "could not be brought to the target" in text
    assert "could not" not in L.reading(metrics, L.Calibrate(win_rate=0.75),
                                        pd.DataFrame(rows).assign(target_reached=True))


def test_the_bundled_example_loads():
    st = L.load_study(EXAMPLE)
    assert st.study.systems == ["mb41", "mb-draft", "d10"]
    assert set(L.scenarios(st, trials=10)) == {"mb41", "mb-draft", "d10"}


SWARM = """
name: swarm
seed: 4
trials: 600
study: {kind: lethality, systems: [mb41, d10], calibrate: {win_rate: 0.6, trials: 300},
        sensitivity: {offsets: [-2, 2], fields: [attack_offset], trials: 300}}
encounter:
  girls: [{name: Akari, attack: 5, defence: 3, support: 2}, {name: Beni, attack: 2, defence: 5, support: 3}]
  enemies:
    - {name: Knight, attack: 6, defence: 4, support: 4}
    - {name: Imp, kind: minion, count: 3, attack: 3, hp: 4, passive_defence: 5}
"""


def test_lethality_reports_the_difference_deaths_per_won_fight_and_a_sensitivity_band(tmp_path):
    """Issue 36: the difference between systems with its interval, deaths per won and per
    lost fight, each girl's survival, the mapping-sensitivity band beside the point answer,
    and a swarm of minions (count) in the encounter."""
    st = _study(tmp_path, SWARM)
    gen = L.scenarios(st)
    imp41 = gen["mb41"]["sides"][1]["members"][1]
    assert imp41["kind"] == "minion" and imp41["count"] == 3
    assert [m["name"] for m in gen["d10"]["sides"][1]["members"]] == ["Knight", "Imp 1", "Imp 2", "Imp 3"]
    fr = L.run(st)
    d = fr["differences"].set_index("metric")
    assert {"deaths_per_fight", "deaths_per_won_fight", "p_girl_dead", "win_rate"} <= set(d.index)
    assert (d["lo"] <= d["diff"]).all() and (d["diff"] <= d["hi"]).all()
    c = fr["conditional"]
    assert set(c["fights"]) == {"all fights", "won fights", "lost fights"}
    for s in ("mb41", "d10"):
        sub = c[c["system"] == s].set_index("fights")
        n_won = sub.loc["won fights", "n"]
        assert n_won + sub.loc["lost fights", "n"] <= sub.loc["all fights", "n"]
    assert set(fr["girls"]["girl"]) == {"Akari", "Beni"} and fr["girls"]["survival"].between(0, 1).all()
    assert len(set(fr["sensitivity"]["mapping"])) == 3  # as written, attack_offset -2 and +2
    text = fr["reading"]
    assert text.startswith("Girls' win rate, calibrated to 60%")
    assert "per won fight" in text and "girls dead a fight [" in text and "Over reasonable mappings" in text
    assert fr["assumptions"]


# ---------------------------------------------------------------- the study guarantees (issues 36, 39)

#: SMALL with a sensitivity band of one mapping (quick)
LEAN = SMALL.replace("calibrate: {win_rate: 0.6, trials: 300}}", "calibrate: {win_rate: 0.6, trials: 300},\n"
                     "        sensitivity: {offsets: [2], fields: [attack_offset], trials: 300}}")


def _tables(frames_or_section) -> dict:
    if isinstance(frames_or_section, dict):
        return {stem: frames_or_section[key] for stem, key in L.TABLES.items() if key in frames_or_section}
    return dict(frames_or_section.tables)


def test_a_stopped_lethality_study_keeps_its_fights_and_resumes_to_the_same_tables(tmp_path, monkeypatch):
    """The workbench's Stop (``cancel``) and Ctrl-C stop a lethality study within a chunk, keep the
    fights played in a study checkpoint and name the exact command; ``--resume`` gives the tables
    of an uninterrupted study (and of :func:`sim.lethality.run` playing at once)."""
    import threading

    import pandas as pd

    from sim import api, runner
    from sim.study import checkpoint

    monkeypatch.setattr(checkpoint, "SAVE_EVERY_S", 0.0)
    f = tmp_path / "small.yaml"
    f.write_text(LEAN)
    ref = _tables(L.run(L.load_study(f), trials=1000))
    stop, seen = threading.Event(), []

    def progress(done, total, estimate):
        seen.append((done, total, estimate))
        if done >= total // 2:
            stop.set()

    out = tmp_path / "out"
    with pytest.raises(runner.RunCancelled) as info:
        api.study(f, trials=1000, out=out, progress=progress, cancel=stop)
    e = info.value
    assert e.resume == f"sim study {f} --out {out} --trials 1000 --resume" and e.checkpoint.is_file()
    assert seen[0][0] == 0 and seen[0][2] is True and not out.exists()  # the total is an estimate
    meta, streams = checkpoint.read(e.checkpoint)
    assert meta["file_kind"] == "lethality" and 0 < sum(d for _k, _c, d in streams.values()) < seen[0][1]
    res = api.study(f, trials=1000, out=out, resume=True)
    got = _tables(res.sections[0])
    assert got.keys() == ref.keys()
    for stem in ref:
        pd.testing.assert_frame_equal(ref[stem], got[stem], obj=stem)
    assert (out / "lethality.csv").is_file() and not e.checkpoint.exists()


def test_a_failed_lethality_report_keeps_the_checkpoint_for_sim_report(tmp_path, monkeypatch, capsys):
    import pandas as pd

    from sim import api, cli
    from sim.report.atomic import ReportWriteError
    from sim.study import checkpoint
    from sim.study import run as study_run

    f = tmp_path / "small.yaml"
    f.write_text(LEAN)

    def broken(*a, **k):
        raise OSError(28, "No space left on device")

    real = study_run.write_study
    monkeypatch.setattr(study_run, "write_study", broken)
    with pytest.raises(ReportWriteError) as info:
        api.study(f, trials=400, out=tmp_path / "out")
    ckpt = checkpoint.checkpoint_path("small", "", 3, out=tmp_path / "out")
    assert str(ckpt) in str(info.value) and "sim report" in str(info.value) and ckpt.is_file()
    monkeypatch.setattr(study_run, "write_study", real)
    assert cli.main(["report", str(ckpt), "--out", str(tmp_path / "rep")]) == 0, capsys.readouterr().err
    want = L.run(L.load_study(f), trials=400)["metrics"]
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "rep" / "lethality.csv"), want, check_dtype=False)
