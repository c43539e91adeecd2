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
from .hooks import DECLARE_GATE, DECLARE_GATE2, REDUCE_GATE
from .world import call, unpack
from .ailments import give_ailment
from .damage import apply_damage, human_penalty, restore
from .overcharge import check_bursts, fury_spend, gain_overcharge
from .slots import find_usable, has_code, pay_slot
from .state import _hits, is_standing, roll_penalty, sealed
from .talents.areas import veil_penalty
from .talents.defence import defence_dice
from .talents.heal import find_drain
from .talents.riders import belkan_hit, detonation_damage, follow_target_after, opening_bonus


@part
def can_boost(i, stat, pending, comb, dyn):
    """Boost is possible: uses left, standing, and for a girl the +1 overcharge
    within her cap; a monster needs Monster Boost (its only source of Boost
    uses) and a point in its pool (L2068).

    ``pending``: overcharge the roll already carries but that is not on the
    counter yet (its sixes, L149); a boost decided after the roll must count it.
    """
    if dyn[i, D_BOOSTS] <= 0:
        return False
    if dyn[i, D_RES] <= 0:
        return False
    if sealed(i, dyn):
        return False
    if comb[i, C_MONSTER] != 0:
        return dyn[i, D_POOL] >= 1
    if dyn[i, D_FRENZY] != 0:
        return False  # a frenzy's only talents are paid with Fury overcharge (L752; A9ii: no Boost)
    return dyn[i, D_OC + stat] + pending + 1 <= comb[i, P_OCCAP]


@part
def _wants_boost(i, losing, deficit, own_stat, opp_stat, boosted, comb, rules):
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


@kernel(inline="always")
def _boost_ok(i, role, boosted, bpr, losing, deficit, own_stat, opp_stat, pending, comb, rules, dyn):
    if boosted >= bpr:
        return False
    if rules[R_BOOST_TIMING] == 1:
        pending = 0  # declared before rolling: the roll's sixes are not known yet
    if not can_boost(i, role, pending, comb, dyn):
        return False
    return _wants_boost(i, losing, deficit, own_stat, opp_stat, boosted, comb, rules)


@kernel(inline="always")
def _takes_passive(t, comb, rules):
    if rules[R_PASSIVE_DEFENCE] < 0:
        return False
    return comb[t, P_PASSIVE] != 0


@kernel(inline="always")
def _spend_boost(i, role, chk, comb, rules, dyn):
    """One Boost (L1565): a use, +1 overcharge on the rolled stat, and an
    exploding die; returns the die's ``(total, sixes)``. A monster's Monster
    Boost costs 1 from its pool (L2068)."""
    dyn[i, D_BOOSTS] -= 1
    dyn[i, K_BOOSTS] += 1
    if comb[i, C_MONSTER] != 0:
        dyn[i, D_POOL] -= 1
        dyn[i, K_POOL_SPENT] += 1
    else:
        gain_overcharge(i, role, 1, comb, rules, dyn)
    return exploding_d6(chk, 1)


