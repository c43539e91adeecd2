"""A scenario's ``talents:`` block: catalog talents with other numbers, and new talents.

::

    talents:
      Curse:                      # a catalog talent (name or alias): change any of its numbers
        uses_per_scene: 1
      Desperation: {attack: 2}    # a mechanic parameter, written flat
      Glass Heart:                # a new name: a new talent from an existing mechanic
        mechanic: low_resolve     # (or like: Desperation, to start from that row)
        attack: 1
        damage: 1
        cost: 2
        cost_stat: attack

Fields (every one optional; a new talent needs ``mechanic`` or ``like``):

=====================  ======================================================
``cost``               overcharge (a monster: pool points) per use, 0-20
``cost_stat``          the role charged: attack, defence, support (a
                       monster's single pool: pool), bond (bond ranks)
``uses_per_scene``     uses per scene, 0-20; null = unlimited
``uses_per_episode``   uses per episode (kept across scenes), 0-20
``range_hexes``        ``[lo, hi]`` hexes it reaches on the grid (0-20)
``mechanic``           (new talents) the mechanic it plays
                       (:data:`sim.systems.mb41.talents.MECHANICS`)
``like``               (new talents) a catalog talent whose row it starts from (default:
                       the first row that plays the mechanic; none: parameters 0)
``group``              (new talents) its catalog group (``monster`` for a
                       monster's talent; default: that of the row it starts from)
``effect``             one line of text for the reports
any parameter          of its mechanic (``dice``, ``bonus``, ``attack``,
                       ``ailments``...), within :data:`PARAM_BOUNDS`
=====================  ======================================================

The numbers become the kernel's talent slots in ``comb`` (effect code, cost,
role, uses, reach, P1-P3: :func:`sim.systems.mb41.talents.fill_slots`), which
the kernels read at run time: an edit never recompiles anything. A new talent
starts from ``like:``'s row, else from the first catalog row that plays its
mechanic (its parameters, cost, uses and group), and gets the fields given.

What the kernel does not read is refused or noted, never silently kept: the
mechanics of :data:`PASSIVE` apply whenever their condition holds, so a
``cost`` or ``uses`` given to one is noted in the run's notes as not played;
the parameters of :data:`SET_BY_COMPILER` are refused; Boost's numbers are
rules (``boost_uses``...). The catalog itself is never changed: the scenario
plays an overlay (:class:`ScenarioCatalog`) while it is validated and compiled
(:func:`use`, the ``CURRENT`` catalog of :mod:`.catalog`).

Errors name the entry and field (``talents.Curse.uses_per_scene``) so that the
loader can give the line, with a close-name suggestion and the bounds.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any

from sim.scenario.problems import Problems
from sim.scenario.suggest import closest, list_names, suggest

from . import catalog as catalog41
from .talents import _AILMENT, _VALUES, MECHANICS

#: the row fields a ``talents:`` entry may set, with their bounds (None: no bound)
ROW_FIELDS = {"cost": (0, 20), "uses_per_scene": (0, 20), "uses_per_episode": (0, 20)}
#: the other non-parameter fields of an entry
OTHER_FIELDS = ("cost_stat", "range_hexes", "mechanic", "like", "group", "effect")
COST_STATS = ("attack", "defence", "support", "bond", "pool")
#: bounds of mechanic parameters that are whole numbers (default :data:`DEFAULT_BOUNDS`)
PARAM_BOUNDS = {"attack": (-10, 20), "damage": (-10, 20), "bonus": (-10, 20), "defence": (-10, 20),
                "divisor": (1, 20), "dice": (0, 10), "ignore": (0, 50), "resolve": (0, 200),
                "penalty": (-10, 20), "healing": (-10, 20), "most": (0, 100)}
DEFAULT_BOUNDS = (0, 20)
#: mechanics the kernel applies whenever their condition holds: no cost is paid and no use
#: is counted down (their catalog rows are passive and cost nothing), so ``cost`` and
#: ``uses_*`` do not change play (found by reading the kernel's hooks; noted when given)
PASSIVE = frozenset({"follow_target", "battle_sorcery", "aura_of_strength", "courage_aura",
                     "backlash", "extra_turn", "shrug_off", "armour", "ambush", "disruptive", "fear_aura",
                     "lashing_ground", "radiation", "defence_die", "mid_childan", "belkan", "reflector"})
#: parameters the compiler sets, whatever the row says (``compile._finish_rows``)
SET_BY_COMPILER = {"minion_creation": {"per_turn": "the monster's spread (L1985)"}}
#: mechanics a scenario may not give a new talent: they need rows of their own in the table
NOT_INVENTED = {"undying_brood": "its rebirths are set up for its catalog row",
                "monster_boost": "it plays through the Boost columns"}
#: named parameter values accepted in a ``talents:`` block (``ailments``: a list of ailments)
NAMED = {p: [k for k in table if not isinstance(k, bool)] for p, table in _VALUES.items()}
BOOLEAN = {p for p, table in _VALUES.items() if set(table) == {False, True}}


class ScenarioCatalog:
    """The talent catalog of one scenario: ``base`` (the 4.1 catalog module or the
    draft's) with ``rows`` (canonical name -> row) replacing or adding rows.

    ``status``: name -> ``"edited"`` or ``"invented"``; ``changes``: name ->
    ``{field: (old, new)}`` (``old`` None for an invented talent); ``notes``: what
    the kernel does not play. Other attributes are the base's."""

    def __init__(self, base, rows: dict, status: dict, changes: dict, notes: list[str]):
        self.base, self.rows, self.status, self.changes, self.notes = base, rows, status, changes, notes
        self._folded = {n.casefold(): r for n, r in rows.items()}

    def __getattr__(self, name):
        return getattr(self.base, name)

    def lookup(self, name: str):
        r = self.base.lookup(name)
        if r is not None:
            return self.rows.get(r.name, r)
        return self._folded.get(str(name).casefold())

    def talent_names(self) -> list[str]:
        base = list(self.base.talent_names())
        return base + [n for n in self.rows if n not in base]

    def simulated_names(self) -> list[str]:
        base = list(self.base.simulated_names())
        return base + [n for n, r in self.rows.items() if n not in base and r.simulated]

    def describe(self) -> list[str]:
        """One note per edited or invented talent (what changed), then ``notes``."""
        out = []
        for name, ch in self.changes.items():
            if self.status[name] == "invented":
                r = self.rows[name]
                params = ", ".join(f"{k} {_shown(v)}" for k, v in r.mechanic.items() if k != "code")
                out.append(f"talent {name} is invented by this scenario: mechanic {r.mechanic['code']}"
                           + (f" ({params})" if params else "") + f", {_cost_text(r)}")
            else:
                what = ", ".join(f"{k} {_shown(a)} -> {_shown(b)}" for k, (a, b) in ch.items())
                out.append(f"talent {name} is edited by this scenario: {what or 'no change'}")
        return out + list(self.notes)


def _shown(v) -> str:
    if v is None:
        return "none"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(map(str, v)) + "]"
    return str(v).lower() if isinstance(v, bool) else str(v)


def _cost_text(r) -> str:
    cost = "no cost" if not r.cost else f"cost {r.cost} {r.cost_stat or 'support'}"
    uses = (f"{r.uses_per_scene}/scene" if r.uses_per_scene is not None else
            f"{r.uses_per_episode}/episode" if r.uses_per_episode is not None else "no limit")
    return f"{cost}, {uses}"


def _templates(base) -> dict[str, Any]:
    """Mechanic -> the first simulated row that plays it (the base's rows, then 4.1's)."""
    out: dict[str, Any] = {}
    rows = list(base.rows()) + ([r for r in catalog41.rows()] if base is not catalog41 else [])
    for r in rows:
        code = (r.mechanic or {}).get("code")
        if r.simulated and code in MECHANICS and code not in out:
            out[code] = r
    return out


def _bare(code: str):
    """A row to start a new talent of mechanic ``code`` from when no catalog row plays it
    (the draft's mechanics in a 4.1 scenario): its parameters 0, no cost, no limit."""
    return catalog41.CatalogRow.model_validate({
        "name": f"({code})", "audit_row": 10_000, "group": "common", "action": "not-stated", "range": "-",
        "effect": f"a talent of mechanic {code}", "matters_in_fight": True, "simulated": True,
        "mechanic": {"code": code}, "source": "L0"})


def _param(p: str, v, problems: Problems, loc: tuple):
    """A parameter value checked against its kind (named, boolean, ailments, bounded int)."""
    if p == "ailments":
        if not isinstance(v, list) or not v or any(a not in _AILMENT for a in v):
            problems.add(loc, f"expected a list of ailments from {', '.join(_AILMENT)}, e.g. [stun, bound]."
                         + (suggest(next((a for a in v if a not in _AILMENT), ""), _AILMENT)
                            if isinstance(v, list) else ""), v)
        return v
    if p in BOOLEAN:
        if not isinstance(v, bool):
            problems.add(loc, f"expected true or false, got {v!r}", v)
        return v
    if p in NAMED:
        if v not in NAMED[p]:
            problems.add(loc, f"unknown value {v!r}.{suggest(v, NAMED[p])} Expected one of "
                         f"{', '.join(map(str, NAMED[p]))}", v)
        return v
    lo, hi = PARAM_BOUNDS.get(p, DEFAULT_BOUNDS)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        problems.add(loc, f"expected a whole number from {lo} to {hi}, got {v!r}", v)
    return v


def _row_field(f: str, v, problems: Problems, loc: tuple):
    if f in ROW_FIELDS:
        lo, hi = ROW_FIELDS[f]
        ok = v is None and f != "cost" or (isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi)
        if not ok:
            problems.add(loc, f"expected a whole number from {lo} to {hi}"
                         + (" (or null: no limit)" if f != "cost" else "") + f", got {v!r}", v)
    elif f == "cost_stat":
        if v not in COST_STATS:
            problems.add(loc, f"unknown cost_stat {v!r}.{suggest(v, COST_STATS)} Expected one of "
                         f"{', '.join(COST_STATS)}", v)
    elif f == "range_hexes":
        if not (v is None or (isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) for x in v)
                              and 0 <= v[0] <= v[1] <= 20)):
            problems.add(loc, f"expected [lo, hi] with 0 <= lo <= hi <= 20 (hexes), or null, got {v!r}", v)
        elif v is not None:
            v = tuple(v)
    elif f == "effect" and not isinstance(v, str):
        problems.add(loc, "expected one line of text", v)
    return v


