"""The card engine's declared layout: every field of every kernel array (seed 004).

The only module that declares a field (``tests/test_structure.py`` checks that
no other module of the package assigns a ``G_``, ``P_``, ``SL_``, ``CT_``,
``R_``, ``S_``, ``PP_``, ``CC_`` or ``LG_`` constant, that every declared field
is read and that the sections tile their arrays). The engine reads these
constants (``from .layout import *``).

Arrays (int64 unless said):

* ``g[NSTATE]``: one game: the global fields (:data:`GLOBAL`, ``G_*``), then
  one block of ``NPL`` fields per player (:data:`PLAYER`, ``P_*``, at
  ``NG + p * NPL``): the deck as an ordered array of deck-local card ids (top
  = last), the hand, Dreamscape and seen flags as counts per local id, and
  ``NSLOT`` fighter slots of ``SL`` fields (:data:`SLOT`, ``SL_*``; slot 0
  the active fighter, 1..3 the Squad);
* ``cd[side, MAXD, NCT]``: the cards of each side's deck (:data:`CARD`,
  ``CT_*``, :mod:`.cardsdata`); a card's effect k (0, 1) is ``CT_OP + k``,
  ``CT_AMT + k``, ``CT_PAR + k``;
* ``rr``: one entry per rule option of :data:`.rules.RULES`, in its order
  (:data:`RULE_TABLE`, ``R_*``);
* ``pol[2, NPP]``: each side's policy parameters (:data:`POLICY`, ``PP_*``);
* ``st[NST, w]`` uint64: the random streams (:data:`STREAMS`, ``S_*``);
* ``cardc[..., MAXD, NCARDC]``: per-card counters (:data:`CARD_COUNTERS`, ``CC_*``);
* ``lg[k, LOGW]``: the game log, one event a row (:data:`LOG`, ``LG_*``).
"""
from __future__ import annotations

from sim.layout import Field as F
from sim.layout import Section, constants, stack

from .codes import DECK_MAX, MAXD, NSLOT
from .rules import RULES

GLOBAL = Section("G", "a game's global fields (``g[G_*]``)", [
    F("PHASE", 1, "who must decide what: PH_*"),
    F("TOMOVE", 1, "the player to decide"),
    F("TURN", 1, "turn number, both players' turns counted (1 = the first player's first)"),
    F("CUR", 1, "the player whose turn it is"),
    F("ACTS", 1, "actions left this turn (L16)"),
    F("FIRST", 1, "the player who went first (C14)"),
    F("WINNER", 1, "0 or 1, 2 a draw, -1 still playing"),
    F("REASON", 1, "why the game ended: RE_*"),
    F("PKIND", 1, "pending damage: 0 none, 1 an Attack, 2 a Power"),
    F("PAMT", 1, "the pending damage"),
    F("PSRC", 1, "the player who dealt it"),
    F("PWIN", 1, "1 while the defender's response window is open (C12)"),
    F("PEV", 1, "events played in the current response window"),
    F("PFTR", 1, "the dealer's active fighter (SL_FID) at declaration: an Attack is cancelled if it changed"),
    F("USED", 1, "bit mask of the action kinds used this turn (C13)"),
    F("SETUP", 1, "setup step 0..7; 8 once the game is under way (L13-15)"),
    F("NEEDREP", 2, "per player: 1 when she must fill her active position (C15)"),
    F("LOGON", 1, "1: events are written to the log"),
    F("LOGN", 1, "events in the log"),
    F("DEC", 2, "per player: decisions taken"),
    F("ND", 2, "per player: distinct cards in her deck"),
    F("NOSHUF", 1, "1: stacked decks (tests): never shuffle"),
    F("NFID", 1, "fighters put on the field so far (the last SL_FID handed out)"),
    F("EWIN", 1, "event_timing any_time: 0 no window, 1 the rival's after an action, 2 the current player's "
                 "after the last action, 3 that one closed for this turn"),
    F("EWN", 1, "events played in the G_EWIN window"),
])

