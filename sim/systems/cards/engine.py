"""Mahou Shoujo card game engine (numba): a state machine with legal-action lists.

The contract follows OpenSpiel: :func:`advance` runs the automatic steps
(setup shuffles, draw step, damage, defeats, Grand expiry...) until someone
must decide; :func:`legal` lists the legal actions of the player to move
(``g[G_TOMOVE]``) in phase ``g[G_PHASE]``; :func:`apply` plays one of them
and advances again; the game is over when ``g[G_PHASE] == PH_OVER``
(``g[G_WINNER]`` 0/1, or 2 for a draw). :func:`legal_mask` turns the list into
a PettingZoo-style mask over all :data:`NACT` action codes.

State: one flat int64 array ``g`` (globals ``G_*``, then one block per
player ``P_*`` holding the deck as an ordered array of deck-local card ids
(top = last), hand / Dreamscape as counts per local id, and four fighter
slots ``SL_*``: slot 0 is the active fighter, 1..3 the Squad).

Cards: ``cd[side, local id, CT_*]`` (see :mod:`.cardsdata`). Streams:
``st[S_*]`` (shuffles per side, coin flip, engine, policy per side, search
per side), each seeded with :func:`sim.rng.seed_stream`.

Hidden information: policies (:mod:`this module's` ``heur_*`` and
``search_choose``) read only their own hand, both fields, both Dreamscapes,
gems and the counts of the rival's hand and of both decks; the search
policy resamples every hidden card (:func:`determinize`) from a multiset it
builds in sorted order, so its decision does not depend on where the hidden
cards really are (tested).

Action codes: ``kind << 8 | arg`` with kinds ``K_*``; ``arg`` is a deck-local
card id, a slot, or ``local << 2 | slot`` for Transform.
"""
from __future__ import annotations

import numba
import numpy as np

from sim import procs
from sim._jit import kernel, part, pjit
from sim.rng import STATE_WORDS, next_u64, randbelow, seed_stream

MAXD = 24          # distinct cards per deck
DECK_MAX = 64      # cards per deck
NSLOT = 4

# card types
T_HERO = 0
T_GIRL = 1
T_POWER = 2
T_PET = 3
T_EVENT = 4
T_GRAND = 5
TYPE_NAMES = ("hero", "girl", "power", "pet", "event", "grand")

# card table columns
CT_TYPE = 0
CT_HP = 1
CT_ATK = 2
CT_MGK = 3
CT_COST = 4
CT_OP1 = 5
CT_AMT1 = 6
CT_PAR1 = 7
CT_OP2 = 8
CT_AMT2 = 9
CT_PAR2 = 10
CT_COND = 11
CT_CAMT = 12
CT_VALUE = 13
CT_GID = 14
NCT = 15
#: per-card counters of :func:`simulate_blocks` (drawn, won, played, won, not drawn, won, picked, won)
NCARDC = 8

# effect ops
OP_NONE = 0
OP_DAMAGE = 1
OP_HEAL = 2
OP_PREVENT = 3
OP_DRAW = 4
OP_DISCARD = 5
OP_GAIN_MGK = 6
OP_DRAIN_MGK = 7
OP_SEARCH = 8
OP_RECOVER = 9
OP_ARMOR = 10
OP_NAMES = ("none", "damage", "heal", "prevent", "draw", "discard", "gain_mgk", "drain_mgk", "search",
            "recover", "armor")

# conditions
CO_NONE = 0
CO_GEMS_BEHIND = 1
CO_TRANSFORMED = 2
CO_RIVAL_DAMAGED = 3
CO_GEMS_AT_LEAST = 4
COND_NAMES = ("none", "gems_behind", "transformed", "rival_damaged", "gems_at_least")

# rule array indices (checked against rules.RULES by the tests)
R_GEMS_TO_WIN = 0
R_TURN_CAP = 1
R_ACTIONS = 2
R_START_HEROES = 3
R_OPEN_DRAW = 4
R_FIRST_PLAYER = 5
R_FIRST_DRAW_SKIP = 6
R_DECK_SIZE = 7
R_COPY_LIMIT = 8
R_ATTACK_DAMAGE = 9
R_CARD_POOL = 10
R_COMBINE = 11
R_PAIR_GEMS = 12
R_EXHAUST_GEM = 13
R_GRAND_EXPIRY_GEM = 14
R_GRAND_NEEDS_TRANSFORMED = 15
R_GRAND_ATTACK = 16
R_MULLIGAN = 17
R_HAND_LIMIT = 18
R_DECK_OUT = 19
R_EVENT_COST = 20
R_EVENTS_PER_WINDOW = 21
R_REPEAT = 22
R_REPLACEMENT = 23
R_RETREAT_HEAL = 24
R_RETREAT_KEEPS = 25
R_MGK_SOURCE = 26
R_HERO_ATTACK = 27
R_PET_DAMAGE = 28
R_PET_LIMIT = 29
R_WIN_CHECK = 30
R_SQUAD_CAP = 31
R_OPEN_TRANSFORMED = 32
R_OVERFLOW = 33
R_EXHAUST_HP = 34
R_GRAND_EXPIRY = 35
R_EVENT_TIMING = 36
R_POWER_FIZZLES = 37
NRULES = 38

# global state fields
G_PHASE = 0
G_TOMOVE = 1
G_TURN = 2
G_CUR = 3
G_ACTS = 4
G_FIRST = 5
G_WINNER = 6
G_REASON = 7
G_PKIND = 8        # pending damage: 0 none, 1 attack, 2 power
G_PAMT = 9
G_PSRC = 10
G_PWIN = 11        # 1 while the defender's response window is open
G_PEV = 12         # events played in the current window
G_PFTR = 13        # attacker's active fighter (SL_FID) at declaration (attack cancelled if it changed)
G_USED = 14        # bit mask of action kinds used this turn (C13)
G_SETUP = 15
G_NEEDREP = 16     # 2 fields: player p must fill its active position
G_LOGON = 18
G_LOGN = 19
G_DEC = 20         # 2 fields: decisions taken per player
G_ND = 22          # 2 fields: distinct cards per deck
G_NOSHUF = 24      # stacked decks: never shuffle
G_NFID = 25        # fighters put on the field so far (the last SL_FID handed out)
G_EWIN = 26        # event_timing any_time: 0 no window, 1 the rival's after an action, 2 the current
                   # player's after the last action, 3 that one closed for this turn
G_EWN = 27         # events played in the G_EWIN window
NG = 32

# per-player block
P_DECKN = 0
P_HANDN = 1
P_DREAMN = 2
P_GEMS = 3         # in halves
P_SHIELD = 4
P_OPENH = 5
P_OPENG = 6
P_PICKS = 7
P_TMP = 8          # 8 scratch fields (opening draw)
P_DECK = 16
P_HAND = P_DECK + DECK_MAX
P_DREAM = P_HAND + MAXD
P_SEEN = P_DREAM + MAXD   # bit 0 drawn, bit 1 played, bit 2 picked in setup (L13)
P_SLOT = P_SEEN + MAXD
SL_HERO = 0
SL_GIRL = 1
SL_PET0 = 2
SL_PET1 = 3
SL_GRAND = 4
SL_HP = 5
SL_MAXHP = 6
SL_MGK = 7
SL_GATT = 8
SL_NPET = 9
SL_FID = 10        # fighter instance id: new each time a hero card is put on the field, kept
                   # while it moves between slots (two copies of one hero are two fighters)
SL = 12
P_KNOWN = P_SLOT + NSLOT * SL   # copies per local id the rival knows are in the hand (fetched, recovered)
NPL = P_KNOWN + MAXD
NSTATE = NG + 2 * NPL

# phases
PH_SETUP = 0
PH_PICK = 1
PH_OPEN_HERO = 2
PH_OPEN_GIRL = 3
PH_MAIN = 4
PH_REACT = 5
PH_REPLACE = 6
PH_OVER = 7
PH_EVENT = 8       # event_timing any_time: an Event window with no damage pending (pass or play Events)
PHASE_NAMES = ("setup", "pick", "open_hero", "open_girl", "main", "react", "replace", "over", "event")

# action kinds
K_END = 0
K_ATTACK = 1
K_DRAW = 2
K_RETREAT = 3
K_TRANSFORM = 4
K_PET = 5
K_POWER = 6
K_GRAND = 7
K_PLACE = 8
K_EVENT = 9
K_PICK = 10
K_PROMOTE = 11
K_PASS = 12
NKIND = 13
KIND_NAMES = ("end", "attack", "draw", "retreat", "transform", "pet", "power", "grand", "place", "event",
              "pick", "promote", "pass")
NACT = NKIND * 256
MAXACT = 256       # longest legal-action list

# end reasons
RE_NONE = 0
RE_GEMS = 1
RE_DECKOUT = 2
RE_NOHEROES = 3
RE_CAP = 4
NREASON = 5
REASON_NAMES = ("none", "gems", "deck_out", "out_of_heroes", "turn_cap")

