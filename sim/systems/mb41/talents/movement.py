"""Movement talents' shared parts: Sprint off her turn, Get Over Here / Repel paid, Safe
Place's gate in the turn.
"""
from __future__ import annotations

from sim._jit import kernel

from ..codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from ..layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from ..world import unpack
from ..overcharge import check_bursts
from ..slots import can_pay, find_usable, has_code, pay_slot


@kernel
def off_turn_sprint(j, w):
    """The first slot of ``j`` holding a Sprint she may use off her turn
    (``C_TP3`` off_turn: 4.1 Sprint L1726-1729 "in response to an enemy
    making an attack on your ally", the draft's Speed Burst DRAFT L63-67)
    with uses left, an affordable cost and, unless the row has no limit a
    round (``C_TP2`` any_round), no Sprint yet this round; -1 if none."""
    comb, rules, dyn, streams, bf = unpack(w)
    again = dyn[j, D_SPRINT_AT] == dyn[0, D_ROUND]
    for s in range(MAXT):
        if comb[j, C_TCODE + s] == E_SPRINT:
            if comb[j, C_TP3 + s] != 0:
                if dyn[j, D_TUSES + s] != 0:
                    ok = comb[j, C_TP2 + s] != 0  # no limit a round
                    if not again:
                        ok = True
                    if ok:
                        if can_pay(j, s, w):
                            return s
    return -1


@kernel
def pay_sprint(j, s, w):
    """Pay Sprint slot ``s`` of ``j`` (and mark the round unless the row has
    no limit a round); its overcharge may burst her."""
    comb, rules, dyn, streams, bf = unpack(w)
    pay_slot(j, s, w)
    if comb[j, C_TP2 + s] == 0:
        dyn[j, D_SPRINT_AT] = dyn[0, D_ROUND]
    check_bursts(j, w)


@kernel
def pay_shove(i, w):
    """Get Over Here / Repel (L1708-1712, L2087-2090): the policy uses it on
    every basic attack it can pay for; returns the slot paid (-1 none)."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = find_usable(i, E_SHOVE, w)
    if s >= 0:
        pay_slot(i, s, w)
        check_bursts(i, w)
    return s


@kernel(forceinline=True)
def shove_paid(i, w):
    """Get Over Here / Repel on her own basic attack: paid when she holds it and can
    (:func:`pay_shove`); the slot paid, -1 none (the gate, inlined)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if not has_code(i, E_SHOVE, w):
        return -1
    return pay_shove(i, w)


@kernel(forceinline=True)
def safe_place_held(i, w):
    """Safe Place (L1720; the draft's DRAFT L241-243) may be her Major: she holds it (the gate
    of the turn's ``PR_SAFE_PLACE``, which only a geometry with places fills)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return (comb[i, C_TMASK] >> E_SAFE_PLACE) & 1 != 0
