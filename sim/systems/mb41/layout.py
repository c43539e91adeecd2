"""The 4.1 / draft engine's declared layout: every column of every kernel array.

This module is the only place a column is declared (``tests/test_structure.py``
checks that no other module assigns a ``C_``, ``P_``, ``D_``, ``K_`` or ``R_``
constant). The kernels read these constants (``from .layout import *``);
``docs/engine.md`` shows the tables.

Arrays (all int64 unless said; ``n`` combatants, reserve rows included):

* ``comb[n, NC]``: the static table, one row per combatant: her stats, talent
  slots and masks (:data:`STATIC`, ``C_*``), then her policy's parameters
  (:data:`POLICY`, ``P_*``). Written by :mod:`.compile`; an episode's block
  copy rewrites ``C_RES`` (the wound-penalised maximum).
* ``rules[NR]``: the rule table (``R_*``, one entry per rule option of
  :data:`.rules.RULES`, in its order), then the procedure table (``R_PROC``
  + a :mod:`sim.procs` slot: the addresses of the separately compiled
  procedures this scenario uses, filled per process).
* ``dyn[n, NDYN]``: one row per combatant: her counters first (:data:`COUNTERS`,
  ``K_*``, summed over every trial of a run), then her per-trial state
  (:data:`STATE`, ``D_*``). ``reset`` sets the state of a trial; an episode
  resets the ``scene`` fields between scenes and carries the rest. A few
  fight-wide fields live in row 0 (their meaning says so).
* ``streams[NS, w]`` uint64: one keyed random stream per purpose (``S_*``).
* ``bf[cells, NBF]``: the battlefield (:mod:`.field`).

Widths: ``MAXT`` talent slots (Boost apart), ``MAXB`` bonds, ``MAXMINES``
live mines per owner, ``NTIERS`` overcharge tiers per stat.
"""
from __future__ import annotations

from sim.layout import Field as F
from sim.layout import Section, constants, stack

from . import hooks
from .rules import RULES

MAXT = 6         # talent slots per combatant (besides Boost), see talents.py
MAXB = 12        # bonds per girl (12 points at creation, each 1-4: at most 12 bonds, L117-121)
MAXMINES = 3     # live mines per owner (the imps' 3/Scene)
NTIERS = 6       # overcharge tiers: 0 none, 1 minor flair, 2 major flair, 3 temporary change, 4 permanent change, 5 burst

STATIC = Section("C", "combatant: stats, talent slots, masks (static)", [
    F("SIDE", 1, "her side: 0 the first listed, 1 the second"),
    F("MONSTER", 1, "0 a magical girl, 1 a monster or minion, WITCH a witch"),
    F("ATT", 1, "Attack-role stat value"),
    F("DEF", 1, "Defence-role stat value"),
    F("SUP", 1, "Support-role stat value"),
    F("RA", 1, "magical stat (0 heart, 1 fury, 2 judgment) filling the Attack role"),
    F("RD", 1, "... the Defence role"),
    F("RS", 1, "... the Support role"),
    F("RES", 1, "maximum Resolve"),
    F("DMG", 1, "flat damage bonus of the basic attack (melee 2 / ranged 0, + monster bonus)"),
    F("POOL", 1, "monster overcharge pool at the start"),
    F("OC0", 3, "starting overcharge counters, 3 columns (heart, fury, judgment)"),
    F("BOOSTS", 1, "Boost uses per scene"),
    F("TEN", 1, "Tenacity"),
    F("ORDER", 1, "position in the listed order"),
    F("PDEF", 1, "passive defence (minions, L2172); -1 = rolls 2d6! + Defence"),
    F("TCODE", MAXT, "effect code E_* (0 = empty slot)"),
    F("TCOST", MAXT, "overcharge cost"),
    F("TROLE", MAXT, "magical stat that takes the cost (0 heart, 1 fury, 2 judgment)"),
    F("TUSES", MAXT, "uses per scene, -1 unlimited"),
    F("TP1", MAXT, "first parameter (e.g. heal dice)"),
    F("TP2", MAXT, "second parameter (e.g. heal bonus)"),
    F("TMASK", 1, "bit (1 << code) set for every effect code in her slots"),
    F("TP3", MAXT, "third parameter"),
    F("FORM", 1, "her basic attack: 0 melee, 1 ranged"),
    F("FEAR0", 1, "penalty to all her rolls from the enemies' Fear Auras at the start of a fight"),
    F("SIDEMASK", 1, "OR of C_TMASK over her side (Shield, armour: checked on every hit she takes)"),
    F("CELL", 1, "starting cell, -1 without a grid"),
    F("MELEE_DMG", 1, "flat damage bonus of her melee attack (melee_bonus, + monster bonus)"),
    F("RANGED_DMG", 1, "... of her ranged attack (ranged_bonus, + monster bonus)"),
    F("COVER", 1, "allies whose policy may intercept for her (grid)"),
    F("TREACH", MAXT, "farthest hexes the talent reaches on the grid (catalog range_hexes), -1 unlimited"),
    F("POOL_CAP", 1, "a witch's overcharge counter cap (C_MONSTER == WITCH)"),
    F("TEPISODE", 1, "bit (1 << slot) set for every talent slot whose uses count per episode (A54)"),
    F("BOND", MAXB, "her bonds' ranks at the start of the fight (0 = no bond)"),
    F("TMASK2", 1, "bit (1 << (code - 64)) for every effect code >= 64 in her slots (see E_MORE)"),
    F("SIDEMASK2", 1, "OR of C_TMASK2 over her side"),
    F("FOEMASK", 1, "OR of C_TMASK over her enemies (And Your Enemies Closer: checked when she moves away)"),
    F("RANGED_HI", 1, "grid: the farthest hex her ranged basic attack reaches (ranged_range's far end; Mid-Childan System its `range`, 4; Belkan System 0 = no ranged attack); copied to D_RANGED_HI"),
    F("ALLMASK", 1, "OR of C_TMASK over every combatant of both sides (field-wide talents: Lashing Ground)"),
    F("SPAWN_KIND", 1, "0 present from the start; else a reserve row: SPAWN_MINION, SPAWN_HEART, SPAWN_COPY"),
    F("SPAWN_BY", 1, "a reserve row: the combatant whose ability or burst makes it appear"),
    F("FOE_COPIES", 1, "some enemy has Marionette: 1 + rule marionette_decoy (0 none; set by the compiler)"),
    F("HOOKS", len(hooks.TIMINGS), "per timing point t (column C_HOOKS + t, the order of hooks.TIMINGS): bit k "
      "set when the k-th hook of t may open for her as its 'a' (her talents, her side's, her enemies'; "
      "an 'always' hook for everyone), derived from the masks by gates.hook_bits"),
    F("HOOKS_B", len(hooks.TIMINGS), "... as its 'b' (the other combatant of the point: an attack's target)"),
])

