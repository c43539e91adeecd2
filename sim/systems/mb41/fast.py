"""The 1v1 duel fast path of the 4.1 kernel: same fight, same dice, fewer branches.

Most balance questions start as duels (attack against defence, one talent
against none), and the general kernel (:mod:`.fight`) pays for everything
a party fight needs: target searches, talents, ailments, boosts, side scans
after every turn. :func:`duel` plays the fights that need none of that:

* two combatants, one per side, no talent slots, no passive defence
  (minion or draft), no Boost that could happen (policy ``never``, no uses,
  or a monster), defeat ``all_down`` (the first drop ends the fight), or
  ``all_out`` when no girl may revive (the same fight); ``burst_while_down: play``;
* any initiative, round cap, damage rule, six damage, minimum damage,
  overcharge, burst and revive rule (under ``all_down`` the girl who drops
  makes no revive roll: it could not take effect, :func:`.damage.revive_can_act`).

:func:`eligible` decides (it lists what stands in the way); the runner uses
the fast path when it can. The fast path calls the same dice kernels on the
same streams in the same order as the general kernel and reuses its rare
paths (:func:`.damage.dropped`, :func:`.overcharge.check_bursts`,
:func:`.fight.roll_initiative`), so the counters are bit-identical to the
general kernel's, for random and for injected dice
(``tests/test_mb41_fast.py`` compares them on random scenarios). The hit
test and the damage are computed without branches (a hit's outcome is a coin
flip the CPU cannot predict); on a random stream the damage dice are drawn
for every attack, which the general kernel does too.

Per-round curves need no per-round work here: until the fight ends both
combatants stand, so "still running after round r" is a suffix sum of the
rounds histogram, added once per block.
"""
from __future__ import annotations

import numba
import numpy as np

from sim._jit import jit, kernel, pjit
from sim.curves import add_duel_block
from sim.dice import exploding_d6, opposed_2d6, sum_dice
from sim.rng import STATE_WORDS, seed_stream, seed_stream_inline

from sim.systems import duel_shape
from sim.trial_rows import NOTE_FIXED, ROW_DEAD, ROW_OUT, ROW_STANDING, after, before

from . import codes as E
from . import damage as DM
from . import fight as FI
from . import layout as L
from . import overcharge as OC
from . import state as ST
from .world import WORLD_WORDS, keep, no_field, pack, unpack


def eligible(inputs) -> list[str]:
    """Why ``inputs`` cannot take the duel fast path; empty if it can."""
    comb, pol, rules = inputs.comb, inputs.pol, inputs.rule_table
    why = duel_shape(comb[:, L.C_SIDE])
    defeat = int(rules[L.R_DEFEAT])
    girl_revives = int(rules[L.R_REVIVE]) != 0 and bool(np.any(comb[:, L.C_MONSTER] == 0))
    if defeat == 1 or (defeat == 2 and girl_revives):
        why.append("defeat all_down")  # or all_out when no girl may revive: the same fight
    if int(rules[L.R_BURST_WHILE_DOWN]) != 0:
        why.append("burst_while_down play")  # its count at the drop (_bursts) does not hold a burst
    if int(rules[L.R_GRID]) != 0:
        why.append("no grid (grid none)")
    if int(rules[L.R_POSITIONS]) != 0:
        why.append("no positions (positions 0)")
    for i in range(comb.shape[0]):
        if comb[i, L.C_TMASK] != 0 or np.any(comb[i, L.C_TCODE:L.C_TCODE + L.MAXT] != 0):
            why.append("no talents")
        if comb[i, L.C_PDEF] >= 0:
            why.append("no passive defence (minions)")
        if comb[i, L.C_MONSTER] == E.WITCH:
            why.append("no witches")
        if comb[i, L.C_SPAWN_KIND] != 0:
            why.append("no combatants appearing mid-fight")
        if int(rules[L.R_PASSIVE_DEFENCE]) >= 0 and pol[i, L.P_PASSIVE] != 0:
            why.append("no passive defence (draft)")
        can_boost = comb[i, L.C_MONSTER] == 0 and comb[i, L.C_BOOSTS] > 0
        if can_boost and pol[i, L.P_BOOST] != E.BOOST_NEVER:
            why.append("no Boost")
    return sorted(set(why))


@kernel
def _scripted_pools(chk):
    """Both pools die by die, attacker first: the order a script lists the faces in."""
    a_total, a_six = exploding_d6(chk, 2)
    d_total, d_six = exploding_d6(chk, 2)
    return a_total, a_six, d_total, d_six


