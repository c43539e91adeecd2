"""Damage and Resolve: hits landing, wounds, death, the revive roll, healing.

Resolve falls and overflow is ignored (L1420); at 0 a girl is a non-magical
human who takes wounds, dying by the wound model (L1422, A16); a monster dies
(L1892); the revive roll 2d6! + Support (L1445-1451, A19a). Intercept (L1469,
A26a) lets an ally take a hit. Healing never passes the maximum (:func:`restore`).
"""
from __future__ import annotations

from sim._jit import kernel
from sim.dice import exploding_d6, sum_d6

from .codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from .layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from .gates import T_BROOD, T_DEATH, T_DROP, T_INTERCEPTED, T_LINK_DAMAGE, T_REDUCE
from .points import chain, every, first
from .world import unpack
from .overcharge import check_bursts, gain_overcharge
from .state import is_standing, roll_penalty, side_alive, wound_level


@kernel
def copy_destroyed(t, w):
    """Her copy took damage and is destroyed (L1834): its row goes back to
    the reserve, so she may make a new one with another use."""
    comb, rules, dyn, streams, bf = unpack(w)
    g = comb[t, C_SPAWN_BY]
    dyn[g, D_COPY] = 0
    dyn[g, K_COPY_ABSORBED] += 1
    dyn[t, D_ABSENT] = 1


@kernel
def revive_roll(t, w):
    """The revive roll (L1445-1451): 2d6! + Support, overcharge and Resolve by band.

    The Resolve comes back at the start of her next turn (A19a); it is
    stored in ``D_PENDING``.
    """
    comb, rules, dyn, streams, bf = unpack(w)
    total, sixes = exploding_d6(streams[S_CHECK], 2)
    total += comb[t, C_SUP] - roll_penalty(t, w)
    stat = comb[t, C_RS]
    if total <= rules[R_REVIVE_BANDS]:
        band = 0
    elif total <= rules[R_REVIVE_BANDS + 1]:
        band = 1
    else:
        band = 2
    gain_overcharge(t, stat, sixes + rules[R_REVIVE_OC + band], w)
    dyn[t, D_PENDING] = sum_d6(streams[S_DAMAGE], 1) + rules[R_REVIVE_BONUS + band]
    dyn[t, D_REVIVES] += 1
    dyn[t, K_REVIVES] += 1


