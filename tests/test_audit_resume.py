"""``sim audit`` with the study guarantees (issues 36 and 39): a checkpoint of the arms done,
a stop within seconds that keeps them and names the exact command that continues,
``--resume`` to the tables of an uninterrupted audit, a checkpoint of other options refused.

One small reference encounter (the bundled d10 duo against Brute without its yardstick:
two policies x (base + entries)) keeps these quick.
"""
from __future__ import annotations

import os
import select
import shlex
import signal
import subprocess
import threading
import time
from pathlib import Path

import pandas as pd
import pytest
import yaml

from helpers import ctrl_c_reaches_it
from test_cli import ROOT, SIM

from sim import api, runner

ONLY = ["Awareness", "Enhanced Outfit"]


@pytest.fixture(scope="module")
def encounter(tmp_path_factory) -> Path:
    d = yaml.safe_load((ROOT / "scenarios" / "audit" / "d10" / "duo-vs-brute.yaml").read_text())
    del d["study"]["yardstick"]
    f = tmp_path_factory.mktemp("enc") / "duo.yaml"
    f.write_text(yaml.safe_dump(d, sort_keys=False))
    return f


def _tables(res) -> dict:
    return {(s.title, k): t for s in res.sections for k, t in s.tables.items()}


def _same_tables(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for k in a:
        pd.testing.assert_frame_equal(a[k], b[k], obj=str(k))


def _csv(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` as read back from its CSV (what the report holds)."""
    import io

    return pd.read_csv(io.StringIO(df.to_csv(index=False)))


def _ckpt(out: Path) -> Path:
    from sim.audit_run import checkpoint_path

    return checkpoint_path("d10", out=out)


def test_a_cancelled_audit_keeps_its_rows_and_resumes_to_the_same_tables(encounter, tmp_path, monkeypatch):
    from sim.study import checkpoint

    monkeypatch.setattr(checkpoint, "SAVE_EVERY_S", 0.0)
    kw = dict(encounters=[encounter], only=ONLY, trials=3000)
    ref = api.audit("d10", write=False, **kw)
    stop, seen = threading.Event(), []

    def progress(done, total, estimate):
        seen.append((done, total))
        if done >= total // 2:
            stop.set()

    out = tmp_path / "out"
    with pytest.raises(runner.RunCancelled) as info:
        api.audit("d10", out=out, progress=progress, cancel=stop, **kw)
    e = info.value
    assert seen[0] == (0, 2 * 3 * 3000)  # 2 policies x (the base + 2 entries) x 3,000 trials
    assert e.checkpoint == _ckpt(out) and e.checkpoint.is_file() and not out.exists()
    assert e.resume == (f"sim audit d10 --encounters {encounter} --only Awareness 'Enhanced Outfit' "
                        f"--trials 3000 --out {out} --resume")
    from sim.study.checkpoint import read

    meta, streams = read(e.checkpoint)
    kept = sum(done for _k, _c, done in streams.values())
    assert meta["audit"] == "d10" and not meta["complete"] and 0 < kept < seen[0][1]
    res = api.audit("d10", out=out, resume=True, **kw)
    _same_tables(_tables(ref), _tables(res))
    assert (out / "audit.csv").is_file() and not e.checkpoint.exists()


def _no_play(monkeypatch):
    import sim.trials

    def boom(*a, **k):
        raise AssertionError("a trial was played")

    monkeypatch.setattr(sim.trials, "trial_columns", boom)


@pytest.mark.parametrize("change, said", [
    (["--trials", "200"], "trials per arm: 300 there, 200 now"),
    (["--trials", "300", "--seed", "5"], "--seed: default there, 5 now"),
    (["--trials", "300", "--only", "Awareness"], "--only: ['Awareness', 'Enhanced Outfit'] there, ['Awareness'] now"),
])
def test_a_resume_with_other_options_is_refused_in_one_line(encounter, tmp_path, monkeypatch, capsys, change, said):
    from sim import cli

    out = tmp_path / "out"
    stop = threading.Event()
    stop.set()  # stops at once: a checkpoint with the arms built and no trial
    with pytest.raises(runner.RunCancelled):
        api.audit("d10", encounters=[encounter], only=ONLY, trials=300, out=out, cancel=stop)
    assert _ckpt(out).is_file()
    _no_play(monkeypatch)
    argv = ["audit", "d10", "--encounters", str(encounter), "--out", str(out), "--resume", "--quiet"]
    rc = cli.main(argv + (change if "--only" in change else change + ["--only", *ONLY]))
    err = capsys.readouterr().err.strip()
    assert rc == 2 and "Traceback" not in err and err.count("\n") == 0, err
    assert "is of another audit" in err and said in err, err
    assert _ckpt(out).is_file()  # left as it was


def test_ctrl_c_names_the_resume_command_which_gives_the_same_tables(encounter, tmp_path):
    out = tmp_path / "out"
    # long enough that the Ctrl-C, sent once its checkpoint keeps some rows, finds it running (a
    # warm d10 audit plays 150,000 trials in about a second)
    argv = ["audit", "d10", "--encounters", encounter, "--only", *ONLY, "--trials", 400_000, "--out", out]
    env = {k: v for k, v in os.environ.items() if k != "SIM_DEBUG"}
    env["MGSIM_CHECKPOINT_EVERY_S"] = "0"
    p = subprocess.Popen(SIM + [str(a) for a in argv] + ["--progress", "plain"], cwd=tmp_path, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=ctrl_c_reaches_it)
    err, deadline = "", time.monotonic() + 300
    while "progress:" not in err and time.monotonic() < deadline and p.poll() is None:
        if select.select([p.stderr], [], [], 1.0)[0]:
            err += p.stderr.readline()
    from sim.study.checkpoint import read

    def kept():  # rows its checkpoint holds (a cold run compiles first: nothing to keep before)
        try:
            return sum(done for _k, _c, done in read(_ckpt(out))[1].values())
        except Exception:  # noqa: BLE001 - not written yet, or being replaced
            return 0

    while kept() == 0 and time.monotonic() < deadline and p.poll() is None:
        time.sleep(0.02)
    p.send_signal(signal.SIGINT)
    t0 = time.monotonic()
    _o, rest = p.communicate(timeout=60)
    err += rest
    assert p.returncode == 130 and time.monotonic() - t0 < 10, err
    assert "Traceback" not in err and str(_ckpt(out)) in err, err
    _meta, streams = read(_ckpt(out))
    assert 0 < sum(done for _k, _c, done in streams.values()) < 6 * 400_000  # stopped halfway, rows kept
    command = err.split("Continue with `")[1].split("`")[0]
    assert shlex.split(command) == ["sim", *map(str, argv), "--resume"]
    again = subprocess.run(SIM + shlex.split(command)[1:] + ["--quiet"], cwd=tmp_path, env=env,
                           capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    ref = api.audit("d10", encounters=[encounter], only=ONLY, trials=400_000, write=False)
    got = pd.read_csv(out / "audit.csv")
    pd.testing.assert_frame_equal(got, _csv(ref.sections[0].tables["audit"]))


def test_a_failed_audit_report_keeps_the_checkpoint_for_sim_report(encounter, tmp_path, monkeypatch, capsys):
    from sim import cli
    from sim.report.atomic import ReportWriteError
    from sim.study import run as study_run

    def broken(*a, **k):
        raise OSError(28, "No space left on device")

    real = study_run.write_study
    monkeypatch.setattr(study_run, "write_study", broken)
    kw = dict(encounters=[encounter], only=ONLY, trials=300)
    with pytest.raises(ReportWriteError) as info:
        api.audit("d10", out=tmp_path / "out", **kw)
    ckpt = _ckpt(tmp_path / "out")
    assert str(ckpt) in str(info.value) and "sim report" in str(info.value) and ckpt.is_file()
    monkeypatch.setattr(study_run, "write_study", real)
    assert cli.main(["report", str(ckpt), "--out", str(tmp_path / "rep")]) == 0, capsys.readouterr().err
    want = api.audit("d10", write=False, **kw).sections[0].tables["audit"]
    got = pd.read_csv(tmp_path / "rep" / "audit.csv")
    pd.testing.assert_frame_equal(got, _csv(want))
