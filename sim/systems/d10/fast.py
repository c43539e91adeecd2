"""The 1v1 duel fast path of the d10 kernel: same fight, same dice, no general machinery.

:func:`duel` plays the fights the general kernel's plain turn plays
(:func:`.kernel.take_turn_plain`) when they are a single duel:

* two combatants present from the start, one per side, a plain fight
  (:func:`.compile.is_plain`: no powers, no non-dice perks, one target);
* one fight per trial (``episodes`` and ``fights_per_episode`` 1);
* policies without augmentation, stunts, Fortune or Recharge (mana stays
  full, so a Recharge level at or below her mana never fires), and a defence
  other than Magic Block (its mana has no use in a plain duel but is
  counted);
* any mode (cake/grim), initiative, round cap, thresholds and their
  penalties, penalty order, damage formula, minimum wounds, DR, Parry
  wounds and permanent-wound rules.

:func:`eligible` lists what stands in the way; ``simulate`` uses the fast
path when it can. It draws the same dice from the same streams in the same
order as the general kernel and calls its rare paths
(:func:`.kernel.apply_wounds` when a pool fills, with permanent wounds and
taking out), so every counter is bit-identical (``tests/test_d10_fast.py``
compares random runs and scripted fights). What a fight changes lives in
local variables (suffix 0 for the first to act, 1 for the second) and
reaches ``dyn``/``cc`` only around a rare path and at the end.

Per-round curves need no per-round work: until the fight ends both stand,
so "still running after round r" is a suffix sum of the rounds histogram.
"""
from __future__ import annotations

import numba
import numpy as np

from sim._jit import kernel, pjit
from sim.curves import add_duel_block
from sim.rng import STATE_WORDS, randbelow_inline, seed_stream_inline

from sim.systems import duel_shape
from sim.trial_rows import NOTE_FIXED, after, before

from . import kernel as K

