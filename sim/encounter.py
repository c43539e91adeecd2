"""One encounter, described once, as a scenario of each fight system.

A designer who asks "is the d10 add-on more lethal than 4.1?" describes the
party and the enemies once, in 4.1 terms (``encounter:`` of a lethality
study, :mod:`sim.lethality`); this module writes the ``mb41``, ``mb-draft``
and ``d10`` scenarios from it by the mapping documented, with its reasons,
in ``docs/lethality.md``. Each generated scenario can be overridden per
system (``systems: {d10: {...}}``, deep-merged), and the whole mapping is
written to ``mapping.csv`` so that anyone can check it.

The mapping (4.1 stat -> d10 ability), in short:

* a 4.1 stat ``s`` (0-10; a girl's are 1-5, seed 000 L1394) becomes the d10
  ability ``2 s + 2`` (a pool of ``s + 1`` d10): a typical girl's 3 becomes 8
  (4 dice), as in the add-on's sample girls (abilities 6-12);
* Attack -> Strength (melee) or Agility (ranged); Defence -> Agility with
  the dodge defence (a ranged girl, whose Agility is her attack: Luck with
  the luck defence); Support -> Magic and Luck;
* Resolve ``r`` (18 for a girl, L1420) -> Vitality ``round(r / 3)`` (18 -> 6,
  a 12-wound pool): a standard girl stays a standard girl; a monster's
  Resolve (its Health, from its power level and spread when not given)
  maps the same way;
* ``deadly: true`` (the monster finishes the downed) plays 4.1 and the draft
  with ``defeat: all_dead`` and ``finish_downed: true`` (wounds at 0 Resolve
  kill, L1420-1443) and d10 in Guns and Grim mode (a full pool kills, seed
  002 L57-69); ``deadly: false`` the default readings (4.1 ``all_out``, d10
  Cake and Ice Cream).

A minion (``kind: minion``) keeps its HP as its Resolve (HP 4 -> Vitality 1),
its passive defence ``P`` as a Defence of ``P - 7`` (a defence roll averages 7
plus the stat) and its attack as its support; d10 has no minions, so each of a
``count`` of copies is a monster girl of its own. 4.1's monster
``damage_bonus``, spread and power level have no d10 counterpart; a study calibrates each system to the same win rate
(:mod:`sim.lethality`), so the comparison is at equal difficulty.
"""
from __future__ import annotations

import copy
from typing import Literal

from pydantic import Field, model_validator

from sim.scenario.base import StrictModel

SYSTEMS = ("mb41", "mb-draft", "d10")

#: default offsets of :class:`Mapping` (attack, defence, Magic and Luck), chosen so that
#: hit chances in d10 are near 4.1's on the bundled encounter (docs/lethality.md)
DEFAULT_OFFSETS = (8, 2, 4)

Stat = Field(ge=0, le=10)


class Girl(StrictModel):
    """A magical girl in 4.1 terms."""

    name: str = Field(min_length=1, max_length=60)
    attack: int = Stat
    defence: int = Stat
    support: int = Stat
    resolve: int = Field(18, ge=1, le=200)
    attack_kind: Literal["melee", "ranged"] = "melee"