@kernel(forceinline=True)
def _strike(chk, dmg_st, scripted, a_stat, d_stat, bonus, full_tie, six_dmg, def_six_dmg,
            min_dmg, ndice):
    """One basic attack's dice and numbers (L1453, A20-A22), without branches
    on the outcome: returns ``(hit, damage, attacker sixes, defender sixes)``,
    ``hit`` 0/1 and ``damage`` 0 on a miss (before Resolve caps it).

    Dice as in :func:`.attack.attack`: on a random check stream one draw
    gives both pools and the first damage die (:func:`sim.dice.opposed_2d6`),
    further damage dice come from the damage stream, hit or miss; injected
    dice go die by die; ``scripted`` (the damage stream is injected): the
    damage dice come from it, on a hit only.
    """
    dd = 0
    if chk[6] != 0:
        a_total, a_six, d_total, d_six = _scripted_pools(chk)
        if not scripted:
            dd = sum_dice(dmg_st, ndice, 6)
    else:
        a_total, a_six, d_total, d_six, first = opposed_2d6(chk)
        if not scripted:
            dd = first
            if ndice > 1:
                dd += sum_dice(dmg_st, ndice - 1, 6)
    a_total += a_stat
    d_total += d_stat
    # higher total, then more sixes, then the higher stat, then the full-tie rule
    hit = np.int64(a_total > d_total) | (np.int64(a_total == d_total) & (
        np.int64(a_six > d_six) | (np.int64(a_six == d_six) & (
            np.int64(a_stat > d_stat) | (np.int64(a_stat == d_stat) & full_tie)))))
    if scripted:
        if hit != 0:
            dd = sum_dice(dmg_st, ndice, 6)
    dmg = dd + bonus + six_dmg * a_six - def_six_dmg * d_six
    dmg = max(max(dmg, min_dmg) * hit, 0)
    return hit, dmg, a_six, d_six


@kernel
def _flush(c, gain_a, gain_d, spent, comb, dyn):
    """Put overcharge gained (``gain_a`` on the Attack-role stat, ``gain_d``
    on the Defence-role stat) and pool spent since the last flush into
    ``dyn`` (state and counters), as :func:`.overcharge.gain_overcharge` would have."""
    ra = comb[c, L.C_RA]
    rd = comb[c, L.C_RD]
    dyn[c, L.D_OC + ra] += gain_a
    dyn[c, L.K_OC_GAIN + ra] += gain_a
    dyn[c, L.D_OC + rd] += gain_d
    dyn[c, L.K_OC_GAIN + rd] += gain_d
    dyn[c, L.D_POOL] -= spent
    dyn[c, L.K_POOL_SPENT] += spent


@kernel(forceinline=True)
def _room(c, role_col, comb, rules, dyn):
    """Overcharge a girl can still gain on a role's stat before ``burst_at``."""
    if comb[c, L.C_MONSTER] != 0:
        return np.int64(1) << 40
    return rules[L.R_BURST_AT] - dyn[c, L.D_OC + comb[c, role_col]]


@kernel
def _bursts(c, w):
    """:func:`.overcharge.check_bursts` of ``bursts: count`` as a called function (a
    rare path). With ``bursts: play`` a burst it counts (``D_BURST_TRIAL``)
    marks the trial for a replay on the general kernel (:func:`_replay`): up
    to that burst both kernels played the same fight."""
    comb, rules, dyn, streams, bf = unpack(w)
    if comb[c, L.C_MONSTER] == 0:
        OC.count_bursts(c, w)


@kernel(forceinline=True)
def _burst_seen(dyn):
    """A burst was counted in this trial (by :func:`_bursts`)."""
    seen = False
    for j in range(2):
        for s in range(3):
            if dyn[j, L.D_BURST_TRIAL + s] != 0:
                seen = True
    return seen


@kernel
def _replay(order, ikey, key, trial, side_curve, comb_curve, w):
    """Trial ``trial`` on the general kernel from its own keyed streams (as
    :func:`.fight.simulate_blocks` plays it): a duel in which a burst
    plays (``bursts: play``). Returns ``(outcome, rounds)``."""
    comb, rules, dyn, streams, bf = unpack(w)
    for p in range(L.NS):
        seed_stream(streams[p], key, trial, p)
    ST.reset(w)
    return FI.fight(order, ikey, side_curve, comb_curve, w)


@kernel
def _drop(t, chk, dmg_st, w):
    """:func:`.damage.dropped` with the duel's own check and damage streams."""
    comb, rules, dyn, streams, bf = unpack(w)
    for k in range(STATE_WORDS):
        streams[L.S_CHECK, k] = chk[k]
        streams[L.S_DAMAGE, k] = dmg_st[k]
    DM.dropped(t, w)
    for k in range(STATE_WORDS):
        chk[k] = streams[L.S_CHECK, k]
        dmg_st[k] = streams[L.S_DAMAGE, k]