@kernel
def dropped(t, w):
    """``t`` has just dropped to 0 Resolve (L1420): a KO; a monster is dead
    (L1892); a girl makes her revive roll if the rules allow one (L1445,
    A19a), or rolls it as her next Major action in the draft. Under ``defeat:
    all_down`` a girl whose drop leaves no one of her side standing makes no
    roll: the fight ends at the end of this turn, before the Resolve could come
    back (:func:`revive_can_act`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[t, K_KOS] += 1
    if dyn[t, D_KO] == 0:
        dyn[t, D_KO] = 1
        dyn[t, K_KO_TRIALS] += 1
    every(T_DROP, t, t, 0, w)  # what ends when she drops (Amplify on her, her Courage)
    if comb[t, C_MONSTER] != 0:
        if first(T_BROOD, t, t, 0, w) != 0:
            return  # kept in the fight (Undying Brood)
        dyn[t, D_DEAD] = 1
        dyn[t, K_DEATHS] += 1
        every(T_DEATH, t, t, 0, w)  # its Fear Aura ends
        if comb[t, C_SPAWN_KIND] == SPAWN_COPY:
            copy_destroyed(t, w)
    elif rules[R_REVIVE] != 0:
        allowed = True
        if dyn[t, D_FRENZY] != 0:
            allowed = end_frenzy_on_drop(t, w)
        if rules[R_REVIVE_LIMIT] >= 0:
            if dyn[t, D_REVIVES] >= rules[R_REVIVE_LIMIT]:
                allowed = False
        if allowed and revive_can_act(t, w):
            if rules[R_REVIVE_TIMING] == 1:
                dyn[t, D_PENDING] = -2  # the draft: she rolls as her next Major action
            else:
                revive_roll(t, w)
    elif dyn[t, D_FRENZY] != 0:
        end_frenzy_on_drop(t, w)


@kernel(forceinline=True)
def revive_can_act(t, w):
    """A revive of ``t`` can take effect (L1445: the Resolve comes "at the beginning of her
    next turn"): always under ``defeat: all_dead`` (she keeps her side in) and ``all_out``
    (her pending revive keeps it in); under ``all_down`` only while another of her side
    stands, else her side is out at the end of this turn."""
    comb, rules, dyn, streams, bf = unpack(w)
    if rules[R_DEFEAT] != 0:
        return True
    return side_alive(comb[t, C_SIDE], w)


@kernel
def end_frenzy_on_drop(t, w):
    """A frenzied girl at 0 Resolve: the frenzy ends (L760) and its Fury
    counter is gone; returns whether she still makes the revive roll (A9iv)."""
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[t, D_FRENZY] = 0
    dyn[t, D_OC + FURY] = 0
    return rules[R_FURY_DROP] == 0


@kernel(forceinline=True)
def apply_damage(t, dmg, w):
    """Deal ``dmg`` to ``t``; returns the damage that took effect.

    Above 0 Resolve: Resolve falls, overflow is ignored (L1420); reaching 0
    drops her (revive roll if allowed) or kills a monster. At 0 Resolve: the
    damage is wound damage; ``death_wounds`` of it kills (L1422, A16a).
    The draft's Link (DRAFT L165-169, ``damage: 1``) on ``t``: her standing
    secondary takes the same ``dmg`` too (:func:`.talents.team.link_damage`).
    """
    every(T_LINK_DAMAGE, t, t, dmg, w)  # the draft's Link copies it
    return _damage(t, dmg, w)


@kernel
def take_wound(t, dmg, w):
    """A hit of ``dmg`` wound damage on ``t`` at 0 Resolve (L1422; A16, rule
    ``wound_model``), already counted in ``D_WOUNDS`` (damage) and ``D_WOUND_HITS``
    (hits). Returns whether the wound kills her.

    * ``track`` (A16a): one track of all her wound damage; ``death_wounds`` of
      it kills.
    * ``per_hit`` (A16b): each hit a separate wound of the level its own damage
      gives (kept in ``D_WOUND_TOP``, the worst, and ``D_WOUND_LEVELS``, their
      sum); a single hit of ``death_wounds`` kills.
    * ``boxes`` (A16c): each hit fills a box, levels 1, 2, 3; the fourth kills.
    """
    comb, rules, dyn, streams, bf = unpack(w)
    model = rules[R_WOUND_MODEL]
    if model == 0:
        return dyn[t, D_WOUNDS] >= rules[R_DEATH_WOUNDS]
    if model == 1:
        lv = wound_level(dmg)
        if lv > dyn[t, D_WOUND_TOP]:
            dyn[t, D_WOUND_TOP] = lv
        dyn[t, D_WOUND_LEVELS] += lv
        return dmg >= rules[R_DEATH_WOUNDS]
    return dyn[t, D_WOUND_HITS] > 3


@kernel
def wound_levels(t, worst, w):
    """Her wound level by the wound model (:func:`take_wound`): ``track`` the
    level of her total wound damage (:func:`wound_level`), ``boxes`` the boxes
    filled (at most 3), ``per_hit`` her worst wound (``worst``, for the roll
    penalty) or the sum of her wounds' levels (for the maximum-Resolve penalty
    between scenes, A18i a)."""
    comb, rules, dyn, streams, bf = unpack(w)
    model = rules[R_WOUND_MODEL]
    if model == 0:
        return wound_level(dyn[t, D_WOUNDS])
    if model == 1:
        if worst:
            return dyn[t, D_WOUND_TOP]
        return dyn[t, D_WOUND_LEVELS]
    h = dyn[t, D_WOUND_HITS]
    return h if h < 3 else 3


@kernel(forceinline=True)
def human_penalty(t, w):
    """The penalty her wounds give the rolls of ``t`` at 0 Resolve, a non-magical
    human (L1422: -2 / -3 / -4 by wound level, rule ``wound_roll_penalty``; a
    transformed girl ignores them, L1443)."""
    comb, rules, dyn, streams, bf = unpack(w)
    lv = wound_levels(t, True, w)
    if lv <= 0:
        return 0
    return rules[R_WOUND_ROLL_PENALTY + lv - 1]


@kernel
def _damage(t, dmg, w):
    """:func:`apply_damage` without the Link's copy."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dmg <= 0:
        return 0
    if dyn[t, D_DEAD] != 0:
        return 0
    if dyn[t, D_RES] > 0:
        take = dmg if dmg < dyn[t, D_RES] else dyn[t, D_RES]
        dyn[t, D_RES] -= take
        if comb[t, C_TMASK] != 0:
            if dyn[t, D_RES] * 2 <= comb[t, C_RES]:
                dyn[t, D_STICKY] = 1  # Memory Blaze: reached half of its Base Resolve
        if dyn[t, D_RES] == 0:
            dropped(t, w)
        return take
    dyn[t, D_WOUNDS] += dmg
    dyn[t, D_WOUND_HITS] += 1
    dyn[t, K_WOUND_DMG] += dmg
    if take_wound(t, dmg, w):
        dyn[t, D_DEAD] = 1
        dyn[t, D_PENDING] = -1
        dyn[t, K_DEATHS] += 1
    return dmg


