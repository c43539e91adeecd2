"""Runs that lose nothing (issue 22): each failure the issue measured, held.

* a ``$...$`` name is drawn as plain text (it crashed the charts after the run);
* an output that cannot be written is refused before simulating, and one that
  fails late keeps its counters, which ``sim report`` writes;
* two runs of one scenario started together both complete, in two directories;
* ``--resume`` with other trials is refused; without a checkpoint it says so;
* ANSI escapes in names are refused at load; formula-like names are
  neutralised in every CSV (numbers stay numbers);
* the default output path refuses a symlinked ``results/<scenario>``;
* progress on a stderr that is not a terminal: lines with a percentage and ETA.

Small gridless duels with few trials keep these quick (they also run with
``NUMBA_DISABLE_JIT=1``).
"""
from __future__ import annotations

import copy
import csv
import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from helpers import duel_data, load_data
from sim import api, cli, progress, runner
from sim.report.atomic import OutputExistsError, OutputPathError, ReportWriteError
from sim.scenario import ScenarioError, load_scenario_text

ROOT = Path(__file__).resolve().parents[1]
DOLLAR = r"$\undefinedcmd{x}$"


def _named(a="Akari", b="Shade", side_a="girls", side_b="youma", variants=None) -> dict:
    d = duel_data(a={"name": a}, b={"name": b})
    d["sides"][0]["name"], d["sides"][1]["name"] = side_a, side_b
    d["name"] = "lossless"
    if variants:
        d["variants"] = [{"name": v} for v in variants]
    return d


def _write_yaml(tmp_path, data, name="s.yaml") -> Path:
    p = tmp_path / name
    p.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return p


def _counts(result):
    return result.summary[["variant", "trials", "wins", "losses", "draws"]].reset_index(drop=True)


def _main(argv, capsys):
    env_debug = os.environ.pop("SIM_DEBUG", None)
    try:
        rc = cli.main([str(a) for a in argv])
    finally:
        if env_debug is not None:
            os.environ["SIM_DEBUG"] = env_debug
    out, err = capsys.readouterr()
    return rc, out, err


# ------------------------------------------------------------- plain-text names


def test_dollar_names_are_drawn_as_plain_text(tmp_path):
    """Math text in a combatant, side or variant name used to crash the charts."""
    loaded = load_data(_named(a=DOLLAR, side_a=DOLLAR + " girls", variants=[r"$\undefinedcmd{y}$", "two"]))
    result, out = api.run(loaded, trials=400, out=tmp_path / "run")
    assert (out / "report.html").is_file() and (out / "win_rate.png").is_file()
    assert DOLLAR in (out / "combatants.csv").read_text(encoding="utf-8")


# ------------------------------------------------------------- late failures


def test_out_whose_parent_is_a_file_is_refused_before_simulating(tmp_path, monkeypatch, capsys):
    (tmp_path / "afile").write_text("x")
    calls = []
    monkeypatch.setattr(runner, "_task", lambda *a, **k: calls.append(a))
    scen = _write_yaml(tmp_path, _named())
    rc, out, err = _main(["run", scen, "--trials", 100, "--out", tmp_path / "afile" / "run"], capsys)
    assert rc == 2 and calls == []
    assert "is a file, not a directory" in err and "internal error" not in err
    with pytest.raises(OutputPathError):
        api.run(load_data(_named()), trials=100, out=tmp_path / "afile" / "sub" / "run")
    assert calls == []


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes into read-only folders")
def test_out_in_a_read_only_folder_is_refused_before_simulating(tmp_path, monkeypatch):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    calls = []
    monkeypatch.setattr(runner, "_task", lambda *a, **k: calls.append(a))
    try:
        with pytest.raises(OutputPathError, match="cannot create a directory"):
            api.run(load_data(_named()), trials=100, out=ro / "run")
    finally:
        ro.chmod(0o755)
    assert calls == []


