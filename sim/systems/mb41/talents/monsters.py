"""Monster and boss abilities: Minion Creation, Marionette, Undying Brood, Overcharge
Radiation, Extra Action.
"""
from __future__ import annotations

from sim._jit import kernel
from sim.dice import sum_d6

from ..codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from ..layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from ..world import call, on_grid, on_positions, unpack
from ..overcharge import check_bursts, gain_overcharge
from ..slots import can_pay, find_talent, find_usable, pay_slot
from ..state import appear, other_ally


@kernel
def create_minions(i, w):
    """Minion Creation (L1981-1985, Minor, 1+ OC): 1 minion per overcharge
    point spent, at most its spread (P1) in one turn. The monster creates
    whenever it has the pool and reserve rows left (its scenario's
    ``creates``: the stat block and the most that can exist); the minions
    appear on the free hexes nearest to it (grid). Returns whether it did."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = find_usable(i, E_MINION_CREATION, w)
    if s < 0:
        return False
    made = 0
    cost = comb[i, C_TCOST + s]
    for j in range(comb.shape[0]):
        if made >= comb[i, C_TP1 + s]:
            break
        if comb[j, C_SPAWN_KIND] != SPAWN_MINION:
            continue
        if comb[j, C_SPAWN_BY] != i:
            continue
        if dyn[j, D_ABSENT] == 0:
            continue
        if not can_pay(i, s, w):
            break
        if not appear(j, dyn[i, D_POS], w):
            break
        if made == 0:
            pay_slot(i, s, w)  # the Minor action: one use, the first point
        elif comb[i, C_MONSTER] != 0:
            dyn[i, D_POOL] -= cost
            dyn[i, K_POOL_SPENT] += cost
        else:
            dyn[i, D_OC + comb[i, C_TROLE + s]] += cost
            dyn[i, K_OC_GAIN + comb[i, C_TROLE + s]] += cost
        made += 1
    dyn[i, K_CREATED] += made
    return made > 0


@kernel
def make_copy(i, w):
    """Marionette (L1831-1834, Minor, 1 OC Attack): while she has no copy
    standing, her reserve row (the copy: her attack, defence and support, 1
    Resolve so that any damage destroys it, no turns, no pool) appears;
    gridless it is a decoy (:func:`..targets.target_of`), on the grid also a second
    origin of her attacks (:func:`..hex.reach`), placed within the
    slot's range (1-4) by ``marionette_place`` (:func:`..hex.copy_cell`);
    on the draft's positions the same within 0-3 positions
    (:func:`..positions.copy_place`, :func:`..positions.reach`).
    It fades at the end of the scene (:func:`..state.spawn_state`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_COPY] != 0:
        return False
    s = find_usable(i, E_MARIONETTE, w)
    if s < 0:
        return False
    for j in range(comb.shape[0]):
        if comb[j, C_SPAWN_KIND] == SPAWN_COPY:
            if comb[j, C_SPAWN_BY] == i:
                if dyn[j, D_ABSENT] == 0:
                    return False  # (a destroyed copy's row is made anew below)
                anchor = call(rules[PR_COPY_PLACE], i, s, 0, w)
                if anchor < 0:
                    return False  # the grid: no hex in range
                if not appear(j, anchor, w):
                    return False
                if on_positions(rules):
                    dyn[j, D_PLACE] = anchor
                pay_slot(i, s, w)
                dyn[i, D_COPY] = j + 1
                return True
    return False


