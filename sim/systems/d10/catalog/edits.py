"""A d10 scenario's ``powers:`` block: catalog powers and perks with other numbers, and new ones.

::

    powers:
      Killing Blow: {cost: 2}             # a catalog entry (power or perk): its parameters, flat
      Martial Training: {n: 2, tests: [melee]}
      Iron Skin:                          # a new name: a new entry from an existing effect code
        mechanic: dr                      # (or like: Enhanced Outfit)
        n: 2
        kind: perk                        # power (default) or perk: the member list it goes in

An entry's fields are its effect code's parameters (:data:`PARAMS`, the
table of :mod:`sim.systems.d10.catalog`), ``effect`` (one line of text) and,
for a new entry, ``mechanic`` or ``like`` and ``kind``. Parameters become
columns of ``comb`` (:func:`sim.systems.d10.compile._apply_effects`), which
the kernels read at run time: an edit never recompiles. A new entry starts
from ``like:``'s row, else the first catalog row with its code. The shipped
catalog is never changed: the scenario's rows are :data:`.CURRENT` while it is
validated and compiled (:func:`use`). Errors sit at ``powers.<name>.<field>``.
"""
from __future__ import annotations

import copy
from contextlib import contextmanager

from sim.scenario.problems import Problems
from sim.scenario.suggest import closest, suggest

from . import CURRENT, entries

#: effect code -> its parameters (whole numbers unless named in :data:`KINDS`)
PARAMS = {
    "dice": ("tests", "n"), "dr": ("n",), "attack_cost": ("attack", "n"), "initiative_tens": (),
    "killing_blow": ("cost", "penalty", "fail_multiplier"), "focused_assault": ("cost",), "barrage": ("cost",),
    "friendship": ("aid_multiplier", "aid_received"), "duplication": ("cost_per_copy", "copy_mana", "copy_wounds"),
    "third_eye": ("penalty",), "regeneration": ("wounds", "mana", "action_cost"), "tentacles": ("grapple", "pin"),
    "familiar": ("score", "bestial_combat", "perfect_assistant"), "hammerspace": ("defence_bonus",),
    "blood_magic": (), "healing_artifact": ("cost", "heal"), "disguise_artifact": ("cost", "dice"),
    "dual_weapon": (),
}
#: tests a ``dice`` entry may add dice to, attack kinds an ``attack_cost`` names
TESTS = ("melee", "ranged", "mystic", "spec", "initiative", "dodge", "parry", "block", "luck", "hide",
         "retreat", "pursue", "aid", "escape", "grapple")
ATTACKS = ("melee", "ranged", "mystic", "specialization")
#: bounds of whole-number parameters (default :data:`DEFAULT_BOUNDS`)
BOUNDS = {"score": (1, 40), "copy_wounds": (1, 20), "n": (-10, 20), "fail_multiplier": (0, 10)}
DEFAULT_BOUNDS = (0, 20)


class PowerCatalog:
    """The scenario's rows (name -> row dict), with ``status`` (``edited`` /
    ``invented``) and ``changes`` (name -> {field: (old, new)}) per entry it touched."""

    def __init__(self, rows: dict, status: dict, changes: dict):
        self.rows, self.status, self.changes = rows, status, changes

    def describe(self) -> list[str]:
        out = []
        for name, ch in self.changes.items():
            r = self.rows[name]
            if self.status[name] == "invented":
                params = ", ".join(f"{k} {v}" for k, v in r["params"].items())
                out.append(f"{r['kind']} {name} is invented by this scenario: code {r['code']}"
                           + (f" ({params})" if params else ""))
            else:
                what = ", ".join(f"{k} {a} -> {b}" for k, (a, b) in ch.items())
                out.append(f"{r['kind']} {name} is edited by this scenario: {what or 'no change'}")
        return out


def _value(p: str, v, problems: Problems, loc: tuple):
    if p == "tests":
        bad = [t for t in v if t not in TESTS] if isinstance(v, list) else None
        if not isinstance(v, list) or not v or bad:
            problems.add(loc, f"expected a list of tests from {', '.join(TESTS)}."
                         + (suggest(bad[0], TESTS) if bad else ""), v)
    elif p == "attack":
        if v not in ATTACKS:
            problems.add(loc, f"unknown attack kind {v!r}.{suggest(v, ATTACKS)} Expected one of "
                         f"{', '.join(ATTACKS)}", v)
    else:
        lo, hi = BOUNDS.get(p, DEFAULT_BOUNDS)
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            problems.add(loc, f"expected a whole number from {lo} to {hi}, got {v!r}", v)
    return v


