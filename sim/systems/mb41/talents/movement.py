"""Movement talents' shared parts: Sprint off her turn, Get Over Here / Repel paid.
"""
from __future__ import annotations

from sim._jit import kernel

from ..codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from ..layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from ..overcharge import check_bursts
from ..slots import can_pay, find_usable, pay_talent


@kernel
def off_turn_sprint(j, comb, dyn):
    """The first slot of ``j`` holding a Sprint she may use off her turn
    (``C_TP3`` off_turn: 4.1 Sprint L1726-1729 "in response to an enemy
    making an attack on your ally", the draft's Speed Burst DRAFT L63-67)
    with uses left, an affordable cost and, unless the row has no limit a
    round (``C_TP2`` any_round), no Sprint yet this round; -1 if none."""
    again = dyn[j, D_SPRINT_AT] == dyn[0, D_ROUND]
    for s in range(MAXT):
        if comb[j, C_TCODE + s] == E_SPRINT:
            if comb[j, C_TP3 + s] != 0:
                if dyn[j, D_TUSES + s] != 0:
                    ok = comb[j, C_TP2 + s] != 0  # no limit a round
                    if not again:
                        ok = True
                    if ok:
                        if can_pay(j, s, comb, dyn):
                            return s
    return -1


@kernel
def pay_sprint(j, s, comb, rules, dyn):
    """Pay Sprint slot ``s`` of ``j`` (and mark the round unless the row has
    no limit a round); its overcharge may burst her."""
    pay_talent(j, s, comb, rules, dyn)
    if comb[j, C_TP2 + s] == 0:
        dyn[j, D_SPRINT_AT] = dyn[0, D_ROUND]
    check_bursts(j, comb, rules, dyn)


@kernel
def pay_shove(i, comb, rules, dyn):
    """Get Over Here / Repel (L1708-1712, L2087-2090): the policy uses it on
    every basic attack it can pay for; returns the slot paid (-1 none)."""
    s = find_usable(i, E_SHOVE, comb, dyn)
    if s >= 0:
        pay_talent(i, s, comb, rules, dyn)
        check_bursts(i, comb, rules, dyn)
    return s