@part
def attack(i, t, w):
    """Basic attack of ``i`` on ``t`` (L1453). Returns the damage dealt (>= 0), -1 on a miss.

    In this order: what her talents add before the roll (:func:`attack_bonus`:
    Killing Blow, Binding/Debilitating Attack, Desperation, Memory Blaze, Follow
    Target... declared and paid, Make an Opening, Veil); the rolls
    (:func:`roll_attack`, :func:`roll_defence`: the defender's Ranged/Melee Defence
    dice and Second Wind bonus, a minion's passive defence, a human's Tenacity);
    the boosts and a re-roll of a miss (:func:`contest`: Want it Hard, Want it
    Now); the sixes' overcharge; on a hit the damage (:func:`hit_damage`: bonuses,
    then Intercept and the reductions: Thick Hide, Shield, Bulwark, Reflector) and
    what it sets off (:func:`land_hit`: Drain Life, ailments, Make an Opening,
    Inflict, Seal Magic); after the attack Backlash, Disruptive Strikes and a
    frenzied target's retaliation (:func:`after_attack`).
    """
    comb, rules, dyn, streams, bf = unpack(w)
    a_bonus, dmg_bonus, kb_slot, ail_slot, open_slot = attack_bonus(i, t, w)
    if dyn[i, D_MOOD] == 1:
        a_bonus += rules[R_EXCITED_BONUS]  # the draft's Excited (a reading: the seed never defines it)
    a_pd, d_pd, combined = roll_modes(i, t, comb, rules, dyn, streams)
    a_total, a_six, a_ones, od_total, od_six, first_die = roll_attack(i, a_bonus, combined, a_pd, comb, rules, dyn,
                                                                      streams)
    passive, magical, d_stat, d_total, d_six, d_ones = roll_defence(i, t, combined, d_pd, od_total, od_six, w)
    dmg_dice = damage_dice(combined, first_die, rules, streams)
    hit, a_total, a_six, a_boosts, d_total, d_six, d_boosts, a_ones = contest(
        i, t, passive, magical, a_bonus, a_total, a_six, a_ones, a_pd, d_stat, d_total, d_six, w)
    if hit:
        if comb[t, C_TMASK] != 0:
            if magical:
                if (comb[t, C_TMASK] >> E_MORE) & 1 != 0:
                    if has_code(t, E_EVASION, comb):
                        hit = call(rules[PR_EVASION], t, a_total, d_total, w) == 0
    gain_overcharge(i, comb[i, C_RA], a_six, comb, rules, dyn)
    if magical:
        gain_overcharge(t, comb[t, C_RD], d_six, comb, rules, dyn)
    if a_ones > 0:
        call(rules[PR_DAMPEN_ROLL], i, 0, 0, w)
    if d_ones > 0:
        call(rules[PR_DAMPEN_ROLL], t, 0, 0, w)
    dyn[i, K_ATTACKS] += 1
    fury_dice = 0
    if dyn[i, D_FRENZY] != 0:
        fury_dice = fury_spend(i, hit, rules, dyn)
    dealt = -1
    if not hit:
        if magical:
            if (comb[t, C_TMASK] >> E_AURA_STRENGTH) & 1 != 0:
                call(rules[PR_MISS], t, i, 0, w)
    if hit:
        dmg = hit_damage(i, t, a_six, d_six, a_boosts, d_boosts, dmg_dice, dmg_bonus, kb_slot, fury_dice, w)
        dealt = land_hit(i, t, dmg, ail_slot, open_slot, w)
    after_attack(i, t, hit, w)
    return dealt


@part
def attack_bonus(i, t, w):
    """What ``i``'s talents and her side's add to her attack on ``t`` before the roll:
    ``(attack bonus, damage bonus, Killing Blow-like slot, ailment slot, Make an
    Opening slot)`` (the hook DECLARE, :func:`declare_riders`, when her talents open
    its gate; Make an Opening's bonus from an ally's; Veil's penalty)."""
    comb, rules, dyn, streams, bf = unpack(w)
    a_bonus = 0
    dmg_bonus = 0
    kb_slot = -1
    ail_slot = -1
    open_slot = -1
    if (comb[i, C_TMASK] & DECLARE_GATE) | (comb[i, C_TMASK2] & DECLARE_GATE2) != 0:
        call(rules[PR_DECLARE], i, t, 0, w)  # declare_riders, into her D_DECLARE
        a_bonus = dyn[i, D_DECLARE]
        dmg_bonus = dyn[i, D_DECLARE + 1]
        kb_slot = dyn[i, D_DECLARE + 2]
        ail_slot = dyn[i, D_DECLARE + 3]
        open_slot = dyn[i, D_DECLARE + 4]
    if (comb[i, C_SIDEMASK] >> E_OPENING) & 1 != 0:
        a_bonus += opening_bonus(i, t, comb, dyn)
    if (comb[t, C_TMASK] >> E_VEIL) & 1 != 0:
        a_bonus -= veil_penalty(i, t, comb, rules, dyn)
    return a_bonus, dmg_bonus, kb_slot, ail_slot, open_slot