POLICY = Section("P", "combatant: policy parameters (static)", [
    F("TARGET", 1, "targeting rule: TARGET_WEAKEST, TARGET_RANDOM, TARGET_STRONGEST, TARGET_NEAREST"),
    F("BOOST", 1, "Boost policy: BOOST_NEVER, BOOST_ALWAYS, BOOST_LOSING"),
    F("MARGIN", 1, "BOOST_LOSING: boost when losing the roll by at most this much"),
    F("OCCAP", 1, "highest overcharge a girl takes on a counter by choice (Boost, talent costs)"),
    F("FINISH", 1, "1 = attacks downed enemies (0 Resolve, not dead) too"),
    F("PASSIVE", 1, "1 = take the passive defence when the rules allow it (draft)"),
    F("HEAL_BELOW", 1, "heal an ally (or herself) below this percent of maximum Resolve"),
    F("INFLICT", 1, "first ailment Inflict tries: A_STUN, A_BOUND or A_BLEED"),
    F("SHIELD_ABOVE", 1, "spend Shield/Bulwark on a hit of at least this much damage"),
    F("SCREAM_MIN", 1, "use a Scream-like ability when it can affect at least this many enemies"),
    F("ALL_IN", 1, "All or Nothing: damage she takes to add to an attack (0 = never)"),
    F("MOVE", 1, "movement on a grid: MOVE_*"),
    F("INTERCEPT", 1, "intercept a hit on an adjacent ally: -1 never; else when it leaves her below this % (1000 always)"),
    F("RECKLESS", 1, "1 = Reckless Movement instead of Disengage / a double move out of rough terrain"),
    F("SORCERY", 1, "sorcery in battle: SORCERY_*"),
    F("PLACE", 1, "positions: where she starts, 0-based (member 'position:' or the formation); -1 no map"),
    F("AREA_MIN", 1, "an area attack (Blast Strike, Burst Attack, Gravity Wave) when it reaches at least this many enemies"),
])