class Enemy(StrictModel):
    """A monster in 4.1 terms (seed 000 L2100-2170: spread, power level), or a minion
    (``kind: minion``, L2170-2174: ``hp`` boxes, a ``passive_defence`` and one number,
    ``attack``, for its attack and support); ``count`` copies of it (a swarm), named
    ``<name> 1`` .. ``<name> N``."""

    name: str = Field(min_length=1, max_length=60)
    kind: Literal["monster", "minion"] = "monster"
    count: int = Field(1, ge=1, le=20)
    attack: int = Stat
    defence: int | None = Field(None, ge=0, le=10)
    support: int | None = Field(None, ge=0, le=10)
    resolve: int | None = Field(None, ge=1, le=1000)
    spread: int = Field(3, ge=1, le=10)
    power_level: int = Field(5, ge=2, le=20)
    damage_bonus: int = Field(0, ge=-10, le=50)
    hp: int = Field(4, ge=1, le=100)
    passive_defence: int = Field(4, ge=0, le=30)
    attack_kind: Literal["melee", "ranged"] = "melee"

    @model_validator(mode="after")
    def _kind_fields(self):
        if self.kind == "monster" and (self.defence is None or self.support is None):
            raise ValueError(f"{self.name}: a monster needs attack, defence and support")
        if self.kind == "minion" and (self.defence is not None or self.support is not None
                                      or self.resolve is not None):
            raise ValueError(f"{self.name}: a minion has hp, passive_defence and attack (also its support, "
                             "L2172), not defence, support or resolve")
        return self

    def d10_stats(self) -> "Enemy":
        """The stats the d10 mapping reads: a minion's passive defence P stands for a defence
        roll of 2d6 + (P - 7) (a 2d6 averages 7), its attack is also its support."""
        if self.kind == "monster":
            return self
        return self.model_copy(update={"defence": max(0, self.passive_defence - 7), "support": self.attack})

    def copies(self) -> list[str]:
        """The names of its copies: itself, or ``<name> 1`` .. ``<name> N``."""
        return [self.name] if self.count == 1 else [f"{self.name} {k + 1}" for k in range(self.count)]


class Mapping(StrictModel):
    """How a 4.1 stat becomes a d10 ability (docs/lethality.md): ``round(slope * s +
    offset)``, clipped to 1-40, with one offset for the ability an attack rolls,
    one for the defence and one for Magic and Luck; Vitality is Resolve divided
    by ``resolve_per_vitality``."""

    slope: float = Field(1.0, gt=0.0, le=5.0)
    attack_offset: int = Field(DEFAULT_OFFSETS[0], ge=-10, le=30)
    defence_offset: int = Field(DEFAULT_OFFSETS[1], ge=-10, le=30)
    support_offset: int = Field(DEFAULT_OFFSETS[2], ge=-10, le=30)
    resolve_per_vitality: float = Field(3.0, gt=0.0, le=50.0)

    def ability(self, stat: int, offset: int) -> int:
        return int(min(40, max(1, round(self.slope * stat + offset))))

    def vitality(self, resolve: int) -> int:
        """Vitality of a 4.1 Resolve (18 -> 6 by default), at least 1."""
        return int(min(40, max(1, round(resolve / self.resolve_per_vitality))))


class Encounter(StrictModel):
    """The encounter every system plays (``encounter:`` of a lethality study)."""

    girls: list[Girl] = Field(min_length=1, max_length=6)
    enemies: list[Enemy] = Field(min_length=1, max_length=6)
    deadly: bool = True
    round_cap: int = Field(40, ge=1, le=500)
    mapping: Mapping = Mapping()


def mb41_scenario(enc: Encounter, system: str, name: str, seed: int, trials: int) -> dict:
    """The ``mb41`` (or ``mb-draft``) scenario of the encounter (plain data)."""
    girls = [{"name": g.name, "attack": g.attack, "defence": g.defence, "support": g.support,
              "resolve": g.resolve, "attack_kind": g.attack_kind,
              "policy": {"boost": "when-losing-by 3"}} for g in enc.girls]
    enemies = []
    for e in enc.enemies:
        policy = {"name": "focus-weakest", "finish_downed": bool(enc.deadly)}
        if e.kind == "minion":
            m = {"name": e.name, "kind": "minion", "hp": e.hp, "passive_defence": e.passive_defence,
                 "attack": e.attack, "attack_kind": e.attack_kind, "policy": policy}
        else:
            m = {"name": e.name, "kind": "monster", "attack": e.attack, "defence": e.defence,
                 "support": e.support, "spread": e.spread, "power_level": e.power_level,
                 "damage_bonus": e.damage_bonus, "attack_kind": e.attack_kind, "policy": policy}
            if e.resolve is not None:
                m["resolve"] = e.resolve
        if e.count > 1:
            m["count"] = e.count
        enemies.append(m)
    rules = {"round_cap": enc.round_cap, "revive": True}
    if enc.deadly:
        rules.update({"defeat": "all_dead", "revive_limit": 2})
    return {"name": f"{name}-{system}", "system": system, "seed": seed, "trials": trials,
            "rules": rules,
            "sides": [{"name": "girls", "members": girls}, {"name": "enemies", "members": enemies}]}


