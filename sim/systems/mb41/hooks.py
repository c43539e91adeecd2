"""Where talents act: the timing points and the hooks registered at each.

A talent's mechanic (its catalog row's ``mechanic: {code: ...}``, :mod:`.talents`)
is played by *hook* functions, each registered here at a timing point of the
fight, in the order they are tried. The fight reaches a timing point, asks
which hooks the acting combatant's talents hold (the hook's gate: effect codes
in her ``C_TMASK`` / ``C_TMASK2``) and calls them through the procedure table
(:mod:`.world`), so a scenario compiles only the hooks its talents need
(:mod:`.registry`), and the gates (``MINOR_GATES``...) are derived from this
list, not kept by hand.

Timing points (``rules[PR_<TIMING> + k]`` holds the k-th hook's address):

* ``MINOR``: her Minor action from a talent, the first hook that acts wins
  (returns 1, or 2 for "another Minor": Steal Action);
* ``MAJOR``: a Major action from a talent instead of the basic attack;
* attack riders, one hook each: ``DECLARE`` (the attacker's talents before the
  roll, :func:`.kernel.declare_riders`), ``EVASION`` (the defender after a hit),
  ``DAMPEN_ROLL`` (Power Dampening on a rolled 1), ``MISS`` (Aura of Strength),
  ``ALL_IN`` (All or Nothing after a hit), ``REDUCE`` (Thick Hide, Shield,
  Bulwark), ``REFLECT`` (Reflector), ``AFTER_HIT`` (the target's side after the
  damage), ``INFLICT``, ``SEAL``, ``BACKLASH``, ``DISRUPTIVE``;
* reactions: ``INTERCEPT`` (an ally takes the hit, L1469);
* damage taken: ``LINK_DAMAGE`` (the draft's Link), ``BROOD`` (Undying Brood),
  ``DROP_EFFECTS`` (auras and marks that end when she drops).

A new mechanic is its catalog row, a code in :mod:`.codes` and a hook function
named ``h_<name>`` (the world's signature, :mod:`.world`) registered below.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import codes as E

#: a gate that opens for any talent at all (``C_TMASK != 0``, or her side's for side gates)
ANY = -1


@dataclass(frozen=True)
class Hook:
    """A hook: its timing point, its name (the function ``h_<name>``), the effect
    codes that open its gate (any of them; ``(ANY,)`` any talent), and what its
    three int arguments carry."""

    timing: str
    name: str
    codes: tuple
    args: str = "i"


HOOKS: tuple[Hook, ...] = (
    # the Minor action (kernel.minor_talent): the first that acts
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
    # the Major action (kernel.major_talent): the first that acts
    Hook("MAJOR", "sorcery_major", (E.E_SORCERY,)),
    Hook("MAJOR", "group_heal", (E.E_GROUP_HEAL,)),
    Hook("MAJOR", "scream", (E.E_SCREAM,)),
    Hook("MAJOR", "gravity", (E.E_GRAVITY,)),
    Hook("MAJOR", "area_attack", (E.E_AREA_ATTACK,)),
    Hook("MAJOR", "scatter", (E.E_SCATTER,)),
    Hook("MAJOR", "life_bomb", (E.E_LIFE_BOMB,)),
    Hook("MAJOR", "curse_shift", (E.E_CURSE_SHIFT,)),
    Hook("MAJOR", "implode", (E.E_IMPLODE,)),
    # attack riders (kernel.attack)
    Hook("DECLARE", "declare", (E.E_ALL_OR_NOTHING, E.E_LOW_RESOLVE, E.E_FOLLOW_TARGET, E.E_KILLING_BLOW,
                                E.E_AMBUSH, E.E_MINION_EXPLOSION, E.E_DETONATION, E.E_ATTACK_AILMENT,
                                E.E_FOLLOW_UP, E.E_OPENING, E.E_HATE, E.E_FRIENDS, E.E_BELKAN),
         "attacker i, target t"),
    Hook("EVASION", "evasion", (E.E_EVASION,), "defender t, attack total, defence total"),
    Hook("DAMPEN_ROLL", "power_dampening", (E.E_POWER_DAMPENING,), "the roller"),
    Hook("MISS", "aura_of_strength", (E.E_AURA_STRENGTH,), "defender t, attacker i"),
    Hook("ALL_IN", "all_in_after", (E.E_ALL_OR_NOTHING,), "attacker i"),
    Hook("REDUCE", "reduce_damage", (E.E_ARMOUR, E.E_SHIELD), "target t, -, damage"),
    Hook("REFLECT", "reflect", (E.E_REFLECTOR,), "attacker i, target t, damage"),
    Hook("AFTER_HIT", "after_hit", (ANY,), "attacker i, target t, damage dealt"),
    Hook("INFLICT", "inflict", (E.E_INFLICT,), "attacker i, target t"),
    Hook("SEAL", "seal_magic", (E.E_SEAL_MAGIC,), "attacker i, target t"),
    Hook("BACKLASH", "backlash", (E.E_BACKLASH,), "attacker i, target t, hit"),
    Hook("DISRUPTIVE", "disruptive", (E.E_DISRUPTIVE,), "attacker i, target t"),
    # reactions
    Hook("INTERCEPT", "intercept", (), "attacker i, target t, damage"),
    # damage taken
    Hook("LINK_DAMAGE", "link_damage", (E.E_LINK,), "target t, -, damage"),
    Hook("BROOD", "undying_brood", (E.E_BROOD,), "the dropped monster t"),
    Hook("DROP_EFFECTS", "drop_effects", (ANY,), "the dropped combatant t"),
)

#: timing points in the order their slots sit in the table
TIMINGS: tuple[str, ...] = tuple(dict.fromkeys(h.timing for h in HOOKS))


def at(timing: str) -> tuple[Hook, ...]:
    """The hooks of a timing point, in order."""
    return tuple(h for h in HOOKS if h.timing == timing)


def gates(timing: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per hook of ``timing``: its gate bits in ``C_TMASK`` (codes below ``E_MORE``)
    and in ``C_TMASK2`` (codes from 64, bit ``code - 64``)."""
    lo, hi = [], []
    for h in at(timing):
        m1 = m2 = 0
        for c in h.codes:
            if c == ANY:
                m1 |= (1 << 62) - 1
                m2 |= (1 << 62) - 1
            elif c < E.E_MORE:
                m1 |= 1 << c
            else:
                m2 |= 1 << (c - 64)
        lo.append(m1)
        hi.append(m2)
    return tuple(lo), tuple(hi)


