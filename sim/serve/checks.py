"""Check the editor's text as ``sim validate`` checks a file, and say where it is wrong.

:func:`check_text` runs the same loader as ``sim validate FILE``
(:func:`sim.scenario.load_yaml_text`, the study loader for a file with a
``study:`` block, :func:`sim.scenario.load_document` for a scenario): the same
limits (size, aliases, merge keys, control characters), the same messages
with their "did you mean". It returns plain data for the page: whether the
text runs, what it is (a scenario of which system with which variants, or a
study of which kind), and each problem with its line, so the editor can
underline it. Nothing is run or written.
"""
from __future__ import annotations

import time

from sim.scenario import ScenarioError, load_document, load_yaml_text


def _problems(err: ScenarioError) -> list[dict]:
    """One entry per problem of ``err``: ``{"line", "field", "message"}``.

    ``message`` is the loader's own sentence for that problem (``line 12,
    field sides[0].members[0].atack: unknown field. Did you mean 'attack'? ...``);
    for a lone problem it is the whole message ``sim validate`` prints.
    """
    problems = list(err.problems or [(err.line, err.field, err.detail)])
    if len(problems) == 1:
        line, field, _ = problems[0]
        return [{"line": line if line is not None else err.line, "field": field, "message": str(err)}]
    out = []
    for line, field, detail in problems:
        at = ", ".join(([f"line {line}"] if line is not None else []) + ([f"field {field}"] if field else []))
        text = " ".join(str(detail).split())
        out.append({"line": line, "field": field, "message": f"{at}: {text}" if at else text})
    return out


def _study(doc) -> dict | None:
    """The study facts of a document with a ``study:`` block, else None: the check of ``sim
    validate`` (:func:`sim.api.validate_study_document`), with its ``summary`` for the page,
    but for the preflight (every arm built, which may compile kernels in this process): a
    Run makes it in the worker before it plays, and a bad arm comes back as the job's error."""
    from sim import api

    v = api.validate_study_document(doc, preflight=False)
    if v is None:
        return None
    return {"kind": "study", "study_kind": v["kind"], "name": v["name"], "system": v["system"],
            "seed": v["seed"], "trials": v["trials"], "variants": [], "whole_file": v["whole_file"],
            "summary": v["summary"]}


def check_text(text: str, label: str) -> dict:
    """Validate ``text`` (named ``label`` in messages, like the file's path for ``sim validate``).

    Returns ``{"ok", "message", "problems", "kind", "system", "name", "variants",
    "seed", "trials", "study_kind", "seconds"}``: ``ok`` false with the loader's
    ``message`` and ``problems`` (see :func:`_problems`) when the text would not run.
    """
    t0 = time.perf_counter()
    info: dict = {"ok": False, "message": "", "problems": [], "kind": None, "system": None, "name": None,
                  "variants": [], "seed": None, "trials": None, "study_kind": None}
    try:
        doc = load_yaml_text(text, label)
        study = _study(doc)
        if study is not None:
            info.update(study)
        else:
            loaded = load_document(doc)
            info.update(kind="scenario", system=loaded.system, name=loaded.name,
                        variants=[name for name, _ in loaded.variants], seed=int(loaded.base.seed),
                        trials=int(loaded.base.trials))
        info["ok"] = True
    except ScenarioError as e:
        info.update(message=str(e), problems=_problems(e))
    info["seconds"] = round(time.perf_counter() - t0, 4)
    return info
