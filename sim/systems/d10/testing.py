"""Test helpers for the d10 kernel (used by ``tests/test_d10_*.py``).

Build scenarios from Python data, compile them, and drive kernel functions
with injected dice: :class:`Script` holds one scripted stream per purpose
(``S_SETUP, S_CHECK, S_POLICY, S_TABLE``); a scripted stream is read one
d10 face per die (:func:`sim.systems.d10.kernel.roll_pool`).
"""
from __future__ import annotations

import copy
import inspect

import numpy as np
import yaml

from sim.rng import check_script, dice_script, script_used, scripted_state

from . import kernel as K

DUEL = {
    "name": "d10-duel",
    "system": "d10",
    "seed": 3,
    "trials": 100000,
    "rules": {"mode": "cake", "initiative": "listed"},
    "sides": [
        {"name": "molly", "members": [
            {"name": "Molly", "abilities": {"strength": 8, "agility": 8, "vitality": 6, "magic": 6, "luck": 6},
             "attack_kind": "melee", "defence": "dodge", "outfit_dr": 1,
             "policy": {"mana_per_attack": 0, "fortune": "never"}}]},
        {"name": "floozy", "members": [
            {"name": "Floozy", "abilities": {"strength": 7, "agility": 7, "vitality": 6, "magic": 12, "luck": 12},
             "attack_kind": "melee", "defence": "dodge", "outfit_dr": 1,
             "policy": {"mana_per_attack": 0, "fortune": "never"}}]},
    ],
}


def member(name: str, **fields) -> dict:
    """A girl with all abilities 6 (3 dice, 12 wounds), melee, dodge, DR 1, the 'plain' policy."""
    m = {"name": name, "abilities": {"strength": 6, "agility": 6, "vitality": 6, "magic": 6, "luck": 6},
         "attack_kind": "melee", "defence": "dodge", "outfit_dr": 1, "policy": {"preset": "plain"}}
    for k, v in fields.items():
        if k == "abilities":
            m["abilities"] = {**m["abilities"], **v}
        elif k == "policy":
            m["policy"] = {**m["policy"], **v}
        else:
            m[k] = v
    return m


def scenario(side_a, side_b, rules=None, **top) -> dict:
    r = {"initiative": "listed"}
    r.update(rules or {})
    d = {"name": "scripted", "system": "d10", "seed": 1, "trials": 1000, "rules": r,
         "sides": [{"name": "girls", "members": list(side_a)}, {"name": "foes", "members": list(side_b)}]}
    d.update(top)
    return d


def duel_data(**changes) -> dict:
    """The issue's duel with changes: 'rules', 'a'/'b' (member fields; abilities and policy merge)."""
    d = copy.deepcopy(DUEL)
    for k, v in changes.items():
        if k == "rules":
            d["rules"].update(v)
        elif k in ("a", "b"):
            m = d["sides"][0 if k == "a" else 1]["members"][0]
            for f, val in v.items():
                if f in ("abilities", "policy"):
                    m[f] = {**m[f], **val}
                else:
                    m[f] = val
        else:
            d[k] = v
    return d


def load(data: dict):
    from sim.scenario import load_scenario_text

    return load_scenario_text(yaml.safe_dump(data, sort_keys=False), "<test>")


def inputs(data: dict):
    from . import compile as _compile

    return _compile(load(data).base)


def state(inp, first: bool = True):
    """Fresh ``(dyn, cc)`` at the start of a fight."""
    dyn = np.zeros((inp.n, K.ND), dtype=np.int64)
    cc = np.zeros((inp.n, K.NK), dtype=np.int64)
    K.start_campaign(inp.comb, dyn)
    K.start_fight(inp.comb, dyn, cc, first)
    return dyn, cc


def faces(*dice) -> list[int]:
    """d10 faces (1..10) to scripted values."""
    return dice_script(dice)


class Script:
    """Scripted streams, one per purpose; arguments are d10 faces (or raw values with ``raw_*``)."""

    def __init__(self, check=(), setup=(), policy=(), table=(), raw_policy=(), raw_table=(), raw_setup=()):
        by = {K.S_SETUP: faces(*setup) + list(raw_setup), K.S_CHECK: faces(*check),
              K.S_POLICY: faces(*policy) + list(raw_policy), K.S_TABLE: faces(*table) + list(raw_table)}
        w = 8 + max(len(v) for v in by.values()) + 8
        self.lengths = {p: len(v) for p, v in by.items()}
        self.streams = np.zeros((K.NS, w), dtype=np.uint64)
        for p, v in by.items():
            self.streams[p] = scripted_state(v, width=w)

    def assert_consumed(self) -> None:
        names = {K.S_SETUP: "setup", K.S_CHECK: "check", K.S_POLICY: "policy", K.S_TABLE: "table"}
        for p, n in self.lengths.items():
            check_script(self.streams[p], consumed_all=False)
            got = script_used(self.streams[p])
            assert got == n, f"{names[p]} stream: drew {got} values, script has {n}"


def call(fn, **args):
    """Call a kernel with arguments matched by parameter name."""
    params = list(inspect.signature(getattr(fn, "py_func", fn)).parameters)
    missing = [p for p in params if p not in args]
    if missing:
        raise TypeError(f"{fn.__name__} has parameters {missing} that the test does not supply")
    return fn(*[args[p] for p in params])


def run(inp, dyn, cc, fn, streams, **extra):
    """Call kernel ``fn`` on an input/state bundle with scripted ``streams``."""
    args = dict(comb=inp.comb, pol=inp.pol, rules=inp.rules, tab=inp.tab, dyn=dyn, cc=cc, streams=streams)
    args.update(extra)
    return call(fn, **args)
