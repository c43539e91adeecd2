"""``sim audit SYSTEM``: value every entry of a catalog in a set of reference encounters.

The reference encounters of a system are study files (``study: {kind: audit}``,
:mod:`sim.study.audit`) bundled in ``scenarios/audit/<system>/``, each
calibrated so that the first side wins about half its fights as written
(docs/audit.md says how, and how to recalibrate). ``encounters=`` (``sim audit
--encounters PATH``) replaces them by a directory or a list of such files.
``talents=`` (``--talents FILE``) is a designer's own data block (``talents:``
for mb41 and the draft, ``powers:`` for d10, ``cards:`` for the card game),
added to every encounter: its edited entries are valued with their new numbers
and its invented ones join the audit, each labelled as such.

Every encounter plays the same number of trials per arm (``trials``, default the
smallest ``trials:`` of the encounter files) so that all cells read together
(:mod:`sim.study.audit_read`). Arms are built and played by the study runner
(:class:`sim.study.arms.StudyContext`); ``scheduler`` plays them on a dask
cluster (:mod:`sim.distributed`): the same rows, the same tables.
"""
from __future__ import annotations

import copy
import json
import os
from dataclasses import replace
from pathlib import Path

from sim.scenario import load_yaml
from sim.scenario.errors import ScenarioError, doc_error, validation_error

#: where the bundled reference encounters live (a source checkout)
REFERENCE = Path(__file__).resolve().parent.parent / "scenarios" / "audit"
#: the data block a designer's file gives, per system
BLOCKS = {"mb41": "talents", "mb-draft": "talents", "d10": "powers", "cards": "cards"}


class AuditError(ValueError):
    """Bad audit options (system, files, trials)."""


def reference_files(system: str, encounters=None) -> list[Path]:
    """The encounter files: ``encounters`` (a directory, a file or a list of files) or the
    bundled ones of ``system``."""
    if encounters is None:
        paths = sorted((REFERENCE / system).glob("*.yaml"))
        if not paths:
            raise AuditError(f"no bundled reference encounters for {system!r} in {REFERENCE / system}")
        return paths
    items = [encounters] if isinstance(encounters, (str, os.PathLike)) else list(encounters)
    out: list[Path] = []
    for it in items:
        p = Path(it)
        if p.is_dir():
            out += sorted(p.glob("*.yaml"))
        elif p.is_file():
            out.append(p)
        else:
            raise AuditError(f"--encounters: no such file or directory: {p}")
    if not out:
        raise AuditError(f"--encounters: no .yaml files in {', '.join(map(str, items))}")
    return out


def designer_block(system: str, path) -> tuple[dict, object]:
    """The ``talents:`` (``powers:``, ``cards:``) block of a designer's file, checked
    against ``system``'s catalog with the file's lines; returns (block, document)."""
    doc = load_yaml(path)
    key = BLOCKS[system]
    block = doc.data.get(key) if isinstance(doc.data, dict) else None
    if not isinstance(block, dict) or not block:
        raise doc_error(doc, (key,), f"expected a '{key}:' block (name -> fields) for a {system} audit, e.g. "
                        + ("talents: {Glass Heart: {mechanic: low_resolve, attack: 1}}" if key == "talents" else
                           "powers: {Iron Skin: {mechanic: dr, n: 2, kind: perk}}" if key == "powers" else
                           "cards: {Star Pup: {type: pet, atk: 2, cost: 1}}"))
    _check_block(system, key, block, doc)
    return block, doc


def _check_block(system, key, block, doc) -> None:
    """The block's own checks (those a scenario's block gets), with the file's lines."""
    from pydantic import BaseModel, ValidationError, create_model

    class _File(BaseModel):  # for the messages only: the block's own checks give the details
        model_config = {"extra": "allow"}

    try:
        if key == "talents":
            from sim.systems.mb41 import talent_edits
            from sim.systems.mb41.schema import Scenario
            from sim.systems.mbdraft import Scenario as DraftScenario

            talent_edits.build((DraftScenario if system == "mb-draft" else Scenario).base_catalog(), block)
        elif key == "powers":
            from sim.systems.d10.catalog import edits

            edits.build(block)
        else:
            from sim.systems.cards import cardsdata

            model = create_model("CardsFile", cards=(dict[str, cardsdata.CardEdit], ...))
            cardsdata.apply_edits(model.model_validate({"cards": block}).cards)
    except ValidationError as e:
        raise validation_error(e, _File, doc.data, doc) from None
    except ValueError as e:
        raise doc_error(doc, (key,), str(e)) from None


def _with_block(ls, key: str, block: dict):
    """``ls`` (a LoadedStudy) with the designer's block merged into its scenario's own."""
    from sim.study.load import load_study_document

    data = copy.deepcopy(ls.doc.data)
    data[key] = {**(data.get(key) or {}), **copy.deepcopy(block)}
    return load_study_document(replace(ls.doc, data=data))


def _invented(system: str, ls, block: dict) -> list:
    """The designer's entries (with their status) as this encounter's catalog sees them."""
    from sim.study.entries import entries_of

    names = set(block)
    return [e for e in entries_of(system, ls.loaded.base) if e.name in names or e.status != "catalog"]


