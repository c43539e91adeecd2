"""The turn's moves on the draft's positions (seed 001, DRAFT L474-510; :mod:`.positions`:
the map, reach and steps): toward a target (Movement, or a movement talent of
:mod:`.positions_talents`), an attack with Cover (and Speed Burst off her turn), a
frenzy's step and band (the frenzy's choices in the one turn, :func:`.turn.take_turn`).
"""
from __future__ import annotations

from sim._jit import kernel

from .codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from .layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from .world import unpack
from .slots import spend_fury
from . import state as ST
from .positions import (away, done, engaged, form_at, goal_of, is_rough, major_move, minor_move, move_to, reach, ready,
                        refresh_auras, step_to)
from .positions_talents import cover_sprint_for, lets_move_for, talent_move


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
    """PR_ATTACK_AT: :func:`attack_call` (the form by distance, Cover)."""
    comb, rules, dyn, streams, bf = unpack(w)
    attack_call(i, t, w)
    return 0


@kernel
def p_minor_toward(i, t, c, w):
    """PR_POS_MINOR_TOWARD: :func:`minor_toward` (``c`` 1: a frenzy's)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if minor_toward(i, t, c != 0, w) else 0


@kernel
def p_major_toward(i, t, c, w):
    """PR_POS_MAJOR_TOWARD: :func:`major_toward` (``c``: 1 her Minor is free, + 2 a frenzy's)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if major_toward(i, t, (c & 1) != 0, (c & 2) != 0, w) else 0
