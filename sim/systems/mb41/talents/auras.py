"""Fear Aura (L2031) and Courage Aura (L1739): the standing penalty and bonus on rolls.
"""
from __future__ import annotations

from sim._jit import kernel

from ..codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from ..layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from ..world import call, on_grid, unpack


@kernel
def fear_aura(t, sign, w):
    """Fear Aura (L2031): ``sign`` -1, a monster with it is dead: its -P1 to its enemies'
    rolls ends (gridless; the grid recomputes auras, :func:`..hex.refresh_fear`); +1 it
    begins (a reserve row appearing mid-fight, :func:`..state.appear`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    p = 0
    for s in range(MAXT):
        if comb[t, C_TCODE + s] == E_FEAR_AURA:
            p += comb[t, C_TP1 + s]
    for j in range(comb.shape[0]):
        if comb[j, C_SIDE] != comb[t, C_SIDE]:
            dyn[j, D_FEAR] += sign * p


@kernel
def courage_aura(i, sign, w):
    """Courage Aura (L1739): her allies (not herself) get +P1 to all
    challenges while she stands (gridless: all of them; the bonus is a
    negative entry in their ``D_FEAR`` penalty). ``sign`` +1 removes it (she
    dropped), -1 gives it back (she revived)."""
    comb, rules, dyn, streams, bf = unpack(w)
    p = 0
    for s in range(MAXT):
        if comb[i, C_TCODE + s] == E_COURAGE:
            p += comb[i, C_TP1 + s]
    for j in range(comb.shape[0]):
        if j != i:
            if comb[j, C_SIDE] == comb[i, C_SIDE]:
                dyn[j, D_FEAR] += sign * p


@kernel
def h_fear_ends(t, b, c, w):
    """DEATH: a monster's Fear Aura ends with it."""
    fear_aura(t, -1, w)
    return 0


@kernel
def h_fear_begins(j, b, c, w):
    """APPEAR: a reserve row's Fear Aura arrives with it (none at the start: ``C_FEAR0``)."""
    fear_aura(j, 1, w)
    return 0


@kernel
def h_courage_ends(t, b, c, w):
    """DROP: her Courage Aura ends while she is down (or lost)."""
    courage_aura(t, 1, w)
    return 0


@kernel
def h_courage_back(i, b, c, w):
    """BACK: standing again, her Courage Aura is back (on the grid the auras by place again)."""
    comb, rules, dyn, streams, bf = unpack(w)
    courage_aura(i, -1, w)
    if on_grid(bf):
        call(rules[PR_AURAS], i, 0, 0, w)
    return 0
