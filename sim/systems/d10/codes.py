"""The d10 kernel's named values: abilities, tests, kinds, policy choices, states,
rule values and the power mechanics (the codes of :mod:`.layout`'s power slots).

Columns are declared in :mod:`.layout`; these are the values they hold.
Each group is one ``range`` over its names, so no number is written by hand.
"""
from __future__ import annotations

from dataclasses import dataclass

# ---------------------------------------------------------------- abilities (L15) and tests
STR, AGI, VIT, MAG, LCK = range(5)
TEST_NAMES = ("melee", "ranged", "mystic", "spec", "initiative", "dodge", "parry", "block", "luck", "hide",
              "retreat", "pursue", "aid", "escape", "grapple")
(T_MELEE, T_RANGED, T_MYSTIC, T_SPEC, T_INIT, T_DODGE, T_PARRY, T_BLOCK, T_LUCK, T_HIDE, T_RETREAT, T_PURSUE,
 T_AID, T_ESCAPE, T_GRAPPLE) = range(len(TEST_NAMES))
NT = len(TEST_NAMES)
#: attack kinds (L75) = their test
ATK_MELEE, ATK_RANGED, ATK_MYSTIC, ATK_SPEC = T_MELEE, T_RANGED, T_MYSTIC, T_SPEC

# ---------------------------------------------------------------- combatants
KIND_GIRL, KIND_MONSTER, KIND_DARK, KIND_FAMILIAR, KIND_COPY = range(5)
OUT_IN, OUT_KO, OUT_DEAD, OUT_FLED = range(4)
HELD_NONE, HELD_SPELL, HELD_GRAPPLE, HELD_PIN = range(4)

# ---------------------------------------------------------------- policy values (:mod:`.policies`)
TARGET_WEAKEST, TARGET_RANDOM, TARGET_LISTED, TARGET_STRONGEST = range(4)
DEF_BEST, DEF_DODGE, DEF_LUCK, DEF_PARRY, DEF_BLOCK, DEF_PARRY_MELEE = range(6)
FORT_NEVER, FORT_ALWAYS, FORT_DEFENCE, FORT_RESCUE = range(4)
#: P_ESCAPE: attack through every hold; pull free whenever held (the old default); pull free
#: only when the hold costs at least half her attack dice (:func:`.turn.escape_pays`)
ESC_NEVER, ESC_ALWAYS, ESC_REASONED = range(3)
#: P_GRAPPLE: Tentacles never; grapple whenever the target is not held by her (then attack);
#: ... and pin a target she has grappled; grapple when it takes at least as often as her
#: attack hits (:func:`.powers.grapple_pays`)
GRAPPLE_NEVER, GRAPPLE_ALWAYS, GRAPPLE_PIN, GRAPPLE_REASONED = range(4)
#: which held targets a penalty spell passes over (:func:`.defence.spell_free`): none; those a
#: spell holds at least as strongly (policy recast_held: false); every one (rule recast: forbid)
SKIP_NONE, SKIP_AS_STRONG, SKIP_HELD = range(3)

# ---------------------------------------------------------------- rule values (index in the option's choices)
BLOCK_MANA_ANY, BLOCK_MANA_ATTACKS = range(2)        # block_mana_on
HOLD_ENDS_ESCAPE, HOLD_ENDS_HOLDER_OUT = range(2)    # hold_ends
RECAST_KEEP_HIGHER, RECAST_REPLACE, RECAST_FORBID = range(3)  # recast
STORED_OUT, STORED_IN = range(2)                     # hammerspace_stored


# ---------------------------------------------------------------- power mechanics (slots, :mod:`.hooks`)
@dataclass(frozen=True)
class Mechanic:
    """A power's or perk's fight effect that a slot holds: its name (the catalog's
    ``code``), whether a Duplication copy keeps it (perks: yes; powers: no, D23
    reading), and the catalog params that become the slot's numbers, in order."""

    name: str
    perk: bool
    params: tuple = ()


MECHANICS: tuple[Mechanic, ...] = (
    Mechanic("killing_blow", False, ("cost", "penalty", "fail_multiplier")),
    Mechanic("focused_assault", False, ("cost",)),
    Mechanic("barrage", False, ("cost",)),
    Mechanic("friendship", False, ("aid_multiplier", "aid_received")),
    Mechanic("duplication", False, ("cost_per_copy",)),
    Mechanic("third_eye", False, ("penalty",)),
    Mechanic("regeneration", False, ("wounds", "mana", "action_cost")),
    Mechanic("tentacles", False, ("grapple", "pin")),
    Mechanic("hammerspace", False, ("defence_bonus",)),
    Mechanic("blood_magic", True),
    Mechanic("healing_artifact", True, ("cost", "heal")),
    Mechanic("disguise_artifact", True, ("cost", "dice")),
    Mechanic("initiative_tens", True),
    Mechanic("dual_weapon", True, ("form", "cost")),
    Mechanic("perfect_assistant", True, ("dice",)),
)
#: the code of each mechanic: E_<NAME> = its place + 1 (0 is an empty slot)
CODE = {m.name: k + 1 for k, m in enumerate(MECHANICS)}
(E_KILLING_BLOW, E_FOCUSED_ASSAULT, E_BARRAGE, E_FRIENDSHIP, E_DUPLICATION, E_THIRD_EYE, E_REGENERATION,
 E_TENTACLES, E_HAMMERSPACE, E_BLOOD_MAGIC, E_HEALING_ARTIFACT, E_DISGUISE_ARTIFACT, E_INITIATIVE_TENS,
 E_DUAL_WEAPON, E_PERFECT_ASSISTANT) = (CODE[m.name] for m in MECHANICS)
#: PMASK bits of the perks (a copy keeps them)
PERK_MASK = sum(1 << CODE[m.name] for m in MECHANICS if m.perk)
assert all(globals()[f"E_{m.name.upper()}"] == CODE[m.name] for m in MECHANICS), "E_* out of MECHANICS order"

#: what ``from .codes import *`` gives: the named values (not the helpers)
__all__ = sorted([k for k, v in list(globals().items()) if k.isupper() and isinstance(v, int)] + ["TEST_NAMES"])
