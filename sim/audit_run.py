"""``sim audit`` played with the guarantees of ``sim study``: nothing played before every
input is checked, nothing finished lost, a stop within seconds, ``--resume``.

In order, before a trial is played: the options and every encounter file
(:func:`sim.audit.run_audit`); the preflight (:func:`preflight`: each encounter's
audit run on a dry context, :func:`sim.study.preflight.dry_run`, so that every arm
of every encounter is built and checked and the trials are counted); the output
directory; the ``--scheduler``; the checkpoint, locked
(:func:`sim.runner.claim_checkpoint`). Then each encounter is played on its own
:class:`~sim.study.arms.StudyContext`, all of them in one
:class:`~sim.study.group.ContextGroup`, so that their rows go into *one* study
checkpoint (:mod:`sim.study.checkpoint`, the file ``sim study`` writes: its
"study text" is the audit's identity, :meth:`AuditJob.identity`, and its streams
are tagged by encounter), saved atomically as arms finish (at most every
``MGSIM_CHECKPOINT_EVERY_S`` seconds, 5 by default) and at a stop.

Ctrl-C or ``cancel`` (:mod:`sim.cancel`) stops within about a second (a chunk:
:data:`sim.cancel.TARGET_S`), saves the rows and says the exact command that
continues (:meth:`AuditJob.resume_command`); ``--resume`` hands the rows back and
plays only the missing trials (trial ``i`` of a stream is always the same fight),
so a resumed audit gives the tables of an uninterrupted one. A checkpoint of
another audit (system, ``--trials``, ``--seed``, ``--only``, ``--talents``,
``--encounters`` or their text, mgsim version) is refused in one sentence
(:func:`refusal`). The report is written from the finished rows; when that fails
the checkpoint (complete) stays for ``sim report`` (:func:`sim.audit.report_from_checkpoint`).

Checkpoint: ``results/audit-<system>/.audit-checkpoint.npz`` (two audits at once
take ``-2``, ``-3``...), or beside ``--out`` as ``.<out>.audit-checkpoint.npz``.
"""
from __future__ import annotations

import datetime as _dt
import json
import shlex
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import yaml

import sim

#: what the refusal of another audit's checkpoint calls each part of the identity
_LABELS = {"audit": "system", "trials": "trials per arm", "seed": "--seed", "only": "--only",
           "designer_block": "--talents block", "encounters": "reference encounters"}


@dataclass
class AuditJob:
    """One audit's inputs, as asked: ``studies`` (each encounter with the designer block
    merged), ``specs`` (their audit blocks limited to ``only``), ``n`` trials per arm;
    ``seed``, ``trials``, ``encounters``, ``talents`` as given (None: the default)."""

    system: str
    studies: list
    specs: list
    n: int
    seed: int | None
    trials: int | None
    only: list | None
    block: dict | None
    encounters: object = None
    talents: object = None

    def seed_of(self, ls) -> int:
        """The encounter's seed: ``--seed``, else its file's."""
        return int(ls.loaded.base.seed if self.seed is None else self.seed)

    def tag(self, i: int) -> str:
        """Encounter ``i``'s tag in the checkpoint (:mod:`sim.study.group`)."""
        return f"{i + 1}. {self.studies[i].loaded.name}"

    def identity(self) -> dict:
        """What a checkpoint must share with the audit that resumes it (besides the
        version): the system, trials per arm, ``--seed``, ``--only``, the designer's
        block and every encounter's name and text."""
        return {"audit": self.system, "trials": int(self.n), "seed": self.seed, "only": self.only,
                "designer_block": self.block,
                "encounters": [{"name": ls.loaded.name, "text": ls.doc.text} for ls in self.studies]}

    def identity_text(self) -> str:
        return json.dumps(self.identity(), sort_keys=True, indent=1, default=str)

    def resume_command(self, out) -> str:
        """The exact command that continues this audit (shell-quoted)."""
        argv = ["sim", "audit", self.system]
        if self.encounters is not None:
            items = [self.encounters] if isinstance(self.encounters, (str, Path)) else list(self.encounters)
            argv += ["--encounters", *map(str, items)]
        if self.talents is not None:
            argv += ["--talents", str(self.talents)]
        if self.only:
            argv += ["--only", *self.only]
        if self.trials is not None:
            argv += ["--trials", str(self.trials)]
        if self.seed is not None:
            argv += ["--seed", str(self.seed)]
        if out is not None:
            argv += ["--out", str(out)]
        return shlex.join(argv + ["--resume"])


