"""A cold compile shared by two processes (sim/compile_helper.py).

The helper compiles from the end of the list and stops where the other
process has claimed a kernel; whoever compiled a kernel, the caller ends with
all of them loaded and numba's cache holding them; nothing is started when
there is nothing to share or the helper is turned off.
"""
from __future__ import annotations

import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

from numba import types

from sim import compile_helper

ROOT = Path(__file__).resolve().parents[1]
STATE = types.Array(types.uint64, 1, "C")
SPECS = [("sim.rng", "mix64", (types.uint64,)), ("sim.rng", "d6", (STATE,)), ("sim.rng", "next_u32", (STATE,))]


def _env(cache: Path, **extra) -> dict:
    return dict(os.environ, NUMBA_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT), **extra)


def _indexed(cache: Path, name: str) -> bool:
    return any(cache.rglob(f"rng.{name}-*.nbi"))


def test_the_helper_compiles_from_the_end_until_a_claimed_kernel(tmp_path):
    claims = tmp_path / "claims"
    claims.mkdir()
    (claims / "0").touch()  # the first kernel is the other process's
    cache = tmp_path / "cache"
    proc = subprocess.run([sys.executable, "-m", "sim.compile_helper", str(claims)], input=pickle.dumps(SPECS),
                          env=_env(cache), capture_output=True, timeout=300)
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    assert sorted(p.name for p in claims.iterdir()) == ["0", "1", "2"]  # it claimed 2, then 1
    assert _indexed(cache, "next_u32") and _indexed(cache, "d6")
    assert not _indexed(cache, "mix64")  # claimed by the other: left alone


def test_compile_in_two_leaves_every_kernel_compiled_and_cached(tmp_path):
    code = textwrap.dedent("""
        import numpy as np
        from numba import types
        from sim import compile_helper as ch, rng
        state = types.Array(types.uint64, 1, "C")
        jobs = [(rng.mix64, (types.uint64,)), (rng.d6, (state,)), (rng.next_u32, (state,)), (rng.d6, (state,))]
        print("todo", ch.compile_in_two(jobs, "test kernels"))
        print("loaded", all(tuple(s) in d.overloads for d, s in jobs))
        print("again", ch.compile_in_two(jobs, "test kernels"))
        st = np.zeros(8, dtype=np.uint64)
        rng.seed_stream(st, np.uint64(7), 0, 0)
        print("face", 1 <= rng.d6(st) <= 6)
    """)
    out = subprocess.run([sys.executable, "-c", code], env=_env(tmp_path / "cache"), capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.split("\n")
    assert "todo 3" in lines  # the repeated job counted once
    assert "loaded True" in lines
    assert "again 0" in lines  # all cached now: nothing to share
    assert "face True" in lines
    for name in ("mix64", "d6", "next_u32"):
        assert _indexed(tmp_path / "cache", name)


def test_the_helper_can_be_turned_off(monkeypatch):
    monkeypatch.setenv(compile_helper.ENV, "0")
    assert not compile_helper.enabled()
    monkeypatch.setenv(compile_helper.ENV, "1")
    assert compile_helper.enabled() == ((os.cpu_count() or 1) >= 2)


def test_a_compiled_kernel_counts_as_cached():
    from sim import rng

    rng.mix64(7)  # compiled (or loaded) in this process
    assert compile_helper.cached(rng.mix64, (types.uint64,))


def test_a_helper_that_compiles_nothing_leaves_the_work_to_the_run(tmp_path):
    """The helper claims kernels it cannot compile (here: a module that does not
    exist); the run finds them missing from the cache and compiles them itself."""
    code = textwrap.dedent("""
        from numba import types
        from sim import compile_helper as ch, rng
        ch._spec = lambda d, s: ("sim.no_such_module", d.py_func.__name__, tuple(s))
        state = types.Array(types.uint64, 1, "C")
        jobs = [(rng.mix64, (types.uint64,)), (rng.d6, (state,)), (rng.next_u32, (state,))]
        print("todo", ch.compile_in_two(jobs, "test kernels"))
        print("loaded", all(tuple(s) in d.overloads for d, s in jobs))
        print("cached", all(ch.cached(d, s) for d, s in jobs))
    """)
    out = subprocess.run([sys.executable, "-c", code], env=_env(tmp_path / "cache"), capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split("\n")[:3] == ["todo 3", "loaded True", "cached True"]
