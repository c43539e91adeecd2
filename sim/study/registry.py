"""Which module runs each study kind.

A study kind is one module that defines

* ``SPEC``: a pydantic model (subclass of :class:`sim.study.spec.StudySpec`)
  whose ``kind`` field is ``Literal["<kind>"]``: the ``study:`` block;
* ``run(ctx, spec) -> Section``: plays the arms it needs through the
  :class:`~sim.study.arms.StudyContext` and returns the tables, charts and
  reading of its part of the report (:class:`sim.study.report.Section`).

To add a kind, write that module and add one line here. Modules are imported
only when their kind is used.

A *whole-file* kind (:data:`FILE_KINDS`) reads a file that is not one
scenario (the lethality study describes one encounter for several systems).
Its module defines ``load_study(path)`` (a model with ``name``, ``seed`` and
``trials``), ``run(study, trials, seed) -> frames`` (a dict of DataFrames and
a ``"reading"`` string), ``section(study, frames) -> Section``,
``provenance(study, frames, trials, seed) -> dict`` and ``files(frames) ->
{relative path: text}`` (extra files for the run's directory); ``sim study``
hands such a file over whole and writes the report like any study's.
"""
from __future__ import annotations

import importlib
from types import ModuleType

#: study kind (the ``kind:`` value) -> module path
KINDS: dict[str, str] = {
    "compare": "sim.study.compare",
    "talent-value": "sim.study.talents",
    "exchange-rate": "sim.study.exchange",
    "calibrate": "sim.study.calibrate",
    "policy-robustness": "sim.study.robustness",
    "policy-tuning": "sim.study.tuning",
    "matchups": "sim.study.matchups",
    "audit": "sim.study.audit",
}


#: study kinds whose file is not a scenario (the module reads, runs and writes it)
FILE_KINDS: dict[str, str] = {
    "lethality": "sim.lethality",
}


def names() -> list[str]:
    return [*KINDS, *FILE_KINDS]


def get_kind(kind: str) -> ModuleType:
    """The module of study kind ``kind`` (KeyError if unknown)."""
    return importlib.import_module(KINDS[kind] if kind in KINDS else FILE_KINDS[kind])
