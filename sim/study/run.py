"""Run a study file with the guarantees of ``sim run``: nothing played before
every input is checked, nothing finished lost.

>>> from sim.study import run_study
>>> res = run_study("scenarios/studies/compare-inflict.yaml", trials=5_000, write=False)
>>> res.sections[0].tables["comparison"]

In order, before a trial is played: the options; the study file (its kind's
block, the base scenario); the preflight (:mod:`sim.study.preflight`: every
arm of the study built and checked, the trials counted, the memory bounded);
the output directory (:func:`sim.report.atomic.preflight`: a unique
``results/<scenario>/study-<run id>`` chosen now, a symlinked results folder
or an ``--out`` under a file refused); the ``--scheduler``; and the
checkpoint, locked (:func:`sim.runner.claim_checkpoint`: a study of the same
file and seed running at the same time keeps its own; one with the same
``--out`` is refused). Then the kind plays its arms, the rows checkpointed as
they finish (:mod:`sim.study.checkpoint`); Ctrl-C or ``cancel`` stops within
about a second keeping them (``--resume`` continues to the same tables); the
report is written from the finished rows, and when that fails the checkpoint
stays for ``sim report``.
"""
from __future__ import annotations

import datetime as _dt
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from . import registry
from .arms import StudyContext
from .caveats import assumptions
from .errors import StudyError
from .load import LoadedStudy, file_kind, load_study
from .report import Section, write_study


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
    """``results/<scenario>/study-<run id>`` (:func:`sim.api.run_id`: UTC time to the
    microsecond, seed, hash, process and 16 random bits), unique."""
    from sim.runid import run_id

    base = Path(root) / name / f"study-{run_id(seed, sha)}"
    out, k = base, 1
    while out.exists():
        k += 1
        out = base.with_name(f"{base.name}-{k}")
    return out


def _check(trials, seed, max_memory=None):
    if trials is not None and (not isinstance(trials, int) or isinstance(trials, bool) or not 1 <= trials <= 10**9):
        raise StudyError(f"--trials must be a whole number from 1 to 10^9, got {trials}")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63):
        raise StudyError(f"--seed must be a whole number from 0 to 2^63-1, got {seed}")
    if max_memory is not None and not (isinstance(max_memory, (int, float)) and 0 < max_memory <= 1e6):
        raise StudyError(f"--max-memory must be a number of GB above 0, got {max_memory}")


def _target(name: str, seed: int, sha: str, out, results_root) -> Path:
    """The output directory, chosen and checked before anything is played."""
    from sim.report.atomic import preflight

    if out is not None:
        preflight(Path(out))
        return Path(out)
    target = default_out_dir(name, seed, sha, results_root)
    preflight(target, refuse_symlink_above=Path(results_root))
    return target


def run_study(study, *, trials: int | None = None, seed: int | None = None,
              out: str | os.PathLike | None = None, write: bool = True,
              results_root: str | os.PathLike = "results", scheduler: str | None = None,
              resume: bool = False, progress=False, cancel=None,
              max_memory: float | None = None) -> StudyResult:
    """Run the study of a file (a path or a :class:`LoadedStudy`); see the module doc.

    ``trials``: trials per arm (default: the scenario's ``trials``; with the
    study's ``precision`` the starting count); ``seed``: master seed (default:
    the scenario's). Writes ``<stem>.csv`` tables, PNG charts, ``study.json``
    and ``report.html`` into ``out`` (default :func:`default_out_dir`) unless
    ``write=False``. ``scheduler`` (``tcp://host:8786`` or ``local:N``) plays the
    arms' trials on a dask cluster (:mod:`sim.distributed`): the same rows, so the
    same tables. ``resume``: continue from this file and seed's checkpoint.
    ``progress`` and ``cancel`` as in :func:`sim.api.run` (a cancel raises
    :class:`sim.runner.RunCancelled` with the rows kept). ``max_memory``: GB the
    study's rows may take (:func:`sim.study.preflight.check_memory`).
    """
    _check(trials, seed, max_memory)
    if isinstance(study, (str, os.PathLike)):
        from sim.scenario import load_yaml

        kind = file_kind(load_yaml(study))
        if kind is not None:
            if scheduler is not None:
                raise StudyError(f"--scheduler: the {kind} study plays its systems in this process; "
                                 "run it without --scheduler")
            return _run_file_kind(kind, study, trials, seed, out, write, results_root, progress, cancel, resume)
    ls: LoadedStudy = load_study(study) if isinstance(study, (str, os.PathLike)) else study
    from .preflight import check_memory, dry_run

    base, spec = ls.loaded.base, ls.spec
    seed = base.seed if seed is None else seed
    n0, cap = trials or base.trials, spec.max_trials or base.max_trials
    plan = dry_run(ls, seed, n0, cap)
    check_memory(plan, max_memory)
    target = _target(ls.loaded.name, seed, ls.doc.sha256, out, results_root) if write else None
    ctx = StudyContext(ls.loaded, ls.doc, seed=seed, trials=n0, max_trials=cap)
    ctx.prebuilt, ctx.cancel = plan.prebuilt, cancel
    ctx.backend = _connect(scheduler)
    try:
        if not write:
            return _stopped_unwritten(ctx, lambda: _play(ctx, ls, plan, progress))
        return _play_and_write(ctx, ls, plan, progress, target, trials, out, results_root, resume)
    finally:
        if ctx.backend is not None:
            ctx.backend.close()


