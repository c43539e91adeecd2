"""The Magical Burst 4.1 catalog: every talent, boss ability, monster talent,
minion talent and labyrinth feature as data rows read from YAML.

One row per numbered row of ``shared/rules/RULES_AUDIT.md`` section 2
(``audit_row`` 1..102), in four files:

=================  ==========================================================
``talents.yaml``   the girls' talents: basic, affinity starting, common,
                   guardian-knight, medium, striker (audit rows 1-55)
``boss.yaml``      boss abilities (56-66)
``monster.yaml``   monster talents and minion-only talents (67-92)
``labyrinth.yaml`` labyrinth features (93-102)
``minions.yaml``   minion guidelines and the book's two example minions
=================  ==========================================================

Row fields (:class:`CatalogRow`; omitted YAML fields take these defaults):

``name``            the audit's name without markdown (brackets, bold, ``*``)
``audit_row``       the row number in the audit's section 2 table
``name_source``     ``4.1`` (name line printed), ``4.1-text`` (recovered from
                    elsewhere in the 4.1 text), ``draft`` (the 4.1 line is
                    lost; the draft's name for the same text), ``inferred``
``asterisk``        the source name carries a ``*`` (meaning unknown, A42)
``aliases``         other names (draft names, the audit's alternatives)
``group``           :data:`GROUPS`
``starting``        an affinity's free starting talent (L1518); every girl
                    also knows the ``basic`` group (Boost, Recover)
``minion_example``  used by an example minion (minions.yaml)
``action``          :data:`ACTIONS` (``lost`` = a blank line stands where the
                    action line was; ``not-stated`` = never in the text;
                    ``none`` = a labyrinth feature with no action)
``action_note``     the rest of the audit's action cell
``cost``            overcharge (or bond ranks) per use; null = none stated
``cost_stat``       :data:`COST_STATS`: the girl's role charged; ``rolled`` =
                    the attribute being rolled (Boost); ``pool`` = a
                    monster's single pool (L1892); ``bond`` = bond ranks
``cost_note``       the rest of the audit's cost cell
``uses``            the audit's uses text ("3/Scene", "2/Episode", ...)
``uses_per_scene`` / ``uses_per_episode`` / ``uses_per_round``  ints or null
``range``           the audit's range text
``range_hexes``     ``[lo, hi]`` in hexes when the range is numeric (0 = self)
``effect``          one line, from the audit
``numbers``         the effect's numbers ({damage_bonus: 2}, {heal: "1d6+1"})
``matters_in_fight``  the audit's "Sim?" column (narrative-only = false)
``fight_note``      the rest of that cell
``simulated``       the kernel implements the row (only these are accepted in
                    a scenario's ``talents:``)
``source``          seed 000 line(s)
``ambiguity``       audit ids (A37, ...)
``notes``           free text
"""
from __future__ import annotations

import sys
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

_DIR = Path(__file__).parent
SYSTEM = "mb41"
#: another ruleset's talent catalog while its scenario is validated and compiled
#: (the draft's, ``sim.systems.mbdraft.catalog.active``); None = this one
CURRENT: ContextVar = ContextVar("mb41_talent_catalog", default=None)


def current():
    """The talent catalog in force: this module, or the module set in
    :data:`CURRENT` (same functions: ``lookup``, ``talent_names``,
    ``simulated_names``, ``example_minions``, ``minions``, ``SYSTEM``)."""
    c = CURRENT.get()
    return c if c is not None else sys.modules[__name__]

#: catalog files holding talent-like rows, in audit order
FILES = ("talents.yaml", "boss.yaml", "monster.yaml", "labyrinth.yaml")

GROUPS = ("basic", "guardian-knight", "striker", "medium", "common", "boss", "monster", "minion",
          "labyrinth", "witch")
ACTIONS = ("free", "minor", "major", "passive", "lost", "not-stated", "none")
COST_STATS = ("attack", "defence", "support", "bond", "rolled", "pool")
NAME_SOURCES = ("4.1", "4.1-text", "draft", "inferred")

Group = Literal["basic", "guardian-knight", "striker", "medium", "common", "boss", "monster", "minion",
                "labyrinth", "witch"]
