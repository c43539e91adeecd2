"""Where talents act: the timing points of a fight and the hooks registered at each.

A talent's mechanic (its catalog row's ``mechanic: {code: ...}``, :mod:`.talents`)
is played by *hook* functions ``h_<name>(a, b, c, w)`` in its talent module
(:mod:`.talents`), each registered here, as a :class:`Hook` row, at a
:class:`Timing` point of the fight, in the order they are tried. When the fight
reaches a timing point it calls, in order, every hook whose *gate* is open
(:mod:`.points`): the effect codes of the hook's row, met in the talent masks of
the combatant its ``scope`` names (``C_TMASK`` / ``C_TMASK2``, or her side's
``C_SIDEMASK`` / ``C_SIDEMASK2``, or her enemies' ``C_FOEMASK``), and, for a hook
with an ``armed`` state, a state column that is set (a Reflector borne, a Life
Bomb placed). A combatant whose talents open no gate pays one test, not a call.

Everything else is derived from the rows: each timing point's slots in the
procedure table (``rules[PR_<TIMING> + k]`` holds the k-th hook's address; every
timing point has :data:`ROOM` slots, so a new hook moves no other slot), its
gates (:func:`gate_row`), which :mod:`.gates` turns into each combatant's hook
bits when a scenario is compiled (``C_HOOKS``: which hooks of each timing point
may open for her) and into the armed states of the slots (``rules[ARM_<TIMING>
+ k]``). A timing point's loop (:mod:`.points`) visits only the set bits.
:mod:`.registry` puts a hook's function in its slot only for a scenario whose
talents need it. A hook added at a timing point moves no slot and changes no
kernel: only its own module compiles.

A new mechanic is its catalog row, its hook functions in its talent module and
one row here per hook (docs/engine.md section 6).
"""
from __future__ import annotations

from dataclasses import dataclass

from . import codes as E

#: a gate that opens for any talent at all
ANY = -1
#: hook slots per timing point in the procedure table (a timing point holds at most this many hooks)
ROOM = 32
#: the fields of a gate row (:func:`gate_row`): the masks of ``a`` (her own, low and high word), of
#: her side, of ``b`` and of his side, of ``a``'s enemies (low word), then the armed state
#: (column or -1, whose row: 0 ``a`` / 1 ``b``, its value when not armed)
GATE_FIELDS = ("a_lo", "a_hi", "a_side_lo", "a_side_hi", "b_lo", "b_hi", "b_side_lo", "b_side_hi", "a_foes_lo",
               "always", "armed_col", "armed_who", "armed_off")
#: whose talent masks open a hook's gate
SCOPES = ("a", "a_side", "b", "b_side", "a_foes")


@dataclass(frozen=True)
class Timing:
    """A timing point: where the fight asks for hooks, what ``a``, ``b`` and ``c`` carry,
    and how the hooks' returns combine (``first``: the first nonzero return is the
    answer, the rest are not called; ``all``: every open hook is called; ``sum``: the
    returns add up; ``chain``: each hook gets ``c`` as the last one left it and returns
    it, an amount of damage for instance)."""

    name: str
    combine: str
    args: str
    doc: str
    b_row: bool = True  # ``b`` is a combatant (its hooks may be gated on b's talents)


@dataclass(frozen=True)
class Hook:
    """A hook: its timing point, its name (the function ``h_<name>`` of a talent module),
    the effect codes that open its gate (any of them; ``(ANY,)`` any talent), whose talent
    masks those are (``scope``: one of :data:`SCOPES`, or a tuple of them), and an ``armed``
    state ``(column, "a" | "b", value)``: the hook is called only while that column of
    ``a``'s or ``b``'s row differs from the value (``None``: no such test). ``always``: no
    mask test, the armed state alone opens the gate (an effect that outlives its giver's
    talents: the draft's Hexes; Intercept, a rule of the geometries with places, whose
    ``codes`` are empty); the scenario still needs the hook only when someone holds one of
    ``codes`` (:mod:`.registry`)."""

    timing: str
    name: str
    codes: tuple
    scope: str | tuple = "a"
    armed: tuple | None = None
    always: bool = False


