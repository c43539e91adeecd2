"""Attack riders: what the attacker's talents add to her attack (All or Nothing,
Desperation / Memory Blaze, Follow Target, Killing Blow, Ambush Tactics, Minion
Explosion, Magic Detonation, Binding / Debilitating Attack, Follow Up, Make an
Opening, Belkan System, Hate the World, Fight for Friends).
"""
from __future__ import annotations

from sim._jit import kernel, part

from ..codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from ..layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from ..world import unpack
from ..slots import can_pay, find_usable, has_code, pay_slot, pay_talent
from ..state import _candidate, has_other_ally, other_ally
from ..talents.bonds import fight_for_friends, friends_bonus, hate_the_world


@kernel
def detonation_slot(i, t, comb, rules, dyn):
    """The draft's Magic Detonation (DRAFT L307-311; Major, 1 Attack
    overcharge): a basic attack whose hit deals the target's overcharge
    instead of the usual damage (:func:`detonation_damage`); the AI uses it
    when that is at least ``detonation_min``. Returns the slot paid, or -1."""
    s = find_usable(i, E_DETONATION, comb, dyn)
    if s < 0:
        return -1
    if detonation_damage(t, comb, dyn) < rules[R_DETONATION_MIN]:
        return -1
    pay_talent(i, s, comb, rules, dyn)
    return s


@kernel(inline="always")
def detonation_damage(t, comb, dyn):
    """What Magic Detonation deals ``t``: 'the amount of Overcharge (or Magic
    Overcharge if it's a magical girl) they currently have' (DRAFT L311): a
    girl's Magic (4.1's Judgment) counter, a monster's or witch's pool."""
    if comb[t, C_MONSTER] != 0:
        return dyn[t, D_POOL]
    return dyn[t, D_OC + JUDGMENT]


@kernel
def all_in_after(i, comb, rules, dyn):
    """The draft's All or Nothing (DRAFT L259-263, free, 1/Scene, param ``after``): on an
    attack she just made that hit, she takes up to P1 damage (the policy's ``all_or_nothing``,
    only while it leaves her standing) and the attack deals as much more. Returns the bonus."""
    s = find_usable(i, E_ALL_OR_NOTHING, comb, dyn)
    if s < 0:
        return 0
    if comb[i, C_TP2 + s] == 0:
        return 0
    x = comb[i, P_ALL_IN]
    if x > comb[i, C_TP1 + s]:
        x = comb[i, C_TP1 + s]
    if x <= 0:
        return 0
    if dyn[i, D_RES] <= x:
        return 0
    pay_talent(i, s, comb, rules, dyn)
    dyn[i, D_RES] -= x
    dyn[i, K_TAKEN] += x
    dyn[i, K_SELF_DMG] += x
    return x


@part
def declare_riders(i, t, w):
    """Talents ``i`` adds to an attack on ``t``, before rolling.

    Returns ``(attack_bonus, damage_bonus, killing_blow_slot, ailment_slot,
    opening_slot)``.

    * Desperation (L1707) / Memory Blaze (L2056), ``low_resolve``: +P1 to the
      attack and +P2 damage while her Resolve is at most half her Base
      Resolve; with P3 = 1 (Memory Blaze) for the rest of the scene once reached;
    * Follow Target (L1540): +P1 per miss in a row against this same target;
    * Killing Blow (L1821): on a target below 1/``killing_blow_below`` of its
      Base Resolve (A37), pay its cost; a hit deals +P1 d6 + P2;
    * Binding / Debilitating Attack (L2011, L2025), ``attack_ailment``: on a
      target without ailment P1, pay the cost; a hit gives it;
    * Follow Up (L1819): on a target an ally hit in the turn just before
      this one (``D_HIT_AT`` = clock - 1), pay; +P1 to the attack, +P2 damage;
    * Make an Opening (L1776): while another ally stands, pay; a hit opens
      the target (see :func:`attack`, :func:`opening_bonus`);
    * Ambush Tactics (L2006): during its turn before round 1, +P3 to the
      attack and +P1 d6 + P2 damage on a hit (the Killing Blow slot);
    * Minion Explosion (L1987): see :func:`minion_explosion` (the Killing
      Blow slot: +P1 d6 on a hit);
    * Belkan System (L1675): she spends the bonuses her melee hits stored
      (+P1 each) on this attack;
    * Fight for Friends (L1590): see :func:`fight_for_friends`;
    * Hate the World (L1597): at or above ``heal_below``, a bond point for
      +P1 to the attack and +P1 damage (:func:`hate_the_world`).

    Killing Blow, Minion Explosion, an ailment attack, Follow Up and Make an
    Opening are each the Major action itself: at most one of them, in that
    order.
    """
    comb, rules, dyn, streams, bf = unpack(w)
    a_bonus = 0
    dmg_bonus = 0
    if (comb[i, C_TMASK] >> E_ALL_OR_NOTHING) & 1 != 0:
        dmg_bonus += all_in_before(i, comb, rules, dyn)
    a, d, kb = slot_riders(i, t, comb, rules, dyn)
    a_bonus += a
    dmg_bonus += d
    kb, a = special_attack(i, t, kb, w)
    a_bonus += a
    ail = -1
    if kb < 0:
        ail = ailment_attack(i, t, comb, rules, dyn)
    opening = -1
    if kb < 0:
        if ail < 0:
            a, d, opening = follow_or_open(i, t, w)
            a_bonus += a
            dmg_bonus += d
    a, d = bond_riders(i, comb, rules, dyn)
    return a_bonus + a, dmg_bonus + d, kb, ail, opening