# streams
S_SHUF = 0         # 2 streams: shuffles of side 0 / 1
S_COIN = 2
S_ENGINE = 3       # random discards
S_POL = 4          # 2 streams: policy of side 0 / 1
S_SEARCH = 6       # 2 streams: search of side 0 / 1
NST = 8

# policy parameters
PP_KIND = 0        # 0 random, 1 heuristic, 2 search, 3 ismcts
PP_W_ATTACK = 1
PP_DRAW_BELOW = 2
PP_RETREAT_BELOW = 3
PP_EXHAUST_PEN = 4
PP_SAVE_EVENTS = 5
PP_GRAND_ANY = 6
PP_EPS = 7         # per mille: chance of a uniform random legal action
PP_BUDGET = 8      # search: rollouts per decision
PP_ROLL_EPS = 9    # search: per mille randomness of the rollout heuristic
PP_HORIZON = 10    # search: turns looked ahead (0 = to the end)
PP_UCB_C = 11      # ismcts: UCB1 exploration constant, per mille
PP_SETUP = 12      # ismcts: 1 = setup choices (picks, opening pair) by search too
PP_PROC = 13       # ismcts: address of the search procedure (sim.procs; bound per process)
NPP = 14
POL_RANDOM = 0
POL_HEURISTIC = 1
POL_SEARCH = 2
POL_ISMCTS = 3

# log event codes
EV_ACTION = 1
EV_DRAW = 2
EV_DAMAGE = 3
EV_KO = 4
EV_EXHAUST = 5
EV_GRAND_EXPIRE = 6
EV_DECKOUT = 7
EV_MULLIGAN = 8
EV_TURN = 9
EV_L53 = 10
EV_WIN = 11
EV_PREVENT = 12
EV_DISCARD = 13
EV_FIRST = 14
EV_REVEAL = 15
EV_HEAL = 16
EV_MGK = 17
EV_FETCH = 18
EV_CANCEL = 19
EV_HANDLIMIT = 20
LOGW = 6


# ================================================================ basics
@kernel(inline="always")
def pb(p):
    return NG + p * NPL


@kernel(inline="always")
def sb(p, s):
    return NG + p * NPL + P_SLOT + s * SL


@kernel
def log_ev(g, lg, code, p, a, b):
    if g[G_LOGON] != 0:
        i = g[G_LOGN]
        if i < lg.shape[0]:
            lg[i, 0] = code
            lg[i, 1] = p
            lg[i, 2] = a
            lg[i, 3] = b
            lg[i, 4] = g[G_TURN]
            lg[i, 5] = g[G_CUR]
            g[G_LOGN] = i + 1


@kernel(inline="always")
def set_winner(g, w, reason):
    if g[G_WINNER] < 0:
        g[G_WINNER] = w
        g[G_REASON] = reason


@kernel(inline="always")
def hand_add(g, p, loc):
    b = pb(p)
    g[b + P_HAND + loc] += 1
    g[b + P_HANDN] += 1
    g[b + P_SEEN + loc] |= 1


@kernel(inline="always")
def hand_remove(g, p, loc):
    b = pb(p)
    g[b + P_HAND + loc] -= 1
    g[b + P_HANDN] -= 1
    if g[b + P_KNOWN + loc] > 0:
        g[b + P_KNOWN + loc] -= 1      # the rival no longer knows which copy is left (sound)


@kernel(inline="always")
def dream_add(g, p, loc):
    b = pb(p)
    g[b + P_DREAM + loc] += 1
    g[b + P_DREAMN] += 1


@kernel(inline="always")
def deck_pop(g, p):
    """Top card of p's deck (removed), or -1 if the deck is empty."""
    b = pb(p)
    n = g[b + P_DECKN]
    if n == 0:
        return -1
    g[b + P_DECKN] = n - 1
    return g[b + P_DECK + n - 1]


@kernel(inline="always")
def draw_one(g, p, lg):
    loc = deck_pop(g, p)
    if loc >= 0:
        hand_add(g, p, loc)
        log_ev(g, lg, EV_DRAW, p, loc, 0)
    return loc


@kernel(inline="always")
def shuffle_deck(g, p, srow):
    if g[G_NOSHUF] != 0:
        return
    b = pb(p) + P_DECK
    n = g[pb(p) + P_DECKN]
    for i in range(n - 1, 0, -1):
        j = randbelow(srow, i + 1)
        t = g[b + i]
        g[b + i] = g[b + j]
        g[b + j] = t


@kernel(inline="always")
def deck_take(g, p, loc):
    """Remove one copy of ``loc`` from p's deck keeping the order of the others; False if none."""
    b = pb(p)
    n = g[b + P_DECKN]
    for i in range(n - 1, -1, -1):
        if g[b + P_DECK + i] == loc:
            for k in range(i, n - 1):
                g[b + P_DECK + k] = g[b + P_DECK + k + 1]
            g[b + P_DECKN] = n - 1
            return True
    return False


@kernel(inline="always")
def slot_clear(g, p, s):
    b = sb(p, s)
    g[b + SL_HERO] = -1
    g[b + SL_GIRL] = -1
    g[b + SL_PET0] = -1
    g[b + SL_PET1] = -1
    g[b + SL_GRAND] = -1
    g[b + SL_HP] = 0
    g[b + SL_MAXHP] = 0
    g[b + SL_MGK] = 0
    g[b + SL_GATT] = 0
    g[b + SL_NPET] = 0
    g[b + SL_FID] = 0


@kernel(inline="always")
def slot_to_dream(g, p, s):
    b = sb(p, s)
    for k in range(SL_HERO, SL_GRAND + 1):
        c = g[b + k]
        if c >= 0:
            dream_add(g, p, c)
    slot_clear(g, p, s)


@kernel(inline="always")
def slot_put_hero(g, cd, p, s, loc):
    slot_clear(g, p, s)
    b = sb(p, s)
    g[b + SL_HERO] = loc
    g[b + SL_HP] = cd[p, loc, CT_HP]
    g[b + SL_MAXHP] = cd[p, loc, CT_HP]
    g[b + SL_MGK] = cd[p, loc, CT_MGK]
    g[G_NFID] += 1
    g[b + SL_FID] = g[G_NFID]
    g[pb(p) + P_SEEN + loc] |= 2


@kernel(inline="always")
def slot_copy(g, p, src, dst):
    a = sb(p, src)
    b = sb(p, dst)
    for k in range(SL):
        g[b + k] = g[a + k]


@kernel(inline="always")
def attach_girl(g, cd, rr, p, s, loc):
    b = sb(p, s)
    g[b + SL_GIRL] = loc
    g[b + SL_HP] += cd[p, loc, CT_HP]
    g[b + SL_MAXHP] += cd[p, loc, CT_HP]
    m = cd[p, loc, CT_MGK]
    comb = rr[R_COMBINE]
    if comb == 0:
        g[b + SL_MGK] += m
    elif comb == 1:
        g[b + SL_MGK] = m
    elif m > g[b + SL_MGK]:
        g[b + SL_MGK] = m
    g[pb(p) + P_SEEN + loc] |= 2


@kernel(inline="always")
def fighter_atk(g, cd, rr, p, s):
    b = sb(p, s)
    h = g[b + SL_HERO]
    if h < 0:
        return 0
    a = cd[p, h, CT_ATK]
    gl = g[b + SL_GIRL]
    if gl >= 0:
        ga = cd[p, gl, CT_ATK]
        comb = rr[R_COMBINE]
        if comb == 0:
            a += ga
        elif comb == 1:
            a = ga
        elif ga > a:
            a = ga
    gr = g[b + SL_GRAND]
    if gr >= 0:
        a += cd[p, gr, CT_ATK]
    for k in range(2):
        pt = g[b + SL_PET0 + k]
        if pt >= 0:
            if rr[R_PET_DAMAGE] == 0:
                a += cd[p, pt, CT_ATK]
            else:
                a += 1
    return a


@kernel(inline="always")
def card_op_total(cd, p, loc, op):
    t = 0
    if cd[p, loc, CT_OP1] == op:
        t += cd[p, loc, CT_AMT1]
    if cd[p, loc, CT_OP2] == op:
        t += cd[p, loc, CT_AMT2]
    return t


@kernel(inline="always")
def fighter_armor(g, cd, p, s):
    b = sb(p, s)
    t = 0
    for k in range(2):
        pt = g[b + SL_PET0 + k]
        if pt >= 0:
            t += card_op_total(cd, p, pt, OP_ARMOR)
    return t


@kernel(inline="always")
def attack_damage(g, cd, rr, p):
    if rr[R_ATTACK_DAMAGE] == 1:
        return 1
    return fighter_atk(g, cd, rr, p, 0)


@kernel(inline="always")
def can_attack(g, cd, rr, p, s):
    b = sb(p, s)
    if g[b + SL_HERO] < 0:
        return False
    if g[b + SL_GRAND] >= 0:
        return g[b + SL_GATT] > 0
    if g[b + SL_MGK] < 1:
        return False
    if g[b + SL_GIRL] < 0:
        if rr[R_HERO_ATTACK] == 1:
            return False
    return True


