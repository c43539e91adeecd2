"""Run a loaded scenario: chunks of trials, threads and workers, precision stopping.

Work is cut into tasks of at most :data:`CHUNK` trials ``(variant, start,
count)``. Each task calls the system's ``simulate`` (a numba kernel using
``prange`` threads); tasks run in this process or, with ``workers > 1``, in
joblib worker processes. Counters are int64 arrays that are summed, so the
result is the same for any thread count, worker count or chunking, and a run
of N trials is a prefix of a run of 2N (trial ``i`` always uses the streams
keyed by ``(seed, variant key, i, purpose)``).

Memory is bounded: only counters and histograms are kept, never per-trial
arrays, so 10^8 trials need no more memory than 10^4.

Checkpoints: with ``checkpoint=PATH`` the counters and trials done per
variant are saved (atomically, at most every :data:`CHECKPOINT_EVERY_S`
seconds and on Ctrl-C); ``resume=True`` continues from such a file if it
belongs to the same scenario text, seed and variants. Because counters add
up and trials are keyed by index, a resumed run equals an uninterrupted one.

Precision stopping (``precision=H``): every variant runs a floor of
:data:`PRECISION_FLOOR` trials, then doubles its trial count until the 95%
Wilson half-width of each of its win, loss and draw rates is at most ``H``,
or until ``max_trials``.
"""
from __future__ import annotations

import datetime as _dt
import os
import platform
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

import sim
from sim import cancel as _cancel
from sim import rng
from sim import tiers as _tiers
from sim.progress import make_progress, trials_for_precision
from sim.results import RunResult
from sim.stats import mean_and_se_from_hist, rate_table, wilson_half_width

CHUNK = 1 << 18
#: seconds of work a chunk aims at (:class:`sim.cancel.Chunker`); ``None``: every chunk is :data:`CHUNK`
CHUNK_TARGET_S: float | None = _cancel.TARGET_S
PRECISION_FLOOR = 10_000
#: seconds between two checkpoint saves, at least (the environment's ``MGSIM_CHECKPOINT_EVERY_S`` sets it)
CHECKPOINT_EVERY_S = float(os.environ.get("MGSIM_CHECKPOINT_EVERY_S", 5.0))


class RunError(ValueError):
    """Bad run options (trials, workers...)."""


class RunCancelled(KeyboardInterrupt):
    """A run stopped because its ``cancel`` said so (``api.run(cancel=...)``) or by Ctrl-C.

    A :class:`KeyboardInterrupt`, so every caller that keeps work on Ctrl-C
    (the checkpoint is saved with the trials finished so far) keeps it on a
    cancel too; ``done`` is the trials finished per variant; ``checkpoint``
    the file that keeps them (``None``: nothing was kept, e.g. ``--no-write``);
    ``resume``: the command that continues the work (``None``: none).
    """

    def __init__(self, done: dict | None = None, checkpoint=None, resume: str | None = None):
        super().__init__("cancelled")
        self.done = dict(done or {})
        self.checkpoint = checkpoint
        self.resume = resume

    def message(self) -> str:
        """One paragraph for the terminal: what was kept and how to go on."""
        trials = sum(self.done.values())
        if self.checkpoint is None:
            return ("interrupted; nothing was written and nothing is kept (a run with --no-write keeps "
                    "no checkpoint)")
        how = f" Continue with `{self.resume}`." if self.resume else ""
        return (f"interrupted; no report was written. The {trials:,} trials finished are kept in "
                f"{self.checkpoint}.{how}")


def cancel_requested(cancel) -> bool:
    """Whether ``cancel`` asks to stop (:func:`sim.cancel.requested`)."""
    return _cancel.requested(cancel)


@dataclass
class _Variant:
    name: str
    model: object
    inputs: object
    key: np.uint64
    counters: dict | None = None
    tiers: object | None = None  # the run's :class:`sim.tiers.Plan` (chunks played here)
    done: int = 0


def _task(system: str, inputs, start: int, count: int, key, threads: int | None, tier: int = 1) -> dict:
    """One chunk of trials (runs in this process or a joblib worker); ``tier`` 2 plays it on
    the engine generated for the structure (:mod:`sim.tiers`: the same counters)."""
    if threads:
        import numba

        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    from sim.systems import get_system

    if tier != 1:
        return get_system(system).simulate(inputs, start, count, key, tier=tier)
    return get_system(system).simulate(inputs, start, count, key)


def _merge(a: dict | None, b: dict) -> dict:
    if a is None:
        return {k: v.copy() for k, v in b.items()}
    if a.keys() != b.keys() or any(a[k].shape != v.shape for k, v in b.items()):
        raise RunError("the counters of the checkpoint resumed do not fit this scenario's (a damaged "
                       "checkpoint): remove it and run without --resume")
    for k, v in b.items():
        a[k] += v
    return a


