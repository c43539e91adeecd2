"""Card effects (seed 004): conditions, Events and what a card does when played.

A card's up to two effects (damage, heal, prevent, draw, discard, gain or drain
MGK, search, recover, armor) resolve in order (:func:`resolve_ops`), their
damage dealt by the caller; a card's condition (gems behind, transformed,
rival damaged, gems at least); Events are free (C12 option) and may be played
when their condition holds (L47); the out-of-heroes draw (L53).
"""
from __future__ import annotations

from sim._jit import kernel

from .codes import *  # noqa: F401,F403 - the named values (T_*, OP_*, PH_*, K_*, EV_*...)
from .layout import *  # noqa: F401,F403 - the declared fields (G_, P_, SL_, CT_, R_, S_, PP_...)
from .combat import deal_damage
from .zones import (best_of_type, deck_pop, deck_take, dream_add, draw_one, hand_add, hand_remove, log_ev, pb,
                    random_discard, sb, set_winner, shuffle_deck, slot_put_hero)


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


@kernel
def resolve_ops(g, cd, rr, p, loc, st, lg):
    """Apply the card's effects except damage (and static armor); return its total damage."""
    dmg = 0
    q = 1 - p
    for k in range(2):
        op = cd[p, loc, CT_OP + k]
        amt = cd[p, loc, CT_AMT + k]
        par = cd[p, loc, CT_PAR + k]
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
