"""d10 targeting and defence (seed 003 line numbers; audit ids D..).

* who can be attacked: an enemy present, in the fight, not hidden (L103), not
  stored in Hammerspace (L153); the policy's target (weakest, strongest,
  listed, random); a penalty spell passes over targets a spell already holds
  (policy ``recast_held``, rule ``recast``);
* defences are reactions (D6): Dodge and Luck against anything, Parry only
  against melee, a Magic Block only against mystic attacks and uses of Magic
  (L83; seed 002 L233-243); Fortune: +2 successes on one roll (L53).
"""
from __future__ import annotations

from sim._jit import kernel, part
from sim.rng import randbelow

from .codes import *  # noqa: F401,F403
from .layout import *  # noqa: F401,F403
from .pools import test_roll


@kernel(inline="always")
def in_fight(dyn, j):
    if dyn[j, D_ACTIVE] == 0:
        return False
    return dyn[j, D_OUT] == OUT_IN


@kernel(inline="always")
def targetable(comb, dyn, j, side):
    """An enemy of ``side`` that can be attacked: present, in, not hidden, not stored."""
    if comb[j, C_SIDE] == side:
        return False
    if dyn[j, D_ACTIVE] == 0:
        return False
    if dyn[j, D_OUT] != OUT_IN:
        return False
    if dyn[j, D_HIDDEN] > 0:
        return False
    return dyn[j, D_STORED] == 0


@kernel(inline="always")
def attack_ability(kind):
    """The ability an attack of form ``kind`` rolls: Strength (melee), Agility
    (ranged), Magic (mystic and specialization uses)."""
    if kind == ATK_RANGED:
        return AGI
    if kind >= ATK_MYSTIC:
        return MAG
    return STR


@kernel(inline="always")
def attack_dice_of(comb, j):
    k = comb[j, C_ATK]
    return comb[j, C_DICE + attack_ability(k)] + comb[j, C_BONUS + k]


@kernel(inline="always")
def spell_free(dyn, j, skip, pen):
    """May a penalty spell of ``pen`` dice be aimed at ``j`` (``skip``: SKIP_*)?"""
    if skip == SKIP_NONE:
        return True
    if dyn[j, D_HELD_KIND] != HELD_SPELL:
        return True
    if skip == SKIP_HELD:
        return False
    return dyn[j, D_HELD] < pen


@kernel(inline="always")
def spell_skip(comb, pol, rules, i):
    """Which held targets ``i``'s attack leaves alone: SKIP_NONE unless her attack is a
    penalty specialization use (L79); then SKIP_HELD under rule ``recast: forbid``,
    SKIP_AS_STRONG with policy ``recast_held: false`` (a second spell at most tightens
    a hold, rule ``recast``), else SKIP_NONE."""
    if comb[i, C_ATK] != ATK_SPEC:
        return SKIP_NONE
    if comb[i, C_SPEC_EFFECT] == 0:
        return SKIP_NONE
    if rules[R_RECAST] == RECAST_FORBID:
        return SKIP_HELD
    if pol[i, P_RECAST_HELD] == 0:
        return SKIP_AS_STRONG
    return SKIP_NONE


@kernel(inline="always")
def choose_target_inline(comb, pol, dyn, st_policy, i, skip):
    """The primary target of ``i``, or -1. weakest: fewest wounds left (ties: first
    listed); strongest: largest attack pool; listed: first; random: uniform. Only
    enemies her penalty spell may be aimed at (``skip``, :func:`spell_free`)."""
    n = comb.shape[0]
    side = comb[i, C_SIDE]
    mode = pol[i, P_TARGET]
    pen = comb[i, C_SPEC_PEN]
    best = -1
    best_v = 1 << 60
    count = 0
    for j in range(n):
        if not targetable(comb, dyn, j, side):
            continue
        if not spell_free(dyn, j, skip, pen):
            continue
        count += 1
        if mode == TARGET_WEAKEST:
            v = comb[j, C_WMAX] - dyn[j, D_W]
        elif mode == TARGET_STRONGEST:
            v = -attack_dice_of(comb, j)
        else:
            v = comb[j, C_ORDER]
        if v < best_v:
            best_v = v
            best = j
    if mode != TARGET_RANDOM:
        return best
    if count == 0:
        return -1
    k = randbelow(st_policy, count)
    for j in range(n):
        if not targetable(comb, dyn, j, side):
            continue
        if not spell_free(dyn, j, skip, pen):
            continue
        if k == 0:
            return j
        k -= 1
    return -1


@part
def choose_target(comb, pol, dyn, st_policy, i, skip):
    """:func:`choose_target_inline` for the general path's action (a part of :func:`act`)."""
    return choose_target_inline(comb, pol, dyn, st_policy, i, skip)


