"""A study's streams and the engine tiers (:mod:`sim.tiers`, issue 38): the arms of a sweep share
a structure, so their planned trials add up and one build plays them all; the rows are the
general engine's either way (tier 2's bit-identity is tested in tests/test_mb41_tier2.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STUDY = ROOT / "scenarios" / "studies" / "calibrate-gloom.yaml"


def _fake_engines(monkeypatch, compiled: bool, threshold: str):
    """Every stream's structure is one key (``compiled``: an earlier run built it); rows played
    by ``tier=2`` are recorded and played by the general engine (no build in a test)."""
    from sim import tiers, trials

    monkeypatch.setenv(tiers.ENV, threshold)
    monkeypatch.delenv(tiers.WARM_ENV, raising=False)
    seen = {"structures": 0, "tiers": []}

    def structure_of(system, inputs):
        seen["structures"] += 1
        return ("s" * 20, compiled)

    real = trials.trial_columns

    def trial_columns(system, inputs, start, count, key, chunk=None, tier=1):
        seen["tiers"].append(tier)
        return real(system, inputs, start, count, key, chunk)

    monkeypatch.setattr(tiers, "structure_of", structure_of)
    monkeypatch.setattr(trials, "trial_columns", trial_columns)
    return seen


def test_a_sweep_whose_structure_is_compiled_plays_every_stream_on_it(monkeypatch):
    from sim.study.run import run_study

    seen = _fake_engines(monkeypatch, compiled=True, threshold="50000000")
    monkeypatch.setenv("MGSIM_TIER2_WARM_TRIALS", "10000")  # 13 arms x 1,000 trials plan 13,000
    res = run_study(STUDY, trials=1000, write=False)
    tiers = res.provenance["tiers"]
    assert seen["tiers"] and set(seen["tiers"]) == {2}
    # the calibration's refinement adds arms the preflight did not foresee: they join the build
    assert len(tiers) > 13
    assert all(t == {"general": 0, "generated": 1000} for t in tiers.values())
    assert res.provenance["tier2_threshold"] == 50_000_000


def test_each_arm_alone_is_below_the_warm_threshold_but_the_sweep_is_not(monkeypatch):
    from sim.study.run import run_study

    seen = _fake_engines(monkeypatch, compiled=True, threshold="50000000")
    monkeypatch.setenv("MGSIM_TIER2_WARM_TRIALS", "20000")  # 13 x 1,000 is below it
    res = run_study(STUDY, trials=1000, write=False)
    assert set(seen["tiers"]) == {1}
    assert all(t["generated"] == 0 for t in res.provenance["tiers"].values())


def test_tier2_off_plays_the_general_engine_and_says_so(monkeypatch):
    from sim.study.run import run_study

    seen = _fake_engines(monkeypatch, compiled=True, threshold="0")
    res = run_study(STUDY, trials=500, write=False)
    assert set(seen["tiers"]) == {1} and seen["structures"] == 0
    assert res.provenance["tier2_threshold"] == 0


class _FakeCluster:
    """Stands for :class:`sim.distributed.Cluster`: a study's tasks played here, through
    :func:`sim.distributed.run_trials_task`, in tasks of 400 trials."""

    def __init__(self):
        self.asked = []

    def per_trial(self, system, inputs, start, count, key, tier=1, played=None):
        import pandas as pd

        import sim
        from sim.distributed import run_trials_task

        self.asked.append(tier)
        parts = [run_trials_task(system, inputs, s, min(400, start + count - s), key, 1, sim.__version__, tier)
                 for s in range(start, start + count, 400)]
        for df, t in parts:
            played[t] = played.get(t, 0) + len(df)
        return pd.concat([df for df, _t in parts], ignore_index=True)

    def close(self):
        pass


@pytest.mark.parametrize("worker_has_it", [True, False])
def test_a_study_on_a_cluster_asks_for_tier2_and_counts_what_the_tasks_played(monkeypatch, worker_has_it):
    """With ``--scheduler``, a structure this machine's cache holds a build of is asked of the
    tasks on tier 2; a worker plays it only if its own cache holds the build; study.json counts
    what the tasks played, and the tables are the same."""
    from sim.study import run as study_run
    from sim.study.run import run_study
    from sim.systems import mb41

    base = run_study(STUDY, trials=1000, write=False)
    seen = _fake_engines(monkeypatch, compiled=True, threshold="50000000")
    monkeypatch.setenv("MGSIM_TIER2_WARM_TRIALS", "10000")
    monkeypatch.setattr(mb41, "tier2_key", lambda inputs: ("s" * 20, worker_has_it))
    cluster = _FakeCluster()
    monkeypatch.setattr(study_run, "_connect", lambda scheduler: cluster)
    res = run_study(STUDY, trials=1000, write=False, scheduler="local:2")
    assert cluster.asked and set(cluster.asked) == {2}
    assert set(seen["tiers"]) == ({2} if worker_has_it else {1})
    generated = 1000 if worker_has_it else 0
    assert all(t == {"general": 1000 - generated, "generated": generated} for t in res.provenance["tiers"].values())
    for mine, theirs in zip(base.sections, res.sections):
        for name, table in mine.tables.items():
            assert table.equals(theirs.tables[name]), name
