"""The basic attack (L1453): the two rolls, the boosts, the re-roll, the damage.

2d6! + Attack against 2d6! + Defence (a minion's passive defence, L2170; a
human's 2d6 + Tenacity, L1455); the higher total wins, then more sixes, then the
higher stat, a full tie to the defender (A20, A21); Boost (L1565, A4, A5); damage
1d6 + 2 melee / 1d6 ranged, +2 per attacker six, -2 per defender six, floored at
``min_damage`` (A22). The talents that ride on an attack play at its hook points
(:mod:`.hooks`).
"""
from __future__ import annotations

from sim._jit import kernel, part
from sim.dice import exploding_d6, exploding_d6_ones, opposed_2d6, sum_d6, sum_dice

from .codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from .layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from .gates import T_AFTER_ATTACK, T_ALL_IN, T_DAMAGE, T_DAMPEN_ROLL, T_DECLARE, T_DEFENCE_DICE, T_EVASION, T_HIT, T_INTERCEPT, T_LAND, T_MISS, T_REDUCE, T_REROLL
from .points import chain, every, first, holds, total
from .world import unpack
from .damage import apply_damage, human_penalty
from .overcharge import check_bursts, fury_spend, gain_overcharge
from .state import _hits, roll_penalty, sealed


@part
def can_boost(i, stat, pending, w):
    """Boost is possible: uses left, standing, and for a girl the +1 overcharge
    within her cap; a monster needs Monster Boost (its only source of Boost
    uses) and a point in its pool (L2068).

    ``pending``: overcharge the roll already carries but that is not on the
    counter yet (its sixes, L149); a boost decided after the roll must count it.
    """
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_BOOSTS] <= 0:
        return False
    if dyn[i, D_RES] <= 0:
        return False
    if sealed(i, w):
        return False
    if comb[i, C_MONSTER] != 0:
        return dyn[i, D_POOL] >= 1
    if dyn[i, D_FRENZY] != 0:
        return False  # a frenzy's only talents are paid with Fury overcharge (L752; A9ii: no Boost)
    return dyn[i, D_OC + stat] + pending + 1 <= comb[i, P_OCCAP]


@part
def _wants_boost(i, losing, deficit, own_stat, opp_stat, boosted, w):
    comb, rules, dyn, streams, bf = unpack(w)
    mode = comb[i, P_BOOST]
    if mode == BOOST_ALWAYS:
        return boosted == 0
    if mode == BOOST_LOSING:
        if rules[R_BOOST_TIMING] == 1:  # declared before rolling: boost when the stat is lower
            if boosted != 0:
                return False
            return own_stat < opp_stat
        if not losing:
            return False
        return deficit <= comb[i, P_MARGIN]
    return False


@kernel(forceinline=True)
def _boost_ok(i, role, boosted, bpr, losing, deficit, own_stat, opp_stat, pending, w):
    comb, rules, dyn, streams, bf = unpack(w)
    if boosted >= bpr:
        return False
    if rules[R_BOOST_TIMING] == 1:
        pending = 0  # declared before rolling: the roll's sixes are not known yet
    if not can_boost(i, role, pending, w):
        return False
    return _wants_boost(i, losing, deficit, own_stat, opp_stat, boosted, w)


@kernel(forceinline=True)
def _takes_passive(t, w):
    comb, rules, dyn, streams, bf = unpack(w)
    if rules[R_PASSIVE_DEFENCE] < 0:
        return False
    return comb[t, P_PASSIVE] != 0


@kernel(forceinline=True)
def _spend_boost(i, role, chk, w):
    """One Boost (L1565): a use, +1 overcharge on the rolled stat, and an
    exploding die; returns the die's ``(total, sixes)``. A monster's Monster
    Boost costs 1 from its pool (L2068)."""
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[i, D_BOOSTS] -= 1
    dyn[i, K_BOOSTS] += 1
    if comb[i, C_MONSTER] != 0:
        dyn[i, D_POOL] -= 1
        dyn[i, K_POOL_SPENT] += 1
    else:
        gain_overcharge(i, role, 1, w)
    return exploding_d6(chk, 1)


