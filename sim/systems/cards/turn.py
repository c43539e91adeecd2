"""The game's turns (seed 004): setup, the turn's steps, what can be done, doing it.

OpenSpiel's contract: :func:`advance` runs the automatic steps (setup shuffles
and the opening draw with its mulligan, C9; the face-down opening pair, L14;
the coin flip, C14; the draw step; pending damage after the response window;
defeats and replacement, C15; MGK exhaustion; Grand expiry, L35; Event
windows, C12 / L47) until someone must decide; :func:`legal` lists the legal
actions of the player to move in phase ``g[G_PHASE]``; :func:`apply` plays one
of them and advances again.
"""
from __future__ import annotations

from sim._jit import kernel, part
from sim.rng import randbelow

from .codes import *  # noqa: F401,F403 - the named values (T_*, OP_*, PH_*, K_*, EV_*...)
from .layout import *  # noqa: F401,F403 - the declared fields (G_, P_, SL_, CT_, R_, S_, PP_...)
from .combat import can_attack, deal_damage, declare_attack, exhaust_check, retreat
from .ops import cond_ok, event_playable, has_playable_event, out_of_heroes, play_event, resolve_ops
from .zones import (attach_girl, deck_has_type, deck_pop, deck_take, draw_one, dream_add, hand_has_type, hand_remove,
                    log_ev, pb, random_discard, replace_options, sb, set_winner, shuffle_deck, slot_clear, slot_copy,
                    slot_put_hero, slot_to_dream, squad_count, strip_to_hero)


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
    g[G_ACTS] = rr[R_ACTIONS_PER_TURN]
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
    n = rr[R_OPENING_DRAW]
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
                if g[pb(p) + P_PICKS] < rr[R_STARTING_HEROES]:
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
                    if rr[R_OPENING_TRANSFORMED] != 0:
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
        rep = rr[R_REPEAT_ACTIONS] != 0
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
