"""Talents that give or shed ailments: Inflict, Curse / Hello There, Deafening
Scream / Blood Rain, Steal Action, Curse Shift, Seal Magic, Implode, Disruptive
Strikes, Shrug Off.
"""
from __future__ import annotations

from sim._jit import kernel, part
from sim.dice import exploding_d6, sum_d6

from ..codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from ..layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from ..world import call, on_grid, on_positions, unpack
from ..ailments import give_ailment
from ..damage import apply_damage
from ..overcharge import check_bursts, gain_overcharge, support_roll
from ..slots import can_pay, find_talent, find_usable, pay_slot, within
from ..state import _hits, beats, has_ailment, is_standing, roll_penalty
from ..targets import talent_on_target


@part
def try_inflict(i, t, w):
    """Inflict (free, after a successful basic attack, L1607): put an ailment
    the target does not have yet on her, trying the policy's first choice
    first (Stun -> Bound -> Bleed order from there)."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = find_talent(i, E_INFLICT, w)
    if s < 0:
        return
    if not is_standing(t, w):
        return
    if not can_pay(i, s, w):
        return
    for k in range(3):
        a = (comb[i, P_INFLICT] + k) % 3
        if dyn[t, D_AIL + a] == 0:
            pay_slot(i, s, w)
            give_ailment(t, a, w)
            return


@kernel
def disruptive(i, t, w):
    """Disruptive Strikes (L2028): every attack of ``i`` on a girl, hit or
    miss, gives her 1 overcharge on a random stat: 1d6, 1-2 Heart, 3-4 Fury,
    5-6 Judgment."""
    comb, rules, dyn, streams, bf = unpack(w)
    for s in range(MAXT):
        if comb[i, C_TCODE + s] == E_DISRUPTIVE:
            d = sum_d6(streams[S_DAMAGE], 1)
            gain_overcharge(t, (d - 1) // 2, 1, w)
            dyn[i, K_TUSE + s] += 1


@part
def try_curse(i, w):
    """Curse (L1728) / Hello There (L2189), ``curse``: a Minor action giving
    the policy's target an ailment it lacks, no roll (A51); P1 is the mask of
    allowed ailments (1 Stun, 2 Bound, 4 Bleed), tried in the policy's
    ``inflict`` order."""
    comb, rules, dyn, streams, bf = unpack(w)
    s, t = talent_on_target(i, E_CURSE, w)
    if s < 0:
        return False
    for k in range(3):
        a = (comb[i, P_INFLICT] + k) % 3
        if (comb[i, C_TP1 + s] >> a) & 1 != 0:
            if dyn[t, D_AIL + a] == 0:
                pay_slot(i, s, w)
                give_ailment(t, a, w)
                check_bursts(i, w)
                return True
    return False


@part
def try_scream(i, w):
    """Deafening Scream (L1972) / Blood Rain (L1962), ``scream``: a Major
    action, Support vs Support against every standing enemy in the area
    (gridless: all of them; grid: P2 ``area`` circle = within the row's
    range of her, line = on the straight line of that length from her, in the
    direction that catches the most; the draft's positions: circle = within
    the row's range in positions, line = her position and those up to the
    range on the side that catches the most: :func:`scream_direction`); those
    who lose get ailment P1. One roll for the user, one per target; ties to
    the defender (A21). Used when at least ``scream_min`` enemies in the area lack the
    ailment (no exception for the last ones left: issue 36's audit found the monster
    screaming at one or two girls instead of attacking, at a cost of 12-30 points)."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = find_usable(i, E_SCREAM, w)
    if s < 0:
        return False
    a = comb[i, C_TP1 + s]
    side = comb[i, C_SIDE]
    n = comb.shape[0]
    d = -1
    if on_grid(bf):
        if comb[i, C_TP2 + s] == 1:
            d = scream_direction(i, s, a, 6, w)  # one of the six hex directions
    elif on_positions(rules):
        d = 2  # a circle of positions
        if comb[i, C_TP2 + s] == 1:
            d = scream_direction(i, s, a, 2, w)  # a line of positions: 0 upward, 1 downward
    open_ = 0
    left = 0
    for j in range(n):
        if comb[j, C_SIDE] != side:
            if not in_area(i, j, s, d, w):
                continue
            if is_standing(j, w):
                left += 1
                if dyn[j, D_AIL + a] == 0:
                    open_ += 1
    if open_ < comb[i, P_SCREAM_MIN]:
        return False  # scream_min >= 1: none open is never enough
    pay_slot(i, s, w)
    u_total, u_six = support_roll(i, w)
    for j in range(n):
        if comb[j, C_SIDE] == side:
            continue
        if not is_standing(j, w):
            continue
        if not in_area(i, j, s, d, w):
            continue
        d_total, d_six = support_roll(j, w)
        d_total -= dyn[j, D_AMP_AIL]  # Amplify Magic: -P2 to resist ailments (L1797)
        if beats(u_total, u_six, comb[i, C_SUP], d_total, d_six, comb[j, C_SUP], False):
            give_ailment(j, a, w)
        check_bursts(j, w)
    check_bursts(i, w)
    return True


