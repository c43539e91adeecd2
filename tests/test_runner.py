"""Reproducibility and precision stopping of the runner (issue: foundation).

Same seed => identical counters for any thread count, worker count and chunk
size; a run of N trials is a prefix of a run of 2N; precision stopping
reaches the requested half-width.
"""
from __future__ import annotations

import numba
import numpy as np
import pytest

from helpers import duel_data, load_data
from sim import api, runner
from sim.rng import stream_key
from sim.stats import wilson_half_width
from sim.systems import mb41


def _party():
    data = duel_data(rules={"initiative": "roll", "revive": True, "revive_limit": 1})
    data["sides"][0]["members"].append({"name": "Beni", "attack": 2, "defence": 5, "support": 4,
                                        "policy": {"name": "random-target", "boost": "always"}})
    data["sides"][1]["members"][0].update({"kind": "monster", "spread": 2, "power_level": 3, "resolve": None,
                                           "attack": 8, "defence": 6, "policy": {"name": "random-target",
                                                                                 "finish_downed": True}})
    del data["sides"][1]["members"][0]["resolve"]
    return load_data(data)


def _same(c1: dict, c2: dict):
    assert c1.keys() == c2.keys()
    for k in c1:
        np.testing.assert_array_equal(c1[k], c2[k], err_msg=k)


def test_same_counters_on_1_and_2_threads():
    loaded = _party()
    inputs = mb41.compile(loaded.base)
    key = stream_key(123)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = mb41.simulate(inputs, 0, 30_000, key)
        numba.set_num_threads(2)
        two = mb41.simulate(inputs, 0, 30_000, key)
    finally:
        numba.set_num_threads(before)
    _same(one, two)


def test_prefix_stable_and_chunk_independent():
    inputs = mb41.compile(_party().base)
    key = stream_key(9)
    whole = mb41.simulate(inputs, 0, 20_000, key)
    first = mb41.simulate(inputs, 0, 10_000, key)
    second = mb41.simulate(inputs, 10_000, 10_000, key)
    _same(whole, {k: first[k] + second[k] for k in first})
    pieces = [mb41.simulate(inputs, s, 2_500, key) for s in range(0, 20_000, 2_500)]
    _same(whole, {k: sum(p[k] for p in pieces) for k in whole})


def test_run_of_n_is_prefix_of_run_of_2n(monkeypatch):
    loaded = _party()
    monkeypatch.setattr(runner, "CHUNK", 7_000)  # odd chunking on purpose
    small, _ = api.run(loaded, trials=12_000, write=False)
    big, _ = api.run(loaded, trials=24_000, write=False)
    rest = mb41.simulate(mb41.compile(loaded.base), 12_000, 12_000, stream_key(loaded.base.seed))
    s, b = small.summary.iloc[0], big.summary.iloc[0]
    assert b["wins"] == s["wins"] + rest["outcomes"][0]
    assert b["losses"] == s["losses"] + rest["outcomes"][1]


def test_same_wins_with_1_and_2_workers():
    loaded = _party()
    one, _ = api.run(loaded, trials=40_000, workers=1, write=False)
    two, _ = api.run(loaded, trials=40_000, workers=2, write=False)
    cols = ["wins", "losses", "draws", "mean_rounds"]
    assert one.summary[cols].equals(two.summary[cols])
    assert one.tables["combatants"].drop(columns=[]).equals(two.tables["combatants"])


def test_different_seeds_differ_and_same_seed_repeats():
    loaded = _party()
    a, _ = api.run(loaded, trials=5_000, seed=1, write=False)
    b, _ = api.run(loaded, trials=5_000, seed=2, write=False)
    c, _ = api.run(loaded, trials=5_000, seed=1, write=False)
    assert a.summary["wins"][0] != b.summary["wins"][0]
    assert a.summary["wins"][0] == c.summary["wins"][0]


def test_common_random_numbers_identical_variant_gives_identical_result():
    data = duel_data()
    data["variants"] = [{"name": "a"}, {"name": "same", "set": {"rules.grid": "none"}}]
    res, _ = api.run(load_data(data), trials=5_000, write=False)
    assert res.summary["wins"][0] == res.summary["wins"][1]


