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
from .gates import T_BACK, T_EXTRA_TURNS, T_ROUND_EFFECTS, T_ROUND_START, T_SCENE_END
from .points import every, holds, total
from .world import WORLD_WORDS, call, gridless, keep, no_field, on_grid, pack, unpack
from .ailments import bleed
from .bursts import settle
from .damage import revive_roll
from .overcharge import check_bursts, count_tiers
from .state import is_standing, outcome_now, reset, waits
from .turn import frenzy_again, play_frenzied, play_turn
from sim.trial_rows import NOTE_FIXED, after, before


@kernel
def roll_initiative(order, key, w):
    """Fill ``order`` with combatant indices in acting order.

    'roll': 2d6 + Support (no explosion, no overcharge), higher first; ties
    by the higher Support stat, then at random (L1408, A11c).
    'listed': the order of the scenario file. ``key`` is int64[n] scratch. Dice from the
    setup stream.
    """
    comb, rules, dyn, streams, bf = unpack(w)
    st = streams[S_SETUP]
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
        if not is_standing(i, w):
            continue
        dyn[i, D_AMBUSH] = 1
        play_turn(i, w)
        dyn[i, D_AMBUSH] = 0
        settle(w)
        outcome = outcome_now(w)
    return outcome


@kernel
def extra_turns_now(i, w):
    """Extra Action (L1979): ``i`` takes its extra turns of this round (if
    standing; on the battlefield ``bf`` when there is one); returns the
    fight's outcome after them, -1 while it goes on."""
    comb, rules, dyn, streams, bf = unpack(w)
    k = total(T_EXTRA_TURNS, i, i, 0, w)
    outcome = -1
    for e in range(k):
        if not is_standing(i, w):
            break
        play_turn(i, w)
        settle(w)
        outcome = outcome_now(w)
        if outcome >= 0:
            break
    return outcome


@kernel
def frenzy_turns(i, k, w):
    """Up to ``k`` frenzy turns of ``i`` (:func:`.turn.play_frenzied`: the frenzy's start, then
    her one turn with the frenzy's choices), each settled;
    stops when the frenzy ends, she falls or the fight is decided. Returns
    the outcome (-1 while it goes on)."""
    comb, rules, dyn, streams, bf = unpack(w)
    outcome = -1
    for _ in range(k):
        if not frenzy_again(i, w):
            break
        play_frenzied(i, w)
        settle(w)
        outcome = outcome_now(w)
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
        if is_standing(j, w):
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

    The world's battlefield ``bf`` has no cells without a grid (:func:`.world.no_field`); on the
    hex grid positions are in ``D_POS`` and the turn is the geometry's (``PR_TURN``).

    Curves: ``side_curve[s, 0, r]`` / ``comb_curve[j, 0, r]`` count fights
    still running after round r in which side s had someone standing /
    combatant j stood; plane 1 counts the final state of fights that ended in
    round r. Standing at the end of round r is plane 0 at r plus plane 1
    summed over rounds <= r (:func:`sim.curves.standing_curves` does this), which
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
            m = drop_the_dead(order, m, w)
    fight_end(rounds, side_curve, comb_curve, w)
    if outcome < 0:
        outcome = F_DRAW
    return outcome, rounds


@kernel(forceinline=True)
def drop_the_dead(order, m, w):
    """Remove the dead from ``order[:m]``, keeping the others' order; the new ``m``.

    Only a listed row leaves: a dead one never takes a turn or acts again (nothing
    clears ``D_DEAD`` in a fight but :func:`.state.appear`, and that only for a reserve
    row, ``C_SPAWN_KIND``, which therefore stays). Every later round would skip the
    dead anyway (:func:`turn_of`, :func:`round_end`); this skips them once."""
    comb, rules, dyn, streams, bf = unpack(w)
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
        check_bursts(j, w)
    if not gridless(rules):  # everyone to her starting place, the auras by place
        call(rules[PR_START], 0, 0, 0, w)
    settle(w)
    roll_initiative(order, key, w)
    masks = comb[0, C_SIDEMASK] | comb[n - 1, C_SIDEMASK]  # the two sides' masks (reserve rows: any side last)
    if comb[n - 1, C_SPAWN_KIND] != 0:
        for j in range(n):
            masks |= comb[j, C_TMASK]
    if (masks >> E_AMBUSH) & 1 != 0:
        return ambush_turns(order, w)
    return -1


@kernel(forceinline=True)
def round_effects(j, w):
    """ROUND_EFFECTS of ``j`` at the start of a round, after Bleed (the draft's Regeneration
    and Hexes); True when one dealt damage."""
    return total(T_ROUND_EFFECTS, j, j, 0, w) != 0


