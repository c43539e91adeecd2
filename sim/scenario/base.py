"""Base pydantic models shared by every rule system's scenario model.

A system's ``SCENARIO_MODEL`` subclasses :class:`ScenarioHeader` and adds its
own ``rules`` and ``sides``::

    class Mb41Scenario(ScenarioHeader):
        rules: Mb41Rules = Mb41Rules()
        sides: list[Side]

All models are strict about keys (``extra="forbid"``: a misspelt key is an
error with a suggestion, never silently ignored) and frozen.
"""
from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

#: letters, digits, '_' first; then also space, '.', '-' (safe in result paths)
NAME_PATTERN = re.compile(r"^\w[\w .\-]*$")


def _check_name(value: str) -> str:
    if not NAME_PATTERN.match(value) or value != value.strip():
        raise ValueError(
            f"invalid name {value!r}: use letters, digits, '-', '_', '.' and spaces, "
            "starting with a letter or digit (1 to 80 characters).")
    return value


ScenarioName = Annotated[str, Field(min_length=1, max_length=80), AfterValidator(_check_name)]


class StrictModel(BaseModel):
    """Unknown keys are errors; instances are immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class VariantSpec(StrictModel):
    """One entry of ``variants:``: the base scenario with some values changed.

    ``set`` maps a path to its new value: ``rules.<option>``,
    ``<member name>.<field>[.<subfield>...]``, ``<side name>.<field>`` or an
    explicit ``sides[0].members[1].attack``.
    """

    name: Annotated[str, Field(min_length=1, max_length=80)]
    changes: dict[str, Any] = Field(default_factory=dict, alias="set")


class ScenarioHeader(StrictModel):
    """The top-level fields common to every system's scenario."""

    name: ScenarioName
    system: str
    seed: Annotated[int, Field(ge=0, lt=2**63)] = 0
    trials: Annotated[int, Field(ge=1, le=10**9)] = 10_000
    precision: Annotated[float, Field(gt=0, lt=0.5)] | None = None
    max_trials: Annotated[int, Field(ge=1, le=10**10)] = 10_000_000
    description: str = ""
    crn: bool = True
    variants: list[VariantSpec] = []
    sweep: dict[str, Annotated[list, Field(min_length=1)]] | None = None
    #: read and validated by ``sim study`` (sim/study, docs/studies.md); ``sim run`` ignores it
    study: dict[str, Any] | None = None


class ErrorAt(ValueError):
    """A model validator's error about one field below the model: ``loc`` (a data
    path relative to the model, e.g. ``("sides", 1, "name")``) is where the error
    is reported, so it points at that field's line, not the model's first line."""

    def __init__(self, loc, message: str):
        super().__init__(message)
        self.loc = tuple(loc)
