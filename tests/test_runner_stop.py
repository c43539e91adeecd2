"""Runs that stop when asked, within seconds (issue 39).

* chunks follow the measured cost of a trial (:class:`sim.cancel.Chunker`) and change no
  counter: an adaptive run equals a run in one chunk;
* a cancel set while a chunk runs is seen at once; the chunk in progress is kept when
  it ends whole;
* (slow) SIGINT 5 s into ``--trials 120`` of a 60 x 60 hex fight of 640 combatants exits
  within 10 s and its checkpoint keeps the trials finished; the same for an ISMCTS game
  with a budget of 100,000 iterations a decision (which took minutes per game).
"""
from __future__ import annotations

import os
import select
import signal
import subprocess
import threading
import time

import numba
import numpy as np
import pytest
import yaml

from helpers import ctrl_c_reaches_it, duel_data, load_data
from test_cli import ROOT, SIM

from sim import api, runner


def test_chunker_grows_toward_the_target_and_stays_small_for_slow_trials():
    from sim.cancel import GROWTH, Chunker

    fast = Chunker(cap=1 << 18, floor=2, target_s=0.5)
    sizes = []
    for _ in range(12):
        n = fast.size(10**9)
        sizes.append(n)
        fast.record(n, n * 1e-6)  # a microsecond a trial
    assert sizes[0] == 2 and all(b <= a * GROWTH for a, b in zip(sizes, sizes[1:])) and sizes[-1] == 1 << 18
    slow = Chunker(cap=1 << 18, floor=2, target_s=0.5)
    for _ in range(5):
        n = slow.size(120)
        slow.record(n, n * 0.7)  # 0.7 s a trial: never more than the floor
    assert slow.size(120) == 2 and slow.size(1) == 1


def test_adaptive_chunks_change_no_counter(monkeypatch):
    data = duel_data(rules={"initiative": "roll"})
    data["variants"] = [{"name": "base"}, {"name": "a5", "set": {"Akari.attack": 5}}]
    loaded = load_data(data)
    sizes = []
    real = runner._task

    def spy(system, inputs, start, count, key, threads):
        sizes.append(count)
        return real(system, inputs, start, count, key, threads)

    monkeypatch.setattr(runner, "_task", spy)
    adaptive, _ = api.run(loaded, trials=60_000, write=False)
    assert sizes[0] == numba.get_num_threads() and len(sizes) > 4, sizes
    monkeypatch.setattr(runner, "CHUNK_TARGET_S", None)
    sizes.clear()
    whole, _ = api.run(loaded, trials=60_000, write=False)
    assert sizes == [60_000, 60_000]
    cols = ["variant", "trials", "wins", "losses", "draws", "mean_rounds"]
    assert adaptive.summary[cols].equals(whole.summary[cols])
    assert adaptive.tables["combatants"].equals(whole.tables["combatants"])


@pytest.mark.parametrize("chunk_s, kept", [(1.0, 2_000), (6.0, 1_000)])
def test_a_cancel_is_seen_while_a_chunk_runs(chunk_s, kept, monkeypatch):
    """A cancel set 0.2 s into a slow chunk is seen at once: a chunk that ends within its
    grace (three times the expected time, at least 2 s) is kept; a longer one (a compile,
    a stuck trial) is dropped and the run stops anyway."""
    loaded = load_data(duel_data())
    real = runner._task
    stop = threading.Event()

    def slow(system, inputs, start, count, key, threads):
        if start > 0:
            threading.Timer(0.2, stop.set).start()
            time.sleep(chunk_s)
        return real(system, inputs, start, count, key, threads)

    monkeypatch.setattr(runner, "_task", slow)
    monkeypatch.setattr(runner, "CHUNK", 1_000)
    monkeypatch.setattr(runner, "CHUNK_TARGET_S", None)
    t0 = time.monotonic()
    with pytest.raises(runner.RunCancelled) as info:
        api.run(loaded, trials=50_000, write=False, cancel=stop)
    assert time.monotonic() - t0 < 5
    assert info.value.done == {"base": kept}


