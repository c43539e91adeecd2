"""Talents paid with bonds: Hate the World (L1597), Fight for Friends (L1590).
"""
from __future__ import annotations

from sim._jit import kernel

from ..codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from ..layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from ..world import unpack
from ..bursts import lose_bond
from ..slots import find_usable, pay_slot


@kernel
def hate_the_world(i, w):
    """Hate the World (L1597-1600, uses: the draft's 2/Scene): lower a bond
    by 1 (her strongest; never her last bond point, which would leave her lost)
    for +3 to a challenge and damage, or 1d6+4 Resolve (the callers). Returns
    the slot, or -1 when she cannot or will not."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = find_usable(i, E_HATE, w)
    if s < 0:
        return -1
    left = 0
    for b in range(MAXB):
        left += dyn[i, D_BOND + b]
    if left <= 1:
        return -1
    pay_slot(i, s, w)
    lose_bond(i, True, w)
    return s


@kernel
def fight_for_friends(i, w):
    """Fight for Friends (L1590): +P1 to the attack and +P2 damage, declared
    before rolling, when the attack aims to prevent a disaster to someone
    close: read as an ally of hers lying at 0 Resolve, alive (wounds can kill
    her). Pays a use (the 4.1 uses line is lost; the draft's 2/Scene); returns
    the slot or -1.

    P3 = 1, the draft (DRAFT L23-27): + the level of her relationship to a
    character that is present, on any action: any living ally present, and
    her strongest bond's rank (bonds are not tied to characters here; see
    :func:`friends_bonus`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    side = comb[i, C_SIDE]
    for j in range(comb.shape[0]):
        if j == i:
            continue
        if comb[j, C_SIDE] != side:
            continue
        if dyn[j, D_DEAD] != 0:
            continue
        if dyn[j, D_RES] > 0:  # a standing ally counts only for the draft's reading
            s = find_usable(i, E_FRIENDS, w)
            if s < 0 or comb[i, C_TP3 + s] == 0:
                continue
        s = find_usable(i, E_FRIENDS, w)
        if s >= 0:
            pay_slot(i, s, w)
        return s
    return -1


@kernel(forceinline=True)
def friends_bonus(i, s, w):
    """The draft's Fight for Friends bonus (slot P3 = 1): her strongest bond's
    rank (0 without bonds); 0 for the 4.1 row."""
    comb, rules, dyn, streams, bf = unpack(w)
    if comb[i, C_TP3 + s] == 0:
        return 0
    best = 0
    for b in range(MAXB):
        if dyn[i, D_BOND + b] > best:
            best = dyn[i, D_BOND + b]
    return best
