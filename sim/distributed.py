"""The runner's keyed tasks on a dask.distributed cluster (``sim run --scheduler``).

The runner (:mod:`sim.runner`) cuts a run into tasks ``(variant, start,
count)``: trials ``start .. start+count-1`` of one variant, each trial
seeding its own streams from ``(seed, variant key, trial index, purpose)``
(:mod:`sim.rng`). A task's result is a dict of int64 counter arrays that add
up, so where a task runs, how many tasks there are and how large each is
cannot change a result: a run on a cluster is bit-identical to a local run.

This module sends those tasks to a dask.distributed scheduler
(``tcp://host:8786``, started with ``dask scheduler``; workers with
``dask worker tcp://host:8786 --nthreads 1``) or to a LocalCluster started
here (``local:N``: N worker processes with one thread each, on this
machine). It never imports the runner; the runner hands it its variants
(objects with ``inputs``, ``key`` and ``done``) and goals (trials per
variant), and gets back ``((variant, start, count), counters)`` pairs:

* **in trial order per variant**: tasks finish in any order
  (``as_completed``); a finished task is held until every earlier task of
  its variant is in, so the runner always merges a contiguous prefix of
  trials (what its checkpoint records) and can checkpoint as results arrive;
* **re-run when lost**: a task is a pure function of its arguments; dask
  re-runs the tasks of a worker that dies (up to the scheduler's
  ``allowed-failures``), and ``retries`` re-runs a task that raised;
* **pinned threads**: each task sets numba to ``threads`` threads (default
  1, one task per worker thread); LocalCluster workers also start with
  ``NUMBA_NUM_THREADS`` set to it;
* **amortised start-up**: a task holds from :data:`MIN_TASK_TRIALS` to
  :data:`MAX_TASK_TRIALS` trials, about :data:`TASKS_PER_WORKER` tasks per
  worker per round (the kernels' compile or cache load happens once per
  worker process, not per task); each variant's compiled inputs travel to
  the cluster once, as a task of their own, which the scheduler can
  recompute if the worker holding them dies.
"""
from __future__ import annotations

import math
import re
import uuid

#: trials per task: at least, at most (the runner's local chunk is 2^18)
MIN_TASK_TRIALS = 1 << 14
MAX_TASK_TRIALS = 1 << 20
#: tasks per worker per round of the runner (so every worker has work and a lost one costs little)
TASKS_PER_WORKER = 4
#: re-runs of a task that raised (a worker lost mid-task is re-run by the scheduler anyway)
RETRIES = 3
#: seconds to reach the scheduler, and to wait for its first worker
CONNECT_TIMEOUT_S = 10
#: seconds a scheduler has to greet once connected (a dask server greets at once)
GREETING_S = 5
WORKER_WAIT_S = 30
MAX_LOCAL_WORKERS = 256
DEFAULT_PORT = 8786

_LOCAL = re.compile(r"local:(.*)\Z", re.IGNORECASE)
_REMOTE = re.compile(r"(?:(?P<scheme>[a-z][a-z0-9+.-]*)://)?(?P<host>\[[0-9a-fA-F:.]+\]|[^\s/:\[\]]+)"
                     r"(?::(?P<port>[^/]*))?/?\Z")
_SCHEMES = ("tcp", "tls")


class SchedulerError(ValueError):
    """A ``--scheduler`` address that is malformed or cannot be reached, or a cluster that failed."""