Action = Literal["free", "minor", "major", "passive", "lost", "not-stated", "none"]
CostStat = Literal["attack", "defence", "support", "bond", "rolled", "pool"]
NameSource = Literal["4.1", "4.1-text", "draft", "inferred"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CatalogRow(_Strict):
    """One catalog entry; see the module docstring for the fields."""

    name: str = Field(min_length=1, max_length=60)
    audit_row: int = Field(ge=1)
    name_source: NameSource = "4.1"
    asterisk: bool = False
    aliases: list[str] = Field(default_factory=list)
    group: Group
    starting: bool = False
    minion_example: bool = False
    action: Action
    action_note: str | None = None
    cost: int | None = Field(None, ge=0, le=20)
    cost_stat: CostStat | None = None
    cost_note: str | None = None
    uses: str = "—"
    uses_per_scene: int | None = Field(None, ge=1, le=20)
    uses_per_episode: int | None = Field(None, ge=1, le=20)
    uses_per_round: int | None = Field(None, ge=1, le=20)
    range: str
    range_hexes: tuple[int, int] | None = None
    effect: str = Field(min_length=1)
    numbers: dict[str, Any] = Field(default_factory=dict)
    matters_in_fight: bool
    fight_note: str | None = None
    simulated: bool = False
    #: how the kernel plays it: ``{code: <effect code>, ...params}``; see
    #: ``sim.systems.mb41.talents.MECHANICS`` (required when ``simulated``)
    mechanic: dict[str, Any] | None = None
    source: str = Field(pattern=r"^L\d+")
    ambiguity: list[str] = Field(default_factory=list)
    notes: str | None = None

    @field_validator("ambiguity")
    @classmethod
    def _ids(cls, v: list[str]) -> list[str]:
        for a in v:
            if not (a[:1] == "A" and a[1:].isdigit()):
                raise ValueError(f"ambiguity id {a!r} is not like 'A37'")
        return v

    @field_validator("range_hexes")
    @classmethod
    def _range(cls, v):
        if v is not None and not 0 <= v[0] <= v[1] <= 20:
            raise ValueError(f"range_hexes {list(v)} must be [lo, hi] with 0 <= lo <= hi <= 20")
        return v

    @model_validator(mode="after")
    def _consistent(self):
        if self.simulated and not self.matters_in_fight:
            raise ValueError(f"{self.name}: simulated but marked matters_in_fight: false")
        if self.cost is not None and self.cost_stat is None:
            raise ValueError(f"{self.name}: a cost needs a cost_stat")
        if self.starting and self.group not in ("guardian-knight", "striker", "medium"):
            raise ValueError(f"{self.name}: only affinity talents are starting talents")
        return self


class MinionTalent(_Strict):
    name: str
    uses_per_scene: int = Field(ge=1, le=20)


class ExampleMinion(_Strict):
    """A stat block of L2190-2214 (audit 1.14 item 63)."""

    name: str
    source: str = Field(pattern=r"^L\d+")
    hp: int = Field(ge=1, le=20)
    passive_defence: int = Field(ge=1, le=20)
    att_supp: int = Field(ge=0, le=20)
    talents: list[MinionTalent]
    description: str = ""


class MinionGuidelines(_Strict):
    source: str
    hp_suggested: int
    passive_defence_start: int
    passive_defence_monster_above: int
    damage_bonus: int
    overcharge_pool: int
    talents_suggested: tuple[int, int]
    notes: str = ""


class MinionFile(_Strict):
    guidelines: MinionGuidelines
    examples: list[ExampleMinion]


def _read(fname: str):
    with open(_DIR / fname, encoding="utf-8") as f:
        return yaml.safe_load(f)


@lru_cache(maxsize=None)
def rows() -> tuple[CatalogRow, ...]:
    """Every catalog row, validated (unique names and aliases, case-insensitive), in audit order."""
    out: list[CatalogRow] = []
    for fname in FILES:
        for i, raw in enumerate(_read(fname) or []):
            try:
                out.append(CatalogRow.model_validate(raw))
            except Exception as e:  # name the file and row in the message
                raise ValueError(f"catalog/{fname} row {i + 1} ({(raw or {}).get('name', '?')}): {e}") from e
    seen: dict[str, str] = {}
    audit_rows: dict[int, str] = {}
    for r in out:
        for n in [r.name, *r.aliases]:
            key = n.casefold()
            if key in seen:
                raise ValueError(f"catalog: name or alias {n!r} of {r.name!r} already used by {seen[key]!r}")
            seen[key] = r.name
        if r.audit_row in audit_rows:
            raise ValueError(f"catalog: audit_row {r.audit_row} used by {audit_rows[r.audit_row]!r} and {r.name!r}")
        audit_rows[r.audit_row] = r.name
    out.sort(key=lambda r: r.audit_row)
    return tuple(out)


@lru_cache(maxsize=None)
def talents() -> tuple[dict, ...]:
    """All catalog rows as plain dicts (every field present), in audit order."""
    return tuple(r.model_dump(mode="json") for r in rows())


def catalog_rows() -> list[dict]:
    """Rows for ``sim catalog mb41`` (name, group, action, cost, uses, effect, simulated, ...)."""
    return [dict(r) for r in talents()]


def talent_names() -> list[str]:
    return [r.name for r in rows()]


def simulated_names() -> list[str]:
    return [r.name for r in rows() if r.simulated]


def by_name() -> dict[str, CatalogRow]:
    return {r.name: r for r in rows()}


def lookup(name: str) -> CatalogRow | None:
    """The row whose name or alias equals ``name`` (case-insensitive), or None."""
    key = name.casefold()
    for r in rows():
        if r.name.casefold() == key or any(a.casefold() == key for a in r.aliases):
            return r
    return None


def groups() -> dict[str, int]:
    """Row count per group, in :data:`GROUPS` order (groups with no rows omitted)."""
    counts = {g: 0 for g in GROUPS}
    for r in rows():
        counts[r.group] += 1
    return {g: n for g, n in counts.items() if n}


@lru_cache(maxsize=None)
def minions() -> MinionFile:
    """Minion guidelines and the example minions (talent names checked against the catalog)."""
    m = MinionFile.model_validate(_read("minions.yaml"))
    for ex in m.examples:
        for t in ex.talents:
            row = lookup(t.name)
            if row is None:
                raise ValueError(f"catalog/minions.yaml: {ex.name}: unknown talent {t.name!r}")
            if row.group not in ("monster", "minion"):
                raise ValueError(f"catalog/minions.yaml: {ex.name}: {t.name!r} is a {row.group} entry, "
                                 "minions use monster or minion talents (L2174)")
    return m


def example_minions() -> tuple[dict, ...]:
    """The book's example minions as dicts (name, hp, passive_defence, att_supp, talents...)."""
    return tuple(ex.model_dump(mode="json") for ex in minions().examples)
