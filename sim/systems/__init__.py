"""Registry of rule-system plug-ins.

Each system is a module under ``sim.systems`` that exposes the same entry
points (see ``ARCHITECTURE.md``):

* ``NAME``: the ``system:`` value in scenario files;
* ``SCENARIO_MODEL``: the pydantic model one variant of a scenario validates to;
* ``RULES``: the :class:`sim.ruleset.Ruleset` of named rule options;
* ``compile(scenario) -> inputs``: numbers only, ready for the kernel;
* ``simulate(inputs, start, count, key) -> counters``: a dict of int64 arrays
  that add up across chunks;
* ``summarize(counters, inputs) -> dict of DataFrames``.

Systems are imported lazily so ``sim validate`` on one system never compiles
another's kernels.
"""
from __future__ import annotations

import importlib

#: system name -> module path
SYSTEMS: dict[str, str] = {
    "mb41": "sim.systems.mb41",
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
