"""Talents that keep overcharge down: Power Dampening (a rolled 1 takes a point off her or
an ally, L1554-1558) and Dampen Overcharge (an ally's gain from one action halved, L1748-1752).
"""
from __future__ import annotations

from sim._jit import kernel

from ..codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from ..layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from ..world import unpack
from ..slots import find_talent, frenzy_can_pay, spend_fury
from ..state import is_standing


@kernel
def h_power_dampening(i, b, c, w):
    """DAMPEN_ROLL, Power Dampening (seed 000 L1554-1558; free, 2/Scene): a die of her
    magical action showed 1, so she removes 1 overcharge from herself or an
    ally: the fullest counter of a living girl of her side (her own on a
    tie, then the listed order). P1 = 0 (the draft, DRAFT L175): an ally only."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = find_talent(i, E_POWER_DAMPENING, w)
    if s < 0:
        return 0
    best = -1
    best_stat = 0
    best_oc = 0
    for k in range(comb.shape[0] + 1):
        j = i if k == 0 else k - 1
        if k > 0 and j == i:
            continue
        if j == i and comb[i, C_TP1 + s] == 0:  # the draft: 'from an ally' only (DRAFT L175)
            continue
        if comb[j, C_SIDE] != comb[i, C_SIDE] or comb[j, C_MONSTER] != 0:
            continue
        if dyn[j, D_DEAD] != 0:
            continue
        for st in range(3):
            if dyn[j, D_OC + st] > best_oc:
                best_oc = dyn[j, D_OC + st]
                best = j
                best_stat = st
    if best < 0:
        return 0
    if dyn[i, D_TUSES + s] > 0:
        dyn[i, D_TUSES + s] -= 1
    dyn[i, K_TUSE + s] += 1
    dyn[best, D_OC + best_stat] -= 1
    dyn[best, K_DAMPENED] += 1
    return 0


@kernel
def h_dampen_overcharge(i, stat, amount, w):
    """GAIN, Dampen Overcharge (seed 000 L1748-1752; free, out of turn, 2/Scene, 1
    Support overcharge): a Medium on girl ``i``'s side halves (round down)
    the ``amount`` of overcharge ``i`` takes on ``stat`` from one roll or one
    talent cost. Returns the amount ``i`` takes.

    Who: the first standing girl of her side (listed order) holding it with
    uses left, other than ``i`` unless ``dampen_self``; she pays only if her
    own counter stays below ``burst_at``. When (``dampen_overcharge_ai``):
    'burst' = the gain would make ``i`` burst and half of it would not;
    'always' = any gain of 2 or more."""
    comb, rules, dyn, streams, bf = unpack(w)
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
        if not is_standing(d, w):
            continue
        s = find_talent(d, E_DAMPEN_OC, w)
        if s < 0:
            continue
        pay_stat = comb[d, C_TROLE + s]
        cost = comb[d, C_TCOST + s]
        if dyn[d, D_FRENZY] != 0:  # a frenzied girl: only Fury-linked, paid with her Fury (L752, A9ii)
            if not frenzy_can_pay(d, s, w):
                continue
            if dyn[d, D_TUSES + s] > 0:
                dyn[d, D_TUSES + s] -= 1
            dyn[d, K_TUSE + s] += 1
            spend_fury(d, cost, w)
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