@kernel
def intercept(i, t, dmg, w):
    """Intercept (L1469, A26a), called by :func:`.attack.attack` after a hit
    on ``t`` for ``dmg`` when ``D_GUARD`` names an ally (the grid turn, :func:`.hex.guard_for`; Cover on positions, :func:`.positions.ready`): if her policy is
    willing she rolls 2d6! + Defence; returns the damage left for ``t``. Her share is
    reduced by rule ``intercept_reductions``: her Thick Hide only (INTERCEPTED, L1997),
    or the reductions of a hit on her (REDUCE), after the target's on the whole hit (both)."""
    comb, rules, dyn, streams, bf = unpack(w)
    j = dyn[t, D_GUARD]
    dyn[t, D_GUARD] = -1
    if dmg <= 0:
        return dmg
    if not is_standing(j, w):
        return dmg
    if dyn[t, D_RES] > 0:  # a downed target always needs it
        left = dyn[t, D_RES] - dmg
        if left * 100 >= comb[j, P_INTERCEPT] * comb[t, C_RES]:
            return dmg
    total, sixes = exploding_d6(streams[S_CHECK], 2)
    total += comb[j, C_DEF] - roll_penalty(j, w)
    gain_overcharge(j, comb[j, C_RD], sixes, w)
    if total <= rules[R_INTERCEPT_BANDS]:
        check_bursts(j, w)
        return dmg
    mode = rules[R_INTERCEPT_REDUCTIONS]
    if mode == 2:  # both: the target's reductions on the whole hit first
        dmg = chain(T_REDUCE, t, i, dmg, w)
    take = dmg
    if total > rules[R_INTERCEPT_BANDS + 1]:
        take = dmg // 2
        if rules[R_INTERCEPT_HALF] == 1:
            take = (dmg + 1) // 2
    if mode == 0:
        take = chain(T_INTERCEPTED, j, i, take, w)  # her Thick Hide (L1997)
    else:
        take = chain(T_REDUCE, j, i, take, w)  # a hit on her
    d = apply_damage(j, take, w)
    dyn[j, K_TAKEN] += d
    dyn[i, K_DEALT] += d
    dyn[j, K_INTERCEPTS] += 1
    dyn[j, K_INTERCEPT_DMG] += d
    check_bursts(j, w)
    return 0


@kernel
def _heal(i, j, amount, w):
    comb, rules, dyn, streams, bf = unpack(w)
    if amount > 0:
        amount += dyn[j, D_AMP_HEAL]  # Amplify Magic: +P1 from every healing effect (L1797)
    room = comb[j, C_RES] - dyn[j, D_RES]
    if amount > room:
        amount = room
    if amount < 0:
        amount = 0
    if dyn[j, D_FRENZY] != 0:
        amount = 0  # a frenzied girl has "no other ways of recovering resolve" (L750)
    dyn[j, D_RES] += amount
    dyn[i, K_HEALED] += amount
    return amount


@kernel
def restore(i, j, amount, w):
    """``i`` restores up to ``amount`` Resolve to ``j`` (never above her maximum);
    returns what ``j`` got. A Link on ``j`` gives her secondary, if standing,
    the same amount (A47b), capped by her own maximum; not on an enemy
    link of the draft's Link (``D_LINK_DMG``: the linker gives no copy of
    her enemies' healing)."""
    comb, rules, dyn, streams, bf = unpack(w)
    got = _heal(i, j, amount, w)
    k = dyn[j, D_LINK_TO]
    if k >= 0 and dyn[j, D_LINK_DMG] == 0:  # an enemy link (the draft's): she gives no copy of their healing
        if is_standing(k, w):
            _heal(i, k, amount, w)
    return got


@kernel
def may_guard(j, t, best, w):
    """``j`` may intercept (Cover) an attack on ``t`` and is a better guard than ``best`` (-1
    none): a standing ally of ``t`` other than ``t`` whose intercept policy is willing, who
    rolls Defence (not a minion with passive defence), with a higher Defence than ``best``
    (the first listed on ties). Where she must stand is the caller's (grid, positions)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if j == t:
        return False
    if comb[j, C_SIDE] != comb[t, C_SIDE]:
        return False
    if comb[j, P_INTERCEPT] < 0:
        return False
    if comb[j, C_PDEF] >= 0:
        return False
    if not is_standing(j, w):
        return False
    if best >= 0:
        if comb[j, C_DEF] <= comb[best, C_DEF]:
            return False
    return True


@kernel
def h_intercept(i, t, dmg, w):
    """INTERCEPT: an ally named in ``D_GUARD`` may take the hit (:func:`intercept`); the damage
    left for ``t`` (grid and positions only: nothing sets ``D_GUARD`` gridless)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return intercept(i, t, dmg, w)
