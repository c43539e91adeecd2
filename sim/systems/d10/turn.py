"""d10 turns: the non-attack actions, the policy's choice, a turn (seed 003 line numbers).

One action per turn (D6): Recharge (+3 mana, -2 defence dice, L113), Retreat
and Pursue (L109-111, D16-17), Hide (L103), Aid (L105), pulling free of a hold
(D7 iii, D25 iii), the power actions (:mod:`.powers`), or an attack
(:mod:`.attack`); the start of a turn (a retreat completes, Regeneration,
Hammerspace's escape test, a grapple's lost action). The plain fast path
(:func:`take_turn_plain`) plays fights with no powers and no special actions
with exactly the draws of the general turn.
"""
from __future__ import annotations

from sim._jit import kernel, part

from .attack import attack, resolve_hit
from .codes import *  # noqa: F401,F403
from .defence import (choose_target, choose_target_inline, count_enemies, count_targets, defence_ability,
                      defence_choice, fortune_action, fortune_defence, in_fight, spell_skip, attack_dice_of,
                      attack_ability)
from .layout import *  # noqa: F401,F403
from .pools import gain_mana, pay_mana, pool_size, roll_pool, stunt_dice, test_roll, wound_band
from .hooks import HEAL_GATE, SUMMON_GATE
from .powers import action_hooks, aid_hooks, heal_hooks, hide_hooks, summon_hooks, turn_start_hooks
from .wounds import apply_wounds, free_hold, leave_fight, note_band


@kernel
def recharge(comb, rules, dyn, cc, i):
    """Recharge (L113): +3 mana, -2 defence dice until her next turn."""
    gain_mana(comb, rules, dyn, i, rules[R_RECHARGE_MANA])
    dyn[i, D_DEFPEN] = rules[R_RECHARGE_PENALTY]
    cc[i, K_RECHARGES] += 1


@kernel
def endurance_roll(comb, rules, tab, dyn, st, i, test, bonus):
    """Endurance (D16: Vitality or Agility by rule) or Strength, the larger pool."""
    e = VIT if rules[R_ENDURANCE] == 0 else AGI
    ne = pool_size(comb, rules, dyn, i, e, test, bonus, 0)
    ns = pool_size(comb, rules, dyn, i, STR, test, bonus, 0)
    return roll_pool(st, ne if ne >= ns else ns, tab, rules)


@kernel
def retreat(comb, pol, rules, tab, dyn, streams, cc, i, bonus):
    """Retreat (L109): Endurance or Strength test, TN = opponents; success ends her
    fight at the start of her next turn unless pursued."""
    tn = count_enemies(comb, dyn, comb[i, C_SIDE])
    a = endurance_roll(comb, rules, tab, dyn, streams[S_CHECK], i, T_RETREAT, bonus)
    a = fortune_action(pol, rules, dyn, cc, i, a, tn, False)
    if a >= tn:
        dyn[i, D_RETREAT] = a if a > 0 else 1


@kernel
def pursue(comb, pol, rules, tab, dyn, streams, cc, i, t, bonus):
    """Pursue (L111): Endurance or Strength test, TN = the retreat's successes; on a
    success the retreater tests again against her first target number (D17)."""
    cc[i, K_PURSUES] += 1
    tn = dyn[t, D_RETREAT]
    a = endurance_roll(comb, rules, tab, dyn, streams[S_CHECK], i, T_PURSUE, bonus)
    a = fortune_action(pol, rules, dyn, cc, i, a, tn, False)
    if a < tn:
        return
    dyn[t, D_RETREAT] = 0
    if rules[R_PURSUE_REROLL] == 0:
        retreat(comb, pol, rules, tab, dyn, streams, cc, t, 0)


@kernel
def hide(comb, pol, rules, tab, dyn, streams, cc, i, bonus):
    """Hide (L103): Agility test, TN = opponents; the HIDE hooks' dice (a Disguise Artifact)."""
    cc[i, K_HIDES] += 1
    tn = count_enemies(comb, dyn, comb[i, C_SIDE])
    b = bonus + hide_hooks(comb, dyn, cc, i)
    a = test_roll(comb, rules, tab, dyn, streams[S_CHECK], i, AGI, T_HIDE, b, 0)
    a = fortune_action(pol, rules, dyn, cc, i, a, tn, False)
    if a >= tn:
        dyn[i, D_HIDDEN] = 2