@part
def attack(i, t, w):
    """Basic attack of ``i`` on ``t`` (L1453). Returns the damage dealt (>= 0), -1 on a miss.

    In this order, with its hook points (:mod:`.hooks`): what her talents add before
    the roll (:func:`attack_bonus`, DECLARE); the rolls (:func:`roll_attack`,
    :func:`roll_defence`: DEFENCE_DICE, the defender's Second Wind bonus, a minion's
    passive defence, a human's Tenacity); the boosts and a re-roll of a miss
    (:func:`contest`, REROLL); EVASION after a hit; the sixes' overcharge and
    DAMPEN_ROLL on a rolled 1; MISS; on a hit the damage (:func:`hit_damage`: ALL_IN,
    DAMAGE, INTERCEPT, REDUCE) and what it sets off (:func:`land_hit`: LAND, HIT);
    AFTER_ATTACK, a frenzied target's retaliation (:func:`after_attack`).
    """
    comb, rules, dyn, streams, bf = unpack(w)
    a_bonus, dmg_bonus, hit_dice, hit_plus = attack_bonus(i, t, w)
    if dyn[i, D_MOOD] == 1:
        a_bonus += rules[R_EXCITED_BONUS]  # the draft's Excited (a reading: the seed never defines it)
    a_pd, d_pd, combined = roll_modes(i, t, w)
    a_total, a_six, a_ones, od_total, od_six, first_die = roll_attack(i, a_bonus, combined, a_pd, w)
    passive, magical, d_stat, d_total, d_six, d_ones = roll_defence(i, t, combined, d_pd, od_total, od_six, w)
    dmg_dice = damage_dice(combined, first_die, w)
    hit, a_total, a_six, a_boosts, d_total, d_six, d_boosts, a_ones = contest(
        i, t, passive, magical, a_bonus, a_total, a_six, a_ones, a_pd, d_stat, d_total, d_six, w)
    if hit:
        if magical:
            hit = first(T_EVASION, i, t, a_total - d_total, w) == 0
    gain_overcharge(i, comb[i, C_RA], a_six, w)
    if magical:
        gain_overcharge(t, comb[t, C_RD], d_six, w)
    if a_ones > 0:
        every(T_DAMPEN_ROLL, i, t, 0, w)
    if d_ones > 0:
        every(T_DAMPEN_ROLL, t, i, 0, w)
    dyn[i, K_ATTACKS] += 1
    fury_dice = 0
    if dyn[i, D_FRENZY] != 0:
        fury_dice = fury_spend(i, hit, w)
    dealt = -1
    if not hit:
        if magical:
            every(T_MISS, i, t, 0, w)
    if hit:
        dmg = hit_damage(i, t, a_six, d_six, a_boosts, d_boosts, dmg_dice, dmg_bonus, hit_dice, hit_plus, fury_dice, w)
        dealt = land_hit(i, t, dmg, w)
    after_attack(i, t, hit, w)
    return dealt


@part
def attack_bonus(i, t, w):
    """What talents add to ``i``'s attack on ``t`` before the roll: the DECLARE hooks (hers,
    her side's Make an Opening, ``t``'s Veil) write it into her ``D_ATK_BONUS``,
    ``D_DMG_BONUS``, ``D_RIDER``, ``D_HIT_DICE``, ``D_HIT_PLUS`` (reset here first).
    Returns ``(attack bonus, damage bonus, d6 and flat damage a hit adds)``."""
    comb, rules, dyn, streams, bf = unpack(w)
    if not holds(T_DECLARE, i, t, w):
        return 0, 0, 0, 0  # no talent of hers (or of her side, or on t) declares anything
    dyn[i, D_ATK_BONUS] = 0
    dyn[i, D_DMG_BONUS] = 0
    dyn[i, D_RIDER] = -1
    dyn[i, D_HIT_DICE] = 0
    dyn[i, D_HIT_PLUS] = 0
    every(T_DECLARE, i, t, 0, w)
    return dyn[i, D_ATK_BONUS], dyn[i, D_DMG_BONUS], dyn[i, D_HIT_DICE], dyn[i, D_HIT_PLUS]


