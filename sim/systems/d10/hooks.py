"""Where d10 powers act: the timing points and the hooks registered at each.

A power or perk with a fight effect fills its mechanic's power slot (:mod:`.layout`:
the mechanic's numbers, and its bit in ``C_PMASK``). It is played by *hook*
functions ``h_<name>`` in :mod:`.powers`, each registered here at a timing
point of the fight, in the order they are tried. The fight reaches a timing
point by calling its dispatcher ``<timing>_hooks`` (lower case, in
:mod:`.powers`), which opens its gate with one test of ``C_PMASK`` against
the timing's mask (derived here from the hooks' codes) and then calls its hooks
in this order; each hook acts only when her slots hold its mechanic.
``tests/test_d10_hooks.py`` holds every dispatcher to this table (the hooks it
calls, in order) and fires a hook at every timing point.

Timing points:

* ``MANA``: mana she may spend beyond her pool (Blood Magic's wounds);
* ``FORM``: the form of her attack (Dual Weapon's free switch, L181);
* ``DECLARE``: the attacker's powers before the roll (Killing Blow, else Focused Assault);
* ``TARGETS``: several targets (Barrage instead of the penalty dice);
* ``TARGETED``: a specialization use aimed at her (Third Eye's penalty);
* ``AREA``: the allies an area use catches (none with Power of Friendship);
* ``AFTER_ATTACK``: after the attack (Killing Blow's defence penalty);
* ``TURN_START``: the start of her turn (Regeneration);
* ``HEAL``: her healing action (Regeneration's, else a Healing Artifact on an ally);
* ``SUMMON``: her copies (Duplication);
* ``ACTION``: an action before her attack (Hammerspace, Tentacles);
* ``HIDE``: the Hide test (a Disguise Artifact's dice);
* ``AID``: the dice an Aid gives (Power of Friendship, a Perfect Assistant);
* ``INITIATIVE``: her initiative roll (Awareness).

A new mechanic is a :class:`.codes.Mechanic` row (its code and numbers), a
catalog row using it, a hook ``h_<name>`` in :mod:`.powers` registered below,
its call in the timing's dispatcher, and a scripted test.
"""
from __future__ import annotations

from dataclasses import dataclass

from .codes import (E_BARRAGE, E_BLOOD_MAGIC, E_DISGUISE_ARTIFACT, E_DUAL_WEAPON, E_DUPLICATION,
                    E_FOCUSED_ASSAULT, E_FRIENDSHIP, E_HAMMERSPACE, E_HEALING_ARTIFACT, E_INITIATIVE_TENS,
                    E_KILLING_BLOW, E_PERFECT_ASSISTANT, E_REGENERATION, E_TENTACLES, E_THIRD_EYE)


@dataclass(frozen=True)
class Hook:
    """A hook: its timing point, its name (the function ``h_<name>``) and the mechanic
    code whose slot opens it."""

    timing: str
    name: str
    code: int


HOOKS: tuple[Hook, ...] = (
    Hook("MANA", "blood_magic", E_BLOOD_MAGIC),
    Hook("FORM", "dual_weapon", E_DUAL_WEAPON),
    Hook("DECLARE", "killing_blow", E_KILLING_BLOW),
    Hook("DECLARE", "focused_assault", E_FOCUSED_ASSAULT),
    Hook("TARGETS", "barrage", E_BARRAGE),
    Hook("TARGETED", "third_eye", E_THIRD_EYE),
    Hook("AREA", "friendship_area", E_FRIENDSHIP),
    Hook("AFTER_ATTACK", "killing_blow_after", E_KILLING_BLOW),
    Hook("TURN_START", "regeneration", E_REGENERATION),
    Hook("HEAL", "regeneration_action", E_REGENERATION),
    Hook("HEAL", "healing_artifact", E_HEALING_ARTIFACT),
    Hook("SUMMON", "duplication", E_DUPLICATION),
    Hook("ACTION", "hammerspace", E_HAMMERSPACE),
    Hook("ACTION", "tentacles", E_TENTACLES),
    Hook("HIDE", "disguise_artifact", E_DISGUISE_ARTIFACT),
    Hook("AID", "friendship", E_FRIENDSHIP),
    Hook("AID", "perfect_assistant", E_PERFECT_ASSISTANT),
    Hook("INITIATIVE", "awareness", E_INITIATIVE_TENS),
)

#: timing points in the order of the table
TIMINGS: tuple[str, ...] = tuple(dict.fromkeys(h.timing for h in HOOKS))


def at(timing: str) -> tuple[Hook, ...]:
    """The hooks of a timing point, in order."""
    return tuple(h for h in HOOKS if h.timing == timing)


def gate(timing: str) -> int:
    """``C_PMASK`` bits that open ``timing``: one per hook's mechanic."""
    m = 0
    for h in at(timing):
        m |= 1 << h.code
    return m


#: the gate of each timing point (``<TIMING>_GATE``)
MANA_GATE, FORM_GATE, DECLARE_GATE, TARGETS_GATE, TARGETED_GATE, AREA_GATE, AFTER_ATTACK_GATE, \
    TURN_START_GATE, HEAL_GATE, SUMMON_GATE, ACTION_GATE, HIDE_GATE, AID_GATE, INITIATIVE_GATE = \
    (gate(t) for t in TIMINGS)
assert TIMINGS == ("MANA", "FORM", "DECLARE", "TARGETS", "TARGETED", "AREA", "AFTER_ATTACK", "TURN_START", "HEAL",
                   "SUMMON", "ACTION", "HIDE", "AID", "INITIATIVE"), "the gates' names follow TIMINGS"