@kernel
def best_ability(comb, i, test):
    best = 0
    bv = -1
    for ab in range(5):
        v = comb[i, C_DICE + ab]
        if v > bv:
            bv = v
            best = ab
    return best


@kernel
def aid_target(comb, dyn, i):
    """The ally with the largest attack pool (not herself, not a copy of her)."""
    n = comb.shape[0]
    side = comb[i, C_SIDE]
    best = -1
    bv = -1
    for j in range(n):
        if j == i:
            continue
        if comb[j, C_SIDE] != side:
            continue
        if not in_fight(dyn, j):
            continue
        if dyn[j, D_STORED] > 0:
            continue
        v = attack_dice_of(comb, j)
        if v > bv:
            bv = v
            best = j
    return best


@kernel
def aid(comb, pol, rules, tab, dyn, streams, cc, i, j, bonus):
    """Aid (L105): a test of her choice (her largest pool); one success gives the ally
    +2 dice on her next action, as the AID hooks change them (Power of Friendship,
    a familiar's Perfect Assistant)."""
    cc[i, K_AIDS] += 1
    a = test_roll(comb, rules, tab, dyn, streams[S_CHECK], i, best_ability(comb, i, T_AID), T_AID, bonus, 0)
    a = fortune_action(pol, rules, dyn, cc, i, a, rules[R_AID_SUCCESS], False)
    if a < rules[R_AID_SUCCESS]:
        return
    dyn[j, D_AID] += aid_hooks(comb, i, j, rules[R_AID_DICE])


@kernel
def escape(comb, pol, rules, tab, dyn, streams, cc, i, bonus):
    """Pull free of a hold (D7 iii, D25 iii): Strength test against its target number."""
    tn = dyn[i, D_HELD_TN]
    a = test_roll(comb, rules, tab, dyn, streams[S_CHECK], i, STR, T_ESCAPE, bonus, 0)
    exceed = rules[R_ESCAPE_TIE] == 1
    a = fortune_action(pol, rules, dyn, cc, i, a, tn, exceed)
    free = a > tn if exceed else a >= tn
    if free:
        free_hold(dyn, i)


@kernel
def escape_pays(comb, rules, dyn, i, bonus):
    """Policy ``escape: reasoned``: is pulling free of her hold worth this turn?

    Pulling free costs this turn's attack (her pool less the hold's dice) and
    gives the hold's dice back on her later rolls, attack and defence. That pays
    once a single later attack regains at least the dice she would attack with
    now (the hold takes half her attack pool or more, ``lost >= kept``), but
    only if the hold stays off: while the one who holds her is still in the
    fight she can put it back with her next action (a penalty spell is re-cast,
    tentacles grapple again), so she attacks through it, unless it leaves her
    no attack die at all. She also needs one die for the Strength test (D7 iii,
    D25 iii), else she attacks.
    """
    kind = comb[i, C_ATK]
    ab = attack_ability(kind)
    kept = pool_size(comb, rules, dyn, i, ab, kind, bonus, 0)
    if kept > 0:
        lost = pool_size(comb, rules, dyn, i, ab, kind, bonus, -dyn[i, D_HELD]) - kept
        if lost < kept:
            return False
        by = dyn[i, D_HELD_BY]
        if by >= 0:
            if in_fight(dyn, by):
                return False
    return pool_size(comb, rules, dyn, i, STR, T_ESCAPE, bonus, 0) > 0


@kernel
def retreating_enemy(comb, dyn, side):
    n = comb.shape[0]
    for j in range(n):
        if comb[j, C_SIDE] != side:
            if dyn[j, D_RETREAT] > 0:
                if in_fight(dyn, j):
                    return j
    return -1