def _stopped_unwritten(ctx, play):
    """``play()`` of a study that writes nothing: a Ctrl-C between two chunks (outside a chunk's
    guard, :meth:`StudyContext._chunk`) is the same :class:`sim.runner.RunCancelled` as one
    inside ("nothing is kept"), not a bare interrupt."""
    from sim.runner import RunCancelled

    try:
        return play()
    except RunCancelled:
        raise
    except KeyboardInterrupt:
        raise RunCancelled({a.name: a.done for a in ctx.streams()}) from None


def _play(ctx, ls, plan, progress) -> StudyResult:
    """Run the kind on ``ctx`` with progress (total: the preflight's count, less what
    a checkpoint restored) and return the result (nothing written)."""
    from sim.progress import make_progress

    bar = make_progress(progress)
    restored = {label: done for label, (_k, _c, done) in ctx.restored.items()}
    if bar is not None:
        left = sum(max(0, n - restored.get(label, 0)) for label, n in plan.need.items())
        bar.set_total(left, estimate=plan.estimate)
    ctx.progress = bar
    speak = bar is not None and not callable(progress)
    ctx.tiers = _tiers(ctx, ls, plan, restored, quiet=not speak)
    finished = False
    try:
        section = registry.get_kind(ls.spec.kind).run(ctx, ls.spec)
        finished = True
    finally:
        if ctx.tiers is not None:
            ctx.tiers.close()
        if bar is not None:
            bar.close(final=finished)
    said = ctx.tiers.summary() if ctx.tiers is not None else None
    if said and speak:
        print(said, file=sys.stderr, flush=True)
    return _result(ctx, ls, section)


def _tiers(ctx, ls, plan, restored, quiet):
    """The engine tiers of the study's streams (:mod:`sim.tiers`), planned from the preflight's
    count: the streams that share a structure (the arms of a stat or threshold sweep, their
    replays) add up. With ``precision`` the preflight's count is the worst case, so each stream
    is planned at the starting trials. With a dask cluster its tasks are asked for tier 2 when
    this machine's cache holds the structure's build (:meth:`sim.tiers.Plan.pooled_tier`)."""
    from sim import tiers

    from .arms import tier_name

    out = tiers.Plan(ls.loaded.system, quiet=quiet)
    entries = []
    for label, n in plan.need.items():
        if label not in plan.inputs:
            continue
        planned = min(n, ctx.trials) if plan.estimate else n
        entries.append((tier_name(label), plan.inputs[label], max(0, planned - restored.get(label, 0))))
    out.plan_all(entries)
    return out