SLOT = Section("SL", "a fighter slot (``g[sb(p, s) + SL_*]``)", [
    F("HERO", 1, "the hero card (deck-local id), -1 an empty slot"),
    F("GIRL", 1, "the attached girl, -1 (GIRL, PET0, PET1, GRAND are consecutive: what detach sends away)"),
    F("PET0", 1, "the first attached pet, -1"),
    F("PET1", 1, "the second attached pet, -1"),
    F("GRAND", 1, "the Grand Transformation card, -1"),
    F("HP", 1, "hit points left"),
    F("MAXHP", 1, "maximum hit points (hero + girl + pets + Grand)"),
    F("MGK", 1, "MGK left (L18: the active fighter pays)"),
    F("GATT", 1, "a Grand Transformation's free attacks left (C8)"),
    F("NPET", 1, "pets attached"),
    F("FID", 1, "fighter id: new each time a hero card is put on the field, kept while it moves between "
                "slots (two copies of one hero are two fighters)"),
])

PLAYER = Section("P", "a player's block (``g[pb(p) + P_*]``)", [
    F("DECKN", 1, "cards in the deck"),
    F("HANDN", 1, "cards in the hand"),
    F("DREAMN", 1, "cards in the Dreamscape"),
    F("GEMS", 1, "gems, in halves (C5)"),
    F("SHIELD", 1, "damage her prevent effects still stop this turn"),
    F("OPENH", 1, "the face-down opening hero (L14), -1"),
    F("OPENG", 1, "the face-down opening girl, -1"),
    F("PICKS", 1, "heroes picked in setup (L13)"),
    F("TMP", 8, "scratch: the opening draw's cards"),
    F("DECK", DECK_MAX, "the deck, bottom first: deck-local ids"),
    F("HAND", MAXD, "cards in hand, per deck-local id"),
    F("DREAM", MAXD, "cards in the Dreamscape, per deck-local id"),
    F("SEEN", MAXD, "per deck-local id: bit 0 drawn, bit 1 played, bit 2 picked in setup (L13)"),
    F("SLOT", NSLOT * SLOT.size, "the fighter slots: the active fighter, then the Squad (SL_*)"),
    F("KNOWN", MAXD, "copies per local id the rival knows are in the hand (fetched, recovered)"),
])

CARD = Section("CT", "a card's numbers (``cd[side, local id, CT_*]``)", [
    F("TYPE", 1, "T_HERO, T_GIRL, T_POWER, T_PET, T_EVENT or T_GRAND"),
    F("HP", 1, "hit points"),
    F("ATK", 1, "attack"),
    F("MGK", 1, "magic"),
    F("COST", 1, "MGK cost (pets, powers, events under event_cost: mgk)"),
    F("OP", 2, "effect k (k = 0, 1): OP_*"),
    F("AMT", 2, "effect k's amount"),
    F("PAR", 2, "effect k's parameter (a card type for search and recover)"),
    F("COND", 1, "condition to play it: CO_*"),
    F("CAMT", 1, "the condition's amount (half-gems)"),
    F("VALUE", 1, "the heuristics' value of the card (search and recover take the best)"),
    F("GID", 1, "the card's id in the pool (the same card in both decks)"),
])

RULE_TABLE = Section("R", "rule options (``rr``), in the order of rules.RULES", [
    F(o.name.upper(), o.width(), o.note) for o in RULES.options
])

STREAMS = Section("S", "random stream purposes (rows of ``st``)", [
    F("SHUF", 2, "the shuffles of side 0 / 1"),
    F("COIN", 1, "the first player's coin flip (C14)"),
    F("ENGINE", 1, "random discards"),
    F("POL", 2, "the policy of side 0 / 1 (epsilon, random players)"),
    F("SEARCH", 2, "the search of side 0 / 1 (determinizations, rollouts)"),
])