def parse_scheduler(text: str) -> tuple[str, int | str]:
    """``("local", N)`` for ``local:N`` or ``("remote", "tcp://host:port")``.

    Raises :class:`SchedulerError` (one paragraph) for anything else: a
    ``local:`` without a whole number of workers from 1 to
    :data:`MAX_LOCAL_WORKERS`, a scheme other than tcp/tls (such as the
    dashboard's ``http://``), a missing host or a port outside 1..65535. A
    missing port means dask's default, :data:`DEFAULT_PORT`.
    """
    text = str(text).strip()
    m = _LOCAL.match(text)
    if m:
        n = m.group(1).strip()
        if not n.isdigit() or not 1 <= int(n) <= MAX_LOCAL_WORKERS:
            raise SchedulerError(f"--scheduler {text!r}: 'local:N' needs N, the number of worker processes, "
                                 f"as a whole number from 1 to {MAX_LOCAL_WORKERS} (e.g. local:2)")
        return "local", int(n)
    if text.lower() in ("local", "localhost:", "local:"):
        raise SchedulerError(f"--scheduler {text!r}: did you mean 'local:2' (a cluster of 2 worker processes "
                             "on this machine)? A remote scheduler is tcp://HOST:8786")
    m = _REMOTE.match(text)
    scheme = (m.group("scheme") or "tcp").lower() if m else None
    if m is None or scheme not in _SCHEMES:
        hint = (" (http:// is the dashboard; the scheduler itself listens on tcp://HOST:8786)"
                if scheme in ("http", "https") else "")
        raise SchedulerError(f"--scheduler {text!r} is not a dask scheduler address: expected "
                             f"tcp://HOST:PORT (e.g. tcp://10.0.0.5:8786, what 'dask scheduler' prints), "
                             f"HOST:PORT, or local:N for N worker processes on this machine{hint}")
    port = m.group("port")
    if port is None or port == "":
        port = str(DEFAULT_PORT)
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise SchedulerError(f"--scheduler {text!r}: the port must be a number from 1 to 65535 "
                             f"(dask's default is {DEFAULT_PORT}), got {port!r}")
    return "remote", f"{scheme}://{m.group('host')}:{int(port)}"


def run_task(system: str, inputs, start: int, count: int, key, threads: int, version: str,
             tier: int = 1) -> tuple[dict, int]:
    """One task on a worker: trials ``start .. start+count-1`` of one variant.

    Pins numba to ``threads`` threads (at most the worker's
    ``NUMBA_NUM_THREADS``) and refuses to run if the worker's mgsim is
    another version than the client's (its counters could differ). Returns
    the system's counters (dict of int64 arrays) and the engine tier that played
    them: ``tier=2`` asks for the engine generated for the structure (:mod:`sim.tiers`),
    played only when this worker's numba cache holds its build (a task never compiles one;
    the counters are the same either way), else the general engine.
    """
    import numba

    import sim

    if sim.__version__ != version:
        raise SchedulerError(f"this worker runs mgsim {sim.__version__}, the client {version}: "
                             "start the workers from the same version of the package")
    numba.set_num_threads(max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS)))
    from sim.systems import get_system

    mod = get_system(system)
    tier = task_tier(mod, inputs, tier)
    if tier == 2:
        return mod.simulate(inputs, start, count, key, tier=2), 2
    return mod.simulate(inputs, start, count, key), 1


def task_tier(mod, inputs, asked: int) -> int:
    """The tier a worker plays when the client asks for ``asked``: 2 only if the system has tier 2
    and this worker's cache holds the structure's compiled build."""
    if asked != 2 or getattr(mod, "tier2_key", None) is None:
        return 1
    try:
        found = mod.tier2_key(inputs)
    except Exception:  # noqa: BLE001 - the general engine is always a correct answer
        return 1
    return 2 if found is not None and found[1] else 1


def run_trials_task(system: str, inputs, start: int, count: int, key, threads: int, version: str,
                    tier: int = 1):
    """One study task on a worker: the per-trial rows of trials ``start ..
    start+count-1`` (:func:`sim.trials.per_trial`), with the checks of :func:`run_task`, and
    the tier that played them (``tier=2`` asked: as :func:`run_task`)."""
    import numba

    import sim

    if sim.__version__ != version:
        raise SchedulerError(f"this worker runs mgsim {sim.__version__}, the client {version}: "
                             "start the workers from the same version of the package")
    numba.set_num_threads(max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS)))
    import numpy as np
    import pandas as pd

    from sim.systems import get_system
    from sim.trials import trial_columns

    tier = task_tier(get_system(system), inputs, tier)
    cols = trial_columns(system, inputs, start, count, key, tier=tier)
    return pd.DataFrame({"trial": np.arange(start, start + count, dtype=np.int64), **cols}), tier


