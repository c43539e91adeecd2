"""The turn's moves on the draft's positions (seed 001, DRAFT L474-510; :mod:`.positions`:
the map, reach and steps): toward a target (Movement, or a movement talent of
:mod:`.positions_talents`), an attack with Cover (and Speed Burst off her turn), a
frenzy's step and band (the frenzy's choices in the one turn, :func:`.turn.take_turn`), and
the turn's slots on positions (``p_*``: the geometry's steps of the one turn).
"""
from __future__ import annotations

from sim._jit import kernel

from .codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from .layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from .world import unpack
from .slots import spend_fury
from . import state as ST
from .positions import (away, done, engaged, form_at, goal_of, is_rough, major_move, minor_move, move_to, pick, reach,
                        ready, refresh_auras, step_to)
from .positions_talents import cover_sprint_for, dash, get_back, lets_move_for, sprint, talent_move
from .turn import settle_action


@kernel(forceinline=True)
def frenzy_band(i, w):
    """A frenzy's band around her target (4.1 L746 on the draft's map): her attack's
    positions by her ``attack_kind`` (melee ``melee_positions``, ranged ``ranged_positions``)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if comb[i, C_FORM] == 1:
        return rules[R_RANGED_POSITIONS], rules[R_RANGED_POSITIONS + 1]
    return rules[R_MELEE_POSITIONS], rules[R_MELEE_POSITIONS + 1]


@kernel
def minor_toward(i, t, frenzy, w):
    """Step 2 / 4 of the turn: Movement toward her band around target ``t``
    (or the ally she protects); returns whether the Minor was spent. A frenzy's
    Minor (4.1 L746, "must attack a living target or move towards one"): Movement
    toward her attack's band of ``t`` (:func:`frenzy_band`) when ``t`` is out of her
    reach, no movement talent."""
    comb, rules, dyn, streams, bf = unpack(w)
    if frenzy:
        lo, hi = frenzy_band(i, w)
        if reach(i, t, w) >= 0:
            return False
        if not away(i, t, lo, hi, w):
            return False
        return minor_move(i, t, lo, hi, w)
    who, lo, hi = goal_of(i, t, w)
    if not away(i, who, lo, hi, w):
        return False
    if who == t and dyn[i, D_COPY] != 0:
        if reach(i, t, w) >= 0:
            return False  # her Marionette copy reaches the target: she stays
    if comb[i, C_TMASK] != 0:
        if talent_move(i, who, lo, hi, w):
            return True
        if lets_move_for(i, who, lo, hi, w):
            return True
    return minor_move(i, who, lo, hi, w)


@kernel
def major_toward(i, t, minor, frenzy, w):
    """Step 3 with nobody in reach: the Major moves her toward her band
    (Disengage when engaged); returns whether the Minor was spent too. A frenzy's
    Major: toward her attack's band of ``t`` (:func:`frenzy_band`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if frenzy:
        who = t
        lo, hi = frenzy_band(i, w)
    else:
        who, lo, hi = goal_of(i, t, w)
    if not away(i, who, lo, hi, w):
        return False
    return major_move(i, who, lo, hi, minor, w)


@kernel
def attack_call(i, t, w):
    """A basic attack of ``i`` on ``t`` on positions outside the turn's own
    attack site (a frenzy's retaliations): the auras by position,
    :func:`ready`, :func:`.state.attack_call`, :func:`done`; first, as for
    the turn's attack, an ally may Speed Burst into ``t``'s position to Cover
    her (:func:`.positions_talents.cover_sprint`). Returns what the attack returns."""
    comb, rules, dyn, streams, bf = unpack(w)
    cover_sprint_for(i, t, w)
    refresh_auras(w)
    ready(i, t, w)
    dealt = ST.attack_call(i, t, w)
    done(i, t, w)
    return dealt