def test_late_write_failure_keeps_the_counters_and_sim_report_writes_them(tmp_path, monkeypatch, capsys):
    """The output directory is taken while the run simulates: the run fails at the
    end, says where its counters are, and ``sim report`` writes the same tables."""
    monkeypatch.setattr(runner, "CHUNK", 500)
    data = _named(variants=["one", "two"])
    scen = _write_yaml(tmp_path, data)
    loaded = api.load(scen)
    reference, _ = api.run(loaded, trials=1_500, write=False)

    target = tmp_path / "run"
    real_task = runner._task

    def squatter(*args, **kw):  # someone writes into the output directory meanwhile
        target.mkdir(exist_ok=True)
        (target / "theirs.txt").write_text("mine")
        return real_task(*args, **kw)

    monkeypatch.setattr(runner, "_task", squatter)
    rc, out, err = _main(["run", scen, "--trials", 1_500, "--out", target, "--quiet"], capsys)
    assert rc == 2 and "internal error" not in err
    ckpt = api.checkpoint_path(loaded, None, "results", target)
    assert ckpt.is_file(), err
    assert str(ckpt) in err and "sim report" in err
    monkeypatch.setattr(runner, "_task", real_task)

    rc, out, err = _main(["report", ckpt, "--out", tmp_path / "again", "--json"], capsys)
    assert rc == 0, err
    written = pd.read_csv(tmp_path / "again" / "summary.csv")
    assert written[["variant", "trials", "wins", "losses", "draws"]].equals(_counts(reference))
    assert (tmp_path / "again" / "report.html").is_file()
    reported, _ = api.report(ckpt, out=tmp_path / "third")
    for name, df in reference.tables.items():
        assert reported.tables[name].equals(df), name


