"""Which module runs each study kind.

A study kind is one module that defines

* ``SPEC``: a pydantic model (subclass of :class:`sim.study.spec.StudySpec`)
  whose ``kind`` field is ``Literal["<kind>"]``: the ``study:`` block;
* ``run(ctx, spec) -> Section``: plays the arms it needs through the
  :class:`~sim.study.arms.StudyContext` and returns the tables, charts and
  reading of its part of the report (:class:`sim.study.report.Section`).

To add a kind, write that module and add one line here. Modules are imported
only when their kind is used.
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
}


def names() -> list[str]:
    return list(KINDS)


def get_kind(kind: str) -> ModuleType:
    """The module of study kind ``kind`` (KeyError if unknown)."""
    return importlib.import_module(KINDS[kind])
