"""Whole games (seed 004): seeding a game's streams, playing it to the end with each
side's policy, and the block kernel that plays many and sums their counters.

Game ``t`` seeds its streams from ``(key, t, purpose)``, so results do not
depend on how the games are split into blocks or threads.
"""
from __future__ import annotations

import numba
import numpy as np

from sim._jit import kernel, pjit
from sim.rng import STATE_WORDS, seed_stream

from .codes import *  # noqa: F401,F403 - the named values (T_*, OP_*, PH_*, K_*, EV_*...)
from .layout import *  # noqa: F401,F403 - the declared fields (G_, P_, SL_, CT_, R_, S_, PP_...)
from .players import choose
from .turn import advance, apply, legal
from .zones import init_game, pb


@kernel(inline="always")
def seed_game(st, key, t):
    for k in range(NST):
        seed_stream(st[k], key, t, k)


@kernel(inline="always")
def play_game(g, cd, rr, pol, st, w, rs, acts, acts2, rp, lg, scores, gh, kinds):
    """Play the game in ``g`` to the end; gems (halves) at the end of each turn go
    to ``gh[side, turn]``; decisions per side and action kind to ``kinds``."""
    advance(g, cd, rr, st, lg)
    last = g[G_TURN]
    while g[G_PHASE] != PH_OVER:
        p = g[G_TOMOVE]
        n = legal(g, cd, rr, acts)
        k = choose(g, cd, rr, pol, p, acts, n, st, w, rs, acts2, rp, lg, scores)
        kinds[p, acts[k] >> 8] += 1
        apply(g, cd, rr, acts[k], st, lg)
        t = g[G_TURN]
        if t != last:
            if last >= 0:
                for tt in range(last, t):
                    if tt < gh.shape[1]:
                        gh[0, tt] = g[pb(0) + P_GEMS]
                        gh[1, tt] = g[pb(1) + P_GEMS]
            last = t


@pjit
def simulate_blocks(cd, nd, dcnt, rr, pol, key, start, count, nb,
                    outc, rhist, seat, ends, gemc, cardc, kinds, decs, rows):
    """Play games ``start .. start+count-1`` split over ``nb`` prange blocks.

    Counters (int64, summed over trials), per block ``b``: ``outc[b, 3]`` side 0
    wins/losses/draws; ``rhist[b, cap+1]`` games ending on turn r;
    ``seat[b, 2, 3]`` side 0's outcomes when side ``f`` went first;
    ``ends[b, 3, NREASON]`` winner (0, 1, 2 = draw) by end reason;
    ``gemc[b, 2, cap+1]`` sum of gems (halves) held at the end of turn r (the
    final count carried on after a game ends); ``cardc[b, 2, MAXD, NCARDC]`` per
    side and card: games drawn / won when drawn / played / won when played /
    not drawn / won when not drawn / picked in setup / won when picked
    ("drawn" counts draws only, L13's setup picks are apart); ``kinds[b, 2, NKIND]`` decisions by action
    kind; ``decs[b, 2]`` decisions per side.

    ``rows``: int64 ``[count, 2]``, each game's outcome (0 side 0 won, 1 lost, 2 a draw) and
    the turn it ended on (capped), ``rows[t - start]`` for game ``t``; ``[0, 2]`` for none
    (what a study keeps of each game, :func:`sim.systems.cards.trials`).
    """
    cap = rr[R_TURN_CAP]
    with_rows = rows.shape[0] > 0
    for blk in numba.prange(nb):
        lo = start + (blk * count) // nb
        hi = start + ((blk + 1) * count) // nb
        g = np.zeros(NSTATE, dtype=np.int64)
        w = np.zeros(NSTATE, dtype=np.int64)
        st = np.zeros((NST, STATE_WORDS), dtype=np.uint64)
        rs = np.zeros((NST, STATE_WORDS), dtype=np.uint64)
        acts = np.zeros(MAXACT, dtype=np.int64)
        acts2 = np.zeros(MAXACT, dtype=np.int64)
        rp = np.zeros((2, NPP), dtype=np.int64)
        lg = np.zeros((1, LOGW), dtype=np.int64)
        scores = np.zeros(MAXACT, dtype=np.float64)
        gh = np.zeros((2, cap + 2), dtype=np.int64)
        kk = np.zeros((2, NKIND), dtype=np.int64)
        for t in range(lo, hi):
            seed_game(st, key, t)
            init_game(g, nd, dcnt)
            play_game(g, cd, rr, pol, st, w, rs, acts, acts2, rp, lg, scores, gh, kk)
            win = g[G_WINNER]
            turn = g[G_TURN]
            if turn > cap:
                turn = cap
            if win == 0:
                outc[blk, 0] += 1
            elif win == 1:
                outc[blk, 1] += 1
            else:
                outc[blk, 2] += 1
            rhist[blk, turn] += 1
            f = g[G_FIRST]
            seat[blk, f, 0 if win == 0 else (1 if win == 1 else 2)] += 1
            if with_rows:
                rows[t - start, 0] = 0 if win == 0 else (1 if win == 1 else 2)
                rows[t - start, 1] = turn
            ends[blk, win, g[G_REASON]] += 1
            for s in range(2):
                fin = g[pb(s) + P_GEMS]
                for tt in range(turn, cap + 1):
                    gh[s, tt] = fin
                for tt in range(1, cap + 1):
                    gemc[blk, s, tt] += gh[s, tt]
                    gh[s, tt] = 0
                won = 1 if win == s else 0
                for loc in range(nd[s]):
                    seen = g[pb(s) + P_SEEN + loc]
                    if seen & 1:
                        cardc[blk, s, loc, CC_DRAWN] += 1
                        cardc[blk, s, loc, CC_WON_DRAWN] += won
                    else:
                        cardc[blk, s, loc, CC_NOT_DRAWN] += 1
                        cardc[blk, s, loc, CC_WON_NOT_DRAWN] += won
                    if seen & 2:
                        cardc[blk, s, loc, CC_PLAYED] += 1
                        cardc[blk, s, loc, CC_WON_PLAYED] += won
                    if seen & 4:
                        cardc[blk, s, loc, CC_PICKED] += 1
                        cardc[blk, s, loc, CC_WON_PICKED] += won
                decs[blk, s] += g[G_DEC + s]
                for k in range(NKIND):
                    kinds[blk, s, k] += kk[s, k]
                    kk[s, k] = 0