def preflight(job: AuditJob) -> list:
    """Each encounter's audit on a dry context (:func:`sim.study.preflight.dry_run`): every arm
    built and checked (a bad ``--only`` name, a policy the scenario refuses: an error now, not
    after the earlier encounters have played), the trials of each stream counted."""
    from sim.study.preflight import dry_run

    return [dry_run(replace(ls, spec=spec), job.seed_of(ls), job.n, job.n)
            for ls, spec in zip(job.studies, job.specs)]


def checkpoint_path(system: str, results_root="results", out=None) -> Path:
    """Beside ``out`` when given, else ``results_root/audit-<system>/.audit-checkpoint.npz``
    (one per system: ``--resume`` finds it whatever the options, and refuses another's)."""
    if out is not None:
        out = Path(out)
        return out.parent / f".{out.name}.audit-checkpoint.npz"
    return Path(results_root) / f"audit-{system}" / ".audit-checkpoint.npz"


def _shown(key: str, value) -> str:
    if key == "encounters":
        return "[" + ", ".join(e.get("name", "?") for e in value or [] if isinstance(e, dict)) + "]"
    if key == "designer_block":
        return "none" if not value else "[" + ", ".join(value) + "]"
    return "default" if value is None else repr(value)


def refusal(job: AuditJob, path) -> str | None:
    """Why the checkpoint at ``path`` cannot continue ``job`` (one sentence), or None (then
    :meth:`StudyCheckpoint.restore <sim.study.checkpoint.StudyCheckpoint.restore>` checks the
    whole file; an unreadable one is left to it to describe)."""
    from sim import checkfile

    meta = checkfile.peek_meta(path)
    if meta is None:
        return None
    if meta.get("kind") != "study" or "audit" not in meta:
        return f"--resume: {path} is not the checkpoint of an audit; remove it, or run without --resume"
    try:
        theirs = json.loads(meta.get("study_text") or "")
    except ValueError:
        theirs = {}
    mine, diffs = job.identity(), []
    for key, label in _LABELS.items():
        a, b = theirs.get(key) if isinstance(theirs, dict) else None, mine[key]
        if a == b:
            continue
        if key == "encounters" and _shown(key, a) == _shown(key, b):
            changed = [e["name"] for e, f in zip(a, b) if e != f]
            diffs.append(f"the text of encounter {', '.join(changed)} changed since")
        else:
            diffs.append(f"{label}: {_shown(key, a)} there, {_shown(key, b)} now")
    if meta.get("version") != sim.__version__:
        diffs.append(f"mgsim version: {meta.get('version')!r} there, {sim.__version__!r} now")
    if not diffs:
        return None
    return (f"--resume: checkpoint {path} is of another audit ({'; '.join(diffs)}); rerun with the options "
            "it was made with, remove it, or run without --resume")


def _progress(progress):
    """``(bar, note)``: a :mod:`sim.progress` object for a mode or ``f(done, total, estimate)``,
    and where the encounters' news lines go. A function of one argument (the older
    ``api.audit(progress=print)``) gets the news lines only."""
    import inspect

    from sim.progress import make_progress

    if callable(progress):
        try:
            params = [p for p in inspect.signature(progress).parameters.values()
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL)]
        except (TypeError, ValueError):
            params = []
        if len(params) == 1 and params[0].kind != params[0].VAR_POSITIONAL:
            return None, progress
    bar = make_progress(progress)
    return bar, (bar.note if bar is not None else None)


def _measure(job: AuditJob, plans, backend, note, group):
    """Every encounter's cells, each on its own context in ``group``."""
    from sim.study.arms import StudyContext
    from sim.study.audit import check_holders, measure, selected

    cells, entries, contexts = [], {}, []
    for i, (ls, spec, plan) in enumerate(zip(job.studies, job.specs, plans)):
        ctx = StudyContext(ls.loaded, ls.doc, seed=job.seed_of(ls), trials=job.n, max_trials=job.n)
        ctx.backend, ctx.prebuilt = backend, plan.prebuilt
        group.add(job.tag(i), ctx)
        check_holders(ctx, spec)
        chosen = selected(ctx, spec)
        for e in chosen:
            entries.setdefault(e.name, e)
        if note:
            note(f"{ls.loaded.name}: {len(chosen)} entries x {len(spec.policies)} policies x {job.n:,} trials")
        cells += measure(ctx, spec, chosen, ls.loaded.name, job.n)
        contexts.append(ctx)
    return cells, list(entries.values()), contexts