COUNTERS = Section("K", "combatant: counters (summed over the trials of a run)", [
    F("DEALT", 1, "damage her attacks dealt", "run"),
    F("TAKEN", 1, "damage she took (attacks, Bleed, Hexes, self-inflicted)", "run"),
    F("KO_TRIALS", 1, "fights in which she dropped to 0 Resolve at least once", "run"),
    F("KOS", 1, "times she dropped to 0 Resolve", "run"),
    F("DEATHS", 1, "times she died (a monster or minion at 0 HP, a girl's deadly wounds)", "run"),
    F("REVIVES", 1, "revive rolls she made", "run"),
    F("BOOSTS", 1, "Boosts she spent", "run"),
    F("ATTACKS", 1, "attacks she made (basic and talent attacks)", "run"),
    F("HITS", 1, "attacks of hers that hit", "run"),
    F("RES_END", 1, "Resolve at the end of the fight", "run"),
    F("STANDING_END", 1, "fights she ended standing", "run"),
    F("OC_GAIN", 3, "3 columns", "run"),
    F("BURSTS", 3, "3 columns", "run"),
    F("POOL_SPENT", 1, "overcharge pool a monster spent (sixes, Monster Boost, talents)", "run"),
    F("WOUND_DMG", 1, "wound damage she took at 0 Resolve", "run"),
    F("TUSE", MAXT, "talent uses per slot", "run"),
    F("HEALED", 1, "Resolve restored by her heals", "run"),
    F("AILED", 1, "ailments she received", "run"),
    F("AIL_REMOVED", 1, "ailments removed from her", "run"),
    F("BLEED_DMG", 1, "damage Bleed dealt her", "run"),
    F("TIER", 3 * NTIERS, "3 x NTIERS columns: trials whose highest tier on stat s was t (s * NTIERS + t)", "run"),
    F("PREVENTED", 1, "damage kept off her by armour, Shield or Bulwark", "run"),
    F("SELF_DMG", 1, "damage she took outside enemy attacks (Backlash, Reflector, Implode, All or Nothing)", "run"),
    F("MOVES", 1, "hexes moved (grid)", "run"),
    F("RECKLESS", 1, "Reckless Movement rolls", "run"),
    F("RECKLESS_DMG", 1, "damage Reckless Movement dealt her", "run"),
    F("INTERCEPTS", 1, "successful intercepts (she took the hit)", "run"),
    F("INTERCEPT_DMG", 1, "damage she took for others by intercepting", "run"),
    F("LAB_DMG", 1, "damage labyrinth features dealt her (Alternating Damage, Pendulum)", "run"),
    F("LAB_MOVES", 1, "hexes labyrinth features moved her (Current, Escher Doors)", "run"),
    F("DOORS", 1, "Escher Doors she went through", "run"),
    F("PENDULUM", 1, "Pendulum attacks on her", "run"),
    F("SPELLS", 1, "sorcery cast in battle", "run"),
    F("SPELLS_OK", 1, "... that succeeded", "run"),
    F("BONDS_LOST", 1, "bond points her bursts burned or Hate the World spent", "run"),
    F("LOST", 1, "fights in which a burst left her with no bonds (lost, out of the fight)", "run"),
    F("JUDG_DEALT", 1, "damage her Judgment Bursts dealt to others", "run"),
    F("JUDG_TAKEN", 1, "damage she took from Judgment Bursts (her own with judgment_self)", "run"),
    F("JUDG_AVOIDED", 1, "Judgment Bursts she avoided with the Support check", "run"),
    F("FRENZY_TURNS", 1, "turns she took in a Fury frenzy", "run"),
    F("FURY_SPENT", 1, "Fury overcharge she spent in frenzies", "run"),
    F("RETALIATIONS", 1, "frenzy retaliation attacks", "run"),
    F("FRENZY_REGEN", 1, "Resolve regained at the start of frenzy turns", "run"),
    F("TALENT_MOVES", 1, "hexes her movement talents moved her (Teleport: the hexes between)", "run"),
    F("SHOVED", 1, "hexes she moved others (Get Over Here, Repel, Safe Place)", "run"),
    F("SWITCHES", 1, "Defensive Switches (she became the target)", "run"),
    F("HELD", 1, "moves her And Your Enemies Closer stopped", "run"),
    F("HOST_DMG", 1, "Possession: damage its human host took with it (L2075)", "run"),
    F("HOST_DEATHS", 1, "Possession: fights in which its host died (death_wounds of that damage, L1422)", "run"),
    F("BARRIERS", 1, "barriers she raised with Create Barrier (L1697)", "run"),
    F("BARRIER_DMG", 1, "damage her barriers absorbed (of their 20 Resolve)", "run"),
    F("AREA_TARGETS", 1, "targets her area attacks (Blast Strike, Burst Attack, Gravity Wave) attacked", "run"),
    F("FORCED", 1, "hexes her Gravity Wave pulled and her Scattering shot pushed others", "run"),
    F("ROUGHENED", 1, "hexes her Rough Going made rough terrain", "run"),
    F("VEILED", 1, "attacks on her that took her Veil's penalty", "run"),
    F("MINES", 1, "her mines that detonated", "run"),
    F("MINE_ATTACKS", 1, "attacks her mines made", "run"),
    F("CREATED", 1, "minions it created with Minion Creation", "run"),
    F("APPEARED", 1, "fights in which this reserve row appeared (minion, Heart creature, copy)", "run"),
    F("COPY_ABSORBED", 1, "Marionette: hits her copy absorbed (counted on the girl)", "run"),
    F("HEART_SPAWNS", 1, "Heart Bursts whose creature appeared in the fight (on the girl)", "run"),
    F("PLACES", 1, "positions: positions she moved (Movement, Disengage, Reckless Movement)", "run"),
    F("DISENGAGES", 1, "positions: Disengage moves she made (DRAFT L498)", "run"),
    F("RADIATION", 1, "overcharge Overcharge Radiation gave her at the end of scenes", "run"),
    F("DAMPENED", 1, "overcharge Power Dampening / Dampen Overcharge kept off her", "run"),
    F("HEX_DMG", 1, "damage Hexes dealt her (the draft; not an attack)", "run"),
    F("BARRIER_ATTACKS", 1, "attacks she made on an enemy's barrier", "run"),
    F("GUARD_SPRINTS", 1, "Sprints off her turn next to (grid) or into the position of (positions) an attacked ally, to intercept", "run"),
    F("MISSING", 1, "calls of a procedure the scenario's table lacks (row 0; a bug unless 0)", "run"),
])