TIMING_POINTS: tuple[Timing, ...] = (
    # the turn
    Timing("TURN_START", "all", "a: whose turn", "the start of her turn: the draft's Empower, Regeneration"),
    Timing("AILMENTS", "first", "a: whose turn", "her ailments at the start of her turn: 1 when a talent removed them "
           "(Remedy), else the removal roll"),
    Timing("MINOR", "first", "a: whose turn", "her Minor action from a talent: 1 used, 2 used and another Minor "
           "(Steal Action)"),
    Timing("MAJOR", "first", "a: whose turn", "her Major action from a talent instead of the attack: 1 used"),
    Timing("EXTRA_TURNS", "sum", "a: whose turn", "turns she takes after this one (Extra Action)"),
    # the round
    Timing("ROUND_START", "all", "a: each combatant", "the start of a round, before Bleed: Shrug Off"),
    Timing("SCENE_END", "all", "a: each combatant", "the end of a scene (a fight): Overcharge Radiation"),
    Timing("ROUND_EFFECTS", "sum", "a: each combatant", "the start of a round, after Bleed: the draft's Regeneration "
           "and Hexes; nonzero when damage was dealt"),
    # the attack: a attacks b
    Timing("DECLARE", "all", "a: the attacker, b: the target", "before the roll: what her talents add (into her "
           "D_ATK_BONUS, D_DMG_BONUS; the talent whose Major the attack is in D_RIDER, its dice on a hit in "
           "D_HIT_DICE, D_HIT_PLUS)"),
    Timing("DEFENCE_DICE", "sum", "a: the attacker, b: the defender", "extra exploding dice on b's defence roll"),
    Timing("REROLL", "first", "a: the attacker", "a missed attack may be re-rolled: 1 when a talent paid for it"),
    Timing("EVASION", "first", "a: the attacker, b: the defender, c: attack total - defence total", "after a hit "
           "before damage: 1 when a talent turns it into a miss"),
    Timing("DAMPEN_ROLL", "all", "a: the roller", "a die of her magical roll showed 1"),
    Timing("MISS", "all", "a: the attacker, b: the defender", "b's defence beat a's attack"),
    Timing("ALL_IN", "sum", "a: the attacker", "damage added to her hit after the roll"),
    Timing("DAMAGE", "chain", "a: the attacker, b: the target, c: the damage", "the hit's damage before the minimum"),
    Timing("INTERCEPT", "chain", "a: the attacker, b: the target, c: the damage", "an ally may take the hit (L1469)"),
    Timing("INTERCEPTED", "chain", "a: the interceptor, b: the attacker, c: her share", "the share of a hit an "
           "interceptor takes (L1469), under intercept_reductions: target (else she goes through REDUCE)"),
    Timing("REDUCE", "chain", "a: the target, b: the attacker, c: the damage", "the hit's reductions on the target"),
    Timing("LAND", "chain", "a: the attacker, b: the target, c: the damage", "the hit is about to be dealt"),
    Timing("HIT", "all", "a: the attacker, b: the target, c: the damage dealt", "the hit was dealt"),
    Timing("AFTER_ATTACK", "all", "a: the attacker, b: the target, c: 1 hit / 0 miss", "the attack is over"),
    # damage taken, dropping, appearing
    Timing("LINK_DAMAGE", "all", "a: the target, c: the damage", "a is about to take damage"),
    Timing("DROP", "all", "a: who dropped", "a dropped to 0 Resolve (or was lost to a burst standing): what ends"),
    Timing("BROOD", "first", "a: the monster", "a monster at 0: 1 when a talent keeps it in the fight"),
    Timing("DEATH", "all", "a: the monster", "a monster died"),
    Timing("APPEAR", "all", "a: the row", "a reserve row appeared"),
    Timing("BACK", "all", "a: the girl", "a downed girl stands again"),
    # overcharge
    Timing("GAIN", "chain", "a: the girl, b: the stat, c: the amount", "a girl is about to take overcharge (a roll's "
           "sixes, a talent's cost): the amount she takes", b_row=False),
)

