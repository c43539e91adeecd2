"""Compile a validated mb41 scenario into the kernel's arrays (numbers only)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import codes as E
from . import layout as L
from . import catalog, policies, talent_edits, talents
from .gates import hook_bits
from .rules import ASSUMPTIONS, RULES, monster_resolve
from .schema import MAX_BONDS, STATS, Scenario

_STAT_INDEX = {s: i for i, s in enumerate(STATS)}


@dataclass
class Inputs:
    """Kernel inputs of one variant.

    comb: int64[n, NC] the static table (stats, talents, policy: :mod:`.layout`),
    rule_table: int64[R_SIZE] the rule options (see :mod:`.layout`); ``rules``, what
    the kernels take, adds this process's procedure table (:mod:`.registry`);
    names / sides / kinds: per combatant, in listed order; side_names: 2 names;
    resolved_rules: the full rule options used (recorded in provenance);
    notes: assumptions that apply to this variant (shown in the report).
    """

    comb: np.ndarray
    rule_table: np.ndarray
    names: list[str]
    sides: list[int]
    kinds: list[str]
    side_names: list[str]
    resolved_rules: dict
    notes: list[str] = field(default_factory=list)
    talents: list[list[str]] = field(default_factory=list)   # per combatant: talent per slot
    battlefield: object | None = None   # a grid.Battlefield when rules grid is hex (starting cells in comb C_CELL)
    episode: "EpisodePlan | None" = None  # several scenes: comb holds the stacked blocks (see EpisodePlan)
    #: talent name -> "edited" or "invented" by the scenario's ``talents:`` block
    talent_status: dict = field(default_factory=dict)

    @property
    def rules(self) -> np.ndarray:
        """The kernels' ``rules``: the rule options and the procedure table of this
        process (compiled, or loaded from the cache, on first use)."""
        live = self.__dict__.get("_live_rules")
        if live is None:
            from .registry import live_rules

            live = live_rules(self.comb, self.rule_table)
            self.__dict__["_live_rules"] = live
        return live

    def __getstate__(self):
        state = dict(self.__dict__)
        state.pop("_live_rules", None)  # machine addresses belong to one process
        return state

    @property
    def pol(self) -> np.ndarray:
        """The policy columns live in ``comb`` (``P_*``): the same array."""
        return self.comb

    @property
    def round_cap(self) -> int:
        return int(self.rule_table[L.R_ROUND_CAP])

    @property
    def n(self) -> int:
        return self.comb.shape[0]


@dataclass
class EpisodePlan:
    """The scenes of an episode on the stacked arrays of :class:`Inputs`.

    offsets: int64[S+1], scene s in rows offsets[s] .. offsets[s+1]-1 (the
    ``party`` girls first in each block, in the same order); recover:
    int64[S] Recover uses per girl in the rest after scene s (the last 0);
    scene_names; scenes: each scene's own :class:`Inputs` (names, kinds...).
    """

    offsets: np.ndarray
    party: int
    recover: np.ndarray
    scene_names: list[str]
    scenes: list[Inputs]

    @property
    def n_scenes(self) -> int:
        return len(self.scene_names)


def compile(scenario: Scenario) -> Inputs:  # noqa: A001 - the plug-in entry point's name
    """The kernel's arrays of one variant; a ``talents:`` block's catalog is the one read
    (:mod:`.talent_edits`), and each talent it edits or invents is named in the notes."""
    cat = scenario.talent_catalog()
    with talent_edits.use(cat):
        inputs = _compile_episode(scenario) if scenario.episode is not None else _compile_fight(scenario)
    if cat is not None:
        inputs.notes[:0] = [n for n in cat.describe() if n not in inputs.notes]
        inputs.talent_status = dict(cat.status)
    return inputs


def _compile_episode(scenario: Scenario) -> Inputs:
    """Stack the scenes' fights (party + that scene's enemies) into one array."""
    scenes = [_compile_fight(sc) for sc in scenario.scene_scenarios()]
    ng = sum(m.count for m in scenario.sides[0].members)
    offsets = np.zeros(len(scenes) + 1, dtype=np.int64)
    for k, inp in enumerate(scenes):
        offsets[k + 1] = offsets[k] + inp.n
    recover = np.zeros(len(scenes), dtype=np.int64)
    for k, rest in enumerate(scenario.episode.rests()):
        recover[k] = rest.recover
    notes: list[str] = []
    for inp in scenes:
        notes += [x for x in inp.notes if x not in notes]
    first = scenes[0]
    names = [nm for inp in scenes for nm in inp.names]
    return Inputs(
        comb=np.concatenate([inp.comb for inp in scenes]),
        rule_table=first.rule_table, names=names, sides=[s for inp in scenes for s in inp.sides],
        kinds=[k for inp in scenes for k in inp.kinds],
        side_names=[first.side_names[0], " / ".join(inp.side_names[1] for inp in scenes)],
        resolved_rules=first.resolved_rules, notes=notes, talents=[t for inp in scenes for t in inp.talents],
        battlefield=first.battlefield,
        episode=EpisodePlan(offsets=offsets, party=ng, recover=recover,
                            scene_names=scenario.episode.scene_names(), scenes=scenes),
    )


def _compile_fight(scenario: Scenario) -> Inputs:
    resolved = scenario.resolved_rules()
    rules = RULES.to_array(resolved)
    members = []
    names = []
    for s_i, side in enumerate(scenario.sides):
        for m in side.members:
            for k in range(m.count):
                members.append((s_i, m))
                names.append(m.name if m.count == 1 else f"{m.name} {k + 1}")
    n_listed = len(members)
    spawns = _reserve_rows(scenario, resolved, members, names)
    n = len(members)
    comb = np.zeros((n, L.NC), dtype=np.int64)
    notes: list[str] = []
    slot_names: list[list[str]] = []
    uses_monster_defaults: set[str] = set()
    for i, (s, m) in enumerate(members):
        _member_row(comb[i], i, s, m, resolved, notes, uses_monster_defaults)
        slot_names.append([t for t in m.talents if t != "Boost"])
    _finish_rows(comb, members, spawns, resolved)
    battlefield = None
    if resolved["grid"] == "hex":
        from .deploy import layout

        battlefield, cells = layout(scenario, scenario.battlefield_spec())
        comb[:, L.C_CELL] = list(cells) + [-1] * (n - n_listed)  # reserve rows hold no hex until they appear
        if resolved["talent_ranges"] == "unlimited":
            comb[:, L.C_TREACH:L.C_TREACH + L.MAXT] = -1
    elif scenario.battlefield is not None:
        notes.append("the battlefield is not used: rules grid is none (theatre of the mind)")
    notes += _no_effect_notes(members, resolved) + _endless_revive_note(members, resolved)
    for name in sorted(uses_monster_defaults):
        opt = RULES.option(name)
        notes.append(f"assumption: {name} = {resolved[name]} ({opt.note})")
    return Inputs(
        comb=comb, rule_table=rules,
        names=names, sides=[s for s, _ in members],
        kinds=[m.kind for _, m in members], side_names=[sd.name for sd in scenario.sides],
        resolved_rules=resolved, notes=notes, talents=slot_names, battlefield=battlefield,
    )


def _no_effect_notes(members, resolved: dict) -> list[str]:
    """Settings that cannot act under the rules in force, said rather than silently ignored
    (issue 35): Intercept (L1469) needs a place to stand, 'adjacent to the intended target
    or on the line of ranged attack': the hex grid or the draft's positions (its Cover)."""
    if resolved["grid"] != "none" or resolved.get("positions", 0) > 0:
        return []
    who = sorted({m.name for _, m in members if m.policy.intercept != "never"})
    out = []
    if who:
        out.append(f"intercept policy of {', '.join(who)} has no effect: gridless nobody stands adjacent to the "
                   f"target or on the line of the attack (L1469); use grid: hex (or the draft's positions)")
    if resolved.get("intercept_reductions", "target") != "target":
        out.append(f"rule intercept_reductions: {resolved['intercept_reductions']} has no effect: gridless "
                   f"nobody intercepts (L1469)")
    return out


def _endless_revive_note(members, resolved: dict) -> list[str]:
    """``defeat: all_out`` keeps a side with a revive pending in the fight (L1445-1451); with no
    revive limit and enemies that never attack the downed (``finish_downed``), such a side
    loses only to damage taken while down: the run says so (a reading's context)."""
    if resolved["defeat"] != "all_out" or not resolved["revive"] or resolved["revive_limit"] >= 0:
        return []
    out = []
    for s in sorted({s for s, m in members if m.kind == "girl"}):
        foes = [m for t, m in members if t != s]
        if foes and not any(m.policy.finish_downed for m in foes):
            out.append(f"defeat all_out with revive_limit -1 (no limit): side {s + 1}'s girls rise again after "
                       f"every drop and no enemy attacks a downed girl (finish_downed), so that side cannot lose "
                       f"but to damage taken while down (Bleed, a Judgment Burst); else it draws at the round "
                       f"cap; set revive_limit (A19iii) or an enemy policy that finishes")
    return out


def _member_row(row: np.ndarray, i: int, s: int, m, resolved: dict, notes: list, defaults: set) -> None:
    """Fill combatant ``i``'s row of the static table: stats and roles, Resolve and
    damage bonuses by kind (:func:`_kind_columns`), talents, policy."""
    stats = m.role_stats()
    roles = m.role_map()
    row[L.C_SIDE] = s
    row[L.C_MONSTER] = E.WITCH if m.kind == "witch" else int(m.kind != "girl")  # no revive, no personal overcharge
    row[L.C_ATT] = stats["attack"]
    row[L.C_DEF] = stats["defence"]
    row[L.C_SUP] = stats["support"]
    row[L.C_RA] = _STAT_INDEX[roles["attack"]]
    row[L.C_RD] = _STAT_INDEX[roles["defence"]]
    row[L.C_RS] = _STAT_INDEX[roles["support"]]
    row[L.C_PDEF] = -1
    res, extra = _kind_columns(row, m, resolved, defaults)
    bonus = resolved["melee_bonus"] if m.attack_kind == "melee" else resolved["ranged_bonus"]
    row[L.C_RES] = res
    row[L.C_DMG] = bonus + extra
    row[L.C_MELEE_DMG] = resolved["melee_bonus"] + extra
    row[L.C_RANGED_DMG] = resolved["ranged_bonus"] + extra
    row[L.C_FORM] = int(m.attack_kind == "ranged")
    row[L.C_CELL] = -1
    row[L.C_TEN] = m.tenacity
    row[L.C_ORDER] = i
    _talent_columns(row, m, resolved, notes)
    policies.encode(m.policy, resolved["burst_at"], m.attack_kind, row)
    row[L.P_PLACE] = _start_place(s, m, resolved)
    if row[L.P_SORCERY] != E.SORCERY_NEVER:
        if m.kind == "girl":
            row[L.C_TMASK] |= 1 << E.E_SORCERY  # her turn reaches the talent code that casts
        else:
            row[L.P_SORCERY] = E.SORCERY_NEVER
            notes.append(f"{m.name}: only magical girls cast sorcery in battle; its sorcery policy is ignored")


def _kind_columns(row: np.ndarray, m, resolved: dict, defaults: set) -> tuple[int, int]:
    """The columns that depend on her kind; returns ``(Resolve, the monster damage bonus)``.

    A minion: passive defence, HP boxes, no damage bonus, no overcharge (L2170-2172); a
    witch (L2216-2222, A36): Resolve 18 unless given, one counter for talents starting
    full or empty (``witch_pool_start``); a monster: Resolve by spread and power level,
    pool and damage bonus (rules' defaults, recorded in ``defaults``); a girl: Boost
    uses, starting overcharge, bonds."""
    if m.kind == "minion":
        row[L.C_PDEF] = m.passive_defence
        row[L.C_POOL] = 0
        row[L.C_BOOSTS] = 0
        return m.hp, 0
    if m.kind == "witch":
        cap = 10 if m.pool_cap is None else m.pool_cap
        start = (cap if resolved["witch_pool_start"] == "full" else 0) if m.overcharge_pool is None \
            else m.overcharge_pool
        row[L.C_POOL] = start
        row[L.C_POOL_CAP] = cap
        row[L.C_BOOSTS] = 0
        return (resolved["resolve"] if m.resolve is None else m.resolve), 0
    if m.kind == "monster":
        if m.resolve is not None:
            res = m.resolve
        else:
            res = monster_resolve(m.spread, m.power_level, resolved["monster_resolve"])
            defaults.add("monster_resolve")
        if m.damage_bonus is None:
            defaults.add("monster_damage_bonus")
        if m.overcharge_pool is None:
            defaults.add("monster_oc_pool")
        extra = resolved["monster_damage_bonus"] if m.damage_bonus is None else m.damage_bonus
        row[L.C_POOL] = resolved["monster_oc_pool"] if m.overcharge_pool is None else m.overcharge_pool
        row[L.C_BOOSTS] = 0
        return res, extra
    row[L.C_BOOSTS] = resolved["boost_uses"]
    row[L.C_OC0 + 0] = m.overcharge.heart
    row[L.C_OC0 + 1] = m.overcharge.fury
    row[L.C_OC0 + 2] = m.overcharge.judgment
    for b, rank in enumerate(m.bond_ranks()):
        row[L.C_BOND + b] = rank
    return (resolved["resolve"] if m.resolve is None else m.resolve), 0


def _talent_columns(row: np.ndarray, m, resolved: dict, notes: list) -> None:
    """Her talent slots (:func:`.talents.fill_slots`) and what they change: Burst Attack's
    cost (a rule, A31), Mid-Childan System's melee bonus (L1669), Belkan System's melee
    only (L1675), her ranged reach."""
    role_stat = {r: _STAT_INDEX[st] for r, st in m.role_map().items()}
    talents.fill_slots(row, list(m.talents), role_stat, minion=m.kind == "minion", uses=m.talent_uses)
    if m.kind != "minion":
        for k in range(L.MAXT):  # Burst Attack (area_attack, shape line): its cost is a rule (A31)
            if row[L.C_TCODE + k] == E.E_AREA_ATTACK and row[L.C_TP1 + k] == 0:
                row[L.C_TCOST + k] = resolved["burst_attack_cost"]
    if (int(row[L.C_TMASK]) >> E.E_MID_CHILDAN) & 1:
        # Mid-Childan System (L1669): no +2 melee damage bonus
        row[L.C_MELEE_DMG] -= resolved["melee_bonus"]
        if row[L.C_FORM] == 0:
            row[L.C_DMG] -= resolved["melee_bonus"]
    if (int(row[L.C_TMASK]) >> E.E_BELKAN) & 1 and row[L.C_FORM] == 1:
        # Belkan System (L1675): no ranged attacks
        row[L.C_FORM] = 0
        row[L.C_DMG] += resolved["melee_bonus"] - resolved["ranged_bonus"]
        notes.append(f"{m.name} has Belkan System: she attacks in melee (attack_kind ranged ignored)")
    row[L.C_RANGED_HI] = ranged_reach(row, resolved["ranged_range"][1])


def _finish_rows(comb: np.ndarray, members: list, spawns: dict, resolved: dict) -> None:
    """What needs every row: the reserve rows (kinds, makers, Marionette's decoy), Minion
    Creation's rate, side masks, Undying Brood, who may intercept for whom."""
    n = comb.shape[0]
    for i, (kind, by) in spawns.items():
        comb[i, L.C_SPAWN_KIND] = kind
        comb[i, L.C_SPAWN_BY] = by
        if kind == E.SPAWN_COPY:  # the enemies' targeting sees the copy as her (A53, marionette_decoy)
            comb[i, L.C_RA:L.C_RS + 1] = comb[by, L.C_RA:L.C_RS + 1]  # its sixes are her stats' (gain_overcharge)
            decoy = 1 + ("random", "copy", "girl").index(resolved["marionette_decoy"])
            for j in range(n):
                if comb[j, L.C_SIDE] != comb[i, L.C_SIDE]:
                    comb[j, L.C_FOE_COPIES] = decoy
    for i, (s, m) in enumerate(members):  # Minion Creation: at most its spread per turn (L1985)
        for k in range(L.MAXT):
            if comb[i, L.C_TCODE + k] == E.E_MINION_CREATION:
                comb[i, L.C_TP1 + k] = m.spread if m.spread is not None else 1
            if comb[i, L.C_TCODE + k] == E.E_POSSESSION:  # 'all of its attributes and the damage it inflicts
                pen = comb[i, L.C_TP1 + k]               # are reduced by 3' (L2074)
                for c in (L.C_ATT, L.C_DEF, L.C_SUP, L.C_DMG, L.C_MELEE_DMG, L.C_RANGED_DMG):
                    comb[i, c] -= pen
    derive(comb)
    _brood_minions(comb)
    for i in range(n):  # allies who may intercept for her (minions never do; nor rows absent at the start)
        comb[i, L.C_COVER] = sum(1 for j in range(n) if j != i and comb[j, L.C_SIDE] == comb[i, L.C_SIDE]
                                 and comb[j, L.C_PDEF] < 0 and comb[j, L.P_INTERCEPT] >= 0
                                 and comb[j, L.C_SPAWN_KIND] == 0)

def _reserve_rows(scenario: Scenario, resolved: dict, members: list, names: list) -> dict:
    """Append the reserve rows (combatants absent at the start that appear
    mid-fight) to ``members``/``names``; returns row -> (C_SPAWN_KIND, C_SPAWN_BY).

    * Minion Creation (L1981-1985): ``creates.count`` rows (rule
      ``minion_creation_count``) of the monster's side, each a minion of
      ``creates.minion`` (an example stat block; rule
      ``minion_creation_default``), with the monster's policy;
    * the Heart Burst's creature (``heart_burst: spawn``, A8a): one monster
      per girl on the other side (``heart_creature_*`` rules).
    """
    from .schema import Member

    out = {}
    listed = list(members)
    for i, (s, m) in enumerate(listed):
        if not talent_edits.has_mechanic(m.talents, "minion_creation"):
            continue
        cr = m.creates
        block = {"kind": "minion", "policy": m.policy, "attack_kind": m.attack_kind}
        example = cr.minion if cr is not None and cr.minion is not None else resolved["minion_creation_default"]
        if example == "guidelines":
            guide = catalog.minions().guidelines
            block.update(hp=guide.hp_suggested, passive_defence=guide.passive_defence_start,
                         attack=resolved["minion_creation_attack"])
        else:
            block["template"] = example
        for f in ("hp", "passive_defence", "attack"):
            if cr is not None and getattr(cr, f) is not None:
                block[f] = getattr(cr, f)
        count = cr.count if cr is not None and cr.count is not None else resolved["minion_creation_count"]
        for k in range(count):
            nm = f"{m.name}'s minion {k + 1}"
            members.append((s, Member.model_validate({**block, "name": nm[:60]})))
            names.append(nm)
            out[len(members) - 1] = (E.SPAWN_MINION, i)
    for i, (s, m) in enumerate(listed):  # Marionette (L1831-1834): her copy, on her side
        if not talent_edits.has_mechanic(m.talents, "marionette"):
            continue
        stats = m.role_stats()
        nm = f"{m.name}'s copy (Marionette)"
        members.append((s, Member.model_validate({
            "name": nm[:60], "kind": "monster", **stats, "resolve": 1, "damage_bonus": 0, "overcharge_pool": 0,
            "attack_kind": m.attack_kind, "policy": {"intercept": "never"}})))
        names.append(nm)
        out[len(members) - 1] = (E.SPAWN_COPY, i)
    if resolved["heart_burst"] == "spawn" and resolved["bursts"] == "play":
        for i, (s, m) in enumerate(listed):
            if m.kind != "girl":
                continue
            stats = m.role_stats()
            if resolved["heart_creature_stats"] == "heart":
                heart = stats[[r for r, st in m.role_map().items() if st == "heart"][0]]
                stats = {"attack": heart, "defence": heart, "support": heart}
            nm = f"{m.name}'s Heart creature"
            members.append((1 - s, Member.model_validate({
                "name": nm[:60], "kind": "monster", **stats, "spread": resolved["heart_creature_spread"],
                "power_level": resolved["heart_creature_power"], "attack_kind": m.attack_kind})))
            names.append(nm)
            out[len(members) - 1] = (E.SPAWN_HEART, i)
    return out


def ranged_reach(row, far) -> int:
    """The farthest hex of a combatant's ranged basic attack on the grid (``C_RANGED_HI``):
    ``ranged_range``'s far end ``far``; Mid-Childan System (L1669-1673) its ``range`` (4, "your
    maximum range becomes 4 instead of 3"; 0 keeps ``far``); Belkan System (L1675-1678) 0:
    "you can no longer perform ranged attacks"."""
    for k in range(L.MAXT):
        code = int(row[L.C_TCODE + k])
        if code == E.E_BELKAN:
            return 0
        if code == E.E_MID_CHILDAN and int(row[L.C_TP1 + k]) > 0:
            far = int(row[L.C_TP1 + k])
    return far


def _start_place(side: int, m, resolved: dict) -> int:
    """Her starting position on the draft's map (0-based; -1 without one): her
    ``position:`` (1-based, stored as ``place``), else the formation of rule
    ``position_gap`` (the first side at position 1, the second that many
    positions further, -1 = the far end; not stated in the seed, DRAFT L480)."""
    npos = resolved["positions"]
    if npos <= 0:
        return -1
    if m.place is not None:
        if m.place < 1 or m.place > npos:
            raise ValueError(f"{m.name}.position: {m.place} is off the map: expected a position from 1 to "
                             f"{npos} (rules.positions: {npos})")
        return m.place - 1
    if side == 0:
        return 0
    gap = resolved["position_gap"]
    return npos - 1 if gap < 0 else min(gap, npos - 1)


def derive(comb: np.ndarray) -> None:
    """The columns derived from every row's talents: the side and enemy masks and the starting
    auras (:func:`_side_effects`), then each row's hook bits (:func:`.gates.hook_bits`). A test
    that edits a row's talents calls it again."""
    _side_effects(comb)
    hook_bits(comb)


def _side_effects(comb: np.ndarray) -> None:
    """Columns that depend on the other combatants: the Fear Aura penalty each
    starts under (every enemy's, gridless) less the Courage Aura bonus (every
    other ally's, gridless), the OR of her side's talent masks and of everyone's (``C_ALLMASK``)."""
    n = comb.shape[0]
    for i in range(n):
        fear = 0
        side_mask = side_mask2 = foe_mask = 0
        for j in range(n):
            if comb[j, L.C_SIDE] != comb[i, L.C_SIDE]:
                foe_mask |= int(comb[j, L.C_TMASK])
            if comb[j, L.C_SIDE] == comb[i, L.C_SIDE]:
                side_mask |= int(comb[j, L.C_TMASK])
                side_mask2 |= int(comb[j, L.C_TMASK2])
                if j != i and comb[j, L.C_SPAWN_KIND] == 0:
                    fear -= _aura(comb, j, E.E_COURAGE)
            elif comb[j, L.C_SPAWN_KIND] == 0:  # a reserve row's aura is not there at the start
                fear += _aura(comb, j, E.E_FEAR_AURA)
        comb[i, L.C_FEAR0] = fear
        comb[i, L.C_SIDEMASK] = side_mask
        comb[i, L.C_SIDEMASK2] = side_mask2
        comb[i, L.C_FOEMASK] = foe_mask
    all_mask = 0
    for j in range(n):
        all_mask |= int(comb[j, L.C_TMASK])
    comb[:, L.C_ALLMASK] = all_mask  # field-wide talents (Lashing Ground) seen by everyone


def _brood_minions(comb: np.ndarray) -> None:
    """Undying Brood (L1999) divides the monster's Resolve by its side's
    minions at the start of the battle: P1 of its slot (at least 1)."""
    minions = [int(((comb[:, L.C_SIDE] == side) & (comb[:, L.C_PDEF] >= 0) & (comb[:, L.C_SPAWN_KIND] == 0)).sum())
               for side in (0, 1)]
    for i in range(comb.shape[0]):
        for s in range(L.MAXT):
            if comb[i, L.C_TCODE + s] == E.E_BROOD:
                comb[i, L.C_TP1 + s] = max(1, minions[int(comb[i, L.C_SIDE])])


def _aura(comb: np.ndarray, j: int, code: int) -> int:
    """Sum of P1 over combatant ``j``'s slots holding aura ``code``."""
    mask, bit = (int(comb[j, L.C_TMASK]), code) if code < E.E_MORE else (int(comb[j, L.C_TMASK2]), code - 64)
    if not (mask >> bit) & 1:
        return 0
    return sum(int(comb[j, L.C_TP1 + s]) for s in range(L.MAXT) if comb[j, L.C_TCODE + s] == code)


assert set(ASSUMPTIONS) <= set(RULES.names())
assert MAX_BONDS == L.MAXB
