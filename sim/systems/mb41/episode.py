"""Episodes: several scenes with rests between them (schema ``episode:``).

An episode plays on a stacked combatant array: scene s occupies rows
``off[s] .. off[s+1]-1``, the party's ``ng`` girls first (the same girls, in the
same order, in every block), then that scene's enemies. Each block is an
ordinary fight; between scenes :func:`next_scene` copies the party's state rows
into the next block and resets only the per-scene columns (``SCENE_COLUMNS``):
wounds, overcharge, per-episode uses and bonds carry over (A18).
"""
from __future__ import annotations

import numba
import numpy as np

from sim._jit import kernel, pjit
from sim.dice import sum_d6
from sim.rng import STATE_WORDS, seed_stream
from sim.trial_rows import after_scenes, before_scenes, scenes_note_size

from .codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from .layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from .world import WORLD_WORDS, no_field, pack, unpack
from .damage import wound_levels
from .fight import fight_on
from .state import is_standing, reset, reset_row, scene_state, side_alive


@kernel
def scene_columns(i, w):
    """Reset girl ``i``'s per-scene columns (``SCENE_COLUMNS``) for a new scene
    whose static row is ``comb[i]``; overcharge and per-episode talent uses by
    rule (``scene_overcharge``, ``episode_uses``)."""
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[i, D_REVIVES] = 0
    dyn[i, D_BOOSTS] = comb[i, C_BOOSTS]  # Boost: 3/Scene (L1565)
    dyn[i, D_KO] = 0
    for s in range(3):
        dyn[i, D_BURST_TRIAL + s] = 0
        dyn[i, D_AIL + s] = 0  # ailments end with the scene (A25)
    if rules[R_SCENE_OVERCHARGE] == 1:
        for s in range(3):
            dyn[i, D_OC + s] = comb[i, C_OC0 + s]
            dyn[i, D_BURSTED + s] = 0
    for s in range(MAXT):
        if (comb[i, C_TEPISODE] >> s) & 1 == 0:
            dyn[i, D_TUSES + s] = comb[i, C_TUSES + s]
        elif rules[R_EPISODE_USES] == 1:
            dyn[i, D_TUSES + s] = comb[i, C_TUSES + s]
    scene_state(i, w)


@kernel
def next_scene(prev, a, e, ng, recover, party, w):
    """Set up the block ``a .. e-1`` after the scene in the block starting at
    ``prev``: fresh enemies; the party carried over, then the rest.

    For every living girl, in this order: her maximum Resolve after the wound
    penalty (``wound_penalty``: 1d6 per wound level, or per wound, minus
    Tenacity, rolled for the levels she gained since the last roll, L1443,
    A18; not below ``min_max_resolve``; written to ``comb[i, C_RES]``, the
    block's copy); a downed girl's pending revive (``scene_downed``);
    Resolve carried and capped or refilled (``scene_resolve``); then
    ``recover`` uses of Recover (1d6+2, never above the penalised maximum,
    L1571; at most ``recover_uses`` per episode) while below the maximum.
    Dice from the setup stream.
    """
    comb, rules, dyn, streams, bf = unpack(w)
    st = streams[S_SETUP]
    for i in range(a + ng, e):
        reset_row(i, w)
    for g in range(ng):
        p = prev + g
        i = a + g
        for c in range(NK, NDYN):  # her state (D_*), not the row's own counters
            dyn[i, c] = dyn[p, c]
        comb[i, C_RES] = comb[p, C_RES]
        pending = dyn[i, D_PENDING]
        dyn[i, D_PENDING] = -1
        scene_columns(i, w)
        if dyn[i, D_DEAD] != 0:
            continue
        if comb[i, C_MONSTER] == 0:
            # the wound penalty to her maximum Resolve (A18)
            if rules[R_WOUND_PENALTY] != 2:
                if rules[R_WOUND_PENALTY] == 0:
                    levels = wound_levels(i, False, w)  # by the wound model (A16)
                else:
                    levels = dyn[i, D_WOUND_HITS]
                if levels > dyn[i, D_PEN_LEVELS]:
                    dyn[i, D_PEN_DICE] += sum_d6(st, levels - dyn[i, D_PEN_LEVELS])
                    dyn[i, D_PEN_LEVELS] = levels
                pen = dyn[i, D_PEN_DICE] - comb[g, C_TEN]
                if pen < 0:
                    pen = 0
                top = comb[g, C_RES] - pen
                if top < rules[R_MIN_MAX_RESOLVE]:
                    top = rules[R_MIN_MAX_RESOLVE]
                comb[i, C_RES] = top
        top = comb[i, C_RES]
        if dyn[i, D_RES] <= 0:
            if rules[R_SCENE_DOWNED] == 0:
                if pending >= 0:
                    dyn[i, D_RES] = pending
                elif pending == -2:
                    dyn[i, D_PENDING] = -2  # the draft: she rolls as her first Major action
        if rules[R_SCENE_RESOLVE] == 1:
            dyn[i, D_RES] = top
        elif dyn[i, D_RES] > top:
            dyn[i, D_RES] = top
        if comb[i, C_MONSTER] != 0:
            continue
        for k in range(recover):
            if dyn[i, D_RES] >= top:
                break
            if rules[R_RECOVER_USES] >= 0:
                if dyn[i, D_RECOVERS] >= rules[R_RECOVER_USES]:
                    break
            gain = sum_d6(st, rules[R_RECOVER]) + rules[R_RECOVER + 1]
            if gain > top - dyn[i, D_RES]:
                gain = top - dyn[i, D_RES]
            dyn[i, D_RES] += gain
            dyn[i, D_RECOVERS] += 1
            party[g, PE_RECOVERS] += 1
            party[g, PE_RECOVERED] += gain