HOOKS: tuple[Hook, ...] = (
    # the turn
    Hook("TURN_START", "empower", (E.E_MOOD,)),
    Hook("TURN_START", "regeneration", (E.E_REGEN,)),
    Hook("AILMENTS", "remedy_self", (E.E_REMEDY,)),
    # the Minor action: the first that acts
    Hook("MINOR", "sorcery_turn", (E.E_SORCERY,)),
    Hook("MINOR", "heal", (E.E_HEAL, E.E_SECOND_WIND)),
    Hook("MINOR", "hex", (E.E_HEX,)),
    Hook("MINOR", "rouse", (E.E_MOOD,)),
    Hook("MINOR", "minion_creation", (E.E_MINION_CREATION,)),
    Hook("MINOR", "marionette", (E.E_MARIONETTE,)),
    Hook("MINOR", "veil", (E.E_VEIL,)),
    Hook("MINOR", "rough_going", (E.E_ROUGH_GOING,)),
    Hook("MINOR", "mines", (E.E_MINES,)),
    Hook("MINOR", "barrier", (E.E_BARRIER,)),
    Hook("MINOR", "hate_heal", (E.E_HATE,)),
    Hook("MINOR", "remedy", (E.E_REMEDY,)),
    Hook("MINOR", "curse", (E.E_CURSE,)),
    Hook("MINOR", "steal", (E.E_STEAL_ACTION,)),
    Hook("MINOR", "amplify", (E.E_AMPLIFY,)),
    Hook("MINOR", "link", (E.E_LINK,)),
    Hook("MINOR", "sorcery_minor", (E.E_SORCERY,)),
    # the Major action: the first that acts
    Hook("MAJOR", "sorcery_major", (E.E_SORCERY,)),
    Hook("MAJOR", "group_heal", (E.E_GROUP_HEAL,)),
    Hook("MAJOR", "scream", (E.E_SCREAM,)),
    Hook("MAJOR", "gravity", (E.E_GRAVITY,)),
    Hook("MAJOR", "area_attack", (E.E_AREA_ATTACK,)),
    Hook("MAJOR", "scatter", (E.E_SCATTER,)),
    Hook("MAJOR", "life_bomb", (E.E_LIFE_BOMB,)),
    Hook("MAJOR", "curse_shift", (E.E_CURSE_SHIFT,)),
    Hook("MAJOR", "implode", (E.E_IMPLODE,)),
    Hook("EXTRA_TURNS", "extra_action", (E.E_EXTRA_TURN,)),
    # the round
    Hook("ROUND_START", "shrug_off", (E.E_SHRUG_OFF,)),
    Hook("SCENE_END", "radiation", (E.E_RADIATION,)),
    Hook("ROUND_EFFECTS", "regenerate", (E.E_REGEN,), armed=("D_REGEN", "a", 0)),
    Hook("ROUND_EFFECTS", "hexes", (E.E_HEX,), armed=("D_HEXES", "a", 0), always=True),
    # the attack: before the roll, in this order (the first of Killing Blow, the ambush, Minion
    # Explosion, Magic Detonation, an ailment attack, Follow Up and Make an Opening is her Major)
    Hook("DECLARE", "all_in_before", (E.E_ALL_OR_NOTHING,)),
    Hook("DECLARE", "low_resolve", (E.E_LOW_RESOLVE,)),
    Hook("DECLARE", "follow_target", (E.E_FOLLOW_TARGET,)),
    Hook("DECLARE", "killing_blow", (E.E_KILLING_BLOW,)),
    Hook("DECLARE", "ambush", (E.E_AMBUSH,), armed=("D_AMBUSH", "a", 0)),
    Hook("DECLARE", "minion_explosion", (E.E_MINION_EXPLOSION,)),
    Hook("DECLARE", "detonation", (E.E_DETONATION,)),
    Hook("DECLARE", "attack_ailment", (E.E_ATTACK_AILMENT,)),
    Hook("DECLARE", "follow_up", (E.E_FOLLOW_UP,)),
    Hook("DECLARE", "opening", (E.E_OPENING,)),
    Hook("DECLARE", "hate", (E.E_HATE,)),
    Hook("DECLARE", "friends", (E.E_FRIENDS,)),
    Hook("DECLARE", "belkan", (E.E_BELKAN,), armed=("D_BELKAN", "a", 0)),
    Hook("DECLARE", "opened", (E.E_OPENING,), "a_side"),
    Hook("DECLARE", "veiled", (E.E_VEIL,), "b"),
    Hook("DEFENCE_DICE", "defence_dice", (E.E_DEFENCE_DIE,), "b"),
    Hook("REROLL", "reroll", (E.E_REROLL,)),
    Hook("EVASION", "evasion", (E.E_EVASION,), "b"),
    Hook("DAMPEN_ROLL", "power_dampening", (E.E_POWER_DAMPENING,)),
    Hook("MISS", "aura_of_strength", (E.E_AURA_STRENGTH,), "b"),
    Hook("ALL_IN", "all_in_after", (E.E_ALL_OR_NOTHING,)),
    Hook("DAMAGE", "detonation_damage", (E.E_DETONATION,)),
    Hook("DAMAGE", "possessed", (E.E_POSSESSION,), "b"),
    Hook("INTERCEPT", "intercept", (), armed=("D_GUARD", "b", -1), always=True),
    Hook("INTERCEPTED", "armour_share", (E.E_ARMOUR,)),  # 'each time the monster takes damage from an attack' (L1997)
    Hook("REDUCE", "armour", (E.E_ARMOUR,)),
    Hook("REDUCE", "shield", (E.E_SHIELD,), "a_side"),
    Hook("REDUCE", "reflect", (E.E_REFLECTOR,), "a_side", armed=("D_REFLECT_BY", "a", -1)),
    Hook("LAND", "drain", (E.E_DRAIN,)),
    Hook("HIT", "follow_up_mark", (E.E_FOLLOW_UP,), "a_side"),
    Hook("HIT", "life_bomb_off", (E.E_LIFE_BOMB,), "b", armed=("D_BOMB", "b", 0)),
    Hook("HIT", "implode_back", (ANY,), "b_side", armed=("D_IMPLODE_BY", "a", -1)),
    Hook("HIT", "drain_heal", (E.E_DRAIN,), armed=("D_DRAIN", "a", -1)),
    Hook("HIT", "ailment_given", (E.E_ATTACK_AILMENT,)),
    Hook("HIT", "belkan_store", (E.E_BELKAN,)),
    Hook("HIT", "opening_made", (E.E_OPENING,)),
    Hook("HIT", "inflict", (E.E_INFLICT,)),
    Hook("HIT", "seal_magic", (E.E_SEAL_MAGIC,)),
    Hook("AFTER_ATTACK", "follow_target_count", (E.E_FOLLOW_TARGET,)),
    Hook("AFTER_ATTACK", "backlash", (E.E_BACKLASH,), "b"),
    Hook("AFTER_ATTACK", "disruptive", (E.E_DISRUPTIVE,)),
    # damage taken, dropping, appearing
    Hook("LINK_DAMAGE", "link_damage", (E.E_LINK,), "a_foes", armed=("D_LINK_DMG", "a", 0)),
    Hook("LINK_DAMAGE", "possession_host", (E.E_POSSESSION,)),
    Hook("DROP", "amplify_ends", (E.E_AMPLIFY,), ("a_side", "a_foes")),
    Hook("DROP", "courage_ends", (E.E_COURAGE,)),
    Hook("BROOD", "undying_brood", (E.E_BROOD,)),
    Hook("DEATH", "fear_ends", (E.E_FEAR_AURA,)),
    Hook("APPEAR", "fear_begins", (E.E_FEAR_AURA,)),
    Hook("BACK", "courage_back", (E.E_COURAGE,)),
    # overcharge
    Hook("GAIN", "dampen_overcharge", (E.E_DAMPEN_OC,), "a_side"),
)

