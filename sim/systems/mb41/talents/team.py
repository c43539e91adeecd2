"""Team talents: Guided Strike, Bonus Action, Amplify Magic, Link, Defensive Switch,
and what ends when a combatant drops.
"""
from __future__ import annotations

from sim._jit import kernel, part

from ..codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from ..layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from ..world import call, on_grid, on_positions, unpack
from ..damage import _damage
from ..overcharge import check_bursts
from ..slots import can_pay, find_talent, find_usable, has_code, pay_slot, side_has_code, within
from ..state import _candidate, is_standing, other_ally
from ..targets import target_of


@kernel
def link_damage(t, dmg, w):
    """The draft's Link copies damage (DRAFT L167: "any effect (damage, ...)"):
    the primary ``t`` is about to take ``dmg``; her secondary, if standing,
    takes the same amount first (counted in her ``K_TAKEN``; a copy is not
    copied on). Returns what the secondary took."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dmg <= 0:
        return 0
    if dyn[t, D_DEAD] != 0:
        return 0
    k = dyn[t, D_LINK_TO]
    if k < 0:
        return 0
    if not is_standing(k, w):
        return 0
    took = _damage(k, dmg, w)
    dyn[k, K_TAKEN] += took
    return took


@part
def guided_strike(i, w):
    """Guided Strike (L1736) as her Major: a Major action letting an ally act; she spends it
    on the standing, un-Stunned ally with the highest Attack when that is higher than her
    own (:func:`guided_choice`), who then makes the basic attack on his policy's target
    among those he reaches (the geometry's ``PR_PICK`` with "in reach": gridless everyone
    is, :func:`..targets.target_of`); she spends it only when he has someone to attack.
    Returns ``(the ally, his target)``, ``(-1, -1)`` when she attacks herself.
    The one rule of every geometry's turn (:func:`..turn.major_choice`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if not has_code(i, E_GUIDED_STRIKE, w):
        return -1, -1
    s, g = guided_choice(i, w)
    if g < 0:
        return -1, -1
    tg = call(rules[PR_PICK], g, 1, 0, w)
    if tg < 0:
        return -1, -1
    pay_slot(i, s, w)
    check_bursts(i, w)
    return g, tg