@kernel
def play_episode(cb, rules, off, ng, recover, dyn, order, ikey, streams,
                 fights, rounds_hist, scene_fights, scene_hist, side_curve, comb_curve, party, bf, wbuf):
    """One episode on seeded ``streams`` (:func:`simulate_episode_blocks`; the counters are one
    block's): the scenes in turn, each an ordinary fight (:func:`fight_on`, gridless when ``bf``
    is None, else on that battlefield, every scene deployed afresh from its own starting hexes:
    :func:`scene_state` reads the block's ``C_CELL``); between them :func:`next_scene`.
    ``wbuf``: int64[WORLD_WORDS x (scenes + 1)], a slot per scene's world and one for the
    whole episode's."""
    n_sc = off.shape[0] - 1
    # the whole stacked episode's world (the last slot of ``wbuf``): the rests between scenes
    # and the party's end read every block's rows
    wall = pack(cb, rules, dyn, streams, bf, wbuf[n_sc * WORLD_WORDS:(n_sc + 1) * WORLD_WORDS])
    total = 0
    result = F_WIN
    last = 0
    for s in range(n_sc):
        a = off[s]
        e = off[s + 1]
        if s > 0:
            next_scene(off[s - 1], a, e, ng, recover[s - 1], party, wall)
        # the scene's world, in its own slot of ``wbuf``: a world's words never change once
        # written (its loads are invariant, :func:`.world.unpack`)
        w = pack(cb[a:e], rules, dyn[a:e], streams, bf, wbuf[s * WORLD_WORDS:(s + 1) * WORLD_WORDS])
        if s == 0:
            reset(w)
        outcome, rounds = fight_on(order[:e - a], ikey[:e - a], side_curve[s], comb_curve[a:e], w)
        scene_fights[s, outcome] += 1
        scene_fights[s, F_ROUNDS] += rounds
        scene_hist[s, rounds] += 1
        total += rounds
        last = s
        if outcome == F_DRAW:
            result = F_DRAW
            if rules[R_EPISODE_DRAW] == 1:
                if side_alive(0, w):
                    continue
            break
        if outcome == F_LOSS:
            result = F_LOSS
            break
    fights[result] += 1
    fights[F_ROUNDS] += total
    rounds_hist[total] += 1
    a = off[last]
    for g in range(ng):
        i = a + g
        party[g, PE_RES_END] += dyn[i, D_RES]
        if is_standing(i, wall):
            party[g, PE_STANDING_END] += 1
        if dyn[i, D_DEAD] != 0:
            party[g, PE_DEAD] += 1
        party[g, PE_WOUNDS_END] += dyn[i, D_WOUNDS]
        party[g, PE_MAXRES_END] += cb[i, C_RES]
        party[g, PE_PENALTY_END] += cb[g, C_RES] - cb[i, C_RES]