@kernel(forceinline=True)
def _pay_sixes(mon, sixes, pool, spent, gain, six_cost):
    """A roll's sixes (L149, L1892): a monster pays ``six_cost`` a six from its pool, not
    below 0 (``spent``); a girl gains them (``gain``). Returns ``(pool, spent, gain)``."""
    sp = 0
    if mon:
        sp = min(pool, sixes * six_cost)
    else:
        gain += sixes
    return pool - sp, spent + sp, gain


@kernel
def _resync(c0, c1, first, ga0, gd0, sp0, ga1, gd1, sp1, w):
    """A rare path: the locals' overcharge into ``dyn`` (:func:`_flush`), the bursts
    checked (``first`` first), and the room each counter has left: ``(room_a0,
    room_d0, room_a1, room_d1)``."""
    comb, rules, dyn, streams, bf = unpack(w)
    _flush(c0, ga0, gd0, sp0, comb, dyn)
    _flush(c1, ga1, gd1, sp1, comb, dyn)
    _bursts(first, w)
    _bursts(c0 + c1 - first, w)
    return (_room(c0, L.C_RA, comb, rules, dyn), _room(c0, L.C_RD, comb, rules, dyn),
            _room(c1, L.C_RA, comb, rules, dyn), _room(c1, L.C_RD, comb, rules, dyn))


@kernel
def _drop_synced(c0, c1, loser, res0, res1, ga0, gd0, sp0, ga1, gd1, sp1, chk, dmg_st, w):
    """The loser's drop on the general kernel's code (a revive roll or a burst may
    follow): the locals into ``dyn`` first, the bursts after, as :func:`.attack.attack`."""
    comb, rules, dyn, streams, bf = unpack(w)
    _flush(c0, ga0, gd0, sp0, comb, dyn)
    _flush(c1, ga1, gd1, sp1, comb, dyn)
    dyn[c0, L.D_RES] = res0
    dyn[c1, L.D_RES] = res1
    _drop(loser, chk, dmg_st, w)
    _bursts(1 - loser, w)
    _bursts(loser, w)


