"""The entries an audit values: every simulated entry of a system's catalog, with its
category, who holds it in a reference encounter and its cost class.

==========  ==================================================  =================
system      entries and categories                               cost class
==========  ==================================================  =================
mb41        the catalog's simulated talents (Boost and the      cost, stat and
            labyrinth features aside): the girls' by action     uses: ``1
            (``minor``, ``major``, ``free or passive``: free,   support, 2/scene``
            passive or no action line) and ``monster``          (a monster:
            (boss, monster and minion rows)                     pool points)
mb-draft    the draft's simulated talents, by action as above;  as mb41
            its adversaries are 4.1's monster rows
d10         ``power`` and ``perk``: the catalog's simulated     the mana the
            entries                                             parameters cost
cards       one category per card type (hero, girl, power,      the card's MGK
            pet, event, grand)                                  cost
==========  ==================================================  =================

A scenario's data block (``talents:``, ``powers:``, ``cards:``) edits entries
and invents new ones; they are audited with their scenario numbers and keep
their status (``edited``, ``invented``). The *holder* is ``tester`` (a girl of
the first side; in the card game the first side's deck) or ``monster``.

Where an entry can act (``acts_on``, mb41 and the draft, by its mechanic):
``any`` fight; ``map``, only on a map, 4.1's hex grid or the draft's
positions (:data:`MAP_MECHANICS`: movement, forced moves, terrain; gridless
they never act, or, Get Over Here and Repel, act as a paid basic attack whose
pull or push is lost: ``sim/systems/mb41/talents.py``); ``hex``, only on 4.1's
hex grid (:data:`HEX_MECHANICS`: the draft's positions do not play them,
``sim/systems/mb41/positions.py``). An encounter values an entry only where it
can act (:func:`sim.study.audit.measure`); ``tests/test_audit.py`` holds the
sets to the engine (gridless, each changes no trial but by what it pays).
"""
from __future__ import annotations

from dataclasses import dataclass

#: mechanics that act only on a map: 4.1's hex grid or the draft's positions
MAP_MECHANICS = frozenset({"move_attack", "teleport", "extra_move", "sprint", "safe_place", "enemies_closer",
                           "rough_going", "shove", "get_back", "lets_move"})
#: mechanics that act only on 4.1's hex grid (not on the draft's positions)
HEX_MECHANICS = frozenset({"slither", "lashing_ground", "mines", "scattering_shot", "create_barrier"})
#: talent actions counted as "free or passive" (4.1 and the draft)
FREE = ("free", "passive", "not-stated", "lost")
MONSTER_GROUPS = ("boss", "monster", "minion")


@dataclass(frozen=True)
class Entry:
    """One entry to value: its ``name``, ``category``, ``holder`` (``tester`` or
    ``monster``), ``cost_class`` (a label: entries in one class should be worth
    about the same), ``field`` (the member list it goes in), ``status``
    (``catalog``, ``edited`` or ``invented``), ``acts_on`` (``any``, ``map`` or
    ``hex``: see the module docstring) and ``mechanic`` (mb41 and the draft:
    its mechanic's code)."""

    name: str
    category: str
    holder: str
    cost_class: str
    field: str = "talents"
    status: str = "catalog"
    acts_on: str = "any"
    mechanic: str = ""

    def acts_in(self, where: str) -> bool:
        """Whether this entry can act in a fight on ``where`` (``none``, ``hex``, ``positions``)."""
        return (self.acts_on == "any" or (self.acts_on == "map" and where in ("hex", "positions"))
                or (self.acts_on == "hex" and where == "hex"))


def _talent_cost_class(r) -> str:
    """What a use costs and how many there are, as played: a passive mechanic's ``cost`` and
    ``uses`` are never played (:data:`sim.systems.mb41.talent_edits.PASSIVE`), so a designer's
    "2 attack, 1/scene" on one is classed with the free ones it plays like."""
    from sim.systems.mb41.talent_edits import PASSIVE

    if (r.mechanic or {}).get("code") in PASSIVE:
        return "no cost, no limit"
    cost = r.cost or 0
    stat = r.cost_stat or ""
    paid = "no cost" if not cost else f"{cost} {stat}".strip()
    uses = (f"{r.uses_per_scene}/scene" if r.uses_per_scene is not None else
            f"{r.uses_per_episode}/episode" if r.uses_per_episode is not None else "no limit")
    return f"{paid}, {uses}"


def talent_entries(cat, status: dict | None = None) -> list[Entry]:
    """mb41 / mb-draft: the simulated talents of catalog ``cat`` (a catalog module or a
    scenario's :class:`~sim.systems.mb41.talent_edits.ScenarioCatalog`)."""
    status = status or {}
    out = []
    for name in cat.simulated_names():
        r = cat.lookup(name)
        if r is None or r.name == "Boost" or getattr(r, "group", "") == "labyrinth" or not r.mechanic:
            continue
        monster = getattr(r, "group", "") in MONSTER_GROUPS
        action = getattr(r, "action", "not-stated")
        category = "monster" if monster else ("minor" if action == "minor" else
                                              "major" if action == "major" else "free or passive")
        code = r.mechanic.get("code", "")
        acts_on = "map" if code in MAP_MECHANICS else "hex" if code in HEX_MECHANICS else "any"
        # a row that is a choice (Ranged/Melee Defence) is one entry per choice
        for name in list((r.mechanic.get("variants") or {})) or [r.name]:
            out.append(Entry(name, category, "monster" if monster else "tester", _talent_cost_class(r),
                             status=status.get(r.name, "catalog"), acts_on=acts_on, mechanic=code))
    return out


def _d10_cost_class(row: dict) -> str:
    p = row.get("params") or {}
    mana = p.get("cost", p.get("action_cost", p.get("cost_per_copy", p.get("n") if row["code"] == "attack_cost"
                                                                         else None)))
    return f"{mana} mana" if mana else "no mana"


def power_entries(rows: dict, status: dict | None = None) -> list[Entry]:
    """d10: every simulated power and perk (``rows``: name -> catalog row)."""
    status = status or {}
    return [Entry(n, r["kind"], "tester", _d10_cost_class(r), field="powers" if r["kind"] == "power" else "perks",
                  status=status.get(n, "catalog"))
            for n, r in rows.items() if r.get("simulated")]


def card_entries(pool: dict, status: dict | None = None, exclude=()) -> list[Entry]:
    """The card game: every card of the pool (``name -> Card``) but ``exclude`` (the filler)."""
    status = status or {}
    return [Entry(n, c.type, "tester", f"{c.cost} MGK", field="cards", status=status.get(n, "catalog"))
            for n, c in pool.items() if n not in exclude]


def entries_of(system: str, model) -> list[Entry]:
    """Every entry of ``system`` as the scenario ``model`` (a validated scenario) sees them."""
    if system in ("mb41", "mb-draft"):
        cat = model.talent_catalog() or model.base_catalog()
        return talent_entries(cat, getattr(cat, "status", {}))
    if system == "d10":
        from sim.systems.d10 import catalog as d10_catalog

        cat = model.power_catalog()
        rows = cat.rows if cat is not None else d10_catalog.by_name()
        return power_entries(rows, cat.status if cat is not None else {})
    if system == "cards":
        from sim.systems.cards import cardsdata

        changed = cardsdata.edited_names(model.cards)
        base = cardsdata.cards_by_name()
        return card_entries(model.card_pool(), {n: "edited" if n in base else "invented" for n in changed})
    raise ValueError(f"no audit entries for system {system!r}")