#: the timing points by name, in the order their slots sit in the table
TIMINGS: tuple[str, ...] = tuple(t.name for t in TIMING_POINTS)
BY_NAME = {t.name: t for t in TIMING_POINTS}


def at(timing: str) -> tuple[Hook, ...]:
    """The hooks of a timing point, in order."""
    return tuple(h for h in HOOKS if h.timing == timing)


def masks(codes) -> tuple[int, int]:
    """``(low word, high word)`` of effect ``codes``: bit ``code`` of ``C_TMASK`` for codes below
    ``E_MORE``, bit ``code - 64`` of ``C_TMASK2`` from 64; ``ANY``: every bit."""
    lo = hi = 0
    for c in codes:
        if c == ANY:
            lo |= (1 << 62) - 1
            hi |= (1 << 62) - 1
        elif c < E.E_MORE:
            lo |= 1 << c
        else:
            hi |= 1 << (c - 64)
    return lo, hi


def gate_row(h: Hook, columns: dict[str, int]) -> tuple[int, ...]:
    """Hook ``h``'s gate as the :data:`GATE_FIELDS` (``columns``: ``{"D_<name>": column}`` of the
    layout, to resolve an armed state's column)."""
    lo, hi = masks(h.codes)
    row = dict.fromkeys(GATE_FIELDS, 0)
    for scope in (h.scope,) if isinstance(h.scope, str) else h.scope:
        if scope not in SCOPES:
            raise ValueError(f"hook {h.timing}/{h.name}: scope {scope!r} is not one of {SCOPES}")
        if scope == "a_foes":
            if hi:
                raise ValueError(f"hook {h.timing}/{h.name}: C_FOEMASK holds codes below 62 only")
            row["a_foes_lo"] |= lo
        else:
            row[f"{scope}_lo"] |= lo
            row[f"{scope}_hi"] |= hi
    row["always"] = 1 if h.always else 0
    if h.always and h.armed is None:
        raise ValueError(f"hook {h.timing}/{h.name}: an 'always' hook needs an armed state")
    row["armed_col"] = -1
    if h.armed is not None:
        col, who, off = h.armed
        row["armed_col"] = columns[col]
        row["armed_who"] = {"a": 0, "b": 1}[who]
        row["armed_off"] = off
    return tuple(row[f] for f in GATE_FIELDS)