@kernel(forceinline=True)
def duel(order, ikey, start_bursts, chk, dmg_st, w):
    """Play one eligible duel from the state :func:`.state.reset` left in ``dyn``.

    ``order``/``ikey``: who acts first (filled here for rolled initiative,
    else given); ``start_bursts``: some girl starts at or over ``burst_at``;
    ``chk``/``dmg_st``: the trial's check and damage streams.

    Everything the rounds change lives in local variables, suffix 0 for the
    first to act and 1 for the second: a store to ``dyn`` would
    make the compiler reload the dice streams, which may alias them. The
    rare paths that read ``dyn`` (a possible burst, a revive roll)
    get the locals first (:func:`_flush`) and call the general kernel's
    code. Overcharge follows :func:`.overcharge.gain_overcharge`: a girl gains a
    six's point on the stat of the role she rolled (L149), a monster pays
    ``monster_six_cost`` per six from its pool, not below 0 (L1892).

    Returns ``(outcome, rounds, c0, res0, res1, attacks0, attacks1, hits0,
    hits1, dealt0, dealt1, ga0, gd0, sp0, ga1, gd1, sp1, ko, synced)``: ``c0`` the
    combatant who acted first; per slot the Resolve left, attacks, hits,
    damage dealt, and the overcharge gained (Attack role, Defence role) and
    pool spent not yet in ``dyn``; ``ko`` 1 if the loser's drop is still to
    be counted by the caller (a KO, and a death for a monster), 0 if
    :func:`.damage.dropped` counted it or nobody dropped; ``synced``: a rare
    path changed ``dyn``'s counters (else they are still the starting ones).
    """
    comb, rules, dyn, streams, bf = unpack(w)
    cap = rules[L.R_ROUND_CAP]
    scripted = dmg_st[6] != 0
    six_cost = rules[L.R_MONSTER_SIX_COST]
    full_tie = np.int64(rules[L.R_FULL_TIE] == 1)
    six_dmg = rules[L.R_SIX_DAMAGE]
    def_six_dmg = rules[L.R_DEFENDER_SIX_DAMAGE]
    min_dmg = rules[L.R_MIN_DAMAGE]
    ndice = rules[L.R_DAMAGE_DICE]
    synced = start_bursts  # dyn's counters are no longer the starting ones
    if start_bursts:  # a girl may start the scene at or over the threshold
        for j in range(2):
            _bursts(j, w)
    if rules[L.R_INITIATIVE] != 1:
        FI.roll_initiative(order, ikey, w)
    c0 = order[0]
    c1 = 1 - c0
    att0 = comb[c0, L.C_ATT]
    att1 = comb[c1, L.C_ATT]
    def0 = comb[c0, L.C_DEF]
    def1 = comb[c1, L.C_DEF]
    bonus0 = comb[c0, L.C_DMG]
    bonus1 = comb[c1, L.C_DMG]
    mon0 = comb[c0, L.C_MONSTER] != 0
    mon1 = comb[c1, L.C_MONSTER] != 0
    same0 = np.int64(comb[c0, L.C_RA] == comb[c0, L.C_RD])
    same1 = np.int64(comb[c1, L.C_RA] == comb[c1, L.C_RD])
    res0 = dyn[c0, L.D_RES]
    res1 = dyn[c1, L.D_RES]
    pool0 = dyn[c0, L.D_POOL]
    pool1 = dyn[c1, L.D_POOL]
    room_a0 = _room(c0, L.C_RA, comb, rules, dyn)
    room_d0 = _room(c0, L.C_RD, comb, rules, dyn)
    room_a1 = _room(c1, L.C_RA, comb, rules, dyn)
    room_d1 = _room(c1, L.C_RD, comb, rules, dyn)
    ga0 = gd0 = sp0 = ga1 = gd1 = sp1 = 0
    attacks0 = hits0 = dealt0 = attacks1 = hits1 = dealt1 = 0
    outcome = L.F_DRAW
    rounds = cap
    for r in range(1, cap + 1):
        # the first to act attacks the second
        hit, dmg, a6, d6 = _strike(chk, dmg_st, scripted, att0, def1, bonus0, full_tie, six_dmg,
                                   def_six_dmg, min_dmg, ndice)
        pool0, sp0, ga0 = _pay_sixes(mon0, a6, pool0, sp0, ga0, six_cost)
        pool1, sp1, gd1 = _pay_sixes(mon1, d6, pool1, sp1, gd1, six_cost)
        take = min(dmg, res1)
        res1 -= take
        attacks0 += 1
        hits0 += hit
        dealt0 += take
        if res1 == 0:
            outcome = L.F_WIN if comb[c0, L.C_SIDE] == 0 else L.F_LOSS
            rounds = r
            break
        if (ga0 + same0 * gd0 >= room_a0) | (gd1 + same1 * ga1 >= room_d1):
            room_a0, room_d0, room_a1, room_d1 = _resync(c0, c1, c0, ga0, gd0, sp0, ga1, gd1, sp1, w)
            ga0 = gd0 = sp0 = ga1 = gd1 = sp1 = 0
            synced = True
        # the second attacks the first
        hit, dmg, a6, d6 = _strike(chk, dmg_st, scripted, att1, def0, bonus1, full_tie, six_dmg,
                                   def_six_dmg, min_dmg, ndice)
        pool1, sp1, ga1 = _pay_sixes(mon1, a6, pool1, sp1, ga1, six_cost)
        pool0, sp0, gd0 = _pay_sixes(mon0, d6, pool0, sp0, gd0, six_cost)
        take = min(dmg, res0)
        res0 -= take
        attacks1 += 1
        hits1 += hit
        dealt1 += take
        if res0 == 0:
            outcome = L.F_WIN if comb[c1, L.C_SIDE] == 0 else L.F_LOSS
            rounds = r
            break
        if (ga1 + same1 * gd1 >= room_a1) | (gd0 + same0 * ga0 >= room_d0):
            room_a0, room_d0, room_a1, room_d1 = _resync(c0, c1, c1, ga0, gd0, sp0, ga1, gd1, sp1, w)
            ga0 = gd0 = sp0 = ga1 = gd1 = sp1 = 0
            synced = True
    ko = 0
    if outcome != L.F_DRAW:
        # the drop (L1420) and the bursts the general kernel checks after the
        # attack: the general kernel's code when a revive roll or a burst may
        # follow, else the caller counts the KO (and a monster's death)
        loser = c1 if res1 == 0 else c0
        revives = (comb[loser, L.C_MONSTER] == 0) & (rules[L.R_REVIVE] != 0)
        near = (ga0 + same0 * gd0 >= room_a0) | (gd0 + same0 * ga0 >= room_d0)
        near |= (ga1 + same1 * gd1 >= room_a1) | (gd1 + same1 * ga1 >= room_d1)
        if revives | near:
            synced = True
            _drop_synced(c0, c1, loser, res0, res1, ga0, gd0, sp0, ga1, gd1, sp1, chk, dmg_st, w)
            ga0 = gd0 = sp0 = ga1 = gd1 = sp1 = 0
        else:
            ko = 1
    return (outcome, rounds, c0, res0, res1, attacks0, attacks1, hits0, hits1, dealt0, dealt1,
            ga0, gd0, sp0, ga1, gd1, sp1, ko, synced)


#: counter values a tier table covers (every tier starts at or below 100)
TIER_TABLE = 128


@kernel
def tier_table(rules, out):
    """``out[v]``: the tier of a counter ending at ``v`` without a burst
    (:func:`.overcharge.flair_tier`), for ``v < TIER_TABLE``."""
    for v in range(out.shape[0]):
        out[v] = OC.flair_tier(v, 0, rules)