@part
def roll_modes(i, t, comb, rules, dyn, streams):
    """How the dice of ``i``'s attack on ``t`` are drawn: ``(attacker's Power Dampening,
    defender's, combined)``. A random check stream and a rolled 2d6! defence: one draw
    gives both pools and the first damage die (:func:`sim.dice.opposed_2d6`; the duel
    fast path draws the same); injected dice go die by die in the book's order. Power
    Dampening rolls her dice one by one to see the 1s (L1554)."""
    combined = False
    if streams[S_CHECK, 6] == 0:
        if comb[t, C_PDEF] < 0:
            if dyn[t, D_RES] > 0:
                combined = not _takes_passive(t, comb, rules)
    a_pd = False
    if comb[i, C_TMASK] != 0:
        a_pd = has_code(i, E_POWER_DAMPENING, comb)
    d_pd = False
    if comb[t, C_TMASK] != 0:
        if rules[R_POWER_DAMPENING_ROLLS] == 1:
            d_pd = has_code(t, E_POWER_DAMPENING, comb)
    if a_pd | d_pd:
        combined = False
    return a_pd, d_pd, combined


@part
def roll_attack(i, a_bonus, combined, a_pd, comb, rules, dyn, streams):
    """``i``'s 2d6! + Attack (L1453) with her bonus (the draft's Excited in it): ``(total, sixes, ones, the defence's
    total and sixes of a combined draw, the first damage die of a combined draw)``."""
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
    a_total += comb[i, C_ATT] - roll_penalty(i, rules, dyn) + a_bonus
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
        if _takes_passive(t, comb, rules):
            return False, False, d_stat, d_stat + rules[R_PASSIVE_DEFENCE], 0, d_ones
        if combined:
            d_total = od_total
            d_six = od_six
        elif d_pd:
            d_total, d_six, d_ones = exploding_d6_ones(chk, 2)
        else:
            d_total, d_six = exploding_d6(chk, 2)
        d_extra = 0
        if (comb[t, C_TMASK] >> E_DEFENCE_DIE) & 1 != 0:
            d_extra = defence_dice(i, t, comb, dyn)
        if d_extra > 0:
            x_total, x_six = exploding_d6(chk, d_extra)
            d_total += x_total
            d_six += x_six
        d_total += d_stat - roll_penalty(t, rules, dyn) + dyn[t, D_DEF_BONUS]
        if dyn[t, D_MOOD] == 2:
            d_total += rules[R_CALM_BONUS]  # the draft's Calm (a reading)
        return False, True, d_stat, d_total, d_six, d_ones
    if rules[R_DOWNED_DEFENCE] == 0:  # a human defends with Tenacity, no explosions
        d_stat = comb[t, C_TEN]
        d_total = sum_d6(chk, 2) + d_stat - roll_penalty(t, rules, dyn) - human_penalty(t, rules, dyn)
        return False, False, d_stat, d_total, 0, d_ones
    return False, False, 0, -(1 << 40), 0, d_ones


@part
def damage_dice(combined, first_die, rules, streams):
    """The damage dice of the attack, drawn now from a random damage stream (every
    attack, hit or miss, the first die from a combined draw: the duel fast path
    stays branch-free and bit-identical, and the values a hit uses are fair dice
    either way); -1 with injected dice, read on a hit only."""
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
    rerolled = comb[i, C_TMASK] == 0  # without talents there is nothing to re-roll with
    hit = _hits(passive, tie_mode, a_total, a_six, a_stat, d_total, d_six, d_stat, full_tie)
    while True:
        while boosting:
            hit = _hits(passive, tie_mode, a_total, a_six, a_stat, d_total, d_six, d_stat, full_tie)
            if _boost_ok(i, a_role, a_boosts, bpr, not hit, d_total - a_total, a_stat, d_stat, a_six,
                         comb, rules, dyn):
                r, s = _spend_boost(i, a_role, chk, comb, rules, dyn)
                a_total += r
                a_six += s
                a_boosts += 1
                continue
            d_ok = False
            if magical:
                d_ok = _boost_ok(t, d_role, d_boosts, bpr, hit, a_total - d_total, d_stat, a_stat, d_six,
                                 comb, rules, dyn)
            if d_ok:
                r, s = _spend_boost(t, d_role, chk, comb, rules, dyn)
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
        s_re = find_usable(i, E_REROLL, comb, dyn)
        if s_re < 0:
            break
        if comb[i, C_TP1 + s_re] != 0:
            if dyn[i, D_MINOR_USED] != 0:
                break
            dyn[i, D_MINOR_USED] = 1
        pay_slot(i, s_re, w)
        gain_overcharge(i, a_role, a_six, comb, rules, dyn)
        if a_pd:
            a_total, a_six, re_ones = exploding_d6_ones(chk, 2)
            a_ones += re_ones
        else:
            a_total, a_six = exploding_d6(chk, 2)
        a_total += a_stat - roll_penalty(i, rules, dyn) + a_bonus
        a_boosts = 0
        hit = _hits(passive, tie_mode, a_total, a_six, a_stat, d_total, d_six, d_stat, full_tie)
    return hit, a_total, a_six, a_boosts, d_total, d_six, d_boosts, a_ones


