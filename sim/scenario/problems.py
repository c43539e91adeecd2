"""Errors found by a system's own checks of a block, raised with their exact place.

A pydantic validator can only raise at its own level, so the line of a bad
field inside a mapping keyed by names (``talents: {Curse: {uses: 9}}``) would
be lost. :class:`Problems` collects ``(loc, text)`` pairs and raises them as
one pydantic ``ValidationError`` whose errors sit at those places; raised from
a ``mode="wrap"`` model validator, pydantic keeps the places, so the loader
(:func:`sim.scenario.errors.validate_model`) names the file, line and field.
"""
from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError


class Problems:
    """Errors at ``prefix + loc``, raised together by :meth:`raise_any`."""

    def __init__(self, prefix: tuple = (), title: str = "Scenario"):
        self.prefix, self.title = tuple(prefix), title
        self.items: list[InitErrorDetails] = []

    def __len__(self) -> int:
        return len(self.items)

    def add(self, loc: tuple, text: str, value: Any = None) -> None:
        """One problem: ``text`` (a sentence for the designer) about the value at ``loc``."""
        err = PydanticCustomError("value_error", "{text}", {"text": text})  # braces in text stay text
        self.items.append(InitErrorDetails(type=err, loc=self.prefix + tuple(loc), input=value))

    def raise_any(self) -> None:
        """Raise every problem added so far as one ``ValidationError`` (nothing if none)."""
        if self.items:
            raise ValidationError.from_exception_data(self.title, self.items)