@kernel(forceinline=True)
def _tier(oc, burst, tiers):
    if burst != 0:
        return L.NTIERS - 1
    return tiers[min(oc, TIER_TABLE - 1)]


@kernel
def _plus_gains(c, o0, o1, o2, ga, gd, comb):
    """Counters ``o0..o2`` (heart, fury, judgment) of girl ``c`` plus ``ga`` on
    her Attack role's stat and ``gd`` on her Defence role's."""
    ra = comb[c, L.C_RA]
    rd = comb[c, L.C_RD]
    if ra == 0:
        o0 += ga
    elif ra == 1:
        o1 += ga
    else:
        o2 += ga
    if rd == 0:
        o0 += gd
    elif rd == 1:
        o1 += gd
    else:
        o2 += gd
    return o0, o1, o2


@kernel
def _tiers(c, ga, gd, comb, rules, dyn, out, tiers):
    """Count (in ``out``'s ``K_TIER``) the highest overcharge tier per stat of girl ``c``
    as :func:`.overcharge.count_tiers` does, her gains ``ga``/``gd`` on the Attack
    and Defence role's stats not being in ``dyn`` yet; ``tiers`` from
    :func:`tier_table`."""
    if comb[c, L.C_MONSTER] != 0:
        return
    o0, o1, o2 = _plus_gains(c, dyn[c, L.D_OC], dyn[c, L.D_OC + 1], dyn[c, L.D_OC + 2], ga, gd, comb)
    out[c, L.K_TIER + _tier(o0, dyn[c, L.D_BURST_TRIAL], tiers)] += 1
    out[c, L.K_TIER + L.NTIERS + _tier(o1, dyn[c, L.D_BURST_TRIAL + 1], tiers)] += 1
    out[c, L.K_TIER + 2 * L.NTIERS + _tier(o2, dyn[c, L.D_BURST_TRIAL + 2], tiers)] += 1


#: gains below this are counted in a per-block (Attack gain, Defence gain) table
TH = 16


