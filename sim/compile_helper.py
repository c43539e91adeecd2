"""A cold first run compiles in two processes: this one and a helper.

numba compiles one function at a time in a process (it holds a global
compiler lock), so on a cold cache a 4.1 fight spends about 50 s on one core
while the other idles: the turn, the attack and the settling procedures
(:mod:`sim.procs`), then the block kernel that plays the trials. They are
compiled apart and cached apart, so two processes can share the work.

:func:`compile_in_two` takes the kernels a run is about to need, in order,
and keeps those numba's cache does not hold yet. With two or more of them it
starts a helper process (``python -m sim.compile_helper``) that compiles them
from the end of the list while this process compiles them from the start;
each claims a kernel before compiling it (a file created exclusively in a
scratch folder), so no kernel is compiled twice and neither waits while work
is left. When this process runs out, it waits for the helper and loads the
helper's kernels from the cache (:mod:`sim.cache`). The machine code is the
same whichever process compiled it, so results do not change.

Nothing depends on the helper: if it cannot start, fails or is killed, this
process finds its kernels missing from the cache and compiles them itself.
It is not used with one CPU, inside worker processes (joblib, dask: each
would start one more), under ``NUMBA_DISABLE_JIT``, or with
``MGSIM_COMPILE_HELPER=0``.
"""
from __future__ import annotations

import atexit
import contextlib
import importlib
import multiprocessing
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

#: ``MGSIM_COMPILE_HELPER=0`` turns the helper off
ENV = "MGSIM_COMPILE_HELPER"
#: seconds this process waits for the helper once its own share is done (every
#: procedure of the 4.1 engine takes about two minutes; a helper that is still
#: busy after this is stopped, and what it had not finished compiles here)
WAIT_S = 1800


def enabled() -> bool:
    """Whether :func:`compile_in_two` may start a helper in this process."""
    if os.environ.get(ENV, "1") in ("0", "", "no", "false"):
        return False
    if (os.cpu_count() or 1) < 2:
        return False
    if multiprocessing.current_process().name != "MainProcess":
        return False
    from numba.core import config

    return not config.DISABLE_JIT


def cached(disp, sig) -> bool:
    """``disp`` is compiled for ``sig`` in this process, or numba's cache holds an
    index for it (then :meth:`compile` loads it); a kernel without a cache counts as
    cached (it is left to the caller)."""
    if tuple(sig) in disp.overloads:
        return True
    cache = getattr(disp, "_cache", None)
    cache_file = getattr(cache, "_cache_file", None)
    index = getattr(cache_file, "_index_path", None)
    return index is None or os.path.exists(index)


def _claim(folder: str, k: int) -> bool:
    try:
        os.close(os.open(os.path.join(folder, str(k)), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True


def _spec(disp, sig):
    fn = disp.py_func
    return fn.__module__, fn.__name__, tuple(sig)


def compile_in_two(jobs, label: str) -> int:
    """Compile ``jobs`` (``[(dispatcher, signature), ...]``, in the order they are
    needed) into numba's cache, in this process and a helper. Returns how many
    were not cached (0: nothing was done). Kernels already cached are left to the
    caller, which loads them as usual."""
    todo, seen = [], set()
    for disp, sig in jobs:
        key = (id(disp), tuple(sig))
        if key not in seen and not cached(disp, sig):
            seen.add(key)
            todo.append((disp, tuple(sig)))
    if len(todo) < 2 or not enabled():
        return len(todo)
    from sim.notice import NOTICE

    folder = tempfile.mkdtemp(prefix="mgsim-compile-")
    helper = None
    try:
        helper = _start(folder, todo)
        if helper is not None:
            _LIVE.add(helper)
        with NOTICE.batch(f"{label}: {len(todo)} kernels, in two processes", compiling=True):
            for k, (disp, sig) in enumerate(todo):
                if _claim(folder, k):
                    disp.compile(sig)
            if helper is not None:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    helper.wait(timeout=WAIT_S)  # then killed below: its kernels compile here
            for disp, sig in todo:
                disp.compile(sig)  # the helper's, from the cache (or compiled here if it failed)
    finally:
        if helper is not None and helper.poll() is None:
            helper.kill()
            helper.wait()
        _LIVE.discard(helper)
        shutil.rmtree(folder, ignore_errors=True)
    return len(todo)


#: helpers running now: killed when this process exits (a run stopped while compiling
#: leaves its compile in a worker thread, :mod:`sim.cancel`, whose ``finally`` never runs)
_LIVE: set = set()


@atexit.register
def _kill_live() -> None:
    for proc in list(_LIVE):
        with contextlib.suppress(OSError):
            proc.kill()


def _start(folder: str, todo) -> subprocess.Popen | None:
    root = str(Path(__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p))
    try:
        specs = pickle.dumps([_spec(d, s) for d, s in todo])
        proc = subprocess.Popen([sys.executable, "-m", "sim.compile_helper", folder], stdin=subprocess.PIPE,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        return None
    try:
        proc.stdin.write(specs)
        proc.stdin.close()
    except OSError:  # it died already: no helper, nothing left running
        proc.kill()
        proc.wait()
        return None
    return proc


def _helper(folder: str) -> None:
    """The helper: compile the kernels listed on stdin from the last, each once claimed."""
    specs = pickle.loads(sys.stdin.buffer.read())
    import sim._jit  # noqa: F401  (the package's caches)

    for k in range(len(specs) - 1, -1, -1):
        if not _claim(folder, k):
            return  # this process and the other met: the rest is the other's
        module, name, sig = specs[k]
        with contextlib.suppress(Exception):  # the other process will compile it and report
            getattr(importlib.import_module(module), name).compile(sig)


if __name__ == "__main__":
    _helper(sys.argv[1])