@kernel(inline="always")
def squad_count(g, p):
    n = 0
    for s in range(1, NSLOT):
        if g[sb(p, s) + SL_HERO] >= 0:
            n += 1
    return n


@kernel(inline="always")
def cond_ok(g, cd, p, loc):
    c = cd[p, loc, CT_COND]
    if c == CO_NONE:
        return True
    amt = cd[p, loc, CT_CAMT]
    if c == CO_GEMS_BEHIND:
        return g[pb(1 - p) + P_GEMS] - g[pb(p) + P_GEMS] >= amt
    if c == CO_TRANSFORMED:
        return g[sb(p, 0) + SL_GIRL] >= 0
    if c == CO_RIVAL_DAMAGED:
        r = sb(1 - p, 0)
        if g[r + SL_HERO] < 0:
            return False
        return g[r + SL_HP] < g[r + SL_MAXHP]
    if c == CO_GEMS_AT_LEAST:
        return g[pb(p) + P_GEMS] >= amt
    return False


@kernel(inline="always")
def event_playable(g, cd, rr, p, loc):
    if g[pb(p) + P_HAND + loc] <= 0:
        return False
    if cd[p, loc, CT_TYPE] != T_EVENT:
        return False
    if not cond_ok(g, cd, p, loc):
        return False
    if rr[R_EVENT_COST] == 1:
        cost = cd[p, loc, CT_COST]
        if cost > 0:
            b = sb(p, 0)
            if g[b + SL_HERO] < 0:
                return False
            if g[b + SL_MGK] < cost:
                return False
    return True


@kernel(inline="always")
def has_playable_event(g, cd, rr, p):
    nd = g[G_ND + p]
    for loc in range(nd):
        if event_playable(g, cd, rr, p, loc):
            return True
    return False


# ================================================================ effects
@kernel(inline="always")
def ko(g, cd, rr, d, lg):
    """p's rival ``d`` has its active fighter reduced to 0 HP: gems, Dreamscape, replacement."""
    b = sb(d, 0)
    if g[b + SL_GIRL] >= 0:
        halves = 3 if rr[R_PAIR_GEMS] == 0 else 2
    else:
        halves = 1
    a = 1 - d
    g[pb(a) + P_GEMS] += halves
    log_ev(g, lg, EV_KO, d, g[b + SL_HERO], halves)
    slot_to_dream(g, d, 0)
    g[G_NEEDREP + d] = 1
    if g[pb(a) + P_GEMS] >= 2 * rr[R_GEMS_TO_WIN]:
        set_winner(g, a, RE_GEMS)


@kernel(inline="always")
def deal_damage(g, cd, rr, d, amt, is_attack, lg):
    b = sb(d, 0)
    if g[b + SL_HERO] < 0:
        return
    if is_attack:
        amt -= fighter_armor(g, cd, d, 0)
    sh = g[pb(d) + P_SHIELD]
    if sh > 0:
        if amt > 0:
            used = sh if sh < amt else amt
            g[pb(d) + P_SHIELD] = sh - used
            amt -= used
            log_ev(g, lg, EV_PREVENT, d, used, 0)
    if amt < 0:
        amt = 0
    g[b + SL_HP] -= amt
    if g[b + SL_HP] < 0:
        g[b + SL_HP] = 0  # C24: no overflow
    log_ev(g, lg, EV_DAMAGE, d, amt, g[b + SL_HP])
    if g[b + SL_HP] <= 0:
        ko(g, cd, rr, d, lg)


@part
def detach(g, cd, p, b):
    """The cards attached to the hero of the slot at ``b`` (girl, pets, Grand) go to ``p``'s
    Dreamscape; the hero's maximum HP is its printed HP again. Returns the hero's card."""
    for k in range(SL_GIRL, SL_GRAND + 1):
        c = g[b + k]
        if c >= 0:
            dream_add(g, p, c)
            g[b + k] = -1
    g[b + SL_NPET] = 0
    g[b + SL_GATT] = 0
    h = g[b + SL_HERO]
    g[b + SL_MAXHP] = cd[p, h, CT_HP]
    return h


@part
def strip_to_hero(g, cd, rr, p, s):
    """The cards attached to the hero in slot ``s`` (girl, pets, Grand) go to the Dreamscape;
    the hero stays with its remaining HP up to its printed HP (rule exhaust_hp: or all of it)."""
    b = sb(p, s)
    detach(g, cd, p, b)
    if rr[R_EXHAUST_HP] == 0:
        if g[b + SL_HP] > g[b + SL_MAXHP]:
            g[b + SL_HP] = g[b + SL_MAXHP]
    elif g[b + SL_HP] > g[b + SL_MAXHP]:
        g[b + SL_MAXHP] = g[b + SL_HP]


@kernel
def exhaust_check(g, cd, rr, p, lg):
    """L52: a girl whose MGK runs out goes to the Dreamscape with her pets; the hero stays."""
    b = sb(p, 0)
    gl = g[b + SL_GIRL]
    if gl < 0:
        return
    if g[b + SL_GRAND] >= 0:
        return
    if g[b + SL_MGK] > 0:
        return
    strip_to_hero(g, cd, rr, p, 0)
    log_ev(g, lg, EV_EXHAUST, p, gl, 0)
    if rr[R_EXHAUST_GEM] != 0:
        g[pb(1 - p) + P_GEMS] += 2
        if g[pb(1 - p) + P_GEMS] >= 2 * rr[R_GEMS_TO_WIN]:
            set_winner(g, 1 - p, RE_GEMS)


@kernel(inline="always")
def best_of_type(g, cd, p, base, typ):
    """Deck-local id of the most valuable card of type ``typ`` with a count at ``g[base + loc]``."""
    nd = g[G_ND + p]
    best = -1
    bv = -1
    for loc in range(nd):
        if g[base + loc] > 0:
            if cd[p, loc, CT_TYPE] == typ:
                if cd[p, loc, CT_VALUE] > bv:
                    bv = cd[p, loc, CT_VALUE]
                    best = loc
    return best


@kernel(inline="always")
def deck_has_type(g, cd, p, typ):
    b = pb(p)
    for i in range(g[b + P_DECKN]):
        if cd[p, g[b + P_DECK + i], CT_TYPE] == typ:
            return True
    return False


@kernel(inline="always")
def random_discard(g, p, srow, lg):
    b = pb(p)
    n = g[b + P_HANDN]
    if n <= 0:
        return
    k = randbelow(srow, n)
    nd = g[G_ND + p]
    for loc in range(nd):
        c = g[b + P_HAND + loc]
        if k < c:
            hand_remove(g, p, loc)
            dream_add(g, p, loc)
            log_ev(g, lg, EV_DISCARD, p, loc, 0)
            return
        k -= c


@kernel
def resolve_ops(g, cd, rr, p, loc, st, lg):
    """Apply the card's effects except damage (and static armor); return its total damage."""
    dmg = 0
    q = 1 - p
    for k in range(2):
        op = cd[p, loc, CT_OP1 + 3 * k]
        amt = cd[p, loc, CT_AMT1 + 3 * k]
        par = cd[p, loc, CT_PAR1 + 3 * k]
        if op == OP_NONE:
            continue
        if op == OP_DAMAGE:
            dmg += amt
        elif op == OP_HEAL:
            b = sb(p, 0)
            if g[b + SL_HERO] >= 0:
                h = g[b + SL_HP] + amt
                if h > g[b + SL_MAXHP]:
                    h = g[b + SL_MAXHP]
                log_ev(g, lg, EV_HEAL, p, h - g[b + SL_HP], h)
                g[b + SL_HP] = h
        elif op == OP_PREVENT:
            g[pb(p) + P_SHIELD] += amt
        elif op == OP_DRAW:
            for _ in range(amt):
                if draw_one(g, p, lg) < 0:
                    if rr[R_DECK_OUT] == 0:
                        log_ev(g, lg, EV_DECKOUT, p, 0, 0)
                        set_winner(g, q, RE_DECKOUT)
                        return 0
                    break
        elif op == OP_DISCARD:
            for _ in range(amt):
                random_discard(g, q, st[S_ENGINE], lg)
        elif op == OP_GAIN_MGK:
            b = sb(p, 0)
            if g[b + SL_HERO] >= 0:
                if g[b + SL_GRAND] < 0:
                    g[b + SL_MGK] += amt
                    log_ev(g, lg, EV_MGK, p, amt, g[b + SL_MGK])
        elif op == OP_DRAIN_MGK:
            b = sb(q, 0)
            if g[b + SL_HERO] >= 0:
                m = g[b + SL_MGK] - amt
                if m < 0:
                    m = 0
                log_ev(g, lg, EV_MGK, q, m - g[b + SL_MGK], m)
                g[b + SL_MGK] = m
        elif op == OP_SEARCH:
            bp = pb(p)
            best = -1
            bv = -1
            for i in range(g[bp + P_DECKN]):
                c = g[bp + P_DECK + i]
                if cd[p, c, CT_TYPE] == par:
                    if cd[p, c, CT_VALUE] > bv:
                        bv = cd[p, c, CT_VALUE]
                        best = c
            if best >= 0:
                deck_take(g, p, best)
                hand_add(g, p, best)
                g[bp + P_KNOWN + best] += 1     # shown to the rival
                log_ev(g, lg, EV_FETCH, p, best, 0)
                shuffle_deck(g, p, st[S_SHUF + p])
        elif op == OP_RECOVER:
            best = best_of_type(g, cd, p, pb(p) + P_DREAM, par)
            if best >= 0:
                g[pb(p) + P_DREAM + best] -= 1
                g[pb(p) + P_DREAMN] -= 1
                hand_add(g, p, best)
                g[pb(p) + P_KNOWN + best] += 1  # taken from the public Dreamscape
                log_ev(g, lg, EV_FETCH, p, best, 1)
    return dmg


