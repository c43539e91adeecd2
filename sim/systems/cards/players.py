"""The players inside the engine (seed 004): the heuristics, the flat search and the
policy switch.

A policy sees its own hand, both fields, both Dreamscapes, gems and card counts,
and the rival's deck list, never the rival's hand or any deck order; the search
resamples every hidden card (:func:`determinize`) from a multiset built in
sorted order, so its decision does not depend on where the hidden cards really
are. :func:`choose` calls the policy of the player to move: random, a
heuristic, the flat Monte Carlo search, or ISMCTS by its procedure's address
(:mod:`.ismcts`, :mod:`sim.procs`).
"""
from __future__ import annotations

from sim import procs
from sim._jit import kernel
from sim.rng import next_u64, randbelow, seed_stream

from .codes import *  # noqa: F401,F403 - the named values (T_*, OP_*, PH_*, K_*, EV_*...)
from .layout import *  # noqa: F401,F403 - the declared fields (G_, P_, SL_, CT_, R_, S_, PP_...)
from .combat import attack_damage, can_attack, fighter_armor, fighter_atk
from .turn import apply, legal
from .zones import best_of_type, deck_has_type, pb, sb


@kernel
def ops_value(g, cd, rr, pp, p, loc, react):
    q = 1 - p
    a0 = sb(p, 0)
    r0 = sb(q, 0)
    v = 0.0
    for k in range(2):
        op = cd[p, loc, CT_OP + k]
        amt = cd[p, loc, CT_AMT + k]
        par = cd[p, loc, CT_PAR + k]
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