@part
def hit_damage(i, t, a_six, d_six, a_boosts, d_boosts, dmg_dice, dmg_bonus, kb_slot, fury_dice, w):
    """The damage of ``i``'s hit on ``t`` before it lands (L1453, A22 order): the dice,
    her attack's bonus, +2 per her six and -2 per his, the boosts' +/-2 (Monster Boost
    only on attacks, L2068), her talents' bonuses (All or Nothing, Killing Blow), the
    frenzy's +1d6 (L756), Magic Detonation's overcharge instead, the minimum, a weapon's
    1d6 to a human at 0 Resolve (A17b), then Intercept (L1469) and the reductions
    (Thick Hide, Shield, Bulwark, Reflector)."""
    comb, rules, dyn, streams, bf = unpack(w)
    dmg_st = streams[S_DAMAGE]
    a_mask = comb[i, C_TMASK]
    dyn[i, K_HITS] += 1
    if (comb[i, C_SIDEMASK] >> E_FOLLOW_UP) & 1 != 0:
        dyn[t, D_HIT_BY] = i   # Follow Up: an ally may follow this hit next turn
        dyn[t, D_HIT_AT] = dyn[0, D_CLOCK]
    if dmg_dice < 0:
        dmg_dice = sum_dice(dmg_st, rules[R_DAMAGE_DICE], 6)
    dmg = dmg_dice + comb[i, C_DMG] + dyn[i, D_DMG_ADJ]
    dmg += rules[R_SIX_DAMAGE] * a_six - rules[R_DEFENDER_SIX_DAMAGE] * d_six
    if rules[R_BOOST_DAMAGE] == 0:
        d_flat = d_boosts
        if comb[t, C_MONSTER] != 0:
            d_flat = 0  # Monster Boost adds damage on attacks only (L2068)
        dmg += BOOST_FLAT_DAMAGE * (a_boosts - d_flat)
    if a_mask != 0:
        dmg += dmg_bonus
        if (a_mask >> E_ALL_OR_NOTHING) & 1 != 0:
            dmg += call(rules[PR_ALL_IN], i, 0, 0, w)
        if kb_slot >= 0:
            # Killing Blow (L1821): a hit deals +P1 d6 + P2
            dmg += sum_d6(dmg_st, comb[i, C_TP1 + kb_slot]) + comb[i, C_TP2 + kb_slot]
    if fury_dice > 0:
        dmg += sum_d6(dmg_st, fury_dice)  # the frenzy's +1d6 (L756)
    if kb_slot >= 0:
        if comb[i, C_TCODE + kb_slot] == E_DETONATION:
            dmg = detonation_damage(t, comb, dyn)  # "instead of the usual damage" (DRAFT L311)
    if dmg < rules[R_MIN_DAMAGE]:
        dmg = rules[R_MIN_DAMAGE]
    if dyn[t, D_RES] <= 0:
        if rules[R_DOWNED_DAMAGE] == 1:
            if comb[t, C_MONSTER] == 0:
                dmg = sum_d6(dmg_st, 1)  # A17b: to a non-magical human, a regular weapon's 1d6 (L1455)
    if dyn[t, D_GUARD] >= 0:  # an ally may intercept (grid and positions, L1469)
        dmg = call(rules[PR_INTERCEPT], i, t, dmg, w)
    if comb[t, C_SIDEMASK] != 0:
        if (comb[t, C_SIDEMASK] & REDUCE_GATE) != 0:  # Thick Hide on her, a Shield / Bulwark on her side
            dmg = call(rules[PR_REDUCE], t, 0, dmg, w)
        if dyn[t, D_REFLECT_BY] >= 0:
            dmg = call(rules[PR_REFLECT], i, t, dmg, w)
    return dmg