def _entry(base, name: str, entry, templates: dict, problems: Problems):
    """The row of one entry, its status and changes (``None`` row after an error)."""
    if not isinstance(entry, dict):
        problems.add((name,), "expected a mapping of fields, e.g. {uses_per_scene: 1} or, for a new "
                     "talent, {mechanic: low_resolve, attack: 1}", entry)
        return None, None, {}
    old = base.lookup(name)
    if old is not None:
        return _edit(old, name, entry, problems)
    return _invent(base, name, entry, templates, problems)


def _edit(old, name: str, entry: dict, problems: Problems):
    loc = (name,)
    if old.group == "labyrinth" or old.name == "Boost" or not old.simulated or not old.mechanic:
        why = ("a labyrinth feature: set its numbers in battlefield.labyrinth" if old.group == "labyrinth" else
               "Boost: its numbers are rules (boost_uses, boosts_per_roll, boost_damage; sim rules mb41)"
               if old.name == "Boost" else "not simulated: only simulated talents can be changed")
        problems.add(loc, f"'{old.name}' cannot be edited here: it is {why}")
        return None, None, {}
    new_only = [f for f in ("mechanic", "like", "group") if f in entry]
    for f in new_only:
        problems.add(loc + (f,), f"'{old.name}' is a catalog talent (mechanic {old.mechanic['code']}); "
                     f"'{f}' is for a new talent: give it a new name")
    if new_only:
        return None, None, {}
    return _merged(old, old.name, entry, problems, loc, "edited")