# ---------------------------------------------------------------- SIGINT within seconds (slow)


def _hex640(tmp_path):
    """A 60 x 60 hex field, 16 x 20 girls against 16 x 20 minions: 640 combatants, about a
    second a trial on one thread."""
    d = {"name": "hex640", "system": "mb41", "seed": 5, "trials": 120, "rules": {"grid": "hex"},
         "battlefield": {"shape": "rect", "width": 60, "height": 60},
         "sides": [{"name": "girls", "formation": "line", "members": [
             {"name": f"G{i}", "attack": 4, "defence": 4, "support": 3, "count": 20, "policy": "aggressive"}
             for i in range(16)]},
             {"name": "monsters", "formation": "line", "members": [
                 {"name": f"Imp{i}", "kind": "minion", "template": "Maintenance imps", "count": 20,
                  "policy": {"name": "nearest"}} for i in range(16)]}]}
    f = tmp_path / "hex640.yaml"
    f.write_text(yaml.safe_dump(d, sort_keys=False))
    return f


def _ismcts(tmp_path):
    f = tmp_path / "ismcts.yaml"
    f.write_text(yaml.safe_dump({
        "name": "ismcts-slow", "system": "cards", "seed": 3, "trials": 4,
        "sides": [{"name": "ismcts", "deck": "aggro", "policy": {"name": "ismcts", "budget": 100_000,
                                                                  "rollout": "tempo"}},
                  {"name": "tempo", "deck": "aggro", "policy": {"name": "tempo"}}]}, sort_keys=False))
    return f


def _sigint_after_start(argv, seconds=5.0, warm=600):
    """Start ``sim ...``; once it prints its first progress line (the kernels are loaded
    or compiled), wait ``seconds`` and send SIGINT. Returns (exit code, seconds to exit, stderr)."""
    env = {k: v for k, v in os.environ.items() if k != "SIM_DEBUG"}
    p = subprocess.Popen(SIM + [str(a) for a in argv] + ["--progress", "plain"], cwd=ROOT, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=ctrl_c_reaches_it)
    err, deadline = "", time.monotonic() + warm
    while "progress:" not in err and time.monotonic() < deadline and p.poll() is None:
        ready, _, _ = select.select([p.stderr], [], [], 1.0)
        if ready:
            err += p.stderr.readline()
    time.sleep(seconds)
    p.send_signal(signal.SIGINT)
    t0 = time.monotonic()
    _out, rest = p.communicate(timeout=120)
    return p.returncode, time.monotonic() - t0, err + rest


@pytest.mark.slow
@pytest.mark.parametrize("case", ["hex640", "ismcts"])
def test_sigint_stops_a_slow_run_within_seconds_keeping_its_trials(case, tmp_path):
    f = (_hex640 if case == "hex640" else _ismcts)(tmp_path)
    out = tmp_path / "run"
    # first a short run that loads (or compiles) the kernels, so the timing is the run's
    quick = f
    if case == "ismcts":  # the same kernels at a budget of 16
        quick = tmp_path / "quick.yaml"
        quick.write_text(f.read_text().replace("100000", "16"))
    warm = subprocess.run(SIM + ["run", str(quick), "--trials", "2", "--no-write", "--quiet"], cwd=ROOT,
                          capture_output=True, text=True, timeout=900)
    assert warm.returncode == 0, warm.stderr
    rc, took, err = _sigint_after_start(["run", f, "--trials", 120, "--out", out])
    assert rc == 130 and took < 10, (took, err)
    assert "Traceback" not in err and "--resume" in err
    ckpt = api.checkpoint_path(api.load(f), None, out=out)
    meta, done, _ = runner.read_checkpoint(ckpt)
    assert not meta["complete"] and not out.exists()
    if case == "hex640":
        assert 0 < int(done[0]) < 120, err  # the trials finished in the first seconds are kept
    assert np.all(done >= 0)
