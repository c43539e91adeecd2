"""The public Python surface: what the CLI and notebooks call.

>>> from sim import api
>>> result, out_dir = api.run("scenarios/quickstart.yaml", trials=20_000)
>>> result.summary[["variant", "win_rate", "win_lo", "win_hi"]]
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

from sim.results import RunResult
from sim.runid import run_id  # noqa: F401  (public: api.run_id)


def load(path):
    """Load and validate a scenario file (raises ``ScenarioError``; writes nothing)."""
    from sim.scenario import load_scenario

    return load_scenario(path)


def _unique_dir(root, scenario: str, seed: int, sha256: str) -> Path:
    base = Path(root) / scenario / run_id(seed, sha256)
    out, k = base, 1
    while out.exists():
        k += 1
        out = base.with_name(f"{base.name}-{k}")
    return out


def default_out_dir(result: RunResult, root: str | os.PathLike = "results") -> Path:
    """``results/<scenario>/<run id>`` (:func:`run_id`), unique."""
    return _unique_dir(root, result.scenario, result.seed, result.provenance.get("scenario_sha256") or "")


def _target(loaded, seed, out, results_root) -> Path:
    """The run directory, checked before simulating (:func:`sim.report.atomic.preflight`)."""
    from sim.report.atomic import preflight

    if out is not None:
        preflight(Path(out))
        return Path(out)
    seed = loaded.base.seed if seed is None else seed
    target = _unique_dir(results_root, loaded.name, seed, loaded.sha256)
    preflight(target, refuse_symlink_above=Path(results_root))
    return target


def run(scenario, *, trials: int | None = None, precision: float | None = None, seed: int | None = None,
        workers: int = 1, threads: int | None = None, max_trials: int | None = None,
        out: str | os.PathLike | None = None, write: bool = True, progress: bool | str = False,
        results_root: str | os.PathLike = "results", resume: bool = False,
        scheduler: str | None = None, cancel=None) -> tuple[RunResult, Path | None]:
    """Run a scenario (a path or a loaded scenario); write its report unless ``write=False``.

    Returns the :class:`RunResult` and the directory written (``None`` when
    not writing). ``out`` is the run directory itself; by default
    :func:`default_out_dir` under ``results_root``. Options and the output
    directory are checked before simulating. ``progress``: ``True``/``"auto"``,
    ``"bar"``, ``"plain"`` or ``"none"`` (:mod:`sim.progress`), or a function
    ``f(done, total, estimate)`` called after every chunk of trials
    (:class:`sim.progress.CallbackProgress`).

    ``cancel``: a :class:`threading.Event` (or a function returning a bool)
    looked at between chunks; once set, the run saves its checkpoint and
    raises :class:`sim.runner.RunCancelled` (a ``KeyboardInterrupt``: the
    trials finished are kept for ``resume=True``; nothing is written).

    While writing, progress is checkpointed to :func:`checkpoint_path` (locked
    by this run; a concurrent run of the same scenario and seed takes its own,
    see :func:`sim.runner.claim_checkpoint`). If the run is interrupted,
    ``resume=True`` (``sim run --resume``) continues from it and gives exactly
    the result of an uninterrupted run; it refuses a checkpoint made with other
    trials, precision or max_trials. The checkpoint is kept until the report is
    written: if writing fails, :class:`~sim.report.atomic.ReportWriteError`
    says where it is, and :func:`report` (``sim report``) writes the report from it.

    ``scheduler`` sends the trials to a dask.distributed cluster instead of
    running them here: ``"tcp://host:8786"`` (a ``dask scheduler``) or
    ``"local:N"`` (N worker processes on this machine); same result
    (:mod:`sim.distributed`).
    """
    from sim.runner import check_run_options, connect_scheduler, run_loaded

    loaded = load(scenario) if isinstance(scenario, (str, os.PathLike)) else scenario
    check_run_options(trials, precision, workers, threads, max_trials, seed)
    kw = dict(trials=trials, precision=precision, seed=seed, workers=workers, threads=threads,
              max_trials=max_trials, progress=progress, scheduler=scheduler, cancel=cancel)
    # a cluster that cannot be reached is an input error: found before anything is written
    backend = connect_scheduler(scheduler, workers, threads)
    kw["backend"] = backend
    try:
        if not write:
            return run_loaded(loaded, **kw), None
        return _run_and_write(loaded, kw, seed, out, results_root, resume)
    finally:
        if backend is not None:
            backend.close()


def _run_and_write(loaded, kw, seed, out, results_root, resume):
    """Run with a checkpoint owned by this run, then write the report (see :func:`run`)."""
    from sim.runner import RunCancelled, claim_checkpoint, run_loaded

    target = _target(loaded, seed, out, results_root)
    ckpt, lock, notices = claim_checkpoint(checkpoint_path(loaded, seed, results_root, out),
                                           resume=resume, shared=out is None)
    try:
        for line in notices:
            print(line, file=sys.stderr)
        try:
            result = run_loaded(loaded, **kw, checkpoint=ckpt, resume=resume, keep_checkpoint=True)
        except RunCancelled as e:
            e.resume = f"sim run {loaded.path} --resume" + (f" --out {out}" if out is not None else "") + \
                " and the same options"
            raise
        try:
            written = _write_report(result, target, ckpt, kw.get("progress"))
        except KeyboardInterrupt:
            raise RunCancelled(result.provenance.get("trials"), ckpt, f"sim report {ckpt}") from None
        for p in (ckpt, ckpt.with_name(ckpt.name + ".tmp.npz")):
            p.unlink(missing_ok=True)
        return result, written
    finally:
        lock.release()


def _write_report(result: RunResult, target: Path, ckpt: Path, progress=None) -> Path:
    """``write_run``, or a :class:`ReportWriteError` naming the kept checkpoint; with a
    stderr ``progress`` mode, a line per chart once drawing takes a while."""
    from sim.report import write_run
    from sim.report.atomic import ReportWriteError
    from sim.report.write import DrawProgress

    say = DrawProgress() if progress in (True, "auto", "bar", "plain") else None
    try:
        return write_run(result, target, say=say)
    except Exception as e:
        if isinstance(e, OSError) and e.strerror:
            reason = f"{e.strerror}" + (f": {e.filename}" if e.filename else "")
        else:
            reason = f"{type(e).__name__}: {e}"
        raise ReportWriteError(
            f"the simulation finished, but its report could not be written to {target} ({reason}). "
            f"Nothing is lost: the counters are kept in {ckpt}. Write the report from them with "
            f"`sim report {ckpt} --out DIR` (or fix the problem and rerun with --resume and the same "
            "options, which writes it without simulating again).") from e


def report(checkpoint, *, out: str | os.PathLike | None = None,
           results_root: str | os.PathLike = "results") -> tuple[RunResult, Path]:
    """Write the report of a finished run (or study) from its checkpoint (``sim report``).

    A study's checkpoint gives a :class:`sim.study.StudyResult` (its kind's
    tables computed from the kept rows). The report is the one the run would have written (same tables, charts
    and page; the provenance's creation time is now). ``out`` as in
    :func:`run`. The checkpoint is left in place.
    """
    from sim.report import write_run
    from sim.report.atomic import preflight
    from sim.runner import result_from_checkpoint
    from sim.study.checkpoint import is_audit_checkpoint, is_study_checkpoint

    if is_study_checkpoint(checkpoint):  # a study's rows: its kind writes the report
        from sim.study.run import report_from_checkpoint

        if is_audit_checkpoint(checkpoint):  # sim audit's: several encounters' rows
            from sim.audit import report_from_checkpoint

        res = report_from_checkpoint(checkpoint, out=out, results_root=results_root)
        return res, res.out_dir
    result = result_from_checkpoint(checkpoint)
    if out is not None:
        target = Path(out)
        preflight(target)
    else:
        target = default_out_dir(result, results_root)
        preflight(target, refuse_symlink_above=Path(results_root))
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


class PlayError(ValueError):
    """A ``sim play`` request that cannot be played (one sentence: no log for the system, an
    unknown variant with its close names, a bad trial number)."""


def _logs_any_trial(loaded) -> bool:
    """The system's ``play`` takes a trial (mb41, mb-draft: any trial, text or JSON events); the
    others log trial 0 as text."""
    import inspect

    return "trial" in inspect.signature(loaded.module.play).parameters


def play(loaded, *, variant: str | None = None, seed: int | None = None, trial: int = 0,
         as_json: bool = False) -> str:
    """The log of one seeded fight or game of a loaded scenario (``sim play``; the workbench's
    Fight tab): trial ``trial`` of ``sim run --seed seed`` of ``variant`` (default the first),
    played by the engine's own functions. ``as_json``: one JSON event a line (mb41 and mb-draft;
    the schema is in docs/cli.md). Raises :class:`PlayError`."""
    from sim.scenario.suggest import suggest

    if not hasattr(loaded.module, "play"):
        raise PlayError(f"system {loaded.system} has no game log yet ('sim play' is for systems that provide one)")
    variants = dict(loaded.variants)
    name = variant or loaded.variants[0][0]
    if name not in variants:
        raise PlayError(f"no variant '{name}'.{suggest(name, list(variants))}")
    seed = loaded.base.seed if seed is None else seed
    if trial < 0:
        raise PlayError(f"--trial must be 0 or more, got {trial}")
    if _logs_any_trial(loaded):
        index = [n for n, _ in loaded.variants].index(name)
        return loaded.module.play(variants[name], seed, trial=trial, as_json=as_json, index=index)
    if trial or as_json:
        raise PlayError(f"sim play --trial and --json are for mb41 and mb-draft; {loaded.system} plays trial 0 "
                        "as text")
    return loaded.module.play(variants[name], seed)


def play_events(loaded, *, variant: str | None = None, seed: int | None = None, trial: int = 0) -> list[dict]:
    """:func:`play` as a list of events, each at least ``{"event", "depth", "text"}``: the
    JSON events of mb41 and mb-draft (docs/cli.md), or for a system whose log is text (d10,
    cards: trial 0 only) one ``{"event": "line"}`` a line, its depth from its indent."""
    import json

    structured = hasattr(loaded.module, "play") and _logs_any_trial(loaded)
    out = play(loaded, variant=variant, seed=seed, trial=trial, as_json=structured)
    if structured:
        return [json.loads(line) for line in out.splitlines() if line.strip()]
    return [{"event": "line", "depth": (len(line) - len(line.lstrip(" "))) // 2, "text": line.strip()}
            for line in out.splitlines()]


def rules(system: str) -> list[dict]:
    """The rule options of a system: name, default, allowed values, note."""
    from sim.systems import get_system

    return get_system(system).RULES.describe()


def study(path, *, trials: int | None = None, seed: int | None = None, out=None, write: bool = True,
          results_root: str | os.PathLike = "results", scheduler: str | None = None, resume: bool = False,
          progress=False, cancel=None, max_memory: float | None = None):
    """Run the ``study:`` block of a scenario file (see ``docs/studies.md``); returns a
    :class:`sim.study.StudyResult` (``sections``: tables, charts, reading; ``out_dir``).

    The guarantees of :func:`run`: every arm built and checked, the output
    directory chosen and checked, before anything is played; the arms' rows
    checkpointed as they finish (``resume=True`` continues to the same tables);
    ``progress`` (a mode, or ``f(done, total, estimate)``) and ``cancel`` (an
    Event or a function: raises :class:`sim.runner.RunCancelled`, rows kept) as
    in :func:`run`. ``scheduler``: play the trials on a dask cluster
    (``tcp://host:8786``, ``local:N``). ``max_memory``: GB the rows may take
    (default 4)."""
    from sim.study import run_study

    return run_study(path, trials=trials, seed=seed, out=out, write=write, results_root=results_root,
                     scheduler=scheduler, resume=resume, progress=progress, cancel=cancel,
                     max_memory=max_memory)


def audit(system: str, *, encounters=None, talents=None, only=None, trials: int | None = None,
          seed: int | None = None, out=None, write: bool = True, results_root: str | os.PathLike = "results",
          scheduler: str | None = None, progress=None, resume: bool = False, cancel=None):
    """Value every entry of ``system``'s catalog in its reference encounters (``sim audit``,
    docs/audit.md); returns a :class:`sim.study.StudyResult` (``sections[0]``: the overview
    and the whole table, then one section per category). ``talents``: a file with your own
    ``talents:`` (``powers:``, ``cards:``) block; ``encounters``: other reference encounters.

    The guarantees of :func:`study`: every arm built and checked before anything plays; the
    rows checkpointed as arms finish (``resume=True`` continues to the same tables; a
    checkpoint of other options is refused); ``cancel`` (an Event or a function) raises
    :class:`sim.runner.RunCancelled` with the rows kept and the command that continues;
    ``progress``: a mode or ``f(done, total, estimate)`` (a function of one argument gets
    one line per encounter, as before)."""
    from sim.audit import run_audit

    return run_audit(system, encounters=encounters, talents=talents, only=only, trials=trials, seed=seed,
                     out=out, write=write, results_root=results_root, scheduler=scheduler, progress=progress,
                     resume=resume, cancel=cancel)


def plan(p1: float, p2: float | None = None, **kwargs) -> dict:
    """Trials per arm for a comparison of two win rates (see ``sim plan``, :mod:`sim.study.plan`)."""
    from sim.study.plan import plan as _plan

    return _plan(p1, p2, **kwargs)


def validate_study(path) -> dict | None:
    """Check the ``study:`` block of a file (raises ``ScenarioError``); None if it has none.
    See :func:`validate_study_document` (``sim validate`` and the workbench's check share it)."""
    from sim.scenario import load_yaml

    return validate_study_document(load_yaml(path))


def validate_study_document(doc, preflight: bool = True) -> dict | None:
    """Check the ``study:`` block of a parsed document (:func:`sim.scenario.load_yaml` or
    ``load_yaml_text``; raises ``ScenarioError``); None if it has none.

    Returns ``{"file", "name", "kind", "whole_file", "valid", "summary", "system", "seed",
    "trials"}``; ``whole_file`` is true for kinds whose file is not one scenario (the
    lethality study; its ``system`` is the kind); ``summary``
    (:func:`sim.study.summary.summarise`) says what it would run, after building every
    arm known before playing (so a bad arm is found here, with its line). Then every arm
    the study would play is built and checked (its preflight,
    :func:`sim.study.preflight.dry_run`: nothing is played), and the summary gains
    ``streams`` (arms and replays with rows), ``trials_needed`` (their trials in all)
    and ``trials_at_most`` (true when the study stops by precision: a bound). With
    ``preflight=False`` (the workbench's check as the text is typed: the preflight may
    compile kernels) that last step is left to the run, which makes it before it plays."""
    from sim.study import registry
    from sim.study.load import file_kind, load_study_document, load_whole_file
    from sim.study.preflight import dry_run

    if "study" not in doc.data:
        return None
    kind = file_kind(doc)
    if kind is not None:
        study = load_whole_file(kind, doc)
        name = getattr(study, "name", str(doc.path))
        summary = {"sentence": f"{kind} study of {len(getattr(study, 'study').systems)} systems"} \
            if hasattr(getattr(study, "study", None), "systems") else {}
        system, seed, trials = kind, int(study.seed), int(study.trials)
    else:
        from sim.study.summary import summarise

        ls = load_study_document(doc)
        kind, name = ls.spec.kind, ls.loaded.name
        summary = summarise(ls)
        base = ls.loaded.base
        if preflight:
            plan = dry_run(ls, base.seed, base.trials, ls.spec.max_trials or base.max_trials)
            summary.update(streams=plan.streams, trials_needed=plan.total, trials_at_most=plan.estimate)
        system, seed, trials = ls.loaded.system, int(base.seed), int(base.trials)
    return {"file": str(doc.path), "name": name, "kind": kind, "whole_file": kind in registry.FILE_KINDS,
            "valid": True, "summary": summary, "system": system, "seed": seed, "trials": trials}