def _invent(base, name: str, entry: dict, templates: dict, problems: Problems):
    loc = (name,)
    if "like" in entry:
        start = base.lookup(str(entry["like"]))
        if start is None or not start.simulated or not start.mechanic or start.name == "Boost":
            problems.add(loc + ("like",), f"no simulated talent {entry['like']!r} to start from."
                         f"{suggest(entry['like'], base.simulated_names())}", entry["like"])
            return None, None, {}
        if "mechanic" in entry and entry["mechanic"] != start.mechanic["code"]:
            problems.add(loc + ("mechanic",), f"'{start.name}' plays mechanic {start.mechanic['code']}; "
                         "give 'like' or 'mechanic', not two different ones", entry["mechanic"])
            return None, None, {}
    elif "mechanic" in entry:
        code = entry["mechanic"]
        if code not in MECHANICS or code in NOT_INVENTED:
            hint = (f" ({NOT_INVENTED[code]})." if code in NOT_INVENTED else
                    f".{suggest(code, MECHANICS)} Mechanics: {list_names(MECHANICS, 80)} "
                    "(docs/scenarios-mb41.md#talents-as-data)")
            problems.add(loc + ("mechanic",), f"no mechanic {code!r} for a new talent{hint}", code)
            return None, None, {}
        start = templates.get(code) or _bare(code)
    else:
        near = closest(name, base.talent_names())
        problems.add(loc, f"no catalog talent {name!r}." + (f" Did you mean '{near}'?" if near else "")
                     + " A new talent needs 'mechanic' (or 'like: <talent>') and the mechanic's numbers")
        return None, None, {}
    body = {k: v for k, v in entry.items() if k not in ("like", "mechanic")}
    return _merged(start, name, body, problems, loc, "invented")


