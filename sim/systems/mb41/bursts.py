"""Bursts played (``bursts: play``): what an action left due, settled after it.

Heart (L451-453), Fury (the frenzy, L744-762) and Judgment (L1163-1165) bursts,
a frenzied girl's retaliation (L758), bond points burned (L451, L762, L1165),
played after the action that made them due (A7b).
"""
from __future__ import annotations

from sim._jit import kernel
from sim.dice import exploding_d6, sum_d6

from .codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from .layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from .gates import T_DROP
from .points import every
from .world import call, gridless, on_grid, unpack
from .damage import apply_damage, human_penalty
from .overcharge import check_bursts, gain_overcharge
from .slots import spend_fury
from .state import appear, is_standing, roll_penalty
from .talents.team import switched


@kernel
def heart_creature(j, anchor, w):
    """The Heart Burst's creature (L451-453, ``heart_burst: spawn``, A8a):
    girl ``j``'s reserve row appears on the other side (on the grid on the
    free hex nearest to her); one creature per girl and fight."""
    comb, rules, dyn, streams, bf = unpack(w)
    for m in range(comb.shape[0]):
        if comb[m, C_SPAWN_KIND] == SPAWN_HEART:
            if comb[m, C_SPAWN_BY] == j:
                if appear(m, anchor, w):
                    dyn[j, K_HEART_SPAWNS] += 1
                return


@kernel(forceinline=True)
def settle(w):
    """What an action left due, played after it (``bursts: play``, A7b): a
    frenzied girl's retaliation on whoever attacked her (L758), then every
    due burst (:func:`play_burst`), by :func:`settle_due`.

    Looking for something due is one load (``D_DUE``, set with every burst due and
    every retaliation); the work is the procedure ``PR_SETTLE``, compiled once."""
    comb, rules, dyn, streams, bf = unpack(w)
    if rules[R_BURSTS] == BURSTS_COUNT:
        return
    if dyn[0, D_DUE] != 0:
        call(rules[PR_SETTLE], 0, 0, 0, w)


@kernel
def settle_due(w):
    """The work of :func:`settle`: retaliations and due bursts, in passes over
    the combatants until none is left. What they set off (a Judgment Burst's
    damage, a revive roll's overcharge) is played in the same call; every
    burst empties its counter, so this ends."""
    comb, rules, dyn, streams, bf = unpack(w)
    n = comb.shape[0]
    dyn[0, D_DUE] = 0
    for _ in range(1000 + 64 * n):  # a bound for safety only: every pass spends or empties a counter
        busy = False
        for j in range(n):
            a = dyn[j, D_RETALIATE]
            if a >= 0:
                dyn[j, D_RETALIATE] = -1
                busy = True
                retaliate(j, a, w)
            for s in range(3):
                if dyn[j, D_PEND + s] != 0:
                    dyn[j, D_PEND + s] = 0
                    busy = True
                    play_burst(j, s, w)
        if not busy:
            dyn[0, D_DUE] = 0  # a pass found nothing: whatever set it again was played
            return


