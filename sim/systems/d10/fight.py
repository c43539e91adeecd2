"""d10 fights, campaigns and the block kernel (seed 003 line numbers).

Initiative is an Agility test, most successes first, ties by Agility score,
then opposed re-rolls (L73; Awareness, :mod:`.powers`), or the listed order;
copies act after their creator (D23). A fight runs round by round until one
side has nobody in it (RULINGS) or the round cap; a trial is a campaign of
``episodes`` x ``fights_per_episode`` fights with wounds, Fortune, KOs and
deaths carried on (L55-69). :func:`simulate_blocks` plays trials in prange
blocks; trial ``t`` seeds its streams from ``(key, t, purpose)``.
"""
from __future__ import annotations

import numba
import numpy as np

from sim._jit import kernel, pjit
from sim.rng import STATE_WORDS, randbelow, seed_stream
from sim.trial_rows import NOTE_FIXED, after, before

from .codes import *  # noqa: F401,F403
from .defence import in_fight
from .layout import *  # noqa: F401,F403
from .pools import pool_size, roll_pool
from .powers import initiative_hooks
from .turn import take_turn, take_turn_plain


@kernel(inline="always")
def side_in(comb, rules, dyn, side):
    """``side`` still fights: one of its members is in the fight, and under rule
    ``hammerspace_stored: out`` not stored in Hammerspace (L153)."""
    n = comb.shape[0]
    for j in range(n):
        if comb[j, C_SIDE] == side:
            if in_fight(dyn, j):
                if dyn[j, D_STORED] > 0:
                    if rules[R_HAMMERSPACE_STORED] == STORED_OUT:
                        continue
                return True
    return False


@kernel(inline="always")
def outcome_now(comb, rules, dyn):
    """-1 while both sides fight on; else F_WIN (side 0 wins), F_LOSS or F_DRAW."""
    a = side_in(comb, rules, dyn, 0)
    b = side_in(comb, rules, dyn, 1)
    if a:
        if b:
            return -1
        return F_WIN
    if b:
        return F_LOSS
    return F_DRAW


@kernel
def init_roll(comb, rules, tab, dyn, st, i):
    n = pool_size(comb, rules, dyn, i, AGI, T_INIT, 0, 0)
    r = initiative_hooks(comb, i, n)  # Awareness: no roll
    if r >= 0:
        return r
    return roll_pool(st, n, tab, rules)


@kernel
def goes_before(comb, rules, tab, dyn, st, key, a, b):
    """Initiative order (L73): more successes, then the higher Agility score, then
    opposed Agility re-rolls until one is higher."""
    if key[a] != key[b]:
        return key[a] > key[b]
    if comb[a, C_SCORE + AGI] != comb[b, C_SCORE + AGI]:
        return comb[a, C_SCORE + AGI] > comb[b, C_SCORE + AGI]
    for _ in range(64):
        ra = init_roll(comb, rules, tab, dyn, st, a)
        rb = init_roll(comb, rules, tab, dyn, st, b)
        if ra != rb:
            return ra > rb
    return randbelow(st, 2) == 0


@kernel
def roll_initiative(comb, rules, tab, dyn, st, order, key):
    """Fill ``order``: listed (``C_ORDER``) or rolled; copies act right after their
    creator (D23)."""
    n = comb.shape[0]
    if rules[R_INITIATIVE] == 1:
        for i in range(n):
            order[comb[i, C_ORDER]] = i
        return
    m = 0
    for i in range(n):
        if comb[i, C_KIND] == KIND_COPY:
            continue
        key[i] = init_roll(comb, rules, tab, dyn, st, i)
        # insertion: the new one moves up past everyone it goes before
        b = m
        order[m] = i
        m += 1
        while b > 0:
            if goes_before(comb, rules, tab, dyn, st, key, i, order[b - 1]):
                order[b] = order[b - 1]
                b -= 1
            else:
                break
        order[b] = i
    if m == n:
        return
    # insert copies after their creators (from the back)
    w = n - 1
    for r in range(m - 1, -1, -1):
        i = order[r]
        nc = comb[i, C_NCOPIES]
        for k in range(nc - 1, -1, -1):
            order[w] = comb[i, C_COPY0] + k
            w -= 1
        order[w] = i
        w -= 1


