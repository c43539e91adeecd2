"""Spelling suggestions for unknown names ("Did you mean 'attack'?").

Used by the loader for unknown fields, systems and variant paths, and by the
rule systems' own pydantic validators for unknown talents, abilities, cards...::

    @field_validator("talents")
    @classmethod
    def _known(cls, v):
        for t in v:
            if t not in TALENTS:
                raise ValueError(unknown_name_message("talent", t, TALENTS))
        return v
"""
from __future__ import annotations

import difflib
from collections.abc import Iterable

#: how similar a choice must be to be suggested (difflib ratio)
CUTOFF = 0.6
#: how many known names ``unknown_name_message`` lists before eliding
MAX_LISTED = 25


def closest(name: object, choices: Iterable[object], cutoff: float = CUTOFF) -> str | None:
    """The choice closest to ``name`` (case-insensitive), or None if none is close."""
    key = str(name).lower()
    by_lower: dict[str, str] = {}
    for c in choices:
        by_lower.setdefault(str(c).lower(), str(c))
    if key in by_lower:  # differs only by case
        return by_lower[key]
    hits = difflib.get_close_matches(key, list(by_lower), n=1, cutoff=cutoff)
    return by_lower[hits[0]] if hits else None


def suggest(name: object, choices: Iterable[object]) -> str:
    """``" Did you mean 'X'?"`` for the closest choice, or ``""``."""
    best = closest(name, choices)
    return f" Did you mean '{best}'?" if best is not None else ""


def list_names(choices: Iterable[object], limit: int = MAX_LISTED) -> str:
    """``"a, b, c"``; long lists end with ``"... (N more)"``."""
    items = [str(c) for c in choices]
    if len(items) > limit:
        return ", ".join(items[:limit]) + f", ... ({len(items) - limit} more)"
    return ", ".join(items)


def unknown_name_message(kind: str, name: object, choices: Iterable[object]) -> str:
    """E.g. ``unknown talent 'Bost'. Did you mean 'Boost'? Known: Boost, Heal.``"""
    choices = list(choices)
    known = list_names(choices) if choices else "(none)"
    return f"unknown {kind} {str(name)!r}.{suggest(name, choices)} Known: {known}."
