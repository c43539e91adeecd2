"""Run a study file: load it, run its kind, write the report.

>>> from sim.study import run_study
>>> res = run_study("scenarios/studies/compare-inflict.yaml", trials=5_000, write=False)
>>> res.sections[0].tables["comparison"]
"""
from __future__ import annotations

import datetime as _dt
import os
from dataclasses import dataclass, field
from pathlib import Path

from sim.report.atomic import check_target

from . import registry
from .arms import StudyContext
from .caveats import assumptions
from .load import LoadedStudy, file_kind, load_study
from .report import Section, write_study


class StudyError(ValueError):
    """Bad study options (trials, seed)."""


@dataclass
class StudyResult:
    """``name``: the scenario; ``sections``: one :class:`Section` per study;
    ``trials``: trials per arm actually played; ``out_dir``: where it was written."""

    name: str
    system: str
    seed: int
    trials: int
    sections: list[Section] = field(default_factory=list)
    provenance: dict = field(default_factory=dict)
    out_dir: Path | None = None


def default_out_dir(name: str, seed: int, sha: str, root="results") -> Path:
    """``results/<scenario>/study-<UTC time>-s<seed>-<hash>``, unique."""
    stamp = _dt.datetime.now(_dt.timezone.utc).strftime("%Y%m%d-%H%M%S")
    base = Path(root) / name / f"study-{stamp}-s{seed}-{sha[:8]}"
    out, k = base, 1
    while out.exists():
        k += 1
        out = base.with_name(f"{base.name}-{k}")
    return out


def _check(trials, seed):
    if trials is not None and (not isinstance(trials, int) or not 1 <= trials <= 10**9):
        raise StudyError(f"--trials must be a whole number from 1 to 10^9, got {trials}")
    if seed is not None and (not isinstance(seed, int) or not 0 <= seed < 2**63):
        raise StudyError(f"--seed must be a whole number from 0 to 2^63-1, got {seed}")


def run_study(study, *, trials: int | None = None, seed: int | None = None,
              out: str | os.PathLike | None = None, write: bool = True,
              results_root: str | os.PathLike = "results", scheduler: str | None = None) -> StudyResult:
    """Run the study of a file (a path or a :class:`LoadedStudy`).

    ``trials``: trials per arm (default: the scenario's ``trials``; with the
    study's ``precision`` the starting count); ``seed``: master seed (default:
    the scenario's). Writes ``<stem>.csv`` tables, PNG charts, ``study.json``
    and ``report.html`` into ``out`` (default :func:`default_out_dir`) unless
    ``write=False``. ``scheduler`` (``tcp://host:8786`` or ``local:N``) plays the
    arms' trials on a dask cluster (:mod:`sim.distributed`): the same rows, so the
    same tables.
    """
    _check(trials, seed)
    if isinstance(study, (str, os.PathLike)):
        from sim.scenario import load_yaml

        kind = file_kind(load_yaml(study))
        if kind is not None:
            if scheduler is not None:
                raise StudyError(f"--scheduler: the {kind} study plays its systems in this process; "
                                 "run it without --scheduler")
            return _run_file_kind(kind, study, trials, seed, out, write, results_root)
    ls: LoadedStudy = load_study(study) if isinstance(study, (str, os.PathLike)) else study
    if out is not None and write:
        check_target(Path(out))  # fail before simulating, not after
    base = ls.loaded.base
    seed = base.seed if seed is None else seed
    spec = ls.spec
    ctx = StudyContext(ls.loaded, ls.doc, seed=seed, trials=trials or base.trials,
                       max_trials=spec.max_trials or base.max_trials)
    ctx.backend = _connect(scheduler)
    try:
        section = registry.get_kind(spec.kind).run(ctx, spec)
    finally:
        if ctx.backend is not None:
            ctx.backend.close()
    section.assumptions = assumptions(ctx.arms)
    from sim.runner import git_commit
    import sim

    prov = {"scenario": ls.loaded.name, "scenario_file": str(ls.loaded.path),
            "scenario_sha256": ls.loaded.sha256, "system": ls.loaded.system, "seed": int(seed),
            "common_random_numbers": ctx.crn, "study": spec.model_dump(mode="json", by_alias=True),
            "trials_per_arm": int(ctx.trials), "arms": list(ctx.arms), "assumptions": section.assumptions,
            "version": sim.__version__,
            "git_commit": git_commit(),
            "created_utc": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")}
    res = StudyResult(name=ls.loaded.name, system=ls.loaded.system, seed=int(seed), trials=int(ctx.trials),
                      sections=[section], provenance=prov)
    if write:
        target = Path(out) if out is not None else default_out_dir(res.name, seed, ls.loaded.sha256, results_root)
        header = (f"system <b>{res.system}</b> · seed {res.seed} · {len(ctx.arms)} arms × "
                  f"{res.trials:,} trials · study kind <b>{spec.kind}</b>")
        res.out_dir = write_study(target, res.name, header, res.sections, prov)
    return res


def _connect(scheduler):
    """The dask cluster of ``--scheduler`` (None without one); a bad or unreachable
    address is a :class:`StudyError`."""
    if scheduler is None:
        return None
    from sim.runner import RunError, connect_scheduler

    try:
        return connect_scheduler(scheduler)
    except RunError as e:
        raise StudyError(str(e)) from None


def _run_file_kind(kind, path, trials, seed, out, write, results_root) -> StudyResult:
    """A whole-file kind (``registry.FILE_KINDS``): its module loads and runs the file
    and makes its report section; the report is written like any study's."""
    mod = registry.get_kind(kind)
    study = mod.load_study(path)
    if out is not None and write:
        check_target(Path(out))
    frames = mod.run(study, trials=trials, seed=seed)
    seed = study.seed if seed is None else seed
    trials = study.trials if trials is None else trials
    section = mod.section(study, frames)
    prov = {**mod.provenance(study, frames, trials, seed), "study_file": str(path), "kind": kind}
    res = StudyResult(name=study.name, system=kind, seed=int(seed), trials=int(trials), sections=[section],
                      provenance=prov)
    if write:
        import hashlib

        sha = hashlib.sha256(Path(path).read_bytes()).hexdigest()
        target = Path(out) if out is not None else default_out_dir(study.name, seed, sha, results_root)
        header = f"study kind <b>{kind}</b> · seed {res.seed} · {res.trials:,} trials per system"
        res.out_dir = write_study(target, study.name, header, [section], prov, files=mod.files(frames))
    return res
