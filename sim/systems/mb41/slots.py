"""Talent slots: which talents a combatant holds, their uses and their costs.

A combatant's talents sit in ``MAXT`` slots (``C_TCODE`` effect code, ``C_TUSES``
uses, ``C_TCOST`` / ``C_TROLE`` cost, ``C_TP1..3`` parameters, ``C_TREACH``
range); ``C_TMASK`` / ``C_TMASK2`` hold a bit per effect code, ``C_SIDEMASK`` the
OR over her side. This module reads them (:func:`has_code`, :func:`find_usable`),
pays for a use (:func:`pay_slot`: overcharge on the role's stat L149, a
monster's pool L1892, a frenzied girl's Fury L752) and measures a talent's range
(:func:`within`).
"""
from __future__ import annotations

from sim._jit import kernel, part

from .codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from .layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from .world import call, on_grid, unpack
from .state import is_standing, sealed


@kernel
def dampen_overcharge(i, stat, amount, comb, rules, dyn):
    """Dampen Overcharge (seed 000 L1748-1752; free, out of turn, 2/Scene, 1
    Support overcharge): a Medium on girl ``i``'s side halves (round down)
    the ``amount`` of overcharge ``i`` takes on ``stat`` from one roll or one
    talent cost. Returns the amount ``i`` takes.

    Who: the first standing girl of her side (listed order) holding it with
    uses left, other than ``i`` unless ``dampen_self``; she pays only if her
    own counter stays below ``burst_at``. When (``dampen_overcharge_ai``):
    'burst' = the gain would make ``i`` burst and half of it would not;
    'always' = any gain of 2 or more."""
    if amount < 1:
        return amount
    after = dyn[i, D_OC + stat] + amount // 2
    if rules[R_DAMPEN_OVERCHARGE_AI] == 0:
        if dyn[i, D_OC + stat] + amount < rules[R_BURST_AT]:
            return amount
        if after >= rules[R_BURST_AT]:
            return amount
    elif amount < 2:
        return amount
    for d in range(comb.shape[0]):
        if comb[d, C_SIDE] != comb[i, C_SIDE] or comb[d, C_MONSTER] != 0:
            continue
        if d == i and rules[R_DAMPEN_SELF] == 0:
            continue
        if not is_standing(dyn, d):
            continue
        s = find_talent(d, E_DAMPEN_OC, comb, dyn)
        if s < 0:
            continue
        pay_stat = comb[d, C_TROLE + s]
        cost = comb[d, C_TCOST + s]
        if dyn[d, D_FRENZY] != 0:  # a frenzied girl: only Fury-linked, paid with her Fury (L752, A9ii)
            if not frenzy_can_pay(d, s, comb, dyn):
                continue
            if dyn[d, D_TUSES + s] > 0:
                dyn[d, D_TUSES + s] -= 1
            dyn[d, K_TUSE + s] += 1
            spend_fury(d, cost, dyn)
            dyn[i, K_DAMPENED] += amount - amount // 2
            return amount // 2
        if d == i and pay_stat == stat:
            if after + cost >= rules[R_BURST_AT]:
                continue
        elif dyn[d, D_OC + pay_stat] + cost >= rules[R_BURST_AT]:
            continue
        if dyn[d, D_TUSES + s] > 0:
            dyn[d, D_TUSES + s] -= 1
        dyn[d, K_TUSE + s] += 1
        dyn[d, D_OC + pay_stat] += cost   # paid directly: her own cost is not dampened again
        dyn[d, K_OC_GAIN + pay_stat] += cost
        dyn[i, K_DAMPENED] += amount - amount // 2
        return amount // 2
    return amount


@kernel
def spend_fury(i, k, dyn):
    """A frenzied girl spends ``k`` Fury overcharge; at 0 the frenzy ends (L760)."""
    dyn[i, D_OC + FURY] -= k
    dyn[i, K_FURY_SPENT] += k
    if dyn[i, D_OC + FURY] <= 0:
        dyn[i, D_OC + FURY] = 0
        dyn[i, D_FRENZY] = 0


@kernel(inline="always")
def has_code(i, code, comb):
    """Combatant ``i`` holds effect ``code`` in a talent slot (codes below 63 in
    ``C_TMASK``, codes from 64 in ``C_TMASK2``)."""
    if code < E_MORE:
        return (comb[i, C_TMASK] >> code) & 1 != 0
    return (comb[i, C_TMASK2] >> (code - 64)) & 1 != 0


@kernel(inline="always")
def side_has_code(i, code, comb):
    """Some member of ``i``'s side holds effect ``code`` (``C_SIDEMASK``/``C_SIDEMASK2``)."""
    if code < E_MORE:
        return (comb[i, C_SIDEMASK] >> code) & 1 != 0
    return (comb[i, C_SIDEMASK2] >> (code - 64)) & 1 != 0


