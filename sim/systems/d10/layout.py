"""The d10 kernel's declared layout: every column of every kernel array.

The only module that declares a column (``tests/test_structure.py`` checks
that no other module of the package assigns a ``C_``, ``P_``, ``D_``, ``K_``,
``F_``, ``S_`` or ``R_`` constant, that every declared field is read and that
the sections tile their arrays). The kernels read these constants (``from
.layout import *``); :func:`sim.layout.Section.rows` gives the tables.

Arrays (int64 unless said; ``n`` combatants: every member, her Duplication
copies, her familiar):

* ``comb[n, NC]``: one row per combatant, written by :mod:`.compile`: her
  side, scores, pools, wound thresholds, attack, perk dice (:data:`STATIC`,
  ``C_*``), and her powers and perks with a fight effect as *slots*, one per
  mechanic (:data:`.codes.MECHANICS`): the slot of code ``E_X`` holds its
  numbers (``C_PNUM + k * MAXP + E_X - 1``, ``k`` < NNUM: the catalog row's
  params, in the mechanic's order; 0 in a slot she does not use), and
  ``C_PMASK`` has bit ``1 << E_X`` for every mechanic she has. A number is one
  load, a power one test of the mask. The hooks that play them are registered
  in :mod:`.hooks`.
* ``pol[n, NP]``: her policy's parameters (:data:`POLICY`, ``P_*``,
  :mod:`.policies`).
* ``rules``: one entry per rule option of :data:`.rules.RULES`, in its order
  (:data:`RULE_TABLE`, ``R_*``), then the exact chance table (``R_CHANCE``,
  ``NPOOL x NPOOL`` entries, :func:`.pools.chance_table`).
* ``dyn[n, ND]``: her state in a trial (:data:`STATE`, ``D_*``).
* ``cc[n, NK]``: her counters, summed over the trials of a run
  (:data:`COUNTERS`, ``K_*``; ``combatants.csv`` is made from them).
* ``fights[NF]``: outcome counters (:data:`FIGHT`, ``F_*``).
* ``streams[NS, w]`` uint64: one keyed random stream per purpose (``S_*``).
"""
from __future__ import annotations

from sim.layout import Field as F
from sim.layout import Section, constants, stack

from .codes import MECHANICS, NT
from .rules import RULES

#: power slots per combatant: one per mechanic
MAXP = len(MECHANICS)
#: numbers per power slot (a mechanic's params, :data:`.codes.MECHANICS`)
NNUM = 3
#: pools the chance table covers (0 .. NPOOL-1 dice; larger pools count as the largest)
NPOOL = 25
#: ``rules[R_CHANCE + a * NPOOL + d]`` = P(a dice >= d dice) x CHANCE_ONE
CHANCE_ONE = 1 << 20

STATIC = Section("C", "combatant: static columns (``comb``)", [
    F("SIDE", 1, "her side: 0 the first listed, 1 the second"),
    F("ORDER", 1, "position in the listed order (rule initiative: listed)"),
    F("KIND", 1, "KIND_GIRL, KIND_MONSTER, KIND_DARK, KIND_FAMILIAR or KIND_COPY"),
    F("OWNER", 1, "a familiar's or a copy's creator; -1 otherwise"),
    F("SCORE", 5, "ability scores STR AGI VIT MAG LCK (L15)"),
    F("DICE", 5, "pool of each ability: ceil(score / 2) (L17)"),
    F("WMAX", 1, "wound pool: wound_multiplier x Vitality (L31)"),
    F("T1", 1, "first wound count in the 2nd threshold band (L33, D2)"),
    F("T2", 1, "... in the 3rd band"),
    F("T3", 1, "... in the 4th band"),
    F("BAND", 1, "a quarter of the pool, rounded up (Regeneration's heal, grim healing)"),
    F("MANA", 1, "mana pool: her Magic score (L51)"),
    F("FORT", 1, "fortune pool: her Luck score (L53)"),
    F("DR", 1, "damage reduction of her outfit (L85, D10)"),
    F("ATK", 1, "her attack: ATK_MELEE, ATK_RANGED, ATK_MYSTIC or ATK_SPEC (L75)"),
    F("ATK_COST", 1, "mana cost of her attack (a specialization use, a Mystic Artifact)"),
    F("BONUS", NT, "perk bonus dice per test T_* (Martial Training, Gifted...)"),
    F("SPEC_EFFECT", 1, "her specialization: 0 damage, 1 a penalty (L79, D13)"),
    F("SPEC_AREA", 1, "1: her specialization use hits an area (L81)"),
    F("SPEC_PEN", 1, "dice a penalty use takes until she pulls free (-2..-4, L79)"),
    F("SPEC_ALLIES", 1, "allies an area use catches (friendly fire, L81)"),
    F("COPY0", 1, "Duplication: the row of her first copy"),
    F("NCOPIES", 1, "Duplication: her copies (rows COPY0 ..)"),
    F("PERM_OK", 1, "may take permanent wounds (L35-49, D4)"),
    F("CARRY", 1, "keeps wounds, fortune, KOs and deaths from fight to fight (side 0)"),
    F("START", 1, "present at the start of a fight (copies: 0)"),
    F("FAMILIAR", 1, "the row of her familiar, -1"),
    F("MAGIC_WEAPON", 1, "her weapon is a Magic Weapon (Barrage, seed 002 L507-511)"),
    F("PNUM", NNUM * MAXP, "power slots' numbers: number k of mechanic E_X at k * MAXP + E_X - 1 (codes.MECHANICS)"),
    F("PMASK", 1, "bit 1 << E_X for every mechanic she has (her used slots)"),
])