@kernel
def frenzy_step(i, t, lo, hi, w):
    """The frenzy's extra point of movement (4.1 L758) on positions: when one
    plain position toward ``t`` (not engaged, not Bound, not out of a rough
    position) brings it within her reach, she spends 1 Fury on it, which pays
    for the attack that follows (``D_FURY_PAID``). Returns whether she moved."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_OC + FURY] < 1:
        return False
    if dyn[i, D_AIL + A_BOUND] != 0:
        return False
    if engaged(i, w):
        return False
    if is_rough(dyn[i, D_PLACE], w):
        return False
    p = step_to(i, t, lo, hi, w)
    if p < 0:
        return False
    d = p - dyn[t, D_PLACE]
    if d < 0:
        d = -d
    if form_at(i, d, w) < 0:
        return False
    move_to(i, p, w)
    spend_fury(i, 1, w)
    dyn[i, D_FURY_PAID] = 1
    return True


@kernel
def p_frenzy_step(i, t, c, w):
    """PR_FRENZY_STEP: :func:`frenzy_step` toward ``t`` (its band by her form, :func:`frenzy_band`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    lo, hi = frenzy_band(i, w)
    frenzy_step(i, t, lo, hi, w)
    return 0


@kernel
def p_attack_at(i, t, c, w):
    """PR_ATTACK_AT: :func:`attack_call` (the form by distance, Cover); the damage dealt, -1 none."""
    comb, rules, dyn, streams, bf = unpack(w)
    return attack_call(i, t, w)


@kernel
def p_turn_open(i, frenzy, c, w):
    """PR_TURN_OPEN on positions: the rough-terrain payment of ``rough_cost: same_turn``
    ends (A15a), the auras by position."""
    comb, rules, dyn, streams, bf = unpack(w)
    if rules[R_ROUGH_COST] == 0:
        dyn[i, D_PAID] = 0
    refresh_auras(w)
    return 0


@kernel
def p_before_major(i, b, c, w):
    """PR_BEFORE_MAJOR on positions: her policy's target ``t0`` (-1: nobody left to fight),
    Sprint (free, DRAFT L149-153), Get Back, or a Minor step toward her range
    (:func:`minor_toward`); what the step set off is settled. Returns ``t0``, -2 when she
    fell."""
    comb, rules, dyn, streams, bf = unpack(w)
    t0 = pick(i, False, w)
    if t0 < 0:
        return -1
    mask = comb[i, C_TMASK]
    if mask != 0:
        sprint(i, t0, w)  # when she holds it; no damage: she still stands
        if dyn[i, D_MINOR_USED] == 0:
            if get_back(i, w):  # an engaged, hurt ally to Position 1
                dyn[i, D_MINOR_USED] = 1
    if dyn[i, D_MINOR_USED] == 0:
        if minor_toward(i, t0, False, w):
            dyn[i, D_MINOR_USED] = 1
            if not settle_action(i, w):
                return -2
    return t0


@kernel
def p_frenzy_minor(i, t, c, w):
    """PR_FRENZY_MINOR on positions: a frenzy's Minor step toward her band of ``t``
    (:func:`minor_toward`); 1 when she stepped."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if minor_toward(i, t, True, w) else 0


@kernel
def p_target(i, t0, c, w):
    """PR_TARGET on positions: her target ``t0`` when it is in reach, else the one her policy
    prefers among those in reach, else Dash Strike toward ``t0`` when she holds it (a step,
    then the attack); -1 none."""
    comb, rules, dyn, streams, bf = unpack(w)
    t = -1
    if t0 >= 0:
        if ST._candidate(t0, comb[i, C_SIDE], comb[i, P_FINISH] != 0, w):
            if reach(i, t0, w) >= 0:
                t = t0
    if t < 0:
        t = pick(i, True, w)
    if t < 0:
        if comb[i, C_TMASK] != 0:
            t = dash(i, t0, w)
    return t


@kernel
def p_major_move(i, t, c, w):
    """PR_MAJOR_MOVE on positions: :func:`major_toward` (``c``: 1 her Minor is free, + 2 a
    frenzy's); 1 when her Minor was spent too."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if major_toward(i, t, (c & 1) != 0, (c & 2) != 0, w) else 0


@kernel
def p_turn_end(i, t0, flags, w):
    """PR_TURN_END on positions: after a frenzy's turn the auras again (its extra movement
    paid for one attack, ``D_FURY_PAID``); else her Minor still free moves her one more
    position toward her range (her target picked again when it is down)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if flags & 2 != 0:
        dyn[i, D_FURY_PAID] = 0
        if t0 >= 0:
            refresh_auras(w)
        return 0
    if dyn[i, D_MINOR_USED] == 0:
        if ST.is_standing(i, w):
            if t0 >= 0:
                if not ST._candidate(t0, comb[i, C_SIDE], comb[i, P_FINISH] != 0, w):
                    t0 = pick(i, False, w)
            minor_toward(i, t0, False, w)
    return 0
