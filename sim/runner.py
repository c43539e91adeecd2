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
from sim import rng
from sim.results import RunResult
from sim.stats import mean_and_se_from_hist, rate_table, wilson_half_width

CHUNK = 1 << 18
PRECISION_FLOOR = 10_000
CHECKPOINT_EVERY_S = 5.0


class RunError(ValueError):
    """Bad run options (trials, workers...)."""


@dataclass
class _Variant:
    name: str
    model: object
    inputs: object
    key: np.uint64
    counters: dict | None = None
    done: int = 0


def _task(system: str, inputs, start: int, count: int, key, threads: int | None) -> dict:
    """One chunk of trials (runs in this process or a joblib worker)."""
    if threads:
        import numba

        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    from sim.systems import get_system

    return get_system(system).simulate(inputs, start, count, key)


def _merge(a: dict | None, b: dict) -> dict:
    if a is None:
        return {k: v.copy() for k, v in b.items()}
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


def run_loaded(loaded, *, trials: int | None = None, precision: float | None = None,
               seed: int | None = None, workers: int = 1, threads: int | None = None,
               max_trials: int | None = None, progress: bool = False,
               checkpoint: Path | None = None, resume: bool = False,
               scheduler: str | None = None) -> RunResult:
    """Simulate every variant of ``loaded`` (a :class:`sim.scenario.LoadedScenario`).

    ``scheduler`` (``tcp://host:8786`` or ``local:N``) runs the tasks on a
    dask.distributed cluster (:mod:`sim.distributed`) instead of joblib;
    the result is the same.
    """
    _check_options(trials, precision, workers, threads, max_trials)
    base = loaded.base
    module = loaded.module
    seed = base.seed if seed is None else seed
    if not isinstance(seed, (int, np.integer)) or seed < 0 or seed >= 2**63:
        raise RunError(f"--seed must be a whole number from 0 to 2^63-1, got {seed}")
    precision = base.precision if precision is None else precision
    max_trials = base.max_trials if max_trials is None else max_trials
    crn = getattr(base, "crn", True)
    variants = []
    for idx, (name, model) in enumerate(loaded.variants):
        key = rng.stream_key(seed, 0 if crn else idx + 1)
        variants.append(_Variant(name, model, module.compile(model), key))

    if workers > 1 and threads is None:
        threads = max(1, (os.cpu_count() or 1) // workers)
    ckpt = _Checkpoint(checkpoint, loaded, seed, crn, variants) if checkpoint is not None else None
    if ckpt is not None and resume:
        ckpt.restore(variants)
    backend = _dask(scheduler, workers, threads)
    bar = _progress(progress)
    try:
        if precision is None:
            target = base.trials if trials is None else trials
            _advance(loaded.system, variants, [target] * len(variants), workers, threads, bar, ckpt, backend)
        else:
            target = max(PRECISION_FLOOR, trials or 0)
            target = min(target, max_trials)
            pending = list(range(len(variants)))
            while pending:
                goals = [target if i in pending else variants[i].done for i in range(len(variants))]
                _advance(loaded.system, variants, goals, workers, threads, bar, ckpt, backend)
                pending = [i for i in pending if not _precise(variants[i], precision)]
                if target >= max_trials:
                    break
                target = min(target * 2, max_trials)
    except BaseException:
        if ckpt is not None:
            ckpt.save(variants, force=True)
        raise
    finally:
        if bar is not None:
            bar.close()
        if backend is not None:
            backend.close()
    if ckpt is not None:
        ckpt.remove()
    result = _result(loaded, variants, seed, precision, max_trials, crn, workers, threads)
    if backend is not None:
        result.provenance.update(backend.provenance())
    return result


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
    """The cluster's results in trial order per variant; its errors as :class:`RunError`."""
    from sim.distributed import SchedulerError

    try:
        yield from backend.results(system, variants, goals)
    except SchedulerError as e:
        raise RunError(str(e)) from None


def _advance(system, variants, goals, workers, threads, bar, ckpt=None, backend=None):
    """Run every variant ``v`` up to ``goals[v]`` trials (never fewer than done).

    Chunks of one variant are merged in order, so ``done`` is always a
    contiguous prefix of trials (what a checkpoint records). With a dask
    ``backend`` its tasks stream back as they finish, in order per variant.
    """
    if backend is not None:
        _merge_all(_remote(backend, system, variants, goals), variants, bar, ckpt)
        return
    tasks = []
    for vi, (v, goal) in enumerate(zip(variants, goals)):
        start = v.done
        while start < goal:
            count = min(CHUNK, goal - start)
            tasks.append((vi, start, count))
            start += count
    if not tasks:
        return
    if workers == 1:
        if threads:
            import numba

            numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
        results = (_task(system, variants[vi].inputs, s, c, variants[vi].key, None) for vi, s, c in tasks)
    else:
        from joblib import Parallel, delayed

        par = Parallel(n_jobs=workers, backend="loky", return_as="generator")
        results = par(delayed(_task)(system, variants[vi].inputs, s, c, variants[vi].key, threads)
                      for vi, s, c in tasks)
    _merge_all(zip(tasks, results), variants, bar, ckpt)


def _merge_all(pairs, variants, bar, ckpt):
    """Merge ``((variant, start, count), counters)`` pairs given in trial order per variant."""
    for (vi, s, c), counters in pairs:
        v = variants[vi]
        v.counters = _merge(v.counters, counters)
        v.done = s + c
        if bar is not None:
            bar.update(c)
        if ckpt is not None:
            ckpt.save(variants)


class _Checkpoint:
    """Counters and trials done per variant, saved as ``.npz`` (atomic replace)."""

    def __init__(self, path, loaded, seed, crn, variants):
        import json
        import time

        self.path = Path(path)
        self._time = time.monotonic
        self._last = self._time()
        self.meta = json.dumps({"sha256": loaded.sha256, "seed": int(seed), "crn": bool(crn),
                                "variants": [v.name for v in variants], "version": sim.__version__})

    def save(self, variants, force: bool = False):
        now = self._time()
        if not force and now - self._last < CHECKPOINT_EVERY_S:
            return
        self._last = now
        arrays = {"meta": np.array(self.meta), "done": np.array([v.done for v in variants], dtype=np.int64)}
        for i, v in enumerate(variants):
            for k, a in (v.counters or {}).items():
                arrays[f"v{i}:{k}"] = a
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp.npz")
        np.savez(tmp, **arrays)
        os.replace(tmp, self.path)

    def restore(self, variants) -> bool:
        if not self.path.is_file():
            return False
        with np.load(self.path, allow_pickle=False) as z:
            if str(z["meta"]) != self.meta:
                raise RunError(f"checkpoint {self.path} belongs to another scenario text, seed or "
                               "variant list; remove it or run without --resume")
            done = z["done"]
            for i, v in enumerate(variants):
                prefix = f"v{i}:"
                counters = {k[len(prefix):]: z[k].copy() for k in z.files if k.startswith(prefix)}
                v.counters = counters or None
                v.done = int(done[i]) if counters else 0
        return True

    def remove(self):
        for p in (self.path, self.path.with_name(self.path.name + ".tmp.npz")):
            if p.exists():
                p.unlink()


def _precise(v: _Variant, h: float) -> bool:
    o = v.counters["outcomes"]
    n = int(o.sum())
    return all(wilson_half_width(int(k), n) <= h for k in o)


def _progress(enabled: bool):
    if not enabled or not sys.stderr.isatty():
        return None
    from tqdm import tqdm

    return tqdm(total=None, unit="trial", unit_scale=True, file=sys.stderr, leave=False)


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