STATE = Section("D", "combatant: per-trial state", [
    F("RES", 1, "Resolve left (L1420); a monster's or minion's HP", "episode"),
    F("WOUNDS", 1, "wound damage taken at 0 Resolve (L1422, A16)", "episode"),
    F("DEAD", 1, "1 dead, lost or (reserve rows) absent: out of the fight", "episode"),
    F("PENDING", 1, "Resolve to regain at the start of her next turn; -1 none; -2 revive roll due (draft)", "scene"),
    F("REVIVES", 1, "revive rolls made this scene (rule revive_limit)", "scene"),
    F("OC", 3, "overcharge counters heart, fury, judgment", "episode"),
    F("POOL", 1, "a monster's overcharge pool left; a witch's overcharge counter", "episode"),
    F("BOOSTS", 1, "Boost uses left", "scene"),
    F("KO", 1, "dropped to 0 at least once this fight", "scene"),
    F("BURSTED", 3, "this stat's burst was counted and its counter kept (burst_resets false)", "episode"),
    F("AIL", 3, "Stun, Bound, Bleed (1 = has it)", "scene"),
    F("TUSES", MAXT, "uses left per talent slot (-1 unlimited)", "scene"),
    F("BURST_TRIAL", 3, "a burst of this stat was counted in this trial", "scene"),
    F("FEAR", 1, "penalty to all her rolls from standing enemies' Fear Auras, less her standing allies' Courage Auras", "scene"),
    F("FT_TARGET", 1, "Follow Target: the target she last missed (-1 none)", "scene"),
    F("FT_STACK", 1, "Follow Target: misses in a row against it", "scene"),
    F("STICKY", 1, "Memory Blaze: reached half Resolve once this scene", "scene"),
    F("DEF_BONUS", 1, "Second Wind: bonus to her Defence rolls until the start of her next turn", "scene"),
    F("REFLECT_BY", 1, "Reflector: who gave her the Reflector she bears (-1 none)", "scene"),
    F("REFLECT_UNTIL", 1, "... valid while the giver has finished fewer turns than this", "scene"),
    F("TURNS_DONE", 1, "turns she has finished this fight (counted for combatants with talents)", "scene"),
    F("BOMB", 1, "Life Bomb placed (1) and not yet set off", "scene"),
    F("IMPLODE_BY", 1, "Implode: who imploded her (-1 none)", "scene"),
    F("IMPLODE_UNTIL", 1, "... valid while that girl has finished fewer turns than this", "scene"),
    F("POS", 1, "her cell on the battlefield, -1 without a grid", "scene"),
    F("GUARD", 1, "who may intercept the attack now aimed at her (set by the grid turn), -1 nobody", "scene"),
    F("DMG_ADJ", 1, "added to her attack's damage bonus (the grid turn's choice of melee or ranged)", "scene"),
    F("PAID", 1, "hexes of movement already paid toward leaving her rough hex (rough_cost split)", "scene"),
    F("WOUND_HITS", 1, "hits that dealt her wound damage (A18 reading b: separate wounds)", "episode"),
    F("PEN_DICE", 1, "sum of the d6 rolled so far for her maximum-Resolve penalty (A18, episodes)", "episode"),
    F("PEN_LEVELS", 1, "wound levels (or wounds) those dice were rolled for", "episode"),
    F("RECOVERS", 1, "Recover uses this episode", "episode"),
    F("CLOCK", 1, "row 0: turns begun this fight (each turn, extra turns included, adds 1)", "scene"),
    F("ROUND", 1, "row 0: the round being played (0 before round 1)", "scene"),
    F("HIT_BY", 1, "Follow Up: who last hit her (-1 nobody) ...", "scene"),
    F("HIT_AT", 1, "... and the D_CLOCK value of the turn that hit", "scene"),
    F("OPEN_BY", 1, "Make an Opening: who opened her (-1 nobody) ...", "scene"),
    F("OPEN_UNTIL", 1, "... valid while that girl has finished fewer turns than this ...", "scene"),
    F("OPEN_BONUS", 1, "... and her allies' attack bonus against her", "scene"),
    F("SEALED_UNTIL", 1, "Seal Magic: no talent use while D_ROUND <= this", "scene"),
    F("AMP_HEAL", 1, "Amplify Magic on an ally: added to every healing she receives", "scene"),
    F("AMP_AIL", 1, "Amplify Magic on an enemy: penalty to her rolls to resist or remove ailments", "scene"),
    F("AMBUSH", 1, "Ambush Tactics: 1 during its turn before round 1", "scene"),
    F("BELKAN", 1, "Belkan System: bonuses stored by her melee hits this scene", "scene"),
    F("LINK_TO", 1, "Link: she is a primary; healing and ailments she gets are copied to this one (-1 none)", "scene"),
    F("LINKED", 1, "Link: the primary of the link she made (-1 none; one link at a time)", "scene"),
    F("REBIRTHS", 1, "Undying Brood: rebirths so far this fight", "scene"),
    F("CASTING", 1, "sorcery: 1 while she spends the whole turn casting (her Minor is taken)", "scene"),
    F("BOND", MAXB, "her bonds' ranks now (bursts burn them; Hate the World will spend them)", "episode"),
    F("PEND", 3, "a burst of this stat is due (plays after the action, A7b)", "scene"),
    F("FRENZY", 1, "while she is in a Fury Burst's frenzy (her Fury counter is what is left to spend): 1 + rule fury_talents, else 0", "scene"),
    F("LOST", 1, "1 once a burst left her with no bonds: out of the fight (D_DEAD is set too)", "episode"),
    F("HOST", 1, "Possession: damage its human host has taken (L2075)", "episode"),
    F("RETALIATE", 1, "frenzied: who attacked her, for her retaliation after that action (-1 none)", "scene"),
    F("SPRINT_AT", 1, "Sprint: the round (D_ROUND) she last sprinted (once per round), -1 never", "scene"),
    F("BARRIER_RES", 1, "Resolve left of her standing barrier (0: none standing)", "scene"),
    F("BARRIER_KIND", 1, "its shape: 0 none, 1 circle, 2 straight wall", "scene"),
    F("BARRIER_AT", 1, "circle: its centre (her cell when raised); wall: the adjacent hex it passes through", "scene"),
    F("BARRIER_ARG", 1, "circle: hexes from the centre to the ring of barrier hexes (radius + 1); wall: its direction", "scene"),
    F("BARRIER_LEN", 1, "wall: its length in hexes (rule barrier_wall_length)", "scene"),
    F("LINK_DMG", 1, "Link (the draft's, ``damage: 1``): 1 on a primary whose damage is copied too (an enemy link)", "scene"),
    F("ROUGH_PLACES", 1, "the draft's Rough Going, on row 0: bit p = position p (0-based) is rough this scene", "scene"),
    F("VEIL_UNTIL", 1, "Veil: attacks on her take the penalty while her D_TURNS_DONE is below this", "scene"),
    F("VEIL_D", 1, "grid: hexes between the attacker (this row) and her Veiled target, set by the grid attack", "scene"),
    F("MINE", MAXMINES, "cells of her live mines (-1 none); they outlive her", "scene"),
    F("MINE_FROM", 1, "grid: her cell + 1 before moves not yet checked against mines (0 none; :func:`.hex_moves.mines_pending`)", "scene"),
    F("RANGED_HI", 1, "grid: C_RANGED_HI, for :func:`.battle_grid.reach` (which reads no comb); set by scene_state", "scene"),
    F("FURY_PAID", 1, "1: a frenzied girl paid her next attack's Fury with the frenzy's extra point of movement (L758)", "scene"),
    F("ABSENT", 1, "a reserve row (C_SPAWN_KIND) not (yet) in the fight: D_DEAD is set too while absent", "scene"),
    F("APPEARED", 1, "the round (D_ROUND) + 1 in which it appeared (0 not yet)", "scene"),
    F("COPY", 1, "Marionette: her copy's row + 1 while it stands in the fight (0 none)", "scene"),
    F("PLACE", 1, "her position on the line, 0-based (set by :func:`.positions.place_all`, :func:`.state.appear`)", "episode"),
    F("AMP_HEX_BY", 1, "the draft's Amplify Magic on an enemy: the witch's row + 1 whose Hexes on her it multiplies (0 none)", "scene"),
    F("AMP_HEX", 1, "... and the factor her Hexes' damage is multiplied by (the row's ``hex``: 2, DRAFT L267)", "scene"),
    F("HEX_EXTRA", 1, "the part of D_HEXES that Amplify Magic adds (taken off again when she drops, L269)", "scene"),
    F("BLAST", 1, "grid: the minion row + 1 whose hex this attack of hers originates from (Minion Explosion, 0 none)", "scene"),
    F("HEXES", 1, "the draft's Hex: damage she takes at the start of each round (1 per Hex on her)", "scene"),
    F("HEX_ROUND", 1, "the round in which she last placed a Hex (one a round; -1 none)", "scene"),
    F("REGEN", 1, "the draft's Regeneration: Resolve she regains at the start of each round (0 none)", "scene"),
    F("MOOD", 1, "the draft's Excited (1) or Calm (2) status (Empower, Rouse; 0 none)", "scene"),
    F("MINOR_USED", 1, "1 once her Minor action of this turn is taken (the draft's Second Chance Attack)", "scene"),
    F("AREA_HIT", 1, "grid and positions, during an area attack: 1 a target not yet attacked by it, 2 attacked by it (else 0)", "scene"),
    F("WOUND_TOP", 1, "wound_model per_hit: the level of her worst wound (0-3; :func:`.damage.take_wound`)", "episode"),
    F("WOUND_LEVELS", 1, "wound_model per_hit: the levels of her wounds added up (A18i a; :func:`.damage.take_wound`)", "episode"),
    F("DUE", 1, "row 0: 1 once a burst or a retaliation is due and not yet settled (:func:`.bursts.settle`)", "scene"),
    F("KEEPER", 2, "row 0: per side, the row that kept it in the fight at the last full check of "
      ":func:`.state.outcome_now` (a hint it tries first: any value gives the same outcome)", "scene"),
    # the attack she is making (set at its DECLARE point, :func:`.attack.attack_bonus`, read by its later points)
    F("ATK_BONUS", 1, "what her talents add to the attack she is making (DECLARE hooks)", "turn"),
    F("DMG_BONUS", 1, "what her talents add to its damage on a hit (DECLARE hooks)", "turn"),
    F("RIDER", 1, "the talent slot whose Major action this attack is (Killing Blow, Ambush Tactics, Minion "
      "Explosion, Magic Detonation, an ailment attack, Follow Up, Make an Opening; the first that applies, "
      "L1821), -1 none", "turn"),
    F("HIT_DICE", 1, "d6 that rider adds to the damage of a hit (Killing Blow: P1)", "turn"),
    F("HIT_PLUS", 1, "flat damage it adds on a hit (Killing Blow: P2)", "turn"),
    F("DRAIN", 1, "the Drain Life slot that halved her hit being dealt (it heals her for what it dealt), -1 none", "scene"),
])

