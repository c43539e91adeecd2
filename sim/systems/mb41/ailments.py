"""Ailments: Stun, Bound, Bleed (L1459-1467).

Giving one (no stacking, A25iii; a Link copies it, L1746), the removal roll
(2d6! + Support, ``removal_bands``, L1467) and Bleed's damage at the start of a
round (L1465).
"""
from __future__ import annotations

from sim._jit import kernel
from sim.dice import exploding_d6

from .codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from .layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from .world import unpack
from .damage import apply_damage
from .overcharge import check_bursts, gain_overcharge
from .state import is_standing, roll_penalty


@kernel
def removal_roll(i, w):
    """Remove ailments (L1467): 2d6! + Support; 11-13 one of her choice
    (Stun, then Bound, then Bleed), 14+ all (``removal_bands``)."""
    comb, rules, dyn, streams, bf = unpack(w)
    total, sixes = exploding_d6(streams[S_CHECK], 2)
    total += comb[i, C_SUP] - roll_penalty(i, w) - dyn[i, D_AMP_AIL]
    gain_overcharge(i, comb[i, C_RS], sixes, w)
    if total <= rules[R_REMOVAL_BANDS]:
        return
    all_of_them = total > rules[R_REMOVAL_BANDS + 1]
    for a in range(3):
        if dyn[i, D_AIL + a] != 0:
            dyn[i, D_AIL + a] = 0
            dyn[i, K_AIL_REMOVED] += 1
            if not all_of_them:
                return


@kernel
def bleed(j, w):
    """Bleed (L1465): damage at the beginning of each round; not an attack."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[j, D_AIL + A_BLEED] == 0:
        return
    if dyn[j, D_DEAD] != 0:
        return
    d = apply_damage(j, rules[R_BLEED_DAMAGE], w)
    dyn[j, K_BLEED_DMG] += d
    dyn[j, K_TAKEN] += d
    check_bursts(j, w)


@kernel
def _ail(t, a, w):
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[t, D_AIL + a] == 0:
        dyn[t, D_AIL + a] = 1
        dyn[t, K_AILED] += 1


@kernel
def give_ailment(t, a, w):
    """Put ailment ``a`` on ``t`` (no stacking of the same ailment, A25iii);
    a Link copies it to her secondary if standing (L1746, A47)."""
    comb, rules, dyn, streams, bf = unpack(w)
    _ail(t, a, w)
    k = dyn[t, D_LINK_TO]
    if k >= 0:
        if is_standing(k, w):
            _ail(k, a, w)