@kernel(inline="always")
def find_talent(i, code, comb, dyn):
    """The first slot of ``i`` holding effect ``code`` with uses left, or -1."""
    if not has_code(i, code, comb):
        return -1
    if sealed(i, dyn):
        return -1
    for s in range(MAXT):
        if comb[i, C_TCODE + s] == code:
            if dyn[i, D_TUSES + s] != 0:
                return s
    return -1


@kernel(inline="always")
def can_pay(i, s, comb, dyn):
    """A talent's overcharge cost: within a girl's cap, or within a monster's
    pool; never while Seal Magic holds her (:func:`sealed`)."""
    if sealed(i, dyn):
        return False
    cost = comb[i, C_TCOST + s]
    if comb[i, C_MONSTER] != 0:
        return dyn[i, D_POOL] >= cost
    if dyn[i, D_FRENZY] != 0:
        return frenzy_can_pay(i, s, comb, dyn)
    return dyn[i, D_OC + comb[i, C_TROLE + s]] + cost <= comb[i, P_OCCAP]


@kernel(inline="always")
def frenzy_can_pay(i, s, comb, dyn):
    """Frenzied ``i`` may use slot ``s`` (L752: "she may spend it on using
    Talents, but only the Talents linked to Fury Overcharge"; A9ii, rule
    ``fury_talents``, held in ``D_FRENZY`` from the frenzy's start): a cost
    on the role Fury fills for her (``C_TROLE`` = Fury) within the Fury she
    has left; a talent costing no overcharge only under ``and_costless``
    (A9ii-a); nothing under ``none``. :func:`pay_talent` spends the cost."""
    mode = dyn[i, D_FRENZY]
    if mode == FRENZY_NO_TALENTS:
        return False
    cost = comb[i, C_TCOST + s]
    if cost <= 0:
        return mode == FRENZY_COSTLESS_TOO
    if comb[i, C_TROLE + s] != FURY:
        return False
    return dyn[i, D_OC + FURY] >= cost


@kernel
def pay_talent(i, s, comb, rules, dyn):
    """:func:`pay_body` for a caller that holds the arrays (:func:`pay_slot` for one that
    holds the world)."""
    pay_body(i, s, comb, rules, dyn)


@kernel
def pay_slot(i, s, w):
    """:func:`pay_body`, called with the world ``w`` (three words of arguments where the
    arrays take 27)."""
    comb, rules, dyn, streams, bf = unpack(w)
    pay_body(i, s, comb, rules, dyn)


@part
def pay_body(i, s, comb, rules, dyn):
    """Spend a use of ``i``'s talent in slot ``s``; a girl takes the cost as overcharge
    on the role's stat (L149), a monster spends it from its pool (L1892)."""
    if dyn[i, D_TUSES + s] > 0:
        dyn[i, D_TUSES + s] -= 1
    dyn[i, K_TUSE + s] += 1
    cost = comb[i, C_TCOST + s]
    if comb[i, C_MONSTER] != 0:
        dyn[i, D_POOL] -= cost
        dyn[i, K_POOL_SPENT] += cost
    elif dyn[i, D_FRENZY] != 0:
        if cost > 0:  # no overcharge in a frenzy: a Fury-linked talent spends her Fury (L752, frenzy_can_pay)
            spend_fury(i, cost, dyn)
    else:
        if cost > 0:
            if comb[i, C_SIDEMASK2] != 0:
                cost = dampen_overcharge(i, comb[i, C_TROLE + s], cost, comb, rules, dyn)
        dyn[i, D_OC + comb[i, C_TROLE + s]] += cost
        dyn[i, K_OC_GAIN + comb[i, C_TROLE + s]] += cost


@part
def within(i, j, s, w):
    """``j`` is within the range of ``i``'s talent in slot ``s``: on the grid
    at most ``C_TREACH`` hexes away (-1 = the whole field, a reading where
    the book gives no range); on the draft's positions at most ``C_TREACH``
    positions (the row's ``range_positions``: Heal, Healing Magic, Remedy,
    Reflector 0-2, Healing Wave 0-1). Gridless without positions everyone's
    ``D_PLACE`` stays 0 (only :func:`.positions.place_all` and moves on
    positions set it), so always."""
    comb, rules, dyn, streams, bf = unpack(w)
    hi = comb[i, C_TREACH + s]
    if hi < 0:
        return True
    if on_grid(bf):
        return call(rules[PR_DISTANCE], i, j, 0, w) <= hi
    return abs(dyn[i, D_PLACE] - dyn[j, D_PLACE]) <= hi


@kernel(inline="always")
def find_usable(i, code, comb, dyn):
    """The first slot of ``i`` (listed order = priority) holding ``code`` with
    uses left and an affordable cost, or -1."""
    if not has_code(i, code, comb):
        return -1
    for s in range(MAXT):
        if comb[i, C_TCODE + s] == code:
            if dyn[i, D_TUSES + s] != 0:
                if can_pay(i, s, comb, dyn):
                    return s
    return -1