@kernel
def _tiers_from_gains(comb, th, dyn, tiers):
    """Add the tiers of the fights counted in ``th[c, ga * TH + gd]``: girl
    ``c`` started at her starting counters, gained ``ga`` on her Attack
    role's stat and ``gd`` on her Defence role's, and did not burst."""
    for c in range(2):
        if comb[c, L.C_MONSTER] != 0:
            continue
        for cell in range(TH * TH):
            k = th[c, cell]
            if k == 0:
                continue
            oc0, oc1, oc2 = _plus_gains(c, comb[c, L.C_OC0], comb[c, L.C_OC0 + 1], comb[c, L.C_OC0 + 2],
                                        cell // TH, cell % TH, comb)
            dyn[c, L.K_TIER + _tier(oc0, 0, tiers)] += k
            dyn[c, L.K_TIER + L.NTIERS + _tier(oc1, 0, tiers)] += k
            dyn[c, L.K_TIER + 2 * L.NTIERS + _tier(oc2, 0, tiers)] += k


@kernel(forceinline=True)
def _pick(c0, v0, v1):
    """``(value of combatant 0, value of combatant 1)`` from per-slot values."""
    if c0 == 0:
        return v0, v1
    return v1, v0


@kernel
def _merge_scratch(play, dyn, out):
    """After a duel that took a rare path: its scratch counters (``dyn``'s) go into the
    block's ``out`` unless a burst was counted under ``bursts: play`` (then the trial is
    replayed on the general kernel); the scratch is cleared. Returns whether to replay."""
    replay = False
    if play:
        replay = _burst_seen(dyn)
    for j in range(dyn.shape[0]):
        for k in range(L.NK):
            if not replay:
                out[j, k] += dyn[j, k]
            dyn[j, k] = 0
    return replay


@kernel(forceinline=True)
def _tally(tot, c0, r0, r1, a0, a1, h0, h1, d0, d1, ga0, gd0, sp0, ga1, gd1, sp1, ko, comb):
    """A duel's counters (by the order it was played in: ``c0`` first) added to the
    block's running totals ``tot`` (22 int64 in a tuple, so they stay in registers; per
    combatant 0, 1: attacks, hits, dealt, taken, gains on the Attack and Defence roles'
    stats, pool spent, Resolve at the end, standing at the end, KOs, deaths).
    Returns ``(tot, s0, s1)``, ``s0``/``s1`` whether each stands at the end."""
    at0, at1 = _pick(c0, a0, a1)
    hi0, hi1 = _pick(c0, h0, h1)
    de0, de1 = _pick(c0, d0, d1)
    gA0, gA1 = _pick(c0, ga0, ga1)
    gD0, gD1 = _pick(c0, gd0, gd1)
    sp_0, sp_1 = _pick(c0, sp0, sp1)
    x0, x1 = _pick(c0, r0, r1)
    # standing at the end = Resolve above 0 (a monster at 0 is dead)
    s0 = np.int64(x0 > 0)
    s1 = np.int64(x1 > 0)
    k0 = ko * (1 - s0)
    k1 = ko * (1 - s1)
    out = (tot[0] + at0, tot[1] + at1, tot[2] + hi0, tot[3] + hi1, tot[4] + de0, tot[5] + de1,
           tot[6] + de1, tot[7] + de0, tot[8] + gA0, tot[9] + gA1, tot[10] + gD0, tot[11] + gD1,
           tot[12] + sp_0, tot[13] + sp_1, tot[14] + x0, tot[15] + x1, tot[16] + s0, tot[17] + s1,
           tot[18] + k0, tot[19] + k1, tot[20] + k0 * np.int64(comb[0, L.C_MONSTER] != 0),
           tot[21] + k1 * np.int64(comb[1, L.C_MONSTER] != 0))
    return out, s0, s1


@kernel(forceinline=True)
def _row_tally(comb, out, girls, cols, note, s0, s1, ko, row):
    """Add to a trial's row what :func:`_tally` counted of its girls (``girls``: comb rows 0 or 1)
    and adds to ``out`` only at the block's end: a knock-out (a girl counted once, whether
    ``out`` grew too or not), a death (a monster's; none for a girl), standing at the end."""
    for g in range(girls.shape[0]):
        j = girls[g]
        s = s0 if j == 0 else s1
        k = ko * (1 - s)
        if k > 0 and out[j, cols[1]] - note[NOTE_FIXED + 3 * g] <= 0:
            row[ROW_OUT] += 1
        row[ROW_DEAD] += k * np.int64(comb[j, L.C_MONSTER] != 0)
        row[ROW_STANDING] += s


@kernel(forceinline=True)
def _no_totals():
    """22 zeros: the running totals of :func:`_tally` at the start of a block."""
    o = np.int64(0)
    return (o, o, o, o, o, o, o, o, o, o, o, o, o, o, o, o, o, o, o, o, o, o)


@kernel
def _flush_block(tot, comb, out):
    """The block's running totals (:func:`_tally`) into its counters ``out``."""
    for j in range(2):
        out[j, L.K_ATTACKS] += tot[0 + j]
        out[j, L.K_HITS] += tot[2 + j]
        out[j, L.K_DEALT] += tot[4 + j]
        out[j, L.K_TAKEN] += tot[6 + j]
        out[j, L.K_OC_GAIN + comb[j, L.C_RA]] += tot[8 + j]
        out[j, L.K_OC_GAIN + comb[j, L.C_RD]] += tot[10 + j]
        out[j, L.K_POOL_SPENT] += tot[12 + j]
        out[j, L.K_RES_END] += tot[14 + j]
        out[j, L.K_STANDING_END] += tot[16 + j]
        out[j, L.K_KOS] += tot[18 + j]
        out[j, L.K_KO_TRIALS] += tot[18 + j]
        out[j, L.K_DEATHS] += tot[20 + j]


@pjit
def simulate_blocks(comb, rules, key, start, count, nblocks,
                    fights, rounds_hist, side_curve, comb_curve, ccount, girls, cols, rows):
    """:func:`.fight.simulate_blocks` for eligible duels: same arguments, same counters, the same
    rows (``rows``: each trial's, :mod:`sim.trial_rows`; ``[0, NROW]`` for none).

    Streams: ``S_CHECK`` and ``S_DAMAGE`` per trial, ``S_SETUP`` only for
    rolled initiative; the general kernel seeds ``S_POLICY`` too but an
    eligible duel never reads it (one target, no policy dice). Each block is
    :func:`_block` on one thread.
    """
    n = comb.shape[0]
    start_bursts = False
    for j in range(n):
        if comb[j, L.C_MONSTER] == 0:
            for s in range(3):
                if comb[j, L.C_OC0 + s] >= rules[L.R_BURST_AT]:
                    start_bursts = True
    per = (count + nblocks - 1) // nblocks
    for b in numba.prange(nblocks):
        lo = b * per
        hi = min(count, lo + per)
        _block(comb, rules, key, start + lo, start + hi, start_bursts,
               fights[b], rounds_hist[b], side_curve[b], comb_curve[b], ccount[b], girls, cols,
               rows[lo:hi] if rows.shape[0] > 0 else rows)


@jit
def _block(comb, rules, key, first, last, start_bursts, fights, rounds_hist, side_curve, comb_curve, out,
           girls, cols, rows):
    """Trials ``first..last-1`` of :func:`simulate_blocks` into one block's counters
    (``fights``, ``rounds_hist``, curves, ``out``: that block's rows). Per-combatant
    counters are summed in local variables (:func:`_tally`) and added to ``out`` once;
    ``rows[t - first]``: trial ``t``'s row (none when ``rows`` is empty)."""
    n = comb.shape[0]
    cap = rules[L.R_ROUND_CAP]
    dyn = np.zeros((n, L.NDYN), dtype=np.int64)  # the duels' state; its counters: the rare paths' scratch
    order = np.zeros(n, dtype=np.int64)
    ikey = np.zeros(n, dtype=np.int64)
    for j in range(n):  # the listed order (rolled initiative refills it per fight)
        order[comb[j, L.C_ORDER]] = j
    streams = np.zeros((L.NS, STATE_WORDS), dtype=np.uint64)
    bf = no_field()  # a replay's (the duel has no grid)
    wbuf = np.zeros(WORLD_WORDS, dtype=np.int64)
    w = pack(comb, rules, dyn, streams, bf, wbuf)  # the duels' world
    obuf = np.zeros(WORLD_WORDS, dtype=np.int64)
    w_out = pack(comb, rules, out, streams, bf, obuf)  # the replays' (counting into out)
    chk = np.zeros(STATE_WORDS, dtype=np.uint64)
    dmg_st = np.zeros(STATE_WORDS, dtype=np.uint64)
    hist = np.zeros(cap + 1, dtype=np.int64)
    tiers = np.zeros(TIER_TABLE, dtype=np.int64)
    tier_table(rules, tiers)
    th = np.zeros((n, TH * TH), dtype=np.int64)
    note = np.zeros(NOTE_FIXED + 3 * girls.shape[0], dtype=np.int64)
    _trials(comb, rules, key, first, last, start_bursts, fights, rounds_hist, side_curve, comb_curve, out,
            dyn, order, ikey, streams, chk, dmg_st, hist, tiers, th, w, w_out, girls, cols, rows, note)
    keep(bf)  # the worlds' arrays and buffers live until their last use (world.keep)
    keep(wbuf)
    keep(obuf)


@kernel
def _trials(comb, rules, key, first, last, start_bursts, fights, rounds_hist, side_curve, comb_curve, out,
            dyn, order, ikey, streams, chk, dmg_st, hist, tiers, th, w, w_out, girls, cols, rows, note):
    """The trial loop of :func:`_block` on its arrays (no reference counting: a
    compiled function that allocates nothing). A trial's row (``rows`` given): what it added to
    ``out`` and ``fights`` (a replay, a rare path's scratch; :func:`sim.trial_rows.after`) and
    what :func:`_tally` keeps for the block's end (:func:`_row_tally`)."""
    with_rows = rows.shape[0] > 0
    rolled = rules[L.R_INITIATIVE] != 1
    # bursts: play: a trial in which a burst is counted is replayed on the
    # general kernel; until then its counters go to the duel's scratch counters (dyn)
    play = rules[L.R_BURSTS] != E.BURSTS_COUNT
    all_general = play & start_bursts  # a burst before the first roll: every trial
    tot = _no_totals()
    # a duel that never left the fast path (not ``synced``) leaves ``dyn``
    # as :func:`.state.reset` made it: only a synced or replayed trial
    # needs the next trial to reset it
    dirty = True
    for trial in range(first, last):
        if with_rows:
            before(fights, out, girls, cols, note)
        replay = all_general
        if not all_general:
            seed_stream_inline(chk, key, trial, L.S_CHECK)
            seed_stream_inline(dmg_st, key, trial, L.S_DAMAGE)
            if rolled:
                seed_stream_inline(streams[L.S_SETUP], key, trial, L.S_SETUP)
            if dirty:
                ST.reset(w)
            (outcome, rounds, c0, r0, r1, a0, a1, h0, h1, d0, d1,
             ga0, gd0, sp0, ga1, gd1, sp1, ko, synced) = duel(order, ikey, start_bursts, chk, dmg_st, w)
            dirty = synced
            # the rare paths counted in the duel's scratch counters: keep them, or (a burst
            # played, ``bursts: play``) drop them and replay the trial on the general kernel
            if synced:
                replay = _merge_scratch(play, dyn, out)
        if replay:
            outcome, rounds = _replay(order, ikey, key, trial, side_curve, comb_curve, w_out)
            fights[outcome] += 1
            fights[L.F_ROUNDS] += rounds
            rounds_hist[rounds] += 1
            if with_rows:
                after(fights, out, girls, cols, False, note, rows[trial - first])
            continue
        fights[outcome] += 1
        fights[L.F_ROUNDS] += rounds
        hist[rounds] += 1
        # highest tiers: while no rare path touched dyn, they follow from the
        # gains alone, so count (gain on Attack role, gain on Defence role)
        # pairs and turn them into tiers once per block
        few = (ga0 < TH) & (gd0 < TH) & (ga1 < TH) & (gd1 < TH)
        if few & (not synced):
            th[c0, ga0 * TH + gd0] += 1
            th[1 - c0, ga1 * TH + gd1] += 1
        else:
            _tiers(c0, ga0, gd0, comb, rules, dyn, out, tiers)
            _tiers(1 - c0, ga1, gd1, comb, rules, dyn, out, tiers)
        tot, s0, s1 = _tally(tot, c0, r0, r1, a0, a1, h0, h1, d0, d1, ga0, gd0, sp0, ga1, gd1, sp1, ko, comb)
        if with_rows:
            after(fights, out, girls, cols, False, note, rows[trial - first])
            _row_tally(comb, out, girls, cols, note, s0, s1, ko, rows[trial - first])
        # the final state (plane 1) of a fight that ended in round ``rounds``
        comb_curve[0, 1, rounds] += s0
        comb_curve[1, 1, rounds] += s1
        side_curve[comb[0, L.C_SIDE], 1, rounds] += s0
        side_curve[comb[1, L.C_SIDE], 1, rounds] += s1
    _tiers_from_gains(comb, th, out, tiers)
    _flush_block(tot, comb, out)
    # plane 0: fights still running after round r (< cap), where both stand
    add_duel_block(hist, rounds_hist, side_curve, comb_curve)


@jit
def fight(order, key, side_curve, comb_curve, w):
    """The fast path as a drop-in for :func:`.fight.fight`, for eligible duels.

    ``bursts: play``: a fight in which a burst is counted is played again by
    :func:`.fight.fight` from the same state and the same (injected) dice.
    """
    comb, rules, dyn, streams, bf = unpack(w)
    if rules[L.R_BURSTS] == E.BURSTS_COUNT:
        return _fight(order, key, side_curve, comb_curve, w)
    dyn0 = dyn.copy()  # her state and the counters (one buffer)
    streams0 = streams.copy()
    side0 = side_curve.copy()
    comb0 = comb_curve.copy()
    out = _fight(order, key, side_curve, comb_curve, w)
    if not _burst_seen(dyn):
        return out
    dyn[:] = dyn0
    streams[:] = streams0
    side_curve[:] = side0
    comb_curve[:] = comb0
    return FI.fight(order, key, side_curve, comb_curve, w)


@kernel
def _fight(order, key, side_curve, comb_curve, w):
    """:func:`fight` for ``bursts: count`` (and play when nothing bursts).

    Same arguments and effects on ``dyn`` (state and counters) and the curves (one trial,
    counters added per trial); streams are used in place, so injected dice
    work (``tests/test_mb41_fast.py`` plays it against the general kernel
    on scripted dice). :func:`simulate_blocks` runs the same :func:`duel`
    but sums the counters per block.
    """
    comb, rules, dyn, streams, bf = unpack(w)
    cap = rules[L.R_ROUND_CAP]
    for j in range(2):  # the listed order (rolled initiative refills it)
        order[comb[j, L.C_ORDER]] = j
    (outcome, rounds, c0, r0, r1, a0, a1, h0, h1, d0, d1,
     ga0, gd0, sp0, ga1, gd1, sp1, ko, _) = duel(order, key, True, streams[L.S_CHECK], streams[L.S_DAMAGE], w)
    c1 = 1 - c0
    _flush(c0, ga0, gd0, sp0, comb, dyn)
    _flush(c1, ga1, gd1, sp1, comb, dyn)
    for j in range(2):
        OC.count_tiers(j, dyn[j, L.D_OC], dyn[j, L.D_OC + 1], dyn[j, L.D_OC + 2], w)
    dyn[c0, L.D_RES] = r0
    dyn[c1, L.D_RES] = r1
    dyn[c0, L.K_ATTACKS] += a0
    dyn[c1, L.K_ATTACKS] += a1
    dyn[c0, L.K_HITS] += h0
    dyn[c1, L.K_HITS] += h1
    dyn[c0, L.K_DEALT] += d0
    dyn[c1, L.K_TAKEN] += d0
    dyn[c1, L.K_DEALT] += d1
    dyn[c0, L.K_TAKEN] += d1
    if ko != 0:  # a drop with no revive roll to follow
        DM.dropped(c1 if r1 == 0 else c0, w)
    for j in range(2):
        standing = ST.is_standing(j, w)
        dyn[j, L.K_RES_END] += dyn[j, L.D_RES]
        if standing:
            dyn[j, L.K_STANDING_END] += 1
            comb_curve[j, 1, rounds] += 1
            side_curve[comb[j, L.C_SIDE], 1, rounds] += 1
    for r in range(1, min(rounds, cap)):
        for j in range(2):
            comb_curve[j, 0, r] += 1
            side_curve[j, 0, r] += 1
    return outcome, rounds