@kernel
def scream_direction(i, s, a, nd, w):
    """Blood Rain's line (``area: line``, L1962): of directions ``0 .. nd-1`` (grid: the six
    hex directions; positions: 0 upward, 1 downward), the one whose line (:func:`in_area`)
    holds the most standing enemies without ailment ``a`` (ties: the lowest)."""
    comb, rules, dyn, streams, bf = unpack(w)
    best = 0
    best_n = -1
    side = comb[i, C_SIDE]
    for d in range(nd):
        k = 0
        for j in range(comb.shape[0]):
            if comb[j, C_SIDE] != side:
                if is_standing(j, w):
                    if dyn[j, D_AIL + a] == 0:
                        if in_area(i, j, s, d, w):
                            k += 1
        if k > best_n:
            best_n = k
            best = d
    return best


@part
def in_area(i, j, s, d, w):
    """``j`` stands in the area of ``i``'s Scream in slot ``s`` (line direction ``d``); gridless always.
    On positions (``d`` >= 0): ``d`` 2 a circle (:func:`within`), 0 / 1 the line of
    positions upward / downward from hers (:func:`..positions.on_side`); on the grid a
    circle (:func:`within`) or the line (:func:`..hex.on_line`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if on_grid(bf):
        if comb[i, C_TP2 + s] == 1:
            return call(rules[PR_ON_LINE], i, j, d * 8 + s, w) != 0
        return within(i, j, s, w)
    if d < 0:
        return True
    if d == 2:
        return within(i, j, s, w)
    return call(rules[PR_ON_LINE], i, j, d * 8 + s, w) != 0


@kernel
def shrug_off(j, w):
    """Shrug Off (L1993): at the beginning of each round remove P1 ailments
    (Stun, then Bound, then Bleed)."""
    comb, rules, dyn, streams, bf = unpack(w)
    for s in range(MAXT):
        if comb[j, C_TCODE + s] == E_SHRUG_OFF:
            k = comb[j, C_TP1 + s]
            for a in range(3):
                if k > 0:
                    if dyn[j, D_AIL + a] != 0:
                        dyn[j, D_AIL + a] = 0
                        dyn[j, K_AIL_REMOVED] += 1
                        dyn[j, K_TUSE + s] += 1
                        k -= 1


@kernel
def try_steal(i, w):
    """Steal Action (L1725): a Minor action, an attack challenge (2d6! + Attack
    against the target's defence; no damage, A50a) on the policy's target if
    it is not Stunned; on success it is Stunned and she may take another
    Minor action. Returns 0 (not used), 1 (failed) or 2 (succeeded)."""
    comb, rules, dyn, streams, bf = unpack(w)
    s, t = talent_on_target(i, E_STEAL_ACTION, w)
    if s < 0:
        return 0
    if dyn[t, D_AIL + A_STUN] != 0:
        return 0
    pay_slot(i, s, w)
    chk = streams[S_CHECK]
    a_total, a_six = exploding_d6(chk, 2)
    a_total += comb[i, C_ATT] - roll_penalty(i, w)
    gain_overcharge(i, comb[i, C_RA], a_six, w)
    passive = comb[t, C_PDEF] >= 0
    if passive:
        d_total = comb[t, C_PDEF]
        d_six = 0
        d_stat = 0
    else:
        d_total, d_six = exploding_d6(chk, 2)
        d_stat = comb[t, C_DEF]
        d_total += d_stat - roll_penalty(t, w) + dyn[t, D_DEF_BONUS]
        gain_overcharge(t, comb[t, C_RD], d_six, w)
    won = _hits(passive, rules[R_MINION_TIE], a_total, a_six, comb[i, C_ATT], d_total, d_six, d_stat,
                rules[R_FULL_TIE] == 1)
    check_bursts(i, w)
    check_bursts(t, w)
    if won:
        give_ailment(t, A_STUN, w)
        return 2
    return 1


@kernel
def try_implode(i, w):
    """Implode (L1763): a Major action, Support vs Support against the
    policy's target (ties to the defender, A21); on success, until the end of
    her next turn, whenever it deals damage it takes half (round up) itself.
    Used on a target with a higher Attack than hers that is not imploded."""
    comb, rules, dyn, streams, bf = unpack(w)
    s, t = talent_on_target(i, E_IMPLODE, w)
    if s < 0:
        return False
    if comb[t, C_ATT] <= comb[i, C_ATT]:
        return False
    g = dyn[t, D_IMPLODE_BY]
    if g >= 0:
        if dyn[g, D_TURNS_DONE] < dyn[t, D_IMPLODE_UNTIL]:
            return False
    pay_slot(i, s, w)
    u_total, u_six = support_roll(i, w)
    d_total, d_six = support_roll(t, w)
    if beats(u_total, u_six, comb[i, C_SUP], d_total, d_six, comb[t, C_SUP], False):
        dyn[t, D_IMPLODE_BY] = i
        dyn[t, D_IMPLODE_UNTIL] = dyn[i, D_TURNS_DONE] + 2
    check_bursts(i, w)
    check_bursts(t, w)
    return True


@kernel
def seal_magic(i, t, w):
    """Seal Magic (L2098, free, after a successful attack): pay; ``t`` uses
    no talent until the end of the next round. Used on a standing target
    with talents, or with Boost uses and a policy that boosts, not sealed
    already."""
    comb, rules, dyn, streams, bf = unpack(w)
    if not is_standing(t, w):
        return
    if comb[t, C_TMASK] == 0:
        if dyn[t, D_BOOSTS] <= 0:
            return
        if comb[t, P_BOOST] == BOOST_NEVER:
            return
    if dyn[t, D_SEALED_UNTIL] > dyn[0, D_ROUND]:
        return
    s = find_usable(i, E_SEAL_MAGIC, w)
    if s < 0:
        return
    pay_slot(i, s, w)
    dyn[t, D_SEALED_UNTIL] = dyn[0, D_ROUND] + 1


@kernel
def try_curse_shift(i, w):
    """Curse Shift (L2017, Major, its cost + 1 per further effect): move the
    ailments it bears to the policy's target (1-2 hexes on the grid ``bf``), those
    the target lacks, while its pool pays. Used when it bears an ailment
    the target lacks."""
    comb, rules, dyn, streams, bf = unpack(w)
    if not has_ailment(i, w):
        return False
    s, t = talent_on_target(i, E_CURSE_SHIFT, w)
    if s < 0:
        return False
    moved = 0
    for a in range(3):
        if dyn[i, D_AIL + a] != 0:
            if dyn[t, D_AIL + a] == 0:
                if moved > 0:
                    if not can_pay(i, s, w):
                        break
                pay_slot(i, s, w)
                dyn[i, D_AIL + a] = 0
                give_ailment(t, a, w)
                moved += 1
    return moved > 0


@kernel
def h_curse(i, b, c, w):
    """Curse, Hello There (:func:`try_curse`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if try_curse(i, w) else 0


@kernel
def h_steal(i, b, c, w):
    """Steal Action (:func:`try_steal`): 2 when it gives her another Minor."""
    comb, rules, dyn, streams, bf = unpack(w)
    return try_steal(i, w)


@kernel
def h_scream(i, b, c, w):
    """Deafening Scream, Blood Rain (:func:`try_scream`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if try_scream(i, w) else 0


@kernel
def h_curse_shift(i, b, c, w):
    """Curse Shift (:func:`try_curse_shift`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if try_curse_shift(i, w) else 0


@kernel
def h_implode(i, b, c, w):
    """Implode (:func:`try_implode`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if try_implode(i, w) else 0


@kernel
def h_inflict(i, t, c, w):
    """HIT: Inflict after a hit (:func:`try_inflict`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    try_inflict(i, t, w)
    return 0


@kernel
def h_seal_magic(i, t, c, w):
    """HIT: Seal Magic after a hit (:func:`seal_magic`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    seal_magic(i, t, w)
    return 0


@kernel
def h_disruptive(i, t, hit, w):
    """AFTER_ATTACK: Disruptive Strikes on a girl (:func:`disruptive`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if comb[t, C_MONSTER] == 0:
        disruptive(i, t, w)
    return 0


@kernel
def h_shrug_off(j, b, c, w):
    """ROUND_START: Shrug Off (:func:`shrug_off`) on a living combatant with an ailment."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[j, D_DEAD] == 0:
        if has_ailment(j, w):  # (nothing to shrug off: no call)
            shrug_off(j, w)
    return 0


@kernel
def h_implode_back(i, t, dealt, w):
    """HIT, Implode (L1763): the attacker ``i`` is imploded (``D_IMPLODE_BY``): it takes half
    the damage it dealt (round up) itself, until the end of the imploder's next turn."""
    comb, rules, dyn, streams, bf = unpack(w)
    g = dyn[i, D_IMPLODE_BY]
    if dyn[g, D_TURNS_DONE] >= dyn[i, D_IMPLODE_UNTIL]:
        dyn[i, D_IMPLODE_BY] = -1
    elif dealt > 0:
        took = apply_damage(i, (dealt + 1) // 2, w)
        dyn[i, K_TAKEN] += took
        dyn[i, K_SELF_DMG] += took
        dyn[g, K_DEALT] += took
    return 0