@kernel(forceinline=True)
def episode_width(off):
    """The most rows any scene of an episode has (the size of the turn-order scratch)."""
    width = 0
    for s in range(off.shape[0] - 1):
        if off[s + 1] - off[s] > width:
            width = off[s + 1] - off[s]
    return width


@pjit
def simulate_episode_blocks(comb, rules, off, ng, recover, key, start, count, nblocks,
                            fights, rounds_hist, scene_fights, scene_hist, side_curve, comb_curve,
                            ccount, party, girls, cols, rows):
    """Play episodes ``start .. start+count-1`` in ``nblocks`` blocks (prange), gridless.

    ``comb``: the stacked rows (scene s in rows ``off[s] ..
    off[s+1]-1``, the ``ng`` party rows first); ``recover[s]``: Recover
    uses per girl in the rest after scene s. A trial is one episode: its
    streams are seeded once, and the scenes use them in turn. The episode
    ends after a scene the party does not win (``episode_draw`` lets a
    round-cap draw go on) or after the last scene (:func:`play_episode`;
    on a battlefield :func:`.hex.simulate_episode_blocks_grid`).

    Counters (leading block axis): ``fights[nb, NF]`` the episode's outcome
    (win = every scene won) and total rounds, ``rounds_hist[nb, S*cap+1]``
    its total rounds; per scene ``scene_fights[nb, S, NF]``,
    ``scene_hist[nb, S, cap+1]``, ``side_curve[nb, S, 2, 2, cap+1]``; per
    stacked row ``comb_curve[nb, N, 2, cap+1]``, ``ccount[nb, N, NDYN]`` (each block's ``dyn``); per
    party girl ``party[nb, ng, NPE]`` (the end of the episode).

    ``rows`` (int64 ``[count, NROW]``, or ``[0, NROW]`` for none, :func:`sim.trial_rows.none`):
    each trial's row, ``rows[t]`` for episode ``start + t`` (:func:`sim.trial_rows.after_scenes`:
    over the rows ``off[s] + girls`` of every scene, the party's ``0 .. ng-1``; counters
    ``cols``), what a study keeps of each trial. One kernel plays a run's counters and a
    study's rows: the same episodes, one compile.
    """
    width = episode_width(off)
    per = (count + nblocks - 1) // nblocks
    with_rows = rows.shape[0] > 0
    for b in numba.prange(nblocks):
        cb = comb.copy()  # the party's maximum Resolve per scene is written here
        dyn = ccount[b]  # counters (K_*) accumulate; reset and next_scene set the state (D_*)
        order = np.zeros(width, dtype=np.int64)
        ikey = np.zeros(width, dtype=np.int64)
        streams = np.zeros((NS, STATE_WORDS), dtype=np.uint64)
        note = np.zeros(scenes_note_size(off, girls), dtype=np.int64)
        bf = no_field()
        wbuf = np.zeros(WORLD_WORDS * off.shape[0], dtype=np.int64)  # a world per scene, one for the episode
        lo = b * per
        hi = min(count, lo + per)
        for t in range(lo, hi):
            trial = start + t
            for p in range(NS):
                seed_stream(streams[p], key, trial, p)
            if with_rows:
                before_scenes(fights[b], scene_fights[b], dyn, off, girls, cols, note)
            play_episode(cb, rules, off, ng, recover, dyn, order, ikey, streams, fights[b], rounds_hist[b],
                         scene_fights[b], scene_hist[b], side_curve[b], comb_curve[b], party[b], bf, wbuf)
            if with_rows:
                after_scenes(fights[b], scene_fights[b], dyn, off, girls, cols, note, rows[t])