def _d10_member(c, kind: str, resolve: int, policy: dict, mp: Mapping) -> dict:
    att, dfn = mp.ability(c.attack, mp.attack_offset), mp.ability(c.defence, mp.defence_offset)
    sup = mp.ability(c.support, mp.support_offset)
    if c.attack_kind == "ranged":
        ab = {"strength": mp.ability(0, mp.support_offset), "agility": att, "luck": dfn, "magic": sup}
        defence = "luck"
    else:
        ab = {"strength": att, "agility": dfn, "luck": sup, "magic": sup}
        defence = "dodge"
    ab["vitality"] = mp.vitality(resolve)
    return {"name": c.name, "kind": kind, "abilities": ab, "attack_kind": c.attack_kind,
            "defence": defence, "policy": policy}


def d10_scenario(enc: Encounter, name: str, seed: int, trials: int, enemy_resolve: dict) -> dict:
    """The ``d10`` scenario of the encounter; ``enemy_resolve[name]`` is each
    enemy's 4.1 Resolve (given, or what the 4.1 rules give it; a minion's HP)."""
    mp = enc.mapping
    girls = [_d10_member(g, "girl", g.resolve, {"preset": "balanced"}, mp) for g in enc.girls]
    enemies = []
    for e in enc.enemies:  # d10 has no minions or counts: each copy is a monster girl of its own
        for name in e.copies():
            m = _d10_member(e.d10_stats().model_copy(update={"name": name}), "monster_girl",
                            enemy_resolve[e.name], {"preset": "aggressive"}, mp)
            m["outfit_dr"] = 0
            enemies.append(m)
    return {"name": f"{name}-d10", "system": "d10", "seed": seed, "trials": trials,
            "rules": {"mode": "grim" if enc.deadly else "cake", "round_cap": enc.round_cap},
            "sides": [{"name": "girls", "members": girls}, {"name": "enemies", "members": enemies}]}


def deep_merge(base: dict, over: dict) -> dict:
    """``base`` with ``over`` merged in (dicts recursively; lists and values replaced;
    a side's members matched by name, so an override can change one member)."""
    out = copy.deepcopy(base)
    for k, v in over.items():
        if k == "sides" and isinstance(v, list) and isinstance(out.get(k), list):
            out[k] = _merge_sides(out[k], v)
        elif isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = deep_merge(out[k], v)
        else:
            out[k] = copy.deepcopy(v)
    return out


def _merge_sides(sides: list, over: list) -> list:
    out = copy.deepcopy(sides)
    for i, s in enumerate(over):
        if i >= len(out) or not isinstance(s, dict):
            out.append(copy.deepcopy(s))
            continue
        members = out[i].setdefault("members", [])
        index = {m.get("name"): j for j, m in enumerate(members)}
        for m in s.get("members", []):
            if isinstance(m, dict) and m.get("name") in index:
                j = index[m["name"]]
                members[j] = deep_merge(members[j], m)
            else:
                members.append(copy.deepcopy(m))
        out[i].update({k: copy.deepcopy(v) for k, v in s.items() if k != "members"})
    return out


def mapping_rows(scenarios: dict) -> list[dict]:
    """``mapping.csv``: every generated member's numbers per system (what to check)."""
    rows = []
    for system, data in scenarios.items():
        for side in data["sides"]:
            for m in side["members"]:
                fields = dict(m.get("abilities", {}))
                for f in ("attack", "defence", "support", "resolve", "spread", "power_level",
                          "damage_bonus", "attack_kind"):
                    if f in m:
                        fields[f] = m[f]
                for f, v in fields.items():
                    rows.append({"system": system, "side": side["name"], "member": m["name"],
                                 "field": f, "value": v})
    return rows