@kernel
def guided_choice(i, w):
    """Guided Strike's slot and ally (see :func:`guided_strike`), nothing paid;
    ``(-1, -1)`` when she would not use it."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = find_usable(i, E_GUIDED_STRIKE, w)
    if s < 0:
        return -1, -1
    best = -1
    best_att = comb[i, C_ATT]
    for j in range(comb.shape[0]):
        if not other_ally(i, j, w):
            continue
        if dyn[j, D_AIL + A_STUN] != 0:
            continue
        if comb[j, C_ATT] > best_att:
            best_att = comb[j, C_ATT]
            best = j
    return s, best


@kernel
def h_amplify_ends(t, b, c, w):
    """DROP: Amplify Magic on ``t`` ends when she drops (L1797; the draft's L269: her amplified
    Hexes go back to their normal damage)."""
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[t, D_AMP_HEAL] = 0
    dyn[t, D_AMP_AIL] = 0
    if dyn[t, D_AMP_HEX_BY] != 0:
        dyn[t, D_HEXES] -= dyn[t, D_HEX_EXTRA]
        dyn[t, D_HEX_EXTRA] = 0
        dyn[t, D_AMP_HEX_BY] = 0
        dyn[t, D_AMP_HEX] = 0
    return 0


@kernel
def try_amplify(i, w):
    """Amplify Magic (L1795, Minor, until the scene ends or the target drops):
    on the standing ally (herself included) lowest in Resolve share below
    ``heal_below`` when her side heals, +P1 to every healing she receives;
    else, when her side gives ailments, on the policy's target, -P2 to its
    rolls to resist or remove ailments (only with ``ailment`` > 0). The
    draft's Amplify Magic (DRAFT L265-269, ``hex`` > 1) has the healing half
    and, in its place, the Hex half: when she has Hex, on the policy's
    target while it bears no Hex yet (so every Hex she places on it later
    counts), her Hexes on it deal ``hex`` times their damage
    (:func:`..talents.draft.try_hex`). Not on someone already amplified."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = find_usable(i, E_AMPLIFY, w)
    if s < 0:
        return False
    side_mask = comb[i, C_SIDEMASK]
    heals = (1 << E_HEAL) | (1 << E_SECOND_WIND) | (1 << E_GROUP_HEAL) | (1 << E_DRAIN) | (1 << E_LIFE_BOMB)
    if (side_mask & heals) != 0:
        best = -1
        best_share = 1 << 40
        for j in range(comb.shape[0]):
            if comb[j, C_SIDE] != comb[i, C_SIDE]:
                continue
            if not is_standing(j, w):
                continue
            if dyn[j, D_AMP_HEAL] != 0:
                continue
            share = dyn[j, D_RES] * 100 // comb[j, C_RES]
            if share < comb[i, P_HEAL_BELOW]:
                if share < best_share:
                    best_share = share
                    best = j
        if best >= 0:
            pay_slot(i, s, w)
            dyn[best, D_AMP_HEAL] = comb[i, C_TP1 + s]
            return True
    if comb[i, C_TP3 + s] > 1:
        if has_code(i, E_HEX, w):
            t = target_of(i, w)
            if t >= 0:
                if is_standing(t, w):
                    if dyn[t, D_AMP_HEX_BY] == 0:
                        if dyn[t, D_HEXES] == 0:
                            pay_slot(i, s, w)
                            dyn[t, D_AMP_HEX_BY] = i + 1
                            dyn[t, D_AMP_HEX] = comb[i, C_TP3 + s]
                            return True
    if comb[i, C_TP2 + s] == 0:
        return False
    ailing = (1 << E_INFLICT) | (1 << E_CURSE) | (1 << E_SCREAM) | (1 << E_ATTACK_AILMENT) | (1 << E_STEAL_ACTION)
    if (side_mask & ailing) != 0:
        t = target_of(i, w)
        if t >= 0:
            if is_standing(t, w):
                if dyn[t, D_AMP_AIL] == 0:
                    pay_slot(i, s, w)
                    dyn[t, D_AMP_AIL] = comb[i, C_TP2 + s]
                    return True
    return False


@kernel
def _lowest_two(i, s, w):
    """The two standing members of ``i``'s side (herself included) within the
    range of her slot ``s`` (:func:`within`) lowest in Resolve share,
    ``(first, second)``; -1 where there are not enough."""
    comb, rules, dyn, streams, bf = unpack(w)
    a = -1
    b = -1
    sa = 1 << 40
    sb = 1 << 40
    for j in range(comb.shape[0]):
        if comb[j, C_SIDE] != comb[i, C_SIDE]:
            continue
        if not is_standing(j, w):
            continue
        if not within(i, j, s, w):
            continue
        share = dyn[j, D_RES] * 100 // comb[j, C_RES]
        if share < sa:
            b = a
            sb = sa
            a = j
            sa = share
        elif share < sb:
            b = j
            sb = share
    return a, b


