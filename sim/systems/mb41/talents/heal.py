"""Healing talents: Heal, Healing Magic, A Little Longer, Second Wind, Wave of Courage,
Life Bomb, Drain Life, Remedy, Hate the World's heal.
"""
from __future__ import annotations

from sim._jit import kernel, part
from sim.dice import sum_d6

from ..codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from ..layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from ..world import unpack
from ..damage import restore
from ..overcharge import check_bursts
from ..slots import can_pay, find_usable, pay_slot, within
from ..state import has_ailment, is_standing, other_ally
from ..talents.bonds import hate_the_world


@kernel
def heal_target(i, s, w):
    """Who ``i``'s heal in slot ``s`` would restore: the standing ally lowest
    in Resolve share below ``heal_below`` percent, among those the row's P3
    allows (0 herself or any ally, 1 herself only, 2 a monster ally that is
    not a minion: A Little Longer), or -1."""
    comb, rules, dyn, streams, bf = unpack(w)
    who = comb[i, C_TP3 + s]
    if comb[i, C_TCODE + s] == E_SECOND_WIND:
        who = 1
    n = comb.shape[0]
    best = -1
    best_share = 1 << 40
    for j in range(n):
        if comb[j, C_SIDE] != comb[i, C_SIDE]:
            continue
        if who == 1:
            if j != i:
                continue
        elif who == 2:
            if comb[j, C_MONSTER] == 0:
                continue
            if comb[j, C_PDEF] >= 0:
                continue
        if not is_standing(j, w):
            continue
        if not within(i, j, s, w):
            continue
        share = dyn[j, D_RES] * 100 // comb[j, C_RES]
        if share < comb[i, P_HEAL_BELOW]:
            if share < best_share:
                best_share = share
                best = j
    return best


@part
def try_heal(i, w):
    """A healing Minor action: the first of her healing rows (listed order)
    with uses left, an affordable cost and someone to heal (:func:`heal_target`).

    * ``heal`` (Heal L1602 1d6+1; Healing Magic L1741 1d6+4; A Little Longer
      L2186 1d6+2): restore P1 d6 + P2;
    * ``second_wind`` (Second Wind L1716): herself, P1 d6 + P2, and +P3 to her
      Defence rolls until the start of her next turn.
    """
    comb, rules, dyn, streams, bf = unpack(w)
    mask = comb[i, C_TMASK]
    if (mask >> E_HEAL) & 1 == 0:
        if (mask >> E_SECOND_WIND) & 1 == 0:
            return False
    for s in range(MAXT):
        code = comb[i, C_TCODE + s]
        if code != E_HEAL:
            if code != E_SECOND_WIND:
                continue
        if dyn[i, D_TUSES + s] == 0:
            continue
        if not can_pay(i, s, w):
            continue
        best = heal_target(i, s, w)
        if best < 0:
            continue
        pay_slot(i, s, w)
        amount = sum_d6(streams[S_DAMAGE], comb[i, C_TP1 + s]) + comb[i, C_TP2 + s]
        restore(i, best, amount, w)
        if code == E_SECOND_WIND:
            dyn[i, D_DEF_BONUS] = comb[i, C_TP3 + s]
        check_bursts(i, w)
        return True
    return False


@kernel
def h_drain(i, t, dmg, w):
    """LAND, Drain Life (L1815): on a hit while her Resolve share is below the policy's
    ``heal_below`` percent, she pays a use and the hit's damage is divided by P1 (halved,
    round down, A46); she heals what it dealt (:func:`h_drain_heal`, ``D_DRAIN``)."""
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[i, D_DRAIN] = -1
    s = find_usable(i, E_DRAIN, w)
    if s < 0:
        return dmg
    if dyn[i, D_RES] * 100 >= comb[i, P_HEAL_BELOW] * comb[i, C_RES]:
        return dmg
    pay_slot(i, s, w)
    dyn[i, D_DRAIN] = s
    return dmg // comb[i, C_TP1 + s]


@kernel
def h_drain_heal(i, t, dealt, w):
    """HIT, Drain Life (L1815): she heals what her drained hit dealt."""
    comb, rules, dyn, streams, bf = unpack(w)
    restore(i, i, dealt, w)
    return 0