@part
def all_in_before(i, comb, rules, dyn):
    """All or Nothing (L1800): before rolling, she takes up to P1 damage (the policy's
    ``all_or_nothing``, only while it leaves her standing); the attack's damage rises as
    much, lost on a miss (A49). The draft's (``after``) is :func:`all_in_after`. Returns
    the damage bonus."""
    s = find_usable(i, E_ALL_OR_NOTHING, comb, dyn)
    if s >= 0:
        if comb[i, C_TP2 + s] != 0:
            s = -1  # the draft's: after the attack, on a hit (all_in_after)
    if s < 0:
        return 0
    x = comb[i, P_ALL_IN]
    if x > comb[i, C_TP1 + s]:
        x = comb[i, C_TP1 + s]
    if x > 0:
        if dyn[i, D_RES] > x:
            pay_talent(i, s, comb, rules, dyn)
            dyn[i, D_RES] -= x
            dyn[i, K_TAKEN] += x
            dyn[i, K_SELF_DMG] += x
            return x
    return 0


@part
def slot_riders(i, t, comb, rules, dyn):
    """Desperation / Memory Blaze (``low_resolve``), Follow Target and a Killing Blow
    ``t`` qualifies for (not paid yet): ``(attack bonus, damage bonus, Killing Blow slot)``."""
    a_bonus = 0
    dmg_bonus = 0
    kb = -1
    for s in range(MAXT):
        code = comb[i, C_TCODE + s]
        if code == E_LOW_RESOLVE:
            low = dyn[i, D_RES] * 2 <= comb[i, C_RES]
            if comb[i, C_TP3 + s] != 0:
                if low:
                    dyn[i, D_STICKY] = 1
                low = dyn[i, D_STICKY] != 0
            if low:
                a_bonus += comb[i, C_TP1 + s]
                dmg_bonus += comb[i, C_TP2 + s]
                dyn[i, K_TUSE + s] += 1
        elif code == E_FOLLOW_TARGET:
            if dyn[i, D_FT_TARGET] == t:
                if dyn[i, D_FT_STACK] > 0:
                    a_bonus += comb[i, C_TP1 + s] * dyn[i, D_FT_STACK]
                    dyn[i, K_TUSE + s] += 1
        elif code == E_KILLING_BLOW:
            if kb < 0:
                if dyn[t, D_RES] * rules[R_KILLING_BLOW_BELOW] < comb[t, C_RES]:
                    if dyn[i, D_TUSES + s] != 0:
                        if can_pay(i, s, comb, dyn):
                            kb = s
    return a_bonus, dmg_bonus, kb


@part
def special_attack(i, t, kb, w):
    """The special attacks, each the Major action itself: the first that applies of
    Minion Explosion from the hex the grid turn chose, Killing Blow (paid), the ambush
    (Ambush Tactics, L2006: +P3 to the attack, +P1 d6 + P2 on a hit), Minion
    Explosion, Magic Detonation. Returns ``(slot or -1, attack bonus)``."""
    comb, rules, dyn, streams, bf = unpack(w)
    a_bonus = 0
    if dyn[i, D_BLAST] != 0:
        kb = minion_explosion(i, comb, rules, dyn)  # the grid turn chose it from a minion's hex
    elif kb >= 0:
        pay_slot(i, kb, w)
    elif dyn[i, D_AMBUSH] != 0:
        for s in range(MAXT):
            if comb[i, C_TCODE + s] == E_AMBUSH:
                kb = s
        a_bonus += comb[i, C_TP3 + kb]
        dyn[i, K_TUSE + kb] += 1
    elif has_code(i, E_MINION_EXPLOSION, comb):  # (no call for those without it)
        kb = minion_explosion(i, comb, rules, dyn)
    if kb < 0:
        if (comb[i, C_TMASK] >> E_MORE) & 1 != 0:
            if has_code(i, E_DETONATION, comb):
                kb = detonation_slot(i, t, comb, rules, dyn)
    return kb, a_bonus


