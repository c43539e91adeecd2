"""The earlier draft's talents (seed 001, DRAFT L1-339) as data rows.

``catalog.yaml`` holds one row per talent of the draft, in the seed's order,
with the draft's own numbers (RULES_AUDIT section 3.2 lists what changed in
4.1, section 3.3 the talents 4.1 dropped). A simulated row names a mechanic
of the 4.1 kernel (``sim.systems.mb41.talents.MECHANICS``) with the draft's
parameters; the draft's own talents (Hex, Evasion, Regeneration, Magic
Detonation, Empower, Rouse) have mechanics of their own there.

The draft has no adversary rules (it is an excerpt: talents, moves and
sorcery), so its monsters, minions and witches use the 4.1 catalog's boss,
monster and minion rows: :func:`lookup` falls back to them.

While an ``mb-draft`` scenario is validated and compiled, :func:`active`
makes this catalog the one the 4.1 schema and compiler read
(``sim.systems.mb41.catalog.current``).

Row fields (:class:`DraftRow`): ``name``; ``group`` (common, knight,
priestess, witch: the draft's affinities); ``starting`` (an affinity's
starting talent); ``action``; ``cost`` / ``cost_stat``; ``uses`` (text) and
``uses_per_scene`` / ``uses_per_episode``; ``range`` (positions, text);
``effect``; ``source`` (``DRAFT Lnn-mm``); ``as_41`` (the same talent's 4.1
name, if any); ``simulated`` / ``mechanic``; ``notes``.
"""
from __future__ import annotations

from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

from sim.systems.mb41 import catalog as catalog41

SYSTEM = "mb-draft"
GROUPS = ("common", "knight", "priestess", "witch")
#: 4.1 groups a draft scenario may still use (its adversaries)
ADVERSARY_GROUPS = ("boss", "monster", "minion")
_FILE = Path(__file__).with_name("catalog.yaml")


class DraftRow(BaseModel):
    """One talent of the draft (see the module docstring)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=60)
    group: Literal["common", "knight", "priestess", "witch"]
    starting: bool = False
    action: Literal["free", "minor", "major", "passive", "not-stated"]
    cost: int | None = Field(None, ge=0, le=20)
    cost_stat: Literal["attack", "defence", "support", "bond"] | None = None
    uses: str = "—"
    uses_per_scene: int | None = Field(None, ge=1, le=20)
    uses_per_episode: int | None = Field(None, ge=1, le=20)
    range: str
    effect: str = Field(min_length=1)
    source: str = Field(pattern=r"^DRAFT L\d+")
    as_41: str | None = None
    simulated: bool = False
    mechanic: dict[str, Any] | None = None
    notes: str | None = None
    #: ``[lo, hi]`` in positions where the kernel checks the range on the draft's map (rule
    #: ``positions``); only Defensive Switch reads it so far
    range_positions: tuple[int, int] | None = None
    #: the 4.1 rows' fields the compiler reads: no aliases; the compiler's per-talent reach
    #: (``C_TREACH``) carries ``range_positions`` (the draft has no hex grid)
    aliases: tuple[str, ...] = ()
    range_hexes: tuple[int, int] | None = None
    matters_in_fight: bool = True

    @model_validator(mode="before")
    @classmethod
    def _reach(cls, data):
        """``range_positions`` is the reach the compiler reads (``range_hexes``)."""
        if isinstance(data, dict) and data.get("range_positions") is not None:
            rp = data["range_positions"]
            if (not isinstance(rp, (list, tuple)) or len(rp) != 2
                    or not all(isinstance(v, int) for v in rp) or not 0 <= rp[0] <= rp[1] <= 11):
                raise ValueError(f"range_positions {rp!r} must be [lo, hi] with 0 <= lo <= hi <= 11")
            data = {**data, "range_hexes": tuple(rp)}
        return data

    @model_validator(mode="after")
    def _consistent(self):
        if self.simulated and not self.mechanic:
            raise ValueError(f"{self.name}: simulated rows need a mechanic")
        if self.cost is not None and self.cost_stat is None:
            raise ValueError(f"{self.name}: a cost needs a cost_stat")
        if self.as_41 is not None and catalog41.lookup(self.as_41) is None:
            raise ValueError(f"{self.name}: as_41 {self.as_41!r} is not a 4.1 catalog row")
        return self


@lru_cache(maxsize=None)
def rows() -> tuple[DraftRow, ...]:
    """The draft's talent rows, validated (unique names), in the seed's order."""
    with open(_FILE, encoding="utf-8") as f:
        raw = yaml.safe_load(f) or []
    out = []
    for i, r in enumerate(raw):
        try:
            out.append(DraftRow.model_validate(r))
        except Exception as e:
            raise ValueError(f"mbdraft/catalog.yaml row {i + 1} ({(r or {}).get('name', '?')}): {e}") from e
    seen = set()
    for r in out:
        if r.name.casefold() in seen:
            raise ValueError(f"mbdraft/catalog.yaml: {r.name!r} twice")
        seen.add(r.name.casefold())
    return tuple(out)


def _adversary_rows() -> list:
    return [r for r in catalog41.rows() if r.group in ADVERSARY_GROUPS]


def lookup(name: str):
    """The draft row named ``name`` (case-insensitive), else a 4.1 adversary
    row (boss, monster, minion: the draft has none of its own), else None.
    ``Boost`` is the 4.1 row: Boost is outside the draft's excerpt."""
    key = name.casefold()
    for r in rows():
        if r.name.casefold() == key:
            return r
    r = catalog41.lookup(name)
    if r is not None and (r.group in ADVERSARY_GROUPS or r.name == "Boost"):
        return r
    return None


def talent_names() -> list[str]:
    return [r.name for r in rows()] + ["Boost"] + [r.name for r in _adversary_rows()]


def simulated_names() -> list[str]:
    return ([r.name for r in rows() if r.simulated] + ["Boost"]
            + [r.name for r in _adversary_rows() if r.simulated])


def catalog_rows() -> list[dict]:
    """Rows for ``sim catalog mb-draft``: the draft's talents (the adversaries are 4.1's), each
    with what the engine plays (``simulated_as``, :mod:`sim.systems.mb41.simulated`)."""
    from sim.systems.mb41.simulated import simulated_as

    return [{**r.model_dump(mode="json", exclude={"aliases", "range_hexes"}),
             "simulated_as": simulated_as(r, SYSTEM)} for r in rows()]


def example_minions():
    return catalog41.example_minions()


def minions():
    return catalog41.minions()


@contextmanager
def active():
    """Make this catalog the one the 4.1 schema and compiler read, for a block."""
    token = catalog41.CURRENT.set(__import__(__name__, fromlist=["rows"]))
    try:
        yield
    finally:
        catalog41.CURRENT.reset(token)