def _identity(x):
    """The compiled inputs of a variant as a task result (shipped once, recomputable)."""
    return x


def _worker_version() -> str:
    import sim

    return sim.__version__


def in_order(tasks, completed):
    """Release completed tasks in trial order per variant.

    ``tasks`` are ``(variant, start, count)`` triples, contiguous per
    variant; ``completed`` yields ``(index into tasks, counters)`` in any
    order. Yields ``((variant, start, count), counters)`` as soon as every
    earlier task of the same variant has been yielded (out-of-order
    completions wait in a buffer; at most the tasks in flight).
    """
    nxt: dict[int, int] = {}
    for vi, s, _c in tasks:
        nxt[vi] = min(nxt.get(vi, s), s)
    waiting: dict[tuple[int, int], tuple] = {}
    for idx, counters in completed:
        vi, s, c = tasks[idx]
        waiting[(vi, s)] = (tasks[idx], counters)
        while (vi, nxt[vi]) in waiting:
            task, got = waiting.pop((vi, nxt[vi]))
            nxt[vi] += task[2]
            yield task, got
    if waiting:
        raise SchedulerError(f"{len(waiting)} task(s) finished without their predecessors (a gap in the trials)")


class Cluster:
    """A connection to a dask scheduler (and the LocalCluster behind ``local:N``)."""

    def __init__(self, address: str, client, local=None, threads: int = 1):
        self.address = address
        self.client = client
        self.local = local
        self.threads = int(threads)
        self._inputs: dict[int, tuple] = {}
        self._token = uuid.uuid4().hex[:12]
        self._round = 0
        self.most_workers = 0

    @property
    def workers(self) -> int:
        """Worker processes connected now (at least 1 for sizing); remembers the most seen."""
        try:
            n = len(self.client.scheduler_info().get("workers", {}))
        except Exception:
            n = 0
        self.most_workers = max(self.most_workers, n)
        return max(1, n)

    def task_trials(self, remaining: int) -> int:
        """Trials per task for a round of ``remaining`` trials (any size gives the same result)."""
        per = math.ceil(remaining / (TASKS_PER_WORKER * self.workers))
        return int(min(MAX_TASK_TRIALS, max(MIN_TASK_TRIALS, per)))

    def provenance(self) -> dict:
        """``scheduler``, ``dask_workers`` (the most connected at a round's start), ``threads_per_task``."""
        return {"scheduler": self.address, "dask_workers": self.most_workers, "threads_per_task": self.threads}

    def _inputs_future(self, inputs):
        got = self._inputs.get(id(inputs))
        if got is None:
            fut = self.client.submit(_identity, inputs, key=f"sim-inputs-{self._token}-{len(self._inputs)}",
                                     retries=RETRIES)
            got = self._inputs[id(inputs)] = (inputs, fut)  # keep ``inputs`` alive: its id stays unique
        return got[1]

    def results(self, system: str, variants, goals, tiers=None, record=None):
        """Run every variant up to ``goals[v]`` trials from ``variants[v].done``.

        Yields ``((variant, start, count), counters)`` in trial order per
        variant (see :func:`in_order`) while later tasks still run. ``tiers[v]``: the engine
        tier the client asks for (:func:`run_task`; default 1); ``record(v, tier, count)`` is
        told which tier each task played.
        """
        import sim

        remaining = sum(max(0, g - v.done) for v, g in zip(variants, goals))
        if remaining == 0:
            return
        size = self.task_trials(remaining)
        tasks = []
        for vi, (v, goal) in enumerate(zip(variants, goals)):
            for start in range(v.done, goal, size):
                tasks.append((vi, start, min(size, goal - start)))
        self._round += 1
        futures = {}
        try:
            for idx, (vi, s, c) in enumerate(tasks):
                v = variants[vi]
                asked = tiers[vi] if tiers is not None else 1
                fut = self.client.submit(run_task, system, self._inputs_future(v.inputs), s, c, v.key,
                                         self.threads, sim.__version__, asked, retries=RETRIES,
                                         key=f"sim-{system}-{self._token}-r{self._round}-v{vi}-{s}-{c}")
                futures[fut.key] = (idx, fut)
            for (vi, s, c), (counters, played) in in_order(tasks, self._completed(futures)):
                if record is not None:
                    record(vi, played, c)
                yield (vi, s, c), counters
        finally:
            left = [f for _i, f in futures.values() if not f.done()]
            if left:
                try:
                    self.client.cancel(left)
                except Exception:  # the scheduler is gone: nothing left to cancel
                    pass

    def per_trial(self, system: str, inputs, start: int, count: int, key, tier: int = 1, played=None):
        """:func:`sim.trials.per_trial` on the cluster: the trials cut into tasks that
        run on the workers at once, gathered in trial order (the same rows). ``tier``: asked of
        the tasks (:func:`run_trials_task`); ``played`` (a dict), if given, counts the trials
        each tier played."""
        import pandas as pd

        import sim

        size = max(1, min(self.task_trials(count), MAX_TASK_TRIALS))
        self._round += 1
        futures = [self.client.submit(run_trials_task, system, self._inputs_future(inputs), s,
                                      min(size, start + count - s), key, self.threads, sim.__version__,
                                      tier, retries=RETRIES,
                                      key=f"sim-trials-{system}-{self._token}-r{self._round}-{s}")
                   for s in range(start, start + count, size)]
        try:
            parts = self.client.gather(futures)
        except Exception as e:
            raise SchedulerError(f"the study's tasks failed on {self.address}: {type(e).__name__}: {e}") from None
        if played is not None:
            for df, t in parts:
                played[t] = played.get(t, 0) + len(df)
        return pd.concat([df for df, _t in parts], ignore_index=True)

    def _completed(self, futures):
        import asyncio
        import concurrent.futures

        from distributed import as_completed

        try:
            from distributed.scheduler import KilledWorker
        except ImportError:  # pragma: no cover - older layouts
            from distributed import KilledWorker

        for fut in as_completed([f for _i, f in futures.values()], loop=self.client.loop):
            idx, _f = futures[fut.key]
            try:
                counters = fut.result()
            except KilledWorker as e:
                raise SchedulerError(f"a task was lost with its worker too many times on {self.address} "
                                     f"(dask's allowed-failures): {e}. The checkpoint keeps the trials done; "
                                     "run again with --resume") from None
            except (OSError, TimeoutError, asyncio.CancelledError, concurrent.futures.CancelledError) as e:
                raise SchedulerError(f"lost the connection to the dask scheduler at {self.address}: {e}. "
                                     "The checkpoint keeps the trials done; run again with --resume") from None
            fut.release()
            yield idx, counters

    def close(self):
        """Disconnect (and stop the LocalCluster of ``local:N``)."""
        try:
            self.client.close()
        finally:
            if self.local is not None:
                self.local.close()


