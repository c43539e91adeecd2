"""Studies that lose nothing and stop when asked (issue 39): ``sim study`` with the guarantees
of ``sim run``.

* ``--out`` under a file and a symlinked results folder are refused before anything plays;
* two studies of one file at once: the default directory keeps both, the same ``--out``
  refuses the second before it plays;
* kill -9 halfway, then ``--resume``: the same tables as an uninterrupted study;
* a misspelt path in the fifth policy of a policy-robustness study is refused before a
  trial plays (``sim study`` and ``sim validate``), at its own line;
* ``api.study(progress=, cancel=)``: a cancel keeps the rows, ``resume=True`` finishes them;
* a report that cannot be written keeps the checkpoint, which ``sim report`` writes;
* trial counts whose rows would not fit the memory limit are refused with the figure and
  the flag; Ctrl-C of a ``--no-write`` study does not suggest ``--resume``.

Small gridless duels keep these quick.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest

from helpers import ctrl_c_reaches_it
from study_helpers import duel_study
from test_cli import ROOT, SIM, assert_clean_failure, sim

from sim import api, runner

COMPARE = {"kind": "compare", "arms": [{"name": "base"}, {"name": "attack 5", "set": {"Akari.attack": 5}}],
           "independent_check": False}


def _file(tmp_path, study=None, name="s.yaml", **changes) -> Path:
    p = tmp_path / name
    p.write_text(duel_study(study or COMPARE, **changes), encoding="utf-8")
    return p


def _study_checkpoint():
    from sim.study import checkpoint

    return checkpoint


def _no_play(monkeypatch):
    """Make any trial played an error (what 'refused before anything plays' means)."""
    import sim.trials

    def boom(*a, **k):
        raise AssertionError("a trial was played")

    monkeypatch.setattr(sim.trials, "trial_columns", boom)


def test_out_under_a_file_is_refused_before_playing(tmp_path, monkeypatch):
    f = _file(tmp_path)
    (tmp_path / "afile").write_text("x")
    _no_play(monkeypatch)
    with pytest.raises(api_errors()) as info:
        api.study(f, trials=100, out=tmp_path / "afile" / "out")
    assert "is a file" in str(info.value)


def api_errors():
    from sim.report.atomic import OutputExistsError, OutputPathError

    return (OutputPathError, OutputExistsError)


def test_symlinked_results_folder_is_refused(tmp_path, monkeypatch):
    f = _file(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    root = tmp_path / "results"
    root.mkdir()
    (root / "duel-basic").symlink_to(elsewhere, target_is_directory=True)
    _no_play(monkeypatch)
    with pytest.raises(api_errors()[0], match="symbolic link"):
        api.study(f, trials=100, results_root=root)
    assert not any(elsewhere.iterdir())


def _popen(*args, env=None):
    env = {**os.environ, **(env or {})}
    env.pop("SIM_DEBUG", None)
    return subprocess.Popen(SIM + [str(a) for a in args], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def test_two_studies_at_once_default_dirs_both_kept_same_out_second_refused(tmp_path):
    f = _file(tmp_path)
    procs = [_popen("study", f, "--trials", 30_000, "--quiet", "--out", tmp_path / "same") for _ in range(2)]
    outs = [p.communicate(timeout=300) for p in procs]
    codes = sorted(p.returncode for p in procs)
    assert codes == [0, 2], outs
    err = next(e for p, (_o, e) in zip(procs, outs) if p.returncode == 2)
    assert ("another study is writing the same output" in err or "already exists" in err), err
    assert (tmp_path / "same" / "comparison.csv").is_file()
    # default directories: both complete, in two directories
    procs = [subprocess.Popen(SIM + ["study", str(f), "--trials", "30000", "--quiet"], cwd=tmp_path,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    dirs = sorted((tmp_path / "results" / "duel-basic").glob("study-*"))
    assert len(dirs) == 2 and all((d / "comparison.csv").is_file() for d in dirs)
    a, b = (pd.read_csv(d / "comparison.csv") for d in dirs)
    pd.testing.assert_frame_equal(a, b)


def test_kill_9_halfway_then_resume_gives_the_same_tables(tmp_path):
    f = _file(tmp_path)
    study_checkpoint = _study_checkpoint()
    trials = 400_000
    ref = api.study(f, trials=trials, out=tmp_path / "ref")
    ckpt = study_checkpoint.checkpoint_path("duel-basic", "", 7, out=tmp_path / "res")
    p = _popen("study", f, "--trials", trials, "--out", tmp_path / "res", "--quiet",
               env={"MGSIM_CHECKPOINT_EVERY_S": "0"})  # a save after every chunk
    deadline = time.monotonic() + 240
    while not ckpt.is_file() and p.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    p.send_signal(signal.SIGKILL)
    p.communicate(timeout=60)
    assert ckpt.is_file(), "the study wrote no checkpoint before it was killed"
    meta, streams = study_checkpoint.read(ckpt)
    kept = sum(done for _k, _c, done in streams.values())
    assert 0 < kept < 2 * trials and not meta["complete"]
    res = api.study(f, trials=trials, out=tmp_path / "res", resume=True)
    for name in ("comparison.csv",):
        pd.testing.assert_frame_equal(pd.read_csv(ref.out_dir / name), pd.read_csv(res.out_dir / name))
    assert not ckpt.exists()


ROBUST = {"kind": "policy-robustness",
          "policies": [{"name": "as written"},
                       {"name": "p2", "set": {"Akari.policy.boost": "always"}},
                       {"name": "p3", "set": {"Shade.policy.boost": "always"}},
                       {"name": "p4", "set": {"Akari.policy.boost": "when-losing"}},
                       {"name": "p5", "set": {"Akari.policy.bost": "always"}}],
          "study": {"kind": "compare", "arms": [{"name": "base"}, {"name": "a5", "set": {"Akari.attack": 5}}]}}


def test_a_late_policy_typo_is_refused_before_anything_plays(tmp_path, monkeypatch):
    f = _file(tmp_path, ROBUST)
    line = next(i for i, t in enumerate(f.read_text().splitlines(), 1) if "bost" in t)
    _no_play(monkeypatch)
    from sim.scenario import ScenarioError

    with pytest.raises(ScenarioError) as info:
        api.study(f, trials=100, out=tmp_path / "out")
    assert f"line {line}" in str(info.value) and "Did you mean 'boost'" in str(info.value)
    assert not (tmp_path / "out").exists() and not list(tmp_path.glob(".out.*"))
    with pytest.raises(ScenarioError, match=f"line {line}"):
        api.validate_study(f)


def test_validate_builds_every_arm_and_counts_them(tmp_path):
    f = _file(tmp_path, {**ROBUST, "policies": ROBUST["policies"][:4]})
    res = sim("validate", f, "--json")
    assert res.returncode == 0, res.stderr
    import json

    study = json.loads(res.stdout)["study"]
    assert study["kind"] == "policy-robustness" and study["streams"] == 8  # 4 policies x 2 arms played


def test_cancel_keeps_the_rows_and_resume_finishes_them(tmp_path, monkeypatch):
    f = _file(tmp_path)
    monkeypatch.setattr(_study_checkpoint(), "SAVE_EVERY_S", 0.0)
    monkeypatch.setattr(runner, "CHUNK_TARGET_S", 0.01)
    ref = api.study(f, trials=40_000, write=False)
    stop = threading.Event()
    seen = []

    def progress(done, total, estimate):
        seen.append((done, total))
        if done >= 20_000:
            stop.set()

    with pytest.raises(runner.RunCancelled) as info:
        api.study(f, trials=40_000, out=tmp_path / "out", progress=progress, cancel=stop)
    e = info.value
    assert e.checkpoint is not None and e.checkpoint.is_file() and "--resume" in e.message()
    assert seen[0] == (0, 80_000) and 20_000 <= seen[-1][0] < 80_000
    assert not (tmp_path / "out").exists()
    res = api.study(f, trials=40_000, out=tmp_path / "out", resume=True)
    pd.testing.assert_frame_equal(ref.sections[0].tables["comparison"], res.sections[0].tables["comparison"])


def test_a_failed_report_keeps_the_checkpoint_for_sim_report(tmp_path, monkeypatch, capsys):
    f = _file(tmp_path)
    from sim.report.atomic import ReportWriteError
    from sim.study import run as study_run

    real = study_run.write_study

    def broken(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(study_run, "write_study", broken)
    with pytest.raises(ReportWriteError) as info:
        api.study(f, trials=3_000, out=tmp_path / "out")
    ckpt = _study_checkpoint().checkpoint_path("duel-basic", "", 7, out=tmp_path / "out")
    assert str(ckpt) in str(info.value) and "sim report" in str(info.value) and ckpt.is_file()
    monkeypatch.setattr(study_run, "write_study", real)
    from sim import cli

    rc = cli.main(["report", str(ckpt), "--out", str(tmp_path / "rep")])
    assert rc == 0, capsys.readouterr().err
    ref = api.study(f, trials=3_000, write=False)
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "rep" / "comparison.csv"),
                                  ref.sections[0].tables["comparison"].pipe(_round_trip))


def _round_trip(df):
    import io

    buf = io.StringIO()
    df.to_csv(buf, index=False)
    buf.seek(0)
    return pd.read_csv(buf)


def test_memory_beyond_the_limit_is_refused_with_the_figure_and_the_flag(tmp_path):
    f = _file(tmp_path)
    res = sim("study", f, "--trials", 1_000_000_000, "--no-write")
    err = assert_clean_failure(res, "--max-memory", "GB")
    assert "86.0 GB" in err  # 2 arms x 10^9 trials x 43 bytes
    res = sim("study", f, "--trials", 2_000, "--no-write", "--max-memory", "0.00001")
    assert_clean_failure(res, "more than the limit of 1e-05 GB")


def test_ctrl_c_of_a_no_write_study_does_not_suggest_resume(tmp_path):
    f = _file(tmp_path)
    p = subprocess.Popen(SIM + ["study", str(f), "--trials", "50000000", "--no-write", "--progress", "plain",
                                "--max-memory", "100"],
                         cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=ctrl_c_reaches_it)
    time.sleep(1.0)
    # a cold compile may take minutes while the other test worker compiles too: wait for the
    # study's progress (an interrupt before it is the CLI's "nothing was written", not this test's)
    deadline = time.monotonic() + 600
    import select

    buf = ""
    while "progress" not in buf and time.monotonic() < deadline and p.poll() is None:
        r, _, _ = select.select([p.stderr], [], [], 1.0)
        if r:
            buf += p.stderr.readline()
    assert "progress" in buf, buf
    p.send_signal(signal.SIGINT)
    t0 = time.monotonic()
    _out, err = p.communicate(timeout=60)
    assert time.monotonic() - t0 < 10
    assert p.returncode == 130 and "--resume" not in err and "nothing is kept" in err, err


def test_ctrl_c_between_two_chunks_of_a_no_write_study_is_the_same_stop(tmp_path, monkeypatch):
    """A Ctrl-C that lands between two chunks (outside a chunk's guard) of a study that writes
    nothing: the same :class:`sim.runner.RunCancelled` as one inside a chunk, "nothing is kept"
    with the trials done, not a bare interrupt (the CLI said only "nothing was written")."""
    from sim.study.arms import StudyContext

    f = _file(tmp_path)
    real, seen = StudyContext._took, []

    def took(self, arm, count, rows):
        real(self, arm, count, rows)
        seen.append(count)
        raise KeyboardInterrupt  # as the signal would, right after a chunk is kept

    monkeypatch.setattr(StudyContext, "_took", took)
    try:
        api.study(f, trials=20_000, write=False)
    except runner.RunCancelled as e:
        stop = e
    except KeyboardInterrupt:  # a bare one would end pytest's session: fail this test instead
        pytest.fail("a bare KeyboardInterrupt left the study")
    else:
        pytest.fail("the study did not stop")
    assert stop.checkpoint is None and "nothing is kept" in stop.message()
    assert sum(stop.done.values()) == seen[0] > 0