POLICY = Section("PP", "a side's policy parameters (``pol[side, PP_*]``, :mod:`.policies`)", [
    F("KIND", 1, "POL_RANDOM, POL_HEURISTIC, POL_SEARCH or POL_ISMCTS"),
    F("W_ATTACK", 1, "heuristics: weight of attacking"),
    F("DRAW_BELOW", 1, "heuristics: draw while the hand holds fewer cards"),
    F("RETREAT_BELOW", 1, "heuristics: retreat a fighter below this HP"),
    F("EXHAUST_PEN", 1, "heuristics: penalty for spending a girl's last MGK"),
    F("SAVE_EVENTS", 1, "heuristics: keep Events for the rival's turn"),
    F("GRAND_ANY", 1, "heuristics: play a Grand Transformation whenever it can"),
    F("EPS", 1, "per mille: chance of a uniform random legal action"),
    F("BUDGET", 1, "search: rollouts per decision"),
    F("ROLL_EPS", 1, "search: per mille randomness of the rollout heuristic"),
    F("HORIZON", 1, "search: turns looked ahead (0 = to the end)"),
    F("UCB_C", 1, "ismcts: UCB1 exploration constant, per mille"),
    F("SETUP", 1, "ismcts: 1 = setup choices (picks, opening pair) by search too"),
    F("PROC", 1, "ismcts: address of the search procedure (sim.procs; bound per process)"),
    F("STOP", 1, "ismcts: the stop cell, 0; sim.cancel sets it while the kernel runs and the search ends its "
               "decisions at once (the game is dropped)"),
])

CARD_COUNTERS = Section("CC", "per-card counters of simulate_blocks (``cardc[..., side, local id, CC_*]``)", [
    F("DRAWN", 1, "games in which a copy was drawn", "run"),
    F("WON_DRAWN", 1, "... and won", "run"),
    F("PLAYED", 1, "games in which a copy was played", "run"),
    F("WON_PLAYED", 1, "... and won", "run"),
    F("NOT_DRAWN", 1, "games in which no copy was drawn", "run"),
    F("WON_NOT_DRAWN", 1, "... and won", "run"),
    F("PICKED", 1, "games in which a copy was picked in setup (L13)", "run"),
    F("WON_PICKED", 1, "... and won", "run"),
])

LOG = Section("LG", "a game log event (``lg[k, LG_*]``)", [
    F("CODE", 1, "EV_*"),
    F("P", 1, "the player it concerns"),
    F("A", 1, "first value (a card, an amount...)"),
    F("B", 1, "second value"),
    F("TURN", 1, "the turn"),
    F("CUR", 1, "whose turn it was"),
])

NG = stack(GLOBAL)
SL = stack(SLOT)
NPL = stack(PLAYER)
NCT = stack(CARD)
NRULES = stack(RULE_TABLE)
NST = stack(STREAMS)
NPP = stack(POLICY)
NCARDC = stack(CARD_COUNTERS)
LOGW = stack(LOG)
NSTATE = NG + 2 * NPL

globals().update(constants(GLOBAL, SLOT, PLAYER, CARD, RULE_TABLE, STREAMS, POLICY, CARD_COUNTERS, LOG))
SECTIONS = (GLOBAL, SLOT, PLAYER, CARD, RULE_TABLE, STREAMS, POLICY, CARD_COUNTERS, LOG)
#: each section's array width (``tests/test_structure.py``)
SIZES = {GLOBAL: NG, SLOT: SL, PLAYER: NPL, CARD: NCT, RULE_TABLE: NRULES, STREAMS: NST, POLICY: NPP,
         CARD_COUNTERS: NCARDC, LOG: LOGW}

#: what ``from .layout import *`` gives: the constants (no helper names)
__all__ = sorted(k for k, v in list(globals().items()) if k.isupper() and isinstance(v, int))