PARTY = Section("PE", "per girl of an episode's party: counters at the end of the episode", [
    F("RES_END", 1, "Resolve at the end of the episode"),
    F("STANDING_END", 1, "standing at the end of the episode"),
    F("DEAD", 1, "dead at the end of the episode"),
    F("WOUNDS_END", 1, "wound damage at the end of the episode"),
    F("MAXRES_END", 1, "maximum Resolve at the end (after the wound penalty, A18)"),
    F("RECOVERED", 1, "Resolve regained by Recover in the rests (L1571)"),
    F("RECOVERS", 1, "Recover uses"),
    F("PENALTY_END", 1, "maximum-Resolve penalty at the end"),
])

FIGHT = Section("F", "per fight: outcome counters (``fights[NF]``)", [
    F("WIN", 1, "fights the first side won", "run"),
    F("LOSS", 1, "fights the first side lost", "run"),
    F("DRAW", 1, "fights still running at the round cap", "run"),
    F("ROUNDS", 1, "rounds played, summed", "run"),
])

STREAMS = Section("S", "random stream purposes (rows of ``streams``)", [
    F("SETUP", 1, "initiative, deployment, episode rests"),
    F("CHECK", 1, "checks: attack, defence, revive, removal and talent rolls"),
    F("DAMAGE", 1, "damage and healing dice"),
    F("POLICY", 1, "the AI's random choices (random targets, ties)"),
])

