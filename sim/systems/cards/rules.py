"""Mahou Shoujo card game (seed 004) rule options, one table.

Every rules number the engine uses and every reading of a gap (audit ids
C1..C24 in ``shared/rules/RULES_AUDIT.md`` section 5, settled per
``shared/rules/RULINGS.md``) is an option here; ``sim rules cards`` prints
it. The order of the options is the order of the packed array the engine
reads (``engine.R_*``, checked by ``tests/test_cards_rules.py``).
"""
from __future__ import annotations

from sim.ruleset import RuleOption, Ruleset

RULES = Ruleset(
    system="cards",
    options=[
        RuleOption("gems_to_win", 3, "first to this many full gems wins (L5, L7)", lo=1, hi=10),
        RuleOption("turn_cap", 150, "a game still running after this many turns (both players' turns counted) "
                   "is a draw (sim safeguard; decks run out long before)", lo=4, hi=400),
        RuleOption("actions_per_turn", 2, "actions per turn (L16)", lo=1, hi=5),
        RuleOption("starting_heroes", 3, "heroes searched from the deck into the starting hand (L13)", lo=0, hi=6),
        RuleOption("opening_draw", 4, "cards drawn after the hero search (L13)", lo=1, hi=8),
        RuleOption("first_player", "coin", "C14: who goes first: coin flip (default), or fixed to the first/second "
                   "listed side for seat studies", kind="choice", choices=("coin", "first_listed", "second_listed")),
        RuleOption("first_draw_skip", True, "the first player does not draw on the first turn (L14-15)", kind="bool"),
        RuleOption("deck_size", 40, "C3: exact deck size a deck list must have (invented, audit default 40)",
                   lo=10, hi=60),
        RuleOption("copy_limit", 4, "C3: most copies of one card in a deck (invented; the audit sets none)", lo=1, hi=60),
        RuleOption("attack_damage", "atk_stat", "C1: an attack deals the fighter's combined ATK (a) or a fixed 1 (b; "
                   "reading (c), damage = MGK spent, is also 1 since an attack spends 1 MGK)", kind="choice",
                   choices=("atk_stat", "fixed_1")),
        RuleOption("card_pool", "invented_starter", "C2: the seed gives no cards; the shipped pool is invented "
                   "(catalog/cards.yaml) and marked so", kind="choice", choices=("invented_starter",)),
        RuleOption("stats_combine", "sum", "C4: on Transform the girl's stats are added (sum), replace the hero's ATK "
                   "and MGK (girl_replaces) or the larger is kept (max); HP always adds (L51)", kind="choice",
                   choices=("sum", "girl_replaces", "max")),
        RuleOption("pair_gems", 1.5, "C5 (RULINGS): a transformed active fighter reduced to 0 HP awards 1.5 gems "
                   "(hero's half + girl's one) or 1", kind="choice", choices=(1.5, 1)),
        RuleOption("exhaust_gem", False, "C6: a girl leaving through MGK exhaustion gives the rival a gem (default no)",
                   kind="bool"),
        RuleOption("grand_expiry_gem", False, "C7: a Grand Transformation expiring gives the rival gems as for a "
                   "defeat of what leaves (the pair's 1.5, or the girl's 1 under grand_expiry keep_hero; default no)",
                   kind="bool"),
        RuleOption("grand_needs_transformed", True, "C8: a Grand Transformation attaches only to a transformed active "
                   "fighter (plus the card's own condition)", kind="bool"),
        RuleOption("grand_attack", "attack_action", "C8: the Grand's one attack costs no MGK and is taken with the "
                   "Attack action (L35 '(ATTACK action)'), or is made at once as part of the Grand action",
                   kind="choice", choices=("attack_action", "immediate")),
        RuleOption("mulligan", "repeat", "C9: redraw the 4 cards until they hold a magical girl (repeat) or once",
                   kind="choice", choices=("repeat", "once")),
        RuleOption("hand_limit", 0, "C10: hand size kept at the end of your turn (random discards); 0 = no limit",
                   lo=0, hi=30),
        RuleOption("deck_out", "any_draw", "C11: drawing from an empty deck loses at any time (any_draw) or only in "
                   "the out-of-heroes procedure (L53)", kind="choice", choices=("any_draw", "out_of_heroes_only")),
        RuleOption("event_cost", "free", "C12: Events cost no MGK (free) or their printed cost from the active "
                   "fighter (mgk)", kind="choice", choices=("free", "mgk")),
        RuleOption("events_per_window", 1, "C12: events the defender may play in response to one opponent action "
                   "(an Attack or a damaging Power, before damage; with event_timing any_time also after each "
                   "action); 0 = none", lo=0, hi=5),
        RuleOption("repeat_actions", True, "C13 (RULINGS): the same action may be taken twice in a turn", kind="bool"),
        RuleOption("replacement", "immediate", "C15: a defeated active fighter is replaced at once, free, by the "
                   "owner's choice from the Squad or hand; with no hero, the L53 procedure", kind="choice",
                   choices=("immediate", "next_turn"), available=("immediate",)),
        RuleOption("retreat_heal", "full", "C16: on Retreat the fighter going to the Squad is fully healed (full), "
                   "the incoming one is (incoming), or no one (none)", kind="choice",
                   choices=("full", "incoming", "none")),
        RuleOption("retreat_keeps_attachments", True, "C17: attached girl, pets and Grand move with the hero on "
                   "Retreat (true) or go to the Dreamscape (false)", kind="bool"),
        RuleOption("mgk_source", "active_fighter", "C18: MGK for attacks, Powers and Pets comes only from the active "
                   "fighter; heroes may have MGK 0", kind="choice", choices=("active_fighter",)),
        RuleOption("hero_attack", "if_mgk", "C19: an untransformed hero may attack if it has MGK (if_mgk) or never",
                   kind="choice", choices=("if_mgk", "never")),
        RuleOption("pet_damage", "card", "C20: a pet adds its card's ATK (the starter pool's basic pets have +1, the "
                   "audit default) or a flat +1 (plus_one) per attack while attached", kind="choice",
                   choices=("card", "plus_one")),
        RuleOption("pet_limit", 2, "C20: most pets attached to one magical girl (invented; the seed sets none)",
                   lo=0, hi=2),
        RuleOption("win_check", "first_to_reach", "C21: the first player to reach the gem goal at the moment of an "
                   "award wins (halves count)", kind="choice", choices=("first_to_reach",)),
        RuleOption("squad_cap", 3, "C22: heroes on the Squad behind the active fighter (L23)", lo=0, hi=3),
        RuleOption("opening_transformed", True, "C23: the opening hero starts transformed with the opening girl "
                   "(true), or the girl stays in hand until a Transform action (false)", kind="bool"),
        RuleOption("overflow_damage", "none", "C24: damage beyond 0 HP is lost; the Squad never takes damage",
                   kind="choice", choices=("none",)),
        RuleOption("exhaust_hp", "cap_to_hero", "reading of L52: when the girl leaves by MGK exhaustion the hero keeps "
                   "its remaining HP up to its own printed HP (cap_to_hero) or all of it (keep)", kind="choice",
                   choices=("cap_to_hero", "keep")),
        RuleOption("grand_expiry", "keep_hero", "C7/C8/L35: when a Grand Transformation ends (start of the owner's next "
                   "turn) the cards attached to the hero go to the Dreamscape and the hero stays, with MGK 0 and HP as "
                   "in exhaust_hp (keep_hero, the literal L35 reading, and L25: a hero goes to the Dreamscape when "
                   "defeated; the default since issue 35, docs/cards.md 'Rulings'), or the whole stack with the hero "
                   "goes (discard_hero, the audit's C8 sim default and the default before issue 35; an active one is "
                   "replaced as after a defeat)", kind="choice", choices=("keep_hero", "discard_hero")),
        RuleOption("event_timing", "response_window", "C12/L47 'at ANY TIME': Events are played on your own turn "
                   "while actions remain and by the defender before the damage of an Attack or damaging Power "
                   "(response_window); any_time adds the rival's window after each of your actions (up to "
                   "events_per_window) and your own window after your last action", kind="choice",
                   choices=("response_window", "any_time")),
        RuleOption("power_fizzles", False, "a Magical Power's damage when its caster is defeated (or leaves the "
                   "active position) before it lands, in the rival's response window (L43, L47; the seed is silent): "
                   "false = it lands (the card was paid for and its other effects resolved; the default), true = it "
                   "fizzles like an Attack, whose damage follows the fighter that declared it", kind="bool"),
    ],
)

#: audit id -> option names (every gap C1..C24 has at least one option)
AUDIT = {
    "C1": ["attack_damage"], "C2": ["card_pool"], "C3": ["deck_size", "copy_limit"], "C4": ["stats_combine"],
    "C5": ["pair_gems"], "C6": ["exhaust_gem"], "C7": ["grand_expiry_gem", "grand_expiry"],
    "C8": ["grand_needs_transformed", "grand_attack"], "C9": ["mulligan"], "C10": ["hand_limit"],
    "C11": ["deck_out"], "C12": ["event_cost", "events_per_window", "event_timing", "power_fizzles"], "C13": ["repeat_actions"],
    "C14": ["first_player"], "C15": ["replacement"], "C16": ["retreat_heal"],
    "C17": ["retreat_keeps_attachments"], "C18": ["mgk_source"], "C19": ["hero_attack"],
    "C20": ["pet_damage", "pet_limit"], "C21": ["win_check"], "C22": ["squad_cap"],
    "C23": ["opening_transformed"], "C24": ["overflow_damage"],
}