@kernel
def start_campaign(comb, dyn):
    n = comb.shape[0]
    for i in range(n):
        dyn[i, D_W] = 0
        dyn[i, D_OUT] = OUT_IN
        dyn[i, D_FORT] = comb[i, C_FORT]
        dyn[i, D_GRIEF] = 0
        dyn[i, D_MAXBAND] = 0
        dyn[i, D_KO_TRIAL] = 0


@kernel
def start_episode(comb, rules, dyn, first):
    """Between episodes (L65-69): cake empties the pool, grim erases thresholds;
    Fortune refreshes (L57)."""
    n = comb.shape[0]
    for i in range(n):
        dyn[i, D_FORT] = comb[i, C_FORT]
        if first:
            continue
        if dyn[i, D_OUT] == OUT_DEAD:
            continue
        if rules[R_MODE] == 0:
            dyn[i, D_W] = 0
            dyn[i, D_OUT] = OUT_IN
        else:
            v = dyn[i, D_W] - rules[R_GRIM_HEAL_THRESHOLDS] * comb[i, C_BAND]
            dyn[i, D_W] = v if v > 0 else 0


@kernel
def start_fight(comb, dyn, cc, first):
    """A new fight: enemies fresh; side 0 keeps wounds, KOs (until the next
    episode), deaths and Fortune; everyone's mana is full (L55)."""
    n = comb.shape[0]
    for i in range(n):
        fresh = first
        if comb[i, C_CARRY] == 0:
            fresh = True
        if fresh:
            dyn[i, D_W] = 0
            dyn[i, D_FORT] = comb[i, C_FORT]
            dyn[i, D_GRIEF] = 0
            if dyn[i, D_OUT] != OUT_DEAD:
                dyn[i, D_OUT] = OUT_IN
            if comb[i, C_CARRY] == 0:
                dyn[i, D_OUT] = OUT_IN
        elif dyn[i, D_OUT] == OUT_FLED:
            dyn[i, D_OUT] = OUT_IN
        dyn[i, D_MANA] = comb[i, C_MANA]
        dyn[i, D_DEFPEN] = 0
        dyn[i, D_HELD] = 0
        dyn[i, D_HELD_TN] = 0
        dyn[i, D_HELD_KIND] = HELD_NONE
        dyn[i, D_HELD_BY] = -1
        dyn[i, D_DISABLED] = 0
        dyn[i, D_HIDDEN] = 0
        dyn[i, D_AID] = 0
        dyn[i, D_PERM] = 0
        dyn[i, D_RETREAT] = 0
        dyn[i, D_STORED] = 0
        dyn[i, D_COPIES_MADE] = 0
        dyn[i, D_ACTIVE] = comb[i, C_START]
        dyn[i, D_READY] = 1
        if comb[i, C_START] != 0:
            if dyn[i, D_OUT] == OUT_IN:
                cc[i, K_FIGHTS] += 1


@kernel(inline="always")
def _record(g, plane, comb, dyn, side_curve, comb_curve):
    n = comb.shape[0]
    s0 = 0
    s1 = 0
    for j in range(n):
        if in_fight(dyn, j):
            comb_curve[j, plane, g] += 1
            if comb[j, C_SIDE] == 0:
                s0 = 1
            else:
                s1 = 1
    side_curve[0, plane, g] += s0
    side_curve[1, plane, g] += s1


@kernel
def fight(comb, pol, rules, tab, dyn, order, key, streams, cc, side_curve, comb_curve, g0, last, plain):
    """One fight from the current ``dyn``; returns ``(outcome, rounds)``.

    Curves are indexed by the campaign round ``g0 + r``; plane 0 counts
    campaigns still running after that round, plane 1 the final state of
    campaigns that ended in it (``last``: this fight ends the campaign if won).
    """
    n = comb.shape[0]
    cap = rules[R_ROUND_CAP]
    roll_initiative(comb, rules, tab, dyn, streams[S_SETUP], order, key)
    outcome = outcome_now(comb, rules, dyn)
    rounds = 0
    if outcome < 0:
        rounds = cap
        for r in range(1, cap + 1):
            for k in range(n):
                i = order[k]
                if dyn[i, D_ACTIVE] == 0:
                    continue
                if dyn[i, D_OUT] != OUT_IN:
                    continue
                if dyn[i, D_READY] == 0:
                    continue
                if plain:
                    take_turn_plain(comb, pol, rules, tab, dyn, streams, cc, i)
                else:
                    take_turn(comb, pol, rules, tab, dyn, streams, cc, i)
                outcome = outcome_now(comb, rules, dyn)
                if outcome >= 0:
                    break
            for k in range(n):
                dyn[k, D_READY] = 1
            if outcome >= 0:
                rounds = r
                break
            if r < cap:
                _record(g0 + r, 0, comb, dyn, side_curve, comb_curve)
    if outcome < 0:
        outcome = F_DRAW
    if outcome == F_WIN:
        if not last:
            if rounds > 0:
                _record(g0 + rounds, 0, comb, dyn, side_curve, comb_curve)
            return outcome, rounds
    _record(g0 + rounds, 1, comb, dyn, side_curve, comb_curve)
    return outcome, rounds