def _check_options(trials, precision, workers, threads, max_trials):
    if trials is not None and (not isinstance(trials, (int, np.integer)) or trials < 1 or trials > 10**10):
        raise RunError(f"--trials must be a whole number from 1 to 10^10, got {trials}")
    if precision is not None and not (0 < precision < 0.5):
        raise RunError(f"--precision must be between 0 and 0.5 (a half-width such as 0.005), got {precision}")
    if workers < 1 or workers > 256:
        raise RunError(f"--workers must be from 1 to 256, got {workers}")
    if threads is not None and (threads < 1 or threads > 1024):
        raise RunError(f"--threads must be from 1 to 1024, got {threads}")
    if max_trials is not None and max_trials < 1:
        raise RunError(f"--max-trials must be at least 1, got {max_trials}")


def check_run_options(trials=None, precision=None, workers=1, threads=None, max_trials=None, seed=None):
    """Raise :class:`RunError` for a bad option (before anything is written)."""
    _check_options(trials, precision, workers, threads, max_trials)
    if seed is not None and (not isinstance(seed, (int, np.integer)) or seed < 0 or seed >= 2**63):
        raise RunError(f"--seed must be a whole number from 0 to 2^63-1, got {seed}")


def _make_variants(loaded, seed: int, crn: bool) -> list[_Variant]:
    """One :class:`_Variant` per variant, its streams keyed by ``(seed, variant key)``."""
    out = []
    for idx, (name, model) in enumerate(loaded.variants):
        key = rng.stream_key(seed, 0 if crn else idx + 1)
        out.append(_Variant(name, model, loaded.module.compile(model), key))
    return out


def _request(base, trials, precision, max_trials) -> dict:
    """What a run asks for (recorded in its checkpoint; ``--resume`` must ask the same).

    A fixed-trial run: ``trials`` per variant. A precision run: the half-width,
    the cap and the ``--trials`` floor it was given (``None``: the default floor).
    """
    if precision is None:
        return {"trials": int(base.trials if trials is None else trials), "precision": None,
                "max_trials": None}
    return {"trials": None if trials is None else int(trials), "precision": float(precision),
            "max_trials": int(max_trials)}


