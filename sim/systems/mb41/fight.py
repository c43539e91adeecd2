"""A fight: initiative, rounds, turns in order, the outcome; the block kernel.

Initiative 2d6 + Support, ties by Support then at random (L1408, A11c), or the
listed order; each round every combatant who may act takes her turn; the fight
ends when a side has nobody standing (rule ``defeat``) or at the round cap.
:func:`simulate_blocks` plays blocks of trials (prange) on keyed streams.
"""
from __future__ import annotations

import numba
import numpy as np

from sim._jit import kernel, part, pjit
from sim.dice import sum_d6
from sim.rng import STATE_WORDS, randbelow, seed_stream

from .codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from .layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from .world import WORLD_WORDS, call, gridless, keep, no_field, on_grid, pack, unpack
from .ailments import bleed
from .bursts import settle
from .damage import revive_roll
from .overcharge import check_bursts, count_tiers
from .slots import has_code
from .state import has_ailment, is_standing, outcome_now, reset, waits
from .talents.afflictions import shrug_off
from .talents.auras import courage_aura
from .talents.draft import round_effects
from .talents.monsters import extra_turns, overcharge_radiation
from .turn import frenzy_again, frenzy_turn, play_turn


@kernel
def roll_initiative(comb, rules, st, order, key):
    """Fill ``order`` with combatant indices in acting order.

    'roll': 2d6 + Support (no explosion, no overcharge), higher first; ties
    by the higher Support stat, then at random (L1408, A11c).
    'listed': the order of the scenario file. ``key`` is int64[n] scratch.
    """
    n = comb.shape[0]
    if rules[R_INITIATIVE] == 1:
        for i in range(n):
            order[comb[i, C_ORDER]] = i
        return
    for i in range(n):
        total = sum_d6(st, 2) + comb[i, C_SUP]
        key[i] = (total * 1024 + comb[i, C_SUP] + 512) * 1048576 + randbelow(st, 1048576)
        order[i] = i
    # insertion sort, descending key
    for a in range(1, n):
        v = order[a]
        b = a - 1
        while b >= 0 and key[order[b]] < key[v]:
            order[b + 1] = order[b]
            b -= 1
        order[b + 1] = v


@kernel
def ambush_turns(order, w):
    """Ambush Tactics (L2006): before round 1 each standing combatant with it
    (initiative order) takes an extra turn, its attack at +P3 and +P1 d6 + P2
    damage; then the ambushers go first in round 1 ("can go first if it
    chooses": it always does). Returns the outcome, -1 while the fight goes on."""
    comb, rules, dyn, streams, bf = unpack(w)
    n = comb.shape[0]
    outcome = -1
    front = 0
    for k in range(n):
        i = order[k]
        if (comb[i, C_TMASK] >> E_AMBUSH) & 1 == 0:
            continue
        for m in range(k, front, -1):  # move it to the front, keeping the others' order
            order[m] = order[m - 1]
        order[front] = i
        front += 1
        if outcome >= 0:
            continue
        if not is_standing(dyn, i):
            continue
        dyn[i, D_AMBUSH] = 1
        play_turn(i, w)
        dyn[i, D_AMBUSH] = 0
        settle(w)
        outcome = outcome_now(comb, rules, dyn)
    return outcome


@kernel
def extra_turns_now(i, w):
    """Extra Action (L1979): ``i`` takes its extra turns of this round (if
    standing; on the battlefield ``bf`` when there is one); returns the
    fight's outcome after them, -1 while it goes on."""
    comb, rules, dyn, streams, bf = unpack(w)
    k = extra_turns(i, comb)
    outcome = -1
    for e in range(k):
        if not is_standing(dyn, i):
            break
        play_turn(i, w)
        settle(w)
        outcome = outcome_now(comb, rules, dyn)
        if outcome >= 0:
            break
    return outcome


