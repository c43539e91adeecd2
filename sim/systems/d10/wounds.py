"""d10 wounds and holds (seed 003 line numbers; audit ids D..).

* wounds fill a pool of 2 x Vitality in four threshold bands (L31-33, D2); a
  full pool takes her out: knocked out (cake) or dead (grim) (L65-69), or a
  permanent wound instead (L35-49, D4); a copy pops (L169); a familiar's
  death costs its owner dice (L155);
* a hold (a penalty spell, a Tentacles grapple or pin) costs dice on every
  roll until she pulls free (L79, L175); a second spell on a held target
  follows rule ``recast``; a holder leaving the fight ends her holds under rule
  ``hold_ends: holder_out``.
"""
from __future__ import annotations

from sim._jit import kernel
from sim.rng import randbelow

from .codes import *  # noqa: F401,F403
from .layout import *  # noqa: F401,F403
from .pools import wound_band


@kernel(inline="always")
def note_band(comb, dyn, cc, i):
    b = wound_band(comb, dyn, i)
    if dyn[i, D_W] >= comb[i, C_WMAX]:
        b = 3
    while dyn[i, D_MAXBAND] < b:
        dyn[i, D_MAXBAND] += 1
        cc[i, K_BAND + dyn[i, D_MAXBAND] - 1] += 1


@kernel
def permanent_roll(rules, st):
    """A roll on the permanent-wound table (L37-49): 1..20 by rule ``permanent_die`` (D4 i)."""
    mode = rules[R_PERMANENT_DIE]
    if mode == 0:
        return randbelow(st, 20) + 1
    if mode == 1:
        return randbelow(st, 10) + randbelow(st, 10) + 2
    d = randbelow(st, 10) + 1
    if randbelow(st, 2) == 1:
        d += 10
    return d


@kernel
def free_hold(dyn, t):
    """``t`` is held no more."""
    dyn[t, D_HELD] = 0
    dyn[t, D_HELD_TN] = 0
    dyn[t, D_HELD_KIND] = HELD_NONE
    dyn[t, D_HELD_BY] = -1


@kernel
def leave_fight(rules, dyn, j):
    """``j`` has just left the fight (out, dead, fled, a copy popped). Rule ``hold_ends:
    holder_out``: every hold she kept on someone ends with her (``escape``, the literal
    L79 / L175: they last until the held one pulls free)."""
    if rules[R_HOLD_ENDS] != HOLD_ENDS_HOLDER_OUT:
        return
    for k in range(dyn.shape[0]):
        if dyn[k, D_HELD_KIND] != HELD_NONE:
            if dyn[k, D_HELD_BY] == j:
                free_hold(dyn, k)


@kernel
def take_out(comb, rules, dyn, cc, t):
    """A full wound pool: knocked out (cake) or dead (grim); a copy pops."""
    if comb[t, C_KIND] == KIND_COPY:  # a copy pops (L169)
        dyn[t, D_OUT] = OUT_KO
        leave_fight(rules, dyn, t)
        return
    if rules[R_MODE] == 1:
        dyn[t, D_OUT] = OUT_DEAD
        cc[t, K_DEATHS] += 1
        if comb[t, C_KIND] == KIND_FAMILIAR:
            o = comb[t, C_OWNER]
            if o >= 0:
                dyn[o, D_GRIEF] = rules[R_FAMILIAR_GRIEF]
    else:
        dyn[t, D_OUT] = OUT_KO
    cc[t, K_KOS] += 1
    if dyn[t, D_KO_TRIAL] == 0:
        dyn[t, D_KO_TRIAL] = 1
        cc[t, K_KO_TRIALS] += 1
    dyn[t, D_RETREAT] = 0
    dyn[t, D_HIDDEN] = 0
    dyn[t, D_STORED] = 0
    leave_fight(rules, dyn, t)


@kernel
def apply_wounds(comb, rules, dyn, streams, cc, t, w):
    """``w`` wounds to ``t``; returns the wounds that took effect (capped at her pool)."""
    if w <= 0:
        return 0
    if dyn[t, D_OUT] != OUT_IN:
        return 0
    left = comb[t, C_WMAX] - dyn[t, D_W]
    if w > left:
        w = left
    dyn[t, D_W] += w
    cc[t, K_TAKEN] += w
    if dyn[t, D_W] >= comb[t, C_WMAX]:
        note_band(comb, dyn, cc, t)
        perm = False
        if rules[R_PERMANENT_WOUNDS] == 1:
            if comb[t, C_PERM_OK] != 0:
                lim = rules[R_PERMANENT_LIMIT]
                if lim < 0:
                    perm = True
                elif dyn[t, D_PERM] < lim:
                    perm = True
        if perm:
            face = permanent_roll(rules, streams[S_TABLE])
            dyn[t, D_PERM] += 1
            cc[t, K_PERM] += 1
            if face >= 15:
                cc[t, K_PERM_SEVERE] += 1
            if rules[R_PERMANENT_AFTER] == 0:
                dyn[t, D_W] = comb[t, C_WMAX] - 1
            else:
                v = comb[t, C_WMAX] - comb[t, C_BAND]
                dyn[t, D_W] = v if v > 0 else 0
        else:
            take_out(comb, rules, dyn, cc, t)
    else:
        note_band(comb, dyn, cc, t)
    return w


@kernel
def pay_with_blood(comb, rules, dyn, streams, cc, i):
    """After :func:`pay_mana` added Blood Magic wounds directly: settle a full pool."""
    if dyn[i, D_W] >= comb[i, C_WMAX]:
        dyn[i, D_W] = comb[i, C_WMAX] - 1
        apply_wounds(comb, rules, dyn, streams, cc, i, 1)
    else:
        note_band(comb, dyn, cc, i)


@kernel
def hold(dyn, t, pen, tn, kind, by):
    """A hold (spell effect, grapple, pin): -pen dice until she pulls free; the
    larger penalty stays."""
    if pen >= dyn[t, D_HELD]:
        dyn[t, D_HELD] = pen
        dyn[t, D_HELD_TN] = tn
        dyn[t, D_HELD_KIND] = kind
        dyn[t, D_HELD_BY] = by


@kernel
def hold_spell(rules, dyn, t, pen, tn, by):
    """A penalty spell of ``pen`` dice and target number ``tn`` lands on ``t`` (L79).
    On a target a spell already holds, rule ``recast``: ``keep_higher`` keeps the
    stronger hold (the larger penalty; on equal penalties the higher target number),
    ``replace`` lets a penalty at least as large replace it, target number included,
    ``forbid`` changes nothing (the spell could not be aimed at her). Another hold
    (a grapple, a pin) follows :func:`hold`."""
    if dyn[t, D_HELD_KIND] == HELD_SPELL:
        mode = rules[R_RECAST]
        if mode == RECAST_FORBID:
            return
        if mode == RECAST_KEEP_HIGHER:
            old = dyn[t, D_HELD]
            if pen < old:
                return
            if pen == old:
                if tn <= dyn[t, D_HELD_TN]:
                    return
    hold(dyn, t, pen, tn, HELD_SPELL, by)