@kernel(inline="always")
def special_pending(comb, pol, dyn, i):
    """Could :func:`special_action` take an action other than Pursue now? False
    only when each of its other branches would do nothing (no draw, no write):
    not held, no Aid, no SUMMON power (Duplication), no HEAL power when she
    heals, her band below her retreat and hide levels (a cheap test instead of
    the call)."""
    if dyn[i, D_HELD] > 0:
        return True
    if pol[i, P_AID] != 0:
        return True
    if comb[i, C_PMASK] & SUMMON_GATE != 0:
        return True
    if pol[i, P_HEAL] > 0:
        if comb[i, C_PMASK] & HEAL_GATE != 0:
            return True
    r = pol[i, P_RETREAT]
    h = pol[i, P_HIDE]
    if r + h > 0:
        band = wound_band(comb, dyn, i)
        if r > 0:
            if band >= r:
                return True
        if h > 0:
            if band >= h:
                if dyn[i, D_HIDDEN] == 0:
                    return True
    return False


@kernel
def special_action(comb, pol, rules, tab, dyn, streams, cc, i, bonus):
    """The policy's non-attack actions, in priority order; returns 1 if one was taken.

    escape a hold > retreat > heal (HEAL hooks) > hide > pursue > copies (SUMMON
    hooks) > aid.
    """
    if dyn[i, D_HELD] > 0:
        esc = pol[i, P_ESCAPE]
        if esc == ESC_REASONED:
            if not escape_pays(comb, rules, dyn, i, bonus):
                esc = ESC_NEVER
        if esc != ESC_NEVER:
            escape(comb, pol, rules, tab, dyn, streams, cc, i, bonus)
            return 1
    band = wound_band(comb, dyn, i)
    r = pol[i, P_RETREAT]
    if r > 0:
        if band >= r:
            retreat(comb, pol, rules, tab, dyn, streams, cc, i, bonus)
            return 1
    h = pol[i, P_HEAL]
    if h > 0:
        if heal_hooks(comb, pol, rules, dyn, cc, i) != 0:
            return 1
    h = pol[i, P_HIDE]
    if h > 0:
        if band >= h:
            if dyn[i, D_HIDDEN] == 0:
                hide(comb, pol, rules, tab, dyn, streams, cc, i, bonus)
                return 1
    if pol[i, P_PURSUE] != 0:
        t = retreating_enemy(comb, dyn, comb[i, C_SIDE])
        if t >= 0:
            pursue(comb, pol, rules, tab, dyn, streams, cc, i, t, bonus)
            return 1
    if summon_hooks(comb, pol, dyn, cc, i) != 0:
        return 1
    if pol[i, P_AID] != 0:
        j = aid_target(comb, dyn, i)
        if j >= 0:
            aid(comb, pol, rules, tab, dyn, streams, cc, i, j, bonus)
            return 1
    return 0


@part
def act(comb, pol, rules, tab, dyn, streams, cc, i, aid_dice):
    """Her one action (D6), chosen by her policy."""
    if special_pending(comb, pol, dyn, i):
        if special_action(comb, pol, rules, tab, dyn, streams, cc, i, aid_dice) != 0:
            return
    elif pol[i, P_PURSUE] != 0:
        t = retreating_enemy(comb, dyn, comb[i, C_SIDE])
        if t >= 0:
            pursue(comb, pol, rules, tab, dyn, streams, cc, i, t, aid_dice)
            return
    skip = spell_skip(comb, pol, rules, i)
    t = choose_target(comb, pol, dyn, streams[S_POLICY], i, skip)
    if t < 0:
        if skip != SKIP_NONE:  # her spell already holds every foe she could aim it at
            if count_targets(comb, dyn, comb[i, C_SIDE]) > 0:
                if dyn[i, D_MANA] < comb[i, C_MANA]:
                    recharge(comb, rules, dyn, cc, i)
        return
    if action_hooks(comb, pol, rules, tab, dyn, streams, cc, i, t, aid_dice) != 0:
        return
    rb = pol[i, P_RECHARGE]
    if rb > 0:
        if dyn[i, D_MANA] < rb:
            if comb[i, C_MANA] > 0:
                recharge(comb, rules, dyn, cc, i)
                return
    if attack(comb, pol, rules, tab, dyn, streams, cc, i, t, aid_dice) == 0:
        if comb[i, C_MANA] > 0:
            recharge(comb, rules, dyn, cc, i)