@kernel
def try_link(i, w):
    """Link (L1743, Minor, one link at a time, to the end of the scene):
    when her side heals, link the two allies (herself included) lowest in
    Resolve share, the lowest as primary: healing on the primary is copied to
    the secondary (A47b, :func:`..damage.restore`); else, when her side gives
    ailments, the policy's target as primary and another standing enemy as
    secondary: ailments on the primary are copied (:func:`..ailments.give_ailment`).
    She makes a new link when she has none or one of the linked dropped.

    The draft's Link (DRAFT L165-169, ``damage: 1``, range 0-2 positions)
    copies damage too: while two enemies stand she links the policy's target
    (primary) and the other standing enemy lowest in Resolve (secondary), and
    every damage on the primary is dealt to the secondary as well
    (:func:`link_damage`).

    Both linked must be within the slot's range of her (:func:`within`): 4.1
    "2 enemies or 2 allies within 1-3, may include yourself" on the hex grid,
    the draft's 0-2 on positions; gridless always."""
    comb, rules, dyn, streams, bf = unpack(w)
    p = dyn[i, D_LINKED]
    if p >= 0:
        k = dyn[p, D_LINK_TO]
        if k >= 0:
            if is_standing(p, w):
                if is_standing(k, w):
                    return False
    s = find_usable(i, E_LINK, w)
    if s < 0:
        return False
    side_mask = comb[i, C_SIDEMASK]
    heals = (1 << E_HEAL) | (1 << E_SECOND_WIND) | (1 << E_GROUP_HEAL) | (1 << E_DRAIN) | (1 << E_LIFE_BOMB)
    ailing = (1 << E_INFLICT) | (1 << E_CURSE) | (1 << E_SCREAM) | (1 << E_ATTACK_AILMENT) | (1 << E_STEAL_ACTION)
    a = -1
    b = -1
    hurts = False
    if comb[i, C_TP1 + s] != 0:
        a, b = _enemy_pair(i, s, w)
        hurts = b >= 0
    if hurts:
        pass
    elif (side_mask & heals) != 0:
        a, b = _lowest_two(i, s, w)
    elif (side_mask & ailing) != 0:
        a = target_of(i, w)
        if a >= 0:
            if not is_standing(a, w):
                a = -1
            elif not within(i, a, s, w):
                a = -1
        if a >= 0:
            for j in range(comb.shape[0]):
                if j != a:
                    if comb[j, C_SIDE] == comb[a, C_SIDE]:
                        if is_standing(j, w):
                            if within(i, j, s, w):
                                b = j
                                break
    if b < 0:
        return False
    if p >= 0:
        dyn[p, D_LINK_TO] = -1  # one link at a time: the old one ends
        dyn[p, D_LINK_DMG] = 0
    pay_slot(i, s, w)
    dyn[a, D_LINK_TO] = b
    dyn[a, D_LINK_DMG] = 1 if hurts else 0
    dyn[i, D_LINKED] = a
    return True


@kernel
def _enemy_pair(i, s, w):
    """The draft's Link on enemies: ``(primary, secondary)`` = the policy's
    target and the other standing enemy lowest in Resolve (ties to the first
    listed; never a Marionette copy), both within the slot's reach
    (:func:`within`); ``(-1, -1)`` when there is no such pair."""
    comb, rules, dyn, streams, bf = unpack(w)
    a = target_of(i, w)
    if a < 0:
        return -1, -1
    if comb[a, C_SPAWN_KIND] == SPAWN_COPY:
        a = comb[a, C_SPAWN_BY]  # the decoy: she links the girl it copies
    if not is_standing(a, w):
        return -1, -1
    if not within(i, a, s, w):
        return -1, -1
    b = -1
    br = 1 << 40
    for j in range(comb.shape[0]):
        if j == a:
            continue
        if comb[j, C_SIDE] != comb[a, C_SIDE]:
            continue
        if comb[j, C_SPAWN_KIND] == SPAWN_COPY:
            continue
        if not is_standing(j, w):
            continue
        if not within(i, j, s, w):
            continue
        if dyn[j, D_RES] < br:
            br = dyn[j, D_RES]
            b = j
    if b < 0:
        return -1, -1
    return a, b


