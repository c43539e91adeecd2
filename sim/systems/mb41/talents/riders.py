"""Attack riders: what the attacker's talents add to her attack (All or Nothing,
Desperation / Memory Blaze, Follow Target, Killing Blow, Ambush Tactics, Minion
Explosion, Magic Detonation, Binding / Debilitating Attack, Follow Up, Make an
Opening, Belkan System, Hate the World, Fight for Friends).
"""
from __future__ import annotations

from sim._jit import kernel

from ..codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from ..layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from ..world import unpack
from ..slots import can_pay, find_usable, pay_slot
from ..ailments import give_ailment
from ..state import _candidate, has_other_ally, is_standing, other_ally
from ..talents.bonds import fight_for_friends, friends_bonus, hate_the_world


@kernel
def detonation_slot(i, t, w):
    """The draft's Magic Detonation (DRAFT L307-311; Major, 1 Attack
    overcharge): a basic attack whose hit deals the target's overcharge
    instead of the usual damage (:func:`detonation_damage`); the AI uses it
    when that is at least ``detonation_min``. Returns the slot paid, or -1."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = find_usable(i, E_DETONATION, w)
    if s < 0:
        return -1
    if detonation_damage(t, w) < rules[R_DETONATION_MIN]:
        return -1
    pay_slot(i, s, w)
    return s


@kernel(forceinline=True)
def detonation_damage(t, w):
    """What Magic Detonation deals ``t``: 'the amount of Overcharge (or Magic
    Overcharge if it's a magical girl) they currently have' (DRAFT L311): a
    girl's Magic (4.1's Judgment) counter, a monster's or witch's pool."""
    comb, rules, dyn, streams, bf = unpack(w)
    if comb[t, C_MONSTER] != 0:
        return dyn[t, D_POOL]
    return dyn[t, D_OC + JUDGMENT]


# ---------------------------------------------------------------- DECLARE: before the roll
# One hook per mechanic, in the order the table (:mod:`..hooks`) lists them. Each adds into the
# attacker's D_ATK_BONUS / D_DMG_BONUS; the first of Killing Blow, the ambush, Minion Explosion,
# Magic Detonation, an ailment attack, Follow Up and Make an Opening that applies is her Major
# (D_RIDER, its slot), and a hit of it adds D_HIT_DICE d6 + D_HIT_PLUS.


@kernel
def h_all_in_before(i, t, c, w):
    """All or Nothing (L1800): before rolling, she takes up to P1 damage (the policy's
    ``all_or_nothing``, only while it leaves her standing); the attack's damage rises as
    much, lost on a miss (A49). The draft's (``after``) is :func:`h_all_in_after`."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = find_usable(i, E_ALL_OR_NOTHING, w)
    if s >= 0:
        if comb[i, C_TP2 + s] != 0:
            s = -1  # the draft's: after the attack, on a hit (h_all_in_after)
    if s < 0:
        return 0
    x = comb[i, P_ALL_IN]
    if x > comb[i, C_TP1 + s]:
        x = comb[i, C_TP1 + s]
    if x > 0:
        if dyn[i, D_RES] > x:
            pay_slot(i, s, w)
            dyn[i, D_RES] -= x
            dyn[i, K_TAKEN] += x
            dyn[i, K_SELF_DMG] += x
            dyn[i, D_DMG_BONUS] += x
    return 0