def connect(scheduler: str, threads: int | None = None) -> Cluster:
    """Connect to ``scheduler`` (see :func:`parse_scheduler`); ``local:N`` starts the cluster.

    Waits up to :data:`CONNECT_TIMEOUT_S` seconds for the scheduler and
    :data:`WORKER_WAIT_S` for its first worker, and checks that the workers
    run the same mgsim version. Raises :class:`SchedulerError` otherwise.
    """
    import logging

    from distributed import Client, LocalCluster

    import sim

    kind, where = parse_scheduler(scheduler)
    threads = int(threads or 1)
    local = None
    if kind == "local":
        local = LocalCluster(n_workers=where, threads_per_worker=1, processes=True, host="127.0.0.1",
                             dashboard_address=None, silence_logs=logging.ERROR,
                             env={"NUMBA_NUM_THREADS": str(threads)})
        address = f"local:{where}"
        target = local
    else:
        address = target = where
        if where.startswith("tcp://"):
            probe(where, CONNECT_TIMEOUT_S)
    try:
        client = Client(target, timeout=CONNECT_TIMEOUT_S, set_as_default=False)
    except (OSError, TimeoutError) as e:
        if local is not None:
            local.close()
        raise SchedulerError(f"cannot reach the dask scheduler at {address} (--scheduler) within "
                             f"{CONNECT_TIMEOUT_S} s ({e}). Start one with 'dask scheduler' and workers with "
                             f"'dask worker {address} --nthreads 1', or use --scheduler local:N to run N "
                             "worker processes on this machine") from None
    cluster = Cluster(address, client, local, threads)
    try:
        _check_workers(cluster, sim.__version__)
        cluster.workers  # noqa: B018 - counts them for the provenance
    except BaseException:
        cluster.close()
        raise
    return cluster