@kernel
def h_radiation(m, b, c, w):
    """SCENE_END, Overcharge Radiation (seed 000 L2047-2049): at the end of a scene every
    magical girl near the monster ``m`` (``radiation_range``; gridless: all) takes 1d6
    overcharge on the stat ``radiation_stat`` names (A34); a girl near several such monsters
    takes it from each. A dead girl takes none. Bursts it causes are checked (and, with
    ``bursts: play``, played by the caller's :func:`..bursts.settle`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    n = comb.shape[0]
    role = C_RA
    if comb[m, C_DEF] > comb[m, C_ATT]:
        role = C_RD
    if comb[m, C_SUP] > comb[m, C_ATT] and comb[m, C_SUP] > comb[m, C_DEF]:
        role = C_RS
    for j in range(n):
        if comb[j, C_MONSTER] != 0 or dyn[j, D_DEAD] != 0:
            continue
        if rules[R_RADIATION_RANGE] >= 0 and on_grid(bf):
            if dyn[j, D_POS] >= 0 and dyn[m, D_POS] >= 0:
                if call(rules[PR_DISTANCE], j, m, 0, w) > rules[R_RADIATION_RANGE]:
                    continue
        stat = comb[j, role]
        if rules[R_RADIATION_STAT] == 1:
            stat = 0
            for st in range(1, 3):
                if dyn[j, D_OC + st] > dyn[j, D_OC + stat]:
                    stat = st
        amount = sum_d6(streams[S_CHECK], 1)
        before = dyn[j, D_OC + stat]
        gain_overcharge(j, stat, amount, w)
        dyn[j, K_RADIATION] += dyn[j, D_OC + stat] - before
        check_bursts(j, w)
    return 0


@kernel
def h_extra_action(i, b, c, w):
    """EXTRA_TURNS, Extra Action (L1979): P1 extra turns per round per row."""
    comb, rules, dyn, streams, bf = unpack(w)
    k = 0
    for s in range(MAXT):
        if comb[i, C_TCODE + s] == E_EXTRA_TURN:
            k += comb[i, C_TP1 + s]
    return k


@kernel
def undying_brood(t, w):
    """Undying Brood (L1999, free, its cost): the monster ``t`` has just
    dropped; if a minion of its side stands and the pool pays, that minion
    becomes the monster: the minion is gone (dead) and ``t`` stands again
    with Resolve = its Base Resolve // P1 (its side's minions at the start),
    halved for every earlier rebirth (at least 1), its pool carried over and
    ailments cleared (a new body). Returns True when it was reborn. On a grid
    it stays on its own hex."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = find_talent(t, E_BROOD, w)
    if s < 0:
        return False
    cost = comb[t, C_TCOST + s]
    if dyn[t, D_POOL] < cost:
        return False
    for m in range(comb.shape[0]):
        if comb[m, C_PDEF] < 0:
            continue
        if not other_ally(t, m, w):
            continue
        pay_slot(t, s, w)
        dyn[m, D_RES] = 0
        dyn[m, D_DEAD] = 1
        dyn[m, K_DEATHS] += 1
        res = comb[t, C_RES] // comb[t, C_TP1 + s]
        res = res >> dyn[t, D_REBIRTHS]
        if res < 1:
            res = 1
        dyn[t, D_RES] = res
        dyn[t, D_REBIRTHS] += 1
        for a in range(3):
            dyn[t, D_AIL + a] = 0
        return True
    return False


@kernel
def h_minion_creation(i, b, c, w):
    """Minion Creation (:func:`create_minions`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if create_minions(i, w) else 0


@kernel
def h_marionette(i, b, c, w):
    """Marionette (:func:`make_copy`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if make_copy(i, w) else 0


@kernel
def h_undying_brood(t, b, c, w):
    """BROOD: Undying Brood (:func:`undying_brood`); 1 when the monster is reborn."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if undying_brood(t, w) else 0


@kernel
def h_possessed(i, t, dmg, w):
    """DAMAGE, Possession (L2075): 'it takes an extra 1d6 damage from any attack it suffers':
    + P2 d6 on ``i``'s hit on the possessing ``t`` (before its reductions)."""
    comb, rules, dyn, streams, bf = unpack(w)
    for s in range(MAXT):
        if comb[t, C_TCODE + s] == E_POSSESSION:
            dmg += sum_d6(streams[S_DAMAGE], comb[t, C_TP2 + s])
            dyn[t, K_TUSE + s] += 1
    return dmg


@kernel
def h_possession_host(t, b, dmg, w):
    """LINK_DAMAGE, Possession (L2075-2076): 'the victim will also take any magical damage the
    monster takes ... and the person may die': the host, a human (L1422), takes ``dmg`` too
    (``D_HOST``, ``K_HOST_DMG``); it dies once its damage reaches ``death_wounds`` (counted
    once, ``K_HOST_DEATHS``). The host is not a combatant: the monster fights on."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[t, D_RES] <= 0:
        return 0
    took = dmg if dmg < dyn[t, D_RES] else dyn[t, D_RES]  # what the monster takes (L1420: no overflow)
    if took <= 0:
        return 0
    before = dyn[t, D_HOST]
    dyn[t, D_HOST] = before + took
    dyn[t, K_HOST_DMG] += took
    if before < rules[R_DEATH_WOUNDS]:
        if before + took >= rules[R_DEATH_WOUNDS]:
            dyn[t, K_HOST_DEATHS] += 1
    return 0
