"""Whom a combatant attacks: the policy's target, a talent's target, a frenzy's.

:func:`target_of`: living enemies, downed ones when the policy finishes them,
by the policy (weakest, strongest threat, random; Marionette's copy as a decoy,
A53); :func:`talent_on_target` within a talent's range; :func:`frenzy_target`:
the closest standing combatant, allies included (L746, A9).
"""
from __future__ import annotations

from sim._jit import kernel
from sim.rng import randbelow

from .codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from .layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from .world import call, on_grid, on_positions, unpack
from .slots import find_usable
from .state import _candidate, is_standing


@kernel
def target_of(i, w):
    """Target of combatant ``i``'s attack, or -1 if nobody can be attacked.

    Candidates: living enemies that are standing, and downed enemies (0
    Resolve, not dead) if the policy finishes downed girls. focus-weakest:
    lowest current Resolve (downed first), ties to the first listed;
    strongest-threat: highest Attack stat, ties to the lowest Resolve, then
    the first listed; random-target: uniform over candidates.
    """
    comb, rules, dyn, streams, bf = unpack(w)
    n = comb.shape[0]
    side = comb[i, C_SIDE]
    finish = comb[i, P_FINISH] != 0
    strongest = comb[i, P_TARGET] == TARGET_STRONGEST
    best = -1
    best_res = 1 << 60
    best_att = -1
    count = 0
    for j in range(n):
        if not _candidate(j, side, finish, w):
            continue
        count += 1
        res = target_res(i, j, w)
        better = res < best_res
        if strongest:
            if comb[j, C_ATT] != best_att:
                better = comb[j, C_ATT] > best_att
        if better:
            best_res = res
            best_att = comb[j, C_ATT]
            best = j
    if count == 0:
        return best
    if comb[i, P_TARGET] != TARGET_RANDOM:
        if comb[i, C_FOE_COPIES] != 0:
            return decoy(i, best, w)
        return best
    k = randbelow(streams[S_POLICY], count)
    for j in range(n):
        if not _candidate(j, side, finish, w):
            continue
        if k == 0:
            return j
        k -= 1
    return -1


@kernel(forceinline=True)
def target_res(i, j, w):
    """The Resolve ``i``'s targeting policy sees on ``j``: Marionette's copy
    passes for her (A53: her Resolve)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if comb[i, C_FOE_COPIES] != 0:
        if comb[j, C_SPAWN_KIND] == SPAWN_COPY:
            return dyn[comb[j, C_SPAWN_BY], D_RES]
    return dyn[j, D_RES]


@kernel
def decoy(i, best, w):
    """Gridless, the policy picked ``best``; if her Marionette copy stands,
    the enemy cannot tell them apart (A53, ``marionette_decoy``): a coin flip
    (policy stream), always the copy, or always her."""
    comb, rules, dyn, streams, bf = unpack(w)
    if best < 0:
        return best
    c = dyn[best, D_COPY] - 1
    if c < 0:
        return best
    mode = comb[i, C_FOE_COPIES] - 1
    if mode == 1:
        return c
    if mode == 0:
        if randbelow(streams[S_POLICY], 2) == 1:
            return c
    return best


@kernel
def talent_on_target(i, code, w):
    """``(slot, target)`` for a talent used on the policy's target: the first
    usable slot of ``code`` (:func:`find_usable`) and a standing target, or
    ``(-1, -1)``. The target is chosen only when a slot is usable; on the grid
    among the enemies within the talent's range (:func:`.hex.pick_near`),
    on the draft's positions within its ``range_positions`` (:func:`range_target`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = find_usable(i, code, w)
    if s < 0:
        return -1, -1
    if on_grid(bf):
        t = call(rules[PR_PICK_WITHIN], i, comb[i, C_TREACH + s], 0, w)
    else:
        t = range_target(i, s, w)
    if t < 0:
        return -1, -1
    if not is_standing(t, w):
        return -1, -1
    return s, t


@kernel
def range_target(i, s, w):
    """Gridless, the policy's target for ``i``'s talent in slot ``s``
    (:func:`target_of`); on the draft's positions, when the slot has a
    reach (``C_TREACH``, the row's ``range_positions``), the policy's pick
    among the enemies within it (:func:`.positions.pick_within`); -1 if none."""
    comb, rules, dyn, streams, bf = unpack(w)
    if on_positions(rules):
        hi = comb[i, C_TREACH + s]
        if hi >= 0:
            return call(rules[PR_PICK_WITHIN], i, hi, 0, w)
    return target_of(i, w)


@kernel
def frenzy_gap(i, j, w):
    """How far ``j`` is from frenzied ``i``: hexes on the grid, positions on the
    draft's map (``positions`` > 0), 0 gridless (``D_PLACE`` stays 0 there, so
    every target is as close, A9)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if on_grid(bf):
        return call(rules[PR_DISTANCE], i, j, 0, w)
    return abs(dyn[i, D_PLACE] - dyn[j, D_PLACE])


@kernel(forceinline=True)
def _frenzy_candidate(i, j, w):
    """A standing combatant other than frenzied ``i`` and her own Marionette copy."""
    comb, rules, dyn, streams, bf = unpack(w)
    if j == i:
        return False
    if j == dyn[i, D_COPY] - 1:
        return False
    return is_standing(j, w)


@kernel
def frenzy_target(i, w):
    """Whom frenzied ``i`` attacks or moves toward (L746: "preference is given
    to closest targets, then to the targets that pose greater threat, then to
    the hostiles"; A9 ``fury_target``). Among the standing combatants (allies
    included, not her own Marionette copy) the closest (:func:`frenzy_gap`:
    gridless all are as close), then 'threat' the highest Attack, ties to
    hostiles, then the first listed; 'random' any of the closest; 'enemies'
    her policy's target. -1 if nobody."""
    comb, rules, dyn, streams, bf = unpack(w)
    mode = rules[R_FURY_TARGET]
    if mode == 2:
        return target_of(i, w)
    n = comb.shape[0]
    side = comb[i, C_SIDE]
    best = -1
    best_d = 0
    count = 0
    for j in range(n):
        if not _frenzy_candidate(i, j, w):
            continue
        d = frenzy_gap(i, j, w)
        if best < 0 or d < best_d:
            best = j
            best_d = d
            count = 1
            continue
        if d > best_d:
            continue
        count += 1
        if comb[j, C_ATT] > comb[best, C_ATT]:
            best = j
        elif comb[j, C_ATT] == comb[best, C_ATT]:
            if comb[best, C_SIDE] == side:
                if comb[j, C_SIDE] != side:
                    best = j
    if mode == 0:
        return best
    if count == 0:
        return -1
    k = randbelow(streams[S_POLICY], count)
    for j in range(n):
        if not _frenzy_candidate(i, j, w):
            continue
        if frenzy_gap(i, j, w) != best_d:
            continue
        if k == 0:
            return j
        k -= 1
    return -1
