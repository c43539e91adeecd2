"""Declared column layouts: the one place a kernel array's columns are named.

A rule system's kernels keep their state in a few int64 arrays whose columns
mean things ("Resolve left", "Boost uses left", "damage dealt"). A
:class:`Section` lists those columns as :class:`Field` rows (name, width,
meaning, when the value is reset); :meth:`Section.constants` turns them into
the integer offsets the kernels index with (``D_RES``, ``K_DEALT``...), so
no column number is ever written by hand and no column is left unused.

Several sections can share one array (one after another along a row):
:func:`stack` gives each its first column. numba reads module-level integers
as compile-time constants, so kernels pay nothing for the indirection.
"""
from __future__ import annotations

from dataclasses import dataclass

#: when a state field is set afresh (the :class:`Field` ``reset`` values)
RESETS = {
    "": "static data, written once when the scenario is compiled",
    "episode": "at the start of every trial (a fight, or an episode's first scene)",
    "scene": "at the start of every fight and every scene of an episode",
    "run": "never by the kernel: a counter summed over every trial of a run",
    "turn": "by the procedure that uses it, within one action or turn (scratch)",
}


@dataclass(frozen=True)
class Field:
    """One named field: ``width`` consecutive columns of an array.

    name:    the constant is ``<prefix>_<name>`` (for example ``D_RES``)
    width:   columns (a per-stat field has 3, a per-talent-slot field 6, ...)
    meaning: one line, units and the rule it serves (seed line numbers)
    reset:   one of :data:`RESETS`
    """

    name: str
    width: int
    meaning: str
    reset: str = ""

    def __post_init__(self):
        if self.width < 1:
            raise ValueError(f"field {self.name}: width must be at least 1")
        if self.reset not in RESETS:
            raise ValueError(f"field {self.name}: reset {self.reset!r} is not one of {sorted(RESETS)}")


class Section:
    """Consecutive fields sharing a prefix, starting at column ``start`` (see :func:`stack`)."""

    def __init__(self, prefix: str, title: str, fields: list[Field]):
        self.prefix = prefix
        self.title = title
        self.fields = list(fields)
        self.start = 0
        seen = set()
        for f in self.fields:
            if f.name in seen:
                raise ValueError(f"{prefix}_{f.name} is declared twice")
            seen.add(f.name)

    @property
    def size(self) -> int:
        return sum(f.width for f in self.fields)

    @property
    def stop(self) -> int:
        return self.start + self.size

    def offsets(self) -> dict[str, int]:
        """``{field name: first column}``."""
        out, c = {}, self.start
        for f in self.fields:
            out[f.name] = c
            c += f.width
        return out

    def constants(self) -> dict[str, int]:
        """``{"<prefix>_<name>": first column}`` for every field."""
        return {f"{self.prefix}_{k}": v for k, v in self.offsets().items()}

    def field(self, name: str) -> Field:
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(f"{self.prefix}_{name}")

    def columns(self, reset: str) -> list[int]:
        """Every column of the fields reset at ``reset``."""
        out = []
        for f, c in zip(self.fields, self.offsets().values()):
            if f.reset == reset:
                out.extend(range(c, c + f.width))
        return out

    def rows(self) -> list[dict]:
        """The table as rows (for documentation and ``sim layout``)."""
        offs = self.offsets()
        return [{"constant": f"{self.prefix}_{f.name}", "column": offs[f.name], "width": f.width,
                 "reset": f.reset, "meaning": f.meaning} for f in self.fields]


def stack(*sections: Section) -> int:
    """Lay ``sections`` one after another along a row; returns the row width."""
    c = 0
    for s in sections:
        s.start = c
        c += s.size
    return c


def constants(*sections: Section) -> dict[str, int]:
    """Every section's constants, refusing a name declared twice."""
    out: dict[str, int] = {}
    for s in sections:
        for k, v in s.constants().items():
            if k in out:
                raise ValueError(f"{k} is declared in two sections")
            out[k] = v
    return out