@kernel
def h_low_resolve(i, t, c, w):
    """Desperation (L1707) / Memory Blaze (L2056), ``low_resolve``: +P1 to the attack and +P2
    damage while her Resolve is at most half her Base Resolve; with P3 = 1 (Memory Blaze)
    for the rest of the scene once reached. The catalog's rows cost nothing and have no
    limit; one a ``talents:`` block gives a cost or uses is used whenever it applies and
    she can pay (:func:`..slots.can_pay`), a use spent and the cost paid each time."""
    comb, rules, dyn, streams, bf = unpack(w)
    for s in range(MAXT):
        if comb[i, C_TCODE + s] == E_LOW_RESOLVE:
            low = dyn[i, D_RES] * 2 <= comb[i, C_RES]
            if comb[i, C_TP3 + s] != 0:
                if low:
                    dyn[i, D_STICKY] = 1
                low = dyn[i, D_STICKY] != 0
            if low:
                if comb[i, C_TCOST + s] > 0 or comb[i, C_TUSES + s] >= 0:  # paid or limited (an edit)
                    if dyn[i, D_TUSES + s] == 0:
                        continue
                    if not can_pay(i, s, w):
                        continue
                    pay_slot(i, s, w)
                else:
                    dyn[i, K_TUSE + s] += 1
                dyn[i, D_ATK_BONUS] += comb[i, C_TP1 + s]
                dyn[i, D_DMG_BONUS] += comb[i, C_TP2 + s]
    return 0


@kernel
def h_follow_target(i, t, c, w):
    """Follow Target (L1540): +P1 per miss in a row against this same target
    (:func:`h_follow_target_count` keeps the count)."""
    comb, rules, dyn, streams, bf = unpack(w)
    for s in range(MAXT):
        if comb[i, C_TCODE + s] == E_FOLLOW_TARGET:
            if dyn[i, D_FT_TARGET] == t:
                if dyn[i, D_FT_STACK] > 0:
                    dyn[i, D_ATK_BONUS] += comb[i, C_TP1 + s] * dyn[i, D_FT_STACK]
                    dyn[i, K_TUSE + s] += 1
    return 0


@kernel
def h_killing_blow(i, t, c, w):
    """Killing Blow (L1821): on a target below 1/``killing_blow_below`` of its Base Resolve
    (A37), the first usable slot is paid and is her Major; a hit deals +P1 d6 + P2. Not
    when the grid turn chose Minion Explosion (``D_BLAST``)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_BLAST] != 0:
        return 0
    if dyn[i, D_RIDER] >= 0:
        return 0
    if dyn[t, D_RES] * rules[R_KILLING_BLOW_BELOW] >= comb[t, C_RES]:
        return 0
    for s in range(MAXT):
        if comb[i, C_TCODE + s] == E_KILLING_BLOW:
            if dyn[i, D_TUSES + s] != 0:
                if can_pay(i, s, w):
                    pay_slot(i, s, w)
                    ride(i, s, w)
                    return 0
    return 0


@kernel(forceinline=True)
def ride(i, s, w):
    """Slot ``s`` is the talent whose Major this attack is; a hit adds its P1 d6 + P2."""
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[i, D_RIDER] = s
    dyn[i, D_HIT_DICE] = comb[i, C_TP1 + s]
    dyn[i, D_HIT_PLUS] = comb[i, C_TP2 + s]


@kernel
def h_ambush(i, t, c, w):
    """Ambush Tactics (L2006): during its turn before round 1 (``D_AMBUSH``), +P3 to the
    attack and +P1 d6 + P2 damage on a hit (its last slot)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_RIDER] >= 0:
        return 0
    kb = -1
    for s in range(MAXT):
        if comb[i, C_TCODE + s] == E_AMBUSH:
            kb = s
    dyn[i, D_ATK_BONUS] += comb[i, C_TP3 + kb]
    dyn[i, K_TUSE + kb] += 1
    ride(i, kb, w)
    return 0