@kernel
def h_life_bomb_off(i, t, dealt, w):
    """HIT, Life Bomb (L1712): the bomb on ``t`` goes off; she heals half the attack's damage
    (round down, A46) if still standing (at 0 she has no magic, L1420)."""
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[t, D_BOMB] = 0
    if is_standing(t, w):
        restore(t, t, dealt // 2, w)
    return 0


@kernel
def h_remedy_self(i, b, c, w):
    """AILMENTS, Remedy (L1617) on herself at the start of her turn: her ailments removed for
    sure (:func:`try_remedy`); 1 when it did."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if try_remedy(i, i, w) else 0


@kernel
def ailing_ally(i, s, w):
    """The standing ally of ``i`` (not herself) with the most ailments within
    the range of her talent in slot ``s``, or -1."""
    comb, rules, dyn, streams, bf = unpack(w)
    best = -1
    most = 0
    for j in range(comb.shape[0]):
        if not other_ally(i, j, w):
            continue
        if not within(i, j, s, w):
            continue
        k = dyn[j, D_AIL] + dyn[j, D_AIL + 1] + dyn[j, D_AIL + 2]
        if k > most:
            most = k
            best = j
    return best


@kernel
def try_remedy(i, j, w):
    """Remedy (L1617): a Minor action removing one ailment of ``j`` (herself or
    an ally; Stun, then Bound, then Bleed); each further one costs P1
    Support overcharge, taken while within her cap."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = find_usable(i, E_REMEDY, w)
    if s < 0:
        return False
    if not has_ailment(j, w):
        return False
    if j != i:
        if comb[i, C_TP2 + s] != 0:  # the draft's Purge: 'from yourself' (DRAFT L61)
            return False
    pay_slot(i, s, w)
    removed = 0
    extra = comb[i, C_TP1 + s]
    stat = comb[i, C_RS]
    for a in range(3):
        if dyn[j, D_AIL + a] == 0:
            continue
        if removed > 0:
            if comb[i, C_MONSTER] != 0:
                break
            if dyn[i, D_FRENZY] != 0:
                break  # a frenzied girl gains no overcharge (L752): one ailment only
            if dyn[i, D_OC + stat] + extra > comb[i, P_OCCAP]:
                break
            dyn[i, D_OC + stat] += extra
            dyn[i, K_OC_GAIN + stat] += extra
        dyn[j, D_AIL + a] = 0
        dyn[j, K_AIL_REMOVED] += 1
        removed += 1
    check_bursts(i, w)
    return True


@part
def try_group_heal(i, w):
    """Wave of Courage (L1746): a Major action; she and every standing ally
    within the row's range (3; gridless: all) regain P1 d6 + P2, one roll
    each (A45b) or one roll for all (rule ``group_heal_roll: once``, A45a). Used
    when at least P3 of them (or all, if fewer) are below ``heal_below``."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = find_usable(i, E_GROUP_HEAL, w)
    if s < 0:
        return False
    low = 0
    standing = 0
    n = comb.shape[0]
    for j in range(n):
        if comb[j, C_SIDE] != comb[i, C_SIDE]:
            continue
        if not is_standing(j, w):
            continue
        if not within(i, j, s, w):
            continue
        standing += 1
        if dyn[j, D_RES] * 100 < comb[i, P_HEAL_BELOW] * comb[j, C_RES]:
            low += 1
    if low == 0:
        return False
    if low < comb[i, C_TP3 + s]:
        if low < standing:
            return False
    pay_slot(i, s, w)
    once = rules[R_GROUP_HEAL_ROLL] == 1
    amount = 0
    if once:
        amount = sum_d6(streams[S_DAMAGE], comb[i, C_TP1 + s]) + comb[i, C_TP2 + s]
    for j in range(n):
        if comb[j, C_SIDE] != comb[i, C_SIDE]:
            continue
        if not is_standing(j, w):
            continue
        if not within(i, j, s, w):
            continue
        if not once:
            amount = sum_d6(streams[S_DAMAGE], comb[i, C_TP1 + s]) + comb[i, C_TP2 + s]
        restore(i, j, amount, w)
    check_bursts(i, w)
    return True


@kernel
def try_life_bomb(i, w):
    """Life Bomb (L1712): a Major action placing a bomb that heals her half
    the damage of the next hit on her; placed when she has none and is
    below ``heal_below``."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_BOMB] != 0:
        return False
    if dyn[i, D_RES] * 100 >= comb[i, P_HEAL_BELOW] * comb[i, C_RES]:
        return False
    s = find_usable(i, E_LIFE_BOMB, w)
    if s < 0:
        return False
    pay_slot(i, s, w)
    dyn[i, D_BOMB] = 1
    return True


@kernel
def h_heal(i, b, c, w):
    """Heal, Healing Magic, A Little Longer, Second Wind (:func:`try_heal`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if try_heal(i, w) else 0


@kernel
def h_hate_heal(i, b, c, w):
    """Hate the World (L1597) below her ``heal_below`` share: a bond point for P2 d6 + P3 Resolve."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_RES] * 100 < comb[i, P_HEAL_BELOW] * comb[i, C_RES]:
        h = hate_the_world(i, w)
        if h >= 0:
            restore(i, i, sum_d6(streams[S_DAMAGE], comb[i, C_TP2 + h]) + comb[i, C_TP3 + h], w)
            return 1
    return 0


@kernel
def h_remedy(i, b, c, w):
    """Remedy on an ailing ally in range (:func:`ailing_ally`, :func:`try_remedy`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = find_usable(i, E_REMEDY, w)
    if s >= 0:
        j = ailing_ally(i, s, w)
        if j >= 0:
            if try_remedy(i, j, w):
                return 1
    return 0


@kernel
def h_group_heal(i, b, c, w):
    """Wave of Courage (:func:`try_group_heal`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if try_group_heal(i, w) else 0


@kernel
def h_life_bomb(i, b, c, w):
    """Life Bomb (:func:`try_life_bomb`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if try_life_bomb(i, w) else 0