POLICY = Section("P", "combatant: policy parameters (``pol``, :mod:`.policies`)", [
    F("TARGET", 1, "targeting: TARGET_WEAKEST, TARGET_RANDOM, TARGET_LISTED, TARGET_STRONGEST"),
    F("DEFENCE", 1, "preferred defence: DEF_*"),
    F("AUG", 1, "augmentation dice bought per attack (L77)"),
    F("SAVE", 1, "1: keep mana for Killing Blow / Focused Assault"),
    F("KB", 1, "1: Killing Blow when the mana allows"),
    F("FA", 1, "1: Focused Assault when the mana allows"),
    F("BARRAGE", 1, "1: Barrage on several targets when the mana allows"),
    F("FORTUNE", 1, "fortune use: FORT_*"),
    F("RECHARGE", 1, "Recharge when her mana is below this (recharge: threshold); 0 only when she cannot pay"),
    F("RETREAT", 1, "retreat at this threshold band (0 never)"),
    F("HIDE", 1, "hide at this threshold band (0 never)"),
    F("HEAL", 1, "heal at this threshold band (0 never)"),
    F("AID", 1, "1: Aid the ally with the largest attack pool instead of attacking"),
    F("PURSUE", 1, "1: pursue a retreating enemy"),
    F("TARGETS", 1, "targets per weapon attack (L81)"),
    F("STUNT", 1, "expected stunt dice per action x 1000 (L115-145)"),
    F("GRAPPLE", 1, "Tentacles: GRAPPLE_*"),
    F("ESCAPE", 1, "escape from a hold: ESC_*"),
    F("BLOOD", 1, "1: pay a mana shortfall with wounds (Blood Magic)"),
    F("HAMMER", 1, "1: trap an enemy in Hammerspace when facing two or more"),
    F("DUP", 1, "1: make Duplication copies on her first turn"),
    F("RECAST_HELD", 1, "1: her penalty spell may go to a target already held by a spell as strong"),
])

STATE = Section("D", "combatant: state in a trial (``dyn``)", [
    F("W", 1, "wounds", "episode"),
    F("OUT", 1, "OUT_IN, OUT_KO, OUT_DEAD or OUT_FLED", "episode"),
    F("MANA", 1, "mana left (refreshed every fight, L55)", "scene"),
    F("FORT", 1, "fortune left (refreshed every episode, L57)", "episode"),
    F("DEFPEN", 1, "defence dice lost until her next turn (Recharge, Killing Blow)", "scene"),
    F("HELD", 1, "dice lost on every roll until she pulls free (a spell, a grapple, a pin)", "scene"),
    F("HELD_TN", 1, "the target number to pull free", "scene"),
    F("HELD_KIND", 1, "HELD_NONE, HELD_SPELL, HELD_GRAPPLE or HELD_PIN", "scene"),
    F("HELD_BY", 1, "who holds her, -1", "scene"),
    F("DISABLED", 1, "1: she loses her next action (a grapple, L175)", "scene"),
    F("HIDDEN", 1, ">0: she cannot be targeted until the end of her next turn (L103)", "scene"),
    F("AID", 1, "aid dice for her next action (L105)", "scene"),
    F("PERM", 1, "permanent wounds this fight (D4 ii)", "scene"),
    F("RETREAT", 1, ">0 retreating: the successes of her roll; she leaves at her next turn (L109)", "scene"),
    F("ACTIVE", 1, "1: present in the fight (copies once made)", "scene"),
    F("READY", 1, "1: may act this round (copies: from the round after they are made)", "scene"),
    F("STORED", 1, ">0: trapped in Hammerspace, the target number to escape (L153)", "scene"),
    F("GRIEF", 1, "dice lost on every roll: her familiar died (L155)", "episode"),
    F("MAXBAND", 1, "highest threshold band she reached this trial", "episode"),
    F("KO_TRIAL", 1, "1: knocked out at least once this trial", "episode"),
    F("COPIES_MADE", 1, "1: Duplication used this fight", "scene"),
])