def _played(job: AuditJob, plans, backend, progress, group):
    """:func:`_measure` with progress: the total is the preflight's count less what the
    checkpoint restored."""
    from sim.study.group import SEP

    bar, note = _progress(progress)
    group.progress = bar
    if bar is not None:
        restored = group.restored_trials()
        bar.set_total(sum(max(0, n - restored.get((p, job.tag(i) + SEP + name), 0))
                          for i, plan in enumerate(plans) for (p, name), n in plan.need.items()))
    finished = False
    try:
        got = _measure(job, plans, backend, note, group)
        finished = True
    finally:
        if bar is not None:
            bar.close(final=finished)
    return got


def play(job: AuditJob, plans, *, backend=None, progress=None, cancel=None, write_to=None, out=None,
         results_root="results", resume: bool = False):
    """Play ``job`` (``plans``: :func:`preflight`'s) and return its
    :class:`~sim.study.StudyResult`. ``write_to``: the output directory chosen beforehand
    (None: nothing written, no checkpoint: a stop keeps nothing)."""
    from sim.study.group import ContextGroup

    group = ContextGroup(cancel=cancel)
    if write_to is None:
        return build_result(job, *_played(job, plans, backend, progress, group))
    from sim.runner import claim_checkpoint
    from sim.study.checkpoint import StudyCheckpoint
    from sim.study.run import kept_on_stop, write_result

    command = job.resume_command(out)
    path, lock, notices = claim_checkpoint(checkpoint_path(job.system, results_root, out), resume=resume,
                                           shared=out is None, what="audit", accept=lambda p: refusal(job, p))
    try:
        for line in notices:
            print(line.replace("this scenario and seed", "this system"), file=sys.stderr)
        seed = job.seed if job.seed is not None else job.seed_of(job.studies[0])
        ckpt = StudyCheckpoint(path, job.identity_text(), f"sim audit {job.system}", seed, job.trials,
                               extra={"audit": job.system,
                                      "encounter_paths": [str(ls.loaded.path) for ls in job.studies]},
                               resume=f"`{command}`")
        if resume and path.is_file():
            ckpt.restore(group)
        group.saver = ckpt
        cells, entries, contexts = kept_on_stop(ckpt, group, command,
                                                lambda: _played(job, plans, backend, progress, group))
        ckpt.save(group, complete=True)
        res = build_result(job, cells, entries, contexts)
        header, files = report_files(job, res, len(entries))
        res.out_dir = write_result(res, write_to, ckpt.path, header=header, files=files, redo=f"rerun `{command}`")
        ckpt.remove()
        return res
    finally:
        lock.release()


def _block_notes(studies) -> list[str]:
    """What the kernel does not play of the scenarios' data blocks (a cost or uses given to a
    passive mechanic...), once each: first-screen warnings, never silently dropped."""
    return list(dict.fromkeys(n for ls in studies for n in getattr(ls.loaded.data_catalog(), "notes", None) or []))


def build_result(job, cells, entries, contexts):
    """The :class:`sim.study.StudyResult` of an audit's cells (nothing written)."""
    from sim.runner import git_commit
    from sim.study.audit_read import sections
    from sim.study.caveats import assumptions
    from sim.study.run import StudyResult

    studies, n = job.studies, job.n
    alpha = studies[0].spec.alpha
    secs = sections(job.system, entries, cells, alpha, seed=contexts[0].seed)
    secs[0].assumptions = list(dict.fromkeys(a for ctx in contexts for a in assumptions(ctx.arms)))
    secs[0].warnings = list(secs[0].warnings) + _block_notes(studies)
    prov = {"audit": job.system, "encounters": [str(ls.loaded.path) for ls in studies],
            "encounter_sha256": {ls.loaded.name: ls.loaded.sha256 for ls in studies},
            "designer_file": str(job.talents) if job.talents is not None else None, "seed": contexts[0].seed,
            "trials_per_arm": n, "arms": sum(len(c.arms) for c in contexts), "assumptions": secs[0].assumptions,
            "version": sim.__version__, "git_commit": git_commit(),
            "created_utc": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")}
    return StudyResult(name=f"audit-{job.system}", system=job.system, seed=int(contexts[0].seed), trials=n,
                       sections=secs, provenance=prov)


def report_files(job, res, entries: int) -> tuple[str, dict]:
    """The report's header line and extra files (each encounter as played) of an audit."""
    header = (f"system <b>{job.system}</b> · {len(job.studies)} reference encounters · {entries} entries · "
              f"{res.provenance['arms']:,} arms × {job.n:,} trials · seed {res.seed}")
    return header, {"encounters/" + Path(ls.loaded.path).name: yaml.safe_dump(ls.doc.data, sort_keys=False)
                    for ls in job.studies}