@kernel
def frenzy_turns(i, k, w):
    """Up to ``k`` frenzy turns of ``i`` (:func:`frenzy_turn`), each settled;
    stops when the frenzy ends, she falls or the fight is decided. Returns
    the outcome (-1 while it goes on)."""
    comb, rules, dyn, streams, bf = unpack(w)
    outcome = -1
    for _ in range(k):
        if not frenzy_again(i, comb, rules, dyn):
            break
        frenzy_turn(i, w)
        settle(w)
        outcome = outcome_now(comb, rules, dyn)
        if outcome >= 0:
            break
    return outcome


@kernel
def _record_round(r, plane, side_curve, comb_curve, w):
    """Add who stands now to ``[..., plane, r]`` of the curve counters (the world ``w``:
    no array descriptor has to live across the round loop for this call)."""
    comb, rules, dyn, streams, bf = unpack(w)
    n = comb.shape[0]
    s0 = 0
    s1 = 0
    for j in range(n):
        if is_standing(dyn, j):
            comb_curve[j, plane, r] += 1
            if comb[j, C_SPAWN_KIND] == SPAWN_COPY:
                continue
            if comb[j, C_SIDE] == 0:
                s0 = 1
            else:
                s1 = 1
    side_curve[0, plane, r] += s0
    side_curve[1, plane, r] += s1