@kernel
def h_minion_explosion(i, t, c, w):
    """Minion Explosion (L1987): from the hex the grid turn chose (``D_BLAST``), else,
    with no other special attack, gridless from any standing minion
    (:func:`minion_explosion`); a hit adds P1 d6 + P2."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_BLAST] == 0:
        if dyn[i, D_RIDER] >= 0:
            return 0
        if dyn[i, D_AMBUSH] != 0:
            return 0
    s = minion_explosion(i, w)
    if s >= 0:
        ride(i, s, w)
    return 0


@kernel
def h_detonation(i, t, c, w):
    """The draft's Magic Detonation (DRAFT L307-311) when no other special attack applies
    (:func:`detonation_slot`); its damage is the target's overcharge (:func:`h_detonation_damage`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_RIDER] >= 0:
        return 0
    s = detonation_slot(i, t, w)
    if s >= 0:
        ride(i, s, w)
    return 0


@kernel
def h_attack_ailment(i, t, c, w):
    """Binding / Debilitating Attack (L2011, L2025): with no special attack, the first usable
    slot whose ailment a standing ``t`` lacks is paid and is her Major; a hit gives the
    ailment (:func:`h_ailment_given`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_RIDER] >= 0:
        return 0
    for s in range(MAXT):
        if comb[i, C_TCODE + s] == E_ATTACK_AILMENT:
            if dyn[t, D_RES] > 0:
                if dyn[t, D_AIL + comb[i, C_TP1 + s]] == 0:
                    if dyn[i, D_TUSES + s] != 0:
                        if can_pay(i, s, w):
                            pay_slot(i, s, w)
                            dyn[i, D_RIDER] = s
                            return 0
    return 0


@kernel
def h_follow_up(i, t, c, w):
    """Follow Up (L1819): on a target an ally hit in the turn just before this one
    (:func:`followed`), with nothing else her Major, pay: +P1 to the attack, +P2 damage."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_RIDER] >= 0:
        return 0
    if not followed(i, t, w):
        return 0
    fu = find_usable(i, E_FOLLOW_UP, w)
    if fu >= 0:
        pay_slot(i, fu, w)
        dyn[i, D_RIDER] = fu
        dyn[i, D_ATK_BONUS] += comb[i, C_TP1 + fu]
        dyn[i, D_DMG_BONUS] += comb[i, C_TP2 + fu]
    return 0


@kernel
def h_opening(i, t, c, w):
    """Make an Opening (L1776): with nothing else her Major and another ally standing, pay; a
    hit opens the target (:func:`h_opening_made`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_RIDER] >= 0:
        return 0
    s = find_usable(i, E_OPENING, w)
    if s >= 0:
        if has_other_ally(i, w):
            pay_slot(i, s, w)
            dyn[i, D_RIDER] = s
    return 0


@kernel
def h_hate(i, t, c, w):
    """Hate the World (L1597) at or above ``heal_below``: a bond point for +P1 to the attack
    and +P1 damage (:func:`hate_the_world`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_RES] * 100 >= comb[i, P_HEAL_BELOW] * comb[i, C_RES]:
        h = hate_the_world(i, w)
        if h >= 0:
            dyn[i, D_ATK_BONUS] += comb[i, C_TP1 + h]
            dyn[i, D_DMG_BONUS] += comb[i, C_TP1 + h]
    return 0


@kernel
def h_friends(i, t, c, w):
    """Fight for Friends (L1590): +P1 to the attack and +P2 damage (and the draft's strongest
    bond, :func:`friends_bonus`) when :func:`fight_for_friends` pays a use."""
    comb, rules, dyn, streams, bf = unpack(w)
    f = fight_for_friends(i, w)
    if f >= 0:
        b = friends_bonus(i, f, w)
        dyn[i, D_ATK_BONUS] += comb[i, C_TP1 + f] + b
        dyn[i, D_DMG_BONUS] += comb[i, C_TP2 + f] + b
    return 0


@kernel
def h_belkan(i, t, c, w):
    """Belkan System (L1675): she spends the bonuses her melee hits stored (``D_BELKAN``,
    +P1 each) on this attack (A48a; ``belkan_stacks: standing`` keeps them, A48b)."""
    comb, rules, dyn, streams, bf = unpack(w)
    for s in range(MAXT):
        if comb[i, C_TCODE + s] == E_BELKAN:
            dyn[i, D_ATK_BONUS] += dyn[i, D_BELKAN] * comb[i, C_TP1 + s]
            dyn[i, K_TUSE + s] += 1
    if rules[R_BELKAN_STACKS] == 0:
        dyn[i, D_BELKAN] = 0
    return 0