@part
def round_start(w):
    """The start of a round: Shrug Off, Bleed (L1465), the draft's Hexes and Regeneration;
    what they set off is settled. Returns the outcome (-1 while the fight goes on)."""
    comb, rules, dyn, streams, bf = unpack(w)
    bled = False
    for j in range(comb.shape[0]):
        every(T_ROUND_START, j, j, 0, w)  # Shrug Off
        if dyn[j, D_AIL + A_BLEED] != 0:
            bleed(j, w)
            bled = True
        if round_effects(j, w):  # the draft's Regeneration and Hexes
            bled = True
    if bled:
        settle(w)
        return outcome_now(w)
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
    if waits(i, r, w):
        return -1
    acts = True
    if dyn[i, D_RES] <= 0:
        if dyn[i, D_PENDING] == -1:
            return -1
        if dyn[i, D_PENDING] == -2:
            revive_roll(i, w)
            check_bursts(i, w)
            acts = False
        back = dyn[i, D_PENDING]
        dyn[i, D_RES] = back if back < comb[i, C_RES] else comb[i, C_RES]
        dyn[i, D_PENDING] = -1
        every(T_BACK, i, i, 0, w)  # standing again: her Courage Aura is back
        if rules[R_BURST_WHILE_DOWN] == 1:  # a burst held while she was down (L1420) happens now
            check_bursts(i, w)
            settle(w)
    outcome = -1
    if acts:
        if dyn[i, D_FRENZY] != 0:
            outcome = frenzy_turns(i, 1 + rules[R_FURY_SECOND_TURN], w)
        else:
            play_turn(i, w)
            settle(w)
        if on_grid(bf):
            call(rules[PR_AFTER_TURN], i, 0, 0, w)  # mines; labyrinth: Pendulum (A44b)
    outcome = outcome_now(w)
    if outcome >= 0:
        return outcome
    if rules[R_EXTRA_TURN_AT] == 0:
        if holds(T_EXTRA_TURNS, i, i, w):  # Extra Action
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
            if holds(T_EXTRA_TURNS, i, i, w):  # Extra Action
                outcome = extra_turns_now(i, w)
                if outcome >= 0:
                    return outcome
    if rules[R_BURSTS] != BURSTS_COUNT:
        if rules[R_FURY_SECOND_TURN] == 0:  # the frenzy's second turn at the end of the round (A9v-a)
            for k in range(m):
                i = order[k]
                if frenzy_again(i, w):
                    outcome = frenzy_turns(i, 1, w)
                    if outcome >= 0:
                        return outcome
    if on_grid(bf):
        return call(rules[PR_END_OF_ROUND], r, 0, 0, w)  # labyrinth features
    return -1


@part
def scene_end(w):
    """SCENE_END of each combatant in turn (Overcharge Radiation, L2047); True when a hook
    played (what it made due is settled by the caller)."""
    comb, rules, dyn, streams, bf = unpack(w)
    played = False
    for m in range(comb.shape[0]):
        if holds(T_SCENE_END, m, m, w):
            every(T_SCENE_END, m, m, 0, w)
            played = True
    return played


@part
def fight_end(rounds, side_curve, comb_curve, w):
    """The end of the fight (``rounds`` played): Overcharge Radiation (L2047), the final
    state in the curves (plane 1), Resolve and standing at the end, the highest
    overcharge tiers (L153-161)."""
    comb, rules, dyn, streams, bf = unpack(w)
    n = comb.shape[0]
    if scene_end(w):  # Overcharge Radiation at the end of the scene (L2047)
        if rules[R_BURSTS] != BURSTS_COUNT:
            settle(w)
    _record_round(rounds, 1, side_curve, comb_curve, w)
    for j in range(n):
        dyn[j, K_RES_END] += dyn[j, D_RES]
        if is_standing(j, w):
            dyn[j, K_STANDING_END] += 1
        if comb[j, C_MONSTER] == 0:
            count_tiers(j, dyn[j, D_OC], dyn[j, D_OC + 1], dyn[j, D_OC + 2], w)


@pjit
def simulate_blocks(comb, rules, key, start, count, nblocks,
                    fights, rounds_hist, side_curve, comb_curve, ccount, girls, cols, rows):
    """Play trials ``start .. start+count-1`` in ``nblocks`` blocks (prange).

    Trial ``t`` seeds its four streams from ``(key, t, purpose)``, so the
    result does not depend on how trials are split over threads or blocks.
    Counters have a leading block axis and are summed by the caller:
    ``fights[nb, NF]``, ``rounds_hist[nb, cap+1]``, ``side_curve[nb, 2, 2, cap+1]``,
    ``comb_curve[nb, n, 2, cap+1]``, ``ccount[nb, n, NDYN]`` (each block's ``dyn``: its
    counters ``K_*`` are the block's sums).

    ``rows`` (int64 ``[count, NROW]``, or ``[0, NROW]`` for none, :func:`sim.trial_rows.none`):
    each trial's row, ``rows[t]`` for trial ``start + t`` (:mod:`sim.trial_rows`, over the
    combatants ``girls``, counters ``cols``), what a study keeps of each trial. One kernel
    plays a run's counters and a study's rows: the same trials, one compile.
    """
    n = comb.shape[0]
    per = (count + nblocks - 1) // nblocks
    with_rows = rows.shape[0] > 0
    for b in numba.prange(nblocks):
        dyn = ccount[b]  # counters (K_*) accumulate over the block's trials; reset sets the state (D_*)
        order = np.zeros(n, dtype=np.int64)
        ikey = np.zeros(n, dtype=np.int64)
        streams = np.zeros((NS, STATE_WORDS), dtype=np.uint64)
        note = np.zeros(NOTE_FIXED + 3 * girls.shape[0], dtype=np.int64)
        bf = no_field()
        wbuf = np.zeros(WORLD_WORDS, dtype=np.int64)
        w = pack(comb, rules, dyn, streams, bf, wbuf)
        lo = b * per
        hi = min(count, lo + per)
        for t in range(lo, hi):
            trial = start + t
            for p in range(NS):
                seed_stream(streams[p], key, trial, p)
            reset(w)
            if with_rows:
                before(fights[b], dyn, girls, cols, note)
            outcome, rounds = fight(order, ikey, side_curve[b], comb_curve[b], w)
            fights[b, outcome] += 1
            fights[b, F_ROUNDS] += rounds
            rounds_hist[b, rounds] += 1
            if with_rows:
                after(fights[b], dyn, girls, cols, False, note, rows[t])
        keep(bf)  # the world's arrays and buffer live until its last use (world.keep)
        keep(wbuf)