RULE_TABLE = Section("R", "rule options (``rules``), in the order of rules.RULES", [
    F(o.name.upper(), o.width(), o.note) for o in RULES.options
])

NC = stack(STATIC, POLICY)
NDYN = stack(COUNTERS, STATE)
NK = COUNTERS.size
ND = STATE.size
NPE = stack(PARTY)
NF = stack(FIGHT)
NS = stack(STREAMS)
R_SIZE = stack(RULE_TABLE)

globals().update(constants(STATIC, POLICY, COUNTERS, STATE, PARTY, FIGHT, STREAMS, RULE_TABLE))

#: state columns a girl does NOT carry from one scene of an episode to the next
SCENE_COLUMNS = tuple(f"D_{f.name}" for f in STATE.fields if f.reset == "scene")
SECTIONS = (STATIC, POLICY, COUNTERS, STATE, PARTY, FIGHT, STREAMS, RULE_TABLE)


def counter_fields() -> dict[str, tuple[int, int]]:
    """``{"K_<name>": (first column, width)}`` of the counters in ``dyn`` (and ``combatants``)."""
    return {f"K_{f.name}": (c, f.width) for f, c in zip(COUNTERS.fields, COUNTERS.offsets().values())}

# ---------------------------------------------------------------- the battlefield (``bf``, :mod:`.field`)
#: ``bf[rows, w]`` int64: one row per per-cell vector (``w`` >= cells + 1, the rest padding),
#: then blocks of rows for the tables (their first row in ``META``)
FIELD_ROWS = Section("BF", "battlefield rows (``bf[BF_*]``; per-cell vectors, :mod:`.field`)", [
    F("Q", 1, "axial q of every cell"),
    F("R", 1, "axial r of every cell"),
    F("TERRAIN", 1, "terrain flags of every cell this trial (grid.OBSTACLE...; the Pendulum and Create Barrier change it)", "episode"),
    F("BASE", 1, "the field's own terrain flags (TERRAIN is reset to it)"),
    F("OCC", 1, "combatant standing on each cell, -1 none", "episode"),
    F("DIST", 1, "breadth-first search scratch: steps from the sources", "turn"),
    F("QUEUE", 1, "breadth-first search scratch: the queue", "turn"),
    F("LINE", 1, "scratch: the cells of a line (cells + 1 entries)", "turn"),
    F("META", 1, "sizes and where the tables start (columns M_*)"),
    F("LST", 1, "labyrinth and barrier state of the trial (columns LST_*)", "episode"),
    F("LAB", 1, "the labyrinth features' numbers (columns L_*)"),
    F("PATH", 1, "the Pendulum's trajectory (cells)"),
])
FIELD_META = Section("M", "battlefield sizes and table rows (``bf[BF_META, M_*]``)", [
    F("NCELL", 1, "cells on the field"),
    F("QMIN", 1, "smallest axial q (the lookup table's first row)"),
    F("RMIN", 1, "smallest axial r (the lookup table's first column)"),
    F("HAS_WALK", 1, "1: the field has obstacles and WALK holds the steps round them"),
    F("NBR", 1, "first row of the neighbour table: row NBR + c, column d = the cell in direction d, -1 none"),
    F("SHIFTS", 1, "first row of the wraparound shifts (one row per image: dq, dr)"),
    F("NSHIFTS", 1, "wraparound images (1 without wraparound)"),
    F("LUT", 1, "first row of the axial lookup table: row LUT + (q - qmin), column r - rmin = cell, -1 none"),
    F("NLUT", 1, "rows of the lookup table"),
    F("WALK", 1, "first row of the walking table: row WALK + a, column b = steps from a to b round obstacles"),
    F("NWALK", 1, "rows of the walking table (cells, or 1 when HAS_WALK is 0)"),
    F("CELLFX", 1, "first row of the labyrinth table: row CELLFX + c, columns FX_*"),
    F("NPATH", 1, "cells on the Pendulum's trajectory"),
])
FIELD_STATE = Section("LST", "labyrinth and barrier state of a trial (``bf[BF_LST, LST_*]``)", [
    F("PEND", 1, "the Pendulum's start index on its trajectory", "episode"),
    F("PDIR", 1, "the Pendulum's direction (+1 / -1)", "episode"),
    F("BARRIERS", 1, "Create Barrier's barriers standing (0: pathing and reach exactly as without the talent)", "episode"),
    F("SEEN", 1, "1: the mines have looked since anyone last changed hexes (every D_MINE_FROM 0), their "
      "check is skipped; 0: a move, or a fight just placed, may be waiting for them", "episode"),
])
LABYRINTH = Section("L", "the labyrinth features' numbers (``bf[BF_LAB, L_*]``, seed 000 L2126-2166)", [
    F("ALT_SETS", 1, "Alternating Damage: sets of sections (0 none)"),
    F("ALT_DMG", 1, "Alternating Damage: damage at the end of a round"),
    F("ALT_EXEMPT", 1, "Alternating Damage: who is exempt (EXEMPT_*)"),
    F("CUR_MODE", 1, "Current: CUR_OFF, CUR_DIRECTION, CUR_HEX, CUR_OWNER"),
    F("CUR_ARG", 1, "Current: the direction (0-5) or the cell"),
    F("CUR_EXEMPT", 1, "Current: who is exempt (EXEMPT_*)"),
    F("OWNER", 1, "the labyrinth's owner (a combatant), -1 none"),
    F("PEND_LEN", 1, "Pendulum: hexes it moves (0: no Pendulum)"),
    F("PEND_DICE", 1, "Pendulum: damage dice on a hit"),
    F("PEND_EXEMPT", 1, "Pendulum: who is exempt (EXEMPT_*)"),
    F("DOOR_CHOOSE", 1, "Escher Doors: a 1d6 roll at least this lets her choose the door"),
    F("ANY", 1, "1: some end-of-round feature is on"),
    F("DOORS", 1, "1: the field has Escher Doors"),
])
CELL_FX = Section("FX", "per cell labyrinth features (``cellfx[c, FX_*]``)", [
    F("ALT", 1, "Alternating Damage set (1..k, 0 none)"),
    F("DOOR", 1, "the paired door (-1 none)"),
])
NBF = stack(FIELD_ROWS)
M_SIZE = stack(FIELD_META)
LST_SIZE = stack(FIELD_STATE)
L_SIZE = stack(LABYRINTH)
NFX = stack(CELL_FX)
globals().update(constants(FIELD_ROWS, FIELD_META, FIELD_STATE, LABYRINTH, CELL_FX))
SECTIONS = SECTIONS + (FIELD_ROWS, FIELD_META, FIELD_STATE, LABYRINTH, CELL_FX)