COUNTERS = Section("K", "combatant: counters (``cc``, summed over the trials of a run)", [
    F("FIGHTS", 1, "fights she started in", "run"),
    F("ATTACKS", 1, "attack rolls (one per attack action)", "run"),
    F("HITS", 1, "damaging hits, one per target hit", "run"),
    F("DEALT", 1, "wounds she dealt (Parry wounds too)", "run"),
    F("TAKEN", 1, "wounds she took", "run"),
    F("KO_TRIALS", 1, "trials in which she was taken out at least once", "run"),
    F("KOS", 1, "times she was taken out (knocked out or dead)", "run"),
    F("DEATHS", 1, "deaths (grim)", "run"),
    F("PERM", 1, "permanent wounds", "run"),
    F("PERM_SEVERE", 1, "permanent wounds of table result 15+ (a hand or worse)", "run"),
    F("MANA", 1, "mana spent", "run"),
    F("FORTUNE", 1, "fortune points spent", "run"),
    F("BAND", 3, "trials that reached the 2nd / 3rd / 4th threshold", "run"),
    F("FLED", 1, "retreats that took her out of the fight", "run"),
    F("KB", 1, "Killing Blows", "run"),
    F("KB_KILLS", 1, "Killing Blows that took the target out", "run"),
    F("FA", 1, "Focused Assaults", "run"),
    F("BARRAGE", 1, "Barrages", "run"),
    F("PARRY_WOUNDS", 1, "wounds her Parries dealt back", "run"),
    F("BLOCK_MANA", 1, "mana her Magic Blocks restored", "run"),
    F("AIDS", 1, "Aid actions", "run"),
    F("RECHARGES", 1, "Recharge actions", "run"),
    F("HIDES", 1, "Hide actions", "run"),
    F("GRAPPLES", 1, "Tentacles grapples and pins tried", "run"),
    F("COPIES", 1, "Duplication copies made", "run"),
    F("HEALED", 1, "wounds healed (Regeneration, Healing Artifact)", "run"),
    F("STANDING_END", 1, "trials she ended in the fight", "run"),
    F("WOUNDS_END", 1, "wounds at the end of the trial", "run"),
    F("SPELLS", 1, "penalty effects landed", "run"),
    F("PURSUES", 1, "Pursue actions", "run"),
    F("TRAPS", 1, "enemies stored in Hammerspace", "run"),
    F("AUG_DICE", 1, "augmentation dice bought", "run"),
    F("STUNT_DICE", 1, "stunt dice", "run"),
    F("DEFENCES", 4, "defences rolled: dodge, parry, block, luck (T_DODGE ..)", "run"),
    F("FORM2", 1, "attacks in the Dual Weapon's second form", "run"),
    F("TARGETED", 1, "targets her attacks rolled against (each of a multi-target or area use)", "run"),
])

FIGHT = Section("F", "outcome counters (``fights``)", [
    F("WIN", 1, "trials the first side won (every fight)", "run"),
    F("LOSS", 1, "trials the first side lost a fight", "run"),
    F("DRAW", 1, "trials a fight still running at the round cap stopped", "run"),
    F("ROUNDS", 1, "rounds, summed over the trials' fights", "run"),
    F("FIGHTS", 1, "fights played", "run"),
])

STREAMS = Section("S", "random stream purposes (rows of ``streams``)", [
    F("SETUP", 1, "initiative"),
    F("CHECK", 1, "every test and defence roll"),
    F("POLICY", 1, "the AI's random choices (random targets, stunt dice)"),
    F("TABLE", 1, "the permanent-wound table"),
])

RULE_TABLE = Section("R", "rule options (``rules``), in the order of rules.RULES", [
    F(o.name.upper(), o.width(), o.note) for o in RULES.options
])

NC = stack(STATIC)
NP = stack(POLICY)
ND = stack(STATE)
NK = stack(COUNTERS)
NF = stack(FIGHT)
NS = stack(STREAMS)
R_SIZE = stack(RULE_TABLE)

globals().update(constants(STATIC, POLICY, STATE, COUNTERS, FIGHT, STREAMS, RULE_TABLE))

#: the chance table follows the rule options in ``rules``
R_CHANCE = R_SIZE
SECTIONS = (STATIC, POLICY, STATE, COUNTERS, FIGHT, STREAMS, RULE_TABLE)

#: what ``from .layout import *`` gives: the constants (no helper names)
__all__ = sorted(k for k, v in list(globals().items()) if k.isupper() and isinstance(v, int))
#: each section's array width (``tests/test_structure.py``)
SIZES = {STATIC: NC, POLICY: NP, STATE: ND, COUNTERS: NK, FIGHT: NF, STREAMS: NS, RULE_TABLE: R_SIZE}