@kernel
def defensive_switch(i, t, w):
    """Defensive Switch (L1699-1703, free, 2/Scene, an ally 1-3 hexes away):
    before ``i``'s attack roll on ``t``, an ally of ``t`` holding it, whose
    intercept policy is willing (``P_INTERCEPT`` >= 0) and ``t`` below that
    share of its Resolve (1000: always), standing and higher in Resolve than
    ``t``, swaps places with it (grid, ``bf``; gridless she only becomes the
    target) and is attacked instead; she defends normally. Returns the target.
    On the grid it serves the turn's basic attack (Minion Explosion from the
    minion's hex too), a frenzy's attacks, retaliations, each target of an
    area attack or a mine (not by an ally who is herself a target of it,
    ``D_AREA_HIT``: she would be attacked twice) and the Pendulum (``i`` its
    owner, or -1)."""
    comb, rules, dyn, streams, bf = unpack(w)
    side = comb[t, C_SIDE]
    for j in range(comb.shape[0]):
        if j == t:
            continue
        if j == i:
            continue  # a frenzied attacker never switches into her own attack
        if comb[j, C_SIDE] != side:
            continue
        if comb[j, P_INTERCEPT] < 0:
            continue
        if not is_standing(j, w):
            continue
        if dyn[t, D_RES] * 100 >= comb[j, P_INTERCEPT] * comb[t, C_RES]:
            continue
        if dyn[j, D_RES] <= dyn[t, D_RES]:
            continue
        if dyn[j, D_AREA_HIT] != 0:
            continue  # a target of the same area attack herself (or its switcher already)
        s = find_usable(j, E_SWITCH, w)
        if s < 0:
            continue
        if on_grid(bf):
            if dyn[t, D_POS] < 0:
                continue
            if not within(j, t, s, w):
                continue
            call(rules[PR_SWITCH_TO], j, t, 0, w)
        elif on_positions(rules):  # the draft's positions: an ally 0-3 positions away (DRAFT L103-107)
            hi = comb[j, C_TREACH + s]
            if hi >= 0:
                if abs(dyn[j, D_PLACE] - dyn[t, D_PLACE]) > hi:
                    continue
            pj = dyn[j, D_PLACE]
            dyn[j, D_PLACE] = dyn[t, D_PLACE]
            dyn[t, D_PLACE] = pj
        pay_slot(j, s, w)
        dyn[j, K_SWITCHES] += 1
        check_bursts(j, w)
        return j
    return t


@kernel
def area_switch(i, t, w):
    """:func:`defensive_switch` before ``i``'s attack on ``t``, a target of an area attack
    (grid: Blast Strike, Burst Attack, Gravity Wave, a mine; positions: a position's
    targets): the switcher counts as attacked by it (``D_AREA_HIT`` 2: no second switch or
    attack) when ``t`` is marked. Returns who is attacked."""
    comb, rules, dyn, streams, bf = unpack(w)
    if not side_has_code(t, E_SWITCH, w):
        return t
    j = defensive_switch(i, t, w)
    if j != t:
        if dyn[t, D_AREA_HIT] != 0:
            dyn[j, D_AREA_HIT] = 2
    return j


@kernel
def h_amplify(i, b, c, w):
    """Amplify Magic (:func:`try_amplify`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if try_amplify(i, w) else 0


@kernel
def h_link(i, b, c, w):
    """Link (:func:`try_link`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if try_link(i, w) else 0


@part
def bonus_action_try(i, w):
    """The work of :func:`bonus_major`: pay for one more Major action if she can (L1579)."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = find_talent(i, E_BONUS_ACTION, w)
    if s < 0:
        return False
    if dyn[i, D_RES] <= 0:
        return False
    if not can_pay(i, s, w):
        return False
    side = comb[i, C_SIDE]
    finish = comb[i, P_FINISH] != 0
    for j in range(comb.shape[0]):
        if _candidate(j, side, finish, w):
            pay_slot(i, s, w)
            return True
    return False  # nobody left to attack: keep the use


@kernel
def h_link_damage(t, b, dmg, w):
    """LINK_DAMAGE: the draft's Link copies ``dmg`` to the secondary (:func:`link_damage`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return link_damage(t, dmg, w)


@part
def bonus_major(i, w):
    """Bonus Action (free, L1579) after her first Major: another Major when she holds it,
    someone she may attack is in her reach (the geometry's ``PR_ANY_IN_REACH``; gridless:
    always) and she can pay (:func:`bonus_action_try`). The one rule of every geometry's
    turn. Returns whether she has another Major."""
    comb, rules, dyn, streams, bf = unpack(w)
    if (comb[i, C_TMASK] >> E_BONUS_ACTION) & 1 == 0:
        return False
    if call(rules[PR_ANY_IN_REACH], i, 0, 0, w) == 0:
        return False
    return bonus_action_try(i, w)


@kernel(forceinline=True)
def switched(i, t, w):
    """The target of ``i``'s attack on ``t`` after Defensive Switch (L1699-1703): an ally of
    ``t`` holding it may take its place (:func:`defensive_switch`); ``t`` when none of
    ``t``'s side holds it (the gate every attack site tests, inlined)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if side_has_code(t, E_SWITCH, w):
        return defensive_switch(i, t, w)
    return t