@kernel
def fight(order, key, side_curve, comb_curve, w):
    """Play one fight from the current ``dyn`` (:func:`fight_on`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return fight_on(order, key, side_curve, comb_curve, w)


@kernel
def fight_on(order, key, side_curve, comb_curve, w):
    """Play one fight from the current ``dyn``; returns ``(outcome, rounds)``.

    ``bf``: ``None`` (gridless; numba prunes the grid branches) or the
    battlefield tuple of :func:`.battle_grid.field` (positions in ``D_POS``,
    turns by :func:`.battle_grid.take_turn_grid`).

    Curves: ``side_curve[s, 0, r]`` / ``comb_curve[j, 0, r]`` count fights
    still running after round r in which side s had someone standing /
    combatant j stood; plane 1 counts the final state of fights that ended in
    round r. Standing at the end of round r is plane 0 at r plus plane 1
    summed over rounds <= r (:func:`standing_curves` does this), which
    avoids a loop over the remaining rounds in every trial.
    """
    comb, rules, dyn, streams, bf = unpack(w)
    n = comb.shape[0]
    cap = rules[R_ROUND_CAP]
    outcome = fight_start(order, key, w)
    rounds = cap
    if outcome >= 0:
        rounds = 1  # over before round 1 (Ambush Tactics): counted as a one-round fight
    m = n  # order[:m]: who may still act (the dead leave it after each round)
    for r in range(1, cap + 1):
        if outcome >= 0:
            break
        dyn[0, D_ROUND] = r
        outcome = round_start(w)
        if outcome >= 0:
            rounds = r
            break
        for k in range(m):
            outcome = turn_of(order[k], r, w)
            if outcome >= 0:
                break
        if outcome < 0:
            outcome = round_end(r, order, m, w)
        if outcome >= 0:
            rounds = r
            break
        if r < cap:
            _record_round(r, 0, side_curve, comb_curve, w)
            m = drop_the_dead(order, m, comb, dyn)
    fight_end(rounds, side_curve, comb_curve, w)
    if outcome < 0:
        outcome = F_DRAW
    return outcome, rounds


@kernel(inline="always")
def drop_the_dead(order, m, comb, dyn):
    """Remove the dead from ``order[:m]``, keeping the others' order; the new ``m``.

    Only a listed row leaves: a dead one never takes a turn or acts again (nothing
    clears ``D_DEAD`` in a fight but :func:`appear`, and that only for a reserve
    row, ``C_SPAWN_KIND``, which therefore stays). Every later round would skip the
    dead anyway (:func:`turn_of`, :func:`round_end`); this skips them once."""
    k = 0
    for q in range(m):
        i = order[q]
        if dyn[i, D_DEAD] != 0:
            if comb[i, C_SPAWN_KIND] == 0:
                continue
        order[k] = i
        k += 1
    return k


@part
def fight_start(order, key, w):
    """Before round 1: bursts due from a starting counter (L161), everyone to her place
    and the auras, initiative (:func:`roll_initiative`), Ambush Tactics' turns (L2006).
    Returns the outcome (-1 while the fight goes on)."""
    comb, rules, dyn, streams, bf = unpack(w)
    n = comb.shape[0]
    for j in range(n):  # a girl may start the scene at or over the threshold
        check_bursts(j, comb, rules, dyn)
    if not gridless(rules):  # everyone to her starting place, the auras by place
        call(rules[PR_START], 0, 0, 0, w)
    settle(w)
    roll_initiative(comb, rules, streams[S_SETUP], order, key)
    masks = comb[0, C_SIDEMASK] | comb[n - 1, C_SIDEMASK]  # the two sides' masks (reserve rows: any side last)
    if comb[n - 1, C_SPAWN_KIND] != 0:
        for j in range(n):
            masks |= comb[j, C_TMASK]
    if (masks >> E_AMBUSH) & 1 != 0:
        return ambush_turns(order, w)
    return -1


@part
def round_start(w):
    """The start of a round: Shrug Off, Bleed (L1465), the draft's Hexes and Regeneration;
    what they set off is settled. Returns the outcome (-1 while the fight goes on)."""
    comb, rules, dyn, streams, bf = unpack(w)
    bled = False
    for j in range(comb.shape[0]):
        if (comb[j, C_TMASK] >> E_SHRUG_OFF) & 1 != 0:
            if dyn[j, D_DEAD] == 0:
                if has_ailment(j, dyn):  # (nothing to shrug off: no call)
                    shrug_off(j, w)
        if dyn[j, D_AIL + A_BLEED] != 0:
            bleed(j, w)
            bled = True
        if dyn[j, D_HEXES] + dyn[j, D_REGEN] != 0:  # the draft's Hex and Regeneration
            if dyn[j, D_DEAD] == 0:
                if round_effects(j, w):
                    bled = True
    if bled:
        settle(w)
        return outcome_now(comb, rules, dyn)
    return -1


@part
def turn_of(i, r, w):
    """``i``'s turn in round ``r`` when she may take one: Resolve back from her revive
    roll (A19a; the draft's roll as her Major, DRAFT L512-516), her turn or her frenzy's
    turns, then what it set off; Extra Action right after it (A32). Returns the outcome
    (-1 while the fight goes on)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_DEAD] != 0:
        return -1
    if waits(i, r, comb, rules, dyn):
        return -1
    acts = True
    if dyn[i, D_RES] <= 0:
        if dyn[i, D_PENDING] == -1:
            return -1
        if dyn[i, D_PENDING] == -2:
            revive_roll(i, comb, rules, dyn, streams)
            check_bursts(i, comb, rules, dyn)
            acts = False
        back = dyn[i, D_PENDING]
        dyn[i, D_RES] = back if back < comb[i, C_RES] else comb[i, C_RES]
        dyn[i, D_PENDING] = -1
        if (comb[i, C_TMASK] >> E_COURAGE) & 1 != 0:
            courage_aura(i, -1, comb, dyn)  # standing again: her aura is back
            if on_grid(bf):
                call(rules[PR_AURAS], i, 0, 0, w)
    outcome = -1
    if acts:
        if dyn[i, D_FRENZY] != 0:
            outcome = frenzy_turns(i, 1 + rules[R_FURY_SECOND_TURN], w)
        else:
            play_turn(i, w)
            settle(w)
        if on_grid(bf):
            call(rules[PR_AFTER_TURN], i, 0, 0, w)  # mines; labyrinth: Pendulum (A44b)
    outcome = outcome_now(comb, rules, dyn)
    if outcome >= 0:
        return outcome
    if (comb[i, C_TMASK] >> E_EXTRA_TURN) & 1 != 0:  # Extra Action (extra_turns)
        if rules[R_EXTRA_TURN_AT] == 0:
            return extra_turns_now(i, w)
    return -1