def union(rows) -> tuple[int, ...]:
    """A gate that opens when any of ``rows`` might (their masks OR-ed; no armed state)."""
    out = [0] * len(GATE_FIELDS)
    for r in rows:
        for k in range(10):
            out[k] |= r[k]
    out[10] = -1
    return tuple(out)


def check() -> None:
    """Refuse a table the engine cannot play: an unknown timing point, two hooks of one name at one
    timing point, more hooks than :data:`ROOM`."""
    for h in HOOKS:
        if h.timing not in BY_NAME:
            raise ValueError(f"hook {h.name}: no timing point {h.timing!r} (hooks.TIMING_POINTS)")
    for h in HOOKS:
        if h.armed is not None and h.armed[2] not in (0, -1):
            raise ValueError(f"hook {h.timing}/{h.name}: an armed state is 'differs from 0' or 'from -1'")
        scopes = (h.scope,) if isinstance(h.scope, str) else h.scope
        if not BY_NAME[h.timing].b_row and (any(sc.startswith("b") for sc in scopes) or
                                             (h.armed is not None and h.armed[1] == "b")):
            raise ValueError(f"hook {h.timing}/{h.name}: b is not a combatant at {h.timing}")
    for t in TIMINGS:
        names = [h.name for h in at(t)]
        if len(set(names)) != len(names):
            raise ValueError(f"timing point {t}: two hooks of one name")
        if len(names) > ROOM:
            raise ValueError(f"timing point {t}: {len(names)} hooks, room for {ROOM}")


check()