@kernel(inline="always")
def play_event(g, cd, rr, p, loc, st, lg):
    if rr[R_EVENT_COST] == 1:
        g[sb(p, 0) + SL_MGK] -= cd[p, loc, CT_COST]
    hand_remove(g, p, loc)
    g[pb(p) + P_SEEN + loc] |= 2
    dmg = resolve_ops(g, cd, rr, p, loc, st, lg)
    dream_add(g, p, loc)
    if dmg > 0:
        deal_damage(g, cd, rr, 1 - p, dmg, False, lg)


@kernel(inline="always")
def declare_attack(g, cd, rr, p):
    b = sb(p, 0)
    if g[b + SL_GRAND] >= 0:
        g[b + SL_GATT] -= 1
    else:
        g[b + SL_MGK] -= 1
    g[G_PKIND] = 1
    g[G_PAMT] = attack_damage(g, cd, rr, p)
    g[G_PSRC] = p
    g[G_PWIN] = 1
    g[G_PEV] = 0
    g[G_PFTR] = g[b + SL_FID]


@kernel(inline="always")
def retreat(g, cd, rr, p, s):
    a = sb(p, 0)
    b = sb(p, s)
    for k in range(SL):
        t = g[a + k]
        g[a + k] = g[b + k]
        g[b + k] = t
    # slot s now holds the fighter that retreated
    if rr[R_RETREAT_KEEPS] == 0:
        h = detach(g, cd, p, b)
        g[b + SL_MGK] = cd[p, h, CT_MGK] if g[b + SL_MGK] > cd[p, h, CT_MGK] else g[b + SL_MGK]
        if g[b + SL_HP] > g[b + SL_MAXHP]:
            g[b + SL_HP] = g[b + SL_MAXHP]
    heal = rr[R_RETREAT_HEAL]
    if heal == 0:
        g[b + SL_HP] = g[b + SL_MAXHP]
    elif heal == 1:
        g[a + SL_HP] = g[a + SL_MAXHP]


@kernel(inline="always")
def out_of_heroes(g, cd, rr, p, lg):
    """L53: draw until a hero turns up (kept cards up to 4 in hand, the rest to the Dreamscape)."""
    while True:
        loc = deck_pop(g, p)
        if loc < 0:
            log_ev(g, lg, EV_DECKOUT, p, 1, 0)
            set_winner(g, 1 - p, RE_NOHEROES)
            return
        g[pb(p) + P_SEEN + loc] |= 1
        if cd[p, loc, CT_TYPE] == T_HERO:
            slot_put_hero(g, cd, p, 0, loc)
            g[G_NEEDREP + p] = 0
            log_ev(g, lg, EV_L53, p, loc, 2)
            return
        if g[pb(p) + P_HANDN] < 4:
            hand_add(g, p, loc)
            log_ev(g, lg, EV_L53, p, loc, 0)
        else:
            dream_add(g, p, loc)
            log_ev(g, lg, EV_L53, p, loc, 1)


@kernel(inline="always")
def replace_options(g, cd, p):
    n = squad_count(g, p)
    nd = g[G_ND + p]
    b = pb(p)
    for loc in range(nd):
        if g[b + P_HAND + loc] > 0:
            if cd[p, loc, CT_TYPE] == T_HERO:
                n += 1
    return n


# ================================================================ turns and setup
@part
def grand_expire(g, cd, rr, p, s, lg):
    """L35: the Grand Transformation in p's slot ``s`` ends. keep_hero (rule grand_expiry):
    the attached cards go to the Dreamscape, the hero stays (MGK 0, as the Grand left it);
    discard_hero: the whole stack goes. C7 gem option: as for a defeat of what left."""
    b = sb(p, s)
    log_ev(g, lg, EV_GRAND_EXPIRE, p, s, g[b + SL_HERO])
    if rr[R_GRAND_EXPIRY] == 0:
        halves = 2 if g[b + SL_GIRL] >= 0 else 0
        strip_to_hero(g, cd, rr, p, s)
    else:
        halves = 3 if rr[R_PAIR_GEMS] == 0 else 2
        slot_to_dream(g, p, s)
        if s == 0:
            g[G_NEEDREP + p] = 1
    if rr[R_GRAND_EXPIRY_GEM] != 0:
        g[pb(1 - p) + P_GEMS] += halves
        if g[pb(1 - p) + P_GEMS] >= 2 * rr[R_GEMS_TO_WIN]:
            set_winner(g, 1 - p, RE_GEMS)


@kernel(inline="always")
def start_turn(g, cd, rr, st, lg):
    p = g[G_CUR]
    g[pb(p) + P_SHIELD] = 0
    log_ev(g, lg, EV_TURN, p, g[G_TURN], 0)
    # C7: a Grand Transformation lasts until the start of the owner's next turn
    for s in range(NSLOT):
        b = sb(p, s)
        if g[b + SL_HERO] >= 0:
            if g[b + SL_GRAND] >= 0:
                grand_expire(g, cd, rr, p, s, lg)
    skip = False
    if g[G_TURN] == 1:
        if rr[R_FIRST_DRAW_SKIP] != 0:
            skip = True
    if not skip:
        if draw_one(g, p, lg) < 0:
            if rr[R_DECK_OUT] == 0:
                log_ev(g, lg, EV_DECKOUT, p, 0, 0)
                set_winner(g, 1 - p, RE_DECKOUT)
    g[G_ACTS] = rr[R_ACTIONS]
    g[G_USED] = 0
    g[G_EWIN] = 0


@kernel(inline="always")
def end_turn(g, cd, rr, st, lg):
    p = g[G_CUR]
    lim = rr[R_HAND_LIMIT]
    if lim > 0:
        while g[pb(p) + P_HANDN] > lim:
            random_discard(g, p, st[S_ENGINE], lg)
    g[G_CUR] = 1 - p
    g[G_TURN] += 1
    if g[G_TURN] > rr[R_TURN_CAP]:
        set_winner(g, 2, RE_CAP)
        return
    start_turn(g, cd, rr, st, lg)


@kernel
def opening_draw(g, cd, rr, p, st, lg):
    """Shuffle, draw the opening cards; mulligan while they hold no girl (C9).

    Returns k, the number of cards of the kept opening hand; their local ids are
    in ``P_TMP .. P_TMP+k`` (0 if every attempt went back)."""
    b = pb(p)
    n = rr[R_OPEN_DRAW]
    if n > 8:
        n = 8
    for attempt in range(200):
        shuffle_deck(g, p, st[S_SHUF + p])
        girl = False
        k = 0
        for i in range(n):
            loc = deck_pop(g, p)
            if loc < 0:
                break
            g[b + P_TMP + k] = loc
            k += 1
            g[b + P_HAND + loc] += 1
            g[b + P_HANDN] += 1
            if cd[p, loc, CT_TYPE] == T_GIRL:
                girl = True
        if girl:
            return k
        if rr[R_MULLIGAN] == 1:
            if attempt >= 1:
                return k
        if not deck_has_type(g, cd, p, T_GIRL):
            return k
        # put them back at the bottom (then shuffled, unless stacked)
        dn = g[b + P_DECKN]
        for i in range(dn - 1, -1, -1):
            g[b + P_DECK + i + k] = g[b + P_DECK + i]
        for i in range(k):
            loc = g[b + P_TMP + i]
            g[b + P_DECK + i] = loc
            g[b + P_HAND + loc] -= 1
            g[b + P_HANDN] -= 1
        g[b + P_DECKN] = dn + k
        log_ev(g, lg, EV_MULLIGAN, p, attempt + 1, 0)
    return 0


@kernel(inline="always")
def hand_has_type(g, cd, p, typ):
    nd = g[G_ND + p]
    b = pb(p)
    for loc in range(nd):
        if g[b + P_HAND + loc] > 0:
            if cd[p, loc, CT_TYPE] == typ:
                return True
    return False