@part
def round_end(r, order, m, w):
    """The end of round ``r``: Extra Action's turns (``extra_turn_at: round_end``, A32),
    a frenzy's second turn (A9v-a), the labyrinth's features. Returns the outcome (-1
    while the fight goes on). ``order[:m]``: who may still act (:func:`drop_the_dead`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    outcome = -1
    if rules[R_EXTRA_TURN_AT] == 1:
        for k in range(m):
            i = order[k]
            if (comb[i, C_TMASK] >> E_EXTRA_TURN) & 1 != 0:
                outcome = extra_turns_now(i, w)
                if outcome >= 0:
                    return outcome
    if rules[R_BURSTS] != BURSTS_COUNT:
        if rules[R_FURY_SECOND_TURN] == 0:  # the frenzy's second turn at the end of the round (A9v-a)
            for k in range(m):
                i = order[k]
                if frenzy_again(i, comb, rules, dyn):
                    outcome = frenzy_turns(i, 1, w)
                    if outcome >= 0:
                        return outcome
    if on_grid(bf):
        return call(rules[PR_END_OF_ROUND], r, 0, 0, w)  # labyrinth features
    return -1


@part
def fight_end(rounds, side_curve, comb_curve, w):
    """The end of the fight (``rounds`` played): Overcharge Radiation (L2047), the final
    state in the curves (plane 1), Resolve and standing at the end, the highest
    overcharge tiers (L153-161)."""
    comb, rules, dyn, streams, bf = unpack(w)
    n = comb.shape[0]
    radiating = False
    for j in range(n):
        if comb[j, C_TMASK2] != 0:
            if has_code(j, E_RADIATION, comb):
                radiating = True
    if radiating:  # Overcharge Radiation at the end of the scene (L2047)
        overcharge_radiation(w)
        if rules[R_BURSTS] != BURSTS_COUNT:
            settle(w)
    _record_round(rounds, 1, side_curve, comb_curve, w)
    for j in range(n):
        dyn[j, K_RES_END] += dyn[j, D_RES]
        if is_standing(dyn, j):
            dyn[j, K_STANDING_END] += 1
        if comb[j, C_MONSTER] == 0:
            count_tiers(j, dyn[j, D_OC], dyn[j, D_OC + 1], dyn[j, D_OC + 2], comb, rules, dyn)


@pjit
def simulate_blocks(comb, rules, key, start, count, nblocks,
                    fights, rounds_hist, side_curve, comb_curve, ccount):
    """Play trials ``start .. start+count-1`` in ``nblocks`` blocks (prange).

    Trial ``t`` seeds its four streams from ``(key, t, purpose)``, so the
    result does not depend on how trials are split over threads or blocks.
    Counters have a leading block axis and are summed by the caller:
    ``fights[nb, NF]``, ``rounds_hist[nb, cap+1]``, ``side_curve[nb, 2, 2, cap+1]``,
    ``comb_curve[nb, n, 2, cap+1]``, ``ccount[nb, n, NDYN]`` (each block's ``dyn``: its
    counters ``K_*`` are the block's sums).
    """
    n = comb.shape[0]
    per = (count + nblocks - 1) // nblocks
    for b in numba.prange(nblocks):
        dyn = ccount[b]  # counters (K_*) accumulate over the block's trials; reset sets the state (D_*)
        order = np.zeros(n, dtype=np.int64)
        ikey = np.zeros(n, dtype=np.int64)
        streams = np.zeros((NS, STATE_WORDS), dtype=np.uint64)
        bf = no_field()
        wbuf = np.zeros(WORLD_WORDS, dtype=np.int64)
        w = pack(comb, rules, dyn, streams, bf, wbuf)
        lo = b * per
        hi = min(count, lo + per)
        for t in range(lo, hi):
            trial = start + t
            for p in range(NS):
                seed_stream(streams[p], key, trial, p)
            reset(comb, rules, dyn)
            outcome, rounds = fight(order, ikey, side_curve[b], comb_curve[b], w)
            fights[b, outcome] += 1
            fights[b, F_ROUNDS] += rounds
            rounds_hist[b, rounds] += 1
        keep(bf)  # the world's arrays and buffer live until its last use (world.keep)
        keep(wbuf)