def test_sim_report_refuses_an_unfinished_or_foreign_checkpoint(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(runner, "CHUNK", 500)
    loaded = load_data(_named())
    calls = {"n": 0}
    real_task = runner._task

    def stop_at_second(*a, **k):
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt
        return real_task(*a, **k)

    monkeypatch.setattr(runner, "_task", stop_at_second)
    with pytest.raises(KeyboardInterrupt):
        api.run(loaded, trials=2_000, out=tmp_path / "run")
    ckpt = api.checkpoint_path(loaded, None, "results", tmp_path / "run")
    rc, _, err = _main(["report", ckpt], capsys)
    assert rc == 2 and "has not finished" in err and "--resume" in err
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    rc, _, err = _main(["report", tmp_path / "junk.npz"], capsys)
    assert rc == 2 and "not a readable mgsim checkpoint" in err


# ------------------------------------------------------------- concurrent runs


def test_run_ids_differ_within_one_microsecond():
    ids = {api.run_id(7, "ab" * 32) for _ in range(200)}
    assert len(ids) == 200
    assert all(f"-p{os.getpid()}-" in i for i in ids)


def test_two_runs_of_one_scenario_at_once_both_complete(tmp_path, monkeypatch):
    """Both runs hold a checkpoint at the same time (a barrier inside the
    simulation): the second takes its own, both write their own directory."""
    monkeypatch.setattr(runner, "CHUNK", 500)
    loaded = load_data(_named())
    barrier = threading.Barrier(2, timeout=60)
    serial = threading.Lock()  # the kernels themselves run one at a time
    real_task = runner._task
    seen = []

    def meet(*a, **k):
        try:
            barrier.wait()
        except threading.BrokenBarrierError:
            pass
        with serial:
            seen.append(sorted(p.name for p in (tmp_path / "lossless").glob(".checkpoint-*.lock")))
            return real_task(*a, **k)

    monkeypatch.setattr(runner, "_task", meet)
    outs, errors = [], []

    def one():
        try:
            outs.append(api.run(loaded, trials=1_000, results_root=tmp_path))
        except BaseException as e:  # noqa: BLE001 (reported below)
            errors.append(e)

    threads = [threading.Thread(target=one) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    dirs = {out for _, out in outs}
    assert len(dirs) == 2 and all((d / "report.html").is_file() for d in dirs)
    assert _counts(outs[0][0]).equals(_counts(outs[1][0]))
    assert max(len(s) for s in seen) == 2  # two checkpoints were in use together
    assert not list((tmp_path / "lossless").glob(".checkpoint-*.npz"))


def test_two_sim_run_processes_started_together_both_complete(tmp_path):
    scen = _write_yaml(tmp_path, _named())
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("SIM_DEBUG", None)
    cmd = [sys.executable, "-m", "sim", "run", str(scen), "--trials", "2000", "--json"]
    procs = [subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for _ in range(2)]
    results = [p.communicate(timeout=600) for p in procs]
    for p, (out, err) in zip(procs, results):
        assert p.returncode == 0, err
    import json

    dirs = {json.loads(out)["out_dir"] for out, _ in results}
    assert len(dirs) == 2
    assert all((tmp_path / d / "report.html").is_file() for d in dirs)


def test_a_second_run_into_the_same_out_is_refused_while_the_first_runs(tmp_path):
    loaded = load_data(_named())
    path = api.checkpoint_path(loaded, None, "results", tmp_path / "run")
    ckpt, lock, _ = runner.claim_checkpoint(path, shared=False)
    try:
        with pytest.raises(runner.RunError, match="another run is writing the same output"):
            api.run(loaded, trials=100, out=tmp_path / "run")
    finally:
        lock.release()


# ------------------------------------------------------------- resume


def _interrupted(tmp_path, monkeypatch, loaded, trials, **kw):
    monkeypatch.setattr(runner, "CHUNK", 500)
    monkeypatch.setattr(runner, "CHECKPOINT_EVERY_S", 0.0)
    real_task = runner._task
    calls = {"n": 0}

    def flaky(*a, **k):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real_task(*a, **k)

    monkeypatch.setattr(runner, "_task", flaky)
    with pytest.raises(KeyboardInterrupt):
        api.run(loaded, trials=trials, **kw)
    monkeypatch.setattr(runner, "_task", real_task)


def test_resume_with_other_trials_is_refused(tmp_path, monkeypatch, capsys):
    data = _named(variants=["one", "two"])
    scen = _write_yaml(tmp_path, data)
    loaded = api.load(scen)
    root = tmp_path / "results"
    _interrupted(tmp_path, monkeypatch, loaded, 3_000, results_root=root)
    ckpts = list((root / "lossless").glob(".checkpoint-*.npz"))
    assert len(ckpts) == 1
    with pytest.raises(runner.RunError, match=r"trials: 3,000 in the checkpoint, 1,000 now"):
        api.run(loaded, trials=1_000, results_root=root, resume=True)
    with pytest.raises(runner.RunError, match=r"precision: not set in the checkpoint, 0.01 now"):
        api.run(loaded, precision=0.01, results_root=root, resume=True)
    monkeypatch.chdir(tmp_path)  # the CLI's results root is ./results
    rc, _, err = _main(["run", scen, "--trials", 1_000, "--resume", "--quiet"], capsys)
    assert rc == 2 and "--trials 3000" in err and "internal error" not in err
    # the same options continue the run to the result of an uninterrupted one
    resumed, out = api.run(loaded, trials=3_000, results_root=root, resume=True)
    reference, _ = api.run(loaded, trials=3_000, write=False)
    assert _counts(resumed).equals(_counts(reference))
    assert not ckpts[0].exists()


def test_resume_without_a_checkpoint_says_so(tmp_path, capsys):
    loaded = load_data(_named())
    result, out = api.run(loaded, trials=300, results_root=tmp_path, resume=True)
    err = capsys.readouterr().err
    assert "no checkpoint of this scenario and seed" in err and "starting from trial 0" in err
    assert (out / "report.html").is_file()


# ------------------------------------------------------------- safe text out


@pytest.mark.parametrize("where", ["a", "side", "variant"])
def test_ansi_escapes_in_names_are_refused_at_load(tmp_path, where, capsys):
    bad = "\x1b[31mRed\x1b[0m"
    data = {"a": _named(a=bad), "side": _named(side_a=bad), "variant": _named(variants=[bad])}[where]
    with pytest.raises(ScenarioError, match="U\\+001B") as e:
        load_data(data)
    assert "\x1b" not in str(e.value)
    scen = _write_yaml(tmp_path, data)
    rc, out, err = _main(["validate", scen], capsys)
    assert rc == 2 and "\x1b" not in err and "control characters" in err


def test_formula_names_are_neutralised_in_every_csv(tmp_path):
    data = _named(a="=HYPERLINK(\"http://x\")", b="@Shade", side_a="+girls", side_b="-youma",
                  variants=["-evil", "=1+1"])
    result, out = api.run(load_data(data), trials=300, out=tmp_path / "run")
    csvs = sorted(out.glob("*.csv"))
    assert len(csvs) >= 4
    for path in csvs:
        with path.open(newline="", encoding="utf-8") as fh:
            rows = list(csv.reader(fh))
        for row in rows[1:]:
            for cell in row:
                if cell[:1] in ("=", "+", "@"):
                    raise AssertionError(f"{path.name}: formula cell {cell!r}")
                if cell.startswith("-"):
                    float(cell)  # a negative number, not text
    summary = pd.read_csv(out / "summary.csv")
    assert summary["variant"].tolist() == ["'-evil", "'=1+1"]
    assert summary["wins"].dtype.kind == "i"
    assert result.summary["variant"].tolist() == ["-evil", "=1+1"]  # the data itself is unchanged


def test_csv_safe_leaves_numbers_alone():
    from sim.report.write import csv_safe

    df = pd.DataFrame({"name": ["=x", "-y", "ok", "@z", "+w"], "n": [-1, 2, -3, 4, 5],
                       "f": [-1.5, 0.0, 1.0, -2.0, 3.0]})
    safe = csv_safe(df)
    assert safe["name"].tolist() == ["'=x", "'-y", "ok", "'@z", "'+w"]
    assert safe["n"].tolist() == [-1, 2, -3, 4, 5] and safe["f"].tolist() == [-1.5, 0.0, 1.0, -2.0, 3.0]
    assert df["name"].tolist()[0] == "=x"


def test_symlinked_results_folder_is_refused(tmp_path, monkeypatch, capsys):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "lossless").symlink_to(elsewhere, target_is_directory=True)
    calls = []
    monkeypatch.setattr(runner, "_task", lambda *a, **k: calls.append(a))
    with pytest.raises(OutputPathError, match="symbolic link"):
        api.run(load_data(_named()), trials=100, results_root=tmp_path / "results")
    scen = _write_yaml(tmp_path, _named())
    monkeypatch.chdir(tmp_path)
    rc, _, err = _main(["run", scen, "--trials", 100], capsys)
    assert rc == 2 and "symbolic link" in err
    assert calls == [] and list(elsewhere.iterdir()) == []


# ------------------------------------------------------------- progress


def test_progress_lines_on_a_stderr_that_is_not_a_terminal(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(runner, "CHUNK", 500)
    monkeypatch.setattr(runner, "CHUNK_TARGET_S", None)  # fixed chunks of CHUNK
    scen = _write_yaml(tmp_path, _named())
    rc, out, err = _main(["run", scen, "--trials", 2_000, "--no-write"], capsys)  # auto: not a tty
    assert rc == 0
    lines = [ln for ln in err.splitlines() if ln.startswith("progress:")]
    assert lines and "/2,000 trials (50.0%)" in lines[0] and "ETA" in lines[0]  # from the second chunk
    assert lines[-1].startswith("progress: done, 2,000 trials")
    rc, out, err = _main(["run", scen, "--trials", 2_000, "--no-write", "--progress", "none"], capsys)
    assert "progress:" not in err
    rc, out, err = _main(["run", scen, "--trials", 2_000, "--no-write", "--quiet"], capsys)
    assert "progress:" not in err


def test_precision_progress_is_an_estimate(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(runner, "CHUNK", 5_000)
    monkeypatch.setattr(progress, "PLAIN_EVERY_S", 0.0)
    scen = _write_yaml(tmp_path, _named())
    rc, out, err = _main(["run", scen, "--precision", "0.01", "--max-trials", "20000", "--no-write"], capsys)
    assert rc == 0
    lines = [ln for ln in err.splitlines() if ln.startswith("progress:") and "done" not in ln]
    assert lines and all("estimated from the precision" in ln and "ETA ~" in ln for ln in lines)


def test_progress_line_counts_from_a_fake_clock():
    now = [0.0]
    p = progress.Progress("plain", stream=open(os.devnull, "w"), clock=lambda: now[0])
    p.set_total(1_000)
    now[0] = 10.0
    p.update(100)   # first chunk after 10 s (compiling): no rate beyond it yet
    now[0] = 11.0
    p.update(100)   # 100 trials/s from then on
    assert p.line() == "progress: 200/1,000 trials (20.0%), 100 trials/s, elapsed 0:00:11, ETA 0:00:08"
    assert progress.trials_for_precision([0.5, 0.5, 0.0], 0.01) == 9604


def test_long_run_to_a_log_file_writes_percentage_and_eta(tmp_path):
    """``sim run ... 2>log``: a run of several chunks writes progress lines."""
    scen = _write_yaml(tmp_path, _named())
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("SIM_DEBUG", None)
    if env.get("NUMBA_DISABLE_JIT") == "1":
        pytest.skip("needs the compiled kernels (a million trials)")
    log = tmp_path / "log"
    with log.open("w") as fh:
        res = subprocess.run([sys.executable, "-m", "sim", "run", str(scen), "--trials", str(4 * runner.CHUNK),
                              "--no-write"], cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=fh,
                             text=True, timeout=900)
    assert res.returncode == 0
    lines = [ln for ln in log.read_text().splitlines() if ln.startswith("progress:")]
    assert lines and "%" in lines[0] and "ETA" in lines[0] and len(lines) >= 2


def test_a_fresh_run_leaves_an_earlier_checkpoint_alone(tmp_path, monkeypatch, capsys):
    """An interrupted run's checkpoint survives a fresh run of the same scenario
    (which says how to continue it), and --resume still continues it."""
    loaded = load_data(_named())
    root = tmp_path / "results"
    _interrupted(tmp_path, monkeypatch, loaded, 3_000, results_root=root)
    first = api.checkpoint_path(loaded, None, root)
    assert first.is_file()
    before = first.read_bytes()
    capsys.readouterr()
    _, out = api.run(loaded, trials=3_000, results_root=root)
    err = capsys.readouterr().err
    assert str(first) in err and "--resume" in err
    assert first.read_bytes() == before and not list(first.parent.glob(".checkpoint-*-2.npz"))
    resumed, out2 = api.run(loaded, trials=3_000, results_root=root, resume=True)
    assert out2 != out and not first.exists()
    assert pd.read_csv(out / "summary.csv").equals(pd.read_csv(out2 / "summary.csv"))


def test_sim_report_default_directory_and_bar_progress(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(runner, "CHUNK", 500)
    loaded = load_data(_named())
    target = tmp_path / "taken"
    real_write = api._write_report

    def fail_once(result, tgt, ckpt, *rest):
        monkeypatch.setattr(api, "_write_report", real_write)
        return real_write(result, target, ckpt, *rest)  # target is a file: writing fails late

    target.write_text("x")
    monkeypatch.setattr(api, "_write_report", fail_once)
    with pytest.raises(ReportWriteError, match="Nothing is lost"):
        api.run(loaded, trials=1_000, out=tmp_path / "run", progress="bar")
    err = capsys.readouterr().err
    assert "/1.00k" in err and "%|" in err  # the bar has a total (1,000 trials) and a percentage
    ckpt = api.checkpoint_path(loaded, None, "results", tmp_path / "run")
    monkeypatch.chdir(tmp_path)
    rc, out, err = _main(["report", ckpt, "--quiet"], capsys)
    assert rc == 0, err
    written = next((tmp_path / "results" / "lossless").iterdir())
    assert (written / "report.html").is_file() and out.startswith("report: results/lossless/")


def test_charts_drawn_outside_the_report_are_plain_text_too(tmp_path):
    """A system chart made without ``plain_text()`` still never parses math text:
    ``_save`` turns it off for every text, tick labels included."""
    from matplotlib.figure import Figure

    from sim.report.charts import _save, chart_meta

    fig = Figure()
    ax = fig.add_subplot()
    ax.bar([0, 1], [1, 2])
    ax.set_xticks([0, 1], [DOLLAR, "$\\frac{1}$"])
    ax.set_title(DOLLAR)
    ax.legend([DOLLAR])
    path = _save(fig, tmp_path / "c.png", caption=DOLLAR, variants=[DOLLAR])
    assert path.is_file() and chart_meta(path)["variants"] == [DOLLAR]


def test_a_lone_surrogate_in_a_name_is_refused_at_load():
    """``"\\ud800"`` is valid YAML but cannot be written as UTF-8: it would fail
    every CSV and the page after the simulation."""
    text = yaml.safe_dump(_named(), sort_keys=False).replace("name: Akari", 'name: "Ak\\ud800ri"')
    with pytest.raises(ScenarioError, match="U\\+D800.*cannot be written as UTF-8"):
        load_scenario_text(text)
