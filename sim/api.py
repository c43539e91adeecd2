"""The public Python surface: what the CLI and notebooks call.

>>> from sim import api
>>> result, out_dir = api.run("scenarios/quickstart.yaml", trials=20_000)
>>> result.summary[["variant", "win_rate", "win_lo", "win_hi"]]
"""
from __future__ import annotations

import datetime as _dt
import os
from pathlib import Path

from sim.results import RunResult


def load(path):
    """Load and validate a scenario file (raises ``ScenarioError``; writes nothing)."""
    from sim.scenario import load_scenario

    return load_scenario(path)


def default_out_dir(result: RunResult, root: str | os.PathLike = "results") -> Path:
    """``results/<scenario>/<UTC time>-s<seed>-<scenario hash>``, unique."""
    stamp = _dt.datetime.now(_dt.timezone.utc).strftime("%Y%m%d-%H%M%S")
    sha = (result.provenance.get("scenario_sha256") or "")[:8]
    base = Path(root) / result.scenario / f"{stamp}-s{result.seed}-{sha}"
    out, k = base, 1
    while out.exists():
        k += 1
        out = base.with_name(f"{base.name}-{k}")
    return out


def run(scenario, *, trials: int | None = None, precision: float | None = None, seed: int | None = None,
        workers: int = 1, threads: int | None = None, max_trials: int | None = None,
        out: str | os.PathLike | None = None, write: bool = True, progress: bool = False,
        results_root: str | os.PathLike = "results", resume: bool = False,
        scheduler: str | None = None) -> tuple[RunResult, Path | None]:
    """Run a scenario (a path or a loaded scenario); write its report unless ``write=False``.

    Returns the :class:`RunResult` and the directory written (``None`` when
    not writing). ``out`` is the run directory itself; by default
    :func:`default_out_dir` under ``results_root``.

    While writing, progress is checkpointed to :func:`checkpoint_path`; if
    the run is interrupted, ``resume=True`` (``sim run --resume``) continues
    from it and gives exactly the result of an uninterrupted run.

    ``scheduler`` sends the trials to a dask.distributed cluster instead of
    running them here: ``"tcp://host:8786"`` (a ``dask scheduler``) or
    ``"local:N"`` (N worker processes on this machine); same result
    (:mod:`sim.distributed`).
    """
    from sim.runner import run_loaded

    loaded = load(scenario) if isinstance(scenario, (str, os.PathLike)) else scenario
    if out is not None:
        from sim.report.atomic import check_target

        check_target(Path(out))  # fail before simulating, not after
    ckpt = checkpoint_path(loaded, seed, results_root, out) if write else None
    result = run_loaded(loaded, trials=trials, precision=precision, seed=seed, workers=workers,
                        threads=threads, max_trials=max_trials, progress=progress,
                        checkpoint=ckpt, resume=resume, scheduler=scheduler)
    if not write:
        return result, None
    from sim.report import write_run

    target = Path(out) if out is not None else default_out_dir(result, results_root)
    return result, write_run(result, target)


def checkpoint_path(loaded, seed: int | None = None, results_root: str | os.PathLike = "results",
                    out: str | os.PathLike | None = None) -> Path:
    """Where a run keeps its checkpoint: beside ``out`` when given, else one per
    scenario text and seed under ``results_root/<scenario>/``."""
    seed = loaded.base.seed if seed is None else seed
    if out is not None:
        out = Path(out)
        return out.parent / f".{out.name}.checkpoint-s{seed}.npz"
    return Path(results_root) / loaded.name / f".checkpoint-{loaded.sha256[:12]}-s{seed}.npz"


def dice(expr: str, **kwargs) -> dict:
    """Exact and Monte Carlo distribution of a dice expression (see ``sim dice``)."""
    from sim.dice_report import dice_summary

    return dice_summary(expr, **kwargs)


def rules(system: str) -> list[dict]:
    """The rule options of a system: name, default, allowed values, note."""
    from sim.systems import get_system

    return get_system(system).RULES.describe()