def _result(ctx, ls, section) -> StudyResult:
    section.assumptions = assumptions(ctx.arms)
    from sim.runner import git_commit
    import sim

    spec = ls.spec
    prov = {"scenario": ls.loaded.name, "scenario_file": str(ls.loaded.path),
            "scenario_sha256": ls.loaded.sha256, "system": ls.loaded.system, "seed": int(ctx.seed),
            "common_random_numbers": ctx.crn, "study": spec.model_dump(mode="json", by_alias=True),
            "trials_per_arm": int(ctx.trials), "arms": list(ctx.arms), "assumptions": section.assumptions,
            **_tier_provenance(ctx),
            "version": sim.__version__,
            "git_commit": git_commit(),
            "created_utc": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")}
    return StudyResult(name=ls.loaded.name, system=ls.loaded.system, seed=int(ctx.seed),
                       trials=int(ctx.trials), sections=[section], provenance=prov)


def _tier_provenance(ctx) -> dict:
    """``tiers`` (per stream: the trials each engine played, as a run's) and ``tier2_threshold``."""
    if ctx.tiers is None:
        return {}
    from .arms import tier_name

    restored = {tier_name(label): done for label, (_k, _c, done) in ctx.restored.items()}
    done = {tier_name(a.label): a.done for a in ctx.streams()}
    return ctx.tiers.provenance(done, restored)


def _play_and_write(ctx, ls, plan, progress, target, trials, out, results_root, resume) -> StudyResult:
    """The kind played with a locked checkpoint of its rows, then the report (module doc)."""
    from sim.runner import claim_checkpoint

    from .checkpoint import StudyCheckpoint, checkpoint_path

    path, lock, notices = claim_checkpoint(
        checkpoint_path(ls.loaded.name, ls.doc.sha256, ctx.seed, results_root, out),
        resume=resume, shared=out is None, what="study")
    try:
        for line in notices:
            print(line, file=sys.stderr)
        ckpt = StudyCheckpoint(path, ls.doc.text, ls.doc.path, ctx.seed, trials)
        if resume and path.is_file():
            ckpt.restore(ctx)
        ctx.saver = ckpt
        seed = None if ctx.seed == ls.loaded.base.seed else ctx.seed
        res = kept_on_stop(ckpt, ctx, resume_command(ls.doc.path, out, trials, seed),
                           lambda: _play(ctx, ls, plan, progress))
        ckpt.save(ctx, complete=True)
        from sim.report.write import DrawProgress

        say = DrawProgress() if progress in (True, "auto", "bar", "plain") else None
        res.out_dir = write_result(res, target, ckpt.path, say)
        ckpt.remove()
        return res
    finally:
        lock.release()


def kept_on_stop(ckpt, ctx, resume: str, play):
    """``play()``, ``ctx``'s rows (a context or a :class:`~sim.study.group.ContextGroup`) kept in
    ``ckpt`` if it stops or fails: a stop (Ctrl-C, cancel) is a :class:`sim.runner.RunCancelled`
    naming the checkpoint and ``resume``, the command that continues it."""
    from sim.runner import RunCancelled

    try:
        return play()
    except RunCancelled as e:  # the context saved its rows (forced) before raising
        e.checkpoint, e.done, e.resume = ckpt.path, {a.name: a.done for a in ctx.streams()}, resume
        raise
    except KeyboardInterrupt:
        ckpt.save(ctx, quiet=True)
        raise RunCancelled({a.name: a.done for a in ctx.streams()}, ckpt.path, resume) from None
    except BaseException:
        ckpt.save(ctx, quiet=True)
        raise


def write_result(res: StudyResult, target: Path, ckpt: Path | None = None, say=None, header: str | None = None,
                 files: dict | None = None, redo: str = "rerun with --resume and the same options") -> Path:
    """Write ``res``'s report into ``target`` (``say``: told which chart is drawing; ``header``
    and ``files`` as :func:`~sim.study.report.write_study`'s); a failure is a
    :class:`~sim.report.atomic.ReportWriteError` naming the kept checkpoint and ``redo``."""
    from sim.report.atomic import ReportWriteError

    s = res.sections[0]
    header = header or (f"system <b>{res.system}</b> · seed {res.seed} · {len(res.provenance.get('arms', []))} "
                        f"arms × {res.trials:,} trials · study kind <b>{s.kind}</b>")
    try:
        return write_study(target, res.name, header, res.sections, res.provenance, say=say, files=files)
    except KeyboardInterrupt:
        from sim.runner import RunCancelled

        raise RunCancelled({}, ckpt, f"sim report {ckpt}") from None
    except Exception as e:
        if ckpt is None:
            raise
        reason = (f"{e.strerror}" + (f": {e.filename}" if e.filename else "")
                  if isinstance(e, OSError) and e.strerror else f"{type(e).__name__}: {e}")
        raise ReportWriteError(
            f"the study finished, but its report could not be written to {target} ({reason}). Nothing is "
            f"lost: its rows are kept in {ckpt}. Write the report from them with `sim report {ckpt} --out DIR` "
            f"(or fix the problem and {redo}).") from e


def report_from_checkpoint(path, *, out=None, results_root="results") -> StudyResult:
    """The report of a finished study from its checkpoint (``sim report``): the kind
    computes its tables from the kept rows (nothing is played) and the report is
    written to ``out`` (default: a new ``results/<scenario>/study-<run id>``)."""
    from sim.runner import RunError

    from .checkpoint import read
    from .load import load_study_text

    meta, streams = read(path)
    if not meta["complete"]:
        how = (f"the command it names when stopped (`sim audit {meta['audit']} ... --resume`)" if "audit" in meta
               else f"`sim study {meta['study_path']} --resume`")
        raise RunError(f"checkpoint {path} is of a study that has not finished; continue it with {how} and "
                       "the same options")
    if "audit" in meta:  # several encounters' rows: sim.audit.report_from_checkpoint reads them
        raise RunError(f"checkpoint {path} is of `sim audit {meta['audit']}`: write its report with "
                       f"`sim report {path}` (sim.api.report)")
    if "file_kind" in meta:  # a whole-file kind's (the lethality study): its fights' rows
        return _file_kind_report(meta, streams, out, results_root)
    ls = load_study_text(meta["study_text"], meta["study_path"])
    base, spec = ls.loaded.base, ls.spec
    target = _target(ls.loaded.name, meta["seed"], meta["sha256"], out, results_root)
    ctx = StudyContext(ls.loaded, ls.doc, seed=meta["seed"], trials=meta["trials"] or base.trials,
                       max_trials=spec.max_trials or base.max_trials)
    ctx.restored, ctx.frozen = streams, True
    res = _result(ctx, ls, registry.get_kind(spec.kind).run(ctx, spec))
    res.out_dir = write_result(res, target, None)
    return res


def _file_kind_report(meta: dict, streams: dict, out, results_root) -> StudyResult:
    """:func:`report_from_checkpoint` of a whole-file kind: the kind run again on the kept rows
    (its counters, never kept, are played again), the report written."""
    from sim.scenario import load_yaml_text

    from .file_streams import FileStreams
    from .load import load_whole_file

    kind = meta["file_kind"]
    if kind not in registry.FILE_KINDS:
        from sim.runner import RunError

        raise RunError(f"the checkpoint names a study kind {kind!r} that this mgsim does not have")
    mod = registry.get_kind(kind)
    study = load_whole_file(kind, load_yaml_text(meta["study_text"], meta["study_path"]))
    seed, trials = meta["seed"], meta["trials"]
    fs = FileStreams(seed)
    fs.group.restored, fs.group.frozen = streams, True
    frames = mod.run(study, trials=trials, seed=seed, streams=fs)
    res = _file_kind_result(kind, mod, study, meta["study_path"], frames, trials, seed)
    target = _target(study.name, seed, meta["sha256"], out, results_root)
    res.out_dir = write_result(res, target, None, header=_file_kind_header(kind, res), files=mod.files(frames))
    return res


def _file_kind_header(kind: str, res: StudyResult) -> str:
    return f"study kind <b>{kind}</b> · seed {res.seed} · {res.trials:,} trials per system"


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


def _run_file_kind(kind, path, trials, seed, out, write, results_root, progress=None, cancel=None,
                   resume=False) -> StudyResult:
    """A whole-file kind (``registry.FILE_KINDS``): its module loads and runs the file
    and makes its report section; the report is written like any study's. Its
    output directory is chosen and checked before it plays, and locked. Its fights are
    played by a :class:`~sim.study.file_streams.FileStreams` (progress, a stop within
    seconds) whose rows, when it writes, go into a study checkpoint (``--resume``) as
    any study's."""
    import hashlib

    from filelock import FileLock, Timeout

    from sim.runner import RunError

    mod = registry.get_kind(kind)
    study = mod.load_study(path)
    asked_seed, seed = seed, study.seed if seed is None else seed
    text = Path(path).read_text(encoding="utf-8")
    sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
    target = _target(study.name, seed, sha, out, results_root) if write else None
    lock = None
    if target is not None:
        lock = FileLock(str(target.parent / f".{target.name}.lock"), timeout=0)
        try:
            lock.acquire()
        except Timeout:
            raise RunError(f"another study is writing {target} right now; wait for it, or choose "
                           "another --out") from None
    try:
        from .file_streams import FileStreams

        streams = FileStreams(seed, cancel=cancel)
        play = _file_kind_player(mod, study, trials, seed, progress, streams)
        if target is None:
            return _file_kind_result(kind, mod, study, path, play(), trials, seed)
        return _file_kind_kept(kind, mod, study, path, text, sha, play, streams, trials, seed, asked_seed, out,
                               results_root, resume, target)
    finally:
        if lock is not None:
            lock.release()
            Path(lock.lock_file).unlink(missing_ok=True)


def _file_kind_player(mod, study, trials, seed, progress, streams):
    """A function that runs the kind with a progress bar (its total: the kind's
    ``expected_trials``, an estimate, less what a checkpoint restored)."""
    from sim.progress import make_progress

    def play():
        bar = make_progress(progress)
        streams.group.progress = bar
        if bar is not None and hasattr(mod, "expected_trials"):
            kept = sum(streams.group.restored_trials().values())
            bar.set_total(max(0, mod.expected_trials(study, trials) - kept), estimate=True,
                          basis="the calibration's steps")
        finished = False
        try:
            frames = mod.run(study, trials=trials, seed=seed, streams=streams, progress=getattr(bar, "note", None))
            finished = True
        finally:
            if bar is not None:
                bar.close(final=finished)
        return frames

    return play


def _file_kind_kept(kind, mod, study, path, text, sha, play, streams, trials, seed, asked_seed, out,
                    results_root, resume, target) -> StudyResult:
    """:func:`_run_file_kind` with a locked checkpoint of the fights' rows (as a study's)."""
    from sim.runner import claim_checkpoint

    from .checkpoint import StudyCheckpoint, checkpoint_path

    path_c, lock, notices = claim_checkpoint(checkpoint_path(study.name, sha, seed, results_root, out),
                                             resume=resume, shared=out is None, what="study")
    try:
        for line in notices:
            print(line, file=sys.stderr)
        command = resume_command(path, out, trials, asked_seed)
        ckpt = StudyCheckpoint(path_c, text, path, seed, trials, extra={"file_kind": kind},
                               resume=f"`{command}`")
        if resume and path_c.is_file():
            ckpt.restore(streams.group)
        streams.group.saver = ckpt
        frames = kept_on_stop(ckpt, streams.group, command, play)
        ckpt.save(streams.group, complete=True)
        res = _file_kind_result(kind, mod, study, path, frames, trials, seed)
        res.out_dir = write_result(res, target, ckpt.path, header=_file_kind_header(kind, res), files=mod.files(frames),
                                   redo=f"rerun `{command}`")
        ckpt.remove()
        return res
    finally:
        lock.release()


def _file_kind_result(kind, mod, study, path, frames, trials, seed) -> StudyResult:
    """The result of a whole-file kind's ``frames`` (nothing written)."""
    trials = study.trials if trials is None else trials
    section = mod.section(study, frames)
    prov = {**mod.provenance(study, frames, trials, seed), "study_file": str(path), "kind": kind}
    return StudyResult(name=study.name, system=kind, seed=int(seed), trials=int(trials), sections=[section],
                       provenance=prov)


def resume_command(path, out, trials, seed) -> str:
    """The exact ``sim study FILE ... --resume`` that continues a study (shell-quoted)."""
    import shlex

    argv = ["sim", "study", str(path)]
    for flag, value in (("--out", out), ("--trials", trials), ("--seed", seed)):
        if value is not None:
            argv += [flag, str(value)]
    return shlex.join(argv + ["--resume"])
