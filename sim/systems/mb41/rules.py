"""Magical Burst 4.1 rule options (seed 000), one table.

Every rules number the kernel uses and every reading of an ambiguous passage
(audit ids A1..A55 in ``shared/rules/RULES_AUDIT.md``, settled per
``shared/rules/RULINGS.md``) is an option here. ``sim rules mb41`` prints
this table; scenarios override entries in their ``rules:`` block.
"""
from __future__ import annotations

from sim.ruleset import RuleOption, Ruleset

RULES = Ruleset(
    system="mb41",
    options=[
        # --- battlefield and turn order
        RuleOption("grid", "none", "battlefield: 'none' = theatre of the mind (L1406); 'hex' = the hex grid of the "
                   "scenario's battlefield: block (L1406-1416)", kind="choice", choices=("none", "hex")),
        RuleOption("initiative", "roll", "'roll' = 2d6+Support, no explosion, ties by Support then random (L1408, A11c); "
                   "'listed' = sides act in the order listed, members in order", kind="choice",
                   choices=("roll", "listed")),
        RuleOption("round_cap", 30, "a fight still running after this many rounds is a draw (RULINGS)", lo=1, hi=500),
        RuleOption("defeat", "all_out", "a side is defeated, checked at the end of every turn (RULINGS), when "
                   "none of its members is standing or rising ('all_out': a girl at 0 Resolve whose revive roll "
                   "(L1445-1451) is pending keeps her side in the fight until her next turn, when she rises), "
                   "when none is standing ('all_down': the last girl's revive is then never rolled, it could "
                   "not take effect) or when all are dead ('all_dead')",
                   kind="choice", choices=("all_down", "all_dead", "all_out")),
        # --- attacks (L1453)
        RuleOption("full_tie", "defender", "equal totals, sixes and stats: who wins (A21)", kind="choice",
                   choices=("defender", "attacker")),
        RuleOption("min_damage", 0, "floor of the damage of a hit (A22: 0; reading (b): 1)", lo=0, hi=5),
        RuleOption("six_damage", 2, "damage added per attacker six (L149, L1453); the draft: per point of overcharge "
                   "incurred on the attack roll (DRAFT L486)", lo=0, hi=10),
        RuleOption("melee_bonus", 2, "melee damage is 1d6 + this (L1453)", lo=0, hi=20),
        RuleOption("ranged_bonus", 0, "ranged damage is 1d6 + this (L1453)", lo=0, hi=20),
        RuleOption("damage_dice", 1, "number of d6 in basic attack damage (L1453)", lo=1, hi=10),
        # --- Boost (L1565)
        RuleOption("boost_uses", 3, "Boost uses per scene (L1565)", lo=0, hi=20),
        RuleOption("boost_damage", "flat", "Boost on attack/defence: 'flat' = +/-2 per boost die plus the usual +/-2 per six "
                   "it rolls; 'six_only' = only its sixes count (A4)", kind="choice", choices=("flat", "six_only")),
        RuleOption("boost_timing", "after_roll", "boosts declared after seeing the roll (default) or before rolling "
                   "(the book's optional rule, A5)", kind="choice", choices=("after_roll", "before_roll")),
        RuleOption("boosts_per_roll", 3, "most boost dice on one roll (A5: the text sets no limit but 3/scene)", lo=0, hi=20),
        # --- overcharge (L149-161)
        RuleOption("burst_at", 13, "a burst happens when a stat's overcharge counter reaches this (L161)", lo=1, hi=100),
        RuleOption("burst_resets", True, "a burst resets that stat's counter to 0 (L151, A6a)", kind="bool"),
        # --- Resolve, wounds, revive (L1420-1451)
        RuleOption("resolve", 18, "a magical girl's maximum (Base) Resolve (L1420)", lo=1, hi=200),
        RuleOption("death_wounds", 6, "wound damage at which a person dies (L1422); cumulative track (A16a)", lo=1, hi=50),
        RuleOption("revive", True, "a girl at 0 Resolve rolls 2d6!+Support at once and rises at the start of her next turn "
                   "(L1445, A19a); false = 0 Resolve is out", kind="bool"),
        RuleOption("revive_limit", -1, "most revives per girl per fight; -1 = no limit (A19iii, RULINGS)", lo=-1, hi=100),
        RuleOption("revive_bands", [10, 13], "revive roll bands: <=first / up to second / above (L1447-1451)",
                   kind="intlist", length=2, lo=0, hi=100),
        RuleOption("revive_oc", [2, 1, 1], "extra Support overcharge per revive band (L1447-1451)", kind="intlist",
                   length=3, lo=0, hi=20),
        RuleOption("revive_bonus", [0, 3, 6], "Resolve regained is 1d6 + this per band (L1447-1451)", kind="intlist",
                   length=3, lo=0, hi=100),
        RuleOption("downed_defence", "tenacity", "a girl at 0 Resolve is a non-magical human (L1420): she defends with "
                   "2d6+Tenacity, no explosions (L1455, A24a) ('tenacity'), or not at all ('none')",
                   kind="choice", choices=("tenacity", "none")),
        # --- monsters (L1892-1948; A28 assumptions)
        RuleOption("monster_resolve", [12, 14, 16, 18, 19], "monster Resolve = spread x this, for power levels 2..6 "
                   "(level 1 = 'use a minion'; '18+n' read as 18+1 at level 6, +1 per level above) (A28: assumption)",
                   kind="intlist", length=5, lo=1, hi=100),
        RuleOption("monster_damage_bonus", 0, "damage bonus of monsters when the scenario gives none (A28: assumption)",
                   lo=-10, hi=20),
        RuleOption("monster_oc_pool", 10, "a monster's starting overcharge pool when the scenario gives none "
                   "(L1892 'full pool'; size lost, A28: assumption)", lo=0, hi=100),
        RuleOption("monster_six_cost", 1, "overcharge a monster loses per six it rolls (L1892)", lo=0, hi=10),
        # --- minions (L2170-2172)
        RuleOption("minion_tie", "six", "an attack total equal to a minion's passive defence hits if it has a six "
                   "('six', A35 sim default), never ('exceed') or always ('meet')", kind="choice",
                   choices=("six", "exceed", "meet")),
        # --- readings where the earlier draft (seed 001) differs (audit section 3)
        RuleOption("defender_six_damage", 2, "damage removed per defender six (L1453); the draft removes none "
                   "(DRAFT L486)", lo=0, hi=10),
        RuleOption("revive_timing", "immediate", "'immediate' = a free roll on dropping, Resolve at the start of her "
                   "next turn (A19a); 'next_turn' = the roll is her Major action on her next turn and the Resolve "
                   "comes at once (DRAFT L512-516, A19b)", kind="choice", choices=("immediate", "next_turn")),
        RuleOption("passive_defence", -1, "a defender whose policy asks for it takes Defence + this instead of "
                   "rolling (DRAFT L486: 4); -1 = not allowed (4.1 keeps it for minions only)", lo=-1, hi=20),
        # --- ailments (L1459-1467)
        RuleOption("removal_bands", [10, 13], "ailment removal 2d6!+Support: <=first nothing, up to second one "
                   "ailment, above all (L1467; the draft's Status Recovery 14-16/17+: [13, 16])",
                   kind="intlist", length=2, lo=0, hi=100),
        RuleOption("bound_penalty", 2, "Bound: penalty to all rolls (L1463)", lo=0, hi=20),
        RuleOption("bleed_damage", 2, "Bleed: damage at the beginning of each round (L1465)", lo=0, hi=20),
        # --- overcharge thresholds (L153-161), for the flair-tier metric
        RuleOption("flair_tiers", [1, 5, 8, 11], "overcharge counter values where the minor flair, major flair, "
                   "temporary change and permanent change tiers start (L153-161; burst_at is the last tier)",
                   kind="intlist", length=4, lo=1, hi=100),
        # --- talent and ability readings (audit section 2)
        RuleOption("killing_blow_below", 4, "Killing Blow only on a target whose Resolve is below 1/this of its Base "
                   "Resolve (the 4.1 fraction is lost, A37; RULINGS: the draft's 1/4)", lo=1, hi=20),
        RuleOption("aura_of_strength", "adjacent", "Aura of Strength (L1691: 'inflicts 2 damage to all enemies "
                   "in the hexes adjacent to yours' on her successful defence): 'adjacent' = every enemy (not "
                   "dead) within 1 hex on the grid; gridless every enemy whose basic attack is melee (gridless, "
                   "the melee fighters are the ones next to her); 'attacker' = only the attacker, when its attack "
                   "is melee (the reading before issue 35). The draft's positions: every enemy in her position "
                   "(DRAFT L95) either way", kind="choice", choices=("adjacent", "attacker")),
        RuleOption("backlash_on", "every_attack", "Backlash (boss): the attacking girl takes 1d6 on every attack, hit "
                   "or miss ('always', A30a), or on hits only (A30b)", kind="choice", choices=("every_attack", "hits")),
        RuleOption("extra_turn_at", "end_of_round", "Extra Action (boss): its extra turns come at the end of each round "
                   "(A32c) or right after its own turn (a reading of A32a)", kind="choice",
                   choices=("after_own_turn", "end_of_round")),
        # --- the hex battlefield (grid: hex; L1406-1416, L1453, L1463, L1469)
        RuleOption("melee_range", [1, 1], "hexes a melee attack reaches, nearest and farthest: adjacent only (L1453)",
                   kind="intlist", length=2, lo=1, hi=20),
        RuleOption("ranged_range", [2, 3], "hexes a ranged attack reaches, nearest and farthest: two to three (L1453)",
                   kind="intlist", length=2, lo=1, hi=20),
        RuleOption("disengage", "moves", "leaving a hex adjacent to an enemy takes Disengage, a Major action (L1412): "
                   "'moves' = Disengage moves her 1 hex (A14a); 'unlocks' = it only lets her leave, the hex is "
                   "paid as any move (A14b)", kind="choice", choices=("moves", "unlocks")),
        RuleOption("rough_cost", "same_turn", "leaving rough terrain costs two hexes of movement (L1414): both "
                   "movement actions of one turn ('same_turn', A15a) or paid over two turns ('split', A15b)",
                   kind="choice", choices=("same_turn", "split")),
        RuleOption("reckless_bands", [10, 13], "Reckless Movement 2d6!+Support: <=first she stays, up to second she "
                   "moves, above she moves unhurt (L1416)", kind="intlist", length=2, lo=0, hi=100),
        RuleOption("reckless_damage", [2, 2], "damage Reckless Movement deals her in its first and second band "
                   "(L1416)", kind="intlist", length=2, lo=0, hi=20),
        RuleOption("bound_reckless", "major", "Bound: movement requires a Major action (L1463); Reckless Movement "
                   "then too ('major') or it stays a Minor action ('minor') (A25v)", kind="choice",
                   choices=("major", "minor")),
        RuleOption("intercept_bands", [10, 13], "Intercept 2d6!+Defence: <=first fails, up to second she takes the "
                   "full damage, above half of it and the target none (L1469, A26a: after the hit)",
                   kind="intlist", length=2, lo=0, hi=100),
        RuleOption("intercept_reductions", "target", "what reduces an interceptor's share of a hit (L1469 is "
                   "silent): 'target' = the reductions of a hit (Shield L1613 'a target of an attack', Bulwark, "
                   "Reflector L1528 'attacks the bearer') act on the target's share only, what the interception "
                   "leaves her; the interceptor's share only by her Thick Hide (L1997: 'each time the monster "
                   "takes damage from an attack'); 'interceptor' = her share is reduced as a hit on her (her "
                   "Thick Hide and Bulwark, her side's Shield, a Reflector she bears); 'both' = the target's "
                   "reductions act on the whole hit first, then the interceptor's on her share of what is left",
                   kind="choice", choices=("target", "interceptor", "both")),
        RuleOption("intercept_half", "down", "rounding of the interceptor's half damage (A26iii)", kind="choice",
                   choices=("down", "up")),
        # --- talent ranges and labyrinth features on the grid (L2126-2166; audit 1.15 item 67)
        RuleOption("pendulum_moves", "round", "labyrinth Pendulum 'moves ... each turn' (L2143): once per round, at "
                   "its end ('round', A44a) or after every combatant's turn ('turn', A44b)", kind="choice",
                   choices=("round", "turn")),
        RuleOption("talent_ranges", "book", "grid: a talent reaches the range of its catalog row (range_hexes: "
                   "Heal 0-3, Remedy 0-2, Curse 1-3, Deafening Scream radius 3, Fear Aura 1, ...; 'book') or the "
                   "whole field ('unlimited', as gridless)", kind="choice", choices=("book", "unlimited")),
        # --- sorcery in battle (L1169-1223, L1471), cast by a girl whose policy has sorcery
        RuleOption("sorcery_window", [10, 12, 17], "battle sorcery (an ailment on one enemy, A27iv) uses the "
                   "window [low, mid, high] (L1173-1181): above low a success with a side effect (+1 overcharge "
                   "on Fury), from mid a clean success, from high a success with a drawback (+1 overcharge) and "
                   "a benefit (a second ailment)", kind="intlist", length=3, lo=0, hi=100),
        RuleOption("sorcery_penalty", [4, 2, 0], "sorcery penalty cast as a Minor action, a Major action, the whole "
                   "turn (L1471)", kind="intlist", length=3, lo=0, hi=20),
        RuleOption("sorcery_low", "fails", "a sorcery result exactly at the window's low number: 'fails' (the text "
                   "says 'above the lowest', A27i-b), 'side_effect' (A27i-a) or 'clean' (A27i-c)", kind="choice",
                   choices=("fails", "side_effect", "clean")),
        # --- witches (L2216-2222)
        RuleOption("witch_pool_start", "full", "a witch's one overcharge counter (L2216-2222) starts full, at her "
                   "pool_cap ('full', A36i-a, as a monster's pool) or empty ('empty', A36i-b); her sixes fill it",
                   kind="choice", choices=("full", "empty")),
        # --- episodes: several scenes with rests (schema ``episode:``; L1420, L1443, L1571, A6, A18, A54)
        RuleOption("scene_resolve", "carry", "a girl's Resolve at the start of the next scene of an episode: what "
                   "she ended the last one with ('carry'; the seed has no refill, and Recover exists to regain "
                   "Resolve out of combat, L1571), or back to her (wound-penalised) maximum ('full') "
                   "(episode reading, A54)", kind="choice", choices=("carry", "full")),
        RuleOption("scene_downed", "rise", "a girl still at 0 Resolve when a scene ends: her pending revive "
                   "(L1445, A19a) gives its Resolve before the next scene ('rise'), or she starts it down and out "
                   "unless a rest's Recover lifts her ('down') (episode reading, A19, A54)",
                   kind="choice", choices=("rise", "down")),
        RuleOption("scene_overcharge", "carry", "overcharge counters at the start of the next scene: carried over "
                   "(A6: 'counters carry over between scenes') or back to the starting counters ('reset')",
                   kind="choice", choices=("carry", "reset")),
        RuleOption("episode_uses", "episode", "talents with uses per episode: counted over the whole episode "
                   "('episode', A54) or afresh every scene ('scene', the single-fight reading)", kind="choice",
                   choices=("episode", "scene")),
        RuleOption("wound_penalty", "level", "between scenes a girl with wounds loses 1d6 per wound level "
                   "('level', A18i a: the cumulative track's level, A16a) or per separate wound ('wounds', A18i b: "
                   "hits that dealt wound damage) minus Tenacity from her maximum Resolve (L1443); rolled at the "
                   "start of the next scene for the levels gained since her last roll (A18ii c); 'none' = no "
                   "penalty", kind="choice", choices=("level", "wounds", "none")),
        RuleOption("min_max_resolve", 1, "the wound penalty never takes a girl's maximum Resolve below this "
                   "(A18iii: the text is silent)", lo=0, hi=200),
        RuleOption("recover", [1, 2], "Recover (basic talent, out of combat) regains dice d6 + bonus Resolve, "
                   "never above the wound-penalised maximum (L1571)", kind="intlist", length=2, lo=0, hi=50),
        RuleOption("recover_uses", 2, "Recover uses per girl per episode; -1 = no limit (its uses line is lost, "
                   "A38; an MB 4.0 sheet gives 2/Episode)", lo=-1, hi=100),
        RuleOption("episode_draw", "ends", "a scene that ends in a draw (round cap) ends the episode ('ends') or "
                   "the party goes on to the next scene if a girl still stands ('continues') (RULINGS: draws)",
                   kind="choice", choices=("ends", "continues")),
        # --- bursts (L149-161, L451-453, L744-762, L1163-1165; audit items 12-18, A6-A10)
        RuleOption("bursts", "play", "'play' = a burst at burst_at plays its effect (Heart, Fury, Judgment; bonds "
                   "burn, 0 bonds = the girl is lost); 'count' = bursts are only counted and the counter resets "
                   "(burst_resets), as before bursts played (L161)", kind="choice", choices=("play", "count")),
        RuleOption("burst_timing", "after_action", "A7: a burst plays after the action that set it off resolves "
                   "(A7b, 'after_action'; each of her Minor/Major actions and each action of another "
                   "combatant that gave her the overcharge, gridless, on positions and on the hex grid) or at "
                   "the end of the turn ('after_turn'); A7a (interrupting the action) is not simulated",
                   kind="choice", choices=("after_action", "after_turn", "interrupt"),
                   available=("after_action", "after_turn")),
        RuleOption("heart_burst", "apart", "A8: the Heart Burst's creature: 'apart' = it is a separate encounter "
                   "(A8b), in this fight she loses 1 point of her strongest bond and her counter resets; 'spawn' "
                   "(A8a) = besides, the creature appears in this fight on the other side (a monster of "
                   "heart_creature_spread / heart_creature_power, stats by heart_creature_stats; one per girl "
                   "and fight; grid: the free hex nearest to her)", kind="choice", choices=("apart", "spawn")),
        RuleOption("fury_target", "threat", "A9: whom a frenzied girl attacks or moves toward (L746: closest, "
                   "then greater threat, then hostiles): among the closest standing combatants (allies included, "
                   "not her own Marionette copy; hexes on the grid, positions on the draft's map, gridless all are "
                   "as close) 'threat' = the highest Attack, ties to hostiles, then the first listed; 'random' = "
                   "any of them; 'enemies' = her policy's target among enemies (the turn still the frenzy's, in "
                   "every geometry)",
                   kind="choice", choices=("threat", "random", "enemies")),
        RuleOption("fury_second_turn", "end_of_round", "A9v: the frenzy's second turn each round: at the end of "
                   "the round (A9v-a) or right after her own turn ('consecutive', A9v-b)", kind="choice",
                   choices=("end_of_round", "consecutive")),
        RuleOption("fury_spend", "damage", "A9iii: what a frenzied girl spends on each attack (she must spend, "
                   "L754): 'damage' = 2 Fury OC for +1d6 on a hit when she has 2, else 1 for a hex of movement; "
                   "'movement' = always 1 for movement (the least)", kind="choice", choices=("damage", "movement")),
        RuleOption("fury_retaliate", True, "A9iii: a frenzied girl with 2+ Fury OC spends 2 for a basic attack "
                   "on whoever attacked her, after that attack (L758)", kind="bool"),
        RuleOption("fury_drop", "revive", "A9iv: a frenzied girl dropping to 0 Resolve ends the frenzy; "
                   "'revive' = she makes the normal revive roll (A9iv-a), 'out' = no revive roll (A9iv-b)",
                   kind="choice", choices=("revive", "out")),
        RuleOption("fury_regen_dice", 1, "d6 of Resolve a frenzied girl regains at the start of each of her turns "
                   "(L750)", lo=0, hi=10),
        RuleOption("fury_bond", "strongest", "A9: the bond a Fury Burst burns ('the most appropriate "
                   "thematically', L762): her strongest or her weakest", kind="choice",
                   choices=("strongest", "weakest")),
        RuleOption("judgment_radius", -1, "A10i: hexes a Judgment Burst reaches on the hex grid; -1 = the whole "
                   "battlefield (gridless it is always the whole battlefield)", lo=-1, hi=60),
        RuleOption("judgment_self", False, "A10ii: the bursting girl takes her own explosion's damage", kind="bool"),
        RuleOption("judgment_avoid", "everyone", "A10iii: who may roll to avoid a Judgment Burst: 'everyone' "
                   "(2d6!+Support; a girl at 0 Resolve 2d6+Tenacity), 'girls' (monsters and minions take it), "
                   "'nobody'", kind="choice", choices=("everyone", "girls", "nobody")),
        RuleOption("judgment_downed", "hit", "a Judgment Burst's 'everyone in the vicinity' (L1163) and a girl "
                   "at 0 Resolve (not dead): 'hit' = she is in it (the literal text; she avoids it only with "
                   "2d6 + Tenacity against twice the overcharge, and her wounds may kill her); 'spared' = the "
                   "blast passes over the fallen (no roll, no damage)", kind="choice", choices=("hit", "spared")),
        RuleOption("burst_while_down", "play", "a counter reaching burst_at while she is at 0 Resolve (her "
                   "revive roll's overcharge, L1445): 'play' = it bursts at once ('as soon as the overcharge "
                   "counter hits 13', L161); 'hold' = it waits until she stands again (at 0 Resolve she 'has no "
                   "access to her magic', L1420), then bursts at the start of that turn (a scene's start too)",
                   kind="choice", choices=("play", "hold")),
        RuleOption("judgment_difficulty", 2, "A10: the avoid roll must reach this times the overcharge released "
                   "(L1163: twice)", lo=0, hi=10),
        # --- overcharge talents (Power Dampening L1554, Dampen Overcharge L1748, Overcharge Radiation L2047)
        RuleOption("power_dampening_rolls", "attack", "Power Dampening: the rolls that are 'your magical action' "
                   "(L1554): her attack rolls ('attack'), or also her defence rolls ('any')", kind="choice",
                   choices=("attack", "any")),
        RuleOption("dampen_overcharge_ai", "burst", "Dampen Overcharge (L1748): when the Medium uses it: 'burst' = "
                   "only when the gain would make the ally burst and half of it would not; 'always' = on every gain "
                   "of 2 or more", kind="choice", choices=("burst", "always")),
        RuleOption("dampen_self", False, "Dampen Overcharge helps 'an ally' (L1748): whether the Medium may use it "
                   "on her own overcharge", kind="bool"),
        RuleOption("radiation_stat", "role", "A34: Overcharge Radiation's 1d6 goes on the girl's stat filling the "
                   "role of the monster's highest attribute (a, 'role'; ties: attack, defence, support) or on her "
                   "fullest counter (b, the GM's harshest choice, 'fullest')", kind="choice",
                   choices=("role", "fullest")),
        RuleOption("radiation_range", -1, "Overcharge Radiation: 'a scene spent near this monster' (L2049): hexes "
                   "from the monster at the end of the scene on the grid; -1 = every girl in the scene", lo=-1, hi=60),
        # --- the draft's statuses and talents (seed 001; 4.1 has none of them)
        RuleOption("excited_bonus", 1, "the draft's Excited status (Empower DRAFT L17, Rouse L235), which the seed "
                   "never defines: + this to her attack rolls (a reading; a 4.0 sheet hints 'Excited: +1 t...')",
                   lo=0, hi=10),
        RuleOption("calm_bonus", 1, "the draft's Calm status, never defined in the seed: + this to her defence "
                   "rolls (a reading)", lo=0, hi=10),
        RuleOption("mood_status", "by_stats", "which status Empower / Rouse give: 'excited', 'calm', or "
                   "'by_stats' (Excited when her Attack is at least her Defence, else Calm)", kind="choice",
                   choices=("excited", "calm", "by_stats")),
        RuleOption("detonation_min", 6, "the AI's use of the draft's Magic Detonation (DRAFT L307): only against a "
                   "target with at least this much overcharge (a girl's Magic counter, a monster's pool); 6 beats "
                   "a melee attack's average damage", lo=0, hi=100),
        # --- movement talents (grid)
        RuleOption("move_attack_step", "book", "Dash Strike / Pounce (L1811, L2080, 'move 1 hex and make a basic "
                   "attack'): 'book' = the hex is ordinary movement (not from a hex next to a standing enemy, which "
                   "needs Disengage, L1412; not out of rough terrain, which costs 2, L1414); 'free' = the talent's "
                   "hex ignores both", kind="choice", choices=("book", "free")),
        RuleOption("teleport_sight", "obstacles", "Teleport (L1624, 'a place in the direct line of sight'; it "
                   "cannot pass magical barriers): what blocks the line from her hex to the place: 'obstacles' = "
                   "solid obstacles and magical barriers; 'barriers' = only magical barriers (people never do)",
                   kind="choice", choices=("obstacles", "barriers")),
        # --- combatants that appear mid-fight (Minion Creation, the Heart Burst's creature)
        RuleOption("spawn_acts", "next_round", "a combatant that appears mid-fight (Minion Creation L1981-1985, "
                   "the Heart Burst's creature) takes its first turn in the next round ('next_round'), or in the "
                   "round it appears when its initiative slot (rolled with everyone's at the start) is still to "
                   "come ('same_round'); not stated", kind="choice", choices=("next_round", "same_round")),
        RuleOption("minion_creation_default", "guidelines", "Minion Creation (L1981-1985): the stat block of "
                   "the created minions when the scenario's 'creates' names none: 'guidelines' = HP 4, passive "
                   "defence 4 (L2170-2172) and attack & support minion_creation_attack, or an example minion "
                   "(minions.yaml)", kind="choice", choices=("guidelines", "Maintenance imps", "Spider nanny")),
        RuleOption("minion_creation_attack", 2, "Minion Creation: attack & support of the guidelines' minion "
                   "(the book gives no number; 2 = the Maintenance imps, the weaker example, L2202)", lo=0, hi=20),
        RuleOption("minion_creation_count", 4, "Minion Creation: the most minions that can exist (reserve rows) "
                   "when the scenario's 'creates' gives no count (not stated)", lo=1, hi=20),
        RuleOption("heart_creature_spread", 1, "A8a: the Heart Burst's creature's spread (Resolve = spread x the "
                   "power level's multiplier, monster_resolve)", lo=1, hi=10),
        RuleOption("heart_creature_power", 2, "A8: the Heart Burst's creature's power level (not given; 2 = the "
                   "lowest full monster, spread x 12)", lo=2, hi=20),
        RuleOption("heart_creature_stats", "girl", "A8: the creature's attack/defence/support ('use the Monster "
                   "section, consider giving it her signature talents', L453): 'girl' = her own attack, defence "
                   "and support values, 'heart' = her Heart in all three; no talents; damage bonus and pool by "
                   "monster_damage_bonus / monster_oc_pool", kind="choice", choices=("girl", "heart")),
        RuleOption("marionette_decoy", "random", "A53 (Marionette L1831-1834: can enemies tell the copy apart?): "
                   "gridless, when an enemy's policy picks her while her copy stands (its targeting sees the copy "
                   "as her), it attacks 'random' = either, a coin flip; 'copy' = the copy; 'girl' = her. On the "
                   "grid the copy is a target of its own hex (keyed as her)", kind="choice",
                   choices=("random", "copy", "girl")),
        RuleOption("marionette_place", "enemy", "Marionette on the grid: the copy goes to the free hex within the "
                   "talent's range (1-4) nearest to the nearest standing enemy ('enemy') or nearest to her "
                   "('self'); on the draft's positions the position within 0-3 of her nearest to the nearest "
                   "standing enemy, or her own position ('self'); not stated", kind="choice", choices=("enemy", "self")),
        # --- area and terrain talents (Blast Strike, Burst Attack, Gravity Wave, Veil, Rough Going,
        # Lashing Ground; catalog rows 49, 55, 59, 74, 75, 90)
        RuleOption("area_targets", 2, "gridless: enemies an area attack (Blast Strike L1801, Burst Attack L1965, "
                   "Gravity Wave L2037) reaches without a grid (the policy's target, then the next listed); the "
                   "text gives only hex areas", lo=1, hi=20),
        RuleOption("area_allies", False, "grid: the area attacks also attack the attacker's own allies standing "
                   "in the area ('every target on the line', L1803, read as enemies by default)", kind="bool"),
        RuleOption("gravity_targets", "pulled", "A43: whom Gravity Wave's attack reaches, 'all targets within the "
                   "same position' (L2040): every target within its range after the pull ('pulled', A43a) or "
                   "those now adjacent ('adjacent', A43b); A43c (one hex line) is not simulated", kind="choice",
                   choices=("pulled", "adjacent")),
        RuleOption("veil_gridless", "all", "gridless Veil (L2121, -2 to anyone not within 1-2): 'all' = every "
                   "attacker takes the penalty (nobody is placed); 'none' = nobody (the Veil is never raised)",
                   kind="choice", choices=("all", "none")),
        RuleOption("burst_attack_cost", 0, "A31: Burst Attack's cost in overcharge pool points, not stated (L1965): "
                   "0 (A31a: a Major action, 0 OC) or 1 (A31b: like Blast Strike)", lo=0, hi=5),
        RuleOption("mine_trigger", "anyone", "Mines (L2062, 'someone else enters a hex adjacent'): who sets a mine "
                   "off by entering its hex or one next to it: 'anyone' but its owner, or only the owner's "
                   "'enemies'; entering by forced movement or leaving does not set it off", kind="choice",
                   choices=("anyone", "enemies")),
        RuleOption("mine_bonus", 4, "Mines: + damage against the one who entered the mine's own hex (L2064)",
                   lo=0, hi=20),
        RuleOption("scatter_edge", 4, "Scattering shot: hexes from the circle's centre to its edge, where those "
                   "in it are pushed ('a radius of 5 (including the central hex)', L2096: 4; 5 counts the radius "
                   "from the centre)", lo=1, hi=20),
        RuleOption("scatter_self", True, "Scattering shot: the shooter standing in the circle is pushed too "
                   "('everybody in that circle', L2096)", kind="bool"),
        RuleOption("mine_step_out", True, "Mines: someone stepping out of a mine's range (from a hex within 1 of "
                   "it to a farther one) sets it off too, unharmed ('it will detonate the next time somebody enters "
                   "into or steps out of the range', L2065); false: only entering does", kind="bool"),
        # --- the draft's Battlefield map of positions (seed 001 DRAFT L474-510; mb-draft only, positions.py)
        RuleOption("positions", 0, "the draft's Battlefield map (DRAFT L480, L496-510), whose shape the seed "
                   "never states: a line of this many positions, distance |a - b| positions, several "
                   "combatants to a position; 0 = no map, the fight is gridless (theatre of the mind)",
                   lo=0, hi=12),
        RuleOption("melee_positions", [0, 0], "positions a basic melee attack reaches, nearest and farthest: "
                   "'range of 0, the same position as the target' (DRAFT L480, L482)", kind="intlist",
                   length=2, lo=0, hi=11),
        RuleOption("ranged_positions", [1, 2], "positions a basic ranged attack reaches, nearest and farthest: "
                   "'1 or 2 positions away (but not targets in the same position)' (DRAFT L480, L484)",
                   kind="intlist", length=2, lo=0, hi=11),
        RuleOption("rough_positions", [0, 0, 0, 0], "the positions (1-based, 0 = no entry, up to 4) that have "
                   "Rough Terrain: leaving one takes 2 positions' worth of movement or Reckless Movement "
                   "(DRAFT L508-510; which positions are rough is the scenario's)", kind="intlist", length=4,
                   lo=0, hi=12),
        RuleOption("position_gap", -1, "the default formation, not stated in the seed (DRAFT L480 gives no "
                   "starting rule; L123 names 'Position 1'): the first side starts at position 1, the second "
                   "this many positions further (clamped to the map); -1 = the far end (position "
                   "'positions'); a member's own 'position:' overrides it", lo=-1, hi=11),
        RuleOption("position_forms", "both", "positions: which basic attacks a combatant has (DRAFT L482-484 "
                   "list both for everyone, L478 'in melee or at range'): 'both' = she attacks with the one the "
                   "distance allows (her attack_kind when both do) and moves to her attack_kind's range; "
                   "'kind' = only her attack_kind", kind="choice", choices=("both", "kind")),
        RuleOption("engage_downed", False, "positions: a downed enemy (0 Resolve, not dead) in her position "
                   "also keeps her from leaving with Movement (DRAFT L498, L504 'one or more enemies in the "
                   "same Position'; false = only standing enemies, as on the hex grid)", kind="bool"),
        # --- Create Barrier (L1693-1697; catalog row 30; A52)
        RuleOption("barrier_shape", "circle", "Create Barrier (L1697): the shape the Guardian raises: 'circle' = a "
                   "ring of barrier hexes one hex beyond the radius (those on the radius's edge are inside), the "
                   "largest radius up to barrier_radius whose ring lies wholly on the field with no standing "
                   "enemy within it, else (not enough space, L1697) the straight wall; 'wall' = always the wall",
                   kind="choice", choices=("circle", "wall")),
        RuleOption("barrier_radius", 3, "Create Barrier: the largest circle radius in hexes ('a radius of up to "
                   "three hexes', L1697); the barrier hexes stand radius + 1 hexes from her", lo=1, hi=3),
        RuleOption("barrier_wall_length", 7, "A52: Create Barrier's straight wall length in hexes, not stated "
                   "(7 = the adjacent hex it passes through and 3 either side)", lo=1, hi=41),
        RuleOption("barrier_blocks_ranged", True, "A52: a raised barrier blocks attacks from 2+ hexes (ranged) "
                   "whose hex line crosses one of its hexes, not stated (false: only movement and teleports)",
                   kind="bool"),
        RuleOption("barrier_defence", "auto", "A52: a raised barrier's defence, not stated: 'auto' = an enemy "
                   "who cannot reach anyone because of it attacks a barrier hex in reach and hits "
                   "automatically, the damage roll off the barrier's 20 Resolve (at 0 every hex of it is "
                   "gone); 'indestructible' = it stands for the whole fight", kind="choice",
                   choices=("auto", "indestructible")),
        # --- the draft's Get Back on positions (DRAFT L119-123)
        RuleOption("get_back_to", "own_end", "positions: where Get Back sends the ally, 'Position 1' (DRAFT "
                   "L123), read from her side: 'own_end' = the end of the map her side starts at (Position 1 "
                   "for the first side, the last position for the second); 'position_1' = Position 1 for both "
                   "sides", kind="choice", choices=("own_end", "position_1")),
        # --- talents in a Fury frenzy (L752)
        RuleOption("fury_talents", "fury_linked", "A9ii: the talents a frenzied girl may use (L752: 'instead "
                   "of gaining Fury Overcharge when using talents, she may spend it on using Talents, but only "
                   "the Talents linked to Fury Overcharge'): 'fury_linked' (A9ii-b) = only talents with an "
                   "overcharge cost on the role Fury fills for her, the cost spent from her Fury; "
                   "'and_costless' (A9ii-a) = those and the talents that cost no overcharge; 'none' = no "
                   "talents at all. Passive talents (no action) always apply; Boost never (it gains "
                   "overcharge)", kind="choice", choices=("fury_linked", "and_costless", "none")),
        # --- wounds of a girl at 0 Resolve, a non-magical human (L1420-1443, L1455; A16, A17)
        RuleOption("wound_model", "track", "A16: how a 0-Resolve girl's wounds accumulate (L1422: levels 1-2 / "
                   "3-4 / 5 damage, 'at 6 points of damage a person dies'): 'track' (A16a) = all her wound "
                   "damage on one track, death_wounds of it kills; 'per_hit' (A16b) = each hit is a separate "
                   "wound of the level its damage gives, a single hit of death_wounds kills, her worst wound "
                   "sets her roll penalty and the levels add up for the maximum-Resolve penalty; 'boxes' "
                   "(A16c) = each damaging hit fills one box, levels 1, 2, 3, the fourth hit kills",
                   kind="choice", choices=("track", "per_hit", "boxes")),
        RuleOption("downed_damage", "full", "A17: the damage a magical attack deals a girl at 0 Resolve (a "
                   "non-magical human, L1420): 'full' (A17a) = the rolled damage; 'weapon' (A17b) = 1d6, a "
                   "regular weapon's damage to a non-magical being (L1455)", kind="choice",
                   choices=("full", "weapon")),
        RuleOption("wound_roll_penalty", [2, 3, 4], "penalty to the rolls of a girl at 0 Resolve by her wound "
                   "level 1 / 2 / 3 (L1422: a human's wounds give -2 / -3 / -4 on all rolls; a transformed girl "
                   "ignores them, L1443): her Tenacity defence (L1455) and her roll to avoid a Judgment Burst",
                   kind="intlist", length=3, lo=0, hi=20),
        # --- Wave of Courage (L1746) / the draft's Healing Wave
        RuleOption("group_heal_roll", "each", "A45: Wave of Courage's 'regain 1d6+1' (and the draft's Healing "
                   "Wave): one roll for each recipient ('each', A45b) or one roll that every recipient regains "
                   "('once', A45a)", kind="choice", choices=("each", "once")),
        # --- Belkan System (L1675-1680)
        RuleOption("belkan_stacks", "spent", "A48: Belkan System's stored +2 per melee hit (at most 3): spent "
                   "on her next attack, hit or miss ('spent', A48a: 'declare that you are using it before you "
                   "roll'), or a standing bonus on her attacks for the rest of the scene once earned "
                   "('standing', A48b)", kind="choice", choices=("spent", "standing")),
    ],
)

#: the options whose defaults are assumptions for lost text (shown in reports)
ASSUMPTIONS = ("monster_resolve", "monster_damage_bonus", "monster_oc_pool")


def monster_resolve(spread: int, power_level: int, table) -> int:
    """Monster Resolve from spread and power level (L1894-1946, A28).

    ``table`` holds the multipliers for power levels 2..6; above 6 each level
    adds 1 to the multiplier ("18+n").
    """
    if power_level <= 6:
        mult = table[power_level - 2]
    else:
        mult = table[4] + (power_level - 6)
    return spread * mult