#: 10**k for the pool sizes the table draws in one number (k <= K.CHUNK), and
#: where the table's entries for k dice start
_POW10 = np.array([10 ** k for k in range(K.CHUNK + 1)], dtype=np.int64)
_OFF = np.array([(10 ** k - 1) // 9 for k in range(K.CHUNK + 1)], dtype=np.int64)


def eligible(inputs) -> list[str]:
    """Why ``inputs`` cannot take the d10 duel fast path; empty if it can."""
    comb, pol, rules = inputs.comb, inputs.pol, inputs.rules
    why = duel_shape(comb[:, K.C_SIDE])
    if not inputs.plain:
        why.append("a plain fight (no powers, non-dice perks or special actions)")
    if int(rules[K.R_EPISODES]) != 1 or int(rules[K.R_FIGHTS_PER_EPISODE]) != 1:
        why.append("one fight per trial")
    for i in range(comb.shape[0]):
        if comb[i, K.C_START] == 0 or comb[i, K.C_KIND] in (K.KIND_COPY, K.KIND_FAMILIAR):
            why.append("both present from the start")
        if pol[i, K.P_AUG] != 0 or pol[i, K.P_STUNT] != 0:
            why.append("no augmentation or stunt dice")
        if pol[i, K.P_FORTUNE] != K.FORT_NEVER:
            why.append("no Fortune")
        # Recharge happens when mana is below the policy's level (L113); without
        # augmentation, powers or Block her mana stays full all fight
        if 0 < comb[i, K.C_MANA] < pol[i, K.P_RECHARGE]:
            why.append("no Recharge")
    if comb.shape[0] == 2 and not why:
        for i in range(2):
            t = 1 - i
            dt = _defence(comb, pol, t, int(comb[i, K.C_ATK]))
            if dt == K.T_BLOCK:
                why.append("no Magic Block")
    return sorted(set(why))


def _defence(comb, pol, t, kind) -> int:
    """:func:`.kernel.defence_choice` in Python (it reads no state); the plain
    function itself when numba is off (``NUMBA_DISABLE_JIT=1``)."""
    fn = getattr(K.defence_choice, "py_func", K.defence_choice)
    return int(fn(comb, pol, None, None, t, kind))


@kernel(inline="always")
def _pool(chk, n, tab, rules):
    """:func:`.kernel.roll_pool` for ``n <= CHUNK`` on a random stream, inline."""
    if n <= 0:
        return 0
    if chk[6] == 0:
        if n <= K.CHUNK:
            return np.int64(tab[_OFF[n] + randbelow_inline(chk, _POW10[n])])
    return K.roll_pool(chk, n, tab, rules)


@kernel(inline="always")
def _dice(ab, bonus, pen, order):
    """:func:`.kernel.pool_size`: ability dice ``ab``, bonus dice, penalty ``pen``."""
    if order == 0:
        n = ab + bonus - pen
    else:
        a = ab - pen
        if a < 0:
            a = 0
        n = a + bonus
    if n < 0:
        n = 0
    return n


@kernel(inline="always")
def _band(w, t1, t2, t3):
    return np.int64(w >= t1) + np.int64(w >= t2) + np.int64(w >= t3)


@kernel
def start(comb, rules, dyn, cc):
    """A trial's start, as :func:`.kernel.campaign` makes it for one fight
    (it counts the fight in ``K_FIGHTS``)."""
    K.start_campaign(comb, dyn)
    K.start_episode(comb, rules, dyn, True)
    K.start_fight(comb, dyn, cc, True)


@kernel
def _wound(comb, rules, dyn, streams, cc, t, w, wt, mb, mbf):
    """A rare path: ``w`` wounds that fill ``t``'s pool, through
    :func:`.kernel.apply_wounds` (take-out, permanent wounds; it counts the
    wounds taken in ``cc`` itself). ``wt``: her wounds so far; ``mb``/``mbf``:
    the highest band reached / already counted in ``cc``. Returns ``(wounds
    dealt, wounds now, band reached)``; the bands are all counted in ``cc``
    afterwards."""
    for lv in range(mbf + 1, mb + 1):
        cc[t, K.K_BAND + lv - 1] += 1
    dyn[t, K.D_W] = wt
    dyn[t, K.D_MAXBAND] = mb
    dealt = K.apply_wounds(comb, rules, dyn, streams, cc, t, w)
    return dealt, dyn[t, K.D_W], dyn[t, K.D_MAXBAND]


@kernel
def pool_sizes(comb, pol, rules, sizes):
    """Fill ``sizes[c, 0, w]`` / ``sizes[c, 1, w]``: the attack pool of
    combatant ``c`` / her defence pool against the other's attack, with ``w``
    wounds taken (:func:`.kernel.pool_size`: threshold penalties, penalty
    order; nothing else changes a pool in an eligible duel)."""
    porder = rules[K.R_PENALTY_ORDER]
    for c in range(2):
        kind = comb[c, K.C_ATK]
        ab = K.STR
        if kind == K.ATK_RANGED:
            ab = K.AGI
        elif kind >= K.ATK_MYSTIC:
            ab = K.MAG
        dt = K.defence_choice(comb, pol, rules, comb, c, comb[1 - c, K.C_ATK])  # (reads no state)
        for w in range(sizes.shape[2]):
            b = _band(w, comb[c, K.C_T1], comb[c, K.C_T2], comb[c, K.C_T3])
            pen = 0
            if b > 0:
                pen = rules[K.R_THRESHOLD_PENALTIES + b - 1]
            sizes[c, 0, w] = _dice(comb[c, K.C_DICE + ab], comb[c, K.C_BONUS + kind], pen, porder)
            sizes[c, 1, w] = _dice(comb[c, K.C_DICE + K.defence_ability(dt)], comb[c, K.C_BONUS + dt], pen, porder)


@kernel(forceinline=True)
def _land(comb, rules, dyn, streams, cc, c, w, wc, wmax, t1, t2, t3, mb, mbf):
    """``w`` wounds land on ``c`` (holding ``wc`` of ``wmax``; threshold
    bands at ``t1..t3``).  Below her maximum they only add up (and raise the
    highest band ``mb``); at it the general kernel's wound step decides.
    Returns ``(dealt, taken, wc, mb, mbf, out)``: ``taken`` counts the wounds
    the counters have not yet seen (the wound step counts its own)."""
    if w < wmax - wc:
        wc += w
        b = _band(wc, t1, t2, t3)
        if b > mb:
            mb = b
        return w, w, wc, mb, mbf, False
    got, wc, mb = _wound(comb, rules, dyn, streams, cc, c, w, wc, mb, mbf)
    return got, 0, wc, mb, mb, dyn[c, K.D_OUT] != K.OUT_IN


@kernel(inline="always")
def duel(comb, pol, rules, tab, dyn, order, ikey, streams, cc, chk, sizes):
    """Play one eligible duel from the state :func:`start` left; ``chk`` is
    the check stream (``streams[S_CHECK]`` or a copy of it); ``sizes`` the
    pool sizes by wounds (:func:`pool_sizes`).

    Returns ``(outcome, rounds, c0, w0, w1, out0, out1, attacks0, attacks1,
    hits0, hits1, dealt0, dealt1, taken0, taken1, parry0, parry1, mb0, mbf0,
    mb1, mbf1)``: per slot (0 = first to act) the wounds at the end, whether
    she is out, attacks, hits, wounds dealt (hits and Parry) and taken, Parry
    wounds she dealt, the highest threshold band reached and how many of
    those bands ``cc`` already counts.
    """
    cap = rules[K.R_ROUND_CAP]
    base = 1 if rules[K.R_DAMAGE_FORMULA] == 0 else 0
    min_w = rules[K.R_MIN_WOUNDS]
    pw = rules[K.R_PARRY_WOUNDS]
    K.roll_initiative(comb, rules, tab, dyn, streams[K.S_SETUP], order, ikey)
    c0 = order[0]
    c1 = 1 - c0
    # the defence each meets (static in a plain duel): Parry wounds the attacker on a full miss
    dt1 = K.defence_choice(comb, pol, rules, dyn, c1, comb[c0, K.C_ATK])
    dt0 = K.defence_choice(comb, pol, rules, dyn, c0, comb[c1, K.C_ATK])
    parry1 = pw * np.int64(dt1 == K.T_PARRY)  # wounds c1's Parry deals c0 on a full miss
    parry0 = pw * np.int64(dt0 == K.T_PARRY)
    wmax0 = comb[c0, K.C_WMAX]
    wmax1 = comb[c1, K.C_WMAX]
    ta0 = comb[c0, K.C_T1]
    tb0 = comb[c0, K.C_T2]
    tc0 = comb[c0, K.C_T3]
    ta1 = comb[c1, K.C_T1]
    tb1 = comb[c1, K.C_T2]
    tc1 = comb[c1, K.C_T3]
    dr0 = comb[c0, K.C_DR]
    dr1 = comb[c1, K.C_DR]
    w0 = 0
    w1 = 0
    out0 = False
    out1 = False
    mb0 = mbf0 = mb1 = mbf1 = 0
    att0 = att1 = hit0 = hit1 = dealt0 = dealt1 = taken0 = taken1 = pd0 = pd1 = 0
    outcome = K.F_DRAW
    rounds = cap
    for r in range(1, cap + 1):
        for k in range(2):
            if k == 0:
                # the first to act attacks the second
                a = _pool(chk, sizes[c0, 0, w0], tab, rules)
                d = _pool(chk, sizes[c1, 1, w1], tab, rules)
                att0 += 1
                if a >= d:
                    hit0 += 1
                    w = base + a - d - dr1
                    if w < min_w:
                        w = min_w
                    if w > 0:
                        if w < wmax1 - w1:  # the common case: wounds add up
                            w1 += w
                            taken1 += w
                            dealt0 += w
                            mb1 = max(mb1, _band(w1, ta1, tb1, tc1))
                        else:
                            got, _, w1, mb1, mbf1, out1 = _land(
                                comb, rules, dyn, streams, cc, c1, w, w1, wmax1, ta1, tb1, tc1, mb1, mbf1)
                            dealt0 += got
                elif parry1 > 0:
                    got, tk, w0, mb0, mbf0, out0 = _land(
                        comb, rules, dyn, streams, cc, c0, parry1, w0, wmax0, ta0, tb0, tc0, mb0, mbf0)
                    dealt1 += got
                    pd1 += got
                    taken0 += tk
            else:
                # the second attacks the first
                a = _pool(chk, sizes[c1, 0, w1], tab, rules)
                d = _pool(chk, sizes[c0, 1, w0], tab, rules)
                att1 += 1
                if a >= d:
                    hit1 += 1
                    w = base + a - d - dr0
                    if w < min_w:
                        w = min_w
                    if w > 0:
                        if w < wmax0 - w0:  # the common case: wounds add up
                            w0 += w
                            taken0 += w
                            dealt1 += w
                            mb0 = max(mb0, _band(w0, ta0, tb0, tc0))
                        else:
                            got, _, w0, mb0, mbf0, out0 = _land(
                                comb, rules, dyn, streams, cc, c0, w, w0, wmax0, ta0, tb0, tc0, mb0, mbf0)
                            dealt1 += got
                elif parry0 > 0:
                    got, tk, w1, mb1, mbf1, out1 = _land(
                        comb, rules, dyn, streams, cc, c1, parry0, w1, wmax1, ta1, tb1, tc1, mb1, mbf1)
                    dealt0 += got
                    pd0 += got
                    taken1 += tk
            if out0 | out1:
                break
        if out0 | out1:
            rounds = r
            if out0:
                if out1:
                    outcome = K.F_DRAW
                else:
                    outcome = K.F_WIN if comb[c1, K.C_SIDE] == 0 else K.F_LOSS
            else:
                outcome = K.F_WIN if comb[c0, K.C_SIDE] == 0 else K.F_LOSS
            break
    return (outcome, rounds, c0, w0, w1, out0, out1, att0, att1, hit0, hit1, dealt0, dealt1,
            taken0, taken1, pd0, pd1, mb0, mbf0, mb1, mbf1)


@kernel(inline="always")
def _count(cc, c, w, out, att, hit, dealt, taken, pd, mb, mbf, dt):
    """Add one duel's counters of combatant ``c`` (defending with ``dt``)."""
    cc[c, K.K_ATTACKS] += att
    cc[c, K.K_TARGETED] += att
    cc[c, K.K_HITS] += hit
    cc[c, K.K_DEALT] += dealt
    cc[c, K.K_TAKEN] += taken
    cc[c, K.K_PARRY_WOUNDS] += pd
    for lv in range(mbf + 1, mb + 1):
        cc[c, K.K_BAND + lv - 1] += 1
    cc[c, K.K_WOUNDS_END] += w
    if not out:
        cc[c, K.K_STANDING_END] += 1


@kernel
def campaign(comb, pol, rules, tab, dyn, order, key, streams, cc, side_curve, comb_curve, fights_out, plain,
             sizes):
    """The fast path as a drop-in for :func:`.kernel.campaign` (same arguments and
    effects) for eligible duels, plus ``sizes`` (:func:`pool_sizes`);
    streams are used in place, so injected dice work (the tests play it
    against the general kernel)."""
    cap = rules[K.R_ROUND_CAP]
    start(comb, rules, dyn, cc)
    (outcome, rounds, c0, w0, w1, out0, out1, a0, a1, h0, h1, d0, d1, t0, t1, p0, p1,
     mb0, mbf0, mb1, mbf1) = duel(comb, pol, rules, tab, dyn, order, key, streams, cc, streams[K.S_CHECK], sizes)
    c1 = 1 - c0
    _finish(comb, pol, rules, dyn, cc, c0, c1, w0, w1, out0, out1, a0, a1, h0, h1, d0, d1, t0, t1, p0, p1,
            mb0, mbf0, mb1, mbf1)
    fights_out[0] += 1
    stand0 = not out0
    stand1 = not out1
    if stand0:
        comb_curve[c0, 1, rounds] += 1
        side_curve[comb[c0, K.C_SIDE], 1, rounds] += 1
    if stand1:
        comb_curve[c1, 1, rounds] += 1
        side_curve[comb[c1, K.C_SIDE], 1, rounds] += 1
    for r in range(1, min(rounds, cap)):
        for j in range(2):
            comb_curve[j, 0, r] += 1
            side_curve[j, 0, r] += 1
    return outcome, rounds


@kernel(inline="always")
def _finish(comb, pol, rules, dyn, cc, c0, c1, w0, w1, out0, out1, a0, a1, h0, h1, d0, d1, t0, t1, p0, p1,
            mb0, mbf0, mb1, mbf1):
    """Counters and final state of one duel (``dyn`` as the general kernel leaves it)."""
    dt1 = K.defence_choice(comb, pol, rules, dyn, c1, comb[c0, K.C_ATK])
    dt0 = K.defence_choice(comb, pol, rules, dyn, c0, comb[c1, K.C_ATK])
    cc[c1, K.K_DEFENCES + dt1 - K.T_DODGE] += a0
    cc[c0, K.K_DEFENCES + dt0 - K.T_DODGE] += a1
    _count(cc, c0, w0, out0, a0, h0, d0, t0, p0, mb0, mbf0, dt0)
    _count(cc, c1, w1, out1, a1, h1, d1, t1, p1, mb1, mbf1, dt1)
    dyn[c0, K.D_W] = w0
    dyn[c1, K.D_W] = w1
    dyn[c0, K.D_MAXBAND] = mb0
    dyn[c1, K.D_MAXBAND] = mb1


@pjit
def simulate_blocks(comb, pol, rules, tab, key, start_trial, count, nblocks, plain,
                    fights, rounds_hist, side_curve, comb_curve, ccount, girls, cols, rows):
    """:func:`.kernel.simulate_blocks` for eligible duels: same arguments, same counters, the
    same rows (``rows``: each trial's, :mod:`sim.trial_rows`; ``[0, NROW]`` for none).

    Streams: ``S_CHECK`` per trial, ``S_SETUP`` for rolled initiative,
    ``S_TABLE`` when permanent wounds are on; ``S_POLICY`` is never read in
    an eligible duel (one target, no stunts), so it is not seeded.
    """
    n = comb.shape[0]
    cap = rules[K.R_ROUND_CAP]
    rolled = rules[K.R_INITIATIVE] != 1
    perm = rules[K.R_PERMANENT_WOUNDS] == 1
    per = (count + nblocks - 1) // nblocks
    with_rows = rows.shape[0] > 0
    for b in numba.prange(nblocks):
        dyn = np.zeros((n, K.ND), dtype=np.int64)
        order = np.zeros(n, dtype=np.int64)
        ikey = np.zeros(n, dtype=np.int64)
        streams = np.zeros((K.NS, STATE_WORDS), dtype=np.uint64)
        note = np.zeros(NOTE_FIXED + 3 * girls.shape[0], dtype=np.int64)
        chk = np.zeros(STATE_WORDS, dtype=np.uint64)
        hist = np.zeros(cap + 1, dtype=np.int64)
        wm = 0
        for j in range(n):
            wm = max(wm, comb[j, K.C_WMAX])
        sizes = np.zeros((2, 2, wm + 1), dtype=np.int64)
        pool_sizes(comb, pol, rules, sizes)
        cc = ccount[b]
        lo = b * per
        hi = min(count, lo + per)
        for t in range(lo, hi):
            trial = start_trial + t
            seed_stream_inline(chk, key, trial, K.S_CHECK)
            if perm:
                seed_stream_inline(streams[K.S_TABLE], key, trial, K.S_TABLE)
            if rolled:
                seed_stream_inline(streams[K.S_SETUP], key, trial, K.S_SETUP)
            if with_rows:
                before(fights[b], cc, girls, cols, note)
            start(comb, rules, dyn, cc)
            (outcome, rounds, c0, w0, w1, out0, out1, a0, a1, h0, h1, d0, d1, t0, t1, p0, p1,
             mb0, mbf0, mb1, mbf1) = duel(comb, pol, rules, tab, dyn, order, ikey, streams, cc, chk, sizes)
            c1 = 1 - c0
            _finish(comb, pol, rules, dyn, cc, c0, c1, w0, w1, out0, out1, a0, a1, h0, h1, d0, d1, t0, t1,
                    p0, p1, mb0, mbf0, mb1, mbf1)
            fights[b, outcome] += 1
            fights[b, K.F_ROUNDS] += rounds
            hist[rounds] += 1
            if not out0:
                comb_curve[b, c0, 1, rounds] += 1
                side_curve[b, comb[c0, K.C_SIDE], 1, rounds] += 1
            if not out1:
                comb_curve[b, c1, 1, rounds] += 1
                side_curve[b, comb[c1, K.C_SIDE], 1, rounds] += 1
            if with_rows:
                after(fights[b], cc, girls, cols, True, note, rows[t])
        fights[b, K.F_FIGHTS] += hi - lo if hi > lo else 0
        # plane 0: fights still running after round r (< cap), where both stand
        add_duel_block(hist, rounds_hist[b], side_curve[b], comb_curve[b])
