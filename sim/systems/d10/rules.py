"""d10 combat add-on rule options (seeds 002/003, the same text), one table.

Every rules number the kernel uses and every reading of an ambiguous passage
(audit ids D1..D30 in ``shared/rules/RULES_AUDIT.md`` section 4, settled per
``shared/rules/RULINGS.md``) is an option here. Line numbers (L..) are those
of ``shared/seeds/003_56c8c585b597d64f.txt``. ``sim rules d10`` prints this
table; scenarios override entries in their ``rules:`` block.

Numbers that belong to one power or perk (Killing Blow's 3 mana, Tentacles'
-2/-4...) are in the catalog rows (``catalog/*.yaml``), not here.
"""
from __future__ import annotations

from sim.ruleset import RuleOption, Ruleset

RULES = Ruleset(
    system="d10",
    options=[
        # --- campaign structure
        RuleOption("mode", "cake", "'cake' = Cake and Ice Cream: a full wound pool knocks a girl out, empty pool at each "
                   "new episode; 'grim' = Guns and Grim: a full pool kills, one wound threshold erased per episode "
                   "(L59-69)", kind="choice", choices=("cake", "grim")),
        RuleOption("episodes", 1, "episodes per trial; wounds heal between episodes by mode, Fortune refreshes (L57-69)",
                   lo=1, hi=20),
        RuleOption("fights_per_episode", 1, "fights per episode against fresh enemies; side 1 is rebuilt each fight, "
                   "side 0 keeps wounds, Fortune, KOs and deaths; Mana refreshes after every fight (L55)", lo=1, hi=20),
        RuleOption("initiative", "roll", "'roll' = Agility test, most successes first, ties by Agility score, then "
                   "opposed Agility re-rolls (L73); 'listed' = sides in order, members in order", kind="choice",
                   choices=("roll", "listed")),
        RuleOption("round_cap", 30, "a fight still running after this many rounds is a draw (RULINGS)", lo=1, hi=500),
        RuleOption("defeat", "all_out", "a side is defeated when none of its members is still in the fight (out, dead "
                   "or retreated) at the end of any action (RULINGS)", kind="choice", choices=("all_out",)),
        # --- dice (L11-17)
        RuleOption("success_face", 7, "lowest d10 face that is a success (L11)", lo=2, hi=10),
        RuleOption("double_face", 10, "lowest d10 face that counts two successes (L11)", lo=2, hi=11),
        RuleOption("penalty_order", "net", "bonus and penalty dice: 'net' = added together, pool floored at 0 (a pool "
                   "can shrink to nothing); 'base_first' = penalties taken off the ability dice first (floored at 0), "
                   "bonus dice added after (D3)", kind="choice", choices=("net", "base_first")),
        # --- wounds (L31-49)
        RuleOption("wound_multiplier", 2, "wound pool = this x Vitality (L31)", lo=1, hi=10),
        RuleOption("threshold_rule", "exact", "thresholds when 2xVIT is not a multiple of 4 (D2): 'exact' = penalty "
                   "once wounds exceed 25/50/75 % of the pool (both worked examples, L33); 'floor' / 'ceil' = band size "
                   "floor/ceil(pool/4)", kind="choice", choices=("exact", "floor", "ceil")),
        RuleOption("threshold_penalties", [1, 2, 3], "dice lost in the 2nd, 3rd and 4th wound threshold (L33)",
                   kind="intlist", length=3, lo=0, hi=20),
        RuleOption("permanent_wounds", "off", "'on': a girl who would be taken out takes a permanent wound (d20 table) "
                   "instead (L35-49, the rule option)", kind="choice", choices=("off", "on")),
        RuleOption("permanent_die", "d20", "permanent-wound table die (D4 i): 1d20, 2d10 summed, or a d10 with a second "
                   "d10 choosing the half", kind="choice", choices=("d20", "2d10", "d10x2")),
        RuleOption("permanent_after", "minus_one", "after a permanent wound (D4 ii): 'minus_one' = stays in at pool - 1; "
                   "'drop_threshold' = pool drops back one threshold", kind="choice",
                   choices=("minus_one", "drop_threshold")),
        RuleOption("permanent_limit", 1, "most permanent wounds per girl per fight; -1 = no limit (D4 ii: house rule, "
                   "flagged)", lo=-1, hi=20),
        RuleOption("permanent_npcs", False, "enemies may take permanent wounds too (D4 iii)", kind="bool"),
        RuleOption("grim_heal_thresholds", 1, "Guns and Grim: wound thresholds erased at each new episode (L69); a "
                   "threshold = a quarter of the pool, rounded up", lo=0, hi=4),
        # --- damage (L85, L93)
        RuleOption("damage_formula", "as_written", "wounds of a hit (D11): 'as_written' = max(1, 1 + margin - DR) (L85); "
                   "'example' = max(1, margin - DR), the worked example's numbers (L93)", kind="choice",
                   choices=("as_written", "example")),
        RuleOption("min_wounds", 1, "a hit never deals fewer wounds than this (L85)", lo=0, hi=5),
        RuleOption("default_dr", 1, "outfit damage reduction when a member gives none (D10: 'no worse than most "
                   "other outfits', L93)", lo=0, hi=10),
        RuleOption("familiar_dr", 0, "damage reduction of a familiar (D20)", lo=0, hi=10),
        # --- attacks and defences (L75-85)
        RuleOption("augment_cap", 3, "most mana augmentation dice on one test (L77)", lo=0, hi=20),
        RuleOption("spec_cost", 1, "mana cost of a specialization use (L51, D17 iv)", lo=0, hi=10),
        RuleOption("multi_target_penalty", 1, "penalty dice per target beyond the primary (L81); one roll compared "
                   "with each defender (D8)", lo=0, hi=10),
        RuleOption("spec_tie", "caster", "a specialization effect is resisted only by a defence that exceeds its "
                   "result ('caster' wins ties) or that meets it ('defender') (D7 i)", kind="choice",
                   choices=("caster", "defender")),
        RuleOption("spec_penalty_unit", "dice", "unit of the -2..-4 of a specialization effect (D7 ii)", kind="choice",
                   choices=("dice", "successes"), available=("dice",)),
        RuleOption("escape_tie", "meet", "pulling free of a specialization effect, tentacles or hammerspace: a test "
                   "that meets the target number frees her (D7 iii, D25 iii: reading)", kind="choice",
                   choices=("meet", "exceed")),
        RuleOption("parry_wounds", 1, "wounds a successful Parry deals to the attacker, DR not applied (L83, D9 i)",
                   lo=0, hi=5),
        RuleOption("block_mana", 1, "mana a successful Magic Block restores, capped at the pool (L83, D9 ii)",
                   lo=0, hi=5),
        RuleOption("killing_blow_test", "weapon", "Killing Blow test (D19 ii): 'weapon' = the attack's own test; "
                   "'magic' = always Magic", kind="choice", choices=("weapon", "magic")),
        RuleOption("focused_assault", "max", "Focused Assault on a hit (D21): 'max' = the larger of the normal wounds "
                   "and a drop into the next threshold; 'replace' = the drop only; 'add' = normal wounds plus the "
                   "drop; 'one' = 1 wound, DR ignored", kind="choice", choices=("max", "replace", "add", "one")),
        # --- resources (L51-57, L113)
        RuleOption("fortune_successes", 2, "successes one Fortune point adds (L53)", lo=0, hi=10),
        RuleOption("recharge_mana", 3, "mana a Recharge action restores (L113)", lo=0, hi=20),
        RuleOption("recharge_penalty", 2, "defence dice lost until her next turn after Recharge (L113)", lo=0, hi=20),
        RuleOption("recharge_cap", "capped", "Recharge and other mana gains stop at the pool maximum (D18 a) or may "
                   "exceed it (b)", kind="choice", choices=("capped", "uncapped")),
        # --- other actions (L103-113)
        RuleOption("aid_dice", 2, "bonus dice an Aid gives to the ally's next action (L105)", lo=0, hi=10),
        RuleOption("aid_success", 1, "successes the aider's test needs (D15 a)", lo=0, hi=10),
        RuleOption("hide_effect", "untargetable", "what hidden does until the end of her next turn (D14 a); attacking "
                   "reveals her", kind="choice", choices=("untargetable",)),
        RuleOption("endurance", "vitality", "the 'Endurance' of Retreat and Pursue (D16)", kind="choice",
                   choices=("vitality", "agility")),
        RuleOption("pursue_reroll", "immediate", "after a successful Pursue the retreater re-rolls at once (D17 ii a); "
                   "'next_action' = the re-roll is her next action", kind="choice",
                   choices=("immediate", "next_action")),
        RuleOption("familiar_grief", 2, "dice the owner loses on every roll once her familiar dies (Guns and Grim; "
                   "L155)", lo=0, hi=10),
        # --- issue 35: readings the seed leaves open (docs/d10.md "Rulings")
        RuleOption("block_mana_on", "any_magic", "a Magic Block that holds restores its mana (seed 002 L241-243: a "
                   "Magic test defends against 'Mystic Attacks and uses of Magic', 'a successful shield will absorb "
                   "the energy of the attack'): 'any_magic' = against every use of Magic it defends, a Tentacles "
                   "grapple (L175) and a Hammerspace trap (L153) too; 'attacks' = only against an attack, a mystic "
                   "weapon or a specialization use (the engine before issue 35)", kind="choice",
                   choices=("any_magic", "attacks")),
        RuleOption("hold_ends", "escape", "a hold (penalty spell, Tentacles grapple or pin) lasts 'until she pulls "
                   "herself free' (L79, L175): 'escape' = only then, even once its holder is out of the fight (the "
                   "literal text); 'holder_out' = also the moment its holder is knocked out, dies or flees", kind="choice",
                   choices=("escape", "holder_out")),
        RuleOption("recast", "keep_higher", "a penalty spell landing on a target already held by a spell (L79; the "
                   "seed is silent): 'keep_higher' = the stronger hold stays, the larger penalty and on equal "
                   "penalties the higher target number (a second spell never loosens a hold); 'replace' = a spell of "
                   "at least the same penalty replaces the hold and its target number (the engine before issue 35: "
                   "a lower result made the hold easier to escape); 'forbid' = a spell cannot be aimed at a target "
                   "held by a spell (an area use leaves her as she is)", kind="choice",
                   choices=("keep_higher", "replace", "forbid")),
        RuleOption("hammerspace_stored", "out", "a living enemy stored in Hammerspace (L153: she 'can make a Magic "
                   "Test every round to escape'; the seed is silent on the fight's end): 'out' = while stored she "
                   "does not keep her side in the fight, so a side whose every member still in it is stored has "
                   "lost (the last enemy trapped ends the fight); 'in' = she keeps her side in, and a fight whose "
                   "last enemies are stored runs on until one escapes or the round cap calls a draw (the engine "
                   "before this option: a trapped minion without Magic dice made 84% of the audit's trio fights "
                   "draws)", kind="choice", choices=("out", "in")),
    ],
)
