"""Card zones (seed 004): the deck, the hand, the Dreamscape and the fighter slots.

Moves of cards between zones and the small reads every phase needs: a
player's block and a slot's address in ``g`` (:func:`pb`, :func:`sb`), the
game log, drawing (L19; C11 decks out in the caller), shuffling, a hero put on
the field (a new fighter id), a girl attached (C4: stats combine; L51: HP add),
the attached cards sent away (L35, L52), a setup pick's and a fetched card's
bookkeeping.
"""
from __future__ import annotations

from sim._jit import kernel, part
from sim.rng import randbelow

from .codes import *  # noqa: F401,F403 - the named values (T_*, OP_*, PH_*, K_*, EV_*...)
from .layout import *  # noqa: F401,F403 - the declared fields (G_, P_, SL_, CT_, R_, S_, PP_...)


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
            lg[i, LG_CODE] = code
            lg[i, LG_P] = p
            lg[i, LG_A] = a
            lg[i, LG_B] = b
            lg[i, LG_TURN] = g[G_TURN]
            lg[i, LG_CUR] = g[G_CUR]
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
    comb = rr[R_STATS_COMBINE]
    if comb == 0:
        g[b + SL_MGK] += m
    elif comb == 1:
        g[b + SL_MGK] = m
    elif m > g[b + SL_MGK]:
        g[b + SL_MGK] = m
    g[pb(p) + P_SEEN + loc] |= 2


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
def hand_has_type(g, cd, p, typ):
    nd = g[G_ND + p]
    b = pb(p)
    for loc in range(nd):
        if g[b + P_HAND + loc] > 0:
            if cd[p, loc, CT_TYPE] == typ:
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


@kernel(inline="always")
def squad_count(g, p):
    n = 0
    for s in range(1, NSLOT):
        if g[sb(p, s) + SL_HERO] >= 0:
            n += 1
    return n


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