def test_precision_stopping_reaches_half_width():
    loaded = load_data(duel_data())
    res, _ = api.run(loaded, precision=0.004, write=False)
    row = res.summary.iloc[0]
    n = int(row["trials"])
    assert n >= runner.PRECISION_FLOOR
    assert n % runner.PRECISION_FLOOR == 0 and (n // runner.PRECISION_FLOOR) & (n // runner.PRECISION_FLOOR - 1) == 0
    for k in ("wins", "losses", "draws"):
        assert wilson_half_width(int(row[k]), n) <= 0.004
    # one doubling fewer was not precise enough (so it did not run too long)
    assert n > runner.PRECISION_FLOOR
    half, _ = api.run(loaded, trials=n // 2, write=False)
    h = half.summary.iloc[0]
    assert max(wilson_half_width(int(h[k]), n // 2) for k in ("wins", "losses", "draws")) > 0.004


def test_precision_respects_max_trials():
    res, _ = api.run(load_data(duel_data()), precision=0.0001, max_trials=20_000, write=False)
    assert int(res.summary.iloc[0]["trials"]) == 20_000


@pytest.mark.parametrize("kw", [dict(trials=0), dict(trials=-5), dict(workers=0), dict(precision=0.7)])
def test_bad_run_options(kw):
    with pytest.raises(runner.RunError):
        api.run(load_data(duel_data()), write=False, **kw)


def test_interrupted_run_resumes_to_identical_result(tmp_path, monkeypatch):
    """Ctrl-C after some chunks leaves a checkpoint; --resume finishes to the same counters."""
    loaded = _party()
    monkeypatch.setattr(runner, "CHUNK", 5_000)
    monkeypatch.setattr(runner, "CHECKPOINT_EVERY_S", 0.0)
    reference, _ = api.run(loaded, trials=30_000, write=False)

    real_task = runner._task
    calls = {"n": 0}

    def flaky(*args, **kw):
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt
        return real_task(*args, **kw)

    monkeypatch.setattr(runner, "_task", flaky)
    with pytest.raises(KeyboardInterrupt):
        api.run(loaded, trials=30_000, results_root=tmp_path, out=tmp_path / "run")
    ckpt = api.checkpoint_path(loaded, None, tmp_path, tmp_path / "run")
    assert ckpt.is_file() and not (tmp_path / "run").exists()

    monkeypatch.setattr(runner, "_task", real_task)
    resumed, out = api.run(loaded, trials=30_000, results_root=tmp_path, out=tmp_path / "run", resume=True)
    assert resumed.summary[["wins", "losses", "draws", "trials"]].equals(
        reference.summary[["wins", "losses", "draws", "trials"]])
    assert resumed.tables["combatants"].equals(reference.tables["combatants"])
    assert not ckpt.exists() and (out / "report.html").is_file()


def test_resume_refuses_a_foreign_checkpoint(tmp_path):
    loaded = _party()
    ckpt = api.checkpoint_path(loaded, None, tmp_path, tmp_path / "r")
    ckpt.parent.mkdir(parents=True, exist_ok=True)
    np.savez(ckpt, meta=np.array("{}"), done=np.zeros(1, dtype=np.int64))
    with pytest.raises(runner.RunError, match="not a readable mgsim checkpoint: its description lacks 'sha256'"):
        api.run(loaded, trials=1_000, results_root=tmp_path, out=tmp_path / "r", resume=True)


def test_progress_callback_and_cancel_keep_finished_trials(tmp_path, monkeypatch):
    """``api.run(progress=f, cancel=event)``: f sees every chunk; a cancel set after the
    second chunk stops the run there, keeps a checkpoint of exactly those trials, writes
    no report, and ``resume=True`` finishes to the uninterrupted counters."""
    import threading

    loaded = _party()
    monkeypatch.setattr(runner, "CHUNK", 4_000)
    monkeypatch.setattr(runner, "CHUNK_TARGET_S", None)  # fixed chunks of CHUNK
    monkeypatch.setattr(runner, "CHECKPOINT_EVERY_S", 0.0)
    reference, _ = api.run(loaded, trials=20_000, write=False)
    stop = threading.Event()
    seen = []

    def progress(done, total, estimate):
        seen.append((done, total, estimate))
        if done >= 8_000:
            stop.set()

    with pytest.raises(runner.RunCancelled) as info:
        api.run(loaded, trials=20_000, results_root=tmp_path, out=tmp_path / "run", progress=progress,
                cancel=stop)
    assert info.value.done == {"base": 8_000}
    assert seen == [(0, 20_000, False), (4_000, 20_000, False), (8_000, 20_000, False)]
    assert not (tmp_path / "run").exists()
    meta, done, _ = runner.read_checkpoint(api.checkpoint_path(loaded, None, tmp_path, tmp_path / "run"))
    assert list(done) == [8_000] and not meta["complete"]
    resumed, _ = api.run(loaded, trials=20_000, results_root=tmp_path, out=tmp_path / "run", resume=True,
                         cancel=lambda: False)
    assert resumed.summary[["wins", "losses", "draws", "trials"]].equals(
        reference.summary[["wins", "losses", "draws", "trials"]])


def test_cancel_set_before_the_run_plays_nothing():
    import threading

    stop = threading.Event()
    stop.set()
    with pytest.raises(runner.RunCancelled) as info:
        api.run(_party(), trials=5_000, write=False, cancel=stop)
    assert info.value.done == {"base": 0}