@part
def reveal_and_flip(g, cd, rr, st, lg):
    """Setup step 7: both opening pairs are revealed at once (L14), then the coin flip (C14)."""
    for p in range(2):
        b = pb(p)
        h = g[b + P_OPENH]
        if h >= 0:
            hand_remove(g, p, h)
            slot_put_hero(g, cd, p, 0, h)
            gl = g[b + P_OPENG]
            if gl >= 0:
                hand_remove(g, p, gl)
                attach_girl(g, cd, rr, p, 0, gl)
            log_ev(g, lg, EV_REVEAL, p, h, gl)
        else:
            g[G_NEEDREP + p] = 1
    fp = rr[R_FIRST_PLAYER]
    if fp == 0:
        first = randbelow(st[S_COIN], 2)
    else:
        first = fp - 1
    g[G_FIRST] = first
    g[G_CUR] = first
    g[G_TURN] = 1
    g[G_SETUP] = 8
    log_ev(g, lg, EV_FIRST, first, 0, 0)
    start_turn(g, cd, rr, st, lg)


@part
def event_window(g, cd, rr):
    """event_timing any_time (L47): open the next Event window, if any, and say whether
    someone must decide (phase PH_EVENT). Windows: the rival's after each action of the
    current player (up to events_per_window Events), then the current player's own after
    the last action of the turn (any number), before the turn ends."""
    cur = g[G_CUR]
    w = g[G_EWIN]
    if w == 1:
        if g[G_EWN] < rr[R_EVENTS_PER_WINDOW]:
            if has_playable_event(g, cd, rr, 1 - cur):
                g[G_PHASE] = PH_EVENT
                g[G_TOMOVE] = 1 - cur
                return True
        w = 0
        g[G_EWIN] = 0
    if w == 0:
        if g[G_ACTS] <= 0:
            if rr[R_EVENT_TIMING] == 1:
                w = 2
                g[G_EWIN] = 2
                g[G_EWN] = 0
    if w == 2:
        if has_playable_event(g, cd, rr, cur):
            g[G_PHASE] = PH_EVENT
            g[G_TOMOVE] = cur
            return True
        g[G_EWIN] = 3
    return False


@kernel
def advance(g, cd, rr, st, lg):
    """Run automatic steps until a player must decide or the game is over."""
    for _guard in range(100000):
        if g[G_WINNER] >= 0:
            if g[G_PHASE] != PH_OVER:
                log_ev(g, lg, EV_WIN, g[G_WINNER], g[G_REASON], 0)
            g[G_PHASE] = PH_OVER
            return
        su = g[G_SETUP]
        if su < 8:
            if su <= 1:
                p = su
                if g[pb(p) + P_PICKS] < rr[R_START_HEROES]:
                    if deck_has_type(g, cd, p, T_HERO):
                        g[G_PHASE] = PH_PICK
                        g[G_TOMOVE] = p
                        return
                g[G_SETUP] = su + 1
                continue
            if su == 2:
                for p in range(2):
                    k = opening_draw(g, cd, rr, p, st, lg)
                    b = pb(p)
                    for i in range(k):     # drawn; the setup picks are marked picked (bit 2)
                        g[b + P_SEEN + g[b + P_TMP + i]] |= 1
                g[G_SETUP] = 3
                continue
            if su <= 6:
                p = (su - 3) // 2
                if (su - 3) % 2 == 0:
                    if hand_has_type(g, cd, p, T_HERO):
                        g[G_PHASE] = PH_OPEN_HERO
                        g[G_TOMOVE] = p
                        return
                    g[pb(p) + P_OPENH] = -1
                else:
                    if rr[R_OPEN_TRANSFORMED] != 0:
                        if g[pb(p) + P_OPENH] >= 0:
                            if hand_has_type(g, cd, p, T_GIRL):
                                g[G_PHASE] = PH_OPEN_GIRL
                                g[G_TOMOVE] = p
                                return
                    g[pb(p) + P_OPENG] = -1
                g[G_SETUP] = su + 1
                continue
            reveal_and_flip(g, cd, rr, st, lg)  # su == 7
            continue
        # a defeated (or expired) active fighter is replaced at once (C15)
        cur = g[G_CUR]
        need = -1
        if g[G_NEEDREP + 1 - cur] != 0:
            need = 1 - cur
        elif g[G_NEEDREP + cur] != 0:
            need = cur
        if need >= 0:
            if replace_options(g, cd, need) > 0:
                g[G_PHASE] = PH_REPLACE
                g[G_TOMOVE] = need
                return
            out_of_heroes(g, cd, rr, need, lg)
            continue
        if g[G_PKIND] != 0:
            src = g[G_PSRC]
            d = 1 - src
            if g[G_PWIN] != 0:
                if g[G_PEV] < rr[R_EVENTS_PER_WINDOW]:
                    if has_playable_event(g, cd, rr, d):
                        g[G_PHASE] = PH_REACT
                        g[G_TOMOVE] = d
                        return
                g[G_PWIN] = 0
            kind = g[G_PKIND]
            amt = g[G_PAMT]
            g[G_PKIND] = 0
            if kind == 1 or rr[R_POWER_FIZZLES] != 0:
                # the fighter that declared the attack, not its card: a copy of the
                # same hero replacing a defeated attacker does not carry its attack;
                # a Magical Power's damage too under rule power_fizzles
                if g[sb(src, 0) + SL_FID] != g[G_PFTR]:
                    log_ev(g, lg, EV_CANCEL, src, kind, 0)
                    continue
            deal_damage(g, cd, rr, d, amt, kind == 1, lg)
            continue
        exhaust_check(g, cd, rr, cur, lg)
        exhaust_check(g, cd, rr, 1 - cur, lg)
        if g[G_WINNER] >= 0:
            continue
        if event_window(g, cd, rr):
            return
        if g[G_ACTS] <= 0:
            end_turn(g, cd, rr, st, lg)
            continue
        g[G_PHASE] = PH_MAIN
        g[G_TOMOVE] = cur
        return


# ================================================================ legal actions
@part
def event_actions(g, cd, rr, p, nd, acts):
    """Legal actions in an Event window (PH_REACT, PH_EVENT): pass, or one playable Event."""
    acts[0] = K_PASS << 8
    n = 1
    for loc in range(nd):
        if event_playable(g, cd, rr, p, loc):
            acts[n] = (K_EVENT << 8) | loc
            n += 1
    return n


@kernel
def legal(g, cd, rr, acts):
    """Write the legal action codes of the player to move into ``acts``; return how many."""
    ph = g[G_PHASE]
    p = g[G_TOMOVE]
    b = pb(p)
    nd = g[G_ND + p]
    n = 0
    if ph == PH_MAIN:
        used = g[G_USED]
        rep = rr[R_REPEAT] != 0
        acts[n] = K_END << 8
        n += 1
        a0 = sb(p, 0)
        if can_attack(g, cd, rr, p, 0):
            if rep or ((used >> K_ATTACK) & 1) == 0:
                acts[n] = K_ATTACK << 8
                n += 1
        if rep or ((used >> K_DRAW) & 1) == 0:
            acts[n] = K_DRAW << 8
            n += 1
        if rep or ((used >> K_RETREAT) & 1) == 0:
            for s in range(1, NSLOT):
                if g[sb(p, s) + SL_HERO] >= 0:
                    acts[n] = (K_RETREAT << 8) | s
                    n += 1
        girl0 = g[a0 + SL_GIRL]
        mgk = g[a0 + SL_MGK]
        grand0 = g[a0 + SL_GRAND]
        sq = squad_count(g, p)
        for loc in range(nd):
            if g[b + P_HAND + loc] <= 0:
                continue
            t = cd[p, loc, CT_TYPE]
            if t == T_HERO:
                if sq < rr[R_SQUAD_CAP]:
                    acts[n] = (K_PLACE << 8) | loc
                    n += 1
            elif t == T_GIRL:
                if rep or ((used >> K_TRANSFORM) & 1) == 0:
                    for s in range(NSLOT):
                        c = sb(p, s)
                        if g[c + SL_HERO] >= 0:
                            if g[c + SL_GIRL] < 0:
                                if g[c + SL_GRAND] < 0:
                                    acts[n] = (K_TRANSFORM << 8) | (loc << 2) | s
                                    n += 1
            elif t == T_POWER:
                if rep or ((used >> K_POWER) & 1) == 0:
                    if g[a0 + SL_HERO] >= 0:
                        if mgk >= cd[p, loc, CT_COST]:
                            if cond_ok(g, cd, p, loc):
                                acts[n] = (K_POWER << 8) | loc
                                n += 1
            elif t == T_PET:
                if rep or ((used >> K_PET) & 1) == 0:
                    if girl0 >= 0:
                        if g[a0 + SL_NPET] < rr[R_PET_LIMIT]:
                            if mgk >= cd[p, loc, CT_COST]:
                                if cond_ok(g, cd, p, loc):
                                    acts[n] = (K_PET << 8) | loc
                                    n += 1
            elif t == T_GRAND:
                if rep or ((used >> K_GRAND) & 1) == 0:
                    if g[a0 + SL_HERO] >= 0:
                        if grand0 < 0:
                            if girl0 >= 0 or rr[R_GRAND_NEEDS_TRANSFORMED] == 0:
                                if mgk >= cd[p, loc, CT_COST]:
                                    if cond_ok(g, cd, p, loc):
                                        acts[n] = (K_GRAND << 8) | loc
                                        n += 1
            elif t == T_EVENT:
                if event_playable(g, cd, rr, p, loc):
                    acts[n] = (K_EVENT << 8) | loc
                    n += 1
        return n
    if ph == PH_REACT:
        return event_actions(g, cd, rr, p, nd, acts)
    if ph == PH_EVENT:
        return event_actions(g, cd, rr, p, nd, acts)
    if ph == PH_REPLACE:
        for s in range(1, NSLOT):
            if g[sb(p, s) + SL_HERO] >= 0:
                acts[n] = (K_PROMOTE << 8) | s
                n += 1
        for loc in range(nd):
            if g[b + P_HAND + loc] > 0:
                if cd[p, loc, CT_TYPE] == T_HERO:
                    acts[n] = (K_PLACE << 8) | loc
                    n += 1
        return n
    if ph == PH_PICK:
        for loc in range(nd):
            if cd[p, loc, CT_TYPE] == T_HERO:
                for i in range(g[b + P_DECKN]):
                    if g[b + P_DECK + i] == loc:
                        acts[n] = (K_PICK << 8) | loc
                        n += 1
                        break
        return n
    if ph == PH_OPEN_HERO or ph == PH_OPEN_GIRL:
        want = T_HERO if ph == PH_OPEN_HERO else T_GIRL
        for loc in range(nd):
            if g[b + P_HAND + loc] > 0:
                if cd[p, loc, CT_TYPE] == want:
                    acts[n] = (K_PICK << 8) | loc
                    n += 1
        return n
    return 0