def load_encounters(system: str, files: list[Path], block: dict | None):
    """Each file as a LoadedStudy of kind ``audit`` for ``system`` (with the designer's block)."""
    from sim.study.load import load_study

    out = []
    for f in files:
        ls = load_study(f)
        if ls.spec.kind != "audit":
            raise doc_error(ls.doc, ("study", "kind"), f"a reference encounter is a study of kind 'audit', "
                            f"not {ls.spec.kind!r} (docs/audit.md)")
        if ls.loaded.system != system:
            raise doc_error(ls.doc, ("system",), f"this encounter is a {ls.loaded.system} scenario; the audit "
                            f"is of {system}")
        out.append(_with_block(ls, BLOCKS[system], block) if block else ls)
    return out


def run_audit(system: str, *, encounters=None, talents=None, trials: int | None = None, seed: int | None = None,
              only: list[str] | None = None, out=None, write: bool = True, results_root="results",
              scheduler: str | None = None, progress=None, resume: bool = False, cancel=None):
    """Audit ``system``'s catalog (see the module docstring); returns a
    :class:`sim.study.StudyResult` whose sections are the overview and one per category.

    Played with the guarantees of ``sim study`` (:mod:`sim.audit_run`): every arm of every
    encounter built and checked and the output directory chosen before anything plays; the
    rows checkpointed as arms finish; ``resume``: continue from the checkpoint of the same
    options (another's is refused); ``cancel`` (an Event or a function) or Ctrl-C: a
    :class:`sim.runner.RunCancelled` naming the checkpoint and the command that continues.
    ``progress``: a mode (``auto``, ``bar``, ``plain``, ``none``) or ``f(done, total,
    estimate)`` as ``api.study``'s; a function of one argument gets the encounters' news lines."""
    from sim.audit_run import AuditJob, play, preflight
    from sim.systems import names as system_names

    if system not in BLOCKS or system not in system_names():
        raise AuditError(f"no audit for system {system!r}: one of {', '.join(BLOCKS)}")
    if trials is not None and (not isinstance(trials, int) or not 10 <= trials <= 10**8):
        raise AuditError(f"--trials must be a whole number from 10 to 10^8, got {trials}")
    block = designer_block(system, talents)[0] if talents is not None else None
    studies = load_encounters(system, reference_files(system, encounters), block)
    job = AuditJob(system, studies, [ls.spec.model_copy(update={"entries": only}) if only else ls.spec
                                     for ls in studies], trials or min(ls.loaded.base.trials for ls in studies),
                   seed, trials, list(only) if only else None, block, encounters, talents)
    plans = preflight(job)
    from sim.study.run import _connect, _target

    target = None
    if write:  # chosen and checked before anything plays, as sim run's and sim study's
        import hashlib

        sha = hashlib.sha256("".join(sorted(ls.loaded.sha256 for ls in studies)).encode()).hexdigest()
        target = _target(f"audit-{system}", job.seed_of(studies[0]), sha, out, results_root)

    backend = _connect(scheduler)
    try:
        return play(job, plans, backend=backend, progress=progress, cancel=cancel, write_to=target, out=out,
                    results_root=results_root, resume=resume)
    finally:
        if backend is not None:
            backend.close()


def job_from_identity(ident: dict, paths=None):
    """The :class:`sim.audit_run.AuditJob` of a checkpoint's identity (``sim report``): each
    encounter loaded from the text it carries (named by its path when ``paths`` gives it)."""
    from sim.audit_run import AuditJob
    from sim.study.load import load_study_text

    system, block, only = ident["audit"], ident.get("designer_block"), ident.get("only")
    paths = list(paths or [])
    studies = []
    for i, e in enumerate(ident["encounters"]):
        ls = load_study_text(e["text"], paths[i] if i < len(paths) else e["name"])
        studies.append(_with_block(ls, BLOCKS[system], block) if block else ls)
    specs = [ls.spec.model_copy(update={"entries": only}) if only else ls.spec for ls in studies]
    return AuditJob(system, studies, specs, int(ident["trials"]), ident.get("seed"), None, only, block)


def report_from_checkpoint(path, *, out=None, results_root="results"):
    """The report of a finished audit from its checkpoint (``sim report``): every encounter
    rebuilt from the text the checkpoint carries, its rows restored (nothing is played but the
    count of uses, :func:`sim.study.audit._usage`), the report written to ``out`` (default
    ``results/audit-<system>/study-<run id>``)."""
    from sim.audit_run import _measure, build_result, preflight, report_files
    from sim.study.checkpoint import read
    from sim.study.group import ContextGroup
    from sim.runner import RunError
    from sim.study.run import _target, write_result

    meta, streams = read(path)
    if not meta["complete"]:
        raise RunError(f"checkpoint {path} is of an audit that has not finished; continue it with the command "
                       f"it printed when stopped (`sim audit {meta['audit']} ... --resume`, the same options)")
    job = job_from_identity(json.loads(meta["study_text"]), meta.get("encounter_paths"))
    target = _target(f"audit-{job.system}", meta["seed"], meta["sha256"], out, results_root)
    group = ContextGroup()
    group.restored, group.frozen = streams, True
    cells, entries, contexts = _measure(job, preflight(job), None, None, group)
    res = build_result(job, cells, entries, contexts)
    header, files = report_files(job, res, len(entries))
    res.out_dir = write_result(res, target, None, header=header, files=files)
    return res


__all__ = ["AuditError", "ScenarioError", "reference_files", "report_from_checkpoint", "run_audit"]
