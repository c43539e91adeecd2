"""The fields every ``study:`` block shares, and its arms.

Each kind's module subclasses :class:`StudySpec` with its own fields and a
``kind: Literal[...]``. An arm is written like a variant (``name`` and
``set: {path: value}``, :class:`sim.scenario.VariantSpec`).
"""
from __future__ import annotations

from typing import Annotated

from pydantic import Field

from sim.scenario.base import StrictModel, VariantSpec

#: one arm: ``{name: ..., set: {path: value}}`` (``set`` may be empty: the base)
ArmSpec = VariantSpec

Probability = Annotated[float, Field(gt=0, lt=1)]


class StudySpec(StrictModel):
    """Shared fields.

    kind:        which study (see ``sim.study.registry.KINDS``)
    title:       heading of the study's report section (default: from the kind)
    alpha:       family-wise error rate of the study's intervals and tests (0.05: 95%)
    precision:   stop by precision: double the trials (from ``trials``) until the
                 half-width of every primary interval is at most this, or
                 ``max_trials``: a win-rate difference as a fraction (compare,
                 talent-value), the value found in the parameter's own units
                 (exchange-rate, calibrate)
    max_trials:  cap per arm for ``precision`` (default: the scenario's ``max_trials``)
    """

    kind: str
    title: str = ""
    alpha: Probability = 0.05
    precision: Annotated[float, Field(gt=0, le=1e6)] | None = None
    max_trials: Annotated[int, Field(ge=1, le=10**9)] | None = None
