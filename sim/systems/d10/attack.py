"""d10 attacks (seed 003 line numbers; audit ids D..).

An attack is melee (Strength), ranged (Agility) or mystic / specialization
(Magic) (L75), paid in mana (a specialization use 1, L51), augmented with up to
3 dice (L77), with the attacker's powers before the roll (:mod:`.powers`:
Killing Blow, Focused Assault, Barrage) and one penalty die per target beyond
the first (L81, D8); wounds max(1, 1 + margin - DR) (L85, D11); a Parry that
holds deals a wound back, a Magic Block restores mana (L83); a penalty use
holds its target at -2..-4 dice until she pulls free (L79, D7); an area use
catches allies (L81).
"""
from __future__ import annotations

from sim._jit import kernel, part

from .codes import *  # noqa: F401,F403
from .defence import attack_ability, defend, fortune_action, fortune_defence, in_fight, spell_free, targetable
from .layout import *  # noqa: F401,F403
from .pools import block_mana, next_threshold, stunt_dice, test_roll
from .powers import (after_attack_hooks, area_hooks, attack_form, declare_hooks, mana_available, power_num,
                     targeted_hooks, targets_hooks)
from .pools import pay_mana
from .wounds import apply_wounds, hold_spell, leave_fight, note_band, pay_with_blood


@kernel(inline="always")
def hit_wounds(comb, rules, dyn, t, margin, fa):
    """Wounds of a hit with ``margin`` = attack - defence >= 0 (L85, D11); Focused
    Assault (D21) when ``fa``."""
    base = 1 if rules[R_DAMAGE_FORMULA] == 0 else 0
    w = base + margin - comb[t, C_DR]
    if w < rules[R_MIN_WOUNDS]:
        w = rules[R_MIN_WOUNDS]
    if fa:
        drop = next_threshold(comb, dyn, t) - dyn[t, D_W]
        mode = rules[R_FOCUSED_ASSAULT]
        if mode == 0:
            if drop > w:
                w = drop
        elif mode == 1:
            w = drop
        elif mode == 2:
            w += drop
        else:
            w = 1
    return w


@kernel
def spell_lands(comb, rules, dyn, cc, i, t, a, d, dt):
    """``i``'s penalty use (result ``a``) against ``t``'s defence ``d`` of type ``dt``, after
    fortune: unless she resists (``d`` above ``a``; with ``spec_tie: defender`` also equal),
    the hold lands (L79, D7; on a held target rule ``recast``, :func:`hold_spell`); a Magic
    Block that resists restores a mana point (seed 002 L241-243)."""
    resisted = d > a
    if rules[R_SPEC_TIE] != 0:
        resisted = d >= a
    if not resisted:
        hold_spell(rules, dyn, t, comb[i, C_SPEC_PEN], a, i)
        cc[i, K_SPELLS] += 1
    elif dt == T_BLOCK:
        block_mana(comb, rules, dyn, cc, t)


@part
def resolve_hit(comb, pol, rules, dyn, streams, cc, i, t, a, d, dt, kb, fa):
    """Attack ``a`` against defence ``d`` of ``t``: wounds, Parry and Block side effects.
    Returns 1 on a hit."""
    if a >= d:
        cc[i, K_HITS] += 1
        if kb:
            w = comb[t, C_WMAX] - dyn[t, D_W]
        else:
            w = hit_wounds(comb, rules, dyn, t, a - d, fa)
        dealt = 0
        if w > 0:
            if w < comb[t, C_WMAX] - dyn[t, D_W]:
                if dyn[t, D_OUT] == OUT_IN:  # below her maximum: apply_wounds' first branch, inline
                    dyn[t, D_W] += w
                    cc[t, K_TAKEN] += w
                    note_band(comb, dyn, cc, t)
                    dealt = w
        if dealt == 0:
            dealt = apply_wounds(comb, rules, dyn, streams, cc, t, w)
        cc[i, K_DEALT] += dealt
        if kb:
            if dyn[t, D_OUT] != OUT_IN:
                cc[i, K_KB_KILLS] += 1
        return 1
    if dt == T_PARRY:
        pw = rules[R_PARRY_WOUNDS]
        if pw > 0:
            got = apply_wounds(comb, rules, dyn, streams, cc, i, pw)
            cc[t, K_PARRY_WOUNDS] += got
            cc[t, K_DEALT] += got
    elif dt == T_BLOCK:
        block_mana(comb, rules, dyn, cc, t)
    return 0


