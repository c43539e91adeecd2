"""Registry of rule-system plug-ins.

Each system is a module under ``sim.systems`` that exposes the same entry
points (see ``ARCHITECTURE.md``):

* ``NAME``: the ``system:`` value in scenario files;
* ``SCENARIO_MODEL``: the pydantic model one variant of a scenario validates to;
* ``RULES``: the :class:`sim.ruleset.Ruleset` of named rule options;
* ``compile(scenario) -> inputs``: numbers only, ready for the kernel;
* ``simulate(inputs, start, count, key) -> counters``: a dict of int64 arrays
  that add up across chunks;
* ``summarize(counters, inputs, variant) -> {"curves": DataFrame, "tables": {name: DataFrame}}``;
* ``trials(inputs, start, count, key) -> {column: array[count]}``: the same
  trials as ``simulate``, one row each (``outcome``, ``rounds``; the fight
  systems add ``girls_out``, ``girls_dead``, ``girls_standing``), for paired
  comparisons (:mod:`sim.trials`).

The shared runner relies on this contract and nothing more:

* counters always include ``outcomes`` (int64[3]: first side wins, first
  side loses, draws) and ``rounds_hist`` (int64[cap+1]: fights that ended
  in round r; "round" may be a turn in a card game), all int64 so that they
  add up exactly across chunks, threads and workers;
* ``inputs`` has ``side_names`` (first side first), ``round_cap``,
  ``resolved_rules`` (recorded in provenance) and ``notes`` (assumptions
  shown in the report);
* ``simulate`` draws only from streams seeded with
  ``sim.rng.seed_stream(state, key, trial, purpose)``, so results do not
  depend on threads, workers or chunking.

Optional entry points: ``catalog_rows() -> list[dict]`` (``sim catalog``),
``bench(quick) -> dict`` (merged into ``sim bench``; a ``targets`` key
extends the targets), ``play(scenario_model, seed) -> str`` (``sim play
--log``), ``report_charts() -> {file name: function(result, path)}`` (extra
PNG charts in the report; see ``sim/report/charts.py`` for the style, and
``_save`` for the caption and variant list each chart records),
``report_page() -> dict`` (the report's nouns ``terms``, e.g. games and
turns; ``headline``: the chart file names that answer the scenario's
question, best first; ``key_columns``: table -> the columns shown unfolded;
``hidden``: chart files written and linked but not shown).

Systems are imported lazily so ``sim validate`` on one system never compiles
another's kernels.
"""
from __future__ import annotations

import importlib

#: system name -> module path
SYSTEMS: dict[str, str] = {
    "mb41": "sim.systems.mb41",
    "mb-draft": "sim.systems.mbdraft",
    "cards": "sim.systems.cards",
    "d10": "sim.systems.d10",
}


class UnknownSystem(KeyError):
    pass


def names() -> list[str]:
    return sorted(SYSTEMS)


def get_system(name: str):
    """Import and return the plug-in module for ``name``."""
    if name not in SYSTEMS:
        raise UnknownSystem(name)
    return importlib.import_module(SYSTEMS[name])


def duel_shape(sides) -> list[str]:
    """What keeps combatants with these sides from being a duel (empty if
    they are one): the eligibility check both duel fast paths start with."""
    sides = [int(s) for s in sides]
    if len(sides) != 2:
        return ["two combatants"]
    if sorted(sides) != [0, 1]:
        return ["one combatant per side"]
    return []


def pick_blocks(general, fast_blocks, eligible, inputs, fast, what: str):
    """The block kernel to run: ``fast_blocks`` when ``eligible(inputs)`` is
    empty and ``fast`` is not ``False``, else ``general``; ``fast=True``
    with an ineligible scenario raises ``ValueError`` naming ``what`` and the
    reasons (the duel fast paths of mb41 and d10)."""
    if fast is False:
        return general
    why = eligible(inputs)
    if not why:
        return fast_blocks
    if fast:
        raise ValueError(f"the {what} needs " + ", ".join(why))
    return general