@kernel
def count_targets(comb, dyn, side):
    """Enemies of ``side`` that can be attacked now (:func:`targetable`)."""
    c = 0
    for j in range(comb.shape[0]):
        if targetable(comb, dyn, j, side):
            c += 1
    return c


@kernel
def count_enemies(comb, dyn, side):
    """Opponents she faces: enemies still in the fight (for Hide / Retreat TNs)."""
    n = comb.shape[0]
    c = 0
    for j in range(n):
        if comb[j, C_SIDE] != side:
            if in_fight(dyn, j):
                c += 1
    return c


@kernel(inline="always")
def defence_choice(comb, pol, rules, dyn, t, atk_kind):
    """Defence test of ``t`` against an attack of kind ``atk_kind`` (L83): dodge
    and luck against anything, parry against melee, block against mystic."""
    parry_ok = atk_kind == ATK_MELEE
    block_ok = atk_kind >= ATK_MYSTIC
    pref = pol[t, P_DEFENCE]
    if pref == DEF_DODGE:
        return T_DODGE
    if pref == DEF_LUCK:
        return T_LUCK
    if pref == DEF_PARRY:
        if parry_ok:
            return T_PARRY
    if pref == DEF_BLOCK:
        if block_ok:
            return T_BLOCK
    if pref == DEF_PARRY_MELEE:
        if parry_ok:
            return T_PARRY
    # best allowed pool; ties prefer parry, block, dodge, luck
    best = T_DODGE
    bv = comb[t, C_DICE + AGI] + comb[t, C_BONUS + T_DODGE]
    v = comb[t, C_DICE + LCK] + comb[t, C_BONUS + T_LUCK]
    if v > bv:
        bv = v
        best = T_LUCK
    if block_ok:
        v = comb[t, C_DICE + MAG] + comb[t, C_BONUS + T_BLOCK]
        if v >= bv:
            bv = v
            best = T_BLOCK
    if parry_ok:
        if pref != DEF_PARRY_MELEE:
            v = comb[t, C_DICE + STR] + comb[t, C_BONUS + T_PARRY]
            if v >= bv:
                best = T_PARRY
    return best


@kernel(inline="always")
def defence_ability(dtest):
    if dtest == T_DODGE:
        return AGI
    if dtest == T_LUCK:
        return LCK
    if dtest == T_PARRY:
        return STR
    return MAG


@part
def defend(comb, pol, rules, tab, dyn, st, cc, t, atk_kind, bonus):
    """Roll ``t``'s defence; returns ``(successes, defence test)``."""
    dt = defence_choice(comb, pol, rules, dyn, t, atk_kind)
    cc[t, K_DEFENCES + dt - T_DODGE] += 1
    d = test_roll(comb, rules, tab, dyn, st, t, defence_ability(dt), dt, bonus, dyn[t, D_DEFPEN])
    return d, dt


@kernel(inline="always")
def fortune_defence(comb, pol, rules, dyn, cc, t, d, a, need_exceed):
    """Fortune on a defence roll ``d`` against ``a``; the defence holds if
    ``d > a`` (``need_exceed``) or ``d >= a``. Returns the new ``d``."""
    mode = pol[t, P_FORTUNE]
    if mode == FORT_NEVER:
        return d
    if dyn[t, D_FORT] <= 0:
        return d
    f = rules[R_FORTUNE_SUCCESSES]
    use = False
    if mode == FORT_ALWAYS:
        use = True
    elif mode == FORT_DEFENCE:
        use = True
    else:
        if need_exceed:
            if d <= a:
                if d + f > a:
                    use = True
        else:
            if d < a:
                if d + f >= a:
                    use = True
    if use:
        dyn[t, D_FORT] -= 1
        cc[t, K_FORTUNE] += 1
        d += f
    return d


@kernel(inline="always")
def fortune_action(pol, rules, dyn, cc, i, a, tn, need_exceed):
    """Fortune on an action roll ``a`` against target number ``tn``; success is
    ``a > tn`` (``need_exceed``) or ``a >= tn``. Returns the new ``a``."""
    mode = pol[i, P_FORTUNE]
    if mode == FORT_NEVER:
        return a
    if dyn[i, D_FORT] <= 0:
        return a
    f = rules[R_FORTUNE_SUCCESSES]
    use = False
    if mode == FORT_ALWAYS:
        use = True
    elif mode == FORT_RESCUE:
        if need_exceed:
            if a <= tn:
                if a + f > tn:
                    use = True
        else:
            if a < tn:
                if a + f >= tn:
                    use = True
    if use:
        dyn[i, D_FORT] -= 1
        cc[i, K_FORTUNE] += 1
        a += f
    return a