@kernel
def attack_others(comb, pol, rules, tab, dyn, streams, cc, i, t0, a, kind, ntargets, area, effect, kb, fa, skip):
    """The other targets of a multi-target or area attack (roll ``a``, D8); a penalty
    spell passes over those ``skip`` leaves alone (rule ``recast: forbid``, :func:`spell_free`)."""
    n = comb.shape[0]
    side = comb[i, C_SIDE]
    chk = streams[S_CHECK]
    pen = comb[i, C_SPEC_PEN]
    hits = 0
    extra = ntargets - 1
    allies = 0
    if area:
        allies = area_hooks(comb, i, comb[i, C_SPEC_ALLIES])
    for j in range(n):
        if j == t0:
            continue
        if j == i:
            continue
        if not spell_free(dyn, j, skip, pen):
            continue
        ok = False
        if targetable(comb, dyn, j, side):
            if area:
                ok = True
            elif extra > 0:
                ok = True
                extra -= 1
        elif allies > 0:
            if comb[j, C_SIDE] == side:
                if in_fight(dyn, j):
                    ok = True
                    allies -= 1
        if not ok:
            continue
        d, dt = defend(comb, pol, rules, tab, dyn, chk, cc, j, kind, 0)
        cc[i, K_TARGETED] += 1
        if effect:
            d = fortune_defence(comb, pol, rules, dyn, cc, j, d, a, rules[R_SPEC_TIE] == 0)
            spell_lands(comb, rules, dyn, cc, i, j, a, d, dt)
        else:
            d = fortune_defence(comb, pol, rules, dyn, cc, j, d, a, True)
            hits += resolve_hit(comb, pol, rules, dyn, streams, cc, i, j, a, d, dt, kb, fa)
    return hits


@kernel
def target_count(comb, pol, dyn, i, area, skip):
    """How many targets ``i`` attacks: the policy's wish, capped by the
    targetable foes (L81) her spell may be aimed at (``skip``); an area attack
    counts 1 (its area adds the rest)."""
    if area:
        return 1
    want = pol[i, P_TARGETS]
    if want <= 1:
        return 1
    c = 0
    side = comb[i, C_SIDE]
    pen = comb[i, C_SPEC_PEN]
    for j in range(comb.shape[0]):
        if targetable(comb, dyn, j, side):
            if spell_free(dyn, j, skip, pen):
                c += 1
    return want if want < c else c


@kernel
def attack_extras(comb, pol, rules, cc, i, kind, effect, avail, cost, ntargets):
    """The attacker's powers before the roll of a damaging attack (DECLARE hooks:
    Killing Blow, else Focused Assault), then several targets: the TARGETS hooks
    (Barrage) or the multi-target penalty dice (L81), as the policy asks and the mana
    allows. Returns (kb, fa, dice penalty, cost)."""
    kb = False
    fa = False
    pen = 0
    if not effect:
        kb, fa, cost = declare_hooks(comb, pol, i, avail, cost)
    if ntargets > 1:
        bar, cost = targets_hooks(comb, pol, cc, i, kind, effect, avail, cost)
        if not bar:
            pen += rules[R_MULTI_TARGET_PENALTY] * (ntargets - 1)
    return kb, fa, pen, cost


@kernel
def augmentation(comb, pol, rules, cc, i, avail, cost, kb, fa):
    """Augmentation dice bought with the mana left (L77), capped by the rule
    and, with the policy's save flag, keeping enough for a later Killing Blow
    or Finishing Attack.  Returns (dice, cost)."""
    aug = pol[i, P_AUG]
    if aug <= 0:
        return aug, cost
    if aug > rules[R_AUGMENT_CAP]:
        aug = rules[R_AUGMENT_CAP]
    room = avail - cost
    if pol[i, P_SAVE] != 0:
        keep = 0
        if not kb:
            if pol[i, P_KB] != 0:
                keep = power_num(comb, i, E_KILLING_BLOW, 0)
        if not fa:
            if pol[i, P_FA] != 0:
                c = power_num(comb, i, E_FOCUSED_ASSAULT, 0)
                if c > keep:
                    keep = c
        if keep > 0:
            if room >= keep:
                room -= keep
    if aug > room:
        aug = room
    if aug < 0:
        aug = 0
    cc[i, K_AUG_DICE] += aug
    return aug, cost + aug