def run_loaded(loaded, *, trials: int | None = None, precision: float | None = None,
               seed: int | None = None, workers: int = 1, threads: int | None = None,
               max_trials: int | None = None, progress: bool | str = False,
               checkpoint: Path | None = None, resume: bool = False,
               keep_checkpoint: bool = False, scheduler: str | None = None, backend=None,
               cancel=None) -> RunResult:
    """Simulate every variant of ``loaded`` (a :class:`sim.scenario.LoadedScenario`).

    ``progress``: a mode of :func:`sim.progress.make_progress` (``True`` is
    ``"auto"``). ``checkpoint``: the ``.npz`` to save counters to (and, with
    ``resume``, to continue from). It is removed at the end, unless
    ``keep_checkpoint``: then it is saved once more marked complete, and the
    caller removes it once the report is written (``sim report`` can write the
    report from a complete one). ``scheduler`` (``tcp://host:8786`` or
    ``local:N``) runs the tasks on a dask.distributed cluster
    (:mod:`sim.distributed`) instead of joblib; the result is the same.
    ``backend``: a cluster already connected by the caller (:func:`connect_scheduler`),
    which the caller closes. ``cancel`` (see :func:`cancel_requested`) is
    looked at before every chunk of trials: once it is set the run stops,
    saves its checkpoint and raises :class:`RunCancelled`.
    """
    check_run_options(trials, precision, workers, threads, max_trials)
    base = loaded.base
    seed = base.seed if seed is None else seed
    check_run_options(seed=seed)
    precision = base.precision if precision is None else precision
    max_trials = base.max_trials if max_trials is None else max_trials
    crn = getattr(base, "crn", True)
    variants = _make_variants(loaded, seed, crn)
    if workers > 1 and threads is None:
        threads = max(1, (os.cpu_count() or 1) // workers)
    request = _request(base, trials, precision, max_trials)
    ckpt = None
    if checkpoint is not None:
        ckpt = _Checkpoint(checkpoint, loaded, seed, crn, variants, request, workers, threads)
    if ckpt is not None and resume:
        ckpt.restore(variants)
    resumed = {v.name: v.done for v in variants}
    own = backend is None
    if own:
        backend = _dask(scheduler, workers, threads)
    bar = make_progress(progress)
    finished = False
    speak = bar is not None and not callable(progress)  # a terminal's run, not --quiet nor the workbench's
    plan = _tiers.Plan(loaded.system, quiet=not speak)
    for v in variants:
        v.tiers = plan
    try:
        _simulate(loaded.system, variants, request, workers, threads, bar, ckpt, backend, cancel)
        finished = True
    except KeyboardInterrupt as e:  # Ctrl-C or a cancel: keep the trials finished
        if ckpt is not None:
            ckpt.save(variants, force=True)
        stop = e if isinstance(e, RunCancelled) else RunCancelled()
        stop.done = {v.name: v.done for v in variants}
        stop.checkpoint = ckpt.path if ckpt is not None else None
        raise stop from None
    except BaseException:
        if ckpt is not None:
            ckpt.save(variants, force=True, quiet=True)
        raise
    finally:
        plan.close()
        if bar is not None:
            bar.close(final=finished)
        if own and backend is not None:
            backend.close()
    said = plan.summary()
    if said and speak:
        print(said, file=sys.stderr, flush=True)
    if ckpt is not None:
        if keep_checkpoint:
            ckpt.save(variants, force=True, complete=True)
        else:
            ckpt.remove()
    result = _result(loaded, variants, seed, precision, max_trials, crn, workers, threads)
    result.provenance.update(plan.provenance({v.name: v.done for v in variants}, resumed))
    if backend is not None:
        result.provenance.update(backend.provenance())
    return result


def connect_scheduler(scheduler, workers=1, threads=None):
    """The dask cluster of ``--scheduler``, connected (``None`` without one): for a
    caller that must know it is reachable before writing anything (``sim.api.run``)."""
    return _dask(scheduler, workers, threads)


def _dask(scheduler, workers, threads):
    """The dask cluster of ``--scheduler`` (``None``: joblib or this process)."""
    if scheduler is None:
        return None
    if workers > 1:
        raise RunError(f"--workers {workers} starts local joblib processes and --scheduler {scheduler} "
                       "sends the tasks to a dask cluster: give one of them (local:N starts N dask workers "
                       "on this machine)")
    from sim import distributed

    try:
        return distributed.connect(scheduler, threads)
    except distributed.SchedulerError as e:
        raise RunError(str(e)) from None


def _remote(backend, system, variants, goals):
    """The cluster's results in trial order per variant; its errors as :class:`RunError`. A
    structure this machine's cache holds a tier-2 build of is asked of the workers on tier 2
    (:meth:`sim.tiers.Plan.pooled_tier`; each worker plays it if its own cache holds the build,
    :func:`sim.distributed.run_task`), and the run records what each task played."""
    from sim.distributed import SchedulerError

    tiers = [v.tiers.pooled_tier(v.name, v.inputs, g - v.done) if v.tiers is not None and g > v.done else 1
             for v, g in zip(variants, goals)]

    def record(vi, tier, count):
        if variants[vi].tiers is not None:
            variants[vi].tiers.record(variants[vi].name, tier, count)

    try:
        yield from backend.results(system, variants, goals, tiers, record)
    except SchedulerError as e:
        raise RunError(str(e)) from None


def _simulate(system, variants, request, workers, threads, bar, ckpt, backend=None, cancel=None) -> None:
    """Run the trials ``request`` asks for (fixed, or doubling to a precision)."""
    precision, max_trials = request["precision"], request["max_trials"]
    if precision is None:
        target = request["trials"]
        if bar is not None:
            bar.set_total(sum(max(0, target - v.done) for v in variants))
        _advance(system, variants, [target] * len(variants), workers, threads, bar, ckpt, backend, cancel)
        return
    target = min(max(PRECISION_FLOOR, request["trials"] or 0), max_trials)
    pending = list(range(len(variants)))
    while pending:
        goals = [target if i in pending else variants[i].done for i in range(len(variants))]
        if bar is not None:
            bar.set_total(bar.n + _precision_estimate(variants, pending, target, precision, max_trials),
                          estimate=True)
        _advance(system, variants, goals, workers, threads, bar, ckpt, backend, cancel)
        pending = [i for i in pending if not _precise(variants[i], precision)]
        if target >= max_trials:
            break
        target = min(target * 2, max_trials)


def _precision_estimate(variants, pending, target, h, max_trials) -> int:
    """Trials still to run, estimated: each pending variant doubles from
    ``target`` until the normal approximation of its Wilson half-width
    (:func:`sim.progress.trials_for_precision`) is at most ``h``, capped at ``max_trials``."""
    left = 0
    for i in pending:
        v = variants[i]
        final = target
        if v.counters is not None and int(v.counters["outcomes"].sum()) > 0:
            o = v.counters["outcomes"]
            need = trials_for_precision(o / o.sum(), h)
            while final < need and final < max_trials:
                final = min(final * 2, max_trials)
        left += max(0, final - v.done)
    return left


def _advance(system, variants, goals, workers, threads, bar, ckpt=None, backend=None, cancel=None):
    """Run every variant ``v`` up to ``goals[v]`` trials (never fewer than done).

    Chunks of one variant are merged in order, so ``done`` is always a
    contiguous prefix of trials (what a checkpoint records). In this process
    the chunks follow the measured cost of a trial (:func:`chunker`) and run
    through :func:`sim.cancel.call`, so Ctrl-C or ``cancel`` stops within about
    a chunk (:data:`CHUNK_TARGET_S`) and keeps every whole chunk. With a dask
    ``backend`` its tasks stream back as they finish, in order per variant.
    """
    plan = variants[0].tiers if variants else None
    if plan is not None:  # tier 2 is worth its build per structure: the variants sharing one add up
        plan.plan_all([(v.name, v.inputs, g - v.done) for v, g in zip(variants, goals) if v.done < g])
    if backend is not None:
        _merge_all(_remote(backend, system, variants, goals), variants, bar, ckpt, cancel)
        return
    if all(v.done >= g for v, g in zip(variants, goals)):
        return
    if threads:
        import numba

        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    sizes = chunker(CHUNK, threads if workers == 1 else 1)
    if workers > 1:
        # one chunk here measures a trial; the pool's tasks are then sized from it
        vi = next(i for i, (v, g) in enumerate(zip(variants, goals)) if v.done < g)
        _local_chunks(system, variants, vi, variants[vi].done + sizes.size(goals[vi] - variants[vi].done),
                      sizes, bar, ckpt, cancel)
        _pool(system, variants, goals, workers, threads, bar, ckpt, cancel, sizes)
        return
    for vi, goal in enumerate(goals):
        _local_chunks(system, variants, vi, goal, sizes, bar, ckpt, cancel)


def chunker(cap: int, threads: int | None = None) -> _cancel.Chunker:
    """Chunk sizes for this run: from one trial per thread, growing toward
    :data:`CHUNK_TARGET_S` seconds a chunk, at most ``cap``; fixed at ``cap``
    when :data:`CHUNK_TARGET_S` is ``None``."""
    if CHUNK_TARGET_S is None:
        return _cancel.Chunker(cap, floor=cap)
    import numba

    n = threads or numba.get_num_threads()
    return _cancel.Chunker(cap, floor=max(1, int(n)), target_s=CHUNK_TARGET_S)


def _local_chunks(system, variants, vi, goal, sizes, bar, ckpt, cancel):
    """Variant ``vi`` up to ``goal`` trials, chunk by chunk in this process."""
    import time

    v = variants[vi]
    heartbeat = getattr(bar, "working", None)
    tiers = v.tiers
    if tiers is not None:
        tiers.plan(v.name, v.inputs, goal - v.done)
    while v.done < goal:
        count = sizes.size(goal - v.done)
        tier = tiers.tier(v.name, v.inputs) if tiers is not None else 1
        t0 = time.monotonic()
        try:
            more = (tier,) if tier != 1 else ()  # tier 2: the engine generated for the structure
            counters = _cancel.call(_task, system, v.inputs, v.done, count, v.key, None, *more, cancel=cancel,
                                    heartbeat=heartbeat, grace=sizes.grace(count))
        except _cancel.Stopped as e:
            if e.has_result:  # the chunk in progress ended whole: keep it
                _merge_all([((vi, v.done, count), e.result)], variants, bar, ckpt)
            raise RunCancelled({w.name: w.done for w in variants}) from None
        if tier == 1:  # the chunk sizes follow the general engine's pace (tier 2 chunks are shorter)
            sizes.record(count, time.monotonic() - t0)
        if tiers is not None:
            tiers.record(v.name, tier, count)
        _merge_all([((vi, v.done, count), counters)], variants, bar, ckpt, cancel)


def _pool(system, variants, goals, workers, threads, bar, ckpt, cancel, sizes):
    """The rest of the trials in ``workers`` joblib processes, tasks sized by ``sizes``."""
    from joblib import Parallel, delayed

    tasks = []
    tier = {}
    for vi, (v, goal) in enumerate(zip(variants, goals)):
        start = v.done
        # a structure an earlier run compiled plays tier 2 in the workers too (no build starts here)
        tier[vi] = v.tiers.pooled_tier(v.name, v.inputs, goal - start) if v.tiers is not None else 1
        while start < goal:
            count = sizes.size(goal - start)
            tasks.append((vi, start, count))
            start += count
    if not tasks:
        return
    par = Parallel(n_jobs=workers, backend="loky", return_as="generator")
    results = par(delayed(_task)(system, variants[vi].inputs, s, c, variants[vi].key, threads,
                                 *((2,) if tier[vi] == 2 else ()))
                  for vi, s, c in tasks)

    def recorded():
        for (vi, s, c), counters in zip(tasks, results):
            if variants[vi].tiers is not None:
                variants[vi].tiers.record(variants[vi].name, tier[vi], c)
            yield (vi, s, c), counters

    _merge_all(recorded(), variants, bar, ckpt, cancel)


def _check_cancel(cancel, variants) -> bool:
    """Raise :class:`RunCancelled` when ``cancel`` is set (else ``False``)."""
    if cancel_requested(cancel):
        raise RunCancelled({v.name: v.done for v in variants})
    return False


def _merge_all(pairs, variants, bar, ckpt, cancel=None):
    """Merge ``((variant, start, count), counters)`` pairs given in trial order per variant;
    stop with :class:`RunCancelled` once ``cancel`` is set."""
    for (vi, s, c), counters in pairs:
        v = variants[vi]
        v.counters = _merge(v.counters, counters)
        v.done = s + c
        if bar is not None:
            bar.update(c)
        if ckpt is not None:
            ckpt.save(variants)
        _check_cancel(cancel, variants)


class CheckpointWriteError(RunError):
    """A checkpoint could not be written; the message names what is kept."""


def write_npz(path: Path, arrays: dict, owner, trials: int, quiet: bool = False,
              resume: str = "the same command with --resume") -> None:
    """Write ``arrays`` to ``path`` atomically (a temporary sibling, then a rename).

    ``owner`` remembers the trials of its last good write (``owner.kept``) for
    the message of a failed one (:class:`CheckpointWriteError`, no temporary
    file left); ``quiet``: a failure is ignored (the caller is failing already).
    """
    tmp = path.with_name(path.name + ".tmp.npz")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(tmp, **arrays)
        os.replace(tmp, path)
    except OSError as e:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
        if quiet:
            return
        kept = getattr(owner, "kept", None)
        what = (f"{kept:,} trials finished earlier are kept in {path}; continue with {resume} once "
                "the problem is fixed" if kept is not None and path.is_file() else
                "no checkpoint had been written yet, so nothing is kept; run again once the problem is fixed")
        raise CheckpointWriteError(
            f"could not write the checkpoint {path} ({e.strerror or e}); the run stopped there and "
            f"wrote no report. {what[0].upper()}{what[1:]}.") from None
    owner.kept = int(trials)


#: identity of a checkpoint: a run of another scenario text, seed or variant list cannot continue it
_IDENTITY = ("sha256", "seed", "crn", "variants", "version")
#: how ``--resume`` names each part of a run's request
_FLAGS = {"trials": "--trials", "precision": "--precision", "max_trials": "--max-trials"}


class _Checkpoint:
    """Counters and trials done per variant, saved as ``.npz`` (atomic replace).

    ``meta`` (JSON) holds the identity (:data:`_IDENTITY`), the request
    (:func:`_request`), the scenario text and path (for ``sim report``), the
    workers and threads (provenance only) and ``complete`` (the run finished).
    """

    def __init__(self, path, loaded, seed, crn, variants, request, workers=1, threads=None):
        import time

        self.path = Path(path)
        self._time = time.monotonic
        self._last = self._time()
        self.meta = {"sha256": loaded.sha256, "seed": int(seed), "crn": bool(crn),
                     "variants": [v.name for v in variants], "version": sim.__version__,
                     "request": dict(request), "scenario_text": getattr(loaded, "text", ""),
                     "scenario_path": str(loaded.path), "workers": int(workers),
                     "threads": int(threads) if threads else None, "complete": False}
        self.kept: int | None = None  # trials in the last checkpoint written (or restored)

    def save(self, variants, force: bool = False, complete: bool = False, quiet: bool = False):
        """Write the counters (at most every :data:`CHECKPOINT_EVERY_S` s unless ``force``).

        A failed write (disk full, quota, a file size limit) leaves no temporary
        file and raises :class:`CheckpointWriteError` naming what is kept (the
        last checkpoint written, if any); ``quiet``: say nothing (a run that is
        failing already)."""
        import json

        now = self._time()
        if not force and now - self._last < CHECKPOINT_EVERY_S:
            return
        self._last = now
        meta = json.dumps(dict(self.meta, complete=bool(complete)))
        arrays = {"meta": np.array(meta), "done": np.array([v.done for v in variants], dtype=np.int64)}
        for i, v in enumerate(variants):
            for k, a in (v.counters or {}).items():
                arrays[f"v{i}:{k}"] = a
        write_npz(self.path, arrays, self, sum(v.done for v in variants), quiet)

    def restore(self, variants) -> bool:
        """Continue from the file (False when there is none); refuse another run's."""
        if not self.path.is_file():
            return False
        meta, done, counters = read_checkpoint(self.path)
        if any(meta.get(k) != self.meta[k] for k in _IDENTITY):
            raise RunError(f"checkpoint {self.path} belongs to another scenario text, seed or "
                           "variant list (or another mgsim version); remove it or run without --resume")
        diffs = _request_diffs(meta.get("request") or {}, self.meta["request"])
        if diffs:
            want = " ".join(f"{_FLAGS[k]} {v}" for k, v in (meta.get("request") or {}).items()
                            if v is not None)
            raise RunError(f"--resume: checkpoint {self.path} was made by a run that asked for other "
                           f"options: {'; '.join(diffs)}. Resuming would mix trial counts, so it is "
                           f"refused: resume with the same options ({want or 'the defaults'}), or run "
                           "without --resume to start afresh.")
        for i, v in enumerate(variants):
            v.counters = counters[i] or None
            v.done = int(done[i]) if counters[i] else 0
        self.kept = sum(v.done for v in variants)
        return True

    def remove(self):
        for p in (self.path, self.path.with_name(self.path.name + ".tmp.npz")):
            if p.exists():
                p.unlink()


def _request_diffs(old: dict, new: dict) -> list[str]:
    """``["trials: 4,000,000 in the checkpoint, 1,000,000 now", ...]`` for each difference."""
    def shown(v):
        return "not set" if v is None else (f"{v:,}" if isinstance(v, int) else str(v))

    return [f"{k}: {shown(old.get(k))} in the checkpoint, {shown(new.get(k))} now"
            for k in _FLAGS if old.get(k) != new.get(k)]


def read_checkpoint(path) -> tuple[dict, np.ndarray, list[dict]]:
    """``(meta, done per variant, counters per variant)`` of a checkpoint file.

    Checked before use (:mod:`sim.checkfile`): sizes and dtypes, the run's
    description (:func:`_check_meta`), one ``done`` per variant, counters of
    whole non-negative numbers, the same counters for every variant, and
    every variant's outcomes and rounds adding up to its ``done``. Raises
    :class:`RunError` (one paragraph) for a file that fails any of it.
    """
    from sim import checkfile as cf

    path = Path(path)
    try:
        arrays = cf.load_arrays(path)
        meta = cf.read_meta(path, arrays)
        if meta.get("kind") == "study":
            raise cf.DamagedCheckpoint(f"{path} is a study's checkpoint, not a run's: write its report "
                                       f"with `sim report {path}`, or continue it with `sim study FILE --resume`")
        _check_meta(path, meta)
        done = cf.counts(path, cf.need(path, arrays, "done", kind="i", ndim=1), "'done'")
        counters = _check_counters(path, arrays, meta, done)
    except FileNotFoundError:
        raise RunError(f"{path}: no such checkpoint file") from None
    except cf.DamagedCheckpoint as e:
        raise RunError(str(e)) from None
    return meta, done, counters


def _check_meta(path, meta: dict) -> None:
    """The fields of a run checkpoint's ``meta`` with their types (:mod:`sim.checkfile`)."""
    from sim import checkfile as cf

    cf.meta_field(path, meta, "sha256", "str")
    cf.meta_field(path, meta, "seed", "int", lo=0, hi=2**63 - 1)
    cf.meta_field(path, meta, "crn", "bool")
    names = cf.meta_field(path, meta, "variants", "list")
    if not names or not all(isinstance(n, str) for n in names):
        raise cf.damaged(path, "its variant list is empty or not a list of names")
    cf.meta_field(path, meta, "version", "str")
    cf.meta_field(path, meta, "complete", "bool", optional=True)
    cf.meta_field(path, meta, "scenario_text", "str", optional=True)
    cf.meta_field(path, meta, "scenario_path", "str", optional=True)
    cf.meta_field(path, meta, "workers", "int", optional=True, lo=1, hi=256)
    cf.meta_field(path, meta, "threads", "int", optional=True, lo=1, hi=1024)
    req = cf.meta_field(path, meta, "request", "dict", optional=True)
    if req is not None:
        cf.meta_field(path, req, "trials", "int", optional=True, lo=1, hi=10**10)
        cf.meta_field(path, req, "precision", "float", optional=True, lo=0, hi=0.5)
        cf.meta_field(path, req, "max_trials", "int", optional=True, lo=1, hi=10**12)


def _check_counters(path, arrays: dict, meta: dict, done: np.ndarray) -> list[dict]:
    """Counters per variant, checked against ``done`` (see :func:`read_checkpoint`)."""
    from sim import checkfile as cf

    n = len(meta["variants"])
    if len(done) != n:
        raise cf.damaged(path, f"'done' has {len(done)} entries for {n} variants")
    counters: list[dict] = [{} for _ in range(n)]
    for key, a in arrays.items():
        if key in ("meta", "done"):
            continue
        head, _, name = key.partition(":")
        if not (head[:1] == "v" and head[1:].isdigit() and name) or int(head[1:]) >= n:
            raise cf.damaged(path, f"it holds an array {key!r} that belongs to no variant")
        counters[int(head[1:])][name] = cf.counts(path, a, f"the counter {key!r}")
    keys = None
    for i, c in enumerate(counters):
        if not c:
            if done[i]:
                raise cf.damaged(path, f"variant {meta['variants'][i]!r} has {int(done[i]):,} trials done "
                                 "but no counters")
            continue
        if keys is not None and set(c) != keys:
            raise cf.damaged(path, f"variant {meta['variants'][i]!r} has other counters than the others "
                             f"({', '.join(sorted(set(c) ^ keys))})")
        keys = set(c)
        for k in ("outcomes", "rounds_hist"):
            if k not in c:
                raise cf.damaged(path, f"variant {meta['variants'][i]!r} lacks its {k!r} counter")
        if c["outcomes"].shape != (3,):
            raise cf.damaged(path, f"variant {meta['variants'][i]!r}: 'outcomes' has shape "
                             f"{c['outcomes'].shape}, not (3,) (wins, losses, draws)")
        for k in ("outcomes", "rounds_hist"):
            if int(c[k].sum()) != int(done[i]):
                raise cf.damaged(path, f"variant {meta['variants'][i]!r}: its {k!r} add up to "
                                 f"{int(c[k].sum()):,} trials but 'done' says {int(done[i]):,}")
    return counters


def result_from_checkpoint(path) -> RunResult:
    """The :class:`RunResult` a finished run would have returned, from its checkpoint.

    The checkpoint must be complete (the simulation finished; only writing the
    report failed) and carry the scenario text. Used by ``sim report``.
    """
    from sim.scenario import load_scenario_text

    meta, done, counters = read_checkpoint(path)
    if not meta.get("scenario_text") or "request" not in meta:
        raise RunError(f"checkpoint {path} was made by an older mgsim without the scenario text; "
                       "run the scenario again (with --resume to use its counters)")
    if not meta.get("complete"):
        raise RunError(f"checkpoint {path} is of a run that has not finished; continue it with "
                       f"`sim run {meta.get('scenario_path', 'FILE')} --resume` and the same options")
    loaded = load_scenario_text(meta["scenario_text"], meta.get("scenario_path", "<checkpoint>"))
    seed, crn, req = int(meta["seed"]), bool(meta["crn"]), meta["request"]
    variants = _make_variants(loaded, seed, crn)
    if [v.name for v in variants] != meta.get("variants") or loaded.sha256 != meta.get("sha256"):
        raise RunError(f"checkpoint {path} does not match the scenario text it carries")
    max_trials = req.get("max_trials") if req.get("max_trials") is not None else loaded.base.max_trials
    for i, v in enumerate(variants):
        v.counters, v.done = counters[i], int(done[i])
        want = req.get("trials") if req.get("precision") is None else None
        if v.done < 1 or (want is not None and v.done != want) or v.done > max(max_trials, want or 0):
            raise RunError(f"checkpoint {path} is damaged: it says the run finished, but variant {v.name!r} "
                           f"has {v.done:,} trials done where the run asked for "
                           f"{f'{want:,}' if want else f'1 to {max_trials:,}'}. {_ADVICE}")
    try:
        return _result(loaded, variants, seed, req.get("precision"), max_trials, crn,
                       int(meta.get("workers") or 1), meta.get("threads"))
    except (ValueError, KeyError, IndexError, TypeError) as e:
        raise RunError(f"checkpoint {path} is damaged: its counters do not fit the scenario it carries "
                       f"({type(e).__name__}: {e}). {_ADVICE}") from None


_ADVICE = ("It cannot be used: remove it (or restore a good copy) and run the scenario again; a fresh run "
           "plays the same trials.")


#: checkpoints one scenario and seed may have at once (concurrent runs)
MAX_CHECKPOINT_SLOTS = 64


def claim_checkpoint(path, *, resume: bool = False, shared: bool = True, what: str = "run", accept=None):
    """Pick and lock the checkpoint this run owns: ``(path, lock, notices)``.

    Each checkpoint ``X.npz`` is locked (``filelock``, ``X.npz.lock``) while its
    run runs. ``shared`` (the default run directory): runs of one scenario and
    seed share a folder, so a run whose checkpoint is locked by another takes
    the next free one (``X-2.npz``, ``X-3.npz``...) and both complete; a fresh
    run also leaves alone an unlocked checkpoint that an earlier run left (a
    notice says how to continue it). ``resume``: the first unlocked existing
    checkpoint; when there is none, a notice and a fresh start. Not ``shared``
    (``--out``): one checkpoint beside the directory; a lock held by another
    run is a :class:`RunError`. The caller releases ``lock``. ``what``: what the
    messages call the work (``"run"``, ``"study"``). ``accept(p)``: with ``resume``, why the
    checkpoint ``p`` is not this work's (a sentence) or None; the first it accepts is resumed,
    and when it accepts none of the existing ones the first one's reason is a :class:`RunError`.
    """
    from filelock import FileLock, Timeout

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    slots = [path] + ([path.with_name(f"{path.stem}-{k}{path.suffix}")
                       for k in range(2, MAX_CHECKPOINT_SLOTS + 1)] if shared else [])

    def lock_of(p):
        lock = FileLock(str(p) + ".lock", timeout=0)
        try:
            lock.acquire()
        except Timeout:
            return None
        return lock

    notices, busy, stale, refused = [], [], [], []
    if resume:
        for p in (p for p in slots if p.is_file()):
            lock = lock_of(p)
            why = None if lock is None or accept is None else accept(p)
            if lock is not None and why is None:
                return p, lock, notices
            if lock is None:
                busy.append(p)
            else:
                refused.append(why)
                lock.release()
        if refused and not busy:
            raise RunError(refused[0])
        if busy:
            raise RunError(f"--resume: checkpoint {busy[0]} belongs to a {what} that is still going "
                           "(it is locked); wait for it to finish, or run without --resume")
        notices.append(f"note: --resume: no checkpoint of this scenario and seed at {path}; "
                       "starting from trial 0")
    for p in slots:
        lock = lock_of(p)
        if lock is None:
            if not shared:
                raise RunError(f"another {what} is writing the same output right now (its checkpoint "
                               f"{p} is locked); wait for it, or choose another --out")
            busy.append(p)
            continue
        if shared and p.is_file() and not resume:
            stale.append(p)
            lock.release()
            continue
        if busy:
            notices.append(f"note: another {what} of this scenario and seed is running; this {what} keeps "
                           f"its own checkpoint {p}")
        if stale:
            notices.append(f"note: {stale[0]} holds the work of an earlier {what} that did not "
                           "finish (continue it with --resume) or whose report was not written "
                           f"(write it with `sim report {stale[0]}`); it is left as it is")
        return p, lock, notices
    raise RunError(f"more than {MAX_CHECKPOINT_SLOTS} {what}s of this scenario and seed hold checkpoints "
                   f"in {path.parent}; finish or remove some")


def _precise(v: _Variant, h: float) -> bool:
    o = v.counters["outcomes"]
    n = int(o.sum())
    return all(wilson_half_width(int(k), n) <= h for k in o)


def _result(loaded, variants, seed, precision, max_trials, crn, workers, threads) -> RunResult:
    module = loaded.module
    rows, curves, rounds = [], [], []
    tables: dict[str, list] = {}
    notes: list[str] = []
    for v in variants:
        c = v.counters
        w, l, d = (int(x) for x in c["outcomes"])
        n = w + l + d
        hist = c["rounds_hist"]
        mean, se = mean_and_se_from_hist(np.arange(len(hist)), hist)
        row = {"variant": v.name, "trials": n, "wins": w, "losses": l, "draws": d}
        row.update(rate_table(w, l, d))
        row["mean_rounds"] = float(mean)
        row["mean_rounds_se"] = float(se) if se == se else None
        rows.append(row)
        rounds.append(pd.DataFrame({"variant": v.name, "rounds": np.arange(1, len(hist)),
                                    "count": hist[1:]}))
        frames = module.summarize(c, v.inputs, v.name)
        row.update(frames.get("summary", {}))  # columns a system adds to the summary (e.g. an episode's)
        curves.append(frames["curves"])
        for name, df in frames.get("tables", {}).items():
            tables.setdefault(name, []).append(df)
        for note in getattr(v.inputs, "notes", []):
            if note not in notes:
                notes.append(note)
    side_names = list(getattr(variants[0].inputs, "side_names", []))
    prov = provenance(loaded, variants, seed, precision, max_trials, crn, workers, threads)
    return RunResult(
        scenario=loaded.name, system=loaded.system, seed=int(seed), provenance=prov,
        summary=pd.DataFrame(rows), curves=pd.concat(curves, ignore_index=True),
        rounds=pd.concat(rounds, ignore_index=True),
        tables={k: pd.concat(v, ignore_index=True) for k, v in tables.items()},
        notes=notes, side_names=side_names,
    )


def git_commit() -> str | None:
    """The commit of the source tree the package runs from, if it is a git checkout."""
    here = Path(sim.__file__).resolve().parent
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True, timeout=5)
        if out.returncode != 0:
            return None
        commit = out.stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "."], cwd=here, capture_output=True,
                               text=True, timeout=5)
        return commit + ("-dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return None


def provenance(loaded, variants, seed, precision, max_trials, crn, workers, threads) -> dict:
    import numba

    return {
        "scenario": loaded.name,
        "scenario_file": str(loaded.path),
        "scenario_sha256": loaded.sha256,
        "system": loaded.system,
        "seed": int(seed),
        "common_random_numbers": bool(crn),
        "trials": {v.name: int(v.done) for v in variants},
        "precision": precision,
        "max_trials": int(max_trials) if precision is not None else None,
        "round_cap": int(getattr(variants[0].inputs, "round_cap", 0)) or None,
        "rule_options": {v.name: getattr(v.inputs, "resolved_rules", {}) for v in variants},
        "package": "mgsim",
        "version": sim.__version__,
        "git_commit": git_commit(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "pandas": pd.__version__,
        "platform": platform.platform(),
        "workers": int(workers),
        "threads": int(threads) if threads else int(numba.get_num_threads()),
        "created_utc": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
    }
