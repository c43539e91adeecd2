"""Test helpers: build mb41 scenarios from Python data (import as ``from helpers import ...``)."""
from __future__ import annotations

import copy
import os

import yaml

os.environ.setdefault("SIM_DEBUG", "")

from sim.scenario import load_scenario_text  # noqa: E402

DUEL = {
    "name": "duel-basic",
    "system": "mb41",
    "seed": 7,
    "trials": 100000,
    "rules": {"grid": "none", "revive": False, "initiative": "listed"},
    "sides": [
        {"name": "girls", "members": [
            {"name": "Akari", "attack": 4, "defence": 4, "support": 3, "resolve": 18,
             "attack_kind": "melee", "policy": {"boost": "never"}}]},
        {"name": "youma", "members": [
            {"name": "Shade", "attack": 3, "defence": 3, "support": 3, "resolve": 18,
             "attack_kind": "melee", "policy": {"boost": "never"}}]},
    ],
}


def duel_data(**changes) -> dict:
    """The issue's duel with changes: keys 'rules', 'a', 'b' (member fields) or top-level."""
    d = copy.deepcopy(DUEL)
    for k, v in changes.items():
        if k == "rules":
            d["rules"].update(v)
        elif k in ("a", "b"):
            d["sides"][0 if k == "a" else 1]["members"][0].update(v)
        else:
            d[k] = v
    return d


def load_data(data: dict):
    return load_scenario_text(yaml.safe_dump(data, sort_keys=False), "<test>")