def probe(address: str, deadline_s: float = CONNECT_TIMEOUT_S) -> None:
    """Check within ``deadline_s`` seconds, in all, that a dask scheduler listens at
    ``address`` (``tcp://host:port``): the TCP connection opens and the server sends
    (within :data:`GREETING_S` seconds) the first frame of dask's handshake, which a
    dask server writes as soon as it accepts (an 8-byte little-endian frame count, a small number). Anything else
    (nothing listening, a server that stays silent, such as a web server waiting
    for a request, or one that answers in another protocol) is a
    :class:`SchedulerError`, one paragraph. Plain sockets in this thread: Ctrl-C
    stops it at once."""
    import socket
    import time

    host, port = address[len("tcp://"):].rsplit(":", 1)
    host = host.strip("[]")
    end = time.monotonic() + deadline_s
    hint = (f"Start one with 'dask scheduler' (it prints its tcp:// address) and workers with "
            f"'dask worker {address} --nthreads 1', or use --scheduler local:N to run N worker "
            "processes on this machine")
    try:
        sock = socket.create_connection((host, int(port)), timeout=max(0.1, end - time.monotonic()))
    except OSError as e:
        raise SchedulerError(f"cannot reach the dask scheduler at {address} (--scheduler) within "
                             f"{deadline_s:g} s ({e.strerror or e}). {hint}") from None
    got = b""
    end = min(end, time.monotonic() + GREETING_S)
    try:
        with sock:
            while len(got) < 8:
                left = end - time.monotonic()
                if left <= 0:
                    break
                sock.settimeout(left)
                chunk = sock.recv(8 - len(got))
                if not chunk:
                    break
                got += chunk
    except OSError:
        pass
    if len(got) < 8:
        raise SchedulerError(f"{address} (--scheduler) accepted the connection but did not answer as a dask "
                             f"scheduler within {GREETING_S:g} s (a dask scheduler greets at once; this looks "
                             f"like another service, such as a web server, on that port). {hint}")
    frames = int.from_bytes(got, "little")
    if not 1 <= frames <= 64:
        shown = got.decode("latin-1").encode("unicode_escape").decode("ascii")
        raise SchedulerError(f"{address} (--scheduler) answered, but not as a dask scheduler (it sent "
                             f"{shown!r}). {hint}")


def _check_workers(cluster: Cluster, version: str) -> None:
    """At least one worker within :data:`WORKER_WAIT_S` s, and every worker on ``version``."""
    try:
        cluster.client.wait_for_workers(1, timeout=WORKER_WAIT_S)
    except (OSError, TimeoutError) as e:
        raise SchedulerError(f"the dask scheduler at {cluster.address} has no workers after {WORKER_WAIT_S} s "
                             f"({e}); start some with 'dask worker {cluster.address} --nthreads 1'") from None
    try:
        versions = cluster.client.run(_worker_version)
    except Exception as e:
        raise SchedulerError(f"the dask workers of {cluster.address} cannot import mgsim ({type(e).__name__}: "
                             f"{e}); start them where 'import sim' works (the package installed, or "
                             "PYTHONPATH set to the source tree)") from None
    bad = {w: v for w, v in versions.items() if v != version}
    if bad:
        listed = ", ".join(f"{w} runs {v}" for w, v in sorted(bad.items()))
        raise SchedulerError(f"dask workers of {cluster.address} run another mgsim than this client "
                             f"({version}): {listed}; start them from the same version")
