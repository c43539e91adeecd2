"""Overcharge: the sixes of magical checks, a monster's pool, bursts counted.

+1 overcharge per six on a magical check (L149), a monster's pool paying for
them (L1892), a witch's counter (L2216); a burst when a counter reaches
``burst_at`` (L151, L161: counted, or made due for :mod:`.bursts`); the frenzy's
Fury spent per attack (L754-758); Support checks (2d6! + Support, their sixes
Support overcharge); the highest overcharge tier of a fight (L153-161).
"""
from __future__ import annotations

from sim._jit import kernel
from sim.dice import exploding_d6

from .codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from .layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from .gates import T_GAIN
from .points import chain_own
from .world import unpack
from .slots import spend_fury
from .state import roll_penalty


@kernel(forceinline=True)
def gain_overcharge(i, stat, amount, w):
    """Sixes on a magical check: +1 per six for a girl (L149); a monster loses
    ``monster_six_cost`` per six from its pool, not below 0 (L1892); a witch's
    pool gains them up to her cap (L2216; counted in ``K_OC_GAIN``). Marionette's copy
    defends 'as usual' (L1834): its sixes are the girl's overcharge (and her burst check)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if amount <= 0:
        return
    copy = comb[i, C_SPAWN_KIND] == SPAWN_COPY
    if copy:
        i = comb[i, C_SPAWN_BY]
    if comb[i, C_MONSTER] != 0:
        if comb[i, C_MONSTER] == WITCH:
            # a witch "still gains overcharge whenever she rolls 6s", up to her cap (L2216-2222)
            room = comb[i, C_POOL_CAP] - dyn[i, D_POOL]
            if amount > room:
                amount = room
            dyn[i, D_POOL] += amount
            dyn[i, K_OC_GAIN] += amount
            return
        spend = amount * rules[R_MONSTER_SIX_COST]
        if spend > dyn[i, D_POOL]:
            spend = dyn[i, D_POOL]
        dyn[i, D_POOL] -= spend
        dyn[i, K_POOL_SPENT] += spend
    elif dyn[i, D_FRENZY] == 0:  # a frenzied girl gains no overcharge (L752)
        amount = chain_own(T_GAIN, i, stat, amount, w)  # Dampen Overcharge on her side
        dyn[i, D_OC + stat] += amount
        dyn[i, K_OC_GAIN + stat] += amount
        if copy:
            check_bursts(i, w)


@kernel(forceinline=True)
def check_bursts(i, w):
    """Count a burst for every stat of girl ``i`` at or above ``burst_at`` (L161).

    A burst "happens as soon as the counter hits 13": once per crossing. With
    ``burst_resets`` the counter returns to 0 (L151); without it the counter
    stays and ``D_BURSTED`` keeps the same crossing from counting again.
    ``burst_while_down: hold``: nothing while she is at 0 Resolve (L1420); the
    counter bursts when she stands again (:func:`.fight.turn_of`).
    """
    comb, rules, dyn, streams, bf = unpack(w)
    if comb[i, C_MONSTER] != 0:
        return
    if dyn[i, D_RES] <= 0:
        if rules[R_BURST_WHILE_DOWN] == 1:
            return
    at = rules[R_BURST_AT]
    if dyn[i, D_OC] < at:  # no counter there: nothing to count (no call)
        if dyn[i, D_OC + 1] < at:
            if dyn[i, D_OC + 2] < at:
                return
    if rules[R_BURSTS] != BURSTS_COUNT:
        mark_bursts(i, w)
        return
    count_bursts(i, w)


@kernel
def count_bursts(i, w):
    """``bursts: count``: count a burst per stat at or above ``burst_at`` and
    reset the counter (``burst_resets``); the duel fast path uses this in
    either mode and replays the trials where it counted one (:mod:`.fast`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    for s in range(3):
        if dyn[i, D_OC + s] >= rules[R_BURST_AT]:
            if rules[R_BURST_RESETS] != 0:
                dyn[i, K_BURSTS + s] += 1
                dyn[i, D_OC + s] = 0
                dyn[i, D_BURST_TRIAL + s] = 1
            elif dyn[i, D_BURSTED + s] == 0:
                dyn[i, K_BURSTS + s] += 1
                dyn[i, D_BURSTED + s] = 1
                dyn[i, D_BURST_TRIAL + s] = 1


@kernel
def mark_bursts(i, w):
    """``bursts: play``: a counter at or above ``burst_at`` makes a burst due
    (counted now, played by :func:`.bursts.settle` after the action, A7b). A frenzied
    girl's Fury counter is her frenzy's pool, not a new burst; a lost girl
    bursts no more."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_LOST] != 0:
        return
    for s in range(3):
        if dyn[i, D_OC + s] >= rules[R_BURST_AT]:
            if dyn[i, D_PEND + s] == 0:
                if s == FURY:
                    if dyn[i, D_FRENZY] != 0:
                        continue
                dyn[i, D_PEND + s] = 1
                dyn[0, D_DUE] = 1
                dyn[i, K_BURSTS + s] += 1
                dyn[i, D_BURST_TRIAL + s] = 1


@kernel
def fury_spend(i, hit, w):
    """What a frenzied girl must spend on each attack (L754-758, A9iii):
    ``fury_spend`` damage: 2 for +1d6 on a hit when she has 2, else 1 for a
    hex of movement; movement: 1. Nothing when she already paid for this
    attack with the frenzy's extra point of movement toward her target
    (``D_FURY_PAID``, :func:`.hex_turn.frenzy_step`). Returns the extra
    damage dice."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_FURY_PAID] != 0:
        dyn[i, D_FURY_PAID] = 0
        return 0
    oc = dyn[i, D_OC + FURY]
    if oc <= 0:
        return 0
    if rules[R_FURY_SPEND] == 0:
        if hit:
            if oc >= 2:
                spend_fury(i, 2, w)
                return 1
    spend_fury(i, 1, w)
    return 0


@kernel
def support_roll(i, w):
    """2d6! + Support for a Support vs Support challenge (L1453 tie rules
    apply); its sixes give Support overcharge (a monster pays them).
    Returns ``(total, sixes)``."""
    comb, rules, dyn, streams, bf = unpack(w)
    total, sixes = exploding_d6(streams[S_CHECK], 2)
    total += comb[i, C_SUP] - roll_penalty(i, w)
    gain_overcharge(i, comb[i, C_RS], sixes, w)
    return total, sixes


@kernel(forceinline=True)
def flair_tier(oc, burst, rules):
    """The highest overcharge tier of a stat in a fight (L153-161): 5 if it
    burst, else the tier its counter ended in (counters only grow between
    bursts, A6 default), 0 below the first flair."""
    if burst != 0:
        return NTIERS - 1
    t = 0
    for k in range(NTIERS - 2):
        if oc >= rules[R_FLAIR_TIERS + k]:
            t = k + 1
    return t


@kernel
def count_tiers(j, oc0, oc1, oc2, w):
    """Count girl ``j``'s highest tier per stat, her counters being ``oc0..oc2``."""
    comb, rules, dyn, streams, bf = unpack(w)
    if comb[j, C_MONSTER] != 0:
        return
    dyn[j, K_TIER + flair_tier(oc0, dyn[j, D_BURST_TRIAL], rules)] += 1
    dyn[j, K_TIER + NTIERS + flair_tier(oc1, dyn[j, D_BURST_TRIAL + 1], rules)] += 1
    dyn[j, K_TIER + 2 * NTIERS + flair_tier(oc2, dyn[j, D_BURST_TRIAL + 2], rules)] += 1