@part
def roll_modes(i, t, w):
    """How the dice of ``i``'s attack on ``t`` are drawn: ``(attacker's Power Dampening,
    defender's, combined)``. A random check stream and a rolled 2d6! defence: one draw
    gives both pools and the first damage die (:func:`sim.dice.opposed_2d6`; the duel
    fast path draws the same); injected dice go die by die in the book's order. Power
    Dampening rolls her dice one by one to see the 1s (L1554)."""
    comb, rules, dyn, streams, bf = unpack(w)
    combined = False
    if streams[S_CHECK, 6] == 0:
        if comb[t, C_PDEF] < 0:
            if dyn[t, D_RES] > 0:
                combined = not _takes_passive(t, w)
    a_pd = holds(T_DAMPEN_ROLL, i, t, w)  # a DAMPEN_ROLL hook of hers sees the 1s
    d_pd = False
    if rules[R_POWER_DAMPENING_ROLLS] == 1:
        d_pd = holds(T_DAMPEN_ROLL, t, i, w)
    if a_pd | d_pd:
        combined = False
    return a_pd, d_pd, combined


@part
def roll_attack(i, a_bonus, combined, a_pd, w):
    """``i``'s 2d6! + Attack (L1453) with her bonus (the draft's Excited in it): ``(total, sixes, ones, the defence's
    total and sixes of a combined draw, the first damage die of a combined draw)``."""
    comb, rules, dyn, streams, bf = unpack(w)
    chk = streams[S_CHECK]
    a_ones = 0
    first_die = 0
    if combined:
        a_total, a_six, od_total, od_six, first_die = opposed_2d6(chk)
    elif a_pd:
        a_total, a_six, a_ones = exploding_d6_ones(chk, 2)
        od_total = 0
        od_six = 0
    else:
        a_total, a_six = exploding_d6(chk, 2)
        od_total = 0
        od_six = 0
    a_total += comb[i, C_ATT] - roll_penalty(i, w) + a_bonus
    return a_total, a_six, a_ones, od_total, od_six, first_die


@part
def roll_defence(i, t, combined, d_pd, od_total, od_six, w):
    """``t``'s defence against ``i``: ``(passive, magical, stat, total, sixes, ones)``. A
    minion's passive defence (L2170): no roll, no sixes, no boosts, hit by a higher
    total or an equal one with a six (A35); the draft's passive defence (Defence + 4,
    DRAFT L486); 2d6! + Defence with Ranged/Melee Defence's extra dice (L2084), Second
    Wind's bonus, the draft's Calm; a human at 0 Resolve 2d6 + Tenacity (L1455)."""
    comb, rules, dyn, streams, bf = unpack(w)
    chk = streams[S_CHECK]
    d_ones = 0
    if comb[t, C_PDEF] >= 0:
        return True, False, 0, comb[t, C_PDEF], 0, d_ones
    if dyn[t, D_RES] > 0:
        d_stat = comb[t, C_DEF]
        if _takes_passive(t, w):
            return False, False, d_stat, d_stat + rules[R_PASSIVE_DEFENCE], 0, d_ones
        if combined:
            d_total = od_total
            d_six = od_six
        elif d_pd:
            d_total, d_six, d_ones = exploding_d6_ones(chk, 2)
        else:
            d_total, d_six = exploding_d6(chk, 2)
        d_extra = total(T_DEFENCE_DICE, i, t, 0, w)
        if d_extra > 0:
            x_total, x_six = exploding_d6(chk, d_extra)
            d_total += x_total
            d_six += x_six
        d_total += d_stat - roll_penalty(t, w) + dyn[t, D_DEF_BONUS]
        if dyn[t, D_MOOD] == 2:
            d_total += rules[R_CALM_BONUS]  # the draft's Calm (a reading)
        return False, True, d_stat, d_total, d_six, d_ones
    if rules[R_DOWNED_DEFENCE] == 0:  # a human defends with Tenacity, no explosions
        d_stat = comb[t, C_TEN]
        d_total = sum_d6(chk, 2) + d_stat - roll_penalty(t, w) - human_penalty(t, w)
        return False, False, d_stat, d_total, 0, d_ones
    return False, False, 0, -(1 << 40), 0, d_ones