@kernel
def campaign(comb, pol, rules, tab, dyn, order, key, streams, cc, side_curve, comb_curve, fights_out, plain):
    """One trial: ``episodes`` x ``fights_per_episode`` fights; stops at the first
    fight side 0 does not win. Returns ``(outcome, total rounds)``."""
    ne = rules[R_EPISODES]
    nf = rules[R_FIGHTS_PER_EPISODE]
    start_campaign(comb, dyn)
    g = 0
    outcome = F_WIN
    for e in range(ne):
        start_episode(comb, rules, dyn, e == 0)
        for f in range(nf):
            start_fight(comb, dyn, cc, (e == 0) and (f == 0))
            last = (e == ne - 1) and (f == nf - 1)
            outcome, r = fight(comb, pol, rules, tab, dyn, order, key, streams, cc, side_curve, comb_curve, g, last, plain)
            fights_out[0] += 1
            g += r
            if outcome != F_WIN:
                break
        if outcome != F_WIN:
            break
    n = comb.shape[0]
    for j in range(n):
        cc[j, K_WOUNDS_END] += dyn[j, D_W]
        if dyn[j, D_ACTIVE] != 0:
            if dyn[j, D_OUT] == OUT_IN:
                cc[j, K_STANDING_END] += 1
    return outcome, g


@pjit
def simulate_blocks(comb, pol, rules, tab, key, start, count, nblocks, plain,
                    fights, rounds_hist, side_curve, comb_curve, ccount, girls, cols, rows):
    """Play trials ``start .. start+count-1`` in ``nblocks`` blocks (prange).

    Trial ``t`` seeds its streams from ``(key, t, purpose)``, so results do not
    depend on the split. Counters have a leading block axis, summed by the caller.
    ``rows`` (int64 ``[count, NROW]``, or ``[0, NROW]`` for none, :func:`sim.trial_rows.none`):
    each trial's row, ``rows[t]`` for trial ``start + t`` (:mod:`sim.trial_rows`, over the
    combatants ``girls``, counters ``cols``; girls counted, as :func:`sim.systems.d10.trials`
    reads them).
    """
    n = comb.shape[0]
    per = (count + nblocks - 1) // nblocks
    with_rows = rows.shape[0] > 0
    for b in numba.prange(nblocks):
        dyn = np.zeros((n, ND), dtype=np.int64)
        order = np.zeros(n, dtype=np.int64)
        ikey = np.zeros(n, dtype=np.int64)
        fo = np.zeros(1, dtype=np.int64)
        streams = np.zeros((NS, STATE_WORDS), dtype=np.uint64)
        note = np.zeros(NOTE_FIXED + 3 * girls.shape[0], dtype=np.int64)
        lo = b * per
        hi = min(count, lo + per)
        for t in range(lo, hi):
            trial = start + t
            for p in range(NS):
                seed_stream(streams[p], key, trial, p)
            if with_rows:
                before(fights[b], ccount[b], girls, cols, note)
            outcome, rounds = campaign(comb, pol, rules, tab, dyn, order, ikey, streams, ccount[b],
                                       side_curve[b], comb_curve[b], fo, plain)
            fights[b, outcome] += 1
            fights[b, F_ROUNDS] += rounds
            rounds_hist[b, rounds] += 1
            if with_rows:
                after(fights[b], ccount[b], girls, cols, True, note, rows[t])
        fights[b, F_FIGHTS] += fo[0]
