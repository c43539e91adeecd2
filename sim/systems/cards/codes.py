"""The card engine's named values: card types, effect ops, conditions, phases,
action kinds, end reasons, policy kinds and log events (seed 004).

Columns are declared in :mod:`.layout`; these are the values they hold. Each
group is one ``range`` over its names (the ``*_NAMES`` tuples), so no number is
written by hand.
"""
from __future__ import annotations

#: distinct cards per deck, cards per deck, fighter slots (the active one and a Squad of 3, L23)
MAXD = 24
DECK_MAX = 64
NSLOT = 4

TYPE_NAMES = ("hero", "girl", "power", "pet", "event", "grand")
T_HERO, T_GIRL, T_POWER, T_PET, T_EVENT, T_GRAND = range(len(TYPE_NAMES))

#: card effects (``CT_OP + k``)
OP_NAMES = ("none", "damage", "heal", "prevent", "draw", "discard", "gain_mgk", "drain_mgk", "search",
            "recover", "armor")
(OP_NONE, OP_DAMAGE, OP_HEAL, OP_PREVENT, OP_DRAW, OP_DISCARD, OP_GAIN_MGK, OP_DRAIN_MGK, OP_SEARCH,
 OP_RECOVER, OP_ARMOR) = range(len(OP_NAMES))

#: card conditions (``CT_COND``; amounts in half-gems)
COND_NAMES = ("none", "gems_behind", "transformed", "rival_damaged", "gems_at_least")
CO_NONE, CO_GEMS_BEHIND, CO_TRANSFORMED, CO_RIVAL_DAMAGED, CO_GEMS_AT_LEAST = range(len(COND_NAMES))

#: who must decide what (``G_PHASE``); PH_EVENT: an Event window with no damage pending
#: (event_timing any_time: pass or play Events)
PHASE_NAMES = ("setup", "pick", "open_hero", "open_girl", "main", "react", "replace", "over", "event")
(PH_SETUP, PH_PICK, PH_OPEN_HERO, PH_OPEN_GIRL, PH_MAIN, PH_REACT, PH_REPLACE, PH_OVER,
 PH_EVENT) = range(len(PHASE_NAMES))

#: action kinds: an action code is ``kind << 8 | arg``
KIND_NAMES = ("end", "attack", "draw", "retreat", "transform", "pet", "power", "grand", "place", "event",
              "pick", "promote", "pass")
(K_END, K_ATTACK, K_DRAW, K_RETREAT, K_TRANSFORM, K_PET, K_POWER, K_GRAND, K_PLACE, K_EVENT, K_PICK,
 K_PROMOTE, K_PASS) = range(len(KIND_NAMES))
NKIND = len(KIND_NAMES)
NACT = NKIND * 256
#: longest legal-action list
MAXACT = 256

REASON_NAMES = ("none", "gems", "deck_out", "out_of_heroes", "turn_cap")
RE_NONE, RE_GEMS, RE_DECKOUT, RE_NOHEROES, RE_CAP = range(len(REASON_NAMES))
NREASON = len(REASON_NAMES)

#: policy kinds (``PP_KIND``)
POL_RANDOM, POL_HEURISTIC, POL_SEARCH, POL_ISMCTS = range(4)

#: log event codes (``LG_CODE``; 0 = no event)
EVENT_NAMES = ("action", "draw", "damage", "ko", "exhaust", "grand_expire", "deckout", "mulligan", "turn", "l53",
               "win", "prevent", "discard", "first", "reveal", "heal", "mgk", "fetch", "cancel", "handlimit")
(EV_ACTION, EV_DRAW, EV_DAMAGE, EV_KO, EV_EXHAUST, EV_GRAND_EXPIRE, EV_DECKOUT, EV_MULLIGAN, EV_TURN, EV_L53,
 EV_WIN, EV_PREVENT, EV_DISCARD, EV_FIRST, EV_REVEAL, EV_HEAL, EV_MGK, EV_FETCH, EV_CANCEL,
 EV_HANDLIMIT) = range(1, len(EVENT_NAMES) + 1)

#: what ``from .codes import *`` gives: the named values and their name tuples
__all__ = sorted(k for k, v in list(globals().items()) if k.isupper() and isinstance(v, (int, tuple)))