def _start(rows: dict, name: str, entry: dict, problems: Problems):
    """The row a new entry starts from (None after an error)."""
    loc = (name,)
    by_code = {}
    for r in entries():
        if r.get("simulated") and r["code"] not in by_code:
            by_code[r["code"]] = r
    if "like" in entry:
        start = rows.get(entry["like"])
        if start is None or not start.get("simulated"):
            sim = [n for n, r in rows.items() if r.get("simulated")]
            problems.add(loc + ("like",), f"no simulated power or perk {entry['like']!r} to start from."
                         f"{suggest(entry['like'], sim)}", entry["like"])
            return None
        return start
    if "mechanic" in entry:
        code = entry["mechanic"]
        if code not in PARAMS or code not in by_code:
            problems.add(loc + ("mechanic",), f"no effect code {code!r}.{suggest(code, PARAMS)} Codes: "
                         f"{', '.join(PARAMS)} (docs/d10.md#powers-as-data)", code)
            return None
        return by_code[code]
    near = closest(name, list(rows))
    problems.add(loc, f"no power or perk {name!r} in the catalog." + (f" Did you mean '{near}'?" if near else "")
                 + " A new one needs 'mechanic' (an effect code, e.g. dr) or 'like: <entry>'")
    return None


def _entry(rows: dict, name: str, entry, problems: Problems):
    loc = (name,)
    if not isinstance(entry, dict):
        problems.add(loc, "expected a mapping of fields, e.g. {n: 2}", entry)
        return None, None, {}
    old = rows.get(name)
    if old is not None and not old.get("simulated"):
        problems.add(loc, f"'{name}' has no fight effect in the simulator (simulated: false): nothing to change")
        return None, None, {}
    if old is not None:
        new_only = [f for f in ("mechanic", "like", "kind") if f in entry]
        for f in new_only:
            problems.add(loc + (f,), f"'{name}' is a catalog {old['kind']} (code {old['code']}); '{f}' "
                         "is for a new entry: give it a new name")
        if new_only:
            return None, None, {}
        start, status = old, "edited"
    else:
        start, status = _start(rows, name, entry, problems), "invented"
        if start is None:
            return None, None, {}
    row = copy.deepcopy(start)
    row["name"] = name
    params = PARAMS[row["code"]]
    changes = {} if status == "edited" else {"code": (None, row["code"])}
    allowed = [*params, "effect"] + (["kind"] if status == "invented" else [])
    n0 = len(problems)
    for f, v in entry.items():
        if f in ("mechanic", "like"):
            continue
        if f in params:
            changes[f] = (row["params"].get(f), _value(f, v, problems, loc + (f,)))
            row["params"][f] = v
        elif f == "effect" and isinstance(v, str):
            row["effect"] = v
        elif f == "kind" and status == "invented" and v in ("power", "perk"):
            row["kind"] = v
        else:
            problems.add(loc + (f,), f"unknown field {f!r} for an entry of code {row['code']}."
                         f"{suggest(f, allowed)} Allowed here: {', '.join(allowed)}"
                         + (" (kind: power or perk)" if f == "kind" else ""), v)
    if len(problems) > n0:
        return None, None, {}
    if status == "invented":
        row.update(source="scenario", reading="invented by the scenario's powers: block")
    return row, status, changes


def build(block) -> PowerCatalog:
    """The :class:`PowerCatalog` of a ``powers:`` block (pydantic ``ValidationError``
    at ``("powers", name, field)`` for any problem)."""
    problems = Problems(("powers",))
    if not isinstance(block, dict):
        problems.add((), "expected a mapping of name -> fields, e.g. {Killing Blow: {cost: 2}}", block)
        problems.raise_any()
    rows = {r["name"]: r for r in entries()}
    status, changes = {}, {}
    for name, entry in block.items():
        row, st, ch = _entry(rows, str(name), entry, problems)
        if row is not None:
            rows[row["name"]], status[row["name"]], changes[row["name"]] = row, st, ch
    problems.raise_any()
    return PowerCatalog(rows, status, changes)


@contextmanager
def use(cat: PowerCatalog | None):
    """Make ``cat``'s rows the catalog in force for a block (None: the shipped one)."""
    if cat is None:
        yield
        return
    token = CURRENT.set(cat.rows)
    try:
        yield
    finally:
        CURRENT.reset(token)
