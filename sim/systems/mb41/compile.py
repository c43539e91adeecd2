"""Compile a validated mb41 scenario into the kernel's arrays (numbers only)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import kernel as K
from . import policies, talents
from .rules import ASSUMPTIONS, RULES, monster_resolve
from .schema import MAX_BONDS, STATS, Scenario

_STAT_INDEX = {s: i for i, s in enumerate(STATS)}


@dataclass
class Inputs:
    """Kernel inputs of one variant.

    comb: int64[n, NC], pol: int64[n, NP], rules: int64[R] (see kernel docs);
    names / sides / kinds: per combatant, in listed order; side_names: 2 names;
    resolved_rules: the full rule options used (recorded in provenance);
    notes: assumptions that apply to this variant (shown in the report).
    """

    comb: np.ndarray
    pol: np.ndarray
    rules: np.ndarray
    names: list[str]
    sides: list[int]
    kinds: list[str]
    side_names: list[str]
    resolved_rules: dict
    notes: list[str] = field(default_factory=list)
    talents: list[list[str]] = field(default_factory=list)   # per combatant: talent per slot
    battlefield: object | None = None   # a grid.Battlefield when rules grid is hex (starting cells in comb C_CELL)

    @property
    def round_cap(self) -> int:
        return int(self.rules[K.R_ROUND_CAP])

    @property
    def n(self) -> int:
        return self.comb.shape[0]


def compile(scenario: Scenario) -> Inputs:  # noqa: A001 - the plug-in entry point's name
    resolved = scenario.resolved_rules()
    rules = RULES.to_array(resolved)
    members = []
    names = []
    for s_i, side in enumerate(scenario.sides):
        for m in side.members:
            for k in range(m.count):
                members.append((s_i, m))
                names.append(m.name if m.count == 1 else f"{m.name} {k + 1}")
    n = len(members)
    comb = np.zeros((n, K.NC), dtype=np.int64)
    pol = np.zeros((n, K.NP), dtype=np.int64)
    notes: list[str] = []
    slot_names: list[list[str]] = []
    uses_monster_defaults = set()
    for i, (s, m) in enumerate(members):
        stats = m.role_stats()
        roles = m.role_map()
        row = comb[i]
        row[K.C_SIDE] = s
        row[K.C_MONSTER] = int(m.kind != "girl")  # monsters and minions: no revive, no personal overcharge
        row[K.C_ATT] = stats["attack"]
        row[K.C_DEF] = stats["defence"]
        row[K.C_SUP] = stats["support"]
        row[K.C_RA] = _STAT_INDEX[roles["attack"]]
        row[K.C_RD] = _STAT_INDEX[roles["defence"]]
        row[K.C_RS] = _STAT_INDEX[roles["support"]]
        bonus = resolved["melee_bonus"] if m.attack_kind == "melee" else resolved["ranged_bonus"]
        extra = 0  # the monster damage bonus, on both attack forms
        row[K.C_PDEF] = -1
        if m.kind == "minion":
            # passive defence, HP boxes, no damage bonus, no overcharge (L2170-2172)
            res = m.hp
            row[K.C_PDEF] = m.passive_defence
            row[K.C_POOL] = 0
            row[K.C_BOOSTS] = 0
        elif m.kind == "monster":
            if m.resolve is not None:
                res = m.resolve
            else:
                res = monster_resolve(m.spread, m.power_level, resolved["monster_resolve"])
                uses_monster_defaults.add("monster_resolve")
            if m.damage_bonus is None:
                uses_monster_defaults.add("monster_damage_bonus")
            if m.overcharge_pool is None:
                uses_monster_defaults.add("monster_oc_pool")
            extra = resolved["monster_damage_bonus"] if m.damage_bonus is None else m.damage_bonus
            bonus += extra
            row[K.C_POOL] = resolved["monster_oc_pool"] if m.overcharge_pool is None else m.overcharge_pool
            row[K.C_BOOSTS] = 0
        else:
            res = resolved["resolve"] if m.resolve is None else m.resolve
            row[K.C_BOOSTS] = resolved["boost_uses"]
            row[K.C_OC0 + 0] = m.overcharge.heart
            row[K.C_OC0 + 1] = m.overcharge.fury
            row[K.C_OC0 + 2] = m.overcharge.judgment
            for b, rank in enumerate(m.bond_ranks()):
                row[K.C_BOND + b] = rank
        row[K.C_RES] = res
        row[K.C_DMG] = bonus
        row[K.C_MELEE_DMG] = resolved["melee_bonus"] + extra
        row[K.C_RANGED_DMG] = resolved["ranged_bonus"] + extra
        row[K.C_FORM] = int(m.attack_kind == "ranged")
        row[K.C_CELL] = -1
        row[K.C_TEN] = m.tenacity
        row[K.C_ORDER] = i
        role_stat = {r: _STAT_INDEX[st] for r, st in roles.items()}
        talents.fill_slots(row, list(m.talents), role_stat, minion=m.kind == "minion",
                            uses=m.talent_uses)
        slot_names.append([t for t in m.talents if t != "Boost"])
        pol[i] = policies.encode(m.policy, resolved["burst_at"], m.attack_kind)
    _side_effects(comb)
    for i in range(n):  # allies who may intercept for her (minions never do)
        comb[i, K.C_COVER] = sum(1 for j in range(n) if j != i and comb[j, K.C_SIDE] == comb[i, K.C_SIDE]
                                 and comb[j, K.C_PDEF] < 0 and pol[j, K.P_INTERCEPT] >= 0)
    battlefield = None
    if resolved["grid"] == "hex":
        from .deploy import layout

        battlefield, cells = layout(scenario)
        comb[:, K.C_CELL] = cells
    elif scenario.battlefield is not None:
        notes.append("the battlefield is not used: rules grid is none (theatre of the mind)")
    for name in sorted(uses_monster_defaults):
        opt = RULES.option(name)
        notes.append(f"assumption: {name} = {resolved[name]} ({opt.note})")
    return Inputs(
        comb=comb, pol=pol, rules=rules,
        names=names, sides=[s for s, _ in members],
        kinds=[m.kind for _, m in members], side_names=[sd.name for sd in scenario.sides],
        resolved_rules=resolved, notes=notes, talents=slot_names, battlefield=battlefield,
    )


def _side_effects(comb: np.ndarray) -> None:
    """Columns that depend on the other combatants: the Fear Aura penalty each
    starts under (every enemy's, gridless) and the OR of her side's talent masks."""
    n = comb.shape[0]
    for i in range(n):
        fear = 0
        side_mask = 0
        for j in range(n):
            if comb[j, K.C_SIDE] == comb[i, K.C_SIDE]:
                side_mask |= int(comb[j, K.C_TMASK])
            elif (int(comb[j, K.C_TMASK]) >> K.E_FEAR_AURA) & 1:
                for s in range(K.MAXT):
                    if comb[j, K.C_TCODE + s] == K.E_FEAR_AURA:
                        fear += int(comb[j, K.C_TP1 + s])
        comb[i, K.C_FEAR0] = fear
        comb[i, K.C_SIDEMASK] = side_mask


assert set(ASSUMPTIONS) <= set(RULES.names())
assert MAX_BONDS == K.MAXB