@part
def damage_dice(combined, first_die, w):
    """The damage dice of the attack, drawn now from a random damage stream (every
    attack, hit or miss, the first die from a combined draw: the duel fast path
    stays branch-free and bit-identical, and the values a hit uses are fair dice
    either way); -1 with injected dice, read on a hit only."""
    comb, rules, dyn, streams, bf = unpack(w)
    dmg_st = streams[S_DAMAGE]
    ndice = rules[R_DAMAGE_DICE]
    dmg_dice = -1
    if dmg_st[6] == 0:
        if combined:
            dmg_dice = first_die
            if ndice > 1:
                dmg_dice += sum_dice(dmg_st, ndice - 1, 6)
        else:
            dmg_dice = sum_dice(dmg_st, ndice, 6)
    return dmg_dice


@part
def contest(i, t, passive, magical, a_bonus, a_total, a_six, a_ones, a_pd, d_stat, d_total, d_six, w):
    """The boosts and the re-roll (L1453, L1565, L1545): each side boosts by its policy
    (:func:`_boost_ok`) until neither will; a miss may be re-rolled once with Want it
    Hard, Want it Now (the first roll's sixes still give overcharge, its boost dice
    are lost, A55 i-ii; the draft's Second Chance Attack takes her Minor). Returns
    ``(hit, attack total, sixes, boosts, defence total, sixes, boosts, ones)``."""
    comb, rules, dyn, streams, bf = unpack(w)
    chk = streams[S_CHECK]
    a_stat = comb[i, C_ATT]
    a_role = comb[i, C_RA]
    d_role = comb[t, C_RD]
    a_boosts = 0
    d_boosts = 0
    bpr = rules[R_BOOSTS_PER_ROLL]
    full_tie = rules[R_FULL_TIE] == 1
    boosting = comb[i, P_BOOST] != BOOST_NEVER
    if magical:
        if comb[t, P_BOOST] != BOOST_NEVER:
            boosting = True
    tie_mode = rules[R_MINION_TIE]
    rerolled = not holds(T_REROLL, i, t, w)  # without a REROLL hook there is nothing to re-roll with
    hit = _hits(passive, tie_mode, a_total, a_six, a_stat, d_total, d_six, d_stat, full_tie)
    while True:
        while boosting:
            hit = _hits(passive, tie_mode, a_total, a_six, a_stat, d_total, d_six, d_stat, full_tie)
            if _boost_ok(i, a_role, a_boosts, bpr, not hit, d_total - a_total, a_stat, d_stat, a_six, w):
                r, s = _spend_boost(i, a_role, chk, w)
                a_total += r
                a_six += s
                a_boosts += 1
                continue
            d_ok = False
            if magical:
                d_ok = _boost_ok(t, d_role, d_boosts, bpr, hit, a_total - d_total, d_stat, a_stat, d_six, w)
            if d_ok:
                r, s = _spend_boost(t, d_role, chk, w)
                d_total += r
                d_six += s
                d_boosts += 1
                continue
            break
        if hit:
            break
        if rerolled:
            break
        rerolled = True
        if first(T_REROLL, i, t, 0, w) == 0:
            break  # no talent paid for a re-roll
        gain_overcharge(i, a_role, a_six, w)
        if a_pd:
            a_total, a_six, re_ones = exploding_d6_ones(chk, 2)
            a_ones += re_ones
        else:
            a_total, a_six = exploding_d6(chk, 2)
        a_total += a_stat - roll_penalty(i, w) + a_bonus
        a_boosts = 0
        hit = _hits(passive, tie_mode, a_total, a_six, a_stat, d_total, d_six, d_stat, full_tie)
    return hit, a_total, a_six, a_boosts, d_total, d_six, d_boosts, a_ones


