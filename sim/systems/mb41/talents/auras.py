"""Fear Aura (L2031) and Courage Aura (L1739): the standing penalty and bonus on rolls.
"""
from __future__ import annotations

from sim._jit import kernel

from ..codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from ..layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)


@kernel
def end_fear_aura(t, comb, dyn, sign=-1):
    """A monster with Fear Aura is dead: its -P1 to its enemies' rolls ends (gridless; the
    grid recomputes auras, :func:`.battle_grid.refresh_fear`). ``sign`` +1: it begins (a
    reserve row appearing mid-fight, :func:`appear`)."""
    p = 0
    for s in range(MAXT):
        if comb[t, C_TCODE + s] == E_FEAR_AURA:
            p += comb[t, C_TP1 + s]
    for j in range(comb.shape[0]):
        if comb[j, C_SIDE] != comb[t, C_SIDE]:
            dyn[j, D_FEAR] += sign * p


@kernel
def courage_aura(i, sign, comb, dyn):
    """Courage Aura (L1739): her allies (not herself) get +P1 to all
    challenges while she stands (gridless: all of them; the bonus is a
    negative entry in their ``D_FEAR`` penalty). ``sign`` +1 removes it (she
    dropped), -1 gives it back (she revived)."""
    p = 0
    for s in range(MAXT):
        if comb[i, C_TCODE + s] == E_COURAGE:
            p += comb[i, C_TP1 + s]
    for j in range(comb.shape[0]):
        if j != i:
            if comb[j, C_SIDE] == comb[i, C_SIDE]:
                dyn[j, D_FEAR] += sign * p
