"""Named rule options: every rules number and every contested reading.

A :class:`Ruleset` is the one table of a rule system's numbers (thresholds,
Resolve, damage bonuses...) and of its readings of ambiguous text (each
citing the audit id from ``shared/rules/RULES_AUDIT.md``). Scenarios
override options in their ``rules:`` block; :meth:`Ruleset.resolve` checks
names (suggesting the closest on a typo) and values, and returns the full
resolved mapping that is recorded with every result.

Kernels never see names: :meth:`Ruleset.to_array` packs the resolved values
into an int64 array whose indices are given by :meth:`Ruleset.index`.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Any

import numpy as np


class RuleError(ValueError):
    """A ``rules:`` entry that names no option or has a bad value."""


@dataclass(frozen=True)
class RuleOption:
    """One rule option.

    name:    the key in a scenario's ``rules:`` block
    default: the value used when the scenario does not set it
    note:    one line: what it means, and its source (seed line / audit id)
    choices: allowed values for a choice option (strings or bools); the
             kernel sees the index of the value in ``choices``
    lo, hi:  bounds for an integer option (inclusive); ``None`` = unbounded
    kind:    "choice", "int", "bool" or "intlist"
    length:  for "intlist": the required number of items
    simulated: False for options accepted for a later issue but not yet
             acted on by the kernel (listed, validated, recorded)
    """

    name: str
    default: Any
    note: str
    kind: str = "int"
    choices: tuple = ()
    lo: int | None = None
    hi: int | None = None
    length: int = 0
    available: tuple = ()

    def check(self, value):
        """Return the validated value or raise :class:`RuleError`."""
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise RuleError(f"rule '{self.name}' expects true or false, got {value!r}")
            return value
        if self.kind == "choice":
            if value not in self.choices:
                hint = _suggest(str(value), [str(c) for c in self.choices])
                raise RuleError(
                    f"rule '{self.name}' expects one of {', '.join(map(str, self.choices))}, got {value!r}.{hint}"
                )
            if self.available and value not in self.available:
                raise RuleError(
                    f"rule '{self.name}: {value}' is not simulated yet; available: "
                    f"{', '.join(map(str, self.available))}"
                )
            return value
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise RuleError(f"rule '{self.name}' expects a whole number, got {value!r}")
            if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
                raise RuleError(f"rule '{self.name}' expects a number from {self.lo} to {self.hi}, got {value}")
            return value
        if self.kind == "intlist":
            if not isinstance(value, (list, tuple)) or any(
                isinstance(v, bool) or not isinstance(v, int) for v in value
            ):
                raise RuleError(f"rule '{self.name}' expects a list of whole numbers, got {value!r}")
            if self.length and len(value) != self.length:
                raise RuleError(f"rule '{self.name}' expects {self.length} numbers, got {len(value)}")
            for v in value:
                if (self.lo is not None and v < self.lo) or (self.hi is not None and v > self.hi):
                    raise RuleError(f"rule '{self.name}' expects numbers from {self.lo} to {self.hi}, got {v}")
            return list(value)
        raise AssertionError(self.kind)

    def encode(self, value) -> list[int]:
        """The value as kernel integers (one, or ``length`` for lists)."""
        if self.kind == "bool":
            return [int(value)]
        if self.kind == "choice":
            return [self.choices.index(value)]
        if self.kind == "intlist":
            return [int(v) for v in value]
        return [int(value)]

    def width(self) -> int:
        return self.length if self.kind == "intlist" else 1


@dataclass
class Ruleset:
    """The rule-option table of one rule system."""

    system: str
    options: list[RuleOption] = field(default_factory=list)

    def __post_init__(self):
        self._by_name = {o.name: o for o in self.options}
        self._index = {}
        i = 0
        for o in self.options:
            self._index[o.name] = i
            i += o.width()
        self.size = i

    def names(self) -> list[str]:
        return [o.name for o in self.options]

    def option(self, name: str) -> RuleOption:
        return self._by_name[name]

    def index(self, name: str) -> int:
        """Position of option ``name`` in :meth:`to_array`'s output."""
        return self._index[name]

    def defaults(self) -> dict:
        return {o.name: o.default for o in self.options}

    def resolve(self, overrides: dict | None) -> dict:
        """Defaults updated by ``overrides``; raises :class:`RuleError` on a bad entry."""
        values = self.defaults()
        for key, value in (overrides or {}).items():
            if key not in self._by_name:
                hint = _suggest(str(key), self.names())
                raise RuleError(f"unknown rule '{key}' for system {self.system}.{hint} "
                                f"(`sim rules {self.system}` lists them)")
            values[key] = self._by_name[key].check(value)
        return values

    def to_array(self, resolved: dict) -> np.ndarray:
        out = np.zeros(self.size, dtype=np.int64)
        for o in self.options:
            i = self._index[o.name]
            enc = o.encode(resolved[o.name])
            out[i:i + len(enc)] = enc
        return out

    def describe(self) -> list[dict]:
        """Rows for ``sim rules``: name, default, allowed values, note."""
        rows = []
        for o in self.options:
            if o.kind == "choice":
                allowed = " | ".join(map(_fmt, o.choices))
                if o.available and len(o.available) < len(o.choices):
                    allowed += f"  (simulated: {' | '.join(map(_fmt, o.available))})"
            elif o.kind == "bool":
                allowed = "true | false"
            elif o.kind == "intlist":
                allowed = f"{o.length} numbers {o.lo}..{o.hi}"
            else:
                allowed = f"{o.lo}..{o.hi}"
            rows.append({"name": o.name, "default": o.default, "allowed": allowed, "note": o.note})
        return rows


def _fmt(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _suggest(name: str, choices: list[str]) -> str:
    low = {c.lower(): c for c in choices}
    m = difflib.get_close_matches(name.lower(), list(low), n=1, cutoff=0.6)
    return f" Did you mean '{low[m[0]]}'?" if m else ""