@part
def hit_damage(i, t, a_six, d_six, a_boosts, d_boosts, dmg_dice, dmg_bonus, hit_dice, hit_plus, fury_dice, w):
    """The damage of ``i``'s hit on ``t`` before it lands (L1453, A22 order): the dice,
    her attack's bonus, +2 per her six and -2 per his, the boosts' +/-2 (Monster Boost
    only on attacks, L2068), what her talents declared (``dmg_bonus``; ``hit_dice`` d6 +
    ``hit_plus``: Killing Blow and the like) and add now (ALL_IN), the frenzy's +1d6
    (L756), what replaces it (DAMAGE: Magic Detonation), the minimum, a weapon's 1d6 to
    a human at 0 Resolve (A17b), then an ally's Intercept (INTERCEPT, L1469) and the
    reductions (REDUCE: Thick Hide, Shield, Bulwark, Reflector)."""
    comb, rules, dyn, streams, bf = unpack(w)
    dmg_st = streams[S_DAMAGE]
    dyn[i, K_HITS] += 1
    if dmg_dice < 0:
        dmg_dice = sum_dice(dmg_st, rules[R_DAMAGE_DICE], 6)
    dmg = dmg_dice + comb[i, C_DMG] + dyn[i, D_DMG_ADJ]
    dmg += rules[R_SIX_DAMAGE] * a_six - rules[R_DEFENDER_SIX_DAMAGE] * d_six
    if rules[R_BOOST_DAMAGE] == 0:
        d_flat = d_boosts
        if comb[t, C_MONSTER] != 0:
            d_flat = 0  # Monster Boost adds damage on attacks only (L2068)
        dmg += BOOST_FLAT_DAMAGE * (a_boosts - d_flat)
    dmg += dmg_bonus
    dmg += total(T_ALL_IN, i, t, 0, w)
    if hit_dice | hit_plus != 0:
        dmg += sum_d6(dmg_st, hit_dice) + hit_plus
    if fury_dice > 0:
        dmg += sum_d6(dmg_st, fury_dice)  # the frenzy's +1d6 (L756)
    dmg = chain(T_DAMAGE, i, t, dmg, w)
    if dmg < rules[R_MIN_DAMAGE]:
        dmg = rules[R_MIN_DAMAGE]
    if dyn[t, D_RES] <= 0:
        if rules[R_DOWNED_DAMAGE] == 1:
            if comb[t, C_MONSTER] == 0:
                dmg = sum_d6(dmg_st, 1)  # A17b: to a non-magical human, a regular weapon's 1d6 (L1455)
    dmg = chain(T_INTERCEPT, i, t, dmg, w)
    return chain(T_REDUCE, t, i, dmg, w)


@part
def land_hit(i, t, dmg, w):
    """``i``'s hit lands on ``t`` for ``dmg`` (LAND: Drain Life divides it); what it sets off
    (HIT: Follow Up's mark, Life Bomb, Implode, Drain Life's heal, an ailment attack's
    ailment, Belkan System's stored bonus, Make an Opening, Inflict, Seal Magic). Returns
    the damage dealt."""
    comb, rules, dyn, streams, bf = unpack(w)
    dmg = chain(T_LAND, i, t, dmg, w)
    dealt = apply_damage(t, dmg, w)
    dyn[i, K_DEALT] += dealt
    dyn[t, K_TAKEN] += dealt
    every(T_HIT, i, t, dealt, w)
    return dealt


@part
def after_attack(i, t, hit, w):
    """After ``i``'s attack on ``t``, hit or miss: AFTER_ATTACK (Follow Target's count,
    Backlash on a girl attacking it, L1956, Disruptive Strikes on a girl, L2028), a
    frenzied target's retaliation due (L758), the bursts the rolls' overcharge made due."""
    comb, rules, dyn, streams, bf = unpack(w)
    every(T_AFTER_ATTACK, i, t, 1 if hit else 0, w)
    if dyn[t, D_FRENZY] != 0:
        if rules[R_FURY_RETALIATE] != 0:
            dyn[t, D_RETALIATE] = i  # she may strike back after this action (L758)
            dyn[0, D_DUE] = 1
    check_bursts(i, w)
    check_bursts(t, w)


@kernel
def p_attack(i, t, c, w):
    """PR_ATTACK: :func:`attack`; the damage dealt, -1 on a miss."""
    comb, rules, dyn, streams, bf = unpack(w)
    return attack(i, t, w)