@kernel
def retaliate(j, a, w):
    """Frenzied ``j`` spends 2 Fury overcharge for a basic attack on ``a``, who
    attacked her (L758), if she is still frenzied and standing, has the 2
    points, ``a`` is alive and (on the grid or positions) within her reach."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[j, D_FRENZY] == 0:
        return
    if not is_standing(j, w):
        return
    if dyn[a, D_DEAD] != 0:
        return
    if dyn[j, D_OC + FURY] < 2:
        return
    if not gridless(rules):
        if call(rules[PR_REACH], j, a, 0, w) < 0:
            return  # a basic attack: only on an attacker within her reach (grid, positions)
    spend_fury(j, 2, w)
    dyn[j, K_RETALIATIONS] += 1
    a = switched(j, a, w)
    call(rules[PR_ATTACK_AT], j, a, 0, w)


@kernel
def lose_bond(j, strongest, w):
    """A burst burns one point of ``j``'s strongest (or weakest) bond, the
    first listed on ties (L451, L762, L1165); with no bonds left she is lost
    (out of the fight). Returns whether she is lost."""
    comb, rules, dyn, streams, bf = unpack(w)
    best = -1
    for b in range(MAXB):
        v = dyn[j, D_BOND + b]
        if v <= 0:
            continue
        if best < 0:
            best = b
        elif strongest:
            if v > dyn[j, D_BOND + best]:
                best = b
        elif v < dyn[j, D_BOND + best]:
            best = b
    if best >= 0:
        dyn[j, D_BOND + best] -= 1
        dyn[j, K_BONDS_LOST] += 1
    left = 0
    for b in range(MAXB):
        left += dyn[j, D_BOND + b]
    if left > 0:
        return False
    if dyn[j, D_RES] > 0:  # what ends when she drops ends now (a burst: not a drop)
        every(T_DROP, j, j, 0, w)
    dyn[j, D_LOST] = 1
    dyn[j, D_DEAD] = 1     # out of the fight: never targeted, never acts, her side no longer counts her
    dyn[j, D_RES] = 0
    dyn[j, D_PENDING] = -1
    dyn[j, D_FRENZY] = 0
    for s in range(3):
        dyn[j, D_PEND + s] = 0
    dyn[j, K_LOST] += 1
    return True


@kernel
def play_burst(j, s, w):
    """Girl ``j``'s burst on stat ``s`` (counted when it became due):

    * Heart (L451-453): the creature is a separate encounter (A8b,
      ``heart_burst: apart``); she loses a point of her strongest bond and
      the counter resets (L151);
    * Fury (L744-762): she burns a point of a bond (``fury_bond``) and, unless
      lost or at 0 Resolve (then the counter just resets), is frenzied: the
      counter is the Fury she must spend
      (:func:`.turn.play_frenzied`, :func:`.overcharge.fury_spend`, :func:`retaliate`);
    * Judgment (L1163-1165): the counter is released as damage
      (:func:`judgment_blast`), resets, and she loses a point of her weakest
      bond.
    """
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[j, D_LOST] != 0:
        return
    if s == HEART:
        dyn[j, D_OC + HEART] = 0
        anchor = dyn[j, D_POS]
        lose_bond(j, True, w)
        if rules[R_HEART_BURST] == 1:
            heart_creature(j, anchor, w)
    elif s == FURY:
        if not lose_bond(j, rules[R_FURY_BOND] == 0, w):
            if dyn[j, D_RES] > 0:
                dyn[j, D_FRENZY] = 1 + rules[R_FURY_TALENTS]  # which talents she may use (frenzy_can_pay)
            else:  # at 0 Resolve she is a non-magical human (L1420): no frenzy, the counter is spent
                dyn[j, D_OC + FURY] = 0
    else:
        released = dyn[j, D_OC + JUDGMENT]
        dyn[j, D_OC + JUDGMENT] = 0
        judgment_blast(j, released, w)
        lose_bond(j, False, w)


@kernel
def judgment_blast(j, released, w):
    """A Judgment Burst (L1163): ``released`` damage to everyone in the
    vicinity (gridless: the whole battlefield; on the grid within
    ``judgment_radius`` hexes, -1 = all, A10i), herself only with
    ``judgment_self`` (A10ii), girls at 0 Resolve unless ``judgment_downed: spared``. Each bystander may avoid it entirely with a
    Support check reaching ``judgment_difficulty`` x released (L1163, A10iii:
    ``judgment_avoid``): 2d6! + Support (sixes give overcharge as usual), a
    girl at 0 Resolve 2d6 + Tenacity. Not an attack: no defence, no
    reductions."""
    comb, rules, dyn, streams, bf = unpack(w)
    if released <= 0:
        return
    n = comb.shape[0]
    diff = rules[R_JUDGMENT_DIFFICULTY] * released
    mode = rules[R_JUDGMENT_AVOID]
    chk = streams[S_CHECK]
    for k in range(n):
        if dyn[k, D_DEAD] != 0:
            continue
        if k == j:
            if rules[R_JUDGMENT_SELF] == 0:
                continue
        if dyn[k, D_RES] <= 0:
            if rules[R_JUDGMENT_DOWNED] == 1:
                continue  # judgment_downed: spared, the fallen are not in it
        if on_grid(bf):
            if k != j:
                if rules[R_JUDGMENT_RADIUS] >= 0:
                    if call(rules[PR_DISTANCE], j, k, 0, w) > rules[R_JUDGMENT_RADIUS]:
                        continue
        rolls = k != j
        if mode == 2:
            rolls = False
        elif mode == 1:
            if comb[k, C_MONSTER] != 0:
                rolls = False
        if rolls:
            if dyn[k, D_RES] > 0:
                total, sixes = exploding_d6(chk, 2)
                total += comb[k, C_SUP] - roll_penalty(k, w)
                gain_overcharge(k, comb[k, C_RS], sixes, w)
            else:  # a non-magical human (L1420, L1455), her wounds' penalty too (L1422)
                total = sum_d6(chk, 2) + comb[k, C_TEN] - roll_penalty(k, w) - human_penalty(k, w)
            if total >= diff:
                dyn[k, K_JUDG_AVOIDED] += 1
                check_bursts(k, w)
                continue
        took = apply_damage(k, released, w)
        dyn[k, K_TAKEN] += took
        dyn[k, K_JUDG_TAKEN] += took
        dyn[j, K_DEALT] += took  # damage dealt and taken stay two views of the same hits
        if k != j:
            dyn[j, K_JUDG_DEALT] += took
        check_bursts(k, w)


@kernel(forceinline=True)
def settle_now(w):
    """Bursts play after each action of a turn (bursts play, A7b; :func:`.turn.settle_action`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if rules[R_BURSTS] == BURSTS_COUNT:
        return False
    return rules[R_BURST_TIMING] == 0


@kernel
def p_settle(a, b, c, w):
    """PR_SETTLE: :func:`settle_due`."""
    comb, rules, dyn, streams, bf = unpack(w)
    settle_due(w)
    return 0
