"""Compile a validated d10 scenario into the kernel's arrays (numbers only).

Rows: every member in listed order, each followed by her Duplication copies
(inactive until made) and her familiar. Catalog rows become numbers through
their effect codes (see :mod:`sim.systems.d10.catalog`): columns, or a power
slot per mechanic (:mod:`.layout`, :func:`fill_slots`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import catalog, codes
from . import kernel as K
from . import layout as C
from .catalog import edits as catalog_edits
from . import policies
from .rules import RULES
from .schema import ABILITIES, Scenario

ATTACK_KINDS = {"melee": K.ATK_MELEE, "ranged": K.ATK_RANGED, "mystic": K.ATK_MYSTIC, "specialization": K.ATK_SPEC}
KINDS = {"girl": K.KIND_GIRL, "monster_girl": K.KIND_MONSTER, "dark_magical_girl": K.KIND_DARK}
KIND_NAMES = {K.KIND_GIRL: "girl", K.KIND_MONSTER: "monster_girl", K.KIND_DARK: "dark_magical_girl",
              K.KIND_FAMILIAR: "familiar", K.KIND_COPY: "copy"}
TESTS = {name: i for i, name in enumerate(K.TEST_NAMES)}


@dataclass
class Inputs:
    """Kernel inputs of one variant (see :mod:`.kernel` for the columns)."""

    comb: np.ndarray
    pol: np.ndarray
    rules: np.ndarray
    tab: np.ndarray
    names: list[str]
    sides: list[int]
    kinds: list[str]
    side_names: list[str]
    resolved_rules: dict
    notes: list[str] = field(default_factory=list)
    #: the kernel may take its plain fast path (bit-identical results, see kernel)
    plain: bool = False
    #: power or perk name -> "edited" or "invented" by the scenario's ``powers:`` block
    talent_status: dict = field(default_factory=dict)

    @property
    def round_cap(self) -> int:
        """Most rounds of one trial (all its fights): the length of ``rounds_hist`` - 1."""
        r = self.rules
        return int(r[K.R_ROUND_CAP] * r[K.R_EPISODES] * r[K.R_FIGHTS_PER_EPISODE])

    @property
    def n(self) -> int:
        return self.comb.shape[0]


def dice(score: int) -> int:
    """Pool size: half the score, rounded up (L17)."""
    return (int(score) + 1) // 2


def thresholds(wmax: int, rule: str) -> tuple[int, int, int]:
    """First wound counts of the 2nd, 3rd and 4th threshold (L33, D2)."""
    if rule == "exact":  # penalty once wounds exceed k quarters of the pool
        return tuple(k * wmax // 4 + 1 for k in (1, 2, 3))
    band = wmax // 4 if rule == "floor" else -(-wmax // 4)
    band = max(band, 1)
    return tuple(k * band + 1 for k in (1, 2, 3))


def _fill_base(row, scores, wmax, resolved):
    for a in range(5):
        row[K.C_SCORE + a] = scores[a]
        row[K.C_DICE + a] = dice(scores[a])
    row[K.C_WMAX] = wmax
    row[K.C_T1], row[K.C_T2], row[K.C_T3] = thresholds(wmax, resolved["threshold_rule"])
    row[K.C_BAND] = max(1, -(-wmax // 4))
    row[K.C_OWNER] = -1
    row[K.C_FAMILIAR] = -1
    row[K.C_START] = 1


def _apply_effects(row, names, attack_kind: str, second_form: str | None = None):
    """Catalog effect codes -> columns and power slots. Returns (familiar params,
    duplication params).

    Static effects (``dice``, ``dr``, ``attack_cost``) go into their columns; a
    mechanic (:data:`.codes.MECHANICS`) into a power slot with its params as the
    slot's numbers (:func:`fill_slots`). ``second_form``: the Dual Weapon's other
    form (the attack cost of that form is the slot's second number)."""
    fam = dup = None
    rows = catalog.by_name()
    slots: dict[str, list[int]] = {}
    form2_cost = 0
    for name in names:
        e = rows[name]
        code, p = e["code"], e.get("params") or {}
        if code == "dice":
            for t in p["tests"]:
                row[C.C_BONUS + TESTS[t]] += p["n"]
        elif code == "dr":
            row[C.C_DR] += p["n"]
        elif code == "attack_cost":
            if p["attack"] == attack_kind:
                row[C.C_ATK_COST] += p["n"]
            if p["attack"] == second_form:
                form2_cost += p["n"]
        elif code == "dual_weapon":
            if second_form is not None:
                slots[code] = [ATTACK_KINDS[second_form] + 1]
        elif code == "familiar":
            fam = p
        elif code in codes.CODE:
            if code == "duplication":
                dup = p
            slots[code] = [int(p[k]) for k in codes.MECHANICS[codes.CODE[code] - 1].params]
        elif code != "none":  # pragma: no cover - catalog.entries() checks codes
            raise AssertionError(code)
    if "dual_weapon" in slots:
        slots["dual_weapon"].append(form2_cost)
    fill_slots(row, slots)
    return fam, dup


def fill_slots(row, slots: dict[str, list[int]]) -> None:
    """Power slots of ``row`` (:mod:`.layout`, one per mechanic): ``{mechanic name: its
    numbers}``; ``C_PMASK`` gets a bit per mechanic."""
    row[C.C_PNUM:C.C_PNUM + C.NNUM * C.MAXP] = 0
    mask = 0
    for name, nums in slots.items():
        code = codes.CODE[name]
        for k, v in enumerate(nums):
            row[C.C_PNUM + k * C.MAXP + code - 1] = v
        mask |= 1 << code
    row[C.C_PMASK] = mask


def slots_of(row) -> dict[str, list[int]]:
    """The used power slots of a ``comb`` row: ``{mechanic name: its numbers}``, in code order."""
    out = {}
    for m in codes.MECHANICS:
        code = codes.CODE[m.name]
        if int(row[C.C_PMASK]) >> code & 1:
            out[m.name] = [int(row[C.C_PNUM + k * C.MAXP + code - 1]) for k in range(len(m.params))]
    return out


def power_number(comb, i: int, name: str, param: str) -> int:
    """The number ``param`` of mechanic ``name`` in row ``i``'s slots (0 without it)."""
    nums = slots_of(comb[i]).get(name)
    if nums is None:
        return 0
    return nums[codes.MECHANICS[codes.CODE[name] - 1].params.index(param)]


def rule_array(resolved: dict) -> np.ndarray:
    """The kernel's ``rules``: the rule options (``R_*``), then the exact chance table
    (``R_CHANCE``, :func:`.kernel.chance_table`) for the success faces in force."""
    table = K.chance_table(resolved["success_face"], resolved["double_face"])
    return np.concatenate([RULES.to_array(resolved), table.ravel()]).astype(np.int64)


def compile(scenario: Scenario) -> Inputs:  # noqa: A001 - the plug-in entry point's name
    """The kernel's arrays of one variant; a ``powers:`` block's rows are the catalog read
    (:mod:`.catalog.edits`), and each entry it edits or invents is named in the notes."""
    cat = scenario.power_catalog()
    with catalog_edits.use(cat):
        inputs = _compile(scenario)
    if cat is not None:
        inputs.notes[:0] = cat.describe()
        inputs.talent_status = dict(cat.status)
    return inputs


def _compile(scenario: Scenario) -> Inputs:
    resolved = scenario.resolved_rules()
    rules = rule_array(resolved)
    mult = resolved["wound_multiplier"]
    rows, pols, names, sides, kinds = [], [], [], [], []
    notes: list[str] = []
    used_default_dr = False

    def new_row():
        r = np.zeros(K.NC, dtype=np.int64)
        rows.append(r)
        return len(rows) - 1, r

    for s, side in enumerate(scenario.sides):
        for m in side.members:
            idx, row = new_row()
            scores = [getattr(m.abilities, a) for a in ABILITIES]
            _fill_base(row, scores, mult * m.abilities.vitality, resolved)
            row[K.C_SIDE] = s
            row[K.C_KIND] = KINDS[m.kind]
            row[K.C_MANA] = m.abilities.magic
            row[K.C_FORT] = m.abilities.luck
            if m.outfit_dr is None:
                used_default_dr = True
            row[K.C_DR] = resolved["default_dr"] if m.outfit_dr is None else m.outfit_dr
            row[K.C_ATK] = ATTACK_KINDS[m.attack_kind]
            row[K.C_MAGIC_WEAPON] = int(m.magic_weapon)  # Barrage (seed 002 L507-511)
            if m.attack_kind == "specialization":
                row[K.C_ATK_COST] = resolved["spec_cost"]
            sp = m.specialization
            row[K.C_SPEC_EFFECT] = int(sp.effect == "penalty")
            row[K.C_SPEC_AREA] = int(sp.area)
            row[K.C_SPEC_PEN] = sp.penalty
            row[K.C_SPEC_ALLIES] = sp.allies_caught
            fam, dup = _apply_effects(row, list(m.powers) + list(m.perks), m.attack_kind, m.second_form)
            row[K.C_CARRY] = int(s == 0)
            row[K.C_PERM_OK] = int(s == 0 or resolved["permanent_npcs"])
            pol = policies.encode(m.effective_policy())
            pols.append(pol)
            names.append(m.name)
            sides.append(s)
            kinds.append(m.kind)
            if dup is not None and m.duplicates > 0:
                row[K.C_COPY0] = len(rows)
                row[K.C_NCOPIES] = m.duplicates
                for k in range(m.duplicates):
                    _, c = new_row()
                    c[:] = row
                    c[K.C_KIND] = K.KIND_COPY
                    c[K.C_OWNER] = idx
                    c[K.C_START] = 0
                    c[K.C_CARRY] = 0
                    c[K.C_PERM_OK] = 0
                    c[K.C_FORT] = 0
                    c[K.C_MANA] = dup["copy_mana"]
                    c[K.C_WMAX] = dup["copy_wounds"]
                    c[K.C_T1] = c[K.C_T2] = c[K.C_T3] = 1 << 30
                    # copies have her stats and perks, not her powers (D23 reading)
                    c[K.C_COPY0] = c[K.C_NCOPIES] = 0
                    fill_slots(c, {name: nums for name, nums in slots_of(row).items()
                                   if codes.MECHANICS[codes.CODE[name] - 1].perk})
                    cp = pol.copy()
                    cp[K.P_DUP] = 0
                    pols.append(cp)
                    names.append(f"{m.name} copy {k + 1}")
                    sides.append(s)
                    kinds.append("copy")
            if fam is not None:
                fidx, f = new_row()
                sc = fam["score"]
                _fill_base(f, [sc] * 5, mult * sc, resolved)
                f[K.C_SIDE] = s
                f[K.C_KIND] = K.KIND_FAMILIAR
                f[K.C_OWNER] = idx
                f[K.C_DR] = resolved["familiar_dr"]
                f[K.C_ATK] = K.ATK_MELEE
                f[K.C_CARRY] = int(s == 0)
                spec = m.familiar
                perk = spec.perk if spec is not None else "bestial_combat"
                if perk == "bestial_combat":
                    f[K.C_BONUS + K.T_MELEE] += fam["bestial_combat"]
                elif perk == "perfect_assistant":
                    fill_slots(f, {"perfect_assistant": [fam["perfect_assistant"]]})
                row[K.C_FAMILIAR] = fidx
                fp = spec.policy if spec is not None else None
                pols.append(policies.encode(fp) if fp is not None else policies.encode(type(m.policy)()))
                names.append(f"{m.name}'s familiar")
                sides.append(s)
                kinds.append("familiar")
    comb = np.stack(rows)
    comb[:, K.C_ORDER] = np.arange(len(rows))
    pol = np.stack(pols)
    _prune(comb, pol)
    if used_default_dr:
        notes.append(f"assumption: outfit DR {resolved['default_dr']} where a member gives none "
                     "(D10: the default outfit is in the main CYOA, not provided)")
    if resolved["permanent_wounds"] == "on":
        lim = resolved["permanent_limit"]
        notes.append("house rule: after a permanent wound she stays in at "
                     + ("pool - 1" if resolved["permanent_after"] == "minus_one" else "one threshold lower")
                     + (f", at most {lim} per fight" if lim >= 0 else ", no limit") + " (D4 ii)")
    if any(k in ("monster_girl", "dark_magical_girl") for k in kinds):
        notes.append("assumption: enemies are built like magical girls (D27: enemy rules not given)")
    return Inputs(
        comb=comb, pol=pol, rules=rules,
        tab=K.success_table(resolved["success_face"], resolved["double_face"]),
        names=names, sides=sides, kinds=kinds, side_names=[sd.name for sd in scenario.sides],
        resolved_rules=resolved, notes=notes, plain=is_plain(comb, pol),
    )


def _prune(comb, pol):
    """Zero policy parameters that can never apply (no healing power, nobody who
    could retreat...), so the kernel skips their checks. Never changes results."""
    for i in range(comb.shape[0]):
        slots = slots_of(comb[i])
        if power_number(comb, i, "regeneration", "action_cost") == 0 and \
                power_number(comb, i, "healing_artifact", "heal") == 0:
            pol[i, K.P_HEAL] = 0
        enemies = comb[:, K.C_SIDE] != comb[i, K.C_SIDE]
        if not (pol[enemies, K.P_RETREAT] > 0).any():
            pol[i, K.P_PURSUE] = 0
        if "duplication" not in slots:
            pol[i, K.P_DUP] = 0
        if "hammerspace" not in slots:
            pol[i, K.P_HAMMER] = 0
        if power_number(comb, i, "tentacles", "grapple") == 0:
            pol[i, K.P_GRAPPLE] = 0
        if "blood_magic" not in slots:
            pol[i, K.P_BLOOD] = 0
        if comb[i, K.C_MANA] == 0:
            pol[i, K.P_RECHARGE] = 0


#: columns that must be 0 on every row for the plain fast path
_POWER_COLUMNS = (K.C_ATK_COST, K.C_NCOPIES)
#: power slots the plain fast path plays (Awareness: initiative is the same function)
_PLAIN_MECHANICS = 1 << codes.E_INITIATIVE_TENS
_POLICY_COLUMNS = (K.P_RETREAT, K.P_HIDE, K.P_HEAL, K.P_AID, K.P_PURSUE, K.P_DUP, K.P_HAMMER, K.P_GRAPPLE)


def is_plain(comb, pol) -> bool:
    """True when the kernel's plain fast path plays this fight exactly (see kernel)."""
    if (comb[:, list(_POWER_COLUMNS)] != 0).any():
        return False
    if (comb[:, K.C_PMASK] & ~_PLAIN_MECHANICS != 0).any():
        return False
    if (comb[:, K.C_ATK] == K.ATK_SPEC).any():
        return False
    if (pol[:, list(_POLICY_COLUMNS)] != 0).any():
        return False
    return bool((pol[:, K.P_TARGETS] == 1).all())