# ================================================================ apply
@part
def take_action(g, cd, rr, p, kind, arg, st, lg):
    """One of the L16 actions (it costs an action) for the current player ``p``."""
    b = pb(p)
    a0 = sb(p, 0)
    g[G_ACTS] -= 1
    g[G_USED] |= 1 << kind
    if kind == K_ATTACK:
        declare_attack(g, cd, rr, p)
    elif kind == K_DRAW:
        if draw_one(g, p, lg) < 0:
            if rr[R_DECK_OUT] == 0:
                log_ev(g, lg, EV_DECKOUT, p, 0, 0)
                set_winner(g, 1 - p, RE_DECKOUT)
    elif kind == K_RETREAT:
        retreat(g, cd, rr, p, arg)
    elif kind == K_TRANSFORM:
        loc = arg >> 2
        s = arg & 3
        hand_remove(g, p, loc)
        attach_girl(g, cd, rr, p, s, loc)
        dmg = resolve_ops(g, cd, rr, p, loc, st, lg)
        if dmg > 0:
            deal_damage(g, cd, rr, 1 - p, dmg, False, lg)
    elif kind == K_PET:
        hand_remove(g, p, arg)
        g[b + P_SEEN + arg] |= 2
        g[a0 + SL_MGK] -= cd[p, arg, CT_COST]
        k = 0 if g[a0 + SL_PET0] < 0 else 1
        g[a0 + SL_PET0 + k] = arg
        g[a0 + SL_NPET] += 1
        g[a0 + SL_MGK] += cd[p, arg, CT_MGK]
        g[a0 + SL_HP] += cd[p, arg, CT_HP]
        g[a0 + SL_MAXHP] += cd[p, arg, CT_HP]
        dmg = resolve_ops(g, cd, rr, p, arg, st, lg)
        if dmg > 0:
            deal_damage(g, cd, rr, 1 - p, dmg, False, lg)
    elif kind == K_POWER:
        hand_remove(g, p, arg)
        g[b + P_SEEN + arg] |= 2
        g[a0 + SL_MGK] -= cd[p, arg, CT_COST]
        dmg = resolve_ops(g, cd, rr, p, arg, st, lg)
        dream_add(g, p, arg)
        if dmg > 0:
            g[G_PKIND] = 2
            g[G_PAMT] = dmg
            g[G_PSRC] = p
            g[G_PWIN] = 1
            g[G_PEV] = 0
            g[G_PFTR] = g[a0 + SL_FID]
    elif kind == K_GRAND:
        hand_remove(g, p, arg)
        g[b + P_SEEN + arg] |= 2
        g[a0 + SL_GRAND] = arg
        g[a0 + SL_HP] += cd[p, arg, CT_HP]
        g[a0 + SL_MAXHP] += cd[p, arg, CT_HP]
        g[a0 + SL_MGK] = 0
        g[a0 + SL_GATT] = 1
        dmg = resolve_ops(g, cd, rr, p, arg, st, lg)
        if dmg > 0:
            deal_damage(g, cd, rr, 1 - p, dmg, False, lg)
        if rr[R_GRAND_ATTACK] == 1:
            if g[a0 + SL_HERO] >= 0:
                declare_attack(g, cd, rr, p)


@kernel
def apply(g, cd, rr, a, st, lg):
    """Play action ``a`` (one of :func:`legal`'s) for the player to move, then advance."""
    kind = a >> 8
    arg = a & 255
    ph = g[G_PHASE]
    p = g[G_TOMOVE]
    b = pb(p)
    log_ev(g, lg, EV_ACTION, p, a, ph)
    g[G_DEC + p] += 1
    if ph == PH_PICK:
        deck_take(g, p, arg)
        g[b + P_HAND + arg] += 1       # hand_add without the drawn mark: a setup pick (L13)
        g[b + P_HANDN] += 1
        g[b + P_SEEN + arg] |= 4
        g[b + P_PICKS] += 1
    elif ph == PH_OPEN_HERO:
        g[b + P_OPENH] = arg
        g[G_SETUP] += 1
    elif ph == PH_OPEN_GIRL:
        g[b + P_OPENG] = arg
        g[G_SETUP] += 1
    elif ph == PH_REACT:
        if kind == K_PASS:
            g[G_PWIN] = 0
        else:
            play_event(g, cd, rr, p, arg, st, lg)
            g[G_PEV] += 1
    elif ph == PH_EVENT:
        if kind == K_PASS:
            g[G_EWIN] = 0 if g[G_EWIN] == 1 else 3
        else:
            play_event(g, cd, rr, p, arg, st, lg)
            g[G_EWN] += 1
    elif ph == PH_REPLACE:
        if kind == K_PROMOTE:
            slot_copy(g, p, arg, 0)
            slot_clear(g, p, arg)
        else:
            hand_remove(g, p, arg)
            slot_put_hero(g, cd, p, 0, arg)
        g[G_NEEDREP + p] = 0
    elif ph == PH_MAIN:
        if kind == K_END:
            g[G_ACTS] = 0
            g[G_EWIN] = 3              # ending early: the own window is skipped (Events were playable)
        elif kind == K_PLACE:
            for s in range(1, NSLOT):
                if g[sb(p, s) + SL_HERO] < 0:
                    hand_remove(g, p, arg)
                    slot_put_hero(g, cd, p, s, arg)
                    break
        elif kind == K_EVENT:
            play_event(g, cd, rr, p, arg, st, lg)
        else:
            take_action(g, cd, rr, p, kind, arg, st, lg)
            if rr[R_EVENT_TIMING] == 1:
                g[G_EWIN] = 1          # any_time: the rival's Event window after this action
                g[G_EWN] = 0
    advance(g, cd, rr, st, lg)


# ================================================================ game setup
@kernel(inline="always")
def init_game(g, nd, dcnt):
    """Fresh game: decks in deck-list order (shuffled during setup), empty zones."""
    for i in range(g.shape[0]):
        g[i] = 0
    g[G_WINNER] = -1
    for p in range(2):
        g[G_ND + p] = nd[p]
        b = pb(p)
        n = 0
        for loc in range(nd[p]):
            for _ in range(dcnt[p, loc]):
                g[b + P_DECK + n] = loc
                n += 1
        g[b + P_DECKN] = n
        g[b + P_OPENH] = -1
        g[b + P_OPENG] = -1
        for s in range(NSLOT):
            slot_clear(g, p, s)