@part
def follow_or_open(i, t, w):
    """Follow Up on a target an ally hit in the turn just before (paid; +P1 attack, +P2
    damage), else Make an Opening while another ally stands (paid). Returns ``(attack
    bonus, damage bonus, Make an Opening slot or -1)``."""
    comb, rules, dyn, streams, bf = unpack(w)
    fu = -1
    if followed(i, t, comb, dyn):
        fu = find_usable(i, E_FOLLOW_UP, comb, dyn)
    if fu >= 0:
        pay_slot(i, fu, w)
        return comb[i, C_TP1 + fu], comb[i, C_TP2 + fu], -1
    opening = find_usable(i, E_OPENING, comb, dyn)
    if opening >= 0:
        if has_other_ally(i, comb, dyn):
            pay_slot(i, opening, w)
        else:
            opening = -1
    return 0, 0, opening


@part
def bond_riders(i, comb, rules, dyn):
    """Hate the World at or above ``heal_below`` (a bond point: +P1 attack and damage),
    Fight for Friends (+P1 / +P2 and her strongest bond with an ally present), Belkan
    System's stored bonuses (spent, A48a, or standing, A48b). ``(attack, damage)``."""
    a_bonus = 0
    dmg_bonus = 0
    if (comb[i, C_TMASK] >> E_HATE) & 1 != 0:
        if dyn[i, D_RES] * 100 >= comb[i, P_HEAL_BELOW] * comb[i, C_RES]:
            h = hate_the_world(i, comb, rules, dyn)
            if h >= 0:
                a_bonus += comb[i, C_TP1 + h]
                dmg_bonus += comb[i, C_TP1 + h]
    if (comb[i, C_TMASK] >> E_FRIENDS) & 1 != 0:
        f = fight_for_friends(i, comb, rules, dyn)
        if f >= 0:
            b = friends_bonus(i, f, comb, dyn)
            a_bonus += comb[i, C_TP1 + f] + b
            dmg_bonus += comb[i, C_TP2 + f] + b
    if dyn[i, D_BELKAN] != 0:
        for s in range(MAXT):
            if comb[i, C_TCODE + s] == E_BELKAN:
                a_bonus += dyn[i, D_BELKAN] * comb[i, C_TP1 + s]
                dyn[i, K_TUSE + s] += 1
        if rules[R_BELKAN_STACKS] == 0:
            dyn[i, D_BELKAN] = 0  # spent (A48a); 'standing' keeps them (A48b)
    return a_bonus, dmg_bonus


@kernel
def follow_target_after(i, t, hit, comb, dyn):
    """Follow Target (L1540): misses in a row against the same target stack;
    a hit, or a miss on another target, starts over (A55iii: only the kept
    result of a re-rolled attack counts)."""
    if (comb[i, C_TMASK] >> E_FOLLOW_TARGET) & 1 == 0:
        return
    if hit:
        dyn[i, D_FT_TARGET] = -1
        dyn[i, D_FT_STACK] = 0
    elif dyn[i, D_FT_TARGET] == t:
        dyn[i, D_FT_STACK] += 1
    else:
        dyn[i, D_FT_TARGET] = t
        dyn[i, D_FT_STACK] = 1


@kernel
def followed(i, t, comb, dyn):
    """Follow Up (L1819): an ally of ``i`` (not herself) hit ``t`` in the
    turn just before the current one (the fight's turn clock, ``D_CLOCK``)."""
    if dyn[t, D_HIT_AT] != dyn[0, D_CLOCK] - 1:
        return False
    by = dyn[t, D_HIT_BY]
    if by < 0:
        return False
    if by == i:
        return False
    return comb[by, C_SIDE] == comb[i, C_SIDE]


