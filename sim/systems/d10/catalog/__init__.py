"""The d10 add-on catalog: powers and perks as data rows read from YAML.

Each row has ``name, kind (power|perk), cost, effect, code, params,
simulated, source`` (and a ``reading`` where the audit flags a gap). The
compiler (:mod:`sim.systems.d10.compile`) turns rows into numbers through a
small set of effect codes: ``dice``, ``dr`` and ``attack_cost`` change a
column, ``familiar`` adds a combatant, and every other code is a mechanic
(:data:`sim.systems.d10.codes.MECHANICS`) whose params fill its power slot:

=====================  =========================================================
code                   params -> what the kernel sees
=====================  =========================================================
``dice``               ``tests, n``: +n bonus dice on those tests (``C_BONUS``)
``dr``                 ``n``: +n damage reduction
``attack_cost``        ``attack, n``: mana cost of that attack kind
``initiative_tens``    every initiative die counts as a 10
``killing_blow``       ``cost, penalty, fail_multiplier``
``focused_assault``    ``cost``
``barrage``            ``cost``
``friendship``         ``aid_multiplier, aid_received``; no friendly fire
``duplication``        ``cost_per_copy, copy_mana, copy_wounds``
``third_eye``          ``penalty``
``regeneration``       ``wounds, mana, action_cost``
``tentacles``          ``grapple, pin``
``familiar``           ``score, bestial_combat, perfect_assistant``
``hammerspace``        ``defence_bonus``
``blood_magic``        pay mana with wounds
``healing_artifact``   ``cost, heal``
``disguise_artifact``  ``cost, dice``
``dual_weapon``        the member's ``second_form`` is a free alternative (its slot: form, cost)
``none``               no fight effect (``simulated: false``)
=====================  =========================================================

A new perk that reuses a code is a new YAML row; only a new mechanic adds a code.
A scenario's ``powers:`` block changes rows or adds new ones for that scenario
only (:mod:`.edits`): while it is validated and compiled, :data:`CURRENT`
holds its rows and :func:`by_name`, :func:`names` and :func:`simulated_names`
read them.
"""
from __future__ import annotations

from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

import yaml

_DIR = Path(__file__).parent
#: the rows of the scenario being validated or compiled (name -> row), None = the shipped catalog
CURRENT: ContextVar = ContextVar("d10_catalog", default=None)

CODES = ("dice", "dr", "attack_cost", "initiative_tens", "killing_blow", "focused_assault", "barrage",
         "friendship", "duplication", "third_eye", "regeneration", "tentacles", "familiar", "hammerspace",
         "blood_magic", "healing_artifact", "disguise_artifact", "dual_weapon", "none")


@lru_cache(maxsize=None)
def entries() -> tuple[dict, ...]:
    rows = []
    for fname in ("powers.yaml", "perks.yaml"):
        with open(_DIR / fname, encoding="utf-8") as f:
            rows.extend(yaml.safe_load(f))
    for r in rows:
        assert r["code"] in CODES, f"catalog row {r['name']}: unknown effect code {r['code']}"
    return tuple(rows)


def by_name() -> dict[str, dict]:
    """Name -> row: the shipped catalog, or the scenario's (:data:`CURRENT`)."""
    cur = CURRENT.get()
    return dict(cur) if cur is not None else {r["name"]: r for r in entries()}


def names(kind: str | None = None) -> list[str]:
    return [n for n, r in by_name().items() if kind is None or r["kind"] == kind]


def simulated_names() -> list[str]:
    return [n for n, r in by_name().items() if r.get("simulated")]


def has_code(names_: list[str], code: str) -> bool:
    """Whether one of ``names_`` plays effect ``code`` in the catalog in force."""
    rows = by_name()
    return any(rows.get(n, {}).get("code") == code for n in names_)
