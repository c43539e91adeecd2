"""Defensive talents: Thick Hide, Shield, Bulwark, Reflector, Evasion, Ranged/Melee
Defence, Aura of Strength, Backlash.
"""
from __future__ import annotations

from sim._jit import kernel
from sim.dice import sum_d6

from ..codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from ..layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from ..world import call, on_grid, unpack
from ..damage import apply_damage
from ..overcharge import check_bursts
from ..slots import find_usable, frenzy_can_pay, pay_slot, spend_fury, within
from ..state import is_standing, other_ally, sealed


@kernel
def h_evasion(i, t, gap, w):
    """EVASION, the draft's Evasion (DRAFT L113-117; free, 1/Scene): 'just been hit ...
    before damage is rolled', + P1 to her defence result; the attacker misses if that
    exceeds his result (strictly; ``gap`` = attack total - defence total), and boosts no
    further. She uses it only when it turns the hit into a miss: then 1."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = find_usable(t, E_EVASION, w)
    if s < 0:
        return 0
    if comb[t, C_TP1 + s] <= gap:
        return 0
    pay_slot(t, s, w)
    return 1


@kernel
def h_defence_dice(i, t, c, w):
    """DEFENCE_DICE, Ranged/Melee Defence (L2084): P2 extra exploding dice when ``t``
    defends against an attack of form P1 (0 melee, 1 ranged)."""
    comb, rules, dyn, streams, bf = unpack(w)
    extra = 0
    for s in range(MAXT):
        if comb[t, C_TCODE + s] == E_DEFENCE_DIE:
            if comb[t, C_TP1 + s] == comb[i, C_FORM]:
                extra += comb[t, C_TP2 + s]
                dyn[t, K_TUSE + s] += 1
    return extra


@kernel
def h_armour(t, i, dmg, w):
    """REDUCE, Thick Hide (L1997), ``armour``: -P1 on a hit on ``t``, not below P2 (a hit
    already at or below P2 is unchanged; A22 order: after the bonuses)."""
    comb, rules, dyn, streams, bf = unpack(w)
    for s in range(MAXT):
        if comb[t, C_TCODE + s] == E_ARMOUR:
            floor = comb[t, C_TP2 + s]
            if dmg > floor:
                new = dmg - comb[t, C_TP1 + s]
                if new < floor:
                    new = floor
                dyn[t, K_PREVENTED] += dmg - new
                dyn[t, K_TUSE + s] += 1
                dmg = new
    return dmg


@kernel
def h_armour_share(t, i, dmg, w):
    """INTERCEPTED, Thick Hide (L1997, 'each time the monster takes damage from an attack') on
    the share of a hit that ``t`` takes as its interceptor (L1469): as :func:`h_armour`."""
    return h_armour(t, i, dmg, w)


@kernel
def h_shield(t, i, dmg, w):
    """REDUCE, Shield (L1613; any standing member of ``t``'s side, herself included, P2 = 0)
    and Bulwark (L2014; only ``t`` itself, P2 = 1): -P1 per point, each point costing the
    row's overcharge; spent when the hit deals at least the shielder's ``shield_above``, as
    many points as cover the damage, within the uses (points per scene) and her cap or pool."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dmg <= 0:
        return dmg
    side = comb[t, C_SIDE]
    for j in range(comb.shape[0]):
        if comb[j, C_SIDE] != side:
            continue
        if (comb[j, C_TMASK] >> E_SHIELD) & 1 == 0:
            continue
        if not is_standing(j, w):
            continue
        if sealed(j, w):
            continue
        if dmg < comb[j, P_SHIELD_ABOVE]:
            continue
        for s in range(MAXT):
            if comb[j, C_TCODE + s] != E_SHIELD:
                continue
            if comb[j, C_TP2 + s] != 0:
                if j != t:
                    continue
            per = comb[j, C_TP1 + s]
            points = (dmg + per - 1) // per
            if comb[j, C_TP3 + s] > 0:  # the draft: 'up to 3 Overcharge this way for one attack' (DRAFT L55)
                if points > comb[j, C_TP3 + s]:
                    points = comb[j, C_TP3 + s]
            left = dyn[j, D_TUSES + s]
            if left >= 0:
                if points > left:
                    points = left
            cost = comb[j, C_TCOST + s]
            frenzied = dyn[j, D_FRENZY] != 0
            if frenzied:
                if not frenzy_can_pay(j, s, w):
                    continue  # only a Fury-linked Shield in a frenzy, paid with her Fury (L752, A9ii)
            if cost > 0:
                if comb[j, C_MONSTER] != 0:
                    room = dyn[j, D_POOL] // cost
                elif frenzied:
                    room = dyn[j, D_OC + FURY] // cost
                else:
                    room = (comb[j, P_OCCAP] - dyn[j, D_OC + comb[j, C_TROLE + s]]) // cost
                if points > room:
                    points = room
            if points <= 0:
                continue
            if left >= 0:
                dyn[j, D_TUSES + s] -= points
            dyn[j, K_TUSE + s] += 1
            if comb[j, C_MONSTER] != 0:
                dyn[j, D_POOL] -= points * cost
                dyn[j, K_POOL_SPENT] += points * cost
            elif frenzied:
                spend_fury(j, points * cost, w)
            else:
                dyn[j, D_OC + comb[j, C_TROLE + s]] += points * cost
                dyn[j, K_OC_GAIN + comb[j, C_TROLE + s]] += points * cost
                check_bursts(j, w)
            cut = points * per
            if cut > dmg:
                cut = dmg
            dyn[t, K_PREVENTED] += cut
            dmg -= cut
            if dmg <= 0:
                return 0
    return dmg


@kernel
def h_backlash(i, t, hit, w):
    """AFTER_ATTACK, Backlash (L1956): a magical girl ``i`` attacking ``t`` takes P1 d6
    damage, on every attack (A30a) or on hits only (``backlash_on``); it is not an attack
    (no reductions)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if comb[i, C_MONSTER] != 0:
        return 0
    if hit == 0:
        if rules[R_BACKLASH_ON] != 0:
            return 0
    for s in range(MAXT):
        if comb[t, C_TCODE + s] == E_BACKLASH:
            d = sum_d6(streams[S_DAMAGE], comb[t, C_TP1 + s])
            dyn[t, K_TUSE + s] += 1
            took = apply_damage(i, d, w)
            dyn[i, K_TAKEN] += took
            dyn[i, K_SELF_DMG] += took
    return 0


@kernel
def give_reflector(i, w):
    """Reflector (L1528): after her successful attack (once per round: her
    first Major of the turn), the standing ally lowest in Resolve share
    within the row's range (1-3; gridless: any) bears a Reflector until the
    end of her next turn; herself with no ally in range."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = -1
    for k in range(MAXT):
        if comb[i, C_TCODE + k] == E_REFLECTOR:
            s = k
    if s < 0:
        return
    if sealed(i, w):
        return
    best = i
    best_share = 1 << 40
    if comb[i, C_TP2 + s] != 0:  # the draft: 'on yourself or an ally' (DRAFT L89)
        best_share = dyn[i, D_RES] * 100 // comb[i, C_RES]
    for j in range(comb.shape[0]):
        if not other_ally(i, j, w):
            continue
        if not within(i, j, s, w):
            continue
        share = dyn[j, D_RES] * 100 // comb[j, C_RES]
        if share < best_share:
            best_share = share
            best = j
    dyn[best, D_REFLECT_BY] = i
    dyn[best, D_REFLECT_UNTIL] = dyn[i, D_TURNS_DONE] + 2
    dyn[i, K_TUSE + s] += 1


@kernel
def h_reflect(t, i, dmg, w):
    """REDUCE, Reflector (L1528): a hit by ``i`` on a Reflector bearer ``t``: she ignores up
    to P1 of the damage and the attacker takes those points (not an attack); returns the
    damage left. An expired Reflector is removed."""
    comb, rules, dyn, streams, bf = unpack(w)
    g = dyn[t, D_REFLECT_BY]
    if dyn[g, D_TURNS_DONE] >= dyn[t, D_REFLECT_UNTIL]:
        dyn[t, D_REFLECT_BY] = -1
        return dmg
    if comb[i, C_SIDE] == comb[t, C_SIDE]:
        return dmg
    cap = 0
    for k in range(MAXT):
        if comb[g, C_TCODE + k] == E_REFLECTOR:
            cap = comb[g, C_TP1 + k]
    cut = dmg if dmg < cap else cap
    if cut <= 0:
        return dmg
    dyn[t, K_PREVENTED] += cut
    took = apply_damage(i, cut, w)
    dyn[i, K_TAKEN] += took
    dyn[i, K_SELF_DMG] += took
    dyn[g, K_DEALT] += took
    return dmg - cut


@kernel
def h_aura_of_strength(i, t, c, w):
    """Aura of Strength (L1689): ``t`` succeeded on a defence roll against
    ``i``; enemies adjacent to her take P1 damage each (not an attack, no
    reductions). Adjacent (rule ``aura_of_strength``): every enemy within 1 hex, gridless
    every melee enemy (:func:`aura_reaches`), or only the attacker when its attack is melee
    (``C_FORM``, 'attacker'). On the draft's positions
    (DRAFT L95, 'all enemies in the same position as you'): every enemy of
    ``t`` in her position, standing or downed, the attacker or not."""
    comb, rules, dyn, streams, bf = unpack(w)
    if rules[R_POSITIONS] > 0:
        for s in range(MAXT):
            if comb[t, C_TCODE + s] == E_AURA_STRENGTH:
                dyn[t, K_TUSE + s] += 1
                for j in range(comb.shape[0]):
                    if comb[j, C_SIDE] == comb[t, C_SIDE]:
                        continue
                    if dyn[j, D_DEAD] != 0:
                        continue
                    if dyn[j, D_PLACE] != dyn[t, D_PLACE]:
                        continue
                    took = apply_damage(j, comb[t, C_TP1 + s], w)
                    dyn[t, K_DEALT] += took
                    dyn[j, K_TAKEN] += took
                    dyn[j, K_SELF_DMG] += took
        return 0
    if rules[R_AURA_OF_STRENGTH] == 0:
        for s in range(MAXT):
            if comb[t, C_TCODE + s] == E_AURA_STRENGTH:
                dyn[t, K_TUSE + s] += 1
                for j in range(comb.shape[0]):
                    if aura_reaches(t, j, w):
                        aura_hurts(t, j, comb[t, C_TP1 + s], w)
        return 0
    if comb[i, C_FORM] != 0:
        return 0
    for s in range(MAXT):
        if comb[t, C_TCODE + s] == E_AURA_STRENGTH:
            dyn[t, K_TUSE + s] += 1
            aura_hurts(t, i, comb[t, C_TP1 + s], w)
    return 0


@kernel(forceinline=True)
def aura_reaches(t, j, w):
    """``aura_of_strength: adjacent`` (L1691, 'all enemies in the hexes adjacent to yours'):
    ``j`` is an enemy of ``t``, not dead, within 1 hex on the grid; gridless, one whose basic
    attack is melee."""
    comb, rules, dyn, streams, bf = unpack(w)
    if comb[j, C_SIDE] == comb[t, C_SIDE]:
        return False
    if dyn[j, D_DEAD] != 0:  # absent reserve rows too
        return False
    if on_grid(bf):
        return call(rules[PR_DISTANCE], t, j, 0, w) == 1
    return comb[j, C_FORM] == 0


@kernel
def aura_hurts(t, j, dmg, w):
    """Aura of Strength's ``dmg`` on ``j`` (not an attack: no defence, no reductions)."""
    comb, rules, dyn, streams, bf = unpack(w)
    took = apply_damage(j, dmg, w)
    dyn[t, K_DEALT] += took
    dyn[j, K_TAKEN] += took
    dyn[j, K_SELF_DMG] += took


@kernel(forceinline=True)
def reflector_after(i, dealt, w):
    """Reflector (L1528) after her own first Major's attack (``dealt`` >= 0: it hit): she
    gives it when she holds it (:func:`give_reflector`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dealt >= 0:
        if (comb[i, C_TMASK] >> E_REFLECTOR) & 1 != 0:
            give_reflector(i, w)