MINOR_GATES, MINOR_GATES2 = gates("MINOR")
MAJOR_GATES, MAJOR_GATES2 = gates("MAJOR")
#: any Minor / Major hook at all (one test before the loop)
MINOR_GATE = 0
MINOR_GATE2 = 0
for _m in MINOR_GATES:
    MINOR_GATE |= _m
for _m in MINOR_GATES2:
    MINOR_GATE2 |= _m
MAJOR_GATE = 0
MAJOR_GATE2 = 0
for _m in MAJOR_GATES:
    MAJOR_GATE |= _m
for _m in MAJOR_GATES2:
    MAJOR_GATE2 |= _m
N_MINOR = len(MINOR_GATES)
N_MAJOR = len(MAJOR_GATES)
#: the attacker's talents that declare something before the roll (kernel.declare_riders)
(DECLARE_GATE,), (DECLARE_GATE2,) = gates("DECLARE")
#: a hit's reductions: Thick Hide on the target, Shield / Bulwark on her side (``C_SIDEMASK``,
#: the first mask word only: a reduction with a code from 64 would need the gate widened)
(REDUCE_GATE,), (_REDUCE_HIGH,) = gates("REDUCE")
if _REDUCE_HIGH:
    raise ValueError("hooks: a REDUCE code from 64 up; kernel.hit_damage tests C_SIDEMASK only")