@kernel
def follow_up_target(i, comb, dyn):
    """The standing enemy an ally hit in the turn just before hers, when she
    can use Follow Up on it (her Major action then follows the hit); -1 else."""
    if find_usable(i, E_FOLLOW_UP, comb, dyn) < 0:
        return -1
    side = comb[i, C_SIDE]
    finish = comb[i, P_FINISH] != 0
    for t in range(comb.shape[0]):
        if _candidate(t, side, finish, comb, dyn):
            if followed(i, t, comb, dyn):
                return t
    return -1


@kernel
def opening_bonus(i, t, comb, dyn):
    """Make an Opening (L1776): +P1 to ``i``'s attack on ``t`` when an ally
    (not ``i``) opened ``t`` and that ally's next turn has not ended yet."""
    g = dyn[t, D_OPEN_BY]
    if g < 0:
        return 0
    if g == i:
        return 0
    if comb[g, C_SIDE] != comb[i, C_SIDE]:
        return 0
    if dyn[g, D_TURNS_DONE] >= dyn[t, D_OPEN_UNTIL]:
        return 0
    return dyn[t, D_OPEN_BONUS]


@part
def ailment_attack(i, t, comb, rules, dyn):
    """Binding / Debilitating Attack (L2011, L2025): the first usable slot
    whose ailment a standing ``t`` lacks; paid; returns it or -1."""
    for s in range(MAXT):
        if comb[i, C_TCODE + s] == E_ATTACK_AILMENT:
            if dyn[t, D_RES] > 0:
                if dyn[t, D_AIL + comb[i, C_TP1 + s]] == 0:
                    if dyn[i, D_TUSES + s] != 0:
                        if can_pay(i, s, comb, dyn):
                            pay_talent(i, s, comb, rules, dyn)
                            return s
    return -1


@kernel
def minion_explosion(i, comb, rules, dyn):
    """Minion Explosion (L1987, Major, its cost): the monster's attack
    originates from one of its standing minions, which is destroyed (dead);
    returns the slot (a hit adds P1 d6 + P2) or -1. Used whenever it has a
    standing minion and the pool for it (gridless: the minion's position is
    as good as its own). On the hex grid the attack originates from the hex of
    the minion the turn chose (``D_BLAST``, :func:`.battle_grid.blast_choice`:
    its hex must reach the target) and only then; the turn clears ``D_BLAST``."""
    s = find_usable(i, E_MINION_EXPLOSION, comb, dyn)
    if s < 0:
        return -1
    m = -1
    if dyn[i, D_BLAST] != 0:
        if other_ally(i, dyn[i, D_BLAST] - 1, comb, dyn):
            m = dyn[i, D_BLAST] - 1
    elif rules[R_GRID] == 0:  # on the grid: only from a minion's hex that reaches the target
        for k in range(comb.shape[0]):
            if m < 0:
                if comb[k, C_PDEF] >= 0:
                    if other_ally(i, k, comb, dyn):
                        m = k
    if m < 0:
        return -1
    pay_talent(i, s, comb, rules, dyn)
    dyn[m, D_RES] = 0
    dyn[m, D_DEAD] = 1
    dyn[m, K_DEATHS] += 1
    return s


@kernel
def belkan_hit(i, comb, dyn):
    """Belkan System (L1675): each successful melee hit (she has no ranged
    attacks) stores one +P1 bonus, at most P2 of them."""
    for s in range(MAXT):
        if comb[i, C_TCODE + s] == E_BELKAN:
            if dyn[i, D_BELKAN] < comb[i, C_TP2 + s]:
                dyn[i, D_BELKAN] += 1


@kernel
def h_declare(i, t, c, w):
    """DECLARE: :func:`declare_riders` of ``i``'s attack on ``t``, into her ``D_DECLARE``."""
    comb, rules, dyn, streams, bf = unpack(w)
    a_bonus, dmg_bonus, kb, ail, opening = declare_riders(i, t, w)
    dyn[i, D_DECLARE] = a_bonus
    dyn[i, D_DECLARE + 1] = dmg_bonus
    dyn[i, D_DECLARE + 2] = kb
    dyn[i, D_DECLARE + 3] = ail
    dyn[i, D_DECLARE + 4] = opening
    return 0


@kernel
def h_all_in_after(i, b, c, w):
    """ALL_IN: the draft's All or Nothing after a hit (:func:`all_in_after`); the bonus damage."""
    comb, rules, dyn, streams, bf = unpack(w)
    return all_in_after(i, comb, rules, dyn)