def _merged(start, name: str, entry: dict, problems: Problems, loc: tuple, status: str):
    """``start`` with the entry's fields; returns (row, status, {field: (old, new)})."""
    code = start.mechanic["code"]
    params = MECHANICS[code][1]
    mech = {k: v for k, v in start.mechanic.items() if k != "variants" or status == "edited"}
    update: dict[str, Any] = {}
    changes: dict[str, tuple] = {}
    allowed = [*ROW_FIELDS, *OTHER_FIELDS[:2], "effect", *params] + (["group"] if status == "invented" else [])
    n0 = len(problems)
    for f, v in entry.items():
        if f in params:
            if f in SET_BY_COMPILER.get(code, {}):
                problems.add(loc + (f,), f"{f} of mechanic {code} is set by the compiler from "
                             f"{SET_BY_COMPILER[code][f]}; it cannot be changed here", v)
                continue
            changes[f] = (mech.get(f), _param(f, v, problems, loc + (f,)))
            mech[f] = v
        elif f in ROW_FIELDS or f in ("cost_stat", "range_hexes", "effect"):
            v = _row_field(f, v, problems, loc + (f,))
            changes[f] = (getattr(start, f, None), v)
            update[f] = v
        elif f == "group" and status == "invented":
            groups = [g for g in (*catalog41.GROUPS, "common", "knight", "priestess", "witch") if g != "labyrinth"]
            if v not in groups:
                problems.add(loc + (f,), f"unknown group {v!r}.{suggest(v, groups)} Expected one of "
                             f"{', '.join(dict.fromkeys(groups))}", v)
            update[f] = v
        else:
            problems.add(loc + (f,), f"unknown field {f!r} for a talent of mechanic {code}."
                         f"{suggest(f, allowed)} Allowed here: {', '.join(allowed)}"
                         + (" (mechanic parameters: none)" if not params else ""), v)
    if len(problems) > n0:
        return None, None, {}
    if update.get("cost") and update.get("cost_stat", start.cost_stat) is None:
        update["cost_stat"] = "support"
    fields = type(start).model_fields
    update = {k: v for k, v in update.items() if k in fields}
    update.update(mechanic=mech, simulated=True)
    if status == "invented":
        update.update(name=name, aliases=[] if isinstance(start.aliases, list) else ())
        changes = {"mechanic": (None, code), **changes}
    return start.model_copy(update=update), status, changes


def _passive_notes(name: str, row, changes: dict) -> list[str]:
    code = row.mechanic["code"]
    given = [f for f in ("cost", "uses_per_scene", "uses_per_episode") if f in changes]
    if code in PASSIVE and given:
        return [f"talent {name}: {', '.join(given)} not played: mechanic {code} applies whenever its "
                "condition holds (the kernel pays no cost and counts no uses for it)"]
    return []


def build(base, block) -> ScenarioCatalog:
    """The :class:`ScenarioCatalog` of a ``talents:`` block over ``base`` (the 4.1
    catalog module or the draft's). Raises a pydantic ``ValidationError`` whose
    errors sit at ``("talents", name, field)``."""
    problems = Problems(("talents",))
    if not isinstance(block, dict):
        problems.add((), "expected a mapping of talent name -> fields, e.g. {Curse: {uses_per_scene: 1}}",
                     block)
        problems.raise_any()
    templates = _templates(base)
    rows, status, changes, notes = {}, {}, {}, []
    for name, entry in block.items():
        row, st, ch = _entry(base, str(name), entry, templates, problems)
        if row is None:
            continue
        if row.name in rows:
            problems.add((name,), f"'{name}' is '{row.name}' again (a name or alias given twice)")
            continue
        rows[row.name], status[row.name], changes[row.name] = row, st, ch
        notes += _passive_notes(row.name, row, ch)
    problems.raise_any()
    return ScenarioCatalog(base, rows, status, changes, notes)


@contextmanager
def use(cat: ScenarioCatalog | None):
    """Make ``cat`` the catalog the schema and compiler read for a block (None: no change)."""
    if cat is None:
        yield
        return
    token = catalog41.CURRENT.set(cat)
    try:
        yield
    finally:
        catalog41.CURRENT.reset(token)


def has_mechanic(talents: list[str], code: str) -> bool:
    """Whether one of ``talents`` (canonical names) plays mechanic ``code`` in the current catalog."""
    cat = catalog41.current()
    return any((getattr(cat.lookup(t), "mechanic", None) or {}).get("code") == code for t in talents)
