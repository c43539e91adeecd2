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
from .gates import T_GAIN
from .points import chain_own
from .world import call, on_grid, unpack
from .state import sealed


@kernel
def spend_fury(i, k, w):
    """A frenzied girl spends ``k`` Fury overcharge; at 0 the frenzy ends (L760)."""
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[i, D_OC + FURY] -= k
    dyn[i, K_FURY_SPENT] += k
    if dyn[i, D_OC + FURY] <= 0:
        dyn[i, D_OC + FURY] = 0
        dyn[i, D_FRENZY] = 0


@kernel(forceinline=True)
def has_code(i, code, w):
    """Combatant ``i`` holds effect ``code`` in a talent slot (codes below 63 in
    ``C_TMASK``, codes from 64 in ``C_TMASK2``)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if code < E_MORE:
        return (comb[i, C_TMASK] >> code) & 1 != 0
    return (comb[i, C_TMASK2] >> (code - 64)) & 1 != 0


@kernel(forceinline=True)
def side_has_code(i, code, w):
    """Some member of ``i``'s side holds effect ``code`` (``C_SIDEMASK``/``C_SIDEMASK2``)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if code < E_MORE:
        return (comb[i, C_SIDEMASK] >> code) & 1 != 0
    return (comb[i, C_SIDEMASK2] >> (code - 64)) & 1 != 0


@kernel(forceinline=True)
def find_talent(i, code, w):
    """The first slot of ``i`` holding effect ``code`` with uses left, or -1."""
    comb, rules, dyn, streams, bf = unpack(w)
    if not has_code(i, code, w):
        return -1
    if sealed(i, w):
        return -1
    for s in range(MAXT):
        if comb[i, C_TCODE + s] == code:
            if dyn[i, D_TUSES + s] != 0:
                return s
    return -1


@kernel(forceinline=True)
def can_pay(i, s, w):
    """A talent's overcharge cost: within a girl's cap, or within a monster's
    pool; never while Seal Magic holds her (:func:`sealed`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if sealed(i, w):
        return False
    cost = comb[i, C_TCOST + s]
    if comb[i, C_MONSTER] != 0:
        return dyn[i, D_POOL] >= cost
    if dyn[i, D_FRENZY] != 0:
        return frenzy_can_pay(i, s, w)
    return dyn[i, D_OC + comb[i, C_TROLE + s]] + cost <= comb[i, P_OCCAP]


@kernel(forceinline=True)
def frenzy_can_pay(i, s, w):
    """Frenzied ``i`` may use slot ``s`` (L752: "she may spend it on using
    Talents, but only the Talents linked to Fury Overcharge"; A9ii, rule
    ``fury_talents``, held in ``D_FRENZY`` from the frenzy's start): a cost
    on the role Fury fills for her (``C_TROLE`` = Fury) within the Fury she
    has left; a talent costing no overcharge only under ``and_costless``
    (A9ii-a); nothing under ``none``. :func:`pay_slot` spends the cost."""
    comb, rules, dyn, streams, bf = unpack(w)
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
def pay_slot(i, s, w):
    """Spend a use of ``i``'s talent in slot ``s``; a girl takes the cost as overcharge
    on the role's stat (L149), a monster spends it from its pool (L1892)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_TUSES + s] > 0:
        dyn[i, D_TUSES + s] -= 1
    dyn[i, K_TUSE + s] += 1
    cost = comb[i, C_TCOST + s]
    if comb[i, C_MONSTER] != 0:
        dyn[i, D_POOL] -= cost
        dyn[i, K_POOL_SPENT] += cost
    elif dyn[i, D_FRENZY] != 0:
        if cost > 0:  # no overcharge in a frenzy: a Fury-linked talent spends her Fury (L752, frenzy_can_pay)
            spend_fury(i, cost, w)
    else:
        if cost > 0:  # Dampen Overcharge on her side may halve it (GAIN)
            cost = chain_own(T_GAIN, i, comb[i, C_TROLE + s], cost, w)
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


@kernel(forceinline=True)
def find_usable(i, code, w):
    """The first slot of ``i`` (listed order = priority) holding ``code`` with
    uses left and an affordable cost, or -1."""
    comb, rules, dyn, streams, bf = unpack(w)
    if not has_code(i, code, w):
        return -1
    for s in range(MAXT):
        if comb[i, C_TCODE + s] == code:
            if dyn[i, D_TUSES + s] != 0:
                if can_pay(i, s, w):
                    return s
    return -1