# ================================================================ policies
@kernel
def ops_value(g, cd, rr, pp, p, loc, react):
    q = 1 - p
    a0 = sb(p, 0)
    r0 = sb(q, 0)
    v = 0.0
    for k in range(2):
        op = cd[p, loc, CT_OP1 + 3 * k]
        amt = cd[p, loc, CT_AMT1 + 3 * k]
        par = cd[p, loc, CT_PAR1 + 3 * k]
        if op == OP_DAMAGE:
            if g[r0 + SL_HERO] >= 0:
                if amt >= g[r0 + SL_HP] + g[pb(q) + P_SHIELD]:
                    v += 1000.0
                else:
                    v += 20.0 + pp[PP_W_ATTACK] * amt
        elif op == OP_HEAL:
            miss = g[a0 + SL_MAXHP] - g[a0 + SL_HP]
            if react:
                inc = g[G_PAMT]
                if inc >= g[a0 + SL_HP]:
                    if g[a0 + SL_HP] + min(amt, miss) > inc:
                        v += 500.0
            v += 8.0 * min(amt, miss) - 2.0
        elif op == OP_PREVENT:
            if react:
                inc = g[G_PAMT] - g[pb(p) + P_SHIELD]
                if inc >= g[a0 + SL_HP]:
                    v += 1000.0
                elif inc >= 2:
                    v += 20.0 + 10.0 * min(amt, inc)
                else:
                    v -= 1.0
            elif pp[PP_SAVE_EVENTS] != 0:
                v -= 1.0
            else:
                v += 5.0
        elif op == OP_DRAW:
            if g[pb(p) + P_DECKN] > amt + 3:
                v += 15.0 * amt
            else:
                v -= 200.0
        elif op == OP_DISCARD:
            v += 10.0 * min(amt, g[pb(q) + P_HANDN])
        elif op == OP_GAIN_MGK:
            if g[a0 + SL_GIRL] >= 0:
                v += 10.0 * amt
            else:
                v += 3.0
        elif op == OP_DRAIN_MGK:
            m = g[r0 + SL_MGK]
            v += 10.0 * min(amt, m)
            if g[r0 + SL_GIRL] >= 0:
                if g[r0 + SL_GRAND] < 0:
                    if m <= amt:
                        v += 30.0
        elif op == OP_SEARCH:
            if deck_has_type(g, cd, p, par):
                v += 25.0
            else:
                v -= 50.0
        elif op == OP_RECOVER:
            if best_of_type(g, cd, p, pb(p) + P_DREAM, par) >= 0:
                v += 20.0
            else:
                v -= 50.0
        elif op == OP_ARMOR:
            v += 8.0 * amt
    return v


@kernel
def heur_score(g, cd, rr, pp, p, a):
    kind = a >> 8
    arg = a & 255
    ph = g[G_PHASE]
    q = 1 - p
    if ph == PH_PICK or ph == PH_OPEN_HERO or ph == PH_OPEN_GIRL:
        return float(cd[p, arg, CT_VALUE])
    if ph == PH_REPLACE:
        if kind == K_PROMOTE:
            c = sb(p, arg)
            v = g[c + SL_HP] + 2 * fighter_atk(g, cd, rr, p, arg) + 3 * g[c + SL_MGK]
            if g[c + SL_GIRL] >= 0:
                v += 5
            return float(v)
        return float(cd[p, arg, CT_HP] + 2 * cd[p, arg, CT_ATK] + 3 * cd[p, arg, CT_MGK])
    if ph == PH_REACT:
        if kind == K_PASS:
            return 0.0
        return ops_value(g, cd, rr, pp, p, arg, True)
    if ph == PH_EVENT:
        if kind == K_PASS:
            return 0.0
        return ops_value(g, cd, rr, pp, p, arg, False)
    # main phase
    a0 = sb(p, 0)
    r0 = sb(q, 0)
    rhp = g[r0 + SL_HP] + g[pb(q) + P_SHIELD]
    exhausting = False
    if g[a0 + SL_GIRL] >= 0:
        if g[a0 + SL_GRAND] < 0:
            exhausting = True
    if kind == K_END:
        return 0.0
    if kind == K_ATTACK:
        d = attack_damage(g, cd, rr, p) - fighter_armor(g, cd, q, 0)
        if d >= rhp:
            return 1000.0
        v = 50.0 + pp[PP_W_ATTACK] * d
        if exhausting:
            if g[a0 + SL_MGK] <= 1:
                v -= pp[PP_EXHAUST_PEN]
        return v
    if kind == K_DRAW:
        if g[pb(p) + P_DECKN] <= 3:
            return -1000.0
        if g[pb(p) + P_HANDN] < pp[PP_DRAW_BELOW]:
            return 30.0
        return 2.0
    if kind == K_RETREAT:
        c = sb(p, arg)
        myhp = g[a0 + SL_HP]
        v = -10.0
        if myhp <= pp[PP_RETREAT_BELOW]:
            if g[c + SL_HP] > myhp:
                v = 40.0 + 5.0 * (g[c + SL_HP] - myhp)
        if not can_attack(g, cd, rr, p, 0):
            if can_attack(g, cd, rr, p, arg):
                if v < 45.0:
                    v = 45.0
        return v
    if kind == K_TRANSFORM:
        loc = arg >> 2
        s = arg & 3
        gv = 5.0 * cd[p, loc, CT_ATK] + 2.0 * cd[p, loc, CT_HP] + 3.0 * cd[p, loc, CT_MGK]
        if s == 0:
            return 80.0 + gv
        if g[a0 + SL_GIRL] >= 0:
            return 35.0 + gv
        return 10.0 + gv
    if kind == K_PLACE:
        return 95.0
    mgk = g[a0 + SL_MGK]
    cost = cd[p, arg, CT_COST]
    if kind == K_PET:
        if mgk - cost + cd[p, arg, CT_MGK] >= 1:
            return 45.0 + 10.0 * cd[p, arg, CT_ATK] + 6.0 * cd[p, arg, CT_MGK] + 2.0 * cd[p, arg, CT_HP] \
                + ops_value(g, cd, rr, pp, p, arg, False)
        return -5.0
    if kind == K_POWER:
        v = ops_value(g, cd, rr, pp, p, arg, False) - 6.0 * cost
        if cost > 0:
            if exhausting:
                if mgk - cost <= 0:
                    v -= pp[PP_EXHAUST_PEN]
        return v
    if kind == K_EVENT:
        return ops_value(g, cd, rr, pp, p, arg, False)
    if kind == K_GRAND:
        if g[G_ACTS] >= 2 or rr[R_GRAND_ATTACK] == 1:
            d = attack_damage(g, cd, rr, p) - fighter_armor(g, cd, q, 0)
            if rr[R_ATTACK_DAMAGE] == 0:
                d += cd[p, arg, CT_ATK]
            if d >= rhp:
                return 900.0
            if pp[PP_GRAND_ANY] != 0:
                return 60.0 + 5.0 * d
            return -20.0
        return -50.0
    return 0.0


@kernel(inline="always")
def heur_choose(g, cd, rr, pp, p, acts, n, srow):
    if pp[PP_EPS] > 0:
        if randbelow(srow, 1000) < pp[PP_EPS]:
            return randbelow(srow, n)
    best = -1e300
    bi = 0
    for i in range(n):
        s = heur_score(g, cd, rr, pp, p, acts[i])
        if s > best:
            best = s
            bi = i
    return bi


@kernel(inline="always")
def choose_simple(g, cd, rr, pol, p, acts, n, st):
    if n <= 1:
        return 0
    if pol[p, PP_KIND] == POL_RANDOM:
        return randbelow(st[S_POL + p], n)
    return heur_choose(g, cd, rr, pol[p], p, acts, n, st[S_POL + p])


@kernel
def determinize(g, me, srow):
    """Resample every card ``me`` cannot see: the rival's hand and both deck orders.

    Built from sorted multisets (counts per local id), so the result depends
    only on what ``me`` may know, never on where the hidden cards really are.
    """
    # own deck: contents known, order not
    b = pb(me)
    n = g[b + P_DECKN]
    nd = g[G_ND + me]
    # counting sort of the own deck
    k = 0
    for loc in range(nd):
        c = 0
        for i in range(k, n):
            if g[b + P_DECK + i] == loc:
                g[b + P_DECK + i] = g[b + P_DECK + k + c]
                g[b + P_DECK + k + c] = loc
                c += 1
        k += c
    for i in range(n - 1, 0, -1):
        j = randbelow(srow, i + 1)
        t = g[b + P_DECK + i]
        g[b + P_DECK + i] = g[b + P_DECK + j]
        g[b + P_DECK + j] = t
    # rival: hand + deck form one hidden multiset (deck lists are public)
    q = 1 - me
    bq = pb(q)
    nq = g[bq + P_DECKN]
    hn = g[bq + P_HANDN]
    ndq = g[G_ND + q]
    for i in range(nq):
        g[bq + P_HAND + g[bq + P_DECK + i]] += 1
    tot = 0
    for loc in range(ndq):
        c = g[bq + P_HAND + loc]
        g[bq + P_HAND + loc] = 0
        for _ in range(c):
            g[bq + P_DECK + tot] = loc
            tot += 1
    for i in range(tot - 1, 0, -1):
        j = randbelow(srow, i + 1)
        t = g[bq + P_DECK + i]
        g[bq + P_DECK + i] = g[bq + P_DECK + j]
        g[bq + P_DECK + j] = t
    # the first hn cards become the hand, the rest the deck
    for i in range(hn):
        g[bq + P_HAND + g[bq + P_DECK + i]] += 1
    for i in range(nq):
        g[bq + P_DECK + i] = g[bq + P_DECK + hn + i]
    # the rival's private opening choices (setup only) are unknown too
    g[bq + P_OPENH] = -1
    g[bq + P_OPENG] = -1


