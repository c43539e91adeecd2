"""Fighting (seed 004): a fighter's attack and armour, damage, defeats and gems,
MGK exhaustion, Retreat.

An Attack spends 1 MGK of the active fighter (L37) and deals its combined ATK
(C1, C4; pets C20); damage persists (L51), prevent effects and armour reduce it,
nothing overflows (C24); a defeated active fighter gives the rival half a gem,
a transformed pair 1.5 (C5) and must be replaced (C15); a girl out of MGK goes
to the Dreamscape (L52, C6); Retreat swaps the active fighter with one on the
Squad and heals (L39, C16, C17).
"""
from __future__ import annotations

from sim._jit import kernel

from .codes import *  # noqa: F401,F403 - the named values (T_*, OP_*, PH_*, K_*, EV_*...)
from .layout import *  # noqa: F401,F403 - the declared fields (G_, P_, SL_, CT_, R_, S_, PP_...)
from .zones import detach, pb, sb, set_winner, slot_to_dream, log_ev, strip_to_hero


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
        comb = rr[R_STATS_COMBINE]
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
    for k in range(2):
        if cd[p, loc, CT_OP + k] == op:
            t += cd[p, loc, CT_AMT + k]
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
    if rr[R_RETREAT_KEEPS_ATTACHMENTS] == 0:
        h = detach(g, cd, p, b)
        g[b + SL_MGK] = cd[p, h, CT_MGK] if g[b + SL_MGK] > cd[p, h, CT_MGK] else g[b + SL_MGK]
        if g[b + SL_HP] > g[b + SL_MAXHP]:
            g[b + SL_HP] = g[b + SL_MAXHP]
    heal = rr[R_RETREAT_HEAL]
    if heal == 0:
        g[b + SL_HP] = g[b + SL_MAXHP]
    elif heal == 1:
        g[a + SL_HP] = g[a + SL_MAXHP]


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