#: what ``from .layout import *`` gives: the constants (no helper names)
__all__ = sorted(k for k, v in list(globals().items()) if k.isupper() and isinstance(v, (int, tuple)))

# ---------------------------------------------------------------- procedures (``rules[PR_*]``, :mod:`.world`)
#: the procedure table: after the rule options in ``rules``, the address of the procedure
#: that plays each of these for this scenario (its geometry, its talents), filled per
#: process by :mod:`.registry`; each takes ``(a, b, c, w)``, ``w`` the world pointer (:mod:`.world`)
PROCS = Section("PR", "procedure slots (``rules[PR_*]``: addresses, :mod:`.registry`)", [
    # the fight
    F("TURN", 1, "a's turn (turn.take_turn, every geometry)"),
    F("START", 1, "the start of a fight: everyone to her place, auras (geometry)"),
    F("AURAS", 1, "Fear and Courage Auras by place (geometry; none gridless)"),
    F("AFTER_TURN", 1, "after a's turn: the labyrinth's Pendulum under pendulum_moves: turn (hex)"),
    F("END_OF_ROUND", 1, "the end of round a: the labyrinth features; returns the outcome or -1 (hex)"),
    F("SETTLE", 1, "what the last action left due: retaliations and bursts (bursts.settle_due)"),
    F("ATTACK", 1, "a's basic attack on b (attack.attack); returns the damage dealt or -1"),
    F("ATTACK_AT", 1, "a's basic attack on b where she stands (geometry: form, reach, Cover); the damage dealt or -1"),
    # geometry (gridless, the draft's positions, the hex grid)
    F("REACH", 1, "the form (0 melee, 1 ranged) a's basic attack on b would take, -1 out of reach"),
    F("DISTANCE", 1, "positions or hexes between a and b (0 gridless)"),
    F("APPEAR_AT", 1, "reserve row a takes its place near cell b (0 when it cannot)"),
    F("COPY_PLACE", 1, "where a's Marionette copy (slot b) appears: a cell, a position, -1 none"),
    F("PICK", 1, "the policy's target of a (b: 1 = in reach only; gridless: everyone is)"),
    F("ANY_IN_REACH", 1, "someone a may attack is in her reach (gridless: 1)"),
    F("PICK_WITHIN", 1, "the policy's target of a among enemies within b (a talent's range), -1 none"),
    F("ON_LINE", 1, "j = b stands in a's scream line in direction c (slot in dyn scratch)"),
    F("SWITCH_TO", 1, "Defensive Switch: a takes b's place (0 when she may not)"),
    F("AREA", 1, "a's area attack with slot b (Blast Strike, Burst Attack); attacks planned, 0 none"),
    F("GRAVITY", 1, "a's Gravity Wave with slot b; 1 used"),
    F("VEIL_WORTH", 1, "Veil (slot b) is worth raising for a now"),
    F("ROUGH_GOING", 1, "Rough Going with slot b; 1 used"),
    F("SCATTER", 1, "Scattering shot with slot b; 1 used"),
    F("MINE", 1, "a mine of a with slot b; 1 placed"),
    F("BARRIER", 1, "Create Barrier with slot b; 1 raised"),
    # the one turn's steps where places exist (turn.take_turn; gridless they are never called)
    F("TURN_OPEN", 1, "the start of a's turn (b: 1 a frenzy's): the dead leave, auras, rough terrain paid"),
    F("BEFORE_MAJOR", 1, "a's target and her Minor's step before her Major; the target, -1 nobody, -2 she fell"),
    F("FRENZY_MINOR", 1, "a frenzy's Minor step of a toward target b; 1 stepped"),
    F("FRENZY_STEP", 1, "the frenzy's extra point of movement of a toward target b (L758)"),
    F("SAFE_PLACE", 1, "Safe Place as a's Major, for a holder (talents.movement.safe_place_held); 1 used"),
    F("TARGET", 1, "a's own attack's target in reach (b her target); -1 none, -2 her Major is spent"),
    F("SHOVE", 1, "a's hit moves b by c (Get Over Here -1, Repel +1)"),
    F("MAJOR_MOVE", 1, "a's Major moves her toward b (c: 1 her Minor is free, + 2 a frenzy's); 1 Minor spent, + 2 disengaged"),
    F("TURN_END", 1, "the end of a's turn (b her target; c: 1 disengaged, 2 a frenzy's, 4 ran to its end)"),
    # a safety net
    F("MISSING", 1, "a procedure this scenario was not expected to need (counts K_MISSING)"),
] + [
    # the talents' hooks, per timing point, in the order they are tried (:mod:`.hooks`)
    F(_t, hooks.ROOM, f"hooks at {_t} ({hooks.BY_NAME[_t].combine}; {hooks.BY_NAME[_t].args}): "
      + hooks.BY_NAME[_t].doc)
    for _t in hooks.TIMINGS
])
NPR = stack(PROCS)
for _f, _c in zip(PROCS.fields, PROCS.offsets().values()):
    globals()[f"PR_{_f.name}"] = R_SIZE + _c  # the slots follow the rule options in ``rules``
#: the armed state of each hook slot (after the procedure table in ``rules``; :func:`.gates.armed_table`)
ARMED = Section("ARM", "per hook slot: its armed state (``rules[ARM_<TIMING> + k]``, :func:`.gates.armed_code`)", [
    F(_t, hooks.ROOM, "armed states of the hooks at " + _t) for _t in hooks.TIMINGS
])
NARM = stack(ARMED)
for _f, _c in zip(ARMED.fields, ARMED.offsets().values()):
    globals()[f"ARM_{_f.name}"] = R_SIZE + NPR + _c
#: the first hook slot and armed entry of timing point 0; timing point t's are ``ROOM * t`` further
PR_HOOKS = globals()[f"PR_{hooks.TIMINGS[0]}"]
ARM_HOOKS = globals()[f"ARM_{hooks.TIMINGS[0]}"]
HOOK_ROOM = hooks.ROOM
NR = R_SIZE + NPR + NARM
SECTIONS = SECTIONS + (PROCS, ARMED)
__all__ = sorted(k for k, v in list(globals().items()) if k.isupper() and isinstance(v, (int, tuple)))