@part
def take_turn(comb, pol, rules, tab, dyn, streams, cc, i):
    """One turn of ``i``: start-of-turn effects, then her action."""
    dyn[i, D_DEFPEN] = 0
    if dyn[i, D_RETREAT] > 0:  # nobody stopped her: she leaves (L109)
        dyn[i, D_OUT] = OUT_FLED
        dyn[i, D_RETREAT] = 0
        cc[i, K_FLED] += 1
        leave_fight(rules, dyn, i)
        return
    turn_start_hooks(comb, rules, dyn, cc, i)
    if dyn[i, D_STORED] > 0:  # trapped in Hammerspace: her action is the escape test
        a = test_roll(comb, rules, tab, dyn, streams[S_CHECK], i, MAG, T_ESCAPE, 0, 0)
        if a >= dyn[i, D_STORED]:
            dyn[i, D_STORED] = 0
        return
    if dyn[i, D_DISABLED] != 0:
        dyn[i, D_DISABLED] = 0
        return
    aid_dice = dyn[i, D_AID]
    dyn[i, D_AID] = 0
    act(comb, pol, rules, tab, dyn, streams, cc, i, aid_dice)
    if dyn[i, D_HIDDEN] > 0:
        dyn[i, D_HIDDEN] -= 1


@kernel(inline="always")
def attack_plain(comb, pol, rules, tab, dyn, streams, cc, i, t):
    kind = comb[i, C_ATK]
    ab = attack_ability(kind)
    aug = pol[i, P_AUG]
    if aug > 0:
        if aug > rules[R_AUGMENT_CAP]:
            aug = rules[R_AUGMENT_CAP]
        if aug > dyn[i, D_MANA]:
            aug = dyn[i, D_MANA]
        if aug > 0:
            cc[i, K_AUG_DICE] += aug
            pay_mana(comb, dyn, cc, i, aug)
            if dyn[i, D_W] > 0:
                note_band(comb, dyn, cc, i)
    st = 0
    if pol[i, P_STUNT] > 0:
        st = stunt_dice(pol, streams[S_POLICY], i)
        cc[i, K_STUNT_DICE] += st
    chk = streams[S_CHECK]
    a = roll_pool(chk, pool_size(comb, rules, dyn, i, ab, kind, aug + st, 0), tab, rules)
    cc[i, K_ATTACKS] += 1
    cc[i, K_TARGETED] += 1
    dt = defence_choice(comb, pol, rules, dyn, t, kind)
    cc[t, K_DEFENCES + dt - T_DODGE] += 1
    d = roll_pool(chk, pool_size(comb, rules, dyn, t, defence_ability(dt), dt, 0, dyn[t, D_DEFPEN]), tab, rules)
    if pol[i, P_FORTUNE] != FORT_NEVER:
        a = fortune_action(pol, rules, dyn, cc, i, a, d, False)
    if pol[t, P_FORTUNE] != FORT_NEVER:
        d = fortune_defence(comb, pol, rules, dyn, cc, t, d, a, True)
    if a >= d:
        cc[i, K_HITS] += 1
        base = 1 if rules[R_DAMAGE_FORMULA] == 0 else 0
        w = base + a - d - comb[t, C_DR]
        if w < rules[R_MIN_WOUNDS]:
            w = rules[R_MIN_WOUNDS]
        left = comb[t, C_WMAX] - dyn[t, D_W]
        if w < left:
            dyn[t, D_W] += w
            cc[t, K_TAKEN] += w
            cc[i, K_DEALT] += w
            note_band(comb, dyn, cc, t)
        else:
            cc[i, K_DEALT] += apply_wounds(comb, rules, dyn, streams, cc, t, w)
    else:
        resolve_hit(comb, pol, rules, dyn, streams, cc, i, t, a, d, dt, False, False)


@kernel(inline="always")
def take_turn_plain(comb, pol, rules, tab, dyn, streams, cc, i):
    dyn[i, D_DEFPEN] = 0
    t = choose_target_inline(comb, pol, dyn, streams[S_POLICY], i, SKIP_NONE)
    if t < 0:
        return
    rb = pol[i, P_RECHARGE]
    if rb > 0:
        if dyn[i, D_MANA] < rb:
            if comb[i, C_MANA] > 0:
                recharge(comb, rules, dyn, cc, i)
                return
    attack_plain(comb, pol, rules, tab, dyn, streams, cc, i, t)