@part
def attack_primary(comb, pol, rules, tab, dyn, streams, cc, i, t, a, kind, effect, kb, fa):
    """The roll against the primary target ``t``: a spell effect held on a
    win, or a hit resolved.  Returns (hits, ``i``'s result after fortune)."""
    d, dt = defend(comb, pol, rules, tab, dyn, streams[S_CHECK], cc, t, kind, 0)
    cc[i, K_TARGETED] += 1
    hits = 0
    if effect:
        exceed = rules[R_SPEC_TIE] == 0
        a = fortune_action(pol, rules, dyn, cc, i, a, d, not exceed)
        d = fortune_defence(comb, pol, rules, dyn, cc, t, d, a, exceed)
        spell_lands(comb, rules, dyn, cc, i, t, a, d, dt)
    else:
        a = fortune_action(pol, rules, dyn, cc, i, a, d, False)
        d = fortune_defence(comb, pol, rules, dyn, cc, t, d, a, True)
        hits = resolve_hit(comb, pol, rules, dyn, streams, cc, i, t, a, d, dt, kb, fa)
    return hits, a


@part
def attack(comb, pol, rules, tab, dyn, streams, cc, i, t, aid):
    """``i`` attacks ``t`` (and more targets per policy/area); returns 1 if the
    attack was made, 0 if it could not be paid (the caller then Recharges)."""
    kind, cost, second = attack_form(comb, pol, rules, dyn, i, t)
    ab = attack_ability(kind)
    spec = kind == ATK_SPEC
    area = False
    effect = False
    if spec:
        area = comb[i, C_SPEC_AREA] != 0
        effect = comb[i, C_SPEC_EFFECT] != 0
    avail = mana_available(comb, pol, dyn, i)
    if avail < cost:
        return 0
    skip = SKIP_NONE  # the other targets: only rule recast: forbid keeps a spell off a held one
    if effect:
        if rules[R_RECAST] == RECAST_FORBID:
            skip = SKIP_HELD
    ntargets = 1
    if not area:
        if pol[i, P_TARGETS] > 1:
            ntargets = target_count(comb, pol, dyn, i, area, skip)
    kb, fa, pen, cost = attack_extras(comb, pol, rules, cc, i, kind, effect, avail, cost, ntargets)
    aug, cost = augmentation(comb, pol, rules, cc, i, avail, cost, kb, fa)
    if cost > 0:
        pay_mana(comb, dyn, cc, i, cost)
        if dyn[i, D_W] > 0:
            if dyn[i, D_W] >= comb[i, C_WMAX]:
                pay_with_blood(comb, rules, dyn, streams, cc, i)
            else:  # pay_with_blood's second branch, inline
                note_band(comb, dyn, cc, i)
        if dyn[i, D_OUT] != OUT_IN:
            return 1
    if kb:
        cc[i, K_KB] += 1
        if rules[R_KILLING_BLOW_TEST] == 1:
            ab = MAG
    if fa:
        cc[i, K_FA] += 1
    if spec:
        if not area:
            pen += targeted_hooks(comb, t)  # aimed at her directly (Third Eye)
    st = stunt_dice(pol, streams[S_POLICY], i)
    cc[i, K_STUNT_DICE] += st
    a = test_roll(comb, rules, tab, dyn, streams[S_CHECK], i, ab, kind, aug + aid + st, pen)
    cc[i, K_ATTACKS] += 1
    if second:
        cc[i, K_FORM2] += 1
    dyn[i, D_HIDDEN] = 0  # attacking reveals her (D14)
    hits, a = attack_primary(comb, pol, rules, tab, dyn, streams, cc, i, t, a, kind, effect, kb, fa)
    if ntargets > 1:
        hits += attack_others(comb, pol, rules, tab, dyn, streams, cc, i, t, a, kind, ntargets, False, effect, kb, fa,
                              skip)
    elif area:
        hits += attack_others(comb, pol, rules, tab, dyn, streams, cc, i, t, a, kind, 1, True, effect, kb, fa, skip)
    if kb:
        after_attack_hooks(comb, dyn, i, kb, hits)
    # a copy that spends its mana pops once the action resolves (L169)
    if comb[i, C_KIND] == KIND_COPY:
        if cost > 0:
            if dyn[i, D_OUT] == OUT_IN:
                dyn[i, D_OUT] = OUT_KO
                leave_fight(rules, dyn, i)
    return 1
