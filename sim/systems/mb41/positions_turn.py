"""The turn's moves on the draft's positions (seed 001, DRAFT L474-510; :mod:`.positions`:
the map, reach and steps): toward a target (Movement, or a movement talent of
:mod:`.positions_talents`), an attack with Cover (and Speed Burst off her turn), a
frenzy's turn.
"""
from __future__ import annotations

from sim._jit import kernel

from .codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from .layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from .world import unpack
from .slots import spend_fury
from .state import is_standing
from .talents.team import switched
from .turn import frenzy_removal
from . import state as ST
from .positions import (away, done, engaged, form_at, goal_of, is_rough, major_move, minor_move, move_to, reach, ready,
                        refresh_auras, step_to)
from .positions_talents import cover_sprint_for, lets_move_for, talent_move


@kernel
def minor_toward(i, t, w):
    """Step 2 / 4 of the turn: Movement toward her band around target ``t``
    (or the ally she protects); returns whether the Minor was spent."""
    comb, rules, dyn, streams, bf = unpack(w)
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
def major_toward(i, t, minor, w):
    """Step 3 with nobody in reach: the Major moves her toward her band
    (Disengage when engaged); returns whether the Minor was spent too."""
    comb, rules, dyn, streams, bf = unpack(w)
    who, lo, hi = goal_of(i, t, w)
    if not away(i, who, lo, hi, w):
        return False
    return major_move(i, who, lo, hi, minor, w)


@kernel
def attack_call(i, t, w):
    """A basic attack of ``i`` on ``t`` on positions outside the turn's own
    attack site (a frenzy's attacks and retaliations): the auras by position,
    :func:`ready`, :func:`.state.attack_call`, :func:`done`; first, as for
    the turn's attack, an ally may Speed Burst into ``t``'s position to Cover
    her (:func:`cover_sprint`). Returns what the attack returns."""
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
def frenzy_turn(i, t, w):
    """A Fury frenzy's turn on positions (4.1 L746 on the draft's map: the
    draft defines no bursts, the engine plays 4.1's): ``t`` is
    :func:`.targets.frenzy_target` (the closest standing combatant, allies
    included; -1 nobody). Out of her reach: Movement toward her attack's band
    of it (melee 0, ranged 1-2 by her ``attack_kind``); then the Major attacks
    it if in reach (Defensive Switch, Cover), else moves her toward it
    (Disengage when engaged). Stunned: the Major only. Still out of reach
    after the Minor: the frenzy's extra point of movement (:func:`frenzy_step`).
    A Minor that took no step goes to a removal roll when she has an ailment
    (:func:`.turn.frenzy_removal`). No Major or Minor talents of her own; the
    attack's riders as rule ``fury_talents`` allows (:func:`.slots.frenzy_can_pay`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if t < 0:
        return
    refresh_auras(w)
    lo = rules[R_MELEE_POSITIONS]
    hi = rules[R_MELEE_POSITIONS + 1]
    if comb[i, C_FORM] == 1:
        lo = rules[R_RANGED_POSITIONS]
        hi = rules[R_RANGED_POSITIONS + 1]
    minor = dyn[i, D_AIL + A_STUN] == 0
    if minor:
        if reach(i, t, w) < 0:
            if away(i, t, lo, hi, w):
                if minor_move(i, t, lo, hi, w):
                    minor = False
    if not is_standing(i, w):
        return
    if minor:
        if frenzy_removal(i, w):
            minor = False
    if reach(i, t, w) < 0:
        frenzy_step(i, t, lo, hi, w)
    if reach(i, t, w) >= 0:
        t = switched(i, t, w)
        attack_call(i, t, w)
    elif away(i, t, lo, hi, w):
        major_move(i, t, lo, hi, minor, w)
    dyn[i, D_FURY_PAID] = 0
    refresh_auras(w)


@kernel
def p_frenzy_move(i, t, c, w):
    """PR_FRENZY_MOVE: :func:`frenzy_turn`."""
    comb, rules, dyn, streams, bf = unpack(w)
    frenzy_turn(i, t, w)
    return 0


@kernel
def p_attack_at(i, t, c, w):
    """PR_ATTACK_AT: :func:`attack_call` (the form by distance, Cover)."""
    comb, rules, dyn, streams, bf = unpack(w)
    attack_call(i, t, w)
    return 0


@kernel
def p_minor_toward(i, t, c, w):
    """PR_POS_MINOR_TOWARD: :func:`minor_toward`."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if minor_toward(i, t, w) else 0


@kernel
def p_major_toward(i, t, minor, w):
    """PR_POS_MAJOR_TOWARD: :func:`major_toward`."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if major_toward(i, t, minor != 0, w) else 0