@part
def land_hit(i, t, dmg, ail_slot, open_slot, w):
    """``i``'s hit lands on ``t`` for ``dmg``: Drain Life halves it (round down, A46)
    and heals her for what it dealt (L1815); what her side's talents set off
    (AFTER_HIT: Life Bomb, Implode); her ailment attack's ailment, Belkan System's
    stored bonus, Make an Opening (L1776: allies get +P1 against ``t`` until the end
    of her next turn), Inflict, Seal Magic. Returns the damage dealt."""
    comb, rules, dyn, streams, bf = unpack(w)
    a_mask = comb[i, C_TMASK]
    drain = -1
    if (a_mask >> E_DRAIN) & 1 != 0:
        drain = find_drain(i, comb, dyn)
        if drain >= 0:
            pay_slot(i, drain, w)
            dmg = dmg // comb[i, C_TP1 + drain]
    dealt = apply_damage(t, dmg, w)
    dyn[i, K_DEALT] += dealt
    dyn[t, K_TAKEN] += dealt
    if comb[t, C_SIDEMASK] != 0:
        # what after_hit plays: her Life Bomb, the attacker's Implode
        if dyn[t, D_BOMB] != 0 or dyn[i, D_IMPLODE_BY] >= 0:
            call(rules[PR_AFTER_HIT], i, t, dealt, w)
    if a_mask != 0:
        if drain >= 0:
            restore(i, i, dealt, comb, dyn)
        if ail_slot >= 0:
            if is_standing(dyn, t):
                give_ailment(t, comb[i, C_TP1 + ail_slot], dyn)
        if (a_mask >> E_BELKAN) & 1 != 0:
            belkan_hit(i, comb, dyn)
        if open_slot >= 0:
            dyn[t, D_OPEN_BY] = i
            dyn[t, D_OPEN_UNTIL] = dyn[i, D_TURNS_DONE] + 2
            dyn[t, D_OPEN_BONUS] = comb[i, C_TP1 + open_slot]
        if has_code(i, E_INFLICT, comb):
            call(rules[PR_INFLICT], i, t, 0, w)
        if (a_mask >> E_SEAL_MAGIC) & 1 != 0:
            call(rules[PR_SEAL], i, t, 0, w)
    return dealt


@part
def after_attack(i, t, hit, w):
    """After ``i``'s attack on ``t``, hit or miss: Follow Target's count, Backlash on a
    girl attacking it (L1956), Disruptive Strikes on a girl (L2028), a frenzied
    target's retaliation due (L758), the bursts the rolls' overcharge made due."""
    comb, rules, dyn, streams, bf = unpack(w)
    a_mask = comb[i, C_TMASK]
    t_mask = comb[t, C_TMASK]
    if (a_mask >> E_FOLLOW_TARGET) & 1 != 0:
        follow_target_after(i, t, hit, comb, dyn)
    if t_mask != 0:
        if comb[i, C_MONSTER] == 0:
            if (t_mask >> E_BACKLASH) & 1 != 0:
                call(rules[PR_BACKLASH], i, t, 1 if hit else 0, w)
    if a_mask != 0:
        if comb[t, C_MONSTER] == 0:
            if (a_mask >> E_DISRUPTIVE) & 1 != 0:
                call(rules[PR_DISRUPTIVE], i, t, 0, w)
    if dyn[t, D_FRENZY] != 0:
        if rules[R_FURY_RETALIATE] != 0:
            dyn[t, D_RETALIATE] = i  # she may strike back after this action (L758)
            dyn[0, D_DUE] = 1
    check_bursts(i, comb, rules, dyn)
    check_bursts(t, comb, rules, dyn)


@kernel
def p_attack(i, t, c, w):
    """PR_ATTACK: :func:`attack`; the damage dealt, -1 on a miss."""
    comb, rules, dyn, streams, bf = unpack(w)
    return attack(i, t, w)
