"""Runs on a dask.distributed cluster (issue 22): same results as a local run.

* ``--scheduler`` parsing and its clean failures (malformed ``local:N``,
  an address nobody listens on);
* :func:`sim.distributed.in_order` releases out-of-order completions in
  trial order per variant;
* a LocalCluster of 2 workers (``--scheduler local:2``) writes tables
  byte-identical to a local run's;
* a ``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1, one
  of them killed (SIGKILL) while it holds tasks: still identical results.

The workers import ``sim`` from this tree (``PYTHONPATH``) and share this
process's ``NUMBA_CACHE_DIR``, so they load the kernels from the cache the
local reference run fills.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from helpers import ctrl_c_reaches_it

from sim import api, distributed
from sim.cli import main

ROOT = Path(__file__).resolve().parents[1]
DUEL = ROOT / "scenarios" / "duel-basic.yaml"
DASK = Path(sys.executable).parent / "dask"


# ---------------------------------------------------------------- addresses


@pytest.mark.parametrize("text, expected", [
    ("local:2", ("local", 2)),
    ("LOCAL:1", ("local", 1)),
    ("tcp://10.0.0.5:8786", ("remote", "tcp://10.0.0.5:8786")),
    ("10.0.0.5:9000", ("remote", "tcp://10.0.0.5:9000")),
    ("tcp://scheduler.example", ("remote", "tcp://scheduler.example:8786")),
    ("tls://[::1]:8786", ("remote", "tls://[::1]:8786")),
])
def test_parse_scheduler(text, expected):
    assert distributed.parse_scheduler(text) == expected


@pytest.mark.parametrize("text, needle", [
    ("local:x", "whole number from 1 to 256"),
    ("local:0", "whole number from 1 to 256"),
    ("local:-1", "whole number from 1 to 256"),
    ("local:1000", "whole number from 1 to 256"),
    ("local", "did you mean 'local:2'"),
    ("http://10.0.0.5:8787", "dashboard"),
    ("tcp://host:port", "port must be a number"),
    ("tcp://host:99999", "port must be a number"),
    ("tcp://", "not a dask scheduler address"),
    ("two words", "not a dask scheduler address"),
])
def test_parse_scheduler_refuses(text, needle):
    with pytest.raises(distributed.SchedulerError, match=needle):
        distributed.parse_scheduler(text)


def _sim(*args, cwd):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("SIM_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "sim.cli", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=120)


@pytest.mark.parametrize("address, needles", [
    ("local:two", ["--scheduler 'local:two'", "local:N", "1 to 256"]),
    ("tcp://127.0.0.1:9", ["cannot reach the dask scheduler at tcp://127.0.0.1:9", "dask scheduler",
                           "dask worker"]),
])
def test_bad_scheduler_exits_cleanly(tmp_path, address, needles):
    res = _sim("run", DUEL, "--trials", "1000", "--scheduler", address, cwd=tmp_path)
    assert res.returncode == 2, res.stderr
    err = res.stderr.strip()
    assert err.startswith("error:") and "Traceback" not in err and "\n" not in err, err
    for n in needles:
        assert n in err, err
    assert list(tmp_path.iterdir()) == []


@pytest.fixture
def http_server():
    """``python3 -m http.server`` on 127.0.0.1 (a TCP service that is not dask): its address."""
    import http.server
    import threading

    class Address(str):
        """The server's address; ``connected`` is set once a client's connection is accepted."""

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    address = Address(f"tcp://127.0.0.1:{srv.server_address[1]}")
    address.connected = threading.Event()

    def accept(request, client_address):
        address.connected.set()
        return True

    srv.verify_request = accept
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    yield address
    srv.shutdown()
    srv.server_close()


@pytest.mark.parametrize("command", ["run", "study"])
def test_scheduler_at_an_http_server_exits_2_within_15_s(command, http_server, tmp_path):
    """It hung 150-220 s (3 in 5 tries): dask's handshake waited on a server that waits for a request."""
    target = DUEL if command == "run" else ROOT / "scenarios" / "studies" / "compare-inflict.yaml"
    t0 = time.monotonic()
    res = _sim(command, target, "--trials", "1000", "--scheduler", http_server, cwd=tmp_path)
    took = time.monotonic() - t0
    err = res.stderr.strip()
    assert res.returncode == 2 and took < 15, (took, err)
    assert "did not answer as a dask scheduler" in err and "\n" not in err and "Traceback" not in err, err
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_while_connecting_exits_at_once_without_a_traceback(http_server, tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("SIM_DEBUG", None)
    p = subprocess.Popen([sys.executable, "-m", "sim.cli", "run", str(DUEL), "--trials", "1000", "--scheduler",
                          http_server], cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, preexec_fn=ctrl_c_reaches_it)
    # loaded and connecting (the server never greets): its connection accepted, however long the
    # start took on a loaded machine
    assert http_server.connected.wait(60)
    time.sleep(0.3)
    p.send_signal(signal.SIGINT)
    t0 = time.monotonic()
    _out, err = p.communicate(timeout=60)
    assert time.monotonic() - t0 < 3 and p.returncode == 130, err
    assert "Traceback" not in err and "interrupted; nothing was written" in err, err


def test_workers_and_scheduler_together_refused(tmp_path):
    res = _sim("run", DUEL, "--trials", "1000", "--workers", "2", "--scheduler", "local:2", cwd=tmp_path)
    assert res.returncode == 2 and "give one of them" in res.stderr, res.stderr


# ---------------------------------------------------------------- ordering


def test_in_order_releases_each_variant_in_trial_order():
    tasks = [(0, 0, 10), (0, 10, 10), (0, 20, 5), (1, 100, 10), (1, 110, 10)]
    arrival = [4, 2, 3, 1, 0]  # every task early, variant 1's first last but one
    got = [(t, c) for t, c in distributed.in_order(tasks, ((i, f"c{i}") for i in arrival))]
    assert [t for t, _ in got] == [(1, 100, 10), (1, 110, 10), (0, 0, 10), (0, 10, 10), (0, 20, 5)]
    assert [c for _, c in got] == ["c3", "c4", "c0", "c1", "c2"]
    per_variant = {}
    for (vi, s, c), _ in got:
        assert per_variant.get(vi, s) == s, "a gap"
        per_variant[vi] = s + c


def test_in_order_refuses_a_gap():
    with pytest.raises(distributed.SchedulerError, match="gap"):
        list(distributed.in_order([(0, 0, 5), (0, 5, 5)], iter([(1, "x")])))


def test_task_trials_are_bounded():
    class Fake:
        workers = 2

    size = distributed.Cluster.task_trials
    assert size(Fake, 1) == distributed.MIN_TASK_TRIALS
    assert size(Fake, 10**10) == distributed.MAX_TASK_TRIALS
    assert size(Fake, 8 * 100_000) == 100_000


# ---------------------------------------------------------------- clusters


def _tables(out: Path) -> dict:
    files = sorted(p.name for p in out.glob("*.csv"))
    assert "summary.csv" in files and "rounds.csv" in files
    return {name: (out / name).read_bytes() for name in files}


def _same_result(a, b):
    for name in ("summary", "curves", "rounds"):
        pd.testing.assert_frame_equal(getattr(a, name), getattr(b, name), check_exact=True)
    assert a.tables.keys() == b.tables.keys()
    for k in a.tables:
        pd.testing.assert_frame_equal(a.tables[k], b.tables[k], check_exact=True)


def test_local_cluster_gives_the_local_tables(tmp_path, monkeypatch, capsys):
    """``sim run --scheduler local:2`` with tasks of 2,000 trials = the same run done here."""
    monkeypatch.setattr(distributed, "MIN_TASK_TRIALS", 2_000)
    monkeypatch.setattr(distributed, "MAX_TASK_TRIALS", 2_000)
    monkeypatch.chdir(tmp_path)
    args = ["run", str(DUEL), "--trials", "30000", "--seed", "11", "--quiet"]
    assert main(args + ["--out", "here"]) == 0
    assert main(args + ["--out", "there", "--scheduler", "local:2", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    prov = printed["provenance"]
    assert prov["scheduler"] == "local:2" and prov["dask_workers"] == 2
    assert printed["results"][0]["trials"] == 30_000
    assert _tables(tmp_path / "there") == _tables(tmp_path / "here")


def test_local_cluster_checkpoints_as_results_arrive_and_resumes(tmp_path, monkeypatch):
    """Each in-order result feeds the checkpoint; a run stopped mid-way resumes on the cluster exactly."""
    from sim import runner

    monkeypatch.setattr(distributed, "MIN_TASK_TRIALS", 2_000)
    monkeypatch.setattr(distributed, "MAX_TASK_TRIALS", 2_000)
    monkeypatch.setattr(runner, "CHECKPOINT_EVERY_S", 0.0)
    saved = []
    real_save = runner._Checkpoint.save

    def spy(self, variants, *args, **kwargs):
        saved.append(sum(v.done for v in variants))
        return real_save(self, variants, *args, **kwargs)

    monkeypatch.setattr(runner._Checkpoint, "save", spy)
    real_in_order = distributed.in_order

    def stop_after_five(tasks, completed):
        for i, item in enumerate(real_in_order(tasks, completed)):
            if i == 5:
                raise RuntimeError("stopped mid-run")
            yield item

    monkeypatch.setattr(distributed, "in_order", stop_after_five)
    out = tmp_path / "run"
    with pytest.raises(RuntimeError, match="stopped mid-run"):
        api.run(DUEL, trials=30_000, seed=3, out=out, scheduler="local:2")
    assert saved[:5] == [2_000, 4_000, 6_000, 8_000, 10_000] and saved[-1] == 10_000
    assert api.checkpoint_path(api.load(DUEL), 3, out=out).is_file()
    monkeypatch.setattr(distributed, "in_order", real_in_order)
    saved.clear()
    resumed, _ = api.run(DUEL, trials=30_000, seed=3, out=out, scheduler="local:2", resume=True)
    assert saved and saved[0] == 12_000, saved  # went on from the checkpoint
    local, _ = api.run(DUEL, trials=30_000, seed=3, write=False)
    _same_result(resumed, local)


def _wait(cond, what, timeout=90):
    t0 = time.monotonic()
    while not cond():
        if time.monotonic() - t0 > timeout:
            raise TimeoutError(what)
        time.sleep(0.2)


def test_killed_worker_still_gives_the_local_result(tmp_path, monkeypatch):
    """``dask scheduler`` + two ``dask worker`` processes; one is killed with tasks in hand."""
    from distributed import Client

    if not DASK.exists():
        pytest.skip(f"no dask command beside {sys.executable}")
    env = dict(os.environ, PYTHONPATH=str(ROOT), NUMBA_NUM_THREADS="1")
    sched_file = tmp_path / "scheduler.json"
    procs = []

    def start(*args, name):
        log = open(tmp_path / f"{name}.log", "w")
        procs.append(subprocess.Popen([str(DASK), *args], cwd=tmp_path, env=env, stdout=log, stderr=log))
        return procs[-1]

    try:
        start("scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
              "--scheduler-file", str(sched_file), name="scheduler")
        _wait(sched_file.exists, "the scheduler file")
        _wait(lambda: "address" in sched_file.read_text(), "the scheduler address")
        address = json.loads(sched_file.read_text())["address"]
        workers = {f"w{i}": start("worker", address, "--nthreads", "1", "--no-nanny", "--no-dashboard",
                                  "--name", f"w{i}", name=f"w{i}") for i in range(2)}
        watch = Client(address, timeout=30, set_as_default=False)
        try:
            watch.wait_for_workers(2, timeout=90)
            trials = 1_000_000
            local, _ = api.run(DUEL, trials=trials, seed=5, write=False)

            real_in_order = distributed.in_order
            killed = {}

            def in_order_killing_one(tasks, completed):
                def stream():
                    for i, item in enumerate(completed):
                        if i == 0:  # mid-run: kill the worker holding the most tasks
                            busy = {a: len(keys) for a, keys in watch.processing().items()}
                            info = watch.scheduler_info()["workers"]
                            victim = max(busy, key=busy.get)
                            name = info[victim]["name"]
                            killed.update(name=name, holding=busy[victim], tasks=len(tasks))
                            workers[name].send_signal(signal.SIGKILL)
                            workers[name].wait(timeout=30)
                        yield item
                yield from real_in_order(tasks, stream())

            monkeypatch.setattr(distributed, "in_order", in_order_killing_one)
            monkeypatch.setattr(distributed, "MIN_TASK_TRIALS", 50_000)
            monkeypatch.setattr(distributed, "MAX_TASK_TRIALS", 50_000)
            remote, _ = api.run(DUEL, trials=trials, seed=5, write=False, scheduler=address)
            assert killed and killed["holding"] >= 1, killed  # the victim had tasks in hand
            assert killed["tasks"] == trials // 50_000
            _wait(lambda: len(watch.scheduler_info()["workers"]) == 1, "the scheduler to drop the dead worker")
            # several rounds on the cluster that is left (precision stopping doubles the trials)
            monkeypatch.setattr(distributed, "in_order", real_in_order)
            monkeypatch.setattr(distributed, "MIN_TASK_TRIALS", 4_000)
            precise_here, _ = api.run(DUEL, precision=0.008, seed=6, write=False)
            precise_there, _ = api.run(DUEL, precision=0.008, seed=6, write=False, scheduler=address)
        finally:
            watch.close()
        assert remote.provenance["scheduler"] == address
        _same_result(remote, local)
        assert int(remote.summary["trials"].iloc[0]) == trials
        _same_result(precise_there, precise_here)
        assert int(precise_there.summary["trials"].iloc[0]) > 10_000  # more than one round
        assert precise_there.provenance["dask_workers"] == 1
    finally:
        for p in procs:
            if p.poll() is None:
                p.terminate()
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()


def test_bench_scaling_keys_and_same_counters():
    """``sim bench``'s scaling lines: positive rates, ratios of them (it checks the counters equal)."""
    from sim.bench import bench_scaling

    got = bench_scaling(1 << 19)
    for k in ("scale_1_worker_per_s", "scale_joblib_2_workers_per_s", "scale_dask_2_workers_per_s"):
        assert got[k] > 0, k
    one = got["scale_1_worker_per_s"]
    assert got["scale_joblib_2_workers"] == pytest.approx(got["scale_joblib_2_workers_per_s"] / one)
    assert got["scale_dask_2_workers"] == pytest.approx(got["scale_dask_2_workers_per_s"] / one)


def test_a_study_on_a_local_cluster_gives_the_local_tables(monkeypatch):
    """``sim study --scheduler local:2``: the arms' trials played on the workers in tasks of
    1,500 give exactly the tables of the study played here."""
    monkeypatch.setattr(distributed, "MIN_TASK_TRIALS", 1_500)
    monkeypatch.setattr(distributed, "MAX_TASK_TRIALS", 1_500)
    study = ROOT / "scenarios" / "studies" / "compare-inflict.yaml"
    here = api.study(study, trials=6000, write=False)
    there = api.study(study, trials=6000, write=False, scheduler="local:2")
    a, b = here.sections[0].tables, there.sections[0].tables
    assert a.keys() == b.keys()
    for k in a:
        pd.testing.assert_frame_equal(a[k], b[k], check_exact=True)


def test_a_whole_file_study_refuses_a_scheduler():
    from sim.study.run import StudyError

    with pytest.raises(StudyError, match="without --scheduler"):
        api.study(ROOT / "scenarios" / "studies" / "lethality-41-vs-d10.yaml", trials=100, write=False,
                  scheduler="local:2")