@kernel
def h_opened(i, t, c, w):
    """Make an Opening (L1776) of an ally: +P1 to ``i``'s attack on ``t`` when an ally (not
    ``i``) opened ``t`` and that ally's next turn has not ended yet."""
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[i, D_ATK_BONUS] += opening_bonus(i, t, w)
    return 0


@kernel
def h_follow_target_count(i, t, hit, w):
    """AFTER_ATTACK, Follow Target (L1540): misses in a row against the same target stack;
    a hit, or a miss on another target, starts over (A55iii: only the kept result of a
    re-rolled attack counts)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if hit != 0:
        dyn[i, D_FT_TARGET] = -1
        dyn[i, D_FT_STACK] = 0
    elif dyn[i, D_FT_TARGET] == t:
        dyn[i, D_FT_STACK] += 1
    else:
        dyn[i, D_FT_TARGET] = t
        dyn[i, D_FT_STACK] = 1
    return 0


@kernel
def followed(i, t, w):
    """Follow Up (L1819): an ally of ``i`` (not herself) hit ``t`` in the
    turn just before the current one (the fight's turn clock, ``D_CLOCK``)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[t, D_HIT_AT] != dyn[0, D_CLOCK] - 1:
        return False
    by = dyn[t, D_HIT_BY]
    if by < 0:
        return False
    if by == i:
        return False
    return comb[by, C_SIDE] == comb[i, C_SIDE]


@kernel
def follow_up_target(i, w):
    """The standing enemy an ally hit in the turn just before hers, when she
    can use Follow Up on it (her Major action then follows the hit); -1 else."""
    comb, rules, dyn, streams, bf = unpack(w)
    if find_usable(i, E_FOLLOW_UP, w) < 0:
        return -1
    side = comb[i, C_SIDE]
    finish = comb[i, P_FINISH] != 0
    for t in range(comb.shape[0]):
        if _candidate(t, side, finish, w):
            if followed(i, t, w):
                return t
    return -1


@kernel
def opening_bonus(i, t, w):
    """Make an Opening (L1776): +P1 to ``i``'s attack on ``t`` when an ally
    (not ``i``) opened ``t`` and that ally's next turn has not ended yet."""
    comb, rules, dyn, streams, bf = unpack(w)
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


@kernel
def minion_explosion(i, w):
    """Minion Explosion (L1987, Major, its cost): the monster's attack
    originates from one of its standing minions, which is destroyed (dead);
    returns the slot (a hit adds P1 d6 + P2) or -1. Used whenever it has a
    standing minion and the pool for it (gridless: the minion's position is
    as good as its own). On the hex grid the attack originates from the hex of
    the minion the turn chose (``D_BLAST``, :func:`..hex_areas.blast_choice`:
    its hex must reach the target) and only then; the turn clears ``D_BLAST``."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = find_usable(i, E_MINION_EXPLOSION, w)
    if s < 0:
        return -1
    m = -1
    if dyn[i, D_BLAST] != 0:
        if other_ally(i, dyn[i, D_BLAST] - 1, w):
            m = dyn[i, D_BLAST] - 1
    elif rules[R_GRID] == 0:  # on the grid: only from a minion's hex that reaches the target
        for k in range(comb.shape[0]):
            if m < 0:
                if comb[k, C_PDEF] >= 0:
                    if other_ally(i, k, w):
                        m = k
    if m < 0:
        return -1
    pay_slot(i, s, w)
    dyn[m, D_RES] = 0
    dyn[m, D_DEAD] = 1
    dyn[m, K_DEATHS] += 1
    return s


# ---------------------------------------------------------------- after the roll


@kernel
def h_all_in_after(i, t, c, w):
    """ALL_IN: the draft's All or Nothing (DRAFT L259-263, free, 1/Scene, param ``after``): on
    an attack she just made that hit, she takes up to P1 damage (the policy's
    ``all_or_nothing``, only while it leaves her standing) and the attack deals as much
    more. Returns the bonus."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = find_usable(i, E_ALL_OR_NOTHING, w)
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
    pay_slot(i, s, w)
    dyn[i, D_RES] -= x
    dyn[i, K_TAKEN] += x
    dyn[i, K_SELF_DMG] += x
    return x


@kernel
def h_detonation_damage(i, t, dmg, w):
    """DAMAGE: Magic Detonation's hit deals the target's overcharge "instead of the usual
    damage" (DRAFT L311, :func:`detonation_damage`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = dyn[i, D_RIDER]
    if s >= 0:
        if comb[i, C_TCODE + s] == E_DETONATION:
            return detonation_damage(t, w)
    return dmg


@kernel
def h_follow_up_mark(i, t, dealt, w):
    """HIT, Follow Up (L1819): an ally may follow this hit next turn (``D_HIT_BY``, ``D_HIT_AT``)."""
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[t, D_HIT_BY] = i
    dyn[t, D_HIT_AT] = dyn[0, D_CLOCK]
    return 0


@kernel
def h_ailment_given(i, t, dealt, w):
    """HIT, Binding / Debilitating Attack (L2011, L2025): the ailment of the slot that was her
    Major, on a standing target."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = dyn[i, D_RIDER]
    if s >= 0:
        if comb[i, C_TCODE + s] == E_ATTACK_AILMENT:
            if is_standing(t, w):
                give_ailment(t, comb[i, C_TP1 + s], w)
    return 0


@kernel
def h_belkan_store(i, t, dealt, w):
    """HIT, Belkan System (L1675): each successful melee hit (she has no ranged attacks)
    stores one +P1 bonus, at most P2 of them."""
    comb, rules, dyn, streams, bf = unpack(w)
    for s in range(MAXT):
        if comb[i, C_TCODE + s] == E_BELKAN:
            if dyn[i, D_BELKAN] < comb[i, C_TP2 + s]:
                dyn[i, D_BELKAN] += 1
    return 0


@kernel
def h_opening_made(i, t, dealt, w):
    """HIT, Make an Opening (L1776): her allies get +P1 against ``t`` until the end of her
    next turn (:func:`h_opened`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = dyn[i, D_RIDER]
    if s >= 0:
        if comb[i, C_TCODE + s] == E_OPENING:
            dyn[t, D_OPEN_BY] = i
            dyn[t, D_OPEN_UNTIL] = dyn[i, D_TURNS_DONE] + 2
            dyn[t, D_OPEN_BONUS] = comb[i, C_TP1 + s]
    return 0


@kernel
def h_reroll(i, t, c, w):
    """REROLL, Want it Hard, Want it Now (L1545): a missed attack re-rolled once (the first
    roll's sixes still give overcharge, its boost dice are lost, A55 i-ii); the draft's
    Second Chance Attack (P1 = 1) takes her Minor, so only while it is free. 1 when paid."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = find_usable(i, E_REROLL, w)
    if s < 0:
        return 0
    if comb[i, C_TP1 + s] != 0:
        if dyn[i, D_MINOR_USED] != 0:
            return 0
        dyn[i, D_MINOR_USED] = 1
    pay_slot(i, s, w)
    return 1


@kernel(forceinline=True)
def follow_up_for(i, w):
    """Follow Up's target for her own attack (:func:`follow_up_target`) when she holds it;
    -1 else (the gate, inlined)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if (comb[i, C_TMASK] >> E_FOLLOW_UP) & 1 == 0:
        return -1
    return follow_up_target(i, w)