@kernel(inline="always")
def rollout(w, cd, rr, rp, rs, acts, lg, me, horizon):
    """Play ``w`` on with the rollout heuristic for both sides; value for ``me`` in [0, 1]."""
    t_end = w[G_TURN] + horizon
    while w[G_PHASE] != PH_OVER:
        if horizon > 0:
            if w[G_TURN] >= t_end:
                diff = w[pb(me) + P_GEMS] - w[pb(1 - me) + P_GEMS]
                v = 0.5 + diff / (4.0 * rr[R_GEMS_TO_WIN] + 2.0)
                return v
        p = w[G_TOMOVE]
        n = legal(w, cd, rr, acts)
        k = choose_simple(w, cd, rr, rp, p, acts, n, rs)
        apply(w, cd, rr, acts[k], rs, lg)
    win = w[G_WINNER]
    if win == me:
        return 1.0
    if win == 2:
        return 0.5
    return 0.0


@kernel
def search_choose(g, cd, rr, pol, p, acts, n, st, w, rs, acts2, rp, lg, scores):
    """Flat Monte Carlo over determinizations: ``budget`` rollouts shared by the legal
    actions; common random numbers (rollout ``j`` uses the same determinization for
    every action). Returns the index of the best mean value."""
    pp = pol[p]
    srow = st[S_SEARCH + p]
    budget = pp[PP_BUDGET]
    per = budget // n
    if per < 1:
        per = 1
    for r in range(2):
        for k in range(NPP):
            rp[r, k] = pp[k]
        rp[r, PP_KIND] = POL_HEURISTIC
        rp[r, PP_EPS] = pp[PP_ROLL_EPS]
    base = next_u64(srow)
    eps = rp[0, PP_EPS]
    for i in range(n):
        scores[i] = 0.0
    for j in range(per):
        for i in range(n):
            for x in range(NSTATE):
                w[x] = g[x]
            w[G_LOGON] = 0
            for k in range(NST):
                seed_stream(rs[k], base, j, k)
            determinize(w, p, rs[S_ENGINE])
            apply(w, cd, rr, acts[i], rs, lg)
            scores[i] += rollout(w, cd, rr, rp, rs, acts2, lg, p, pp[PP_HORIZON])
    # ties (common with deterministic rollouts) go to the rollout heuristic's own choice
    rp[0, PP_EPS] = 0
    bi = heur_choose(g, cd, rr, rp[0], p, acts, n, srow)
    best = scores[bi]
    for i in range(n):
        if scores[i] > best + 1e-9:
            best = scores[i]
            bi = i
    rp[0, PP_EPS] = eps
    return bi


@kernel(inline="always")
def choose(g, cd, rr, pol, p, acts, n, st, w, rs, acts2, rp, lg, scores):
    if n <= 1:
        return 0
    if pol[p, PP_KIND] == POL_SEARCH:
        ph = g[G_PHASE]
        if ph == PH_MAIN or ph == PH_REACT or ph == PH_REPLACE or ph == PH_EVENT:
            return search_choose(g, cd, rr, pol, p, acts, n, st, w, rs, acts2, rp, lg, scores)
        return heur_choose(g, cd, rr, pol[p], p, acts, n, st[S_POL + p])
    if pol[p, PP_KIND] == POL_ISMCTS:
        ph = g[G_PHASE]
        if pol[p, PP_SETUP] != 0 or ph == PH_MAIN or ph == PH_REACT or ph == PH_REPLACE or ph == PH_EVENT:
            # information-set MCTS (sim.systems.cards.ismcts), called by address (sim.procs)
            return procs.call(pol[p, PP_PROC], g, cd, rr, pol, p, acts, n, st, w, rs, acts2, rp, lg, scores)
        return heur_choose(g, cd, rr, pol[p], p, acts, n, st[S_POL + p])
    return choose_simple(g, cd, rr, pol, p, acts, n, st)


# ================================================================ whole games
@kernel(inline="always")
def seed_game(st, key, t):
    for k in range(NST):
        seed_stream(st[k], key, t, k)


@kernel(inline="always")
def play_game(g, cd, rr, pol, st, w, rs, acts, acts2, rp, lg, scores, gh, kinds):
    """Play the game in ``g`` to the end; gems (halves) at the end of each turn go
    to ``gh[side, turn]``; decisions per side and action kind to ``kinds``."""
    advance(g, cd, rr, st, lg)
    last = g[G_TURN]
    while g[G_PHASE] != PH_OVER:
        p = g[G_TOMOVE]
        n = legal(g, cd, rr, acts)
        k = choose(g, cd, rr, pol, p, acts, n, st, w, rs, acts2, rp, lg, scores)
        kinds[p, acts[k] >> 8] += 1
        apply(g, cd, rr, acts[k], st, lg)
        t = g[G_TURN]
        if t != last:
            if last >= 0:
                for tt in range(last, t):
                    if tt < gh.shape[1]:
                        gh[0, tt] = g[pb(0) + P_GEMS]
                        gh[1, tt] = g[pb(1) + P_GEMS]
            last = t


@pjit
def simulate_blocks(cd, nd, dcnt, rr, pol, key, start, count, nb,
                    outc, rhist, seat, ends, gemc, cardc, kinds, decs):
    """Play games ``start .. start+count-1`` split over ``nb`` prange blocks.

    Counters (int64, summed over trials), per block ``b``: ``outc[b, 3]`` side 0
    wins/losses/draws; ``rhist[b, cap+1]`` games ending on turn r;
    ``seat[b, 2, 3]`` side 0's outcomes when side ``f`` went first;
    ``ends[b, 3, NREASON]`` winner (0, 1, 2 = draw) by end reason;
    ``gemc[b, 2, cap+1]`` sum of gems (halves) held at the end of turn r (the
    final count carried on after a game ends); ``cardc[b, 2, MAXD, NCARDC]`` per
    side and card: games drawn / won when drawn / played / won when played /
    not drawn / won when not drawn / picked in setup / won when picked
    ("drawn" counts draws only, L13's setup picks are apart); ``kinds[b, 2, NKIND]`` decisions by action
    kind; ``decs[b, 2]`` decisions per side.
    """
    cap = rr[R_TURN_CAP]
    for blk in numba.prange(nb):
        lo = start + (blk * count) // nb
        hi = start + ((blk + 1) * count) // nb
        g = np.zeros(NSTATE, dtype=np.int64)
        w = np.zeros(NSTATE, dtype=np.int64)
        st = np.zeros((NST, STATE_WORDS), dtype=np.uint64)
        rs = np.zeros((NST, STATE_WORDS), dtype=np.uint64)
        acts = np.zeros(MAXACT, dtype=np.int64)
        acts2 = np.zeros(MAXACT, dtype=np.int64)
        rp = np.zeros((2, NPP), dtype=np.int64)
        lg = np.zeros((1, LOGW), dtype=np.int64)
        scores = np.zeros(MAXACT, dtype=np.float64)
        gh = np.zeros((2, cap + 2), dtype=np.int64)
        kk = np.zeros((2, NKIND), dtype=np.int64)
        for t in range(lo, hi):
            seed_game(st, key, t)
            init_game(g, nd, dcnt)
            play_game(g, cd, rr, pol, st, w, rs, acts, acts2, rp, lg, scores, gh, kk)
            win = g[G_WINNER]
            turn = g[G_TURN]
            if turn > cap:
                turn = cap
            if win == 0:
                outc[blk, 0] += 1
            elif win == 1:
                outc[blk, 1] += 1
            else:
                outc[blk, 2] += 1
            rhist[blk, turn] += 1
            f = g[G_FIRST]
            seat[blk, f, 0 if win == 0 else (1 if win == 1 else 2)] += 1
            ends[blk, win, g[G_REASON]] += 1
            for s in range(2):
                fin = g[pb(s) + P_GEMS]
                for tt in range(turn, cap + 1):
                    gh[s, tt] = fin
                for tt in range(1, cap + 1):
                    gemc[blk, s, tt] += gh[s, tt]
                    gh[s, tt] = 0
                won = 1 if win == s else 0
                for loc in range(nd[s]):
                    seen = g[pb(s) + P_SEEN + loc]
                    if seen & 1:
                        cardc[blk, s, loc, 0] += 1
                        cardc[blk, s, loc, 1] += won
                    else:
                        cardc[blk, s, loc, 4] += 1
                        cardc[blk, s, loc, 5] += won
                    if seen & 2:
                        cardc[blk, s, loc, 2] += 1
                        cardc[blk, s, loc, 3] += won
                    if seen & 4:
                        cardc[blk, s, loc, 6] += 1
                        cardc[blk, s, loc, 7] += won
                decs[blk, s] += g[G_DEC + s]
                for k in range(NKIND):
                    kinds[blk, s, k] += kk[s, k]
                    kk[s, k] = 0
